/**
 * npm run bench:suite: times the full conformance run (api + browser projects, two
 * workers) against the embedded simulator, three runs, and prints the median next to
 * the sum of time spent inside HTTP requests (measured by the checked client of
 * scenarios/fixtures.ts). Goal (issue 4): the whole suite, browser included, in at most
 * 60 s on the 2-core reference machine. A figure, never a timed test.
 *
 *   npm run bench:suite [-- --runs 3]
 *
 * Writes reports/out/bench-suite.json.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { runSuite } from '../proof/run-suite.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, grep: { type: 'string' } } });
const runs = Math.max(1, Number(values.runs));
const out = 'reports/out/bench-suite';
rmSync(out, { recursive: true, force: true });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

interface Timing { requests: number; httpMs: number; testMs: number; project: string }
const rows: Array<{ wallMs: number; httpMs: number; testMs: number; requests: number; tests: number; failed: number; load1: number }> = [];
for (let i = 1; i <= runs; i++) {
  const dir = join(out, `run-${i}`);
  mkdirSync(dir, { recursive: true });
  const load1 = loadavg()[0];
  const r = await runSuite({ workers: 2, projects: ['api', 'browser'], timingDir: dir, grep: values.grep, timeoutMs: 300_000 });
  if (r.error) {
    console.error(`run ${i}: ${r.error}`);
    process.exit(1);
  }
  const timings: Timing[] = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Timing));
  const row = {
    wallMs: r.durationMs,
    httpMs: timings.reduce((a, t) => a + t.httpMs, 0),
    testMs: timings.reduce((a, t) => a + t.testMs, 0),
    requests: timings.reduce((a, t) => a + t.requests, 0),
    tests: r.tests.length,
    failed: r.failed.length,
    load1,
  };
  rows.push(row);
  console.log(`run ${i}: wall ${(row.wallMs / 1000).toFixed(1)} s, ${row.tests} tests (${row.failed} failed), ${row.requests} requests, ${(row.httpMs / 1000).toFixed(1)} s inside HTTP requests (load average ${load1.toFixed(1)})`);
}

const wall = median(rows.map((r) => r.wallMs));
const http = median(rows.map((r) => r.httpMs));
const summary = {
  runs: rows,
  medianWallMs: Math.round(wall),
  medianHttpMs: Math.round(http),
  httpShareOfWall: http / 2 / wall, // two workers: HTTP time per worker against wall time
  goalMs: 60_000,
  withinGoal: wall <= 60_000,
};
mkdirSync('reports/out', { recursive: true });
writeFileSync('reports/out/bench-suite.json', JSON.stringify(summary, null, 2));
console.log(`\nmedian of ${runs}: wall ${(wall / 1000).toFixed(1)} s (goal ≤ 60 s: ${summary.withinGoal ? 'met' : 'NOT met'}); ` +
  `inside HTTP requests ${(http / 1000).toFixed(1)} s summed over 2 workers (${(summary.httpShareOfWall * 100).toFixed(0)}% of each worker's wall time)`);
