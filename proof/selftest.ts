/**
 * npm run selftest — the fault-detection matrix (DESIGN.md, "Proving the suite").
 *
 * Runs the suites an entry can affect (its `suites` tags) against the simulator once
 * per fault and once per variation of targets/simulator/catalog.ts, and prints which
 * checks caught each fault or "SURVIVED", and "passed" or the false alarm for each
 * variation. Writes reports/out/selftest/matrix.json and matrix.md. Exit 1 when a
 * fault survives, a variation alarms, a run breaks or the clean baseline fails.
 *
 *   npm run selftest [-- --only name,name] [--kind fault|variation] [--quick]
 *                    [--workers 3] [--separate-variations] [--each-variation] [--out reports/out/selftest]
 *
 * How (goal: the whole matrix in at most 120 s on a quiet 2-core machine, so it runs in every `npm test`):
 *   - ONE Playwright invocation for every scenario entry: the plan (proof/plan.ts,
 *     scenarios/selftest-project.ts) lists the entries plus `clean`, the baseline with
 *     nothing in force; the scenarios' fixtures declare each scenario once per entry that
 *     selects it (scenarios/fixtures/selftest.ts), and each worker keeps one in-process
 *     simulator per entry, so the runner, the test files, the contract and the browser
 *     start once per worker, not once per entry.
 *   - Polling is bounded tightly (SVC_AGGREGATION_TIMEOUT_MS 1 s; the simulator settles
 *     an aggregation in 60 ms): a fault that makes a scenario wait forever fails it at
 *     that bound, which counts as caught, never as a broken run.
 *   - The baseline (`clean`, plus the fast-check `properties` project as it is) runs
 *     every scenario `npm run conformance` runs; a failure there fails the self-test, so
 *     `npm test` needs no separate conformance step.
 *   - A fault is caught only by scenarios that pass in `clean` and fail under it; a
 *     variation raises a false alarm only with a scenario that passes clean. The same
 *     baseline rule holds for the other suite kinds (delivery, load, upgrade):
 *     each kind an entry needs runs once clean too.
 *   - Every variation is in force together in one simulator (project `all-variations`):
 *     non-breaking changes must all pass everywhere, so the usual case costs one run.
 *     When that joint run fails, each variation runs on its own to name the one that
 *     alarms (--separate-variations always does so).
 *   - The other suite kinds keep their adapters (proof/adapters.ts) and run
 *     one at a time next to the Playwright run (two cores: Playwright's workers plus
 *     one side lane).
 *
 * --quick (npm run selftest:quick): variations run only the @smoke/@readonly scenarios
 * instead of every suite; faults run exactly as in the full matrix.
 */
import { playwrightTest, runProcess } from '../load/process.ts';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG, selftestSettings, type CatalogEntry } from '../targets/index.ts';
import { ADAPTERS, type RunContext, type SideKind } from './adapters.ts';
import { buildMatrix, matrixPasses, renderConsole, renderMarkdown, rowOf, type BaselineResult, type JointResult, type MatrixRow, type RunOutcome } from './matrix.ts';
import { CLEAN_PROJECT, PROPERTIES_PROJECT, grepFor, grepSelects, mergeRuns, planEntry, selftestEntryFor, type PlannedEntry, type PlaywrightPlan, type SuiteRun } from './plan.ts';
import { testsOf, type PwReport, type SuiteTest } from './run-suite.ts';
import { confirmProofs } from './trace-proof.ts';
import { loadTrace, type TraceRow } from '../spec/trace.ts';
import { FUZZ_TAG, fuzzable, fuzzColumn, fuzzPlan, renderFuzzColumn } from './fuzz.ts';

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
  /** Every fault on its whole `suites`, not only on the scenarios its trace rows name (the nightly's thorough run). */
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
  /**
   * The fuzz column (proof/fuzz.ts): every entry a scenario can notice
   * runs the fuzz project alone (tag @fuzz), the clean baseline too; writes fuzz.md and
   * fuzz.json next to the matrix (per check: faults caught, and caught by it alone).
   */
  fuzzOnly?: boolean;
}

/** The self-test's polling bound: far above the simulator's 60 ms aggregation, far below a real target's. */
export const SELFTEST_AGGREGATION_TIMEOUT_MS = 1_000;
export const SELFTEST_POLL_INTERVAL_MS = 20;
/** Per-scenario bound inside the self-test (browser waits included). */
export const SELFTEST_TEST_TIMEOUT_MS = 15_000;

const QUICK_TAGS = ['@smoke', '@readonly'];

function quickPlan(p: PlannedEntry): PlannedEntry {
  if (p.entry.kind !== 'variation') return p;
  return { ...p, runs: [{ kind: 'playwright', selectors: QUICK_TAGS, all: false }] };
}

