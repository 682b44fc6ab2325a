/**
 * Each check catches a planted defect and passes a conforming exchange; every
 * non-breaking change of the Versioning section yields no error. Fixture documents
 * (contracts/test/fixtures/spec) follow spec/CONVENTIONS.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadContract, hasErrors, registerCheck, registeredChecks, exchangeCheck, type Exchange, type Failure } from '../index.ts';

const specDir = fileURLToPath(new URL('./fixtures/spec/', import.meta.url));
const contract = loadContract({ specDir });

const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';
const MBR = 'MBR-0b1c2d3e-0000-4000-8000-000000000002';

function member(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    guid: MBR,
    id: 'client-1',
    user_guid: USR,
    user_id: 'u-1',
    institution_code: 'svcbank',
    name: 'SVC Bank',
    connection_status: 'CONNECTED',
    is_being_aggregated: false,
    aggregated_at: '2025-03-01T10:00:00+00:00',
    successfully_aggregated_at: null,
    is_managed_by_user: false,
    is_oauth: false,
    metadata: null,
    oauth_window_uri: null,
    use_cases: [],
    ...overrides,
  };
}

/** An institution with every field the specification names for v20250224 (Resources, Institution). */
function institution(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: 'bank_1',
    guid: 'INS-0b1c2d3e-0000-4000-8000-000000000003',
    name: 'B',
    created_at: '2025-01-01T00:00:00+00:00',
    is_hidden: false,
    status: 'ACTIVE',
    client_status: 'ACTIVE',
    is_disabled_by_client: false,
    instructional_text: null,
    instructional_text_steps: null,
    forgot_password_url: null,
    forgot_username_url: null,
    trouble_signing_in_url: null,
    supports_oauth: false,
    supported_products: ['transactions'],
    ...overrides,
  };
}

function exchange(
  over: { method?: string; url?: string; status?: number; headers?: Record<string, string>; body?: unknown; version?: string; api?: Exchange['api'] } = {},
): Exchange {
  return {
    api: over.api ?? 'platform',
    version: over.version ?? 'v20250224',
    request: { method: over.method ?? 'GET', url: over.url ?? `/users/${USR}/members/${MBR}`, headers: {} },
    response: {
      status: over.status ?? 200,
      headers: over.headers ?? { 'Content-Type': 'application/json; charset=utf-8' },
      body: 'body' in over ? over.body : { member: member() },
    },
  };
}

const only = (failures: Failure[], check: string) => failures.filter((f) => f.check === check);
const errors = (failures: Failure[]) => failures.filter((f) => f.severity === 'error');

test('a conforming member response has no failures at all', () => {
  assert.deepEqual(contract.check(exchange()), []);
});

test('every schema of the fixture documents compiles', () => {
  assert.deepEqual(contract.compileAll(), []);
});

test('findOperation maps a concrete path to its template and parameters; literal segments win', () => {
  const m = contract.findOperation('platform', 'get', `/users/${USR}/members/${MBR}?x=1`, 'v20250224');
  assert.equal(m?.operation.key, 'GET /users/{user_guid}/members/{member_guid}');
  assert.deepEqual(m?.params, { user_guid: USR, member_guid: MBR });
  const lit = contract.findOperation('test-host', 'GET', '/users/test_svc/members/test_svc_member');
  assert.equal(lit?.operation.path, '/users/test_svc/members/test_svc_member');
  const templ = contract.findOperation('test-host', 'GET', '/users/test_svc/members/CHALLENGED');
  assert.equal(templ?.operation.path, '/users/test_svc/members/{connection_status}');
  assert.equal(contract.findOperation('platform', 'GET', '/nowhere'), undefined);
});

test('status_code_conformance: an undocumented status is an error naming received and documented', () => {
  const f = only(contract.check(exchange({ status: 500 })), 'status_code_conformance');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'error');
  assert.equal(f[0].message, 'Received: 500 / Documented: 200, 404');
  assert.equal(f[0].operation, 'GET /users/{user_guid}/members/{member_guid}');
  // A `default` response documents every status.
  assert.deepEqual(only(contract.check(exchange({ method: 'POST', url: `/users/${USR}/members`, status: 503, body: {} })), 'status_code_conformance'), []);
  assert.deepEqual(only(contract.check(exchange({ status: 404, body: { error: 'x' } })), 'status_code_conformance'), []);
});

