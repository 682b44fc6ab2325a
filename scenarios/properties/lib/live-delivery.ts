/**
 * Webhook deliveries of a real service (Events, Webhooks): the settings, the capture's
 * answers, and the calls of scenarios/properties/live-delivery.spec.ts into the registered
 * delivery checks (contracts/delivery.ts) with what a CaptureReceiver (./capture.ts) saw,
 * each with the count of deliveries its rule could judge. They return Failures and never
 * throw.
 *
 * Where a rule's authority comes from (contracts/failure.ts, Tier): each failure quotes
 * the Events sentence it enforces. What the specification leaves open (where in the
 * payload a field sits, which webhooks a trigger produces, when the first retry comes)
 * is never a stated failure: the check accepts either place, reports what did not
 * arrive as "not verified", and makes a missing retry an inferred failure.
 */
import { createHash } from 'node:crypto';
import {
  type Failure,
  deliveryType as contractDeliveryType,
  MIXED_TYPES,
  objectGuid,
  parseBody,
  RULE9_FIELDS,
  runDeliveryChecks,
  streamRetries,
} from '../../../contracts/index.ts';
import type { CapturedRequest } from './capture.ts';
import { flagValue, type WebhookCaptureSettings } from '../../../targets/index.ts';

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
export function liveDeliverySettings(
  given: WebhookCaptureSettings,
  target: { isSimulator: boolean; platformBaseUrl: string },
): { settings?: LiveDeliverySettings; skip?: string; error?: string } {
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
    const testTypes = (given.testTypes || 'member')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
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
// The rules are registered delivery checks (contracts/delivery.ts), asked here with the
// whole stream a capture saw (MIXED_TYPES: each request's type told by deliveryType).
// These functions add what the scenario reports next to the failures: how many
// deliveries each rule could judge ("verified" or "not verified").

/** The type of a delivery (contracts/delivery.ts deliveryType): its path's last segment or its one object named for a type. */
export const deliveryType = (r: CapturedRequest): string | undefined => contractDeliveryType(r);

const isTest = (body: Record<string, unknown> | undefined) => body?.action === 'test';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

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
  return requests.filter(
    (r, i) => r.answered !== 'timeout' && (r.answered < 200 || r.answered > 206) && !requests.slice(i + 1).some((x) => x.body.equals(r.body)),
  );
}

/** Deliveries (not tests) whose type is one of `types`, and, when given, about one object. */
const judged = (requests: CapturedRequest[], types: readonly string[], guid?: string) =>
  requests.filter((r) => {
    const body = parseBody(r);
    const type = deliveryType(r);
    return !!body && !!type && !isTest(body) && types.includes(type) && (guid === undefined || objectGuid(type, body) === guid);
  }).length;

/** Events rule 3 (check webhook_version_rises) over the stream. */
export const liveVersionRises = (requests: CapturedRequest[]): Failure[] => runDeliveryChecks(['webhook_version_rises'], MIXED_TYPES, requests);

/** Events rule 8 (check webhook_x_callback_payload), for the member the run created with X-CALLBACK-PAYLOAD. */
export function liveCallbackPayload(requests: CapturedRequest[], memberGuid: string, expected: string): { failures: Failure[]; checked: number } {
  return {
    failures: runDeliveryChecks(['webhook_x_callback_payload'], MIXED_TYPES, requests, { callbackPayload: expected, callbackMemberGuid: memberGuid }),
    checked: judged(requests, ['member', 'member_data_updated'], memberGuid),
  };
}

/** Events rule 9 (check webhook_rule9_fields). */
export function liveRule9(requests: CapturedRequest[]): { failures: Failure[]; checked: number } {
  return { failures: runDeliveryChecks(['webhook_rule9_fields'], MIXED_TYPES, requests), checked: judged(requests, Object.keys(RULE9_FIELDS)) };
}

/** Events rules 4-5 under SVC_WEBHOOK_FAIL_FIRST (check webhook_retries_in_stream): which deliveries failed, which were retried. */
export const liveRetries = (requests: CapturedRequest[], o: { strict: boolean; waitMs: number }) =>
  streamRetries({ type: MIXED_TYPES, requests, params: { strict: o.strict, waitMs: o.waitMs } });

/** HTTPS (check webhook_https): a proxy that says how the request came in says https. */
export const liveHttps = (requests: CapturedRequest[]): Failure[] => runDeliveryChecks(['webhook_https'], MIXED_TYPES, requests);

/** A platform client receives only the six platform types (check webhook_platform_types); deliveries of an untold type are not judged. */
export function livePlatformTypes(requests: CapturedRequest[]): { failures: Failure[]; checked: number } {
  return {
    failures: runDeliveryChecks(['webhook_platform_types'], MIXED_TYPES, requests),
    checked: requests.filter((r) => deliveryType(r) !== undefined).length,
  };
}
