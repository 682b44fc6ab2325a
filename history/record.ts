/**
 * Records one run into the history and compares it with the last nights (the nightly always;
 * `run --history <dir>`): the night is built from the run's ledger folder (history/night.ts),
 * compared (history/drift.ts, history/over-time.ts), saved bounded and redacted
 * (history/store.ts). What it cost is measured and kept with the night.
 *
 * A breaking drift is a stated failure of the night (Versioning: "Breaking (require a new
 * version)"): `reasons` carries one line per event, quoting the sentence; everything else is
 * reported and never fails.
 */
import type { Redactor } from '../targets/index.ts';
import { compareNights, driftMarkdown, driftReason, type DriftEvent } from './drift.ts';
import { buildNight, readLedger, type Night, type NightCost } from './night.ts';
import { flakyScenarios, slowOperations, SLOW_FACTOR, type FlakyScenario, type SlowOperation } from './over-time.ts';
import { HISTORY_LIMIT_BYTES, keptNights, readIndex, saveNight, type HistoryIndex, type LongRunningResult } from './store.ts';
import { markdownText } from '../reports/markdown.ts';

export interface RecordOptions {
  ledgerDir: string;
  historyDir: string;
  at: Date;
  redactor: Redactor;
  leftOut?: string[];
  /** The night's verdict, given how many breaking drift events it found (they fail it). */
  gateOf?: (breaking: number) => Night['gate'];
  /** Judged tonight by history/keepers.ts, kept in the index. */
  longRunning?: LongRunningResult[];
  /** What else the night wants in its index (keepers left for the next night). */
  updateIndex?: (index: HistoryIndex) => void;
  /** Time of the whole nightly or run so far, for the cost's share. */
  wallTimeMs?: number;
  keepersMs?: number;
  keep?: number;
  limitBytes?: number;
}

export interface Recorded {
  night: Night;
  /** Tonight's drift events. */
  drift: DriftEvent[];
  breaking: DriftEvent[];
  /** Gate reasons: one per breaking event. */
  reasons: string[];
  flaky: FlakyScenario[];
  slow: SlowOperation[];
  /** Earlier nights of the same target it was compared with. */
  comparedWith: number;
  bytes: number;
  folded: string[];
  cost: NightCost;
}

export function recordNight(o: RecordOptions): Recorded {
  const t0 = performance.now();
  const ledger = readLedger(o.ledgerDir);
  const { night, servedMs } = buildNight(ledger, { at: o.at, leftOut: o.leftOut });
  const t1 = performance.now();
  const index = readIndex(o.historyDir);
  const earlier = keptNights(o.historyDir, index, night.target);
  const { events, seen } = compareNights(night, earlier, index.firstSeen);
  const nights = [...earlier, night];
  const flaky = flakyScenarios(nights, [...index.drift.filter((d) => d.target === night.target), ...events]);
  const slow = slowOperations(nights);
  const gate = o.gateOf?.(events.filter((e) => e.cls === 'breaking').length);
  if (gate) night.gate = gate;
  const cost: NightCost = {
    servedMs: Math.round(servedMs),
    recordMs: Math.round(t1 - t0),
    // Comparing, measured before the night is written so the night keeps it; writing is measured after (writeMs).
    compareMs: Math.round(performance.now() - t1),
    ...(o.keepersMs !== undefined ? { keepersMs: Math.round(o.keepersMs) } : {}),
    ...(o.wallTimeMs !== undefined ? { wallTimeMs: Math.round(o.wallTimeMs) } : {}),
  };
  night.cost = cost;
  const t2 = performance.now();
  const saved = saveNight(
    o.historyDir,
    night,
    o.redactor,
    (ix) => {
      Object.assign(ix.firstSeen, seen);
      ix.drift = [...ix.drift.filter((d) => d.night !== night.id), ...events];
      if (o.longRunning?.length) ix.longRunning = [...ix.longRunning, ...o.longRunning].slice(-500);
      o.updateIndex?.(ix);
    },
    { keep: o.keep, limitBytes: o.limitBytes },
  );
  cost.writeMs = Math.round(performance.now() - t2);
  const breaking = events.filter((e) => e.cls === 'breaking');
  return {
    night,
    drift: events,
    breaking,
    reasons: breaking.map(driftReason),
    flaky,
    slow,
    comparedWith: earlier.length,
    bytes: saved.bytes,
    folded: saved.folded,
    cost,
  };
}

const ms = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

/** The cost of recording and comparing, and its share of the night (README: under 10 %). */
export function costLine(c: NightCost): string {
  const spent = c.servedMs + c.recordMs + c.compareMs + (c.writeMs ?? 0);
  const share = c.wallTimeMs ? ` = ${((100 * spent) / c.wallTimeMs).toFixed(1)} % of the night's ${ms(c.wallTimeMs)}` : '';
  return `recording and comparing: ${ms(spent)} (reading what answers served in the run ${ms(c.servedMs)}, building the night ${ms(c.recordMs)}, comparing ${ms(c.compareMs)}${c.writeMs !== undefined ? `, writing ${ms(c.writeMs)}` : ''})${share}${c.keepersMs !== undefined ? `; the long-running step ${ms(c.keepersMs)} (requests to the target)` : ''}`;
}

/** The history's part of the nightly summary. */
export function historyMarkdown(r: Recorded, o: { historyDir: string; dashboard?: string; longRunning?: LongRunningResult[] }): string[] {
  const lines = [
    '## History (what the target served, night after night)',
    '',
    `- night \`${r.night.id}\` of ${r.night.target}: ${r.night.operations.length} operations, ${r.night.scenarios.length} scenario verdicts; compared with ${r.comparedWith} earlier night(s); history ${(r.bytes / 1024).toFixed(0)} KiB of at most ${HISTORY_LIMIT_BYTES / 1024 / 1024} MiB in \`${o.historyDir}\`${r.folded.length ? ` (summarised: ${r.folded.join(', ')})` : ''}`,
    `- ${costLine(r.cost)}`,
    ...(o.dashboard ? [`- dashboard: \`${o.dashboard}\``] : []),
    '',
    ...driftMarkdown(r.drift),
  ];
  const lr = o.longRunning ?? [];
  lines.push('## Rules that take a day (observed across nights)', '');
  if (!lr.length) lines.push('_Nothing judged tonight._', '');
  else {
    lines.push('| rule | rows | verdict | detail |', '|---|---|---|---|');
    for (const x of lr) lines.push(`| ${x.rule} | ${x.rows.join(', ')} | ${x.verdict} | ${markdownText(x.detail)} |`);
    lines.push('');
  }
  lines.push('## Flaky scenarios (verdicts that flip between nights without a drift to explain them)', '');
  if (!r.flaky.length) lines.push('_None._', '');
  else
    for (const f of r.flaky.slice(0, 30)) lines.push(`- ${f.name} [${f.project}]: ${f.history.map((h) => `${h.night.slice(0, 9)} ${h.outcome}`).join(' → ')}`);
  lines.push('', `## Slow operations (p95 above ${SLOW_FACTOR}× its median over the last nights; reported, never failing)`, '');
  if (!r.slow.length) lines.push('_None._', '');
  else
    for (const s of r.slow)
      lines.push(`- ${s.operation} (${s.version || s.api}): p95 ${s.tonightP95} ms tonight, median ${s.medianP95} ms over ${s.nights} nights (${s.factor}×)`);
  lines.push('');
  return lines;
}
