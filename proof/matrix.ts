/**
 * The fault-detection matrix (DESIGN.md, "Proving the suite"): what each catalogue entry did
 * to the suites, its shape, the gate it implies (matrixPasses) and its renderings (markdown,
 * console table, report entries, the nightly summary's figures).
 *
 * A fault is CAUGHT when at least one check or scenario failed under it, and SURVIVED
 * when every suite that could notice it passed (or none ran). A variation PASSED when
 * every suite passed under it, and ALARMED when one failed: a false alarm on a change
 * the Versioning section calls non-breaking. ERROR means the run itself broke (a
 * runner crashed, nothing parsable came back): neither proof nor alarm, and it fails
 * the self-test just the same.
 */
import { tierOfEntry, type CatalogEntry, type CatalogTier } from '../targets/index.ts';
import type { AllureEntry } from '../reports/allure/results.ts';
import type { SelftestFigures } from '../reports/summary.ts';
import { markdownText } from '../reports/markdown.ts';
import { printTestKey, type TestKey } from './playwright-plan.ts';

/** The suite kinds the self-test runs (proof/plan.ts; one adapter each, proof/adapters.ts). */
export type SuiteKind = 'playwright' | 'delivery' | 'load' | 'upgrade';

/**
 * A check that failed under an entry: a scenario, by its key, with the first line of its
 * error; or a check of a side run, by the name its adapter gives it (proof/adapters.ts:
 * `delivery <scenario>: <check>`, `load:<script> threshold <metric> <expression>`,
 * `versions: <kind> <operation> <location>`).
 */
export type FailedCheck = { test: TestKey; error?: string } | { side: string };

/** The check, without its error: what a baseline, a rerun or a trace row compares. */
export const checkNameOf = (f: FailedCheck): string => ('test' in f ? printTestKey(f.test) : f.side);

/** The check and its error, as the matrix shows it. */
export const printFailedCheck = (f: FailedCheck): string => ('test' in f && f.error ? `${printTestKey(f.test)} — ${f.error}` : checkNameOf(f));

export interface RunOutcome {
  kind: SuiteKind;
  /** How many checks/scenarios ran. */
  executed: number;
  /** The checks/scenarios that failed. */
  failed: FailedCheck[];
  /** Set when the run broke rather than reporting results. */
  error?: string;
  durationMs: number;
}

export type Verdict = 'CAUGHT' | 'SURVIVED' | 'PASSED' | 'ALARMED' | 'ERROR';

export interface MatrixRow {
  name: string;
  kind: CatalogEntry['kind'];
  /** Faults: stated (a sentence of the specification) or inferred (run with the profile env that makes it gate). */
  tier?: CatalogTier;
  /** The profile environment the entry ran with (inferred faults). */
  env?: Record<string, string>;
  area: string;
  section: string;
  description: string;
  suites: string[];
  verdict: Verdict;
  /** For faults, the catchers; for variations, the false alarms. */
  failed: FailedCheck[];
  executed: number;
  errors: string[];
  durationMs: number;
  /** How the verdict was reached when it is not the entry's own run (e.g. variations run together). */
  note?: string;
}

export interface MatrixTotals {
  faults: number;
  caught: number;
  survived: number;
  variations: number;
  passed: number;
  alarmed: number;
  errors: number;
  /** caught / faults, 0..1 */
  detectionRate: number;
  /** alarmed / variations, 0..1 */
  falseAlarmRate: number;
}

/**
 * The clean baseline: every suite the matrix ran, with nothing in force. A failure
 * here is a conformance failure against the simulator itself (and the scenario it
 * names can prove nothing in the matrix); it fails the self-test like a survivor.
 */
export interface BaselineResult {
  executed: number;
  /** The failures, as the matrix shows them (a `[clean-strict] ` prefix for the strict baseline's). */
  failed: string[];
  /** Failed, then passed on the retry: reported, not failing; they catch nothing. */
  flaky?: string[];
  errors: string[];
}

/**
 * Every variation in force at once (DESIGN.md, "Proving the suite": no variation may make
 * the suite fail, together or alone). `failed`: scenarios/checks that failed together;
 * `alarms`: failures no variation reproduces alone that repeat together (an interaction;
 * gating); `flaky`: failures that did not repeat or failed clean too (reported, not gating).
 */
export interface JointResult {
  variations: number;
  executed: number;
  failed: FailedCheck[];
  alarms: string[];
  flaky: string[];
  errors: string[];
}

