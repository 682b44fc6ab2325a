/**
 * The trace's scenario names against Playwright's own listing (a child process: a system test,
 * npm run test:system): every verified_by that names a scenario names one that exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadTrace, PROJECT_ROOT } from '../spec/trace.ts';
import { testsOf, type PwReport } from './run-suite.ts';
import { printTestKey } from './playwright-plan.ts';

const rows = loadTrace();

// The scenario names come from Playwright's own listing (titles built in loops included), the
// same "<file> > <describe> > <title>" the self-test records for a failure.
function listedScenarios(): Set<string> {
  const listing = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter=json'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (listing.status !== 0 && !listing.stdout.trim().startsWith('{')) throw new Error(`playwright test --list failed: ${listing.stderr.slice(0, 2000)}`);
  const names = new Set<string>();
  for (const t of testsOf(JSON.parse(listing.stdout) as PwReport)) names.add(printTestKey(t.key));
  return names;
}

test('every verified_by scenario names a test Playwright lists', () => {
  const listed = listedScenarios();
  assert.ok(listed.size > 50, `Playwright listed only ${listed.size} tests`);
  const missing = rows.flatMap((row) => row.verified_by.filter((v) => v.startsWith('scenarios/') && !listed.has(v)).map((v) => `${row.id}: ${v}`));
  assert.deepEqual(missing, []);
});
