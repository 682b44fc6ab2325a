/**
 * buildSimulator(options): the embedded svc service as a Fastify app, separate from
 * listen() (targets/simulator/main.ts) so tests run it in-process with inject() or on
 * an ephemeral port.
 *
 * One process serves three hosts of the specification under path prefixes:
 *   /            platform API (Basic authentication; Authentication 1)
 *   /audience    audience list service (Bearer token; Authentication 5)
 *   /test-host   earlier-generation test host (SVC-API-Key / SVC-Client-ID headers)
 *   /_sim        simulator-only pages: OAuth authorization page, connect widget, control
 *
 * The request pipeline of the platform scope, in order: rate limit (Errors 429),
 * Basic authentication, Accept-Version resolution (Versioning), per-route
 * deprecation/sunset, then the route. Every failure answers the one error body of
 * errors.ts; nothing answers a 5xx unless a fault asks for it.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createContext, type SimContext } from './context.ts';
import { settingsFromEnv, SIMULATOR_DEFAULTS, type SimulatorSettings, type VersionEntry } from './settings.ts';
import { errorBody, sendError, SimError } from './errors.ts';
import { assertOwnUser } from './domain/owners.ts';
import { applyVariations, requestBodyFor, requestUrlFor } from './variations.ts';
import { WebhookDispatcher, dispatcherOf } from './webhooks/dispatcher.ts';
import { PLATFORM_ROUTES, AUDIENCE_ROUTES, TEST_HOST_ROUTES, SIM_PAGE_ROUTES } from './routes/index.ts';

export interface SimulatorOptions {
  settings?: Partial<SimulatorSettings>;
  faults?: string[];
  variations?: string[];
  /** Fastify logger; off by default (requests carry credentials). */
  logger?: boolean;
}

export interface RouteVersionConfig {
  /** Versions from which this endpoint is deprecated (Versioning, "Deprecated endpoints"). */
  deprecatedFrom?: string;
  /** Versions from which this endpoint has sunset and answers an error. */
  sunsetFrom?: string;
  /**
   * The endpoint is called by a processor with `Authorization: Bearer <access_token>`
   * instead of the client's Basic credentials (Authentication 4; routes/processor.ts
   * checks the token).
   */
  processorBearer?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    svcVersion: string;
    svcClientId?: string;
  }
  interface FastifyContextConfig extends RouteVersionConfig {}
  interface FastifyInstance {
    sim: SimContext;
    /** Every registered route (method, url), for the table-driven bad-input test (app.test.ts). */
    simRoutes: Array<{ method: string; url: string }>;
  }
}

export type RouteModule = (app: FastifyInstance, ctx: SimContext) => void | Promise<void>;

function versionEntry(ctx: SimContext, name: string): VersionEntry | undefined {
  return ctx.settings.versions.find((v) => v.name === name);
}

/** Version names are dates (`v<YYYYMMDD>`), so they order as strings do. */
function versionAtLeast(version: string, from: string): boolean {
  return version >= from;
}

function httpDate(isoDay: string): string {
  return new Date(`${isoDay}T00:00:00Z`).toUTCString();
}

/** RFC 9745 Deprecation value: `@<epoch seconds>`. */
function deprecationValue(isoDay: string): string {
  return `@${Math.floor(Date.parse(`${isoDay}T00:00:00Z`) / 1000)}`;
}

function resolveVersion(ctx: SimContext, request: FastifyRequest, reply: FastifyReply): boolean {
  const header = request.headers['accept-version'];
  const asked = (Array.isArray(header) ? header[0] : header)?.trim() || ctx.settings.defaultVersion;
  // Fault accept-version-lenient: the wrong case and a missing v read as the version (V20250224, 20250224).
  const entry =
    versionEntry(ctx, asked) ??
    (/^[vV]?\d{8}$/.test(asked) && ctx.fault('accept-version-lenient') ? versionEntry(ctx, `v${asked.replace(/^[vV]/, '')}`) : undefined);
  if (!entry) {
    if (ctx.fault('unknown-version-served')) {
      request.svcVersion = ctx.settings.defaultVersion;
      return true;
    }
    sendError(
      reply,
      'unknown_version',
      `Accept-Version "${asked.slice(0, 40)}" is not a known version; known: ${ctx.settings.versions
        .filter((v) => !v.sunsetOn || v.sunsetOn > ctx.clock.today())
        .map((v) => v.name)
        .join(', ')}`,
    );
    return false;
  }
  const today = ctx.clock.today();
  if (entry.sunsetOn && entry.sunsetOn <= today && !ctx.fault('sunset-version-served')) {
    sendError(reply, 'version_sunset', `Version ${entry.name} reached sunset on ${entry.sunsetOn}; use a supported version`);
    return false;
  }
  if (entry.deprecatedOn && entry.deprecatedOn <= today && !ctx.fault('deprecation-headers-missing')) {
    lifecycleHeaders(ctx, reply, deprecationValue(entry.deprecatedOn), entry.sunsetOn ? httpDate(entry.sunsetOn) : undefined);
  } else if (ctx.fault('deprecation-signal-on-current-endpoints')) {
    // Fault: every answer of a version nobody deprecated signals a deprecation (Versioning
    // lists the deprecated endpoints; the headers "signal deprecated and sunset endpoints").
    reply.header(ctx.settings.deprecationHeader, deprecationValue(today));
  }
  request.svcVersion = entry.name;
  return true;
}