export interface Matrix {
  generatedAt: string;
  joint?: JointResult;
  wallTimeMs: number;
  /** Playwright workers of the run. */
  concurrency: number;
  baseline?: BaselineResult;
  /** The machine while it ran (the wall time depends on what else runs there). */
  machine?: { cpus: number; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  rows: MatrixRow[];
  totals: MatrixTotals;
  /**
   * spec/trace.yaml rows whose `proven_by` entries ran here (proof/trace-proof.ts):
   * confirmed, or broken (every proving entry ran and none made a `verified_by` check fail).
   */
  traceProofs?: { confirmed: number; broken: { id: string; reason: string }[]; notRun: number };
}

/** The gate: every fault caught, every variation passed, nothing broken, the clean baseline green. */
export function matrixPasses(m: Matrix): boolean {
  const cleanOk = !m.baseline || (m.baseline.failed.length === 0 && m.baseline.errors.length === 0);
  const jointOk = !m.joint || (m.joint.alarms.length === 0 && m.joint.errors.length === 0);
  const proofsOk = !m.traceProofs || m.traceProofs.broken.length === 0;
  return cleanOk && jointOk && proofsOk && m.totals.survived === 0 && m.totals.alarmed === 0 && m.totals.errors === 0;
}

function traceProofLines(m: Matrix): string[] {
  const p = m.traceProofs;
  if (!p) return [];
  return [
    `- Trace proofs (spec/trace.yaml proven_by): ${p.confirmed} confirmed, ${p.broken.length} broken, ${p.notRun} not run here`,
    ...p.broken.map((b) => `  - BROKEN PROOF ${b.id}: ${b.reason}`),
  ];
}

function jointLines(m: Matrix): string[] {
  const j = m.joint;
  if (!j) return [];
  return [
    `- All ${j.variations} variations together: ${j.executed} checks/scenarios ran, ${j.failed.length} failed, ${j.alarms.length} interaction alarm(s)${j.errors.length ? `, ${j.errors.length} broken run(s)` : ''}`,
    ...j.alarms.map((a) => `  - ALARM TOGETHER: ${a}`),
    ...j.flaky.map((f) => `  - FLAKY TOGETHER (not gating): ${f}`),
    ...j.errors.map((e) => `  - BROKEN: ${e.split('\n')[0]}`),
  ];
}

function baselineLines(m: Matrix): string[] {
  const b = m.baseline;
  if (!b) return [];
  return [
    `- Clean baseline: ${b.executed} checks/scenarios ran, ${b.failed.length} failed${b.errors.length ? `, ${b.errors.length} broken run(s)` : ''}`,
    ...b.failed.map((f) => `  - FAILED CLEAN: ${f}`),
    ...(b.flaky ?? []).map((f) => `  - FLAKY CLEAN (passed on retry; catches nothing): ${f}`),
    ...b.errors.map((e) => `  - BROKEN: ${e.split('\n')[0]}`),
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function shortList(failed: readonly FailedCheck[], max = 3): string {
  const names = failed.map(printFailedCheck);
  if (names.length <= max) return names.join('; ');
  return `${names.slice(0, max).join('; ')}; … (+${names.length - max})`;
}

export function renderMarkdown(m: Matrix): string {
  const t = m.totals;
  const lines = [
    '# Self-test: fault-detection matrix',
    '',
    `Generated ${m.generatedAt}; wall time ${(m.wallTimeMs / 1000).toFixed(1)} s with ${m.concurrency} Playwright worker(s)${m.machine ? ` on ${m.machine.cpus} CPU(s), load average ${m.machine.loadAverageAtStart.map((x) => x.toFixed(2)).join(' ')} at start, ${m.machine.loadAverageAtEnd.map((x) => x.toFixed(2)).join(' ')} at end` : ''}.`,
    '',
    `- Faults: ${t.faults}, caught ${t.caught}, survived ${t.survived} — detection rate ${pct(t.detectionRate)}`,
    `- Variations: ${t.variations}, passed ${t.passed}, false alarms ${t.alarmed} — false-alarm rate ${pct(t.falseAlarmRate)}`,
    `- Faults by tier: ${m.rows.filter((r) => r.kind === 'fault' && (r.tier ?? 'stated') === 'stated').length} stated, ${m.rows.filter((r) => r.kind === 'fault' && r.tier === 'inferred').length} inferred (run with the profile setting in their env)`,
    `- Broken runs: ${t.errors}`,
    ...baselineLines(m),
    ...jointLines(m),
    ...traceProofLines(m),
    '',
    '## Faults',
    '',
    '| fault | tier | area | verdict | caught by | section |',
    '|---|---|---|---|---|---|',
    ...m.rows
      .filter((r) => r.kind === 'fault')
      .map(
        (r) =>
          `| ${r.name} | ${r.tier ?? 'stated'}${
            r.env
              ? ` (${Object.entries(r.env)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')})`
              : ''
          } | ${r.area} | ${r.verdict} | ${markdownText(r.verdict === 'ERROR' ? r.errors.join('; ') : shortList(r.failed) || '—')} | ${markdownText(r.section)} |`,
      ),
    '',
    '## Variations',
    '',
    '| variation | verdict | false alarm raised by | rule |',
    '|---|---|---|---|',
    ...m.rows
      .filter((r) => r.kind === 'variation')
      .map(
        (r) =>
          `| ${r.name} | ${r.verdict} | ${markdownText(r.verdict === 'ERROR' ? r.errors.join('; ') : shortList(r.failed) || (r.note ? `— (${r.note})` : '—'))} | ${markdownText(r.section)} |`,
      ),
    '',
  ];
  return lines.join('\n');
}

/** The console table: one line per entry. */
export function renderConsole(m: Matrix): string {
  const width = Math.max(...m.rows.map((r) => r.name.length), 10);
  const out = m.rows.map((r) => {
    const what = r.verdict === 'ERROR' ? r.errors.join('; ') : shortList(r.failed, 2) || (r.kind === 'fault' ? 'no check failed' : '');
    return `${r.kind === 'fault' ? `fault${r.tier === 'inferred' ? '(i)' : '   '} ` : 'variation'} ${r.name.padEnd(width)} ${r.verdict.padEnd(8)} ${what}`;
  });
  const t = m.totals;
  out.push('', ...baselineLines(m), ...jointLines(m), ...traceProofLines(m));
  out.push(
    `faults ${t.caught}/${t.faults} caught (${pct(t.detectionRate)}), ${t.survived} SURVIVED; variations ${t.passed}/${t.variations} passed, ${t.alarmed} false alarm(s); ${t.errors} broken run(s); wall time ${(m.wallTimeMs / 1000).toFixed(1)} s${m.machine ? ` (load average ${m.machine.loadAverageAtStart[0].toFixed(1)} at start, ${m.machine.loadAverageAtEnd[0].toFixed(1)} at end, ${m.machine.cpus} CPUs)` : ''}`,
  );
  return out.join('\n');
}

/**
 * Report entries of the matrix (the nightly report carries it, with
 * the detection rate and the false-alarm rate as trend figures): one per catalogue
 * entry, failed when it SURVIVED, ALARMED or broke, and one with the rates.
 */
export function matrixEntries(m: Matrix): AllureEntry[] {
  const t = m.totals;
  return [
    ...m.rows.map((r) => ({
      fullName: `selftest:${r.kind}:${r.name}`,
      name: `${r.kind} ${r.name}: ${r.verdict}`,
      status: (r.verdict === 'CAUGHT' || r.verdict === 'PASSED' ? 'passed' : r.verdict === 'ERROR' ? 'broken' : 'failed') as 'passed' | 'failed' | 'broken',
      parentSuite: 'self-test',
      suite: r.kind === 'fault' ? 'faults' : 'variations',
      subSuite: r.area,
      severity: 'critical' as const,
      description: `${r.description}\n\nSpecification: ${r.section}`,
      message:
        r.verdict === 'SURVIVED'
          ? `No check or scenario caught this fault (${r.executed} ran for ${r.suites.join(', ')})`
          : r.verdict === 'ALARMED'
            ? `False alarm on a non-breaking change: ${r.failed.map(printFailedCheck).join('; ')}`
            : r.verdict === 'ERROR'
              ? r.errors.join('; ')
              : undefined,
      parameters: {
        verdict: r.verdict,
        suites: r.suites.join(', '),
        [r.kind === 'fault' ? 'caught by' : 'failed']: r.failed.slice(0, 5).map(printFailedCheck).join('; ') || '—',
      },
      durationMs: r.durationMs,
    })),
    {
      fullName: 'selftest:rates',
      name: `self-test: detection ${pct(t.detectionRate)}, false alarms ${pct(t.falseAlarmRate)}`,
      status: matrixPasses(m) ? 'passed' : 'failed',
      parentSuite: 'self-test',
      suite: 'rates',
      parameters: {
        'detection rate': pct(t.detectionRate),
        'false-alarm rate': pct(t.falseAlarmRate),
        faults: t.faults,
        caught: t.caught,
        survived: t.survived,
        variations: t.variations,
        'false alarms': t.alarmed,
        'wall time': `${(m.wallTimeMs / 1000).toFixed(1)} s`,
      },
      attachments: [{ name: 'matrix.md', contentType: 'text/markdown', body: renderMarkdown(m) }],
      durationMs: m.wallTimeMs,
    },
  ];
}

function verdictOf(entry: CatalogEntry, outcomes: readonly RunOutcome[]): Verdict {
  const failed = outcomes.some((o) => o.failed.length > 0);
  const broken = outcomes.some((o) => o.error);
  if (entry.kind === 'fault') {
    if (failed) return 'CAUGHT';
    return broken ? 'ERROR' : 'SURVIVED';
  }
  if (failed) return 'ALARMED';
  // A variation under which nothing ran proves nothing.
  return broken || outcomes.reduce((n, o) => n + o.executed, 0) === 0 ? 'ERROR' : 'PASSED';
}

/** An entry's matrix row; `suites` says what it ran (a variation's suites, a fault's named checks). */
export function rowOf(entry: CatalogEntry, outcomes: readonly RunOutcome[], suites: readonly string[] = entry.suites ?? []): MatrixRow {
  const tier = tierOfEntry(entry);
  return {
    name: entry.name,
    kind: entry.kind,
    ...(tier ? { tier } : {}),
    ...(entry.env ? { env: entry.env } : {}),
    area: entry.area,
    section: entry.section,
    description: entry.description,
    suites: [...suites],
    verdict: verdictOf(entry, outcomes),
    // Each failure once, as the matrix shows it (the same scenario may fail with another error in another run).
    failed: [...new Map(outcomes.flatMap((o) => o.failed).map((f) => [printFailedCheck(f), f] as const)).values()],
    executed: outcomes.reduce((n, o) => n + o.executed, 0),
    errors: [
      ...outcomes.filter((o) => o.error).map((o) => `${o.kind}: ${o.error}`),
      ...(outcomes.every((o) => o.executed === 0) ? ['no check or scenario ran for these suites'] : []),
    ],
    durationMs: outcomes.reduce((n, o) => n + o.durationMs, 0),
  };
}

function totalsOf(rows: readonly MatrixRow[]): MatrixTotals {
  const faults = rows.filter((r) => r.kind === 'fault');
  const variations = rows.filter((r) => r.kind === 'variation');
  const caught = faults.filter((r) => r.verdict === 'CAUGHT').length;
  const alarmed = variations.filter((r) => r.verdict === 'ALARMED').length;
  return {
    faults: faults.length,
    caught,
    survived: faults.filter((r) => r.verdict === 'SURVIVED').length,
    variations: variations.length,
    passed: variations.filter((r) => r.verdict === 'PASSED').length,
    alarmed,
    errors: rows.filter((r) => r.verdict === 'ERROR').length,
    detectionRate: faults.length ? caught / faults.length : 0,
    falseAlarmRate: variations.length ? alarmed / variations.length : 0,
  };
}

export function buildMatrix(rows: MatrixRow[], wallTimeMs: number, concurrency: number, now = new Date(), baseline?: BaselineResult): Matrix {
  return { generatedAt: now.toISOString(), wallTimeMs, concurrency, ...(baseline ? { baseline } : {}), rows, totals: totalsOf(rows) };
}

/**
 * The matrix as the nightly summary shows it (reports/summary.ts): the rates, and one
 * problem per entry that fails the gate.
 */
export function selftestFigures(m: Matrix): SelftestFigures {
  const t = m.totals;
  const problems = m.rows.flatMap((r) =>
    r.verdict === 'SURVIVED'
      ? [`fault ${r.name} survived: no check caught it`]
      : r.verdict === 'ALARMED'
        ? [`variation ${r.name} raised a false alarm: ${r.failed.slice(0, 2).map(printFailedCheck).join('; ')}`]
        : r.verdict === 'ERROR'
          ? [`${r.kind} ${r.name}: ${r.errors.join('; ')}`]
          : [],
  );
  return {
    faults: t.faults,
    caught: t.caught,
    detectionRate: t.detectionRate,
    variations: t.variations,
    passed: t.passed,
    falseAlarmRate: t.falseAlarmRate,
    problems,
  };
}
