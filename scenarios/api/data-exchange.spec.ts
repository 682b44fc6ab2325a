/**
 * Data exchange (specification, Endpoints "Data exchange"; Authentication 3; Errors
 * 201 and 404; Limits: records_per_page max 1000, 90-day default transaction window,
 * scope = is_manual false and data_scope matching the grant).
 */
import { test, expect, requireSetting, type CheckedClient } from '../fixtures.ts';
import { expectRefused, is2xx, need } from '../helpers.ts';
import { expectInferred } from '../inferred.ts';
import { dataExchangeSettings } from '../settings.ts';
import { walkList } from './journeys.ts';

const TAGS = ['@data-exchange', '@readonly'];
const DAY_MS = 86_400_000;

/** The token response's shape is not shown: the first string under a key named like `token`. */
function tokenIn(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (/token/i.test(k) && typeof v === 'string') return v;
    const nested = typeof v === 'object' ? tokenIn(v) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

async function createToken(api: CheckedClient): Promise<string> {
  const dx = dataExchangeSettings(api.profile);
  const grantee = requireSetting(dx.granteeClientGuid, 'SVC_3DX_GRANTEE_GUID');
  const grant = requireSetting(dx.grantGuid, 'SVC_3DX_GRANT_GUID');
  // Endpoints, data exchange token: "creates the data exchange token ...; status 201" (Errors: 201).
  const res = await api.post(`/data_exchange/grantee/${grantee}/grants/${grant}/token`, undefined, { expectStatus: 201 });
  const token = tokenIn(res.body);
  expect(token, 'a token in the token endpoint response').toBeTruthy();
  api.secret(token);
  return token!;
}

const withToken = (token: string) => ({ headers: { 'SVC-3DX-TOKEN': token } });

test('the token endpoint answers 201 and its token opens the protected reads', { tag: [...TAGS, '@smoke'] }, async ({ api }) => {
  const token = await createToken(api);
  // "GET /data_exchange/users: list users of the issuing client; paged; token header" (Errors: 200 for lists).
  const users = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
  expect(need<unknown[]>(users, 'users', api).length, 'users of the issuing client').toBeGreaterThan(0);
});

test('token-protected reads are refused without the token or with a wrong one', { tag: [...TAGS, '@inferred'] }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  // Authentication 3: these reads "also require the header SVC-3DX-TOKEN" (Endpoints:
  // "in addition to normal authentication"): Basic alone, or with a token never
  // issued, must not succeed. The refusal's status is not shown (a 4xx is inferred).
  for (const path of ['/data_exchange/users', `/data_exchange/users/${user}`, `/data_exchange/users/${user}/accounts`, `/data_exchange/users/${user}/transactions`]) {
    for (const headers of [{}, { 'SVC-3DX-TOKEN': 'scn-not-a-token' }] as Record<string, string>[]) {
      const res = await api.get(path, { headers, only: ['content_type_conformance'] });
      expectRefused(api.profile, res, `GET ${path} ${'SVC-3DX-TOKEN' in headers ? 'with a wrong' : 'without'} SVC-3DX-TOKEN`, { stated: 'Authentication 3' });
    }
  }
});

test('a token alone, without Basic authentication, is refused', { tag: [...TAGS, '@auth', '@inferred'] }, async ({ api }) => {
  // Endpoints, data exchange: the header is required "in addition to normal authentication".
  const token = await createToken(api);
  const res = await api.get('/data_exchange/users', { ...withToken(token), auth: 'none', query: { records_per_page: 10 }, only: ['content_type_conformance'] });
  expectRefused(api.profile, res, 'GET /data_exchange/users with SVC-3DX-TOKEN and no Basic credentials', { stated: 'Endpoints, data exchange: the token is required "in addition to normal authentication"' });
});

