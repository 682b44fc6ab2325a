/**
 * The team dashboard (../shared/DESIGN.md, "For nightly reports ... flaky verdicts and slowing
 * operations show over time on a dashboard"): ONE static HTML page per history, written beside
 * Allure's report (<out>/dashboard/index.html), read with no server and no network: the charting
 * library is inlined from history/vendor (Chart.js, MIT, its licence kept beside it and named in
 * the page), the data is embedded as JSON.
 *
 * What it shows, newest first where it is a list:
 *   - the verdict of every night (kept and summarised), as a chart and a table;
 *   - findings by tier (stated, inferred, informational) per night, and by area (scenario tags)
 *     over the nights kept;
 *   - drift events with their diff (last night's value, tonight's), breaking ones first, each
 *     quoting the Versioning sentence it is judged by;
 *   - flaky scenarios with their history, the rules that take a day, slow operations;
 *   - p95 latency per operation over the nights (the operation chosen in a select box).
 *
 * Usable with the keyboard (a skip link, landmarks, a native select, <details> for every diff,
 * visible focus) and without the charts: every chart has a table of the same figures.
 * Everything in it has passed the redactor (history/store.ts writes nothing else, and the page is
 * redacted again as a whole).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../targets/index.ts';
import { htmlText } from '../reports/markdown.ts';
import type { DriftEvent } from './drift.ts';
import { flakyScenarios, slowOperations, type FlakyScenario, type SlowOperation } from './over-time.ts';
import { keptNights, readIndex, type FoldedNight, type HistoryIndex, type LongRunningResult } from './store.ts';

const VENDOR = new URL('./vendor/', import.meta.url);
/** The page must open on any machine: the library goes inside it (history/vendor/README.md). */
export const CHART_JS_FILE = new URL('chart.umd.min.js', VENDOR);
export const CHART_JS_LICENCE = new URL('chart.js.LICENSE.md', VENDOR);

export interface DashboardData {
  generatedAt: string;
  targets: string[];
  nights: Array<FoldedNight & { kept: boolean }>;
  drift: DriftEvent[];
  flaky: FlakyScenario[];
  slow: SlowOperation[];
  longRunning: LongRunningResult[];
  /** Findings by area (scenario tag) and tier, summed over the nights kept. */
  areas: Array<{ area: string; stated: number; inferred: number; informational: number }>;
}

/** What the page shows, from the history alone. */
function dashboardData(historyDir: string, index: HistoryIndex = readIndex(historyDir)): DashboardData {
  const nights = [...index.folded.map((n) => ({ ...n, kept: false })), ...index.nights.map(({ bytes: _b, ...n }) => ({ ...n, kept: true }))].sort((a, b) =>
    a.id.localeCompare(b.id),
  );
  const targets = [...new Set(nights.map((n) => n.target))];
  const flaky: FlakyScenario[] = [];
  const slow: SlowOperation[] = [];
  const areas = new Map<string, { area: string; stated: number; inferred: number; informational: number }>();
  for (const target of targets) {
    const kept = keptNights(historyDir, index, target);
    flaky.push(
      ...flakyScenarios(
        kept,
        index.drift.filter((d) => d.target === target),
      ),
    );
    slow.push(...slowOperations(kept));
    for (const n of kept)
      for (const s of n.scenarios)
        for (const tag of s.tags.length ? s.tags : ['(untagged)']) {
          const a = areas.get(tag) ?? { area: tag, stated: 0, inferred: 0, informational: 0 };
          a.stated += s.tiers.stated;
          a.inferred += s.tiers.inferred;
          a.informational += s.tiers.informational;
          areas.set(tag, a);
        }
  }
  const order = { breaking: 0, 'non-breaking': 1, informational: 2 } as const;
  return {
    generatedAt: new Date().toISOString(),
    targets,
    nights,
    drift: [...index.drift].sort((a, b) => b.night.localeCompare(a.night) || order[a.cls] - order[b.cls]),
    flaky,
    slow,
    longRunning: [...index.longRunning].reverse().slice(0, 200),
    areas: [...areas.values()].filter((a) => a.stated + a.inferred + a.informational > 0).sort((a, b) => b.stated - a.stated || a.area.localeCompare(b.area)),
  };
}

/** JSON inside a <script> element: no `</script>` or `<!--` can end it early. */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const gateOf = (n: FoldedNight) => n.gate ?? (n.counts.unexpected ? 'fail' : 'pass');

