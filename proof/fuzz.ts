/**
 * The self-test's fuzz column: `npx tsx proof/selftest.ts --fuzz-only`
 * runs the fuzz project (scenarios/fuzz, tag @fuzz) alone against every catalogue entry
 * that a Playwright scenario can notice (faults and variations whose suites name a
 * scenario tag or `*`), so the matrix says which faults the fuzz project catches on its
 * own and that no variation makes it fail. This module reads that matrix: per check of
 * the fuzz project, the faults it caught, and those it alone caught.
 *
 * The fuzz test's error names the checks that caught something on its first line
 * (`fuzz caught: check_a,check_b (...)`, scenarios/fuzz/fuzz.spec.ts verdict); the
 * matrix keeps that line with the catcher.
 */
import type { Matrix, MatrixRow } from './matrix.ts';
import { CATALOG, type CatalogEntry, type NotFuzzableReason } from '../targets/index.ts';
import type { PlannedEntry, SuiteRun } from './plan.ts';

/** The fuzz project's scenario tag. */
export const FUZZ_TAG = '@fuzz';
const FUZZ_RUN: SuiteRun = { kind: 'playwright', selectors: [FUZZ_TAG], all: false };

/**
 * Why no single response of the API shows a fault (the fuzz column counts every catalogue
 * fault visible in one response: a status, a field, a type, a header, a refusal), per reason a catalogue fault names in its `notFuzzable` field. The fuzz
 * project sends independent requests and judges each answer alone; these faults need a
 * browser, a webhook receiver, the clock, or a comparison of several answers (an effect of
 * an earlier request, a list against another list or against data the answer does not
 * carry). The scenarios of their trace rows catch them.
 */
export const NOT_FUZZABLE_REASONS: Record<NotFuzzableReason, string> = {
  browser: 'shown in a browser only (widget events, the OAuth window, its redirects and messages)',
  webhook: 'shown in a webhook delivery, not in an API response',
  time: 'shown over time (aggregation settling, throttle periods, the daily refresh on the simulator clock)',
  effect: 'an effect of an earlier request (an aggregation, MFA answers, an update, a delete, a job, a create with given inputs) seen in a later answer',
  comparison:
    'a comparison of several answers or of an answer with data it does not carry (two lists, page walks, a filter against records known to differ, which institutions are blocked or popular)',
  'not-shown':
    "the path or method the fault refuses is not shown in the specification (x-svc-not-shown: the document's is the vendor reference's reading, the profile's default), so a refusal in one answer breaks no sentence; the scenario holds the target to the profile's path or to the same request's answer on an earlier version",
  unstated: "the rule the fault breaks is the catalogue's reading, not a sentence of the specification one answer can be held to",
};
export type { NotFuzzableReason };

/** Fault name -> why no single response shows it (the catalogue's `notFuzzable`). */
export const NOT_FUZZABLE: ReadonlyMap<string, NotFuzzableReason> = new Map(
  (CATALOG as readonly CatalogEntry[]).flatMap((e) => (e.kind === 'fault' && e.notFuzzable ? [[e.name, e.notFuzzable] as const] : [])),
);

/**
 * Entries the fuzz column runs: those whose plan has a Playwright run (an HTTP response of
 * the API can show them), less the faults no single response shows (`notFuzzable`).
 * Variations all run: none may make the fuzz project fail.
 */
export function fuzzable(p: PlannedEntry): boolean {
  if (p.entry.kind === 'fault' && p.entry.notFuzzable) return false;
  return p.runs.some((r) => r.kind === 'playwright');
}

/** The entry's plan with the fuzz project as its only suite. */
export function fuzzPlan(p: PlannedEntry): PlannedEntry {
  return { entry: p.entry, runs: [FUZZ_RUN] };
}

/** The checks a catcher's error names (`fuzz caught: a,b (...)`, the first line of the fuzz test's error). */
export function checksOfCatch(line: string): string[] {
  const m = /fuzz caught: ([\w,-]+)/.exec(line);
  return m ? m[1].split(',').filter(Boolean) : [];
}

export interface FuzzColumn {
  faults: number;
  caught: string[];
  survived: string[];
  /** Variations that made the fuzz project fail (false alarms). */
  alarms: string[];
  /** check -> faults it caught (with others or alone). */
  byCheck: Record<string, string[]>;
  /** check -> faults only it caught. */
  aloneByCheck: Record<string, string[]>;
}

export function fuzzColumn(rows: readonly MatrixRow[]): FuzzColumn {
  const faults = rows.filter((r) => r.kind === 'fault');
  const col: FuzzColumn = { faults: faults.length, caught: [], survived: [], alarms: [], byCheck: {}, aloneByCheck: {} };
  for (const r of faults) {
    if (r.verdict !== 'CAUGHT') {
      col.survived.push(r.name);
      continue;
    }
    col.caught.push(r.name);
    const checks = [...new Set(r.failed.flatMap((f) => ('test' in f && f.error ? checksOfCatch(f.error) : [])))];
    for (const c of checks) (col.byCheck[c] ??= []).push(r.name);
    if (checks.length === 1) (col.aloneByCheck[checks[0]] ??= []).push(r.name);
  }
  for (const r of rows.filter((x) => x.kind === 'variation')) if (r.verdict !== 'PASSED') col.alarms.push(r.name);
  return col;
}

export function renderFuzzColumn(col: FuzzColumn, m?: Pick<Matrix, 'wallTimeMs' | 'machine'>): string {
  const checks = [...new Set([...Object.keys(col.byCheck), ...Object.keys(col.aloneByCheck)])].sort();
  return [
    '# Self-test, fuzz column (the fuzz project alone)',
    '',
    `Faults a scenario can notice: ${col.faults}; caught by the fuzz project alone: ${col.caught.length}; survived: ${col.survived.length}. Variations that made it fail: ${col.alarms.length ? col.alarms.join(', ') : 'none'}.${m ? ` Wall time ${(m.wallTimeMs / 1000).toFixed(0)} s${m.machine ? ` (load average ${m.machine.loadAverageAtStart.map((x) => x.toFixed(1)).join(' ')} at start, ${m.machine.cpus} cores)` : ''}.` : ''}`,
    '',
    '| check | faults caught | of them, caught by this check alone |',
    '|---|---|---|',
    ...checks.map(
      (c) =>
        `| ${c} | ${col.byCheck[c]?.length ?? 0} | ${col.aloneByCheck[c]?.length ?? 0}${col.aloneByCheck[c]?.length ? ` (${col.aloneByCheck[c].join(', ')})` : ''} |`,
    ),
    '',
    `Caught: ${col.caught.join(', ') || 'none'}`,
    '',
    `Survived: ${col.survived.join(', ') || 'none'}`,
    '',
  ].join('\n');
}
