/**
 * Prints the figures quoted in spec/README.md: operations per document and per derived
 * version, webhook types, trace rows and not-shown rows, and how far the checkable
 * statements are verified (every statement traced to a check and a proof; honest categories in spec/trace.ts
 * `honestCoverageOf`).
 *
 *   npm run spec:stats [-- --list verified-minimal|verified-full|inferred-only|simulator-only|other-command|tolerance|passive|unverified]
 *
 * "Verified on any target" counts a row only when a stated-tier proof (a catalogue fault
 * of tier stated, a broken reference receiver, or a generated mutant `mutant:...`) makes
 * a check of a default gate run fail; two columns: with the minimal settings and with
 * every setting (preflight/requirements.ts decides which checks need more).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTHORED_DOCUMENTS, DERIVED_DOCUMENTS, loadDocument, operationsOf } from './documents.ts';
import {
  coverageOf,
  honestCoverageOf,
  loadTrace,
  MUTANT_PROOF_PREFIX,
  PROJECT_ROOT,
  type Coverage,
  type HonestCoverage,
  type ProofFacts,
  type ProofKind,
} from './trace.ts';
import { CATALOG, tierOfEntry } from '../targets/index.ts';
import { needsFullSettings } from '../preflight/requirements.ts';

/** Goals: verified on any target with minimal settings at least 75 %, with full settings at least 90 % of the checkable statements. */
export const COVERAGE_GOALS = { minimalAtLeast: 0.75, fullAtLeast: 0.9 } as const;

export interface SpecStats {
  documents: { name: string; paths: number; operations: number; deprecated: number; sunset: number; webhooks: number }[];
  traceRows: number;
  notShownRows: number;
  unencodedRows: number;
  verifiedRows: number;
  /** Rows per honest category. */
  honest: Record<HonestCoverage, number>;
  /** Rows per category of the earlier count (any proof, any command): it over-claims, counting proofs that fail no default run and checks that run only on the simulator. */
  coverage: Record<Coverage, number>;
  /** Rows that can fail a run at all: everything but `not-checkable`. */
  checkable: number;
}

/**
 * The faults scripts/live-delivery.test.ts proves on the live delivery check (its FAULTS
 * table, read as text: scripts/ runs the suites and is not imported here); the ones it
 * runs under SVC_STRICT=1 are inferred there and left out.
 */
export function liveDeliveryFaults(root: string = PROJECT_ROOT): Set<string> {
  const text = readFileSync(join(root, 'scripts', 'live-delivery.test.ts'), 'utf8');
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*\{\s*fault:\s*'([a-z0-9-]+)'/.exec(line);
    if (m && !/SVC_STRICT/.test(line)) out.add(m[1]);
  }
  return out;
}

/** The facts honestCoverageOf needs, from the catalogue, the preflight table and the live-delivery proofs. */
export function proofFacts(): ProofFacts {
  const tiers = new Map<string, ProofKind | undefined>(CATALOG.map((e) => [e.name, e.kind === 'variation' ? 'tolerance' : tierOfEntry(e)]));
  const live = liveDeliveryFaults();
  return {
    kindOf: (entry) => (entry.startsWith('receiver:') || entry.startsWith(MUTANT_PROOF_PREFIX) ? 'stated' : tiers.get(entry)),
    needsFullSettings,
    provenOnLiveDelivery: (fault) => live.has(fault),
  };
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
  const facts = proofFacts();
  const honest: Record<HonestCoverage, number> = {
    'not-checkable': 0,
    'verified-minimal': 0,
    'verified-full': 0,
    'inferred-only': 0,
    'simulator-only': 0,
    'other-command': 0,
    tolerance: 0,
    passive: 0,
    unverified: 0,
  };
  const coverage: Record<Coverage, number> = { 'not-checkable': 0, verified: 0, 'simulator-only': 0, passive: 0, unverified: 0 };
  for (const row of rows) {
    honest[honestCoverageOf(row, facts)]++;
    coverage[coverageOf(row)]++;
  }
  return {
    documents,
    traceRows: rows.length,
    notShownRows: rows.filter((r) => r.not_shown).length,
    unencodedRows: rows.filter((r) => r.encoded_in.length === 0).length,
    verifiedRows: rows.filter((r) => r.verified_by.length > 0).length,
    honest,
    coverage,
    checkable: rows.length - honest['not-checkable'],
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
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
  const h = stats.honest;
  const n = stats.checkable;
  const line = (label: string, count: number, note: string) =>
    console.log(`  ${label.padEnd(40)} ${String(count).padStart(4)}  ${percent(count, n).padStart(6)}  ${note}`);
  console.log('');
  console.log(`checkable statements: ${n} (not checkable: ${h['not-checkable']}: informative, or a "not shown" line)`);
  line(
    'verified on any target, minimal settings',
    h['verified-minimal'],
    `(goal >= ${COVERAGE_GOALS.minimalAtLeast * 100}%; a stated proof fails a default gate run with base URLs, credentials, test passwords)`,
  );
  line(
    'verified on any target, full settings',
    h['verified-minimal'] + h['verified-full'],
    `(goal >= ${COVERAGE_GOALS.fullAtLeast * 100}%; ${h['verified-full']} of them need more settings: preflight/requirements.ts)`,
  );
  line('inferred-only', h['inferred-only'], '(proven only by inferred faults: they fail only under SVC_STRICT=1)');
  line('simulator-only', h['simulator-only'], "(a clock only the simulator moves, or the simulator's own webhook dispatcher)");
  line('other-command', h['other-command'], '(proven only by npm run versions, npm run load or a unit test, not a gate run)');
  line('tolerance', h.tolerance, '(Versioning non-breaking rows: what the suite must tolerate, proven by variations)');
  line('passive', h.passive, '(in a response schema every answer is checked against; no stated proof)');
  line('unverified', h.unverified, '');
  const c = stats.coverage;
  console.log(`  (the earlier count, any proof under any command, said ${c.verified} verified on any target, ${percent(c.verified, n)})`);
  const listIndex = process.argv.indexOf('--list');
  if (listIndex > 0) {
    const wanted = process.argv[listIndex + 1] as HonestCoverage;
    const facts = proofFacts();
    for (const row of loadTrace().filter((r) => honestCoverageOf(r, facts) === wanted)) console.log(`${row.id.padEnd(40)} ${row.statement.slice(0, 100)}`);
  }
}
