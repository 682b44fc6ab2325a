/**
 * The request checks (contracts/requests.ts): each catches a planted mistake of a
 * client's request with the tier its sentence gives, passes a conforming request with no
 * finding at all, and stays silent unless `requestChecks` asks for it (the suites' own
 * exchanges break request rules on purpose).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, REQUEST_CHECKS, registeredChecks, WIDGET_TYPES, type Exchange, type Failure } from '../index.ts';

const contract = loadContract();
const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';
const MBR = 'MBR-0b1c2d3e-0000-4000-8000-000000000002';
const ACT = 'ACT-0b1c2d3e-0000-4000-8000-000000000003';
const BASIC = `Basic ${Buffer.from('client:key').toString('base64')}`;

function exchange(o: {
  method?: string;
  url: string;
  version?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  responseBody?: unknown;
  api?: Exchange['api'];
}): Exchange {
  const headers: Record<string, string> = {
    authorization: BASIC,
    ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(o.version === null ? {} : { 'accept-version': o.version ?? 'v20250224' }),
    ...o.headers,
  };
  return {
    api: o.api ?? 'platform',
    request: { method: o.method ?? 'GET', url: o.url, headers, ...(o.body !== undefined ? { body: o.body } : {}) },
    response: { status: o.status ?? 200, headers: { 'content-type': 'application/json' }, body: o.responseBody ?? {} },
  };
}

/** The request checks' findings of an exchange judged as an integration's own traffic. */
const judged = (e: Exchange, o: { strict?: boolean; credentialsRecorded?: boolean } = {}): Failure[] =>
  contract
    .check(e, { strict: o.strict, requestChecks: { credentialsRecorded: o.credentialsRecorded ?? true } })
    .filter((f) => (REQUEST_CHECKS as readonly string[]).includes(f.check));

const memberCreate = (body: unknown, version = 'v20250224') => exchange({ method: 'POST', url: `/users/${USR}/members`, version, body, status: 201 });
const goodMember = { member: { institution_code: 'svcbank', id: 'm-1', credentials: [] }, data_request: { products: ['transactions'] } };

test('every request check is registered once', () => {
  const names = registeredChecks().map((c) => c.name);
  for (const n of REQUEST_CHECKS) assert.equal(names.filter((x) => x === n).length, 1, n);
});

test('without requestChecks (every suite exchange) no request check runs, whatever the request', () => {
  const e = memberCreate({ nothing: true });
  e.request.headers = {};
  const all = contract.check(e);
  assert.deepEqual(
    all.filter((f) => (REQUEST_CHECKS as readonly string[]).includes(f.check)),
    [],
  );
});

test('conforming requests have no request finding at all', () => {
  assert.deepEqual(judged(memberCreate(goodMember)), []);
  assert.deepEqual(judged(exchange({ url: '/institutions?records_per_page=1000&page=2' })), []);
  assert.deepEqual(
    judged(
      exchange({
        method: 'POST',
        url: `/users/${USR}/widget_urls`,
        body: {
          widget_url: {
            widget_type: 'connect_widget',
            is_mobile_webview: false,
            oauth_referral_source: 'BROWSER',
            client_redirect_url: 'https://app.example/back?x=1',
            ui_message_version: 4,
            data_request: { products: ['account_verification'] },
          },
        },
      }),
    ),
    [],
  );
  assert.deepEqual(
    judged(
      exchange({
        method: 'POST',
        url: '/ach_returns',
        body: {
          ach_return: {
            account_guid: ACT,
            member_guid: MBR,
            user_guid: USR,
            id: 'r-1',
            return_code: 'R01',
            returned_at: '2025-03-01T10:00:00+00:00',
            ach_initiated_at: '2025-02-27T09:00:00Z',
            account_number_last_four: '1234',
            sec_code: 'PPD',
            transaction_amount: 12.5,
            transaction_amount_range: 2,
          },
        },
      }),
    ),
    [],
  );
  assert.deepEqual(
    judged(
      exchange({ method: 'POST', url: '/authorization_code', body: { authorization_code: { scope: `user-guid:${USR} member-guid:${MBR} read-protected` } } }),
    ),
    [],
  );
  // v20111101 has no data_request: its absence there is no finding.
  assert.deepEqual(judged(memberCreate({ member: { institution_code: 'svcbank' } }, 'v20111101')), []);
});

