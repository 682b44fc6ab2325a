#!/usr/bin/env node
// Runs every *.test.ts unit test under the project's source folders with Node's own
// test runner (node:test) through tsx. Node 20's --test takes no glob, so the files
// are listed here; an argument narrows the run to paths that contain it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['spec', 'contracts', 'targets', 'load', 'reports', 'scripts', 'scenarios'];
const filter = process.argv.slice(2);
const files = [];
function walk(dir) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'out') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name.endsWith('.test.ts')) files.push(full);
  }
}
roots.forEach(walk);
const selected = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error('run-unit-tests: no test files matched');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...selected.sort()], { stdio: 'inherit' });
process.exit(result.status ?? 1);
