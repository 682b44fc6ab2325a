/**
 * Every test-password outcome of the test institution (specification, Endpoints,
 * "Earlier-generation test paths", scenario table; States and transitions):
 * success -> CONNECTED; text/options/image/image_options MFA -> CHALLENGED, answered
 * right -> CONNECTED with aggregated data, answered wrong -> never CONNECTED;
 * no credentials / server error / unavailable -> HALTED; invalid credentials /
 * invalid login fields / locked out -> DENIED.
 *
 * Each scenario polls the status with the bounded poller and checks the intermediate
 * states it passes through (Resources, Member: is_being_aggregated true while
 * aggregation runs, false once complete; aggregated_at null before the first
 * aggregation; challenges when MFA is due).
 */
import type { PasswordScenario } from '../../targets/profiles/profile.ts';
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import { answersFor, createMember, createUser, readMember, resume, waitUntilSettled, type MemberStatus } from '../helpers.ts';

const TAGS = ['@members', '@destructive'];

/** Invariants of every status seen on the way (Resources, Member). */
function expectConsistentHistory(history: MemberStatus[]) {
  for (const [i, s] of history.entries()) {
    if (s.connection_status === 'CHALLENGED') {
      expect(s.challenges?.length ?? 0, `status #${i + 1} is CHALLENGED with a challenges array`).toBeGreaterThan(0);
    }
  }
}

async function start(api: CheckedClient, poll: Poll, scenario: PasswordScenario) {
  const user = await createUser(api);
  const created = (await createMember(api, user, { scenario })).body.member as MemberStatus;
  expect(created.guid).toMatch(/^MBR-/);
  // The member is new: its first aggregation cannot have succeeded yet.
  if (created.is_being_aggregated === true) {
    expect(created.successfully_aggregated_at ?? null, 'successfully_aggregated_at while the first aggregation runs').toBeNull();
  }
  const settled = await waitUntilSettled(api, poll, user, created.guid);
  for (const s of settled.seen.filter((x) => x.is_being_aggregated)) {
    expect(s.successfully_aggregated_at ?? null, 'successfully_aggregated_at during the first aggregation').toBeNull();
  }
  expectConsistentHistory(settled.seen);
  return { user, member: created.guid, status: settled.value, seen: settled.seen };
}

async function expectConnectedWithData(api: CheckedClient, user: string, member: string, status: MemberStatus) {
  expect(status.connection_status).toBe('CONNECTED');
  expect(status.is_being_aggregated, 'is_being_aggregated once aggregation is complete').toBe(false);
  const full = await readMember(api, user, member);
  expect(full.aggregated_at, 'aggregated_at after aggregation').not.toBeNull();
  expect(full.successfully_aggregated_at, 'successfully_aggregated_at after a successful aggregation').not.toBeNull();
  // What the service does: "Transactions are created automatically when a member aggregates successfully."
  const tx = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100 }, expectStatus: 200 });
  expect((tx.body.transactions as unknown[]).length, 'transactions aggregated for the new member').toBeGreaterThan(0);
}

async function expectNeverConnected(api: CheckedClient, user: string, member: string, status: MemberStatus) {
  expect(status.connection_status, 'a wrong answer must not connect the member').not.toBe('CONNECTED');
  const full = await readMember(api, user, member);
  expect(full.successfully_aggregated_at ?? null, 'successfully_aggregated_at after a failed connection').toBeNull();
}

test('success without MFA: CONNECTED with aggregated data', { tag: [...TAGS, '@smoke'] }, async ({ api, poll }) => {
  const { user, member, status, seen } = await start(api, poll, 'SUCCESS');
  expect(seen.every((s) => s.connection_status !== 'CHALLENGED'), 'no challenge on the way').toBe(true);
  await expectConnectedWithData(api, user, member, status);
});

