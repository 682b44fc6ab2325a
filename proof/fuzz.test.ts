/**
 * The self-test's fuzz column (proof/fuzz.ts): which entries it runs, how a
 * catcher's line names the checks, and the per-check counts (caught, caught alone).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, type FaultEntry } from '../targets/index.ts';
import { loadTrace, type TraceRow } from '../spec/trace.ts';
import { planEntry, planFault } from './plan.ts';
import { checksOfCatch, fuzzColumn, fuzzPlan, fuzzable, renderFuzzColumn, FUZZ_TAG, NOT_FUZZABLE, NOT_FUZZABLE_REASONS } from './fuzz.ts';
import type { FailedCheck, MatrixRow } from './matrix.ts';
import { testKey } from './playwright-plan.ts';

const fault = (name: string): FaultEntry => ({ name, kind: 'fault', area: 'errors', section: 'S', description: 'a fault for tests' });
const traceRow = (o: Partial<TraceRow>): TraceRow => ({ id: 'r.x', section: 'S', statement: 's', encoded_in: [], verified_by: [], proven_by: [], ...o });
/** A fuzz test that failed with this first error line. */
const fuzzFailed = (error: string): FailedCheck => ({ test: testKey('scenarios/fuzz/fuzz.spec.ts', ['fuzz: every operation']), error });
const row = (name: string, kind: 'fault' | 'variation', verdict: MatrixRow['verdict'], failed: FailedCheck[]): MatrixRow => ({
  name,
  kind,
  area: 'errors',
  section: '',
  description: '',
  suites: ['@x'],
  verdict,
  failed,
  executed: 1,
  errors: [],
  durationMs: 1,
});

test('entries a scenario can notice run the fuzz project alone; delivery-only ones are left out', () => {
  const rows = [
    traceRow({ verified_by: ['delivery: timeout'], proven_by: ['webhook-only'] }),
    traceRow({ verified_by: ['scenarios/api/a.spec.ts > the rule holds'], proven_by: ['seen', 'seen-over-time'] }),
  ];
  assert.equal(fuzzable(planFault(fault('webhook-only'), rows)), false);
  const seen = planFault(fault('seen'), rows);
  assert.equal(fuzzable(seen), true);
  assert.equal(fuzzable(planFault({ ...fault('seen-over-time'), notFuzzable: 'time' }, rows)), false, 'a reason in the catalogue leaves it out');
  assert.deepEqual(
    fuzzPlan(seen),
    { entry: seen.entry, runs: [{ kind: 'playwright', selectors: [FUZZ_TAG], all: false }] },
    'the fuzz project alone, not the named scenarios',
  );
});

test('faults no single response shows are left out by reason, each a fault of the catalogue a scenario can notice', () => {
  const trace = loadTrace();
  assert.ok(NOT_FUZZABLE.size > 0);
  for (const [name, reason] of NOT_FUZZABLE) {
    const e = CATALOG.find((x) => x.name === name)!;
    assert.ok(NOT_FUZZABLE_REASONS[reason], `${name}: reason ${reason} is described`);
    const p = planEntry(e, trace);
    assert.ok(
      p.runs.some((r) => r.kind === 'playwright'),
      `${name}: a named scenario would otherwise run it`,
    );
    assert.equal(fuzzable(p), false, name);
  }
  // Variations are never left out: none may make the fuzz project fail.
  for (const v of CATALOG.filter((x) => x.kind === 'variation' && x.suites.some((s) => s === '*' || s.startsWith('@'))))
    assert.equal(fuzzable(planEntry(v, trace)), true, v.name);
});

test("the checks of a catcher come from the fuzz test's first error line", () => {
  assert.deepEqual(checksOfCatch('Error: fuzz caught: ignored_auth,positive_data_acceptance (2 operations, 0 chain steps; seed 1)'), [
    'ignored_auth',
    'positive_data_acceptance',
  ]);
  assert.deepEqual(checksOfCatch('Error: expected 200'), []);
});

test('per check: faults caught, and faults caught by that check alone; variations that fail are alarms', () => {
  const col = fuzzColumn([
    row('a', 'fault', 'CAUGHT', [fuzzFailed('Error: fuzz caught: ignored_auth (1 operations)')]),
    row('b', 'fault', 'CAUGHT', [fuzzFailed('Error: fuzz caught: ignored_auth,status_code_conformance (2 operations)')]),
    row('c', 'fault', 'SURVIVED', []),
    row('v', 'variation', 'PASSED', []),
    row('w', 'variation', 'ALARMED', [fuzzFailed('Error: fuzz caught: response_schema_conformance')]),
  ]);
  assert.deepEqual(col.caught, ['a', 'b']);
  assert.deepEqual(col.survived, ['c']);
  assert.deepEqual(col.byCheck, { ignored_auth: ['a', 'b'], status_code_conformance: ['b'] });
  assert.deepEqual(col.aloneByCheck, { ignored_auth: ['a'] });
  assert.deepEqual(col.alarms, ['w']);
  const md = renderFuzzColumn(col);
  assert.match(md, /\| ignored_auth \| 2 \| 1 \(a\) \|/);
  assert.match(md, /\| status_code_conformance \| 1 \| 0 \|/);
});
