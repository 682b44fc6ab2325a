/**
 * The self-test as a unit test (DESIGN.md, "Proving the suite": the project's tests fail when
 * any fault survives or any variation raises an alarm). `npm test` already runs the whole matrix
 * as its last step (`npm run selftest`, which exits non-zero on a survivor, a false
 * alarm, a broken run or a failing clean baseline), so here it runs only on request:
 * SVC_SELFTEST=1 (whole matrix) or SVC_SELFTEST=quick (`--quick`: variations on the
 * smoke/readonly scenarios only) for `npm run test:unit` alone. Without the variable it
 * is skipped with that message, never passed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { selftestSettings } from '../targets/index.ts';
import { runSelftest } from './selftest.ts';

const mode = selftestSettings().asUnitTest;

test('every catalogue fault is caught and no variation raises an alarm', {
  skip: mode ? false : 'set SVC_SELFTEST=1 (or quick) to run the fault-detection matrix',
  timeout: 20 * 60_000,
}, async () => {
  const m = await runSelftest({ root: fileURLToPath(new URL('..', import.meta.url)), quick: mode === 'quick', log: () => {} });
  const bad = [
    ...m.rows
      .filter((r) => !['CAUGHT', 'PASSED'].includes(r.verdict))
      .map((r) => `${r.kind} ${r.name}: ${r.verdict} ${r.errors.join('; ') || r.failed.slice(0, 2).join('; ')}`),
    ...(m.baseline?.failed ?? []).map((f) => `clean baseline failed: ${f}`),
    ...(m.baseline?.errors ?? []).map((e) => `clean baseline broken: ${e}`),
  ];
  assert.deepEqual(bad, [], `detection ${(m.totals.detectionRate * 100).toFixed(1)}%, false alarms ${m.totals.alarmed}`);
});