function table(caption: string, head: string[], rows: string[][], o: { id?: string } = {}): string {
  // A scrollable region is focusable so a keyboard can scroll it (WCAG 2.1.1).
  return `<div class="scroll" tabindex="0" role="region" aria-label="${htmlText(caption)}"${o.id ? ` id="${o.id}"` : ''}><table><caption>${htmlText(caption)}</caption><thead><tr>${head
    .map((h) => `<th scope="col">${htmlText(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

function driftEntries(events: readonly DriftEvent[]): string {
  if (!events.length) return '<p>No drift in the nights kept: every operation served what it served the night before.</p>';
  return events
    .map(
      (e) => `<details class="drift ${e.cls}" data-kind="${htmlText(e.kind)}">
  <summary><span class="badge ${e.cls}">${htmlText(e.cls)}</span> ${htmlText(e.operation)}${e.status ? ` → ${htmlText(e.status)}` : ''} <code>${htmlText(e.path)}</code> — ${htmlText(e.kind)} (${htmlText(e.version || e.api)}, night ${htmlText(e.night)})</summary>
  <div class="diff" role="group" aria-label="difference">
    <div class="minus"><span class="sr">last night </span>− ${htmlText(e.last.night)}: ${htmlText(e.last.value)}</div>
    <div class="plus"><span class="sr">tonight </span>+ ${htmlText(e.night)}: ${htmlText(e.tonight)}</div>
  </div>
  <p>Target ${htmlText(e.target)}${e.firstSeen ? `; first seen ${htmlText(e.firstSeen)}` : ''}${e.scenarios.length ? `; seen by ${htmlText(e.scenarios.join('; '))}` : ''}.</p>
  <p class="rule">${htmlText(e.rule)}</p>
</details>`,
    )
    .join('\n');
}

/** The operations any night measured a latency of, in name order. */
const operationsOf = (d: DashboardData) => [...new Set(d.nights.flatMap((n) => Object.keys(n.p95)))].sort();

/** The page (one string, no external reference): one section after another. */
function renderDashboard(d: DashboardData, chartJs: string, licence: string): string {
  const ops = operationsOf(d);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc conformance — nightly dashboard</title>
${DASHBOARD_STYLE}
</head>
<body>
${dashboardHeader(d)}
<main id="main" tabindex="-1">
${lastNightCards(d)}

${verdictsSection(d)}

${findingsSection(d)}

${driftSection(d.drift)}

${flakySection(d)}

${longRunningSection(d)}

${latencySection(d, ops)}
</main>
${dashboardFooter(licence)}
<script id="dashboard-data" type="application/json">${scriptJson({ nights: d.nights, ops })}</script>
<script>${chartJs.replace(/<\/script/gi, '<\\/script')}</script>
${CHARTS_SCRIPT}
</body>
</html>
`;
}

const DASHBOARD_STYLE = `<style>
  :root { --fail: #b00020; --pass: #1b7a3a; --warn: #8a5a00; --info: #2f5d8a; font-family: system-ui, sans-serif; }
  body { margin: 0 auto; max-width: 1200px; padding: 0 1rem 3rem; color: #1d1d1d; background: #fff; }
  a.skip { position: absolute; left: -999px; } a.skip:focus { left: 1rem; top: 1rem; background: #ffe; padding: .5rem; z-index: 9; }
  :focus-visible { outline: 3px solid #1a5fd0; outline-offset: 2px; }
  nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
  .cards { display: flex; flex-wrap: wrap; gap: 1rem; } .card { border: 1px solid #ccc; border-radius: 6px; padding: .75rem 1rem; min-width: 10rem; }
  .card strong { display: block; font-size: 1.6rem; }
  .badge { border-radius: 4px; padding: 0 .4rem; color: #fff; background: #555; font-size: .85rem; }
  .badge.fail, .badge.breaking, .badge.failed { background: var(--fail); } .badge.pass, .badge.verified { background: var(--pass); }
  .badge.partial, .badge.inconclusive, .badge.non-breaking { background: var(--warn); } .badge.informational { background: var(--info); }
  .scroll { overflow-x: auto; } table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .5rem 0 1rem; }
  caption { text-align: left; font-weight: 600; padding: .25rem 0; } th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
  details.drift { border: 1px solid #ddd; border-left: 6px solid var(--info); margin: .5rem 0; padding: .25rem .75rem; }
  details.drift.breaking { border-left-color: var(--fail); } details.drift.non-breaking { border-left-color: var(--warn); }
  summary { cursor: pointer; } .diff { font-family: ui-monospace, monospace; margin: .5rem 0; }
  .minus { background: #fdecee; } .plus { background: #e9f7ee; } .rule { font-style: italic; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  canvas { max-height: 320px; } footer { margin-top: 2rem; font-size: .8rem; color: #555; }
</style>`;

/** Draws the charts from the page's own data; the tables beside them hold the same figures. */
const CHARTS_SCRIPT = `<script>
(function () {
  var data = JSON.parse(document.getElementById('dashboard-data').textContent);
  if (typeof Chart === 'undefined') return;
  Chart.defaults.animation = false;
  var labels = data.nights.map(function (n) { return n.id.slice(0, 15); });
  var count = function (k) { return data.nights.map(function (n) { return n.counts[k] || 0; }); };
  new Chart(document.getElementById('chart-verdicts'), { type: 'bar', data: { labels: labels, datasets: [
    { label: 'passed', data: count('expected'), backgroundColor: '#1b7a3a' },
    { label: 'failed', data: count('unexpected'), backgroundColor: '#b00020' },
    { label: 'flaky', data: count('flaky'), backgroundColor: '#8a5a00' }] },
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } } } });
  var tier = function (k) { return data.nights.map(function (n) { return n.tiers[k]; }); };
  new Chart(document.getElementById('chart-tiers'), { type: 'bar', data: { labels: labels, datasets: [
    { label: 'stated', data: tier('stated'), backgroundColor: '#b00020' },
    { label: 'inferred', data: tier('inferred'), backgroundColor: '#8a5a00' },
    { label: 'informational', data: tier('informational'), backgroundColor: '#2f5d8a' }] },
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } } } });
  var select = document.getElementById('op-select');
  if (!select) return;
  var latency = new Chart(document.getElementById('chart-latency'), { type: 'line', data: { labels: labels, datasets: [{ label: 'p95 (ms)', data: [], borderColor: '#2f5d8a', spanGaps: true }] },
    options: { scales: { y: { beginAtZero: true } } } });
  var show = function () {
    var op = data.ops[Number(select.value)];
    latency.data.datasets[0].label = op + ': p95 (ms)';
    latency.data.datasets[0].data = data.nights.map(function (n) { return n.p95[op] === undefined ? null : n.p95[op]; });
    latency.update();
  };
  select.addEventListener('change', show);
  show();
  document.body.setAttribute('data-charts', 'drawn');
})();
</script>`;

function dashboardHeader(d: DashboardData): string {
  return `<a class="skip" href="#main">Skip to the dashboard</a>
<header>
<h1>svc conformance — nightly dashboard</h1>
<p>Targets: ${htmlText(d.targets.join(', ') || 'none yet')}. Written ${htmlText(d.generatedAt)} from the history (${d.nights.length} night(s)).</p>
<nav aria-label="Sections"><ul>
<li><a href="#verdicts">Verdicts</a></li><li><a href="#findings">Findings</a></li><li><a href="#drift">Drift</a></li>
<li><a href="#flaky">Flaky</a></li><li><a href="#long-running">Rules that take a day</a></li><li><a href="#latency">Latency</a></li>
</ul></nav>
</header>`;
}

function lastNightCards(d: DashboardData): string {
  const breaking = d.drift.filter((e) => e.cls === 'breaking').length;
  const last = d.nights.at(-1);
  return `<section aria-labelledby="h-now" class="cards">
  <h2 id="h-now" class="sr">Last night</h2>
  <div class="card">Last night<strong><span class="badge ${last ? gateOf(last) : ''}">${htmlText(last ? gateOf(last) : 'none')}</span></strong>${htmlText(last?.id ?? '')}</div>
  <div class="card">Breaking drift (nights kept)<strong id="breaking-count">${breaking}</strong></div>
  <div class="card">Flaky scenarios<strong>${d.flaky.length}</strong></div>
  <div class="card">Slow operations tonight<strong>${d.slow.length}</strong></div>
</section>`;
}

function verdictsSection(d: DashboardData): string {
  const nightsRows = [...d.nights].reverse().map((n) => {
    const g = gateOf(n);
    return [
      htmlText(n.id),
      htmlText(n.at.slice(0, 16).replace('T', ' ')),
      htmlText(n.target),
      `<span class="badge ${g}">${htmlText(g)}</span>`,
      htmlText(n.counts.expected ?? 0),
      htmlText(n.counts.unexpected ?? 0),
      htmlText(n.counts.flaky ?? 0),
      htmlText(n.counts.skipped ?? 0),
      `${htmlText(n.tiers.stated)} / ${htmlText(n.tiers.inferred)} / ${htmlText(n.tiers.informational)}`,
      htmlText(n.leftOut.join('; ') || 'full'),
      n.kept ? 'in full' : 'summarised',
    ];
  });
  return `<section id="verdicts" aria-labelledby="h-verdicts">
<h2 id="h-verdicts">Verdict per night</h2>
<canvas id="chart-verdicts" role="img" aria-label="Scenarios passed, failed and flaky per night (the table below has the same figures)"></canvas>
${table('Nights, newest first', ['night', 'at (UTC)', 'target', 'verdict', 'passed', 'failed', 'flaky', 'skipped', 'findings stated / inferred / informational', 'left out', 'kept'], nightsRows)}
</section>`;
}

function findingsSection(d: DashboardData): string {
  const areaRows = d.areas.map((a) => [htmlText(a.area), htmlText(a.stated), htmlText(a.inferred), htmlText(a.informational)]);
  return `<section id="findings" aria-labelledby="h-findings">
<h2 id="h-findings">Findings by tier and area</h2>
<canvas id="chart-tiers" role="img" aria-label="Contract findings per night by tier: stated, inferred, informational"></canvas>
${areaRows.length ? table('Findings by area (scenario tag), over the nights kept', ['area', 'stated', 'inferred', 'informational'], areaRows) : '<p>No findings in the nights kept.</p>'}
</section>`;
}

function driftSection(events: readonly DriftEvent[]): string {
  return `<section id="drift" aria-labelledby="h-drift">
<h2 id="h-drift">Drift inside a version</h2>
<p>Versioning: "Breaking (require a new version)": a breaking change inside a version fails the night it shows; non-breaking and informational changes are reported, never failing. Each entry opens (Enter or Space) to its diff.</p>
${driftEntries(events)}
</section>`;
}

function flakySection(d: DashboardData): string {
  const flakyRows = d.flaky.map((f) => [
    htmlText(f.name),
    htmlText(f.project),
    htmlText(f.flips),
    htmlText(f.history.map((h) => `${h.night.slice(0, 15)} ${h.outcome}`).join(' → ')),
  ]);
  const slowRows = d.slow.map((s) => [
    htmlText(s.operation),
    htmlText(s.version || s.api),
    htmlText(s.tonightP95),
    htmlText(s.medianP95),
    htmlText(`${s.factor}×`),
  ]);
  return `<section id="flaky" aria-labelledby="h-flaky">
<h2 id="h-flaky">Flaky scenarios and slow operations</h2>
${flakyRows.length ? table('Scenarios whose verdict flips between nights with no drift to explain it', ['scenario', 'project', 'flips', 'history'], flakyRows) : '<p>No flaky scenario in the nights kept.</p>'}
${slowRows.length ? table('Operations whose p95 grew beyond its median of the last nights (never a verdict: the specification states no response time)', ['operation', 'version', 'p95 tonight (ms)', 'median p95 (ms)', 'factor'], slowRows) : '<p>No slow operation tonight.</p>'}
</section>`;
}

function longRunningSection(d: DashboardData): string {
  const lrRows = d.longRunning.map((r) => [
    htmlText(r.night),
    htmlText(r.rule),
    htmlText(r.rows.join(', ')),
    `<span class="badge ${r.verdict}">${htmlText(r.verdict)}</span>`,
    htmlText(r.detail),
  ]);
  return `<section id="long-running" aria-labelledby="h-lr">
<h2 id="h-lr">Rules that take a day (observed across nights)</h2>
${lrRows.length ? table('Verdicts of the members left for the next night', ['night', 'rule', 'rows', 'verdict', 'detail'], lrRows) : '<p>Nothing judged yet: a target that keeps its state is judged the night after it was left members.</p>'}
</section>`;
}

function latencySection(d: DashboardData, ops: readonly string[]): string {
  const opsOptions = ops.map((o, i) => `<option value="${i}">${htmlText(o)}</option>`).join('');
  const latencyRows = ops.map((o) => [htmlText(o), ...d.nights.slice(-10).map((n) => (n.p95[o] === undefined ? '—' : htmlText(n.p95[o])))]);
  return `<section id="latency" aria-labelledby="h-latency">
<h2 id="h-latency">Latency per operation over time</h2>
${
  ops.length
    ? `<label for="op-select">Operation</label> <select id="op-select">${opsOptions}</select>
<canvas id="chart-latency" role="img" aria-label="p95 latency in milliseconds of the chosen operation per night"></canvas>
${table('p95 latency (ms) per operation, last 10 nights (oldest first)', ['operation', ...d.nights.slice(-10).map((n) => n.id.slice(0, 15))], latencyRows)}`
    : '<p>No latency recorded yet.</p>'
}
</section>`;
}

function dashboardFooter(licence: string): string {
  return `<footer>
<p>Charts drawn with Chart.js (MIT licence, inlined from history/vendor):</p>
<details><summary>Chart.js licence</summary><pre>${htmlText(licence)}</pre></details>
</footer>`;
}

/** Writes `<out>/index.html` from the history; returns its path. */
export function writeDashboard(o: { historyDir: string; out: string; redactor: Redactor }): string {
  const page = renderDashboard(dashboardData(o.historyDir), readFileSync(CHART_JS_FILE, 'utf8'), readFileSync(CHART_JS_LICENCE, 'utf8'));
  mkdirSync(o.out, { recursive: true });
  const file = join(o.out, 'index.html');
  writeFileSync(file, o.redactor.text(page));
  return file;
}
