/**
 * Delivery-rule checks over what a capture receiver saw (specification, Events,
 * Webhooks rules 1-8; Authentication 6). Each check is one named function that
 * returns Failures (contracts/failure.ts) and never throws.
 *
 * Where the specification gives only an example (the retry schedule of rule 5), the
 * strict checks are the stated limits (at most 12 retries, identical payload, no retry
 * after a 2xx); spacing against the example schedule is checked only when the caller
 * says the target follows it (the simulator does).
 */
import { createRequire } from 'node:module';
import type { Failure } from '../../../contracts/failure.ts';
import type { CapturedRequest, TokenRequest } from './capture.ts';
import { loadWebhookSchemas } from './schemas.ts';

const OP = (type: string) => `WEBHOOK ${type}`;
const fail = (check: string, type: string, location: string, rule: string, message: string, severity: Failure['severity'] = 'error'): Failure => ({ check, operation: OP(type), location, rule, severity, message });

/** Events rule 4. */
export const isSuccessStatus = (s: number | 'timeout') => typeof s === 'number' && s >= 200 && s <= 206;
/** Events rule 5 (example schedule, seconds between attempts). */
export const EXAMPLE_RETRY_SCHEDULE_S = [30, 76, 152, 308, 654, 1384, 2800, 5336, 9582, 16308, 26488, 41324];

export function parseBody(r: CapturedRequest): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(r.body.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON POST (Events: "HTTPS POST requests with a JSON body"). */
export function webhook_json_post(type: string, requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  requests.forEach((r, i) => {
    if (r.method !== 'POST') out.push(fail('webhook_json_post', type, `request[${i}].method`, 'Events, Webhooks: HTTPS POST', `Received: ${r.method} / Expected: POST`));
    if (!/^application\/json\b/i.test(String(r.headers['content-type'] ?? ''))) out.push(fail('webhook_json_post', type, `request[${i}].headers.content-type`, 'Events, Webhooks: JSON body', `Received: ${r.headers['content-type'] ?? '(none)'} / Expected: application/json`));
    if (!parseBody(r)) out.push(fail('webhook_json_post', type, `request[${i}].body`, 'Events, Webhooks: JSON body', 'The body is not a JSON object'));
  });
  return out;
}

/** Events rule 1: `_at` epoch seconds (integers, no milliseconds), `_on` YYYY-MM-DD; null allowed (rule 2). */
export function webhook_field_formats(type: string, requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  // Epoch seconds stay below 1e11 until the year 5138; epoch milliseconds of any date after 1973 exceed it.
  const MAX_EPOCH_SECONDS = 1e11;
  const walk = (v: unknown, path: string, i: number) => {
    if (Array.isArray(v)) return v.forEach((x, j) => walk(x, `${path}[${j}]`, i));
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      const at = `${path}.${k}`;
      if (k.endsWith('_at') && x !== null) {
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= MAX_EPOCH_SECONDS) out.push(fail('webhook_field_formats', type, `request[${i}]${at}`, 'Events, Webhooks rule 1: fields ending in _at are Unix epoch seconds (no milliseconds)', `Received: ${JSON.stringify(x)} / Expected: integer epoch seconds`));
      } else if (k.endsWith('_on') && x !== null) {
        if (typeof x !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(x)) out.push(fail('webhook_field_formats', type, `request[${i}]${at}`, 'Events, Webhooks rule 1: fields ending in _on are ISO 8601 dates', `Received: ${JSON.stringify(x)} / Expected: YYYY-MM-DD`));
      } else walk(x, at, i);
    }
  };
  requests.forEach((r, i) => walk(parseBody(r), 'body', i));
  return out;
}

/**
 * Rules 4-5 for ONE delivery (all requests of the list carry the same event):
 * identical bytes on every retry, at most 12 retries, none after a 2xx, and at least
 * one retry when every answer was a failure (unless the caller waited too briefly).
 */
