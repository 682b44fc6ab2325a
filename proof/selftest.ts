/**
 * npm run selftest — the fault-detection matrix (DESIGN.md, "Proving the suite"), as a pipeline of named stages
 * (proof/README.md opens with its picture):
 *
 *   planSelftest → execute → baselinesOf → judgeFaults → judgeVariations → confirmTraceProofs → writeMatrix
 *
 * Every fault of targets/simulator/catalog.ts runs the checks spec/trace.yaml names for it
 * (proof/plan.ts `planFault`); every variation the suites its `suites` tags name, all of them
 * together in one simulator first. Prints which checks caught each fault or "SURVIVED", and
 * "passed" or the false alarm for each variation. Writes reports/out/selftest/matrix.json
 * and matrix.md. Exit 1 when a fault survives, a variation alarms, a run breaks, a trace
 * row's proof is broken or the clean baseline fails.
 *
 *   npm run selftest [-- --only name,name] [--kind fault|variation] [--quick]
 *                    [--workers 3] [--separate-variations] [--each-variation] [--full-suites]
 *                    [--fuzz-only] [--out reports/out/selftest]
 *
 * How (goal: the whole matrix in at most 120 s on a quiet 2-core machine, so it runs in every `npm test`):
 *   - ONE Playwright invocation for every scenario entry (proof/execute.ts): the plan lists
 *     the entries plus `clean`, the baseline with nothing in force; the scenarios' fixtures
 *     declare each scenario once per entry that selects it (proof/entry-test.ts),
 *     and each worker keeps one in-process simulator per entry, so the runner, the test
 *     files, the contract and the browser start once per worker, not once per entry.
 *   - Polling is bounded tightly (SVC_AGGREGATION_TIMEOUT_MS 1 s; the simulator settles
 *     an aggregation in 60 ms): a fault that makes a scenario wait forever fails it at
 *     that bound, which counts as caught, never as a broken run.
 *   - The baseline (`clean`, plus the fast-check `properties` project as it is) runs
 *     every scenario `npm run conformance` runs; a failure there fails the self-test, so
 *     `npm test` needs no separate conformance step.
 *   - A fault is caught only by scenarios that pass in `clean` and fail under it; a
 *     variation raises a false alarm only with a scenario that passes clean. The same
 *     baseline rule holds for the other suite kinds (delivery, load, upgrade).
 *   - Every variation is in force together in one simulator (`all-variations`): the usual
 *     case costs one run. When that joint run fails, phase 2 names the variation behind it
 *     (proof/judge.ts `planPhase2`, `judgePhase2`). A variation the catalogue marks `alone`
 *     (a low rate limit would slow every suite of the joint run) runs on its own suites.
 *
 * --quick (npm run selftest:quick): variations run only the @smoke/@readonly scenarios
 * instead of every suite; faults run exactly as in the full matrix. --fuzz-only: the fuzz
 * column (`runFuzzColumn`), the same pipeline with the fuzz project as every entry's only suite.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadTrace, type TraceRow } from '../spec/trace.ts';
import { CATALOG, selftestSettings, type CatalogEntry } from '../targets/index.ts';
import { execute, NOTHING_RAN, type Execution, type ExecuteOptions, type Unit } from './execute.ts';
import { FUZZ_TAG, fuzzable, fuzzColumn, fuzzPlan, renderFuzzColumn } from './fuzz.ts';
import {
  allVariationsUnit,
  baselinesOf,
  judgeFaults,
  judgeJointPassed,
  judgePhase2,
  judgeVariationsAlone,
  jointView,
  planPhase2,
  unitOf,
  type Baselines,
} from './judge.ts';
import { buildMatrix, matrixPasses, renderConsole, renderMarkdown, type JointResult, type Matrix, type MatrixRow } from './matrix.ts';
import { grepFor, mergeRuns, planEntry, type PlannedEntry } from './plan.ts';
import { confirmProofs } from './trace-proof.ts';

export { SELFTEST_AGGREGATION_TIMEOUT_MS, SELFTEST_POLL_INTERVAL_MS, SELFTEST_TEST_TIMEOUT_MS, CLEAN_STRICT_PROJECT } from './execute.ts';
export { ALL_VARIATIONS_UNIT, CONTROL_PROJECT, JOINT_RERUN_PROJECT } from './judge.ts';

const pick = (env: NodeJS.ProcessEnv, names: string[]) => Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n]!]));

export interface SelftestOptions {
  root?: string;
  only?: string[];
  kind?: 'fault' | 'variation';
  quick?: boolean;
  /** Playwright workers (default: selftestSettings().workers, 3 on the 2-core reference machine). */
  workers?: number;
  /** Run every variation on its own even when all of them together pass (slower, no joint run). */
  separateVariations?: boolean;
  /**
   * Every fault on every check of its trace rows, `shown_by` (the generated sidecar) left
   * aside: the matrix `npx tsx proof/trace-proof.ts --shown-by` chooses again from.
   */
  fullSuites?: boolean;
  /**
   * Run the variations both together (one simulator with all of them) and each on its own
   * (its declared suites only), in the same invocation: the self-test then proves both
   * "all variations pass together" and "each passes alone" (DESIGN.md, "Proving the suite"). CLI
   * --each-variation, or SVC_SELFTEST_EACH_VARIATION=1 for callers such as npm test.
   */
  eachVariation?: boolean;
  /**
   * Run the properties project (scenarios/properties) once in the baseline; default: yes
   * for the whole matrix, no with `only`. With it the baseline covers `npm run conformance`.
   */
  properties?: boolean;
  outDir?: string;
  /** Bound of the whole Playwright run and of each side run, ms. */
  timeoutMs?: number;
  env?: Record<string, string>;
  log?: (line: string) => void;
  /** The fuzz column (runFuzzColumn): every entry a scenario can notice runs the fuzz project alone. */
  fuzzOnly?: boolean;
}

