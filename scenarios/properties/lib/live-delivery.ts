/**
 * Webhook deliveries of a real service (issue 12, item 1): the settings, the capture's
 * answers and the checks of scenarios/properties/live-delivery.spec.ts. Pure functions
 * over what a CaptureReceiver (./capture.ts) saw; they return Failures and never throw.
 *
 * Where a rule's authority comes from (contracts/failure.ts, Tier): each failure quotes
 * the Events sentence it enforces. What the specification leaves open (where in the
 * payload a field sits, which webhooks a trigger produces, when the first retry comes)
 * is never a stated failure: the check accepts either place, reports what did not
 * arrive as "not verified", and makes a missing retry an inferred failure.
 */
import { createHash } from 'node:crypto';
import { inferredSeverity, type Failure } from '../../../contracts/failure.ts';
import type { CapturedRequest } from './capture.ts';
import { parseBody } from '../../../contracts/index.ts';
import { flagValue, type WebhookCaptureSettings } from '../../../targets/index.ts';

/** The webhook types the specification names (Events, Webhooks; spec/CONVENTIONS.md keys). */
export const WEBHOOK_TYPES = ['member', 'member_data_updated', 'aggregation', 'balance', 'connection_status', 'history', 'insights', 'statements', 'initial_data_ready', 'spending_plan', 'verification', 'transaction_notification', 'account_notification', 'budgets', 'goals', 'beats'] as const;

export interface LiveDeliverySettings {
  /** SVC_WEBHOOK_PUBLIC_URL: where the service delivers (a tunnel to the capture). */
  publicUrl: URL;
  /** SVC_WEBHOOK_LISTEN: where the capture listens. */
  host: string;
  port: number;
  /** SVC_WEBHOOK_WAIT_MS: bound on waiting for deliveries after the last trigger. */
  waitMs: number;
  /** Quiet period that ends the wait early once every awaited delivery is in. */
  quietMs: number;
  /** SVC_WEBHOOK_FAIL_FIRST=1: answer 503 to the first delivery of each object (rules 4-5). */
  failFirst: boolean;
  /** SVC_WEBHOOK_EXPECT=1: the user asserts the service is configured to deliver to publicUrl. */
  expect: boolean;
  /** SVC_WEBHOOK_TEST_URL: POST {"type": T} there asks the target for a test webhook (rule 7; how is not shown). */
  testUrl?: string;
  /** SVC_WEBHOOK_TEST_TYPES: the types asked for (default member). */
  testTypes: string[];
  /** The public URL is https (Events: "The service sends HTTPS POST requests"). */
  https: boolean;
  /** SVC_WEBHOOK_PLATFORM_CLIENT=1: the client is a platform client (Events: only six types are available to it). */
  platformClient: boolean;
}

export const DEFAULT_LISTEN = '127.0.0.1:4020';
export const DEFAULT_WAIT_MS = 60_000;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)$/i;
export const isLoopbackUrl = (u: string) => {
  try {
    return LOOPBACK.test(new URL(u).hostname);
  } catch {
    return false;
  }
};


/**
 * Checks the settings the profile holds as given (profile.webhookCapture: SVC_WEBHOOK_*).
 * Returns `skip` (exactly what to set) when the run cannot observe deliveries, `error`
 * for a setting that is wrong (the test fails with it).
 */
