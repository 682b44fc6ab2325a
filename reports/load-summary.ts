/**
 * Turns the load scripts' k6 summaries (k6 `handleSummary` JSON: `metrics.<name>.values`
 * and `metrics.<name>.thresholds.<expression>.ok`; the project's runner writes the same
 * shape under reports/out/load/) into report entries and trend figures (the nightly
 * report shows k6 thresholds and summary figures as report entries).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AllureEntry } from './allure/results.ts';

interface K6Metric {
  type?: string;
  values?: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
export interface K6Summary {
  metrics?: Record<string, K6Metric>;
  state?: { testRunDurationMs?: number };
}

export interface ThresholdVerdict {
  metric: string;
  expression: string;
  ok: boolean;
  /** The aggregated values of the metric, for the message. */
  values: Record<string, number>;
}

export interface LoadResult {
  script: string;
  file: string;
  thresholds: ThresholdVerdict[];
  /** Headline figures: requests, failure rate, p95 duration, and the script's own metrics. */
  figures: Record<string, number>;
  durationMs?: number;
}

export function readLoadSummaries(dir: string): LoadResult[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = join(dir, f);
      const summary = JSON.parse(readFileSync(file, 'utf8')) as K6Summary;
      return loadResultOf(basename(f).replace(/(\.summary)?\.json$/, ''), file, summary);
    });
}

function loadResultOf(script: string, file: string, s: K6Summary): LoadResult {
  const thresholds: ThresholdVerdict[] = [];
  const figures: Record<string, number> = {};
  for (const [metric, m] of Object.entries(s.metrics ?? {})) {
    for (const [expression, t] of Object.entries(m.thresholds ?? {})) thresholds.push({ metric, expression, ok: !!t.ok, values: m.values ?? {} });
    const v = m.values ?? {};
    if (metric === 'http_reqs' && typeof v.count === 'number') figures.requests = v.count;
    if (metric === 'http_req_failed' && typeof v.rate === 'number') figures.failed_rate = v.rate;
    if (metric === 'http_req_duration' && typeof v['p(95)'] === 'number') figures.p95_ms = v['p(95)'];
    // The scripts' own figures (observed rate limit, page latency ...): every non-built-in metric.
    if (
      !metric.startsWith('http_') &&
      !metric.startsWith('iteration') &&
      !['checks', 'vus', 'vus_max', 'data_sent', 'data_received', 'iterations', 'dropped_iterations', 'group_duration'].includes(metric)
    ) {
      for (const key of ['value', 'rate', 'p(95)', 'avg', 'count']) {
        if (typeof v[key] === 'number') {
          figures[key === 'value' ? metric : `${metric} ${key}`] = v[key];
          break;
        }
      }
    }
  }
  return { script, file, thresholds, figures, durationMs: s.state?.testRunDurationMs };
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

/** One report entry per threshold (its verdict) and one per script with the summary figures. */
export function loadEntries(results: readonly LoadResult[]): AllureEntry[] {
  const entries: AllureEntry[] = [];
  for (const r of results) {
    for (const t of r.thresholds) {
      entries.push({
        fullName: `load:${r.script}:threshold:${t.metric}:${t.expression}`,
        name: `threshold ${t.metric} ${t.expression}`,
        status: t.ok ? 'passed' : 'failed',
        parentSuite: 'load (k6)',
        suite: r.script,
        severity: 'critical',
        message: t.ok
          ? undefined
          : `k6 threshold failed: ${t.metric} ${t.expression}; observed ${Object.entries(t.values)
              .map(([k, v]) => `${k}=${fmt(v)}`)
              .join(', ')}`,
        parameters: Object.fromEntries(Object.entries(t.values).map(([k, v]) => [k, fmt(v)])),
        durationMs: r.durationMs,
      });
    }
    entries.push({
      fullName: `load:${r.script}:summary`,
      name: `summary figures of ${r.script}`,
      status: r.thresholds.every((t) => t.ok) ? 'passed' : 'failed',
      parentSuite: 'load (k6)',
      suite: r.script,
      parameters: Object.fromEntries(Object.entries(r.figures).map(([k, v]) => [k, fmt(v)])),
      attachments: [{ name: `${r.script} k6 summary`, contentType: 'application/json', body: readFileSync(r.file, 'utf8') }],
      durationMs: r.durationMs,
    });
  }
  return entries;
}

/** Figures for the trends: the first metric whose name says it (scripts name their own metrics). */
export function trendFigures(results: readonly LoadResult[]): { observedRateLimit?: number; p95PageLatencyMs?: number } {
  const all = results.flatMap((r) => Object.entries(r.figures).map(([k, v]) => ({ script: r.script, k, v })));
  // rate-limit.ts reports its estimate as observed_rate_limit_per_second; other
  // rate_limit* metrics (e.g. the 429 count rate) are not the limit.
  const rate = all.find((f) => /observed_rate_limit/i.test(f.k)) ?? all.find((f) => /observed_limit|accepted_per_s/i.test(f.k));
  const page = all.find((f) => /page.*(latency|duration)/i.test(f.k)) ?? all.find((f) => /pag/i.test(f.script) && f.k === 'p95_ms');
  return { observedRateLimit: rate?.v, p95PageLatencyMs: page?.v };
}
