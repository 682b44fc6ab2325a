/**
 * Playwright reporter: a gate is green only when it checked something. A run in which a
 * selected scenario project ran nothing (every one of its scenarios skipped, for want of
 * credentials or settings, or none matched) fails: exit 1, with one message naming the
 * project, how many scenarios skipped and what their skips asked for (the SVC_* settings
 * their reasons name). In CI a run that checked nothing would otherwise be a silent pass.
 *
 * `run --allow-empty` (run.allowEmpty, SVC_ALLOW_EMPTY) lets such a run pass, saying so.
 * The run's own bookkeeping (the empty `run` project, the `invariants` teardown, which judges
 * what the scenarios saw and sends nothing) is not a scenario and counts for nothing here.
 *
 * What it found is kept in EMPTY_RUN for the job summary (reports/job-summary-reporter.ts),
 * which runs after it: reporters of one run share one process, and its verdict line must say
 * why the run failed.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { runSettings } from '../targets/index.ts';

/** Projects that are the run's machinery, not scenarios (playwright.config.ts). */
export const BOOKKEEPING_PROJECTS: ReadonlySet<string> = new Set(['run', 'invariants']);

export interface EmptyProject {
  project: string;
  skipped: number;
  /** Skip reasons and how many scenarios gave each, most frequent first. */
  reasons: Array<{ reason: string; count: number }>;
  /** SVC_* settings the reasons name. */
  settings: string[];
}

/** Settings named in the message; the rest are counted (preflight lists them all). */
const MISSING_SHOWN = 8;

/** What the guard found in this run (read by the job summary reporter). */
export const EMPTY_RUN: { projects: EmptyProject[]; allowed: boolean; nothingSelected: boolean; message?: string } = {
  projects: [],
  allowed: false,
  nothingSelected: false,
};

/**
 * A selection that matched no scenario: Playwright says only "No tests found" and fails the
 * run; the user learns which options select and how to see what they select.
 */
export const NOTHING_SELECTED =
  "svc-conformance: FAIL: no scenario matched this run's selection (its --grep, --grep-invert, --project, --shard or file arguments), so it checked nothing. `svc-conformance run --list` with the same options lists what a selection holds; tags: @smoke @readonly @destructive and one per area (scenarios/README.md).";

/** One message for the console and the summary: what ran nothing, and what it needed. */
export function emptyRunMessage(projects: readonly EmptyProject[], allowed: boolean): string {
  const lines = projects.map((p) => {
    const top = p.reasons
      .slice(0, 3)
      .map((r) => `${r.count} x ${r.reason}`)
      .join('; ');
    const shown = p.settings.slice(0, MISSING_SHOWN);
    const needs = p.settings.length
      ? ` Missing, most needed first: ${shown.join(', ')}${p.settings.length > shown.length ? ` and ${p.settings.length - shown.length} more` : ''}.`
      : '';
    return p.skipped
      ? `  - ${p.project}: all ${p.skipped} scenarios skipped (${top}${p.reasons.length > 3 ? '; …' : ''}).${needs}`
      : `  - ${p.project}: no scenario selected.`;
  });
  const head = allowed
    ? 'svc-conformance: this run checked nothing in these projects (--allow-empty: passing anyway):'
    : 'svc-conformance: FAIL: this run checked nothing in these projects, and a gate that checked nothing is not green:';
  const tail = allowed ? '' : '\nSet what the skips name (svc-conformance preflight lists every scenario that will skip and why), or pass --allow-empty.';
  return `${head}\n${lines.join('\n')}${tail}`;
}

/** The projects of a finished run that ran nothing (pure: tests by project, with their outcomes and skip reasons). */
export function emptyProjects(tests: ReadonlyArray<{ project: string; skipped: boolean; skipReason?: string }>, projects: readonly string[]): EmptyProject[] {
  const out: EmptyProject[] = [];
  for (const project of projects) {
    if (BOOKKEEPING_PROJECTS.has(project)) continue;
    const mine = tests.filter((t) => t.project === project);
    if (mine.some((t) => !t.skipped)) continue;
    const counts = new Map<string, number>();
    for (const t of mine) {
      const reason = t.skipReason?.trim() || '(no reason given)';
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    const reasons = [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
    // Settings by how many skipped scenarios name them: the one that unlocks most comes first.
    const weight = new Map<string, number>();
    for (const r of reasons) for (const s of new Set(r.reason.match(/\bSVC_[A-Z0-9_]+\b/g) ?? [])) weight.set(s, (weight.get(s) ?? 0) + r.count);
    const settings = [...weight].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s]) => s);
    out.push({ project, skipped: mine.length, reasons, settings });
  }
  return out;
}

export default class EmptyRunReporter implements Reporter {
  private projects: string[] = [];
  /** Scenarios the run selected (its bookkeeping left out). */
  private scenarios = 0;
  private readonly latest = new Map<string, { test: TestCase; result: TestResult }>();

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.projects = suite.suites.map((s) => s.title).filter((t) => t && !BOOKKEEPING_PROJECTS.has(t));
    this.scenarios = suite.allTests().filter((t) => !BOOKKEEPING_PROJECTS.has(t.parent.project()?.name ?? '')).length;
    EMPTY_RUN.projects = [];
    EMPTY_RUN.nothingSelected = false;
    EMPTY_RUN.message = undefined;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.latest.set(test.id, { test, result });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    // Nothing selected: Playwright fails the run ("No tests found", unless --pass-with-no-tests).
    if (this.scenarios === 0 && result.status === 'failed') {
      EMPTY_RUN.nothingSelected = true;
      EMPTY_RUN.message = NOTHING_SELECTED;
      console.log(`\n${NOTHING_SELECTED}`);
      return undefined;
    }
    // A run stopped before its scenarios (a refused credential in globalSetup) already fails, naming its cause.
    if (result.status !== 'passed') return undefined;
    const tests = [...this.latest.values()].map(({ test, result: r }) => ({
      project: test.parent.project()?.name ?? '',
      skipped: r.status === 'skipped',
      skipReason: [...test.annotations, ...r.annotations].find((a) => a.type === 'skip')?.description,
    }));
    const empty = emptyProjects(tests, this.projects);
    if (!empty.length) return undefined;
    const allowed = runSettings().allowEmpty;
    EMPTY_RUN.projects = empty;
    EMPTY_RUN.allowed = allowed;
    EMPTY_RUN.message = emptyRunMessage(empty, allowed);
    console.log(`\n${EMPTY_RUN.message}`);
    return allowed ? undefined : { status: 'failed' };
  }
}
