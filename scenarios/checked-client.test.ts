/**
 * The checked client of scenarios/fixtures.ts against a local stand-in target (127.0.0.1):
 * the cause comes first when the service misbehaves (DESIGN.md, "Checks and failures": a message a person can act on), gating follows
 * severity, and every finding is annotated by its tier.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { CheckedClient, noteFailures, noteFinding, TIER_ANNOTATION } from './fixtures.ts';
import { attachFindings } from './fixtures/findings.ts';
import { loadContract, type Failure } from '../contracts/index.ts';
import { FINDINGS_ATTACHMENT, readFindings } from '../reports/findings.ts';
import { createRedactor, loadProfile, RATE_LIMIT_RESENDS } from '../targets/index.ts';

const USER_GUID = 'USR-0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const MEMBER_GUID = 'MBR-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/** A member shaped as the specification states (Resources: Member); outside contracts/ its test samples are not reached. */
function sampleMember(): Record<string, unknown> {
  return {
    guid: MEMBER_GUID,
    id: 'client-member-1',
    user_guid: USER_GUID,
    user_id: 'client-user-1',
    institution_code: 'svcbank',
    name: 'SVC Bank',
    connection_status: 'CONNECTED',
    is_being_aggregated: false,
    aggregated_at: '2025-03-01T10:00:00+00:00',
    successfully_aggregated_at: '2025-03-01T10:00:05+00:00',
    is_managed_by_user: false,
    is_oauth: false,
    metadata: null,
    use_cases: [],
  };
}

const API_KEY = 'checked-client-secret-key';
type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer };
let answer: Answer = { status: 200 };
/** Answers by path (without the query), before `answer`; every request path is recorded. */
let byPath: Record<string, Answer> = {};
/** Answers taken one per request before any other (a sequence: 429, 429, then the rest). */
let sequence: Answer[] = [];
let seen: string[] = [];
let server: Server;
let baseUrl = '';

