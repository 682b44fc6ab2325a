/**
 * Flaky and slow over nights: reports, never verdicts (the specification states no response
 * time; a flip a change of the target explains is that change, not flakiness).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareNights } from './drift.ts';
import { flakyScenarios, slowOperations, SLOW_FACTOR } from './over-time.ts';
import { nightOf } from './test-nights.test-support.ts';

const body = (extra: Record<string, unknown> = {}) => ({ institution: { code: 'mxbank', name: 'MX Bank', ...extra } });
type Outcome = 'expected' | 'unexpected' | 'flaky' | 'skipped';
const nightWith = (day: number, outcome: Outcome, extra?: Record<string, unknown>, ms = 10) =>
  nightOf(day, [{ body: body(extra), ms }], [{ outcome }, { source: 'steady', name: 'x.spec.ts › steady', outcome: 'expected' }]);

test('a verdict that flips between nights with no drift to explain it is flaky, with its history', () => {
  const nights = (['expected', 'unexpected', 'expected', 'expected'] as const).map((o, i) => nightWith(i + 1, o));
  const flaky = flakyScenarios(nights, []);
  assert.equal(flaky.length, 1);
  assert.equal(flaky[0].name, 'institutions.spec.ts › reads an institution');
  assert.equal(flaky[0].flips, 2, 'failed one night, passed the next: two flips');
  assert.deepEqual(
    flaky[0].history.map((h) => h.outcome),
    ['expected', 'unexpected', 'expected', 'expected'],
  );
});

test("Playwright's own flaky (failed, then passed on a retry) counts as a flip", () => {
  const flaky = flakyScenarios([nightWith(1, 'expected'), nightWith(2, 'flaky')], []);
  assert.equal(flaky[0]?.flips, 1);
});

test('a flip that a breaking drift of the same night on an operation the scenario exercised explains is not flaky', () => {
  const n1 = nightWith(1, 'expected', { removed_tonight: 'x' });
  const n2 = nightWith(2, 'unexpected');
  const drift = compareNights(n2, [n1], compareNights(n1, []).seen).events;
  assert.ok(drift.some((e) => e.cls === 'breaking'));
  assert.deepEqual(flakyScenarios([n1, n2], drift), []);
});

test('the same verdict every night is not flaky, skipped nights are left out', () => {
  assert.deepEqual(flakyScenarios([nightWith(1, 'unexpected'), nightWith(2, 'skipped'), nightWith(3, 'unexpected')], []), []);
});

test(`an operation whose p95 grows beyond ${SLOW_FACTOR}× its median over the last nights is slow; noise is not`, () => {
  const steady = [10, 12, 11, 9].map((ms, i) => nightWith(i + 1, 'expected', undefined, ms));
  const slow = slowOperations([...steady, nightWith(5, 'expected', undefined, 80)]);
  assert.equal(slow.length, 1);
  assert.equal(slow[0].operation, 'GET /institutions/{institution_code}');
  assert.equal(slow[0].tonightP95, 80);
  assert.equal(slow[0].medianP95, 10);
  assert.equal(slow[0].nights, 4);
  // Twice as slow but by a few milliseconds: noise.
  assert.deepEqual(slowOperations([...steady, nightWith(5, 'expected', undefined, 25)]), []);
  // Too few nights to have a median.
  assert.deepEqual(slowOperations([steady[0], nightWith(2, 'expected', undefined, 80)]), []);
});
