/**
 * Identify (specification, Endpoints "Widgets and members": identify behaviour;
 * Errors 202 and 409): 202 when an identification is already running, 409 when another
 * aggregation-type job (standard aggregation, extended transaction history) runs, and
 * the normal path ending with account owners. The normal identify's status is not
 * shown (only the two cases above are): any 2xx.
 *
 * "While running" depends on the target's job duration: the second request follows the
 * first at once, which on the simulator (SVC_SIM_AGGREGATION_MS, 60 ms by default) and on
 * real targets (seconds) is inside the job.
 */
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import { ANY_2XX, createMember, createUser, createdMember, need, requireTestInstitution, waitUntilSettled } from '../helpers.ts';

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

test('identify while an identification runs answers 202; account owners follow', { tag: [...TAGS, '@smoke'] }, async ({ api, poll }) => {
  const { user, member, base } = await connectedMember(api, poll);
  // "starts account owner identification for an existing member": status not shown, any 2xx.
  await api.post(`${base}/identify`, undefined, { expectStatus: ANY_2XX });
  // "when an identification is already running the response status is 202".
  await api.post(`${base}/identify`, undefined, { expectStatus: 202 });
  await waitUntilSettled(api, poll, user, member);
  // "GET .../account_owners: list account owners" after the identification (Errors: 200 for lists).
  const owners = await poll(
    () => api.get(`${base}/account_owners`, { expectStatus: 200 }),
    (r) => (need<unknown[]>(r, 'account_owners', api)).length > 0,
    { what: 'account owners after identification' },
  );
  expect(need<unknown[]>(owners.value, 'account_owners', api).length, 'account owners after identification').toBeGreaterThan(0);
});

for (const [job, path] of [
  ['a standard aggregation', 'aggregate'],
  ['an extended history job', 'extend_history'],
] as const) {
  test(`identify while ${job} runs answers 409`, { tag: TAGS }, async ({ api, poll }) => {
    const { base } = await connectedMember(api, poll);
    // Starting the job: its status is not shown, any 2xx.
    await api.post(`${base}/${path}`, undefined, { expectStatus: ANY_2XX });
    // "when another aggregation-type job (standard aggregation, extended transaction history) is running the status is 409".
    await api.post(`${base}/identify`, undefined, { expectStatus: 409 });
  });
}
