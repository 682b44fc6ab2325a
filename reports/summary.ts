/**
 * The one-page summary of a nightly run (DESIGN.md, "What it is for" 3), in Markdown (a chat message, a CI
 * job summary) and HTML (the same content, self-contained, beside the Allure report).
 * The gate's verdict and its reasons come first; inferred and informational findings are
 * listed (every distinct one, reports/findings.ts) and fail only as their tier says.
 *
 * A partial run (a step skipped, the conformance run narrowed by --grep, a quick self-test
 * matrix) never reads "Gate: PASS": it says what it left out, shows no result of a step it
 * did not run, and lists only the artifacts it wrote.
 */
import type { ConformanceResult } from './conformance.ts';
import { renderFindingsMarkdown, tierMeaning } from './findings.ts';
import { markdownCode, markdownText } from './markdown.ts';
import type { LoadResult } from './load-summary.ts';
import { trendTable, type TrendPoint } from './trends.ts';

export interface GateReason {
  step: string;
  reason: string;
}

/** A part of the nightly this run did not do in full, and how it was asked for. */
export interface LeftOut {
  step: 'conformance' | 'load' | 'self-test';
  /** true: the step did not run at all; false: it ran narrowed (--grep, a quick matrix). */
  notRun: boolean;
  /** e.g. "not run (--skip selftest)", "only the tests matching --grep @smoke". */
  what: string;
}

/**
 * pass     every step ran in full and nothing failed
 * fail     an error-severity failure in what ran (partial or not)
 * partial  nothing failed in what ran, but a step was left out: no verdict on the whole
 */
export type GateVerdict = 'pass' | 'fail' | 'partial';

export function gateVerdict(reasons: readonly GateReason[], leftOut: readonly LeftOut[]): GateVerdict {
  return reasons.length ? 'fail' : leftOut.length ? 'partial' : 'pass';
}

/** The verdict in one line, as the console, the Allure gate entry and the summary say it. */
export function verdictLine(gate: GateVerdict, reasons: readonly GateReason[], leftOut: readonly LeftOut[]): string {
  const left = leftOut.map((l) => `${l.step} ${l.what}`).join('; ');
  if (gate === 'pass') return 'Gate: PASS (every step ran in full; no error-severity failure)';
  if (gate === 'fail') return `Gate: FAIL (${reasons.length} error-severity problem(s)${leftOut.length ? `; partial run, left out: ${left}` : ''})`;
  return `Partial run: no gate verdict (no error-severity failure in what ran; left out: ${left})`;
}

/**
 * The self-test as the summary shows it: its rates and one problem per catalogue entry that
 * fails the gate (proof/matrix.ts `selftestFigures` makes it from the matrix, whose shape is
 * the self-test's own).
 */
export interface SelftestFigures {
  faults: number;
  caught: number;
  /** caught / faults, 0..1 */
  detectionRate: number;
  variations: number;
  passed: number;
  /** alarmed / variations, 0..1 */
  falseAlarmRate: number;
  /** A survived fault, a variation's false alarm, a broken run: each fails the gate. */
  problems: string[];
}

export interface NightlySummary {
  at: string;
  wallTimeMs: number;
  gate: GateVerdict;
  reasons: GateReason[];
  /** What this run did not do in full (empty for a full nightly). */
  leftOut?: LeftOut[];
  /** SVC_STRICT=1: inferred findings gate. */
  strict?: boolean;
  /** Whether this run was added to the trends (full runs only). */
  trendRecorded?: boolean;
  /** The files this run wrote, each checked to exist. */
  artifacts?: { name: string; path: string }[];
  conformance?: ConformanceResult;
  load: LoadResult[];
  loadErrors: string[];
  selftest?: SelftestFigures;
  trends: TrendPoint[];
  reportPath: string;
  reportBytes?: number;
  versions?: { from: string; to: string; breaking: number; nonBreaking: number; gate: 'pass' | 'fail' };
  /** The history's sections (drift, rules that take a day, flaky, slow, its cost), rendered by history/record.ts. */
  historyLines?: string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const firstLine = (s: string) =>
  s
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 240) ?? '';

/** Error-severity problems of the steps that ran (`skipped`: steps not run, so no "produced nothing" reason). */
export function gateReasons(
  s: Pick<NightlySummary, 'conformance' | 'load' | 'loadErrors' | 'selftest'>,
  skipped: ReadonlySet<LeftOut['step']> = new Set(),
): GateReason[] {
  const out: GateReason[] = [];
  const c = s.conformance;
  if (!c) {
    if (!skipped.has('conformance')) out.push({ step: 'conformance', reason: 'the conformance run produced no results' });
  } else {
    for (const f of c.failures) out.push({ step: 'conformance', reason: `${f.test} [${f.project}]: ${firstLine(f.message)}` });
    for (const e of c.globalErrors) out.push({ step: 'conformance', reason: firstLine(e) });
  }
  for (const r of s.load)
    for (const t of r.thresholds) if (!t.ok) out.push({ step: 'load', reason: `${r.script}: threshold ${t.metric} ${t.expression} failed` });
  for (const e of s.loadErrors) out.push({ step: 'load', reason: e });
  if (!s.selftest) {
    if (!skipped.has('self-test')) out.push({ step: 'self-test', reason: 'the self-test produced no matrix' });
  } else for (const reason of s.selftest.problems) out.push({ step: 'self-test', reason });
  return out;
}

