/**
 * npm run versions -- --from v20250224 --to v20260929
 * npm run versions -- --from-file vendor-old.yaml --to-file vendor-new.json
 *
 * The version-upgrade regression check (upgrade/version-check.ts probes,
 * reports/version-diff.ts renders). Against the target of the profile (SVC_BASE_URL ...)
 * or, without one, an in-process simulator started with SVC_SIM_FAULTS /
 * SVC_SIM_VARIATIONS. A version that neither the contract (spec/versions/), nor
 * SVC_VERSIONS, nor the target knows is refused (VersionInputError).
 *
 * With two files instead (upgrade/document-diff.ts): two OpenAPI 3.0/3.1
 * documents, YAML or JSON, compared without a target.
 *
 * Writes report.md, report.html, report.json under reports/out/versions/ (or `out`) and
 * an Allure result entry. Exit 1 when a breaking difference touches an operation the
 * integration uses (SVC_USED_OPERATIONS, comma list of `METHOD /path/{template}`;
 * default all), 2 on bad input.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRedactor, loadProfile, profileSecrets, startTarget, type Redactor } from '../targets/index.ts';
import { renderVersionMarkdown, type VersionReport } from '../reports/version-diff.ts';
import { assertVersionName, runVersionCheck, VersionInputError } from './version-check.ts';
import { compareOpenApiFiles } from './document-diff.ts';
import { markdownToHtml } from '../reports/markdown.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';
import { applyUsage, readUsageFile } from '../integration/usage.ts';
import { IntegrationInputError } from '../integration/har.ts';

export { VersionInputError };

const root = resolve(new URL('..', import.meta.url).pathname);

interface ReportOutput {
  /** Settings (SVC_*) over process.env, e.g. SVC_USED_OPERATIONS. */
  env?: Record<string, string | undefined>;
  /** Folder of report.md/.html/.json (default reports/out/versions). */
  out?: string;
  /** Folder of the Allure result entry (default reports/out/allure-results). */
  allureResults?: string;
  /**
   * The integration's usage file (integration/usage.ts): a difference then counts when it
   * touches an operation, parameter or field the integration uses, instead of a whole
   * operation of SVC_USED_OPERATIONS; the rest is reported apart.
   */
  usageFile?: string;
}

/** The usage file of the options, read (a bad one is a VersionInputError: exit 2). */
function usageOf(o: ReportOutput) {
  if (!o.usageFile) return undefined;
  try {
    return { file: o.usageFile, usage: readUsageFile(o.usageFile) };
  } catch (e) {
    if (e instanceof IntegrationInputError) throw new VersionInputError(e.message);
    throw e;
  }
}

export interface VersionCheckOptions extends ReportOutput {
  /** Accept-Version values, `v<YYYYMMDD>`. */
  from: string;
  to: string;
}

export interface DocumentDiffOptions extends ReportOutput {
  /** OpenAPI 3.0/3.1 documents, YAML or JSON. */
  fromFile: string;
  toFile: string;
}

/** Probes the target under two Accept-Version values and diffs the two derived documents. Throws VersionInputError on bad input. */
export async function versionCheck(o: VersionCheckOptions): Promise<VersionReport> {
  const env = { ...process.env, ...o.env };
  for (const v of [o.from, o.to]) assertVersionName(v);
  const usage = usageOf(o);
  const target = await startTarget({ env });
  try {
    const profile = target.profile;
    const checked = await runVersionCheck({ profile, from: o.from, to: o.to, specDir: join(root, 'spec'), used: profile.usedOperations });
    const report = usage ? applyUsage(checked, usage.usage, usage.file) : checked;
    writeVersionReport(report, o, createRedactor(profileSecrets(profile)), `Version upgrade ${o.from} → ${o.to}`);
    return report;
  } finally {
    await target.close();
  }
}

/** Compares two OpenAPI documents (no target) and writes the same report. Throws VersionInputError on bad input. */
export async function diffDocumentFiles(o: DocumentDiffOptions): Promise<VersionReport> {
  const env = { ...process.env, ...o.env };
  const profile = loadProfile(env);
  const usage = usageOf(o);
  const compared = compareOpenApiFiles({ fromFile: o.fromFile, toFile: o.toFile, used: profile.usedOperations });
  const report = usage ? applyUsage(compared, usage.usage, usage.file) : compared;
  writeVersionReport(report, o, createRedactor(profileSecrets(profile)), `OpenAPI documents ${report.from} → ${report.to}`);
  return report;
}

