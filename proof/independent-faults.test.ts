/**
 * The verdict of a fault written by others (lesson 2): caught when the gate goes red on it,
 * by a scenario that passed in the baseline or by the gate stopping before its first
 * scenario on a fatal finding of its own; never by the harness losing the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newInferredFindings, STOPPED_BEFORE_SCENARIOS, summaryLine, unmeasuredBaseline, verdictLine, verdictOf } from './independent-faults.ts';
import { testKey } from './playwright-plan.ts';
import type { PlaywrightRun, RunTest } from './real-target.ts';

const run = (o: Partial<PlaywrightRun>): PlaywrightRun => ({
  tests: [],
  exitCode: 0,
  durationMs: 1000,
  timedOut: false,
  globalErrors: [],
  stderrTail: '',
  leftover: [],
  ...o,
});
const test1 = (status: RunTest['status'], firstError?: string): RunTest => ({
  entry: 'api',
  key: testKey('scenarios/api/institutions.spec.ts', ['a list']),
  name: 'api › institutions.spec.ts › a list',
  title: 'a list',
  tags: [],
  status,
  ...(firstError ? { firstError } : {}),
});
const baseline = run({ tests: [test1('passed')] });

test('a scenario that passed in the baseline and fails under the fault catches it, with its first error', () => {
  const v = verdictOf('f', baseline, run({ exitCode: 1, tests: [test1('failed', 'expected 200\nline 2\nline 3\nline 4')] }));
  assert.deepEqual([v.caught, v.by, v.firstError], [true, ['api › institutions.spec.ts › a list'], 'expected 200 line 2 line 3']);
});

test('the gate stopped before its first scenario by a fatal preflight finding catches it; the harness losing the run does not', () => {
  const preflight = 'Error: preflight: GET /institutions?records_per_page=1 answered 404: the institutions list is not at http://127.0.0.1:1';
  const stopped = verdictOf('f', baseline, run({ exitCode: 1, globalErrors: [preflight] }));
  assert.deepEqual([stopped.caught, stopped.by], [true, [STOPPED_BEFORE_SCENARIOS]]);
  assert.match(stopped.firstError ?? '', /answered 404/);
  assert.equal(verdictOf('f', baseline, run({ exitCode: 1, timedOut: true, globalErrors: ['x'] })).caught, false);
  assert.equal(verdictOf('f', baseline, run({ exitCode: 1, globalErrors: ['no JSON report (exit 1)'] })).caught, false);
  // A baseline that itself stopped measures nothing: no fault is caught by stopping.
  assert.equal(verdictOf('f', run({ exitCode: 1, globalErrors: ['y'] }), run({ exitCode: 1, globalErrors: ['y'] })).caught, false);
  assert.equal(verdictOf('f', baseline, run({ exitCode: 0, tests: [test1('passed')] })).caught, false);
});

test("a survivor the suite reported as an inferred finding says so; inferred findings the baseline had too, or differing only in ids, are not the fault's", () => {
  const withInferred = (...descriptions: string[]): RunTest => ({
    ...test1('passed'),
    annotations: descriptions.map((description) => ({ type: 'inferred', description })),
  });
  const before = run({ tests: [withInferred('[inferred] the list is sorted; received USR-0a1b2c3d-4e5f')] });
  const under = run({
    tests: [
      withInferred(
        '[inferred] the list is sorted; received USR-9f8e7d6c-5b4a',
        '[inferred] Accept-Version v29991231 (no such version) is refused with a 4xx; received 200',
      ),
    ],
  });
  assert.deepEqual(newInferredFindings(before, under), [
    'api › institutions.spec.ts › a list: [inferred] Accept-Version v29991231 (no such version) is refused with a 4xx; received 200',
  ]);
  const v = verdictOf('f', before, under);
  assert.deepEqual([v.caught, v.inferred.length], [false, 1]);
  assert.deepEqual(newInferredFindings(before, before), []);
});

test("a writer's control (named freedom-...) caught is a false alarm, tolerated when the gate stays green; the summary counts the two apart", () => {
  const red = run({ exitCode: 1, tests: [test1('failed', 'expected the list in code order')] });
  const green = run({ tests: [test1('passed')] });
  const alarm = verdictOf('freedom-list-order', baseline, red);
  const tolerated = verdictOf('freedom-extra-field', baseline, green);
  const caught = verdictOf('page-overlap', baseline, red);
  assert.deepEqual([alarm.control, alarm.caught, tolerated.control, caught.control], [true, true, true, false]);
  assert.match(verdictLine(alarm), /^FALSE ALARM freedom-list-order .*expected the list in code order/s);
  assert.match(verdictLine(tolerated), /^TOLERATED +freedom-extra-field/);
  assert.match(verdictLine(caught), /^CAUGHT +page-overlap/);
  assert.equal(summaryLine([alarm, tolerated, caught]), 'caught 1 of 1; controls tolerated 1 of 2');
  assert.equal(summaryLine([caught]), 'caught 1 of 1');
});

test("a baseline that passed no scenario of the chosen projects (all skipped, only the run's own teardown passing) measures nothing and says why", () => {
  const invariants: RunTest = { ...test1('passed'), entry: 'invariants', name: 'invariants › invariants.spec.ts › every answer' };
  const skipped: RunTest = { ...test1('skipped'), entry: 'properties', skipReason: 'needs SVC_WEBHOOK_PUBLIC_URL' };
  const plan = { projects: ['properties'], grep: '@live', deliveries: false };
  assert.match(
    unmeasuredBaseline(run({ tests: [invariants, skipped] }), plan) ?? '',
    /passed no scenario of properties matching @live.*only with --deliveries/,
  );
  assert.match(
    unmeasuredBaseline(run({ tests: [invariants, { ...test1('failed'), entry: 'api' }] }), { ...plan, projects: ['api'], grep: undefined }) ?? '',
    /nothing to measure$/,
  );
  assert.equal(unmeasuredBaseline(run({ tests: [invariants, test1('passed')] }), { projects: ['api'], deliveries: false }), undefined);
});
