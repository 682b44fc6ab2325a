/**
 * allure-playwright, starting from an empty results directory on every run.
 *
 * allure-playwright only adds files to its `resultsDir`, so results of earlier runs
 * (and the "skipped" result it writes for every test a run did not start) pile up, and a
 * later `allure generate` of that directory reports on all of them at once. Like the
 * HTML reporter clearing its folder, this one clears its results directory when the run
 * begins, so a report built from it reads the last run only.
 *
 * History is not kept in the results: Allure 3 keeps one line per run in its
 * `historyPath` file (reports/allure/build.ts: reports/history/allure-history.jsonl, outside
 * reports/out). A `history/` folder inside the results (Allure 2's convention, for those who
 * copy the previous report's history there before `allure generate`) is left in place.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';

/** Allure 2's history folder inside a results directory. */
export const KEPT_IN_RESULTS = new Set(['history']);

/** Removes every entry of `dir` but Allure 2's `history/`; a missing directory is fine. */
export function clearAllureResults(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!KEPT_IN_RESULTS.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export default class FreshAllureReporter extends AllureReporter {
  override onBegin(suite: Suite): void {
    // allure-playwright's own default when no resultsDir is given.
    clearAllureResults(resolve(this.options.resultsDir ?? 'allure-results'));
    super.onBegin(suite);
  }
}
