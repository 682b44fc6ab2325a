/**
 * Prints the figures quoted in spec/README.md: operations per document and per derived
 * version, webhook types, trace rows and not-shown rows, and how far the checkable
 * statements are verified, one column per row (spec/columns.ts `placeRow`).
 *
 *   npm run spec:stats [-- --list minimal|full|guess|long-running|not-verifiable|not-verified|tolerance|suspect|not-checkable]
 *
 * A row counts as verified in one run only when a proof that breaks its own sentence (a
 * stated catalogue fault, a generated mutant, a broken reference receiver) makes a check
 * it names fail, on a real target: minimal settings when that check needs only what the
 * vendor hands every team, full settings when it needs what a team can know, a column of
 * its own when it needs a guess (preflight/setting-sources.ts, preflight/requirements.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTHORED_DOCUMENTS, DERIVED_DOCUMENTS, loadDocument, operationsOf } from './documents.ts';
import { coverageOf, loadTrace, PROJECT_ROOT, type Coverage, type TraceRow } from './trace.ts';
import { COLUMN_TITLES, placeRow, suspectOf, type Column, type ColumnFacts, type Placement, type Proof, type SentenceRule, type Suspect } from './columns.ts';
import { LONG_RUNNING, NOT_VERIFIABLE, OBSERVED_ACROSS_NIGHTS } from './verifiability.ts';
import { CATALOG, tierOfEntry, type CatalogEntry } from '../targets/index.ts';
import { settingsOfCheck, sourceOfSetting } from '../preflight/requirements.ts';

/** Goals: verified in one run with minimal settings at least 75 %, with full settings at least 90 % of the checkable statements. */
export const COVERAGE_GOALS = { minimalAtLeast: 0.75, fullAtLeast: 0.9 } as const;

export interface SpecStats {
  documents: { name: string; paths: number; operations: number; deprecated: number; sunset: number; webhooks: number }[];
  traceRows: number;
  notShownRows: number;
  unencodedRows: number;
  verifiedRows: number;
  /** Rows per column. */
  columns: Record<Column, number>;
  /** Tolerance rows, and those a catalogue variation the self-test runs proves. */
  tolerance: { proven: number; rows: number };
  /** Long-running rows with a proof (on the simulator only). */
  longRunningWithSimulatorProof: number;
  /** Long-running rows the nightly verifies across nights (spec/verifiability.ts OBSERVED_ACROSS_NIGHTS). */
  longRunningObservedAcrossNights: number;
  /** Rows where the halves of the sentence rule disagree with it (spec/columns.ts suspectOf). */
  suspects: Suspect[];
  /** The one-run columns under each half of the sentence rule alone: how far the mechanical reading moves the figures. */
  alternatives: Record<'section' | 'words', { minimal: number; full: number; guess: number }>;
  /** Rows per category of trace.ts coverageOf (any proof, any command): what the columns correct. */
  coverage: Record<Coverage, number>;
  /** Rows that can fail a run at all: everything but `not-checkable`. */
  checkable: number;
}

/**
 * The faults tests/live-delivery.system.test.ts proves on the live delivery check (its FAULTS
 * table, read as text: tests/ runs the suites and is not imported here); the ones it
 * runs under SVC_STRICT=1 are inferred there and left out.
 */
export function liveDeliveryFaults(root: string = PROJECT_ROOT): Set<string> {
  const text = readFileSync(join(root, 'tests', 'live-delivery.system.test.ts'), 'utf8');
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*\{\s*fault:\s*'([a-z0-9-]+)'/.exec(line);
    if (m && !/SVC_STRICT/.test(line)) out.add(m[1]);
  }
  return out;
}

/** A catalogue entry as a proof (spec/columns.ts Proof). */
function catalogueProof(name: string): Proof | undefined {
  const e: CatalogEntry | undefined = CATALOG.find((x) => x.name === name);
  if (!e) return undefined;
  if (e.kind === 'variation') return { kind: 'variation', section: e.section, description: e.description, suites: e.suites };
  return { kind: 'fault', tier: tierOfEntry(e) ?? 'stated', section: e.section, description: e.description, ...(e.env ? { env: e.env } : {}) };
}

