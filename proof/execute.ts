/**
 * The self-test's execute stage (proof/README.md, the picture): one Playwright invocation
 * for every unit's scenarios, and beside it the side runs (delivery, load, upgrade) one at a
 * time. The only stage that starts processes; the stages around it (plan, baselines, judge)
 * are pure functions over what it returns.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightTest, runProcess } from '../targets/index.ts';
import { ADAPTERS, type RunContext, type SideKind } from './adapters.ts';
import { printFailedCheck, type RunOutcome } from './matrix.ts';
import { CLEAN_PROJECT, mergeRuns, selftestEntryFor, type PlaywrightPlan, type SelftestEntry, type SuiteRun } from './plan.ts';
import { testsOf, type PwReport, type SuiteTest } from './run-suite.ts';

/** The self-test's own Playwright configuration: its `selftest` project over the scenarios. */
const SELFTEST_CONFIG = fileURLToPath(new URL('./playwright.config.ts', import.meta.url));

/** The self-test's polling bound: far above the simulator's 60 ms aggregation, far below a real target's. */
export const SELFTEST_AGGREGATION_TIMEOUT_MS = 1_000;
export const SELFTEST_POLL_INTERVAL_MS = 20;
/**
 * The self-test's bound on a browser scenario's wait for a widget event, postMessage or
 * redirect: as the polling bound, far above what the simulator's pages take to send one
 * after its action, below the simulator profile's own bound, so that a fault that withholds
 * an event (the widget and OAuth faults) fails its scenario sooner.
 */
const SELFTEST_BROWSER_EVENT_TIMEOUT_MS = 2_000;
/** Runs per webhook property in the self-test's baseline (integration/webhook-check.ts's default). */
const SELFTEST_PROPERTY_RUNS = 200;
/** How late the baseline's late retry comes: longer than the 500 deliveries between take, well below the default 30 s. */
const SELFTEST_LATE_RETRY_MS = 2_000;
/**
 * The request limit of the entries' simulators (Limits: "Request rate limit values: not
 * shown", so any value is the service's to choose). Each worker has a simulator of its own
 * per entry, serving one test at a time, and no Playwright scenario is about the limit
 * (the 429 rules are proven by the load side runs, at proof/adapters.ts's 20 per second):
 * above what one worker sends, so the fuzz baseline's cases go at the machine's pace
 * instead of waiting on a pacer held to a share of the simulator's default limit.
 */
const SELFTEST_ENTRY_RATE_LIMIT_PER_SECOND = 2_000;
/** Per-scenario bound inside the self-test (browser waits included). */
export const SELFTEST_TEST_TIMEOUT_MS = 15_000;

/** The baseline of the entries that run with a profile env (inferred faults, simulator settings): `clean` with the union of their env. */
export const CLEAN_STRICT_PROJECT = 'clean-strict';

/**
 * What one simulator has in force during the matrix: one fault, one variation, or every
 * variation together, with the suite runs that can notice it.
 */
export interface Unit {
  name: string;
  faults: string[];
  variations: string[];
  runs: SuiteRun[];
  /** Only these scenario titles (within the unit's tags). */
  onlyTitles?: string[];
  /** The entry's profile environment (CatalogEntry.env), for every suite kind it runs. */
  env?: Record<string, string>;
}

export interface PlaywrightRunResult {
  tests: SuiteTest[];
  error?: string;
  durationMs: number;
}

export interface Execution {
  pw: PlaywrightRunResult;
  /** Per unit name: its side outcomes. */
  side: Map<string, RunOutcome[]>;
  /** Per suite kind: the clean baseline run (phase 1 only). */
  sideClean: Map<string, RunOutcome>;
}

/** An execution in which nothing ran (a phase with no unit). */
export const NOTHING_RAN: Execution = { pw: { tests: [], durationMs: 0 }, side: new Map(), sideClean: new Map() };

/**
 * The environment of the self-test's Playwright invocation: the simulator only (never a
 * real target), bounded polling, and the plan file that declares the entries.
 */
