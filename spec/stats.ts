/**
 * Prints the figures quoted in spec/README.md: operations per document and per derived
 * version, webhook types, trace rows and not-shown rows, and how far the checkable
 * statements are verified (issue 12; categories in spec/trace.ts `coverageOf`).
 *
 *   npm run spec:stats [-- --list unverified|passive|simulator-only|verified]
 */
import { AUTHORED_DOCUMENTS, DERIVED_DOCUMENTS, loadDocument, operationsOf } from './documents.ts';
import { coverageOf, loadTrace, type Coverage } from './trace.ts';

/** Issue 12's goals: verified on any target at least 90 %, simulator-only at most 5 % of the checkable statements. */
export const COVERAGE_GOALS = { verifiedAtLeast: 0.9, simulatorOnlyAtMost: 0.05 } as const;

export interface SpecStats {
  documents: { name: string; paths: number; operations: number; deprecated: number; sunset: number; webhooks: number }[];
  traceRows: number;
  notShownRows: number;
  unencodedRows: number;
  verifiedRows: number;
  /** Rows per coverage category. */
  coverage: Record<Coverage, number>;
  /** Rows that can fail a run at all: everything but `not-checkable`. */
  checkable: number;
  /** Rows with a `verified_by` but no `proven_by` (counted as passive or unverified). */
  unproven: number;
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
  const coverage: Record<Coverage, number> = { 'not-checkable': 0, verified: 0, 'simulator-only': 0, passive: 0, unverified: 0 };
  for (const row of rows) coverage[coverageOf(row)]++;
  return {
    documents,
    traceRows: rows.length,
    notShownRows: rows.filter((r) => r.not_shown).length,
    unencodedRows: rows.filter((r) => r.encoded_in.length === 0).length,
    verifiedRows: rows.filter((r) => r.verified_by.length > 0).length,
    coverage,
    checkable: rows.length - coverage['not-checkable'],
    unproven: rows.filter((r) => r.verified_by.length > 0 && r.proven_by.length === 0 && coverageOf(r) !== 'not-checkable').length,
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

const stats = collectStats();
console.log('document                  paths  operations  deprecated  sunset  webhooks');
for (const d of stats.documents) {
  console.log(`${d.name.padEnd(24)}  ${String(d.paths).padStart(5)}  ${String(d.operations).padStart(10)}  ${String(d.deprecated).padStart(10)}  ${String(d.sunset).padStart(6)}  ${String(d.webhooks).padStart(8)}`);
}
console.log(`trace rows: ${stats.traceRows}; not shown: ${stats.notShownRows}; without encoding (treatment only): ${stats.unencodedRows}; with a verified_by entry: ${stats.verifiedRows}`);
const c = stats.coverage;
console.log('');
console.log(`checkable statements: ${stats.checkable} (not checkable: ${c['not-checkable']}: informative, or a "not shown" line)`);
console.log(`  verified on any target  ${String(c.verified).padStart(4)}  ${percent(c.verified, stats.checkable).padStart(6)}  (goal >= ${COVERAGE_GOALS.verifiedAtLeast * 100}%; a named check proven by a named catalogue entry)`);
console.log(`  simulator-only          ${String(c['simulator-only']).padStart(4)}  ${percent(c['simulator-only'], stats.checkable).padStart(6)}  (goal <= ${COVERAGE_GOALS.simulatorOnlyAtMost * 100}%)`);
console.log(`  passive                 ${String(c.passive).padStart(4)}  ${percent(c.passive, stats.checkable).padStart(6)}  (in a response schema every answer is checked against; no proving fault)`);
console.log(`  unverified              ${String(c.unverified).padStart(4)}  ${percent(c.unverified, stats.checkable).padStart(6)}`);
console.log(`  (${stats.unproven} row(s) name a check but no proving catalogue entry; \`npx tsx proof/trace-proof.ts --suggest\` proposes one from the last self-test)`);
const listIndex = process.argv.indexOf('--list');
if (listIndex > 0) {
  const wanted = process.argv[listIndex + 1] as Coverage;
  for (const row of loadTrace().filter((r) => coverageOf(r) === wanted)) console.log(`${row.id.padEnd(40)} ${row.statement.slice(0, 100)}`);
}
