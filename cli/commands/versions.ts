/**
 * `svc-conformance versions`: the vendor-upgrade check between two versions of the target or two
 * OpenAPI documents (upgrade/versions.ts), gated on what the integration uses.
 */
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/load.ts';
import { outputPath, profileOf, reportsDir, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runVersionsCommand(
  o: { from?: string; to?: string; fromFile?: string; toFile?: string; out?: string; usage?: string },
  cmd: Command,
): Promise<number> {
  const byVersion = o.from !== undefined || o.to !== undefined;
  const byFile = o.fromFile !== undefined || o.toFile !== undefined;
  if (byVersion === byFile) throw new UsageError('give either --from and --to (versions of the target) or --from-file and --to-file (two OpenAPI documents)');
  if (byVersion && !(o.from && o.to)) throw new UsageError('--from and --to go together');
  if (byFile && !(o.fromFile && o.toFile)) throw new UsageError('--from-file and --to-file go together');
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const { versionCheck, diffDocumentFiles, versionReportLines, VersionInputError } = await import('../../upgrade/versions.ts');
  const out = outputPath(o.out ? '--out' : 'the reports folder', o.out ?? join(reportsDir(settings), 'versions'), 'folder');
  const usageFile = o.usage ? resolve(o.usage) : profileOf(settings.env).integration.usageFile;
  const common = { env: settings.env, out, allureResults: join(reportsDir(settings), 'allure-results'), ...(usageFile ? { usageFile } : {}) };
  try {
    const report = byVersion
      ? await versionCheck({ ...common, from: o.from!, to: o.to! })
      : await diffDocumentFiles({ ...common, fromFile: resolve(o.fromFile!), toFile: resolve(o.toFile!) });
    for (const line of versionReportLines(report, out)) console.log(line);
    return report.blocking.length ? 1 : 0;
  } catch (e) {
    if (e instanceof VersionInputError) throw new ConfigError(e.message);
    throw e;
  }
}

export function addVersionsCommand(program: Command, wrap: Wrap): void {
  program
    .command('versions')
    .description(
      "vendor-upgrade check: every difference between two versions of the target (read-only probes and the derived documents), or between two OpenAPI files, classified breaking or not by the specification's Versioning rules",
    )
    .option('--from <version>', 'the version in use, e.g. v20250224')
    .option('--to <version>', 'the version to move to, e.g. v20260929')
    .option('--from-file <openapi>', 'an OpenAPI 3.0/3.1 document (YAML or JSON) instead of a version')
    .option('--to-file <openapi>', 'the document to compare it with')
    .option('--out <dir>', 'report folder (default: <reports>/versions)')
    .option(
      '--usage <file>',
      "your integration's usage file (svc-conformance usage): only breaking differences that touch an operation, parameter or field it uses gate; the rest is listed apart (default: integration.usageFile)",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 no breaking difference on what your integration uses (the usage file, else usedOperations / SVC_USED_OPERATIONS), 1 some, 2 bad input (an unknown version, an unreadable document or usage file).',
    )
    .action(wrap((o, cmd: Command) => runVersionsCommand(o, cmd)));
}
