/**
 * Data exchange (specification, Endpoints "Data exchange"; Authentication 3; Errors
 * 201 and 404; Limits: records_per_page max 1000, 90-day default transaction window,
 * scope = is_manual false and data_scope matching the grant).
 */
import { test, expect, requireSetting, type CheckedClient } from '../fixtures.ts';
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
  const res = await api.post(`/data_exchange/grantee/${grantee}/grants/${grant}/token`, undefined, { expectStatus: 201 });
  const token = tokenIn(res.body);
  expect(token, 'a token in the token endpoint response').toBeTruthy();
  api.secret(token);
  return token!;
}

const withToken = (token: string) => ({ headers: { 'SVC-3DX-TOKEN': token } });

test('the token endpoint answers 201 and its token opens the protected reads', { tag: [...TAGS, '@smoke'] }, async ({ api }) => {
  const token = await createToken(api);
  const users = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
  expect(users.body.users.length).toBeGreaterThan(0);
});

test('token-protected reads are refused without the token or with a wrong one', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  for (const path of ['/data_exchange/users', `/data_exchange/users/${user}`, `/data_exchange/users/${user}/accounts`, `/data_exchange/users/${user}/transactions`]) {
    for (const headers of [{}, { 'SVC-3DX-TOKEN': 'scn-not-a-token' }] as Record<string, string>[]) {
      const res = await api.get(path, { headers, only: ['content_type_conformance'] });
      expect(res.status, `GET ${path} ${'SVC-3DX-TOKEN' in headers ? 'with a wrong' : 'without'} SVC-3DX-TOKEN`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  }
});

test('slim user, accounts and transactions read with GUIDs and partner ids', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const member = requireSetting(dx.memberIdentifier, 'SVC_3DX_MEMBER');
  const token = await createToken(api);
  const h = withToken(token);
  const one = await api.get(`/data_exchange/users/${user}`, { ...h, expectStatus: 200 });
  const accounts = await api.get(`/data_exchange/users/${user}/accounts`, { ...h, expectStatus: 200 });
  const list = accounts.body.accounts as Array<{ guid: string; id?: string; member_guid?: string }>;
  expect(list.length).toBeGreaterThan(0);
  const account = list.find((a) => a.member_guid === member) ?? list[0];
  await api.get(`/data_exchange/users/${user}/accounts/${account.guid}`, { ...h, expectStatus: 200 });
  // "accepts GUID or partner ID" on the per-member account path.
  await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account.guid}`, { ...h, expectStatus: 200 });
  if (account.id) await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account.id}`, { ...h, expectStatus: 200 });
  if (one.body.user?.id) await api.get(`/data_exchange/users/${one.body.user.id}`, { ...h, expectStatus: 200 });
});

test('transaction lists default to the 90 days before the request day', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const token = await createToken(api);
  // One record for the Date header: the request day.
  const res = await api.get(`/data_exchange/users/${user}/transactions`, { ...withToken(token), query: { records_per_page: 1 }, expectStatus: 200 });
  const day = new Date(res.headers.date ? Date.parse(res.headers.date) : Date.now());
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const earliest = new Date(today - 90 * DAY_MS).toISOString().slice(0, 10);
  // The order of the list is not shown, so every page is read (not just the first 1000).
  const transactions = await walkList(api, `/data_exchange/users/${user}/transactions`, 'transactions', { ...withToken(token), perPage: 1000 });
  expect(transactions.length).toBeGreaterThan(0);
  // The date field's name is not shown: the transaction's date, else its transacted/posted time.
  const dateOf = (t: Record<string, unknown>) => String(t.date ?? t.transacted_at ?? t.posted_at ?? t.created_at ?? '').slice(0, 10);
  const outside = transactions.filter((t) => dateOf(t) !== '' && dateOf(t) < earliest).map((t) => `${t.guid} ${dateOf(t)}`);
  expect(outside.slice(0, 5), `transactions dated before ${earliest} (90 days before the request day)`).toEqual([]);
});

test('a manual transaction and one outside the grant scope answer 404', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const user = requireSetting(dx.userIdentifier, 'SVC_3DX_USER');
  const manual = requireSetting(dx.manualTransactionGuid, 'SVC_3DX_MANUAL_TRANSACTION_GUID');
  const mismatch = requireSetting(dx.scopeMismatchTransactionGuid, 'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID');
  const token = await createToken(api);
  await api.get(`/data_exchange/users/${user}/transactions/${manual}`, { ...withToken(token), expectStatus: 404 });
  await api.get(`/data_exchange/users/${user}/transactions/${mismatch}`, { ...withToken(token), expectStatus: 404 });
  // The same read of an in-scope transaction succeeds, so the 404s are about scope.
  const list = await api.get(`/data_exchange/users/${user}/transactions`, { ...withToken(token), query: { records_per_page: 1 }, expectStatus: 200 });
  const inScope = list.body.transactions[0]?.guid;
  expect(inScope, 'an in-scope transaction to compare with').toBeTruthy();
  await api.get(`/data_exchange/users/${user}/transactions/${inScope}`, { ...withToken(token), expectStatus: 200 });
});

test('data exchange lists honour records_per_page up to 1000', { tag: [...TAGS, '@paging'] }, async ({ api }) => {
  const token = await createToken(api);
  const res = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1000 }, expectStatus: 200 });
  const total = res.body.pagination?.total_entries as number | undefined;
  expect(res.body.users.length).toBe(total === undefined ? 1000 : Math.min(1000, total));
  const over = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1001 } });
  expect(over.status).toBeLessThan(500);
});

test('the grant query returns the grant only when every grantee is supplied', { tag: TAGS }, async ({ api }) => {
  const dx = dataExchangeSettings(api.profile);
  const issuer = requireSetting(dx.issuerClientGuid, 'SVC_3DX_ISSUER_GUID');
  const grant = requireSetting(dx.grantGuid, 'SVC_3DX_GRANT_GUID');
  test.skip(dx.allGranteeGuids.length < 2, 'needs SVC_3DX_GRANTEE_GUIDS naming a grant with at least two grantees');
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
  const byIssuer = await api.get(`/data_exchange/issuer/${issuer}/grants`, { expectStatus: 200 });
  expect(JSON.stringify(byIssuer.body)).toContain(grant);
  const byGrantee = await api.get(`/data_exchange/grantee/${grantee}/grants`, { expectStatus: 200 });
  expect(JSON.stringify(byGrantee.body)).toContain(grant);
});
