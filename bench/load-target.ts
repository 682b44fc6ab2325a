/**
 * The k6 script that bench/load.ts runs through the runner: a 1 s warm-up at 200/s, then
 * BENCH_ROUNDS rounds of one constant-arrival-rate scenario per BENCH_RATES entry and a
 * full-speed scenario (BENCH_VUS looping VUs), each BENCH_SECONDS long and one after the
 * other, against BENCH_URL. One run for every round: the VU threads start once.
 * Per-scenario counts come out as threshold sub-metrics.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const seconds = Number(__ENV.BENCH_SECONDS || 2);
const vus = Number(__ENV.BENCH_VUS || 8);
const rates = (__ENV.BENCH_RATES ?? '500,1000,2000').split(',').filter(Boolean).map(Number);
const rounds = Number(__ENV.BENCH_ROUNDS || 1);
const gapSeconds = 0.5;
const params = { headers: { Authorization: __ENV.BENCH_AUTH || '' } };
const measured = new Counter('measured_requests');
const measuredOk = new Counter('measured_ok');

// k6's sizing rule for arrival-rate executors: preAllocatedVUs = rate x iteration time.
// 30 ms per iteration absorbs the stalls of a shared machine (a request is ~1 ms when it
// is quiet); all pre-allocated, as k6 advises, since starting threads mid-test costs CPU.
const vusForRate = (rate: number) => Math.max(vus, Math.ceil(rate * 0.03));

const scenarios: Record<string, object> = {
  warmup: {
    executor: 'constant-arrival-rate',
    rate: 200,
    timeUnit: '1s',
    duration: '1s',
    preAllocatedVUs: vus,
    maxVUs: vus,
    exec: 'warmup',
    gracefulStop: '1s',
  },
};
const thresholds: Record<string, string[]> = {};
let start = 1 + gapSeconds;
for (let round = 1; round <= rounds; round++) {
  for (const rate of rates) {
    scenarios[`r${round}_rate_${rate}`] = {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration: `${seconds}s`,
      preAllocatedVUs: vusForRate(rate),
      maxVUs: vusForRate(rate),
      startTime: `${start}s`,
      exec: 'measure',
      gracefulStop: `${gapSeconds}s`,
    };
    start += seconds + gapSeconds;
  }
  scenarios[`r${round}_full_speed`] = {
    executor: 'constant-vus',
    vus,
    duration: `${seconds}s`,
    startTime: `${start}s`,
    exec: 'measure',
    gracefulStop: `${gapSeconds}s`,
  };
  start += seconds + gapSeconds;
}
for (const name of Object.keys(scenarios)) {
  if (name === 'warmup') continue;
  // Always-true thresholds: they put each scenario's counts into the summary data.
  thresholds[`measured_requests{scenario:${name}}`] = ['count>=0'];
  thresholds[`measured_ok{scenario:${name}}`] = ['count>=0'];
  thresholds[`dropped_iterations{scenario:${name}}`] = ['count>=0'];
}

export const options = { scenarios, thresholds, discardResponseBodies: true };

export function warmup(): void {
  http.get(__ENV.BENCH_URL, params);
}

export function measure(): void {
  const res = http.get(__ENV.BENCH_URL, params);
  measured.add(1);
  if (res.status === 200) measuredOk.add(1);
}

export function handleSummary() {
  return {};
}
