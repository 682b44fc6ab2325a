/**
 * Playwright Test configuration of the conformance suites (`npm run conformance`).
 *
 * Projects:
 *   api         HTTP scenarios, no browser (scenarios/api)
 *   browser     OAuth and widget scenarios in Debian's Chromium (scenarios/browser);
 *               Playwright's own browser download is never used
 *   properties  fast-check property suites for webhook handling (scenarios/properties)
 *
 * Target: the embedded simulator, started by scenarios/global-setup.ts, unless
 * SVC_BASE_URL names a real environment (targets/profiles/profile.ts lists every
 * setting). Tags for --grep: @smoke @readonly @destructive and one per area
 * (scenarios/README.md).
 *
 * Reports go under reports/out/: list on the console, HTML, JUnit for CI gates,
 * Allure results for the nightly report.
 */
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env.SVC_CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  globalSetup: './scenarios/global-setup.ts',
  // Two cores on the reference machine (Developers guide): two workers, tests in
  // parallel within files too, since every scenario creates its own user.
  workers: process.env.SVC_WORKERS ? Number(process.env.SVC_WORKERS) : 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  outputDir: 'reports/out/test-results',
  reporter: [
    ['list'],
    ['html', { outputFolder: 'reports/out/html', open: 'never' }],
    ['junit', { outputFile: 'reports/out/junit.xml' }],
    ['allure-playwright', { resultsDir: 'reports/out/allure-results', detail: false }],
  ],
  projects: [
    {
      name: 'api',
      testDir: './scenarios/api',
    },
    {
      name: 'browser',
      testDir: './scenarios/browser',
      use: {
        browserName: 'chromium',
        headless: true,
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
        trace: 'retain-on-failure',
      },
    },
    {
      name: 'properties',
      testDir: './scenarios/properties',
    },
  ],
});
