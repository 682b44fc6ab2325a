/**
 * Playwright reporter: the run-level summary of contract findings by tier (../shared/DESIGN.md,
 * "Checks and failures": stated, inferred, informational, each shown apart in every report).
 * The findings are the typed records each test attaches (FindingRecord, declared and read in
 * reports/findings.ts; written by scenarios/fixtures/findings.ts for the checked client,
 * scenarios/inferred.ts and the delivery properties), kept in the run's shared RunFindings.
 * Only the last attempt of a retried test counts.
 *
 *   console      counts per tier, then EVERY distinct finding grouped by tier and check,
 *                each in full with the tests that show it (reports/findings.ts)
 *   HTML report  the counts as the report's title (the HTML reporter's documented
 *                PLAYWRIGHT_HTML_TITLE, which it reads when it builds the report: this
 *                reporter must come before `html` in the list; its `title` option is
 *                copied when Playwright constructs it, so a title decided at the end
 *                has no other public way in: microsoft/playwright#36406), and `outputFile`, a
 *                self-contained page of every finding linking to its tests, written
 *                into the HTML report's folder once that report is built (onExit)
 *
 * Options: `outputFile` (default: tier-summary.html in PLAYWRIGHT_HTML_OUTPUT_DIR when
 * that is set, as for `playwright merge-reports`; otherwise no page), `htmlTitle`
 * (default true).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { countsLine, renderFindingsHtml, renderFindingsText, RUN_FINDINGS, type FindingsSummary, type RunFindings } from './findings.ts';
import { loadProfile } from '../targets/index.ts';

export const SUMMARY_FILE_NAME = 'tier-summary.html';

export interface TierSummaryOptions {
  outputFile?: string;
  htmlTitle?: boolean;
  /** Where the console text goes (default process.stdout; the unit test captures it). */
  write?: (text: string) => void;
  /** The run's shared findings (default RUN_FINDINGS; the unit test gives its own). */
  findings?: RunFindings;
}

/** The HTML report's title with the run's counts: the user's own title (if any) first. */
export function reportTitle(summary: FindingsSummary, ownTitle: string | undefined, summaryFile: string | undefined): string {
  const where = summaryFile ? `; every finding: ${summaryFile.split(/[\\/]/).pop()} in this report's folder` : '';
  return `${ownTitle ? `${ownTitle} — ` : ''}Contract findings: ${countsLine(summary)} (filter annot:stated, annot:inferred, annot:informational${where})`;
}

export default class TierSummaryReporter implements Reporter {
  private readonly findings: RunFindings;
  private readonly outputFile: string | undefined;
  private readonly htmlTitle: boolean;
  private readonly write: (text: string) => void;
  private ownTitle: string | undefined;
  private summary: FindingsSummary | undefined;

  constructor(options: TierSummaryOptions = {}) {
    const htmlDir = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR;
    this.outputFile = options.outputFile ? resolve(options.outputFile) : htmlDir ? resolve(htmlDir, SUMMARY_FILE_NAME) : undefined;
    this.htmlTitle = options.htmlTitle ?? true;
    this.write = options.write ?? ((text) => process.stdout.write(text));
    this.findings = options.findings ?? RUN_FINDINGS;
  }

  printsToStdio(): boolean {
    return false;
  }

  onConfigure(config: FullConfig): void {
    const html = config.reporter.find(([name]) => name === 'html');
    this.ownTitle = process.env.PLAYWRIGHT_HTML_TITLE || ((html?.[1] as { title?: string } | undefined)?.title ?? undefined);
  }

  onBegin(): void {
    this.findings.begin();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.findings.record(test, result);
  }

  onEnd(_result: FullResult): void {
    const strict = loadProfile().strict;
    const summary = this.findings.summary();
    this.summary = summary;
    const inCwd = this.outputFile && relative(process.cwd(), this.outputFile);
    const shownPath = inCwd && !inCwd.startsWith('..') ? inCwd : this.outputFile;
    this.write(renderFindingsText(summary, { strict, summaryFile: shownPath }));
    if (this.htmlTitle) process.env.PLAYWRIGHT_HTML_TITLE = reportTitle(summary, this.ownTitle, this.outputFile);
  }

  async onExit(): Promise<void> {
    if (!this.outputFile || !this.summary) return;
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, renderFindingsHtml(this.summary, { strict: loadProfile().strict, reportIndex: 'index.html' }));
  }
}
