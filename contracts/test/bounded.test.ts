/**
 * A check never crashes or stalls on a large list, and what it reports stays bounded:
 * a 20 MB page of broken records once made response_schema_conformance report "The check
 * crashed ... Maximum call stack size exceeded" (a spread of every failure into a push)
 * and, larger, held a worker at full CPU for minutes (ajv's error concat, quadratic in
 * the records). Limits, the table's row "records_per_page maximum": 1000; a longer list is already a
 * stated paging failure, and must still be checked in linear time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { loadContract, type Exchange } from '../index.ts';
import { schemaFailures, SCHEMA_FAILURE_KINDS, SCHEMA_FAILURES_PER_KIND } from '../compile.ts';

const contract = loadContract();
const VERSION = 'v20260929';

function institution(i: number): Record<string, unknown> {
  return { code: `bank_${i}`, guid: `INS-00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `Bank ${i}`, supported_products: ['transactions'] };
}

function page(records: unknown[]): Exchange {
  return {
    api: 'platform',
    version: VERSION,
    request: { method: 'GET', url: '/institutions?records_per_page=1000', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { institutions: records, pagination: { current_page: 1, per_page: 1000, total_entries: records.length, total_pages: 1 } },
    },
  };
}

test('a 30 000-record page of broken records is checked in linear time, without a crash, and reported in bounded form', () => {
  // Three mismatches a record (code a number, supports_oauth a string, supported_products not
  // an array): 90 000 ajv errors, above the engine's argument limit. A missing named field is
  // no schema mismatch: "Fields named: ..." is a list of names, not a presence promise.
  const records = Array.from({ length: 30_000 }, (_, i) => ({ code: i, supports_oauth: 'no', supported_products: 'all' }));
  const started = performance.now();
  const failures = contract.check(page(records));
  const took = performance.now() - started;
  assert.ok(took < 20_000, `checked in ${Math.round(took)} ms`);
  assert.deepEqual(
    failures.filter((f) => /crashed/.test(f.message)),
    [],
    'no check crashed',
  );
  const schema = failures.filter((f) => f.check === 'response_schema_conformance');
  // Three kinds: ten listed of each, and one failure counting the other 29 990.
  assert.equal(schema.length, 3 * (SCHEMA_FAILURES_PER_KIND + 1), schema.map((f) => f.location).join('\n'));
  const oauth = schema.filter((f) => f.location.endsWith('.supports_oauth'));
  assert.deepEqual(
    oauth.slice(0, 3).map((f) => f.location),
    ['response.body.institutions[0].supports_oauth', 'response.body.institutions[1].supports_oauth', 'response.body.institutions[2].supports_oauth'],
  );
  const counted = oauth.at(-1)!;
  assert.equal(counted.location, 'response.body.institutions[*].supports_oauth');
  assert.match(counted.message, /^29990 more at other indices, not listed \(the first 10 of each kind are\): Received: "no"/);
  assert.equal(counted.severity, 'error');
  assert.ok(
    failures.some((f) => f.check === 'paging_conformance' && /Received: 30000 records/.test(f.message)),
    'the page is too long: a stated paging failure',
  );
});

test('a long list validated a slice at a time reports each record at its own index', () => {
  const records = Array.from({ length: 3_500 }, (_, i) => institution(i));
  records[2_345] = { ...records[2_345]!, supported_products: 'all' };
  records[3_001] = { ...records[3_001]!, supports_oauth: 'yes' };
  const schema = contract.check(page(records)).filter((f) => f.check === 'response_schema_conformance');
  assert.deepEqual(
    schema.map((f) => `${f.location}: ${f.message}`),
    [
      'response.body.institutions[2345].supported_products: Received: "all" / Expected: type array',
      'response.body.institutions[3001].supports_oauth: Received: "yes" / Expected: type boolean',
    ],
  );
  // The same records as one page of 1000, validated in one piece, give the same findings.
  const small = records.slice(2_002, 3_002);
  const whole = contract.check(page(small)).filter((f) => f.check === 'response_schema_conformance');
  assert.deepEqual(
    whole.map((f) => `${f.location}: ${f.message}`),
    [
      'response.body.institutions[343].supported_products: Received: "all" / Expected: type array',
      'response.body.institutions[999].supports_oauth: Received: "yes" / Expected: type boolean',
    ],
  );
});

/** A synthetic ajv error (schemaFailures reads keyword, paths, params, data). */
const ajvError = (keyword: string, instancePath: string, schemaPath: string, params: Record<string, unknown> = {}): ErrorObject =>
  ({ keyword, instancePath, schemaPath, params, data: 'x', parentSchema: undefined }) as unknown as ErrorObject;

test('kinds beyond the listed ones are counted in one failure with the strongest tier among them', () => {
  const errors: ErrorObject[] = [];
  // SCHEMA_FAILURE_KINDS informational kinds (enum), then 30 stated kinds (required) unlisted.
  for (let k = 0; k < SCHEMA_FAILURE_KINDS; k++) errors.push(ajvError('enum', `/f${k}`, `#/properties/f${k}/enum`, { allowedValues: ['A'] }));
  for (let k = 0; k < 30; k++) errors.push(ajvError('required', '', '#/required', { missingProperty: `p${k}` }));
  const failures = schemaFailures(errors, 'response_schema_conformance', 'GET /x', 'response.body');
  assert.equal(failures.length, SCHEMA_FAILURE_KINDS + 1);
  const last = failures.at(-1)!;
  assert.equal(last.severity, 'error', 'a stated mismatch among the unlisted ones still gates');
  assert.equal(last.tier, 'stated');
  assert.equal(last.message, '30 more mismatches of 30 other kinds not listed: 30 stated, 0 inferred, 0 informational');
});

test('a combinator takes the strongest tier of its causes, in time linear in the errors', () => {
  // anyOf errors at /items/i, each with an enum cause (informational) below it; one with a required cause (stated).
  const errors: ErrorObject[] = [];
  const n = 60_000;
  for (let i = 0; i < n; i++) {
    errors.push(ajvError('enum', `/items/${i}/status`, '#/properties/items/items/anyOf/0/properties/status/enum', { allowedValues: ['A'] }));
    errors.push(ajvError('anyOf', `/items/${i}`, '#/properties/items/items/anyOf'));
  }
  errors.push(ajvError('required', `/items/${n - 1}`, '#/properties/items/items/anyOf/0/required', { missingProperty: 'guid' }));
  const started = performance.now();
  const failures = schemaFailures(errors, 'response_schema_conformance', 'GET /x', 'response.body');
  assert.ok(performance.now() - started < 5_000, `took ${Math.round(performance.now() - started)} ms`);
  const anyOf = failures.filter((f) => /anyOf/.test(f.rule));
  assert.ok(
    anyOf.slice(0, 10).every((f) => f.tier === 'informational'),
    'an anyOf whose only cause is an enum value is informational',
  );
  const lastAnyOf = failures.find((f) => f.location === `response.body.items[${n - 1}]` && /anyOf/.test(f.rule));
  assert.equal(lastAnyOf?.tier, 'stated', 'the anyOf over a missing required property is stated');
});
