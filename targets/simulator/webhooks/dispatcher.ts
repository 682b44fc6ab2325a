/**
 * The simulator's webhook dispatcher: the WebhookSink that delivers what the
 * simulator's behaviour emits (specification, Events, Webhooks rules 1-9, and
 * Authentication 6). Attached by buildSimulator when `settings.webhookUrls` is not
 * empty; otherwise the RecordingWebhookSink of context.ts stays in place.
 *
 * Each emitted event is rendered ONCE into bytes; the first attempt and every retry
 * send those same bytes (rule 4: "Retries carry an identical payload"). Faults of the
 * catalogue's webhooks section are applied at the exact point where the dispatcher
 * would deviate, never elsewhere.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { RecordingWebhookSink, type SimContext, type WebhookEvent } from '../context.ts';
import { PLATFORM_CLIENT_TYPES, WEBHOOK_DELIVERY_DEFAULTS, type WebhookAuth } from './settings.ts';
import { applyShapeEdits, shapeEditsInForce } from '../shape.ts';

/**
 * Events rule 5, the example schedule. Each entry is read as the delay after the
 * previous attempt (the total, about 29 h, is closest to "spread over about 24 hours";
 * read as offsets from the first attempt the last retry would come at 11.5 h).
 */
const RETRY_SCHEDULE_SECONDS = [30, 76, 152, 308, 654, 1384, 2800, 5336, 9582, 16308, 26488, 41324] as const;
/** Events rule 5: "at most 12 after the first attempt". */
export const MAX_RETRIES = 12;

/** Events rule 4: 200, 201, 202, 203, 204, 205 or 206 means delivered. */
export function isDeliverySuccess(status: number): boolean {
  return status >= 200 && status <= 206;
}

export interface DeliveryAttempt {
  deliveryId: string;
  type: string;
  url: string;
  /** 0 = first attempt, 1..12 = retries. */
  attempt: number;
  startedAtMs: number;
  status?: number;
  error?: string;
  bodySha256: string;
}

interface Delivery {
  id: string;
  type: string;
  url: string;
  event: WebhookEvent;
  body: Buffer;
  attempt: number;
}

interface CachedToken {
  accessToken: string;
  expiresAtMs: number;
}

export class WebhookDispatcher extends RecordingWebhookSink {
  readonly attempts: DeliveryAttempt[] = [];
  /** Highest `version` sent per object (`type:guid`), Events rule 3. */
  private readonly versions = new Map<string, number>();
  private readonly agent: Agent;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private token?: CachedToken;
  private tokenPending?: Promise<string>;
  /** How many times the receiver's token endpoint was asked (tests read it). */
  tokenRequests = 0;
  private closed = false;

  constructor(private readonly ctx: SimContext) {
    super();
    this.agent = new Agent({ connect: { timeout: this.timeoutMs }, keepAliveTimeout: 1_000 });
  }

  private get timeoutMs(): number {
    return this.ctx.settings.webhookTimeoutMs ?? WEBHOOK_DELIVERY_DEFAULTS.webhookTimeoutMs;
  }
  private get auth(): WebhookAuth {
    return this.ctx.settings.webhookAuth ?? WEBHOOK_DELIVERY_DEFAULTS.webhookAuth;
  }

  /** URL for a type: its own, else the catch-all `*` (Events: "a different URL can be configured per event type"). */
  urlFor(type: string): string | undefined {
    const urls = this.ctx.settings.webhookUrls ?? {};
    return urls[type] ?? urls['*'];
  }

  override emit(event: WebhookEvent, options?: { skip?: boolean }): void {
    // Events rule 8: SVC-SKIP-WEBHOOK means no webhook at all for that change.
    if (options?.skip && !this.ctx.fault('webhook-delivered-despite-skip')) {
      super.emit(event, options);
      return;
    }
    super.emit(event);
    // Events: "For platform clients only these types are available" (fault: the other types are delivered too).
    if (
      this.ctx.settings.webhookPlatformClient &&
      !(PLATFORM_CLIENT_TYPES as readonly string[]).includes(event.type) &&
      !this.ctx.fault('platform-client-receives-other-types')
    )
      return;
    this.start(event);
  }

  /**
   * A transaction or account notification about an existing member (simulator control
   * POST /_sim/webhooks/notification): Events rule 9, "transaction and account
   * notification payloads include member_guid". Not a test webhook (no `action: test`).
   */
  sendNotification(
    type: 'transaction_notification' | 'account_notification',
    fields: { member_guid: string; user_guid: string; [k: string]: unknown },
  ): WebhookEvent {
    const inner = { guid: `${type === 'transaction_notification' ? 'TNO' : 'ANO'}-${randomUUID()}`, created_at: this.ctx.clock.nowEpochSeconds(), ...fields };
    const event = { type, body: { action: 'created', [type]: inner } };
    this.emit(event);
    return event;
  }

