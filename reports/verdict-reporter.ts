/**
 * The verdict of every scenario, for the nightly's history (history/: flaky verdicts over
 * nights, findings by tier and area on the dashboard). Writes one JSON line per test into
 * the run's ledger folder when a caller named that folder and keeps it (the nightly,
 * `run --history`: scenarios/global-setup.ts then writes LEDGER_FILES.target there); in any
 * other run it writes nothing.
 *
 * At the end of the run, so a retried test has one line with its outcome (Playwright's
 * `expected`, `unexpected`, `flaky`, `skipped`).
 */
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { runSettings } from '../targets/index.ts';
import { findingsOf, tierCounts } from './findings.ts';

/** Files of a caller-kept ledger folder beside the workers' `<pid>.jsonl` observations. */
export const LEDGER_FILES = {
  /** `{target, embedded, runId}`: the target the run's observations are of (scenarios/global-setup.ts). */
  target: 'run-target.json',
  /** One VerdictLine per test. */
  verdicts: 'verdicts.jsonl',
} as const;

export interface VerdictLine {
  /** `<file> › <describe> › <title>`: the scenario across nights. */
  name: string;
  /** The title path as the checked client names its observations' source (scenarios/fixtures/client.ts). */
  source: string;
  project: string;
  outcome: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  durationMs: number;
  /** Tags (`@members`): the areas on the dashboard. */
  tags: string[];
  /** Contract findings by tier: the distinct findings of the test's last attempt (reports/findings.ts). */
  tiers: { stated: number; inferred: number; informational: number };
}

export default class VerdictReporter implements Reporter {
  private root?: Suite;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.root = suite;
  }

  printsToStdio(): boolean {
    return false;
  }

  onEnd(): void {
    // Read at the end: globalSetup names the folder after the reporters are made.
    const dir = runSettings().runLedgerDir;
    if (!dir || !this.root || !existsSync(join(dir, LEDGER_FILES.target))) return;
    const lines: string[] = [];
    for (const t of this.root.allTests()) {
      // ['', project, file, ...describes, title]
      const path = t.titlePath();
      const project = path[1] ?? '';
      const results = t.results;
      const last = results.at(-1);
      const tiers = tierCounts(findingsOf(last?.attachments ?? []));
      const line: VerdictLine = {
        name: path.slice(2).join(' › '),
        source: path.slice(3).join(' › '),
        project,
        outcome: t.outcome(),
        durationMs: results.reduce((n, r) => n + r.duration, 0),
        tags: t.tags,
        tiers,
      };
      lines.push(JSON.stringify(line));
    }
    if (lines.length) appendFileSync(join(dir, LEDGER_FILES.verdicts), `${lines.join('\n')}\n`);
  }
}
