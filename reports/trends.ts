/**
 * The nightly's own trend figures (DESIGN.md, "What it is for" 3: pass rate, duration, observed
 * rate limit, p95 page latency; and the self-test's detection and false-alarm rates), one JSON
 * line per run in reports/history/trends.jsonl. Allure keeps its own history beside it
 * (reports/allure/build.ts); these are the figures Allure has no chart for.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface TrendPoint {
  at: string;
  /** passed / (passed + failed) of the scenarios and properties, 0..1 */
  passRate?: number;
  tests?: number;
  /** Wall time of the whole nightly, ms. */
  durationMs?: number;
  observedRateLimit?: number;
  p95PageLatencyMs?: number;
  detectionRate?: number;
  falseAlarmRate?: number;
  gate?: 'pass' | 'fail';
}

/** The records of a JSON-lines file (none when it does not exist). */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as T];
      } catch {
        return []; // a torn line from an interrupted run: skip it, keep the rest
      }
    });
}

export function readTrends(file: string): TrendPoint[] {
  return readJsonLines<TrendPoint>(file);
}

export function appendTrend(file: string, p: TrendPoint): TrendPoint[] {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(p)}\n`);
  return readTrends(file);
}

const show = (v: number | undefined, unit: '%' | 'ms' | 's' | '/s' | '') => {
  if (v === undefined || Number.isNaN(v)) return '—';
  if (unit === '%') return `${(v * 100).toFixed(1)}%`;
  if (unit === 's') return `${(v / 1000).toFixed(1)} s`;
  if (unit === 'ms') return `${v.toFixed(1)} ms`;
  return `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;
};

/** The last `n` runs as a Markdown table, newest last, with the change against the run before. */
export function trendTable(points: readonly TrendPoint[], n = 10): string {
  const rows = points.slice(-n);
  const lines = [
    '| run | gate | pass rate | tests | duration | observed rate limit | p95 page latency | detection | false alarms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (p) =>
        `| ${p.at.slice(0, 16).replace('T', ' ')} | ${p.gate ?? '—'} | ${show(p.passRate, '%')} | ${p.tests ?? '—'} | ${show(p.durationMs, 's')} | ${show(p.observedRateLimit, '/s')} | ${show(p.p95PageLatencyMs, 'ms')} | ${show(p.detectionRate, '%')} | ${show(p.falseAlarmRate, '%')} |`,
    ),
  ];
  return lines.join('\n');
}