test('status_code_conformance: `default` does not cover an unlisted 2xx where the operation states a success status', () => {
  const create = (version: string, status: number) =>
    only(contract.check(exchange({ version, method: 'POST', url: `/users/${USR}/members`, status })), 'status_code_conformance');
  // v20111101 states 200; v20250224 states 201 (Errors). Both have an open `default`.
  assert.deepEqual(create('v20111101', 200), []);
  const wrong11 = create('v20111101', 201);
  assert.equal(wrong11.length, 1);
  assert.equal(wrong11[0].severity, 'error');
  assert.match(wrong11[0].message, /^Received: 201 \/ Documented: 200\b/);
  assert.equal(wrong11[0].location, 'response.status');
  assert.equal(wrong11[0].operation, 'POST /users/{user_guid}/members');
  assert.deepEqual(create('v20250224', 201), []);
  const wrong25 = create('v20250224', 200);
  assert.equal(wrong25[0]?.severity, 'error');
  assert.match(wrong25[0].message, /^Received: 200 \/ Documented: 201\b/);
  assert.equal(create('v20250224', 204)[0]?.severity, 'error');
  // Non-2xx statuses beyond the table still fall to the open `default` (Errors: not shown).
  for (const status of [301, 400, 409, 422, 500, 503]) assert.deepEqual(create('v20250224', status), [], String(status));
  // Only the status is reported: there is no documented body to hold a 201 to.
  const all = contract.check(exchange({ version: 'v20111101', method: 'POST', url: `/users/${USR}/members`, status: 201, body: { nothing: 'like a member' } }));
  assert.deepEqual(
    all.map((f) => f.check),
    ['status_code_conformance'],
  );
});

test('status_code_conformance: where no success status is stated, `default` covers every status', () => {
  for (const version of ['v20111101', 'v20250224']) {
    for (const status of [200, 202, 204, 404, 500]) {
      const f = contract.check(exchange({ version, method: 'DELETE', url: `/users/${USR}/members/${MBR}`, status, body: status === 204 ? undefined : {} }));
      assert.deepEqual(only(f, 'status_code_conformance'), [], `${version} ${status}`);
    }
  }
});

test('status_code_conformance: 429 is accepted on the platform API even where not listed; not on the other hosts', () => {
  // GET member states 200 and 404 only, and no default.
  assert.deepEqual(only(contract.check(exchange({ status: 429, body: { error: 'slow down' } })), 'status_code_conformance'), []);
  const th = contract.check({
    api: 'test-host',
    request: { method: 'GET', url: '/users/test_svc/members/test_svc_member', headers: {} },
    response: { status: 429, headers: { 'content-type': 'application/json' }, body: {} },
  });
  assert.equal(only(th, 'status_code_conformance')[0]?.severity, 'error');
});

test('content_type_conformance: a non-JSON type fails, a JSON-family type warns, the documented type passes', () => {
  const html = only(contract.check(exchange({ headers: { 'content-type': 'text/html' } })), 'content_type_conformance');
  assert.equal(html[0]?.severity, 'error');
  assert.match(html[0].message, /Received: text\/html \/ Documented: application\/json/);
  const vendor = only(contract.check(exchange({ headers: { 'content-type': 'application/vnd.svc.api.v1+json' } })), 'content_type_conformance');
  assert.equal(vendor[0]?.severity, 'warning');
  // No Content-Type: over a JSON body only inferred (no sentence names the header); over text, stated.
  const none = only(contract.check(exchange({ headers: {} })), 'content_type_conformance');
  assert.equal(none[0]?.severity, 'warning');
  assert.equal(none[0]?.tier, 'inferred');
  assert.equal(only(contract.check(exchange({ headers: {} }), { strict: true }), 'content_type_conformance')[0]?.severity, 'error');
  const noneText = only(contract.check(exchange({ headers: {}, body: 'member: yes' })), 'content_type_conformance');
  assert.equal(noneText[0]?.severity, 'error');
  assert.equal(noneText[0]?.tier, 'stated');
  // text/csv on the audience service is documented.
  const csv = contract.check({
    api: 'audience',
    request: { method: 'GET', url: '/api/v1/audience/a1/list.csv', headers: {} },
    response: { status: 200, headers: { 'content-type': 'text/csv' }, body: 'id1\nid2\n' },
  });
  assert.deepEqual(csv, []);
});

