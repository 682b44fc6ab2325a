/**
 * npm run load [-- <script.ts>...]
 *
 * Runs the load scripts (default: every script, smoke profile) with `k6` when it is on
 * the PATH, else with the k6-compatible runner (load/runner); both print the same
 * threshold verdicts, from the scripts' own handleSummary. Without SVC_BASE_URL the
 * embedded simulator is started in-process on a free loopback port and the simulator
 * profile (targets/profiles/profile.ts) supplies credentials and settings. Either way
 * the scripts' SVC_* settings come from the profile (profileEnv), never read here.
 *
 * Environment: PROFILE, PHASE_SECONDS, LOAD_RUNNER=k6|runner (force one),
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists, simulator only), LOAD_REPORT_DIR
 * (default reports/out/load), and every variable of load/script-support/config.ts. Exit code: the
 * first failing script's (k6's codes).
 *
 * JSON summaries: k6 does not create the directories of handleSummary's paths (a
 * missing one loses the file with an error logged and exit code 0), so this wrapper
 * creates LOAD_REPORT_DIR and passes it as an absolute path (load/script-support/report.ts), and
 * a project script that wrote no summary fails the run, naming the file.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfile, profileEnv, runForwardingSignals, startTarget } from '../targets/index.ts';
import { runScript } from './runner/engine.ts';

const ALL_SCRIPTS = ['load/rate-limit.ts', 'load/paging.ts'];

/**
 * The embedded simulator's rate limit when SVC_RATE_LIMIT_PER_SECOND is unset: low, so
 * that exceeding it (rate-limit.ts drives 3x the limit in the smoke profile) takes modest
 * traffic that a shared 2-core CI machine can always offer: with a 2 s phase, 1.5x the
 * limit achieved (15/s of the 30/s asked) drains the simulator's one-second burst
 * allowance. The simulator and the scripts get the same value, so the expectation is
 * the limit the simulator enforces.
 */
export const EMBEDDED_RATE_LIMIT_PER_SECOND = 10;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Why a project script's run left no fresh JSON summary in `reportDir` (load/script-support/report.ts
 * writes `<script>.summary.json`), or undefined when it did. A script of the user's own
 * may write none: only the project's scripts are checked.
 */
export function missingSummary(script: string, reportDir: string, startedAtMs: number): string | undefined {
  if (!ALL_SCRIPTS.some((s) => resolve(ROOT, s) === resolve(script))) return undefined;
  const file = join(reportDir, `${basename(script, '.ts')}.summary.json`);
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return `${script} wrote no JSON summary: ${file} is missing`;
  }
  // File times can trail the clock by a tick: a second of slack.
  return mtimeMs < startedAtMs - 1_000 ? `${script} wrote no JSON summary: ${file} is from an earlier run` : undefined;
}

/** The k6 executable of the PATH: the first regular file named k6 that may be executed (a folder named k6 is searchable, not a program). */
export function k6OnPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, process.platform === 'win32' ? 'k6.exe' : 'k6');
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Bad input of a load run (k6 asked for where there is none): the message says what to do, the CLI exits 2. */
export class LoadInputError extends Error {}

/**
 * Env for the scripts when the target is the embedded simulator at `base`: the
 * simulator profile's profileEnv. A 429's body is not shown in the specification
 * (Errors): no body rule unless the user sets SVC_429_BODY (profile.load); the
 * simulator's variations include a 429 without a body.
 */
export function simulatorEnv(base: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return profileEnv(loadProfile({ ...env, SVC_BASE_URL: undefined, SVC_SIMULATOR_URL: base }));
}

/**
 * The embedded simulator's environment for a load run: the user's rate limit when the
 * profile has one set (SVC_RATE_LIMIT_PER_SECOND), else EMBEDDED_RATE_LIMIT_PER_SECOND;
 * the simulator and the scripts then expect the same limit.
 */
export function embeddedLoadEnv(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; limit: number } {
  const asked = loadProfile(env).rateLimit;
  const limit = asked.explicit && asked.perSecond !== undefined ? asked.perSecond : EMBEDDED_RATE_LIMIT_PER_SECOND;
  return { env: { ...env, SVC_RATE_LIMIT_PER_SECOND: String(limit) }, limit };
}

/**
 * `k6 run <script>` with this terminal, in its own process group (targets/process.ts): a stop
 * of this process (Ctrl-C, a cancelled CI job) reaches k6, which writes its summary and ends;
 * the whole group is killed after `timeoutMs` (the run's bound, timeouts.runMs; 0: none), and
 * a k6 that cannot be started is named.
 */
