/**
 * `load` with k6 (load/run.ts runWithK6), against stand-ins for k6: its exit code is the
 * script's verdict; a k6 still running after the bound has its process group killed and
 * fails; a k6 that cannot be started is named, never an 'error' event nobody handles.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { processGroupMembers } from '../targets/index.ts';
import { runWithK6 } from './run.ts';

/** An executable stand-in for k6 in `dir`: a shell script with `body`. */
function fakeK6(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

test('runWithK6: the exit code passes through; past the bound the group is killed; an unstartable k6 is named', {
  skip: process.platform === 'win32',
  timeout: 60_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fake-k6-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH };
  // Its arguments are `run <script>`: the stand-in checks them, exit 99 is k6's "thresholds crossed".
  const exits = fakeK6(dir, 'k6-exits', '[ "$1" = run ] && [ "$2" = script.ts ] && exit 99; exit 3');
  assert.equal(await runWithK6(exits, 'script.ts', env, 0), 99);
  // A k6 that never ends, with a child of its own in the group: both are gone after the bound.
  const pidFile = join(dir, 'pid');
  const hangs = fakeK6(dir, 'k6-hangs', `echo $$ > ${pidFile}; sleep 600 & wait`);
  const code = await runWithK6(hangs, 'script.ts', env, 500);
  assert.notEqual(code, 0, 'a killed k6 fails the script');
  // Killed before it wrote its id, it had started nothing to leave behind.
  const pgid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
  if (pgid > 0) {
    // A process sent SIGKILL is gone once the kernel has run it down: a bounded wait for that.
    for (let i = 0; i < 40 && processGroupMembers(pgid).length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(processGroupMembers(pgid), [], 'nothing of its group is left');
  }
  // Gone between the PATH lookup and the start: the start fails, and the error names k6.
  const gone = join(dir, 'k6-gone');
  await assert.rejects(runWithK6(gone, 'script.ts', env, 0), new RegExp(`k6 \\(${gone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) could not be started`));
});
