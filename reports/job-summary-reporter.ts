/**
 * Playwright reporter: the run's one-page summary in Markdown (`summary.md` in the reports
 * folder), and the same page appended to the CI job summary when the run is inside GitHub
 * Actions (GITHUB_STEP_SUMMARY). What a reader of a red gate needs first: the verdict, the
 * counts, every failed scenario with the first line of its error, then the contract
 * findings by tier.
 *
 * It runs after the redaction reporter (reports/reporters.ts), which has already removed
 * the run's secrets from the errors it reads.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { countsLine, renderFindingsMarkdown, RUN_FINDINGS, testTitle, type RunFindings } from './findings.ts';
import { loadProfile } from '../targets/index.ts';
import { EMPTY_RUN } from './empty-run-reporter.ts';
import { markdownText } from './markdown.ts';

export interface JobSummaryOptions {
  /** Where the Markdown goes. */
  outputFile: string;
  /** The run's shared findings (default RUN_FINDINGS). */
  findings?: RunFindings;
}

const FIRST_LINE_CHARS = 400;
const SKIP_REASONS_SHOWN = 15;
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
/** A message's first line as Markdown text: cut to `max` characters, then escaped (a target's words are shown, never rendered). */
const shortText = (s: string, max: number) => markdownText(s.length > max ? `${s.slice(0, max)}…` : s);

export default class JobSummaryReporter implements Reporter {
  private readonly latest = new Map<string, { test: TestCase; result: TestResult }>();
  /** Errors outside any test: a global setup that stopped the run (refused credentials, an unreachable target). */
  private readonly errors: string[] = [];

  private readonly findings: RunFindings;

  constructor(private readonly options: JobSummaryOptions) {
    this.findings = options.findings ?? RUN_FINDINGS;
  }

  /** Scenarios the run was to run: an interrupted run says how many it never reached. */
  private total = 0;

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    this.findings.begin();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.latest.set(test.id, { test, result });
    this.findings.record(test, result);
  }

  onError(error: TestError): void {
    const first = stripAnsi(error.message ?? error.value ?? '')
      .split('\n')
      .find((l) => l.trim());
    if (first) this.errors.push(`- ${shortText(first, FIRST_LINE_CHARS * 2)}`);
  }

  onEnd(result: FullResult): void {
    const profile = loadProfile();
    const outcomes = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
    const failed: string[] = [];
    /** Skip reasons and how many scenarios gave each: a reader learns what to set to run them. */
    const skips = new Map<string, number>();
    for (const { test, result: r } of this.latest.values()) {
      const outcome = test.outcome();
      const skipped = (outcome === 'expected' && r.status === 'skipped') || outcome === 'skipped';
      if (skipped) {
        const reason = [...test.annotations, ...(r.annotations ?? [])].find((a) => a.type === 'skip')?.description?.trim() || '(no reason given)';
        skips.set(reason, (skips.get(reason) ?? 0) + 1);
      }
      if (outcome === 'expected') r.status === 'skipped' ? outcomes.skipped++ : outcomes.passed++;
      else if (outcome === 'skipped') outcomes.skipped++;
      else if (outcome === 'flaky') outcomes.flaky++;
      else {
        outcomes.failed++;
        const message =
          stripAnsi(r.errors[0]?.message ?? r.error?.message ?? r.status)
            .split('\n')
            .find((l) => l.trim()) ?? r.status;
        const where = test.location ? ` (${test.location.file.split(/[\\/]/).slice(-2).join('/')}:${test.location.line})` : '';
        failed.push(`- ${markdownText(`${testTitle(test)}${where}:`)} ${shortText(message, FIRST_LINE_CHARS)}`);
      }
    }
    const findings = this.findings.summary();
    const target = profile.isSimulator ? 'the embedded simulator' : markdownText(`${profile.platformBaseUrl} (${profile.name})`);
    const verdict = result.status === 'passed' ? 'PASS' : result.status === 'interrupted' ? 'INTERRUPTED' : result.status === 'timedout' ? 'TIMED OUT' : 'FAIL';
    const lines = [
      `# svc-conformance: ${verdict}`,
      '',
      `Target ${target}; ${outcomes.passed} passed, ${outcomes.failed} failed, ${outcomes.flaky} flaky, ${outcomes.skipped} skipped${
        this.total > this.latest.size ? `, ${this.total - this.latest.size} not run${result.status === 'interrupted' ? ' (the run was interrupted)' : ''}` : ''
      } in ${(result.duration / 1000).toFixed(1)} s.`,
      `Contract findings: ${countsLine(findings)}.`,
      '',
      ...(this.errors.length ? [`## Stopped before or outside the scenarios (${this.errors.length})`, '', ...this.errors, ''] : []),
      ...(EMPTY_RUN.message
        ? [
            EMPTY_RUN.nothingSelected
              ? '## Checked nothing: no scenario matched the selection'
              : `## ${EMPTY_RUN.allowed ? 'Checked nothing (allowed by --allow-empty)' : 'Checked nothing: the gate fails'} (${EMPTY_RUN.projects.length} project(s))`,
            '',
            '```',
            EMPTY_RUN.message ?? '',
            '```',
            '',
          ]
        : []),
      ...(failed.length ? [`## Failed (${failed.length})`, '', ...failed, ''] : []),
      ...(skips.size
        ? [
            `## Skipped (${outcomes.skipped}), by reason`,
            '',
            ...[...skips]
              .sort((a, b) => b[1] - a[1])
              .slice(0, SKIP_REASONS_SHOWN)
              .map(([reason, n]) => `- ${n} x ${shortText(reason, FIRST_LINE_CHARS)}`),
            ...(skips.size > SKIP_REASONS_SHOWN
              ? [`- … and ${skips.size - SKIP_REASONS_SHOWN} more reasons (the HTML report lists every skipped scenario)`]
              : []),
            '',
          ]
        : []),
      ...renderFindingsMarkdown(findings, { strict: profile.strict }),
    ];
    const md = `${lines.join('\n')}\n`;
    mkdirSync(dirname(this.options.outputFile), { recursive: true });
    writeFileSync(this.options.outputFile, md);
    const step = process.env.GITHUB_STEP_SUMMARY;
    if (step) appendFileSync(step, md);
  }
}
