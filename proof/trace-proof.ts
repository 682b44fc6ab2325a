/**
 * Confirms the proofs of spec/trace.yaml against a self-test matrix (each verified
 * row names the scenario and the catalogue fault that proves it).
 *
 * A row's proof is confirmed when one of its `proven_by` entries ran in the matrix and
 *   - a fault: was CAUGHT, and one of the checks that caught it is named in `verified_by`;
 *   - a variation (a tolerance row, Versioning "non-breaking"): PASSED.
 * A row whose proving entries all ran without confirming it is a broken proof: the row
 * claims a check the catalogue does not show to be able to fail. The self-test fails on it.
 *
 *   npx tsx proof/trace-proof.ts [matrix.json]            # confirm against a matrix
 *   npx tsx proof/trace-proof.ts --suggest [matrix.json]  # faults that would prove
 *                                                                    # rows without proven_by
 *   npx tsx proof/trace-proof.ts --shown-by [matrix.json] # writes each row's shown_by
 *
 * `--shown-by` writes the generated sidecar spec/trace.shown-by.yaml: per (row, fault), which
 * of the row's checks show the fault when only some of them do; the self-test then runs the
 * fault on those alone (proof/plan.ts `planFault`). It never widens a claim: a matrix whose faults ran
 * narrowed can only confirm or shrink it. To look again at every check of every row, give
 * it a matrix of `npm run selftest -- --full-suites`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coverageOf, loadTrace, PROJECT_ROOT, renderShownBy, SHOWN_BY_FILE, type ShownBy, type TraceRow, MUTANT_PROOF_PREFIX } from '../spec/trace.ts';
import type { FailedCheck, MatrixRow } from './matrix.ts';

function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Does a check that failed in the matrix (a scenario by its key; a side run's check by the
 * name its adapter gives it: `delivery <name>: <check>`, `versions: <rule> ...`,
 * `load:<script> threshold ...`) come from the check a `verified_by` entry of the
 * hand-written trace names (`<file> > <title>`, `delivery: <name> (<check>)`, ...)?
 */
export function namesCheck(verifiedBy: string, failure: FailedCheck): boolean {
  if (verifiedBy.startsWith('scenarios/')) {
    if (!('test' in failure)) return false;
    const parts = verifiedBy.split(' > ');
    const file = parts[0]!;
    const title = parts.slice(1).join(' > ');
    return failure.test.file === file && title.length > 0 && words(failure.test.titlePath.join(' ')).includes(words(title));
  }
  // "<kind>: <name> (<check>)": the failure must come from the same kind of run, and name
  // the same scenario (and check, when one is given).
  const kind = /^([a-z-]+):/.exec(verifiedBy)?.[1];
  const rest = verifiedBy.replace(/^[a-z-]+:\s*/, '');
  // A property is a scenario of scenarios/properties, named by its full title.
  if (kind === 'properties')
    return (
      'test' in failure &&
      failure.test.file.startsWith('scenarios/properties/') &&
      words(rest).length > 0 &&
      words(failure.test.titlePath.join(' ')).includes(words(rest))
    );
  if (!('side' in failure)) return false;
  const head = failure.side;
  const recordedAs: Record<string, string> = { delivery: 'delivery ', versions: 'versions:', load: 'load:' };
  const prefix = kind === undefined ? undefined : recordedAs[kind];
  if (prefix === undefined || !head.startsWith(prefix)) return false;
  // Other kinds by their scenario/script name (the first word), and by one of the checks
  // (snake_case names) given in parentheses, when any is given.
  const name = /^[\w.-]+/.exec(rest)?.[0];
  if (!name || !new RegExp(`(^|[\\s:])${name.replace(/[.]/g, '\\.')}([\\s:]|$)`).test(head)) return false;
  const checks = [...(/\(([^)]*)\)/.exec(rest)?.[1] ?? '').matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g)].map((m) => m[0]);
  return checks.length === 0 || checks.some((c) => head.includes(c));
}

export interface ProofReport {
  confirmed: string[];
  /** Every proving entry ran, none confirmed the row. */
  broken: { id: string; reason: string }[];
  /** Not every proving entry ran in this matrix (a run restricted with --only), and those that ran did not confirm it. */
  notRun: string[];
}