const namesOf = (entry: CatalogEntry | undefined) => ({
  faults: entry?.kind === 'fault' ? [entry.name] : [],
  variations: entry?.kind === 'variation' ? [entry.name] : [],
});

/** A test's identity across projects: `file > title path`, without the `[project]` prefix. */
const testKey = (t: SuiteTest) => t.name.replace(/^\[[^\]]*\] /, '');

interface PlaywrightRunResult {
  tests: SuiteTest[];
  error?: string;
  durationMs: number;
}

/** The single Playwright invocation: JSON report read from a file, failures mapped to projects by name. */
async function runPlaywrightPlan(root: string, workDir: string, plan: Omit<PlaywrightPlan, 'reportFile' | 'outputDir'>, o: { timeoutMs: number; env?: Record<string, string> }): Promise<PlaywrightRunResult> {
  const full: PlaywrightPlan = { ...plan, reportFile: join(workDir, 'playwright-report.json'), outputDir: join(workDir, 'playwright-results') };
  const planFile = join(workDir, 'playwright-plan.json');
  writeFileSync(planFile, JSON.stringify(full, null, 2));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    FORCE_COLOR: '0',
    SVC_SELFTEST_PLAN: planFile,
    SVC_AGGREGATION_TIMEOUT_MS: String(SELFTEST_AGGREGATION_TIMEOUT_MS),
    SVC_POLL_INTERVAL_MS: String(SELFTEST_POLL_INTERVAL_MS),
    SVC_HTTP_TIMING_DIR: join(workDir, 'http-timing'),
  };
  delete env.SVC_BASE_URL; // the self-test is about the simulator, never a real target
  delete env.SVC_SIMULATOR_URL;
  delete env.SVC_SIM_FAULTS;
  delete env.SVC_SIM_VARIATIONS;
  delete env.CI; // forbidOnly is not what the self-test is about
  const started = performance.now();
  const pw = playwrightTest([], env, root, join(root, 'playwright.config.ts'));
  const { code, stderr, timedOut } = await runProcess(pw.command, pw.args, { cwd: root, env: pw.env, timeoutMs: o.timeoutMs, captureStdout: false, stderrTailBytes: 4000 });
  const durationMs = performance.now() - started;
  if (timedOut) return { tests: [], durationMs, error: `Playwright run timed out after ${o.timeoutMs} ms` };
  if (!existsSync(full.reportFile)) return { tests: [], durationMs, error: `Playwright wrote no JSON report (exit ${code}): ${stderr.trim().slice(-800)}` };
  const report = JSON.parse(readFileSync(full.reportFile, 'utf8')) as PwReport;
  const globalErrors = (report.errors ?? []).map((e) => (e.message ?? '').replace(/\x1b\[[0-9;]*m/g, '')).filter(Boolean);
  return { tests: testsOf(report), durationMs, ...(globalErrors.length ? { error: globalErrors.join('\n').slice(0, 1500) } : {}) };
}

/** One Playwright project's outcome, with the failures the clean project shares removed. */
function playwrightOutcome(project: string, run: PlaywrightRunResult, cleanPassed: Set<string>): RunOutcome {
  const mine = run.tests.filter((t) => t.name.startsWith(`[${project}] `));
  // A variation's scenario that passed on its retry (flaky) is no alarm; a fault's scenarios are never retried.
  const failed = mine.filter((t) => t.status === 'failed');
  return {
    kind: 'playwright',
    executed: mine.filter((t) => t.status !== 'skipped').length,
    // Only a scenario that passes clean can catch a fault or raise an alarm.
    failed: failed.filter((t) => cleanPassed.has(testKey(t))).map((t) => `${testKey(t)}${t.error ? ` — ${t.error.split('\n')[0].slice(0, 160)}` : ''}`),
    durationMs: mine.reduce((n, t) => n + (t.durationMs ?? 0), 0),
    ...(run.error ? { error: run.error } : {}),
  };
}

/** Runs `items` `width` at a time. */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

/**
 * What one simulator has in force during the matrix: one fault, one variation, or
 * every variation together (see runSelftest), with the suite runs that can notice it.
 */
interface Unit {
  name: string;
  faults: string[];
  variations: string[];
  runs: SuiteRun[];
  /** Only these scenario titles (within the unit's tags). */
  onlyTitles?: string[];
  /** The entry's profile environment (CatalogEntry.env), for every suite kind it runs. */
  env?: Record<string, string>;
}

const unitOf = (p: PlannedEntry): Unit => ({ name: p.entry.name, ...namesOf(p.entry), runs: p.runs, ...(p.entry.env ? { env: p.entry.env } : {}) });

/**
 * The scenarios spec/trace.yaml names for each fault: the `verified_by` scenarios of every
 * row whose `proven_by` lists it (each verified row names the scenario and the
 * catalogue fault that proves it). By default a fault runs only those (for the self-test's
 * speed): the run proves exactly what the trace claims, and a fault the named scenarios
 * miss SURVIVES, so the trace is corrected rather than the gate weakened. Faults no row
 * names run on their whole `suites`, as do all of them with --full-suites.
 */