function selftestProcessEnv(planFile: string, workDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    // The properties project runs once, in the baseline, so that the baseline covers every
    // spec `npm run conformance` runs; no fault or variation is judged by it (the simulator is
    // not what it tests). What the properties catch in a receiver is proven by
    // proof/receiver-variants.test.ts (every broken variant caught); here each property runs
    // as many times as webhook-check runs it by default, unless the caller asks for more.
    WEBHOOK_PROPERTY_RUNS: String(SELFTEST_PROPERTY_RUNS),
    // The late retry waits 30 s by default; the baseline runs the spec for coverage, and what
    // the property catches (a log that forgets with time or with volume) is proven there too.
    WEBHOOK_LATE_RETRY_MS: String(SELFTEST_LATE_RETRY_MS),
    ...process.env,
    ...extra,
    FORCE_COLOR: '0',
    SVC_SELFTEST_PLAN: planFile,
    SVC_AGGREGATION_TIMEOUT_MS: String(SELFTEST_AGGREGATION_TIMEOUT_MS),
    SVC_POLL_INTERVAL_MS: String(SELFTEST_POLL_INTERVAL_MS),
    SVC_BROWSER_EVENT_TIMEOUT_MS: String(SELFTEST_BROWSER_EVENT_TIMEOUT_MS),
    SVC_HTTP_TIMING_DIR: join(workDir, 'http-timing'),
    SVC_RATE_LIMIT_PER_SECOND: String(SELFTEST_ENTRY_RATE_LIMIT_PER_SECOND),
  };
  // A larger young generation in the runner and every worker: the scenarios allocate fast
  // (responses, contract checks, simulators) and keep little, so fewer scavenges do less
  // collecting for the same scenarios.
  env.NODE_OPTIONS = [env.NODE_OPTIONS, '--max-semi-space-size=64'].filter(Boolean).join(' ');
  delete env.SVC_BASE_URL; // the self-test is about the simulator, never a real target
  delete env.SVC_SIMULATOR_URL;
  delete env.SVC_SIM_FAULTS;
  delete env.SVC_SIM_VARIATIONS;
  delete env.CI; // forbidOnly is not what the self-test is about
  return env;
}

/**
 * One Playwright invocation of a plan under the self-test's configuration
 * (proof/playwright.config.ts; the plan: proof/playwright-plan.ts), its tests read from the
 * JSON report. `env(planFile)` gives the process environment: the self-test's
 * (selftestProcessEnv) or the mutation run's (a proxy per entry, proof/mutants/run.ts).
 */
