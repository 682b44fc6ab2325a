/**
 * A member's own fields and its life after creation (specification, Resources "Member" and
 * identifier shapes; Endpoints "Widgets and members": "Members can also be aggregated,
 * verified, updated and deleted; X-CALLBACK-PAYLOAD is accepted on create, update,
 * aggregate and verify member", "GET .../credentials: list of member credentials";
 * Events rule 8: "The real-time interface accepts an optional header SVC-SKIP-WEBHOOK on
 * create, update and delete of ... members"; Resources, Credential: "Has a type field";
 * "Other resources also have a guid").
 *
 * What is not shown stays open: the update request body (the create request's `member`
 * object with its known field `id` is sent), the update and delete statuses (any 2xx),
 * the status of a read after delete (must not succeed; 404 inferred), the value of
 * SVC-SKIP-WEBHOOK (the header is "optional"; `true` is sent). Whether a webhook is then
 * skipped is the delivery side's check (delivery: webhook-delivered-despite-skip); here
 * the requests carrying the headers must be accepted and do what they ask.
 *
 * A null where the specification states a type (member `name`) is not a clear violation
 * (real-service-notes, "Nullability"): it is reported, never failed.
 */
import { test, expect, currentVersion, noteFinding, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX, carriesNamed, expectRefused, is2xx, need } from '../steps/responses.ts';
import { uniqueId } from '../steps/users.ts';
import { institutionCredentials, requireTestInstitution } from '../steps/test-institution.ts';
import { createMember, createdMember, readMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, memberAccounts, settle, walkList } from './journeys.ts';

const TAGS = ['@members', '@destructive'];

/**
 * Resources, identifier shapes: "USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account".
 * The prefix is stated; what follows it is an opaque string (Versioning: "changing length
 * or format of opaque strings (identifiers, messages)" is non-breaking), so a longer or
 * re-formatted rest is reported, never failed.
 */
const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const SHAPE = { USR: /^USR-./, MBR: /^MBR-./, ACT: /^ACT-./ };
const FULL_SHAPE = { USR: new RegExp(`^USR-${UUID}$`), MBR: new RegExp(`^MBR-${UUID}$`), ACT: new RegExp(`^ACT-${UUID}$`) };

/** The stated prefix (a failure without it); a rest that is not a uuid is an informational annotation. */
function expectIdShape(value: unknown, kind: keyof typeof SHAPE, label: string) {
  expect(String(value), `${label}: ${kind}-<uuid> (Resources, identifier shapes)`).toMatch(SHAPE[kind]);
  if (!FULL_SHAPE[kind].test(String(value)))
    noteFinding(
      test.info(),
      'informational',
      `${label} ${JSON.stringify(value)} has its stated prefix ${kind}- and an opaque rest other than a uuid (Versioning: the length or format of opaque strings may change)`,
    );
}

/** A stated type where a null is reported, not failed (real-service-notes, "Nullability"). */
function expectTypeOrReportedNull(value: unknown, type: 'string' | 'boolean', label: string) {
  expect(value === null || typeof value === type, `${label} is a ${type} (Resources, Member); received ${JSON.stringify(value)}`).toBe(true);
  if (value === null) noteFinding(test.info(), 'informational', `${label} is null where the specification states a ${type} (nullness not stated)`);
}

/** A user created with a client id of its own (Resources: "Clients are advised to set their own id"). */
async function userWithId(api: CheckedClient) {
  const id = uniqueId('scn-user');
  // The user-create status is not shown: any 2xx.
  const res = await api.post('/users', { user: { id } }, { expectStatus: ANY_2XX });
  return { guid: need<string>(res, 'user.guid', api), id };
}