test('no data_request on v20250224 create member is stated; on v20260929 inferred; inside member it counts, with a note on its place', () => {
  const [missing] = judged(memberCreate({ member: { institution_code: 'svcbank' } }));
  assert.equal(missing.check, 'request_required_fields');
  assert.equal(missing.tier, 'stated');
  assert.equal(missing.severity, 'error');
  assert.match(missing.rule, /in v20250224 a required data_request object holding a products array/);
  const [later] = judged(memberCreate({ member: { institution_code: 'svcbank' } }, 'v20260929'));
  assert.deepEqual([later.tier, later.severity], ['inferred', 'warning']);
  assert.equal(judged(memberCreate({ member: { institution_code: 'svcbank' } }, 'v20260929'), { strict: true })[0].severity, 'error');
  const inside = judged(memberCreate({ member: { institution_code: 'svcbank', data_request: { products: ['transactions'] } } }));
  assert.deepEqual(
    inside.map((f) => [f.check, f.tier]),
    [['request_required_fields', 'informational']],
  );
  const noArray = judged(memberCreate({ member: {}, data_request: { products: 'transactions' } }));
  assert.deepEqual(
    noArray.map((f) => [f.location, f.tier]),
    [['request.body.data_request.products', 'stated']],
  );
  const widget = judged(exchange({ method: 'POST', url: `/users/${USR}/widget_urls`, body: { widget_url: { widget_type: 'connect_widget' } } }));
  assert.deepEqual(
    widget.map((f) => [f.check, f.tier]),
    [['request_required_fields', 'stated']],
  ); // A widget URL's data_request is a field of the widget_url object (Resources, Widget URL): beside it, it is not the widget URL's.
  const widgetUrl = (body: object) => judged(exchange({ method: 'POST', url: `/users/${USR}/widget_urls`, body }));
  const beside = widgetUrl({ widget_url: { widget_type: 'connect_widget' }, data_request: { products: ['transactions'] } });
  assert.deepEqual(
    beside.map((f) => [f.check, f.tier, f.location]),
    [['request_required_fields', 'stated', 'request.body.data_request']],
  );
  assert.match(beside[0].rule, /Request object widget_url with fields: \.\.\. and data_request/);
  assert.match(beside[0].message, /data_request beside widget_url, none inside it/);
  assert.deepEqual(widgetUrl({ widget_url: { widget_type: 'connect_widget', data_request: { products: ['transactions'] } } }), []);
});

test('bodies are wrapped as stated: member, widget_url, ach_return, authorization_code with scope', () => {
  for (const [url, body, key] of [
    [`/users/${USR}/members`, { institution_code: 'svcbank', data_request: { products: [] } }, 'member'],
    [`/users/${USR}/widget_urls`, { widget_type: 'connect_widget', data_request: { products: [] } }, 'widget_url'],
    ['/ach_returns', { return_code: 'R01' }, 'ach_return'],
    ['/authorization_code', { scope: 'read-protected' }, 'authorization_code'],
  ] as const) {
    const f = judged(exchange({ method: 'POST', url, body })).filter((x) => x.check === 'request_body_envelope');
    assert.equal(f.length, 1, url);
    assert.equal(f[0].tier, 'stated');
    assert.equal(f[0].location, `request.body.${key}`);
  }
  assert.match(judged(exchange({ method: 'POST', url: '/authorization_code', body: { authorization_code: {} } }))[0].message, /scope/);
});

