/**
 * The self-test's stages between execute and write, over small literal runs: the plan
 * (planSelftest), the baselines, the faults' verdicts, the variations' (together, phase 2's
 * plan and its verdicts), the trace proofs. No process is started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TraceRow } from '../spec/trace.ts';
import type { CatalogEntry, FaultEntry, VariationEntry } from '../targets/index.ts';
import { CLEAN_STRICT_PROJECT, type Execution } from './execute.ts';
import {
  ALL_VARIATIONS_UNIT,
  baselinesOf,
  CONTROL_PROJECT,
  JOINT_RERUN_PROJECT,
  judgeFaults,
  judgePhase2,
  jointView,
  judgeJointPassed,
  planPhase2,
  type Baselines,
} from './judge.ts';
import type { RunOutcome } from './matrix.ts';
import { CLEAN_PROJECT, PROPERTIES_PROJECT } from './plan.ts';
import type { SuiteTest } from './run-suite.ts';
import { printTestKey, testKey, type TestKey } from './playwright-plan.ts';
import { confirmTraceProofs, judgeVariations, planSelftest } from './selftest.ts';

/** A value of the environment a plan hands its runs (read as data: the profile is the only reader of SVC_* settings of the process). */
const settingOf = (name: string, env: Record<string, string | undefined>) => Object.entries(env).find(([key]) => key === name)?.[1];

const A = testKey('scenarios/api/a.spec.ts', ['the rule holds']);
const B = testKey('scenarios/api/a.spec.ts', ['the other rule holds']);
const fault = (name: string, o: Partial<FaultEntry> = {}): FaultEntry => ({
  name,
  kind: 'fault',
  area: 'auth',
  section: 'S',
  description: 'a fault for tests',
  ...o,
});
const variation = (name: string, suites: string[]): VariationEntry => ({
  name,
  kind: 'variation',
  area: 'errors',
  section: 'S',
  description: 'a variation for tests',
  suites,
});
const traceRow = (id: string, verified_by: string[], proven_by: string[]): TraceRow => ({
  id,
  section: 'S',
  statement: 's',
  encoded_in: [],
  verified_by,
  proven_by,
});
/** A report test: a scenario's copy under a project or entry, tagged @a. */
const t = (project: string, key: TestKey, status: SuiteTest['status'], error?: string): SuiteTest => ({
  entry: project,
  key,
  name: `[${project}] ${printTestKey(key)}`,
  title: key.titlePath.at(-1)!,
  tags: ['a'],
  status,
  durationMs: 5,
  ...(error ? { error } : {}),
});
const ex = (tests: SuiteTest[], side: Record<string, RunOutcome[]> = {}, sideClean: Record<string, RunOutcome> = {}): Execution => ({
  pw: { tests, durationMs: 1 },
  side: new Map(Object.entries(side)),
  sideClean: new Map(Object.entries(sideClean)),
});

const catalog: CatalogEntry[] = [
  fault('f-caught'),
  fault('f-missed'),
  fault('f-strict', { tier: 'inferred', env: { SVC_STRICT: '1' } }),
  variation('v-1', ['@a']),
  variation('v-2', ['@a', 'delivery']),
];
const trace = [traceRow('r.1', [printTestKey(A)], ['f-caught', 'f-missed']), traceRow('r.2', [printTestKey(B), 'delivery: timeout'], ['f-strict'])];

test('plan: faults from their trace rows, variations together and from their suites; --only, --kind, --quick, --separate-variations', () => {
  const p = planSelftest({}, catalog, trace, {});
  assert.deepEqual(
    p.faults.map((x) => [x.entry.name, x.onlyTitles]),
    [
      ['f-caught', ['the rule holds']],
      ['f-missed', ['the rule holds']],
      ['f-strict', ['the other rule holds']],
    ],
  );
  assert.deepEqual(
    p.phase1.map((u) => u.name),
    ['f-caught', 'f-missed', 'f-strict', ALL_VARIATIONS_UNIT],
  );
  assert.deepEqual(p.allVariations?.variations, ['v-1', 'v-2']);
  assert.deepEqual(p.phase1.find((u) => u.name === 'f-strict')?.env, { SVC_STRICT: '1' });
  assert.equal(p.properties, true);
  assert.equal(settingOf('SVC_FUZZ_SEED', p.env), '1');
  assert.deepEqual(
    planSelftest({ eachVariation: true }, catalog, trace, {})
      .phase1.map((u) => u.name)
      .slice(-3),
    [ALL_VARIATIONS_UNIT, 'v-1', 'v-2'],
  );
  assert.deepEqual(
    planSelftest({ separateVariations: true }, catalog, trace, {})
      .phase1.map((u) => u.name)
      .slice(-2),
    ['v-1', 'v-2'],
  );
  const only = planSelftest({ only: ['f-caught', 'v-1'] }, catalog, trace, {});
  assert.deepEqual(
    only.phase1.map((u) => u.name),
    ['f-caught', 'v-1'],
    'one variation runs alone',
  );
  assert.equal(only.properties, false, '--only leaves the properties project out');
  assert.deepEqual(
    planSelftest({ kind: 'variation', quick: true }, catalog, trace, {}).variations.map((x) => x.runs[0].selectors),
    [
      ['@smoke', '@readonly'],
      ['@smoke', '@readonly'],
    ],
  );
  assert.throws(() => planSelftest({ only: ['nope'] }, catalog, trace, {}), /unknown catalogue entries: nope/);
  // A variation the catalogue marks alone runs on its own suites, never in the joint run.
  const withAlone = planSelftest({}, [...catalog, { ...variation('v-slow', ['@a']), alone: true as const }], trace, {});
  assert.deepEqual(withAlone.allVariations?.variations, ['v-1', 'v-2']);
  assert.deepEqual(withAlone.phase1.map((u) => u.name).slice(-2), [ALL_VARIATIONS_UNIT, 'v-slow']);
  assert.deepEqual(
    withAlone.aloneVariations.map((x) => x.entry.name),
    ['v-slow'],
  );
});

