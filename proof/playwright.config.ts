/**
 * Playwright Test configuration of the self-test (proof/README.md, "How it runs"): the
 * scenarios `npm run conformance` runs, under every entry of the plan proof/execute.ts
 * writes (SVC_SELFTEST_PLAN; proof/playwright-plan.ts).
 *
 * Projects, in the order Playwright hands out their tests:
 *   selftest-first  the fuzz scenarios (SELFTEST_FIRST_FOLDERS): the run's longest tests,
 *                   started first so that the run does not end on one of them alone
 *   properties      the fast-check suites, once, as they are (the baseline; on the plan's request)
 *   selftest        the api and browser scenarios
 * The scenario projects declare each scenario once per plan entry that selects it, under a
 * describe block named after the entry (proof/entry-test.ts); each worker starts one
 * in-process simulator per entry it meets. Every entry shares a project's workers: a
 * project always gets workers of its own, so a project per entry would start a worker per
 * entry.
 *
 * The scenario specs import their `test` from scenarios/fixtures.ts; here that import
 * resolves to the self-test's (proof/entry-test-hook.mjs, registered below in every process
 * that loads this configuration). No globalSetup, the JSON reporter only (after redaction),
 * short bounds so a scenario a fault makes wait fails quickly.
 */
import { register } from 'node:module';
import { defineConfig } from '@playwright/test';
import { loadProfile, orRefuse, runSettings } from '../targets/index.ts';
import { liveDeliverySettings } from '../scenarios/properties/harness/live-delivery.ts';
import { browserUse } from '../scenarios/browser-use.ts';
import { REDACTION_REPORTER } from '../reports/reporters.ts';
import { watchParent } from '../scenarios/parent-watchdog.ts';
import {
  PROPERTIES_PROJECT,
  SELFTEST_FIRST_FOLDERS,
  SELFTEST_FIRST_PROJECT,
  SELFTEST_FOLDERS,
  SELFTEST_PROJECT,
  selftestPlan,
  someTargetReadOnly,
} from './playwright-plan.ts';

register('./entry-test-hook.mjs', import.meta.url);

const settings = orRefuse(() => runSettings());
// A run the self-test started dies with it, even when it is killed outright (SIGKILL).
watchParent();
const { plan } = orRefuse(() => selftestPlan());
const folders = plan.folders ?? SELFTEST_FOLDERS;
const first = folders.filter((f) => SELFTEST_FIRST_FOLDERS.includes(f));
const rest = folders.filter((f) => !SELFTEST_FIRST_FOLDERS.includes(f));
// A scenario that would skip itself under every entry is left out here, before a worker
// starts for it: the read-only fuzz scenario where every target allows destructive runs
// (someTargetReadOnly), and the live-delivery spec without a webhook capture to deliver to
// (its own test of the settings, scenarios/properties/harness/live-delivery.ts).
const readOnlyFuzz = orRefuse(() => someTargetReadOnly(plan)) ? {} : { grepInvert: /@readonly/ };
const runProfile = orRefuse(() => loadProfile());
const propertiesIgnore = [
  ...(plan.propertiesIgnore ?? []),
  ...(liveDeliverySettings(runProfile.webhookCapture, runProfile).skip ? ['**/live-delivery.spec.ts'] : []),
];
const folderMatch = (names: readonly string[]) => new RegExp(`(^|/)(${names.join('|')})/[^/]*\\.spec\\.ts$`);
/** The scenario projects' common part: the long one first (SELFTEST_FIRST_PROJECT), then the rest. */
const scenarioProject = {
  testDir: '../scenarios',
  // Retries are per entry (describe.configure in proof/entry-test.ts): none for faults, one for baselines and variations.
  use: { ...browserUse(settings.chromiumPath), actionTimeout: 5_000, navigationTimeout: 5_000, trace: 'off' as const },
};

export default defineConfig({
  // The project root: the JSON report names each spec from there (scenarios/api/...), as
  // spec/trace.yaml does.
  testDir: '..',
  workers: plan.workers,
  // One test per group: the dispatcher hands the next test to whichever worker is free,
  // so every worker stays busy to the end. Workers are shared by every entry
  // (proof/entry-test.ts): nothing is started per entry but a simulator.
  fullyParallel: true,
  timeout: plan.testTimeoutMs,
  expect: { timeout: 5_000 },
  outputDir: plan.outputDir,
  // Redaction first (as in every run): a fault entry's failed browser scenario keeps its
  // error-context.md page snapshot, which shows the test password typed into the page.
  reporter: [[REDACTION_REPORTER], ['json', { outputFile: plan.reportFile }]],
  projects: [
    ...(first.length ? [{ ...scenarioProject, name: SELFTEST_FIRST_PROJECT, testMatch: folderMatch(first), ...readOnlyFuzz }] : []),
    ...(plan.properties
      ? [
          {
            name: PROPERTIES_PROJECT,
            testDir: '../scenarios/properties',
            // Only the specs: the harness beside them holds node:test unit tests (*.test.ts).
            testMatch: /\.spec\.ts$/,
            retries: 1,
            ...(propertiesIgnore.length ? { testIgnore: propertiesIgnore } : {}),
          },
        ]
      : []),
    ...(rest.length ? [{ ...scenarioProject, name: SELFTEST_PROJECT, testMatch: folderMatch(rest) }] : []),
  ],
});
