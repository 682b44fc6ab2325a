/**
 * The version-upgrade report (../shared/DESIGN.md "What it is for" 2): the shape of the
 * check's result and its rendering. The check itself, which sends the probes, lives
 * with the suites (upgrade/version-check.ts), and so does the comparison of
 * two OpenAPI documents (upgrade/document-diff.ts), which writes the same
 * report without probes; `npm run versions` (upgrade/versions.ts) runs either and
 * writes this report.
 */
import type { Difference } from '../contracts/index.ts';
import { markdownCode, markdownText } from './markdown.ts';

export interface Finding extends Difference {
  source: 'observed' | 'documents';
  /**
   * True when the difference touches what the integration uses: its operation is in the
   * list of used operations or, with a usage file (integration/usage.ts), the parameter or
   * field the difference is about is one the integration sends or reads.
   */
  used: boolean;
  /** With a usage file: the operation is used, whether or not this difference touches it. */
  operationUsed?: boolean;
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
  /** The usage file the findings were judged against (versions --usage). */
  /** `withoutReads`: operations whose recorded answer fields all count, none declared as read (integration/usage.ts). */
  usage?: { file: string; source: string; operations: number; withoutReads?: number };
  documents: { from?: string; to?: string; compared: boolean; fromInfo?: DocumentInfo; toInfo?: DocumentInfo };
}

export function renderVersionMarkdown(r: VersionReport): string {
  const usedCell = (f: Finding) => (f.used ? 'yes' : f.operationUsed ? 'the operation, not this' : 'no');
  const table = (list: Finding[]) =>
    list.length
      ? r.usage
        ? [
            '| breaking | source | operation | location | kind | rule | detail | touches the integration |',
            '|---|---|---|---|---|---|---|---|',
            ...list.map(
              (f) =>
                `| ${f.breaking ? '**yes**' : 'no'} | ${f.source} | ${markdownText(f.operation ?? '—')} | ${markdownText(f.location)} | ${f.kind} | ${markdownText(f.rule)} | ${markdownText(f.detail)} | ${usedCell(f)} |`,
            ),
          ].join('\n')
        : [
            '| breaking | operation | location | kind | rule | detail | used |',
            '|---|---|---|---|---|---|---|',
            ...list.map(
              (f) =>
                `| ${f.breaking ? '**yes**' : 'no'} | ${markdownText(f.operation ?? '—')} | ${markdownText(f.location)} | ${f.kind} | ${markdownText(f.rule)} | ${markdownText(f.detail)} | ${f.used ? 'yes' : 'no'} |`,
            ),
          ].join('\n')
      : '_no difference_';
  const observed = r.findings.filter((f) => f.source === 'observed');
  const docs = r.findings.filter((f) => f.source === 'documents');
  const used = r.usage
    ? `Usage file ${markdownCode(r.usage.file, 'text')} (${markdownText(r.usage.source)}; ${r.usage.operations} operation(s)): a difference counts when it touches an operation, parameter or field the integration uses.`
    : `Operations used by the integration (SVC_USED_OPERATIONS): ${r.usedOperations === 'all' ? 'all' : markdownText(r.usedOperations.join(', '))}.`;
  const verdict = `**Verdict: ${r.blocking.length ? `BREAKING — ${r.blocking.length} breaking difference(s) on used operations` : 'safe to upgrade for the used operations'}** (${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking in total).`;
  if (r.usage) {
    // Versions --usage: what touches the integration first, the rest apart.
    const apart = r.findings.filter((f) => f.breaking && !f.used);
    return [
      `# ${r.mode === 'documents' ? 'OpenAPI document comparison' : 'Version upgrade check'}: ${markdownText(r.from)} → ${markdownText(r.to)}`,
      '',
      r.mode === 'documents'
        ? `Two OpenAPI documents compared; no target asked.`
        : `Target: ${markdownText(r.target)}; ${r.probes} read-only probes under each Accept-Version; derived documents ${r.documents.compared ? 'compared' : 'not found (not compared)'}.`,
      used,
      '',
      verdict,
      '',
      '## Breaking differences that touch what the integration uses',
      '',
      table(r.blocking),
      '',
      '## Breaking differences apart (operations, parameters or fields the integration does not use)',
      '',
      table(apart),
      '',
      '## Non-breaking differences',
      '',
      table(r.findings.filter((f) => !f.breaking)),
      '',
    ].join('\n');
  }
  if (r.mode === 'documents') {
    const describe = (d: DocumentInfo | undefined, fallback: string) =>
      d
        ? `${markdownCode(d.file, 'text')} (OpenAPI ${markdownText(d.openapi)}${d.title ? `, "${markdownText(d.title)}"` : ''}${d.version ? ` version ${markdownText(d.version)}` : ''})`
        : markdownText(fallback);
    return [
      `# OpenAPI document comparison: ${markdownText(r.from)} → ${markdownText(r.to)}`,
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
    `# Version upgrade check: ${markdownText(r.from)} → ${markdownText(r.to)}`,
    '',
    `Target: ${markdownText(r.target)}; ${r.probes} read-only probes under each Accept-Version; derived documents ${r.documents.compared ? 'compared' : 'not found (not compared)'}.`,
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
