/**
 * Smoke runs of every load script against the in-process simulator through the
 * k6-compatible runner (short phases: PHASE_SECONDS=2, the low simulator limit of
 * `npm run load`), and the proof that each script fails on the simulator faults it exists
 * to catch (named in targets/simulator/catalog.ts) while passing the catalogue's variations.
 *
 * Robust on a loaded 2-core machine: the smoke profile asks three times the 10/s limit, so
 * the limit is exceeded (Limits: 429 only "when the rate limit is exceeded") even when a
 * starved machine achieves half of what is asked; rate-limit runs go one at a time (they
 * compete for CPU otherwise); the
 * page-read latency thresholds, target settings proven by the runner's threshold tests,
 * are set far above what a starved machine shows, since what these tests prove is paging.
 *
 * What the self-test's load column proves is not run again here (to keep `npm test` fast;
 * proof/adapters.ts `load`, `npm run selftest`): both scripts pass clean (the column's
 * clean baseline, default settings, no SVC_429_BODY); both pass with every variation of
 * the catalogue in force at once (entry all-variations); rate-limit.ts fails on
 * no-rate-limit and rate-limit-500 on the thresholds rate_limited_above_limit and
 * server_errors (their entries; trace row err.429 names those thresholds and the
 * self-test's trace-proof check confirms them). What stays: the report's content, the
 * SVC_429_BODY rule, paging's walks, which paging threshold names each paging fault
 * (the column only says the script caught it), and the data-exchange skip.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIMULATOR_DEFAULTS, startTarget } from '../targets/index.ts';
import { runScript } from './runner/engine.ts';
import { EMBEDDED_RATE_LIMIT_PER_SECOND, missingSummary, simulatorEnv } from './run.ts';
import { summaryOutputs, summaryPath } from './script-support/report.ts';
import type { SummaryData } from './script-support/summary.ts';

const LIMIT = EMBEDDED_RATE_LIMIT_PER_SECOND;
/**
 * The limit of the paging runs that prove what is not about the limit (which threshold
 * names a paging fault, the data-exchange skip): the simulator's default. At 10/s a walk
 * spends most of its time backing off 429s; the walk under the low
 * limit, backoff included, is the clean paging run here and every paging run of the
 * self-test's load column (limit 20).
 */
const UNHURRIED_LIMIT = SIMULATOR_DEFAULTS.rateLimitPerSecond;
const reports = mkdtempSync(join(tmpdir(), 'load-scripts-test-'));
after(() => rmSync(reports, { recursive: true, force: true }));

async function runAgainstSimulator(
  script: string,
  opts: { faults?: string[]; variations?: string[]; env?: Record<string, string>; limit?: number; cwd?: string } = {},
) {
  const LIMIT_OF_RUN = opts.limit ?? LIMIT;
  // Only the limit is set: every other setting is the simulator's default, as is the profile's.
  const target = await startTarget({
    env: { SVC_RATE_LIMIT_PER_SECOND: String(LIMIT_OF_RUN) },
    faults: opts.faults,
    variations: opts.variations,
    simulator: true,
  });
  const base = target.url;
  let out = '';
  let err = '';
  try {
    // The script expects the limit the simulator enforces: set last, so no option overrides it.
    const env = {
      ...simulatorEnv(base, { SVC_RATE_LIMIT_PER_SECOND: String(LIMIT_OF_RUN) }),
      PROFILE: 'smoke',
      PHASE_SECONDS: '2',
      SVC_PAGE_P95_MS: '10000',
      SVC_PAGE_P99_MS: '20000',
      LOAD_REPORT_DIR: reports,
      ...opts.env,
      SVC_RATE_LIMIT_PER_SECOND: String(LIMIT_OF_RUN),
    };
    const r = await runScript(script, { env, stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: opts.cwd });
    const failed = Object.entries(r.summary?.metrics ?? {})
      .filter(([, m]) => m.thresholds && Object.values(m.thresholds).some((t) => !t.ok))
      .map(([name]) => name);
    const m = r.summary?.metrics;
    // How much load the runner actually offered: a starved machine shows here first.
    const offered = `http_reqs=${m?.http_reqs?.values.count ?? 0} dropped_iterations=${m?.dropped_iterations?.values.count ?? 0}`;
    return { ...r, out, err, failed, offered };
  } finally {
    await target.close();
  }
}

// One rate-limit run (they go one at a time: see the header), with a 429 body rule stated:
// the report's content holds whatever the rule, and the rule's own check shows in the output.
test('rate-limit.ts passes against the simulator, reports the observed limit and judges a 429 body when SVC_429_BODY states a rule', async () => {
  const r = await runAgainstSimulator('load/rate-limit.ts', { env: { SVC_429_BODY: 'json-error' } });
  assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
  assert.match(r.out, /█ THRESHOLDS/);
  assert.match(r.out, /✓ 'count>0'/);
  assert.match(r.out, /429 body is the JSON error with a message \(SVC_429_BODY\)/);
  const report = JSON.parse(readFileSync(join(reports, 'rate-limit.summary.json'), 'utf8'));
  assert.equal(report.setup_data, undefined, 'setup data (tokens) never lands in a report');
  assert.ok(report.observedRateLimitPerSecond > 0, 'an observed limit is reported');
  assert.ok(report.metrics.observed_rate_limit_per_second.values.value > 0);
  assert.equal(report.rateLimitBodyRule, 'json-error');
});

