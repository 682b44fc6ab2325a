/**
 * proof/reach.ts counts what a recording reaches of what the specification states: a
 * tiny HAR (written and read back as the proxy's recording is) and the figures it gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHar, toHar, type RecordedExchange } from '../integration/har.ts';
import { DERIVED_DOCUMENTS, AUTHORED_DOCUMENTS, loadDocument, operationsOf, pathShape } from '../spec/documents.ts';
import { measureReach, statedInventory, reachMarkdown, type ReachReport } from './reach.ts';

const BASE = 'http://127.0.0.1:9';
const bases = { platform: [BASE], audience: [`${BASE}/audience`], 'test-host': [`${BASE}/test-host`] };
const inventory = statedInventory();

let at = 0;
function x(
  method: string,
  path: string,
  status: number,
  o: { version?: string; body?: unknown; answer?: unknown; headers?: Record<string, string> } = {},
): RecordedExchange {
  const headers: Record<string, string> = { authorization: 'Basic [REDACTED]', ...(o.version ? { 'accept-version': o.version } : {}), ...o.headers };
  return {
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, at++)).toISOString(),
    request: { method, url: `${BASE}${path}`, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) },
    response: { status, headers: { 'content-type': 'application/json' }, ...(o.answer !== undefined ? { body: JSON.stringify(o.answer) } : {}) },
  };
}

const V1 = 'v20111101';
const V2 = 'v20250224';
const U = 'USR-00000000-0000-4000-8000-000000000001';
const M = 'MBR-00000000-0000-4000-8000-000000000001';

/** A tiny recording: a handful of reads, a create, identify twice, refusals. */
function tinyRecording(): { scenarios: RecordedExchange[]; fuzz: RecordedExchange[] } {
  const scenarios = [
    // The institution by its code, and the list answering its guid.
    x('GET', '/institutions?records_per_page=10', 200, { version: V2, answer: { institutions: [{ code: 'svcbank', guid: 'INS-1' }] } }),
    x('GET', '/institutions/svcbank', 200, { version: V2, answer: { institution: { code: 'svcbank', guid: 'INS-1' } } }),
    // supports_account_verification is a v20111101 query parameter: sent under v20250224 it counts for nothing.
    x('GET', '/institutions?supports_account_verification=true', 200, { version: V2, answer: { institutions: [] } }),
    x('GET', '/institutions?supports_account_identification=true', 200, { version: V1, answer: { institutions: [] } }),
    // A create member on v20250224 with data_request and enable_app2app beside member (real-service-notes, Request shapes).
    x('POST', `/users/${U}/members`, 201, {
      version: V2,
      body: { member: { institution_code: 'svcbank' }, data_request: { products: ['transactions'] }, enable_app2app: false },
      answer: { member: { guid: M } },
    }),
    // identify, identify again (202), an aggregation, then identify (409).
    x('POST', `/users/${U}/members/${M}/identify`, 202, { version: V2 }),
    x('POST', `/users/${U}/members/${M}/identify`, 202, { version: V2 }),
    x('POST', `/users/${U}/members/${M}/aggregate`, 202, { version: V2 }),
    x('POST', `/users/${U}/members/${M}/identify`, 409, { version: V2 }),
    // Refused only: answered, never exercised.
    x('GET', '/ach_returns/ACH-1', 404, { version: V2 }),
    // A sunset version's error.
    x('GET', '/institutions', 400, { version: 'v20100101' }),
    // The audience read by its slug: the answer names another id.
    x('GET', '/audience/api/v1/audience/primary-audience/list', 200, { answer: { audience_id: 'aud-1', list: [] } }),
  ];
  const fuzz = [x('GET', '/institutions/INS-1', 200, { version: V2, answer: { institution: { code: 'svcbank', guid: 'INS-1' } } })];
  return { scenarios, fuzz };
}

