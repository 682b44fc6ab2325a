/**
 * The k6 script that load/bench.ts runs through the runner: a 1 s warm-up at 200/s,
 * then the measured scenario, either a constant arrival rate (BENCH_RATE per second)
 * or full speed (BENCH_VUS looping VUs), for BENCH_SECONDS, against BENCH_URL.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const seconds = Number(__ENV.BENCH_SECONDS || 3);
const vus = Number(__ENV.BENCH_VUS || 8);
const rate = Number(__ENV.BENCH_RATE || 0);
const params = { headers: { Authorization: __ENV.BENCH_AUTH || '' } };
const measured = new Counter('measured_requests');
const measuredOk = new Counter('measured_ok');

export const options = {
  scenarios: {
    warmup: { executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '1s', preAllocatedVUs: vus, maxVUs: vus, exec: 'warmup', gracefulStop: '2s' },
    measured:
      rate > 0
        ? { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${seconds}s`, preAllocatedVUs: vus, maxVUs: vus * 2, startTime: '1500ms', exec: 'measure', gracefulStop: '2s' }
        : { executor: 'constant-vus', vus, duration: `${seconds}s`, startTime: '1500ms', exec: 'measure', gracefulStop: '2s' },
  },
  discardResponseBodies: true,
};

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
