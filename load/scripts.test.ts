/**
 * Smoke runs of every load script against the in-process simulator through the
 * k6-compatible runner (short phases: PHASE_SECONDS=2, the low simulator limit of
 * `npm run load`), and the proof that each script fails on the simulator faults it exists
 * to catch (named in targets/simulator/catalog.ts) while passing the catalogue's variations.
 *
 * Robust on a loaded 2-core machine: exceeding the 10/s limit needs 15/s achieved out of
 * the 30/s asked (measured: a machine at load 21 still gave 24/s); rate-limit runs go one at a time (they compete for CPU otherwise); the
 * page-read latency thresholds, target settings proven by the runner's threshold tests,
 * are set far above what a starved machine shows, since what these tests prove is paging.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTarget, VARIATIONS } from '../targets/index.ts';
import { runScript } from './runner/engine.ts';
import { EMBEDDED_RATE_LIMIT_PER_SECOND, simulatorEnv } from './run.ts';
import { summaryPath } from './lib/report.ts';

const LIMIT = EMBEDDED_RATE_LIMIT_PER_SECOND;
const reports = mkdtempSync(join(tmpdir(), 'load-scripts-test-'));

async function runAgainstSimulator(script: string, opts: { faults?: string[]; variations?: string[]; env?: Record<string, string> } = {}) {
  // Only the limit is set: every other setting is the simulator's default, as is the profile's.
  const target = await startTarget({ env: { SVC_RATE_LIMIT_PER_SECOND: String(LIMIT) }, faults: opts.faults, variations: opts.variations, simulator: true });
  const base = target.url;
  let out = '';
  let err = '';
  try {
    // The script expects the limit the simulator enforces: set last, so no option overrides it.
    const env = { ...simulatorEnv(base, { SVC_RATE_LIMIT_PER_SECOND: String(LIMIT) }), PROFILE: 'smoke', PHASE_SECONDS: '2', SVC_PAGE_P95_MS: '10000', SVC_PAGE_P99_MS: '20000', LOAD_REPORT_DIR: reports, ...opts.env, SVC_RATE_LIMIT_PER_SECOND: String(LIMIT) };
    const r = await runScript(script, { env, stdout: (t) => (out += t), stderr: (t) => (err += t) });
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

test('rate-limit.ts passes against the simulator and reports the observed limit', async () => {
  const r = await runAgainstSimulator('load/rate-limit.ts');
  assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
  assert.match(r.out, /█ THRESHOLDS/);
  assert.match(r.out, /✓ 'count>0'/);
  const report = JSON.parse(readFileSync(join(reports, 'rate-limit.summary.json'), 'utf8'));
  assert.equal(report.setup_data, undefined, 'setup data (tokens) never lands in a report');
  assert.ok(report.observedRateLimitPerSecond > 0, 'an observed limit is reported');
  assert.ok(report.metrics.observed_rate_limit_per_second.values.value > 0);
});

test('rate-limit.ts fails on no-rate-limit and on rate-limit-500', async () => {
  const none = await runAgainstSimulator('load/rate-limit.ts', { faults: ['no-rate-limit'] });
  const fiveHundred = await runAgainstSimulator('load/rate-limit.ts', { faults: ['rate-limit-500'] });
  assert.equal(none.exitCode, 99);
  assert.ok(none.failed.includes('rate_limited_above_limit'), none.failed.join(', '));
  assert.equal(fiveHundred.exitCode, 99);
  assert.ok(fiveHundred.failed.includes('server_errors'), `${fiveHundred.failed.join(', ')} (${fiveHundred.offered})`);
  assert.ok(fiveHundred.failed.includes('rate_limited_above_limit'), fiveHundred.failed.join(', '));
});

test('paging.ts passes against the simulator', async () => {
  const r = await runAgainstSimulator('load/paging.ts');
  assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
  assert.ok(r.summary!.metrics.page_walks_completed.values.count >= 4, 'every VU walked both lists');
});

test('paging.ts fails on each paging fault, on the threshold that names it', async () => {
  const cases: Array<[string, string]> = [
    ['page-of-1001-records', 'records_over_max'],
    ['page-walk-repeats-records', 'walk_records_repeated'],
    ['page-walk-skips-records', 'walk_records_missing'],
    ['records-per-page-ignored', 'page_size_not_honoured'],
  ];
  const results = await Promise.all(cases.map(([fault]) => runAgainstSimulator('load/paging.ts', { faults: [fault] })));
  results.forEach((r, i) => {
    assert.equal(r.exitCode, 99, `${cases[i][0]}: expected thresholds to fail`);
    assert.ok(r.failed.includes(cases[i][1]), `${cases[i][0]}: failed ${r.failed.join(', ')}`);
  });
});

test('both scripts pass against every variation of the catalogue at once', async () => {
  const variations = VARIATIONS().map((v) => v.name);
  assert.ok(variations.length > 0);
  for (const script of ['load/paging.ts', 'load/rate-limit.ts']) {
    const r = await runAgainstSimulator(script, { variations });
    assert.equal(r.exitCode, 0, `${script} with variations: ${r.failed.join(', ')} (${r.offered})\n${r.err}`);
  }
});

test('paging.ts skips its data-exchange walk, with a message, when the target has no grant configured', async () => {
  const r = await runAgainstSimulator('load/paging.ts', { env: { SVC_3DX_GRANTEE_GUID: '', SVC_3DX_GRANT_GUID: '' } });
  assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
  assert.match(r.out + r.err, /walk_data_exchange skipped: SVC_3DX_GRANTEE_GUID and SVC_3DX_GRANT_GUID are not set/);
  assert.doesNotMatch(r.out, /data_exchange_transactions/, 'no data-exchange check ran');
  assert.ok(r.summary!.metrics.page_walks_completed.values.count >= 2, 'every VU still walked /institutions');
});

test('the JSON summary goes where k6 can write it: the working directory unless LOAD_REPORT_DIR names one', () => {
  // k6 does not create missing directories for handleSummary paths (load/lib/report.ts).
  assert.equal(summaryPath('paging', {}), 'paging.summary.json');
  assert.equal(summaryPath('paging', { LOAD_REPORT_DIR: '' }), 'paging.summary.json');
  assert.equal(summaryPath('rate-limit', { LOAD_REPORT_DIR: '/tmp/x/' }), '/tmp/x/rate-limit.summary.json');
});

test('rate-limit.ts judges a 429 body only when SVC_429_BODY states a rule', async () => {
  const r = await runAgainstSimulator('load/rate-limit.ts', { env: { SVC_429_BODY: 'json-error' } });
  assert.equal(r.exitCode, 0, `${r.failed.join(', ')} (${r.offered})\n${r.out}\n${r.err}`);
  assert.match(r.out, /429 body is the JSON error with a message \(SVC_429_BODY\)/);
  const report = JSON.parse(readFileSync(join(reports, 'rate-limit.summary.json'), 'utf8'));
  assert.equal(report.rateLimitBodyRule, 'json-error');
});
