/**
 * The one-page summary of a nightly run (issue 7), in Markdown (a chat message, a CI
 * job summary) and HTML (the same content, self-contained, beside the Allure report).
 * The gate's verdict and its reasons come first; warnings are listed but never fail.
 */
import type { ConformanceResult } from './conformance.ts';
import type { LoadResult } from './load-summary.ts';
import type { Matrix } from './matrix.ts';
import { trendTable, type TrendPoint } from './trends.ts';

export interface GateReason {
  step: string;
  reason: string;
}

export interface NightlySummary {
  at: string;
  wallTimeMs: number;
  gate: 'pass' | 'fail';
  reasons: GateReason[];
  conformance?: ConformanceResult;
  load: LoadResult[];
  loadErrors: string[];
  matrix?: Matrix;
  trends: TrendPoint[];
  reportPath: string;
  reportBytes?: number;
  versions?: { from: string; to: string; breaking: number; nonBreaking: number; gate: 'pass' | 'fail' };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const firstLine = (s: string) => s.split('\n').find((l) => l.trim())?.trim().slice(0, 240) ?? '';
const cell = (s: string) => s.replace(/\|/g, '\\|');

export function gateReasons(s: Pick<NightlySummary, 'conformance' | 'load' | 'loadErrors' | 'matrix'>): GateReason[] {
  const out: GateReason[] = [];
  const c = s.conformance;
  if (!c) out.push({ step: 'conformance', reason: 'the conformance run produced no results' });
  else {
    for (const f of c.failures) out.push({ step: 'conformance', reason: `${f.test} [${f.project}]: ${firstLine(f.message)}` });
    for (const e of c.globalErrors) out.push({ step: 'conformance', reason: firstLine(e) });
  }
  for (const r of s.load) for (const t of r.thresholds) if (!t.ok) out.push({ step: 'load', reason: `${r.script}: threshold ${t.metric} ${t.expression} failed` });
  for (const e of s.loadErrors) out.push({ step: 'load', reason: e });
  const m = s.matrix;
  if (!m) out.push({ step: 'self-test', reason: 'the self-test produced no matrix' });
  else
    for (const r of m.rows) {
      if (r.verdict === 'SURVIVED') out.push({ step: 'self-test', reason: `fault ${r.name} survived: no check caught it` });
      if (r.verdict === 'ALARMED') out.push({ step: 'self-test', reason: `variation ${r.name} raised a false alarm: ${r.failed.slice(0, 2).join('; ')}` });
      if (r.verdict === 'ERROR') out.push({ step: 'self-test', reason: `${r.kind} ${r.name}: ${r.errors.join('; ')}` });
    }
  return out;
}

export function renderSummaryMarkdown(s: NightlySummary): string {
  const c = s.conformance;
  const m = s.matrix;
  const lines: string[] = [
    `# svc conformance — nightly ${s.at.slice(0, 10)}`,
    '',
    `**Gate: ${s.gate.toUpperCase()}** — ${s.reasons.length ? `${s.reasons.length} error-severity problem(s)` : 'no error-severity failure'}; wall time ${(s.wallTimeMs / 1000).toFixed(0)} s.`,
    '',
  ];
  if (s.reasons.length) {
    lines.push('## Why the gate failed', '', ...s.reasons.slice(0, 30).map((r) => `- **${r.step}**: ${r.reason}`));
    if (s.reasons.length > 30) lines.push(`- … and ${s.reasons.length - 30} more (see the Allure report)`);
    lines.push('');
  }
  lines.push('## Results', '', '| part | result |', '|---|---|');
  if (c) {
    const total = c.passed + c.failed + c.flaky;
    lines.push(`| scenarios + properties | ${c.passed} passed, ${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped (pass rate ${total ? pct(c.passed / total) : '—'}) |`);
    lines.push(`| inferred deviations | ${c.inferred.length} (expectations no sentence of the specification states; listed below; gating only with SVC_STRICT=1) |`);
    lines.push(`| informational warnings | ${c.warnings.length} (listed below; never fail the gate) |`);
  } else lines.push('| scenarios + properties | no results |');
  for (const r of s.load) {
    const bad = r.thresholds.filter((t) => !t.ok);
    const figs = Object.entries(r.figures).slice(0, 6).map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`).join(', ');
    lines.push(`| load ${r.script} | ${r.thresholds.length - bad.length}/${r.thresholds.length} thresholds ok${figs ? `; ${figs}` : ''} |`);
  }
  if (m) {
    const t = m.totals;
    lines.push(`| self-test faults | ${t.caught}/${t.faults} caught — detection rate ${pct(t.detectionRate)} |`);
    lines.push(`| self-test variations | ${t.passed}/${t.variations} passed — false-alarm rate ${pct(t.falseAlarmRate)} |`);
  }
  if (s.versions) lines.push(`| version upgrade ${s.versions.from} → ${s.versions.to} | ${s.versions.breaking} breaking, ${s.versions.nonBreaking} non-breaking difference(s); gate ${s.versions.gate} |`);
  lines.push('', '## Trends (last 10 runs)', '', trendTable(s.trends), '');
  if (c?.inferred.length) {
    lines.push('## Inferred deviations (not stated by the specification; gate only with SVC_STRICT=1)', '', ...c.inferred.slice(0, 25).map((w) => `- ${cell(w.description)} — _${w.test}_`));
    if (c.inferred.length > 25) lines.push(`- … and ${c.inferred.length - 25} more`);
    lines.push('');
  }
  if (c?.warnings.length) {
    lines.push('## Informational warnings (do not fail the gate)', '', ...c.warnings.slice(0, 25).map((w) => `- ${cell(w.description)} — _${w.test}_`));
    if (c.warnings.length > 25) lines.push(`- … and ${c.warnings.length - 25} more`);
    lines.push('');
  }
  lines.push(
    '## Artifacts',
    '',
    `- Allure report: \`${s.reportPath}/index.html\`${s.reportBytes ? ` (${(s.reportBytes / 1e6).toFixed(1)} MB)` : ''}`,
    '- JUnit XML: `reports/out/junit.xml`',
    '- Self-test matrix: `reports/out/selftest/matrix.md`',
    '',
  );
  return lines.join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Renders the Markdown subset of renderSummaryMarkdown (headings, lists, tables, bold, code) as HTML. */
export function markdownToHtml(md: string, title: string): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
      .replace(/`(.+?)`/g, '<code>$1</code>')
      .replace(/(^|\s)_(.+?)_(?=\s|$)/g, '$1<em>$2</em>');
  const out: string[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i].startsWith('|')) {
        if (!/^\|[-| ]+\|$/.test(lines[i])) rows.push(lines[i].slice(1, -1).split(/(?<!\\)\|/).map((x) => x.trim().replace(/\\\|/g, '|')));
        i++;
      }
      i--;
      const [head, ...body] = rows;
      out.push(`<table><thead><tr>${head.map((h) => `<th>${inline(h)}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((x) => `<td>${inline(x)}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
    } else if (l.startsWith('- ')) {
      const items: string[] = [];
      while (i < lines.length && lines[i].startsWith('- ')) items.push(lines[i++].slice(2));
      i--;
      out.push(`<ul>${items.map((x) => `<li>${inline(x)}</li>`).join('')}</ul>`);
    } else if (/^#{1,3} /.test(l)) {
      const level = l.indexOf(' ');
      out.push(`<h${level}>${inline(l.slice(level + 1))}</h${level}>`);
    } else if (l.trim()) out.push(`<p>${inline(l)}</p>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}code{background:#f3f3f3;padding:0 3px}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}
</style></head><body>${out.join('\n')}</body></html>\n`;
}