export function webhook_retry_rules(type: string, requests: CapturedRequest[], opts: { expectRetryAfterFailure: boolean }): Failure[] {
  const out: Failure[] = [];
  if (requests.length === 0) return out;
  const first = requests[0].body;
  requests.forEach((r, i) => {
    if (i > 0 && !r.body.equals(first)) out.push(fail('webhook_retry_identical_payload', type, `request[${i}].body`, 'Events, Webhooks rule 4: retries carry an identical payload', `Retry ${i} differs from the first attempt (${r.body.length} vs ${first.length} bytes)`));
  });
  const retries = requests.length - 1;
  if (retries > 12) out.push(fail('webhook_retry_count', type, `request[${requests.length - 1}]`, 'Events, Webhooks rule 5: at most 12 retries after the first attempt', `Received: ${retries} retries / Expected: at most 12`));
  const successAt = requests.findIndex((r) => isSuccessStatus(r.answered));
  if (successAt >= 0 && successAt < requests.length - 1) out.push(fail('webhook_no_retry_after_success', type, `request[${successAt + 1}]`, 'Events, Webhooks rule 4: a status 200-206 is a successful delivery', `Attempt ${successAt} was answered ${requests[successAt].answered}, yet ${requests.length - 1 - successAt} more attempt(s) came`));
  if (opts.expectRetryAfterFailure && successAt < 0 && retries === 0) out.push(fail('webhook_retry_on_failure', type, 'request[0]', 'Events, Webhooks rule 4: any other status, timeout or DNS error triggers a retry', `The only attempt was answered ${requests[0].answered} and no retry came`));
  return out;
}

/**
 * Spacing of retries against the example schedule divided by the time scale (for a
 * target that claims to follow it, i.e. the simulator). Intervals shorter than
 * `minCheckedMs` after scaling are below timer resolution and only need to be ordered.
 */
export function webhook_retry_schedule(type: string, requests: CapturedRequest[], opts: { timeScale: number; jitter: number; minCheckedMs?: number }): Failure[] {
  const out: Failure[] = [];
  const minChecked = opts.minCheckedMs ?? 15;
  for (let i = 1; i < requests.length && i <= EXAMPLE_RETRY_SCHEDULE_S.length; i++) {
    const expected = (EXAMPLE_RETRY_SCHEDULE_S[i - 1] * 1000) / opts.timeScale;
    const actual = requests[i].atMs - requests[i - 1].atMs;
    if (expected < minChecked) continue;
    // Timers fire late under load, never early: the lower bound is the schedule less
    // the jitter (and 2 ms of clock granularity); the upper bound only catches a gross
    // mismatch (3 times the schedule plus 100 ms for a busy machine).
    const low = expected * (1 - opts.jitter) - 2;
    const high = expected * (1 + opts.jitter) * 3 + 100;
    if (actual < low || actual > high) out.push(fail('webhook_retry_schedule', type, `request[${i}]`, 'Events, Webhooks rule 5: retry schedule (30 s, 1 m 16 s, 2 m 32 s, ...) with some randomness', `Retry ${i} came ${actual.toFixed(1)} ms after the previous attempt / Expected about ${expected.toFixed(1)} ms (schedule ÷ time scale ${opts.timeScale})`));
  }
  return out;
}

/** Object key of a body: its guid, member_guid, or the guid of the object named for the type (test webhooks). */
export function objectKeyOf(type: string, body: Record<string, unknown>): string | undefined {
  const inner = body[type];
  const guid = body.guid ?? body.member_guid ?? (inner && typeof inner === 'object' ? (inner as Record<string, unknown>).guid : undefined);
  return typeof guid === 'string' ? `${type}:${guid}` : undefined;
}

/**
 * Events rule 3: a version that rises with each update. Deliveries may arrive out of
 * order (rule 6), so the check is order-free: two DIFFERENT payloads of one object
 * never carry the same version (retries, being byte-identical, are one delivery).
 */
export function webhook_version_rises(type: string, requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  const seen = new Map<string, Map<number, string>>();
  requests.forEach((r, i) => {
    const body = parseBody(r);
    if (!body) return;
    const key = objectKeyOf(type, body);
    if (!key || typeof body.version !== 'number') return;
    const byVersion = seen.get(key) ?? new Map<number, string>();
    seen.set(key, byVersion);
    const text = r.body.toString('utf8');
    const other = byVersion.get(body.version);
    if (other !== undefined && other !== text) out.push(fail('webhook_version_rises', type, `request[${i}].body.version`, 'Events, Webhooks rule 3: version rises with each update', `Two different updates of ${key} both carry version ${body.version}`));
    byVersion.set(body.version, text);
  });
  return out;
}

/** Events rule 7: `action: "test"`, an object named for the type, and `version`. */
export function webhook_test_shape(type: string, requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  requests.forEach((r, i) => {
    const body = parseBody(r);
    if (!body) return;
    const rule = 'Events, Webhooks rule 7: a test webhook has action test, an object named for the type, and version';
    if (body.action !== 'test') out.push(fail('webhook_test_shape', type, `request[${i}].body.action`, rule, `Received: ${JSON.stringify(body.action)} / Expected: "test"`));
    if (!body[type] || typeof body[type] !== 'object') out.push(fail('webhook_test_shape', type, `request[${i}].body.${type}`, rule, `No object named "${type}"`));
    if (!('version' in body)) out.push(fail('webhook_test_shape', type, `request[${i}].body.version`, rule, 'No version'));
  });
  return out;
}

