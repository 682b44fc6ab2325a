/**
 * 429 behaviour under load. The statement enforced (specification, Errors): "429 too
 * many requests; used on the real-time interface when the rate limit is exceeded".
 * Limits: "Request rate limit values: not shown", so the expected limit is the profile
 * setting SVC_RATE_LIMIT_PER_SECOND. Not shown either, hence not required: which
 * requests count toward the limit (the flood spreads over SVC_RATE_LIMIT_PATHS, by
 * default two read-only lists, and the verdict is on the client's traffic as a whole,
 * never on one endpoint), a 429's body (the specification shows no error body:
 * checked only when the user sets SVC_429_BODY), and any rate-limit header
 * (Retry-After is honoured when present and counted when absent, never required).
 *
 * Three scenarios, one after the other on one client (one set of credentials):
 *   below_limit   a constant arrival rate under the limit: no 429 may appear (429 is
 *                 used "when the rate limit is exceeded", and it is not);
 *   above_limit   an arrival rate well past it (constant, or a ramp for PROFILE=spike):
 *                 429s must appear (the limit is exceeded); the accepted rate in the
 *                 steady part of the phase is the observed limit, reported as
 *                 observed_rate_limit_per_second;
 *   backoff       one client that starts while the limit is exceeded, backs off
 *                 (Retry-After when given, else 1 s doubling) and must be served again
 *                 once it no longer exceeds the limit.
 * In every scenario: no 5xx (past the limit the answer is 429, not a server error).
 * 429 is an expected status.
 *
 *   k6 run load/rate-limit.ts            (or: npm run load -- load/rate-limit.ts)
 */
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Trend, Rate } from 'k6/metrics';
import { guardTarget, loadConfig, planMessage, platformHeaders } from './script-support/config.ts';
import { getWithBackoff, retryAfterSeconds, setupFailure } from './script-support/backoff.ts';
import { summaryOutputs } from './script-support/report.ts';
import type { SummaryData } from './script-support/summary.ts';

const cfg = loadConfig();
const p = cfg.profile;
const limit = cfg.rateLimitPerSecond;
const phase = p.phaseSeconds;
const GAP_SECONDS = 1;
const belowRate = Math.max(1, Math.floor(limit * p.belowLimitFactor));
const aboveRate = Math.ceil(limit * p.aboveLimitFactor);
/**
 * GET paths of the real-time interface the traffic goes to, in turn. Read-only lists
 * that need no user; records_per_page=10 because a real service answers 25 records for
 * fewer than 10 (../shared/real-service-notes.md, Paging) and the size does not matter here.
 */
const paths = (__ENV.SVC_RATE_LIMIT_PATHS || __ENV.SVC_RATE_LIMIT_PATH || '/institutions?records_per_page=10,/categories/default?records_per_page=10')
  .split(',')
  .map((x) => x.trim())
  .filter(Boolean);
if (!paths.length) throw new Error('SVC_RATE_LIMIT_PATHS names no path');
let turn = 0;
/** The next path in turn (module state is per VU). */
function nextPath(): string {
  const path = paths[turn % paths.length];
  turn++;
  return path;
}
const urlOf = (path: string) => `${cfg.baseUrl}${path}`;

// The observed limit is estimated from the moment the target starts refusing (any burst
// allowance is spent by then) to the end of the constant part of the over-the-limit
// phase: accepted requests per second in that window.
const ramping = p.executor === 'ramping-arrival-rate';
const aboveSeconds = ramping ? phase + 2 : phase;
const windowEndMs = ramping ? (1 + phase) * 1000 : phase * 1000;
const backoffStart = GAP_SECONDS + phase + GAP_SECONDS + phase / 2;
const backoffMaxAttempts = Math.ceil(aboveSeconds) + 5;

const plannedRequests = belowRate * phase + (ramping ? aboveRate * phase + (aboveRate + belowRate) : aboveRate * phase) + backoffMaxAttempts + paths.length;
const plannedSeconds = Math.ceil(GAP_SECONDS + phase + GAP_SECONDS + aboveSeconds + 5);
guardTarget(cfg, plannedRequests, plannedSeconds);