  /**
   * Events rule 7: a test webhook has `action: "test"`, an object named for the type,
   * and `version`. The object carries one `_at` and one `_on` field so the delivery
   * rules of rule 1 are observable on test webhooks too.
   */
  sendTest(type: string, object: Record<string, unknown> = {}): WebhookEvent {
    const guid = typeof object.guid === 'string' ? object.guid : `TST-${type}-0000`;
    const inner = { guid, created_at: this.ctx.clock.nowEpochSeconds(), created_on: this.ctx.clock.today(), ...object };
    const body: Record<string, unknown> = { [type]: inner };
    if (!this.ctx.fault('webhook-test-without-action')) body.action = 'test';
    const event = { type, body };
    this.emit(event);
    return event;
  }

  /** Resolves once nothing is in flight or scheduled. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    // Retry timers are unref'd (they must not keep a simulator process alive); whoever
    // waits here does want the process kept alive until the deliveries settle.
    const keepAlive = setInterval(() => undefined, 60_000);
    return new Promise((resolve) =>
      this.idleWaiters.push(() => {
        clearInterval(keepAlive);
        resolve();
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    // Pending retries die with the simulator (its timers are cleared on close): release waiters.
    for (const w of this.idleWaiters.splice(0)) w();
    await this.agent.close().catch(() => undefined);
  }

  private start(event: WebhookEvent): void {
    const url = this.urlFor(event.type);
    if (!url) return;
    const delivery: Delivery = { id: randomUUID(), type: event.type, url, event, body: this.render(event, 0), attempt: 0 };
    this.inFlight++;
    void this.attempt(delivery);
  }

  /** Object identity for versioning: the body's guid, a member guid, or the test object's guid. */
  private objectKey(event: WebhookEvent): string | undefined {
    const b = event.body;
    const inner = b[event.type] as Record<string, unknown> | undefined;
    const guid = b.guid ?? b.member_guid ?? (inner && typeof inner === 'object' ? inner.guid : undefined);
    return typeof guid === 'string' ? `${event.type}:${guid}` : undefined;
  }

  /**
   * Renders the payload bytes. Called once per delivery (retries reuse the bytes);
   * `attempt` matters only under the webhook-retry-payload-changed fault.
   */
  private render(event: WebhookEvent, attempt: number): Buffer {
    const body = structuredClone(event.body);
    const key = this.objectKey(event);
    if (key && attempt === 0) {
      const last = this.versions.get(key);
      let version = typeof body.version === 'number' ? body.version : (last ?? 0) + 1;
      if (last !== undefined && version <= last) version = last + 1;
      // Events rule 3: the version rises with each update. The fault repeats the last one.
      if (this.ctx.fault('webhook-version-not-rising') && last !== undefined) version = last;
      this.versions.set(key, Math.max(version, last ?? 0));
      body.version = version;
      (event.body as Record<string, unknown>).version = version;
    }
    // Shape-only entries (shape.ts): Events rule 1 faults (`_at` in milliseconds, `_on` as a
    // date-time) and rule 2 variations (fields added, order not fixed). A copy: the faults
    // below delete from it, and the event itself stays as emitted.
    const rendered = applyShapeEdits(structuredClone(body), shapeEditsInForce(this.ctx, 'webhook')) as Record<string, unknown>;
    // Events rule 9 faults: verification without accounts, notifications without member_guid.
    const inner = rendered[event.type] as Record<string, unknown> | undefined;
    if (event.type === 'verification' && this.ctx.fault('verification-webhook-missing-accounts')) {
      delete rendered.accounts;
      if (inner && typeof inner === 'object') delete inner.accounts;
    }
    if ((event.type === 'transaction_notification' || event.type === 'account_notification') && this.ctx.fault('notification-webhook-missing-member-guid')) {
      delete rendered.member_guid;
      if (inner && typeof inner === 'object') delete inner.member_guid;
    }
    if (attempt > 0 && this.ctx.fault('webhook-retry-payload-changed')) rendered.delivery_attempt = attempt;
    return Buffer.from(JSON.stringify(rendered));
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (this.closed) return this.settle();
    const record: DeliveryAttempt = {
      deliveryId: delivery.id,
      type: delivery.type,
      url: delivery.url,
      attempt: delivery.attempt,
      startedAtMs: performance.now(),
      bodySha256: createHash('sha256').update(delivery.body).digest('hex'),
    };
    this.attempts.push(record);
    let success = false;
    let retryable = true;
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'svc-simulator-webhooks' };
      const authorization = await this.authorization();
      if (authorization) headers.authorization = authorization;
      // Rule 4's three timeouts (connect, write, read) are undici's own: the agent's connect
      // timeout, headersTimeout (from the request on the socket to the answer's headers; it
      // also ends a write that does not drain) and bodyTimeout. Undici counts them in ticks
      // of its own clock, which a blocked event loop does not advance, so a stalled process
      // (a GC pause, a starved CPU) never times out an exchange whose bytes are on their way;
      // a wall-clock bound on the whole exchange (an AbortSignal) did, before the request had
      // even left, and a receiver then saw nothing at all.
      const res = await request(delivery.url, {
        method: 'POST',
        body: delivery.body,
        headers,
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      await res.body.dump();
      record.status = res.statusCode;
      success = isDeliverySuccess(res.statusCode);
      if (res.statusCode === 401 && this.auth.kind === 'oauth') this.token = undefined;
      if (res.statusCode >= 500 && this.ctx.fault('webhook-no-retry-on-500')) retryable = false;
    } catch (e) {
      const err = e as Error & { code?: unknown };
      record.error = err.name === 'TimeoutError' ? 'timeout' : typeof err.code === 'string' ? err.code : err.message;
      const timedOut = /timeout/i.test(record.error);
      if (timedOut && this.ctx.fault('webhook-no-retry-on-timeout')) retryable = false;
    }
    if (success) {
      // Events rule 4: a 2xx ends the delivery. The fault retries once more anyway.
      if (this.ctx.fault('webhook-retry-after-2xx') && delivery.attempt === 0) return this.scheduleRetry(delivery);
      return this.settle();
    }
    const maxRetries = this.ctx.fault('webhook-13th-retry') ? MAX_RETRIES + 1 : MAX_RETRIES;
    if (!retryable || delivery.attempt >= maxRetries) return this.settle(); // rule 5: dropped
    this.scheduleRetry(delivery);
  }

