/**
 * A run stopped before its first scenario leaves its own verdict in the reports folder, never
 * the previous run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportPaths } from './reporters.ts';
import { writeStoppedRun } from './stopped-run.ts';

test("a stopped run's summary.md and junit.xml say it stopped and why; the last run's reports are gone", (t) => {
  const out = mkdtempSync(join(tmpdir(), 'svc-stopped-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const p = reportPaths(out);
  // What a green run left: its summary, its JUnit, its HTML report and Allure results.
  writeFileSync(p.jobSummary, '# svc-conformance: PASS\n');
  writeFileSync(p.junit, '<testsuites tests="216" failures="0"/>');
  for (const dir of [p.html, p.allureResults, p.testResults]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'old'), 'x');
  }
  const cause = 'GET /institutions?records_per_page=1 answered 404 <html> & "quotes" | pipes';
  writeStoppedRun(out, cause);
  const summary = readFileSync(p.jobSummary, 'utf8');
  assert.match(summary, /^# svc-conformance: STOPPED\n/);
  assert.ok(summary.includes('answered 404 \\<html\\> & "quotes" \\| pipes'), summary);
  const junit = readFileSync(p.junit, 'utf8');
  assert.match(junit, /<testsuites name="svc-conformance" tests="1" failures="1">/);
  assert.ok(junit.includes('message="GET /institutions?records_per_page=1 answered 404 &lt;html&gt; &amp; &quot;quotes&quot; | pipes"'), junit);
  for (const dir of [p.html, p.allureResults, p.testResults]) assert.equal(existsSync(dir), false, `${dir} is the last run's`);
});