export async function runWithK6(k6: string, script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<number> {
  let run: Awaited<ReturnType<typeof runForwardingSignals>>;
  try {
    run = await runForwardingSignals(k6, ['run', script], { env, ...(timeoutMs > 0 ? { timeoutMs } : {}) });
  } catch (e) {
    throw new Error(`k6 (${k6}) could not be started: ${(e as Error).message}`);
  }
  if (run.timedOut) console.error(`load: ${script} did not end within ${timeoutMs / 1000} s (timeouts.runMs, SVC_RUN_TIMEOUT_MS): k6 was killed`);
  return run.exitCode;
}

/** The load profiles a run may name (load/script-support/profiles.ts; not imported: that file is k6 code). */
export const LOAD_PROFILES = ['smoke', 'average', 'stress', 'spike'];

/** A script named `rate-limit`/`paging` (or a path to a k6 script), as an absolute path; undefined when none exists. */
export function scriptPath(name: string): string | undefined {
  const own = fileURLToPath(new URL(`./${name.replace(/\.ts$/, '')}.ts`, import.meta.url));
  if (/^[a-z-]+(\.ts)?$/.test(name) && existsSync(own)) return own;
  const given = resolve(name);
  return existsSync(given) ? given : undefined;
}

export interface LoadRunOptions {
  /** Absolute paths of the scripts (default: every script of ALL_SCRIPTS). */
  scripts?: string[];
  /** The run's settings (the profile's SVC_* variables). */
  env: NodeJS.ProcessEnv;
  /** Load profile (load/script-support/profiles.ts), default smoke. */
  profile?: string;
  /** Force k6 or the built-in runner; default k6 when on the PATH. */
  runner?: 'k6' | 'runner';
  /** Where the JSON summaries go (created). */
  reportDir: string;
}

/** Runs the scripts against the profile's target (starting the embedded simulator when there is none); the first failing script's exit code. */
export async function runLoad(o: LoadRunOptions): Promise<number> {
  const selected = o.scripts?.length ? o.scripts : ALL_SCRIPTS.map((s) => resolve(ROOT, s));
  const k6 = o.runner === 'runner' ? undefined : k6OnPath(o.env);
  if (o.runner === 'k6' && !k6)
    throw new LoadInputError(
      'k6 was asked for (--runner k6), but no k6 program is on the PATH: install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/), or let the k6-compatible runner run the scripts (no --runner)',
    );
  const reportDir = resolve(o.reportDir);
  mkdirSync(reportDir, { recursive: true });
  let env: NodeJS.ProcessEnv = { ...o.env, PROFILE: o.profile ?? o.env.PROFILE ?? 'smoke', LOAD_REPORT_DIR: reportDir };
  let close = async () => {};
  const profile = loadProfile(o.env);
  if (profile.isSimulator) {
    const embedded = embeddedLoadEnv(o.env);
    const target = await startTarget({ env: embedded.env });
    env = { ...env, ...simulatorEnv(target.url, embedded.env) };
    console.log(`load: no SVC_BASE_URL; embedded simulator on ${target.url}, rate limit ${embedded.limit}/s`);
    close = target.close;
  } else {
    env = { ...env, ...profileEnv(profile) };
  }
  console.log(`load: ${selected.length} script(s), profile ${env.PROFILE}, with ${k6 ? `k6 (${k6})` : 'the k6-compatible runner (no k6 on the PATH)'}`);
  const results: Array<[string, number]> = [];
  try {
    for (const script of selected) {
      console.log(`\n=== ${script} ===`);
      const started = Date.now();
      const code = k6 ? await runWithK6(k6, script, env, profile.timeouts.runMs) : (await runScript(script, { env })).exitCode;
      const missing = missingSummary(script, reportDir, started);
      if (missing) console.error(`load: ${missing}`);
      results.push([script, code || (missing ? 1 : 0)]);
    }
  } finally {
    await close();
  }
  console.log('\nload results:');
  for (const [script, code] of results)
    console.log(`  ${code === 0 ? '✓' : '✗'} ${script}${code === 0 ? '' : ` (exit ${code}${code === 99 ? ': thresholds crossed' : ''})`}`);
  console.log(`JSON summaries: ${reportDir}`);
  // The command's exit is the CLI's (0 green, 1 failures found); each script's own k6 code
  // (99 thresholds, 107 a script error) is in the list above.
  return results.some(([, c]) => c !== 0) ? 1 : 0;
}
