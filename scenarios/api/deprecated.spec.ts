/**
 * Deprecated endpoints, called and judged (specification, Versioning):
 *  - "Changes in v20250224 ... Deprecated endpoints: /managed_institutions,
 *    /users/{user_guid}/managed_members and its member, account, transaction sub-paths."
 *  - "/payment_processor_token is deprecated in favour of /token."
 *
 * What is stated about a deprecated endpoint, and how each part is judged:
 *  - it is deprecated, not sunset: the Versioning section lists sunset endpoints apart, and
 *    only a sunset removes access ("After those 12 months it sunsets: access is removed and
 *    requests return an error"). So the endpoint still answers a success;
 *  - "Response headers that signal deprecated and sunset endpoints are present in all
 *    versions", but "Names of the deprecation and sunset response headers: not shown": the
 *    header is demanded under a name the user set (SVC_DEPRECATION_HEADER; then stated)
 *    and only warned about under the profile's default guess (inferred; see
 *    targets/profiles/profile.ts headerNamesExplicit). The contract check
 *    version_conformance makes the same judgement on every response of an operation the
 *    document marks deprecated; this file states it where the endpoint is called.
 * Request and response bodies of these endpoints are not shown: statuses are any 2xx
 * except where the Errors table states 200 for reads and lists.
 */
import { test, expect, type CheckedClient, type CheckedResponse, type Poll } from '../fixtures.ts';
import type { TargetProfile } from '../../targets/index.ts';
import { ANY_2XX, is2xx, need } from '../steps/responses.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { expectDeprecationHeader, expectInferred } from '../inferred.ts';
import { connectedUser, exchangeCode, fieldAnywhere, memberAccounts, settle } from './journeys.ts';

const OLD = 'v20111101';
const V2025 = 'v20250224';

function supports(profile: TargetProfile, version: string) {
  test.skip(!profile.versions.supported.includes(version), `the target does not list ${version} in SVC_VERSIONS`);
}

/**
 * One managed member's life through every deprecated managed_members path the document
 * shows (create, list, read, update, its accounts, its transactions, delete), at `version`.
 * Returns each answer with what it was, for the header judgement.
 */
async function managedMemberLife(api: CheckedClient, profile: TargetProfile, version: string) {
  const user = await createUser(api, { version });
  const base = `/users/${user}/managed_members`;
  const calls: Array<[string, CheckedResponse]> = [];
  // Create: the body is not shown; the vendor's shape wraps a member with institution_code.
  const created = await api.post(
    base,
    { member: { institution_code: profile.testInstitution.code, id: uniqueId('scn-managed'), name: 'Conformance managed member' } },
    { version, expectStatus: ANY_2XX },
  );
  calls.push([`POST ${base}`, created]);
  const guid = need<string>(created, 'member.guid', api);
  // Errors: "200 normal success for reads, lists".
  const list = await api.get(base, { version, query: { records_per_page: 100 }, expectStatus: 200 });
  calls.push([`GET ${base}`, list]);
  expect(JSON.stringify(list.body), `the managed member ${guid} in the managed member list`).toContain(guid);
  const read = await api.get(`${base}/${guid}`, { version, expectStatus: 200 });
  calls.push([`GET ${base}/{member_guid}`, read]);
  expect(need(read, 'member.guid', api)).toBe(guid);
  calls.push([
    `PUT ${base}/{member_guid}`,
    await api.put(`${base}/${guid}`, { member: { name: 'Conformance managed member, renamed' } }, { version, expectStatus: ANY_2XX }),
  ]);
  calls.push([`GET ${base}/{member_guid}/accounts`, await api.get(`${base}/${guid}/accounts`, { version, expectStatus: 200 })]);
  calls.push([`GET ${base}/{member_guid}/transactions`, await api.get(`${base}/${guid}/transactions`, { version, expectStatus: 200 })]);
  calls.push([`DELETE ${base}/{member_guid}`, await api.delete(`${base}/${guid}`, { version, expectStatus: ANY_2XX })]);
  return calls;
}

test(`the managed member endpoints, deprecated on ${V2025}, still answer and signal their deprecation`, {
  tag: ['@versions', '@deprecated', '@destructive', '@inferred'],
}, async ({ api, profile }) => {
  supports(profile, V2025);
  // The deprecated /managed_institutions first: the header it carries names the signal this
  // target uses, and every managed member answer is held to it (contracts/invariants.ts,
  // signals where stated) even where the user set no name.
  await api.get('/managed_institutions', { version: V2025, expectStatus: 200 });
  // Versioning: deprecated from v20250224, not sunset: every call still succeeds there,
  // and each answer carries the deprecation header.
  for (const [what, res] of await managedMemberLife(api, profile, V2025)) expectDeprecationHeader(profile, res.headers, `${what} on ${V2025}`);
});

