/**
 * `playwright merge-reports --config scripts/playwright.merge.config.ts <blob folder>`: the
 * reports of a sharded run (CI: each shard writes a blob report) merged with the same
 * reporters as a single run (reports/reporters.ts): console, contract findings by tier
 * with the HTML report's title and html/tier-summary.html, HTML, JUnit with the tier
 * annotations as <property> elements; not Allure results (allure-playwright needs the
 * run's projects, which a merge has not got). Output under SVC_REPORTS_OUT (default
 * reports/out). merge-reports reads only `testDir` (the shards' root, to which the blob
 * reports' file paths are relative) and `reporter` from a config.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfile } from '../targets/index.ts';
import { conformanceReporters } from '../reports/reporters.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = loadProfile().run.reportsOut;

export default {
  testDir: root,
  reporter: conformanceReporters({ out, listing: false, allure: false }),
};