/**
 * A proof by a generated response mutant (`mutant:<id>`, proof/mutants): confirmed by the
 * mutation run (`svc-conformance mutants`, reports/out/mutants/mutants.json), never by the
 * self-test's matrix, which runs catalogue entries only.
 */
export const MUTANT_PROOF = MUTANT_PROOF_PREFIX;
const isMutantProof = (name: string) => name.startsWith(MUTANT_PROOF_PREFIX);
const catalogueProofs = (row: TraceRow) => row.proven_by.filter((n) => !isMutantProof(n));

export function confirmProofs(rows: readonly TraceRow[], matrixRows: readonly MatrixRow[]): ProofReport {
  const byName = new Map(matrixRows.map((r) => [r.name, r]));
  const report: ProofReport = { confirmed: [], broken: [], notRun: [] };
  for (const row of rows) {
    const proofs = catalogueProofs(row);
    if (proofs.length === 0) continue;
    const ran = proofs.map((name) => byName.get(name)).filter((r): r is MatrixRow => r !== undefined);
    if (ran.length === 0) {
      report.notRun.push(row.id);
      continue;
    }
    const confirms = ran.some((entry) =>
      entry.kind === 'variation'
        ? entry.verdict === 'PASSED'
        : entry.verdict === 'CAUGHT' && entry.failed.some((failure) => row.verified_by.some((v) => namesCheck(v, failure))),
    );
    if (confirms) report.confirmed.push(row.id);
    // A run restricted with --only that left some proving entries out cannot judge the row.
    else if (ran.length < proofs.length) report.notRun.push(row.id);
    else {
      const why = ran.map(
        (e) =>
          `${e.name} ${e.verdict}${e.kind === 'fault' && e.verdict === 'CAUGHT' ? ` by ${e.failed.length} other check(s), none named in verified_by` : ''}`,
      );
      report.broken.push({ id: row.id, reason: why.join('; ') });
    }
  }
  return report;
}

/**
 * The shown_by to write, for the whole trace: per (row, fault), ONE check that shows the
 * fault — not a browser scenario where another shows it, and
 * one the fault already runs for another row where there is one — and then, so that no
 * check loses its proof, every check that some fault shows is kept in at least one pair.
 * So each row stays proven by each of its faults, each fault runs on few scenarios, and
 * each scenario a fault can fail still runs under one (Developers' guide: every check and
 * scenario is proven by a named fault that makes it fail). Claims of faults that did not
 * run or were not caught are kept as they are. `undefined` for a row: no shown_by.
 */
export function chooseShownBy(rows: readonly TraceRow[], matrixRows: readonly MatrixRow[]): Map<string, Record<string, string[]> | undefined> {
  const isBrowser = (v: string) => v.startsWith('scenarios/browser/');
  const byName = new Map(matrixRows.map((r) => [r.name, r]));
  interface Pair {
    row: TraceRow;
    fault: string;
    showing: string[];
    kept?: string[];
  }
  const pairs: Pair[] = rows.flatMap((row) =>
    catalogueProofs(row).map((fault): Pair => {
      const entry = byName.get(fault);
      const showing = entry?.kind === 'fault' && entry.verdict === 'CAUGHT' ? row.verified_by.filter((v) => entry.failed.some((f) => namesCheck(v, f))) : [];
      const kept = showing.length === 0 ? row.shown_by?.[fault] : undefined;
      return { row, fault, showing, ...(kept ? { kept } : {}) };
    }),
  );
  const chosen = new Map<Pair, Set<string>>();
  const runsFor = new Map<string, Set<string>>();
  for (const p of pairs) {
    if (p.showing.length === 0) continue;
    const runs = runsFor.get(p.fault) ?? new Set<string>();
    const pick = [...p.showing].sort((a, b) => Number(runs.has(b)) - Number(runs.has(a)) || Number(isBrowser(a)) - Number(isBrowser(b)))[0]!;
    chosen.set(p, new Set([pick]));
    runs.add(pick);
    runsFor.set(p.fault, runs);
  }
  const covered = new Set([...chosen.values()].flatMap((set) => [...set]));
  for (const p of pairs) {
    for (const v of p.showing) {
      if (covered.has(v)) continue;
      chosen.get(p)!.add(v);
      covered.add(v);
    }
  }
  const out = new Map<string, Record<string, string[]> | undefined>();
  for (const row of rows) {
    const shown: Record<string, string[]> = {};
    for (const p of pairs.filter((x) => x.row === row)) {
      const set = chosen.get(p);
      if (set) {
        if (set.size < row.verified_by.length) shown[p.fault] = row.verified_by.filter((v) => set.has(v));
      } else if (p.kept) shown[p.fault] = p.kept;
    }
    out.set(row.id, Object.keys(shown).length ? shown : undefined);
  }
  return out;
}

