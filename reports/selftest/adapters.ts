/**
 * Runners of the self-test, one per suite kind (reports/selftest/plan.ts). Each runs
 * the suites of one catalogue entry against a simulator that has the entry in force,
 * and reports which checks or scenarios failed.
 *
 * The entry reaches the simulator through SVC_SIM_FAULTS / SVC_SIM_VARIATIONS, the
 * variables every entry point honours: Playwright's globalSetup
 * (scenarios/global-setup.ts) builds the simulator in-process with them, the load
 * runner and the unit tests do the same. Every run writes under its own directory, so
 * two runs at once never share a file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry } from '../../targets/simulator/catalog.ts';
import type { RunOutcome } from './matrix.ts';
import { grepFor, type SuiteKind, type SuiteRun } from './plan.ts';

export interface RunContext {
  root: string;
  /** Private scratch directory of this run. */
  workDir: string;
  entry: CatalogEntry;
  /** Playwright workers for this run (the pool decides). */
  workers: number;
  /** Per-run time bound, ms. */
  timeoutMs: number;
  /** Extra environment (e.g. marker credentials). */
  env?: Record<string, string>;
}

export type Adapter = (run: SuiteRun, ctx: RunContext) => Promise<RunOutcome>;

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export function runProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Spawned> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole process group: Playwright's workers and browsers go with it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

function entryEnv(ctx: RunContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ctx.env, FORCE_COLOR: '0' };
  delete env.SVC_BASE_URL; // the self-test is about the simulator, never a real target
  delete env.SVC_SIMULATOR_URL;
  env.SVC_SIM_FAULTS = ctx.entry.kind === 'fault' ? ctx.entry.name : '';
  env.SVC_SIM_VARIATIONS = ctx.entry.kind === 'variation' ? ctx.entry.name : '';
  return env;
}

const tail = (s: string, n = 400) => s.trim().slice(-n).replace(/\s+/g, ' ');

interface PwSpec {
  title: string;
  file: string;
  tests: { projectName: string; results: { status: string }[]; status: string }[];
}
interface PwSuite {
  title: string;
  file?: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}

/** Flattens Playwright's JSON report into (name, failed) per test. */
export function playwrightOutcomes(report: { suites?: PwSuite[] }): { name: string; failed: boolean; skipped: boolean }[] {
  const out: { name: string; failed: boolean; skipped: boolean }[] = [];
  const walk = (s: PwSuite, path: string[]) => {
    const here = s.title && !s.title.endsWith('.ts') ? [...path, s.title] : path;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const name = `[${t.projectName}] ${spec.file} > ${[...here, spec.title].join(' > ')}`;
        // 'unexpected' = failed; 'flaky' = failed then passed: counts as caught, never as a pass.
        out.push({ name, failed: t.status === 'unexpected' || t.status === 'flaky', skipped: t.status === 'skipped' });
      }
    }
    for (const child of s.suites ?? []) walk(child, here);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return out;
}

