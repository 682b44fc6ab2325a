#!/usr/bin/env node
// `npm test`: the project's own tests, in two stages.
//
//   1. The static checks, side by side: the type check, `redocly lint` of every OpenAPI
//      document, Biome's formatter and linter, knip (exports, files and dependencies that
//      nothing uses: knip.jsonc). A failure here stops the run before the minutes of tests
//      below.
//   2. The unit tests (scripts/run-unit-tests.mjs), then the self-test (proof/selftest.ts).
//      One after the other on purpose: side by side they finish sooner, but the load they
//      make lets a short simulator job end before a scenario's second request arrives, so
//      a fault seen only while a job runs (extend-history-starts-nothing: a 409 from
//      identify while the extended-history job runs) can go unproven, the scenario rightly
//      inconclusive. The self-test's verdicts are worth more than the seconds.
//
// The run ends with one line per part: passed or FAILED, and its wall time.
//
//   node scripts/npm-test.mjs [--help]
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const USAGE = 'usage: node scripts/npm-test.mjs   (npm test: static checks side by side, then the unit tests, then the self-test)';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length) {
  console.error(`npm-test: unknown argument ${JSON.stringify(args[0])}\n${USAGE}`);
  process.exit(2);
}

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** Runs a command; its output is captured (to print as one block) or shown as it comes. */
function run(label, command, commandArgs, { capture } = {}) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, commandArgs, { cwd: ROOT, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    const chunks = [];
    if (capture) {
      for (const stream of [child.stdout, child.stderr]) {
        stream.on('data', (d) => {
          chunks.push(d);
        });
      }
    }
    const finish = (code, error) => {
      done({ label, ok: code === 0, code, error, seconds: (performance.now() - started) / 1000, output: Buffer.concat(chunks).toString() });
    };
    child.on('error', (e) => finish(null, e.message));
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

function report(results) {
  for (const r of results) {
    console.log(`npm test: ${r.label.padEnd(34)} ${r.ok ? 'passed' : `FAILED${r.error ? ` (${r.error})` : ` (exit ${r.code})`}`}  ${r.seconds.toFixed(1)} s`);
  }
}

const all = [];
const startedAt = performance.now();

// Stage 1: the static checks, side by side, each printed as one block when it ends.
const statics = await Promise.all([
  run('type check (tsc)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { capture: true }),
  run('OpenAPI documents (redocly lint)', bin('redocly'), ['lint', '--config', 'spec/redocly.yaml'], { capture: true }),
  run('format and lint (biome ci)', bin('biome'), ['ci', '--reporter=summary', '.'], { capture: true }),
  run('unused code (knip)', bin('knip'), ['--no-progress'], { capture: true }),
]);
for (const r of statics) {
  // A passing check's chatter (redocly's banners) is left out; a failing one is shown whole.
  if (!r.ok) console.log(`\n━━ ${r.label} ━━\n${r.output}`);
}
all.push(...statics);
if (statics.some((r) => !r.ok)) {
  report(all);
  process.exit(1);
}

// Stage 2: the unit tests, then the self-test, each on the terminal as it goes.
const unit = await run('unit tests', process.execPath, [join(ROOT, 'scripts', 'run-unit-tests.mjs')]);
const selftest = await run('self-test', process.execPath, ['--import', 'tsx', join(ROOT, 'proof', 'selftest.ts')]);
all.push(unit, selftest);
report(all);
console.log(`npm test: ${all.every((r) => r.ok) ? 'passed' : 'FAILED'} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
process.exit(all.every((r) => r.ok) ? 0 : 1);
