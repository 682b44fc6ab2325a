/**
 * A partial nightly says what it left out and claims nothing about it (the nightly report's gate):
 * no "Gate: PASS" for steps it did not run, no self-test matrix or JUnit file it did not
 * write, no row in the trends and no run in Allure's history, which compare full nightlies.
 * A full run's summary still says PASS, and Allure's history still grows on a full run
 * (buildAllureReport with appendHistory), so "nothing was added" is not a history that
 * never grows.
 */
/*
 * The partial nightly's Allure side (a system test, npm run test:system: the Allure report is
 * built by the allure command, a child process).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNightly } from './nightly.ts';
import { buildAllureReport } from '../reports/allure/build.ts';
import { writeAllureEntry } from '../reports/allure/results.ts';

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length
    : 0;

test('a nightly with every step skipped: no PASS, no matrix, no JUnit, no trend row, no Allure history run', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'nightly-partial-'));
  const history = join(out, 'history');
  const trends = join(history, 'trends.jsonl');
  try {
    mkdirSync(history, { recursive: true });
    writeFileSync(trends, `${JSON.stringify({ at: '2026-11-21T02:17:00.000Z', passRate: 1, tests: 300, gate: 'pass' })}\n`);
    const s = await runNightly({ skip: ['conformance', 'load', 'selftest'], out, historyDir: history, log: () => {} });
    assert.equal(s.gate, 'partial');
    assert.deepEqual(s.reasons, []);
    assert.equal(lines(trends), 1, 'a partial run added a trend row');
    assert.equal(lines(join(history, 'allure-history.jsonl')), 0, "a partial run added a run to Allure's history");
    assert.ok(existsSync(join(out, 'allure-report', 'index.html')), 'the Allure report is still built');

    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    assert.doesNotMatch(md, /Gate: PASS/);
    assert.match(md, /\*\*Partial run: no gate verdict\*\*/);
    for (const step of ['conformance', 'load', 'self-test'])
      assert.match(md, new RegExp(`- \\*\\*${step}\\*\\*: not run \\(--skip ${step.replace('-', '')}\\)`));
    assert.match(md, /\| self-test \| not run \(--skip selftest\) \|/);
    assert.doesNotMatch(md, /Self-test matrix|matrix\.md|JUnit|junit\.xml|tier-summary/);
    assert.match(md, /This partial run is not one of them/);
    assert.match(md, /\| 2026-11-21 02:17 \| pass \| 100\.0% \| 300 \|/, 'the trends so far are shown');
    assert.match(md, /- Allure report: `.*allure-report\/index\.html`/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("Allure's history grows by one run per full report and not for a partial one", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'allure-history-'));
  try {
    const results = join(dir, 'results');
    writeAllureEntry(results, { fullName: 'nightly:probe', name: 'probe', status: 'passed', parentSuite: 'nightly' });
    const historyPath = join(dir, 'allure-history.jsonl');
    await buildAllureReport({ resultsDirs: [results], output: join(dir, 'full'), historyPath });
    assert.equal(lines(historyPath), 1, 'a full report adds its run');
    await buildAllureReport({ resultsDirs: [results], output: join(dir, 'partial'), historyPath, appendHistory: false });
    assert.equal(lines(historyPath), 1, 'a partial report added a run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
