/**
 * Playwright Test configuration of the conformance suites (`npm run conformance`).
 *
 * Projects:
 *   api         HTTP scenarios, no browser (scenarios/api)
 *   browser     OAuth and widget scenarios in Debian's Chromium (scenarios/browser);
 *               Playwright's own browser download is never used
 *   properties  fast-check property suites for webhook handling (scenarios/properties)
 *   fuzz        generative conformance (scenarios/fuzz, tag @fuzz): every documented
 *               operation fuzzed from its description, stateful chains, Schemathesis-style
 *               checks; bounded by SVC_FUZZ_RUNS / SVC_FUZZ_SECONDS (about 30 s by default),
 *               so it is part of the default run; alone: npx playwright test --project fuzz
 *
 * Target: the embedded simulator, started by scenarios/global-setup.ts, unless
 * SVC_BASE_URL names a real environment (targets/profiles/profile.ts lists every
 * setting). Tags for --grep: @smoke @readonly @destructive and one per area
 * (scenarios/README.md).
 *
 * Reports go under reports/out/ (SVC_REPORTS_OUT moves them): list and the contract
 * findings by tier on the console, HTML (with html/tier-summary.html), JUnit for CI gates,
 * Allure results for the nightly report (reports/reporters.ts), the redaction reporter
 * before all of them. `--list` writes no report.
 *
 * The self-test runs the same scenarios under its own configuration (proof/playwright.config.ts).
 */
import { defineConfig } from '@playwright/test';
import { loadProfile, orRefuse, runSettings } from './targets/index.ts';
import { browserUse } from './scenarios/browser-use.ts';
import { controlBoundMs } from './scenarios/browser/controls.ts';
import { conformanceReporters, isListing, reportPaths } from './reports/reporters.ts';
import { watchParent } from './scenarios/parent-watchdog.ts';

const settings = orRefuse(() => runSettings());
// A run the CLI started dies with the CLI, even when the CLI is killed outright (SIGKILL).
watchParent();
// Every report under one folder (SVC_REPORTS_OUT, absolute; the project's reports/out by
// default): the installed CLI points it at the user's own folder, never into node_modules.
const reportsOut = settings.reportsOut;

const BROWSER_USE = browserUse(settings.chromiumPath);

export default defineConfig({
  globalSetup: './scenarios/global-setup.ts',
  // Two cores on the reference machine (Developers guide): two workers, tests in
  // parallel within files too, since every scenario creates its own user.
  workers: settings.workers,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The profile's test bound (SVC_TEST_TIMEOUT_MS; the embedded simulator 30 s, a real
  // target derived from its aggregation and request bounds), always above the request
  // bound, so a stalled request fails naming itself, not as a bare test timeout.
  timeout: orRefuse(() => loadProfile().timeouts.testMs),
  // The run's own bound (SVC_RUN_TIMEOUT_MS) and Playwright's stop after N failed
  // scenarios (SVC_MAX_FAILURES): a target that stalls after the preflight cannot hold a
  // CI job; the transport-failure stop (scenarios/fixtures/transport-stop.ts) usually ends it first.
  globalTimeout: orRefuse(() => loadProfile().timeouts.runMs),
  maxFailures: settings.maxFailures,
  expect: { timeout: 5_000 },
  outputDir: reportPaths(reportsOut).testResults,
  // Redaction first, console, tier summary, HTML, JUnit, Allure results (reports/reporters.ts);
  // `--list` runs nothing, so it gets the console list only and leaves the last run's reports alone.
  reporter: conformanceReporters({ out: reportsOut, listing: isListing() }),
  // Only the specs: the scenario folders also hold node:test unit tests (*.test.ts, run by
  // npm test), which Playwright's default pattern would load and run inside a worker.
  testMatch: /\.spec\.ts$/,
  projects: [
    // The run itself: no test of its own; its teardown, `invariants`, runs after every
    // scenario project, whatever their outcome, and judges every worker's answers together
    // (contracts/invariants.ts, scenarios/run/invariants.spec.ts).
    {
      name: 'run',
      testDir: './scenarios/run',
      testMatch: /^$/,
      teardown: 'invariants',
    },
    {
      name: 'invariants',
      testDir: './scenarios/run',
    },
    {
      name: 'api',
      testDir: './scenarios/api',
      dependencies: ['run'],
    },
    {
      name: 'browser',
      testDir: './scenarios/browser',
      dependencies: ['run'],
      // A page that never loads fails within a request and a page's action (controls.ts), naming
      // the navigation, not as a bare test timeout (clicks have their own bound there).
      use: { ...BROWSER_USE, trace: 'retain-on-failure', navigationTimeout: orRefuse(() => controlBoundMs(loadProfile())) },
      // No retry: the mobile-WebView widget scenario's lost click (Chromium's
      // external-protocol prompt swallowing input, scenarios/browser/widget.spec.ts) is
      // fixed at its cause; a failure here is a finding, not noise.
      retries: 0,
    },
    {
      name: 'properties',
      testDir: './scenarios/properties',
      dependencies: ['run'],
    },
    {
      name: 'fuzz',
      testDir: './scenarios/fuzz',
      dependencies: ['run'],
    },
  ],
});
