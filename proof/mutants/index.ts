/**
 * Response mutants (issue 23): generated from the specification's stated rules, applied by
 * a mutating proxy in front of a separately started simulator, and judged by the suite in
 * real-target mode. `svc-conformance mutants` (cli/main.ts) and `npm run mutants` call
 * `runMutants`; the report is reports/out/mutants/mutants.{json,md}.
 */
export { generateMutants, byFamily, EXCLUSIONS, type GeneratedMutants } from './generate.ts';
export { runMutants, sampleMutants, MUTANT_RUN_ENV, type MutantRunOptions } from './run.ts';
export { renderMarkdown, scoreOf, summaryLine, type MutantsReport, type MutantOutcome, type Verdict } from './report.ts';
export { STATED_FAMILIES, TOLERATED_FAMILIES, type Mutant, type Family, type Change, type Exclusion } from './model.ts';

/** Issue 23, "Done when": at least 95% of the stated-rule mutants killed by a failing scenario. */
export const SCORE_GOAL = 0.95;
