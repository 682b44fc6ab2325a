/**
 * npm run versions -- --from v20250224 --to v20260929
 * npm run versions -- --from-file vendor-old.yaml --to-file vendor-new.json
 *
 * The version-upgrade regression check (scenarios/upgrade/version-check.ts probes,
 * reports/version-diff.ts renders). Against the target of the profile (SVC_BASE_URL ...)
 * or, without one, an in-process simulator started with SVC_SIM_FAULTS /
 * SVC_SIM_VARIATIONS. A version that neither the contract (spec/versions/), nor
 * SVC_VERSIONS, nor the target knows is refused (VersionInputError).
 *
 * With two files instead (scenarios/upgrade/document-diff.ts): two OpenAPI 3.0/3.1
 * documents, YAML or JSON, compared without a target.
 *
 * Writes report.md, report.html, report.json under reports/out/versions/ (or `out`) and
 * an Allure result entry. Exit 1 when a breaking difference touches an operation the
 * integration uses (SVC_USED_OPERATIONS, comma list of `METHOD /path/{template}`;
 * default all), 2 on bad input.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRedactor, loadProfile, profileSecrets, startTarget, type Redactor } from '../targets/index.ts';
import { renderVersionMarkdown, type VersionReport } from '../reports/version-diff.ts';
import { assertVersionName, runVersionCheck, VersionInputError } from '../scenarios/upgrade/version-check.ts';
import { compareOpenApiFiles } from '../scenarios/upgrade/document-diff.ts';
import { markdownToHtml } from '../reports/summary.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';

export { VersionInputError };

const root = resolve(new URL('..', import.meta.url).pathname);

interface ReportOutput {
  /** Settings (SVC_*) over process.env, e.g. SVC_USED_OPERATIONS. */
  env?: Record<string, string | undefined>;
  /** Folder of report.md/.html/.json (default reports/out/versions). */
  out?: string;
  /** Folder of the Allure result entry (default reports/out/allure-results). */
  allureResults?: string;
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
  const target = await startTarget({ env });
  try {
    const profile = target.profile;
    const report = await runVersionCheck({ profile, from: o.from, to: o.to, specDir: join(root, 'spec'), used: profile.usedOperations });
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
  const report = compareOpenApiFiles({ fromFile: o.fromFile, toFile: o.toFile, used: profile.usedOperations });
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
      parameters: { breaking: report.findings.filter((f) => f.breaking).length, 'non-breaking': report.findings.filter((f) => !f.breaking).length, 'blocking (used operations)': report.blocking.length },
      attachments: [{ name: 'report.md', contentType: 'text/markdown', body: md }],
    },
    redactor,
  );
}

/** The console form of a report: one line per finding and the totals. */
export function versionReportLines(r: VersionReport, out = 'reports/out/versions'): string[] {
  return [
    ...r.findings.map((f) => `${f.breaking ? 'BREAKING    ' : 'non-breaking'} ${f.source.padEnd(9)} ${f.operation ?? ''} ${f.location} ${f.kind}: ${f.detail}`),
    '',
    `${r.from} → ${r.to}: ${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking; ${r.blocking.length} breaking on used operations. Report: ${out}/report.md`,
  ];
}

if (process.argv[1]?.endsWith('scripts/versions.ts')) {
  const usage = 'usage: npm run versions -- --from v20250224 --to v20260929\n       npm run versions -- --from-file old.yaml --to-file new.json';
  let values;
  try {
    ({ values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, 'from-file': { type: 'string' }, 'to-file': { type: 'string' }, out: { type: 'string' } } }));
  } catch (e) {
    console.error(`versions: ${(e as Error).message}\n${usage}`);
    process.exit(2);
  }
  const files = values['from-file'] !== undefined || values['to-file'] !== undefined;
  const versions = values.from !== undefined || values.to !== undefined;
  if (files === versions || (files ? !values['from-file'] || !values['to-file'] : !values.from || !values.to)) {
    console.error(usage);
    process.exit(2);
  }
  const run = files
    ? diffDocumentFiles({ fromFile: values['from-file']!, toFile: values['to-file']!, out: values.out })
    : versionCheck({ from: values.from!, to: values.to!, out: values.out });
  run.then(
    (r) => {
      for (const line of versionReportLines(r, values.out ?? 'reports/out/versions')) console.log(line);
      process.exit(r.blocking.length ? 1 : 0);
    },
    (e) => {
      console.error(`versions: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