export const provingScenarioTitles = (rows: readonly TraceRow[]) => provingNames(rows, (v) => (v.startsWith('scenarios/') ? v.split(' > ').at(-1)! : undefined));

/**
 * Fault -> the names `nameOf` reads from the `verified_by` entries of every row whose
 * `proven_by` lists the fault (only its `shown_by` entries for that fault, when it has some).
 */
function provingNames(rows: readonly TraceRow[], nameOf: (verifiedBy: string) => string | undefined): Map<string, string[]> {
  const names = new Map<string, Set<string>>();
  for (const row of rows) {
    const namedIn = (entries: readonly string[]) => entries.map(nameOf).filter((x): x is string => !!x);
    if (namedIn(row.verified_by).length === 0) continue;
    for (const fault of row.proven_by) {
      const set = names.get(fault) ?? new Set<string>();
      // Where the row says which of its checks show this fault (shown_by), only those.
      for (const n of namedIn(row.shown_by?.[fault] ?? row.verified_by)) set.add(n);
      names.set(fault, set);
    }
  }
  return new Map([...names].map(([fault, set]) => [fault, [...set]]));
}

/**
 * The delivery scenarios spec/trace.yaml names for each fault (`delivery: <scenario> (...)`
 * in `verified_by` of a row whose `proven_by` lists it): the same rule as for the
 * Playwright scenarios, for the delivery side run.
 */
export const provingDeliveryScenarios = (rows: readonly TraceRow[]) => provingNames(rows, (v) => /^delivery: ([a-z0-9-]+)/.exec(v)?.[1]);

/**
 * A fault's unit narrowed to what its trace rows name: the Playwright scenarios (any
 * tag) and the delivery scenarios. Other side runs are unchanged.
 */
function narrowedToProofs(u: Unit, titles: readonly string[] | undefined, deliveryScenarios: readonly string[] | undefined, namedByTrace = false): Unit {
  let out = u;
  // A fault the trace names only through side checks (a delivery scenario, say): its
  // Playwright copies prove nothing the trace claims, so they do not run (as long as a side run is left).
  if (namedByTrace && !titles?.length && u.runs.some((r) => r.kind === 'playwright') && u.runs.some((r) => r.kind !== 'playwright')) {
    out = { ...out, runs: out.runs.filter((r) => r.kind !== 'playwright') };
  }
  if (titles?.length && u.runs.some((r) => r.kind === 'playwright')) {
    out = { ...out, runs: out.runs.map((r) => (r.kind === 'playwright' ? { kind: 'playwright', selectors: [], all: true } : r)), onlyTitles: [...titles] };
  }
  if (deliveryScenarios?.length && u.runs.some((r) => r.kind === 'delivery')) {
    out = { ...out, runs: out.runs.map((r) => (r.kind === 'delivery' ? { kind: 'delivery', selectors: [...deliveryScenarios], all: false } : r)) };
  }
  return out;
}

/** The baseline of the entries that run with a profile env (inferred faults): `clean` with the union of their env. */
export const CLEAN_STRICT_PROJECT = 'clean-strict';
/** Phase 2's control: nothing in force, only the scenarios a variation run failed, in the same invocation. */
export const CONTROL_PROJECT = 'clean-control';
/** Phase 2's second look at scenarios that failed with every variation together. */
export const JOINT_RERUN_PROJECT = 'all-variations-again';

/** Side runs (everything but the single Playwright invocation) of a unit. */
function sideRunsOf(unit: Unit): SuiteRun[] {
  return unit.runs.filter((r) => r.kind !== 'playwright');
}

/** Removes failures the clean baseline of the same suite kind shows. */
function againstBaseline(o: RunOutcome, clean: RunOutcome | undefined): RunOutcome {
  if (!clean) return o;
  const cleanFailed = new Set(clean.failed);
  return { ...o, failed: o.failed.filter((f) => !cleanFailed.has(f)) };
}

interface Execution {
  pw: PlaywrightRunResult;
  /** Per unit name: its side outcomes. */
  side: Map<string, RunOutcome[]>;
  /** Per suite kind: the clean baseline run (phase 1 only). */
  sideClean: Map<string, RunOutcome>;
}

interface ExecuteOptions {
  root: string;
  workDir: string;
  workers: number;
  timeoutMs: number;
  env?: Record<string, string>;
  log: (line: string) => void;
  /** Also run the clean baselines (Playwright project `clean`, one side run per kind). */
  withClean: boolean;
  /** With the clean baseline, the properties project too (see PlaywrightPlan.properties). */
  properties?: boolean;
  /** The clean baseline's grep (fuzz column: the fuzz project only); absent: every scenario. */
  cleanGrep?: string;
}

