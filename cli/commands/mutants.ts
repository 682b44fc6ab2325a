/**
 * `svc-conformance mutants`: the mutation run (proof/mutants/run.ts), every stated rule broken
 * one at a time by a mutating proxy; the score and the summary from proof/mutants/index.ts.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Family } from '../../proof/mutants/index.ts';
import { outputPath, positiveInt, reportsDir, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function runMutantsCommand(
  o: {
    sample?: number;
    seed?: number;
    only?: string;
    family?: string;
    grep?: string;
    workers?: number;
    testsPerMutant?: number;
    confirm: boolean;
    rerun?: string;
    out?: string;
  },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const { scoreOf, summaryLine, STATED_FAMILIES, TOLERATED_FAMILIES, SCORE_GOAL } = await import('../../proof/mutants/index.ts');
  const { runMutants, MutantSelectionError } = await import('../../proof/mutants/run.ts');
  const known = new Set<string>([...STATED_FAMILIES, ...TOLERATED_FAMILIES]);
  const families = o.family
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = (families ?? []).filter((f) => !known.has(f));
  if (unknown.length) throw new UsageError(`unknown --family ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  if (o.rerun && !existsSync(resolve(o.rerun))) throw new UsageError(`--rerun ${o.rerun}: no such report (a mutants.json of an earlier run)`);
  // Written at the end of a long run: checked before it starts.
  const out = outputPath(o.out ? '--out' : 'the reports folder', o.out ?? join(reportsDir(settings), 'mutants'), 'folder');
  const report = await runMutants({
    sample: o.sample,
    seed: o.seed,
    only: o.only
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    families: families as Family[] | undefined,
    grep: o.grep,
    workers: o.workers,
    testsPerMutant: o.testsPerMutant,
    confirm: o.confirm,
    rerun: o.rerun ? resolve(o.rerun) : undefined,
    out,
  }).catch((e: unknown) => {
    if (e instanceof MutantSelectionError) throw new UsageError(e.message);
    throw e;
  });
  console.log(summaryLine(report));
  const alarms = report.outcomes.filter((x) => x.verdict === 'false-alarm').length;
  return scoreOf(report.outcomes).ratio < SCORE_GOAL || alarms ? 1 : 0;
}

export function addMutantsCommand(program: Command, wrap: Wrap): void {
  program
    .command('mutants')
    .description(
      'response mutants: every stated rule of spec/ broken one at a time by a mutating proxy in front of a separately started simulator, and the freedoms the Versioning section leaves; the suite runs in real-target mode against each (only the scenarios that reach the mutated operation); mutation score per family and section, survivors, false alarms (<reports>/mutants/mutants.{json,md})',
    )
    .option('--sample <n>', 'a seeded sample of n mutants, family by family (the CI gate); default every mutant (the nightly)', positiveInt('--sample'))
    .option('--seed <n>', "the sample's seed (default 1)", positiveInt('--seed'))
    .option('--only <ids>', 'only mutants whose id contains one of these (comma list)')
    .option('--family <families>', 'only these families (comma list)')
    .option('-g, --grep <regex>', 'only scenarios whose title matches')
    .option('--workers <n>', 'Playwright workers (default 3)', positiveInt('--workers'))
    .option('--tests-per-mutant <n>', 'reaching scenarios a stated mutant runs first, fastest first (default 3)', positiveInt('--tests-per-mutant'))
    .option('--no-confirm', 'no second pass of the survivors on every reaching scenario and the fuzz project')
    .option('--rerun <mutants.json>', 'only the mutants an earlier report left open (survivors, unreached, false alarms) and new ones')
    .option('--out <dir>', 'report folder (default: <reports>/mutants)')
    .addHelpText('after', '\nExit codes: 0 at least 95% of the stated mutants killed and no tolerated mutant failed a scenario, 1 otherwise, 2 bad usage.')
    .action(wrap((o, cmd: Command) => runMutantsCommand(o, cmd)));
}
