/**
 * Delivery conformance scenarios (Events, Webhooks): each starts a
 * capture receiver, drives the embedded simulator in-process with its webhook URLs
 * pointing at the capture, and checks every delivery with the contract's webhook
 * check and its delivery checks (contracts/delivery.ts).
 *
 * They need a target that can be told where to deliver and how fast to retry, so they
 * run against the simulator only; a real environment's deliveries are configured out
 * of band (Events: "Configuration is done out of band").
 *
 * Used by delivery.spec.ts (expects no failures) and by the fault-proof unit test
 * proof/delivery-faults.test.ts (expects each fault to fail its scenario).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  loadContract,
  parseBody,
  webhook_basic_auth,
  webhook_field_formats,
  webhook_json_post,
  webhook_member_state,
  webhook_oauth,
  webhook_retry_rules,
  webhook_retry_schedule,
  webhook_skip,
  webhook_test_shape,
  webhook_version_rises,
  webhook_x_callback_payload,
  WEBHOOK_TYPES,
  type Failure,
} from '../../../contracts/index.ts';
import { simulatorInProcess, type SimulatorSettings } from '../../../targets/index.ts';
import { CaptureReceiver, type CaptureOptions, type CapturedRequest } from './capture.ts';
import { liveRule9, livePlatformTypes } from './live-delivery.ts';

const { buildSimulator, dispatcherOf } = await simulatorInProcess();

/** A day of retries in about two seconds (Events rule 5 schedule ÷ 50 000). */
const DELIVERY_TIME_SCALE = Number(process.env.WEBHOOK_DELIVERY_TIME_SCALE ?? 50_000);
const JITTER = 0.1;
/** How long a scenario waits for the dispatcher to go idle before it judges what arrived. */
const IDLE_BOUND_MS = 10_000;

/**
 * The dispatcher's idle promise, or the bound, whichever comes first. The bound's timer is
 * cleared when idle wins: a timer left running would keep the process alive for the rest of
 * the bound after the last scenario ends.
 */