export function renderSummaryMarkdown(s: NightlySummary): string {
  const c = s.conformance;
  const m = s.selftest;
  const leftOut = s.leftOut ?? [];
  const notRun = (step: LeftOut['step']) => leftOut.find((l) => l.step === step && l.notRun);
  const strict = !!s.strict;
  const wall = `wall time ${(s.wallTimeMs / 1000).toFixed(0)} s`;
  const lines: string[] = [`# svc conformance — nightly ${s.at.slice(0, 10)}${s.gate === 'partial' || leftOut.length ? ' (partial run)' : ''}`, ''];
  if (s.gate === 'pass') lines.push(`**Gate: PASS** — every step ran in full; no error-severity failure; ${wall}.`);
  else if (s.gate === 'fail')
    lines.push(
      `**Gate: FAIL** — ${s.reasons.length} error-severity problem(s)${leftOut.length ? ' in what ran (a partial run: see what it left out below)' : ''}; ${wall}.`,
    );
  else lines.push(`**Partial run: no gate verdict** — no error-severity failure in what ran, but this run left out part of the nightly (below); ${wall}.`);
  lines.push('');
  if (leftOut.length) {
    lines.push('## Left out of this run', '', ...leftOut.map((l) => `- **${l.step}**: ${l.what}`), '');
  }
  if (s.reasons.length) {
    lines.push('## Why the gate failed', '', ...s.reasons.slice(0, 30).map((r) => `- **${r.step}**: ${markdownText(r.reason)}`));
    if (s.reasons.length > 30) lines.push(`- … and ${s.reasons.length - 30} more (see the Allure report)`);
    lines.push('');
  }
  lines.push('## Results', '', '| part | result |', '|---|---|');
  const skippedConformance = notRun('conformance');
  if (c) {
    const total = c.passed + c.failed + c.flaky;
    const f = c.findings;
    lines.push(
      `| scenarios + properties | ${c.passed} passed, ${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped (pass rate ${total ? pct(c.passed / total) : '—'}) |`,
    );
    for (const tier of ['stated', 'inferred', 'informational'] as const) {
      lines.push(`| ${tier} findings | ${f[tier].findings} in ${f[tier].tests} test(s) (${tierMeaning(tier, strict)}) |`);
    }
  } else lines.push(`| scenarios + properties | ${skippedConformance ? skippedConformance.what : 'no results'} |`);
  const skippedLoad = notRun('load');
  if (skippedLoad) lines.push(`| load | ${skippedLoad.what} |`);
  for (const r of s.load) {
    const bad = r.thresholds.filter((t) => !t.ok);
    const figs = Object.entries(r.figures)
      .slice(0, 6)
      .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`)
      .join(', ');
    lines.push(`| load ${r.script} | ${r.thresholds.length - bad.length}/${r.thresholds.length} thresholds ok${figs ? `; ${figs}` : ''} |`);
  }
  if (m) {
    lines.push(`| self-test faults | ${m.caught}/${m.faults} caught — detection rate ${pct(m.detectionRate)} |`);
    lines.push(`| self-test variations | ${m.passed}/${m.variations} passed — false-alarm rate ${pct(m.falseAlarmRate)} |`);
  } else {
    const skippedSelftest = notRun('self-test');
    if (skippedSelftest) lines.push(`| self-test | ${skippedSelftest.what} |`);
  }
  if (s.versions)
    lines.push(
      `| version upgrade ${s.versions.from} → ${s.versions.to} | ${s.versions.breaking} breaking, ${s.versions.nonBreaking} non-breaking difference(s); gate ${s.versions.gate} |`,
    );
  lines.push('', '## Trends (last 10 full runs)', '');
  if (s.trendRecorded === false) lines.push('This partial run is not one of them: only a full nightly adds a trend row.', '');
  lines.push(s.trends.length ? trendTable(s.trends) : '_No full nightly recorded yet._', '');
  if (s.historyLines) lines.push(...s.historyLines);
  if (c) lines.push(...renderFindingsMarkdown(c.findings, { strict }));
  const artifacts = s.artifacts ?? [{ name: 'Allure report', path: `${s.reportPath}/index.html` }];
  lines.push('## Artifacts', '');
  for (const a of artifacts)
    lines.push(`- ${a.name}: ${markdownCode(a.path, 'text')}${a.name === 'Allure report' && s.reportBytes ? ` (${(s.reportBytes / 1e6).toFixed(1)} MB)` : ''}`);
  lines.push('');
  return lines.join('\n');
}
