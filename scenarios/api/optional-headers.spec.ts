/**
 * Events rule 8: "The real-time interface accepts an optional header SVC-SKIP-WEBHOOK on
 * create, update and delete of holdings, members, transactions and users" — on every such
 * request, not only on the member update and delete member-lifecycle.spec.ts sends. Each
 * request is first shown to be accepted without the header (the bodies of user and
 * transaction updates are not shown: the vendor reference's shapes are sent), then sent
 * with it: a request accepted without an optional header the specification names must be
 * accepted with it. Whether a webhook is then skipped is the delivery side's check.
 */
import { test, expect } from '../fixtures.ts';
import { ANY_2XX, expectRefused, is2xx, need } from '../steps/responses.ts';
import { uniqueId } from '../steps/users.ts';
import { connectedUser, walkList } from './journeys.ts';

const SKIP = { 'SVC-SKIP-WEBHOOK': 'true' };

test('SVC-SKIP-WEBHOOK is accepted on user create, update and delete, and a deleted user is no longer read', { tag: ['@members', '@destructive'] }, async ({
  api,
  profile,
}) => {
  // Create: accepted with the header (the user-create status is not shown: any 2xx).
  const created = await api.post('/users', { user: { id: uniqueId('scn-skip-user') } }, { headers: SKIP, expectStatus: ANY_2XX });
  const user = need<string>(created, 'user.guid', api);
  const update = { user: { metadata: 'updated by the conformance suite' } };
  const plain = await api.put(`/users/${user}`, update);
  test.skip(
    !is2xx(plain.status),
    `the target refuses the user update ${JSON.stringify(update)} without the header (${plain.status}): the header cannot be judged on it (the update body is not shown)`,
  );
  await api.put(`/users/${user}`, update, { headers: SKIP, expectStatus: ANY_2XX });
  await api.delete(`/users/${user}`, { headers: SKIP, expectStatus: ANY_2XX });
  // Rule 8 names the delete of users: after it the user is gone (which refusal is not shown; 404 inferred).
  const read = await api.get(`/users/${user}`);
  expectRefused(profile, read, 'reading a deleted user', { stated: 'Events rule 8: users can be deleted', inferred: [404] });
});

test('SVC-SKIP-WEBHOOK is accepted on a transaction update', { tag: ['@transactions', '@destructive'] }, async ({ api, poll }) => {
  const { user } = await connectedUser(api, poll);
  const [txn] = await walkList<{ guid: string }>(api, `/users/${user}/transactions`, 'transactions', { maxPages: 1 });
  expect(txn, 'a transaction of the aggregated member').toBeTruthy();
  const update = { transaction: { description: 'renamed by the conformance suite' } };
  const plain = await api.put(`/users/${user}/transactions/${txn.guid}`, update);
  test.skip(
    !is2xx(plain.status),
    `the target refuses the transaction update ${JSON.stringify(update)} without the header (${plain.status}): the header cannot be judged on it (the update body is not shown)`,
  );
  await api.put(`/users/${user}/transactions/${txn.guid}`, update, { headers: SKIP, expectStatus: ANY_2XX });
  // Errors: "200 normal success for reads": the transaction reads back by its guid.
  await api.get(`/users/${user}/transactions/${txn.guid}`, { expectStatus: 200 });
});

test('SVC-SKIP-WEBHOOK is accepted on the deprecated managed member create, update and delete (v20250224)', {
  tag: ['@members', '@deprecated', '@destructive'],
}, async ({ api, profile }) => {
  const version = 'v20250224';
  test.skip(!profile.versions.supported.includes(version), `${version} is not among the target's versions (SVC_VERSIONS)`);
  // Versioning, changes in v20250224: /users/{user_guid}/managed_members is deprecated (not removed);
  // its create and update are member creates and updates (Events rule 8).
  const created = await api.post('/users', { user: { id: uniqueId('scn-skip-managed') } }, { version, expectStatus: ANY_2XX });
  const user = need<string>(created, 'user.guid', api);
  const base = `/users/${user}/managed_members`;
  const body = () => ({ member: { institution_code: profile.testInstitution.code, id: uniqueId('scn-managed'), name: 'Conformance managed member' } });
  const plain = await api.post(base, body(), { version });
  test.skip(
    !is2xx(plain.status),
    `the target refuses the managed member create without the header (${plain.status}): the header cannot be judged on it (the body is not shown)`,
  );
  const withHeader = await api.post(base, body(), { version, headers: SKIP, expectStatus: ANY_2XX });
  const guid = need<string>(withHeader, 'member.guid', api);
  await api.put(`${base}/${guid}`, { member: { name: 'Conformance managed member, renamed' } }, { version, headers: SKIP, expectStatus: ANY_2XX });
  await api.delete(`${base}/${guid}`, { version, headers: SKIP, expectStatus: ANY_2XX });
});