function writeVersionReport(report: VersionReport, o: ReportOutput, redactor: Redactor, title: string): void {
  const out = resolve(o.out ?? join(root, 'reports/out/versions'));
  mkdirSync(out, { recursive: true });
  const md = redactor.text(renderVersionMarkdown(report));
  writeFileSync(join(out, 'report.md'), md);
  writeFileSync(join(out, 'report.html'), markdownToHtml(md, title));
  writeFileSync(join(out, 'report.json'), redactor.text(JSON.stringify(report, null, 2)));
  const kind = report.mode === 'documents' ? 'documents' : 'versions';
  writeAllureEntry(
    o.allureResults ?? join(root, 'reports/out/allure-results'),
    {
      fullName: `${kind}:${report.from}->${report.to}`,
      name: `${report.mode === 'documents' ? 'OpenAPI documents' : 'version upgrade'} ${report.from} → ${report.to}: ${report.blocking.length ? 'BREAKING' : 'safe'}`,
      status: report.blocking.length ? 'failed' : 'passed',
      parentSuite: 'version upgrade',
      suite: `${report.from} → ${report.to}`,
      severity: 'critical',
      message: report.blocking.length ? report.blocking.map((f) => `${f.operation ?? ''} ${f.location}: ${f.kind} (${f.rule})`).join('\n') : undefined,
      parameters: {
        breaking: report.findings.filter((f) => f.breaking).length,
        'non-breaking': report.findings.filter((f) => !f.breaking).length,
        'blocking (used operations)': report.blocking.length,
      },
      attachments: [{ name: 'report.md', contentType: 'text/markdown', body: md }],
    },
    redactor,
  );
}

/** The console form of a report: one line per finding and the totals; with a usage file, what touches the integration first and the rest apart. */
export function versionReportLines(r: VersionReport, out = 'reports/out/versions'): string[] {
  const line = (f: VersionReport['findings'][number]) =>
    `${f.breaking ? 'BREAKING    ' : 'non-breaking'} ${f.source.padEnd(9)} ${f.operation ?? ''} ${f.location} ${f.kind}: ${f.detail}`;
  const totals = `${r.from} → ${r.to}: ${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking; ${r.blocking.length} breaking on used operations. Report: ${out}/report.md`;
  if (!r.usage) return [...r.findings.map(line), '', totals];
  const apart = r.findings.filter((f) => f.breaking && !f.used);
  const byOperation = new Map<string, number>();
  for (const f of apart) byOperation.set(f.operation ?? '(the document)', (byOperation.get(f.operation ?? '(the document)') ?? 0) + 1);
  const unnarrowed = r.usage.withoutReads
    ? [
        `Note: ${r.usage.withoutReads} operation(s) of the usage file declare no "reads": every field their recorded answers held counts as read. Declare the fields the code reads to narrow it (integration/README.md, "Usage files and versions --usage").`,
      ]
    : [];
  return [
    ...unnarrowed,
    `Breaking differences that touch what the integration uses (usage file ${r.usage.file}, ${r.usage.operations} operation(s)):`,
    ...(r.blocking.length ? r.blocking.map((f) => `  ${line(f)}`) : ['  none']),
    '',
    `Apart: ${apart.length} breaking difference(s) on what the integration does not use${apart.length ? ':' : ''}`,
    ...[...byOperation].map(
      ([op, n]) => `  ${op}: ${n}${apart.some((f) => f.operation === op && f.operationUsed) ? ' (an operation it uses, other parameters or fields)' : ''}`,
    ),
    `and ${r.findings.filter((f) => !f.breaking).length} non-breaking difference(s) (report.md lists every one).`,
    // Not gating, but the integration's own plan: an endpoint it uses is deprecated in the new version.
    ...r.findings
      .filter((f) => f.kind === 'deprecated-endpoint' && f.used)
      .map((f) => `Deprecated in ${r.to}, still used by the integration (not breaking; plan the move): ${f.operation ?? f.location}`),
    '',
    totals.replace('breaking on used operations', 'breaking that touch the integration'),
  ];
}