const QUICK_TAGS = ['@smoke', '@readonly'];

function quickPlan(p: PlannedEntry): PlannedEntry {
  if (p.entry.kind !== 'variation') return p;
  return { ...p, runs: [{ kind: 'playwright', selectors: QUICK_TAGS, all: false }] };
}

/** What the pipeline runs: the fault and variation plans, and the units of phase 1. */
export interface SelftestPlan {
  faults: PlannedEntry[];
  /** The variations of the joint run (every one but those that run alone). */
  variations: PlannedEntry[];
  /** Variations that run on their own suites only (catalogue `alone`), never in the joint run. */
  aloneVariations: PlannedEntry[];
  /** Every variation in force together (absent with one variation, or --separate-variations). */
  allVariations?: Unit;
  /** Each variation also runs on its own in phase 1. */
  eachAlone: boolean;
  phase1: Unit[];
  /** The properties project in the baseline. */
  properties: boolean;
  /** The clean baseline's grep (the fuzz column: the fuzz project only). */
  cleanGrep?: string;
  /** The environment of every run (the fuzz test's bounds). */
  env: Record<string, string>;
}

/**
 * Stage 1, plan: which entries run, and on what. Pure: the catalogue and the trace are
 * arguments, the process environment only for the fuzz bounds a caller may set.
 */
export function planSelftest(
  o: SelftestOptions,
  catalog: readonly CatalogEntry[] = CATALOG,
  trace: readonly TraceRow[] = loadTrace(),
  processEnv: NodeJS.ProcessEnv = process.env,
): SelftestPlan {
  let entries: readonly CatalogEntry[] = catalog;
  if (o.only?.length) {
    const unknown = o.only.filter((n) => !catalog.some((e) => e.name === n));
    if (unknown.length) throw new Error(`--only names unknown catalogue entries: ${unknown.join(', ')}`);
    entries = entries.filter((e) => o.only!.includes(e.name));
  }
  if (o.kind) entries = entries.filter((e) => e.kind === o.kind);
  let plans = entries.map((e) => planEntry(e, trace, { everyCheck: o.fullSuites }));
  plans = o.fuzzOnly ? plans.filter(fuzzable).map(fuzzPlan) : o.quick ? plans.map(quickPlan) : plans;
  // The fuzz column: fixed seed and short bounds per entry unless the caller set them (a fault's catch must replay).
  // Elsewhere the fuzz test runs in the clean and all-variations baselines only, to show it
  // raises no false alarm: a fixed seed and a count bound (3 cases per operation and
  // version, every documented operation exercised: about 2000 cases) make that gate the same
  // on every run and machine; a time bound would cut it wherever the machine is slow. The
  // fuzz project's own run (`npx playwright test --project fuzz`) keeps its wider defaults.
  // Pacing: every worker has a simulator of its own per entry (proof/entry-test.ts)
  // that serves one test at a time, so the fuzz test may take 0.9 of the request limit
  // (SELFTEST_ENTRY_RATE_LIMIT_PER_SECOND), not the 0.5 it leaves other workers on a
  // shared target.
  const fuzzBounds = {
    SVC_FUZZ_RATE_SHARE: '0.9',
    ...(o.fuzzOnly ? { SVC_FUZZ_SEED: '1', SVC_FUZZ_RUNS: '6', SVC_FUZZ_SECONDS: '15' } : { SVC_FUZZ_SEED: '1', SVC_FUZZ_RUNS: '3', SVC_FUZZ_SECONDS: '120' }),
  };
  const env = { ...fuzzBounds, ...pick(processEnv, ['SVC_FUZZ_SEED', 'SVC_FUZZ_RUNS', 'SVC_FUZZ_SECONDS', 'SVC_FUZZ_RATE_SHARE']), ...o.env };

  // Phase 1: clean, every fault on its own, and every variation together in one
  // simulator. Variations are non-breaking changes that must all pass everywhere, so the
  // common case (none alarms) costs one run, not one per variation. With --each-variation
  // each variation also runs on its own (its declared suites) in the same invocation.
  const faults = plans.filter((p) => p.entry.kind === 'fault');
  const variations = plans.filter((p) => p.entry.kind === 'variation' && !p.entry.alone);
  const aloneVariations = plans.filter((p) => p.entry.kind === 'variation' && p.entry.alone);
  const together = !o.separateVariations && variations.length > 1;
  const eachAlone = !together || !!o.eachVariation;
  const allVariations = together ? allVariationsUnit(variations, mergeRuns(variations.map((p) => p.runs))) : undefined;
  return {
    faults,
    variations,
    aloneVariations,
    ...(allVariations ? { allVariations } : {}),
    eachAlone,
    phase1: [...faults.map(unitOf), ...(allVariations ? [allVariations] : []), ...(eachAlone ? variations.map(unitOf) : []), ...aloneVariations.map(unitOf)],
    properties: o.fuzzOnly ? false : (o.properties ?? !o.only?.length),
    ...(o.fuzzOnly ? { cleanGrep: grepFor([FUZZ_TAG]) } : {}),
    env,
  };
}

