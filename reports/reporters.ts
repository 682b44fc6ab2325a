/**
 * The reporters of a conformance run (playwright.config.ts; nightly/playwright.config.ts
 * adds its JSON report), all writing under one output folder (reports/out, or SVC_REPORTS_OUT).
 *
 *   list                     the console
 *   empty run                fails a run in which a selected scenario project ran nothing
 *                            (reports/empty-run-reporter.ts; --allow-empty lets it pass)
 *   tier summary             contract findings by tier on the console, the counts as the
 *                            HTML report's title and html/tier-summary.html (before `html`:
 *                            it sets the title the HTML reporter reads when it builds)
 *   job summary              summary.md: verdict, counts, every failed scenario, findings;
 *                            appended to GitHub's job summary inside Actions
 *   html                     html/
 *   junit                    junit.xml, annotations as <property> elements, so the tiers
 *                            (`stated`, `inferred`, `informational`) are told apart in CI
 *   allure (fresh results)   allure-results/, cleared when the run begins
 *   verdicts                 every scenario's outcome into a ledger folder the caller keeps
 *                            (the nightly, `run --history`; reports/verdict-reporter.ts)
 *
 * Before all of them, the redaction reporter (reports/redaction-reporter.ts): it removes the
 * run's secrets from step titles, errors and attachment files (trace zips,
 * error-context.md) before any reporter below reads or copies them.
 *
 * `playwright test --list` (with any other option) runs no test: it gets the console list
 * only, so listing never overwrites the last run's HTML report or JUnit file, nor adds
 * "skipped" results to allure-results.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReporterDescription } from '@playwright/test';
import { SUMMARY_FILE_NAME } from './tier-summary-reporter.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
export const TIER_SUMMARY_REPORTER = here('./tier-summary-reporter.ts');
export const FRESH_ALLURE_REPORTER = here('./allure/reporter.ts');
export const REDACTION_REPORTER = here('./redaction-reporter.ts');
export const JOB_SUMMARY_REPORTER = here('./job-summary-reporter.ts');
export const EMPTY_RUN_REPORTER = here('./empty-run-reporter.ts');
const VERDICT_REPORTER = here('./verdict-reporter.ts');

/** Whether Playwright was asked to list the tests instead of running them. */
export function isListing(argv: readonly string[] = process.argv): boolean {
  return argv.includes('--list');
}

/** Every file and folder a conformance run writes under `out`. */
export function reportPaths(out: string) {
  const root = resolve(out);
  return {
    html: join(root, 'html'),
    tierSummary: join(root, 'html', SUMMARY_FILE_NAME),
    jobSummary: join(root, 'summary.md'),
    junit: join(root, 'junit.xml'),
    allureResults: join(root, 'allure-results'),
    testResults: join(root, 'test-results'),
  };
}

/**
 * `allure: false` for `playwright merge-reports` (reports/playwright.merge.config.ts):
 * allure-playwright needs the projects of a run, which a merge has not got.
 */
export function conformanceReporters(o: { out: string; listing: boolean; allure?: boolean }): ReporterDescription[] {
  if (o.listing) return [['list']];
  const p = reportPaths(o.out);
  return [
    [REDACTION_REPORTER],
    ['list'],
    // Before the summaries: a run that checked nothing fails, and they say why.
    [EMPTY_RUN_REPORTER],
    [TIER_SUMMARY_REPORTER, { outputFile: p.tierSummary }],
    [JOB_SUMMARY_REPORTER, { outputFile: p.jobSummary }],
    ['html', { outputFolder: p.html, open: 'never' }],
    ['junit', { outputFile: p.junit, embedAnnotationsAsProperties: true }],
    ...(o.allure === false ? [] : [[FRESH_ALLURE_REPORTER, { resultsDir: p.allureResults, detail: false }] as ReporterDescription]),
    // A merge of shard reports has no run ledger folder to write verdicts into.
    ...(o.allure === false ? [] : [[VERDICT_REPORTER] as ReporterDescription]),
  ];
}