/**
 * One Playwright invocation for every unit's scenarios (plus `clean`), and next to it
 * the side runs one at a time. A variation-only side run that fails is run once more
 * and only failures that repeat count (the Playwright projects of variations retry the
 * same way): timing-sensitive delivery and load checks on a loaded machine must not
 * turn into false alarms.
 */
async function execute(units: Unit[], o: ExecuteOptions): Promise<Execution> {
  mkdirSync(o.workDir, { recursive: true });
  const unitEntries = units.map((u) => selftestEntryFor(u.name, u.faults, u.variations, u.runs, u.onlyTitles, u.env)).filter((e) => e !== undefined);
  // The baseline of units with a profile env: the same scenarios clean, with that env (an
  // inferred fault is caught only by a scenario that passes clean under SVC_STRICT=1).
  const envUnits = units.filter((u) => u.env && Object.keys(u.env).length);
  const strictGreps = envUnits.map((u) => selftestEntryFor(u.name, [], [], u.runs, u.onlyTitles)?.grep);
  const cleanStrict = o.withClean && envUnits.length
    ? [{ name: CLEAN_STRICT_PROJECT, faults: [], variations: [], env: Object.assign({}, ...envUnits.map((u) => u.env)) as Record<string, string>, ...(strictGreps.every((g) => g !== undefined) ? { grep: `(${strictGreps.join('|')})` } : {}) }]
    : [];
  const entries = [...(o.withClean ? [{ name: CLEAN_PROJECT, faults: [], variations: [], ...(o.cleanGrep ? { grep: o.cleanGrep } : {}) }] : []), ...cleanStrict, ...unitEntries];
  const withProperties = !!(o.withClean && o.properties);

  interface SideJob { unit?: Unit; run: SuiteRun }
  const jobs: SideJob[] = units.flatMap((unit) => sideRunsOf(unit).map((run) => ({ unit, run })));
  // Clean baselines: per kind, the union of what the units run (a broader baseline covers a narrower run: failures are compared by name).
  const baselines = o.withClean ? mergeRuns(jobs.map((j) => [j.run])) : [];
  const sideJobs: SideJob[] = [...baselines.map((run) => ({ run })), ...jobs];
  // scenarios/properties/delivery.spec.ts runs every delivery scenario against a clean
  // in-process simulator, which is exactly the clean delivery baseline when that covers
  // every scenario (the delivery adapter, proof/adapters.ts): the properties project leaves
  // the file out then, instead of running the 12 scenarios twice.
  const deliveryBaselineCoversAll = baselines.some((r) => r.kind === 'delivery' && (r.all || r.selectors.length === 0));
  const propertiesIgnore = deliveryBaselineCoversAll ? ['**/delivery.spec.ts'] : [];
  o.log(`selftest: Playwright ${entries.length} entries${withProperties ? ' and the properties project' : ''} (${o.workers} workers), ${sideJobs.length} side runs${baselines.length ? ` (${baselines.length} clean baselines)` : ''}`);

  const pwPromise = entries.length || withProperties
    ? runPlaywrightPlan(o.root, o.workDir, { workers: o.workers, testTimeoutMs: SELFTEST_TEST_TIMEOUT_MS, entries, properties: withProperties, propertiesIgnore }, { timeoutMs: o.timeoutMs, env: o.env }).then((r) => {
        o.log(`playwright: ${r.tests.length} scenario runs in ${(r.durationMs / 1000).toFixed(1)} s${r.error ? ` — ERROR ${r.error.split('\n')[0]}` : ''}`);
        return r;
      })
    : Promise.resolve<PlaywrightRunResult>({ tests: [], durationMs: 0 });
  let done = 0;
  const outcomes = await pool(sideJobs, 1, async (job) => {
    const label = job.unit?.name ?? CLEAN_PROJECT;
    const index = sideJobs.indexOf(job);
    const ctx = (attempt: number): RunContext => {
      const workDir = join(o.workDir, `${label}-${job.run.kind}-${index}${attempt ? `-retry${attempt}` : ''}`);
      mkdirSync(workDir, { recursive: true });
      return { root: o.root, workDir, faults: job.unit?.faults ?? [], variations: job.unit?.variations ?? [], workers: 1, timeoutMs: Math.min(o.timeoutMs, 180_000), env: { ...o.env, ...job.unit?.env } };
    };
    let outcome = await ADAPTERS[job.run.kind as SideKind](job.run, ctx(0));
    const variationOnly = !job.unit || job.unit.faults.length === 0;
    if (variationOnly && outcome.failed.length) {
      const again = await ADAPTERS[job.run.kind as SideKind](job.run, ctx(1));
      const repeated = new Set(again.failed);
      outcome = { ...outcome, failed: outcome.failed.filter((f) => repeated.has(f)), durationMs: outcome.durationMs + again.durationMs };
    }
    done++;
    o.log(`[side ${String(done).padStart(2)}/${sideJobs.length}] ${job.run.kind.padEnd(8)} ${label}: ${outcome.executed} ran, ${outcome.failed.length} failed${outcome.error ? `, ERROR ${outcome.error.slice(0, 160)}` : ''} (${(outcome.durationMs / 1000).toFixed(1)} s)`);
    return outcome;
  });
  const pw = await pwPromise;
  const side = new Map<string, RunOutcome[]>();
  const sideClean = new Map<string, RunOutcome>();
  sideJobs.forEach((job, i) => {
    if (!job.unit) sideClean.set(job.run.kind, outcomes[i]);
    else side.set(job.unit.name, [...(side.get(job.unit.name) ?? []), outcomes[i]]);
  });
  return { pw, side, sideClean };
}

