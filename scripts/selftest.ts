/**
 * npm run selftest — the fault-detection matrix (issue 8).
 *
 * Runs the suites an entry can affect (its `suites` tags) against the simulator once
 * per fault and once per variation of targets/simulator/catalog.ts, and prints which
 * checks caught each fault or "SURVIVED", and "passed" or the false alarm for each
 * variation. Writes reports/out/selftest/matrix.json and matrix.md. Exit 1 when a
 * fault survives, a variation alarms, a run breaks or the clean baseline fails.
 *
 *   npm run selftest [-- --only name,name] [--kind fault|variation] [--quick]
 *                    [--workers 2] [--separate-variations] [--out reports/out/selftest]
 *
 * How (the goal: the whole matrix in under 5 minutes on a 2-core machine):
 *   - ONE Playwright invocation for every scenario entry: the plan (reports/selftest/
 *     plan.ts) becomes one project per entry plus `clean`, the baseline with nothing in
 *     force (playwright.config.ts, SVC_SELFTEST_PLAN). Each worker builds its own
 *     in-process simulator with the project's entry (scenarios/fixtures.ts), so the
 *     runner, the test files and the browser start once per worker, not once per entry.
 *   - Polling is bounded tightly (SVC_AGGREGATION_TIMEOUT_MS 1 s; the simulator settles
 *     an aggregation in 60 ms): a fault that makes a scenario wait forever fails it at
 *     that bound, which counts as caught, never as a broken run.
 *   - The baseline (`clean`, plus the fast-check `properties` project as it is) runs
 *     every scenario `npm run conformance` runs; a failure there fails the self-test, so
 *     `npm test` needs no separate conformance step.
 *   - A fault is caught only by scenarios that pass in `clean` and fail under it; a
 *     variation raises a false alarm only with a scenario that passes clean. The same
 *     baseline rule holds for the other suite kinds (delivery, load, upgrade, unit):
 *     each kind an entry needs runs once clean too.
 *   - Every variation is in force together in one simulator (project `all-variations`):
 *     non-breaking changes must all pass everywhere, so the usual case costs one run.
 *     When that joint run fails, each variation runs on its own to name the one that
 *     alarms (--separate-variations always does so).
 *   - The other suite kinds keep their adapters (reports/selftest/adapters.ts) and run
 *     one at a time next to the Playwright run (two cores: Playwright's workers plus
 *     one side lane).
 *
 * --quick (npm run selftest:quick): variations run only the @smoke/@readonly scenarios
 * instead of every suite; faults run exactly as in the full matrix.
 */
import { runProcess } from './process.ts';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG, type CatalogEntry } from '../targets/simulator/catalog.ts';
import { ADAPTERS, type RunContext } from '../reports/selftest/adapters.ts';
import { buildMatrix, matrixPasses, renderConsole, renderMarkdown, rowOf, type BaselineResult, type MatrixRow, type RunOutcome } from '../reports/selftest/matrix.ts';
import { CLEAN_PROJECT, PROPERTIES_PROJECT, mergeRuns, planEntry, playwrightProjectFor, propertiesRunOf, type PlannedEntry, type PlaywrightPlan, type SuiteRun } from '../reports/selftest/plan.ts';
import { testsOf, type PwReport, type SuiteTest } from './run-suite.ts';

export interface SelftestOptions {
  root?: string;
  only?: string[];
  kind?: 'fault' | 'variation';
  quick?: boolean;
  /** Playwright workers (default 2: the reference machine's cores). */
  workers?: number;
  /** Kept for callers of the earlier interface: taken as `workers`. */
  concurrency?: number;
  /** Run every variation on its own even when all of them together pass (slower, no joint run). */
  separateVariations?: boolean;
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
  const { code, stderr, timedOut } = await runProcess(join(root, 'node_modules', '.bin', 'playwright'), ['test'], { cwd: root, env, timeoutMs: o.timeoutMs, captureStdout: false, stderrTailBytes: 4000 });
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
}

const unitOf = (p: PlannedEntry): Unit => ({ name: p.entry.name, ...namesOf(p.entry), runs: p.runs });

