/**
 * The version-upgrade report (../shared/DESIGN.md "What it is for" 2): the shape of the
 * check's result and its rendering. The check itself, which sends the probes, lives
 * with the suites (scenarios/upgrade/version-check.ts), and so does the comparison of
 * two OpenAPI documents (scenarios/upgrade/document-diff.ts), which writes the same
 * report without probes; `npm run versions` (scripts/versions.ts) runs either and
 * writes this report.
 */
import type { Difference } from '../contracts/classifier.ts';

export interface Finding extends Difference {
  source: 'observed' | 'documents';
  /** True when the operation is in the user's list of used operations. */
  used: boolean;
}

/** An OpenAPI document compared in documents mode. */
export interface DocumentInfo {
  file: string;
  /** The document's `openapi` field (3.0.x or 3.1.x). */
  openapi: string;
  title?: string;
  /** The document's `info.version`. */
  version?: string;
}

export interface VersionReport {
  /** `versions`: two Accept-Version values against a target; `documents`: two OpenAPI files, no target. */
  mode: 'versions' | 'documents';
  from: string;
  to: string;
  target: string;
  probes: number;
  findings: Finding[];
  /** Breaking findings on used operations: the gate. */
  blocking: Finding[];
  usedOperations: 'all' | string[];
  documents: { from?: string; to?: string; compared: boolean; fromInfo?: DocumentInfo; toInfo?: DocumentInfo };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderVersionMarkdown(r: VersionReport): string {
  const table = (list: Finding[]) =>
    list.length
      ? ['| breaking | operation | location | kind | rule | detail | used |', '|---|---|---|---|---|---|---|', ...list.map((f) => `| ${f.breaking ? '**yes**' : 'no'} | ${cell(f.operation ?? '—')} | ${cell(f.location)} | ${f.kind} | ${cell(f.rule)} | ${cell(f.detail)} | ${f.used ? 'yes' : 'no'} |`)].join('\n')
      : '_no difference_';
  const observed = r.findings.filter((f) => f.source === 'observed');
  const docs = r.findings.filter((f) => f.source === 'documents');
  const used = `Operations used by the integration (SVC_USED_OPERATIONS): ${r.usedOperations === 'all' ? 'all' : r.usedOperations.join(', ')}.`;
  const verdict = `**Verdict: ${r.blocking.length ? `BREAKING — ${r.blocking.length} breaking difference(s) on used operations` : 'safe to upgrade for the used operations'}** (${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking in total).`;
  if (r.mode === 'documents') {
    const describe = (d: DocumentInfo | undefined, fallback: string) =>
      d ? `\`${cell(d.file)}\` (OpenAPI ${d.openapi}${d.title ? `, "${cell(d.title)}"` : ''}${d.version ? ` version ${cell(d.version)}` : ''})` : fallback;
    return [
      `# OpenAPI document comparison: ${r.from} → ${r.to}`,
      '',
      `From ${describe(r.documents.fromInfo, r.from)} to ${describe(r.documents.toInfo, r.to)}; no target asked. Every difference is classified by the specification's Versioning rules.`,
      used,
      '',
      verdict,
      '',
      '## Documents',
      '',
      table(docs),
      '',
    ].join('\n');
  }
  return [
    `# Version upgrade check: ${r.from} → ${r.to}`,
    '',
    `Target: ${r.target}; ${r.probes} read-only probes under each Accept-Version; derived documents ${r.documents.compared ? 'compared' : 'not found (not compared)'}.`,
    used,
    '',
    verdict,
    '',
    '## Observed (probes)',
    '',
    table(observed),
    '',
    '## Documents (spec/versions)',
    '',
    table(docs),
    '',
  ].join('\n');
}
