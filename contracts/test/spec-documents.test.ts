/**
 * The contract against the real documents of spec/ (written by the spec/ work,
 * following spec/CONVENTIONS.md): they load, every schema compiles, real-shaped
 * bodies pass, planted defects fail, and the Versioning changes are classified.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, hasErrors, diffDocuments, type Exchange } from '../index.ts';
import { sampleMember, sampleInstitutionsPage, USER_GUID, MEMBER_GUID } from './samples.ts';

const contract = loadContract();

test('spec/: the three versions are found and every schema compiles', () => {
  assert.deepEqual(contract.versions, ['v20111101', 'v20250224', 'v20260929']);
  assert.deepEqual(contract.compileAll(), []);
  for (const v of contract.versions) assert.ok(contract.model('platform', v).operations.length > 0, v);
  assert.ok(contract.model('audience').operations.length >= 2);
  assert.ok(contract.model('test-host').operations.length > 0);
});

const memberExchange = (body: unknown, version = 'v20250224'): Exchange => ({
  api: 'platform',
  version,
  request: { method: 'GET', url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body },
});

test('spec/: a member as the specification describes it passes; a wrong type fails', () => {
  for (const v of contract.versions) assert.deepEqual(contract.check(memberExchange({ member: sampleMember() }, v)), [], v);
  const bad = contract.check(memberExchange({ member: { ...sampleMember(), is_being_aggregated: 'no' } }));
  assert.ok(bad.some((f) => f.severity === 'error' && f.location === 'response.body.member.is_being_aggregated'));
});

test('spec/: a 1000-institution page passes; 1001 fails the Limits maximum', () => {
  const page = (n: number): Exchange => ({
    api: 'platform',
    version: 'v20250224',
    request: { method: 'GET', url: '/institutions?page=1&records_per_page=1000', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: sampleInstitutionsPage(n) },
  });
  assert.deepEqual(contract.check(page(1000)), []);
  const over = contract.check(page(1001));
  assert.ok(over.some((f) => f.check === 'paging_conformance' && f.severity === 'error'));
});

test('spec/: non-breaking variations of a real member give no error', () => {
  const m = sampleMember();
  const variations = [
    { ...m, sim_added_field: 'x' },
    Object.fromEntries(Object.entries(m).reverse()),
    { ...m, connection_status: 'A_NEW_STATUS' },
    { ...m, guid: `MBR-${'a'.repeat(45)}` },
  ];
  for (const v of variations) {
    const f = contract.check(memberExchange({ member: v }));
    assert.equal(hasErrors(f), false, JSON.stringify(f));
  }
});

test('spec/: create member answers 200 or 202 in every version and 201 from v20250224; other 2xx are informational or stated by version', () => {
  const create = (version: string, status: number): Exchange => ({
    api: 'platform',
    version,
    request: { method: 'POST', url: `/users/${USER_GUID}/members`, headers: { 'content-type': 'application/json' } },
    response: { status, headers: { 'content-type': 'application/json' }, body: { member: sampleMember() } },
  });
  // The vendor's reference declares 200 and 202 in every version (real-service-notes); the
  // specification adds only that on v20250224 "a 201 created response exists".
  for (const v of ['v20111101', 'v20250224', 'v20260929']) {
    for (const status of [200, 202]) assert.deepEqual(contract.check(create(v, status)), [], `${v} ${status}`);
  }
  assert.deepEqual(contract.check(create('v20250224', 201)), []);
  // v20111101 states no success status: an undocumented 2xx is informational, and its body is still checked.
  const open11 = contract.check(create('v20111101', 201));
  assert.equal(open11.length, 1);
  assert.equal(open11[0].check, 'status_code_conformance');
  assert.equal(open11[0].severity, 'warning');
  assert.equal(open11[0].tier, 'informational');
  const badBody = contract.check({
    ...create('v20111101', 201),
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: { member: { ...sampleMember(), is_oauth: 'no' } } },
  });
  assert.ok(badBody.some((f) => f.check === 'response_schema_conformance' && f.severity === 'error'));
  // v20250224 states 201 (Errors): a 2xx outside 200/201/202 is a stated failure.
  const wrong25 = contract.check(create('v20250224', 204));
  assert.equal(wrong25[0]?.severity, 'error');
  assert.equal(wrong25[0]?.tier, 'stated');
  assert.match(wrong25[0].message, /^Received: 204 \/ Documented: 200, 201, 202\b/);
  // Statuses beyond the Errors table stay open (`default`); 429 is stated. Error bodies of any shape or none.
  for (const v of ['v20111101', 'v20250224']) {
    for (const status of [400, 409, 429, 500]) {
      const f = contract.check({ ...create(v, status), response: { status, headers: { 'content-type': 'application/json' }, body: { error: 'x' } } });
      assert.equal(hasErrors(f), false, `${v} ${status}: ${JSON.stringify(f)}`);
    }
  }
  // Operations whose success status is not stated (only 429 + default) accept any 2xx.
  const del: Exchange = {
    api: 'platform',
    version: 'v20250224',
    request: { method: 'DELETE', url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, headers: {} },
    response: { status: 204, headers: {}, body: undefined },
  };
  assert.deepEqual(contract.check(del), []);
});

test('spec/: schema failure rules name the document relative to spec/ and a JSON pointer', () => {
  const f = contract.check(memberExchange({ member: { ...sampleMember(), is_oauth: 'no' } }));
  const rules = f.map((x) => x.rule);
  const status = contract.check({
    api: 'platform',
    version: 'v20250224',
    request: { method: 'GET', url: `/users/${USER_GUID}/members/${MEMBER_GUID}/status`, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { member: { guid: MEMBER_GUID } } },
  });
  const statusRules = status.map((x) => x.rule);
  assert.ok(statusRules.includes('required at versions/platform.v20250224.openapi.yaml#/components/schemas/MemberStatus'), JSON.stringify(statusRules));
  assert.ok(rules.includes('type at versions/platform.v20250224.openapi.yaml#/components/schemas/Member/properties/is_oauth'), JSON.stringify(rules));
  for (const x of f) assert.match(x.message, /^Received: .+ \/ Expected: .+/);
});

test('spec/: sunset endpoints on v20250224 must answer an error', () => {
  const served: Exchange = {
    api: 'platform',
    version: 'v20250224',
    request: { method: 'POST', url: `/users/${USER_GUID}/connect_widget_url`, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: {} },
  };
  assert.ok(contract.check(served).some((f) => f.check === 'version_conformance' && f.severity === 'error'));
});

test('spec/: the classifier names the v20250224 changes the Versioning section lists', () => {
  const d = diffDocuments(contract.document('platform', 'v20111101'), contract.document('platform', 'v20250224'));
  const has = (kind: string, op: string, loc: RegExp) => d.some((x) => x.kind === kind && x.operation === op && loc.test(x.location));
  assert.ok(has('removed-response-field', 'GET /institutions', /supports_account_verification$/));
  assert.ok(has('added-response-field', 'GET /institutions', /supported_products$/));
  assert.ok(has('added-required-request-parameter', 'POST /users/{user_guid}/members', /data_request$/));
  assert.ok(has('removed-endpoint', 'POST /payment_processor_authorization_code', /./));
  assert.ok(d.some((x) => x.kind === 'deprecated-endpoint' && x.operation === 'GET /managed_institutions'));
});

test('spec/: a statement read is JSON and its .pdf download a PDF (real-service-notes, Paths; the specification shows neither path)', () => {
  const base = `/users/${USER_GUID}/members/${MEMBER_GUID}/statements`;
  const read = (path: string, type: string, body: unknown): Exchange => ({
    api: 'platform',
    version: 'v20250224',
    request: { method: 'GET', url: path, headers: {} },
    response: { status: 200, headers: { 'content-type': type }, body },
  });
  const model = contract.model('platform', 'v20250224');
  assert.equal(model.match('GET', `${base}/STA-1`)?.operation.operationId, 'readStatement');
  assert.deepEqual(model.match('GET', `${base}/STA-1.pdf`)?.params, { user_guid: USER_GUID, member_guid: MEMBER_GUID, statement_guid: 'STA-1' });
  assert.equal(model.match('GET', `${base}/STA-1.pdf`)?.operation.operationId, 'downloadStatement');
  assert.deepEqual(
    contract.check(read(`${base}/STA-1`, 'application/json', { statement: { guid: 'STA-1' } })).filter((f) => f.severity === 'error'),
    [],
    'the JSON read is not judged as the PDF download',
  );
  assert.ok(
    contract.check(read(`${base}/STA-1.pdf`, 'application/json', { statement: { guid: 'STA-1' } })).some((f) => f.severity === 'error'),
    'JSON where the PDF is due fails',
  );
});