/** The facts placeRow needs, from the catalogue, the settings tables, the live-delivery proofs and spec/verifiability.ts. */
export function columnFacts(): ColumnFacts {
  const live = liveDeliveryFaults();
  const settings = new Map<string, string[]>();
  return {
    catalogueEntry: catalogueProof,
    settingsOfCheck: (check) => {
      let s = settings.get(check);
      if (!s) settings.set(check, (s = settingsOfCheck(check)));
      return s;
    },
    sourceOf: sourceOfSetting,
    provenOnLiveDelivery: (fault) => live.has(fault),
    longRunning: (id) => LONG_RUNNING[id],
    notVerifiable: (id) => NOT_VERIFIABLE[id],
  };
}

/** Every row with its column, in trace order. */
export function placements(
  rows: readonly TraceRow[] = loadTrace(),
  facts: ColumnFacts = columnFacts(),
  rule: SentenceRule = 'combined',
): Array<{ row: TraceRow; placement: Placement }> {
  return rows.map((row) => ({ row, placement: placeRow(row, facts, rule) }));
}

/** The one-run columns' counts of a placement. */
function oneRun(placed: Array<{ placement: Placement }>): { minimal: number; full: number; guess: number } {
  const count = (c: Column) => placed.filter((p) => p.placement.column === c).length;
  return { minimal: count('minimal'), full: count('full'), guess: count('guess') };
}

