/**
 * Aggregation limits (specification, Limits: "aggregation throttle: only standard
 * aggregations trigger the throttle period; other aggregation-type jobs are not
 * throttled"; What the service does and Limits: "accounts and transactions refresh
 * every 24 hours unless the owning user is disabled").
 *
 * The throttle's status and period are not shown. Stated: a second standard aggregation
 * inside the period is throttled, so it starts no aggregation (is_being_aggregated
 * does not turn true, aggregated_at does not move). Inferred: it is refused with a 4xx.
 * Each request waits for the previous job to end, so a refusal is the throttle and not
 * the 409 of a running job.
 *
 * The 24-hour refresh needs a day to pass. On a real target that cannot be arranged,
 * so those scenarios run on the simulator only: its control endpoint POST /_sim/refresh
 * (never part of the svc contract) judges ONE user's members as if 24 hours had passed,
 * without moving the clock that scenarios running in parallel share. What is asserted
 * is observed through the platform API: a background aggregation runs and brings new
 * transactions, or nothing runs.
 */
import { request as undiciRequest } from 'undici';
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import type { TargetProfile } from '../../targets/index.ts';
import { ANY_2XX, is2xx, readMember } from '../helpers.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, settle, sleep, walkList } from './journeys.ts';

const TAGS = ['@members', '@aggregation', '@destructive'];
const DAY_MS = 86_400_000;

test('a second standard aggregation is throttled; extended history, verification and identification are not', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const base = `/users/${user}/members/${member}`;
  // The first explicit aggregation: started, or already inside the throttle period the
  // connection's own aggregation opened (the period is not shown). Either answer is
  // allowed, so its status is not asserted; the throttle is judged on the next one.
  await api.post(`${base}/aggregate`);
  await settle(api, poll, user, member);
  const before = await readMember(api, user, member);
  await sleep(1100); // aggregated_at may have whole-second resolution
  const second = await api.post(`${base}/aggregate`);
  // Limits, aggregation throttle: "only standard aggregations trigger the throttle period".
  const right = await readMember(api, user, member);
  expect(right.is_being_aggregated, 'an aggregation started by a standard aggregation inside the throttle period').not.toBe(true);
  const after = await settle(api, poll, user, member);
  expect(after.aggregated_at, 'aggregated_at after a throttled standard aggregation').toBe(before.aggregated_at);
  expectInferred(profile, second.status >= 400 && second.status < 500, {
    expectation: 'a throttled standard aggregation is refused with a 4xx',
    basis: 'Limits name the throttle, not how a throttled request is answered',
    received: String(second.status),
  });
  // "Other aggregation-type jobs are not throttled": each is accepted (status not shown: any 2xx).
  for (const job of ['extend_history', 'verify', 'identify']) {
    const res = await api.post(`${base}/${job}`);
    expect(is2xx(res.status), `POST ${job} inside the throttle period of a standard aggregation answered ${res.status}`).toBe(true);
    await settle(api, poll, user, member);
  }
});

/** Simulator control: run the 24-hour refresh of one user's members as if `elapsedMs` had passed. */
async function refreshAsIfLater(profile: TargetProfile, user: string, elapsedMs: number) {
  const res = await undiciRequest(`${profile.platformBaseUrl}/_sim/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_guid: user, elapsed_ms: elapsedMs }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`POST /_sim/refresh answered ${res.statusCode}: ${text.slice(0, 200)}`);
}

function simulatorOnly(profile: TargetProfile) {
  test.skip(!profile.isSimulator, 'the 24-hour refresh needs a day to pass: only the simulator can be moved (POST /_sim/refresh); on a real target observe it over a day instead');
}

async function transactionCount(api: CheckedClient, user: string) {
  return (await walkList(api, `/users/${user}/transactions`, 'transactions')).length;
}

async function refreshed(api: CheckedClient, poll: Poll, user: string, member: string, before: { count: number; aggregatedAt: unknown }) {
  const status = await readMember(api, user, member);
  await settle(api, poll, user, member);
  const after = await readMember(api, user, member);
  return { startedAtOnce: status.is_being_aggregated, count: await transactionCount(api, user), aggregatedAt: after.aggregated_at, before };
}

test('connected members refresh when 24 hours have passed', { tag: TAGS }, async ({ api, poll, profile }) => {
  simulatorOnly(profile);
  const { user, member } = await connectedUser(api, poll);
  const before = { count: await transactionCount(api, user), aggregatedAt: (await readMember(api, user, member)).aggregated_at };
  await sleep(1100); // aggregated_at has whole-second resolution
  await refreshAsIfLater(profile, user, DAY_MS + 60_000);
  const seen = await poll(() => refreshed(api, poll, user, member, before), (r) => r.count > before.count && r.aggregatedAt !== before.aggregatedAt, {
    what: `a background refresh of member ${member} 24 hours after its aggregation`,
  });
  expect(seen.value.count, 'transactions after the 24-hour refresh').toBeGreaterThan(before.count);
});

test('members of a disabled user are not refreshed after 24 hours', { tag: TAGS }, async ({ api, poll, profile }) => {
  simulatorOnly(profile);
  const { user, member } = await connectedUser(api, poll);
  // Update user: its status is not shown, any 2xx.
  await api.put(`/users/${user}`, { user: { is_disabled: true } }, { expectStatus: ANY_2XX });
  const before = { count: await transactionCount(api, user), aggregatedAt: (await readMember(api, user, member)).aggregated_at };
  await sleep(1100);
  await refreshAsIfLater(profile, user, DAY_MS + 60_000);
  const after = await refreshed(api, poll, user, member, before);
  expect(after.startedAtOnce, 'an aggregation started for a disabled user').toBe(false);
  await sleep(300);
  expect(await transactionCount(api, user), 'transactions of a disabled user after 24 hours').toBe(before.count);
  expect((await readMember(api, user, member)).aggregated_at, 'aggregated_at of a disabled user after 24 hours').toBe(before.aggregatedAt);
});