test('a member reads back its client id, owner, institution and the stated field types', { tag: TAGS }, async ({ api, poll, profile }) => {
  requireTestInstitution(profile, ['SUCCESS']);
  const user = await userWithId(api);
  expectIdShape(user.guid, 'USR', 'user guid shape');
  const memberId = uniqueId('scn-member');
  const metadata = `scn-metadata-${memberId}`;
  // Create-member request fields known: institution_code, id, enable_app2app (the helper
  // sends the code; enable_app2app goes beside member, real-service-notes "Request shapes").
  const created = createdMember(api, await createMember(api, user.guid, { scenario: 'SUCCESS', extra: { id: memberId, metadata, enable_app2app: false } }));
  // Resources, Member: guid "MBR-<uuid>".
  expectIdShape(created.guid, 'MBR', 'member guid shape');
  await waitUntilSettled(api, poll, user.guid, created.guid);
  const m = await readMember(api, user.guid, created.guid);
  expect(m.guid, 'guid of the member read').toBe(created.guid);
  // Resources, Member: "id string client-supplied identifier".
  expect(m.id, 'member id: the client-supplied identifier').toBe(memberId);
  // The other fields the Member table names: their values where the target serves them (the
  // table names them without saying they are always present: an absent one is inferred).
  const served = (field: string) => carriesNamed(profile, m, field, `member ${created.guid}`);
  // What the service does: "A member is the connection between a user and an institution";
  // Resources, Member: user_guid "owning user", user_id "client identifier of the user".
  if (served('user_guid')) expect(m.user_guid, 'user_guid: the owning user').toBe(user.guid);
  if (served('user_id')) expect(m.user_id, 'user_id: the client identifier of the owning user').toBe(user.id);
  if (served('institution_code')) expect(m.institution_code, 'institution_code: the institution the member connects').toBe(profile.testInstitution.code);
  // Resources, Member: types of name, connection_status, is_being_aggregated, is_managed_by_user,
  // is_oauth, metadata; "string or null" for the two aggregation timestamps.
  if (served('name')) expectTypeOrReportedNull(m.name, 'string', 'name');
  if (served('connection_status')) expect(typeof m.connection_status, 'connection_status is a string').toBe('string');
  if (served('is_being_aggregated')) expect(typeof m.is_being_aggregated, 'is_being_aggregated is a boolean').toBe('boolean');
  if (served('is_managed_by_user')) expect(typeof m.is_managed_by_user, 'is_managed_by_user is a boolean').toBe('boolean');
  if (served('is_oauth')) expect(typeof m.is_oauth, 'is_oauth is a boolean').toBe('boolean');
  if (served('metadata')) expectTypeOrReportedNull(m.metadata, 'string', 'metadata');
  for (const k of ['aggregated_at', 'successfully_aggregated_at'] as const) {
    if (served(k)) expect(m[k] === null || typeof m[k] === 'string', `${k} is a string or null; received ${JSON.stringify(m[k])}`).toBe(true);
  }
  // That the metadata sent on create is kept is not stated (metadata is not among the
  // create-member fields the specification lists).
  expectInferred(profile, m.metadata === metadata, {
    expectation: 'a member created with metadata reads it back',
    basis: 'Resources, Member names metadata "additional information"; the create fields listed do not include it',
    received: JSON.stringify(m.metadata),
  });
  // Accounts of the member: "ACT-<uuid> account".
  const accounts = await memberAccounts(api, user.guid, created.guid);
  expect(
    accounts.map((a) => a.guid).filter((g) => !SHAPE.ACT.test(String(g))),
    'account guids without the prefix ACT- (Resources, identifier shapes)',
  ).toEqual([]);
  for (const a of accounts) expectIdShape(a.guid, 'ACT', `account ${String(a.guid)}`);
});

test('update member: the new client id reads back', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const id = uniqueId('scn-member-updated');
  // "Members can also be ... updated": the body is not shown; the create request's member
  // object with its known field id is sent (status not shown: any 2xx).
  await api.put(`/users/${user}/members/${member}`, { member: { id, metadata: 'updated by the conformance suite' } }, { expectStatus: ANY_2XX });
  const read = await readMember(api, user, member);
  expect(read.id, 'member id after the update').toBe(id);
  expectInferred(profile, read.metadata === 'updated by the conformance suite', {
    expectation: 'an update of metadata reads back',
    basis: 'the update request body is not shown',
    received: JSON.stringify(read.metadata),
  });
});

test('delete member: it is no longer read or listed', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  // "Members can also be ... deleted" (status not shown: any 2xx; the reference answers 204).
  await api.delete(`/users/${user}/members/${member}`, { expectStatus: ANY_2XX });
  await expectGone(api, profile, user, member);
});

async function expectGone(api: CheckedClient, profile: CheckedClient['profile'], user: string, member: string) {
  const read = await api.get(`/users/${user}/members/${member}`);
  expectRefused(profile, read, 'reading a deleted member', { stated: 'Endpoints: members can be deleted', inferred: [404] });
  const listed = (await walkList<{ guid: string }>(api, `/users/${user}/members`, 'members')).map((m) => m.guid);
  expect(listed, 'members listed after the delete').not.toContain(member);
}