test('text MFA: a challenge, then a follow-up, answered right: CONNECTED', { tag: [...TAGS, '@mfa'] }, async ({ api, poll, profile }) => {
  const { user, member, status } = await start(api, poll, 'CHALLENGE');
  expect(status.connection_status).toBe('CHALLENGED');
  const first = status.challenges!.map((c) => c.guid);
  await resume(api, user, member, answersFor(profile, status, true));
  const followUp = await waitUntilSettled(api, poll, user, member);
  // Scenario table: "first challenge, then a follow-up".
  expect(followUp.value.connection_status, 'state after answering the first challenge').toBe('CHALLENGED');
  expect(followUp.value.challenges!.map((c) => c.guid), 'the follow-up is a further challenge set').not.toEqual(first);
  await resume(api, user, member, answersFor(profile, followUp.value, true));
  const done = await waitUntilSettled(api, poll, user, member);
  await expectConnectedWithData(api, user, member, done.value);
});

const MFA: Array<[PasswordScenario, string]> = [
  ['CHALLENGE', 'text MFA'],
  ['OPTIONS', 'option-list MFA'],
  ['IMAGE', 'image MFA'],
  ['IMAGE_OPTIONS', 'image-options MFA'],
];

for (const [scenario, label] of MFA.slice(1)) {
  test(`${label}: answered right: CONNECTED with aggregated data`, { tag: [...TAGS, '@mfa'] }, async ({ api, poll, profile }) => {
    let { user, member, status } = await start(api, poll, scenario);
    expect(status.connection_status).toBe('CHALLENGED');
    // A further challenge set may follow (States and transitions); answer each, bounded.
    for (let round = 0; round < 3 && status.connection_status === 'CHALLENGED'; round++) {
      await resume(api, user, member, answersFor(profile, status, true));
      status = (await waitUntilSettled(api, poll, user, member)).value;
    }
    await expectConnectedWithData(api, user, member, status);
  });
}

for (const [scenario, label] of MFA) {
  test(`${label}: answered wrong: never CONNECTED`, { tag: [...TAGS, '@mfa'] }, async ({ api, poll, profile }) => {
    const { user, member, status } = await start(api, poll, scenario);
    expect(status.connection_status).toBe('CHALLENGED');
    await resume(api, user, member, answersFor(profile, status, false));
    const after = await waitUntilSettled(api, poll, user, member);
    await expectNeverConnected(api, user, member, after.value);
  });
}

const END: Array<[PasswordScenario, string, 'HALTED' | 'DENIED']> = [
  ['BAD_REQUEST', 'no credentials', 'HALTED'],
  ['SERVER_ERROR', 'institution server error', 'HALTED'],
  ['UNAVAILABLE', 'institution unavailable', 'HALTED'],
  ['UNAUTHORIZED', 'invalid credentials', 'DENIED'],
  ['INVALID', 'invalid login fields', 'DENIED'],
  ['LOCKED', 'locked out', 'DENIED'],
];

for (const [scenario, label, end] of END) {
  test(`${label}: ${end}`, { tag: TAGS }, async ({ api, poll }) => {
    const { user, member, status } = await start(api, poll, scenario);
    expect(status.connection_status, `end state for the ${label} password`).toBe(end);
    expect(status.is_being_aggregated, 'is_being_aggregated at the end state').toBe(false);
    await expectNeverConnected(api, user, member, status);
  });
}

test('an OAuth member is created PENDING with aggregated_at null and an oauth_window_uri', { tag: [...TAGS, '@oauth'] }, async ({ api }) => {
  const user = await createUser(api);
  const member = (await createMember(api, user, { isOauth: true })).body.member as MemberStatus & { oauth_window_uri?: string; is_oauth?: boolean };
  expect(member.connection_status).toBe('PENDING');
  expect(member.aggregated_at).toBeNull();
  expect(member.is_oauth).toBe(true);
  expect(typeof member.oauth_window_uri, 'oauth_window_uri of an OAuth member').toBe('string');
});
