/**
 * npm run nightly — one command for the nightly run (DESIGN.md, "What it is for" 3):
 *
 *   1. conformance: every Playwright project (scenarios, browser, properties) with the
 *      project's reporters (JUnit reports/out/junit.xml, Allure results) plus JSON;
 *   2. load: every k6 script with the smoke profile (summaries in reports/out/load/);
 *   3. the self-test matrix (proof/selftest.ts);
 *   4. report entries for k6 thresholds/figures and the matrix, then ONE Allure 3
 *      report in reports/out/allure-report with history from reports/history/;
 *   5. trends (reports/history/trends.jsonl) and the one-page summary
 *      reports/out/summary.md + summary.html;
 *   6. the history of what the target served (history/: <history>/observations): tonight
 *      compared with the last nights, a breaking change inside a version failing the night
 *      (Versioning: "Breaking (require a new version)"), the rules that take a day judged on
 *      the objects the last night left (history/keepers.ts), flaky and slow over nights, and
 *      the team dashboard (<out>/dashboard/index.html, history/dashboard.ts).
 *
 * Exit code = the gate: 1 when any error-severity failure happened (a failed scenario
 * or property, a failed k6 threshold, a fault that survived, a variation that alarmed),
 * 0 otherwise; inferred and informational findings are listed in the summary and fail
 * only as their tier says.
 *
 *   npm run nightly [-- --skip conformance,load,selftest] [--grep @smoke] [--selftest-quick] [--out reports/out]
 *
 * A partial run (--skip, --grep, --selftest-quick) says what it left out and gives no
 * "Gate: PASS": with no failure in what ran its verdict is "partial" (exit code 0, since
 * nothing failed). It adds no row to the trends and no run to Allure's history, which
 * compare full nightlies only; the Allure report still shows the history so far.
 *
 * Every text this writes goes through the redactor built from the profile's
 * credentials (targets/profiles/redact.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createRedactor, loadProfile, profileSecrets, playwrightTest, runProcess, type Redactor, type TargetProfile } from '../targets/index.ts';
import { listLoadScripts, runLoadScripts } from '../load/load-run.ts';
import { matrixEntries, selftestFigures, type Matrix } from '../proof/matrix.ts';
import { readConformance } from '../reports/conformance.ts';
import { loadEntries, readLoadSummaries, trendFigures } from '../reports/load-summary.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';
import { buildAllureReport } from '../reports/allure/build.ts';
import { appendTrend, readTrends } from '../reports/trends.ts';
import { markdownToHtml } from '../reports/markdown.ts';
import {
  gateReasons,
  gateVerdict,
  renderSummaryMarkdown,
  verdictLine,
  type GateReason,
  type GateVerdict,
  type LeftOut,
  type NightlySummary,
} from '../reports/summary.ts';
import { runSelftest } from '../proof/selftest.ts';
import { historyMarkdown, recordNight, type Recorded } from '../history/record.ts';
import { runKeepers, type KeepersOutcome } from '../history/keepers.ts';
import { writeDashboard } from '../history/dashboard.ts';

const root = resolve(new URL('..', import.meta.url).pathname);

/** The steps `--skip` names. */
export const NIGHTLY_STEPS = ['conformance', 'load', 'selftest'] as const;
export type NightlyStep = (typeof NIGHTLY_STEPS)[number];

export interface NightlyOptions {
  /** Steps not to run (NIGHTLY_STEPS); any other name is an error. */
  skip?: string[];
  /** Restrict the conformance run (Playwright --grep), e.g. `@smoke`. */
  grep?: string;
  selftestQuick?: boolean;
  /** Output root; default reports/out. */
  out?: string;
  /** Trends and Allure history; default reports/history. */
  historyDir?: string;
  /** Extra env for every step (the redaction test passes marker credentials). */
  env?: Record<string, string>;
  /** Where a receiver writes the webhook deliveries it refused or took (history/delivery-log.ts); default <history>/deliveries.jsonl. */
  deliveryLog?: string;
  log?: (line: string) => void;
}

function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    n += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return n;
}

/** The steps to skip, refusing a name that is not one (a typo must not run the step silently). */
export function skippedSteps(skip: readonly string[] = []): Set<NightlyStep> {
  const unknown = skip.filter((s) => !(NIGHTLY_STEPS as readonly string[]).includes(s));
  if (unknown.length)
    throw new Error(
      `nightly: unknown step${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} in --skip; the steps are ${NIGHTLY_STEPS.join(', ')}`,
    );
  return new Set(skip as NightlyStep[]);
}

