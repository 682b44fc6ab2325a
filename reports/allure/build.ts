/**
 * Builds the one Allure 3 report of the nightly run (DESIGN.md, "What it is for" 3) with the `allure` npm
 * package's engine (@allurereport/core; no Java), in-process — the same engine
 * `npx allure generate` drives, without a config file to keep in step.
 *
 * History: Allure 3 keeps one JSON line per run in `historyPath` and reads it back to
 * draw its trends (status, duration, flakiness) and "new/fixed" markers. The file sits
 * at reports/history/allure-history.jsonl, outside reports/out/ so cleaning the
 * output keeps it; CI restores and saves that directory with its cache (see
 * .github/workflows/ci.yml). A partial nightly reads the history but adds no run
 * to it (`appendHistory: false`): Allure's trends compare full nightlies only.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AllureReport, resolveConfig } from '@allurereport/core';

export interface BuildOptions {
  resultsDirs: string[];
  output: string;
  historyPath: string;
  name?: string;
  /** Keep at most this many runs of history. */
  historyLimit?: number;
  /** Add this run to the history (default true); false still shows the history so far. */
  appendHistory?: boolean;
}

export async function buildAllureReport(o: BuildOptions): Promise<void> {
  mkdirSync(dirname(o.historyPath), { recursive: true });
  const config = await resolveConfig(
    {
      name: o.name ?? 'svc conformance — nightly',
      output: o.output,
      historyPath: o.historyPath,
      historyLimit: o.historyLimit ?? 60,
      appendHistory: o.appendHistory ?? true,
      plugins: {
        awesome: { options: { singleFile: false, reportLanguage: 'en', groupBy: ['parentSuite', 'suite', 'subSuite'] } },
      },
    },
    { output: o.output },
  );
  const report = new AllureReport(config);
  await report.start();
  for (const dir of o.resultsDirs) if (existsSync(dir)) await report.readDirectory(dir);
  await report.done();
}
