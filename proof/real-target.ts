/**
 * Real-environment mode, exercised end to end (DESIGN.md, "The layout": the same suites run
 * unchanged against a real environment): Playwright runs configured ONLY through the `SVC_*`
 * variables a user sets for a real target (README, "Target profiles";
 * targets/profiles/profile.ts), against the simulator started as its own process
 * (targets/simulator-process.ts, through targets/index.ts), with the figures of each run.
 *
 * Used by the measurements of proof/ (reach.ts, independent-faults.ts), the system tests
 * (tests/) and the benches (bench/); also a CLI that prints the figures and the users the run
 * left on the target (GET /users before and after, scenarios/cleanup.ts listUsers):
 *   npx tsx proof/real-target.ts [--project api] [--project browser] [--minimal] [--set NAME=VALUE]
 *
 * `--minimal`: only the minimal settings (minimalTargetEnv: base URLs, credentials, the test
 * institution's user, passwords and MFA answer): what skips then is what needs an identity
 * the target cannot reveal.
 * `--set NAME=VALUE` adds one variable (repeatable).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { testsOf, type PwReport, type SuiteTest } from './run-suite.ts';
import { cleanEnv, loadProfile, realTargetEnv, runProcess, simulatorProcessEnv, startSimulatorProcess } from '../targets/index.ts';
import { listUsers } from '../scenarios/cleanup.ts';
import { MINIMAL_SETTINGS } from '../preflight/requirements.ts';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PLAYWRIGHT = join(ROOT, 'node_modules', '.bin', 'playwright');
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * The least a user sets for a real target: the settings of a minimal profile
 * (preflight/requirements.ts MINIMAL_SETTINGS, `minimal` in preflight/setting-sources.ts:
 * what the vendor hands every team with its access), with the values realTargetEnv gives
 * them: the base URLs of the platform, the audience service and the test host, the
 * credentials, the audience token URL and client, the test institution's user, its
 * scenario passwords and the MFA answer, nothing else. What the scenarios can learn from
 * the target itself (institutions, the test institution, the test user's own data, grants)
 * they must derive; the rest skips and names its setting. Polling bounds keep their
 * real-target defaults.
 */
export function minimalTargetEnv(base: string): NodeJS.ProcessEnv {
  const full = realTargetEnv(base);
  return { ...cleanEnv(), ...Object.fromEntries([...MINIMAL_SETTINGS].filter((k) => full[k] !== undefined).map((k) => [k, full[k]])) };
}

export interface RunTest extends SuiteTest {
  /** The reason given to test.skip / requireSetting, when skipped. */
  skipReason?: string;
  /** First error message of the first failed attempt (ANSI removed). */
  firstError?: string;
  /** Every annotation of the test and its attempts (type, description). */
  annotations?: PwAnnotation[];
}

export interface PlaywrightRun {
  tests: RunTest[];
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  /** Errors outside any test (config, global setup). */
  globalErrors: string[];
  stderrTail: string;
  /** Processes of the run's group (workers) still alive after the runner ended, then killed (targets/process.ts). */
  leftover: number[];
}

export interface PwAnnotation {
  type: string;
  description?: string;
}
interface PwResultLike {
  status: string;
  error?: { message?: string };
  errors?: { message?: string }[];
  annotations?: PwAnnotation[];
}
interface PwTestLike {
  projectName: string;
  annotations?: PwAnnotation[];
  results: PwResultLike[];
}
interface PwSpecLike {
  title: string;
  file: string;
  tests: PwTestLike[];
}
interface PwSuiteLike {
  specs?: PwSpecLike[];
  suites?: PwSuiteLike[];
}

/**
 * testsOf (proof/run-suite.ts) with two more facts per test, read in the same order
 * (testsOf emits tests in the report's order): the skip reason and the first error.
 */
