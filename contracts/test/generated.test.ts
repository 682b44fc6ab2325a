/**
 * The Schemathesis-style checks of contracts/generated.ts, the fuzz project's: each fires only on
 * a generated exchange of its kind, with the severity of the tier the case carries
 * (stated: error; inferred: warning, error under strict; informational: never gating),
 * and a 429 decides nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, GENERATED_CHECKS, FUZZ_CHECKS, registeredChecks, type Exchange, type GeneratedCase } from '../index.ts';

const contract = loadContract();
const USER = 'USR-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';

function ex(o: { method?: string; url: string; status: number; body?: unknown; api?: Exchange['api'] }): Exchange {
  return {
    api: o.api ?? 'platform',
    version: 'v20250224',
    request: { method: o.method ?? 'GET', url: o.url, headers: {} },
    response: { status: o.status, headers: { 'content-type': 'application/json' }, body: o.body ?? {} },
  };
}
const gen = (kind: GeneratedCase['kind'], tier: GeneratedCase['tier'] = 'stated'): GeneratedCase => ({ kind, tier, rule: 'a rule', what: 'something' });
const of = (name: string, e: Exchange, g?: GeneratedCase, strict = false) => contract.check(e, { generated: g, strict }).filter((f) => f.check === name);

test('every Schemathesis check is registered once, next to the response checks it reuses', () => {
  const names = registeredChecks().map((c) => c.name);
  for (const n of FUZZ_CHECKS) assert.equal(names.filter((x) => x === n).length, 1, n);
  assert.equal(GENERATED_CHECKS.length, 9);
});

test('an exchange without `generated` (every ordinary scenario) is never judged by them', () => {
  const f = contract.check(ex({ url: '/institutions', status: 500, body: 'boom' }));
  assert.equal(f.filter((x) => (GENERATED_CHECKS as readonly string[]).includes(x.check)).length, 0);
  assert.equal(of('ignored_auth', ex({ url: '/institutions', status: 200, body: { institutions: [] } })).length, 0);
});

test('not_a_server_error: a 5xx to a generated request is inferred (warning; error under strict)', () => {
  const e = ex({ url: '/institutions', status: 503, body: '' });
  const [w] = of('not_a_server_error', e, gen('valid', 'informational'));
  assert.equal(w.tier, 'inferred');
  assert.equal(w.severity, 'warning');
  assert.equal(of('not_a_server_error', e, gen('valid'), true)[0].severity, 'error');
  assert.equal(of('not_a_server_error', ex({ url: '/institutions', status: 404 }), gen('valid')).length, 0);
});

test("negative_data_rejection: a 2xx to a request breaking a rule fails with the rule's tier; a refusal passes", () => {
  const e = ex({ method: 'POST', url: `/users/${USER}/members`, status: 201, body: { member: {} } });
  assert.equal(of('negative_data_rejection', e, gen('negative', 'stated'))[0].severity, 'error');
  assert.equal(of('negative_data_rejection', e, gen('negative', 'inferred'))[0].severity, 'warning');
  assert.equal(of('negative_data_rejection', e, gen('negative', 'inferred'), true)[0].severity, 'error');
  for (const status of [400, 404, 422, 429])
    assert.equal(of('negative_data_rejection', { ...e, response: { ...e.response, status } }, gen('negative')).length, 0, String(status));
});

test('positive_data_acceptance: a 4xx to a valid request of existing resources fails with its tier; 429 decides nothing', () => {
  const e = (status: number) => ex({ url: '/institutions/svcbank', status });
  assert.equal(of('positive_data_acceptance', e(404), gen('positive', 'stated'))[0].severity, 'error');
  assert.equal(of('positive_data_acceptance', e(404), gen('positive', 'inferred'))[0].severity, 'warning');
  assert.equal(of('positive_data_acceptance', e(429), gen('positive')).length, 0);
  assert.equal(of('positive_data_acceptance', e(200), gen('positive')).length, 0);
  // Only `positive` cases expect acceptance: a refused `valid` case (open data) is never a failure.
  assert.equal(of('positive_data_acceptance', e(400), gen('valid', 'informational')).length, 0);
});

test('ignored_auth and missing_required_header: a 2xx without credentials or the required header fails', () => {
  const e = ex({ url: '/institutions', status: 200, body: { institutions: [] } });
  assert.equal(of('ignored_auth', e, gen('no-auth'))[0].severity, 'error');
  assert.equal(of('ignored_auth', e, gen('wrong-auth'))[0].severity, 'error');
  assert.equal(of('ignored_auth', { ...e, response: { ...e.response, status: 401 } }, gen('no-auth')).length, 0);
  const dx = ex({ url: '/data_exchange/users', status: 200, body: { users: [] } });
  assert.equal(of('missing_required_header', dx, gen('missing-header'))[0].severity, 'error');
  assert.equal(of('missing_required_header', { ...dx, response: { ...dx.response, status: 403 } }, gen('missing-header')).length, 0);
});

test('unsupported_method: a 2xx is informational ("adding endpoints" is non-breaking), never gating', () => {
  const e = ex({ method: 'PATCH', url: '/institutions', status: 200 });
  const [f] = of('unsupported_method', e, gen('unsupported-method', 'informational'), true);
  assert.equal(f.tier, 'informational');
  assert.equal(f.severity, 'warning');
  assert.equal(of('unsupported_method', { ...e, response: { ...e.response, status: 405 } }, gen('unsupported-method')).length, 0);
});

test('use_after_free and ensure_resource_availability judge reads after a delete and after a create', () => {
  const read = (status: number) => ex({ url: `/users/${USER}`, status, body: status === 200 ? { user: { guid: USER } } : '' });
  assert.equal(of('use_after_free', read(200), gen('after-delete', 'inferred'))[0].tier, 'inferred');
  assert.equal(of('use_after_free', read(404), gen('after-delete')).length, 0);
  assert.equal(of('ensure_resource_availability', read(404), gen('after-create', 'stated'))[0].severity, 'error');
  assert.equal(of('ensure_resource_availability', read(200), gen('after-create')).length, 0);
  assert.equal(of('ensure_resource_availability', read(429), gen('after-create')).length, 0);
});

test('resource_identity: records of a positive read name what the path names; absent or null fields and other kinds are not judged', () => {
  const MEMBER = 'MBR-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';
  const other = 'USR-00000000-0000-4000-8000-000000000000';
  const g: GeneratedCase = {
    ...gen('positive', 'stated'),
    identity: { fields: { user_guid: [USER], member_guid: [MEMBER] }, tier: 'stated', rule: 'Resources' },
  };
  const e = (accounts: unknown[]) => ex({ url: `/users/${USER}/members/${MEMBER}/accounts`, status: 200, body: { accounts } });
  assert.equal(of('resource_identity', e([{ user_guid: USER, member_guid: MEMBER }, { user_guid: null }, {}]), g).length, 0);
  const [f] = of(
    'resource_identity',
    e([
      { user_guid: USER, member_guid: MEMBER },
      { user_guid: other, member_guid: MEMBER },
    ]),
    g,
  );
  assert.equal(f.severity, 'error');
  assert.match(f.message, /user_guid/);
  assert.equal(of('resource_identity', e([{ user_guid: other }]), gen('positive')).length, 0, 'no identity given: not judged');
  assert.equal(of('resource_identity', e([{ user_guid: other }]), { ...g, kind: 'valid' }).length, 0, 'only positive reads');
  assert.equal(of('resource_identity', { ...e([{ user_guid: other }]), response: { status: 404, headers: {}, body: {} } }, g).length, 0, 'only 2xx answers');
  assert.equal(
    of('resource_identity', ex({ url: `/users/${USER}`, status: 200, body: { member: { user_guid: USER.toLowerCase() } } }), g).length,
    0,
    'identifiers compare case-insensitively',
  );
});

test('resource_identity: a read of one resource answers the resource the path names (its guid)', () => {
  const MEMBER = 'MBR-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';
  const g: GeneratedCase = { ...gen('positive', 'stated'), identity: { fields: { user_guid: [USER] }, own: [MEMBER], tier: 'stated', rule: 'Resources' } };
  const e = (member: unknown) => ex({ url: `/users/${USER}/members/${MEMBER}`, status: 200, body: { member } });
  assert.equal(of('resource_identity', e({ guid: MEMBER, user_guid: USER }), g).length, 0);
  assert.equal(of('resource_identity', e({ guid: 'MBR-00000000-0000-4000-8000-000000000000', user_guid: USER }), g)[0]?.severity, 'error');
  // Array items are not the resource read (`{account_numbers: [...]}`): not judged for guid.
  assert.equal(of('resource_identity', ex({ url: `/users/${USER}/members/${MEMBER}`, status: 200, body: { items: [{ guid: 'X' }] } }), g).length, 0);
});
