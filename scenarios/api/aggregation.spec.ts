/**
 * Aggregation limits (specification, Limits: "aggregation throttle: only standard
 * aggregations trigger the throttle period; other aggregation-type jobs are not
 * throttled"; What the service does and Limits: "accounts and transactions refresh
 * every 24 hours unless the owning user is disabled").
 *
 * The throttle's status and period are not shown: a throttled request must be refused
 * with a 4xx and start no job. Each request waits for the previous job to end, so a
 * refusal is the throttle and not the 409 of a running job.
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
import type { TargetProfile } from '../../targets/profiles/profile.ts';
import { readMember } from '../helpers.ts';
import { connectedUser, settle, sleep, walkList } from './journeys.ts';

const TAGS = ['@members', '@aggregation', '@destructive'];
const DAY_MS = 86_400_000;

test('a second standard aggregation is throttled; extended history, verification and identification are not', { tag: TAGS }, async ({ api, poll }) => {
  const { user, member } = await connectedUser(api, poll);
  const base = `/users/${user}/members/${member}`;
  const first = await api.post(`${base}/aggregate`);
  expect(first.status, 'the first standard aggregation: started, or already throttled by the connection itself').toBeLessThan(500);
  await settle(api, poll, user, member);
  const second = await api.post(`${base}/aggregate`);
  expect(second.status, 'a standard aggregation inside the throttle period (Limits: aggregation throttle)').toBeGreaterThanOrEqual(400);
  expect(second.status).toBeLessThan(500);
  expect((await readMember(api, user, member)).is_being_aggregated, 'no aggregation started by the throttled request').toBe(false);
  // "Other aggregation-type jobs are not throttled."
  for (const job of ['extend_history', 'verify', 'identify']) {
    const res = await api.post(`${base}/${job}`);
    expect(res.status, `POST ${job} inside the throttle period of a standard aggregation`).toBeLessThan(300);
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
  await api.put(`/users/${user}`, { user: { is_disabled: true } }, { expectStatus: [200, 202, 204] });
  const before = { count: await transactionCount(api, user), aggregatedAt: (await readMember(api, user, member)).aggregated_at };
  await sleep(1100);
  await refreshAsIfLater(profile, user, DAY_MS + 60_000);
  const after = await refreshed(api, poll, user, member, before);
  expect(after.startedAtOnce, 'an aggregation started for a disabled user').toBe(false);
  await sleep(300);
  expect(await transactionCount(api, user), 'transactions of a disabled user after 24 hours').toBe(before.count);
  expect((await readMember(api, user, member)).aggregated_at, 'aggregated_at of a disabled user after 24 hours').toBe(before.aggregatedAt);
});