export function collectStats(): SpecStats {
  const documents = [...AUTHORED_DOCUMENTS, ...DERIVED_DOCUMENTS].map(({ name, file }) => {
    const doc = loadDocument(file);
    const ops = operationsOf(doc.paths);
    return {
      name,
      paths: Object.keys(doc.paths ?? {}).length,
      operations: ops.length,
      deprecated: ops.filter((o) => o.operation.deprecated === true || 'x-svc-deprecated-from' in o.operation).length,
      sunset: ops.filter((o) => o.operation['x-svc-sunset'] === true || 'x-svc-sunset-from' in o.operation).length,
      webhooks: operationsOf(doc.webhooks).length,
    };
  });
  const rows = loadTrace();
  const facts = columnFacts();
  const placed = placements(rows, facts);
  const columns: Record<Column, number> = {
    'not-checkable': 0,
    minimal: 0,
    full: 0,
    guess: 0,
    'long-running': 0,
    tolerance: 0,
    'not-verifiable': 0,
    'not-verified': 0,
  };
  const coverage: Record<Coverage, number> = { 'not-checkable': 0, verified: 0, 'simulator-only': 0, passive: 0, unverified: 0 };
  for (const { row, placement } of placed) {
    columns[placement.column]++;
    coverage[coverageOf(row)]++;
  }
  const tolerance = placed.filter((p) => p.placement.column === 'tolerance');
  return {
    documents,
    traceRows: rows.length,
    notShownRows: rows.filter((r) => r.not_shown).length,
    unencodedRows: rows.filter((r) => r.encoded_in.length === 0).length,
    verifiedRows: rows.filter((r) => r.verified_by.length > 0).length,
    columns,
    tolerance: { proven: tolerance.filter((p) => p.placement.toleranceProven).length, rows: tolerance.length },
    longRunningWithSimulatorProof: placed.filter((p) => p.placement.column === 'long-running' && p.placement.simulatorProof).length,
    longRunningObservedAcrossNights: placed.filter((p) => p.placement.column === 'long-running' && p.row.id in OBSERVED_ACROSS_NIGHTS).length,
    suspects: placed.map(({ row, placement }) => suspectOf(row, placement, facts)).filter((s): s is Suspect => s !== undefined),
    alternatives: { section: oneRun(placements(rows, facts, 'section')), words: oneRun(placements(rows, facts, 'words')) },
    coverage,
    checkable: rows.length - columns['not-checkable'],
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

/** What `--list <column>` prints after a row's id. */
function detail(p: Placement, id: string): string {
  const across = p.column === 'long-running' ? OBSERVED_ACROSS_NIGHTS[id] : undefined;
  const parts = [
    p.reason,
    across && `observed across nights: ${across}`,
    p.proofs && `proofs: ${p.proofs.join(', ')}`,
    p.settings && `settings: ${p.settings.join(', ')}`,
  ].filter(Boolean);
  return parts.join(' | ');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stats = collectStats();
  console.log('document                  paths  operations  deprecated  sunset  webhooks');
  for (const d of stats.documents) {
    console.log(
      `${d.name.padEnd(24)}  ${String(d.paths).padStart(5)}  ${String(d.operations).padStart(10)}  ${String(d.deprecated).padStart(10)}  ${String(d.sunset).padStart(6)}  ${String(d.webhooks).padStart(8)}`,
    );
  }
  console.log(
    `trace rows: ${stats.traceRows}; not shown: ${stats.notShownRows}; without encoding (treatment only): ${stats.unencodedRows}; with a verified_by entry: ${stats.verifiedRows}`,
  );
  const c = stats.columns;
  const n = stats.checkable;
  const line = (label: string, count: number, note: string) =>
    console.log(`  ${label.padEnd(38)} ${String(count).padStart(4)}  ${percent(count, n).padStart(6)}  ${note}`);
  console.log('');
  console.log(`checkable statements: ${n} (not checkable: ${c['not-checkable']}: informative, or a "not shown" line); each lands in one column:`);
  line(COLUMN_TITLES.minimal, c.minimal, `(goal >= ${COVERAGE_GOALS.minimalAtLeast * 100}%; base URLs, credentials, the test user's passwords)`);
  line(
    COLUMN_TITLES.full,
    c.full,
    `(with the minimal ones ${c.minimal + c.full}, ${percent(c.minimal + c.full, n)}; goal >= ${COVERAGE_GOALS.fullAtLeast * 100}%; settings a team can know)`,
  );
  line(COLUMN_TITLES.guess, c.guess, '(a setting nobody can know: preflight/setting-sources.ts `guess`)');
  line(
    COLUMN_TITLES['long-running'],
    c['long-running'],
    `(a day, nights or longer; ${stats.longRunningWithSimulatorProof} with a simulator-only proof; ${stats.longRunningObservedAcrossNights} verified by the nightly across nights, history/)`,
  );
  line(COLUMN_TITLES['not-verifiable'], c['not-verifiable'], '(no run or observation can break it; --list not-verifiable gives the reasons)');
  line(COLUMN_TITLES['not-verified'], c['not-verified'], '(verifiable, but no proof of its own sentence fails a check it names on a real target)');
  line(COLUMN_TITLES.tolerance, c.tolerance, `(tolerance proven ${stats.tolerance.proven}/${stats.tolerance.rows})`);
  const sum = (Object.keys(COLUMN_TITLES) as Array<keyof typeof COLUMN_TITLES>).reduce((total, k) => total + c[k], 0);
  console.log(`  ${'sum'.padEnd(38)} ${String(sum).padStart(4)}`);
  const alt = (a: { minimal: number; full: number; guess: number }) =>
    `minimal ${a.minimal}, full ${a.full} (with minimal ${a.minimal + a.full}), guess ${a.guess}`;
  console.log(
    `  suspect: ${stats.suspects.length} rows for a person to check (--list suspect): a half of the sentence rule disagrees, or its proofs were judged another statement's;`,
  );
  console.log(`    by sections alone: ${alt(stats.alternatives.section)}; by shared words alone: ${alt(stats.alternatives.words)}`);
  const e = stats.coverage;
  console.log(`  (any proof under any command, trace.ts coverageOf, would say ${e.verified}, ${percent(e.verified, n)})`);
  const listIndex = process.argv.indexOf('--list');
  if (listIndex > 0) {
    const wanted = process.argv[listIndex + 1];
    console.log('');
    if (wanted === 'suspect') for (const s of stats.suspects) console.log(`${s.id.padEnd(40)} [${s.column}] ${s.why}`);
    else {
      const placed = placements().filter((p) => p.placement.column === wanted);
      if (!placed.length && !(wanted in c)) {
        console.error(`unknown column "${wanted}": ${[...Object.keys(c), 'suspect'].join(', ')}`);
        process.exitCode = 2;
      }
      for (const { row, placement } of placed)
        console.log(`${row.id.padEnd(40)} ${row.statement.slice(0, 90)}${detail(placement, row.id) ? `\n${' '.repeat(41)}${detail(placement, row.id)}` : ''}`);
    }
  }
}