function measured(): ReachReport {
  const dir = mkdtempSync(join(tmpdir(), 'reach-test-'));
  try {
    const { scenarios, fuzz } = tinyRecording();
    writeFileSync(join(dir, 'recording.har'), JSON.stringify(toHar(scenarios, { name: 'test', version: '1' })));
    writeFileSync(join(dir, 'fuzz.har'), JSON.stringify(toHar(fuzz, { name: 'test', version: '1' })));
    return measureReach(readHar(join(dir, 'recording.har')).exchanges, {
      bases,
      fuzz: readHar(join(dir, 'fuzz.har')).exchanges,
      inventory,
      sunsetVersion: 'v20100101',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const report = measured();
const op = (id: string) => report.operations.find((o) => o.item.id === id);
const param = (id: string) => report.parameters.find((p) => p.item.id === id);
const errorCase = (id: string) => report.errorCases.find((c) => c.item.id === id);

test('the inventory holds every operation of every document once, by method and path shape', () => {
  const shapes = new Set<string>();
  for (const d of [...DERIVED_DOCUMENTS, ...AUTHORED_DOCUMENTS.filter((a) => !a.name.startsWith('platform'))]) {
    const api = d.name.startsWith('platform') ? 'platform' : d.name === 'audience' ? 'audience' : 'test-host';
    for (const o of operationsOf(loadDocument(d.file).paths as never)) shapes.add(`${api} ${o.method.toUpperCase()} ${pathShape(o.path)}`);
  }
  assert.deepEqual(new Set(inventory.operations.map((o) => `${o.api} ${o.shape}`)), shapes);
  assert.equal(inventory.operations.length, shapes.size);
  assert.equal(new Set(inventory.parameters.map((p) => p.id)).size, inventory.parameters.length, 'parameter ids are unique');
});

test('an operation is exercised by an answer that did its job, answered by any', () => {
  assert.equal(op('GET /institutions/{institution_identifier}')?.reached, true);
  assert.equal(op('GET /ach_returns/{ach_return_guid}')?.reached, false);
  assert.equal(op('GET /ach_returns/{ach_return_guid}')?.answered, true);
  assert.deepEqual(op('GET /ach_returns/{ach_return_guid}')?.statuses, [404]);
  assert.equal(op('audience GET /api/v1/audience/{id_or_slug}/list')?.reached, true);
  assert.equal(op('GET /categories/default')?.answered, false);
  // Six exercised: the institution list and read, create member, identify, aggregate, the audience list (the
  // fuzz recording's read of the same institution adds none); the refused ACH return read is a seventh answered.
  assert.deepEqual(report.figures.operations, [6, inventory.operations.length]);
  assert.deepEqual(report.figures.operationsAnswered, [7, inventory.operations.length]);
});

test('a stated parameter counts when sent under a version that states it, in either place the body may hold it', () => {
  assert.equal(param('GET /institutions query records_per_page')?.reached, true);
  assert.equal(param('GET /institutions query supports_account_verification')?.reached, false, 'v20111101 only: sent under v20250224');
  assert.equal(param('GET /institutions query supports_account_identification')?.reached, true, 'sent under v20111101');
  assert.equal(param('GET /institutions query supported_products')?.reached, false);
  assert.equal(param('POST /users/{user_guid}/members body member.institution_code')?.reached, true);
  assert.equal(param('POST /users/{user_guid}/members body data_request.products')?.reached, true);
  assert.equal(param('POST /users/{user_guid}/members body member.enable_app2app')?.reached, true, 'beside member counts');
  assert.equal(param('POST /users/{user_guid}/members body member.is_oauth')?.reached, false);
  assert.equal(param('platform (every operation) header accept-version')?.reached, true);
  assert.equal(param('platform (every operation) header authorization')?.reached, true);
});

test("a path parameter's stated alternatives are told apart by what the answers say", () => {
  assert.equal(param('GET /institutions/{institution_identifier} path institution_identifier=code')?.reached, true);
  const guid = param('GET /institutions/{institution_identifier} path institution_identifier=guid');
  assert.equal(guid?.reached, true);
  assert.equal(guid?.fuzzOnly, true, 'read by guid only in the fuzz recording');
  assert.equal(param('GET /ach_returns/{ach_return_guid} path ach_return_guid=guid')?.reached, false, 'a refused value is of no kind');
  assert.equal(param('audience GET /api/v1/audience/{id_or_slug}/list path id_or_slug=slug')?.reached, true);
  assert.equal(param('audience GET /api/v1/audience/{id_or_slug}/list path id_or_slug=id')?.reached, false);
});

test('the Errors cases are recognised in their situations', () => {
  assert.equal(errorCase('201 member created on v20250224')?.reached, true);
  assert.deepEqual(errorCase('202 identify while identifying')?.statuses, [1], 'the second identify only');
  assert.equal(errorCase('409 identify while another job runs')?.reached, true);
  assert.equal(errorCase('sunset version answers an error')?.reached, true);
  assert.equal(errorCase('200 read')?.reached, true);
  assert.equal(errorCase('200 list')?.reached, true);
  assert.equal(errorCase('404 credentials of an invalid institution')?.reached, false);
  assert.deepEqual(report.figures.errorCases, [6, report.errorCases.length]);
});

test('what is not reached names the setting that reaches it, or is a gap', () => {
  const why = (id: string) => report.unreached.find((u) => u.id === id);
  assert.match(why('GET /data_exchange/users')?.setting ?? '', /SVC_3DX_ISSUER_GUID/);
  assert.match(why('GET /users/{user_guid}/notifications')?.setting ?? '', /^SVC_PATH_NOTIFICATIONS$/);
  assert.match(why('GET /users/{user_guid}/members/{member_guid}/statements/{statement_guid}.pdf')?.setting ?? '', /^SVC_PATH_STATEMENT_PDF$/);
  assert.match(why('audience GET /api/v1/audience/{id_or_slug}/list path id_or_slug=id')?.setting ?? '', /^SVC_AUDIENCE_ID$/);
  assert.equal(why('sunset version answers an error'), undefined, 'reached here');
  assert.equal(why('GET /ach_returns/{ach_return_guid}')?.reason, undefined, 'a gap: nothing but a setting-free scenario reaches it');
  assert.equal(why('GET /ach_returns/{ach_return_guid}')?.answeredOnly, true);
  const [n, of] = report.figures.reachable.operations;
  assert.equal(n, 6);
  assert.equal(of, inventory.operations.length - report.unreached.filter((u) => u.kind === 'operation' && u.reason).length);
  assert.deepEqual(report.figures.fuzzOnly, { operations: 0, parameters: 1, errorCases: 0 });
  assert.match(reachMarkdown(report), /\| stated parameters \| \d+\/\d+ /);
});
