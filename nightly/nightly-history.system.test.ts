/**
 * A history folder the nightly or a run cannot use stops it before any step runs, exit 2,
 * naming the folder (the history is written last: found there, it would cost the whole night).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', 'cli', 'bin.mjs');

test('nightly and run refuse a history that is a file or an index of another format, before anything runs', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'nightly-history-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  const foreign = join(dir, 'foreign');
  mkdirSync(join(foreign, 'observations'), { recursive: true });
  writeFileSync(join(foreign, 'observations', 'index.json'), JSON.stringify({ format: 999 }));
  for (const [history, says] of [
    [file, /is not a folder/],
    [foreign, /has history format 999/],
  ] as const)
    for (const command of [['nightly', '--out', join(dir, 'out')], ['run']]) {
      const r = spawnSync(process.execPath, [BIN, ...command, '--history', history], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 2, `${command[0]} --history ${history}: ${r.stderr}`);
      assert.match(r.stderr, says);
      assert.match(r.stderr, /--history/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
});