test('SVC-SKIP-WEBHOOK is accepted on update and delete; X-CALLBACK-PAYLOAD on create, update, aggregate and verify', { tag: [...TAGS, '@inferred'] }, async ({
  api,
  poll,
  profile,
}) => {
  const callback = { 'X-CALLBACK-PAYLOAD': `scn-callback-${uniqueId('cb')}` };
  const skip = { 'SVC-SKIP-WEBHOOK': 'true' };
  requireTestInstitution(profile, ['SUCCESS']);
  const user = (await userWithId(api)).guid;
  // Endpoints: create member, "Header X-CALLBACK-PAYLOAD is accepted".
  const member = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS', headers: callback })).guid;
  const settled = await waitUntilSettled(api, poll, user, member);
  expect(settled.value.connection_status, 'the success password (SVC_TEST_PASSWORD_SUCCESS) connects the member').toBe('CONNECTED');
  const base = `/users/${user}/members/${member}`;

  // Update with both headers: accepted (any 2xx) and applied.
  const id = uniqueId('scn-member-skip');
  await api.put(base, { member: { id } }, { headers: { ...callback, ...skip }, expectStatus: ANY_2XX });
  expect((await readMember(api, user, member)).id, 'member id after an update carrying SVC-SKIP-WEBHOOK and X-CALLBACK-PAYLOAD').toBe(id);

  // Aggregate with the header: accepted. The first standard aggregation after connecting
  // may fall inside a throttle period (Limits; its length is not shown): a refusal is
  // judged against the same request without the header.
  const aggregate = await api.post(`${base}/aggregate`, undefined, { headers: callback });
  if (!is2xx(aggregate.status)) {
    const plain = await api.post(`${base}/aggregate`);
    expect(is2xx(plain.status), `aggregate answered ${aggregate.status} with X-CALLBACK-PAYLOAD and ${plain.status} without it`).toBe(false);
    test.info().annotations.push({
      type: 'not judged',
      description: `aggregate was refused with and without X-CALLBACK-PAYLOAD (${aggregate.status}, ${plain.status}): a throttle period, so the header was not judged on aggregate`,
    });
  }
  await settle(api, poll, user, member);
  // Verify with the header (not throttled, Limits: "other aggregation-type jobs are not throttled"): any 2xx.
  await api.post(`${base}/verify`, undefined, { headers: callback, expectStatus: ANY_2XX });
  await settle(api, poll, user, member);

  // Delete with SVC-SKIP-WEBHOOK: accepted, and the member is gone.
  await api.delete(base, { headers: skip, expectStatus: ANY_2XX });
  await expectGone(api, profile, user, member);
});

test('SVC-SKIP-WEBHOOK is accepted on member create', { tag: TAGS }, async ({ api, poll, profile }) => {
  requireTestInstitution(profile, ['SUCCESS']);
  const user = (await userWithId(api)).guid;
  // Events, rule 8: "The real-time interface accepts an optional header SVC-SKIP-WEBHOOK on
  // create, update and delete of ... members": the create carrying it makes the member.
  const created = await createMember(api, user, { scenario: 'SUCCESS', headers: { 'SVC-SKIP-WEBHOOK': 'true' } });
  const member = createdMember(api, created).guid;
  // The member it created is read back and connects (States and transitions: "success leads to CONNECTED").
  const settled = await waitUntilSettled(api, poll, user, member);
  expect(settled.value.connection_status, 'the member created with SVC-SKIP-WEBHOOK connects').toBe('CONNECTED');
});

test('the member credentials list names each credential with a guid and a type', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  // Endpoints: "GET .../credentials: list of member credentials" (Errors: 200 for lists).
  const res = await api.get(`/users/${user}/members/${member}/credentials`, { expectStatus: 200 });
  const credentials = need<Array<Record<string, unknown>>>(res, 'credentials', api);
  // The member was created with a user name and a password: it has credentials to list.
  expect(credentials.length, 'credentials of a member created with two').toBeGreaterThan(0);
  // Resources, Credential (institution or member): "Has a type field"; "Other resources also have a guid".
  expect(credentials.filter((c) => !('type' in c)).length, 'member credentials without a type field').toBe(0);
  expect(credentials.filter((c) => typeof c.guid !== 'string' || !c.guid).length, 'member credentials without a guid').toBe(0);
  // That they are the institution's credential fields is not stated.
  const known = await institutionCredentials(api, profile.testInstitution.code, currentVersion(profile));
  const guids = credentials.map((c) => c.guid);
  expectInferred(profile, guids.includes(known.username) && guids.includes(known.password), {
    expectation: 'the member credentials are the institution credentials it was created with',
    basis: 'Endpoints name only "list of member credentials"',
    received: JSON.stringify(guids),
  });
});
