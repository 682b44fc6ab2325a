/**
 * The self-test's judging stages (proof/README.md, the picture), pure functions over what
 * the execute stage returned: the baselines, the faults' verdicts, and the variations'
 * (phase 1 together, and when the joint run failed, which units phase 2 runs and what its
 * outcome means). proof/judge.test.ts drives each with small literal runs.
 */
import type { CatalogEntry } from '../targets/index.ts';
import { CLEAN_STRICT_PROJECT, type Execution, type Unit } from './execute.ts';
import { checkNameOf, printFailedCheck, rowOf, type BaselineResult, type FailedCheck, type JointResult, type MatrixRow, type RunOutcome } from './matrix.ts';
import { CLEAN_PROJECT, grepSelects, PROPERTIES_PROJECT, selftestEntryFor, type PlannedEntry, type SuiteRun } from './plan.ts';
import type { SuiteTest } from './run-suite.ts';
import { printTestKey } from './playwright-plan.ts';

/** The name of the unit that has every variation in force at once. */
export const ALL_VARIATIONS_UNIT = 'all-variations';
/** Phase 2's control: nothing in force, only the scenarios a variation run failed, in the same invocation. */
export const CONTROL_PROJECT = 'clean-control';
/** Phase 2's second look at scenarios that failed with every variation together. */
export const JOINT_RERUN_PROJECT = 'all-variations-again';

/** The same scenario under every entry: its printed key, for sets and maps. */
const sameScenario = (t: SuiteTest) => printTestKey(t.key);
const inProject = (t: SuiteTest, project: string) => t.entry === project;
/** A failed scenario, with the first line of its error. */
const failedCheckOf = (t: SuiteTest): FailedCheck => ({ test: t.key, ...(t.error ? { error: t.error.split('\n')[0].slice(0, 160) } : {}) });

const namesOf = (entry: CatalogEntry) => ({
  faults: entry.kind === 'fault' ? [entry.name] : [],
  variations: entry.kind === 'variation' ? [entry.name] : [],
});

/** The unit that puts one planned entry in force. */
export const unitOf = (p: PlannedEntry): Unit => ({
  name: p.entry.name,
  ...namesOf(p.entry),
  runs: p.runs,
  ...(p.onlyTitles?.length ? { onlyTitles: p.onlyTitles } : {}),
  ...(p.entry.kind === 'fault' && p.entry.env ? { env: p.entry.env } : {}),
});

/** Every variation in force together, on the union of their suites. */
export const allVariationsUnit = (variations: readonly PlannedEntry[], runs: SuiteRun[]): Unit => ({
  name: ALL_VARIATIONS_UNIT,
  faults: [],
  variations: variations.map((p) => p.entry.name),
  runs,
});

export interface Baselines {
  result: BaselineResult;
  /** Scenarios that passed clean at their first attempt: only these can catch a fault or raise an alarm. */
  cleanPassed: Set<string>;
  /** The same under the inferred faults' profile environment (`clean-strict`). */
  strictPassed: Set<string>;
}

/**
 * The baselines of phase 1: `clean` and `properties` (nothing in force), `clean-strict`
 * (nothing in force, the inferred faults' environment) and one side run per kind. A
 * scenario that needed its retry clean (flaky) proves nothing: it can neither catch nor alarm.
 */
export function baselinesOf(ex: Execution): Baselines {
  const clean = ex.pw.tests.filter((t) => inProject(t, CLEAN_PROJECT) || inProject(t, PROPERTIES_PROJECT));
  const strictClean = ex.pw.tests.filter((t) => inProject(t, CLEAN_STRICT_PROJECT));
  const executed = (tests: SuiteTest[]) => tests.filter((t) => t.status !== 'skipped').length;
  return {
    cleanPassed: new Set(clean.filter((t) => t.status === 'passed').map(sameScenario)),
    strictPassed: new Set(strictClean.filter((t) => t.status === 'passed').map(sameScenario)),
    result: {
      executed: executed(clean) + executed(strictClean) + [...ex.sideClean.values()].reduce((n, r) => n + r.executed, 0),
      flaky: [...clean, ...strictClean]
        .filter((t) => t.status === 'flaky')
        .map((t) => `${inProject(t, CLEAN_STRICT_PROJECT) ? `[${CLEAN_STRICT_PROJECT}] ` : ''}${sameScenario(t)}`),
      failed: [
        ...clean.filter((t) => t.status === 'failed').map((t) => printFailedCheck(failedCheckOf(t))),
        // Clean with the inferred tier gating (SVC_STRICT=1, header names set): the simulator must meet it too.
        ...strictClean.filter((t) => t.status === 'failed').map((t) => `[${CLEAN_STRICT_PROJECT}] ${printFailedCheck(failedCheckOf(t))}`),
        ...[...ex.sideClean.values()].flatMap((r) => r.failed.map(printFailedCheck)),
      ],
      errors: [
        ...(ex.pw.error ? [`playwright: ${ex.pw.error}`] : []),
        ...[...ex.sideClean.entries()].filter(([, r]) => r.error).map(([k, r]) => `${k}: ${r.error}`),
      ],
    },
  };
}

