#!/usr/bin/env node
// Runs every *.test.ts unit test under the project's source folders with Node's own
// test runner (node:test) through tsx. Node 20's --test takes no glob, so the files
// are listed here; an argument narrows the run to paths that contain it.
//
// Order and concurrency (issue 13, speed): node --test starts the files in the order
// given, three at a time (`--concurrency=N` changes it). The long files go first, so the
// run does not end waiting on one of them started last while the other slots sit idle;
// the rest follow in name order. Three at once on two cores: the long files spend much
// of their time waiting (Playwright runs, aggregations, retries, receiver restarts), and
// the third slot keeps the short files moving meanwhile.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['spec', 'contracts', 'targets', 'scenarios', 'load', 'reports', 'scripts', 'proof'];
/** The longest files, longest first (per-file wall and CPU of a full run; see the issue 13 note). */
const LONG_FIRST = [
  'scripts/real-target.test.ts',
  'scripts/live-delivery.test.ts',
  'scripts/redaction.test.ts',
  'proof/selftest-mechanism.test.ts',
  'load/runner/runner.test.ts',
  'load/scripts.test.ts',
  'targets/simulator/core-faults.test.ts',
  'proof/delivery-faults.test.ts',
  'proof/matrix.test.ts',
  'targets/receiver/crash.test.ts',
  'proof/receiver-variants.test.ts',
  'proof/trace-proof.test.ts',
  'contracts/test/spec-documents.test.ts',
];
const args = process.argv.slice(2);
const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
const filter = args.filter((a) => a !== concurrencyArg);
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
const rank = (f) => {
  const i = LONG_FIRST.indexOf(f.split('\\').join('/'));
  return i === -1 ? LONG_FIRST.length : i;
};
const ordered = [...selected].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const concurrency = concurrencyArg ? Number(concurrencyArg.slice('--concurrency='.length)) : 3;
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`run-unit-tests: --concurrency must be a whole number from 1, got ${concurrencyArg}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...ordered], { stdio: 'inherit' });
process.exit(result.status ?? 1);