test('stated request field formats: ACH return table, oauth_referral_source, scope; widget_type outside the named list is informational', () => {
  const ach = judged(
    exchange({
      method: 'POST',
      url: '/ach_returns',
      body: {
        ach_return: {
          return_code: 'R1',
          returned_at: '2025-03-01T10:00:00',
          account_guid: 'ACT-1',
          account_number_last_four: '12345',
          sec_code: 'PP',
          transaction_amount: '12.5',
          transaction_amount_range: 1.5,
        },
      },
    }),
  );
  assert.deepEqual(
    ach.map((f) => f.location).sort(),
    ['account_guid', 'account_number_last_four', 'return_code', 'returned_at', 'sec_code', 'transaction_amount', 'transaction_amount_range']
      .map((k) => `request.body.ach_return.${k}`)
      .sort(),
  );
  assert.ok(ach.every((f) => f.tier === 'stated' && f.severity === 'error'));
  const widget = judged(
    exchange({
      method: 'POST',
      url: `/users/${USR}/widget_urls`,
      body: { widget_url: { widget_type: 'brand_new_widget', oauth_referral_source: 'WEBVIEW', is_mobile_webview: 'yes', data_request: { products: [] } } },
    }),
  );
  assert.deepEqual(widget.map((f) => [f.location, f.tier]).sort(), [
    ['request.body.widget_url.is_mobile_webview', 'stated'],
    ['request.body.widget_url.oauth_referral_source', 'stated'],
    ['request.body.widget_url.widget_type', 'informational'],
  ]);
  assert.match(widget.find((f) => f.location.endsWith('oauth_referral_source'))!.rule, /BROWSER or APP/);
  const scope = judged(exchange({ method: 'POST', url: '/authorization_code', body: { authorization_code: { scope: `user-guid:${USR},member:${MBR}` } } }));
  assert.deepEqual(
    scope.map((f) => [f.check, f.tier]),
    [['request_field_formats', 'stated']],
  );
  const member = judged(memberCreate({ member: { institution_code: 7, is_oauth: 'true' }, data_request: { products: [] } }));
  assert.deepEqual(member.map((f) => [f.location, f.tier]).sort(), [
    ['request.body.member.institution_code', 'inferred'],
    ['request.body.member.is_oauth', 'stated'],
  ]);
});

test('records_per_page above the stated 1000 is stated; not a number inferred; outside 10-100 where no maximum is stated informational', () => {
  const [over] = judged(exchange({ url: '/institutions?records_per_page=5000' }));
  assert.deepEqual([over.check, over.tier, over.location], ['request_paging', 'stated', 'request.query.records_per_page']);
  assert.match(over.rule, /"records_per_page maximum": 1000/);
  assert.equal(judged(exchange({ url: '/data_exchange/users?records_per_page=1001', headers: { 'svc-3dx-token': 't' } }))[0].tier, 'stated');
  assert.deepEqual(
    judged(exchange({ url: '/institutions?records_per_page=abc' })).map((f) => f.tier),
    ['inferred'],
  );
  assert.deepEqual(
    judged(exchange({ url: `/users/${USR}/members?records_per_page=500` })).map((f) => f.tier),
    ['informational'],
  );
  assert.deepEqual(judged(exchange({ url: `/users/${USR}/members?records_per_page=50` })), []);
});

test('versions: no Accept-Version inferred, a malformed one stated, a sunset one stated, an unknown one inferred', () => {
  assert.deepEqual(
    judged(exchange({ url: '/institutions', version: null })).map((f) => [f.check, f.tier]),
    [['request_version_header', 'inferred']],
  );
  assert.deepEqual(
    judged(exchange({ url: '/institutions', version: '2025-02-24' })).map((f) => f.tier),
    ['stated'],
  );
  assert.deepEqual(
    judged(exchange({ url: '/institutions', version: 'v20300101' })).map((f) => f.tier),
    ['inferred'],
  );
  const sunset = contract
    .check(exchange({ url: '/institutions', version: 'v20000101', status: 400 }), { sunsetVersions: ['v20000101'], requestChecks: {} })
    .filter((f) => f.check === 'request_version_header');
  assert.deepEqual(
    sunset.map((f) => f.tier),
    ['stated'],
  );
});

