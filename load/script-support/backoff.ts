/**
 * A client that backs off: on 429 it waits what Retry-After says (seconds or an HTTP
 * date), or 1 s doubling when the header is absent (the specification shows no
 * Retry-After: Errors lists only "429 too many requests"), then tries again.
 */
import http, { type RefinedParams, type RefinedResponse, type ResponseType } from 'k6/http';
import { sleep } from 'k6';

export function retryAfterSeconds(res: { headers: Record<string, string> }, fallback: number): number {
  const raw = res.headers['Retry-After'];
  if (!raw) return fallback;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return fallback;
  return Math.max(0, (at - Date.now()) / 1000);
}

export interface BackoffResult {
  res: RefinedResponse<ResponseType | undefined>;
  /** 429s answered before `res`. */
  rateLimited: number;
}

/** GET with back-off on 429, at most `maxRetries` retries and `maxWaitSeconds` per wait. */
export function getWithBackoff(url: string, params: RefinedParams<ResponseType | undefined>, maxRetries = 5, maxWaitSeconds = 5): BackoffResult {
  return requestWithBackoff('GET', url, null, params, maxRetries, maxWaitSeconds);
}

/** Any request with back-off on 429 (setup() calls too: the client may share its limit with other traffic). */
export function requestWithBackoff(
  method: string,
  url: string,
  body: string | null,
  params: RefinedParams<ResponseType | undefined>,
  maxRetries = 5,
  maxWaitSeconds = 5,
): BackoffResult {
  let rateLimited = 0;
  let wait = 1;
  for (;;) {
    const res = http.request(method, url, body, params);
    if (res.status !== 429 || rateLimited >= maxRetries) return { res, rateLimited };
    rateLimited++;
    sleep(Math.min(maxWaitSeconds, retryAfterSeconds(res, wait)));
    wait *= 2;
  }
}

/**
 * Why setup() could not read a list it needs, the likeliest cause first: no answer at all, the
 * credentials refused, or a 429 that outlasted the back-off (Errors, 429: "too many requests;
 * used on the real-time interface when the rate limit is exceeded": a limit that did not
 * recover, or one other traffic keeps spent), else what was answered. `otherwise` names what
 * else an unexpected status may mean for this script.
 */
export function setupFailure(path: string, got: BackoffResult, otherwise: string): string {
  const { res, rateLimited } = got;
  const head = `setup: GET ${path} answered ${res.status} (expected 200)`;
  if (res.status === 0) return `${head}: the target is not reachable (${res.error})`;
  if (res.status === 401 || res.status === 403) return `${head}: the credentials are not authorised (SVC_CLIENT_ID, SVC_API_KEY)`;
  if (res.status === 429)
    return `${head}: still rate limited after backing off ${rateLimited} times (Retry-After, else 1 s doubling): the client's limit did not recover, or other traffic of this client keeps it spent`;
  return `${head}: ${otherwise}`;
}
