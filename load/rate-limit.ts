/**
 * 429 behaviour under load (Errors: "429 too many requests; used on the real-time
 * interface when the rate limit is exceeded"; Limits: "Request rate limit values: not
 * shown", so the expected limit is the profile setting SVC_RATE_LIMIT_PER_SECOND).
 *
 * Three scenarios, one after the other on one client (one set of credentials):
 *   below_limit   a constant arrival rate under the limit: no 429 may appear;
 *   above_limit   an arrival rate well past it (constant, or a ramp for PROFILE=spike):
 *                 429s must appear; the accepted rate in the steady part of the phase
 *                 is the observed limit, reported as observed_rate_limit_per_second;
 *   backoff       one client that starts while the limit is exceeded, honours
 *                 Retry-After and must be served again afterwards.
 * In every scenario: no 5xx, and every 429 has a body (non-empty; with
 * SVC_429_BODY=json-error, the JSON error with a message). 429 is an expected status.
 *
 *   k6 run load/rate-limit.ts            (or: npm run load -- load/rate-limit.ts)
 */
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Trend, Rate } from 'k6/metrics';
import { guardTarget, loadConfig, planMessage, platformHeaders } from './lib/config.ts';
import { retryAfterSeconds } from './lib/backoff.ts';
import { summaryOutputs } from './lib/report.ts';
import type { SummaryData } from './lib/summary.ts';

const cfg = loadConfig();
const p = cfg.profile;
const limit = cfg.rateLimitPerSecond;
const phase = p.phaseSeconds;
const GAP_SECONDS = 1;
const belowRate = Math.max(1, Math.floor(limit * p.belowLimitFactor));
const aboveRate = Math.ceil(limit * p.aboveLimitFactor);
const path = __ENV.SVC_RATE_LIMIT_PATH || '/institutions?records_per_page=1';
const url = `${cfg.baseUrl}${path}`;

// The steady part of the over-the-limit phase: after any burst allowance is spent
// (first half) and, for the spike ramp, inside the hold stage.
const ramping = p.executor === 'ramping-arrival-rate';
const aboveSeconds = ramping ? phase + 2 : phase;
const windowStartMs = ramping ? (1 + phase / 2) * 1000 : (phase / 2) * 1000;
const windowEndMs = ramping ? (1 + phase) * 1000 : phase * 1000;
const backoffStart = GAP_SECONDS + phase + GAP_SECONDS + windowStartMs / 1000;
const backoffMaxAttempts = Math.ceil(aboveSeconds) + 5;

const plannedRequests = belowRate * phase + (ramping ? aboveRate * phase + (aboveRate + belowRate) : aboveRate * phase) + backoffMaxAttempts + 1;
const plannedSeconds = Math.ceil(GAP_SECONDS + phase + GAP_SECONDS + aboveSeconds + 5);
guardTarget(cfg, plannedRequests, plannedSeconds);

const vusFor = (rate: number) => Math.min(p.maxVUs, Math.ceil(rate * 0.01) + 2);

