/**
 * Identify (specification, Endpoints "Widgets and members": identify behaviour;
 * Errors 202 and 409): 202 when an identification is already running, 409 when another
 * aggregation-type job (standard aggregation, extended transaction history) runs, and
 * the normal path ending with account owners. The normal identify's status is not
 * shown (only the two cases above are): any 2xx.
 *
 * "While running" is never assumed (scenarios/api/jobs.ts): the job's duration and the
 * target's response time are not stated, so each scenario reads the member's state after
 * starting the job and judges the identify answer only as far as the reads prove the job
 * ran when identify arrived. What they cannot prove is inconclusive (skipped, with the
 * reason), never failed: a job that ended before identify arrived makes 202 right where
 * 409 was expected, and the other way round.
 */
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import { ANY_2XX, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { requireTestInstitution } from '../steps/test-institution.ts';
import { createMember, createdMember, readMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { inconclusive, insideShortestJob, MIN_JOB_HINT, since, startAndRead, worthAnotherTry, type JobStart } from './jobs.ts';

const TAGS = ['@identify', '@members', '@destructive'];

async function connectedMember(api: CheckedClient, poll: Poll) {
  requireTestInstitution(api.profile, ['SUCCESS']);
  const user = await createUser(api);
  const member = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS' })).guid;
  const settled = await waitUntilSettled(api, poll, user, member);
  // States and transitions: "success leads to CONNECTED".
  expect(settled.value.connection_status).toBe('CONNECTED');
  return { user, member, base: `/users/${user}/members/${member}` };
}

/** The member's account owners (Endpoints: "GET .../account_owners: list account owners"; Errors: 200 for lists). */
async function accountOwners(api: CheckedClient, base: string): Promise<unknown[]> {
  return need<unknown[]>(await api.get(`${base}/account_owners`, { expectStatus: 200 }), 'account_owners', api);
}

/** Account owners once the member's jobs have settled, polled within the bound; an empty list when none came. */
async function ownersAfterIdentification(api: CheckedClient, poll: Poll, user: string, member: string, base: string): Promise<unknown[]> {
  await waitUntilSettled(api, poll, user, member);
  try {
    return (
      await poll(
        () => accountOwners(api, base),
        (owners) => owners.length > 0,
        { what: `account owners of member ${member} after identification` },
      )
    ).value;
  } catch (error) {
    if (!/Timed out/.test((error as Error).message)) throw error;
    return [];
  }
}

test('identify starts an account owner identification; account owners follow', { tag: [...TAGS, '@smoke'] }, async ({ api, poll }) => {
  const { user, member, base } = await connectedMember(api, poll);
  // "starts account owner identification for an existing member": status not shown, any 2xx.
  await api.post(`${base}/identify`, undefined, { expectStatus: ANY_2XX });
  await waitUntilSettled(api, poll, user, member);
  // "GET .../account_owners: list account owners" after the identification (Errors: 200 for lists).
  const owners = await poll(
    () => accountOwners(api, base),
    (o) => o.length > 0,
    { what: 'account owners after identification' },
  );
  expect(owners.value.length, 'account owners after identification').toBeGreaterThan(0);
});

test('identify while an identification runs answers 202', { tag: TAGS }, async ({ api, poll, profile }) => {
  const { user, member, base } = await connectedMember(api, poll);
  let last = '';
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) await waitUntilSettled(api, poll, user, member);
    // The first identify starts an identification (its status is not shown: any 2xx).
    const first: JobStart = await startAndRead(api, user, member, () => api.post(`${base}/identify`, undefined, { expectStatus: ANY_2XX }));
    if (first.running) {
      const second = await api.post(`${base}/identify`);
      const answeredMs = since(first);
      // Errors: 202 "identify requested while an identification is already running".
      if (second.status === 202) return;
      // Answered inside the shortest job time: the identification certainly still ran.
      if (insideShortestJob(profile, answeredMs)) {
        expect(
          second.status,
          `identify answered ${Math.round(answeredMs)} ms after an identification started (shortest job ${profile.timeouts.minJobMs} ms, SVC_MIN_JOB_MS), while it ran: Errors, 202 "identify requested while an identification is already running"`,
        ).toBe(202);
      }
      if (!is2xx(second.status)) {
        // A refused identify starts nothing: a member still aggregating right after it was
        // aggregating throughout, in the identification the read before it saw running.
        const after = await readMember(api, user, member);
        if (after.is_being_aggregated === true)
          expect(
            second.status,
            `identify refused with ${second.status} between two reads that show the identification running (is_being_aggregated true before and after): Errors, 202 "identify requested while an identification is already running"`,
          ).toBe(202);
      }
      last = `the second identify answered ${second.status} ${Math.round(answeredMs)} ms after the first was sent; the identification the read saw running may have ended before it arrived (202 is stated only while one runs)`;
    } else {
      // Not seen running: either it never started, or it ended before the read.
      if (insideShortestJob(profile, first.readMs)) {
        expect(
          first.running,
          `identify answered ${first.res.status} and the member read ${Math.round(first.readMs)} ms after it was sent (inside the shortest job, ${profile.timeouts.minJobMs} ms, SVC_MIN_JOB_MS) shows no job running: "starts account owner identification for an existing member"`,
        ).toBe(true);
      }
      last = `the member read ${Math.round(first.readMs)} ms after identify was sent showed no job running: the identification had ended or never ran, and a second identify cannot be judged`;
    }
    if (!worthAnotherTry(profile, first, attempt)) inconclusive(`${last}; ${MIN_JOB_HINT}`);
  }
});

