/**
 * Authentication (specification, Authentication 1, 3, 5; earlier-generation test
 * paths).
 *
 * Stated: "Platform endpoints use HTTP Basic authentication: client identifier as user
 * name and API key as password", so a request without those credentials, or with a
 * wrong key or client, must not succeed (no 2xx). Not stated: the refusal's status
 * (401 is not in the Errors table) and body. A 401 or 403 is an inferred expectation.
 *
 * So that a refusal is about authentication and not about a resource that does not
 * exist, every GET is sent with identifiers that exist on the target, found with the
 * profile's own credentials first (read-only). Writes keep identifiers that name
 * nothing: if a target forgot authentication, the request still changes nothing real.
 */
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { documentOperations, type ParameterValues } from '../operations.ts';
import { currentVersion, requireSetting } from '../fixtures.ts';
import { expectRefused, is2xx } from '../steps/responses.ts';
import { expectInferred } from '../inferred.ts';

const WRONG = { user: 'scn-not-a-client', pass: 'scn-wrong-api-key' };
const AUTH_STATUSES = [401, 403];
const AUTH_BASIS = 'Authentication states the scheme, not the status of a refusal (401 is not in the Errors table)';

/** The first record of a list read with the profile's credentials, or undefined. */
async function first(api: CheckedClient, path: string, key: string): Promise<Record<string, unknown> | undefined> {
  const res = await api.get(path, { query: { records_per_page: 10 } });
  const list = is2xx(res.status) ? (res.body as Record<string, unknown> | undefined)?.[key] : undefined;
  return Array.isArray(list) ? (list[0] as Record<string, unknown> | undefined) : undefined;
}

/** Existing identifiers by path parameter name (read-only discovery); data exchange paths take the data-exchange settings. */
async function existingIdentifiers(api: CheckedClient): Promise<ParameterValues> {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const platform: Record<string, string | undefined> = { institution_identifier: api.profile.testInstitution.code };
  platform.category_guid = str((await first(api, '/categories/default', 'categories'))?.guid);
  platform.ach_return_guid = str((await first(api, '/ach_returns', 'ach_returns'))?.guid);
  const users = await api.get('/users', { query: { records_per_page: 10 } });
  for (const u of (is2xx(users.status) && Array.isArray(users.body?.users) ? users.body.users : []) as Array<{ guid?: string }>) {
    if (!u.guid) continue;
    const member = str((await first(api, `/users/${u.guid}/members`, 'members'))?.guid);
    if (!member) continue;
    platform.user_guid = platform.user_identifier = u.guid;
    platform.member_guid = member;
    platform.account_guid = str((await first(api, `/users/${u.guid}/members/${member}/accounts`, 'accounts'))?.guid);
    platform.transaction_guid = str((await first(api, `/users/${u.guid}/transactions`, 'transactions'))?.guid);
    platform.insight_guid = str((await first(api, `/users/${u.guid}/insights`, 'insights'))?.guid);
    break;
  }
  const dx = api.profile.dataExchange;
  const exchange: Record<string, string | undefined> = {
    user_identifier: dx.userIdentifier,
    member_identifier: dx.memberIdentifier,
    account_guid: dx.accountGuid,
    account_identifier: dx.accountGuid,
    issuer_client_guid: dx.issuerClientGuid,
    grantee_client_guid: dx.granteeClientGuid,
    grant_guid: dx.grantGuid,
  };
  return (name, template, method) => {
    if (method !== 'GET') return undefined;
    // A managed member is another kind of member (Versioning: managed members are
    // deprecated endpoints); the discovered member is not one.
    if (name === 'member_guid' && template.includes('/managed_members/')) return undefined;
    return template.startsWith('/data_exchange/') ? exchange[name] : platform[name];
  };
}

