/**
 * A partial nightly says what it left out and claims nothing about it (the nightly report's gate):
 * no "Gate: PASS" for steps it did not run, no self-test matrix or JUnit file it did not
 * write, no row in the trends and no run in Allure's history, which compare full nightlies.
 * A full run's summary still says PASS, and Allure's history still grows on a full run
 * (buildAllureReport with appendHistory), so "nothing was added" is not a history that
 * never grows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leftOutOf, skippedSteps } from './nightly.ts';
import { gateReasons, gateVerdict, renderSummaryMarkdown, verdictLine, type NightlySummary } from '../reports/summary.ts';

test("--skip names only the nightly's steps; a typo is refused with the list, never silently run", () => {
  assert.deepEqual([...skippedSteps(['load', 'selftest'])], ['load', 'selftest']);
  assert.throws(() => skippedSteps(['selftests']), /unknown step "selftests" in --skip; the steps are conformance, load, selftest/);
});

test('what a run leaves out: skipped steps, a --grep, a quick matrix; nothing for a full run', () => {
  assert.deepEqual(leftOutOf({}), []);
  assert.deepEqual(leftOutOf({ skip: ['selftest'], grep: '@smoke' }), [
    { step: 'conformance', notRun: false, what: 'only the tests matching --grep @smoke' },
    { step: 'self-test', notRun: true, what: 'not run (--skip selftest)' },
  ]);
  assert.match(leftOutOf({ selftestQuick: true })[0].what, /quick matrix/);
  // A step not run produces no "produced nothing" reason; a step that ran and produced nothing does.
  assert.deepEqual(gateReasons({ load: [], loadErrors: [] }, new Set(['conformance', 'self-test'])), []);
  assert.equal(gateReasons({ load: [], loadErrors: [] }).length, 2);
});

const base: NightlySummary = {
  at: '2026-11-22T02:17:00Z',
  wallTimeMs: 1000,
  gate: 'pass',
  reasons: [],
  load: [],
  loadErrors: [],
  trends: [],
  reportPath: 'reports/out/allure-report',
};

test('the verdict: PASS only for a full run; a failure in a partial run is FAIL and says it was partial', () => {
  const left = [{ step: 'self-test' as const, notRun: true, what: 'not run (--skip selftest)' }];
  const reason = [{ step: 'load', reason: 'rate-limit.ts: threshold checks rate<1 failed' }];
  assert.equal(gateVerdict([], []), 'pass');
  assert.equal(gateVerdict([], left), 'partial');
  assert.equal(gateVerdict(reason, left), 'fail');
  assert.match(renderSummaryMarkdown({ ...base, gate: 'pass' }), /\*\*Gate: PASS\*\* — every step ran in full/);
  const failed = renderSummaryMarkdown({ ...base, gate: 'fail', reasons: reason, leftOut: left });
  assert.match(failed, /\*\*Gate: FAIL\*\* — 1 error-severity problem\(s\) in what ran \(a partial run/);
  assert.match(failed, /## Left out of this run\n\n- \*\*self-test\*\*: not run \(--skip selftest\)/);
  assert.equal(
    verdictLine('partial', [], left),
    'Partial run: no gate verdict (no error-severity failure in what ran; left out: self-test not run (--skip selftest))',
  );
});