test('slim user, accounts and transactions read with GUIDs and partner ids', { tag: [...TAGS, '@inferred'] }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const member = requireSetting(dx.memberIdentifier, 'SVC_3DX_MEMBER');
  const token = await createToken(api);
  const h = withToken(token);
  // Endpoints, data exchange: read one user, list slim accounts, read one (Errors: 200 for reads and lists).
  const one = await api.get(`/data_exchange/users/${user}`, { ...h, expectStatus: 200 });
  const list = await walkList<{ guid: string; id?: string; member_guid?: string }>(api, `/data_exchange/users/${user}/accounts`, 'accounts', { headers: h.headers });
  const memberGuid = member.startsWith('MBR-') ? member : undefined;
  const account = memberGuid ? list.find((a) => a.member_guid === memberGuid) : list[0];
  expect(account, `a slim account of member ${member} in the user's account list`).toBeTruthy();
  await api.get(`/data_exchange/users/${user}/accounts/${account!.guid}`, { ...h, expectStatus: 200 });
  // "read one slim account under a member; accepts GUID or partner ID".
  await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account!.guid}`, { ...h, expectStatus: 200 });
  // The user path's partner id is not stated ("where so stated for account and per-member paths"): inferred.
  const userId = need<Record<string, unknown>>(one, 'user', api).id ?? dx.userPartnerId;
  if (typeof userId === 'string' && userId) {
    const byId = await api.get(`/data_exchange/users/${encodeURIComponent(userId)}`, { ...h });
    expectInferred(api.profile, byId.status === 200, {
      expectation: 'the slim user reads by its partner-defined id',
      basis: 'Data exchange: partner IDs are accepted "where so stated for account and per-member paths"; the user read is not among them',
      received: String(byId.status),
    });
  }
  // The same per-member read by partner ids: they come from the slim account's `id` or
  // the settings; without them the test stops here as skipped (the GUID reads above ran).
  const accountId = account!.id ?? (account!.guid === dx.accountGuid ? dx.accountPartnerId : undefined);
  const memberId = dx.memberPartnerId;
  if (!accountId || !memberId) test.skip(true, 'the partner-id reads need SVC_3DX_MEMBER_ID and SVC_3DX_ACCOUNT_ID (partner-defined ids of that member and account)');
  await api.get(`/data_exchange/users/${user}/members/${encodeURIComponent(memberId!)}/accounts/${encodeURIComponent(accountId!)}`, { ...h, expectStatus: 200 });
});

const DATE_FIELDS = ['date', 'transacted_at', 'posted_at', 'created_at'];

/** A transaction's day (YYYY-MM-DD) from an ISO 8601 text or a Unix timestamp in seconds. */
function dayOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v * 1000).toISOString().slice(0, 10);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return v.slice(0, 10);
  return undefined;
}

test('transaction lists default to the 90 days before the request day', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const member = requireSetting(dx.memberIdentifier, 'SVC_3DX_MEMBER');
  const account = requireSetting(dx.accountGuid, 'SVC_3DX_ACCOUNT_GUID');
  const token = await createToken(api);
  // Endpoints and Limits: "default window is the 90 days before the request day", on
  // the user list and the account-level and member-account lists ("same default window").
  for (const path of [`/data_exchange/users/${user}/transactions`, `/data_exchange/users/${user}/accounts/${account}/transactions`, `/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions`]) {
    // One record for the Date header: the request day.
    const res = await api.get(path, { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
    const day = new Date(res.headers.date ? Date.parse(res.headers.date) : Date.now());
    const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
    const earliest = new Date(today - 90 * DAY_MS).toISOString().slice(0, 10);
    const requestDay = new Date(today).toISOString().slice(0, 10);
    // The order of the list is not shown, so every page is read (not just the first 1000).
    const transactions = await walkList<Record<string, unknown>>(api, path, 'transactions', { ...withToken(token), perPage: 1000 });
    expect(transactions.length, `transactions of ${path} in the window`).toBeGreaterThan(0);
    // The slim transaction's fields are not shown: the date field is a setting, or the
    // first known name the transactions carry. Every transaction must carry it, or the
    // window cannot be judged (no silent drop of undated records).
    const field = dx.transactionDateField ?? DATE_FIELDS.find((f) => f in transactions[0]);
    if (!field) test.skip(true, `the slim transactions carry none of ${DATE_FIELDS.join(', ')}: set SVC_3DX_TRANSACTION_DATE_FIELD to name their date field`);
    const undated = transactions.filter((t) => dayOf(t[field!]) === undefined).map((t) => `${t.guid} ${JSON.stringify(t[field!])}`);
    expect(undated.slice(0, 5), `transactions of ${path} without a readable ${field} (SVC_3DX_TRANSACTION_DATE_FIELD)`).toEqual([]);
    const outside = transactions.filter((t) => dayOf(t[field!])! < earliest || dayOf(t[field!])! > requestDay).map((t) => `${t.guid} ${dayOf(t[field!])}`);
    expect(outside.slice(0, 5), `transactions of ${path} dated outside ${earliest}..${requestDay} (the 90 days before the request day)`).toEqual([]);
  }
});

test('a manual transaction and one outside the grant scope answer 404', { tag: TAGS }, async ({ api }) => {
  // Endpoints: the transaction read "only returns a transaction with is_manual false and
  // a data_scope matching the grant; otherwise 404" (Errors: 404).
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const manual = requireSetting(dx.manualTransactionGuid, 'SVC_3DX_MANUAL_TRANSACTION_GUID');
  const mismatch = requireSetting(dx.scopeMismatchTransactionGuid, 'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID');
  const token = await createToken(api);
  await api.get(`/data_exchange/users/${user}/transactions/${manual}`, { ...withToken(token), expectStatus: 404 });
  await api.get(`/data_exchange/users/${user}/transactions/${mismatch}`, { ...withToken(token), expectStatus: 404 });
  // The same read of an in-scope transaction succeeds, so the 404s are about scope.
  const list = await api.get(`/data_exchange/users/${user}/transactions`, { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
  const inScope = need<Array<{ guid?: string }>>(list, 'transactions', api)[0]?.guid;
  expect(inScope, 'an in-scope transaction to compare with').toBeTruthy();
  await api.get(`/data_exchange/users/${user}/transactions/${inScope}`, { ...withToken(token), expectStatus: 200 });
});

test('data exchange lists honour records_per_page up to 1000', { tag: [...TAGS, '@paging', '@inferred'] }, async ({ api }) => {
  // Limits: "records_per_page maximum 1000 ... all data exchange list endpoints".
  const token = await createToken(api);
  const all = await walkList(api, '/data_exchange/users', 'users', { ...withToken(token), perPage: 100 });
  const res = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1000 }, expectStatus: 200 });
  expect(need<unknown[]>(res, 'users', api).length, 'users on a page of records_per_page=1000').toBe(Math.min(1000, all.length));
  const over = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1001 } });
  if (is2xx(over.status)) {
    expect(need<unknown[]>(over, 'users', api).length, 'users on a page of records_per_page=1001').toBeLessThanOrEqual(1000);
  } else {
    expectInferred(api.profile, over.status >= 400 && over.status < 500, {
      expectation: 'records_per_page=1001 is clamped or refused with a 4xx',
      basis: 'Limits state the maximum, not what a request above it gets',
      received: String(over.status),
    });
  }
});

test('the grant query returns the grant only when every grantee is supplied', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const issuer = requireSetting(dx.issuerClientGuid, 'SVC_3DX_ISSUER_GUID');
  const grant = requireSetting(dx.grantGuid, 'SVC_3DX_GRANT_GUID');
  test.skip(dx.allGranteeGuids.length < 2, 'needs SVC_3DX_GRANTEE_GUIDS naming a grant with at least two grantees');
  // Endpoints: "GET /data_exchange/grant ... every grantee on the grant must be supplied or the grant is not returned".
  const all = await api.get('/data_exchange/grant', { query: { issuer_guid: issuer, [dx.granteeQueryParam]: dx.allGranteeGuids.join(',') }, expectStatus: 200 });
  expect(JSON.stringify(all.body), 'the grant is returned when every grantee is supplied').toContain(grant);
  const some = await api.get('/data_exchange/grant', { query: { issuer_guid: issuer, [dx.granteeQueryParam]: dx.allGranteeGuids[0] } });
  expect(some.status < 300 ? JSON.stringify(some.body) : '', 'the grant with one grantee missing').not.toContain(grant);
});

test('grants list by issuer and by grantee with Basic authentication only', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const issuer = requireSetting(dx.issuerClientGuid, 'SVC_3DX_ISSUER_GUID');
  const grantee = requireSetting(dx.granteeClientGuid, 'SVC_3DX_GRANTEE_GUID');
  const grant = requireSetting(dx.grantGuid, 'SVC_3DX_GRANT_GUID');
  // Authentication 3: "Grant listing and grant reading need only Basic authentication".
  const byIssuer = await api.get(`/data_exchange/issuer/${issuer}/grants`, { expectStatus: 200 });
  expect(JSON.stringify(byIssuer.body)).toContain(grant);
  const byGrantee = await api.get(`/data_exchange/grantee/${grantee}/grants`, { expectStatus: 200 });
  expect(JSON.stringify(byGrantee.body)).toContain(grant);
});
