/**
 * Runners of the self-test's side runs, one per suite kind (proof/plan.ts) other than
 * the Playwright scenarios (those run in the single invocation of proof/selftest.ts,
 * their faults put in force per project). Each runs the suites of one catalogue entry
 * against a simulator that has the entry in force, and reports which checks failed.
 * Every run writes under its own directory, so two runs at once never share a file.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOutcome } from './matrix.ts';
import type { SuiteKind, SuiteRun } from './plan.ts';

export interface RunContext {
  root: string;
  /** Private scratch directory of this run. */
  workDir: string;
  /** Catalogue names in force: one entry's, or none for the clean baseline. */
  faults: string[];
  variations: string[];
  /** Playwright workers for this run (the pool decides). */
  workers: number;
  /** Per-run time bound, ms. */
  timeoutMs: number;
  /** Extra environment (e.g. marker credentials). */
  env?: Record<string, string>;
}

export type Adapter = (run: SuiteRun, ctx: RunContext) => Promise<RunOutcome>;

function entryEnv(ctx: RunContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ctx.env, FORCE_COLOR: '0' };
  delete env.SVC_BASE_URL; // the self-test is about the simulator, never a real target
  delete env.SVC_SIMULATOR_URL;
  env.SVC_SIM_FAULTS = ctx.faults.join(',');
  env.SVC_SIM_VARIATIONS = ctx.variations.join(',');
  return env;
}

/**
 * Webhook delivery conformance (scenarios/properties/harness/delivery-scenarios.ts),
 * in-process, one scenario after the other: their retry schedules are time-scaled, and
 * running them side by side on a busy machine made the timing checks (retry schedule,
 * no retry after success) fail at random. Every scenario, or those the run names (a
 * fault's unit narrowed to the delivery scenarios its trace rows name, proof/selftest.ts).
 */
const delivery: Adapter = async (run, ctx) => {
  const [{ DELIVERY_SCENARIOS, runDeliveryScenario }, { loadProfile }] = await Promise.all([
    import('../scenarios/properties/harness/delivery-scenarios.ts'),
    import('../targets/index.ts'),
  ]);
  const started = performance.now();
  const failed: string[] = [];
  const errors: string[] = [];
  let executed = 0;
  // An inferred fault's entry runs with its catalogue `env` (SVC_STRICT=1), as the Playwright columns do.
  const { strict } = loadProfile(entryEnv(ctx));
  const unknown = run.all ? [] : run.selectors.filter((s) => !(DELIVERY_SCENARIOS as readonly string[]).includes(s));
  if (unknown.length) errors.push(`no delivery scenario named ${unknown.join(', ')} (known: ${DELIVERY_SCENARIOS.join(', ')})`);
  for (const scenario of DELIVERY_SCENARIOS.filter((s) => run.all || run.selectors.length === 0 || run.selectors.includes(s))) {
    try {
      const r = await runDeliveryScenario(scenario, ctx.faults, ctx.variations, strict);
      if (r.skipped) continue;
      executed++;
      for (const f of r.failures) if (f.severity === 'error') failed.push(`delivery ${scenario}: ${f.check}`);
    } catch (e) {
      errors.push(`delivery ${scenario}: ${(e as Error).message}`);
    }
  }
  return {
    kind: 'delivery',
    executed,
    failed: [...new Set(failed)].map((side) => ({ side })),
    durationMs: performance.now() - started,
    error: errors.join('; ') || undefined,
  };
};

/**
 * The simulator's per-client limit during the self-test's load runs (the scripts and
 * the in-process simulator both read SVC_RATE_LIMIT_PER_SECOND). Low on purpose: the
 * over-the-limit phase offers 3x the limit, and a load generator sharing two busy cores
 * with the Playwright run reaches a few dozen requests per second, not the default 900.
 */
const SELFTEST_RATE_LIMIT_PER_SECOND = 20;

/** The load scripts (load/load-run.ts), smoke profile: a failed k6 threshold names the catcher. */
const load: Adapter = async (run, ctx) => {
  const { listLoadScripts, runLoadScripts } = await import('../load/load-run.ts');
  const { readLoadSummaries } = await import('../reports/load-summary.ts');
  const started = performance.now();
  const dir = join(ctx.workDir, 'load');
  mkdirSync(dir, { recursive: true });
  const runs = await runLoadScripts({
    root: ctx.root,
    scripts: run.all ? listLoadScripts(ctx.root) : run.selectors,
    reportDir: dir,
    // Latency thresholds are speed goals (bench territory): on a loaded CI machine they
    // would flag variations as alarms, so the self-test judges behaviour only.
    env: {
      ...entryEnv(ctx),
      PROFILE: 'smoke',
      SVC_RATE_LIMIT_PER_SECOND: String(SELFTEST_RATE_LIMIT_PER_SECOND),
      SVC_PAGE_P95_MS: '60000',
      SVC_PAGE_P99_MS: '120000',
    },
    faults: ctx.faults,
    variations: ctx.variations,
    timeoutMs: ctx.timeoutMs,
  });
  const failed = readLoadSummaries(dir).flatMap((r) => r.thresholds.filter((t) => !t.ok).map((t) => `load:${r.script} threshold ${t.metric} ${t.expression}`));
  // k6 exit 99 = thresholds crossed (named above); any other non-zero exit is a script failure (setup's fail-fast).
  for (const r of runs) if (r.summaryFile && r.exitCode !== 0 && r.exitCode !== 99) failed.push(`load:${r.script} exited ${r.exitCode}`);
  const errors = runs.filter((r) => r.error).map((r) => r.error!);
  return {
    kind: 'load',
    executed: runs.filter((r) => r.summaryFile).length,
    failed: failed.map((side) => ({ side })),
    durationMs: performance.now() - started,
    error: errors.join('; ') || undefined,
  };
};

/**
 * The version-upgrade check in-process (upgrade/version-check.ts, what `npm
 * run versions` runs) from the version before the newest to the newest, where the
 * simulator's upgrade faults live, every operation counted as used: every breaking
 * finding is a catch. Only the findings are read, so no report file is written.
 */
const upgrade: Adapter = async (_run, ctx) => {
  const started = performance.now();
  const [{ CONTRACT_VERSIONS, startTarget }, { runVersionCheck }] = await Promise.all([import('../targets/index.ts'), import('../upgrade/version-check.ts')]);
  const [from, to] = CONTRACT_VERSIONS.slice(-2);
  try {
    const target = await startTarget({ env: entryEnv(ctx) });
    try {
      const r = await runVersionCheck({ profile: target.profile, from, to, specDir: join(ctx.root, 'spec'), used: 'all' });
      return {
        kind: 'upgrade',
        executed: r.probes,
        failed: r.findings.filter((f) => f.breaking).map((f) => ({ side: `versions: ${f.kind} ${f.operation ?? ''} ${f.location}` })),
        durationMs: performance.now() - started,
      };
    } finally {
      await target.close();
    }
  } catch (e) {
    return { kind: 'upgrade', executed: 0, failed: [], durationMs: performance.now() - started, error: (e as Error).message };
  }
};

/** Suite kinds run beside the single Playwright invocation (proof/selftest.ts). */
export type SideKind = Exclude<SuiteKind, 'playwright'>;

/** The adapter table: one runner per side kind (Playwright scenarios run in the one invocation of proof/selftest.ts). */
export const ADAPTERS: Record<SideKind, Adapter> = { delivery, load, upgrade };