export const options = {
  scenarios: {
    below_limit: {
      executor: 'constant-arrival-rate',
      rate: belowRate,
      timeUnit: '1s',
      duration: `${phase}s`,
      startTime: `${GAP_SECONDS}s`,
      preAllocatedVUs: vusFor(belowRate),
      maxVUs: p.maxVUs,
      gracefulStop: '5s',
      exec: 'belowLimit',
    },
    above_limit: ramping
      ? {
          executor: 'ramping-arrival-rate',
          startRate: belowRate,
          timeUnit: '1s',
          stages: [
            { target: aboveRate, duration: '1s' },
            { target: aboveRate, duration: `${phase}s` },
            { target: belowRate, duration: '1s' },
          ],
          startTime: `${GAP_SECONDS + phase + GAP_SECONDS}s`,
          preAllocatedVUs: vusFor(aboveRate),
          maxVUs: p.maxVUs,
          gracefulStop: '5s',
          exec: 'aboveLimit',
        }
      : {
          executor: 'constant-arrival-rate',
          rate: aboveRate,
          timeUnit: '1s',
          duration: `${phase}s`,
          startTime: `${GAP_SECONDS + phase + GAP_SECONDS}s`,
          preAllocatedVUs: vusFor(aboveRate),
          maxVUs: p.maxVUs,
          gracefulStop: '5s',
          exec: 'aboveLimit',
        },
    backoff: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      startTime: `${backoffStart}s`,
      maxDuration: `${backoffMaxAttempts * 6}s`,
      exec: 'backoffClient',
    },
  },
  thresholds: {
    checks: [`rate>=${cfg.checksRate}`],
    rate_limited_below_limit: ['count==0'],
    rate_limited_above_limit: ['count>0'],
    server_errors: ['count==0'],
    rate_limit_bad_body: ['count==0'],
    backoff_client_recovered: ['rate==1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
};

// 429 is the documented answer past the limit, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const rateLimitedBelow = new Counter('rate_limited_below_limit');
const rateLimitedAbove = new Counter('rate_limited_above_limit');
const serverErrors = new Counter('server_errors');
const badBody = new Counter('rate_limit_bad_body');
const noRetryAfter = new Counter('rate_limited_without_retry_after');
const sentInWindow = new Counter('steady_window_sent');
const acceptedInWindow = new Counter('steady_window_accepted');
const recovered = new Rate('backoff_client_recovered');
const recoverySeconds = new Trend('backoff_recovery_seconds');

const params = () => ({ headers: platformHeaders(cfg), tags: { name: `GET ${path.split('?')[0]}` } });

export function setup() {
  console.log(planMessage(cfg, plannedRequests, plannedSeconds));
  const res = http.get(url, params());
  if (res.status !== 200) {
    fail(`setup: GET ${path} answered ${res.status} (expected 200): the target is not reachable or the credentials are not authorised${res.status === 0 ? ` (${res.error})` : ''}`);
  }
}

type Res = ReturnType<typeof http.get>;

/** The body of a 429: never empty; on the json-error profile the JSON error with a message. */
function bodyOk(res: Res): boolean {
  const text = typeof res.body === 'string' ? res.body : '';
  if (text.trim() === '') return false;
  if (cfg.rateLimitBody === 'non-empty') return true;
  try {
    const err = (JSON.parse(text) as { error?: { message?: unknown } }).error;
    return typeof err?.message === 'string' && err.message.length > 0;
  } catch {
    return false;
  }
}

function common(res: Res): void {
  check(res, {
    'answered 2xx or 429': (r) => (r.status >= 200 && r.status < 300) || r.status === 429,
    'no 5xx': (r) => r.status < 500,
  });
  if (res.status >= 500) serverErrors.add(1, { status: String(res.status) });
  if (res.status === 429) {
    const ok = bodyOk(res);
    check(res, { [cfg.rateLimitBody === 'json-error' ? '429 body is the JSON error with a message' : '429 body is not empty']: () => ok });
    if (!ok) badBody.add(1);
    if (!res.headers['Retry-After']) noRetryAfter.add(1);
  }
}

export function belowLimit(): void {
  const res = http.get(url, params());
  common(res);
  check(res, { 'no 429 below the limit': (r) => r.status !== 429 });
  if (res.status === 429) rateLimitedBelow.add(1);
}

export function aboveLimit(): void {
  const sinceStart = Date.now() - exec.scenario.startTime;
  const res = http.get(url, params());
  common(res);
  if (res.status === 429) rateLimitedAbove.add(1);
  if (sinceStart >= windowStartMs && sinceStart < windowEndMs) {
    sentInWindow.add(1);
    if (res.status >= 200 && res.status < 300) acceptedInWindow.add(1);
  }
}

/** A well-behaved client: while the limit is exceeded it waits as told, then is served again. */
export function backoffClient(): void {
  const t0 = Date.now();
  let saw429 = false;
  let wait = 1;
  for (let attempt = 0; attempt < backoffMaxAttempts; attempt++) {
    const res = http.get(url, params());
    common(res);
    if (res.status === 429) {
      saw429 = true;
      sleep(Math.min(5, retryAfterSeconds(res, wait)));
      wait = Math.min(5, wait * 2);
      continue;
    }
    const ok = res.status >= 200 && res.status < 300;
    check(res, {
      'back-off client met a 429 while the limit was exceeded': () => saw429,
      'back-off client is served again after backing off': () => ok,
    });
    recovered.add(ok);
    if (ok) recoverySeconds.add((Date.now() - t0) / 1000);
    return;
  }
  check(null, { 'back-off client is served again after backing off': () => false });
  recovered.add(false);
}

export function handleSummary(data: SummaryData) {
  const windowSeconds = (windowEndMs - windowStartMs) / 1000;
  const accepted = data.metrics.steady_window_accepted?.values.count ?? 0;
  const sent = data.metrics.steady_window_sent?.values.count ?? 0;
  const observed = accepted / windowSeconds;
  const offered = sent / windowSeconds;
  // The estimate is only an upper bound of the limit when the offered rate exceeded it.
  const estimate = Math.round(observed * 10) / 10;
  data.metrics.observed_rate_limit_per_second = { type: 'gauge', contains: 'default', values: { value: estimate, min: estimate, max: estimate } };
  const note = offered <= observed * 1.05 ? ' (nothing was refused: the limit is at least this)' : '';
  return summaryOutputs(
    'rate-limit',
    data,
    { profile: p.name, target: cfg.host, expectedRateLimitPerSecond: limit, observedRateLimitPerSecond: estimate, offeredRatePerSecond: Math.round(offered), belowRate, aboveRate },
    {
      'expected rate limit': `${limit}/s (SVC_RATE_LIMIT_PER_SECOND)`,
      'observed rate limit': `${estimate}/s accepted while offering ${Math.round(offered)}/s${note}`,
    },
  );
}