test('response_schema_conformance: wrong type and bad identifier are errors at the exact location', () => {
  const f = only(contract.check(exchange({ body: { member: member({ is_oauth: 'yes', user_guid: 'nope' }) } })), 'response_schema_conformance');
  const byLocation = Object.fromEntries(f.map((x) => [x.location, x]));
  assert.equal(byLocation['response.body.member.is_oauth']?.severity, 'error');
  assert.match(byLocation['response.body.member.is_oauth'].rule, /^type at /);
  assert.equal(byLocation['response.body.member.user_guid']?.severity, 'error');
  const missing = only(contract.check(exchange({ body: {} })), 'response_schema_conformance');
  assert.equal(missing[0]?.location, 'response.body.member');
  assert.equal(missing[0]?.severity, 'error');
});

test('response_schema_conformance: locations inside arrays read like response.body.institutions[3].code', () => {
  const institutions = Array.from({ length: 5 }, (_, i) => institution({ code: i === 3 ? 42 : `bank_${i}` }));
  const f = only(contract.check(exchange({ url: '/institutions', body: { institutions } })), 'response_schema_conformance');
  assert.equal(f.length, 1);
  assert.equal(f[0].location, 'response.body.institutions[3].code');
  assert.equal(f[0].severity, 'error');
});

test('response_schema_conformance: new enum values and changed opaque strings are warnings, never errors', () => {
  const enumFailures = contract.check(exchange({ body: { member: member({ connection_status: 'RECONNECTING' }) } }));
  assert.equal(hasErrors(enumFailures), false);
  assert.equal(only(enumFailures, 'response_schema_conformance')[0]?.severity, 'warning');
  const longCode = institution({
    code: `${'x'.repeat(100)}-New-Format`,
    guid: 'INS-longer-and-different-0000000000000000000000000',
    supported_products: ['brand_new_product'],
  });
  const f = contract.check(exchange({ url: '/institutions', body: { institutions: [longCode] } }));
  assert.equal(hasErrors(f), false, JSON.stringify(f));
  assert.ok(only(f, 'response_schema_conformance').length >= 3);
});

test('response_headers_conformance: a documented required header must be present', () => {
  const url = '/data_exchange/grantee/CLT-1/grants/GNT-1/token';
  const missing = only(contract.check(exchange({ method: 'POST', url, status: 201, body: {} })), 'response_headers_conformance');
  assert.equal(missing[0]?.severity, 'error');
  assert.equal(missing[0]?.location, 'response.headers.x-request-id');
  const present = contract.check(
    exchange({ method: 'POST', url, status: 201, body: {}, headers: { 'content-type': 'application/json', 'x-REQUEST-id': 'r1' } }),
  );
  assert.deepEqual(present, []);
});