/** What a run with these options leaves out of the nightly (empty: a full nightly). */
export function leftOutOf(o: Pick<NightlyOptions, 'skip' | 'grep' | 'selftestQuick'>): LeftOut[] {
  const skip = skippedSteps(o.skip);
  const out: LeftOut[] = [];
  if (skip.has('conformance')) out.push({ step: 'conformance', notRun: true, what: 'not run (--skip conformance)' });
  else if (o.grep) out.push({ step: 'conformance', notRun: false, what: `only the tests matching --grep ${o.grep}` });
  if (skip.has('load')) out.push({ step: 'load', notRun: true, what: 'not run (--skip load)' });
  if (skip.has('selftest')) out.push({ step: 'self-test', notRun: true, what: 'not run (--skip selftest)' });
  else if (o.selftestQuick)
    out.push({ step: 'self-test', notRun: false, what: 'the quick matrix (--selftest-quick): variations ran only the @smoke/@readonly scenarios' });
  return out;
}

/** What every step of one nightly reads: its options, where it writes, the target's profile and the redactor. */
interface NightlyRun {
  o: NightlyOptions;
  started: number;
  log: (line: string) => void;
  skip: Set<NightlyStep>;
  leftOut: LeftOut[];
  partial: boolean;
  out: string;
  historyDir: string;
  env: NodeJS.ProcessEnv;
  profile: TargetProfile;
  redactor: Redactor;
  allureResults: string;
  /** Where the conformance run's ledger goes, read into the history after it. */
  ledgerDir: string;
}

type Conformance = NightlySummary['conformance'];

export async function runNightly(o: NightlyOptions = {}): Promise<NightlySummary> {
  const started = performance.now();
  const run = startNightly(o, started);
  try {
    const conformance = await conformanceStep(run);
    const { load, loadErrors } = await loadStep(run);
    const matrix = await selftestStep(run);
    // 4. Report entries for the k6 figures and the matrix.
    for (const e of loadEntries(load)) writeAllureEntry(run.allureResults, e, run.redactor);
    if (matrix) for (const e of matrixEntries(matrix)) writeAllureEntry(run.allureResults, e, run.redactor);
    const selftest = matrix && selftestFigures(matrix);
    const reasons = gateReasons({ conformance, load, loadErrors, selftest }, new Set(run.leftOut.filter((l) => l.notRun).map((l) => l.step)));
    const { keepers, recorded } = await historyStep(run, reasons);
    const gate = gateVerdict(reasons, run.leftOut);
    const wallTimeMs = performance.now() - started;
    const trends = trendsAfter(run, { gate, conformance, load, matrix, wallTimeMs });
    const summary: NightlySummary = {
      at: new Date().toISOString(),
      wallTimeMs,
      gate,
      reasons,
      leftOut: run.leftOut,
      strict: run.profile.strict,
      trendRecorded: !run.partial,
      conformance,
      load,
      loadErrors,
      selftest,
      trends,
      reportPath: relative(root, join(run.out, 'allure-report')),
    };
    await writeReports(run, summary, recorded, keepers);
    return summary;
  } finally {
    rmSync(run.ledgerDir, { recursive: true, force: true });
  }
}