/**
 * Versioning: "Response headers that signal deprecated and sunset endpoints are present
 * in all versions", names not shown: the variations no-deprecation-header and
 * no-sunset-header leave one out (real-service-notes, Headers: the reference declares none).
 */
function lifecycleHeaders(ctx: SimContext, reply: FastifyReply, deprecation: string, sunset: string | undefined): void {
  if (!ctx.variation('no-deprecation-header')) reply.header(ctx.settings.deprecationHeader, deprecation);
  if (sunset !== undefined && !ctx.variation('no-sunset-header')) reply.header(ctx.settings.sunsetHeader, sunset);
}

function routeLifecycle(ctx: SimContext, request: FastifyRequest, reply: FastifyReply): boolean {
  const cfg = request.routeOptions.config as RouteVersionConfig | undefined;
  if (!cfg) return true;
  const v = request.svcVersion;
  if (cfg.sunsetFrom && versionAtLeast(v, cfg.sunsetFrom) && !ctx.fault('sunset-endpoint-served')) {
    sendError(reply, 'endpoint_sunset', `${request.routeOptions.url} is sunset from version ${cfg.sunsetFrom}`);
    return false;
  }
  // Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions."
  const since = cfg.deprecatedFrom ?? cfg.sunsetFrom;
  if (since && !ctx.fault('deprecation-headers-missing')) {
    const day = `${since.slice(1, 5)}-${since.slice(5, 7)}-${since.slice(7, 9)}`;
    lifecycleHeaders(ctx, reply, deprecationValue(day), cfg.sunsetFrom ? httpDate(day) : undefined);
  }
  return true;
}

function basicCredentials(request: FastifyRequest): { user: string; pass: string } | undefined {
  const h = request.headers.authorization;
  if (!h || !/^basic /i.test(h)) return undefined;
  const decoded = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  return { user: decoded.slice(0, i), pass: decoded.slice(i + 1) };
}

/** Variation rate-limit-10-per-second: a limit the service chose (Limits: "Request rate limit values: not shown"). */
const LOW_RATE_LIMIT_OF_VARIATION = 10;
const rateLimitOf = (ctx: SimContext) => (ctx.variation('rate-limit-10-per-second') ? LOW_RATE_LIMIT_OF_VARIATION : ctx.settings.rateLimitPerSecond);

/** Token bucket per client: capacity and refill both the limit (`rateLimitPerSecond`). */
class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  /** Fault rate-limit-never-recovers: the clients once refused. */
  private refusedForGood = new Set<string>();
  constructor(private ctx: SimContext) {}
  take(key: string): boolean {
    const limit = rateLimitOf(this.ctx);
    if (!(limit > 0) || this.ctx.fault('no-rate-limit')) return true;
    if (this.refusedForGood.has(key)) return false;
    const now = performance.now();
    const b = this.buckets.get(key) ?? { tokens: limit, at: now };
    b.tokens = Math.min(limit, b.tokens + ((now - b.at) / 1000) * limit);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) {
      if (this.ctx.fault('rate-limit-never-recovers')) this.refusedForGood.add(key);
      return false;
    }
    b.tokens -= 1;
    return true;
  }
}

function authPlatform(ctx: SimContext, request: FastifyRequest, reply: FastifyReply): boolean {
  if ((request.routeOptions.config as RouteVersionConfig | undefined)?.processorBearer && /^bearer /i.test(request.headers.authorization ?? '')) return true;
  const creds = basicCredentials(request);
  const ok =
    (creds?.user === ctx.settings.clientId && (creds?.pass === ctx.settings.apiKey || ctx.fault('basic-auth-wrong-key-accepted'))) ||
    // A second client of the same service (What the service does: a user belongs to exactly one client).
    (creds?.user === ctx.settings.secondClientId && creds?.pass === ctx.settings.secondApiKey);
  if (ok) {
    request.svcClientId = creds!.user;
    return true;
  }
  if (ctx.fault('basic-auth-not-enforced')) return true;
  reply.header('WWW-Authenticate', 'Basic realm="svc"');
  sendError(reply, 'unauthorized', creds ? 'The client id or API key is wrong' : 'HTTP Basic authentication with the client id and API key is required');
  return false;
}

