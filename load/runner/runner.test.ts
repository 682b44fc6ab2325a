/**
 * The k6-compatible runner: threshold parsing and evaluation per aggregation, refusal
 * of what it does not implement (k6 modules, options, executors), k6's exit codes and
 * verdict lines, and the accuracy of its arrival-rate executor against a local server.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseThresholdExpression, parseThresholdKey, checkAggregationAllowed, evaluateExpression } from './thresholds.ts';
import { MetricStore, aggregationValue } from './metrics.ts';
import { parseDurationMs } from './duration.ts';
import { arrivalTimeMs, arrivalsDue, normaliseOptions, rampingVusAt } from './options.ts';
import { runScript } from './engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-runner-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function script(name: string, code: string): string {
  const file = join(dir, name);
  writeFileSync(file, code);
  return file;
}
async function quietRun(file: string, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const r = await runScript(file, { env: { ...env, LOAD_REPORT_DIR: dir }, stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir });
  return { ...r, out, err };
}

test('durations parse as k6 writes them', () => {
  assert.equal(parseDurationMs('1m30s', 'x'), 90_000);
  assert.equal(parseDurationMs('500ms', 'x'), 500);
  assert.equal(parseDurationMs('1.5s', 'x'), 1500);
  assert.throws(() => parseDurationMs('10 parsecs', 'x'), /not a duration/);
});

test('threshold keys and expressions parse; bad ones are refused', () => {
  assert.deepEqual(parseThresholdKey('http_req_duration{scenario:walk,status:200}'), {
    source: 'http_req_duration{scenario:walk,status:200}',
    metric: 'http_req_duration',
    tags: { scenario: 'walk', status: '200' },
  });
  const e = parseThresholdExpression({ threshold: 'p(99.9) <= 250', abortOnFail: true, delayAbortEval: '10s' }, 'm');
  assert.equal(e.aggregation, 'p(99.9)');
  assert.equal(e.percentile, 99.9);
  assert.equal(e.operator, '<=');
  assert.equal(e.value, 250);
  assert.equal(e.abortOnFail, true);
  assert.equal(e.delayAbortEvalMs, 10_000);
  assert.throws(() => parseThresholdExpression('p95<200', 'm'), /cannot parse/);
  assert.throws(() => parseThresholdExpression('avg ~ 3', 'm'), /cannot parse/);
  assert.throws(() => parseThresholdExpression({ threshold: 'avg<1', extra: 1 }, 'm'), /unsupported field/);
  assert.throws(() => checkAggregationAllowed(parseThresholdExpression('p(95)<1', 'c'), 'counter', 'c'), /not an aggregation of a counter/);
  assert.throws(() => checkAggregationAllowed(parseThresholdExpression('count<1', 'r'), 'rate', 'r'), /not an aggregation of a rate/);
});

test('every aggregation evaluates as k6 computes it', () => {
  const store = new MetricStore();
  store.define({ name: 't', type: 'trend', contains: 'time' });
  store.define({ name: 'c', type: 'counter', contains: 'default' });
  store.define({ name: 'r', type: 'rate', contains: 'default' });
  store.define({ name: 'g', type: 'gauge', contains: 'default' });
  for (let i = 1; i <= 100; i++) store.addTagged('t', i, { list: i <= 50 ? 'a' : 'b' });
  for (let i = 0; i < 7; i++) store.addTagged('c', 2, {});
  for (let i = 0; i < 10; i++) store.addTagged('r', i < 9 ? 1 : 0, {});
  store.addTagged('g', 5, {});
  store.addTagged('g', 3, {});
  const durationMs = 2000;
  const value = (metric: string, expr: string, tags = {}) => {
    const x = parseThresholdExpression(expr, metric);
    const a = store.aggregate(metric, tags);
    return evaluateExpression(x, (agg, pct) => aggregationValue(a, agg, durationMs, pct));
  };
  assert.equal(value('t', 'avg==50.5').ok, true);
  assert.equal(value('t', 'med==50.5').ok, true);
  assert.equal(value('t', 'min==1').ok, true);
  assert.equal(value('t', 'max==100').ok, true);
  // k6's trend sink interpolates between closest ranks: p(95) of 1..100 is 95.05.
  assert.ok(Math.abs(value('t', 'p(95)<1000').actual - 95.05) < 1e-9);
  assert.equal(value('t', 'p(95)<95').ok, false);
  assert.equal(value('t', 'max<=50', { list: 'a' }).ok, true);
  assert.equal(value('t', 'min>50', { list: 'b' }).ok, true);
  assert.equal(value('c', 'count==14').ok, true);
  assert.equal(value('c', 'rate==7').ok, true);
  assert.equal(value('r', 'rate>0.89').ok, true);
  assert.equal(value('r', 'rate>0.9').ok, false);
  assert.equal(value('g', 'value==3').ok, true);
  // No samples: counts and rates are 0, as in k6.
  store.define({ name: 'empty', type: 'counter', contains: 'default' });
  assert.equal(value('empty', 'count>0').ok, false);
});

test('arrival schedules: constant and ramping integrate the asked rate', () => {
  const [constant] = normaliseOptions({ scenarios: { a: { executor: 'constant-arrival-rate', rate: 200, duration: '3s', preAllocatedVUs: 1 } } }, [
    'default',
  ]).scenarios;
  assert.equal(arrivalsDue(constant, 3000), 600);
  assert.equal(arrivalsDue(constant, 1500), 300);
  const [ramp] = normaliseOptions(
    {
      scenarios: {
        a: {
          executor: 'ramping-arrival-rate',
          startRate: 0,
          stages: [
            { target: 100, duration: '2s' },
            { target: 100, duration: '1s' },
          ],
          preAllocatedVUs: 1,
        },
      },
    },
    ['default'],
  ).scenarios;
  assert.equal(arrivalsDue(ramp, 2000), 100);
  assert.equal(arrivalsDue(ramp, 3000), 200);
});

test('arrival times are the inverse of the schedule: VUs start arrival i exactly when it is due', () => {
  const [constant] = normaliseOptions({ scenarios: { a: { executor: 'constant-arrival-rate', rate: 200, duration: '3s', preAllocatedVUs: 1 } } }, [
    'default',
  ]).scenarios;
  assert.equal(arrivalTimeMs(constant, 0), 0);
  assert.equal(arrivalTimeMs(constant, 1), 5);
  assert.equal(arrivalTimeMs(constant, 599), 2995);
  assert.equal(arrivalTimeMs(constant, 600), Infinity, 'no arrival past the duration');
  const [ramp] = normaliseOptions(
    {
      scenarios: {
        a: {
          executor: 'ramping-arrival-rate',
          startRate: 0,
          stages: [
            { target: 100, duration: '2s' },
            { target: 100, duration: '1s' },
          ],
          preAllocatedVUs: 1,
        },
      },
    },
    ['default'],
  ).scenarios;
  const times: number[] = [];
  for (let i = 0; arrivalTimeMs(ramp, i) !== Infinity; i++) times.push(arrivalTimeMs(ramp, i));
  assert.equal(times.length, 200);
  // Arrival i (0-based) is due once the integral of the rate passes i: for a 0 -> 100/s ramp
  // over 2 s that is t = sqrt(i / 25) s; after the ramp, one every 10 ms.
  for (const i of [1, 25, 99]) assert.ok(Math.abs(times[i] - Math.sqrt(i / 25) * 1000) < 0.01, `arrival ${i} at ${times[i]} ms`);
  assert.ok(Math.abs(times[150] - 2500) < 0.01);
  for (let i = 1; i < times.length; i++) assert.ok(times[i] > times[i - 1], 'arrivals are strictly ordered');
  for (const t of [0, 500, 1000, 2000, 2500, 3000]) assert.equal(times.filter((x) => x < t).length, arrivalsDue(ramp, t), `arrivals before ${t} ms`);
});

test('options the runner does not implement are refused, not ignored', () => {
  const refuse = (o: unknown, re: RegExp) => assert.throws(() => normaliseOptions(o, ['default']), re);
  refuse({ rps: 10 }, /"rps" not implemented by the k6-compatible runner/);
  refuse({ scenarios: { a: { executor: 'externally-controlled', maxVUs: 2 } } }, /executor "externally-controlled" is not implemented.*constant-arrival-rate/);
  refuse({ scenarios: { a: { executor: 'constant-vus', vus: 1, duration: '1s', startVUs: 2 } } }, /"startVUs" not implemented/);
  refuse({ scenarios: { a: { executor: 'ramping-vus', stages: [], gracefulRampDown: '1s' } } }, /"gracefulRampDown" not implemented/);
  refuse({ scenarios: { a: { executor: 'per-vu-iterations', exec: 'nope' } } }, /exec "nope" is not a function/);
  refuse({ cloud: {} }, /"cloud" not implemented/);
});

test('the vus/duration/iterations/stages shortcuts make the scenario k6 makes of them', () => {
  const only = (o: unknown) => normaliseOptions(o, ['default']).scenarios[0];
  assert.deepEqual(
    [only({ vus: 3, duration: '2s' })].map((p) => [p.executor, p.vus, p.durationMs]),
    [['constant-vus', 3, 2000]],
  );
  assert.deepEqual(
    [only({ vus: 2, iterations: 5, duration: '2s' })].map((p) => [p.executor, p.vus, p.iterations, p.maxDurationMs]),
    [['shared-iterations', 2, 5, 2000]],
  );
  assert.deepEqual(
    [only({})].map((p) => [p.executor, p.vus, p.iterations]),
    [['shared-iterations', 1, 1]],
  );
  const ramp = only({
    vus: 1,
    stages: [
      { target: 4, duration: '2s' },
      { target: 4, duration: '1s' },
      { target: 0, duration: '1s' },
    ],
  });
  assert.equal(ramp.executor, 'ramping-vus');
  assert.equal(ramp.vus, 4, 'ramping-vus starts the most VUs its stages ask for');
  assert.equal(ramp.durationMs, 4000);
});

test('ramping-vus: the active VUs step as k6 steps them (one VU per d / |target - from|)', () => {
  const [plan] = normaliseOptions(
    {
      scenarios: {
        r: {
          executor: 'ramping-vus',
          startVUs: 0,
          stages: [
            { target: 4, duration: '2s' },
            { target: 4, duration: '1s' },
            { target: 2, duration: '1s' },
          ],
        },
      },
    },
    ['default'],
  ).scenarios;
  const at = (ms: number) => rampingVusAt(plan, ms);
  assert.deepEqual([at(0), at(499), at(500), at(1000), at(1999), at(2000), at(2999)], [0, 0, 1, 2, 3, 4, 4]);
  // 4 -> 2 over 1 s: one VU less at 3.5 s, another at 4 s.
  assert.deepEqual([at(3499), at(3500), at(3999)], [4, 3, 3]);
});

test('unsupported k6 modules, exports and remote imports are refused before any request', async () => {
  const ws = await quietRun(script('ws.ts', "import ws from 'k6/ws';\nexport default function () { ws; }\n"));
  assert.equal(ws.exitCode, 107);
  assert.match(ws.err, /the k6 module "k6\/ws" is not implemented by the k6-compatible runner/);
  const jar = await quietRun(script('jar.ts', "import { cookieJar } from 'k6/http';\nexport default function () { cookieJar(); }\n"));
  assert.equal(jar.exitCode, 107);
  assert.match(jar.err, /"cookieJar" from "k6\/http" is not implemented/);
  // A member of a default import is refused when the script reads it, with the same message.
  const member = await quietRun(script('member.ts', "import http from 'k6/http';\nexport default function () { http.patch('http://127.0.0.1:9/'); }\n"));
  assert.match(member.err, /http\.patch is not implemented by the k6-compatible runner/);
  assert.equal(member.summary!.metrics.http_reqs, undefined, 'no request was sent');
  const remote = await quietRun(
    script('remote.ts', "import { textSummary } from 'https://jslib.k6.io/k6-summary/0.0.2/index.js';\nexport default function () { textSummary; }\n"),
  );
  assert.equal(remote.exitCode, 107);
  assert.match(remote.err, /remote module .* is not supported/);
  // An error in the script's init code is its message, not the runner's stack.
  const refuses = await quietRun(
    script('refuses.ts', "throw new Error('Refusing to load 10.1.2.3: set ALLOW_REMOTE_TARGET=1');\nexport default function () {}\n"),
  );
  assert.equal(refuses.exitCode, 107);
  assert.match(refuses.err, /ERRO\S* Error: Refusing to load 10\.1\.2\.3: set ALLOW_REMOTE_TARGET=1/);
  assert.doesNotMatch(refuses.err, /\n\s+at /, 'no stack frames');
  const opt = await quietRun(
    script('opt.ts', "export const options = { scenarios: { a: { executor: 'externally-controlled' } } };\nexport default function () {}\n"),
  );
  assert.equal(opt.exitCode, 104);
  assert.match(opt.err, /executor "externally-controlled" is not implemented/);
  const unknownMetric = await quietRun(script('th.ts', "export const options = { thresholds: { nope: ['count<1'] } };\nexport default function () {}\n"));
  assert.equal(unknownMetric.exitCode, 104);
  assert.match(unknownMetric.err, /no metric named "nope"/);
});

function startServer(): Promise<{ server: Server; base: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url?.startsWith('/redirect')) {
      const to = new URL(req.url, 'http://x').searchParams.get('to');
      res.writeHead(302, { location: to ?? '/ok?from=redirect' });
      return res.end();
    }
    if (req.url === '/echo-auth') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
    }
    if (req.url === '/slow') return; // never answers: the request's timeout ends it
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-twice', ['a', 'b']);
    res.setHeader('retry-after', '1');
    res.statusCode = req.url?.startsWith('/limited') ? 429 : 200;
    res.end('{"ok":true,"n":1}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address() as { port: number };
      resolve({ server, base: `http://127.0.0.1:${a.port}`, hits: () => hits });
    }),
  );
}

test('k6 API surface: setup data, checks, groups, custom metrics, tags, expected statuses, verdicts and exit 99', async () => {
  const { server, base } = await startServer();
  try {
    const file = script(
      'surface.ts',
      `
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
const c = new Counter('my_count'); const g = new Gauge('my_gauge'); const r = new Rate('my_rate'); const t = new Trend('my_trend', true);
export const options = {
  scenarios: { s: { executor: 'shared-iterations', vus: 2, iterations: 6, tags: { kind: 'x' } } },
  thresholds: {
    checks: ['rate==1'], my_count: ['count==6'], my_gauge: ['value>0'], my_rate: ['rate>0.5'], 'my_trend{kind:x}': ['max<60000'],
    'http_reqs{status:429}': ['count==6'], http_req_failed: ['rate==0'], never: ['count>10'],
  },
};
const never = new Counter('never');
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));
export function setup() { return { base: __ENV.BASE }; }
export default function (data) {
  group('g1', () => {
    const ok = http.get(data.base + '/ok', { tags: { name: 'ok' } });
    const limited = http.get(data.base + '/limited');
    check(ok, { 'ok is 200': (x) => x.status === 200, 'json parses': (x) => x.json().ok === true, 'canonical header': (x) => x.headers['Content-Type'] === 'application/json' });
    check(limited, { 'limited is 429': (x) => x.status === 429, 'retry-after': (x) => x.headers['Retry-After'] === '1' });
  });
  c.add(1); g.add(__VU); r.add(exec.scenario.name === 's'); t.add(1);
  never.add(0);
  sleep(0.01);
}
export function handleSummary(d) { return { stdout: JSON.stringify(Object.fromEntries(Object.entries(d.metrics).filter(([k]) => k.startsWith('my_') || k === 'never').map(([k, v]) => [k, v.thresholds]))) + '\\n' + JSON.stringify(d.root_group.groups[0].checks.map((x) => [x.name, x.passes, x.fails])), 'out/s.json': '{}' }; }
`,
    );
    const r = await quietRun(file, { BASE: base });
    assert.equal(r.exitCode, 99, r.err);
    assert.match(r.err, /thresholds on metrics 'never' have been crossed/);
    const [thr, checks] = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(thr.never, { 'count>10': { ok: false } });
    assert.deepEqual(thr.my_count, { 'count==6': { ok: true } });
    assert.deepEqual(thr['my_trend{kind:x}'], { 'max<60000': { ok: true } });
    assert.deepEqual(checks, [
      ['ok is 200', 6, 0],
      ['json parses', 6, 0],
      ['canonical header', 6, 0],
      ['limited is 429', 6, 0],
      ['retry-after', 6, 0],
    ]);
    assert.equal(r.summary!.metrics['http_reqs{status:429}'].thresholds!['count==6'].ok, true);
    assert.equal(r.summary!.metrics.http_req_failed.values.rate, 0);
    // Without handleSummary the runner prints k6's verdict lines itself.
    const plain = await quietRun(
      script(
        'plain.ts',
        `import http from 'k6/http';\nexport const options = { thresholds: { http_reqs: ['count==1', 'count>5'] } };\nexport default function () { http.get(__ENV.BASE + '/ok'); }\n`,
      ),
      { BASE: base },
    );
    assert.equal(plain.exitCode, 99);
    assert.match(plain.out, /█ THRESHOLDS[\s\S]*http_reqs\n {4}✓ 'count==1' count=1\n {4}✗ 'count>5' count=1/);
  } finally {
    server.close();
  }
});

test('responses: redirects followed, repeated headers joined, body decoded on read, timeouts as error 1050', async () => {
  const { server, base } = await startServer();
  const other = await startServer();
  try {
    const file = script(
      'responses.ts',
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { thresholds: { 'http_reqs{name:slow}': ['count==1'], 'http_req_failed{name:slow}': ['rate==1'] } };
export default function () {
  const followed = http.get(__ENV.BASE + '/redirect');
  check(followed, {
    'redirect followed to the final URL': (r) => r.status === 200 && r.url === __ENV.BASE + '/ok?from=redirect' && r.json().ok === true,
    'repeated headers joined, names canonical': (r) => r.headers['X-Twice'] === 'a, b' && r.headers['Content-Type'] === 'application/json',
  });
  const auth = { headers: { Authorization: 'Basic c2VjcmV0' } };
  const sameHost = http.get(__ENV.BASE + '/redirect?to=/echo-auth', auth);
  const otherHost = http.get(__ENV.BASE + '/redirect?to=' + encodeURIComponent(__ENV.OTHER + '/echo-auth'), auth);
  check(null, {
    'credentials follow a redirect on the same host': () => sameHost.json().authorization === 'Basic c2VjcmV0',
    'credentials do not follow a redirect to another host': () => otherHost.status === 200 && otherHost.json().authorization === null,
  });
  const slow = http.get(__ENV.BASE + '/slow', { timeout: '300ms', tags: { name: 'slow' } });
  check(slow, { 'timeout: status 0, error code 1050, no body': (r) => r.status === 0 && r.error_code === 1050 && r.body === null && r.timings.duration < 5000 });
  const none = http.get(__ENV.BASE + '/ok', { responseType: 'none' });
  check(none, { 'responseType none: no body, headers kept': (r) => r.status === 200 && r.body === null && r.headers['Content-Type'] === 'application/json' });
}
`,
    );
    const r = await quietRun(file, { BASE: base, OTHER: other.base });
    assert.equal(r.exitCode, 0, r.err);
    const checks = r.summary!.root_group.checks.map((c) => [c.name, c.passes, c.fails]);
    assert.deepEqual(checks, [
      ['redirect followed to the final URL', 1, 0],
      ['repeated headers joined, names canonical', 1, 0],
      ['credentials follow a redirect on the same host', 1, 0],
      ['credentials do not follow a redirect to another host', 1, 0],
      ['timeout: status 0, error code 1050, no body', 1, 0],
      ['responseType none: no body, headers kept', 1, 0],
    ]);
  } finally {
    server.close();
    other.server.close();
  }
});

test("a script's console goes to the run's output, not the process's: init, setup, the VUs and handleSummary", async () => {
  const file = script(
    'console.ts',
    [
      "console.log('from init');",
      'export const options = { vus: 1, iterations: 1 };',
      "export function setup() { console.log('from setup'); console.warn('warned in setup'); }",
      "export default function () { console.log('from a VU'); }",
      "export function handleSummary() { console.error('from handleSummary'); return {}; }",
    ].join('\n'),
  );
  const written: string[] = [];
  const own = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  let r: Awaited<ReturnType<typeof quietRun>>;
  try {
    r = await quietRun(file);
  } finally {
    process.stdout.write = own;
  }
  assert.equal(r.exitCode, 0, r.err);
  for (const line of ['from init', 'from setup', 'from a VU']) assert.match(r.out, new RegExp(line));
  assert.match(r.err, /warned in setup/);
  assert.match(r.err, /from handleSummary/);
  assert.deepEqual(
    written.filter((w) => /from (init|setup|a VU)/.test(w)),
    [],
    "nothing of the script's reached the process's stdout",
  );
});

test('arrival rate: 200 iterations/s for 3 s: every arrival is started or counted as dropped, none ahead of its time', async () => {
  // What this test proves is the executor's schedule and accounting, which hold on any
  // machine: the 600 arrivals are each started or counted in dropped_iterations (k6's
  // rule: no VU free when it is due; a late VU drops, it never catches up in a burst),
  // and no iteration starts before its time. How close the achieved rate comes to the
  // asked one depends on the CPU the machine gives: a speed figure, measured by
  // `npm run bench:load` (Developers guide: speed goals live in benches).
  const { server, base, hits } = await startServer();
  try {
    const file = script(
      'rate.ts',
      `import http from 'k6/http';
import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
const ahead = new Counter('ahead_of_schedule');
const lag = new Trend('start_lag_ms');
export const options = { scenarios: { r: { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '3s', preAllocatedVUs: 20, maxVUs: 40 } } };
export default function () {
  // The k-th iteration to start (iterationInTest) is not due before k x 5 ms.
  const late = Date.now() - exec.scenario.startTime - exec.scenario.iterationInTest * 5;
  lag.add(late);
  if (late < -2) ahead.add(1);
  http.get(__ENV.BASE + '/ok');
}
`,
    );
    const r = await quietRun(file, { BASE: base });
    assert.equal(r.exitCode, 0, r.err);
    const m = r.summary!.metrics;
    const started = m.iterations.values.count;
    const dropped = m.dropped_iterations?.values.count ?? 0;
    const detail = `started ${started}, dropped ${dropped}, start lag ${JSON.stringify(m.start_lag_ms?.values)}`;
    assert.equal(started + dropped, 600, `the 600 arrivals asked must be started or dropped: ${detail}`);
    assert.ok(started > 0, detail);
    assert.equal(m.ahead_of_schedule?.values.count ?? 0, 0, `iterations started ahead of their time: ${detail}`);
    assert.equal(hits(), m.http_reqs.values.count);
    assert.equal(hits(), started);
  } finally {
    server.close();
  }
});

test('arrival rate: VUs grow from preAllocatedVUs towards maxVUs while arrivals drop, and the accounting stays exact', async () => {
  const file = script(
    'grow.ts',
    `import { sleep } from 'k6';
export const options = { scenarios: { g: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '3s', preAllocatedVUs: 1, maxVUs: 4 } } };
export default function () { sleep(0.2); }
`,
  );
  const r = await quietRun(file);
  assert.equal(r.exitCode, 0, r.err);
  const m = r.summary!.metrics;
  const started = m.iterations.values.count;
  const dropped = m.dropped_iterations?.values.count ?? 0;
  // One VU serves 5 iterations/s of the 20 asked: arrivals drop, so the engine adds VUs.
  assert.ok(dropped > 0, `arrivals dropped: ${dropped}`);
  assert.ok(m.vus_max.values.max >= 2 && m.vus_max.values.max <= 4, `vus_max ${JSON.stringify(m.vus_max.values)}`);
  assert.equal(started + dropped, 60, `started ${started} + dropped ${dropped} must be the 60 arrivals asked`);
});

test('ramping-vus: VUs start at their step, never before, and only as many as the stages ask', async () => {
  // startVUs 0 -> 3 over 1.2 s: the VUs start at 400, 800 and 1200 ms; then 3 for 0.8 s.
  // A busy machine can only start them later, never earlier, so the lower bounds hold anywhere.
  const file = script(
    'ramp.ts',
    `import { sleep } from 'k6';
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';
const firstStart = new Trend('first_iteration_at_ms');
const start = new Trend('iteration_at_ms');
let first = true;
export const options = { scenarios: { r: { executor: 'ramping-vus', startVUs: 0, stages: [{ target: 3, duration: '1200ms' }, { target: 3, duration: '800ms' }], gracefulStop: '1s' } }, summaryTrendStats: ['min', 'max', 'count'] };
export default function () {
  const at = Date.now() - exec.scenario.startTime;
  start.add(at);
  if (first) firstStart.add(at);
  first = false;
  sleep(0.1);
}
`,
  );
  const r = await quietRun(file);
  assert.equal(r.exitCode, 0, r.err);
  const m = r.summary!.metrics;
  const firsts = m.first_iteration_at_ms.values;
  assert.equal(firsts.count, 3, 'three VUs ran');
  assert.ok(firsts.min >= 380, `no VU starts before the first step (400 ms): ${JSON.stringify(firsts)}`);
  assert.ok(firsts.max >= 1180, `the third VU starts at 1200 ms: ${JSON.stringify(firsts)}`);
  // Upper bound: the stages end at 2000 ms and k6 stops the scenario within its gracefulStop
  // (1 s); an iteration the runner started before 2000 ms may run its first line later on a
  // loaded machine, so only the graceful stop bounds what a clock inside it reads.
  assert.ok(m.iteration_at_ms.values.max < 3000, `no iteration runs past the stages and their graceful stop: ${JSON.stringify(m.iteration_at_ms.values)}`);
  assert.ok(m.vus_max.values.max <= 3, `vus_max ${JSON.stringify(m.vus_max.values)}`);
});

test('lifecycle exits: setup() failing, exec.test.abort() and abortOnFail end the run with k6 exit codes', async () => {
  const setupThrows = await quietRun(script('setup-throws.ts', "export function setup() { throw new Error('no token'); }\nexport default function () {}\n"));
  assert.equal(setupThrows.exitCode, 107);
  assert.match(setupThrows.err, /setup\(\) failed: Error: no token/);
  // k6's fail(): the script's own words are the report, without the runner's stack.
  const setupFails = await quietRun(
    script('setup-fails.ts', "import { fail } from 'k6';\nexport function setup() { fail('setup: no list'); }\nexport default function () {}\n"),
  );
  assert.equal(setupFails.exitCode, 107);
  assert.match(setupFails.err, /setup\(\) failed: setup: no list$/m);
  assert.doesNotMatch(setupFails.err, /\bat (fail|setup) /);
  const aborted = await quietRun(
    script(
      'abort.ts',
      `import exec from 'k6/execution';
import { sleep } from 'k6';
export const options = { vus: 1, duration: '30s' };
export default function () { sleep(0.05); if (exec.vu.iterationInInstance >= 2) exec.test.abort('enough'); }
`,
    ),
  );
  assert.equal(aborted.exitCode, 108, aborted.err);
  assert.match(aborted.err, /test run aborted: enough/);
  assert.ok(aborted.summary!.metrics.iterations.values.count <= 3, 'no iteration after the abort');
  const crossed = await quietRun(
    script(
      'abort-on-fail.ts',
      `import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
const bad = new Counter('bad');
export const options = { vus: 1, duration: '30s', thresholds: { bad: [{ threshold: 'count<1', abortOnFail: true }] } };
export default function () { bad.add(1); sleep(0.05); }
`,
    ),
  );
  assert.equal(crossed.exitCode, 99, crossed.err);
  assert.match(crossed.err, /thresholds on metric "bad" were crossed/);
  assert.ok(crossed.summary!.state.testRunDurationMs < 10_000, `stopped early: ${crossed.summary!.state.testRunDurationMs} ms`);
});
