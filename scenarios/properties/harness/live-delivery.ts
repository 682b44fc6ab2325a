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
  loadContract,
  MIXED_TYPES,
  objectGuid,
  parseBody,
  RULE9_FIELDS,
  runDeliveryChecks,
  streamRetries,
  webhook_field_formats,
  webhook_json_post,
  webhook_member_state,
  webhook_test_shape,
} from '../../../contracts/index.ts';
import type { CapturedRequest } from './capture.ts';
import { flagValue, SETTINGS, settingValue, statedDefault, type WebhookCaptureSettings } from '../../../targets/index.ts';

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

const DEFAULT_LISTEN = statedDefault(SETTINGS.webhooks.listen, 'real');
const DEFAULT_WAIT_MS = statedDefault(SETTINGS.webhooks.waitMs, 'real');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)$/i;
const isLoopbackUrl = (u: string) => {
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
    const testTypes = given.testTypes
      ? (settingValue(SETTINGS.webhooks.testTypes, given.testTypes) as string[])
      : statedDefault(SETTINGS.webhooks.testTypes, 'real');
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
function awaitingRetry(requests: CapturedRequest[]): CapturedRequest[] {
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
const liveVersionRises = (requests: CapturedRequest[]): Failure[] => runDeliveryChecks(['webhook_version_rises'], MIXED_TYPES, requests);

/** Events rule 8 (check webhook_x_callback_payload), for the member the run created with X-CALLBACK-PAYLOAD. */
function liveCallbackPayload(requests: CapturedRequest[], memberGuid: string, expected: string): { failures: Failure[]; checked: number } {
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
const liveRetries = (requests: CapturedRequest[], o: { strict: boolean; waitMs: number }) =>
  streamRetries({ type: MIXED_TYPES, requests, params: { strict: o.strict, waitMs: o.waitMs } });

/** HTTPS (check webhook_https): a proxy that says how the request came in says https. */
const liveHttps = (requests: CapturedRequest[]): Failure[] => runDeliveryChecks(['webhook_https'], MIXED_TYPES, requests);

/** A platform client receives only the six platform types (check webhook_platform_types); deliveries of an untold type are not judged. */
export function livePlatformTypes(requests: CapturedRequest[]): { failures: Failure[]; checked: number } {
  return {
    failures: runDeliveryChecks(['webhook_platform_types'], MIXED_TYPES, requests),
    checked: requests.filter((r) => deliveryType(r) !== undefined).length,
  };
}

// ---- waiting and judging a live run -----------------------------------------------------

/**
 * Waits, at most SVC_WEBHOOK_WAIT_MS, until a delivery about the run's objects came, no failed
 * delivery awaits its retry, every test webhook asked for arrived, and the capture has been
 * quiet for `quietMs`. Returns how long it waited.
 */
export async function waitForDeliveries(
  capture: { requests: CapturedRequest[] },
  s: Pick<LiveDeliverySettings, 'waitMs' | 'quietMs'>,
  concerns: (r: CapturedRequest) => boolean,
  testTypesAsked: readonly string[],
): Promise<number> {
  const testArrived = (t: string) => testWebhookArrived(capture.requests, t);
  const started = performance.now();
  const deadline = started + s.waitMs;
  for (;;) {
    const now = performance.now();
    if (now >= deadline) break;
    const last = capture.requests.at(-1)?.atMs ?? 0;
    const complete = capture.requests.some(concerns) && awaitingRetry(capture.requests).length === 0 && testTypesAsked.every(testArrived);
    if (complete && now - last >= s.quietMs) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return Math.round(performance.now() - started);
}

/** Whether a test webhook (action "test") of `type` is among `requests`. */
export const testWebhookArrived = (requests: CapturedRequest[], type: string): boolean =>
  requests.some((r) => deliveryType(r) === type && parseBody(r)?.action === 'test');

/** Reports one observation of the run: an annotation of the test (`verified`, `not verified`, `deliveries`). */
export type Note = (type: string, description: string) => void;

/** A rule judged on at least one delivery is `verified`; on none, `not verified` with why. */
function noteVerified(note: Note, rule: string, n: number, why: string): void {
  if (n > 0) note('verified', `${rule} (${n} deliveries)`);
  else note('not verified', `${rule}: ${why}`);
}

/** What a live run sent and received: the deliveries to judge, and what they are judged against. */
export interface LiveRun {
  settings: LiveDeliverySettings;
  /** The deliveries that arrived within the wait. */
  requests: CapturedRequest[];
  memberGuid: string;
  /** The user the run created and the `id` it gave it (Resources, Member: user_id is the client identifier of the user). */
  user: { guid: string; id: string };
  /** The member as read once the wait for deliveries ended. */
  memberRead?: { connection_status?: unknown; is_being_aggregated?: unknown };
  callbackPayload: string;
  testTypesAsked: readonly string[];
  /** Whether a test webhook of a type arrived (by the time the checks run). */
  testArrived: (type: string) => boolean;
  /** Where the capture listened, for messages. */
  where: string;
  waitedMs: number;
  strict: boolean;
}

/** Every delivery rule the run can judge on what arrived, each reported as verified or not; the findings of every tier. */
export function checkLiveDeliveries(run: LiveRun, note: Note): Failure[] {
  const byType = deliveriesByType(run.requests);
  return [
    ...checkEveryDelivery(run, byType, note),
    ...checkMemberRules(run, note),
    ...checkMemberState(run, note),
    ...checkPlatformTypes(run, note),
    ...checkTestWebhooks(run, byType, note),
    ...checkRetries(run, note),
    ...checkHttps(run, note),
  ];
}

/** The deliveries by type ('unknown' when it could not be told). */
export function deliveriesByType(requests: CapturedRequest[]): Map<string, CapturedRequest[]> {
  const byType = new Map<string, CapturedRequest[]>();
  for (const r of requests) byType.set(deliveryType(r) ?? 'unknown', [...(byType.get(deliveryType(r) ?? 'unknown') ?? []), r]);
  return byType;
}

/** Events, Webhooks (HTTPS POST with a JSON body), rule 1 (field formats) and the payload schema of each told type. */
function checkEveryDelivery({ requests: rs, settings: s }: LiveRun, byType: Map<string, CapturedRequest[]>, note: Note): Failure[] {
  const failures: Failure[] = [];
  const contract = loadContract();
  let contractChecked = 0;
  for (const [type, list] of byType) {
    failures.push(...webhook_json_post(type, list), ...webhook_field_formats(type, list));
    if (type === 'unknown') continue;
    for (const r of list) {
      const body = parseBody(r);
      if (!body) continue;
      contractChecked++;
      failures.push(...contract.checkWebhook(type, body));
    }
  }
  noteVerified(note, 'Events, Webhooks: HTTPS POST requests with a JSON body', rs.length, 'no delivery');
  noteVerified(note, 'Events rule 1: _at epoch seconds, _on YYYY-MM-DD', rs.length, 'no delivery');
  noteVerified(note, 'spec/platform.openapi.yaml webhooks: the payload schema of the type', contractChecked, 'no delivery whose type could be told');
  const unknown = byType.get('unknown') ?? [];
  if (unknown.length)
    note(
      'not verified',
      `${unknown.length} delivery(ies) whose type could not be told (path ${unknown[0].path}, no object named for a type): give the service one URL per type ending in the type name (e.g. ${s.publicUrl.href.replace(/\/$/, '')}/member) to have them checked against their type`,
    );
  return failures;
}

/**
 * The member's user_id in its webhooks (Resources, Member; rule 9 for the aggregation
 * payload, inferred) and the state its highest-version webhook leaves a receiver with
 * (rule 3, inferred), against what the run knows: the id it gave the user, the member read.
 */
function checkMemberState({ requests: rs, memberGuid, user, memberRead, strict }: LiveRun, note: Note): Failure[] {
  const failures = webhook_member_state(rs, {
    strict,
    runUser: { ...user, memberGuid },
    ...(memberRead ? { memberRead: { guid: memberGuid, ...memberRead } } : {}),
  });
  noteVerified(
    note,
    'Resources, Member: user_id is the client identifier of the user (member webhooks; aggregation payloads, inferred)',
    judged(rs, ['member', 'aggregation'], memberGuid),
    `no member or aggregation webhook about member ${memberGuid} arrived`,
  );
  noteVerified(
    note,
    'Events rule 3 (inferred): the highest-version member webhook agrees with the member read after the wait',
    memberRead ? judged(rs, ['member'], memberGuid) : 0,
    memberRead ? `no member webhook about member ${memberGuid} arrived` : 'the member could not be read after the wait',
  );
  return failures;
}

/** Events rules 3 (versions rise), 8 (X-CALLBACK-PAYLOAD comes back) and 9 (payload fields). */
function checkMemberRules({ requests: rs, memberGuid, callbackPayload }: LiveRun, note: Note): Failure[] {
  const failures: Failure[] = [...liveVersionRises(rs)];
  const memberDeliveries = rs.filter((r) => deliveryType(r) === 'member' && parseBody(r)?.action !== 'test').length;
  noteVerified(note, 'Events rule 3: member webhooks carry a version that rises with each update', memberDeliveries, 'no member webhook arrived');

  const cb = liveCallbackPayload(rs, memberGuid, callbackPayload);
  failures.push(...cb.failures);
  noteVerified(
    note,
    'Events rule 8: X-CALLBACK-PAYLOAD appears in the member and member data updated webhooks',
    cb.checked,
    `no member or member_data_updated webhook about member ${memberGuid} arrived`,
  );

  const r9 = liveRule9(rs);
  failures.push(...r9.failures);
  noteVerified(
    note,
    'Events rule 9: member, aggregation, notification and verification payload fields',
    r9.checked,
    'no member, aggregation, notification or verification webhook arrived',
  );
  return failures;
}

/**
 * Events: "For platform clients only these types are available": which kind of client
 * the credentials belong to is the user's to say (SVC_WEBHOOK_PLATFORM_CLIENT=1).
 */
function checkPlatformTypes({ requests: rs, settings: s }: LiveRun, note: Note): Failure[] {
  if (!s.platformClient) {
    note(
      'not verified',
      'Events, Webhooks: "For platform clients only these types are available": set SVC_WEBHOOK_PLATFORM_CLIENT=1 when the credentials are a platform client\'s to check it',
    );
    return [];
  }
  const platform = livePlatformTypes(rs);
  noteVerified(
    note,
    'Events, Webhooks: a platform client receives only aggregation, balance, connection status, history, insights and statements webhooks',
    platform.checked,
    'no delivery whose type could be told',
  );
  return platform.failures;
}

/** Events rule 7: the shape of every test webhook, and each one asked for at SVC_WEBHOOK_TEST_URL arrived. */
function checkTestWebhooks(run: LiveRun, byType: Map<string, CapturedRequest[]>, note: Note): Failure[] {
  const { requests: rs, settings: s, memberGuid, where, waitedMs } = run;
  const failures: Failure[] = [];
  const tests = rs.filter((r) => parseBody(r)?.action === 'test');
  for (const [type, list] of byType)
    failures.push(
      ...webhook_test_shape(
        type,
        list.filter((r) => parseBody(r)?.action === 'test'),
      ),
    );
  for (const t of run.testTypesAsked) {
    if (!run.testArrived(t))
      failures.push({
        check: 'webhook_delivered',
        operation: `WEBHOOK ${t}`,
        location: 'capture',
        rule: 'Events, Webhooks rule 7: type-specific test webhooks are generated by the vendor on request',
        severity: 'error',
        message: `A test webhook of type ${t} was requested at SVC_WEBHOOK_TEST_URL (answered 2xx) and no delivery of type ${t} with action "test" arrived at ${where} within ${waitedMs} ms (${(byType.get(t) ?? []).filter((r) => !r.body.includes(memberGuid)).length} other delivery(ies) of that type, not about the member created)`,
      });
  }
  if (s.testUrl || tests.length)
    noteVerified(note, 'Events rule 7: test webhooks have action test, an object named for the type, and version', tests.length, 'no test webhook arrived');
  return failures;
}

/** Events rules 4-5 (retries), observable only when the capture failed the first delivery (SVC_WEBHOOK_FAIL_FIRST). */
function checkRetries({ requests: rs, settings: s, strict }: LiveRun, note: Note): Failure[] {
  if (!s.failFirst) {
    note(
      'not verified',
      "Events rules 4-5 (retries): the capture answered 204 to everything; set SVC_WEBHOOK_FAIL_FIRST=1 to answer 503 to the first delivery of each object and watch the retry (rule 5's example schedule puts retry 1 at 30 s: keep SVC_WEBHOOK_WAIT_MS above it)",
    );
    return [];
  }
  const retries = liveRetries(rs, { strict, waitMs: s.waitMs });
  noteVerified(
    note,
    'Events rules 4-5: a delivery answered 503 is retried with an identical payload, at most 12 times',
    retries.retried,
    `${retries.failed} delivery(ies) answered 503, none retried within the wait`,
  );
  return retries.failures;
}

/** Events, Webhooks: "The service sends HTTPS POST requests": observable only through an https public URL. */
function checkHttps({ requests: rs, settings: s }: LiveRun, note: Note): Failure[] {
  if (!s.https) {
    note(
      'not verified',
      `Events, Webhooks: "The service sends HTTPS POST requests": SVC_WEBHOOK_PUBLIC_URL is plain http (${s.publicUrl.href}), accepted only because the target is on this machine; give an https URL to verify it`,
    );
    return [];
  }
  const failures = liveHttps(rs);
  noteVerified(note, 'Events, Webhooks: the service sends HTTPS POST requests (the deliveries came through the https public URL)', rs.length, 'no delivery');
  return failures;
}
