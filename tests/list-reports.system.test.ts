/**
 * Listing the tests never touches the reports of the last run, and a run starts its Allure
 * results clean (reports/reporters.ts, reports/allure/reporter.ts): `playwright test --list`
 * once overwrote reports/out/html and junit.xml and added a "skipped" Allure result per
 * listed test to results that piled up across runs, so a later Allure report read 0% passed.
 *
 * Both runs write under SVC_REPORTS_OUT in a temporary folder seeded with a previous
 * run's reports. The listing must leave every seeded file as it was; the control run
 * (the same configuration, no --list, a --grep that selects no test: its reporters run
 * without starting a scenario) must replace them, so an untouched folder means "listing
 * writes nothing", not "the reports went elsewhere".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  conformanceReporters,
  FRESH_ALLURE_REPORTER,
  isListing,
  reportPaths,
  TIER_SUMMARY_REPORTER,
  REDACTION_REPORTER,
  JOB_SUMMARY_REPORTER,
  EMPTY_RUN_REPORTER,
} from '../reports/reporters.ts';
import { clearAllureResults } from '../reports/allure/reporter.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function seed(out: string): Record<string, string> {
  const p = reportPaths(out);
  const files: Record<string, string> = {
    [join(p.html, 'index.html')]: 'previous HTML report',
    [p.junit]: '<testsuites name="previous run"/>',
    [join(p.allureResults, 'previous-result.json')]: '{"status":"passed"}',
    [join(p.allureResults, 'history', 'history.json')]: '{"kept":true}',
  };
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, body);
  }
  return files;
}

function playwright(args: string[], out: string) {
  const res = spawnSync('npx', ['playwright', 'test', ...args], {
    cwd: root,
    env: { ...process.env, SVC_REPORTS_OUT: out, FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

test('the reporters: --list gets the console list only; a run writes every report under its output folder', () => {
  assert.equal(isListing(['node', 'playwright', 'test', '--project', 'api', '--list', '--grep', '@smoke']), true);
  assert.equal(isListing(['node', 'playwright', 'test', '--grep', 'list']), false);
  assert.deepEqual(conformanceReporters({ out: '/tmp/x', listing: true }), [['list']]);
  const run = JSON.stringify(conformanceReporters({ out: '/tmp/x', listing: false }));
  for (const path of ['/tmp/x/html', '/tmp/x/html/tier-summary.html', '/tmp/x/junit.xml', '/tmp/x/allure-results'])
    assert.ok(run.includes(`"${path}"`), `${path} in ${run}`);
  // The tier summary sets the title the HTML reporter reads when it builds: it must come first.
  const names = conformanceReporters({ out: '/tmp/x', listing: false }).map(([name]) => name);
  assert.ok(names.indexOf(TIER_SUMMARY_REPORTER) >= 0 && names.indexOf(TIER_SUMMARY_REPORTER) < names.indexOf('html'));
  assert.ok(names.includes(FRESH_ALLURE_REPORTER) && !names.includes('allure-playwright'));
});

test("merging shard reports uses the same reporters, without Allure (allure-playwright needs the run's projects)", async () => {
  const merge = (await import('../reports/playwright.merge.config.ts')).default;
  const names = merge.reporter.map(([name]) => name);
  assert.deepEqual(names, [REDACTION_REPORTER, 'list', EMPTY_RUN_REPORTER, TIER_SUMMARY_REPORTER, JOB_SUMMARY_REPORTER, 'html', 'junit']);
  assert.equal(merge.testDir, root);
});

test("clearing Allure results removes every earlier result and keeps Allure 2's history/", () => {
  const dir = mkdtempSync(join(tmpdir(), 'allure-results-'));
  for (const f of ['a-result.json', 'b-container.json', 'c-attachment.txt', 'environment.properties']) writeFileSync(join(dir, f), 'x');
  mkdirSync(join(dir, 'history'));
  writeFileSync(join(dir, 'history', 'history-trend.json'), '[]');
  clearAllureResults(dir);
  assert.deepEqual(readdirSync(dir), ['history']);
  assert.deepEqual(readdirSync(join(dir, 'history')), ['history-trend.json']);
  clearAllureResults(join(dir, 'missing')); // nothing there: nothing to do, no error
  rmSync(dir, { recursive: true, force: true });
});

test("playwright test --list (with other options) leaves the last run's reports as they were; a run replaces them", { timeout: 240_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'list-reports-'));
  try {
    const seeded = seed(out);
    const listed = playwright(['--list', '--project', 'api', '--grep', '@smoke'], out);
    assert.equal(listed.code, 0, listed.output);
    assert.match(listed.output, /Total: [1-9]\d* tests? in \d+ files?/, 'the listing listed tests');
    for (const [file, body] of Object.entries(seeded)) assert.ok(readFileSync(file, 'utf8') === body, `--list changed ${file}`);
    assert.deepEqual(readdirSync(reportPaths(out).allureResults).sort(), ['history', 'previous-result.json']);
    assert.ok(!existsSync(join(out, 'test-results')), '--list wrote test-results');

    // Control: the same configuration running (no test selected) replaces the reports.
    const ran = playwright(['--project', 'api', '--grep', 'no scenario has this title', '--pass-with-no-tests'], out);
    assert.equal(ran.code, 0, ran.output);
    const p = reportPaths(out);
    assert.notEqual(readFileSync(join(p.html, 'index.html'), 'utf8'), seeded[join(p.html, 'index.html')], 'the HTML report was not rebuilt');
    assert.notEqual(readFileSync(p.junit, 'utf8'), seeded[p.junit], 'junit.xml was not rewritten');
    assert.ok(existsSync(p.tierSummary), 'no tier summary beside the HTML report');
    assert.deepEqual(readdirSync(p.allureResults), ['history'], 'earlier Allure results survived the run');
    assert.match(ran.output, /Contract findings by tier:/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
