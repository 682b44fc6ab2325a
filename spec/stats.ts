/**
 * Prints the figures quoted in spec/README.md: operations per document and per derived
 * version, webhook types, trace rows and not-shown rows.   npm run spec:stats
 */
import { AUTHORED_DOCUMENTS, DERIVED_DOCUMENTS, loadDocument, operationsOf } from './documents.ts';
import { loadTrace } from './trace.ts';

export interface SpecStats {
  documents: { name: string; paths: number; operations: number; deprecated: number; sunset: number; webhooks: number }[];
  traceRows: number;
  notShownRows: number;
  unencodedRows: number;
  verifiedRows: number;
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
  return {
    documents,
    traceRows: rows.length,
    notShownRows: rows.filter((r) => r.not_shown).length,
    unencodedRows: rows.filter((r) => r.encoded_in.length === 0).length,
    verifiedRows: rows.filter((r) => r.verified_by.length > 0).length,
  };
}

const stats = collectStats();
console.log('document                  paths  operations  deprecated  sunset  webhooks');
for (const d of stats.documents) {
  console.log(`${d.name.padEnd(24)}  ${String(d.paths).padStart(5)}  ${String(d.operations).padStart(10)}  ${String(d.deprecated).padStart(10)}  ${String(d.sunset).padStart(6)}  ${String(d.webhooks).padStart(8)}`);
}
console.log(`trace rows: ${stats.traceRows}; not shown: ${stats.notShownRows}; without encoding (treatment only): ${stats.unencodedRows}; verified: ${stats.verifiedRows}`);
