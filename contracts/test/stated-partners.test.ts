/**
 * contracts/stated-partners.ts: each check fails the answer the sentence it quotes forbids
 * and passes what the specification leaves open (shapes not shown, nulls, absent fields
 * it does not state).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, type Exchange, type Failure } from '../index.ts';
import { sampleMember, USER_GUID, MEMBER_GUID } from './samples.ts';

const contract = loadContract();
const ACT = 'ACT-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';

function ex(o: { api?: Exchange['api']; method?: string; url: string; status?: number; body?: unknown; strict?: boolean }): Failure[] {
  return contract.check(
    {
      api: o.api ?? 'platform',
      ...(o.api && o.api !== 'platform' ? {} : { version: 'v20250224' }),
      request: { method: o.method ?? 'GET', url: o.url, headers: {} },
      response: { status: o.status ?? 200, headers: { 'content-type': 'application/json' }, body: o.body },
    },
    { strict: o.strict },
  );
}
const of = (f: Failure[], check: string) => f.filter((x) => x.check === check);
const errors = (f: Failure[], check: string) => of(f, check).filter((x) => x.severity === 'error');

test('member_oauth_window_uri: a URI without its protocol fails (stated); with one, null or absent passes', () => {
  const member = (uri: unknown) =>
    ex({ method: 'POST', url: `/users/${USER_GUID}/members`, status: 201, body: { member: { ...sampleMember(), is_oauth: true, oauth_window_uri: uri } } });
  const bad = errors(member('int.example.com/oauth/start?token=1'), 'member_oauth_window_uri');
  assert.equal(bad.length, 1);
  assert.equal(bad[0].tier, 'stated');
  assert.deepEqual(of(member('https://int.example.com/oauth/start?token=1'), 'member_oauth_window_uri'), []);
  assert.deepEqual(of(member(null), 'member_oauth_window_uri'), []);
  assert.deepEqual(of(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, body: { member: sampleMember() } }), 'member_oauth_window_uri'), []);
});

test('payment_account_fields: the three named fields, at the top level or in one wrapper; null passes', () => {
  const read = (body: unknown) => errors(ex({ url: '/payment_account', body }), 'payment_account_fields');
  assert.deepEqual(read({ payment_account: { user_guid: USER_GUID, member_guid: MEMBER_GUID, account_guid: ACT } }), []);
  assert.deepEqual(read({ user_guid: USER_GUID, member_guid: null, account_guid: ACT }), []);
  assert.match(read({ payment_account: { user_guid: USER_GUID, account_guid: ACT } })[0]?.message ?? '', /no member_guid/);
  assert.equal(read({}).length, 1);
});

test('authorization_code_body and ach_return_body: an empty object fails; a code, a guid pass', () => {
  const code = (body: unknown) => errors(ex({ method: 'POST', url: '/authorization_code', body }), 'authorization_code_body');
  assert.equal(code({}).length, 1);
  assert.deepEqual(code({ authorization_code: { code: 'abc' } }), []);
  assert.deepEqual(code({ code: 'abc' }), []);
  const ach = (body: unknown) => errors(ex({ method: 'POST', url: '/ach_returns', body }), 'ach_return_body');
  assert.equal(ach({}).length, 1);
  assert.deepEqual(ach({ ach_return: { guid: 'ACH-1' } }), []);
  assert.deepEqual(ach({ guid: null }), []);
});

test('processor_token_lifetime: expires_in of 60 days passes, one day fails; no expires_in passes (shape not shown)', () => {
  const token = (body: unknown) => errors(ex({ method: 'POST', url: '/token', body }), 'processor_token_lifetime');
  assert.deepEqual(token({ access_token: 't', expires_in: 5_184_000 }), []);
  assert.deepEqual(token({ access_token: 't', expires_in: 5_183_990 }), []);
  assert.equal(token({ access_token: 't', expires_in: 86_400 }).length, 1);
  assert.deepEqual(token({ access_token: 't' }), []);
});

test("grant_grantees: a grantee's list names that grantee; the grant query answers no grant with a grantee left out", () => {
  const list = (grant: Record<string, unknown>) => errors(ex({ url: '/data_exchange/grantee/CLT-2/grants', body: { grants: [grant] } }), 'grant_grantees');
  assert.deepEqual(list({ guid: 'GNT-1', issuer_guid: 'CLT-1', grantee_guids: ['CLT-2', 'CLT-3'], data_scope: 'HELD' }), []);
  assert.deepEqual(list({ guid: 'GNT-1', issuer: 'CLT-1', grantee: 'CLT-2' }), []);
  assert.equal(list({ guid: 'GNT-1', issuer_guid: 'CLT-1', data_scope: 'HELD' }).length, 1);
  const query = (q: string) =>
    errors(
      ex({ url: `/data_exchange/grant?${q}`, body: { grant: { guid: 'GNT-1', issuer_guid: 'CLT-1', grantee_guids: ['CLT-2', 'CLT-3'] } } }),
      'grant_grantees',
    );
  assert.equal(query('issuer_guid=CLT-1&grantee_guids=CLT-2').length, 1);
  assert.deepEqual(query('issuer_guid=CLT-1&grantee_guids=CLT-2,CLT-3'), []);
  assert.deepEqual(query('issuer_guid=CLT-1&grantee=CLT-3&grantee=CLT-2'), []);
  // Versioning: an identifier's length or format may change. Written in another form than
  // the path or query, a grantee cannot be told from another one: inferred, never gating.
  const longer = of(
    ex({ url: '/data_exchange/grantee/CLT-2/grants', body: { grants: [{ guid: 'GNT-L1', issuer_guid: 'CLT-L1', grantee_guids: ['CLT-L2'] }] } }),
    'grant_grantees',
  );
  assert.deepEqual(
    longer.map((f) => [f.tier, f.severity]),
    [['inferred', 'warning']],
  );
  const queried = of(
    ex({ url: '/data_exchange/grant?issuer_guid=CLT-1&grantee_guids=CLT-2,CLT-3', body: { grant: { guid: 'GNT-L1', grantee_guids: ['CLT-L2', 'CLT-L3'] } } }),
    'grant_grantees',
  );
  assert.deepEqual(
    queried.map((f) => [f.tier, f.severity]),
    [['inferred', 'warning']],
  );
});

test('dx_default_window: a default-window page spanning more than 90 days fails; window parameters or a 90-day span pass', () => {
  const page = (dates: string[], q = '') =>
    errors(
      ex({ url: `/data_exchange/users/U/transactions${q}`, body: { transactions: dates.map((date, i) => ({ guid: `TRN-${i}`, is_manual: false, date })) } }),
      'dx_default_window',
    );
  assert.deepEqual(page(['2026-11-22', '2026-08-25']), []);
  assert.equal(page(['2026-11-22', '2026-05-01']).length, 1);
  assert.deepEqual(page(['2026-11-22', '2026-05-01'], '?from_date=2026-01-01'), []);
  assert.equal(page(['2026-11-22', '2026-05-01'], '?page=3&records_per_page=1000').length, 1);
});

test('audience_list_count: count other than the identifiers listed is inferred (gates under strict only)', () => {
  const body = { audience_id: 'a', count: 3, institution_id: 'i', list: ['x', 'y'], updated_on: '2026-11-01' };
  const lax = of(ex({ api: 'audience', url: '/api/v1/audience/a/list', body }), 'audience_list_count');
  assert.equal(lax[0]?.tier, 'inferred');
  assert.equal(lax[0]?.severity, 'warning');
  assert.equal(errors(ex({ api: 'audience', url: '/api/v1/audience/a/list', body, strict: true }), 'audience_list_count').length, 1);
  assert.deepEqual(of(ex({ api: 'audience', url: '/api/v1/audience/a/list', body: { ...body, count: 2 } }), 'audience_list_count'), []);
});
