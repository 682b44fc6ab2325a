/**
 * A batch of Playwright runs in one invocation (one Playwright start instead of several): each run is a project
 * whose profile is read from the environment it gives (the `targetEnv` fixture,
 * scenarios/fixtures.ts) exactly as a separate `playwright test` process with that
 * environment would read it. Used by the project's own tests that run a spec against
 * several targets (tests/live-delivery.system.test.ts, tests/real-target.system.test.ts): one
 * Playwright start, one transform of the specs and a few workers instead of one
 * invocation per target (each start costs CPU of its own: transform, workers). The plan (SVC_RUNS_PLAN) is written by
 * proof/real-target.ts `runPlaywrightBatch`. No globalSetup: every run names its target.
 */
import { readFileSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { runSettings } from '../targets/index.ts';
import type { RunsPlan } from './real-target.ts';

const file = runSettings().runsPlanFile;
if (!file) throw new Error('proof/playwright.runs.config.ts needs SVC_RUNS_PLAN (written by proof/real-target.ts runPlaywrightBatch)');
const plan = JSON.parse(readFileSync(file, 'utf8')) as RunsPlan;

export default defineConfig<{ failuresExpected: boolean }, { targetEnv: Record<string, string> | undefined }>({
  testDir: '../scenarios',
  workers: plan.workers,
  fullyParallel: true,
  retries: 0,
  outputDir: plan.outputDir,
  // The JSON reporter and its file come from the command line (runPlaywrightBatch), as for runPlaywright.
  projects: plan.runs.map((r) => ({
    name: r.name,
    testDir: `../scenarios/${r.folder}`,
    testMatch: /\.spec\.ts$/,
    timeout: r.timeoutMs,
    ...(r.grep ? { grep: new RegExp(r.grep) } : {}),
    // A run expected to fail (a misbehaving target) keeps its worker after each failure
    // (scenarios/fixtures/outcome.ts): a new worker per failed scenario would
    // start and import everything again; the failures are reported as failed all the same.
    use: { targetEnv: r.env, failuresExpected: !!r.failuresExpected },
  })),
});
