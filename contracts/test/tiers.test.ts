/**
 * Trust on a real service (DESIGN.md, "Checks and failures": the authority of a rule is its sentence): against the real documents of spec/, every rule
 * the specification does not state is relaxed (passes), inferred (a warning unless the
 * profile is strict) or informational (never gating), and every stated rule still fails.
 * Each test names the statement, or its absence, that decides it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, hasErrors, countByTier, type Exchange, type Failure } from '../index.ts';
import { sampleMember, sampleInstitutionsPage, USER_GUID, MEMBER_GUID } from './samples.ts';

const contract = loadContract();
const JSON_HEADERS = { 'content-type': 'application/json' };
const ACT = 'ACT-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';

function ex(o: { version?: string; method?: string; url: string; status?: number; headers?: Record<string, string>; body?: unknown }): Exchange {
  return {
    api: 'platform',
    version: o.version ?? 'v20250224',
    request: { method: o.method ?? 'GET', url: o.url, headers: {} },
    response: { status: o.status ?? 200, headers: o.headers ?? JSON_HEADERS, body: 'body' in o ? o.body : {} },
  };
}

const of = (f: Failure[], check: string) => f.filter((x) => x.check === check);
const show = (f: Failure[]) => JSON.stringify(f, null, 1);

// ---- statuses (Errors table) ------------------------------------------------------

test('create member: 200 and 202 pass in every version (vendor reference), 201 from v20250224 (stated)', () => {
  const create = (version: string, status: number) =>
    contract.check(ex({ version, method: 'POST', url: `/users/${USER_GUID}/members`, status, body: { member: sampleMember() } }));
  for (const v of contract.versions) for (const s of [200, 202]) assert.deepEqual(create(v, s), [], `${v} ${s}`);
  assert.deepEqual(create('v20250224', 201), []);
});

test('identify and widget URL: no success status is stated, so any 2xx passes (an undocumented one is informational)', () => {
  const identify = (status: number) =>
    contract.check(ex({ method: 'POST', url: `/users/${USER_GUID}/members/${MEMBER_GUID}/identify`, status, body: { member: {} } }));
  assert.deepEqual(identify(202), []);
  for (const status of [200, 201]) {
    const f = identify(status);
    assert.equal(hasErrors(f), false, show(f));
    assert.deepEqual(
      f.map((x) => [x.check, x.tier]),
      [['status_code_conformance', 'informational']],
    );
  }
  const widget = (version: string, status: number, body: unknown) =>
    contract.check(ex({ version, method: 'POST', url: `/users/${USER_GUID}/widget_urls`, status, body }));
  const ok = { widget_url: { type: 'connect_widget', url: 'https://widgets.example/x', user_id: 'u-1' } };
  assert.deepEqual(widget('v20250224', 200, ok), []);
  const created = widget('v20111101', 201, ok);
  assert.equal(hasErrors(created), false, show(created));
  // The undocumented 2xx body is still checked against the documented success schema.
  assert.ok(hasErrors(widget('v20250224', 201, { widget_url: { type: 'connect_widget', user_id: 'u-1' } })));
});

test('operations without a stated success status accept any 2xx with or without a body', () => {
  for (const [method, url, status] of [
    ['POST', `/users/${USER_GUID}/members/${MEMBER_GUID}/aggregate`, 202],
    ['PUT', `/users/${USER_GUID}/members/${MEMBER_GUID}/resume`, 202],
    ['DELETE', `/users/${USER_GUID}/members/${MEMBER_GUID}`, 204],
    ['POST', '/authorization_code', 200],
  ] as const) {
    // POST /authorization_code answers "an authorization code body" (stated; authorization_code_body): a code, whatever its shape.
    const body = status === 204 ? undefined : url === '/authorization_code' ? { authorization_code: { code: 'code-1' } } : { member: {} };
    assert.deepEqual(contract.check(ex({ method, url, status, body })), [], `${method} ${url}`);
  }
  // Endpoints: "Request and response bodies are JSON" still holds for a success body.
  const html = contract.check(
    ex({
      method: 'POST',
      url: `/users/${USER_GUID}/members/${MEMBER_GUID}/aggregate`,
      status: 202,
      headers: { 'content-type': 'text/html' },
      body: '<html></html>',
    }),
  );
  assert.ok(
    of(html, 'content_type_conformance').some((f) => f.severity === 'error' && f.tier === 'stated'),
    show(html),
  );
});

test('stated success statuses still fail: ACH create 201, data exchange token 200, a read answering 201', () => {
  const ach = of(contract.check(ex({ method: 'POST', url: '/ach_returns', status: 201, body: { ach_return: {} } })), 'status_code_conformance');
  assert.equal(ach[0]?.severity, 'error');
  assert.equal(ach[0]?.tier, 'stated');
  assert.match(ach[0].rule, /200 normal success for reads, lists and ACH return creation/);
  const token = of(
    contract.check(ex({ method: 'POST', url: '/data_exchange/grantee/CLT-1/grants/GNT-1/token', status: 200, body: {} })),
    'status_code_conformance',
  );
  assert.equal(token[0]?.severity, 'error');
  assert.equal(token[0]?.tier, 'stated');
  const read = of(
    contract.check(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, status: 201, body: { member: sampleMember() } })),
    'status_code_conformance',
  );
  assert.equal(read[0]?.severity, 'error');
  // A 2xx that is not 200, 201 or 202 on v20250224 create member, where 201 is stated.
  const create204 = of(
    contract.check(ex({ method: 'POST', url: `/users/${USER_GUID}/members`, status: 204, body: undefined, headers: {} })),
    'status_code_conformance',
  );
  assert.equal(create204[0]?.severity, 'error');
});

test('429 on any platform operation, with or without a body, of any media type or none; error bodies of any shape', () => {
  const urls: [string, string][] = [
    ['GET', '/institutions'],
    ['POST', `/users/${USER_GUID}/members`],
    ['GET', `/users/${USER_GUID}/members/${MEMBER_GUID}`],
    ['POST', '/ach_returns'],
  ];
  const responses: [Record<string, string>, unknown][] = [
    [{}, undefined],
    [{}, ''],
    [{ 'content-type': 'text/plain' }, 'slow down'],
    [{ 'content-type': 'application/json' }, { error: { message: 'rate limited' } }],
    [{ 'content-type': 'application/json' }, ['not', 'an', 'object']],
    [{ 'content-type': 'text/html' }, '<html><body>Too Many Requests</body></html>'],
  ];
  for (const v of contract.versions) {
    for (const [method, url] of urls) {
      for (const [headers, body] of responses) {
        const f = contract.check(ex({ version: v, method, url, status: 429, headers, body }));
        assert.deepEqual(f, [], `${v} ${method} ${url} ${JSON.stringify(headers)}`);
      }
    }
  }
  // The stated 404 and 409 and unlisted errors: the body's shape and media type are open.
  for (const [url, status, method] of [
    [`/institutions/nowhere/credentials`, 404, 'GET'],
    [`/users/${USER_GUID}/members/${MEMBER_GUID}/identify`, 409, 'POST'],
    ['/institutions', 400, 'GET'],
    ['/institutions', 503, 'GET'],
  ] as const) {
    for (const [headers, body] of responses) assert.deepEqual(contract.check(ex({ method, url, status, headers, body })), [], `${url} ${status}`);
  }
});

// ---- media types -------------------------------------------------------------------

test('v20111101 responses in the v1 vendor media type pass; another JSON-family type is informational', () => {
  const f = contract.check(
    ex({
      version: 'v20111101',
      url: `/users/${USER_GUID}/members/${MEMBER_GUID}`,
      headers: { 'content-type': 'application/vnd.svc.api.v1+json; charset=utf-8' },
      body: { member: sampleMember() },
    }),
  );
  assert.deepEqual(f, []);
  const other = contract.check(
    ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, headers: { 'content-type': 'application/problem+json' }, body: { member: sampleMember() } }),
  );
  assert.deepEqual(
    other.map((x) => [x.check, x.severity, x.tier]),
    [['content_type_conformance', 'warning', 'informational']],
  );
});

// ---- nullability and required ------------------------------------------------------

test('null in a typed field is informational; the response object itself null stays a stated failure', () => {
  const read = (member: unknown) => contract.check(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, body: { member } }));
  const nulls = read({
    ...sampleMember(),
    guid: null,
    name: null,
    is_oauth: null,
    is_being_aggregated: null,
    connection_status: null,
    use_cases: null,
    oauth_window_uri: null,
  });
  assert.equal(hasErrors(nulls), false, show(nulls));
  assert.ok(nulls.length >= 5);
  for (const f of nulls) {
    assert.equal(f.tier, 'informational');
    assert.match(f.rule, /null|may gain values/);
  }
  const whole = read(null);
  assert.ok(
    whole.some((f) => f.severity === 'error' && f.location === 'response.body.member'),
    show(whole),
  );
  // A wrong non-null type is still stated (Member table: is_oauth boolean).
  assert.ok(read({ ...sampleMember(), is_oauth: 'yes' }).some((f) => f.severity === 'error' && f.tier === 'stated'));
  // Widget URL response: "type (string), url (string) and user_id (string)"; user_id null is informational.
  const widget = contract.check(
    ex({ method: 'POST', url: `/users/${USER_GUID}/widget_urls`, body: { widget_url: { type: 'connect_widget', url: 'https://w.example', user_id: null } } }),
  );
  assert.equal(hasErrors(widget), false, show(widget));
});

test('member fields: conditional ones are not asked for; the table only names the others (an absent one is inferred)', () => {
  const { use_cases: _u, ...m } = sampleMember();
  assert.deepEqual(contract.check(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, body: { member: m } })), []);
  const { connection_status: _c, ...noStatus } = sampleMember();
  const f = contract.check(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, body: { member: noStatus } }));
  assert.deepEqual(
    f.map((x) => [x.check, x.location, x.severity, x.tier]),
    [['stated_resource_fields', 'response.body.member.connection_status', 'warning', 'inferred']],
    show(f),
  );
  // The status read states it ("connection status"): its absence there gates.
  const status = contract.check(ex({ url: `/users/${USER_GUID}/members/${MEMBER_GUID}/status`, body: { member: { guid: MEMBER_GUID } } }));
  assert.ok(
    status.some((x) => x.severity === 'error' && x.tier === 'stated' && /connection_status/.test(x.location)),
    show(status),
  );
});

test('institutions: no guid on v20111101 passes; on v20250224 a missing guid is inferred (named, not promised)', () => {
  const page = sampleInstitutionsPage(3);
  const old = page.institutions.map(({ guid: _g, supported_products: _p, ...rest }) => ({
    ...rest,
    supports_account_verification: true,
    supports_account_identification: false,
    supports_transaction_history: true,
    supports_account_statement: false,
  }));
  assert.deepEqual(contract.check(ex({ version: 'v20111101', url: '/institutions', body: { institutions: old } })), []);
  const noGuid = page.institutions.map(({ guid: _g, ...rest }) => rest);
  const f = contract.check(ex({ url: '/institutions', body: { institutions: noGuid } }));
  assert.deepEqual(
    f.map((x) => [x.check, x.location, x.tier]),
    [['stated_resource_fields', 'response.body.institutions[*].guid', 'inferred']],
    show(f),
  );
  // Institution code and name carry no stated type: a number there is inferred.
  const numeric = contract.check(ex({ url: '/institutions/svcbank', body: { institution: { ...page.institutions[0], code: 42 } } }));
  assert.deepEqual(
    numeric.map((x) => [x.location, x.severity, x.tier]),
    [['response.body.institution.code', 'warning', 'inferred']],
  );
  assert.equal(
    contract.check(ex({ url: '/institutions/svcbank', body: { institution: { ...page.institutions[0], code: 42 } } }), { strict: true })[0]?.severity,
    'error',
  );
  // New supported_products values are enum growth (Versioning): informational.
  const grown = contract.check(
    ex({ url: '/institutions/svcbank', body: { institution: { ...page.institutions[0], supported_products: ['statements', 'investments', 'rewards'] } } }),
  );
  assert.equal(hasErrors(grown), false, show(grown));
  assert.ok(grown.every((x) => x.tier === 'informational'));
});

test('*_set_by: nullable integers accepted on v20111101; from v20250224 a string (integer fails, null and new values informational)', () => {
  const account = (version: string, set_by: unknown) =>
    contract.check(ex({ version, url: `/data_exchange/users/${USER_GUID}/accounts/${ACT}`, body: { account: { guid: ACT, balance_set_by: set_by } } }));
  for (const v of [1, 2, null, 'FEED']) assert.deepEqual(account('v20111101', v), [], `v20111101 ${v}`);
  assert.deepEqual(account('v20250224', 'USER'), []);
  assert.ok(account('v20250224', 1).some((f) => f.severity === 'error' && f.tier === 'stated'));
  const nul = account('v20250224', null);
  assert.equal(hasErrors(nul), false, show(nul));
  const grown = account('v20250224', 'PARTNER');
  assert.equal(hasErrors(grown), false, show(grown));
  assert.ok(
    grown.every((f) => f.tier === 'informational'),
    show(grown),
  );
});

test('an upper-case challenge type and a new connection_status are enum growth: informational', () => {
  const f = contract.check(
    ex({
      url: `/users/${USER_GUID}/members/${MEMBER_GUID}/status`,
      body: { member: { connection_status: 'RESUMED', challenges: [{ guid: 'CRD-1', type: 'TEXT' }] } },
    }),
  );
  assert.equal(hasErrors(f), false, show(f));
  assert.deepEqual(countByTier(f), { stated: 0, inferred: 0, informational: 2 });
});

// ---- paging (Endpoints; Limits) ------------------------------------------------------

test('paging: below 10 records asked the "at most asked" rule is inferred; from 10 up and the 1000 maximum are stated', () => {
  const list = (query: string, n: number, url = '/institutions') =>
    of(contract.check(ex({ url: `${url}?${query}`, body: sampleInstitutionsPage(n) })), 'paging_conformance');
  const small = list('records_per_page=5', 25);
  assert.deepEqual(
    small.map((f) => [f.severity, f.tier]),
    [['warning', 'inferred']],
  );
  assert.equal(
    of(contract.check(ex({ url: '/institutions?records_per_page=1', body: sampleInstitutionsPage(25) }), { strict: true }), 'paging_conformance')[0]?.severity,
    'error',
  );
  const ten = list('records_per_page=10', 25);
  assert.deepEqual(
    ten.map((f) => [f.severity, f.tier]),
    [['error', 'stated']],
  );
  assert.deepEqual(list('records_per_page=1000', 1000), []);
  const over = list('records_per_page=1000', 1001);
  assert.ok(over.some((f) => f.severity === 'error' && /Limits/.test(f.rule)));
  // Categories: the maximum is not shown, so 119 on one page of 1000 passes.
  const cats = { categories: Array.from({ length: 119 }, (_, i) => ({ guid: `CAT-${i}`, is_default: true })) };
  assert.deepEqual(contract.check(ex({ url: '/categories/default?records_per_page=1000', body: cats })), []);
});

// ---- versions and headers (Versioning) -----------------------------------------------

test('deprecation and sunset headers: inferred under a guessed name, stated when the user names them', () => {
  const managed = ex({ url: '/managed_institutions', body: {} });
  const guessed = of(contract.check(managed), 'version_conformance');
  assert.deepEqual(
    guessed.map((f) => [f.severity, f.tier]),
    [['warning', 'inferred']],
  );
  assert.equal(of(contract.check(managed, { strict: true }), 'version_conformance')[0]?.severity, 'error');
  assert.deepEqual(
    of(contract.check(managed, { headerNamesExplicit: true, deprecationHeader: 'Deprecation' }), 'version_conformance').map((f) => [f.severity, f.tier]),
    [['error', 'stated']],
  );
  // Sunset endpoint answering 410 without a header: after sunset the header is not stated, informational even when named.
  for (const options of [{}, { strict: true, headerNamesExplicit: true }]) {
    const sunset = contract.check(ex({ method: 'POST', url: `/users/${USER_GUID}/connect_widget_url`, status: 410, headers: {}, body: undefined }), options);
    assert.deepEqual(
      sunset.map((f) => [f.check, f.severity, f.tier]),
      [['version_conformance', 'warning', 'informational']],
    );
  }
});

test('sunset version and sunset endpoint: "requests return an error" is stated (>= 400); a 4xx specifically is inferred', () => {
  const opts = { sunsetVersions: ['v20100101'] };
  const read = (status: number) =>
    of(contract.check(ex({ version: 'v20100101', url: '/institutions', status, headers: {}, body: undefined }), opts), 'version_conformance');
  assert.deepEqual(read(410), []);
  assert.deepEqual(
    read(503).map((f) => [f.severity, f.tier]),
    [['warning', 'inferred']],
  );
  assert.deepEqual(
    read(200).map((f) => [f.severity, f.tier]),
    [['error', 'stated']],
  );
  const endpoint = (status: number) =>
    of(
      contract.check(ex({ method: 'POST', url: '/payment_processor_authorization_code', status, headers: { sunset: 'x' }, body: undefined })),
      'version_conformance',
    );
  assert.deepEqual(endpoint(404), []);
  assert.deepEqual(
    endpoint(500).map((f) => [f.severity, f.tier]),
    [['warning', 'inferred']],
  );
  assert.deepEqual(
    endpoint(200).map((f) => [f.severity, f.tier]),
    [['error', 'stated']],
  );
});

test('an unknown Accept-Version is informational in the contract (refusing it is an inferred scenario rule)', () => {
  const f = of(contract.check(ex({ version: 'v20991231', url: '/institutions', body: sampleInstitutionsPage(1) })), 'version_conformance');
  assert.deepEqual(
    f.map((x) => [x.severity, x.tier]),
    [['warning', 'informational']],
  );
});

test('every failure carries a tier, and warnings are never stated', () => {
  const all = [
    ...contract.check(
      ex({
        url: `/users/${USER_GUID}/members/${MEMBER_GUID}`,
        status: 201,
        body: { member: { ...sampleMember(), name: null, connection_status: 'NEW', guid: 7 } },
      }),
    ),
    ...contract.check(ex({ url: '/managed_institutions', body: {} })),
    ...contract.check(ex({ url: '/spending_plans/x', body: {} })),
    ...contract.checkWebhook('member', { action: 'test', member: null, version: 'x' }),
  ];
  assert.ok(all.length >= 4);
  for (const f of all) {
    assert.ok(f.tier === 'stated' || f.tier === 'inferred' || f.tier === 'informational', show([f]));
    if (f.severity === 'warning') assert.notEqual(f.tier, 'stated', show([f]));
    if (f.tier === 'stated') assert.equal(f.severity, 'error');
  }
});

test('shapes the specification does not show are inferred: data exchange envelope keys, pagination, placeholder bodies', () => {
  const dx = contract.check(ex({ url: `/data_exchange/users/${USER_GUID}/accounts`, body: { data: [] } }));
  assert.deepEqual(
    dx.map((f) => [f.location, f.severity, f.tier]),
    [['response.body.accounts', 'warning', 'inferred']],
  );
  const pagination = contract.check(ex({ url: '/institutions', body: { institutions: [], pagination: [1, 2] } }));
  assert.deepEqual(
    pagination.map((f) => [f.location, f.tier]),
    [['response.body.pagination', 'inferred']],
  );
  const token = contract.check(ex({ method: 'POST', url: '/data_exchange/grantee/CLT-1/grants/GNT-1/token', status: 201, body: ['tok'] }));
  assert.deepEqual(
    token.map((f) => f.tier),
    ['inferred'],
  );
  // The platform's list keys are those of the vendor reference ({<plural>: [...]}): a missing one stays stated.
  assert.ok(
    contract.check(ex({ url: '/institutions', body: { data: [] } })).some((f) => f.severity === 'error' && f.location === 'response.body.institutions'),
  );
});
