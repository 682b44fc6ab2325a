/**
 * The reports of a run stopped before its first scenario (`run`'s preflight of a real target:
 * unreachable, refused or missing credentials, a base URL whose path is wrong). They say so
 * in the two files CI reads, summary.md and junit.xml, and the previous run's HTML report,
 * Allure results and test results go: a reports folder that still showed the last run's
 * verdict read as this run's.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { markdownText, xmlText } from './markdown.ts';
import { reportPaths } from './reporters.ts';

export function writeStoppedRun(out: string, cause: string): void {
  const p = reportPaths(out);
  for (const stale of [p.html, p.allureResults, p.testResults]) rmSync(stale, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(p.jobSummary, `# svc-conformance: STOPPED\n\nNo scenario ran: the target cannot be tested.\n\n- ${markdownText(cause)}\n`);
  writeFileSync(
    p.junit,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="svc-conformance" tests="1" failures="1">\n  <testsuite name="preflight" tests="1" failures="1">\n    <testcase classname="preflight" name="the target can be tested"><failure message="${xmlText(cause)}" type="preflight"/></testcase>\n  </testsuite>\n</testsuites>\n`,
  );
}