async function idleWithin(idle: Promise<void> | undefined, boundMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([idle, new Promise<void>((r) => (timer = setTimeout(r, boundMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ScenarioResult {
  scenario: string;
  failures: Failure[];
  requests: number;
  /** Set when the target cannot play the scenario yet (e.g. no member routes). */
  skipped?: string;
}

export const DELIVERY_SCENARIOS = [
  'test-webhooks',
  'retry-exhausted',
  'retry-then-success',
  'timeout',
  'basic-auth',
  'oauth-query',
  'oauth-body',
  'oauth-expiry',
  'skip',
  'member-events',
  'rule9-payloads',
  'platform-client',
] as const;
export type DeliveryScenario = (typeof DELIVERY_SCENARIOS)[number];

interface Harness {
  app: FastifyInstance;
  capture: CaptureReceiver;
  close(): Promise<void>;
  idle(graceMs?: number): Promise<void>;
}

async function harness(
  faults: string[],
  variations: string[],
  capture: CaptureOptions,
  settings: Partial<SimulatorSettings> = {},
  urls?: (base: string) => Record<string, string>,
): Promise<Harness> {
  const cap = new CaptureReceiver(capture);
  const base = await cap.start();
  const app = await buildSimulator({
    faults,
    variations,
    settings: {
      webhookUrls: (urls ?? perType)(base),
      webhookTimeScale: DELIVERY_TIME_SCALE,
      webhookJitter: JITTER,
      ...settings,
    },
  });
  await app.ready();
  return {
    app,
    capture: cap,
    async idle(graceMs = 50) {
      const d = dispatcherOf(app.sim);
      await idleWithin(d?.idle(), IDLE_BOUND_MS);
      // A little longer: a retry after a 2xx (fault) is scheduled after the schedule's first delay.
      await new Promise((r) => setTimeout(r, graceMs));
      await idleWithin(d?.idle(), IDLE_BOUND_MS);
    },
    async close() {
      await app.close();
      await cap.stop();
    },
  };
}

async function sendTest(app: FastifyInstance, type: string, object?: Record<string, unknown>): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/_sim/webhooks/test', payload: { type, object } });
  if (res.statusCode !== 202) throw new Error(`POST /_sim/webhooks/test answered ${res.statusCode}: ${res.body}`);
}

/** Requests grouped into deliveries: identical bytes are one delivery (its retries). */
function byDelivery(requests: CapturedRequest[]): CapturedRequest[][] {
  const groups = new Map<string, CapturedRequest[]>();
  for (const r of requests) {
    const k = r.body.toString('base64');
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()];
}

function typeOf(r: CapturedRequest): string {
  return r.path.split('/').pop() || 'unknown';
}

/** The contract's webhook check (webhook_payload_conformance) on every delivery whose body is a JSON object. */
function contractFailures(requests: CapturedRequest[]): Failure[] {
  const contract = loadContract();
  return requests.flatMap((r) => {
    const body = parseBody(r);
    return body ? contract.checkWebhook(typeOf(r), body) : [];
  });
}

/** Every check that applies to any delivery. */
function commonChecks(requests: CapturedRequest[]): Failure[] {
  const byType = new Map<string, CapturedRequest[]>();
  for (const r of requests) byType.set(typeOf(r), [...(byType.get(typeOf(r)) ?? []), r]);
  const out: Failure[] = [];
  for (const [type, rs] of byType) out.push(...webhook_json_post(type, rs), ...webhook_field_formats(type, rs), ...webhook_version_rises(type, rs));
  out.push(...contractFailures(requests));
  return out;
}

/** One capture URL per webhook type the specification names (spec/CONVENTIONS.md keys), so the capture knows every delivery's type. */
const perType = (base: string): Record<string, string> => ({
  ...Object.fromEntries(WEBHOOK_TYPES.map((t) => [t, `${base}/hooks/${t}`])),
  '*': `${base}/hooks/unconfigured`,
});

/** What a scenario is played with: its name, and the simulator's faults and variations. */
interface ScenarioRun {
  scenario: DeliveryScenario;
  faults: string[];
  variations: string[];
  /** The profile is strict: inferred findings gate (DESIGN.md, "Checks and failures"). */
  strict: boolean;
}

function resultOf(run: ScenarioRun, failures: Failure[], requests: number, skipped?: string): ScenarioResult {
  return { scenario: run.scenario, failures, requests, skipped };
}

/** Plays `play` on a fresh harness of the run's faults and variations, closed whatever happens. */
async function withHarness(
  run: ScenarioRun,
  capture: CaptureOptions,
  settings: Partial<SimulatorSettings>,
  play: (h: Harness) => Promise<ScenarioResult>,
): Promise<ScenarioResult> {
  const h = await harness(run.faults, run.variations, capture, settings, perType);
  try {
    return await play(h);
  } finally {
    await h.close();
  }
}

/** The bound of one wait for a member's job to end: jobs run for seconds to minutes on a real service (real-service-notes, Latency). */
const JOB_END_BOUND_MS = 20_000;

/**
 * Waits until the member's job has ended, as a client knows it (Resources, Member:
 * is_being_aggregated): its status read until is_being_aggregated is false, bounded. Not a
 * fixed sleep: how long a job lasts is not stated (slow-aggregation makes it four times as
 * long, intermediate-connection-statuses holds it until a read), and the webhooks a scenario
 * judges are sent when it ends.
 */
async function aggregationSettles(app: FastifyInstance, ids: MemberIds): Promise<void> {
  const deadline = Date.now() + JOB_END_BOUND_MS;
  const pollMs = Math.max(5, Math.floor((app.sim.settings.aggregationMs ?? 60) / 4));
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/users/${ids.user}/members/${ids.member}/status`, headers: apiHeaders(app) });
    if (res.statusCode !== 200) throw new Error(`GET .../members/${ids.member}/status answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    const member = (res.json() as { member?: { is_being_aggregated?: unknown; connection_status?: unknown } }).member;
    if (member?.is_being_aggregated === false) return;
    if (Date.now() > deadline)
      throw new Error(`member ${ids.member} still aggregating after ${JOB_END_BOUND_MS} ms (connection_status ${String(member?.connection_status)})`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Two test webhooks per type: the version of the test object must rise (rule 3). */
function playTestWebhooks(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, {}, {}, async (h) => {
    for (const [i, type] of ['member', 'aggregation', 'connection_status', 'member', 'aggregation', 'connection_status'].entries())
      await sendTest(h.app, type, { name: `test update ${i}` });
    await h.idle();
    const rs = h.capture.requests;
    const failures = commonChecks(rs);
    for (const [type, list] of groupByType(rs)) failures.push(...webhook_test_shape(type, list));
    for (const group of byDelivery(rs)) failures.push(...webhook_retry_rules(typeOf(group[0]), group, { expectRetryAfterFailure: false }));
    if (rs.length < 6) failures.push(missing(run.scenario, 6, rs.length));
    return resultOf(run, failures, rs.length);
  });
}

/** Every delivery refused (500): retried on the schedule, then given up (rules 4 and 5). */
function playRetryExhausted(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, { answer: () => 500 }, {}, async (h) => {
    await sendTest(h.app, 'member');
    await h.idle();
    const rs = h.capture.requests;
    const failures = [
      ...commonChecks(rs.slice(0, 1)),
      ...webhook_retry_rules('member', rs, { expectRetryAfterFailure: true }),
      ...webhook_retry_schedule('member', rs, { timeScale: DELIVERY_TIME_SCALE, jitter: JITTER }),
    ];
    return resultOf(run, failures, rs.length);
  });
}

/** Refusals, then a 2xx: retried until accepted, and not after. */
function playRetryThenSuccess(run: ScenarioRun): Promise<ScenarioResult> {
  const statuses = [500, 503, 429, 204];
  return withHarness(run, { answer: (n) => statuses[n] ?? 204 }, {}, async (h) => {
    await sendTest(h.app, 'member');
    await h.idle(100);
    const rs = h.capture.requests;
    const failures = [
      ...webhook_retry_rules('member', rs, { expectRetryAfterFailure: true }),
      ...webhook_retry_schedule('member', rs, { timeScale: DELIVERY_TIME_SCALE, jitter: JITTER }),
    ];
    if (rs.length < statuses.length) failures.push(missing(run.scenario, statuses.length, rs.length));
    return resultOf(run, failures, rs.length);
  });
}

/**
 * The first answer is held until the dispatcher's read timeout gives up on it: rule 4
 * wants a retry. No wall-clock race: the capture answers nothing until the dispatcher
 * closes the connection, and the dispatcher's timeouts count loop ticks, not time
 * lost to a stalled process (dispatcher.ts), so the held request always arrives.
 */
function playTimeout(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, { answer: (n) => (n === 0 ? 'timeout' : 204) }, { webhookTimeoutMs: 100 }, async (h) => {
    await sendTest(h.app, 'member');
    await h.idle(100);
    const rs = h.capture.requests;
    return resultOf(run, webhook_retry_rules('member', rs, { expectRetryAfterFailure: true }), rs.length);
  });
}

/** Basic authentication on every delivery (Authentication 6). */
function playBasicAuth(run: ScenarioRun): Promise<ScenarioResult> {
  // Throwaway credentials made up per run (Authentication 6): nothing secret is stored.
  const username = `hook-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  return withHarness(run, {}, { webhookAuth: { kind: 'basic', username, password } }, async (h) => {
    for (let i = 0; i < 3; i++) await sendTest(h.app, 'member');
    await h.idle();
    const rs = h.capture.requests;
    const failures = webhook_basic_auth('member', rs, `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);
    if (rs.length < 3) failures.push(missing(run.scenario, 3, rs.length));
    return resultOf(run, failures, rs.length);
  });
}

/**
 * OAuth on deliveries (Authentication 6): the grant in the query or the body; with a token
 * that expires, a new one asked for once it ran out.
 */
async function playOAuth(run: ScenarioRun): Promise<ScenarioResult> {
  const clientId = `hook-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(12).toString('hex');
  const expiry = run.scenario === 'oauth-expiry';
  const cap = new CaptureReceiver({ tokenExpiresInS: expiry ? 1 : 3600 });
  const base = await cap.start();
  const app = await buildSimulator({
    faults: run.faults,
    variations: run.variations,
    settings: {
      webhookUrls: perType(base),
      webhookTimeScale: DELIVERY_TIME_SCALE,
      webhookAuth: { kind: 'oauth', tokenUrl: `${base}/oauth/token`, clientId, clientSecret, grantIn: run.scenario === 'oauth-body' ? 'body' : 'query' },
    },
  });
  try {
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const d = dispatcherOf(app.sim);
    await sendTest(app, 'member');
    await d?.idle();
    for (let i = 0; i < 3; i++) await sendTest(app, 'member');
    await d?.idle();
    if (expiry) {
      // expires_in 1 s: after it runs out the vendor "repeats" (asks for a new token).
      await new Promise((r) => setTimeout(r, 1_100));
      await sendTest(app, 'member');
      await d?.idle();
    }
    const rs = cap.requests;
    const failures = webhook_oauth('member', rs, cap.tokenRequests, basic, { maxTokenRequests: expiry ? 2 : 1 });
    if (expiry) failures.push(...expiredTokenReused(rs));
    if (rs.length < (expiry ? 5 : 4)) failures.push(missing(run.scenario, expiry ? 5 : 4, rs.length));
    return resultOf(run, failures, rs.length);
  } finally {
    await app.close();
    await cap.stop();
  }
}

/** Authentication 6: the vendor reuses the token until it expires and then repeats: the delivery after expiry carries another. */
function expiredTokenReused(rs: CapturedRequest[]): Failure[] {
  if (rs.length < 5 || rs[4].headers.authorization !== rs[0].headers.authorization) return [];
  return [
    {
      check: 'webhook_oauth_token_reuse',
      operation: 'WEBHOOK member',
      location: 'request[4].headers.authorization',
      rule: 'Authentication 6: the vendor reuses the token until it expires and then repeats',
      severity: 'error',
      message: 'A delivery after expires_in ran out still carries the expired token',
    },
  ];
}

/** A change sent with SVC-SKIP-WEBHOOK sends no webhook (Events rule 8). */
function playSkip(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, {}, {}, async (h) => {
    const viaRoute = await createMemberWithSkip(h.app);
    if (!viaRoute) {
      // No member routes in the simulator yet: exercise the sink's skip contract directly.
      h.app.sim.webhooks.emit(
        { type: 'member', body: { guid: `MBR-${randomBytes(8).toString('hex')}`, is_oauth: false, is_being_aggregated: false } },
        { skip: true },
      );
    }
    await h.idle(100);
    const rs = h.capture.requests;
    return resultOf(run, webhook_skip('member', rs), rs.length);
  });
}

/**
 * Events rule 8: a payload sent in X-CALLBACK-PAYLOAD on create member must come
 * back in the member (and member data updated) webhooks.
 */
function playMemberEvents(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, {}, {}, async (h) => {
    const callbackPayload = `cb-${randomBytes(6).toString('hex')}`;
    const created = await createMember(h.app, { 'x-callback-payload': callbackPayload });
    if (!created) return resultOf(run, [], 0, 'the simulator has no POST /users and /users/{user_guid}/members yet');
    await aggregationSettles(h.app, created);
    await h.idle();
    const rs = h.capture.requests;
    const failures = commonChecks(rs);
    failures.push(...callbackPayloadEchoed(rs, callbackPayload));
    const read = await h.app.inject({ method: 'GET', url: `/users/${created.user}/members/${created.member}`, headers: apiHeaders(h.app) });
    const member = (read.json() as { member?: Record<string, unknown> }).member ?? {};
    failures.push(
      ...webhook_member_state(rs, {
        strict: run.strict,
        runUser: { guid: created.user, id: created.userId, memberGuid: created.member },
        memberRead: { guid: created.member, connection_status: member.connection_status, is_being_aggregated: member.is_being_aggregated },
      }),
    );
    for (const group of byDelivery(rs)) failures.push(...webhook_retry_rules(typeOf(group[0]), group, { expectRetryAfterFailure: false }));
    if (rs.length === 0) failures.push(missing(run.scenario, 1, 0));
    return resultOf(run, failures, rs.length);
  });
}

/**
 * Events rule 9: "transaction and account notification payloads include member_guid;
 * verification payloads include an accounts field". A member is created and
 * verified through the API; the notifications about it come from the simulator's
 * control (how a real service is made to send one is not shown).
 */
function playRule9Payloads(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, {}, {}, async (h) => {
    const ids = await createMember(h.app);
    if (!ids) return resultOf(run, [], 0, 'the simulator has no POST /users and /users/{user_guid}/members yet');
    await aggregationSettles(h.app, ids);
    const verify = await h.app.inject({ method: 'POST', url: `/users/${ids.user}/members/${ids.member}/verify`, headers: apiHeaders(h.app) });
    if (verify.statusCode >= 300) throw new Error(`POST .../verify answered ${verify.statusCode}: ${verify.body.slice(0, 200)}`);
    await aggregationSettles(h.app, ids);
    for (const type of ['transaction_notification', 'account_notification']) {
      const res = await h.app.inject({ method: 'POST', url: '/_sim/webhooks/notification', payload: { type, member_guid: ids.member } });
      if (res.statusCode !== 202) throw new Error(`POST /_sim/webhooks/notification answered ${res.statusCode}: ${res.body}`);
    }
    await h.idle();
    const rs = h.capture.requests;
    const failures = [...commonChecks(rs), ...liveRule9(rs).failures];
    for (const type of ['verification', 'transaction_notification', 'account_notification']) {
      if (!rs.some((r) => typeOf(r) === type)) failures.push(missing(`rule9-payloads (${type})`, 1, 0));
    }
    return resultOf(run, failures, rs.length);
  });
}

/**
 * Events: "For platform clients only these types are available: aggregation,
 * balance, connection status, history, insights, statements". The simulator plays a
 * platform client; a member created and aggregated produces only those types.
 */
function playPlatformClient(run: ScenarioRun): Promise<ScenarioResult> {
  return withHarness(run, {}, { webhookPlatformClient: true }, async (h) => {
    const ids = await createMember(h.app);
    if (!ids) return resultOf(run, [], 0, 'the simulator has no POST /users and /users/{user_guid}/members yet');
    await aggregationSettles(h.app, ids);
    await h.idle();
    const rs = h.capture.requests;
    const failures = [...commonChecks(rs), ...livePlatformTypes(rs).failures];
    if (!rs.some((r) => typeOf(r) === 'aggregation' || typeOf(r) === 'connection_status'))
      failures.push(missing('platform-client (aggregation or connection_status)', 1, 0));
    return resultOf(run, failures, rs.length);
  });
}

/** Each delivery scenario, by name. */
const PLAY: Record<DeliveryScenario, (run: ScenarioRun) => Promise<ScenarioResult>> = {
  'test-webhooks': playTestWebhooks,
  'retry-exhausted': playRetryExhausted,
  'retry-then-success': playRetryThenSuccess,
  timeout: playTimeout,
  'basic-auth': playBasicAuth,
  'oauth-query': playOAuth,
  'oauth-body': playOAuth,
  'oauth-expiry': playOAuth,
  skip: playSkip,
  'member-events': playMemberEvents,
  'rule9-payloads': playRule9Payloads,
  'platform-client': playPlatformClient,
};

export async function runDeliveryScenario(
  scenario: DeliveryScenario,
  faults: string[] = [],
  variations: string[] = [],
  strict = false,
): Promise<ScenarioResult> {
  return PLAY[scenario]({ scenario, faults, variations, strict });
}

function groupByType(rs: CapturedRequest[]): Map<string, CapturedRequest[]> {
  const m = new Map<string, CapturedRequest[]>();
  for (const r of rs) m.set(typeOf(r), [...(m.get(typeOf(r)) ?? []), r]);
  return m;
}

/** Events rule 8: every member webhook of a member created with X-CALLBACK-PAYLOAD carries it. */
function callbackPayloadEchoed(rs: CapturedRequest[], expected: string): Failure[] {
  const members = rs.filter((r) => typeOf(r) === 'member');
  if (members.length === 0) return [missing('member-events (member webhook)', 1, 0)];
  return webhook_x_callback_payload('member', members, expected);
}

function missing(scenario: string, expected: number, got: number): Failure {
  return {
    check: 'webhook_delivered',
    operation: `WEBHOOK ${scenario}`,
    location: 'capture',
    rule: 'Events, Webhooks: the service sends an HTTPS POST for each event',
    severity: 'error',
    message: `Received: ${got} deliveries / Expected: at least ${expected}`,
  };
}

/** A created member and its user, by guid. */
interface MemberIds {
  user: string;
  /** The `id` the user was created with. */
  userId: string;
  member: string;
}

/**
 * Creates a user and a member with the test institution's success password through
 * the platform API: their guids, or undefined when the simulator has no such routes. Request
 * shapes follow the specification's Member section; anything it does not show is
 * kept minimal.
 */
async function createMember(
  app: FastifyInstance,
  headers: Record<string, string> = {},
  memberFields: Record<string, unknown> = {},
): Promise<MemberIds | undefined> {
  const s = app.sim.settings;
  const auth = apiHeaders(app);
  const userId = `hook-user-${randomBytes(4).toString('hex')}`;
  const user = await app.inject({
    method: 'POST',
    url: '/users',
    headers: { ...auth, ...headers },
    payload: { user: { id: userId } },
  });
  const userGuid = user.statusCode < 300 ? (user.json() as { user?: { guid?: string } }).user?.guid : undefined;
  if (!userGuid) return undefined;
  const member = await app.inject({
    method: 'POST',
    url: `/users/${userGuid}/members`,
    headers: { ...auth, ...headers },
    payload: {
      member: {
        ...memberFields,
        institution_code: 'svcbank',
        credentials: [
          { field_name: 'username', value: s.testUsername },
          { field_name: 'password', value: s.passwords.SUCCESS },
        ],
      },
    },
  });
  const memberGuid = member.statusCode < 300 ? (member.json() as { member?: { guid?: string } }).member?.guid : undefined;
  return memberGuid ? { user: userGuid, userId, member: memberGuid } : undefined;
}

/**
 * The one change is the creation (skip_aggregation, accepted before v20250224, keeps
 * an aggregation's own later events out of it), sent with SVC-SKIP-WEBHOOK (rule 8).
 */
async function createMemberWithSkip(app: FastifyInstance): Promise<MemberIds | undefined> {
  return createMember(app, { 'svc-skip-webhook': 'true' }, { skip_aggregation: true });
}

function apiHeaders(app: FastifyInstance): Record<string, string> {
  const s = app.sim.settings;
  return {
    authorization: `Basic ${Buffer.from(`${s.clientId}:${s.apiKey}`).toString('base64')}`,
    'accept-version': 'v20111101',
    'content-type': 'application/json',
  };
}
