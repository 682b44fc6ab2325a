/**
 * The project's playwright.config.ts plus a JSON reporter (<out>/playwright.json)
 * that the nightly reads for the gate, the findings and the pass-rate trend. Paths are
 * made absolute because Playwright resolves them against this file's directory; the
 * reporters of the base configuration already write under SVC_REPORTS_OUT
 * (profile.run.reportsOut; the redaction test writes beside the nightly's).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReporterDescription } from '@playwright/test';
import base from '../playwright.config.ts';
import { loadProfile } from '../targets/index.ts';
import { isListing, JOB_SUMMARY_REPORTER } from '../reports/reporters.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = loadProfile().run.reportsOut;
const abs = (p: string | undefined) => (p ? resolve(root, p) : p);

export default {
  ...base,
  globalSetup: abs(base.globalSetup as string),
  // `--list` runs nothing: no JSON report either (reports/reporters.ts).
  // The nightly writes its own summary.md (and job summary) over every step: not the run's.
  reporter: isListing()
    ? base.reporter
    : [
        ...(base.reporter as ReporterDescription[]).filter(([name]) => name !== JOB_SUMMARY_REPORTER),
        ['json', { outputFile: resolve(out, 'playwright.json') }],
      ],
  projects: (base.projects ?? []).map((p) => ({ ...p, testDir: abs(p.testDir) })),
};