const playwright: Adapter = async (run, ctx) => {
  const started = performance.now();
  const reportFile = join(ctx.workDir, 'playwright.json');
  const args = ['playwright', 'test', '--reporter=json', `--workers=${ctx.workers}`, `--output=${join(ctx.workDir, 'test-results')}`];
  if (!run.all) args.push(`--grep=${grepFor(run.selectors)}`);
  const env = entryEnv(ctx);
  env.PLAYWRIGHT_JSON_OUTPUT_NAME = reportFile;
  const res = await runProcess('npx', args, { cwd: ctx.root, env, timeoutMs: ctx.timeoutMs });
  const durationMs = performance.now() - started;
  if (!existsSync(reportFile)) {
    return { kind: 'playwright', executed: 0, failed: [], durationMs, error: res.timedOut ? `timed out after ${ctx.timeoutMs} ms` : `no report (exit ${res.code}): ${tail(res.stderr || res.stdout)}` };
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const tests = playwrightOutcomes(report);
  const failed = tests.filter((t) => t.failed).map((t) => t.name);
  const executed = tests.filter((t) => !t.skipped).length;
  const globalErrors = (report.errors ?? []) as { message?: string }[];
  let error: string | undefined;
  if (res.timedOut) error = `timed out after ${ctx.timeoutMs} ms`;
  // No test carrying the tags is not a broken run: for a fault it means nothing can
  // catch it (SURVIVED), for a variation that nothing was proven (matrix.ts).
  else if (globalErrors.length && failed.length === 0) error = tail(globalErrors.map((e) => e.message ?? '').join(' '));
  return { kind: 'playwright', executed, failed, durationMs, error };
};

/**
 * The load runner (load/): smoke profile, one script at a time; a script whose k6
 * thresholds fail names each failed threshold. Its interface: `npm run load --
 * --script <name> --profile smoke --summary-dir <dir>` writing <dir>/<script>.json
 * k6-style summaries ({ metrics: { name: { thresholds: { expr: { ok } } } } }).
 */
const load: Adapter = async (run, ctx) => {
  const started = performance.now();
  const scripts = run.all ? listLoadScripts(ctx.root) : run.selectors;
  const failed: string[] = [];
  const errors: string[] = [];
  let executed = 0;
  for (const script of scripts) {
    const dir = join(ctx.workDir, 'load');
    mkdirSync(dir, { recursive: true });
    const res = await runProcess('npm', ['run', '--silent', 'load', '--', '--script', script, '--profile', 'smoke', '--summary-dir', dir], {
      cwd: ctx.root,
      env: entryEnv(ctx),
      timeoutMs: ctx.timeoutMs,
    });
    const summaryFile = join(dir, `${script}.json`);
    if (!existsSync(summaryFile)) {
      errors.push(`load:${script} wrote no summary (exit ${res.code}${res.timedOut ? ', timed out' : ''}): ${tail(res.stderr || res.stdout, 200)}`);
      continue;
    }
    executed++;
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { metrics?: Record<string, { thresholds?: Record<string, { ok: boolean }> }> };
    for (const [metric, m] of Object.entries(summary.metrics ?? {})) {
      for (const [expr, t] of Object.entries(m.thresholds ?? {})) if (!t.ok) failed.push(`load:${script} threshold ${metric} ${expr}`);
    }
    if (res.code !== 0 && failed.length === 0) failed.push(`load:${script} exited ${res.code}`);
  }
  return { kind: 'load', executed, failed, durationMs: performance.now() - started, error: errors.length ? errors.join('; ') : undefined };
};

export function listLoadScripts(root: string): string[] {
  const dir = join(root, 'load', 'scripts');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.(ts|js)$/, ''));
}

/** node:test files under contracts/ that start the simulator with SVC_SIM_FAULTS (TAP parsed for names). */
const unit: Adapter = async (_run, ctx) => {
  const started = performance.now();
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const n of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, n.name);
      if (n.isDirectory()) walk(full);
      else if (n.name.endsWith('.test.ts')) files.push(full);
    }
  };
  walk(join(ctx.root, 'contracts'));
  if (!files.length) return { kind: 'unit', executed: 0, failed: [], durationMs: 0, error: 'no unit test files under contracts/' };
  const res = await runProcess(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files], {
    cwd: ctx.root,
    env: entryEnv(ctx),
    timeoutMs: ctx.timeoutMs,
  });
  const failed = [...res.stdout.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((m) => `unit: ${m[1].trim()}`);
  const executed = [...res.stdout.matchAll(/^\s*(?:not )?ok \d+ - /gm)].length;
  return { kind: 'unit', executed, failed, durationMs: performance.now() - started, error: res.timedOut ? 'timed out' : undefined };
};

/**
 * The version-upgrade check in-process (scripts/versions.ts) from the version before
 * the newest to the newest, where the simulator's upgrade faults live: every breaking
 * finding is a catch.
 */
const upgrade: Adapter = async (_run, ctx) => {
  const started = performance.now();
  const { versionCheck } = await import('../../scripts/versions.ts');
  const env = entryEnv(ctx);
  try {
    const r = await versionCheck({ from: 'v20250224', to: 'v20260929', env: { ...env, SVC_USED_OPERATIONS: '' }, out: join(ctx.workDir, 'versions'), allureResults: join(ctx.workDir, 'allure') });
    return {
      kind: 'upgrade',
      executed: r.probes,
      failed: r.findings.filter((f) => f.breaking).map((f) => `versions: ${f.kind} ${f.operation ?? ''} ${f.location}`),
      durationMs: performance.now() - started,
    };
  } catch (e) {
    return { kind: 'upgrade', executed: 0, failed: [], durationMs: performance.now() - started, error: (e as Error).message };
  }
};

/** The adapter table: one runner per suite kind. */
export const ADAPTERS: Record<SuiteKind, Adapter> = { playwright, load, unit, upgrade };