export function testsWithReasons(report: PwReport): RunTest[] {
  const base = testsOf(report);
  const extra: Array<{ skipReason?: string; firstError?: string; annotations?: PwAnnotation[] }> = [];
  const walk = (s: PwSuiteLike) => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const annotations = [...(t.annotations ?? []), ...t.results.flatMap((r) => r.annotations ?? [])];
        const skip = annotations.find((a) => a.type === 'skip' || a.type === 'fixme');
        const failed = t.results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        const message = failed?.errors?.[0]?.message ?? failed?.error?.message;
        extra.push({ skipReason: skip?.description, firstError: message ? stripAnsi(message) : undefined, annotations });
      }
    }
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of (report.suites ?? []) as PwSuiteLike[]) walk(s);
  if (extra.length !== base.length) throw new Error(`report walk mismatch: ${extra.length} vs ${base.length} tests`);
  return base.map((t, i) => ({ ...t, ...extra[i] }));
}

/**
 * `playwright test` with the JSON reporter into a fresh work folder, bounded: the process's
 * outcome and its report, read by `read` before the folder is removed.
 */
async function invokePlaywright<T>(
  args: (work: string, reportFile: string) => { args: string[]; env: NodeJS.ProcessEnv; timeoutMs: number },
  read: (run: PlaywrightRun) => T,
): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), 'svc-playwright-'));
  const reportFile = join(work, 'report.json');
  const call = args(work, reportFile);
  const started = performance.now();
  const res = await runProcess(PLAYWRIGHT, call.args, {
    cwd: ROOT,
    env: { ...call.env, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile, SVC_HTTP_TIMING_DIR: join(work, 'http-timing') },
    timeoutMs: call.timeoutMs,
    captureStdout: false,
    stderrTailBytes: 4000,
  });
  const durationMs = performance.now() - started;
  try {
    const outcome = { exitCode: res.code, durationMs, timedOut: res.timedOut, stderrTail: stripAnsi(res.stderr).slice(-2000), leftover: res.leftover };
    if (!existsSync(reportFile))
      return read({ ...outcome, tests: [], globalErrors: [`no JSON report (exit ${res.code}${res.timedOut ? ', timed out' : ''})`] });
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as PwReport;
    return read({ ...outcome, tests: testsWithReasons(report), globalErrors: (report.errors ?? []).map((e) => stripAnsi(e.message ?? '')).filter(Boolean) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `playwright test` with the JSON reporter, bounded; the env is passed as given (nothing added). */
export async function runPlaywright(o: {
  projects: string[];
  env: NodeJS.ProcessEnv;
  grep?: string;
  workers?: number;
  timeoutMs: number;
}): Promise<PlaywrightRun> {
  return invokePlaywright(
    (work) => ({
      args: [
        'test',
        '--reporter=json',
        `--output=${join(work, 'results')}`,
        `--workers=${o.workers ?? 2}`,
        ...o.projects.map((p) => `--project=${p}`),
        ...(o.grep ? [`--grep=${o.grep}`] : []),
      ],
      env: o.env,
      timeoutMs: o.timeoutMs,
    }),
    (run) => run,
  );
}

/** One run of a batch: a project of proof/playwright.runs.config.ts with its own target environment. */
export interface BatchRun {
  name: string;
  /** Folder under scenarios/ (api, browser, properties, fuzz). */
  folder: string;
  grep?: string;
  /** The whole environment the run's profile is read from, as a process of its own would have it. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Its failures are the expected outcome: failed scenarios keep the worker (reported failed all the same). */
  failuresExpected?: boolean;
}

/** The plan runPlaywrightBatch writes (SVC_RUNS_PLAN) and proof/playwright.runs.config.ts reads. */
export interface RunsPlan {
  workers: number;
  outputDir: string;
  runs: Array<Omit<BatchRun, 'env'> & { env: Record<string, string> }>;
}

/**
 * Several runs against different targets in ONE `playwright test` invocation
 * (proof/playwright.runs.config.ts): per run the same figures as runPlaywright gives
 * for a process started with that environment. The invocation's bound is the longest
 * run's plus a minute.
 */
export async function runPlaywrightBatch(runs: BatchRun[], o: { workers: number }): Promise<Map<string, PlaywrightRun>> {
  const strings = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return invokePlaywright(
    (work) => {
      const planFile = join(work, 'plan.json');
      const plan: RunsPlan = { workers: o.workers, outputDir: join(work, 'results'), runs: runs.map((r) => ({ ...r, env: strings(r.env) })) };
      writeFileSync(planFile, JSON.stringify(plan));
      return {
        args: ['test', '--config', join(ROOT, 'proof/playwright.runs.config.ts'), '--reporter=json'],
        env: { ...cleanEnv(), SVC_RUNS_PLAN: planFile },
        timeoutMs: Math.max(...runs.map((r) => r.timeoutMs)) + 60_000,
      };
    },
    (all) => new Map(runs.map((r) => [r.name, { ...all, tests: all.tests.filter((t) => t.entry === r.name) }])),
  );
}

/**
 * A skip reason that says exactly what the test needs: it names the setting
 * (an SVC_* variable) or it says the scenario can only run on the simulator and why;
 * or the verdict was inconclusive (what the target's state showed could not decide it).
 */
export function reasonKind(reason: string | undefined): 'setting' | 'simulator-only' | 'inconclusive' | 'unexplained' {
  if (!reason) return 'unexplained';
  // A verdict the target's state could not decide (scenarios/api/jobs.ts): a skip that says why.
  if (/^inconclusive: \S/.test(reason)) return 'inconclusive';
  if (/^simulator-only: \S/.test(reason) || /\bonly the simulator\b.*\(.*\/_sim\//.test(reason)) return 'simulator-only';
  if (/\bSVC_[A-Z0-9_]+\b/.test(reason)) return 'setting';
  return 'unexplained';
}

/** Figures for the console. */
export function figures(run: PlaywrightRun): string {
  const by = (s: string) => run.tests.filter((t) => t.status === s);
  const lines = [
    `tests run ${run.tests.length}, passed ${by('passed').length}, failed ${by('failed').length + by('flaky').length}, skipped ${by('skipped').length} (${(run.durationMs / 1000).toFixed(1)} s)`,
  ];
  const reasons = new Map<string, number>();
  for (const t of by('skipped')) reasons.set(t.skipReason ?? '(no reason)', (reasons.get(t.skipReason ?? '(no reason)') ?? 0) + 1);
  for (const [r, n] of reasons) lines.push(`  skipped ${n} x: ${r}`);
  for (const t of [...by('failed'), ...by('flaky')]) lines.push(`  ✗ ${t.name}\n      ${(t.firstError ?? '').split('\n')[0]}`);
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { project: { type: 'string', multiple: true }, grep: { type: 'string' }, minimal: { type: 'boolean' }, set: { type: 'string', multiple: true } },
  });
  // --set NAME=VALUE: one more variable over the chosen environment (e.g. --minimal --set SVC_3DX_ISSUER_GUID=...).
  const extra = Object.fromEntries(
    ((values.set as string[] | undefined) ?? []).map((kv) => {
      const i = kv.indexOf('=');
      if (i < 1) throw new Error(`--set takes NAME=VALUE, got "${kv}"`);
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
  const sim = await startSimulatorProcess(simulatorProcessEnv());
  try {
    console.log(`simulator process ${sim.pid} on ${sim.base}`);
    const env = { ...(values.minimal ? minimalTargetEnv(sim.base) : realTargetEnv(sim.base)), ...extra };
    const profile = loadProfile(env);
    const before = await listUsers(profile);
    const run = await runPlaywright({
      projects: (values.project as string[] | undefined) ?? ['api', 'browser'],
      grep: values.grep,
      env,
      timeoutMs: 15 * 60_000,
    });
    const after = await listUsers(profile);
    console.log(figures(run));
    if (run.globalErrors.length) console.log(run.globalErrors.join('\n'));
    const known = new Set(before.users.map((u) => u.guid));
    const left = after.users.filter((u) => !known.has(u.guid));
    console.log(
      `users on the target: ${before.users.length} before the run, ${after.users.length} after; left behind ${left.length}${
        left.length
          ? `: ${left
              .slice(0, 5)
              .map((u) => u.id ?? u.guid)
              .join(', ')}${left.length > 5 ? ', …' : ''}`
          : ''
      }`,
    );
  } finally {
    await sim.stop();
  }
}