/** One Playwright project's outcome: only failures of scenarios that passed clean (`cleanPassed`) count. */
function playwrightOutcome(project: string, tests: readonly SuiteTest[], cleanPassed: ReadonlySet<string>, error?: string): RunOutcome {
  const mine = tests.filter((t) => inProject(t, project));
  // A variation's scenario that passed on its retry (flaky) is no alarm; a fault's scenarios are never retried.
  const failed = mine.filter((t) => t.status === 'failed');
  return {
    kind: 'playwright',
    executed: mine.filter((t) => t.status !== 'skipped').length,
    failed: failed.filter((t) => cleanPassed.has(sameScenario(t))).map(failedCheckOf),
    durationMs: mine.reduce((n, t) => n + (t.durationMs ?? 0), 0),
    ...(error ? { error } : {}),
  };
}

/** Removes failures the clean baseline of the same suite kind shows. */
function againstBaseline(o: RunOutcome, clean: RunOutcome | undefined): RunOutcome {
  if (!clean) return o;
  const cleanFailed = new Set(clean.failed.map(printFailedCheck));
  return { ...o, failed: o.failed.filter((f) => !cleanFailed.has(printFailedCheck(f))) };
}

/** A unit's outcomes: its Playwright project's and its side runs', each against its clean baseline. */
function outcomesOf(unit: Unit, ex: Execution, cleanPassed: ReadonlySet<string>, sideClean: ReadonlyMap<string, RunOutcome>): RunOutcome[] {
  const out: RunOutcome[] = [];
  if (selftestEntryFor(unit.name, unit.faults, unit.variations, unit.runs, unit.onlyTitles))
    out.push(playwrightOutcome(unit.name, ex.pw.tests, cleanPassed, ex.pw.error));
  for (const o of ex.side.get(unit.name) ?? []) out.push(againstBaseline(o, sideClean.get(o.kind)));
  return out;
}

/**
 * Each fault's row: CAUGHT by the scenarios that passed clean and failed under it (an
 * inferred fault's against the strict baseline), SURVIVED when none did.
 */
export function judgeFaults(faults: readonly PlannedEntry[], ex: Execution, b: Baselines): MatrixRow[] {
  return faults.map((p) => {
    const u = unitOf(p);
    return rowOf(p.entry, outcomesOf(u, ex, u.env && Object.keys(u.env).length ? b.strictPassed : b.cleanPassed, ex.sideClean), runLabels(p));
  });
}

/** What a planned entry ran, for the matrix: a fault's named checks, a variation's suites. */
function runLabels(p: PlannedEntry): string[] {
  if (p.entry.kind === 'variation') return [...p.entry.suites];
  return p.runs.map((r) =>
    r.kind === 'playwright'
      ? p.onlyTitles?.length
        ? `${p.onlyTitles.length} scenario(s) named by spec/trace.yaml`
        : r.all
          ? '*'
          : r.selectors.join(', ')
      : `${r.kind}${r.selectors.length ? `: ${r.selectors.join(', ')}` : ''}`,
  );
}

/** Each variation's row from its own unit (run alone, its declared suites). */
export function judgeVariationsAlone(variations: readonly PlannedEntry[], ex: Execution, b: Baselines): Map<string, MatrixRow> {
  return new Map(variations.map((p) => [p.entry.name, rowOf(p.entry, outcomesOf(unitOf(p), ex, b.cleanPassed, ex.sideClean))]));
}

/** A variation's own Playwright grep (its declared suites). */
const grepOf = (p: PlannedEntry) => selftestEntryFor(p.entry.name, [], [p.entry.name], p.runs)?.grep;

