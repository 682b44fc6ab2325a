/**
 * runSuite: runs the Playwright scenario suites once against the embedded simulator, as
 * `npm run conformance` does, and answers which scenarios passed and which failed, with
 * their durations. npm run bench:suite builds on it; testsOf also reads the self-test's
 * JSON report (proof/selftest.ts), where each scenario copy belongs to a plan entry.
 *
 *   const r = await runSuite({ grep: '@members' });
 *   // r.failed: ['[api] scenarios/api/members.spec.ts > locked out: DENIED', ...]
 *
 * Faults and variations are put in force by the self-test's one mechanism (a plan entry,
 * proof/entry-test.ts): `npx tsx proof/selftest.ts --only NAME`.
 *
 * How: spawns `playwright test --reporter=json` with SVC_BASE_URL removed (the embedded
 * simulator), its own output and timing directories (runs can go in parallel), and reads
 * the JSON report from a file. A run that could not start or produced no report is
 * returned with `error` set.
 *
 * Also a CLI:  npx tsx proof/run-suite.ts [--grep @members] [--project api]
 */
import { runProcess } from '../targets/index.ts';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EXPECTED_FAILURE_ANNOTATION } from '../scenarios/fixtures/outcome.ts';
import { entryOfSuiteTitle, printTestKey, testKey, type TestKey } from './playwright-plan.ts';

export interface RunSuiteOptions {
  /** Playwright --grep (tags or title words), e.g. `@members|@oauth`. Default: everything. */
  grep?: string;
  grepInvert?: string;
  /** Playwright projects (`api`, `browser`, `properties`). Default: api and browser. */
  projects?: string[];
  /** Playwright workers for this run. Default 1 (runs are usually parallel to each other). */
  workers?: number;
  /** Kill the run after this many milliseconds. Default 120 s. */
  timeoutMs?: number;
  /** Extra environment for the run. */
  env?: Record<string, string>;
  /**
   * Where the checked client writes its per-test HTTP timings (JSON lines: requests,
   * httpMs, testMs); default a private directory removed after the run.
   */
  timingDir?: string;
}

export interface SuiteTest {
  /** The plan entry the copy ran under (the self-test), else its Playwright project. */
  entry: string;
  /** Which scenario: the same key under every entry. */
  key: TestKey;
  /** `[entry] file > title`, for people (printed from `entry` and `key`; the self-test reads `entry` and `key`). */
  name: string;
  title: string;
  tags: string[];
  status: 'passed' | 'failed' | 'skipped' | 'flaky';
  /** First error message of a failed test (ANSI colours removed). */
  error?: string;
  /** Duration of the last attempt, ms. */
  durationMs?: number;
}

export interface SuiteResult {
  passed: number;
  /** Names of failed tests (`[project] file > title`). */
  failed: string[];
  skipped: number;
  tests: SuiteTest[];
  durationMs: number;
  exitCode: number | null;
  /** Set when the run did not produce a usable report: never a proof of anything. */
  error?: string;
}

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PLAYWRIGHT = join(ROOT, 'node_modules', '.bin', 'playwright');
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

interface PwResult {
  status: string;
  duration?: number;
  error?: { message?: string };
  errors?: { message?: string }[];
}
interface PwTest {
  projectName: string;
  status: string;
  results: PwResult[];
  annotations?: { type: string }[];
}
interface PwSpec {
  title: string;
  file: string;
  tags?: string[];
  tests: PwTest[];
}
interface PwSuite {
  title: string;
  file?: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}
export interface PwReport {
  suites?: PwSuite[];
  errors?: { message?: string }[];
  stats?: { duration?: number };
}