for (const [job, path] of [
  ['a standard aggregation', 'aggregate'],
  ['an extended history job', 'extend_history'],
] as const) {
  test(`identify while ${job} runs answers 409`, { tag: TAGS }, async ({ api, poll, profile }) => {
    const { user, member, base } = await connectedMember(api, poll);
    const ownersBefore = (await accountOwners(api, base)).length;
    // Limits: "only standard aggregations trigger the throttle period; other aggregation-type
    // jobs are not throttled". A standard aggregation may fall in the throttle period the
    // connection's own aggregation opened (its length and answer are not shown), so it is
    // tried once and a refusal is inconclusive; extended history must start, and may be tried again.
    const throttled = path === 'aggregate';
    let started: JobStart | undefined;
    let last = '';
    for (let attempt = 1; !started; attempt++) {
      if (attempt > 1) await waitUntilSettled(api, poll, user, member);
      const o = await startAndRead(api, user, member, () => api.post(`${base}/${path}`));
      if (!is2xx(o.res.status)) {
        if (throttled)
          inconclusive(
            `POST aggregate answered ${o.res.status}: a standard aggregation may be throttled after the connection's own (Limits; the period and its answer are not shown), so no job ran for identify to meet`,
          );
        // Its status is not shown: any 2xx. "Other aggregation-type jobs are not throttled".
        expect(
          is2xx(o.res.status),
          `POST .../${path} answered ${o.res.status}: extended history is an aggregation-type job, and "other aggregation-type jobs are not throttled" (Limits)`,
        ).toBe(true);
      }
      if (o.running) started = o;
      else {
        if (!throttled && insideShortestJob(profile, o.readMs)) {
          expect(
            o.running,
            `POST .../${path} answered ${o.res.status} and the member read ${Math.round(o.readMs)} ms after it was sent (inside the shortest job, ${profile.timeouts.minJobMs} ms, SVC_MIN_JOB_MS) shows no job running: extended history is an aggregation-type job (Endpoints, identify behaviour), and it is not throttled (Limits)`,
          ).toBe(true);
        }
        last = `the member read ${Math.round(o.readMs)} ms after POST ${path} was sent showed no job running: ${job} had ended (or, for a standard aggregation, was throttled) before identify could meet it`;
        if (throttled || !worthAnotherTry(profile, o, attempt)) inconclusive(`${last}; ${MIN_JOB_HINT}`);
      }
    }
    const answer = await api.post(`${base}/identify`);
    const answeredMs = since(started);
    // Errors: 409 "identify requested while another aggregation-type job is running".
    if (answer.status === 409) return;
    const rule = 'Errors, 409 "identify requested while another aggregation-type job is running"';
    if (insideShortestJob(profile, answeredMs)) {
      expect(
        answer.status,
        `identify answered ${Math.round(answeredMs)} ms after ${job} started (shortest job ${profile.timeouts.minJobMs} ms, SVC_MIN_JOB_MS), while it ran: ${rule}`,
      ).toBe(409);
    }
    // Either way a refusal other than 409 breaks a statement: 409 while the job ran, and
    // once it had ended identify "starts account owner identification".
    if (!is2xx(answer.status))
      expect(
        answer.status,
        `identify refused with ${answer.status} right after ${job} was seen running: ${rule}, or, had it ended, "starts account owner identification"`,
      ).toBe(409);
    // A 2xx: the job ended before identify arrived (then it started an identification and
    // account owners follow), or the target took identify while the job ran.
    if (ownersBefore > 0)
      inconclusive(
        `identify answered ${answer.status} ${Math.round(answeredMs)} ms after ${job} was seen running, and the member already had account owners, so whether it started an identification (the job having ended) cannot be told; ${MIN_JOB_HINT}`,
      );
    const owners = await ownersAfterIdentification(api, poll, user, member, base);
    if (owners.length > 0)
      inconclusive(
        `identify answered ${answer.status} ${Math.round(answeredMs)} ms after ${job} was seen running and started an identification (account owners followed): the job had ended before identify arrived; ${MIN_JOB_HINT}`,
      );
    expect(
      answer.status,
      `identify answered ${answer.status} right after ${job} was seen running and started no identification (no account owners within the bound): ${rule}, or, had the job ended, "starts account owner identification"`,
    ).toBe(409);
  });
}