// Enough VUs for iterations of 200 ms at the asked rate (k6: preAllocatedVUs = rate x
// iteration time, with room): a remote target or a busy machine slows iterations, and too
// few VUs would drop the very arrivals that are meant to exceed the limit.
const vusFor = (rate: number) => Math.min(p.maxVUs, Math.ceil(rate * 0.2) + 2);

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
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'],
};

// 429 is the documented answer past the limit, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const rateLimitedBelow = new Counter('rate_limited_below_limit');
const belowAnsweredDuringFlood = new Counter('below_limit_answered_during_flood');
const rateLimitedAbove = new Counter('rate_limited_above_limit');
const serverErrors = new Counter('server_errors');
const badBody = new Counter('rate_limit_bad_body');
const noRetryAfter = new Counter('rate_limited_without_retry_after');
const aboveSent = new Counter('above_limit_sent');
const acceptedAfterOnset = new Counter('accepted_after_limit_reached');
/** Per VU: ms into the over-the-limit phase at which it met its first 429. */
const limitReachedAt = new Trend('limit_reached_at_ms');
const recovered = new Rate('backoff_client_recovered');
const recoverySeconds = new Trend('backoff_recovery_seconds');

const params = (path: string) => ({ headers: platformHeaders(cfg), tags: { name: `GET ${path.split('?')[0]}` } });
const get = (path: string) => http.get(urlOf(path), params(path));

export function setup() {
  console.log(planMessage(cfg, plannedRequests, plannedSeconds));
  console.log(`rate-limit: traffic over ${paths.join(', ')}; 429 body rule: ${cfg.rateLimitBody === 'any' ? 'none (SVC_429_BODY unset)' : cfg.rateLimitBody}`);
  for (const path of paths) {
    // A limit already spent by other traffic is not "unreachable": back off first.
    const got = getWithBackoff(urlOf(path), params(path));
    if (got.res.status !== 200) fail(setupFailure(path, got, 'the path is not a list of this target (SVC_RATE_LIMIT_PATHS)'));
  }
}

type Res = ReturnType<typeof http.get>;

/**
 * The body of a 429 as the user stated it (SVC_429_BODY): the specification shows no
 * error body, so without that setting any body, or none, passes.
 */
function bodyOk(res: Res): boolean {
  if (cfg.rateLimitBody === 'any') return true;
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
  // Every request here is one setup() saw answered 200: under load the only other answer
  // the specification gives is 429 ("used ... when the rate limit is exceeded"); a 5xx
  // in its place is what the rate-limit-500 fault shows.
  check(res, {
    'answered 2xx or 429': (r) => (r.status >= 200 && r.status < 300) || r.status === 429,
    'no 5xx': (r) => r.status < 500,
  });
  if (res.status >= 500) serverErrors.add(1, { status: String(res.status) });
  if (res.status === 429) {
    if (cfg.rateLimitBody !== 'any') {
      const ok = bodyOk(res);
      check(res, {
        [cfg.rateLimitBody === 'json-error' ? '429 body is the JSON error with a message (SVC_429_BODY)' : '429 body is not empty (SVC_429_BODY)']: () => ok,
      });
      if (!ok) badBody.add(1);
    }
    // Informational: no rate-limit header is shown in the specification.
    if (!res.headers['Retry-After']) noRetryAfter.add(1);
  }
}

export function belowLimit(): void {
  const res = get(nextPath());
  common(res);
  // A response that comes back after the over-the-limit phase has begun (a stalled request
  // on a busy client machine) may meet a limit that the flood has spent: a 429 then says
  // nothing about the rate below the limit, so it is counted apart, not judged.
  if (Date.now() - exec.scenario.startTime >= (phase + GAP_SECONDS) * 1000) {
    belowAnsweredDuringFlood.add(1);
    return;
  }
  check(res, { 'no 429 below the limit': (r) => r.status !== 429 });
  if (res.status === 429) rateLimitedBelow.add(1);
}

// Module state is per VU (k6 gives each VU its own instance of the script).
let onsetMs = -1;
let lastRetryAfter: number | undefined;