/** Authentication 6, HTTP Basic: every delivery carries the credentials given to the vendor. */
export function webhook_basic_auth(type: string, requests: CapturedRequest[], expected: string): Failure[] {
  return requests.flatMap((r, i) => (r.headers.authorization === expected ? [] : [fail('webhook_receiver_auth', type, `request[${i}].headers.authorization`, 'Authentication 6: optionally HTTP Basic credentials given to the vendor', r.headers.authorization ? 'The Authorization header does not carry the configured Basic credentials' : 'No Authorization header')]));
}

/**
 * Authentication 6, OAuth 2.0 client credentials: token requests use Basic auth and
 * `grant_type=client_credentials` (query or form body); deliveries carry an issued
 * token; a token is reused until `expires_in` runs out.
 */
export function webhook_oauth(type: string, requests: CapturedRequest[], tokens: TokenRequest[], expectedBasic: string, opts: { maxTokenRequests: number }): Failure[] {
  const out: Failure[] = [];
  const rule = 'Authentication 6: OAuth 2.0 client credentials; the vendor reuses the token until it expires and then repeats';
  tokens.forEach((t, i) => {
    if (t.authorization !== expectedBasic) out.push(fail('webhook_oauth', type, `token_request[${i}].headers.authorization`, rule, 'The token request does not carry the client id and secret as Basic authorization'));
    const inQuery = t.query.get('grant_type') === 'client_credentials';
    const inBody = /^application\/x-www-form-urlencoded/i.test(t.contentType ?? '') && new URLSearchParams(t.body).get('grant_type') === 'client_credentials';
    if (!inQuery && !inBody) out.push(fail('webhook_oauth', type, `token_request[${i}]`, rule, 'grant_type=client_credentials is neither in the query string nor in a form-encoded body'));
  });
  const issued = new Set(tokens.map((t) => `Bearer ${t.issued}`));
  requests.forEach((r, i) => {
    if (!issued.has(String(r.headers.authorization))) out.push(fail('webhook_oauth', type, `request[${i}].headers.authorization`, rule, 'The delivery does not carry a token issued by the receiver'));
  });
  if (tokens.length > opts.maxTokenRequests) out.push(fail('webhook_oauth_token_reuse', type, 'token_requests', rule, `Received: ${tokens.length} token requests for ${requests.length} deliveries within one token lifetime / Expected: at most ${opts.maxTokenRequests}`));
  return out;
}

/** Events rule 8: with SVC-SKIP-WEBHOOK no webhook is sent at all. */
export function webhook_skip(type: string, requests: CapturedRequest[]): Failure[] {
  return requests.length === 0 ? [] : [fail('webhook_skip', type, 'request[0]', 'Events, Webhooks rule 8: SVC-SKIP-WEBHOOK', `${requests.length} webhook(s) arrived for a change sent with SVC-SKIP-WEBHOOK`)];
}

type WebhookChecker = (type: string, payload: unknown) => Failure[];
let checker: WebhookChecker | undefined;

/**
 * The contract's webhook check (contracts/: loadContract().checkWebhook) when that
 * module exists; until then ajv on the schema of spec/ (or the fixture). An `enum`
 * mismatch is a warning (spec/CONVENTIONS.md: enumerated fields may gain values).
 */
export async function contractWebhookChecker(): Promise<WebhookChecker> {
  if (checker) return checker;
  try {
    const contractsModule = '../../../contracts/index.ts';
    const mod = (await import(contractsModule)) as { loadContract?: () => { checkWebhook?: (t: string, p: unknown) => Failure[] } };
    const contract = mod.loadContract?.();
    if (contract?.checkWebhook) {
      checker = (t, p) => contract.checkWebhook!(t, p);
      return checker;
    }
  } catch {
    // contracts/ not ready: fall through to ajv on the spec schema.
  }
  const require = createRequire(import.meta.url);
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default ?? require('ajv-formats');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const { schemas } = loadWebhookSchemas();
  const compiled = new Map<string, any>();
  checker = (type, payload) => {
    const schema = schemas[type];
    if (!schema) return [];
    let validate = compiled.get(type);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(type, validate);
    }
    if (validate(payload)) return [];
    return (validate.errors ?? []).map((e: { instancePath: string; keyword: string; message?: string }) => fail('webhook_payload_schema', type, `body${e.instancePath.replace(/\//g, '.')}`, `spec/platform.openapi.yaml webhooks.${type} (${e.keyword})`, e.message ?? e.keyword, e.keyword === 'enum' ? 'warning' : 'error'));
  };
  return checker;
}