test('plan, fuzz column: every entry a scenario can notice runs the fuzz project alone, with the fuzz bounds', () => {
  const p = planSelftest(
    { fuzzOnly: true },
    [...catalog, fault('f-time', { notFuzzable: 'time' })],
    [...trace, traceRow('r.3', [printTestKey(A)], ['f-time'])],
    {
      SVC_FUZZ_RUNS: '9',
    },
  );
  assert.deepEqual(
    [...p.faults, ...p.variations].map((x) => x.entry.name),
    ['f-caught', 'f-missed', 'f-strict', 'v-1', 'v-2'],
  );
  assert.ok([...p.faults, ...p.variations].every((x) => x.runs.length === 1 && x.runs[0].selectors[0] === '@fuzz' && !x.onlyTitles));
  assert.equal(settingOf('SVC_FUZZ_RUNS', p.env), '9', "a caller's bound wins");
  assert.equal(p.properties, false);
  assert.ok(p.cleanGrep?.includes('@fuzz'));
});

test('baselines: clean and properties passes at the first attempt count; flaky and failed clean scenarios are reported', () => {
  const b = baselinesOf(
    ex(
      [
        t(CLEAN_PROJECT, A, 'passed'),
        t(CLEAN_PROJECT, B, 'flaky'),
        t(PROPERTIES_PROJECT, testKey('scenarios/properties/p.spec.ts', ['holds']), 'failed', 'boom\nstack'),
        t(CLEAN_STRICT_PROJECT, B, 'passed'),
        t('f-caught', A, 'failed'),
      ],
      {},
      { delivery: { kind: 'delivery', executed: 2, failed: [{ side: 'delivery timeout: webhook_retry_on_failure' }], durationMs: 1 } },
    ),
  );
  assert.deepEqual([...b.cleanPassed], [printTestKey(A)]);
  assert.deepEqual([...b.strictPassed], [printTestKey(B)]);
  assert.deepEqual(b.result.flaky, [printTestKey(B)]);
  assert.deepEqual(b.result.failed, ['scenarios/properties/p.spec.ts > holds — boom', 'delivery timeout: webhook_retry_on_failure']);
  assert.equal(b.result.executed, 4 + 2);
});

const baselines = (passed: TestKey[], strict: TestKey[] = []): Baselines => ({
  cleanPassed: new Set(passed.map(printTestKey)),
  strictPassed: new Set(strict.map(printTestKey)),
  result: { executed: 1, failed: [], errors: [] },
});

test('judge faults: caught only by a scenario that passed clean (an inferred fault: clean-strict), side runs against their clean run', () => {
  const p = planSelftest({ kind: 'fault' }, catalog, trace, {});
  const rows = judgeFaults(
    p.faults,
    ex(
      [t('f-caught', A, 'failed', 'expected 401'), t('f-missed', A, 'passed'), t('f-strict', B, 'failed', 'a 500')],
      { 'f-strict': [{ kind: 'delivery', executed: 1, failed: [{ side: 'delivery timeout: known' }], durationMs: 1 }] },
      { delivery: { kind: 'delivery', executed: 1, failed: [{ side: 'delivery timeout: known' }], durationMs: 1 } },
    ),
    baselines([A], [B]),
  );
  assert.deepEqual(
    rows.map((r) => [r.name, r.verdict, r.failed]),
    [
      ['f-caught', 'CAUGHT', [{ test: A, error: 'expected 401' }]],
      ['f-missed', 'SURVIVED', []],
      ['f-strict', 'CAUGHT', [{ test: B, error: 'a 500' }]],
    ],
  );
  assert.deepEqual(rows[0].suites, ['1 scenario(s) named by spec/trace.yaml']);
  // The same failure, but the scenario failed clean: it proves nothing.
  assert.equal(judgeFaults(p.faults.slice(0, 1), ex([t('f-caught', A, 'failed')]), baselines([]))[0].verdict, 'SURVIVED');
});

