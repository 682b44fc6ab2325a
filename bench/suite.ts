/**
 * npm run bench:suite: times a conformance run of the api project against the embedded
 * simulator (two workers, three runs) and prints, per run and as medians:
 *   - the wall time;
 *   - the time spent inside contract checks (contract.check and checkWebhook, summed in
 *     every Playwright worker) and its share of the run: that sum over the workers' time
 *     (workers x wall). Goal: under 3%;
 *   - the time spent inside HTTP requests (measured by the checked client of
 *     scenarios/fixtures.ts), for scale.
 * A figure, never a timed test.
 *
 *   npm run bench:suite [-- --runs 3] [--workers 2] [--project api --project browser] [--grep @members]
 *
 * How the check time leaves the workers: contracts/contract.ts adds its time to a sink it
 * finds under a global symbol (CHECK_TIMING_SINK) when one is there. This script puts one in
 * every process of the run with `node --import` (NODE_OPTIONS, a data: module written below)
 * and that module writes the sum to a file per worker when the worker exits. The
 * directory travels inside the module's text: no environment variable of ours is read.
 *
 * Writes reports/out/bench-suite.json.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { CHECK_TIMING_SINK } from '../contracts/index.ts';
import { runSuite } from '../proof/run-suite.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    project: { type: 'string', multiple: true },
    grep: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));
const workers = Math.max(1, Number(values.workers));
const projects = (values.project as string[] | undefined) ?? ['api'];
const out = resolve('reports/out/bench-suite');
rmSync(out, { recursive: true, force: true });
const CHECK_SHARE_GOAL = 0.03;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The module every process of the run imports first: a sink under CHECK_TIMING_SINK and,
 * in a Playwright worker (TEST_WORKER_INDEX set by Playwright), its sum written at exit.
 */
function checkTimingPreload(dir: string): string {
  const key = Symbol.keyFor(CHECK_TIMING_SINK);
  if (!key) throw new Error('CHECK_TIMING_SINK must be a registered symbol (Symbol.for)');
  const code = [
    "import { mkdirSync, writeFileSync } from 'node:fs';",
    'const sink = { calls: 0, ms: 0 };',
    `globalThis[Symbol.for(${JSON.stringify(key)})] = sink;`,
    "process.on('exit', () => {",
    '  if (process.env.TEST_WORKER_INDEX === undefined || sink.calls === 0) return;',
    `  mkdirSync(${JSON.stringify(dir)}, { recursive: true });`,
    `  writeFileSync(${JSON.stringify(dir)} + '/' + process.pid + '.json', JSON.stringify(sink));`,
    '});',
  ].join('\n');
  return `--import=data:text/javascript,${encodeURIComponent(code)}`;
}

interface HttpTiming {
  requests: number;
  httpMs: number;
  testMs: number;
  project: string;
}
interface CheckTiming {
  calls: number;
  ms: number;
}
interface Row {
  wallMs: number;
  checkMs: number;
  checks: number;
  workerFiles: number;
  checkShare: number;
  httpMs: number;
  requests: number;
  tests: number;
  failed: number;
  load1: number;
}

const readJsonLines = <T>(dir: string): T[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as T),
      )
    : [];

const rows: Row[] = [];
for (let i = 1; i <= runs; i++) {
  const httpDir = join(out, `run-${i}`, 'http');
  const checkDir = join(out, `run-${i}`, 'checks');
  mkdirSync(httpDir, { recursive: true });
  const load1 = loadavg()[0];
  const nodeOptions = [process.env.NODE_OPTIONS, checkTimingPreload(checkDir)].filter(Boolean).join(' ');
  const r = await runSuite({ workers, projects, timingDir: httpDir, grep: values.grep, timeoutMs: 300_000, env: { NODE_OPTIONS: nodeOptions } });
  if (r.error) {
    console.error(`run ${i}: ${r.error}`);
    process.exit(1);
  }
  const http = readJsonLines<HttpTiming>(httpDir);
  const checks = readJsonLines<CheckTiming>(checkDir);
  if (checks.length === 0) {
    console.error(`run ${i}: no worker wrote its contract check time to ${checkDir}`);
    process.exit(1);
  }
  const checkMs = checks.reduce((a, t) => a + t.ms, 0);
  const row: Row = {
    wallMs: r.durationMs,
    checkMs,
    checks: checks.reduce((a, t) => a + t.calls, 0),
    workerFiles: checks.length,
    checkShare: checkMs / (workers * r.durationMs),
    httpMs: http.reduce((a, t) => a + t.httpMs, 0),
    requests: http.reduce((a, t) => a + t.requests, 0),
    tests: r.tests.length,
    failed: r.failed.length,
    load1,
  };
  rows.push(row);
  console.log(
    `run ${i}: wall ${(row.wallMs / 1000).toFixed(1)} s, ${row.tests} tests (${row.failed} failed); ` +
      `contract checks ${(row.checkMs / 1000).toFixed(2)} s over ${row.checks} calls in ${row.workerFiles} worker processes ` +
      `(${(row.checkShare * 100).toFixed(2)}% of ${workers} x wall); ${row.requests} requests, ${(row.httpMs / 1000).toFixed(1)} s inside HTTP requests ` +
      `(load average ${load1.toFixed(1)})`,
  );
}

const wall = median(rows.map((r) => r.wallMs));
const checkMs = median(rows.map((r) => r.checkMs));
const share = median(rows.map((r) => r.checkShare));
const http = median(rows.map((r) => r.httpMs));
const summary = {
  projects,
  workers,
  runs: rows,
  medianWallMs: Math.round(wall),
  medianCheckMs: Math.round(checkMs),
  /** Time inside contract checks over the workers' time (workers x wall): goal < 3%. */
  medianCheckShare: share,
  checkShareGoal: CHECK_SHARE_GOAL,
  checkShareWithinGoal: share < CHECK_SHARE_GOAL,
  medianHttpMs: Math.round(http),
  httpShareOfWall: http / workers / wall,
};
mkdirSync('reports/out', { recursive: true });
writeFileSync('reports/out/bench-suite.json', JSON.stringify(summary, null, 2));
console.log(
  `\n${projects.join(' + ')} project${projects.length > 1 ? 's' : ''}, ${workers} workers, median of ${runs}: wall ${(wall / 1000).toFixed(1)} s; ` +
    `inside contract checks ${(checkMs / 1000).toFixed(2)} s summed over the workers = ${(share * 100).toFixed(2)}% of the run ` +
    `(goal < ${CHECK_SHARE_GOAL * 100}%: ${summary.checkShareWithinGoal ? 'met' : 'NOT met'}); ` +
    `inside HTTP requests ${(http / 1000).toFixed(1)} s (${(summary.httpShareOfWall * 100).toFixed(0)}% of each worker's wall time)`,
);