/** Flattens Playwright's JSON report. */
export function testsOf(report: PwReport): SuiteTest[] {
  const out: SuiteTest[] = [];
  // A self-test entry's describe block (proof/entry-test.ts) names the entry: its tests
  // belong to the entry, as if the entry were a project. The file is the file suite's: a
  // self-test copy is declared from the self-test's `test`, which Playwright records as the
  // test's own location.
  const walk = (s: PwSuite, path: string[], entry?: string, file = s.file) => {
    const entryHere = entryOfSuiteTitle(s.title);
    if (entryHere !== undefined) entry = entryHere;
    const here = s.title && entryHere === undefined && !s.file?.endsWith(s.title) && !s.title.endsWith('.ts') ? [...path, s.title] : path;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        // A run that expects failures marks a failed scenario expected to keep its worker, with an annotation saying so.
        const failedAsExpected = (t.annotations ?? []).some((a) => a.type === EXPECTED_FAILURE_ANNOTATION);
        const status: SuiteTest['status'] = failedAsExpected
          ? 'failed'
          : t.status === 'skipped'
            ? 'skipped'
            : t.status === 'expected'
              ? 'passed'
              : t.status === 'flaky'
                ? 'flaky'
                : 'failed';
        const first = t.results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        const message = first?.error?.message ?? first?.errors?.[0]?.message;
        const key = testKey(file ?? spec.file, [...here, spec.title]);
        const ranUnder = entry ?? t.projectName;
        out.push({
          entry: ranUnder,
          key,
          name: `[${ranUnder}] ${printTestKey(key)}`,
          title: spec.title,
          tags: spec.tags ?? [],
          status,
          durationMs: t.results.at(-1)?.duration ?? 0,
          ...(status === 'failed' && message ? { error: stripAnsi(message).slice(0, 2000) } : {}),
        });
      }
    }
    for (const child of s.suites ?? []) walk(child, here, entry, file);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return out;
}

export async function runSuite(o: RunSuiteOptions = {}): Promise<SuiteResult> {
  const work = mkdtempSync(join(tmpdir(), 'svc-run-suite-'));
  const reportFile = join(work, 'report.json');
  const args = ['test', '--reporter=json', `--output=${join(work, 'results')}`, `--workers=${o.workers ?? 1}`];
  for (const p of o.projects ?? ['api', 'browser']) args.push(`--project=${p}`);
  if (o.grep) args.push(`--grep=${o.grep}`);
  if (o.grepInvert) args.push(`--grep-invert=${o.grepInvert}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    FORCE_COLOR: '0',
    PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
    SVC_HTTP_TIMING_DIR: o.timingDir ?? join(work, 'http-timing'),
  };
  // The embedded simulator, as it is: never a real target, never one with faults in force.
  for (const name of ['SVC_BASE_URL', 'SVC_SIMULATOR_URL', 'SVC_SIM_FAULTS', 'SVC_SIM_VARIATIONS', 'SVC_SELFTEST_PLAN', 'CI']) delete env[name];

  const started = performance.now();
  const { code, stderr, timedOut } = await runProcess(PLAYWRIGHT, args, {
    cwd: ROOT,
    env,
    timeoutMs: o.timeoutMs ?? 120_000,
    captureStdout: false,
    stderrTailBytes: 4000,
  });
  const durationMs = performance.now() - started;
  try {
    if (timedOut) return { passed: 0, failed: [], skipped: 0, tests: [], durationMs, exitCode: code, error: `timed out after ${o.timeoutMs ?? 120_000} ms` };
    if (!existsSync(reportFile)) {
      return {
        passed: 0,
        failed: [],
        skipped: 0,
        tests: [],
        durationMs,
        exitCode: code,
        error: `no JSON report (exit ${code}): ${stripAnsi(stderr).trim().slice(-800)}`,
      };
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as PwReport;
    const tests = testsOf(report);
    const globalErrors = (report.errors ?? []).map((e) => stripAnsi(e.message ?? '')).filter(Boolean);
    const result: SuiteResult = {
      passed: tests.filter((t) => t.status === 'passed').length,
      // Flaky (failed, then passed on Playwright's retry) is not a failure: a fault fails every attempt.
      failed: tests.filter((t) => t.status === 'failed').map((t) => t.name),
      skipped: tests.filter((t) => t.status === 'skipped').length,
      tests,
      durationMs,
      exitCode: code,
    };
    if (globalErrors.length) result.error = globalErrors.join('\n').slice(0, 1500);
    else if (tests.length === 0) result.error = `no test matched grep ${o.grep ?? '(none)'}`;
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      grep: { type: 'string' },
      project: { type: 'string', multiple: true },
      workers: { type: 'string' },
    },
  });
  const r = await runSuite({
    grep: values.grep,
    projects: values.project as string[] | undefined,
    workers: values.workers ? Number(values.workers) : 2,
  });
  console.log(`passed ${r.passed}, failed ${r.failed.length}, skipped ${r.skipped} in ${(r.durationMs / 1000).toFixed(1)} s`);
  for (const t of r.tests.filter((x) => x.status === 'failed')) console.log(`  ✗ ${t.name}\n      ${(t.error ?? '').split('\n')[0]}`);
  if (r.error) console.log(`error: ${r.error}`);
  process.exit(r.error ? 2 : 0);
}
