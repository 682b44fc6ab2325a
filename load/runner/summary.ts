/**
 * The end of a run: k6's summary data (what handleSummary receives) from the metric
 * store, and the text the runner prints when a script has no handleSummary (k6's
 * end-of-test form: the THRESHOLDS section with one ✓/✗ line per threshold, then one line
 * per metric). The runner owns this shape: it is k6's, not the suite's (load/script-support, whose
 * scripts print their own summary from handleSummary, is never imported here).
 */
import { aggregationValue, summaryValues, type MetricStore, type Tags } from './metrics.ts';
import { evaluateExpression, type ThresholdExpression, type ThresholdKey } from './thresholds.ts';
import type { SummaryData, SummaryGroup, SummaryMetric } from './summary-data.ts';

export type { SummaryData };

export interface Threshold {
  key: ThresholdKey;
  exprs: ThresholdExpression[];
}

/** Checks per group (k6's root_group), from the `checks` samples' group and check tags; setup and teardown checks are left out, as k6 does. */
function groupTree(store: MetricStore): SummaryGroup {
  const root: SummaryGroup = { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: [] };
  const byPath = new Map<string, SummaryGroup>([['', root]]);
  const groupFor = (path: string): SummaryGroup => {
    let g = byPath.get(path);
    if (g) return g;
    const i = path.lastIndexOf('::');
    g = { name: path.slice(i + 2), path, id: path, groups: [], checks: [] };
    groupFor(path.slice(0, i)).groups.push(g);
    byPath.set(path, g);
    return g;
  };
  const seen = new Set<string>();
  for (const tags of store.tagSets.sets) {
    if (tags.check === undefined || tags.group === undefined) continue;
    const k = `${tags.group}\u0000${tags.check}`;
    if (seen.has(k)) continue;
    seen.add(k);
    if (tags.group.startsWith('::setup') || tags.group.startsWith('::teardown')) continue;
    const a = store.aggregate('checks', { group: tags.group, check: tags.check });
    if (a.count === 0) continue;
    groupFor(tags.group).checks.push({
      name: tags.check,
      path: `${tags.group}::${tags.check}`,
      id: `${tags.group}::${tags.check}`,
      passes: a.nonZero,
      fails: a.count - a.nonZero,
    });
  }
  return root;
}

export function buildSummaryData(
  store: MetricStore,
  trendStats: string[],
  thresholds: Threshold[],
  testRunDurationMs: number,
  setupJson: string | null | undefined,
): SummaryData {
  const metrics: SummaryData['metrics'] = {};
  const describe = (name: string, filter: Tags) => {
    const def = store.definitions.get(name)!;
    const a = store.aggregate(name, filter);
    return { a, entry: { type: def.type, contains: def.contains, values: summaryValues(a, trendStats, testRunDurationMs) } };
  };
  for (const name of store.definitions.keys()) {
    if (store.hasSamples(name)) metrics[name] = describe(name, {}).entry;
  }
  for (const t of thresholds) {
    const { a, entry } = describe(t.key.metric, t.key.tags);
    const target = (metrics[t.key.source] ??= entry);
    target.thresholds ??= {};
    for (const x of t.exprs) {
      const { ok } = evaluateExpression(x, (agg, pct) => aggregationValue(a, agg, testRunDurationMs, pct));
      target.thresholds[x.source] = { ok };
      // The threshold's own statistic is shown even when it is not a summaryTrendStat.
      if (a.type === 'trend' && !(x.aggregation in target.values))
        target.values[x.aggregation] = aggregationValue(a, x.aggregation, testRunDurationMs, x.percentile);
    }
  }
  return {
    root_group: groupTree(store),
    options: { summaryTrendStats: trendStats, summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: Boolean(process.stdout.isTTY), isStdErrTTY: Boolean(process.stderr.isTTY), testRunDurationMs },
    metrics,
    setup_data: setupJson ? JSON.parse(setupJson) : undefined,
  };
}

/** Metrics whose thresholds were crossed. */
export function crossedThresholds(data: SummaryData): string[] {
  return Object.entries(data.metrics)
    .filter(([, m]) => m.thresholds && Object.values(m.thresholds).some((t) => !t.ok))
    .map(([name]) => name);
}

function format(value: number, m: SummaryMetric, stat: string): string {
  if (stat === 'rate') return m.type === 'rate' ? `${(value * 100).toFixed(2)}%` : `${Number(value.toFixed(4))}/s`;
  if (m.contains === 'time') return value < 1000 ? `${value.toFixed(2)}ms` : `${(value / 1000).toFixed(2)}s`;
  if (m.contains === 'data') return `${value} B`;
  return String(Number(value.toFixed(4)));
}

/** k6's end-of-test summary, shortened: thresholds first (one ✓/✗ line each, with the value they read), then every metric. */
export function defaultSummary(data: SummaryData): string {
  const out: string[] = [''];
  const names = Object.keys(data.metrics).sort();
  const withThresholds = names.filter((n) => data.metrics[n].thresholds);
  if (withThresholds.length) out.push('  █ THRESHOLDS', '');
  for (const name of withThresholds) {
    const m = data.metrics[name];
    out.push(`    ${name}`);
    for (const [expr, { ok }] of Object.entries(m.thresholds!)) {
      const stat = /^\s*(count|rate|value|avg|min|max|med|p\(\s*[\d.]+\s*\))/.exec(expr)?.[1].replace(/\s+/g, '') ?? '';
      out.push(`    ${ok ? '✓' : '✗'} '${expr}'${stat in m.values ? ` ${stat}=${format(m.values[stat], m, stat)}` : ''}`);
    }
    out.push('');
  }
  out.push('  █ TOTAL RESULTS', '');
  for (const name of names.filter((n) => !n.includes('{'))) {
    const m = data.metrics[name];
    out.push(
      `    ${name}: ${Object.entries(m.values)
        .map(([k, v]) => `${k}=${format(v, m, k)}`)
        .join(' ')}`,
    );
  }
  out.push('', `  test run duration: ${(data.state.testRunDurationMs / 1000).toFixed(1)}s`, '');
  return out.join('\n');
}
