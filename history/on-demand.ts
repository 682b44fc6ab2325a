/**
 * The history's two doors for the CLI (cli/commands/run.ts, cli/commands/drift.ts):
 * `run --history <dir>` records the run it just made and compares it (like the nightly,
 * without the other steps), and
 * `svc-conformance drift --history <dir>` answers the same comparison on demand, from the
 * history alone: the latest night of each target (or the night named) against the nights
 * before it, classified by the Versioning section (history/drift.ts).
 *
 * Bad input (no history there, an unreadable or foreign index, an unknown night or target) is
 * a HistoryError: the CLI prints its message and exits 2, never a stack trace.
 */
import { existsSync, statSync } from 'node:fs';
import type { Redactor } from '../targets/index.ts';
import { writeDashboard } from './dashboard.ts';
import { compareNights, driftMarkdown, driftReason, type DriftEvent } from './drift.ts';
import type { Night } from './night.ts';
import { costLine, historyMarkdown, recordNight, type Recorded } from './record.ts';
import { HistoryError, keptNights, observationsDir, readIndex, type HistoryIndex } from './store.ts';

export interface DriftAnswer {
  target: string;
  /** The night compared. */
  night: string;
  /** Earlier nights of the same target it was compared with. */
  comparedWith: number;
  events: DriftEvent[];
}

function assertHistory(dir: string): HistoryIndex {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new HistoryError(`--history ${dir}: no such folder (a folder a nightly or \`run --history\` wrote)`);
  if (!existsSync(observationsDir(dir)))
    throw new HistoryError(`--history ${dir}: no observations/ in it: no nightly or \`run --history\` has recorded a night there yet`);
  return readIndex(dir);
}

/**
 * Every target's latest night (or `night`) compared with the nights before it. The first-seen
 * entries that night added are left out of what it is compared with, so the answer is the one the
 * night itself gave, added fields and values included.
 */
export function driftOnDemand(o: { historyDir: string; target?: string; night?: string }): DriftAnswer[] {
  const index = assertHistory(o.historyDir);
  if (!index.nights.length) throw new HistoryError(`--history ${o.historyDir}: no night kept in full (the index lists none)`);
  const targets = [...new Set(index.nights.map((n) => n.target))];
  if (o.target !== undefined && !targets.includes(o.target))
    throw new HistoryError(`--target ${o.target}: not in this history; its targets: ${targets.join(', ')}`);
  if (o.night !== undefined && !index.nights.some((n) => n.id === o.night))
    throw new HistoryError(`--night ${o.night}: not kept in full in this history; nights kept: ${index.nights.map((n) => n.id).join(', ')}`);
  const out: DriftAnswer[] = [];
  for (const target of o.target !== undefined ? [o.target] : targets) {
    const nights: Night[] = keptNights(o.historyDir, index, target);
    const tonight = o.night !== undefined ? nights.find((n) => n.id === o.night) : nights.at(-1);
    if (!tonight) continue;
    const earlier = nights.filter((n) => n.id < tonight.id);
    const firstSeen = Object.fromEntries(Object.entries(index.firstSeen).filter(([, night]) => night < tonight.id));
    out.push({ target, night: tonight.id, comparedWith: earlier.length, events: compareNights(tonight, earlier, firstSeen).events });
  }
  return out;
}

/** The console's lines of an on-demand answer. */
export function driftConsoleLines(answers: readonly DriftAnswer[]): string[] {
  const lines: string[] = [];
  for (const a of answers) {
    const by = (cls: DriftEvent['cls']) => a.events.filter((e) => e.cls === cls);
    lines.push(
      `${a.target}: night ${a.night} against ${a.comparedWith} earlier night(s): ${by('breaking').length} breaking, ${by('non-breaking').length} non-breaking, ${by('informational').length} informational`,
    );
    if (!a.comparedWith) lines.push('  nothing to compare with yet: drift shows from the second night of a target');
    for (const e of by('breaking')) lines.push(`  BREAKING ${driftReason(e)}`);
    for (const e of [...by('non-breaking'), ...by('informational')])
      lines.push(
        `  ${e.cls} ${e.kind}: ${e.operation}${e.status ? ` → ${e.status}` : ''} at ${e.path}: last night (${e.last.night}) ${e.last.value}; tonight ${e.tonight}`,
      );
  }
  return lines;
}

export function driftAnswersMarkdown(answers: readonly DriftAnswer[]): string {
  return `${answers.flatMap((a) => driftMarkdown(a.events, { title: `Drift inside a version: ${a.target}, night ${a.night} against ${a.comparedWith} earlier night(s)` })).join('\n')}\n`;
}

/** After a `run --history`: the night recorded, compared, the dashboard written; lines for the console. */
export function recordRun(o: {
  ledgerDir: string;
  historyDir: string;
  out: string;
  redactor: Redactor;
  at: Date;
  leftOut: string[];
  playwrightExit: number;
  wallTimeMs: number;
}): { recorded: Recorded; dashboard: string; lines: string[]; markdown: string[] } {
  const recorded = recordNight({
    ledgerDir: o.ledgerDir,
    historyDir: o.historyDir,
    at: o.at,
    redactor: o.redactor,
    leftOut: o.leftOut,
    gateOf: (breaking) => (breaking || o.playwrightExit !== 0 ? 'fail' : o.leftOut.length ? 'partial' : 'pass'),
    wallTimeMs: o.wallTimeMs,
  });
  const dashboard = writeDashboard({ historyDir: o.historyDir, out: o.out, redactor: o.redactor });
  const lines = [
    `history: night ${recorded.night.id} of ${recorded.night.target} recorded in ${o.historyDir}: ${recorded.night.operations.length} operations, ${recorded.night.scenarios.length} scenario verdicts; compared with ${recorded.comparedWith} earlier night(s)`,
    `history: ${recorded.drift.length} drift event(s), ${recorded.breaking.length} breaking; ${recorded.flaky.length} flaky, ${recorded.slow.length} slow; ${costLine(recorded.cost)}`,
    ...recorded.reasons.map((r) => `  BREAKING ${r}`),
    `history: dashboard ${dashboard}`,
  ];
  return { recorded, dashboard, lines, markdown: historyMarkdown(recorded, { historyDir: o.historyDir, dashboard }) };
}