test('failure rules name the schema as <keyword> at <document>#<pointer> relative to spec/, messages say Received / Expected', () => {
  const f = contract.check(exchange({ body: { member: member({ is_oauth: 'yes', connection_status: 'NEW' }) } }));
  for (const x of f) {
    assert.doesNotMatch(x.rule, /file:|\/work\//, x.rule);
    assert.match(x.message, /^Received: .+ \/ Expected: .+/, x.message);
  }
  const byLocation = Object.fromEntries(f.map((x) => [x.location, x]));
  assert.equal(
    byLocation['response.body.member.is_oauth']?.rule,
    'type at versions/platform.v20250224.openapi.yaml#/components/schemas/Member/properties/is_oauth',
  );
  assert.equal(byLocation['response.body.member.is_oauth'].message, 'Received: "yes" / Expected: type boolean');
  assert.match(
    byLocation['response.body.member.connection_status']?.rule ?? '',
    /^enum at versions\/platform\.v20250224\.openapi\.yaml#\/components\/schemas\/Member\/properties\/connection_status \(Versioning: /,
  );
  const missing = only(contract.check(exchange({ body: {} })), 'response_schema_conformance');
  assert.equal(missing[0]?.rule, 'required at versions/platform.v20250224.openapi.yaml#/components/responses/Member/content/application~1json/schema');
  assert.equal(missing[0]?.message, 'Received: no property "member" / Expected: property "member" present');
  const hook = contract.checkWebhook('member', { member_guid: 'MBR-short', is_oauth: 'x' });
  assert.ok(hook.length >= 2);
  for (const x of hook) assert.doesNotMatch(x.rule, /file:/, x.rule);
  assert.ok(
    hook.some(
      (x) =>
        x.rule === 'type at versions/platform.v20260929.openapi.yaml#/webhooks/member/post/requestBody/content/application~1json/schema/properties/is_oauth',
    ),
    JSON.stringify(hook.map((x) => x.rule)),
  );
});

test('paging_conformance: more records than asked, or than the maximum, fails; a full page passes', () => {
  const page = (n: number) => ({ institutions: Array.from({ length: n }, (_, i) => institution({ code: `bank_${i}` })) });
  assert.deepEqual(contract.check(exchange({ url: '/institutions?records_per_page=10', body: page(10) })), []);
  const over = only(contract.check(exchange({ url: '/institutions?page=1&records_per_page=10', body: page(11) })), 'paging_conformance');
  assert.equal(over.length, 1);
  assert.equal(over[0].message, 'Received: 11 records / Asked: records_per_page=10');
  assert.equal(over[0].location, 'response.body.institutions');
  assert.deepEqual(contract.check(exchange({ url: '/institutions?records_per_page=5000', body: page(1000) })), []);
  const beyondMax = only(contract.check(exchange({ url: '/institutions?records_per_page=5000', body: page(1001) })), 'paging_conformance');
  assert.equal(beyondMax.length, 1);
  assert.match(beyondMax[0].rule, /Limits/);
});

test('version_conformance: sunset operations must answer 4xx; deprecated ones need the deprecation header', () => {
  const url = `/users/${USR}/connect_widget_url`;
  const served = only(contract.check(exchange({ method: 'POST', url, status: 200, body: {} })), 'version_conformance');
  assert.ok(served.some((f) => f.severity === 'error' && f.location === 'response.status'));
  assert.deepEqual(
    errors(contract.check(exchange({ method: 'POST', url, status: 410, body: {}, headers: { 'content-type': 'application/json', sunset: 'x' } }))),
    [],
  );
  // The same operation is not sunset in v20111101.
  assert.deepEqual(contract.check(exchange({ version: 'v20111101', method: 'POST', url, status: 200, body: {} })), []);

  const managed = exchange({ url: '/managed_institutions', body: { managed_institutions: [] } });
  // The header's name is not shown: under the guessed default name its absence is inferred
  // (a warning), an error only when the profile is strict or the user named the header.
  const noHeader = only(contract.check(managed), 'version_conformance');
  assert.equal(noHeader[0]?.severity, 'warning');
  assert.equal(noHeader[0]?.tier, 'inferred');
  assert.equal(noHeader[0]?.location, 'response.headers.deprecation');
  assert.equal(only(contract.check(managed, { strict: true }), 'version_conformance')[0]?.severity, 'error');
  const named = only(contract.check(managed, { headerNamesExplicit: true }), 'version_conformance');
  assert.equal(named[0]?.severity, 'error');
  assert.equal(named[0]?.tier, 'stated');
  managed.response.headers.Deprecation = '@1740355200';
  assert.deepEqual(contract.check(managed), []);
  // The header name is a profile setting (not shown in the specification).
  assert.equal(errors(contract.check(managed, { deprecationHeader: 'X-Svc-Deprecated', headerNamesExplicit: true })).length, 1);
});

test('version_conformance: a sunset version must answer an error; an unknown version is only a warning', () => {
  const ok = exchange({ version: 'v20100101', status: 400, body: { error: 'sunset' } });
  assert.deepEqual(errors(contract.check(ok, { sunsetVersions: ['v20100101'] })), []);
  const served = exchange({ version: 'v20100101' });
  const f = only(contract.check(served, { sunsetVersions: ['v20100101'] }), 'version_conformance');
  assert.equal(f[0]?.severity, 'error');
  const unknown = contract.check(exchange({ version: 'v20991231' }));
  assert.equal(hasErrors(unknown), false);
  assert.equal(only(unknown, 'version_conformance')[0]?.severity, 'warning');
  // The version comes from Accept-Version when the exchange names none.
  const viaHeader = exchange({ method: 'POST', url: `/users/${USR}/connect_widget_url`, body: {} });
  delete viaHeader.version;
  viaHeader.request.headers['accept-version'] = 'v20111101';
  assert.deepEqual(contract.check(viaHeader), []);
});

test('undocumented_operation: an unknown operation is a warning, never an error', () => {
  const f = contract.check(exchange({ url: '/spending_plans/abc', body: {} }));
  assert.equal(f.length, 1);
  assert.equal(f[0].check, 'undocumented_operation');
  assert.equal(f[0].severity, 'warning');
});

test('non-breaking variations never produce an error (Versioning)', () => {
  const added = member({ brand_new_field: { nested: true } });
  const reordered = Object.fromEntries(Object.entries(member()).reverse());
  const cases: Exchange[] = [
    exchange({ body: { member: added, sim_added_field: 1 } }),
    exchange({ body: { member: reordered } }),
    exchange({ headers: { 'content-type': 'application/json', 'X-Svc-Sim-Added': '1' } }),
    exchange({ body: { member: member({ connection_status: 'BRAND_NEW_STATUS' }) } }),
    exchange({ url: '/institutions', body: { institutions: [institution({ guid: `INS-${'f'.repeat(60)}`, supported_products: ['new_product'] })] } }),
  ];
  for (const c of cases) assert.equal(hasErrors(contract.check(c)), false, JSON.stringify(contract.check(c)));
});

test('checks never throw on bad input: malformed exchanges and bodies become failures', () => {
  const weird: unknown[] = [
    exchange({ body: undefined }),
    exchange({ body: null }),
    exchange({ body: 'not json <html>' }),
    exchange({ body: [1, 2] }),
    exchange({ url: '' }),
    exchange({ url: 'http://h/x?%%' }),
    exchange({ url: '/institutions?records_per_page=abc', body: { institutions: 'x' } }),
    { api: 'platform', request: null, response: null },
    { api: 'nope', request: { method: 'GET', url: '/' }, response: { status: 200 } },
  ];
  for (const w of weird) assert.doesNotThrow(() => contract.check(w as Exchange));
  const nullInput = contract.check({ api: 'platform', request: null, response: null } as unknown as Exchange);
  assert.equal(nullInput[0]?.severity, 'error');
  assert.equal(
    contract.check(exchange({ body: 'not json <html>' })).some((f) => f.check === 'response_schema_conformance' && f.severity === 'error'),
    true,
  );
});

test('the registry refuses duplicate names and turns a crashing check into a failure', () => {
  assert.throws(() => registerCheck({ name: 'status_code_conformance', description: '', appliesTo: () => false, run: () => [] }), /already registered/);
  const names = registeredChecks().map((c) => c.name);
  for (const n of [
    'status_code_conformance',
    'content_type_conformance',
    'response_schema_conformance',
    'response_headers_conformance',
    'paging_conformance',
    'version_conformance',
    'undocumented_operation',
    'webhook_payload_conformance',
  ]) {
    assert.ok(names.includes(n), n);
  }
  registerCheck({
    name: 'test_only_crashing_check',
    description: 'throws on purpose',
    appliesTo: (ctx) => ctx.kind === 'exchange' && ctx.path === '/crash',
    run: () => {
      throw new Error('boom');
    },
  });
  const f = contract.check(exchange({ url: '/crash', body: {} }), { only: ['test_only_crashing_check'] });
  assert.equal(f.length, 1);
  assert.match(f[0].message, /crashed.*boom/);
});

test('the same exchange checked again gives equal, independent failures; unmatched paths keep their own key', () => {
  const bad = exchange({ status: 500, headers: { 'content-type': 'text/html' }, body: '<html>' });
  const first = contract.check(bad);
  first[0].message = 'annotated by a caller';
  const second = contract.check(bad);
  assert.equal(second[0].check, 'status_code_conformance');
  assert.equal(second[0].message, 'Received: 500 / Documented: 200, 404');
  const a = contract.check(exchange({ url: '/spending_plans/a', body: {} }));
  const b = contract.check(exchange({ url: '/other_things/b', body: {} }));
  assert.equal(a[0].operation, 'GET /spending_plans/a');
  assert.match(b[0].message, /GET \/other_things\/b$/);
  assert.equal(b[0].operation, 'GET /other_things/b');
});

test('a check registered after exchanges were checked takes part; its guard decides per exchange', () => {
  const seen: string[] = [];
  registerCheck(
    exchangeCheck({
      name: 'test_only_late_check',
      description: 'reports the body size of 2xx member reads that carry an x-test header',
      appliesTo: (ctx) => ctx.operation?.operationId === 'readMember' && ctx.status === 200 && ctx.exchange.response.headers['x-test'] !== undefined,
      run: (ctx) => {
        seen.push(ctx.path);
        return [{ check: 'test_only_late_check', operation: ctx.operationKey, location: 'response', rule: 'test', severity: 'warning', message: 'ran' }];
      },
    }),
  );
  const opts = { only: ['test_only_late_check'] };
  assert.deepEqual(contract.check(exchange(), opts), []);
  assert.deepEqual(contract.check(exchange({ headers: { 'content-type': 'application/json', 'x-test': '1' }, status: 404, body: {} }), opts), []);
  const f = contract.check(exchange({ headers: { 'content-type': 'application/json', 'x-test': '1' } }), opts);
  assert.equal(f.length, 1);
  assert.deepEqual(seen, [`/users/${USR}/members/${MBR}`]);
});

test('webhook_payload_conformance: epoch seconds, dates, schema; unknown types warn', () => {
  const good = {
    action: 'member',
    type: 'member',
    version: 3,
    member_guid: MBR,
    connection_status: 'CONNECTED',
    completed_at: 1740355200,
    completed_on: '2025-02-24',
    extra_at: null,
    new_field: 'x',
  };
  assert.deepEqual(contract.checkWebhook('member', good), []);
  const ms = contract.checkWebhook('member', { ...good, completed_at: 1740355200000 });
  assert.equal(ms.length, 1);
  assert.equal(ms[0].severity, 'error');
  assert.match(ms[0].rule, /Events rule 1/);
  assert.equal(ms[0].location, 'payload.completed_at');
  const nested = contract.checkWebhook('aggregation', { job_guid: 'JOB-1', details: [{ started_at: 1740355200123 }] });
  assert.equal(nested[0]?.location, 'payload.details[0].started_at');
  const date = contract.checkWebhook('member', { ...good, completed_on: '24/02/2025' });
  assert.equal(errors(date).length, 1);
  assert.equal(errors(contract.checkWebhook('member', { ...good, extra_on: '2025-02-30' })).length, 1);
  assert.equal(hasErrors(contract.checkWebhook('member', { ...good, connection_status: 'NEW_STATUS' })), false);
  assert.equal(errors(contract.checkWebhook('member', { ...good, is_oauth: 'true' })).length, 1);
  const unknown = contract.checkWebhook('brand_new_type', { a: 1 });
  assert.equal(unknown[0]?.severity, 'warning');
  assert.equal(contract.checkWebhook('member', 'not an object')[0]?.severity, 'error');
});