/**
 * Writes chooseShownBy's choice to the generated sidecar (spec/trace.shown-by.yaml): the
 * hand-written trace is never rewritten.
 */
function writeShownBy(matrixRows: readonly MatrixRow[], file: string = SHOWN_BY_FILE): { rows: number; pairs: number } {
  const trace = loadTrace();
  const choice = chooseShownBy(trace, matrixRows);
  const shownBy: ShownBy = {};
  for (const row of trace) {
    const shown = choice.get(row.id);
    if (shown) shownBy[row.id] = shown;
  }
  writeFileSync(file, renderShownBy(shownBy));
  return { rows: Object.keys(shownBy).length, pairs: Object.values(shownBy).reduce((n, s) => n + Object.keys(s).length, 0) };
}

const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'and',
  'or',
  'is',
  'are',
  'in',
  'on',
  'to',
  'for',
  'with',
  'by',
  'be',
  'as',
  'at',
  'it',
  'its',
  'not',
  'no',
]);

function relevance(row: TraceRow, entry: MatrixRow): number {
  const rowWords = new Set(
    words(`${row.section} ${row.statement}`)
      .split(' ')
      .filter((w) => w.length > 2 && !STOP_WORDS.has(w)),
  );
  return words(`${entry.name} ${entry.section} ${entry.description}`)
    .split(' ')
    .filter((w) => rowWords.has(w)).length;
}

/**
 * Catalogue faults whose catchers include a `verified_by` check of the row: the ones that
 * break what the row states first (shared words with its statement), then the most specific
 * (fewest other catchers). A maintainer's starting point, to be read before it is pasted.
 */
function suggestProofs(row: TraceRow, matrixRows: readonly MatrixRow[], limit = 2): string[] {
  return matrixRows
    .filter((e) => e.kind === 'fault' && e.verdict === 'CAUGHT' && e.failed.some((f) => row.verified_by.some((v) => namesCheck(v, f))))
    .map((e) => ({ e, score: relevance(row, e) }))
    .sort((a, b) => b.score - a.score || a.e.failed.length - b.e.failed.length || a.e.name.localeCompare(b.e.name))
    .slice(0, limit)
    .map(({ e }) => e.name);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const suggest = args.includes('--suggest');
  const writeShown = args.includes('--shown-by');
  const file = args.find((a) => !a.startsWith('--')) ?? join(PROJECT_ROOT, 'reports/out/selftest/matrix.json');
  const matrix = JSON.parse(readFileSync(file, 'utf8')) as { rows: MatrixRow[] };
  const rows = loadTrace();
  if (writeShown) {
    const { rows: n, pairs } = writeShownBy(matrix.rows);
    console.log(`spec/trace.shown-by.yaml: shown_by on ${n} rows (${pairs} row-fault pairs shown by only some of the row's checks), from ${file}`);
  } else if (suggest) {
    for (const row of rows) {
      if (row.proven_by.length > 0 || row.verified_by.length === 0 || coverageOf(row) === 'not-checkable') continue;
      console.log(`${row.id}: ${suggestProofs(row, matrix.rows).join(', ') || '(no catalogue fault makes a verified_by check fail)'}`);
    }
  } else {
    const report = confirmProofs(rows, matrix.rows);
    console.log(`trace proofs: ${report.confirmed.length} confirmed, ${report.broken.length} broken, ${report.notRun.length} not run in ${file}`);
    for (const b of report.broken) console.log(`  BROKEN ${b.id}: ${b.reason}`);
    process.exitCode = report.broken.length > 0 ? 1 : 0;
  }
}
