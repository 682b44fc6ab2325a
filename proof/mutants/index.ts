/**
 * Response mutants: generated from the specification's stated rules, applied by
 * a mutating proxy in front of a separately started simulator, and judged by the suite in
 * real-target mode by proof/mutants/run.ts (`runMutants`, which `svc-conformance mutants` and
 * `npm run mutants` call); the report is reports/out/mutants/mutants.{json,md}.
 */
export { scoreOf, summaryLine } from './report.ts';
export { STATED_FAMILIES, TOLERATED_FAMILIES, type Family } from './model.ts';

/** Goal: at least 95% of the stated-rule mutants killed by a failing scenario. */
export const SCORE_GOAL = 0.95;
