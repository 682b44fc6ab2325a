/**
 * Judging recorded traffic without a running target: HAR reading (and its refusals),
 * which exchanges are the API's, the OAuth window rules a whole session shows, the
 * sanitized-HAR case, the usage file and the rule of what a version difference touches,
 * and reports that carry no credential of the recording.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntegrationInputError, readHar, toHar, type RecordedExchange } from './har.ts';
import { allFailures, detectPlatformBases, judgeTraffic, trafficExitCode, type ApiBases } from './judge.ts';
import { redactedConsoleLines, writeTrafficReports } from './report.ts';
import { declaredUsage, touches, usageFromExchanges } from './usage.ts';

const API = 'https://api.example.test';
const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';
const MBR = 'MBR-0b1c2d3e-0000-4000-8000-000000000002';
const BASIC = `Basic ${Buffer.from('acme-client:very-secret-key').toString('base64')}`;
const bases: ApiBases = { platform: [API], audience: [], 'test-host': [] };
const check = { strict: false, sunsetVersions: [], deprecationHeader: 'Deprecation', sunsetHeader: 'Sunset', headerNamesExplicit: false };
const JSON_TYPE = { 'content-type': 'application/json' };

let clock = Date.parse('2026-01-01T00:00:00Z');
function ex(
  method: string,
  url: string,
  o: { body?: unknown; status?: number; response?: unknown; responseType?: string; headers?: Record<string, string> } = {},
): RecordedExchange {
  clock += 1000;
  const api = url.startsWith(API);
  return {
    startedAt: new Date(clock).toISOString(),
    request: {
      method,
      url,
      headers: { ...(api ? { authorization: BASIC, 'accept-version': 'v20250224' } : {}), ...(o.body !== undefined ? JSON_TYPE : {}), ...o.headers },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    },
    response: {
      status: o.status ?? 200,
      headers: { 'content-type': o.responseType ?? 'application/json' },
      body: typeof o.response === 'string' ? o.response : JSON.stringify(o.response ?? {}),
    },
  };
}

const member = (uri: string) => ({
  member: {
    guid: MBR,
    id: 'm-1',
    user_guid: USR,
    user_id: 'u-1',
    institution_code: 'svc_bank_oauth',
    name: 'SVC Bank (OAuth)',
    connection_status: 'PENDING',
    is_oauth: true,
    is_being_aggregated: false,
    aggregated_at: null,
    successfully_aggregated_at: null,
    is_managed_by_user: false,
    metadata: null,
    oauth_window_uri: uri,
  },
});
const createOauthMember = (uri: string) =>
  ex('POST', `${API}/users/${USR}/members`, {
    body: { member: { institution_code: 'svc_bank_oauth', is_oauth: true }, data_request: { products: ['transactions'] } },
    status: 201,
    response: member(uri),
  });
const load = (url: string) => ex('GET', url, { responseType: 'text/html', response: '<html>authorize?</html>' });

function withHar(entries: RecordedExchange[] | object, fn: (file: string, dir: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-har-'));
  try {
    const file = join(dir, 'traffic.har');
    writeFileSync(file, JSON.stringify(Array.isArray(entries) ? toHar(entries, { name: 'test', version: '1' }) : entries));
    fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a HAR is read back as recorded (bodies, base64 content, pseudo-headers left out); a file that is not HAR is refused by name', () => {
  const e = ex('POST', `${API}/users`, { body: { user: { id: 'a' } }, response: { user: { guid: USR } } });
  withHar([e], (file) => {
    const har = readHar(file);
    assert.equal(har.exchanges.length, 1);
    assert.deepEqual(JSON.parse(har.exchanges[0].request.body!), { user: { id: 'a' } });
    assert.equal(har.exchanges[0].response?.status, 200);
    assert.equal(har.credentialsRecorded, true);
  });
  const encoded = {
    log: {
      entries: [
        {
          startedDateTime: '2026-01-01T00:00:00Z',
          request: {
            method: 'get',
            url: `${API}/institutions`,
            headers: [
              { name: ':authority', value: 'x' },
              { name: 'Accept-Version', value: 'v20250224' },
            ],
          },
          response: {
            status: 200,
            headers: [],
            content: { mimeType: 'application/json', encoding: 'base64', text: Buffer.from('{"institutions":[]}').toString('base64') },
          },
        },
      ],
    },
  };
  withHar(encoded, (file) => {
    const har = readHar(file);
    assert.deepEqual(har.exchanges[0].request.headers, { 'accept-version': 'v20250224' });
    assert.equal(har.exchanges[0].request.method, 'GET');
    assert.equal(har.exchanges[0].response?.body, '{"institutions":[]}');
    assert.equal(har.credentialsRecorded, false);
  });
  withHar({ log: { pages: [] } }, (file) =>
    assert.throws(
      () => readHar(file),
      (e: Error) => e instanceof IntegrationInputError && /no log\.entries array/.test(e.message),
    ),
  );
  withHar({}, (file, dir) => {
    writeFileSync(file, 'not json at all');
    assert.throws(() => readHar(file), /not a HAR file: not JSON/);
    assert.throws(() => readHar(join(dir, 'missing.har')), /no HAR file at/);
    assert.throws(() => readHar(file, { maxBytes: 3 }), /above the bound/);
  });
});

test('the platform API is told apart by Accept-Version; pages and other services are not judged', () => {
  const traffic = [
    ex('GET', `${API}/institutions?records_per_page=25`, { response: { institutions: [] } }),
    ex('GET', 'https://app.example.test/assets/app.js', { responseType: 'text/javascript', response: 'x' }),
  ];
  assert.deepEqual(detectPlatformBases(traffic), [API]);
  const r = judgeTraffic(traffic, { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    r.exchanges.map((x) => x.kind),
    ['api', 'other'],
  );
  assert.deepEqual(allFailures(r), []);
  assert.equal(trafficExitCode(r), 0);
});

test('OAuth window: loading the returned URI once is fine; a second load, a hard-coded URI and a protocol the client added are stated', () => {
  const uri = `${API}/oauth/window-abc`;
  const clean = judgeTraffic([createOauthMember(uri), load(uri)], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(clean.session, []);
  assert.deepEqual(
    clean.exchanges.map((x) => x.kind),
    ['api', 'returned-url'],
  );
  assert.deepEqual(allFailures(clean), []);

  const reused = judgeTraffic([createOauthMember(uri), load(uri), load(uri)], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    reused.session.map((f) => [f.check, f.tier]),
    [['oauth_window_uri_use', 'stated']],
  );
  assert.match(reused.session[0].rule, /single use/);

  const hardCoded = judgeTraffic([createOauthMember(uri), load(`${API}/oauth/window-from-last-week`)], { bases, check, credentialsRecorded: true }, 'test');
  assert.equal(hardCoded.session.length, 1);
  assert.match(hardCoded.session[0].rule, /must not be hard-coded or given a protocol prefix by the client/);
  assert.match(hardCoded.session[0].message, /never returned in this session/);
  // Loaded before the service returned it: not from this session either.
  const early = judgeTraffic([load(uri), createOauthMember(uri)], { bases, check, credentialsRecorded: true }, 'test');
  assert.match(early.session[0]?.message ?? '', /returned only after it was loaded/);

  const bare = 'api.example.test/oauth/window-xyz';
  const prefixed = judgeTraffic([createOauthMember(bare), load(`https://${bare}`)], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    prefixed.session.map((f) => f.tier),
    ['stated'],
  );
  assert.match(prefixed.session[0].rule, /begins without the protocol prefix being added by the client/);
  assert.equal(trafficExitCode(prefixed), 1);
});

test('a HAR exported sanitized (no credential header at all) is noted, and authentication is not judged', () => {
  const e = ex('GET', `${API}/institutions`, { response: { institutions: [] } });
  delete e.request.headers.authorization;
  const r = judgeTraffic([e], { bases, check, credentialsRecorded: false }, 'test');
  assert.deepEqual(allFailures(r), []);
  assert.ok(r.notes.some((n) => /no credential header at all/.test(n)));
  assert.equal(judgeTraffic([e], { bases, check, credentialsRecorded: true }, 'test').exchanges[0].failures[0]?.check, 'request_authentication');
});

test('reports carry no credential of the recording: Basic credentials, typed passwords, tokens', () => {
  const traffic = [
    ex('POST', `${API}/users/${USR}/members`, {
      body: { member: { institution_code: 'svcbank', credentials: [{ guid: 'CRD-1', value: 'hunter2-password' }] } },
      status: 201,
      response: member('https://x/y'),
    }),
    ex('POST', `${API}/data_exchange/grantee/G/grants/GR/token`, { status: 201, response: { token: 'dx-token-value-123' } }),
    ex('POST', `${API}/authorization_code`, {
      body: { authorization_code: { scope: `user-guid:${USR} read-protected` } },
      response: { authorization_code: { code: 'auth-code-secret-4567', scope: `user-guid:${USR} read-protected` } },
    }),
    // An institution's code is public (the test institution's svcbank): every report keeps it.
    ex('GET', `${API}/institutions/svcbank`, { response: { institution: { code: 'svcbank', name: 'SVC Bank' } } }),
  ];
  // The audience token request as a form body, its secret the first pair (Authentication 5),
  // and an answer that echoes it: learned from the form, it is removed wherever it appears.
  const form = ex('POST', `${API}/institutions`, { status: 400, response: { error: { message: 'client secret form-secret-abcdef-123456 refused' } } });
  form.request.headers['content-type'] = 'application/x-www-form-urlencoded';
  form.request.body = 'client_secret=form-secret-abcdef-123456&client_id=cid&grant_type=client_credentials';
  traffic.push(form);
  const r = judgeTraffic(traffic, { bases, check, credentialsRecorded: true }, 'test');
  assert.ok(
    allFailures(r).some((f) => f.check === 'request_required_fields'),
    'the planted missing data_request is reported',
  );
  const dir = mkdtempSync(join(tmpdir(), 'svc-reports-'));
  try {
    writeTrafficReports(r, dir, { secrets: [], recording: traffic });
    const files = readdirSync(dir);
    assert.deepEqual(files.sort(), ['junit.xml', 'recording.har', 'report.html', 'report.json', 'report.md']);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const secret of ['very-secret-key', BASIC.slice(6), 'hunter2-password', 'dx-token-value-123', 'form-secret-abcdef-123456', 'auth-code-secret-4567'])
        assert.ok(!text.includes(secret), `${f} carries ${secret}`);
      if (f === 'recording.har' || f === 'report.json') assert.ok(text.includes('svcbank'), `${f} keeps the institution code svcbank`);
    }
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /<failure[^>]*>[^<]*request_required_fields/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage: what the traffic sent and was answered, the declared reads kept; a difference touches only what is used', () => {
  const traffic = [
    ex('GET', `${API}/institutions?records_per_page=25&supports_account_verification=true`, {
      response: { institutions: [{ code: 'a', name: 'A', supports_account_verification: true }] },
    }),
    ex('POST', `${API}/users/${USR}/members`, { body: { member: { institution_code: 'a' } }, response: { member: { guid: MBR } } }),
  ];
  const first = usageFromExchanges(traffic, { bases, source: 'test' });
  assert.deepEqual(Object.keys(first.operations), ['GET /institutions', 'POST /users/{user_guid}/members']);
  assert.deepEqual(first.operations['GET /institutions'].query, ['records_per_page', 'supports_account_verification']);
  assert.deepEqual(first.operations['GET /institutions'].responseFields, [
    'institutions[].code',
    'institutions[].name',
    'institutions[].supports_account_verification',
  ]);
  assert.deepEqual(first.operations['POST /users/{user_guid}/members'].requestFields, ['member.institution_code']);
  first.operations['GET /institutions'].reads = ['institutions[].code'];
  const again = usageFromExchanges(traffic, { bases, source: 'test', keep: first });
  assert.deepEqual(again.operations['GET /institutions'].reads, ['institutions[].code'], 'declared reads survive a new recording');

  const t = (kind: string, operation: string, location: string) => touches({ kind: kind as never, operation, location }, again).touches;
  assert.equal(t('removed-response-field', 'GET /institutions', 'response.200.body.institutions[].supports_account_verification'), false, 'not read');
  assert.equal(t('removed-response-field', 'GET /institutions', 'response.body.institutions[].code'), true);
  assert.equal(t('changed-field-type', 'GET /institutions', 'response.200.body.institutions'), true, 'an ancestor of a read field');
  assert.equal(t('removed-request-parameter', 'GET /institutions', 'request.query.supports_account_verification'), true, 'sent');
  assert.equal(t('removed-request-parameter', 'GET /institutions', 'request.query.supports_account_statement'), false, 'never sent');
  assert.equal(t('added-required-request-parameter', 'POST /users/{user_guid}/members', 'request.body.data_request'), true, 'required now, not sent');
  assert.equal(
    t('added-required-request-parameter', 'POST /users/{user_identifier}/members', 'request.body.member.institution_code'),
    false,
    'already sent (parameter names ignored)',
  );
  assert.equal(t('removed-endpoint', 'GET /institutions', 'GET /institutions'), true);
  assert.equal(t('removed-endpoint', 'GET /managed_institutions', 'GET /managed_institutions'), false, 'not used');
  const declared = declaredUsage(['get /institutions/favorites']);
  assert.equal(
    touches({ kind: 'removed-response-field', operation: 'GET /institutions/favorites', location: 'response.200.body.institutions[].x' }, declared).touches,
    true,
  );
  assert.throws(() => declaredUsage(['GET /nowhere']), IntegrationInputError);
});

test('no Accept-Version: an inferred request finding, and the answer judged against the version it matches best (no false alarm)', () => {
  // A v20111101 institution (no guid, no supported_products): what a service answering its default version may send.
  const legacy = {
    code: 'svcbank',
    name: 'SVC Bank',
    status: 'ACTIVE',
    client_status: 'ACTIVE',
    is_disabled_by_client: false,
    instructional_text: null,
    instructional_text_steps: null,
    forgot_password_url: null,
    forgot_username_url: null,
    trouble_signing_in_url: null,
    supports_account_verification: true,
    supports_account_identification: true,
    supports_transaction_history: true,
    supports_account_statement: true,
    supports_oauth: false,
  };
  const e = ex('GET', `${API}/institutions`, { response: { institutions: [legacy, { ...legacy, code: 'other' }] } });
  delete e.request.headers['accept-version'];
  const r = judgeTraffic([e], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    allFailures(r).map((f) => [f.check, f.tier]),
    [['request_version_header', 'inferred']],
  );
  assert.match(r.exchanges[0].version ?? '', /none sent; the answer matches v20111101 best/);
  assert.equal(trafficExitCode(r), 0);
});

test('a test command that failed fails the gate in every report, though the traffic is clean: console, report.md, JUnit', () => {
  const traffic = [ex('GET', `${API}/institutions?records_per_page=25`, { response: { institutions: [] } })];
  const clean = judgeTraffic(traffic, { bases, check, credentialsRecorded: true }, 'test');
  assert.equal(trafficExitCode(clean), 0);
  const r = { ...clean, commandFailure: 'The test command exited 1 after 2.1 s.' };
  assert.equal(trafficExitCode(r), 1);
  const dir = mkdtempSync(join(tmpdir(), 'svc-reports-'));
  try {
    const written = writeTrafficReports(r, dir, { secrets: [], recording: traffic });
    assert.match(readFileSync(join(dir, 'report.md'), 'utf8'), /^# Integration traffic: FAIL\n[\s\S]*\*\*FAIL: The test command exited 1/);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /failures="1"/);
    assert.match(junit, /name="the test command"><failure message="The test command exited 1 after 2\.1 s\."/);
    assert.ok(written, 'reports written');
    assert.ok(
      redactedConsoleLines(r, { secrets: [] }).some((l) => /gate: FAIL \(the test command failed\)/.test(l)),
      'the console says why the gate failed',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("OAuth window: a HEAD spends the single-use URI as a GET does; the page's own form under the URI is not an API call", () => {
  const uri = `${API}/oauth/window-head`;
  const head = ex('HEAD', uri, { responseType: 'text/html', response: '' });
  const checkedFirst = judgeTraffic([createOauthMember(uri), head, load(uri)], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    checkedFirst.session.map((f) => [f.check, f.tier, f.operation]),
    [['oauth_window_uri_use', 'stated', `GET ${uri}`]],
  );
  assert.match(checkedFirst.session[0].message, /a second load of the same oauth_window_uri/);
  assert.deepEqual(
    checkedFirst.exchanges.map((x) => x.kind),
    ['api', 'returned-url', 'returned-url'],
  );
  // The authorization page posts its form under the URI it was loaded from (no Accept-Version: a browser's form).
  const decision = ex('POST', `${uri}/decision`, { responseType: 'text/html', response: '<html>done</html>' });
  delete decision.request.headers['accept-version'];
  decision.request.headers['content-type'] = 'application/x-www-form-urlencoded';
  decision.request.body = 'action=authorize';
  const authorized = judgeTraffic([createOauthMember(uri), load(uri), decision], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    authorized.exchanges.map((x) => x.kind),
    ['api', 'returned-url', 'returned-url'],
  );
  assert.deepEqual(allFailures(authorized), [], 'no undocumented operation, no missing Accept-Version, no second load');
  // A request under no returned URL is still an API call and judged.
  const stray = judgeTraffic(
    [createOauthMember(uri), ex('POST', `${API}/oauth/elsewhere/decision`, { body: {} })],
    { bases, check, credentialsRecorded: true },
    'test',
  );
  assert.equal(stray.exchanges[1].kind, 'api');
  // Another URL the service returned lends no path: even the API's own base in a link leaves every API call judged.
  const linked = ex('GET', `${API}/institutions/svcbank`, { response: { institution: { code: 'svcbank', url: `${API}/` } } });
  const after = judgeTraffic([linked, ex('POST', `${API}/users`, { body: { user: {} } })], { bases, check, credentialsRecorded: true }, 'test');
  assert.deepEqual(
    after.exchanges.map((x) => x.kind),
    ['api', 'api'],
  );
});