test('sunset endpoints are stated, deprecated ones and skip_aggregation from v20250224 inferred', () => {
  const sunset = judged(exchange({ method: 'POST', url: `/users/${USR}/connect_widget_url`, body: {}, status: 400 })).filter(
    (f) => f.check === 'request_endpoint_lifecycle',
  );
  assert.deepEqual(
    sunset.map((f) => f.tier),
    ['stated'],
  );
  assert.match(sunset[0].rule, /Sunset endpoints/);
  assert.deepEqual(
    judged(exchange({ url: '/managed_institutions' })).map((f) => [f.check, f.tier]),
    [['request_endpoint_lifecycle', 'inferred']],
  );
  assert.deepEqual(
    judged(memberCreate({ ...goodMember, member: { ...goodMember.member, skip_aggregation: true } })).map((f) => [f.location, f.tier]),
    [['request.body.member.skip_aggregation', 'inferred']],
  );
  assert.deepEqual(judged(memberCreate({ member: { institution_code: 'svcbank', skip_aggregation: true } }, 'v20111101')), []);
});

test('authentication: no Basic stated; a data exchange read without SVC-3DX-TOKEN stated; not judged when the recording dropped credentials', () => {
  const none = exchange({ url: '/institutions', headers: {} });
  delete none.request.headers.authorization;
  assert.deepEqual(
    judged(none).map((f) => [f.check, f.tier]),
    [['request_authentication', 'stated']],
  );
  assert.deepEqual(judged(none, { credentialsRecorded: false }), []);
  const bearer = exchange({ url: '/institutions', headers: { authorization: 'Bearer abc' } });
  assert.equal(judged(bearer)[0].check, 'request_authentication');
  const dx = judged(exchange({ url: `/data_exchange/users/${USR}` })).filter((f) => f.check === 'request_authentication');
  assert.deepEqual(
    dx.map((f) => f.location),
    ['request.headers.svc-3dx-token'],
  );
  assert.deepEqual(judged(exchange({ url: `/data_exchange/users/${USR}`, headers: { 'svc-3dx-token': 'tok' } })), []);
});

test('a body that is not JSON is stated; JSON under another Content-Type inferred', () => {
  const bad = judged(exchange({ method: 'POST', url: '/users', body: '{"user": ', headers: { 'content-type': 'application/json' } }));
  assert.deepEqual(
    bad.map((f) => [f.check, f.tier]),
    [['request_body_json', 'stated']],
  );
  const text = judged(exchange({ method: 'POST', url: '/users', body: { user: { id: 'x' } }, headers: { 'content-type': 'text/plain;charset=UTF-8' } }));
  assert.deepEqual(
    text.map((f) => [f.check, f.tier]),
    [['request_body_json', 'inferred']],
  );
});

test('test-host requests carry SVC-API-Key, SVC-Client-ID and the legacy Accept', () => {
  const e = exchange({
    api: 'test-host',
    url: '/users/test_svc/accounts',
    version: null,
    headers: { 'svc-api-key': 'k', 'svc-client-id': 'c', accept: 'application/vnd.svc.legacy.v1+json' },
  });
  delete e.request.headers.authorization;
  assert.deepEqual(judged(e), []);
  delete e.request.headers.accept;
  delete e.request.headers['svc-client-id'];
  assert.deepEqual(
    judged(e)
      .map((f) => f.location)
      .sort(),
    ['request.headers.accept', 'request.headers.svc-client-id'],
  );
});

test("the request check's widget types are the document's WidgetType enumeration, in every version that has one", () => {
  let seen = 0;
  for (const version of contract.versions) {
    const schema = contract.document('platform', version).components?.schemas?.WidgetType as { enum?: string[] } | undefined;
    if (!schema) continue;
    seen++;
    assert.deepEqual([...(schema.enum ?? [])].sort(), [...WIDGET_TYPES].sort(), version);
  }
  assert.ok(seen > 0, 'no version of the platform document declares WidgetType');
});
