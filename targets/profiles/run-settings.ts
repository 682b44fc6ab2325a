/**
 * Settings of a run rather than of its target: how many Playwright workers, which
 * Chromium, where the checked client writes its timings, which self-test plan is in
 * force, and whether the run must start the embedded simulator. Read here, next to the
 * target profile, because the profile's folder is the one reader of `SVC_*` variables on
 * the Node side (DESIGN.md, "Target profiles"); playwright.config.ts, the scenarios' fixtures and globalSetup
 * call these functions instead of reading process.env.
 */
import { runSettingsFrom, type RunSettings as ProfileRunSettings } from './sections.ts';
import { simulatorEntriesInForce } from './profile.ts';

type Env = Record<string, string | undefined>;

/** The profile's run section (targets/profiles/sections.ts), with the defaults of a Playwright run and the self-test's plan. */
export interface RunSettings extends ProfileRunSettings {
  /** Playwright workers of `npm run conformance` (SVC_WORKERS); default 2, the reference machine's cores. */
  workers: number;
  /** The self-test's plan file (SVC_SELFTEST_PLAN, written by proof/selftest.ts); absent outside the self-test. */
  selftestPlanFile?: string;
  /** A batch of runs, each with its own target environment (SVC_RUNS_PLAN, written by proof/real-target.ts `runPlaywrightBatch`, read by proof/playwright.runs.config.ts). */
  runsPlanFile?: string;
}

/**
 * For a Playwright config file: a setting the profile refuses (a bad value, a request bound not
 * below the test bound) ends the run with the profile's one-line message and exit code 2, not a
 * stack trace of the config's loading.
 */
export function orRefuse<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    console.error(`Refused configuration: ${(e as Error).message}`);
    process.exit(2);
  }
}

export function runSettings(env: Env = process.env): RunSettings {
  const base = runSettingsFrom(env);
  const workers = base.workers ?? 2;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`SVC_WORKERS must be a positive integer, got "${env.SVC_WORKERS}"`);
  return {
    ...base,
    workers,
    ...(env.SVC_SELFTEST_PLAN ? { selftestPlanFile: env.SVC_SELFTEST_PLAN } : {}),
    ...(env.SVC_RUNS_PLAN ? { runsPlanFile: env.SVC_RUNS_PLAN } : {}),
  };
}

/**
 * Whether `npm run conformance` must start the embedded simulator (../shared/DESIGN.md,
 * "Target profiles": without SVC_BASE_URL the target is the simulator): not for a real
 * environment, and not when the user started a simulator and pointed the run at it with
 * SVC_SIMULATOR_URL, unless faults or variations are asked for (they need a fresh one).
 */
export function needsEmbeddedSimulator(env: Env = process.env): boolean {
  if (env.SVC_BASE_URL) return false;
  const inForce = simulatorEntriesInForce(env);
  return !env.SVC_SIMULATOR_URL || inForce.faults.length > 0 || inForce.variations.length > 0;
}

/**
 * The environment that hands a started simulator's URL to the workers: Playwright copies
 * the runner's environment, as globalSetup leaves it, into every worker it starts.
 */
export const SIMULATOR_URL_VARIABLE = 'SVC_SIMULATOR_URL';

/**
 * The environment that hands the run id (RunSettings.runId) to the workers, set by
 * globalSetup when the user gave none, so every worker of one run names its users alike.
 */
export const RUN_ID_VARIABLE = 'SVC_RUN_ID';

/** The environment that hands the run's ledger folder (RunSettings.runLedgerDir) to the workers, set by globalSetup. */
export const RUN_LEDGER_VARIABLE = 'SVC_RUN_LEDGER_DIR';

/** The self-test's own switches (proof/selftest.ts), for callers such as `npm test` and CI that cannot pass flags. */
export interface SelftestSettings {
  /**
   * Playwright workers (SVC_SELFTEST_WORKERS); default 3 on the 2-core reference machine:
   * a self-test worker spends about a third of its time waiting (browser events, the
   * simulator's timers, fuzz pacing), and a third worker fills that time with the same
   * verdicts; a fourth finds no idle CPU left on two cores.
   */
  workers: number;
  /** Bound of the whole run, minutes (SVC_SELFTEST_TIMEOUT_MINUTES); absent: the self-test's default. */
  timeoutMinutes?: number;
  /** Every variation also on its own (SVC_SELFTEST_EACH_VARIATION=1). */
  eachVariation: boolean;
  /** Every fault on every check of its trace rows, the generated shown_by left aside (SVC_SELFTEST_FULL_SUITES=1): the matrix `proof/trace-proof.ts --shown-by` chooses from. */
  fullSuites: boolean;
  /** The matrix as a unit test (proof/gate.test.ts, SVC_SELFTEST=1 or quick); absent: that test skips. */
  asUnitTest?: 'full' | 'quick';
}

export function selftestSettings(env: Env = process.env): SelftestSettings {
  const minutes = env.SVC_SELFTEST_TIMEOUT_MINUTES ? Number(env.SVC_SELFTEST_TIMEOUT_MINUTES) : undefined;
  if (minutes !== undefined && !(minutes > 0))
    throw new Error(`SVC_SELFTEST_TIMEOUT_MINUTES must be a positive number, got "${env.SVC_SELFTEST_TIMEOUT_MINUTES}"`);
  const workers = env.SVC_SELFTEST_WORKERS ? Number(env.SVC_SELFTEST_WORKERS) : 3;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`SVC_SELFTEST_WORKERS must be a positive integer, got "${env.SVC_SELFTEST_WORKERS}"`);
  return {
    workers,
    ...(minutes !== undefined ? { timeoutMinutes: minutes } : {}),
    eachVariation: env.SVC_SELFTEST_EACH_VARIATION === '1',
    fullSuites: env.SVC_SELFTEST_FULL_SUITES === '1',
    ...(env.SVC_SELFTEST ? { asUnitTest: env.SVC_SELFTEST === 'quick' ? ('quick' as const) : ('full' as const) } : {}),
  };
}