test(`the managed member endpoints answer on ${OLD}, before their deprecation`, { tag: ['@versions', '@deprecated', '@destructive'] }, async ({
  api,
  profile,
}) => {
  // The deprecation is a change of v20250224; the earlier version serves the same paths.
  supports(profile, OLD);
  expect((await managedMemberLife(api, profile, OLD)).length).toBe(7);
});

async function authorizationCode(api: CheckedClient, poll: Poll): Promise<{ code: string; user: string; member: string; account: string }> {
  const { user, member } = await connectedUser(api, poll);
  // Endpoints, processors: "A member in the scope must already have been verified".
  await api.post(`/users/${user}/members/${member}/verify`, undefined, { expectStatus: ANY_2XX });
  await settle(api, poll, user, member);
  const [account] = await memberAccounts(api, user, member);
  const res = await api.post(
    '/authorization_code',
    { authorization_code: { scope: `user-guid:${user} member-guid:${member} account-guid:${account.guid} read-protected` } },
    { expectStatus: ANY_2XX },
  );
  const code = fieldAnywhere(res.body, 'code') ?? fieldAnywhere(res.body, 'authorization_code');
  expect(typeof code, 'an authorization code in the response').toBe('string');
  api.secret(code as string);
  return { code: code as string, user, member, account: account.guid };
}

test('/payment_processor_token, deprecated in favour of /token, still exchanges a code and signals its deprecation', {
  tag: ['@versions', '@deprecated', '@processor', '@destructive', '@inferred'],
}, async ({ api, poll, profile }) => {
  // Versioning: "/payment_processor_token is deprecated in favour of /token" (no version
  // is named, so in every version). Its request and response shapes are not shown
  // (the document marks them so): the code goes as /token's does (journeys.ts
  // exchangeCode, the profile's SVC_PROCESSOR_TOKEN_REQUEST with this path).
  const { code, user, member, account } = await authorizationCode(api, poll);
  const { res, access } = await exchangeCode(api, code, { path: '/payment_processor_token' });
  expectDeprecationHeader(profile, res.headers, `${profile.processorToken.method} /payment_processor_token`);
  // "in favour of /token": it does what /token does, so its access token opens the
  // processor read of the scope (Authentication 4). The equivalence is not stated in so
  // many words: inferred.
  const read = await api.get('/payment_account', { auth: { bearer: access }, only: ['content_type_conformance'] });
  const opened =
    read.status === 200 &&
    fieldAnywhere(read.body, 'user_guid') === user &&
    fieldAnywhere(read.body, 'member_guid') === member &&
    fieldAnywhere(read.body, 'account_guid') === account;
  expectInferred(profile, opened, {
    expectation: "the access_token of /payment_processor_token opens GET /payment_account for the scope's user, member and account, as /token's does",
    basis: 'Versioning says only "deprecated in favour of /token"; the shapes of both endpoints are not shown',
    received: `the token opened GET /payment_account with ${read.status}`,
  });
});

test(
  'the deprecation signal /managed_institutions carries is on every deprecated endpoint and on no current one',
  {
    tag: ['@versions', '@deprecated', '@destructive'],
  },
  async ({ api, profile }, testInfo) => {
    supports(profile, V2025);
    // Versioning: "Response headers that signal deprecated and sunset endpoints are present in all
    // versions"; "Names of the deprecation and sunset response headers: not shown". The name is
    // the one this target sends on /managed_institutions (or the one the user set): the run-wide
    // invariants (contracts/invariants.ts, signals where stated) hold every other deprecated
    // answer to it and refuse it on every endpoint the specification does not deprecate.
    const first = await api.get('/managed_institutions', { version: V2025, expectStatus: 200 });
    const signals = Object.keys(first.headers).filter((h) => /deprecat|sunset/i.test(h));
    for (const [what, res] of await managedMemberLife(api, profile, V2025)) expect(is2xx(res.status), `${what} on ${V2025} still answers`).toBe(true);
    const user = await createUser(api, { version: V2025 });
    for (const version of profile.versions.supported.filter((v) => v >= V2025)) {
      for (const path of ['/institutions', '/categories/default', `/users/${user}`, `/users/${user}/members`])
        await api.get(path, { version, expectStatus: 200 });
    }
    if (!signals.length)
      testInfo.annotations.push({
        type: 'not verified',
        description: `/managed_institutions on ${V2025} carried no header that signals deprecation: there was no name to hold (real-service-notes, Headers: the reference declares none)`,
      });
  },
);
