/**
 * The fault-detection matrix (DESIGN.md, "Proving the suite"): what each catalogue entry did to the suites.
 *
 * A fault is CAUGHT when at least one check or scenario failed under it, and SURVIVED
 * when every suite that could notice it passed (or none ran). A variation PASSED when
 * every suite passed under it, and ALARMED when one failed: a false alarm on a change
 * the Versioning section calls non-breaking. ERROR means the run itself broke (a
 * runner crashed, nothing parsable came back): neither proof nor alarm, and it fails
 * the self-test just the same.
 */
import { tierOfEntry, type CatalogEntry } from '../targets/index.ts';
import type { BaselineResult, Matrix, MatrixRow, MatrixTotals, RunOutcome, Verdict } from '../reports/matrix.ts';

// The matrix's shape and renderings are reports/matrix.ts's (reports render results).
export * from '../reports/matrix.ts';

export function verdictOf(entry: CatalogEntry, outcomes: readonly RunOutcome[]): Verdict {
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
    failed: [...new Set(outcomes.flatMap((o) => o.failed))],
    executed: outcomes.reduce((n, o) => n + o.executed, 0),
    errors: [
      ...outcomes.filter((o) => o.error).map((o) => `${o.kind}: ${o.error}`),
      ...(outcomes.every((o) => o.executed === 0) ? ['no check or scenario ran for these suites'] : []),
    ],
    durationMs: outcomes.reduce((n, o) => n + o.durationMs, 0),
  };
}

export function totalsOf(rows: readonly MatrixRow[]): MatrixTotals {
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
