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
import { createRedactor, loadProfile, profileSecrets, playwrightTest, runProcess } from '../targets/index.ts';
import { listLoadScripts, runLoadScripts } from '../load/load-run.ts';
import { matrixEntries, selftestFigures, type Matrix } from '../proof/matrix.ts';
import { readConformance } from '../reports/conformance.ts';
import { loadEntries, readLoadSummaries, trendFigures } from '../reports/load-summary.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';
import { buildAllureReport } from '../reports/allure/build.ts';
import { appendTrend, readTrends } from '../reports/trends.ts';
import { gateReasons, gateVerdict, markdownToHtml, renderSummaryMarkdown, verdictLine, type LeftOut, type NightlySummary } from '../reports/summary.ts';
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

export async function runNightly(o: NightlyOptions = {}): Promise<NightlySummary> {
  const started = performance.now();
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
  const allureResults = join(out, 'allure-results');
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

  // 1. Conformance. Its ledger folder is the nightly's: what every answer served is read into
  // the history after the run (scenarios/global-setup.ts leaves a folder its caller named).
  let conformance;
  const ledgerDir = mkdtempSync(join(tmpdir(), 'svc-nightly-ledger-'));
  try {
    if (!skip.has('conformance')) {
      log('nightly: conformance (scenarios, browser, properties)');
      const pw = playwrightTest(
        o.grep ? [`--grep=${o.grep}`] : [],
        { ...env, SVC_RUN_LEDGER_DIR: ledgerDir },
        root,
        join(root, 'nightly/playwright.config.ts'),
      );
      const res = await runProcess(pw.command, pw.args, { cwd: root, env: pw.env, timeoutMs: 15 * 60_000 });
      conformance = readConformance(join(out, 'playwright.json'));
      const f = conformance?.findings;
      log(
        `nightly: conformance exit ${res.code}${conformance && f ? `: ${conformance.passed} passed, ${conformance.failed} failed; findings ${f.stated.findings} stated, ${f.inferred.findings} inferred, ${f.informational.findings} informational` : ', no results'}`,
      );
    }

    // 2. Load, smoke profile.
    const loadErrors: string[] = [];
    if (!skip.has('load')) {
      log('nightly: load scripts, smoke profile');
      const runs = await runLoadScripts({
        root,
        scripts: listLoadScripts(root),
        reportDir: join(out, 'load'),
        env: { ...env, PROFILE: 'smoke' },
        timeoutMs: 5 * 60_000,
      });
      for (const r of runs) if (r.error) loadErrors.push(redactor.text(r.error));
    }
    const load = readLoadSummaries(join(out, 'load'));

    // 3. Self-test.
    let matrix: Matrix | undefined;
    if (!skip.has('selftest')) {
      log('nightly: self-test matrix');
      matrix = await runSelftest({ root, outDir: join(out, 'selftest'), quick: o.selftestQuick, env: o.env, log: () => {} });
      log(`nightly: self-test ${matrix.totals.caught}/${matrix.totals.faults} faults caught, ${matrix.totals.alarmed} false alarms`);
    }

    // 4. Report entries and the Allure report.
    for (const e of loadEntries(load)) writeAllureEntry(allureResults, e, redactor);
    if (matrix) for (const e of matrixEntries(matrix)) writeAllureEntry(allureResults, e, redactor);

    const selftest = matrix && selftestFigures(matrix);
    const reasons = gateReasons({ conformance, load, loadErrors, selftest }, new Set(leftOut.filter((l) => l.notRun).map((l) => l.step)));

    // 5. The rules that take a day, on what the last night left (and tonight's, for the next),
    // then tonight's night recorded and compared with the last nights.
    let keepers: KeepersOutcome | undefined;
    let recorded: Recorded | undefined;
    if (!skip.has('conformance')) {
      const keepersStarted = performance.now();
      keepers = await runKeepers({ profile, historyDir, redactor, deliveryLog: o.deliveryLog ?? join(historyDir, 'deliveries.jsonl'), log });
      const keepersMs = performance.now() - keepersStarted;
      for (const r of keepers.results)
        if (r.verdict === 'failed') reasons.push({ step: 'long-running', reason: `${r.rule} (${r.rows.join(', ')}): ${r.detail}` });
      recorded = recordNight({
        ledgerDir,
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
    }
    const gate = gateVerdict(reasons, leftOut);
    const total = conformance ? conformance.passed + conformance.failed + conformance.flaky : 0;
    const wallTimeMs = performance.now() - started;
    // Trends compare full nightlies: a partial run's pass rate, duration or detection rate
    // would read as a change of the service or of the suite.
    const trendsFile = join(historyDir, 'trends.jsonl');
    const trends = partial
      ? readTrends(trendsFile)
      : appendTrend(trendsFile, {
          at: new Date().toISOString(),
          passRate: total ? conformance!.passed / total : undefined,
          tests: total || undefined,
          durationMs: Math.round(wallTimeMs),
          ...trendFigures(load),
          detectionRate: matrix?.totals.detectionRate,
          falseAlarmRate: matrix?.totals.falseAlarmRate,
          // A full run's verdict is pass or fail (gateVerdict).
          gate: gate === 'fail' ? 'fail' : 'pass',
        });

    const reportPath = join(out, 'allure-report');
    const summary: NightlySummary = {
      at: new Date().toISOString(),
      wallTimeMs,
      gate,
      reasons,
      leftOut,
      strict: profile.strict,
      trendRecorded: !partial,
      conformance,
      load,
      loadErrors,
      selftest,
      trends,
      reportPath: relative(root, reportPath),
    };
    // The trend table as an entry too, so the report itself shows the figures Allure has no chart for.
    writeAllureEntry(
      allureResults,
      {
        fullName: 'nightly:gate',
        name: `nightly ${verdictLine(gate, reasons, leftOut)}`,
        // A partial run decides nothing about the whole: skipped, never passed.
        status: gate === 'pass' ? 'passed' : gate === 'fail' ? 'failed' : 'skipped',
        parentSuite: 'nightly',
        severity: 'blocker',
        message: [...leftOut.map((l) => `left out: ${l.step} ${l.what}`), ...reasons.slice(0, 20).map((r) => `${r.step}: ${r.reason}`)].join('\n') || undefined,
        attachments: [{ name: 'summary.md', contentType: 'text/markdown', body: renderSummaryMarkdown(summary) }],
        durationMs: wallTimeMs,
      },
      redactor,
    );
    log('nightly: building the Allure report');
    await buildAllureReport({
      resultsDirs: [allureResults],
      output: reportPath,
      historyPath: join(historyDir, 'allure-history.jsonl'),
      appendHistory: !partial,
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
    return summary;
  } finally {
    rmSync(ledgerDir, { recursive: true, force: true });
  }
}