/** A unit's outcomes: its Playwright project's and its side runs', each against its clean baseline. */
function outcomesOf(unit: Unit, ex: Execution, cleanPassed: Set<string>, sideClean: Map<string, RunOutcome>): RunOutcome[] {
  const out: RunOutcome[] = [];
  if (selftestEntryFor(unit.name, unit.faults, unit.variations, unit.runs, unit.onlyTitles)) out.push(playwrightOutcome(unit.name, ex.pw, cleanPassed));
  for (const o of ex.side.get(unit.name) ?? []) out.push(againstBaseline(o, sideClean.get(o.kind)));
  return out;
}

/** The name of the unit that has every variation in force at once. */
export const ALL_VARIATIONS_UNIT = 'all-variations';

export async function runSelftest(o: SelftestOptions = {}) {
  const root = resolve(o.root ?? process.cwd());
  const outDir = resolve(o.outDir ?? join(root, 'reports/out/selftest'));
  const workers = o.workers ?? selftestSettings().workers;
  // A bound against a hung run, not a speed goal: the whole matrix (229 faults, 47 variations)
  // took 855 s of Playwright time on a 2-core machine at load 6; twice that before giving up.
  // The fuzz column runs one fuzz test per entry (tens of seconds each): a longer bound.
  const timeoutMs = o.timeoutMs ?? (selftestSettings().timeoutMinutes ?? (o.fuzzOnly ? 90 : 30)) * 60_000;
  const log = o.log ?? ((l: string) => console.log(l));
  let entries: readonly CatalogEntry[] = CATALOG;
  if (o.only?.length) {
    const unknown = o.only.filter((n) => !CATALOG.some((e) => e.name === n));
    if (unknown.length) throw new Error(`--only names unknown catalogue entries: ${unknown.join(', ')}`);
    entries = entries.filter((e) => o.only!.includes(e.name));
  }
  if (o.kind) entries = entries.filter((e) => e.kind === o.kind);
  if (o.fuzzOnly) entries = entries.filter(fuzzable);
  const plans = entries.map(planEntry).map((p) => (o.fuzzOnly ? fuzzPlan(p) : o.quick ? quickPlan(p) : p));
  const workRoot = join(outDir, 'runs');
  rmSync(workRoot, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  const started = performance.now();
  const loadAverageAtStart = loadavg();
  // The fuzz column: fixed seed and short bounds per entry unless the caller set them (a fault's catch must replay).
  // Elsewhere the fuzz test runs in the clean and all-variations baselines only, to show it
  // raises no false alarm: a fixed seed and a count bound (3 cases per operation and
  // version, every documented operation exercised: about 2000 cases) make that gate the same
  // on every run and machine; a time bound would cut it wherever the machine is slow. The
  // fuzz project's own run (`npx playwright test --project fuzz`) keeps its wider defaults.
  // Pacing: every worker has a simulator of its own per entry (scenarios/fixtures/selftest.ts)
  // that serves one test at a time, so the fuzz test may take 0.9 of the request limit, not
  // the 0.5 it leaves other workers on a shared target: the same cases, 2007 in about 9.5 s
  // instead of 15 s.
  const fuzzBounds = { SVC_FUZZ_RATE_SHARE: '0.9', ...(o.fuzzOnly ? { SVC_FUZZ_SEED: '1', SVC_FUZZ_RUNS: '6', SVC_FUZZ_SECONDS: '15' } : { SVC_FUZZ_SEED: '1', SVC_FUZZ_RUNS: '3', SVC_FUZZ_SECONDS: '120' }) };
  const env = { ...fuzzBounds, ...pick(process.env, ['SVC_FUZZ_SEED', 'SVC_FUZZ_RUNS', 'SVC_FUZZ_SECONDS', 'SVC_FUZZ_RATE_SHARE']), ...o.env };
  const common = { root, workers, timeoutMs, env, log, ...(o.fuzzOnly ? { cleanGrep: grepFor([FUZZ_TAG]) } : {}) };

  // Phase 1: clean, every fault on its own, and every variation together in one
  // simulator. Variations are non-breaking changes that must all pass everywhere, so the
  // common case (none alarms) costs one run, not one per variation. With --each-variation
  // each variation also runs on its own (its declared suites) in the same invocation.
  // When the joint run fails, phase 2 names the variation behind it (see below).
  const faultPlans = plans.filter((p) => p.entry.kind === 'fault');
  const variationPlans = plans.filter((p) => p.entry.kind === 'variation');
  const together = !o.separateVariations && variationPlans.length > 1;
  const eachAlone = !together || !!o.eachVariation;
  const allVariations: Unit | undefined = together
    ? { name: ALL_VARIATIONS_UNIT, faults: [], variations: variationPlans.map((p) => p.entry.name), runs: mergeRuns(variationPlans.map((p) => p.runs)) }
    : undefined;
  const trace = o.fullSuites || o.fuzzOnly ? [] : loadTrace();
  const proving = provingScenarioTitles(trace);
  const provingDelivery = provingDeliveryScenarios(trace);
  const namedByTrace = new Set(trace.flatMap((row) => (row.verified_by.length ? row.proven_by : [])));
  const faultUnit = (p: PlannedEntry) => narrowedToProofs(unitOf(p), proving.get(p.entry.name), provingDelivery.get(p.entry.name), namedByTrace.has(p.entry.name));
  const phase1Units = [...faultPlans.map(faultUnit), ...(allVariations ? [allVariations] : []), ...(eachAlone ? variationPlans.map(unitOf) : [])];
  const ex1 = await execute(phase1Units, { ...common, workDir: join(workRoot, 'phase1'), withClean: true, properties: o.fuzzOnly ? false : o.properties ?? !o.only?.length });

  // The baselines (the properties project has no entries: it is baseline only).
  const inProject = (t: SuiteTest, project: string) => t.name.startsWith(`[${project}] `);
  const clean = ex1.pw.tests.filter((t) => inProject(t, CLEAN_PROJECT) || inProject(t, PROPERTIES_PROJECT));
  const strictClean = ex1.pw.tests.filter((t) => inProject(t, CLEAN_STRICT_PROJECT));
  // A scenario that needed its retry clean (flaky) proves nothing: it can neither catch nor alarm.
  const cleanPassed = new Set(clean.filter((t) => t.status === 'passed').map(testKey));
  const strictPassed = new Set(strictClean.filter((t) => t.status === 'passed').map(testKey));
  const cleanFlaky = [...clean, ...strictClean].filter((t) => t.status === 'flaky').map((t) => `${inProject(t, CLEAN_STRICT_PROJECT) ? `[${CLEAN_STRICT_PROJECT}] ` : ''}${testKey(t)}`);
  const failedLine = (t: SuiteTest) => `${testKey(t)}${t.error ? ` — ${t.error.split('\n')[0].slice(0, 160)}` : ''}`;
  const baseline: BaselineResult = {
    executed: clean.filter((t) => t.status !== 'skipped').length + strictClean.filter((t) => t.status !== 'skipped').length + [...ex1.sideClean.values()].reduce((n, r) => n + r.executed, 0),
    flaky: cleanFlaky,
    failed: [
      ...clean.filter((t) => t.status === 'failed').map(failedLine),
      // Clean with the inferred tier gating (SVC_STRICT=1, header names set): the simulator must meet it too.
      ...strictClean.filter((t) => t.status === 'failed').map((t) => `[${CLEAN_STRICT_PROJECT}] ${failedLine(t)}`),
      ...[...ex1.sideClean.values()].flatMap((r) => r.failed),
    ],
    errors: [...(ex1.pw.error ? [`playwright: ${ex1.pw.error}`] : []), ...[...ex1.sideClean.entries()].filter(([, r]) => r.error).map(([k, r]) => `${k}: ${r.error}`)],
  };
  /** The clean scenarios a unit's failures are compared with: the strict baseline for a unit with a profile env. */
  const baselineOf = (u: Unit) => (u.env && Object.keys(u.env).length ? strictPassed : cleanPassed);

  const rowsByName = new Map<string, MatrixRow>();
  for (const p of faultPlans) {
    const u = faultUnit(p);
    rowsByName.set(p.entry.name, rowOf(p.entry, outcomesOf(u, ex1, baselineOf(u), ex1.sideClean)));
  }
  const aloneRows = new Map<string, MatrixRow>();
  if (eachAlone) for (const p of variationPlans) aloneRows.set(p.entry.name, rowOf(p.entry, outcomesOf(unitOf(p), ex1, cleanPassed, ex1.sideClean)));
  let joint: JointResult | undefined;
  if (allVariations) {
    const jointOutcomes = outcomesOf(allVariations, ex1, cleanPassed, ex1.sideClean);
    const jointFailed = jointOutcomes.flatMap((x) => x.failed);
    const jointBroken = jointOutcomes.some((x) => x.error);
    joint = { variations: variationPlans.length, executed: jointOutcomes.reduce((n, x) => n + x.executed, 0), failed: jointFailed, alarms: [], flaky: [], errors: jointOutcomes.filter((x) => x.error).map((x) => `${x.kind}: ${x.error}`) };
    /** A variation's own Playwright grep (its declared suites). */
    const grepOf = (p: PlannedEntry) => selftestEntryFor(p.entry.name, [], [p.entry.name], p.runs)?.grep;
    const jointTests = ex1.pw.tests.filter((t) => inProject(t, ALL_VARIATIONS_UNIT));
    /** The joint run seen through one variation's suites: only the scenarios its grep selects. */
    const jointThrough = (p: PlannedEntry, drop: Set<string>): RunOutcome[] =>
      jointOutcomes
        .filter((x) => p.runs.some((r) => r.kind === x.kind))
        .map((x) => {
          if (x.kind !== 'playwright') return x;
          const mine = jointTests.filter((t) => grepSelects(grepOf(p), t) && t.status !== 'skipped');
          return { ...x, executed: mine.length, failed: x.failed.filter((f) => !drop.has(f.split(' — ')[0])) };
        });
    if (!jointFailed.length && !jointBroken) {
      for (const p of variationPlans) {
        const row = aloneRows.get(p.entry.name) ?? rowOf(p.entry, jointThrough(p, new Set()));
        rowsByName.set(p.entry.name, { ...row, note: `passed with all ${variationPlans.length} variations in force together${aloneRows.has(p.entry.name) ? ' and on its own' : ''}` });
      }
    } else {
      log(`all variations together: ${jointFailed.length} failure(s)${jointBroken ? ', a broken run' : ''} (${[...jointFailed, ...joint.errors].slice(0, 3).join('; ').slice(0, 400)}); naming the variation behind them`);
      // Phase 2 names the variation behind what the joint run saw, in one invocation:
      //  - each variation whose declared suites select a failed scenario runs alone on
      //    those scenarios (one that selects none cannot be the cause: its row is the joint
      //    run through its suites, never "nothing ran");
      //  - `clean-control` runs the same scenarios with nothing in force: a scenario that
      //    fails there too (or passes only on its retry) is a flaky scenario, not an alarm;
      //  - `all-variations-again` runs them once more together: a failure no variation
      //    reproduces alone but that repeats together is an interaction alarm (gating).
      // Other suite kinds that failed or broke run again per variation, as before.
      const failedKinds = new Set(jointOutcomes.filter((x) => x.failed.length || x.error).map((x) => x.kind));
      // With every variation already run alone (--each-variation), a joint failure one of
      // them reproduced is explained: only the others need a second look.
      const explained = new Set([...aloneRows.values()].flatMap((r) => r.failed.map((f) => f.split(' — ')[0])));
      const failedTests = jointTests.filter((t) => t.status === 'failed' && cleanPassed.has(testKey(t)) && !explained.has(testKey(t)));
      const titlesOf = (tests: SuiteTest[]) => [...new Set(tests.map((t) => t.title))];
      const pwAll: SuiteRun = { kind: 'playwright', selectors: [], all: true };
      const units: Unit[] = [];
      const candidates = new Map<string, SuiteTest[]>();
      for (const p of variationPlans) {
        const mine = ex1.pw.error ? failedTests : failedTests.filter((t) => grepSelects(grepOf(p), t));
        const runs = p.runs.filter((r) => failedKinds.has(r.kind) && (r.kind !== 'playwright' || mine.length > 0 || ex1.pw.error));
        if (mine.length) candidates.set(p.entry.name, mine);
        if (runs.length && !aloneRows.has(p.entry.name)) units.push({ ...unitOf(p), runs, onlyTitles: ex1.pw.error ? undefined : titlesOf(mine) });
      }
      if (failedTests.length && !ex1.pw.error) {
        units.push({ name: CONTROL_PROJECT, faults: [], variations: [], runs: [pwAll], onlyTitles: titlesOf(failedTests) });
        units.push({ ...allVariations, name: JOINT_RERUN_PROJECT, runs: [pwAll], onlyTitles: titlesOf(failedTests) });
      }
      const ex2 = units.length ? await execute(units, { ...common, workDir: join(workRoot, 'phase2'), withClean: false }) : { pw: { tests: [], durationMs: 0 }, side: new Map<string, RunOutcome[]>(), sideClean: new Map<string, RunOutcome>() };
      const controlOf = new Map(ex2.pw.tests.filter((t) => inProject(t, CONTROL_PROJECT)).map((t) => [testKey(t), t.status]));
      // Attributable only when the control passed the scenario at its first attempt.
      const attributable = new Set([...controlOf].filter(([, st]) => st === 'passed').map(([k]) => k));
      const flakyKeys = failedTests.map(testKey).filter((k) => controlOf.has(k) && !attributable.has(k));
      const reproduced = new Set<string>();
      for (const p of variationPlans) {
        const unit = units.find((u) => u.name === p.entry.name);
        const alone = aloneRows.get(p.entry.name);
        if (alone) {
          for (const f of alone.failed) reproduced.add(f.split(' — ')[0]);
          rowsByName.set(p.entry.name, alone);
          continue;
        }
        const unchanged = jointOutcomes.filter((x) => p.runs.some((r) => r.kind === x.kind) && !(unit?.runs.some((r) => r.kind === x.kind)));
        // The joint Playwright outcome through this variation's suites, without the failures it is now judged on alone.
        const throughJoint = jointThrough(p, new Set(failedTests.map(testKey))).filter((x) => unchanged.includes(x) || x.kind === 'playwright');
        const own = unit ? outcomesOf(unit, ex2, controlOf.size ? attributable : cleanPassed, ex1.sideClean) : [];
        for (const o of own) for (const f of o.failed) reproduced.add(f.split(' — ')[0]);
        const merged = [...throughJoint.filter((x) => x.kind !== 'playwright' || !own.some((o) => o.kind === 'playwright')), ...own];
        const row = rowOf(p.entry, merged.length ? merged : throughJoint);
        const note = candidates.has(p.entry.name) ? 'run alone on the scenarios that failed with all variations together' : 'the failures with all variations together lie outside its suites';
        rowsByName.set(p.entry.name, { ...row, note });
      }
      const again = new Map(ex2.pw.tests.filter((t) => inProject(t, JOINT_RERUN_PROJECT)).map((t) => [testKey(t), t.status]));
      for (const t of failedTests) {
        const k = testKey(t);
        if (reproduced.has(k)) continue;
        if (flakyKeys.includes(k) || again.get(k) !== 'failed') joint.flaky.push(`${k} (failed with all variations together; ${flakyKeys.includes(k) ? 'fails clean too' : 'passed when run again'})`);
        else joint.alarms.push(`${k} — fails only with all variations together (no variation alone), and again on a second run`);
      }
      // Side kinds: a joint failure that no variation reproduced alone is reported as an interaction alarm.
      for (const o of jointOutcomes.filter((x) => x.kind !== 'playwright')) {
        for (const f of o.failed) if (!variationPlans.some((p) => rowsByName.get(p.entry.name)?.failed.includes(f))) joint.alarms.push(`${f} — fails only with all variations together`);
      }
    }
  }
  if (!allVariations) for (const [name, row] of aloneRows) rowsByName.set(name, row);
  const rows = plans.map((p) => rowsByName.get(p.entry.name)!);
  const matrix = buildMatrix(rows, performance.now() - started, workers, new Date(), baseline);
  if (joint) matrix.joint = joint;
  // Every trace row's proof names a check its catalogue entry makes fail. Not in
  // the fuzz column: it runs the fuzz project alone, never the scenarios the rows name.
  if (!o.fuzzOnly) {
    const proofs = confirmProofs(loadTrace(), rows);
    matrix.traceProofs = { confirmed: proofs.confirmed.length, broken: proofs.broken, notRun: proofs.notRun.length };
  }
  matrix.machine = { cpus: availableParallelism(), loadAverageAtStart, loadAverageAtEnd: loadavg() };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(outDir, 'matrix.md'), renderMarkdown(matrix));
  if (o.fuzzOnly) {
    const col = fuzzColumn(matrix.rows);
    writeFileSync(join(outDir, 'fuzz.json'), `${JSON.stringify(col, null, 2)}\n`);
    writeFileSync(join(outDir, 'fuzz.md'), renderFuzzColumn(col, matrix));
  }
  return matrix;
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
    console.log('npm run selftest [-- --only name,name] [--kind fault|variation] [--quick] [--workers N] [--out dir]\n  [--separate-variations]  each variation on its own, no joint run\n  [--each-variation]       all variations together AND each on its own (also SVC_SELFTEST_EACH_VARIATION=1)\n  [--full-suites]          every fault on its whole suites, not only the scenarios spec/trace.yaml names for it (also SVC_SELFTEST_FULL_SUITES=1)\n  [--fuzz-only]            the fuzz column: the fuzz project alone per entry (writes fuzz.md, fuzz.json)');
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
    only: values.only?.split(',').map((s) => s.trim()).filter(Boolean),
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
      if (values['fuzz-only']) console.log(`\n${renderFuzzColumn(fuzzColumn(m.rows), m)}\nfuzz column: ${join(values.out ?? 'reports/out/selftest', 'fuzz.md')}, fuzz.json`);
      process.exit(matrixPasses(m) ? 0 : 1);
    },
    (e) => {
      console.error(`selftest: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