for (const [label, auth] of [
  ['without credentials', 'none'],
  ['with a wrong API key', 'wrong-key'],
  ['with an unknown client id', 'wrong-client'],
] as const) {
  test(`every platform endpoint refuses requests ${label}`, { tag: ['@auth', '@readonly', '@smoke', '@inferred'] }, async ({ api, profile }) => {
    const operations = documentOperations('platform', currentVersion(profile), await existingIdentifiers(api));
    expect(operations.length, 'operations in the platform document').toBeGreaterThan(10);
    const credentials = auth === 'none' ? ('none' as const) : auth === 'wrong-key' ? { user: profile.clientId ?? WRONG.user, pass: WRONG.pass } : WRONG;
    const accepted: string[] = [];
    const otherRefusals: string[] = [];
    for (const op of operations) {
      const res = await api.call({
        method: op.method,
        path: op.path,
        auth: credentials,
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
        // An unauthenticated answer's status and body are not shown in the specification:
        // only the response-level checks that hold for any answer apply.
        only: ['content_type_conformance'],
      });
      if (is2xx(res.status)) accepted.push(`${op.method} ${op.template} answered ${res.status}`);
      // A 404 for a path whose identifiers name nothing says nothing about authentication.
      else if (!AUTH_STATUSES.includes(res.status) && !(res.status === 404 && !op.filled))
        otherRefusals.push(`${op.method} ${op.template} → ${res.status}${op.filled ? '' : ' (identifiers name nothing)'}`);
    }
    // Authentication 1: Basic credentials are required on platform endpoints.
    expect(accepted, 'platform endpoints that accepted the request (2xx)').toEqual([]);
    expectInferred(profile, otherRefusals.length === 0, {
      expectation: `every platform endpoint refuses requests ${label} with 401 or 403`,
      basis: AUTH_BASIS,
      received: otherRefusals.slice(0, 8).join('; ') + (otherRefusals.length > 8 ? ` … ${otherRefusals.length - 8} more` : ''),
    });
  });
}

test('data-exchange reads refuse a request without SVC-3DX-TOKEN', { tag: ['@auth', '@data-exchange', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  // Authentication 3: "Data exchange read endpoints for users, accounts and transactions
  // also require the header SVC-3DX-TOKEN": Basic alone must not succeed.
  const res = await api.get('/data_exchange/users', { query: { records_per_page: 10 }, only: ['content_type_conformance'] });
  expectRefused(profile, res, 'GET /data_exchange/users with Basic only', { stated: 'Authentication 3', inferred: AUTH_STATUSES, basis: AUTH_BASIS });
});

test('the audience service refuses a request without a bearer token or with a wrong one', { tag: ['@auth', '@audience', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  // An audience that exists, so a refusal is about the token (Authentication 5: the
  // access token is "used as Authorization: Bearer <ACCESS_TOKEN> on all audience endpoints").
  const audienceId = requireSetting(profile.audience.audienceId, 'SVC_AUDIENCE_ID', 'an audience that exists, so a refusal is about the token');
  // The profile's own token reads it, so the refusals below are about the token, not about
  // an audience or a path that does not exist. Its status is not shown: any 2xx.
  const served = await api.call({ api: 'audience', path: `/api/v1/audience/${audienceId}/list`, only: ['content_type_conformance'] });
  expect(is2xx(served.status), `the audience list with the profile's token (SVC_AUDIENCE_ID ${audienceId}): ${served.status}`).toBe(true);
  for (const auth of ['none', { bearer: 'scn-not-a-token' }] as const) {
    const res = await api.call({ api: 'audience', path: `/api/v1/audience/${audienceId}/list`, auth, only: ['content_type_conformance'] });
    expectRefused(profile, res, `audience list ${auth === 'none' ? 'without' : 'with a wrong'} bearer token`, {
      stated: 'Authentication 5',
      inferred: AUTH_STATUSES,
      basis: AUTH_BASIS,
    });
  }
});

test('the test host refuses requests without its API-key headers or with a wrong key', { tag: ['@auth', '@legacy', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  // Earlier-generation test paths: "Requests carry headers SVC-API-Key ... SVC-Client-ID".
  // That the host refuses requests without them is not stated (it "serves static
  // data"): the whole expectation is inferred. The path is a listed one, and the profile's
  // own key headers read it first, so a refusal below is about the headers, not the path.
  const served = await api.call({ api: 'test-host', path: '/users/test_svc/accounts', only: ['content_type_conformance'] });
  expect(is2xx(served.status), `GET /users/test_svc/accounts with the profile's key headers: ${served.status}`).toBe(true);
  const wrongKey: Record<string, string> = { 'SVC-API-Key': 'scn-wrong-key', 'SVC-Client-ID': profile.clientId ?? 'scn-client' };
  for (const headers of [{}, wrongKey]) {
    const res = await api.call({ api: 'test-host', path: '/users/test_svc/accounts', auth: 'none', headers, only: ['content_type_conformance'] });
    expectInferred(profile, res.status >= 400 && res.status < 500, {
      expectation: `the test host refuses a request with ${Object.keys(headers).join(', ') || 'no key headers'} (4xx)`,
      basis: 'the test paths say requests carry the key headers, not what the host answers without them',
      received: String(res.status),
    });
  }
});
