/**
 * Which k6 `load` runs: the first regular file named k6 on the PATH that may be executed; a
 * folder named k6 (searchable, so "executable" to access(2)) or a file without the execute
 * bit is passed over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { k6OnPath } from './run.ts';

test('k6OnPath: a folder named k6 and a file that may not be executed are passed over', { skip: process.platform === 'win32' }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-k6-path-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const [folder, plain, real] = ['folder', 'plain', 'real'].map((name) => join(dir, name));
  mkdirSync(join(folder, 'k6'), { recursive: true });
  mkdirSync(plain);
  writeFileSync(join(plain, 'k6'), '#!/bin/sh\n');
  chmodSync(join(plain, 'k6'), 0o644);
  mkdirSync(real);
  writeFileSync(join(real, 'k6'), '#!/bin/sh\n');
  chmodSync(join(real, 'k6'), 0o755);
  assert.equal(k6OnPath({ PATH: folder }), undefined, 'a folder is not k6');
  assert.equal(k6OnPath({ PATH: [folder, real].join(delimiter) }), join(real, 'k6'));
  assert.equal(k6OnPath({ PATH: '' }), undefined);
  // As root every file is readable and writable, but execute still needs an execute bit.
  assert.equal(k6OnPath({ PATH: plain }), undefined, 'a file without the execute bit is not k6');
});
