/**
 * The tolerance matrix of the worked example (examples/integration): its own test
 * command against every variation of the catalogue names exactly the one freedom it
 * cannot handle (intermediate-connection-statuses: its poller knows five connection
 * statuses), with the statement the freedom rests on and the command's own error; and a
 * command that fails without any variation stops the matrix instead of blaming every
 * variation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { VARIATIONS } from '../targets/index.ts';
import { runTolerance, tellingLines, toleranceConsoleLines, toleranceExitCode, toleranceJunit } from './tolerance.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('the example against every variation: only intermediate-connection-statuses breaks it', async () => {
  const report = await runTolerance({
    command: [process.execPath, '--test', 'examples/integration/test/connect.test.mjs'],
    env: {},
    timeoutMs: 30_000,
    concurrency: 2,
    cwd: ROOT,
  });
  assert.equal(report.baseline.outcome, 'pass', report.baseline.tail);
  assert.equal(report.rows.length, VARIATIONS().length, 'every variation of the catalogue ran');
  // The first line names what broke and how (a CI log shows only the head of a long message).
  const broken = report.rows
    .filter((r) => r.outcome !== 'pass')
    .map((r) => `${r.variation} ${r.outcome} after ${r.attempts} run(s): ${tellingLines(r.tail, 2).join(' | ')}`);
  assert.deepEqual(report.breaking, ['intermediate-connection-statuses'], `not pass: ${broken.join('; ')}\n${toleranceConsoleLines(report).join('\n')}`);
  const row = report.rows.find((r) => r.variation === 'intermediate-connection-statuses')!;
  assert.equal(row.outcome, 'FAIL');
  assert.equal(row.attempts, 2, 'a failure is confirmed by a second run');
  assert.match(row.tail ?? '', /unknown connection_status CREATED/);
  assert.match(row.section ?? '', /Transitions between member connection statuses other than those in the table: not shown/);
  assert.equal(toleranceExitCode(report), 1);
  const lines = toleranceConsoleLines(report).join('\n');
  assert.match(lines, /Breaks the integration: 1 of \d+ legitimate freedoms/);
  assert.match(lines, /error: 'unknown connection_status CREATED'/);
  assert.match(toleranceJunit(report), /<testcase classname="tolerance" name="intermediate-connection-statuses"[^>]*><failure/);
});

test('a command that fails without any variation stops the matrix', async () => {
  const report = await runTolerance({
    command: [process.execPath, '-e', 'console.error("boom: no base url"); process.exit(3)'],
    env: {},
    timeoutMs: 10_000,
    cwd: ROOT,
    retries: 0,
  });
  assert.equal(report.baseline.outcome, 'FAIL');
  assert.equal(report.baseline.exitCode, 3);
  assert.deepEqual(report.rows, []);
  assert.equal(toleranceExitCode(report), 1);
  assert.match(toleranceConsoleLines(report).join('\n'), /fails without any variation in force: fix that first/);
  const slow = await runTolerance({
    command: [process.execPath, '-e', 'setTimeout(() => {}, 60_000)'],
    env: {},
    timeoutMs: 500,
    cwd: ROOT,
    retries: 0,
    variations: ['new-endpoint'],
  });
  assert.equal(slow.baseline.outcome, 'TIMEOUT', 'a run is stopped at its bound');
});
