/**
 * Webhook delivery checks (specification, Events, Webhooks rules 1, 3, 4, 5, 7, 8;
 * Authentication 6): what the requests a receiver saw must show, beyond each payload's
 * schema (that is `webhook_payload_conformance`, checks.ts, asked through
 * `contract.checkWebhook`).
 *
 * Each check is registered in the one table of checks (registry.ts) under the name its
 * failures carry (the self-test matrix and spec/trace.yaml's `delivery:` rows name them).
 * A delivery check judges a list of requests, not one payload: it is registered as a
 * webhook check whose guard holds only for a delivery context, so `checkWebhook` never
 * asks it, and it runs through `runDeliveryChecks` (one context, the checks named, a
 * crashing check becomes a failure). The delivery harnesses (scenarios/properties/harness/)
 * ask for them through the functions at the end of this file, one per rule they judge.
 *
 * Where the specification gives only an example (the retry schedule of rule 5), the
 * strict checks are the stated limits (at most 12 retries, identical payload, no retry
 * after a 2xx); spacing against the example schedule is checked only when the caller
 * says the target follows it (the simulator does).
 */
import { inferredSeverity, type Failure } from './failure.ts';
import { crashed, registerCheck, type CheckContext, type CheckDefinition } from './registry.ts';

/** One request a capture receiver saw (scenarios/properties/harness/capture.ts: CapturedRequest). */
export interface DeliveredRequest {
  /** The path the request came to (a receiver with one URL per type tells the type by it). */
  path?: string;
  method: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
  /** performance.now() at arrival, in ms. */
  atMs: number;
  /** The status the receiver answered, or 'timeout' when it held the answer back. */
  answered: number | 'timeout';
}

/** One request to the receiver's OAuth token endpoint (Authentication 6). */
export interface TokenRequested {
  query: URLSearchParams;
  body: string;
  authorization?: string;
  contentType?: string;
  /** The token the receiver issued in answer. */
  issued: string;
}

/** What a delivery check may need besides the requests; each check reads its own. */
export interface DeliveryParams {
  /** webhook_retry_on_failure: every answer was a failure and the caller waited long enough for a retry. */
  expectRetryAfterFailure?: boolean;
  /** webhook_retry_schedule: the target's time scale and jitter (the example schedule ÷ timeScale). */
  timeScale?: number;
  jitter?: number;
  minCheckedMs?: number;
  /** webhook_receiver_auth / webhook_oauth: the Authorization the vendor was given (Basic). */
  expectedAuthorization?: string;
  /** webhook_oauth: the token requests the receiver saw. */
  tokens?: readonly TokenRequested[];
  /** webhook_oauth_token_reuse: most token requests allowed within the run. */
  maxTokenRequests?: number;
  /** webhook_x_callback_payload: the X-CALLBACK-PAYLOAD sent with the member change. */
  callbackPayload?: string;
  /**
   * webhook_x_callback_payload on a stream of several types: only the member and member
   * data updated deliveries about this member are judged (the others are not the run's).
   */
  callbackMemberGuid?: string;
  /** A stream's retry rules: the profile is strict (an unseen retry is inferred) and how long the capture waited. */
  strict?: boolean;
  waitMs?: number;
  /** webhook_user_id: the user the run created, with the `id` it gave it, and that user's member. */
  runUser?: { guid: string; id: string; memberGuid: string };
  /** webhook_member_latest_state: the member as read once the deliveries about it had settled. */
  memberRead?: { guid: string; connection_status?: unknown; is_being_aggregated?: unknown };
}

/**
 * The context of a delivery check: the requests of one webhook type (or one delivery),
 * or, with `type` MIXED_TYPES, everything a receiver saw from a service (several types,
 * several deliveries, retries among them: a real service's deliveries, scenarios/properties/live-delivery.spec.ts): each
 * request's type is then told by `deliveryType`.
 */
export interface DeliveryContext {
  kind: 'delivery';
  type: string;
  operationKey: string;
  requests: readonly DeliveredRequest[];
  params: DeliveryParams;
}

const OP = (type: string) => `WEBHOOK ${type}`;
const fail = (check: string, type: string, location: string, rule: string, message: string, severity: Failure['severity'] = 'error'): Failure => ({
  check,
  operation: OP(type),
  location,
  rule,
  severity,
  message,
});

/** A finding of an expectation no sentence states: it gates only under a strict profile (DESIGN.md, "Checks and failures"). */
const failInferred = (check: string, type: string, location: string, rule: string, message: string, strict: boolean | undefined): Failure => ({
  ...fail(check, type, location, rule, message, inferredSeverity(strict)),
  tier: 'inferred',
});

/** Events rule 4. */
const isSuccessStatus = (s: number | 'timeout') => typeof s === 'number' && s >= 200 && s <= 206;
/** Events rule 5 (example schedule, seconds between attempts). */
const EXAMPLE_RETRY_SCHEDULE_S = [30, 76, 152, 308, 654, 1384, 2800, 5336, 9582, 16308, 26488, 41324];

