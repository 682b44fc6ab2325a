/**
 * A local text summary in the form of k6's end-of-test summary (k6 >= 1.0): the
 * THRESHOLDS section with one ✓/✗ line per threshold, then the totals. Scripts call it
 * from handleSummary, so k6 and the runner print the same verdicts from the same code,
 * and no remote jslib import is needed. Plain k6-compatible code: no Node APIs here.
 */
import type { SummaryData, SummaryGroup, SummaryMetric } from '../runner/summary-data.ts';

export type { SummaryData };

function fmtTime(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1) return `${(ms * 1000).toFixed(2)}µs`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  return `${Math.floor(ms / 60_000)}m${((ms % 60_000) / 1000).toFixed(1)}s`;
}

function fmtData(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

function fmtNumber(n: number, contains: SummaryMetric['contains']): string {
  if (contains === 'time') return fmtTime(n);
  if (contains === 'data') return fmtData(n);
  return Number.isInteger(n) ? String(n) : n.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

function fmtStat(name: string, value: number, m: SummaryMetric): string {
  if (m.type === 'rate' && name === 'rate') return `${(value * 100).toFixed(2)}%`;
  if (m.type === 'counter' && name === 'rate') return `${value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '')}/s`;
  return fmtNumber(value, m.contains);
}

/** The statistic a threshold expression reads, e.g. "p(95)" for "p(95)<200". */
function statOf(expr: string): string {
  const m = /^\s*(count|rate|value|avg|min|max|med|p\(\s*[\d.]+\s*\))/.exec(expr);
  return m ? m[1].replace(/\s+/g, '') : '';
}

function metricLine(name: string, m: SummaryMetric, stats: string[], width: number): string {
  const dots = `${name}${'.'.repeat(Math.max(2, width - name.length))}:`;
  const v = m.values;
  let text: string;
  switch (m.type) {
    case 'trend':
      text = stats
        .filter((s) => s in v)
        .map((s) => `${s}=${fmtNumber(v[s], m.contains)}`)
        .join(' ');
      break;
    case 'rate':
      text = `${fmtStat('rate', v.rate, m)} ${v.passes} out of ${v.passes + v.fails}`;
      break;
    case 'counter':
      text = `${fmtNumber(v.count, m.contains)} ${fmtStat('rate', v.rate, m)}`;
      break;
    default:
      text = `${fmtNumber(v.value, m.contains)} min=${fmtNumber(v.min, m.contains)} max=${fmtNumber(v.max, m.contains)}`;
  }
  return `    ${dots} ${text}`;
}

function checkLines(g: SummaryGroup, depth: number, out: string[]): void {
  const pad = `    ${'  '.repeat(depth)}`;
  if (g.name) out.push(`${pad}█ ${g.name}`, '');
  for (const c of g.checks) {
    const total = c.passes + c.fails;
    if (c.fails === 0) out.push(`${pad}✓ ${c.name}`);
    else {
      out.push(`${pad}✗ ${c.name}`);
      out.push(`${pad}  ↳  ${Math.floor((c.passes / total) * 100)}% — ✓ ${c.passes} / ✗ ${c.fails}`);
    }
  }
  if (g.checks.length) out.push('');
  for (const sub of g.groups) checkLines(sub, depth + 1, out);
}

const SECTIONS: Array<[string, (name: string) => boolean]> = [
  ['HTTP', (n) => n.startsWith('http_')],
  ['EXECUTION', (n) => ['iteration_duration', 'iterations', 'vus', 'vus_max', 'dropped_iterations', 'group_duration'].includes(n)],
  ['NETWORK', (n) => n === 'data_received' || n === 'data_sent'],
];

/** The thresholds section alone: one ✓/✗ line per threshold, grouped by metric. */
function thresholdLines(data: SummaryData): string[] {
  const out: string[] = [];
  for (const name of Object.keys(data.metrics).sort()) {
    const m = data.metrics[name];
    if (!m.thresholds) continue;
    out.push(`    ${name}`);
    for (const [expr, { ok }] of Object.entries(m.thresholds)) {
      const stat = statOf(expr);
      const value = stat in m.values ? ` ${stat}=${fmtStat(stat, m.values[stat], m)}` : '';
      out.push(`    ${ok ? '✓' : '✗'} '${expr}'${value}`);
    }
    out.push('');
  }
  return out;
}

export function textSummary(data: SummaryData, extra: Record<string, string> = {}): string {
  const out: string[] = [''];
  const thresholds = thresholdLines(data);
  if (thresholds.length) out.push('  █ THRESHOLDS', '', ...thresholds, '');
  out.push('  █ TOTAL RESULTS', '');
  const checks = data.metrics.checks;
  if (checks) {
    const total = checks.values.passes + checks.values.fails;
    out.push(`    checks_total.......: ${total}`);
    out.push(`    checks_succeeded...: ${(checks.values.rate * 100).toFixed(2)}% ${checks.values.passes} out of ${total}`);
    out.push(`    checks_failed......: ${((1 - checks.values.rate) * 100).toFixed(2)}% ${checks.values.fails} out of ${total}`, '');
  }
  checkLines(data.root_group, 0, out);
  const names = Object.keys(data.metrics)
    .filter((n) => n !== 'checks' && !n.includes('{'))
    .sort();
  const width = Math.max(30, ...names.map((n) => n.length + 2));
  const custom = names.filter((n) => !SECTIONS.some(([, f]) => f(n)));
  const sections: Array<[string, string[]]> = [['CUSTOM', custom], ...SECTIONS.map(([title, f]) => [title, names.filter(f)] as [string, string[]])];
  for (const [title, list] of sections) {
    if (!list.length) continue;
    out.push(`    ${title}`);
    for (const n of list) out.push(metricLine(n, data.metrics[n], data.options.summaryTrendStats, width));
    out.push('');
  }
  for (const [k, v] of Object.entries(extra)) out.push(`    ${k}: ${v}`);
  if (Object.keys(extra).length) out.push('');
  out.push(`  test run duration: ${fmtTime(data.state.testRunDurationMs)}`, '');
  return out.join('\n');
}