test('judge variations: all together passed means every variation passed', async () => {
  const p = planSelftest({ kind: 'variation' }, catalog, trace, {});
  const ex1 = ex([t(ALL_VARIATIONS_UNIT, A, 'passed'), t(ALL_VARIATIONS_UNIT, B, 'flaky')], {
    [ALL_VARIATIONS_UNIT]: [{ kind: 'delivery', executed: 3, failed: [], durationMs: 1 }],
  });
  const b = baselines([A, B]);
  const view = jointView(p.variations, p.allVariations!, ex1, b);
  assert.equal(view.failed, false);
  const rows = judgeJointPassed(p.variations, view, new Map());
  assert.deepEqual(
    [...rows.values()].map((r) => [r.name, r.verdict, r.executed]),
    [
      ['v-1', 'PASSED', 2],
      ['v-2', 'PASSED', 5],
    ],
  );
  const judged = await judgeVariations(p, ex1, b, async () => assert.fail('no phase 2 when the joint run passed'));
  assert.equal(judged.joint?.failed.length, 0);
});

test('judge variations, phase 2: the variation that fails alone alarms; a failure the control shares is flaky; one only together and again is an interaction alarm', async () => {
  const p = planSelftest({ kind: 'variation' }, catalog, trace, {});
  const C = testKey('scenarios/api/a.spec.ts', ['a third rule holds']);
  const ex1 = ex([t(ALL_VARIATIONS_UNIT, A, 'failed', 'x'), t(ALL_VARIATIONS_UNIT, B, 'failed', 'y'), t(ALL_VARIATIONS_UNIT, C, 'failed', 'z')]);
  const b = baselines([A, B, C]);
  const view = jointView(p.variations, p.allVariations!, ex1, b);
  assert.equal(view.failed, true);
  const plan2 = planPhase2(p.variations, p.allVariations!, view, ex1, b, new Map());
  assert.deepEqual(
    plan2.units.map((u) => [u.name, u.onlyTitles]),
    [
      ['v-1', ['the rule holds', 'the other rule holds', 'a third rule holds']],
      ['v-2', ['the rule holds', 'the other rule holds', 'a third rule holds']],
      [CONTROL_PROJECT, ['the rule holds', 'the other rule holds', 'a third rule holds']],
      [JOINT_RERUN_PROJECT, ['the rule holds', 'the other rule holds', 'a third rule holds']],
    ],
  );
  const ex2 = ex([
    t('v-1', A, 'failed', 'x'),
    t('v-1', B, 'passed'),
    t('v-1', C, 'passed'),
    t('v-2', A, 'passed'),
    t('v-2', B, 'passed'),
    t('v-2', C, 'passed'),
    t(CONTROL_PROJECT, A, 'passed'),
    t(CONTROL_PROJECT, B, 'failed'),
    t(CONTROL_PROJECT, C, 'passed'),
    t(JOINT_RERUN_PROJECT, A, 'failed'),
    t(JOINT_RERUN_PROJECT, B, 'passed'),
    t(JOINT_RERUN_PROJECT, C, 'failed'),
  ]);
  const { rows, joint } = judgePhase2(p.variations, view, plan2, ex1, ex2, b, new Map());
  assert.deepEqual(
    [...rows.values()].map((r) => [r.name, r.verdict]),
    [
      ['v-1', 'ALARMED'],
      ['v-2', 'PASSED'],
    ],
  );
  assert.deepEqual(joint.flaky, [`${printTestKey(B)} (failed with all variations together; fails clean too)`]);
  assert.deepEqual(joint.alarms, [`${printTestKey(C)} — fails only with all variations together (no variation alone), and again on a second run`]);
  // judgeVariations runs phase 2 through the function it is given.
  let asked: string[] = [];
  const judged = await judgeVariations(p, ex1, b, async (units) => {
    asked = units.map((u) => u.name);
    return ex2;
  });
  assert.deepEqual(asked, ['v-1', 'v-2', CONTROL_PROJECT, JOINT_RERUN_PROJECT]);
  assert.deepEqual(judged.joint?.alarms, joint.alarms);
});

test('confirm proofs: a row proven by a fault caught on a named check is confirmed, on another check broken', () => {
  const p = planSelftest({ kind: 'fault' }, catalog, trace, {});
  const rows = judgeFaults(
    p.faults,
    ex([t('f-caught', A, 'failed'), t('f-missed', A, 'passed'), t('f-strict', B, 'passed')], {
      'f-strict': [{ kind: 'delivery', executed: 1, failed: [], durationMs: 1 }],
    }),
    baselines([A], [B]),
  );
  const proofs = confirmTraceProofs(rows, trace);
  assert.equal(proofs.confirmed, 1);
  assert.deepEqual(
    proofs.broken.map((x) => x.id),
    ['r.2'],
  );
});