export function aboveLimit(): void {
  const sinceStart = Date.now() - exec.scenario.startTime;
  const res = get(nextPath());
  common(res);
  aboveSent.add(1);
  if (res.status === 429) {
    rateLimitedAbove.add(1);
    if (onsetMs < 0) {
      onsetMs = sinceStart;
      limitReachedAt.add(sinceStart);
    }
  } else if (res.status >= 200 && res.status < 300 && onsetMs >= 0 && sinceStart < windowEndMs) {
    acceptedAfterOnset.add(1);
  }
}

/**
 * A well-behaved client joining the flood half-way: it sends until it is refused (at
 * most until the flood ends), then waits as Retry-After says and must be served again.
 */
export function backoffClient(): void {
  const floodEnds = exec.scenario.startTime + (aboveSeconds - phase / 2) * 1000;
  let saw429 = false;
  while (Date.now() < floodEnds) {
    const res = get(nextPath());
    common(res);
    if (res.status === 429) {
      saw429 = true;
      break;
    }
  }
  check(null, { 'back-off client met a 429 while the limit was exceeded': () => saw429 });
  const t0 = Date.now();
  let wait = 1;
  for (let attempt = 0; attempt < backoffMaxAttempts; attempt++) {
    if (saw429 || attempt > 0) {
      // Retry-After of the last 429, else 1 s doubling (script-support/backoff.ts).
      sleep(Math.min(5, lastRetryAfter ?? wait));
      wait = Math.min(5, wait * 2);
    }
    const res = get(nextPath());
    common(res);
    if (res.status === 429) {
      lastRetryAfter = retryAfterSeconds(res, wait);
      continue;
    }
    const ok = res.status >= 200 && res.status < 300;
    check(res, { 'back-off client is served again after backing off': () => ok });
    recovered.add(ok);
    if (ok) recoverySeconds.add((Date.now() - t0) / 1000);
    return;
  }
  check(null, { 'back-off client is served again after backing off': () => false });
  recovered.add(false);
}

export function handleSummary(data: SummaryData) {
  const offered = (data.metrics.above_limit_sent?.values.count ?? 0) / aboveSeconds;
  const onset = data.metrics.limit_reached_at_ms;
  let estimate: number;
  let note: string;
  if (onset && onset.values.count > 0) {
    const windowSeconds = Math.max(0.1, (windowEndMs - onset.values.avg) / 1000);
    estimate = Math.round(((data.metrics.accepted_after_limit_reached?.values.count ?? 0) / windowSeconds) * 10) / 10;
    note = `, first 429 about ${Math.round(onset.values.avg)} ms into the phase`;
  } else {
    // Nothing was refused: the limit (if any) is above what was offered.
    estimate = Math.round(offered * 10) / 10;
    note = ' (no 429 at all: the limit is at least this)';
  }
  const refusedBelow = data.metrics.rate_limited_below_limit?.values.count ?? 0;
  data.metrics.observed_rate_limit_per_second = { type: 'gauge', contains: 'default', values: { value: estimate, min: estimate, max: estimate } };
  return summaryOutputs(
    'rate-limit',
    data,
    {
      profile: p.name,
      target: cfg.host,
      paths,
      rateLimitBodyRule: cfg.rateLimitBody,
      expectedRateLimitPerSecond: limit,
      observedRateLimitPerSecond: estimate,
      offeredRatePerSecond: Math.round(offered),
      belowRate,
      aboveRate,
    },
    {
      'expected rate limit': `${limit}/s (rateLimit.perSecond, SVC_RATE_LIMIT_PER_SECOND)`,
      'observed rate limit': `${estimate}/s accepted while offering ${Math.round(offered)}/s${note}`,
      ...(refusedBelow > 0
        ? {
            // Limits: "Request rate limit values: not shown": the expected limit is the user's setting, so a 429 under it
            // names the setting first (a lower limit on this environment), then traffic sharing these credentials.
            'refused below the limit': `${refusedBelow} request(s) got 429 at ${belowRate}/s: the target's limit is lower than the setting says (set it to the limit the vendor gives for this environment), or other traffic shares these credentials' limit`,
          }
        : {}),
    },
  );
}