// The paging runs go at once (each with its own simulator): they share only the reports
// folder, whose paging.summary.json no test reads back (each reads the summary runScript
// returns), and much of a run is waiting out the limit's 429s.
describe('paging.ts against the simulator', { concurrency: true }, () => {
  test('paging.ts passes against the simulator; without LOAD_REPORT_DIR its JSON summary goes under reports/out/load, not into the working directory', async (t) => {
    // The working directory of a plain `k6 run load/paging.ts` typed at the repository root.
    const cwd = mkdtempSync(join(tmpdir(), 'load-plain-run-'));
    t.after(() => rmSync(cwd, { recursive: true, force: true }));
    const r = await runAgainstSimulator('load/paging.ts', { env: { LOAD_REPORT_DIR: '' }, cwd });
    assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
    assert.ok(r.summary!.metrics.page_walks_completed.values.count >= 4, 'every VU walked both lists');
    assert.deepEqual(readdirSync(cwd), ['reports'], 'nothing but the reports folder in the working directory');
    assert.equal(JSON.parse(readFileSync(join(cwd, 'reports/out/load/paging.summary.json'), 'utf8')).script, 'paging');
    assert.match(r.out, /JSON summary: reports\/out\/load\/paging\.summary\.json \(LOAD_REPORT_DIR unset/);
  });

  test('paging.ts fails on each paging fault, on the threshold that names it', async () => {
    const cases: Array<[string, string]> = [
      ['page-of-1001-records', 'records_over_max'],
      ['page-walk-repeats-records', 'walk_records_repeated'],
      ['page-walk-skips-records', 'walk_records_missing'],
      ['records-per-page-ignored', 'page_size_not_honoured'],
    ];
    const results = await Promise.all(cases.map(([fault]) => runAgainstSimulator('load/paging.ts', { faults: [fault], limit: UNHURRIED_LIMIT })));
    results.forEach((r, i) => {
      assert.equal(r.exitCode, 99, `${cases[i][0]}: expected thresholds to fail`);
      assert.ok(r.failed.includes(cases[i][1]), `${cases[i][0]}: failed ${r.failed.join(', ')}`);
    });
  });

  test('paging.ts skips its data-exchange walk, with a message, when the target has no grant configured', async () => {
    const r = await runAgainstSimulator('load/paging.ts', { env: { SVC_3DX_GRANTEE_GUID: '', SVC_3DX_GRANT_GUID: '' }, limit: UNHURRIED_LIMIT });
    assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
    assert.match(r.out + r.err, /walk_data_exchange skipped: SVC_3DX_GRANTEE_GUID and SVC_3DX_GRANT_GUID are not set/);
    assert.doesNotMatch(r.out, /data_exchange_transactions/, 'no data-exchange check ran');
    assert.ok(r.summary!.metrics.page_walks_completed.values.count >= 2, 'every VU still walked /institutions');
  });
});

test('the JSON summary goes under LOAD_REPORT_DIR, else reports/out/load, never into the working directory; the text summary names it', () => {
  assert.equal(summaryPath('paging', {}), 'reports/out/load/paging.summary.json');
  assert.equal(summaryPath('paging', { LOAD_REPORT_DIR: '' }), 'reports/out/load/paging.summary.json');
  assert.equal(summaryPath('rate-limit', { LOAD_REPORT_DIR: '/tmp/x/' }), '/tmp/x/rate-limit.summary.json');
  const data: SummaryData = {
    root_group: { name: '', path: '', id: '', groups: [], checks: [] },
    options: { summaryTrendStats: ['avg'], summaryTimeUnit: '', noColor: true },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1000 },
    metrics: {},
    setup_data: { token: 'a token from setup()' },
  };
  const plain = summaryOutputs('paging', data, {}, {}, {});
  assert.deepEqual(Object.keys(plain), ['stdout', 'reports/out/load/paging.summary.json']);
  assert.match(plain.stdout, /JSON summary: reports\/out\/load\/paging\.summary\.json \(LOAD_REPORT_DIR unset: .*mkdir -p reports\/out\/load/);
  assert.doesNotMatch(plain['reports/out/load/paging.summary.json'], /a token from setup/);
  const named = summaryOutputs('paging', data, {}, {}, { LOAD_REPORT_DIR: '/tmp/x' });
  assert.match(named.stdout, /JSON summary: \/tmp\/x\/paging\.summary\.json\n$/);
});

test('npm run load fails a project script that left no fresh JSON summary, naming the file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'load-missing-summary-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const started = Date.now();
  assert.match(missingSummary('load/paging.ts', dir, started) ?? '', /load\/paging\.ts wrote no JSON summary: .*paging\.summary\.json is missing/);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'paging.summary.json'), '{}');
  assert.equal(missingSummary('load/paging.ts', dir, started), undefined);
  const hourAgo = new Date(started - 3_600_000);
  utimesSync(join(dir, 'paging.summary.json'), hourAgo, hourAgo);
  assert.match(missingSummary('load/paging.ts', dir, started) ?? '', /is from an earlier run/);
  assert.equal(missingSummary('my-own-script.ts', dir, started), undefined, "a user's own script may write no summary");
});
