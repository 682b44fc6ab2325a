/**
 * The version-upgrade report (issue 7; ../shared/DESIGN.md "What it is for" 2): the
 * shape of the check's result and its rendering. The check itself, which sends the
 * probes, lives with the suites (scenarios/upgrade/version-check.ts); `npm run versions`
 * (scripts/versions.ts) runs it and writes this report.
 */
import type { Difference } from '../contracts/classifier.ts';

export interface Finding extends Difference {
  source: 'observed' | 'documents';
  /** True when the operation is in the user's list of used operations. */
  used: boolean;
}

export interface VersionReport {
  from: string;
  to: string;
  target: string;
  probes: number;
  findings: Finding[];
  /** Breaking findings on used operations: the gate. */
  blocking: Finding[];
  usedOperations: 'all' | string[];
  documents: { from?: string; to?: string; compared: boolean };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderVersionMarkdown(r: VersionReport): string {
  const table = (list: Finding[]) =>
    list.length
      ? ['| breaking | operation | location | kind | rule | detail | used |', '|---|---|---|---|---|---|---|', ...list.map((f) => `| ${f.breaking ? '**yes**' : 'no'} | ${cell(f.operation ?? '—')} | ${cell(f.location)} | ${f.kind} | ${cell(f.rule)} | ${cell(f.detail)} | ${f.used ? 'yes' : 'no'} |`)].join('\n')
      : '_no difference_';
  const observed = r.findings.filter((f) => f.source === 'observed');
  const docs = r.findings.filter((f) => f.source === 'documents');
  return [
    `# Version upgrade check: ${r.from} → ${r.to}`,
    '',
    `Target: ${r.target}; ${r.probes} read-only probes under each Accept-Version; derived documents ${r.documents.compared ? 'compared' : 'not found (not compared)'}.`,
    `Operations used by the integration (SVC_USED_OPERATIONS): ${r.usedOperations === 'all' ? 'all' : r.usedOperations.join(', ')}.`,
    '',
    `**Verdict: ${r.blocking.length ? `BREAKING — ${r.blocking.length} breaking difference(s) on used operations` : 'safe to upgrade for the used operations'}** (${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking in total).`,
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
