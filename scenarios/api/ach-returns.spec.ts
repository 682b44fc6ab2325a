/**
 * ACH returns, beta (specification, Endpoints "ACH returns"; Resources "ACH return
 * (create request)"; Errors: "200 normal success for ... ACH return creation") and
 * processor authorization codes (Endpoints "Authorization code for processors").
 *
 * Every ACH return names a user, member and account that really exist (a connected
 * member of the test institution and one of its aggregated accounts): the vendor's
 * reference requires them (real-service-notes, "Request shapes"), so a refusal in the
 * format scenarios is about the one malformed field, not about identifiers that name
 * nothing. The specification states each field's format but no status for violating
 * it: refusing a malformed value is an inferred expectation (scenarios/inferred.ts).
 */
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import { ANY_2XX, expectRefused, is2xx, need, uniqueId } from '../helpers.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, memberAccounts, settle, walkList } from './journeys.ts';

function achReturn(userGuid: string, memberGuid: string, accountGuid: string) {
  // Resources, ACH return (create request): every field in its stated format.
  return {
    account_guid: accountGuid,
    account_number_last_four: '1234',
    ach_initiated_at: '2026-01-05T10:00:00+00:00',
    id: uniqueId('scn-ach'),
    member_guid: memberGuid,
    return_code: 'R01',
    returned_at: '2026-01-07T09:30:00-05:00',
    sec_code: 'PPD',
    transaction_amount: 42.5,
    transaction_amount_range: 2,
    user_guid: userGuid,
  };
}

/** A user, a connected member and one of its accounts, all existing. */
async function realIdentifiers(api: CheckedClient, poll: Poll) {
  const { user, member } = await connectedUser(api, poll);
  const [account] = await memberAccounts(api, user, member);
  return { user, member, account: account.guid };
}

const createAch = (api: CheckedClient, body: Record<string, unknown>) =>
  // Endpoints, ACH returns: "POST /ach_returns ... response ACH return; status 200".
  api.post('/ach_returns', { ach_return: body }, { expectStatus: 200 });

test('an ACH return is created with 200 and reads back by guid and by id', { tag: ['@ach-returns', '@destructive', '@smoke'] }, async ({ api, poll }) => {
  const { user, member, account } = await realIdentifiers(api, poll);
  const body = achReturn(user, member, account);
  const created = await createAch(api, body);
  // The response fields are not shown, but the read path takes "the return's guid or id".
  const guid = need<string>(created, 'ach_return.guid', api);
  // "GET /ach_returns/{ach_return_guid}: path accepts the return's guid or id; response one ACH return" (Errors: 200 for reads).
  const byGuid = await api.get(`/ach_returns/${guid}`, { expectStatus: 200 });
  expect(need(byGuid, 'ach_return.id', api)).toBe(body.id);
  const byId = await api.get(`/ach_returns/${encodeURIComponent(body.id)}`, { expectStatus: 200 });
  expect(need(byId, 'ach_return.guid', api)).toBe(guid);
});

test('the ACH return list pages and contains a created return', { tag: ['@ach-returns', '@paging', '@destructive'] }, async ({ api, poll }) => {
  const { user, member, account } = await realIdentifiers(api, poll);
  const guid = need<string>(await createAch(api, achReturn(user, member, account)), 'ach_return.guid', api);
  // "GET /ach_returns ... page, records_per_page; response list of ACH returns".
  const seen = (await walkList<{ guid: string }>(api, '/ach_returns', 'ach_returns')).map((r) => r.guid);
  expect(seen).toContain(guid);
  expect(new Set(seen).size, 'ACH returns listed once each across pages').toBe(seen.length);
});

/** Resources, ACH return (create request): each stated format, and values that break it. */
const MALFORMED: Array<[string, string, (ids: { user: string; member: string; account: string }) => unknown[]]> = [
  ['return_code', 'letter R followed by two digits', () => ['01', 'R1', 'X01']],
  ['returned_at', 'ISO 8601 timestamp with offset', () => ['2026-01-07 09:30', '2026-01-07T09:30:00', '07/01/2026']],
  ['ach_initiated_at', 'ISO 8601 timestamp with offset', () => ['2026-01-05T10:00:00', 'yesterday']],
  ['member_guid', 'MBR-<uuid>', (ids) => [ids.member.replace(/^MBR-/, ''), ids.member.replace(/^MBR-/, 'ACT-')]],
  ['user_guid', 'USR-<uuid>', (ids) => [ids.user.replace(/^USR-/, ''), ids.user.replace(/^USR-/, 'MBR-')]],
  ['account_guid', 'ACT-<uuid>', (ids) => [ids.account.replace(/^ACT-/, ''), ids.account.replace(/^ACT-/, 'USR-')]],
  ['transaction_amount', 'number, decimal', () => ['42.50', 'forty-two']],
  ['transaction_amount_range', 'integer', () => [2.5, '2']],
  ['sec_code', 'three-letter code', () => ['PP', 'P1D', 'PPDX']],
  ['account_number_last_four', 'string of 4 digits', () => ['12a4', '123', 1234]],
];

for (const [field, format, badValues] of MALFORMED) {
  test(`an ACH return with a malformed ${field} is refused`, { tag: ['@ach-returns', '@errors', '@destructive', '@inferred'] }, async ({ api, poll, profile }) => {
    const ids = await realIdentifiers(api, poll);
    // Control: the same request, well formed, is accepted (status 200 is stated), so a
    // refusal below is about the malformed field alone.
    await createAch(api, achReturn(ids.user, ids.member, ids.account));
    for (const bad of badValues(ids)) {
      const res = await api.post('/ach_returns', { ach_return: { ...achReturn(ids.user, ids.member, ids.account), [field]: bad } });
      expectInferred(profile, !is2xx(res.status), {
        expectation: `an ACH return with ${field}=${JSON.stringify(bad)} (stated format: ${format}) is refused`,
        basis: 'Resources, ACH return (create request) states the format; no status for a request that breaks it is shown',
        received: String(res.status),
      });
    }
  });
}

test('a processor authorization code is issued for a verified member in scope', { tag: ['@processor', '@ach-returns', '@destructive', '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const scope = `user-guid:${user} member-guid:${member} read-protected`;
  // "A member in the scope must already have been verified": before verification the
  // code must not be issued (status not shown; a 4xx is inferred).
  const unverified = await api.post('/authorization_code', { authorization_code: { scope } });
  expectRefused(profile, unverified, 'an authorization code for an unverified member', { stated: 'Endpoints, processors: "A member in the scope must already have been verified"' });
  // Verify and the code request: statuses not shown, any 2xx.
  await api.post(`/users/${user}/members/${member}/verify`, undefined, { expectStatus: ANY_2XX });
  await settle(api, poll, user, member);
  await api.post('/authorization_code', { authorization_code: { scope } }, { expectStatus: ANY_2XX });
});