/**
 * Stage 5, judge variations: their rows from phase 1 (together, and alone with
 * --each-variation); when the joint run failed, one more execution (`runPhase2`) names the
 * variation behind it.
 */
export async function judgeVariations(
  plan: SelftestPlan,
  ex1: Execution,
  b: Baselines,
  runPhase2: (units: Unit[]) => Promise<Execution>,
  log: (line: string) => void = () => {},
): Promise<{ rows: Map<string, MatrixRow>; joint?: JointResult }> {
  const own = judgeVariationsAlone(plan.aloneVariations, ex1, b);
  const withOwn = (rows: Map<string, MatrixRow>) => new Map([...rows, ...own]);
  const alone = plan.eachAlone ? judgeVariationsAlone(plan.variations, ex1, b) : new Map<string, MatrixRow>();
  if (!plan.allVariations) return { rows: withOwn(alone) };
  const view = jointView(plan.variations, plan.allVariations, ex1, b);
  if (!view.failed) return { rows: withOwn(judgeJointPassed(plan.variations, view, alone)), joint: view.result };
  log(
    `all variations together: ${view.result.failed.length} failure(s)${view.result.errors.length ? ', a broken run' : ''} (${[...view.result.failed, ...view.result.errors].slice(0, 3).join('; ').slice(0, 400)}); naming the variation behind them`,
  );
  const plan2 = planPhase2(plan.variations, plan.allVariations, view, ex1, b, alone);
  const ex2 = plan2.units.length ? await runPhase2(plan2.units) : NOTHING_RAN;
  const judged = judgePhase2(plan.variations, view, plan2, ex1, ex2, b, alone);
  return { ...judged, rows: withOwn(judged.rows) };
}

/**
 * Stage 6, confirm proofs: every trace row's proof names a check its catalogue entry makes
 * fail (each verified row names the scenario and the catalogue fault that proves it;
 * proof/trace-proof.ts). Not in the fuzz column: it runs the fuzz project
 * alone, never the checks the rows name.
 */
export function confirmTraceProofs(rows: readonly MatrixRow[], trace: readonly TraceRow[]): NonNullable<Matrix['traceProofs']> {
  const proofs = confirmProofs(trace, rows);
  return { confirmed: proofs.confirmed.length, broken: proofs.broken, notRun: proofs.notRun.length };
}

/** Stage 7, write: matrix.json and matrix.md, and with the fuzz column fuzz.json and fuzz.md. */
export function writeMatrix(matrix: Matrix, outDir: string, o: { fuzzColumn?: boolean } = {}): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(outDir, 'matrix.md'), renderMarkdown(matrix));
  if (o.fuzzColumn) {
    const col = fuzzColumn(matrix.rows);
    writeFileSync(join(outDir, 'fuzz.json'), `${JSON.stringify(col, null, 2)}\n`);
    writeFileSync(join(outDir, 'fuzz.md'), renderFuzzColumn(col, matrix));
  }
}