/** The run's settings, its profile and redactor, and a fresh output folder (the history lives outside it). */
function startNightly(o: NightlyOptions, started: number): NightlyRun {
  const log = o.log ?? ((l: string) => console.log(l));
  const skip = skippedSteps(o.skip);
  const leftOut = leftOutOf(o);
  const partial = leftOut.length > 0;
  if (partial) log(`nightly: partial run, left out: ${leftOut.map((l) => `${l.step} ${l.what}`).join('; ')}`);
  const out = resolve(o.out ?? join(root, 'reports/out'));
  const historyDir = resolve(o.historyDir ?? join(root, 'reports/history'));
  const env = { ...process.env, ...o.env, FORCE_COLOR: '0', SVC_REPORTS_OUT: out } as NodeJS.ProcessEnv;
  const profile = loadProfile(env);
  const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
  // A fresh output each night; the history lives outside it.
  for (const p of [
    'allure-results',
    'allure-report',
    'load',
    'selftest',
    'playwright.json',
    'junit.xml',
    'html',
    'test-results',
    'summary.md',
    'summary.html',
    'dashboard',
  ]) {
    rmSync(join(out, p), { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  const ledgerDir = mkdtempSync(join(tmpdir(), 'svc-nightly-ledger-'));
  return { o, started, log, skip, leftOut, partial, out, historyDir, env, profile, redactor, allureResults: join(out, 'allure-results'), ledgerDir };
}

/**
 * 1. Conformance. Its ledger folder is the nightly's: what every answer served is read into
 * the history after the run (scenarios/global-setup.ts leaves a folder its caller named).
 */
async function conformanceStep(run: NightlyRun): Promise<Conformance> {
  if (run.skip.has('conformance')) return undefined;
  const { o, log, env, out } = run;
  log('nightly: conformance (scenarios, browser, properties)');
  const pw = playwrightTest(
    o.grep ? [`--grep=${o.grep}`] : [],
    { ...env, SVC_RUN_LEDGER_DIR: run.ledgerDir },
    root,
    join(root, 'nightly/playwright.config.ts'),
  );
  const res = await runProcess(pw.command, pw.args, { cwd: root, env: pw.env, timeoutMs: 15 * 60_000 });
  const conformance = readConformance(join(out, 'playwright.json'));
  const f = conformance?.findings;
  log(
    `nightly: conformance exit ${res.code}${conformance && f ? `: ${conformance.passed} passed, ${conformance.failed} failed; findings ${f.stated.findings} stated, ${f.inferred.findings} inferred, ${f.informational.findings} informational` : ', no results'}`,
  );
  return conformance;
}

/** 2. Load, smoke profile; the summaries are read even when the step is skipped (none then). */
async function loadStep(run: NightlyRun): Promise<{ load: NightlySummary['load']; loadErrors: string[] }> {
  const loadErrors: string[] = [];
  if (!run.skip.has('load')) {
    run.log('nightly: load scripts, smoke profile');
    const runs = await runLoadScripts({
      root,
      scripts: listLoadScripts(root),
      reportDir: join(run.out, 'load'),
      env: { ...run.env, PROFILE: 'smoke' },
      timeoutMs: 5 * 60_000,
    });
    for (const r of runs) if (r.error) loadErrors.push(run.redactor.text(r.error));
  }
  return { load: readLoadSummaries(join(run.out, 'load')), loadErrors };
}

/** 3. Self-test. */
async function selftestStep(run: NightlyRun): Promise<Matrix | undefined> {
  if (run.skip.has('selftest')) return undefined;
  run.log('nightly: self-test matrix');
  const matrix = await runSelftest({ root, outDir: join(run.out, 'selftest'), quick: run.o.selftestQuick, env: run.o.env, log: () => {} });
  run.log(`nightly: self-test ${matrix.totals.caught}/${matrix.totals.faults} faults caught, ${matrix.totals.alarmed} false alarms`);
  return matrix;
}

/**
 * 5. The rules that take a day, on what the last night left (and tonight's, for the next),
 * then tonight's night recorded and compared with the last nights; their failures join `reasons`.
 */
async function historyStep(run: NightlyRun, reasons: GateReason[]): Promise<{ keepers?: KeepersOutcome; recorded?: Recorded }> {
  if (run.skip.has('conformance')) return {};
  const { o, log, historyDir, redactor, started, leftOut, partial } = run;
  const keepersStarted = performance.now();
  const keepers = await runKeepers({ profile: run.profile, historyDir, redactor, deliveryLog: o.deliveryLog ?? join(historyDir, 'deliveries.jsonl'), log });
  const keepersMs = performance.now() - keepersStarted;
  for (const r of keepers.results) if (r.verdict === 'failed') reasons.push({ step: 'long-running', reason: `${r.rule} (${r.rows.join(', ')}): ${r.detail}` });
  const recorded = recordNight({
    ledgerDir: run.ledgerDir,
    historyDir,
    at: new Date(Date.now() - (performance.now() - started)),
    redactor,
    leftOut: leftOut.map((l) => `${l.step} ${l.what}`),
    gateOf: (breaking) => (breaking || reasons.length ? 'fail' : partial ? 'partial' : 'pass'),
    longRunning: keepers.results,
    updateIndex: keepers.updateIndex,
    wallTimeMs: performance.now() - started,
    keepersMs,
  });
  for (const r of recorded.reasons) reasons.push({ step: 'drift', reason: r });
  log(
    `nightly: history ${recorded.night.id}: ${recorded.drift.length} drift event(s), ${recorded.breaking.length} breaking; ${recorded.flaky.length} flaky, ${recorded.slow.length} slow; ${keepers.results.length} long-running verdict(s)`,
  );
  return { keepers, recorded };
}

/**
 * The trends, tonight's row added by a full run only: a partial run's pass rate, duration or
 * detection rate would read as a change of the service or of the suite.
 */
function trendsAfter(
  run: NightlyRun,
  t: { gate: GateVerdict; conformance: Conformance; load: NightlySummary['load']; matrix: Matrix | undefined; wallTimeMs: number },
): NightlySummary['trends'] {
  const { conformance, matrix } = t;
  const total = conformance ? conformance.passed + conformance.failed + conformance.flaky : 0;
  const trendsFile = join(run.historyDir, 'trends.jsonl');
  return run.partial
    ? readTrends(trendsFile)
    : appendTrend(trendsFile, {
        at: new Date().toISOString(),
        passRate: total ? conformance!.passed / total : undefined,
        tests: total || undefined,
        durationMs: Math.round(t.wallTimeMs),
        ...trendFigures(t.load),
        detectionRate: matrix?.totals.detectionRate,
        falseAlarmRate: matrix?.totals.falseAlarmRate,
        // A full run's verdict is pass or fail (gateVerdict).
        gate: t.gate === 'fail' ? 'fail' : 'pass',
      });
}

/** The gate's entry, then the one Allure report, the team dashboard and the one-page summary (Markdown and HTML). */
async function writeReports(run: NightlyRun, summary: NightlySummary, recorded: Recorded | undefined, keepers: KeepersOutcome | undefined): Promise<void> {
  const { out, historyDir, redactor, started } = run;
  const reportPath = join(out, 'allure-report');
  writeGateEntry(run, summary);
  run.log('nightly: building the Allure report');
  await buildAllureReport({
    resultsDirs: [run.allureResults],
    output: reportPath,
    historyPath: join(historyDir, 'allure-history.jsonl'),
    appendHistory: !run.partial,
  });
  summary.wallTimeMs = performance.now() - started;
  summary.reportBytes = dirBytes(reportPath);
  // Only what this run wrote (a skipped self-test has no matrix to point at).
  const artifacts = [
    { name: 'Allure report', path: join(reportPath, 'index.html') },
    { name: 'Playwright HTML report', path: join(out, 'html', 'index.html') },
    { name: 'Contract findings by tier', path: join(out, 'html', 'tier-summary.html') },
    { name: 'JUnit XML', path: join(out, 'junit.xml') },
    { name: 'Self-test matrix', path: join(out, 'selftest', 'matrix.md') },
  ];
  const shown = (p: string) => (relative(root, p).startsWith('..') ? p : relative(root, p));
  if (recorded) {
    const dashboard = writeDashboard({ historyDir, out: join(out, 'dashboard'), redactor });
    artifacts.splice(1, 0, { name: 'Team dashboard', path: dashboard });
    summary.historyLines = historyMarkdown(recorded, { historyDir: shown(historyDir), dashboard: shown(dashboard), longRunning: keepers?.results });
  }
  summary.artifacts = artifacts.filter((a) => existsSync(a.path)).map((a) => ({ name: a.name, path: shown(a.path) }));
  const md = redactor.text(renderSummaryMarkdown(summary));
  writeFileSync(join(out, 'summary.md'), md);
  writeFileSync(join(out, 'summary.html'), markdownToHtml(md, `svc conformance — nightly ${summary.at.slice(0, 10)}`));
}

/** The trend table as an entry too, so the report itself shows the figures Allure has no chart for. */
function writeGateEntry(run: NightlyRun, summary: NightlySummary): void {
  const { gate, reasons } = summary;
  const { leftOut } = run;
  writeAllureEntry(
    run.allureResults,
    {
      fullName: 'nightly:gate',
      name: `nightly ${verdictLine(gate, reasons, leftOut)}`,
      // A partial run decides nothing about the whole: skipped, never passed.
      status: gate === 'pass' ? 'passed' : gate === 'fail' ? 'failed' : 'skipped',
      parentSuite: 'nightly',
      severity: 'blocker',
      message: [...leftOut.map((l) => `left out: ${l.step} ${l.what}`), ...reasons.slice(0, 20).map((r) => `${r.step}: ${r.reason}`)].join('\n') || undefined,
      attachments: [{ name: 'summary.md', contentType: 'text/markdown', body: renderSummaryMarkdown(summary) }],
      durationMs: summary.wallTimeMs,
    },
    run.redactor,
  );
}