before(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    seen.push(`${req.method} ${path}`);
    const a = sequence.shift() ?? byPath[path] ?? answer;
    res.writeHead(a.status, a.headers ?? {});
    res.end(a.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(() => server.close());

function client(env: Record<string, string> = {}) {
  const profile = loadProfile({
    ...process.env,
    SVC_BASE_URL: baseUrl,
    SVC_CLIENT_ID: 'client',
    SVC_API_KEY: API_KEY,
    SVC_ACCEPT_VERSION: 'v20250224',
    ...env,
  });
  const annotations: { type: string; description?: string }[] = [];
  const info = { annotations, attach: async () => {} };
  return { api: new CheckedClient(profile, loadContract(), createRedactor([API_KEY]), info as never, false), annotations };
}

const MEMBER_PATH = `/users/${USER_GUID}/members/${MEMBER_GUID}`;
const json = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('an HTML 503 page: the first line says the service answered 503, with the type and a body snippet', async () => {
  answer = { status: 503, headers: { 'content-type': 'text/html' }, body: `<html><body><h1>Service Unavailable</h1> key ${API_KEY}</body></html>` };
  const { api } = client();
  await assert.rejects(api.get(MEMBER_PATH), (e: Error) => {
    assert.match(e.message, /^The service answered 503 \(text\/html\)/);
    assert.match(e.message, /Service Unavailable/);
    assert.ok(!e.message.includes(API_KEY), 'the snippet is redacted');
    return true;
  });
  // Unless the caller expected that status.
  const r = await api.get(MEMBER_PATH, { expectStatus: 503 });
  assert.equal(r.status, 503);
});

test('truncated JSON: the first line says the body is not valid JSON, with status and length', async () => {
  const text = JSON.stringify({ member: sampleMember() }).slice(0, 60);
  answer = { status: 200, headers: { 'content-type': 'application/json' }, body: text };
  const { api } = client();
  await assert.rejects(api.get(MEMBER_PATH), (e: Error) => {
    assert.match(e.message, /^The service answered a body that is not valid JSON: 200 application\/json, 60 bytes/);
    return true;
  });
  // An error body is open (Errors: "Shape of error response bodies: not shown").
  answer = { status: 400, headers: { 'content-type': 'application/json' }, body: 'Bad Request' };
  assert.equal((await api.get(MEMBER_PATH)).status, 400);
});

test('429 with no body and no Content-Type passes the contract', async () => {
  answer = { status: 429 };
  seen = [];
  const { api, annotations } = client();
  const r = await api.get('/institutions', { expectStatus: [200, 429] });
  assert.equal(r.status, 429);
  assert.deepEqual(r.failures, []);
  assert.deepEqual(annotations, []);
  assert.equal(seen.length, 1, 'a 429 the request expects is not sent again');
});

test('a 429 the request did not expect is sent again after backing off; the answer after it is judged', async () => {
  const limited: Answer = { status: 429, headers: { 'retry-after': '0' } };
  sequence = [limited, limited];
  answer = json({ institutions: [], pagination: { current_page: 1, per_page: 25, total_entries: 0, total_pages: 1 } });
  seen = [];
  const { api, annotations } = client();
  const r = await api.get('/institutions', { expectStatus: 200 });
  assert.equal(r.status, 200);
  assert.equal(seen.length, 3);
  assert.deepEqual(
    annotations.map((a) => a.type),
    ['rate limited'],
  );
  assert.match(annotations[0].description ?? '', /^2 request\(s\) answered 429 sent again/);
});

test('a request still answered 429 after every resend fails naming the rate limit', async () => {
  answer = { status: 429, headers: { 'retry-after': '0' } };
  seen = [];
  const { api } = client();
  await assert.rejects(api.get('/institutions', { expectStatus: 200 }), /received 429 \(still rate limited after backing off 5 times/);
  assert.equal(seen.length, 1 + RATE_LIMIT_RESENDS);
});

test("a standard aggregation's 429 is not sent again: it may be the aggregation throttle, which scenarios judge", async () => {
  answer = { status: 429, headers: { 'retry-after': '0' } };
  seen = [];
  const { api } = client();
  assert.equal((await api.post(`${MEMBER_PATH}/aggregate`)).status, 429);
  assert.equal(seen.length, 1);
});

test('findings are annotated by tier; only errors gate; strict makes inferred ones gate', async () => {
  // informational: a null where a type is stated
  answer = json({ member: { ...sampleMember(), name: null } });
  const plain = client();
  await plain.api.get(MEMBER_PATH);
  assert.deepEqual(
    plain.annotations.map((a) => a.type),
    [TIER_ANNOTATION.informational],
  );

  // inferred: a deprecated endpoint without the header under the guessed name
  answer = json({ managed_institutions: [] });
  const guessed = client();
  await guessed.api.get('/managed_institutions');
  assert.deepEqual(
    guessed.annotations.map((a) => a.type),
    [TIER_ANNOTATION.inferred],
  );
  const strict = client({ SVC_STRICT: '1' });
  await assert.rejects(strict.api.get('/managed_institutions'), /Contract check failed .*inferred, gating because SVC_STRICT=1/);
  const named = client({ SVC_DEPRECATION_HEADER: 'Deprecation' });
  await assert.rejects(named.api.get('/managed_institutions'), /Contract check failed/);
  assert.deepEqual(
    named.annotations.map((a) => a.type),
    [TIER_ANNOTATION.stated],
  );

  // stated: a wrong type (another member: this process's run ledger holds the first one's is_oauth)
  answer = json({ member: { ...sampleMember(), guid: 'MBR-00000000-0000-4000-8000-00000000beef', is_oauth: 'yes' } });
  const stated = client();
  await assert.rejects(stated.api.get(MEMBER_PATH), /^Error: Contract check failed|Contract check failed for GET/);
  assert.deepEqual(
    stated.annotations.map((a) => a.type),
    [TIER_ANNOTATION.stated],
  );
});

const REFUSED: Answer = { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":{"status":401,"code":"unauthorized"}}' };
const INSTITUTIONS_PAGE = json({ institutions: [], pagination: { current_page: 1, per_page: 1, total_entries: 0, total_pages: 1 } });

test('a 401 to refused credentials fails naming SVC_CLIENT_ID and SVC_API_KEY, even where the test expected a refusal', async () => {
  byPath = {};
  seen = [];
  answer = REFUSED;
  const { api } = client();
  for (const expectStatus of [undefined, 401]) {
    await assert.rejects(api.get('/data_exchange/users', { expectStatus }), (e: Error) => {
      assert.match(
        e.message,
        /^The target refused the credentials: GET \/data_exchange\/users answered 401 \(platform, Accept-Version v20250224\)\. Check SVC_CLIENT_ID and SVC_API_KEY/,
      );
      assert.match(e.message, /A control read with the same credentials, GET \/institutions\?records_per_page=1, answered 401/);
      assert.ok(!e.message.includes(API_KEY));
      return true;
    });
  }
  assert.deepEqual(seen, ['GET /data_exchange/users', 'GET /institutions', 'GET /data_exchange/users', 'GET /institutions']);
});

test("a refusal is the request's own once the same credentials are shown to work: one control read, then none", async () => {
  byPath = { '/institutions': INSTITUTIONS_PAGE };
  seen = [];
  answer = REFUSED;
  const { api } = client();
  // Authentication 3: a data-exchange read without SVC-3DX-TOKEN is refused.
  assert.equal((await api.get('/data_exchange/users', { expectStatus: 401 })).status, 401);
  assert.equal((await api.get('/data_exchange/users')).status, 401);
  assert.deepEqual(seen, ['GET /data_exchange/users', 'GET /institutions', 'GET /data_exchange/users']);
  // A refusal the test did not expect says the credentials were fine.
  await assert.rejects(
    api.get('/data_exchange/users', { expectStatus: 200 }),
    /expected status 200, received 401 \(the target accepts the same credentials in this test/,
  );
});

test('credentials the test chose itself are judged by the test, with no control read', async () => {
  byPath = {};
  seen = [];
  answer = REFUSED;
  const { api } = client();
  assert.equal((await api.get('/institutions', { auth: 'none' })).status, 401);
  assert.equal((await api.get('/institutions', { auth: { user: 'client', pass: 'wrong' } })).status, 401);
  assert.equal((await api.get('/institutions', { headers: { Authorization: 'Basic d3Jvbmc6d3Jvbmc=' } })).status, 401);
  assert.deepEqual(seen, ['GET /institutions', 'GET /institutions', 'GET /institutions']);
});

test('a refused audience client names SVC_AUDIENCE_CLIENT_ID and SVC_AUDIENCE_CLIENT_SECRET', async () => {
  byPath = { '/token': { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_client"}' } };
  answer = REFUSED;
  const { api } = client({
    SVC_AUDIENCE_BASE_URL: baseUrl,
    SVC_AUDIENCE_TOKEN_URL: `${baseUrl}/token`,
    SVC_AUDIENCE_CLIENT_ID: 'aud',
    SVC_AUDIENCE_CLIENT_SECRET: 'audience-secret-1234',
  });
  await assert.rejects(api.call({ api: 'audience', path: '/api/v1/audience/a/list' }), (e: Error) => {
    assert.match(
      e.message,
      /^The target refused the credentials: POST http:\/\/127\.0\.0\.1:\d+\/token answered 401\. Check SVC_AUDIENCE_CLIENT_ID, SVC_AUDIENCE_CLIENT_SECRET and SVC_AUDIENCE_TOKEN_URL/,
    );
    assert.ok(!e.message.includes('audience-secret-1234'));
    return true;
  });
});

test('a redirect nobody documented: the first line names its Location; an expected one is returned', async () => {
  answer = { status: 302, headers: { location: `https://login.example/sso?key=${API_KEY}`, 'content-type': 'text/html' }, body: '<a href="/sso">Sign in</a>' };
  const { api } = client();
  await assert.rejects(api.get('/institutions'), (e: Error) => {
    assert.match(
      e.message,
      /^The service answered 302 \(Location: https:\/\/login\.example\/sso\?key=\S+\) to GET \/institutions \(platform, Accept-Version v20250224\), where no redirect is documented and the suite follows none\. Body: <a href="\/sso">Sign in<\/a>$/,
    );
    assert.ok(!e.message.includes(API_KEY), 'the Location is redacted');
    return true;
  });
  assert.equal((await api.get('/institutions', { expectStatus: 302 })).status, 302);
});

test('a body above SVC_MAX_BODY_BYTES fails the call naming the operation, the limit and the setting', async () => {
  answer = json({ institutions: Array.from({ length: 200 }, (_, i) => ({ code: `bank_${i}`, name: `Bank ${i}` })) });
  const { api } = client({ SVC_MAX_BODY_BYTES: '1000' });
  await assert.rejects(api.get('/institutions', { query: { records_per_page: 200 } }), (e: Error) => {
    assert.match(
      e.message,
      /^GET http:\/\/127\.0\.0\.1:\d+\/institutions\?records_per_page=200 \(operation GET \/institutions\): the 200 application\/json answer's body is larger than the limit of 1000 bytes \(1000 bytes, SVC_MAX_BODY_BYTES\); reading stopped at the limit \(no Content-Length\)\. Raise SVC_MAX_BODY_BYTES if a body this large is legitimate\.$/,
    );
    return true;
  });
});

// ---- hostile answers: the client reports them, never crashes on them ----------------

/** Characters a console acts on, and lone surrogates (bytes that were not UTF-8): never in a message. */
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

test('a body nested 100 000 levels deep: one clear failure naming the bound and the depth, whatever checks the call asked for', async () => {
  const body = `{"member":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  answer = { status: 200, headers: { 'content-type': 'application/json' }, body };
  const { api } = client();
  // `{"member":` is 10 bytes: level 2 opens at byte 10, level 129 at byte 137.
  const expected = (title: string) =>
    `The service answered a JSON body the suite does not read: 200 application/json, 200011 bytes, to ${title} (platform, Accept-Version v20250224): Received: a JSON body nested deeper than 128 levels (100001 levels; level 129 opens at byte 137) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it). Body: {"member":${'['.repeat(190)}…`;
  for (const only of [undefined, ['content_type_conformance']]) {
    await assert.rejects(api.get(MEMBER_PATH, only ? { only } : {}), (e: Error) => {
      assert.equal(e.message, expected(`GET ${MEMBER_PATH}`));
      return true;
    });
  }
  // An error status: the finding itself, stated, as the contract failure.
  answer = { status: 404, headers: { 'content-type': 'application/json' }, body };
  await assert.rejects(api.get(MEMBER_PATH), (e: Error) => {
    assert.equal(
      e.message,
      `Contract check failed for GET ${MEMBER_PATH} → 404 (platform, Accept-Version v20250224):\n  - [error] response_json_text GET /users/{user_guid}/members/{member_guid} at response.body: Received: a JSON body nested deeper than 128 levels (100001 levels; level 129 opens at byte 137) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it) (rule: RFC 8259 §9: "An implementation may set limits on the maximum depth of nesting"; this judge reads JSON nested up to 128 levels, far beyond any body the documents describe, and passes no answer it could not read (Endpoints: "Request and response bodies are JSON"))`,
    );
    return true;
  });
});

test('a gzip body that inflates to binary: both byte counts, and the body escaped, never raw on the console', async () => {
  const binary = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x1b, 0x5b, 0x32, 0x4a]), Buffer.alloc(200, 0xff)]);
  const wire = gzipSync(binary);
  answer = { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: wire };
  const { api } = client();
  await assert.rejects(api.get(MEMBER_PATH), (e: Error) => {
    assert.ok(
      e.message.startsWith(
        `The service answered a body that is not valid JSON: 200 application/json, 213 bytes, inflated from ${wire.length} bytes received (Content-Encoding gzip), to GET ${MEMBER_PATH} (platform, Accept-Version v20250224): Unexpected token`,
      ),
      e.message,
    );
    assert.match(e.message, /\. Body: \\x89PNG \\x1A \\x00\\x1B\[2J\\xFF\\xFF/);
    assert.doesNotMatch(e.message, RAW, 'no raw control character or byte');
    return true;
  });
});

test('a gzip bomb through the client: the transport stops at SVC_MAX_BODY_BYTES, naming both sizes and the setting', async () => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  answer = { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb };
  const { api } = client({ SVC_MAX_BODY_BYTES: String(1024 * 1024) });
  await assert.rejects(api.get('/institutions'), (e: Error) => {
    assert.equal(e.name, 'TransportError');
    assert.equal(
      e.message,
      `GET ${baseUrl}/institutions (operation GET /institutions): the 200 application/json answer's body (Content-Encoding gzip, ${bomb.length} bytes received) inflates beyond the limit of 1048576 bytes (1 MiB, SVC_MAX_BODY_BYTES); inflating stopped at the limit. Raise SVC_MAX_BODY_BYTES if a body this large is legitimate.`,
    );
    return true;
  });
});

/** A member of its own per test below: the run-wide invariants of the client's ledger compare every read of one member. */
const memberPath = (n: number) => {
  const guid = `MBR-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c${String(n).padStart(2, '0')}`;
  return { guid, path: `/users/${USER_GUID}/members/${guid}` };
};

test('bytes that are not UTF-8 in a member: a stated finding quoting RFC 8259, escaped in the message', async () => {
  const { guid, path } = memberPath(1);
  const text = JSON.stringify({ member: { ...sampleMember(), guid, name: 'SVC Bank X' } });
  const at = text.indexOf('SVC Bank X') + 9;
  answer = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(text.slice(at + 1))]),
  };
  const { api } = client();
  await assert.rejects(api.get(path), (e: Error) => {
    assert.equal(
      e.message,
      `Contract check failed for GET ${path} → 200 (platform, Accept-Version v20250224):\n  - [error] response_json_text GET /users/{user_guid}/members/{member_guid} at response.body: Received: 1 byte that is not UTF-8, the first at byte ${at}: k","name":"SVC Bank \\xC3(","connection_stat / Expected: JSON text encoded in UTF-8 (rule: Endpoints: "Request and response bodies are JSON"; RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8")`,
    );
    assert.doesNotMatch(e.message, RAW);
    return true;
  });
});

test('a member with a repeated name: an inferred finding, annotated, not gating unless strict', async () => {
  const { guid, path } = memberPath(2);
  const text = JSON.stringify({ member: { ...sampleMember(), guid } }).replace('"name":"SVC Bank"', '"name":"SVC Bank","name":"Other Bank"');
  answer = { status: 200, headers: { 'content-type': 'application/json' }, body: text };
  const { api, annotations } = client();
  const r = await api.get(path);
  assert.equal(r.body.member.name, 'Other Bank');
  assert.deepEqual(
    annotations.filter((a) => a.description?.includes('response_json_text')).map((a) => [a.type, a.description]),
    [
      [
        TIER_ANNOTATION.inferred,
        '[warning, inferred] response_json_text GET /users/{user_guid}/members/{member_guid} at response.body.member.name: Received: the name "name" more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object (rule: RFC 8259 §4: "The names within an object SHOULD be unique" ("When the names within an object are not unique, the behavior of software that receives such an object is unpredictable"); inferred: a SHOULD, so the body is still JSON as the specification states)',
      ],
    ],
  );
  await assert.rejects(
    client({ SVC_STRICT: '1' }).api.get(path),
    /response_json_text .* at response\.body\.member\.name: Received: the name "name" more than once/,
  );
});

test('a finding seen at other indices is one annotation and one typed record that count them, attached once as the test ends', async () => {
  const annotations: { type: string; description?: string }[] = [];
  const attached: { name: string; body: string; contentType: string }[] = [];
  const info = { annotations, attach: async (name: string, o: { body: string; contentType: string }) => void attached.push({ name, ...o }) } as never;
  // The secret in every text of the failure: each is redacted, in the annotation and in the record.
  const at = (i: number): Failure => ({
    check: `response_schema_conformance ${API_KEY}`,
    operation: `GET /institutions?key=${API_KEY}`,
    location: `response.body.institutions[${i}].code ${API_KEY}`,
    rule: `type ${API_KEY}`,
    severity: 'warning',
    message: `Received: null with ${API_KEY}`,
  });
  noteFailures(info, [at(0), at(1), at(2)], createRedactor([API_KEY]).text);
  noteFinding(info, 'inferred', 'an unknown id answers 404', '[inferred] an unknown id answers 404');
  assert.deepEqual(
    annotations.map((a) => a.type),
    [TIER_ANNOTATION.informational, TIER_ANNOTATION.inferred],
  );
  assert.match(
    annotations[0].description!,
    /institutions\[0\]\.code \[REDACTED\]: Received: null with \[REDACTED\] \(rule: type \[REDACTED\]\) \(and 2 more like it at other indices in this test\)$/,
  );
  assert.ok(!annotations[0].description!.includes(API_KEY), 'no text of the annotation keeps the secret');
  assert.equal(attached.length, 0, 'nothing is attached before the test ends');
  await attachFindings(info);
  await attachFindings(info);
  assert.equal(attached.length, 1, 'attached once');
  assert.equal(attached[0].name, FINDINGS_ATTACHMENT.name);
  assert.equal(attached[0].contentType, FINDINGS_ATTACHMENT.contentType);
  const [first, second] = readFindings(attached[0].body);
  assert.equal(first.occurrences, 3);
  assert.ok('failure' in first && first.failure.location === 'response.body.institutions[0].code [REDACTED]');
  assert.ok(!attached[0].body.includes(API_KEY), 'no text of the record keeps the secret');
  assert.deepEqual(second, { tier: 'inferred', occurrences: 1, note: 'an unknown id answers 404' });
});