/** The whole matrix: plan → execute → baselines → judge faults → judge variations → confirm proofs → write. */
export async function runSelftest(o: SelftestOptions = {}): Promise<Matrix> {
  const root = resolve(o.root ?? process.cwd());
  const outDir = resolve(o.outDir ?? join(root, 'reports/out/selftest'));
  const workers = o.workers ?? selftestSettings().workers;
  // A bound against a hung run, not a speed goal: about twice what the whole matrix takes
  // on a loaded 2-core machine (bench:gate gives today's figure), before giving up.
  // The fuzz column runs one fuzz test per entry (tens of seconds each): a longer bound.
  const timeoutMs = o.timeoutMs ?? (selftestSettings().timeoutMinutes ?? (o.fuzzOnly ? 90 : 30)) * 60_000;
  const log = o.log ?? ((l: string) => console.log(l));
  const trace = loadTrace();
  const plan = planSelftest(o, CATALOG, trace);
  const workRoot = join(outDir, 'runs');
  rmSync(workRoot, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  const started = performance.now();
  const loadAverageAtStart = loadavg();
  const common: Omit<ExecuteOptions, 'workDir' | 'withClean'> = {
    root,
    workers,
    timeoutMs,
    env: plan.env,
    log,
    ...(plan.cleanGrep ? { cleanGrep: plan.cleanGrep } : {}),
  };

  const ex1 = await execute(plan.phase1, { ...common, workDir: join(workRoot, 'phase1'), withClean: true, properties: plan.properties });
  const baselines = baselinesOf(ex1);
  const faultRows = judgeFaults(plan.faults, ex1, baselines);
  const variations = await judgeVariations(
    plan,
    ex1,
    baselines,
    (units) => execute(units, { ...common, workDir: join(workRoot, 'phase2'), withClean: false }),
    log,
  );

  // Rows in the catalogue's order, as planned.
  const byName = new Map([...faultRows.map((r) => [r.name, r] as const), ...variations.rows]);
  const rows = CATALOG.filter((e) => byName.has(e.name)).map((e) => byName.get(e.name)!);
  const matrix = buildMatrix(rows, performance.now() - started, workers, new Date(), baselines.result);
  if (variations.joint) matrix.joint = variations.joint;
  if (!o.fuzzOnly) matrix.traceProofs = confirmTraceProofs(matrix.rows, trace);
  matrix.machine = { cpus: availableParallelism(), loadAverageAtStart, loadAverageAtEnd: loadavg() };
  writeMatrix(matrix, outDir, { fuzzColumn: o.fuzzOnly });
  return matrix;
}

/**
 * The fuzz column (proof/fuzz.ts) on the same pipeline: every entry a scenario can
 * notice runs the fuzz project alone (tag @fuzz), the clean baseline too; writes fuzz.md and
 * fuzz.json next to the matrix (per check: faults caught, and caught by it alone).
 */
export function runFuzzColumn(o: Omit<SelftestOptions, 'fuzzOnly'> = {}): Promise<Matrix> {
  return runSelftest({ ...o, fuzzOnly: true });
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('proof/selftest.ts');
if (isMain) {
  const settings = selftestSettings();
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      kind: { type: 'string' },
      quick: { type: 'boolean', default: false },
      workers: { type: 'string', default: String(settings.workers) },
      out: { type: 'string' },
      'separate-variations': { type: 'boolean', default: false },
      'each-variation': { type: 'boolean', default: settings.eachVariation },
      'full-suites': { type: 'boolean', default: settings.fullSuites },
      'fuzz-only': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npm run selftest [-- --only name,name] [--kind fault|variation] [--quick] [--workers N] [--out dir]\n  [--separate-variations]  each variation on its own, no joint run\n  [--each-variation]       all variations together AND each on its own (also SVC_SELFTEST_EACH_VARIATION=1)\n  [--full-suites]          every fault on every check of its spec/trace.yaml rows, not only those the generated shown_by names (also SVC_SELFTEST_FULL_SUITES=1)\n  [--fuzz-only]            the fuzz column: the fuzz project alone per entry (writes fuzz.md, fuzz.json)',
    );
    process.exit(0);
  }
  if (values.kind && values.kind !== 'fault' && values.kind !== 'variation') {
    console.error(`--kind must be fault or variation, got "${values.kind}"`);
    process.exit(2);
  }
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) {
    console.error(`--workers must be a positive integer, got "${values.workers}"`);
    process.exit(2);
  }
  runSelftest({
    only: values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    kind: values.kind as 'fault' | 'variation' | undefined,
    quick: values.quick,
    workers,
    outDir: values.out,
    separateVariations: values['separate-variations'],
    eachVariation: values['each-variation'],
    fullSuites: values['full-suites'],
    fuzzOnly: values['fuzz-only'],
  }).then(
    (m) => {
      console.log(`\n${renderConsole(m)}`);
      console.log(`matrix: ${join(values.out ?? 'reports/out/selftest', 'matrix.md')}, matrix.json`);
      if (values['fuzz-only'])
        console.log(`\n${renderFuzzColumn(fuzzColumn(m.rows), m)}\nfuzz column: ${join(values.out ?? 'reports/out/selftest', 'fuzz.md')}, fuzz.json`);
      process.exit(matrixPasses(m) ? 0 : 1);
    },
    (e) => {
      console.error(`selftest: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