export function liveDeliverySettings(given: WebhookCaptureSettings, target: { isSimulator: boolean; platformBaseUrl: string }): { settings?: LiveDeliverySettings; skip?: string; error?: string } {
  const listen = given.listen || DEFAULT_LISTEN;
  const raw = given.publicUrl;
  if (!raw) {
    if (target.isSimulator) {
      return {
        skip: `on the embedded simulator scenarios/properties/delivery.spec.ts checks these rules on the simulator's dispatcher; to run this file here too set SVC_SIM_WEBHOOK_URL and SVC_WEBHOOK_PUBLIC_URL to http://${listen}/hooks (the capture listens on SVC_WEBHOOK_LISTEN, default ${DEFAULT_LISTEN})`,
      };
    }
    return {
      skip: `needs SVC_WEBHOOK_PUBLIC_URL: the public https URL (e.g. a tunnel) at which the service delivers webhooks to this machine, forwarded to SVC_WEBHOOK_LISTEN (default ${DEFAULT_LISTEN}); configure that URL for the webhook types at the vendor (Events: "Configuration is done out of band"), then set SVC_WEBHOOK_EXPECT=1`,
    };
  }
  let publicUrl: URL;
  try {
    publicUrl = new URL(raw);
  } catch {
    return { error: `SVC_WEBHOOK_PUBLIC_URL is not a URL: "${raw}"` };
  }
  const https = publicUrl.protocol === 'https:';
  if (!https && publicUrl.protocol !== 'http:') return { error: `SVC_WEBHOOK_PUBLIC_URL must be an https URL, got "${raw}"` };
  if (!https && !isLoopbackUrl(target.platformBaseUrl)) {
    return {
      error: `SVC_WEBHOOK_PUBLIC_URL is plain http (${raw}) but the target ${target.platformBaseUrl} is not on this machine: the specification says "The service sends HTTPS POST requests" (Events, Webhooks), so give the https URL of the tunnel (plain http is accepted only for a loopback target, where HTTPS is then reported as not verified)`,
    };
  }
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(listen);
  if (!m || Number(m[2]) > 65535) return { error: `SVC_WEBHOOK_LISTEN must be host:port, got "${listen}"` };
  const num = (name: string, v: string | undefined, fallback: number) => {
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of milliseconds, got "${v}"`);
    return n;
  };
  try {
    const waitMs = num('SVC_WEBHOOK_WAIT_MS', given.waitMs, DEFAULT_WAIT_MS);
    const testTypes = (given.testTypes || 'member').split(',').map((s) => s.trim()).filter(Boolean);
    return {
      settings: {
        publicUrl,
        host: m[1].replace(/^\[|\]$/g, ''),
        port: Number(m[2]),
        waitMs,
        quietMs: Math.min(10_000, Math.max(500, waitMs / 4)),
        failFirst: flagValue(given.failFirst, 'SVC_WEBHOOK_FAIL_FIRST'),
        expect: flagValue(given.expect, 'SVC_WEBHOOK_EXPECT'),
        testUrl: given.testUrl || undefined,
        testTypes,
        https,
        platformClient: flagValue(given.platformClient, 'SVC_WEBHOOK_PLATFORM_CLIENT'),
      },
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

// ---- what arrived ---------------------------------------------------------------------

/**
 * The type of a delivery: the last path segment when it names a type (the user gave
 * the service one URL per type, `<public URL>/<type>`: Events, "a different URL can be
 * configured per event type"), else the one top-level key of the body that names a
 * type and holds an object (rule 7's "object named for the webhook type"). Undefined
 * when neither tells: such a delivery gets only the checks that hold for every type.
 */
export function deliveryType(r: CapturedRequest): string | undefined {
  const last = r.path.split('/').filter(Boolean).pop();
  if (last && (WEBHOOK_TYPES as readonly string[]).includes(last)) return last;
  const body = parseBody(r);
  if (!body) return undefined;
  const named = WEBHOOK_TYPES.filter((t) => body[t] && typeof body[t] === 'object' && !Array.isArray(body[t]));
  return named.length === 1 ? named[0] : undefined;
}

const isTest = (body: Record<string, unknown> | undefined) => body?.action === 'test';

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

/** Identity of the object a delivery is about: its guid (or member_guid), top level or inner. */
export function objectGuid(type: string, body: Record<string, unknown>): string | undefined {
  const inner = innerOf(type, body) ?? {};
  const g = body.guid ?? inner.guid ?? body.member_guid ?? inner.member_guid;
  return typeof g === 'string' ? g : undefined;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fail = (check: string, type: string, location: string, rule: string, message: string, severity: Failure['severity'] = 'error', tier?: Failure['tier']): Failure => ({ check, operation: `WEBHOOK ${type}`, location, rule, severity, message, ...(tier ? { tier } : {}) });

/**
 * The capture's answers under SVC_WEBHOOK_FAIL_FIRST: 503 to the first delivery of
 * each object (type and guid; a body without one counts per type), 204 to everything
 * else (Events rule 4: "204 is recommended"). A retry of a failed delivery carries the
 * same bytes (rule 4) and is answered 204.
 */
export function failFirstAnswer(): (n: number, r: CapturedRequest) => number {
  const failedObjects = new Set<string>();
  const failedBodies = new Set<string>();
  return (_n, r) => {
    const body = parseBody(r);
    const type = deliveryType(r) ?? 'unknown';
    if (!body || isTest(body)) return 204;
    const hash = sha(r.body);
    if (failedBodies.has(hash)) return 204;
    const key = `${type}:${objectGuid(type, body) ?? '*'}`;
    if (failedObjects.has(key)) return 204;
    failedObjects.add(key);
    failedBodies.add(hash);
    return 503;
  };
}

/** Every request answered with a failure whose identical retry has not arrived yet. */
export function awaitingRetry(requests: CapturedRequest[]): CapturedRequest[] {
  return requests.filter((r, i) => r.answered !== 'timeout' && (r.answered < 200 || r.answered > 206) && !requests.slice(i + 1).some((x) => x.body.equals(r.body)));
}

/** Version of an object-based webhook: top level, else in the object named for the type (Events rule 3). */
function versionOf(type: string, body: Record<string, unknown>): { present: boolean; value: unknown } {
  return fieldOf(type, body, 'version');
}

/**
 * Events rule 3: "Object-based webhooks (such as member) carry a version that rises
 * with each update". Member (the one type the rule names) webhooks other than tests
 * carry one; two DIFFERENT payloads of one object never carry the same version
 * (deliveries may come out of order, rule 6, so the check is order-free; retries, being
 * byte-identical, are one delivery).
 */
export function liveVersionRises(requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  const seen = new Map<string, Map<string, string>>();
  const rule = 'Events, Webhooks rule 3: object-based webhooks (such as member) carry a version that rises with each update';
  requests.forEach((r, i) => {
    const body = parseBody(r);
    const type = deliveryType(r);
    if (!body || !type || isTest(body)) return;
    const v = versionOf(type, body);
    if (type === 'member' && (!v.present || v.value === null)) out.push(fail('webhook_version_rises', type, `request[${i}].body.version`, rule, 'The member webhook carries no version'));
    if (!v.present || v.value === null) return;
    const guid = objectGuid(type, body);
    if (!guid) return;
    const key = `${type}:${guid}`;
    const byVersion = seen.get(key) ?? new Map<string, string>();
    seen.set(key, byVersion);
    const text = r.body.toString('utf8');
    const vk = JSON.stringify(v.value);
    const other = byVersion.get(vk);
    if (other !== undefined && other !== text) out.push(fail('webhook_version_rises', type, `request[${i}].body.version`, rule, `Two different updates of ${key} both carry version ${vk}`));
    byVersion.set(vk, text);
  });
  return out;
}

/** Events rule 8, for the member the run created with X-CALLBACK-PAYLOAD on create, update and aggregate. */
export function liveCallbackPayload(requests: CapturedRequest[], memberGuid: string, expected: string): { failures: Failure[]; checked: number } {
  const out: Failure[] = [];
  let checked = 0;
  requests.forEach((r, i) => {
    const body = parseBody(r);
    const type = deliveryType(r);
    if (!body || isTest(body) || (type !== 'member' && type !== 'member_data_updated')) return;
    if (objectGuid(type, body) !== memberGuid) return;
    checked++;
    const got = fieldOf(type, body, 'x_callback_payload').value;
    if (got !== expected) {
      out.push(fail('webhook_x_callback_payload', type, `request[${i}].body.x_callback_payload`, 'Events, Webhooks rule 8: if X-CALLBACK-PAYLOAD was set on create, update, aggregate or verify member, it appears in the member and member data updated webhooks', `Received: ${JSON.stringify(got)} / Expected: ${JSON.stringify(expected)} (member ${memberGuid})`));
    }
  });
  return { failures: out, checked };
}

/** Events rule 9: the fields each payload includes (values may be null, rule 2; where in the payload is not shown). */
export const RULE9_FIELDS: Record<string, string[]> = {
  member: ['is_oauth', 'is_being_aggregated'],
  aggregation: ['job_guid', 'is_background', 'user_id'],
  transaction_notification: ['member_guid'],
  account_notification: ['member_guid'],
  verification: ['accounts'],
};

export function liveRule9(requests: CapturedRequest[]): { failures: Failure[]; checked: number } {
  const out: Failure[] = [];
  let checked = 0;
  requests.forEach((r, i) => {
    const body = parseBody(r);
    const type = deliveryType(r);
    if (!body || !type || isTest(body) || !RULE9_FIELDS[type]) return;
    checked++;
    for (const name of RULE9_FIELDS[type]) {
      if (!fieldOf(type, body, name).present) {
        out.push(fail('webhook_rule9_fields', type, `request[${i}].body.${name}`, `Events, Webhooks rule 9: ${type} payloads include ${RULE9_FIELDS[type].join(', ')}`, `No field ${name} (neither at the top level nor in the "${type}" object)`));
      }
    }
  });
  return { failures: out, checked };
}

/**
 * Events rule 4 under SVC_WEBHOOK_FAIL_FIRST: a delivery answered 503 is retried, and
 * the retry carries an identical payload. A later delivery of the same object and
 * version with other bytes is a changed retry (stated). No retry at all within the
 * wait is inferred only: the first retry's time is an example (rule 5: "retry 1 at
 * 30 s").
 */
export function liveRetries(requests: CapturedRequest[], o: { strict: boolean; waitMs: number }): { failures: Failure[]; failed: number; retried: number } {
  const out: Failure[] = [];
  let failed = 0;
  let retried = 0;
  requests.forEach((r, i) => {
    if (r.answered === 204 || r.answered === 'timeout') return;
    if (requests.slice(0, i).some((x) => x.body.equals(r.body))) return; // itself a retry
    failed++;
    const type = deliveryType(r) ?? 'unknown';
    const later = requests.slice(i + 1);
    const identical = later.filter((x) => x.body.equals(r.body));
    if (identical.length) {
      retried++;
      if (identical.length > 12) out.push(fail('webhook_retry_count', type, `request[${i}]`, 'Events, Webhooks rule 5: at most 12 retries after the first attempt', `Received: ${identical.length} retries`));
      return;
    }
    const body = parseBody(r);
    const guid = body && objectGuid(type, body);
    const version = body ? versionOf(type, body) : undefined;
    const changed = body && guid && version?.present
      ? later.find((x) => {
          const b = parseBody(x);
          return b && deliveryType(x) === deliveryType(r) && objectGuid(type, b) === guid && JSON.stringify(versionOf(type, b).value) === JSON.stringify(version.value) && b.action === body.action;
        })
      : undefined;
    if (changed) {
      out.push(fail('webhook_retry_identical_payload', type, `request[${requests.indexOf(changed)}].body`, 'Events, Webhooks rule 4: retries carry an identical payload', `The delivery of ${type}:${guid} version ${JSON.stringify(version!.value)} answered ${r.answered} came again with different bytes (${changed.body.length} vs ${r.body.length})`));
      return;
    }
    out.push(fail('webhook_retry_on_failure', type, `request[${i}]`, 'Events, Webhooks rule 4: any other status, timeout or DNS error triggers a retry (retry 1 at 30 s in the example schedule of rule 5)', `The delivery answered ${r.answered} was not retried within SVC_WEBHOOK_WAIT_MS=${o.waitMs} ms`, inferredSeverity(o.strict), 'inferred'));
  });
  return { failures: out, failed, retried };
}

/**
 * HTTPS (Events: "The service sends HTTPS POST requests"): the deliveries reached the
 * capture through an https public URL; a proxy that says how the request came in
 * (X-Forwarded-Proto) must say https.
 */
export function liveHttps(requests: CapturedRequest[]): Failure[] {
  const out: Failure[] = [];
  requests.forEach((r, i) => {
    const proto = r.headers['x-forwarded-proto'];
    if (proto !== undefined && String(proto).split(',')[0].trim().toLowerCase() !== 'https') {
      out.push(fail('webhook_https', deliveryType(r) ?? 'unknown', `request[${i}].headers.x-forwarded-proto`, 'Events, Webhooks: the service sends HTTPS POST requests', `Received: X-Forwarded-Proto ${proto} / Expected: https`));
    }
  });
  return out;
}

/** Events, Webhooks: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements." */
export const PLATFORM_CLIENT_TYPES = ['aggregation', 'balance', 'connection_status', 'history', 'insights', 'statements'] as const;

/**
 * For a platform client (a profile setting: which kind of client the credentials belong
 * to is not something a delivery shows), every delivery whose type can be told is one of
 * the six platform types. Deliveries whose type cannot be told are not judged.
 */
export function livePlatformTypes(requests: CapturedRequest[]): { failures: Failure[]; checked: number } {
  const out: Failure[] = [];
  let checked = 0;
  requests.forEach((r, i) => {
    const type = deliveryType(r);
    if (!type) return;
    checked++;
    if (!(PLATFORM_CLIENT_TYPES as readonly string[]).includes(type)) {
      out.push(fail('webhook_platform_types', type, `request[${i}]`, 'Events, Webhooks: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements"', `A platform client received a ${type} webhook`));
    }
  });
  return { failures: out, checked };
}
