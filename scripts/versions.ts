/**
 * npm run versions -- --from v20250224 --to v20260929
 *
 * The version-upgrade regression check (issue 7; scenarios/upgrade/version-check.ts
 * probes, reports/version-diff.ts renders). Against the
 * target of the profile (SVC_BASE_URL ...) or, without one, an in-process simulator
 * started with SVC_SIM_FAULTS / SVC_SIM_VARIATIONS. Writes reports/out/versions/
 * report.md, report.html, report.json and an Allure result entry. Exit 1 when a
 * breaking difference touches an operation the integration uses (SVC_USED_OPERATIONS,
 * comma list of `METHOD /path/{template}`; default all), 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRedactor, profileSecrets, startTarget } from '../targets/index.ts';
import { renderVersionMarkdown, type VersionReport } from '../reports/version-diff.ts';
import { runVersionCheck } from '../scenarios/upgrade/version-check.ts';
import { markdownToHtml } from '../reports/summary.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';

const root = resolve(new URL('..', import.meta.url).pathname);

export async function versionCheck(o: { from: string; to: string; env?: Record<string, string | undefined>; out?: string; allureResults?: string }): Promise<VersionReport> {
  const env = { ...process.env, ...o.env };
  for (const v of [o.from, o.to]) if (!/^v\d{8}$/.test(v)) throw new Error(`version names are v<YYYYMMDD> (Versioning), got "${v}"`);
  const target = await startTarget({ env });
  try {
    const profile = target.profile;
    const report = await runVersionCheck({ profile, from: o.from, to: o.to, specDir: join(root, 'spec'), used: profile.usedOperations });
    const redactor = createRedactor(profileSecrets(profile));
    const out = resolve(o.out ?? join(root, 'reports/out/versions'));
    mkdirSync(out, { recursive: true });
    const md = redactor.text(renderVersionMarkdown(report));
    writeFileSync(join(out, 'report.md'), md);
    writeFileSync(join(out, 'report.html'), markdownToHtml(md, `Version upgrade ${o.from} → ${o.to}`));
    writeFileSync(join(out, 'report.json'), redactor.text(JSON.stringify(report, null, 2)));
    writeAllureEntry(
      o.allureResults ?? join(root, 'reports/out/allure-results'),
      {
        fullName: `versions:${o.from}->${o.to}`,
        name: `version upgrade ${o.from} → ${o.to}: ${report.blocking.length ? 'BREAKING' : 'safe'}`,
        status: report.blocking.length ? 'failed' : 'passed',
        parentSuite: 'version upgrade',
        suite: `${o.from} → ${o.to}`,
        severity: 'critical',
        message: report.blocking.length ? report.blocking.map((f) => `${f.operation ?? ''} ${f.location}: ${f.kind} (${f.rule})`).join('\n') : undefined,
        parameters: { breaking: report.findings.filter((f) => f.breaking).length, 'non-breaking': report.findings.filter((f) => !f.breaking).length, 'blocking (used operations)': report.blocking.length },
        attachments: [{ name: 'report.md', contentType: 'text/markdown', body: md }],
      },
      redactor,
    );
    return report;
  } finally {
    await target.close();
  }
}

if (process.argv[1]?.endsWith('scripts/versions.ts')) {
  let values;
  try {
    ({ values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } } }));
  } catch (e) {
    console.error(`versions: ${(e as Error).message}`);
    process.exit(2);
  }
  if (!values.from || !values.to) {
    console.error('usage: npm run versions -- --from v20250224 --to v20260929');
    process.exit(2);
  }
  versionCheck({ from: values.from, to: values.to, out: values.out }).then(
    (r) => {
      for (const f of r.findings) console.log(`${f.breaking ? 'BREAKING    ' : 'non-breaking'} ${f.source.padEnd(9)} ${f.operation ?? ''} ${f.location} ${f.kind}: ${f.detail}`);
      console.log(`\n${r.from} → ${r.to}: ${r.findings.filter((f) => f.breaking).length} breaking, ${r.findings.filter((f) => !f.breaking).length} non-breaking; ${r.blocking.length} breaking on used operations. Report: reports/out/versions/report.md`);
      process.exit(r.blocking.length ? 1 : 0);
    },
    (e) => {
      console.error(`versions: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
