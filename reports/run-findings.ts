/**
 * The run's contract findings, shared by the reporters of one run (Playwright makes every
 * reporter of a run in one process): each reporter that shows findings (the tier summary,
 * the job summary) records what it sees into this one object and reads the summary from it,
 * in whatever order the reporters run, instead of handing values on through the
 * environment. Only the last attempt of a retried test counts.
 */
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { findingsOf, summariseFindings, type FindingsSummary, type TestFindings } from './findings.ts';

/** `[project] file › describe › title`, as Playwright's list reporter names a test. */
export function testTitle(test: TestCase): string {
  const [, project, ...rest] = test.titlePath();
  return `${project ? `[${project}] ` : ''}${rest.filter(Boolean).join(' › ')}`;
}

export class RunFindings {
  /** test id -> its latest attempt's findings */
  private readonly latest = new Map<string, TestFindings>();
  private summarised: FindingsSummary | undefined;

  /** A run begins: nothing of an earlier run in the same process counts. */
  begin(): void {
    this.latest.clear();
    this.summarised = undefined;
  }

  /** A test's attempt ended (every reporter may record it: the last attempt replaces the earlier ones). */
  record(test: TestCase, result: TestResult): void {
    this.latest.set(test.id, { title: testTitle(test), id: test.id, findings: findingsOf(result.attachments) });
    this.summarised = undefined;
  }

  summary(): FindingsSummary {
    this.summarised ??= summariseFindings(this.latest.values());
    return this.summarised;
  }
}

/** The run's one RunFindings (a unit test gives its reporter its own). */
export const RUN_FINDINGS = new RunFindings();
