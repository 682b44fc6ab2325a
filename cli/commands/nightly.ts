/**
 * `svc-conformance nightly`: conformance, load smoke and self-test with one Allure report and a
 * summary (nightly/nightly.ts); the exit code is the gate.
 */
import type { Command } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../targets/index.ts';
import { ConfigError } from '../config/load.ts';
import { holdReportsFolder, profileOf, reportsDir, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runNightlyCommand(o: { skip?: string; grep?: string; selftestQuick?: boolean; out?: string; history?: string }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const skip =
    o.skip
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const { runNightly, NIGHTLY_STEPS } = await import('../../nightly/nightly.ts');
  for (const s of skip)
    if (!(NIGHTLY_STEPS as readonly string[]).includes(s)) throw new UsageError(`--skip takes a comma list of ${NIGHTLY_STEPS.join(', ')}; got "${s}"`);
  const out = o.out ? resolve(o.out) : reportsDir(settings);
  // Trends and Allure's history outlive the reports folder: the project's reports/history
  // in a checkout, ./svc-history in a user's project (keep it between runs, e.g. a CI cache).
  const inCheckout = resolve(process.cwd()) === resolve(PACKAGE_ROOT);
  const historyDir = o.history ? resolve(o.history) : inCheckout ? join(PACKAGE_ROOT, 'reports/history') : resolve('svc-history');
  // Checked before any step runs: the history is written last, after conformance, load and
  // the self-test, and a folder it cannot use would otherwise cost the whole night.
  const { checkHistoryDir, HistoryError } = await import('../../history/store.ts');
  try {
    checkHistoryDir(historyDir);
  } catch (e) {
    if (e instanceof HistoryError) throw new ConfigError(`--history ${o.history ?? historyDir}: ${e.message}`);
    throw e;
  }
  // Its steps (conformance, load, the self-test) each end within the run bound.
  const release = holdReportsFolder(out, o.out ? '--out' : 'the reports folder (run.reportsDir, SVC_REPORTS_OUT)', 3 * profile.timeouts.runMs);
  let summary: Awaited<ReturnType<typeof runNightly>>;
  try {
    summary = await runNightly({ skip, grep: o.grep, selftestQuick: o.selftestQuick, out, historyDir, env: settings.env as Record<string, string> });
  } finally {
    release();
  }
  const { verdictLine } = await import('../../reports/summary.ts');
  console.log(
    `\nnightly: ${verdictLine(summary.gate, summary.reasons, summary.leftOut ?? [])} in ${(summary.wallTimeMs / 1000).toFixed(1)} s; summary ${join(out, 'summary.md')}`,
  );
  for (const r of summary.reasons) console.log(`  - ${r.step}: ${r.reason}`);
  // The redacted file the nightly wrote, never a fresh rendering.
  if (process.env.GITHUB_STEP_SUMMARY) writeFileSync(process.env.GITHUB_STEP_SUMMARY, readFileSync(join(out, 'summary.md')), { flag: 'a' });
  return summary.gate === 'fail' ? 1 : 0;
}

export function addNightlyCommand(program: Command, wrap: Wrap): void {
  program
    .command('nightly')
    .description('conformance + load (smoke) + self-test, one Allure report with trends and a one-page summary; the exit code is the gate')
    .option('--skip <steps>', 'comma list of steps to leave out: conformance, load, selftest')
    .option('-g, --grep <regex>', 'restrict the conformance step')
    .option('--selftest-quick', 'the quick self-test')
    .option('--out <dir>', 'output folder (default: the reports folder)')
    .option(
      '--history <dir>',
      'trends, Allure history and the observations of every night (what the target served, compared night to night; history/), kept between runs (default: ./svc-history; reports/history in a checkout)',
    )
    .action(wrap((o, cmd: Command) => runNightlyCommand(o, cmd)));
}