/** The joint run (every variation together) of phase 1, judged through each variation's suites. */
export interface JointView {
  outcomes: RunOutcome[];
  result: JointResult;
  /** Failures or a broken run: phase 2 must name the cause. */
  failed: boolean;
  /** The joint outcome through one variation's suites, less the failures in `drop`. */
  through(p: PlannedEntry, drop: ReadonlySet<string>): RunOutcome[];
  tests: SuiteTest[];
}

export function jointView(variations: readonly PlannedEntry[], joint: Unit, ex: Execution, b: Baselines): JointView {
  const outcomes = outcomesOf(joint, ex, b.cleanPassed, ex.sideClean);
  const failed = outcomes.flatMap((x) => x.failed);
  const broken = outcomes.some((x) => x.error);
  const tests = ex.pw.tests.filter((t) => inProject(t, joint.name));
  return {
    outcomes,
    tests,
    failed: failed.length > 0 || broken,
    result: {
      variations: variations.length,
      executed: outcomes.reduce((n, x) => n + x.executed, 0),
      failed,
      alarms: [],
      flaky: [],
      errors: outcomes.filter((x) => x.error).map((x) => `${x.kind}: ${x.error}`),
    },
    through: (p, drop) =>
      outcomes
        .filter((x) => p.runs.some((r) => r.kind === x.kind))
        .map((x) => {
          if (x.kind !== 'playwright') return x;
          const mine = tests.filter((t) => grepSelects(grepOf(p), t) && t.status !== 'skipped');
          return { ...x, executed: mine.length, failed: x.failed.filter((f) => !drop.has(checkNameOf(f))) };
        }),
  };
}

/** Rows of the variations when the joint run passed: each passed together (and alone, when it also ran alone). */
export function judgeJointPassed(variations: readonly PlannedEntry[], view: JointView, alone: ReadonlyMap<string, MatrixRow>): Map<string, MatrixRow> {
  return new Map(
    variations.map((p) => {
      const row = alone.get(p.entry.name) ?? rowOf(p.entry, view.through(p, new Set()));
      return [
        p.entry.name,
        { ...row, note: `passed with all ${variations.length} variations in force together${alone.has(p.entry.name) ? ' and on its own' : ''}` },
      ];
    }),
  );
}

/** Phase 2: the units that name the variation behind a joint failure, and what they are judged against. */
export interface Phase2Plan {
  units: Unit[];
  /** Joint failures not explained by a variation already run alone. */
  failedTests: SuiteTest[];
  /** Variation -> the failed joint scenarios its suites select. */
  candidates: Map<string, SuiteTest[]>;
}

/**
 * Phase 2 names the variation behind what the joint run saw, in one invocation:
 *  - each variation whose declared suites select a failed scenario runs alone on those
 *    scenarios (one that selects none cannot be the cause: its row is the joint run through
 *    its suites, never "nothing ran");
 *  - `clean-control` runs the same scenarios with nothing in force: a scenario that fails
 *    there too (or passes only on its retry) is a flaky scenario, not an alarm;
 *  - `all-variations-again` runs them once more together: a failure no variation
 *    reproduces alone but that repeats together is an interaction alarm (gating).
 * Other suite kinds that failed or broke run again per variation.
 */
export function planPhase2(
  variations: readonly PlannedEntry[],
  joint: Unit,
  view: JointView,
  ex: Execution,
  b: Baselines,
  alone: ReadonlyMap<string, MatrixRow>,
): Phase2Plan {
  const failedKinds = new Set(view.outcomes.filter((x) => x.failed.length || x.error).map((x) => x.kind));
  // With every variation already run alone (--each-variation), a joint failure one of
  // them reproduced is explained: only the others need a second look.
  const explained = new Set([...alone.values()].flatMap((r) => r.failed.map(checkNameOf)));
  const failedTests = view.tests.filter((t) => t.status === 'failed' && b.cleanPassed.has(sameScenario(t)) && !explained.has(sameScenario(t)));
  const titlesOf = (tests: SuiteTest[]) => [...new Set(tests.map((t) => t.title))];
  const pwAll: SuiteRun = { kind: 'playwright', selectors: [], all: true };
  const units: Unit[] = [];
  const candidates = new Map<string, SuiteTest[]>();
  for (const p of variations) {
    const mine = ex.pw.error ? failedTests : failedTests.filter((t) => grepSelects(grepOf(p), t));
    const runs = p.runs.filter((r) => failedKinds.has(r.kind) && (r.kind !== 'playwright' || mine.length > 0 || ex.pw.error));
    if (mine.length) candidates.set(p.entry.name, mine);
    if (runs.length && !alone.has(p.entry.name)) units.push({ ...unitOf(p), runs, onlyTitles: ex.pw.error ? undefined : titlesOf(mine) });
  }
  if (failedTests.length && !ex.pw.error) {
    units.push({ name: CONTROL_PROJECT, faults: [], variations: [], runs: [pwAll], onlyTitles: titlesOf(failedTests) });
    units.push({ ...joint, name: JOINT_RERUN_PROJECT, runs: [pwAll], onlyTitles: titlesOf(failedTests) });
  }
  return { units, failedTests, candidates };
}

