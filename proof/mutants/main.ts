/**
 * `npm run mutants` without the CLI (the CLI's `mutants` subcommand calls the same function):
 *   npx tsx proof/mutants/main.ts [--sample N --seed S] [--only id,...] [--family f,...] [--grep re] [--workers n] [--tests-per-mutant n] [--no-confirm]
 *   npx tsx proof/mutants/main.ts --rerun reports/out/mutants/mutants.json   (only what that run left open)
 * Exit 1 when the score is under the goal (95% of stated mutants killed) or a tolerated mutant raised an alarm.
 */
import { parseArgs } from 'node:util';
import { runMutants, scoreOf, summaryLine, STATED_FAMILIES, TOLERATED_FAMILIES, type Family } from './index.ts';

/** Issue 23, "Done when": at least 95% of stated-rule mutants killed. */
export const SCORE_GOAL = 0.95;

const { values } = parseArgs({
  options: {
    sample: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    family: { type: 'string' },
    grep: { type: 'string' },
    workers: { type: 'string' },
    'tests-per-mutant': { type: 'string' },
    'no-confirm': { type: 'boolean' },
    out: { type: 'string' },
    rerun: { type: 'string' },
  },
});
const int = (name: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) { console.error(`--${name} must be a positive integer, got "${raw}"`); process.exit(2); }
  return n;
};
const families = values.family?.split(',').map((f) => f.trim()).filter(Boolean) as Family[] | undefined;
const known = new Set<string>([...STATED_FAMILIES, ...TOLERATED_FAMILIES]);
for (const f of families ?? []) if (!known.has(f)) { console.error(`unknown family "${f}" (known: ${[...known].join(', ')})`); process.exit(2); }
const report = await runMutants({
  sample: int('sample', values.sample),
  seed: int('seed', values.seed),
  only: values.only?.split(',').map((s) => s.trim()).filter(Boolean),
  families,
  grep: values.grep,
  workers: int('workers', values.workers),
  testsPerMutant: int('tests-per-mutant', values['tests-per-mutant']),
  confirm: !values['no-confirm'],
  out: values.out,
  rerun: values.rerun,
});
console.log(summaryLine(report));
const alarms = report.outcomes.filter((o) => o.verdict === 'false-alarm').length;
process.exit(scoreOf(report.outcomes).ratio < SCORE_GOAL || alarms ? 1 : 0);