  private scheduleRetry(delivery: Delivery): void {
    const index = Math.min(delivery.attempt, RETRY_SCHEDULE_SECONDS.length - 1);
    const jitter = this.ctx.settings.webhookJitter ?? WEBHOOK_DELIVERY_DEFAULTS.webhookJitter;
    const scale = this.ctx.settings.webhookTimeScale > 0 ? this.ctx.settings.webhookTimeScale : 1;
    let delayMs = (RETRY_SCHEDULE_SECONDS[index] * 1000 * (1 + jitter * (2 * Math.random() - 1))) / scale;
    if (this.ctx.fault('webhook-retry-schedule-ignored')) delayMs = 0;
    const next: Delivery = { ...delivery, attempt: delivery.attempt + 1 };
    if (this.ctx.fault('webhook-retry-payload-changed')) next.body = this.render(delivery.event, next.attempt);
    this.ctx.later(delayMs, () => void this.attempt(next));
  }

  private settle(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Authentication 6: none, HTTP Basic, or an OAuth 2.0 client-credentials token. */
  private async authorization(): Promise<string | undefined> {
    const auth = this.auth;
    if (auth.kind === 'basic') return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    if (auth.kind === 'oauth') return `Bearer ${await this.accessToken(auth)}`;
    return undefined;
  }

  private async accessToken(auth: Extract<WebhookAuth, { kind: 'oauth' }>): Promise<string> {
    // "the vendor reuses the token until it expires and then repeats" (Authentication 6).
    const reuse = !this.ctx.fault('webhook-oauth-token-not-reused');
    if (reuse && this.token && performance.now() < this.token.expiresAtMs) return this.token.accessToken;
    if (reuse && this.tokenPending) return this.tokenPending;
    const pending = this.fetchToken(auth).finally(() => {
      if (this.tokenPending === pending) this.tokenPending = undefined;
    });
    this.tokenPending = pending;
    return pending;
  }

  private async fetchToken(auth: Extract<WebhookAuth, { kind: 'oauth' }>): Promise<string> {
    this.tokenRequests++;
    const basic = Buffer.from(`${auth.clientId}:${auth.clientSecret}`).toString('base64');
    const url = new URL(auth.tokenUrl);
    const headers: Record<string, string> = { authorization: `Basic ${basic}`, accept: 'application/json' };
    let body: string | undefined;
    if (auth.grantIn === 'query') url.searchParams.set('grant_type', 'client_credentials');
    else {
      body = 'grant_type=client_credentials';
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await request(url, { method: 'POST', headers, body, dispatcher: this.agent, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`token endpoint answered ${res.statusCode}`);
    const json = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof json.access_token !== 'string') throw new Error('token endpoint answered no access_token');
    const expiresInS = typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in ?? 0);
    this.token = { accessToken: json.access_token, expiresAtMs: performance.now() + Math.max(0, expiresInS) * 1000 };
    return json.access_token;
  }
}

/** The dispatcher of a simulator context, if one is attached. */
export function dispatcherOf(ctx: SimContext): WebhookDispatcher | undefined {
  return ctx.webhooks instanceof WebhookDispatcher ? ctx.webhooks : undefined;
}
