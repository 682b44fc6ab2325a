/**
 * The delivery checks (contracts/delivery.ts) as registered checks, and the document
 * reader of contracts/load.ts that every other reader of spec/ goes through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DELIVERY_CHECKS,
  loadContract,
  MIXED_TYPES,
  registeredChecks,
  runDeliveryChecks,
  streamRetries,
  webhook_member_state,
  webhook_oauth,
  webhook_retry_rules,
  type DeliveredRequest,
} from '../index.ts';
import { fileUri, inlineRefs, loadDocument, readYamlFile } from '../load.ts';

const req = (body: unknown, o: Partial<DeliveredRequest> = {}): DeliveredRequest => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  atMs: 0,
  answered: 204,
  ...o,
});

test('every delivery check is registered once, as a webhook check, under the name its failures carry', () => {
  assert.deepEqual(
    [...DELIVERY_CHECKS],
    [
      'webhook_json_post',
      'webhook_field_formats',
      'webhook_retry_identical_payload',
      'webhook_retry_count',
      'webhook_no_retry_after_success',
      'webhook_retry_on_failure',
      'webhook_retry_schedule',
      'webhook_version_rises',
      'webhook_test_shape',
      'webhook_receiver_auth',
      'webhook_oauth',
      'webhook_oauth_token_reuse',
      'webhook_skip',
      'webhook_x_callback_payload',
      'webhook_user_id',
      'webhook_member_latest_state',
      'webhook_rule9_fields',
      'webhook_https',
      'webhook_platform_types',
      'webhook_retries_in_stream',
    ],
  );
  const table = registeredChecks();
  for (const name of DELIVERY_CHECKS) {
    const defs = table.filter((d) => d.name === name);
    assert.equal(defs.length, 1, name);
    assert.equal(defs[0].kind, 'webhook', name);
  }
});

test('a single payload (checkWebhook) is never judged by a delivery check', () => {
  const f = loadContract().checkWebhook('member', { action: 'test', member: {}, updated_at: 1.5 });
  assert.deepEqual(
    f.filter((x) => (DELIVERY_CHECKS as readonly string[]).includes(x.check)),
    [],
  );
  assert.ok(
    f.some((x) => x.check === 'webhook_payload_conformance'),
    'the payload check still runs',
  );
});

test('each delivery check fails what its rule forbids and passes what it allows', () => {
  const ok = (name: string, rs: DeliveredRequest[], params = {}) => assert.deepEqual(runDeliveryChecks([name], 'member', rs, params), [], name);
  const bad = (name: string, rs: DeliveredRequest[], params = {}) => {
    const f = runDeliveryChecks([name], 'member', rs, params);
    assert.ok(f.length > 0 && f.every((x) => x.check === name && x.severity === 'error' && x.operation === 'WEBHOOK member'), `${name}: ${JSON.stringify(f)}`);
  };
  ok('webhook_json_post', [req({ a: 1 })]);
  bad('webhook_json_post', [req({ a: 1 }, { method: 'PUT' })]);
  bad('webhook_json_post', [req('[1]')]);
  ok('webhook_field_formats', [req({ updated_at: 1740355200, created_on: '2025-02-24', x_at: null })]);
  bad('webhook_field_formats', [req({ updated_at: 1740355200000 })]);
  bad('webhook_field_formats', [req({ m: { created_on: '2025-02-24T00:00:00Z' } })]);
  ok('webhook_retry_identical_payload', [req({ a: 1 }), req({ a: 1 })]);
  bad('webhook_retry_identical_payload', [req({ a: 1 }), req({ a: 2 })]);
  ok(
    'webhook_retry_count',
    Array.from({ length: 13 }, () => req({ a: 1 })),
  );
  bad(
    'webhook_retry_count',
    Array.from({ length: 14 }, () => req({ a: 1 })),
  );
  ok('webhook_no_retry_after_success', [req({ a: 1 }, { answered: 500 }), req({ a: 1 }, { answered: 204 })]);
  bad('webhook_no_retry_after_success', [req({ a: 1 }, { answered: 200 }), req({ a: 1 })]);
  ok('webhook_retry_on_failure', [req({ a: 1 }, { answered: 500 })], { expectRetryAfterFailure: false });
  bad('webhook_retry_on_failure', [req({ a: 1 }, { answered: 'timeout' })], { expectRetryAfterFailure: true });
  ok('webhook_retry_schedule', [req({ a: 1 }, { atMs: 0 }), req({ a: 1 }, { atMs: 30 })], { timeScale: 1000, jitter: 0.1 });
  bad('webhook_retry_schedule', [req({ a: 1 }, { atMs: 0 }), req({ a: 1 }, { atMs: 5 })], { timeScale: 1000, jitter: 0.1 });
  ok('webhook_version_rises', [req({ guid: 'M1', version: 1 }), req({ guid: 'M1', version: 2, x: 1 })]);
  bad('webhook_version_rises', [req({ guid: 'M1', version: 1 }), req({ guid: 'M1', version: 1, x: 1 })]);
  ok('webhook_test_shape', [req({ action: 'test', member: {}, version: 1 })]);
  bad('webhook_test_shape', [req({ member: {}, version: 1 })]);
  ok('webhook_receiver_auth', [req({}, { headers: { 'content-type': 'application/json', authorization: 'Basic x' } })], { expectedAuthorization: 'Basic x' });
  bad('webhook_receiver_auth', [req({})], { expectedAuthorization: 'Basic x' });
  const token = { query: new URLSearchParams('grant_type=client_credentials'), body: '', authorization: 'Basic c', issued: 't1' };
  const bearer = req({}, { headers: { 'content-type': 'application/json', authorization: 'Bearer t1' } });
  ok('webhook_oauth', [bearer], { tokens: [token], expectedAuthorization: 'Basic c' });
  bad('webhook_oauth', [req({})], { tokens: [token], expectedAuthorization: 'Basic c' });
  ok('webhook_oauth_token_reuse', [bearer, bearer], { tokens: [token], maxTokenRequests: 1 });
  bad('webhook_oauth_token_reuse', [bearer, bearer], { tokens: [token, token], maxTokenRequests: 1 });
  ok('webhook_skip', []);
  bad('webhook_skip', [req({})]);
  ok('webhook_x_callback_payload', [req({ member: { x_callback_payload: 'cb' } })], { callbackPayload: 'cb' });
  bad('webhook_x_callback_payload', [req({ member: {} })], { callbackPayload: 'cb' });
});

test("on a stream of several types (a real service's deliveries) each request is judged as its own type", () => {
  const at = (path: string, body: unknown, o: Partial<DeliveredRequest> = {}) => req(body, { path, ...o });
  const names = (f: { check: string }[]) => f.map((x) => x.check);
  // Rule 3: a member webhook without a version; two different updates with one version. Test webhooks are left to rule 7.
  assert.deepEqual(names(runDeliveryChecks(['webhook_version_rises'], MIXED_TYPES, [at('/member', { member: { guid: 'M1', is_oauth: false } })])), [
    'webhook_version_rises',
  ]);
  assert.deepEqual(
    runDeliveryChecks(['webhook_version_rises'], MIXED_TYPES, [
      at('/member', { action: 'test', member: { guid: 'M1' }, version: 1 }),
      at('/member', { action: 'test', member: { guid: 'M1', x: 1 }, version: 1 }),
    ]),
    [],
  );
  assert.deepEqual(
    names(
      runDeliveryChecks(['webhook_version_rises'], MIXED_TYPES, [
        at('/hooks', { member: { guid: 'M1', version: 2 } }),
        at('/hooks', { member: { guid: 'M1', version: 2, x: 1 } }),
      ]),
    ),
    ['webhook_version_rises'],
  );
  // Rule 8: only the run's member, member and member_data_updated types.
  const cb = { callbackPayload: 'cb', callbackMemberGuid: 'M1' };
  assert.deepEqual(
    runDeliveryChecks(
      ['webhook_x_callback_payload'],
      MIXED_TYPES,
      [
        at('/member', { member: { guid: 'M2' } }),
        at('/aggregation', { member_guid: 'M1' }),
        at('/member', { member: { guid: 'M1', x_callback_payload: 'cb' } }),
      ],
      cb,
    ),
    [],
  );
  assert.deepEqual(names(runDeliveryChecks(['webhook_x_callback_payload'], MIXED_TYPES, [at('/member_data_updated', { member_guid: 'M1' })], cb)), [
    'webhook_x_callback_payload',
  ]);
  // Rule 9: fields at the top level or in the object named for the type.
  assert.deepEqual(
    runDeliveryChecks(['webhook_rule9_fields'], MIXED_TYPES, [at('/x', { aggregation: { job_guid: 'J', is_background: false }, user_id: null })]),
    [],
  );
  assert.deepEqual(names(runDeliveryChecks(['webhook_rule9_fields'], MIXED_TYPES, [at('/verification', { member_guid: 'M1' })])), ['webhook_rule9_fields']);
  // HTTPS and the platform client's six types; an untold type is not judged.
  assert.deepEqual(
    runDeliveryChecks(['webhook_https'], MIXED_TYPES, [at('/member', {}), at('/member', {}, { headers: { 'x-forwarded-proto': 'https' } })]),
    [],
  );
  assert.deepEqual(names(runDeliveryChecks(['webhook_https'], MIXED_TYPES, [at('/member', {}, { headers: { 'x-forwarded-proto': 'http' } })])), [
    'webhook_https',
  ]);
  assert.deepEqual(runDeliveryChecks(['webhook_platform_types'], MIXED_TYPES, [at('/balance', {}), at('/hooks', { a: 1 })]), []);
  assert.deepEqual(names(runDeliveryChecks(['webhook_platform_types'], MIXED_TYPES, [at('/member', {})])), ['webhook_platform_types']);
  // Rules 4-5 over a stream: an identical retry passes; a changed one is stated; none at all is inferred.
  const m = (x: number, answered: DeliveredRequest['answered'] = 204) =>
    at('/member', { member: { guid: 'M1', x }, version: 3, action: 'updated' }, { answered });
  const retried = streamRetries({ type: MIXED_TYPES, requests: [m(1, 503), m(1)], params: {} });
  assert.deepEqual([retried.failures, retried.failed, retried.retried], [[], 1, 1]);
  assert.deepEqual(names(streamRetries({ type: MIXED_TYPES, requests: [m(1, 503), m(2)], params: {} }).failures), ['webhook_retry_identical_payload']);
  const none = streamRetries({ type: MIXED_TYPES, requests: [m(1, 503)], params: { strict: false, waitMs: 10 } }).failures;
  assert.deepEqual([none[0]?.check, none[0]?.tier, none[0]?.severity], ['webhook_retry_on_failure', 'inferred', 'warning']);
  assert.deepEqual(names(runDeliveryChecks(['webhook_retries_in_stream'], MIXED_TYPES, [m(1, 503), m(2)])), ['webhook_retry_identical_payload']);
});

test('the grouped call shapes run their checks in order; an unknown name is a failure, not a throw', () => {
  const retries = webhook_retry_rules('member', [req({ a: 1 }, { answered: 200 }), req({ a: 2 })], { expectRetryAfterFailure: true });
  assert.deepEqual(
    retries.map((f) => f.check),
    ['webhook_retry_identical_payload', 'webhook_no_retry_after_success'],
  );
  const oauth = webhook_oauth('member', [req({})], [], 'Basic c', { maxTokenRequests: 0 });
  assert.deepEqual(
    oauth.map((f) => f.check),
    ['webhook_oauth'],
  );
  const unknown = runDeliveryChecks(['webhook_no_such_check'], 'member', []);
  assert.equal(unknown.length, 1);
  assert.match(unknown[0].message, /no delivery check named/);
});

test('the document reader: derived document of a version, else the source; $refs inlined, cycles open', (t) => {
  const derived = loadDocument('platform', 'v20250224');
  assert.match(derived.file, /versions[\\/]platform\.v20250224\.openapi\.yaml$/);
  assert.match(loadDocument('platform').file, /spec[\\/]platform\.openapi\.yaml$/);
  assert.match(loadDocument('platform', 'v19990101').file, /spec[\\/]platform\.openapi\.yaml$/);
  assert.strictEqual(loadDocument('test-host').doc, loadContract().sourceDocument('test-host'), 'one parse shared with the contract');
  const dir = mkdtempSync(join(tmpdir(), 'inline-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'doc.yaml');
  writeFileSync(
    file,
    [
      'components:',
      '  schemas:',
      '    A: { type: object, properties: { b: { $ref: "#/components/schemas/B" }, self: { $ref: "#/components/schemas/A" } } }',
      '    B: { type: string, description: from B }',
      'root: { $ref: "#/components/schemas/A", description: kept }',
      'missing: { $ref: "#/components/schemas/Nope" }',
    ].join('\n'),
  );
  const uri = fileUri(file);
  const parsed = readYamlFile(file) as Record<string, unknown>;
  // `self` refers back to A, which is being inlined: a cycle, left open.
  assert.deepEqual(inlineRefs(parsed.root, uri), {
    type: 'object',
    properties: { b: { type: 'string', description: 'from B' }, self: {} },
    description: 'kept',
  });
  assert.deepEqual(inlineRefs(parsed.missing, uri), {});
});

test("what a receiver is left with about the run's member: its user_id (stated for the member object, inferred for the aggregation payload) and its highest-version webhook's state (inferred)", () => {
  const at = (path: string, body: unknown) => req(body, { path });
  const member = (version: number, fields: Record<string, unknown>, guid = 'MBR-1') =>
    at('/member', { action: 'updated', version, member: { guid, user_guid: 'USR-1', ...fields } });
  const aggregation = (userId: unknown) =>
    at('/aggregation', { action: 'completed', aggregation: { job_guid: 'JOB-1', member_guid: 'MBR-1', user_id: userId } });
  const runUser = { guid: 'USR-1', id: 'client-user-7', memberGuid: 'MBR-1' };
  const judge = (requests: DeliveredRequest[], memberRead?: { connection_status?: unknown; is_being_aggregated?: unknown }, strict = false) =>
    webhook_member_state(requests, { runUser, strict, ...(memberRead ? { memberRead: { guid: 'MBR-1', ...memberRead } } : {}) }).map((f) => [
      f.check,
      f.operation,
      f.tier ?? 'stated',
      f.severity,
    ]);
  // The client's id, a null (rule 2), no field at all, another member's webhook: nothing to report.
  assert.deepEqual(
    judge([
      member(1, { user_id: 'client-user-7' }),
      member(2, { user_id: null }),
      member(3, {}),
      member(4, { user_id: 'USR-9' }, 'MBR-2'),
      aggregation('client-user-7'),
      aggregation(null),
    ]),
    [],
  );
  assert.deepEqual(judge([member(1, { user_id: 'USR-1' })]), [['webhook_user_id', 'WEBHOOK member', 'stated', 'error']]);
  assert.deepEqual(judge([aggregation('USR-1')]), [['webhook_user_id', 'WEBHOOK aggregation', 'inferred', 'warning']]);
  assert.deepEqual(judge([aggregation('USR-1')], undefined, true), [['webhook_user_id', 'WEBHOOK aggregation', 'inferred', 'error']]);
  // Rule 3: the highest version is what a receiver keeps, whatever order they came in (rule 6).
  const settled = { connection_status: 'CONNECTED', is_being_aggregated: false };
  const late = [
    member(3, { connection_status: 'CONNECTED', is_being_aggregated: false }),
    member(2, { connection_status: 'CONNECTED', is_being_aggregated: true }),
  ];
  assert.deepEqual(judge(late, settled), []);
  assert.deepEqual(judge([...late, member(4, { connection_status: 'CONNECTED', is_being_aggregated: true })], settled), [
    ['webhook_member_latest_state', 'WEBHOOK member', 'inferred', 'warning'],
  ]);
  // A field the webhook or the read leaves out is not compared; no read, no judgement.
  assert.deepEqual(judge([member(5, { connection_status: 'PENDING' })], { is_being_aggregated: false }), []);
  assert.deepEqual(judge([member(5, { is_being_aggregated: true })]), []);
});

test('a failed delivery of an object without a version that got no identical retry names the later delivery of the same object and what differs', () => {
  const agg = (completedAt: number, answered: DeliveredRequest['answered'] = 204, job = 'JOB-1', startedAt = 90) =>
    req(
      { action: 'completed', aggregation: { job_guid: job, member_guid: 'MBR-1', started_at: startedAt, completed_at: completedAt } },
      { path: '/aggregation', answered },
    );
  // Another job of the same member is another event; of two candidates the closer is named.
  const requests = [agg(100, 503), agg(200, 204, 'JOB-2'), agg(106, 204, 'JOB-1', 95), agg(105)];
  const [f] = streamRetries({ type: MIXED_TYPES, requests, params: { waitMs: 8000 } }).failures;
  assert.equal(f.check, 'webhook_retry_on_failure');
  assert.match(
    f.message,
    /not retried within SVC_WEBHOOK_WAIT_MS=8000 ms; request\[3\], a later aggregation delivery about the same object with the same action, differs from it in completed_at \(/,
  );
  assert.doesNotMatch(streamRetries({ type: MIXED_TYPES, requests: [agg(100, 503), agg(200, 204, 'JOB-2')], params: {} }).failures[0].message, /a later/);
  assert.doesNotMatch(streamRetries({ type: MIXED_TYPES, requests: [agg(100, 503)], params: { waitMs: 8000 } }).failures[0].message, /a later/);
});