/** Side runs (everything but the single Playwright invocation) of a unit. */
function sideRunsOf(unit: Unit): SuiteRun[] {
  const runs = unit.runs.filter((r) => r.kind !== 'playwright');
  const props = propertiesRunOf(unit.runs);
  return props ? [...runs, props] : runs;
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
  const projects = units
    .map((u) => playwrightProjectFor(u.name, u.faults, u.variations, u.runs, u.onlyTitles))
    .filter((p) => p !== undefined)
    // Projects that run every scenario first: each keeps one worker busy longest, so they must not be the tail.
    .sort((a, b) => Number(a.grep !== undefined) - Number(b.grep !== undefined));
  const pwProjects = [...(o.withClean ? [{ name: CLEAN_PROJECT, faults: [], variations: [] }] : []), ...projects];
  const pwCount = pwProjects.length + (o.withClean && o.properties ? 1 : 0);

  interface SideJob { unit?: Unit; run: SuiteRun }
  const jobs: SideJob[] = units.flatMap((unit) => sideRunsOf(unit).map((run) => ({ unit, run })));
  // Clean baselines: per kind, the union of what the units run (a broader baseline covers a narrower run: failures are compared by name).
  const baselines = o.withClean ? mergeRuns(jobs.map((j) => [j.run])) : [];
  const sideJobs: SideJob[] = [...baselines.map((run) => ({ run })), ...jobs];
  o.log(`selftest: Playwright ${pwCount} projects (${o.workers} workers), ${sideJobs.length} side runs${baselines.length ? ` (${baselines.length} clean baselines)` : ''}`);

  const pwPromise = pwCount
    ? runPlaywrightPlan(o.root, o.workDir, { workers: o.workers, testTimeoutMs: SELFTEST_TEST_TIMEOUT_MS, projects: pwProjects, properties: o.withClean && o.properties }, { timeoutMs: o.timeoutMs, env: o.env }).then((r) => {
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
      return { root: o.root, workDir, faults: job.unit?.faults ?? [], variations: job.unit?.variations ?? [], workers: 1, timeoutMs: Math.min(o.timeoutMs, 180_000), env: o.env };
    };
    let outcome = await ADAPTERS[job.run.kind](job.run, ctx(0));
    const variationOnly = !job.unit || job.unit.faults.length === 0;
    if (variationOnly && outcome.failed.length) {
      const again = await ADAPTERS[job.run.kind](job.run, ctx(1));
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
  if (playwrightProjectFor(unit.name, unit.faults, unit.variations, unit.runs)) out.push(playwrightOutcome(unit.name, ex.pw, cleanPassed));
  for (const o of ex.side.get(unit.name) ?? []) out.push(againstBaseline(o, sideClean.get(o.kind)));
  return out;
}

/** The name of the unit that has every variation in force at once. */
export const ALL_VARIATIONS_UNIT = 'all-variations';

export async function runSelftest(o: SelftestOptions = {}) {
  const root = resolve(o.root ?? process.cwd());
  const outDir = resolve(o.outDir ?? join(root, 'reports/out/selftest'));
  const workers = o.workers ?? o.concurrency ?? 2;
  const timeoutMs = o.timeoutMs ?? 15 * 60_000;
  const log = o.log ?? ((l: string) => console.log(l));
  let entries: CatalogEntry[] = CATALOG;
  if (o.only?.length) {
    const unknown = o.only.filter((n) => !CATALOG.some((e) => e.name === n));
    if (unknown.length) throw new Error(`--only names unknown catalogue entries: ${unknown.join(', ')}`);
    entries = entries.filter((e) => o.only!.includes(e.name));
  }
  if (o.kind) entries = entries.filter((e) => e.kind === o.kind);
  const plans = entries.map(planEntry).map((p) => (o.quick ? quickPlan(p) : p));
  const workRoot = join(outDir, 'runs');
  rmSync(workRoot, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  const started = performance.now();
  const loadAverageAtStart = loadavg();
  const common = { root, workers, timeoutMs, env: o.env, log };

  // Phase 1: clean, every fault on its own, and every variation together in one
  // simulator. Variations are non-breaking changes that must all pass everywhere, so the
  // common case (none alarms) costs one run, not one per variation. Only when the joint
  // run fails are the variations run one by one (phase 2) to name the one that alarms.
  const faultPlans = plans.filter((p) => p.entry.kind === 'fault');
  const variationPlans = plans.filter((p) => p.entry.kind === 'variation');
  const together = !o.separateVariations && variationPlans.length > 1;
  const allVariations: Unit | undefined = together
    ? { name: ALL_VARIATIONS_UNIT, faults: [], variations: variationPlans.map((p) => p.entry.name), runs: mergeRuns(variationPlans.map((p) => p.runs)) }
    : undefined;
  const phase1Units = [...faultPlans.map(unitOf), ...(allVariations ? [allVariations] : variationPlans.map(unitOf))];
  const ex1 = await execute(phase1Units, { ...common, workDir: join(workRoot, 'phase1'), withClean: true, properties: o.properties ?? !o.only?.length });

  // The baselines (the properties project has no entries: it is baseline only).
  const clean = ex1.pw.tests.filter((t) => t.name.startsWith(`[${CLEAN_PROJECT}] `) || t.name.startsWith(`[${PROPERTIES_PROJECT}] `));
  // A scenario that needed its retry clean (flaky) proves nothing: it can neither catch nor alarm.
  const cleanPassed = new Set(clean.filter((t) => t.status === 'passed').map(testKey));
  const cleanFlaky = clean.filter((t) => t.status === 'flaky').map(testKey);
  const baseline: BaselineResult = {
    executed: clean.filter((t) => t.status !== 'skipped').length + [...ex1.sideClean.values()].reduce((n, r) => n + r.executed, 0),
    flaky: cleanFlaky,
    failed: [
      ...clean.filter((t) => t.status === 'failed').map((t) => `${testKey(t)}${t.error ? ` — ${t.error.split('\n')[0].slice(0, 160)}` : ''}`),
      ...[...ex1.sideClean.values()].flatMap((r) => r.failed),
    ],
    errors: [...(ex1.pw.error ? [`playwright: ${ex1.pw.error}`] : []), ...[...ex1.sideClean.entries()].filter(([, r]) => r.error).map(([k, r]) => `${k}: ${r.error}`)],
  };

  const rowsByName = new Map<string, MatrixRow>();
  for (const p of faultPlans) rowsByName.set(p.entry.name, rowOf(p.entry, outcomesOf(unitOf(p), ex1, cleanPassed, ex1.sideClean)));
  const variationsSeparately = !allVariations;
  if (allVariations) {
    const joint = outcomesOf(allVariations, ex1, cleanPassed, ex1.sideClean);
    const jointFailed = joint.flatMap((x) => x.failed);
    const jointBroken = joint.some((x) => x.error);
    if (!jointFailed.length && !jointBroken) {
      for (const p of variationPlans) {
        const row = rowOf(p.entry, joint);
        rowsByName.set(p.entry.name, { ...row, note: `passed with all ${variationPlans.length} variations in force together` });
      }
    } else {
      log(`all variations together: ${jointFailed.length} failure(s)${jointBroken ? ', a broken run' : ''} (${[...jointFailed, ...joint.filter((x) => x.error).map((x) => `${x.kind}: ${x.error}`)].slice(0, 3).join('; ').slice(0, 400)}); running each variation on its own`);
      // Phase 2 names the variation behind what the joint run saw: only the suite kinds
      // that failed or broke, and only the scenarios that failed (unless Playwright broke).
      const failedKinds = new Set(joint.filter((x) => x.failed.length || x.error).map((x) => x.kind));
      const failedTitles = ex1.pw.error
        ? undefined
        : ex1.pw.tests.filter((t) => t.name.startsWith(`[${ALL_VARIATIONS_UNIT}] `) && t.status === 'failed' && cleanPassed.has(testKey(t))).map((t) => t.title);
      const units = variationPlans.map((p) => ({ ...unitOf(p), runs: p.runs.filter((r) => failedKinds.has(r.kind)), onlyTitles: failedTitles }));
      const ex2 = await execute(units, { ...common, workDir: join(workRoot, 'phase2'), withClean: false });
      for (const [i, p] of variationPlans.entries()) {
        const unchanged = joint.filter((x) => !failedKinds.has(x.kind) && p.runs.some((r) => r.kind === x.kind));
        rowsByName.set(p.entry.name, rowOf(p.entry, [...unchanged, ...outcomesOf(units[i], ex2, cleanPassed, ex1.sideClean)]));
      }
    }
  }
  if (variationsSeparately) {
    for (const p of variationPlans) rowsByName.set(p.entry.name, rowOf(p.entry, outcomesOf(unitOf(p), ex1, cleanPassed, ex1.sideClean)));
  }
  const rows = plans.map((p) => rowsByName.get(p.entry.name)!);
  const matrix = buildMatrix(rows, performance.now() - started, workers, new Date(), baseline);
  matrix.machine = { cpus: availableParallelism(), loadAverageAtStart, loadAverageAtEnd: loadavg() };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(outDir, 'matrix.md'), renderMarkdown(matrix));
  return matrix;
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/selftest.ts');
if (isMain) {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      kind: { type: 'string' },
      quick: { type: 'boolean', default: false },
      workers: { type: 'string', default: process.env.SVC_SELFTEST_WORKERS ?? '2' },
      out: { type: 'string' },
      'separate-variations': { type: 'boolean', default: false },
    },
  });
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
  }).then(
    (m) => {
      console.log(`\n${renderConsole(m)}`);
      console.log(`matrix: ${join(values.out ?? 'reports/out/selftest', 'matrix.md')}, matrix.json`);
      process.exit(matrixPasses(m) ? 0 : 1);
    },
    (e) => {
      console.error(`selftest: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