export async function runPlaywrightPlan(
  root: string,
  workDir: string,
  plan: Omit<PlaywrightPlan, 'reportFile' | 'outputDir'>,
  o: { timeoutMs: number; env: (planFile: string) => NodeJS.ProcessEnv },
): Promise<PlaywrightRunResult> {
  mkdirSync(workDir, { recursive: true });
  const full: PlaywrightPlan = { ...plan, reportFile: join(workDir, 'playwright-report.json'), outputDir: join(workDir, 'playwright-results') };
  const planFile = join(workDir, 'playwright-plan.json');
  writeFileSync(planFile, JSON.stringify(full, null, 2));
  const started = performance.now();
  const pw = playwrightTest([], o.env(planFile), root, SELFTEST_CONFIG);
  const { code, stderr, timedOut } = await runProcess(pw.command, pw.args, {
    cwd: root,
    env: pw.env,
    timeoutMs: o.timeoutMs,
    captureStdout: false,
    stderrTailBytes: 4000,
  });
  const durationMs = performance.now() - started;
  if (timedOut) return { tests: [], durationMs, error: `Playwright run timed out after ${o.timeoutMs} ms` };
  if (!existsSync(full.reportFile)) return { tests: [], durationMs, error: `Playwright wrote no JSON report (exit ${code}): ${stderr.trim().slice(-800)}` };
  const report = JSON.parse(readFileSync(full.reportFile, 'utf8')) as PwReport;
  const globalErrors = (report.errors ?? []).map((e) => (e.message ?? '').replace(/\x1b\[[0-9;]*m/g, '')).filter(Boolean);
  return { tests: testsOf(report), durationMs, ...(globalErrors.length ? { error: globalErrors.join('\n').slice(0, 1500) } : {}) };
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

export interface ExecuteOptions {
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
 * The Playwright baseline of the units with a profile env: the same scenarios clean, with
 * that env (an inferred fault is caught only by a scenario that passes clean under
 * SVC_STRICT=1). A unit that runs no scenario (a delivery-only fault) adds none: it once
 * made this baseline every scenario of the suite (grep of an absent entry: none).
 */
export function cleanStrictEntry(units: readonly Unit[]): SelftestEntry | undefined {
  const envUnits = units.filter((u) => u.env && Object.keys(u.env).length && u.runs.some((r) => r.kind === 'playwright'));
  if (!envUnits.length) return undefined;
  const greps = envUnits.map((u) => selftestEntryFor(u.name, [], [], u.runs, u.onlyTitles)?.grep);
  return {
    name: CLEAN_STRICT_PROJECT,
    faults: [],
    variations: [],
    env: Object.assign({}, ...envUnits.map((u) => u.env)) as Record<string, string>,
    ...(greps.every((g) => g !== undefined) ? { grep: `(${greps.join('|')})` } : {}),
  };
}

/**
 * One Playwright invocation for every unit's scenarios (plus `clean`), and next to it
 * the side runs one at a time. A variation-only side run that fails is run once more
 * and only failures that repeat count (the Playwright projects of variations retry the
 * same way): timing-sensitive delivery and load checks on a loaded machine must not
 * turn into false alarms.
 */
export async function execute(units: readonly Unit[], o: ExecuteOptions): Promise<Execution> {
  mkdirSync(o.workDir, { recursive: true });
  const unitEntries = units.map((u) => selftestEntryFor(u.name, u.faults, u.variations, u.runs, u.onlyTitles, u.env)).filter((e) => e !== undefined);
  const cleanStrict = o.withClean ? cleanStrictEntry(units) : undefined;
  const entries = [
    ...(o.withClean ? [{ name: CLEAN_PROJECT, faults: [], variations: [], ...(o.cleanGrep ? { grep: o.cleanGrep } : {}) }] : []),
    ...(cleanStrict ? [cleanStrict] : []),
    ...unitEntries,
  ];
  const withProperties = !!(o.withClean && o.properties);

  interface SideJob {
    unit?: Unit;
    run: SuiteRun;
  }
  const jobs: SideJob[] = units.flatMap((unit) => unit.runs.filter((r) => r.kind !== 'playwright').map((run) => ({ unit, run })));
  // Clean baselines: per kind, the union of what the units run (a broader baseline covers a narrower run: failures are compared by name).
  const baselines = o.withClean ? mergeRuns(jobs.map((j) => [j.run])) : [];
  const sideJobs: SideJob[] = [...baselines.map((run) => ({ run })), ...jobs];
  // scenarios/properties/delivery.spec.ts runs every delivery scenario against a clean
  // in-process simulator, which is exactly the clean delivery baseline when that covers
  // every scenario (the delivery adapter, proof/adapters.ts): the properties project leaves
  // the file out then, instead of running the 12 scenarios twice.
  const deliveryBaselineCoversAll = baselines.some((r) => r.kind === 'delivery' && (r.all || r.selectors.length === 0));
  const propertiesIgnore = deliveryBaselineCoversAll ? ['**/delivery.spec.ts'] : [];
  o.log(
    `selftest: Playwright ${entries.length} entries${withProperties ? ' and the properties project' : ''} (${o.workers} workers), ${sideJobs.length} side runs${baselines.length ? ` (${baselines.length} clean baselines)` : ''}`,
  );

  const pwPromise =
    entries.length || withProperties
      ? runPlaywrightPlan(
          o.root,
          o.workDir,
          { workers: o.workers, testTimeoutMs: SELFTEST_TEST_TIMEOUT_MS, entries, properties: withProperties, propertiesIgnore },
          {
            timeoutMs: o.timeoutMs,
            env: (planFile) => selftestProcessEnv(planFile, o.workDir, o.env),
          },
        ).then((r) => {
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
      return {
        root: o.root,
        workDir,
        faults: job.unit?.faults ?? [],
        variations: job.unit?.variations ?? [],
        workers: 1,
        timeoutMs: Math.min(o.timeoutMs, 180_000),
        env: { ...o.env, ...job.unit?.env },
      };
    };
    let outcome = await ADAPTERS[job.run.kind as SideKind](job.run, ctx(0));
    const variationOnly = !job.unit || job.unit.faults.length === 0;
    if (variationOnly && outcome.failed.length) {
      const again = await ADAPTERS[job.run.kind as SideKind](job.run, ctx(1));
      const repeated = new Set(again.failed.map(printFailedCheck));
      outcome = { ...outcome, failed: outcome.failed.filter((f) => repeated.has(printFailedCheck(f))), durationMs: outcome.durationMs + again.durationMs };
    }
    done++;
    o.log(
      `[side ${String(done).padStart(2)}/${sideJobs.length}] ${job.run.kind.padEnd(8)} ${label}: ${outcome.executed} ran, ${outcome.failed.length} failed${outcome.error ? `, ERROR ${outcome.error.slice(0, 160)}` : ''} (${(outcome.durationMs / 1000).toFixed(1)} s)`,
    );
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