/** The body of a delivery as a JSON object, or undefined (not JSON, or not an object). */
export function parseBody(r: { body: Buffer }): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(r.body.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The `type` of a delivery context holding every request a receiver saw, of any type. */
export const MIXED_TYPES = '*';

/** The webhook types the specification names (Events, Webhooks; spec/CONVENTIONS.md keys). */
export const WEBHOOK_TYPES = [
  'member',
  'member_data_updated',
  'aggregation',
  'balance',
  'connection_status',
  'history',
  'insights',
  'statements',
  'initial_data_ready',
  'spending_plan',
  'verification',
  'transaction_notification',
  'account_notification',
  'budgets',
  'goals',
  'beats',
] as const;

/**
 * The type of a delivery, when it can be told: the last path segment when it names a
 * type (a receiver given one URL per type, Events: "configured per event type"), else
 * the one top-level key of the body that names a type and holds an object (rule 7's
 * "object named for the webhook type"). Undefined when neither tells.
 */
export function deliveryType(r: { path?: string; body: Buffer }): string | undefined {
  const last = r.path?.split('/').filter(Boolean).pop();
  if (last && (WEBHOOK_TYPES as readonly string[]).includes(last)) return last;
  const body = parseBody(r);
  if (!body) return undefined;
  const named = WEBHOOK_TYPES.filter((t) => body[t] && typeof body[t] === 'object' && !Array.isArray(body[t]));
  return named.length === 1 ? named[0] : undefined;
}

/** The type a check judges a request as: the context's, or the request's own in a mixed stream. */
const typeIn = (ctx: Pick<DeliveryContext, 'type'>, r: DeliveredRequest): string | undefined => (ctx.type === MIXED_TYPES ? deliveryType(r) : ctx.type);

const isTestDelivery = (body: Record<string, unknown> | undefined) => body?.action === 'test';

/** The object named for the type, when the body has one. */
function innerOf(type: string, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const v = body[type];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A field at the top level or in the object named for the type (where is not shown: Events rule 9). */
function fieldOf(type: string, body: Record<string, unknown>, name: string): { present: boolean; value: unknown } {
  if (name in body) return { present: true, value: body[name] };
  const inner = innerOf(type, body);
  if (inner && name in inner) return { present: true, value: inner[name] };
  return { present: false, value: undefined };
}

/** Identity of the object a delivery is about: its guid (or member_guid), top level or in the object named for the type. */
export function objectGuid(type: string, body: Record<string, unknown>): string | undefined {
  const inner = innerOf(type, body) ?? {};
  const g = body.guid ?? inner.guid ?? body.member_guid ?? inner.member_guid;
  return typeof g === 'string' ? g : undefined;
}

// ---- registration and the runner ----------------------------------------------------

const registered = new Map<string, CheckDefinition>();

function deliveryCheck(def: { name: string; description: string; run: (ctx: DeliveryContext) => Failure[] }): void {
  const check: CheckDefinition = {
    name: def.name,
    kind: 'webhook',
    description: `${def.description} (a delivery check: asked with the requests a receiver saw, contracts/delivery.ts)`,
    // A delivery context is not one of registry.ts's contexts: a payload (checkWebhook) never matches.
    appliesTo: (ctx) => (ctx as { kind: string }).kind === 'delivery',
    run: (ctx) => def.run(ctx as unknown as DeliveryContext),
  };
  registerCheck(check);
  registered.set(def.name, check);
}

/**
 * Runs the named delivery checks, in order, on the requests of one webhook type. A
 * check that throws becomes a failure (a bad delivery never crashes the suite).
 */
export function runDeliveryChecks(names: readonly string[], type: string, requests: readonly DeliveredRequest[], params: DeliveryParams = {}): Failure[] {
  const ctx: DeliveryContext = { kind: 'delivery', type, operationKey: OP(type), requests, params };
  const out: Failure[] = [];
  for (const name of names) {
    const def = registered.get(name);
    if (!def) {
      out.push(
        crashed(name, ctx.operationKey, 'deliveries', 'lookup', new Error(`no delivery check named "${name}" (known: ${[...registered.keys()].join(', ')})`)),
      );
      continue;
    }
    try {
      for (const f of def.run(ctx as unknown as CheckContext)) out.push(f);
    } catch (e) {
      out.push(crashed(name, ctx.operationKey, 'deliveries', 'run', e));
    }
  }
  return out;
}

// ---- the checks -----------------------------------------------------------------------

deliveryCheck({
  name: 'webhook_json_post',
  description: 'Every delivery is a POST with a JSON object body and a JSON Content-Type (Events, Webhooks: "HTTPS POST requests with a JSON body")',
  run: ({ type, requests }) => {
    const out: Failure[] = [];
    requests.forEach((r, i) => {
      if (r.method !== 'POST')
        out.push(fail('webhook_json_post', type, `request[${i}].method`, 'Events, Webhooks: HTTPS POST', `Received: ${r.method} / Expected: POST`));
      if (!/^application\/json\b/i.test(String(r.headers['content-type'] ?? '')))
        out.push(
          fail(
            'webhook_json_post',
            type,
            `request[${i}].headers.content-type`,
            'Events, Webhooks: JSON body',
            `Received: ${r.headers['content-type'] ?? '(none)'} / Expected: application/json`,
          ),
        );
      if (!parseBody(r)) out.push(fail('webhook_json_post', type, `request[${i}].body`, 'Events, Webhooks: JSON body', 'The body is not a JSON object'));
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_field_formats',
  description: 'Fields ending in _at are integer epoch seconds, fields ending in _on are YYYY-MM-DD; null allowed (Events rules 1-2)',
  run: ({ type, requests }) => {
    const out: Failure[] = [];
    // Epoch seconds stay below 1e11 until the year 5138; epoch milliseconds of any date after 1973 exceed it.
    const MAX_EPOCH_SECONDS = 1e11;
    const walk = (v: unknown, path: string, i: number) => {
      if (Array.isArray(v))
        return v.forEach((x, j) => {
          walk(x, `${path}[${j}]`, i);
        });
      if (!v || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        const at = `${path}.${k}`;
        if (k.endsWith('_at') && x !== null) {
          if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= MAX_EPOCH_SECONDS)
            out.push(
              fail(
                'webhook_field_formats',
                type,
                `request[${i}]${at}`,
                'Events, Webhooks rule 1: fields ending in _at are Unix epoch seconds (no milliseconds)',
                `Received: ${JSON.stringify(x)} / Expected: integer epoch seconds`,
              ),
            );
        } else if (k.endsWith('_on') && x !== null) {
          if (typeof x !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(x))
            out.push(
              fail(
                'webhook_field_formats',
                type,
                `request[${i}]${at}`,
                'Events, Webhooks rule 1: fields ending in _on are ISO 8601 dates',
                `Received: ${JSON.stringify(x)} / Expected: YYYY-MM-DD`,
              ),
            );
        } else walk(x, at, i);
      }
    };
    requests.forEach((r, i) => {
      walk(parseBody(r), 'body', i);
    });
    return out;
  },
});

// Rules 4-5 for ONE delivery (all requests of the list carry the same event).

deliveryCheck({
  name: 'webhook_retry_identical_payload',
  description: 'Every retry of a delivery carries the bytes of the first attempt (Events rule 4: "identical payload")',
  run: ({ type, requests }) => {
    const out: Failure[] = [];
    if (requests.length === 0) return out;
    const first = requests[0].body;
    requests.forEach((r, i) => {
      if (i > 0 && !r.body.equals(first))
        out.push(
          fail(
            'webhook_retry_identical_payload',
            type,
            `request[${i}].body`,
            'Events, Webhooks rule 4: retries carry an identical payload',
            `Retry ${i} differs from the first attempt (${r.body.length} vs ${first.length} bytes)`,
          ),
        );
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_retry_count',
  description: 'At most 12 retries after the first attempt of a delivery (Events rule 5)',
  run: ({ type, requests }) => {
    const retries = requests.length - 1;
    return retries > 12
      ? [
          fail(
            'webhook_retry_count',
            type,
            `request[${requests.length - 1}]`,
            'Events, Webhooks rule 5: at most 12 retries after the first attempt',
            `Received: ${retries} retries / Expected: at most 12`,
          ),
        ]
      : [];
  },
});

deliveryCheck({
  name: 'webhook_no_retry_after_success',
  description: 'No attempt follows one answered 200-206 (Events rule 4: a successful delivery)',
  run: ({ type, requests }) => {
    const successAt = requests.findIndex((r) => isSuccessStatus(r.answered));
    if (successAt < 0 || successAt >= requests.length - 1) return [];
    return [
      fail(
        'webhook_no_retry_after_success',
        type,
        `request[${successAt + 1}]`,
        'Events, Webhooks rule 4: a status 200-206 is a successful delivery',
        `Attempt ${successAt} was answered ${requests[successAt].answered}, yet ${requests.length - 1 - successAt} more attempt(s) came`,
      ),
    ];
  },
});

deliveryCheck({
  name: 'webhook_retry_on_failure',
  description: 'A delivery whose only attempt was answered with a failure is retried, when the caller waited long enough (Events rule 4)',
  run: ({ type, requests, params }) => {
    if (!params.expectRetryAfterFailure || requests.length !== 1 || isSuccessStatus(requests[0].answered)) return [];
    return [
      fail(
        'webhook_retry_on_failure',
        type,
        'request[0]',
        'Events, Webhooks rule 4: any other status, timeout or DNS error triggers a retry',
        `The only attempt was answered ${requests[0].answered} and no retry came`,
      ),
    ];
  },
});

deliveryCheck({
  name: 'webhook_retry_schedule',
  description: 'Retries are spaced as the example schedule of Events rule 5 divided by the time scale (only for a target that follows it: the simulator)',
  run: ({ type, requests, params }) => {
    const out: Failure[] = [];
    const timeScale = params.timeScale;
    const jitter = params.jitter;
    if (timeScale === undefined || jitter === undefined) return out;
    // Intervals shorter than this after scaling are below timer resolution and only need to be ordered.
    const minChecked = params.minCheckedMs ?? 15;
    for (let i = 1; i < requests.length && i <= EXAMPLE_RETRY_SCHEDULE_S.length; i++) {
      const expected = (EXAMPLE_RETRY_SCHEDULE_S[i - 1] * 1000) / timeScale;
      const actual = requests[i].atMs - requests[i - 1].atMs;
      if (expected < minChecked) continue;
      // Timers fire late under load, never early: the lower bound is the schedule less
      // the jitter (and 2 ms of clock granularity); the upper bound only catches a gross
      // mismatch (3 times the schedule plus 100 ms for a busy machine).
      const low = expected * (1 - jitter) - 2;
      const high = expected * (1 + jitter) * 3 + 100;
      if (actual < low || actual > high)
        out.push(
          fail(
            'webhook_retry_schedule',
            type,
            `request[${i}]`,
            'Events, Webhooks rule 5: retry schedule (30 s, 1 m 16 s, 2 m 32 s, ...) with some randomness',
            `Retry ${i} came ${actual.toFixed(1)} ms after the previous attempt / Expected about ${expected.toFixed(1)} ms (schedule ÷ time scale ${timeScale})`,
          ),
        );
    }
    return out;
  },
});

deliveryCheck({
  name: 'webhook_version_rises',
  description:
    'Member webhooks carry a version, and two different payloads of one object never carry the same version (Events rule 3; order-free, as deliveries may arrive out of order, rule 6)',
  run: (ctx) => {
    // Retries, being byte-identical, are one delivery. In a mixed stream a test webhook
    // (generated on request, rule 7) is no update of its object and is left to
    // webhook_test_shape; a list the caller gave as one type is judged whole.
    const out: Failure[] = [];
    const rule = 'Events, Webhooks rule 3: object-based webhooks (such as member) carry a version that rises with each update';
    const seen = new Map<string, Map<string, string>>();
    ctx.requests.forEach((r, i) => {
      const body = parseBody(r);
      const type = typeIn(ctx, r);
      if (!body || !type || (ctx.type === MIXED_TYPES && isTestDelivery(body))) return;
      const v = fieldOf(type, body, 'version');
      if (type === 'member' && !isTestDelivery(body) && (!v.present || v.value === null))
        out.push(fail('webhook_version_rises', type, `request[${i}].body.version`, rule, 'The member webhook carries no version'));
      if (!v.present || v.value === null) return;
      const guid = objectGuid(type, body);
      if (!guid) return;
      const key = `${type}:${guid}`;
      const byVersion = seen.get(key) ?? new Map<string, string>();
      seen.set(key, byVersion);
      const text = r.body.toString('utf8');
      const vk = JSON.stringify(v.value);
      const other = byVersion.get(vk);
      if (other !== undefined && other !== text)
        out.push(fail('webhook_version_rises', type, `request[${i}].body.version`, rule, `Two different updates of ${key} both carry version ${vk}`));
      byVersion.set(vk, text);
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_test_shape',
  description: 'A test webhook has action "test", an object named for the type, and version (Events rule 7)',
  run: ({ type, requests }) => {
    const out: Failure[] = [];
    requests.forEach((r, i) => {
      const body = parseBody(r);
      if (!body) return;
      const rule = 'Events, Webhooks rule 7: a test webhook has action test, an object named for the type, and version';
      if (body.action !== 'test')
        out.push(fail('webhook_test_shape', type, `request[${i}].body.action`, rule, `Received: ${JSON.stringify(body.action)} / Expected: "test"`));
      if (!body[type] || typeof body[type] !== 'object')
        out.push(fail('webhook_test_shape', type, `request[${i}].body.${type}`, rule, `No object named "${type}"`));
      if (!('version' in body)) out.push(fail('webhook_test_shape', type, `request[${i}].body.version`, rule, 'No version'));
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_receiver_auth',
  description: 'Every delivery carries the HTTP Basic credentials given to the vendor (Authentication 6)',
  run: ({ type, requests, params }) => {
    const expected = params.expectedAuthorization;
    return requests.flatMap((r, i) =>
      r.headers.authorization === expected
        ? []
        : [
            fail(
              'webhook_receiver_auth',
              type,
              `request[${i}].headers.authorization`,
              'Authentication 6: optionally HTTP Basic credentials given to the vendor',
              r.headers.authorization ? 'The Authorization header does not carry the configured Basic credentials' : 'No Authorization header',
            ),
          ],
    );
  },
});

const OAUTH_RULE = 'Authentication 6: OAuth 2.0 client credentials; the vendor reuses the token until it expires and then repeats';

deliveryCheck({
  name: 'webhook_oauth',
  description:
    'Token requests use Basic authorization and grant_type=client_credentials (query or form body); deliveries carry an issued token (Authentication 6)',
  run: ({ type, requests, params }) => {
    const out: Failure[] = [];
    const tokens = params.tokens ?? [];
    tokens.forEach((t, i) => {
      if (t.authorization !== params.expectedAuthorization)
        out.push(
          fail(
            'webhook_oauth',
            type,
            `token_request[${i}].headers.authorization`,
            OAUTH_RULE,
            'The token request does not carry the client id and secret as Basic authorization',
          ),
        );
      const inQuery = t.query.get('grant_type') === 'client_credentials';
      const inBody = /^application\/x-www-form-urlencoded/i.test(t.contentType ?? '') && new URLSearchParams(t.body).get('grant_type') === 'client_credentials';
      if (!inQuery && !inBody)
        out.push(
          fail(
            'webhook_oauth',
            type,
            `token_request[${i}]`,
            OAUTH_RULE,
            'grant_type=client_credentials is neither in the query string nor in a form-encoded body',
          ),
        );
    });
    const issued = new Set(tokens.map((t) => `Bearer ${t.issued}`));
    requests.forEach((r, i) => {
      if (!issued.has(String(r.headers.authorization)))
        out.push(fail('webhook_oauth', type, `request[${i}].headers.authorization`, OAUTH_RULE, 'The delivery does not carry a token issued by the receiver'));
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_oauth_token_reuse',
  description: 'A token is reused until expires_in runs out: no more token requests than token lifetimes (Authentication 6)',
  run: ({ type, requests, params }) => {
    const tokens = params.tokens ?? [];
    const max = params.maxTokenRequests;
    if (max === undefined || tokens.length <= max) return [];
    return [
      fail(
        'webhook_oauth_token_reuse',
        type,
        'token_requests',
        OAUTH_RULE,
        `Received: ${tokens.length} token requests for ${requests.length} deliveries within one token lifetime / Expected: at most ${max}`,
      ),
    ];
  },
});

deliveryCheck({
  name: 'webhook_skip',
  description: 'No webhook is sent for a change made with SVC-SKIP-WEBHOOK (Events rule 8)',
  run: ({ type, requests }) =>
    requests.length === 0
      ? []
      : [
          fail(
            'webhook_skip',
            type,
            'request[0]',
            'Events, Webhooks rule 8: SVC-SKIP-WEBHOOK',
            `${requests.length} webhook(s) arrived for a change sent with SVC-SKIP-WEBHOOK`,
          ),
        ],
});

deliveryCheck({
  name: 'webhook_x_callback_payload',
  description: 'The X-CALLBACK-PAYLOAD given on create, update or aggregate member comes back in the member and member data updated webhooks (Events rule 8)',
  run: (ctx) => {
    const out: Failure[] = [];
    const expected = ctx.params.callbackPayload;
    const member = ctx.params.callbackMemberGuid;
    ctx.requests.forEach((r, i) => {
      const body = parseBody(r);
      if (!body) return; // not JSON: webhook_json_post reports it
      const type = typeIn(ctx, r);
      if (!type) return;
      // In a mixed stream only the member and member data updated webhooks of the run's member are asked.
      if (ctx.type === MIXED_TYPES && (isTestDelivery(body) || (type !== 'member' && type !== 'member_data_updated'))) return;
      if (member !== undefined && objectGuid(type, body) !== member) return;
      const got = fieldOf(type, body, 'x_callback_payload').value;
      if (got !== expected) {
        out.push(
          fail(
            'webhook_x_callback_payload',
            type,
            `request[${i}].body.x_callback_payload`,
            'Events, Webhooks rule 8: if X-CALLBACK-PAYLOAD was set on create, update, aggregate or verify member, it appears in the member and member data updated webhooks',
            `Received: ${JSON.stringify(got)} / Expected: ${JSON.stringify(expected)}${member ? ` (member ${member})` : ''}`,
          ),
        );
      }
    });
    return out;
  },
});

const MEMBER_USER_ID_RULE = 'Resources, Member: "user_id | string | client identifier of the user"';

deliveryCheck({
  name: 'webhook_user_id',
  description:
    "A member webhook's user_id, where served, is the client identifier of the member's user (Resources, Member); an aggregation payload's, about the same member, the same (inferred: rule 9 names user_id in aggregation payloads, its meaning is stated for the Member only)",
  run: (ctx) => {
    const user = ctx.params.runUser;
    if (!user) return [];
    const out: Failure[] = [];
    ctx.requests.forEach((r, i) => {
      const body = parseBody(r);
      const type = typeIn(ctx, r);
      if (!body || isTestDelivery(body) || (type !== 'member' && type !== 'aggregation')) return;
      const about = type === 'member' ? objectGuid(type, body) === user.memberGuid : fieldOf(type, body, 'member_guid').value === user.memberGuid;
      const got = fieldOf(type, body, 'user_id').value;
      // Rule 2: fields can be null; a field only named may be left out.
      if (!about || got === undefined || got === null || got === user.id) return;
      const message = `Received: user_id ${JSON.stringify(got)} / Expected: ${JSON.stringify(user.id)}, the id the client gave user ${user.guid} (member ${user.memberGuid})`;
      if (type === 'member') out.push(fail('webhook_user_id', type, `request[${i}].body.user_id`, MEMBER_USER_ID_RULE, message));
      else
        out.push(
          failInferred(
            'webhook_user_id',
            type,
            `request[${i}].body.user_id`,
            `Events, Webhooks rule 9: "aggregation payloads include job_guid, is_background, user_id", read as the Member's user_id (${MEMBER_USER_ID_RULE})`,
            message,
            ctx.params.strict,
          ),
        );
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_member_latest_state',
  description:
    "The member webhook of the highest version about a member agrees with the member read once its deliveries settled, on connection_status and is_being_aggregated (inferred: rule 3's version rises with each update and receivers keep the highest; that each update is delivered, and when, is not stated)",
  run: (ctx) => {
    const read = ctx.params.memberRead;
    if (!read) return [];
    const about = ctx.requests
      .map((r, i) => ({ i, body: parseBody(r), type: typeIn(ctx, r) }))
      .filter((x): x is { i: number; body: Record<string, unknown>; type: string } => x.type === 'member' && !!x.body && !isTestDelivery(x.body))
      .filter((x) => objectGuid('member', x.body) === read.guid)
      .map((x) => ({ ...x, version: fieldOf('member', x.body, 'version').value }))
      .filter((x): x is typeof x & { version: number } => typeof x.version === 'number');
    if (!about.length) return [];
    const latest = about.reduce((a, b) => (b.version > a.version ? b : a));
    const out: Failure[] = [];
    for (const name of ['connection_status', 'is_being_aggregated'] as const) {
      const got = fieldOf('member', latest.body, name);
      if (!got.present || read[name] === undefined || got.value === read[name]) continue;
      out.push(
        failInferred(
          'webhook_member_latest_state',
          'member',
          `request[${latest.i}].body.${name}`,
          'Events, Webhooks rule 3: "a version that rises with each update; receivers compare it with the stored version"; Resources, Member: is_being_aggregated "true while aggregation runs, false once complete"',
          `The member webhook of the highest version (${latest.version}) about ${read.guid} says ${name} ${JSON.stringify(got.value)}; the member read after its deliveries settled says ${JSON.stringify(read[name])}: a receiver that keeps the highest version is left with the other`,
          ctx.params.strict,
        ),
      );
    }
    return out;
  },
});

/** Events rule 9: the fields each payload includes (values may be null, rule 2; where in the payload is not shown). */
export const RULE9_FIELDS: Readonly<Record<string, readonly string[]>> = {
  member: ['is_oauth', 'is_being_aggregated'],
  aggregation: ['job_guid', 'is_background', 'user_id'],
  transaction_notification: ['member_guid'],
  account_notification: ['member_guid'],
  verification: ['accounts'],
};

deliveryCheck({
  name: 'webhook_rule9_fields',
  description:
    'Member, aggregation, notification and verification payloads include the fields Events rule 9 names (at the top level or in the object named for the type: where is not shown)',
  run: (ctx) => {
    const out: Failure[] = [];
    ctx.requests.forEach((r, i) => {
      const body = parseBody(r);
      const type = typeIn(ctx, r);
      if (!body || !type || isTestDelivery(body) || !RULE9_FIELDS[type]) return;
      for (const name of RULE9_FIELDS[type]) {
        if (!fieldOf(type, body, name).present) {
          out.push(
            fail(
              'webhook_rule9_fields',
              type,
              `request[${i}].body.${name}`,
              `Events, Webhooks rule 9: ${type} payloads include ${RULE9_FIELDS[type].join(', ')}`,
              `No field ${name} (neither at the top level nor in the "${type}" object)`,
            ),
          );
        }
      }
    });
    return out;
  },
});

deliveryCheck({
  name: 'webhook_https',
  description:
    'Deliveries come over HTTPS (Events, Webhooks: "The service sends HTTPS POST requests"): a proxy that says how a request came in (X-Forwarded-Proto) says https',
  run: (ctx) =>
    ctx.requests.flatMap((r, i) => {
      const proto = r.headers['x-forwarded-proto'];
      if (proto === undefined || String(proto).split(',')[0].trim().toLowerCase() === 'https') return [];
      return [
        fail(
          'webhook_https',
          typeIn(ctx, r) ?? 'unknown',
          `request[${i}].headers.x-forwarded-proto`,
          'Events, Webhooks: the service sends HTTPS POST requests',
          `Received: X-Forwarded-Proto ${proto} / Expected: https`,
        ),
      ];
    }),
});

/** Events, Webhooks: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements." */
const PLATFORM_CLIENT_TYPES = ['aggregation', 'balance', 'connection_status', 'history', 'insights', 'statements'] as const;

deliveryCheck({
  name: 'webhook_platform_types',
  description:
    "A platform client receives only aggregation, balance, connection status, history, insights and statements webhooks (Events, Webhooks); deliveries whose type cannot be told are not judged. Which kind of client the credentials belong to is the caller's to say",
  run: (ctx) =>
    ctx.requests.flatMap((r, i) => {
      const type = typeIn(ctx, r);
      if (!type || (PLATFORM_CLIENT_TYPES as readonly string[]).includes(type)) return [];
      return [
        fail(
          'webhook_platform_types',
          type,
          `request[${i}]`,
          'Events, Webhooks: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements"',
          `A platform client received a ${type} webhook`,
        ),
      ];
    }),
});

deliveryCheck({
  name: 'webhook_retries_in_stream',
  description:
    'In a stream of deliveries (a capture that answered failures): each failed delivery comes again with identical bytes, at most 12 times; a later delivery of the same object, version and action with other bytes is a changed retry; no retry at all within the wait is inferred only (rule 5 puts retry 1 at 30 s in an example) (Events rules 4-5)',
  run: (ctx) => streamRetries(ctx).failures,
});

/**
 * Events rules 4-5 over a stream: which deliveries failed (answered other than 204 and not
 * themselves a retry), which were retried, and the failures. The failures carry the name
 * of the per-delivery rule they break (webhook_retry_count, webhook_retry_identical_payload,
 * webhook_retry_on_failure), as the per-delivery checks do.
 */
export function streamRetries(ctx: Pick<DeliveryContext, 'type' | 'requests' | 'params'>): { failures: Failure[]; failed: number; retried: number } {
  const out: Failure[] = [];
  const { requests } = ctx;
  let failed = 0;
  let retried = 0;
  const versionOf = (type: string, b: Record<string, unknown>) => fieldOf(type, b, 'version');
  requests.forEach((r, i) => {
    if (r.answered === 204 || r.answered === 'timeout') return;
    if (requests.slice(0, i).some((x) => x.body.equals(r.body))) return; // itself a retry
    failed++;
    const type = typeIn(ctx, r) ?? 'unknown';
    const later = requests.slice(i + 1);
    const identical = later.filter((x) => x.body.equals(r.body));
    if (identical.length) {
      retried++;
      if (identical.length > 12)
        out.push(
          fail(
            'webhook_retry_count',
            type,
            `request[${i}]`,
            'Events, Webhooks rule 5: at most 12 retries after the first attempt',
            `Received: ${identical.length} retries`,
          ),
        );
      return;
    }
    const body = parseBody(r);
    const guid = body && objectGuid(type, body);
    const version = body ? versionOf(type, body) : undefined;
    const changed =
      body && guid && version?.present
        ? later.find((x) => {
            const b = parseBody(x);
            return (
              b &&
              typeIn(ctx, x) === typeIn(ctx, r) &&
              objectGuid(type, b) === guid &&
              JSON.stringify(versionOf(type, b).value) === JSON.stringify(version.value) &&
              b.action === body.action
            );
          })
        : undefined;
    if (changed) {
      out.push(
        fail(
          'webhook_retry_identical_payload',
          type,
          `request[${requests.indexOf(changed)}].body`,
          'Events, Webhooks rule 4: retries carry an identical payload',
          `The delivery of ${type}:${guid} version ${JSON.stringify(version!.value)} answered ${r.answered} came again with different bytes (${changed.body.length} vs ${r.body.length})`,
        ),
      );
      return;
    }
    out.push(
      failInferred(
        'webhook_retry_on_failure',
        type,
        `request[${i}]`,
        'Events, Webhooks rule 4: any other status, timeout or DNS error triggers a retry (retry 1 at 30 s in the example schedule of rule 5)',
        `The delivery answered ${r.answered} was not retried within SVC_WEBHOOK_WAIT_MS=${ctx.params.waitMs ?? '?'} ms${nearRetry(ctx, r, later)}`,
        ctx.params.strict,
      ),
    );
  });
  return { failures: out, failed, retried };
}

/**
 * Where a failed delivery of an object without a version got no identical retry: the first
 * later delivery of the same type, object and action, and the fields in which it differs
 * (a retry built afresh, rule 4's "identical payload" broken, or a new event: which, the
 * payload does not say), so a reader sees the likely cause first. Empty when there is none.
 */
function nearRetry(ctx: Pick<DeliveryContext, 'type' | 'requests'>, r: DeliveredRequest, later: readonly DeliveredRequest[]): string {
  const type = typeIn(ctx, r);
  const body = parseBody(r);
  if (!type || !body) return '';
  const guid = objectGuid(type, body);
  const flat = (o: Record<string, unknown>) => ({ ...o, ...(innerOf(type, o) ?? {}) });
  const before = flat(body);
  // Another job (rule 9's job_guid) is another event, never this one's retry.
  const sameEvent = (b: Record<string, unknown>) =>
    b.action === body.action && objectGuid(type, b) === guid && JSON.stringify(flat(b).job_guid) === JSON.stringify(before.job_guid);
  const differing = (b: Record<string, unknown>) => {
    const after = flat(b);
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== type && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  };
  // The closest later delivery of the same event: the fewest fields apart.
  const near = later
    .map((x) => ({ x, b: parseBody(x) }))
    .filter((c): c is { x: DeliveredRequest; b: Record<string, unknown> } => !!c.b && typeIn(ctx, c.x) === type && sameEvent(c.b))
    .map((c) => ({ at: ctx.requests.indexOf(c.x), differ: differing(c.b) }))
    .sort((a, b) => a.differ.length - b.differ.length)[0];
  if (!near) return '';
  return `; request[${near.at}], a later ${type} delivery about the same object with the same action, differs from it in ${near.differ.join(', ') || 'field order only'} (rule 4: "Retries carry an identical payload", if it is the retry)`;
}

/** The delivery checks, in registration order. */
export const DELIVERY_CHECKS = [...registered.keys()];

// ---- one function per rule, for the delivery harnesses -----------------------------------

/** A JSON POST (Events: "HTTPS POST requests with a JSON body"). */
export const webhook_json_post = (type: string, requests: readonly DeliveredRequest[]) => runDeliveryChecks(['webhook_json_post'], type, requests);

/** Events rule 1: `_at` epoch seconds (integers, no milliseconds), `_on` YYYY-MM-DD; null allowed (rule 2). */
export const webhook_field_formats = (type: string, requests: readonly DeliveredRequest[]) => runDeliveryChecks(['webhook_field_formats'], type, requests);

/**
 * Rules 4-5 for ONE delivery (all requests of the list carry the same event):
 * identical bytes on every retry, at most 12 retries, none after a 2xx, and at least
 * one retry when every answer was a failure (unless the caller waited too briefly).
 */
export const webhook_retry_rules = (type: string, requests: readonly DeliveredRequest[], opts: { expectRetryAfterFailure: boolean }) =>
  runDeliveryChecks(
    ['webhook_retry_identical_payload', 'webhook_retry_count', 'webhook_no_retry_after_success', 'webhook_retry_on_failure'],
    type,
    requests,
    opts,
  );

/**
 * Spacing of retries against the example schedule divided by the time scale (for a
 * target that claims to follow it, i.e. the simulator). Intervals shorter than
 * `minCheckedMs` after scaling are below timer resolution and only need to be ordered.
 */
export const webhook_retry_schedule = (
  type: string,
  requests: readonly DeliveredRequest[],
  opts: { timeScale: number; jitter: number; minCheckedMs?: number },
) => runDeliveryChecks(['webhook_retry_schedule'], type, requests, opts);

/** Events rule 3: a version that rises with each update (order-free). */
export const webhook_version_rises = (type: string, requests: readonly DeliveredRequest[]) => runDeliveryChecks(['webhook_version_rises'], type, requests);

/** Events rule 7: `action: "test"`, an object named for the type, and `version`. */
export const webhook_test_shape = (type: string, requests: readonly DeliveredRequest[]) => runDeliveryChecks(['webhook_test_shape'], type, requests);

/** Authentication 6, HTTP Basic: every delivery carries the credentials given to the vendor (check webhook_receiver_auth). */
export const webhook_basic_auth = (type: string, requests: readonly DeliveredRequest[], expected: string) =>
  runDeliveryChecks(['webhook_receiver_auth'], type, requests, { expectedAuthorization: expected });

/**
 * Authentication 6, OAuth 2.0 client credentials: token requests use Basic auth and
 * `grant_type=client_credentials` (query or form body); deliveries carry an issued
 * token; a token is reused until `expires_in` runs out.
 */
export const webhook_oauth = (
  type: string,
  requests: readonly DeliveredRequest[],
  tokens: readonly TokenRequested[],
  expectedBasic: string,
  opts: { maxTokenRequests: number },
) =>
  runDeliveryChecks(['webhook_oauth', 'webhook_oauth_token_reuse'], type, requests, {
    tokens,
    expectedAuthorization: expectedBasic,
    maxTokenRequests: opts.maxTokenRequests,
  });

/** Events rule 8: with SVC-SKIP-WEBHOOK no webhook is sent at all. */
export const webhook_skip = (type: string, requests: readonly DeliveredRequest[]) => runDeliveryChecks(['webhook_skip'], type, requests);

/** Events rule 8: every member webhook of a member created with X-CALLBACK-PAYLOAD carries it. */
export const webhook_x_callback_payload = (type: string, requests: readonly DeliveredRequest[], expected: string) =>
  runDeliveryChecks(['webhook_x_callback_payload'], type, requests, { callbackPayload: expected });

/**
 * What a receiver is left with about the run's member, over a stream of every type: the
 * user_id its member and aggregation webhooks carry (Resources, Member; rule 9, inferred)
 * and the state of its highest-version member webhook against the member read (rule 3, inferred).
 */
export const webhook_member_state = (requests: readonly DeliveredRequest[], params: Pick<DeliveryParams, 'runUser' | 'memberRead' | 'strict'>) =>
  runDeliveryChecks(['webhook_user_id', 'webhook_member_latest_state'], MIXED_TYPES, requests, params);