/**
 * The variations' rows after phase 2, and the joint result's alarms and flaky scenarios:
 * a joint failure a variation reproduces alone is that variation's alarm; one that fails
 * clean too, or passes when run again, is flaky; one that repeats only together is an
 * interaction alarm.
 */
export function judgePhase2(
  variations: readonly PlannedEntry[],
  view: JointView,
  plan2: Phase2Plan,
  ex1: Execution,
  ex2: Execution,
  b: Baselines,
  alone: ReadonlyMap<string, MatrixRow>,
): { rows: Map<string, MatrixRow>; joint: JointResult } {
  const joint: JointResult = { ...view.result, alarms: [], flaky: [] };
  const rows = new Map<string, MatrixRow>();
  const controlOf = new Map(ex2.pw.tests.filter((t) => inProject(t, CONTROL_PROJECT)).map((t) => [sameScenario(t), t.status]));
  // Attributable only when the control passed the scenario at its first attempt.
  const attributable = new Set([...controlOf].filter(([, st]) => st === 'passed').map(([k]) => k));
  const flakyKeys = plan2.failedTests.map(sameScenario).filter((k) => controlOf.has(k) && !attributable.has(k));
  const reproduced = new Set<string>();
  for (const p of variations) {
    const unit = plan2.units.find((u) => u.name === p.entry.name);
    const own = alone.get(p.entry.name);
    if (own) {
      for (const f of own.failed) reproduced.add(checkNameOf(f));
      rows.set(p.entry.name, own);
      continue;
    }
    const unchanged = view.outcomes.filter((x) => p.runs.some((r) => r.kind === x.kind) && !unit?.runs.some((r) => r.kind === x.kind));
    // The joint Playwright outcome through this variation's suites, without the failures it is now judged on alone.
    const throughJoint = view.through(p, new Set(plan2.failedTests.map(sameScenario))).filter((x) => unchanged.includes(x) || x.kind === 'playwright');
    const outcomes = unit ? outcomesOf(unit, ex2, controlOf.size ? attributable : b.cleanPassed, ex1.sideClean) : [];
    for (const o of outcomes) for (const f of o.failed) reproduced.add(checkNameOf(f));
    const merged = [...throughJoint.filter((x) => x.kind !== 'playwright' || !outcomes.some((o) => o.kind === 'playwright')), ...outcomes];
    const row = rowOf(p.entry, merged.length ? merged : throughJoint);
    const note = plan2.candidates.has(p.entry.name)
      ? 'run alone on the scenarios that failed with all variations together'
      : 'the failures with all variations together lie outside its suites';
    rows.set(p.entry.name, { ...row, note });
  }
  const again = new Map(ex2.pw.tests.filter((t) => inProject(t, JOINT_RERUN_PROJECT)).map((t) => [sameScenario(t), t.status]));
  for (const t of plan2.failedTests) {
    const k = sameScenario(t);
    if (reproduced.has(k)) continue;
    if (flakyKeys.includes(k) || again.get(k) !== 'failed')
      joint.flaky.push(`${k} (failed with all variations together; ${flakyKeys.includes(k) ? 'fails clean too' : 'passed when run again'})`);
    else joint.alarms.push(`${k} — fails only with all variations together (no variation alone), and again on a second run`);
  }
  // Side kinds: a joint failure that no variation reproduced alone is reported as an interaction alarm.
  for (const o of view.outcomes.filter((x) => x.kind !== 'playwright')) {
    for (const f of o.failed)
      if (!variations.some((p) => rows.get(p.entry.name)?.failed.some((mine) => printFailedCheck(mine) === printFailedCheck(f))))
        joint.alarms.push(`${printFailedCheck(f)} — fails only with all variations together`);
  }
  return { rows, joint };
}