export async function buildSimulator(options: SimulatorOptions = {}): Promise<FastifyInstance> {
  const settings = { ...settingsFromEnv({}), ...options.settings } as SimulatorSettings;
  const ctx = createContext(settings, options.faults ?? [], options.variations ?? []);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: SIMULATOR_DEFAULTS.maxBodyBytes,
    // A request must arrive whole within this (Fastify's default 0 would wait for a body that
    // trickles in or never comes, holding the socket for good): answered 408 after it.
    requestTimeout: 30_000,
    // Paths like /institutions/{code} must not be lower-cased or trimmed.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Variation longer-identifiers: a request may name a record by its longer identifier.
    rewriteUrl: (req) => requestUrlFor(ctx, req.url ?? '/'),
  });
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) request.body = requestBodyFor(ctx, request.body);
  });
  // Events: deliver webhooks when a URL is configured; otherwise keep recording them.
  if (Object.keys(settings.webhookUrls ?? {}).length > 0) ctx.webhooks = new WebhookDispatcher(ctx);
  app.decorate('sim', ctx);
  const simRoutes: Array<{ method: string; url: string }> = [];
  app.decorate('simRoutes', simRoutes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') simRoutes.push({ method, url: r.url });
  });
  app.decorateRequest('svcVersion', '');
  app.decorateRequest('svcClientId', undefined);

  // Bodies: JSON only; an empty body is allowed (token endpoints take none).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(json|vnd\.svc\.[^;]*\+json)/, { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body ?? '');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      if (ctx.fault('malformed-json-500')) return done(new Error('boom'), undefined);
      done(new SimError('invalid_json', `The request body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body ?? ''))));
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body ?? '');
    if (text.trim() === '') return done(null, undefined);
    done(new SimError('unsupported_media_type', 'Send the request body as application/json'), undefined);
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, _request, reply) => {
    if (err instanceof SimError) return sendError(reply, err.code, err.message);
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, 'payload_too_large', `The request body exceeds ${SIMULATOR_DEFAULTS.maxBodyBytes} bytes`);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, 'unsupported_media_type');
    if (err.validation) return sendError(reply, 'invalid_request', err.message);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send(errorBody('invalid_request', err.message));
    }
    if (ctx.fault('malformed-json-500')) return reply.code(500).send(errorBody('internal'));
    // A bug in the simulator: still answer the documented body, and say where.
    return reply.code(500).send(errorBody('internal', `Simulator error: ${err.message}`));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));

  app.addHook('onSend', async (request, reply, payload) => applyVariations(ctx, request, reply, payload));
  app.addHook('onClose', async () => {
    for (const t of ctx.timers) clearTimeout(t);
    ctx.timers.clear();
    await dispatcherOf(ctx)?.close();
  });

  const limiter = new RateLimiter(ctx);

  // Platform scope.
  await app.register(async (platform) => {
    platform.addHook('onRequest', async (request, reply) => {
      const creds = basicCredentials(request);
      if (!limiter.take(creds?.user ?? request.ip)) {
        reply.header('Retry-After', '1');
        if (ctx.fault('rate-limit-500')) return reply.code(500).send(errorBody('internal'));
        return sendError(reply, 'rate_limited', `More than ${rateLimitOf(ctx)} requests per second for this client; retry after 1 second`);
      }
      if (!authPlatform(ctx, request, reply)) return reply;
      if (!resolveVersion(ctx, request, reply)) return reply;
      if (!routeLifecycle(ctx, request, reply)) return reply;
    });
    platform.addHook('preHandler', async (request) => {
      // Data exchange paths are left out: a grantee reads the issuer's users by design.
      if ((request.routeOptions.url ?? '').startsWith('/data_exchange')) return;
      const params = (request.params ?? {}) as Record<string, string | undefined>;
      assertOwnUser(ctx, request.svcClientId, params.user_guid ?? params.user_identifier);
    });
    for (const register of PLATFORM_ROUTES) await register(platform, ctx);
  });
  await app.register(
    async (audience) => {
      for (const register of AUDIENCE_ROUTES) await register(audience, ctx);
    },
    { prefix: SIMULATOR_DEFAULTS.audiencePrefix },
  );
  await app.register(
    async (testHost) => {
      for (const register of TEST_HOST_ROUTES) await register(testHost, ctx);
    },
    { prefix: SIMULATOR_DEFAULTS.testHostPrefix },
  );
  await app.register(
    async (pages) => {
      for (const register of SIM_PAGE_ROUTES) await register(pages, ctx);
    },
    { prefix: '/_sim' },
  );

  return app;
}
