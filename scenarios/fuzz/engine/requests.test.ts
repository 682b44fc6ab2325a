/**
 * The fuzz project's generators: derived from the contract's documents, valid
 * values are valid by the request schema (checked by ajv, the contract's validator), every
 * mutation makes a value invalid, the stated tier appears only where the specification
 * states the requirement for that version, and every case names its operation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadContract, createAjv, compileAt, locateNode } from '../../../contracts/index.ts';
import { createRedactor } from '../../../targets/index.ts';
import { loadProfile } from '../../../targets/index.ts';
import { applyMutation, mutationsOf, namedValuesOf, resolveSchema, valueOf, patternArb } from './schema.ts';
import {
  bodyMutations,
  caseArbitrary,
  identityOf,
  reachCases,
  ruleOfBody,
  statedCases,
  methodsByPath,
  operationsOf,
  requestContext,
  VENDOR_ACCEPT,
  type OperationSpec,
} from './requests.ts';
import { curlOf, headersOf, seedFor } from './engine.ts';
import { plannedOperations } from './run.ts';

const contract = loadContract();
const ctx = requestContext(contract);
const ajv = createAjv();

function validatorOf(spec: OperationSpec) {
  const { schema } = resolveSchema(spec.body!.at);
  const at = locateNode(schema);
  assert.ok(at, `${spec.key}: the body schema is located in its document`);
  return compileAt(ajv, at!.uri, at!.pointer);
}

const v = (version: string) => operationsOf(contract, 'platform', version);
const find = (specs: OperationSpec[], key: string) => specs.find((s) => s.key === key)!;

test('operations: every documented operation of every document, with its parameters, body and security', () => {
  const profile = loadProfile({});
  const all = plannedOperations(contract, profile, ['platform', 'audience', 'test-host']);
  for (const api of ['platform', 'audience', 'test-host'] as const) {
    const model = contract.model(api, api === 'platform' ? 'v20250224' : undefined);
    for (const op of model.operations)
      assert.ok(
        all.some((s) => s.api === api && s.key === op.key),
        `${api} ${op.key}`,
      );
  }
  const create = find(v('v20250224'), 'POST /users/{user_guid}/members');
  assert.ok(create.body?.required);
  assert.deepEqual(
    create.params.filter((p) => p.in === 'path').map((p) => p.name),
    ['user_guid'],
  );
  assert.deepEqual(
    create.security.map((s) => s.type),
    ['basic'],
  );
  const dx = find(v('v20250224'), 'GET /data_exchange/users');
  assert.ok(
    dx.security.some((s) => s.header === 'SVC-3DX-TOKEN'),
    'data exchange reads need SVC-3DX-TOKEN (Authentication 3)',
  );
  assert.match(find(v('v20250224'), 'GET /institutions/{institution_identifier}/credentials').stated404 ?? '', /^Errors, 404/);
});

test("valid values of every request body are valid by its schema (ajv, the contract's validator)", () => {
  for (const version of contract.versions) {
    for (const spec of v(version).filter((s) => s.body)) {
      const validate = validatorOf(spec);
      fc.assert(
        fc.property(valueOf(spec.body!.at), (value) => {
          assert.ok(validate(value), `${version} ${spec.key}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`);
        }),
        { numRuns: 40, seed: 7 },
      );
    }
  }
});

test('every mutation makes a valid body invalid by its schema', () => {
  for (const spec of v('v20250224').filter((s) => s.body)) {
    const validate = validatorOf(spec);
    const mutations = bodyMutations(spec, ctx);
    if (!mutations.length) continue;
    fc.assert(
      fc.property(valueOf(spec.body!.at), fc.constantFrom(...mutations), (value, m) => {
        const bad = applyMutation(value, m);
        assert.equal(validate(bad), false, `${spec.key}: ${m.what} -> ${JSON.stringify(bad)}`);
      }),
      { numRuns: 60, seed: 11 },
    );
  }
});

test('a requirement is stated only where the specification states it for that version (data_request from v20250224)', () => {
  const drop = (version: string) =>
    bodyMutations(find(v(version), 'POST /users/{user_guid}/members'), ctx).find((m) => m.op === 'drop' && m.path.join('.') === 'data_request');
  assert.equal(drop('v20250224')?.tier, 'stated');
  assert.match(drop('v20250224')!.rule, /v20250224/);
  // v20260929: "Breaking changes introduced by v20260929: not shown" - its requirements stay inferred.
  assert.equal(drop('v20260929')?.tier, 'inferred');
  assert.equal(drop('v20111101'), undefined, 'no data_request before v20250224');
  // A format the Resources table gives (return code "letter R followed by two digits"): refusal inferred.
  const ach = bodyMutations(find(v('v20250224'), 'POST /ach_returns'), ctx).find(
    (m) => m.path.join('.') === 'ach_return.return_code' && m.op === 'set' && typeof m.value === 'string',
  );
  assert.equal(ach?.tier, 'inferred');
});

test('patterns draw visible ASCII that matches them', () => {
  const scope =
    '^(?:(?:user-guid:USR-|member-guid:MBR-|account-guid:ACT-)\\S+|read-protected)(?: (?:(?:user-guid:USR-|member-guid:MBR-|account-guid:ACT-)\\S+|read-protected))*$';
  fc.assert(
    fc.property(patternArb(scope), (s) => new RegExp(scope).test(s) && /^[\x20-\x7e]*$/.test(s)),
    { numRuns: 100, seed: 3 },
  );
});

test('cases: every case names its operation, its path matches it, and its kind says what was sent', () => {
  const specs = v('v20250224');
  const methods = methodsByPath(specs);
  const known = { user_guid: ['USR-1'], member_guid: ['MBR-1'], institution_identifier: ['svcbank'] };
  for (const key of [
    'POST /users/{user_guid}/members',
    'GET /institutions/{institution_identifier}',
    'GET /data_exchange/users',
    'DELETE /users/{user_guid}',
  ]) {
    const spec = find(specs, key);
    fc.assert(
      fc.property(caseArbitrary(spec, ctx, { known, pathMethods: methods.get(`platform|v20250224|${spec.path}`) }), (c) => {
        if (c.generated.kind === 'unsupported-method') {
          assert.notEqual(c.method, spec.method);
          assert.equal(c.generated.tier, 'informational');
          return;
        }
        assert.equal(contract.findOperation('platform', c.method, c.path, 'v20250224')?.operation.key, key, c.path);
        if (c.generated.kind === 'no-auth') assert.equal(c.auth, 'none');
        if (c.generated.kind === 'wrong-auth') assert.equal(c.auth, 'wrong');
        if (c.generated.kind === 'missing-header') assert.equal(c.omitHeader, 'SVC-3DX-TOKEN');
        if (c.generated.kind === 'positive') assert.equal(c.method, 'GET');
        // Deletes never draw the chains' identifiers: they would remove what other operations read.
        if (spec.method === 'DELETE') assert.ok(!c.path.includes('USR-1'), c.path);
      }),
      { numRuns: 80, seed: 5 },
    );
  }
});

test('headers: credentials as the case says; the curl line carries no secret', () => {
  const profile = loadProfile({ SVC_SIMULATOR_URL: 'http://127.0.0.1:4010' });
  const spec = find(v('v20250224'), 'GET /data_exchange/users');
  const c = {
    api: 'platform' as const,
    version: 'v20250224',
    method: 'GET',
    path: '/data_exchange/users',
    query: [],
    headers: {},
    auth: 'default' as const,
    operation: spec.key,
    generated: { kind: 'valid' as const, tier: 'informational' as const, rule: '', what: '' },
  };
  const t = { profile, credentials: { threeDxToken: 'dx-token-secret-value' } };
  const h = headersOf(c, spec, t);
  assert.match(h.authorization, /^Basic /);
  assert.equal(h['SVC-3DX-TOKEN'], 'dx-token-secret-value');
  assert.equal(headersOf({ ...c, auth: 'none' }, spec, t).authorization, undefined);
  assert.equal(headersOf({ ...c, omitHeader: 'SVC-3DX-TOKEN' }, spec, t)['SVC-3DX-TOKEN'], undefined);
  const redactor = createRedactor([profile.apiKey!, 'dx-token-secret-value']);
  const curl = curlOf(
    { url: 'http://127.0.0.1:4010/data_exchange/users', requestHeaders: h, payload: JSON.stringify({ access_token: 'dx-token-secret-value' }) },
    'GET',
    redactor,
  );
  assert.ok(!curl.includes('dx-token-secret-value') && !curl.includes(profile.apiKey!) && !curl.includes(h.authorization.slice(6)), curl);
  assert.match(curl, /^curl -i -X GET 'http:\/\/127\.0\.0\.1:4010\/data_exchange\/users'/);
});

test('seeds: the per-operation seed is a pure function of the run seed and the operation', () => {
  assert.equal(seedFor(1, 'platform|v20250224|GET /institutions'), seedFor(1, 'platform|v20250224|GET /institutions'));
  assert.notEqual(seedFor(1, 'platform|v20250224|GET /institutions'), seedFor(2, 'platform|v20250224|GET /institutions'));
  const a = fc.sample(caseArbitrary(find(v('v20250224'), 'POST /ach_returns'), ctx, { known: {} }), { seed: seedFor(9, 'x'), numRuns: 5 });
  const b = fc.sample(caseArbitrary(find(v('v20250224'), 'POST /ach_returns'), ctx, { known: {} }), { seed: seedFor(9, 'x'), numRuns: 5 });
  assert.deepEqual(a, b);
});

test('mutationsOf on a plain schema: required, type, pattern, format', () => {
  const schema = {
    type: 'object',
    required: ['a'],
    properties: { a: { type: 'integer' }, b: { type: 'string', pattern: '^R\\d{2}$' }, c: { type: 'string', format: 'date-time' } },
  };
  const ms = mutationsOf({ schema, uri: 'file:///x.yaml' });
  assert.deepEqual(ms.map((m) => `${m.op} ${m.path.join('.')}`).sort(), ['drop a', 'set a', 'set b', 'set b', 'set c', 'set c'].sort());
  assert.ok(ms.every((m) => m.tier === 'inferred'));
});

test('other versions and malformed JSON: a sunset version is judged by version_conformance, an unknown one and a non-JSON body expect an inferred refusal', () => {
  const spec = find(v('v20250224'), 'POST /ach_returns');
  const cases = fc.sample(caseArbitrary(spec, ctx, { known: {}, otherVersions: { sunset: 'v20100101', unknown: 'v19990101' } }), { seed: 13, numRuns: 400 });
  const sunset = cases.filter((c) => c.version === 'v20100101');
  const unknown = cases.filter((c) => c.version === 'v19990101');
  const raw = cases.filter((c) => c.rawBody !== undefined);
  assert.ok(sunset.length && unknown.length && raw.length, `${sunset.length} ${unknown.length} ${raw.length}`);
  assert.ok(sunset.every((c) => c.generated.kind === 'valid'));
  assert.ok(unknown.every((c) => c.generated.kind === 'negative' && c.generated.tier === 'inferred'));
  assert.ok(raw.every((c) => c.body === undefined && c.generated.kind === 'negative' && c.generated.tier === 'inferred'));
  assert.throws(() => JSON.parse(raw[0].rawBody!));
});

test('stated cases: every stated requirement of the version, and every stated request rule (contracts/requests.ts tables), broken alone on the accepted example', () => {
  const spec = find(v('v20250224'), 'POST /users/{user_guid}/members');
  const example = { params: { user_guid: 'USR-1' }, body: { member: { institution_code: 'svcbank' }, data_request: { products: ['transactions'] } } };
  const cases = statedCases(spec, ctx, { known: {}, example });
  assert.ok(cases.every((c) => c.generated.tier === 'stated' && c.generated.kind === 'negative' && c.path === '/users/USR-1/members'));
  const what = cases.map((c) => c.generated.what.replace(/, on a request otherwise accepted$/, ''));
  // Versioning, v20250224: data_request required (the document's x-svc-required-from, stated).
  assert.ok(what.includes('data_request left out (required, stated)'));
  // Resources, Member: is_oauth boolean, id string; Endpoints: "request member object" (the wrapper).
  assert.ok(what.some((w) => w.startsWith('member.is_oauth of another type')));
  assert.ok(what.some((w) => w.startsWith('member.id of another type')));
  assert.ok(what.includes('member left out (required)'));
  // institution_code's type is inferred; skip_aggregation's is inferred from its deprecation.
  assert.ok(!what.some((w) => w.startsWith('member.institution_code') || w.startsWith('member.skip_aggregation')));
  const later = statedCases(find(v('v20260929'), 'POST /users/{user_guid}/members'), ctx, { known: {}, example }).map((c) => c.generated.what);
  assert.ok(!later.some((w) => w.startsWith('data_request')), 'no data_request requirement is stated for v20260929');
});

test('a body mutation that breaks a stated request rule takes its tier and sentence; the document keyword alone stays inferred', () => {
  const spec = find(v('v20250224'), 'POST /ach_returns');
  const base = { ach_return: { account_guid: 'ACT-11111111-1111-1111-1111-111111111111', return_code: 'R01' } };
  const code = bodyMutations(spec, ctx).find((m) => m.op === 'set' && m.path.join('.') === 'ach_return.return_code' && typeof m.value === 'string')!;
  assert.equal(code.tier, 'inferred', 'the document keyword');
  const judged = ruleOfBody(spec, base, applyMutation(base, code), code);
  assert.equal(judged.tier, 'stated');
  assert.match(judged.rule, /ACH return \(create request\)/);
  // A rule the base already broke is not the mutation's.
  const broken = { ach_return: { ...base.ach_return, return_code: 'r01' } };
  assert.equal(ruleOfBody(spec, broken, applyMutation(broken, code), code).tier, 'inferred');
  // Another operation has no request table: the mutation's own tier.
  const user = find(v('v20250224'), 'POST /users');
  const m = bodyMutations(user, ctx)[0];
  const own = ruleOfBody(user, {}, applyMutation({}, m), m);
  assert.deepEqual([own.tier, own.rule], [m.tier, m.rule]);
});

test('named values: enum values and documented examples of a body, arrays of enum items as one-item arrays', () => {
  const schema = {
    type: 'object',
    properties: {
      w: { type: 'object', properties: { kind: { enum: ['a', 'b'] }, v: { type: 'integer', examples: [4] }, p: { type: 'array', items: { enum: ['x'] } } } },
    },
  };
  assert.deepEqual(
    namedValuesOf({ schema, uri: 'file:///x.yaml' }).map((n) => `${n.path.join('.')}=${JSON.stringify(n.value)}`),
    ['w.kind="a"', 'w.kind="b"', 'w.v=4', 'w.p=["x"]'],
  );
});

test('reach cases: reads of every known value (partner ids stated on per-member data exchange paths), auth variants, paging bounds, the vendor media type', () => {
  const specs = v('v20250224');
  const known = {
    user_identifier: ['USR-1', 'partner-user'],
    member_identifier: ['MBR-1', 'partner-member'],
    account_identifier: ['ACT-1', 'partner-account'],
    institution_identifier: ['svcbank', 'INS-1'],
  };
  const dx = reachCases(find(specs, 'GET /data_exchange/users/{user_identifier}/members/{member_identifier}/accounts/{account_identifier}'), ctx, { known });
  const reads = dx.filter((c) => c.generated.kind === 'positive' && c.headers.accept !== VENDOR_ACCEPT);
  assert.equal(reads.length, 4, 'the GUID read, then one partner id at a time');
  assert.ok(reads.filter((c) => /partner-(member|account)/.test(c.path)).every((c) => c.generated.tier === 'stated'));
  assert.ok(reads.filter((c) => !/partner-(member|account)/.test(c.path)).every((c) => c.generated.tier === 'inferred'));
  assert.deepEqual(reads[0].generated.identity?.fields, {
    user_guid: known.user_identifier,
    member_guid: known.member_identifier,
    account_guid: known.account_identifier,
  });
  assert.deepEqual(reads[0].generated.identity?.own, known.account_identifier, 'the account read is the account the path names');
  assert.deepEqual(
    dx
      .filter((c) => c.generated.kind !== 'positive')
      .map((c) => c.generated.kind)
      .sort(),
    ['missing-header', 'no-auth', 'wrong-auth'],
  );
  const creds = reachCases(find(specs, 'GET /institutions/{institution_identifier}/credentials'), ctx, { known });
  assert.ok(
    creds.some((c) => c.generated.kind === 'negative' && c.generated.tier === 'stated' && c.path.includes('FUZZ-unknown-institution_identifier')),
    'the stated 404',
  );
  const inst = reachCases(find(specs, 'GET /institutions/{institution_identifier}'), ctx, { known });
  assert.ok(inst.some((c) => c.headers.accept === VENDOR_ACCEPT && c.generated.kind === 'positive' && c.generated.tier === 'stated'));
  const list = reachCases(find(specs, 'GET /institutions'), ctx, { known, otherVersions: { unknown: 'v19990101' } });
  // Limits, the table's row "records_per_page maximum": 1000: the maximum is a value the list takes (acceptance, with the read's tier); one above is free.
  assert.deepEqual(
    list
      .filter((c) => c.generated.kind === 'valid')
      .map((c) => c.query)
      .filter((q) => q.length),
    [[['records_per_page', '1001']]],
  );
  const atMax = list.filter((c) => c.generated.kind === 'positive' && c.query.some(([k, v]) => k === 'records_per_page' && v === '1000'));
  assert.equal(atMax.length, 1);
  assert.match(atMax[0].generated.rule, /"records_per_page maximum": 1000/);
  assert.ok(list.some((c) => c.version === 'v19990101' && c.generated.kind === 'negative' && c.generated.tier === 'inferred'));
  // Sunset operations: nothing (version_conformance judges their drawn cases).
  const sunset = specs.find((s) => s.sunset);
  if (sunset) assert.deepEqual(reachCases(sunset, ctx, { known }), []);
});

test('reach cases on the test host: every listed read (statuses and challenge types from the document), stated, with what its records must name', () => {
  const th = operationsOf(contract, 'test-host');
  const statuses = reachCases(th.find((s) => s.key === 'GET /users/test_svc/members/{connection_status}')!, ctx, { known: {} }).filter(
    (c) => c.generated.kind === 'positive',
  );
  assert.ok(statuses.length >= 5 && statuses.every((c) => c.generated.tier === 'stated'));
  assert.deepEqual(
    statuses.map((c) => c.generated.identity?.fields.connection_status?.[0]),
    statuses.map((c) => c.path.split('/').pop()),
  );
  const merchant = th.find((s) => s.key === 'GET /merchants/test_svc_merchant')!;
  assert.deepEqual(identityOf(merchant, {})?.fields, { guid: ['test_svc_merchant'] });
});

test("reach cases on an accepted write: named values and optional headers expect acceptance; every rule broken alone, near misses with their rule's tier", () => {
  const spec = find(v('v20250224'), 'POST /ach_returns');
  const example = {
    params: {},
    body: {
      ach_return: {
        account_guid: 'ACT-11111111-1111-1111-1111-111111111111',
        return_code: 'R01',
        returned_at: '2026-01-07T09:30:00-05:00',
        id: 'svcct-run-fuzz-ach',
      },
    },
  };
  const cases = reachCases(spec, ctx, { known: {}, example });
  const negatives = cases.filter((c) => c.generated.kind === 'negative');
  const values = negatives.map((c) => [(c.body as any)?.ach_return, c.generated.tier] as const);
  const stated = (pick: (b: any) => boolean) => values.some(([b, tier]) => b && pick(b) && tier === 'stated');
  // contracts/ near-miss rules: the ACH return table is stated, so a 2xx to each near miss fails.
  assert.ok(
    stated((b) => b.account_guid === '11111111-1111-1111-1111-111111111111'),
    'the GUID without its prefix',
  );
  assert.ok(
    stated((b) => b.account_guid === 'MBR-11111111-1111-1111-1111-111111111111'),
    "another resource's prefix",
  );
  assert.ok(stated((b) => b.return_code === 'r01'));
  assert.ok(stated((b) => b.returned_at === '2026-01-07T09:30:00'));
  assert.ok(
    stated((b) => b.account_number_last_four === '12345'),
    'a field the example leaves out, from its form',
  );
  assert.ok(!values.some(([b]) => Array.isArray(b?.id)), 'the client id of an ACH return is never varied');
  // Mutations whose rule is stated are the statedCases'; the reach pass sends the others, inferred.
  const stateds = new Set(statedCases(spec, ctx, { known: {}, example }).map((c) => c.generated.what));
  assert.ok(stateds.size > 0 && negatives.every((c) => !stateds.has(c.generated.what)));
  assert.ok(cases.some((c) => c.rawBody !== undefined));
  const members = reachCases(find(v('v20250224'), 'POST /users/{user_guid}/members'), ctx, {
    known: {},
    example: { params: { user_guid: 'USR-1' }, body: { member: { institution_code: 'svcbank' }, data_request: { products: ['transactions'] } } },
  });
  const positives = members.filter((c) => c.generated.kind === 'positive');
  assert.ok(positives.some((c) => JSON.stringify((c.body as any).data_request.products) === '["history"]'));
  assert.ok(positives.some((c) => c.headers['X-CALLBACK-PAYLOAD'] !== undefined));
  assert.ok(positives.every((c) => c.generated.tier === 'stated' && c.path === '/users/USR-1/members'));
});
