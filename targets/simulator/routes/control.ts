/**
 * Simulator-only control endpoints under /_sim (never part of the svc contract): the
 * clock tests can move (POST /_sim/clock {now} or {advance_ms}; with user_guid, only that
 * user's clock moves), a description of the settings and faults in force, and the
 * 24-hour refresh on demand. Credentials are never echoed.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { errorBody, sendError } from '../errors.ts';
import { runDueRefreshes } from '../domain/aggregation.ts';
import { coreState } from '../domain/store.ts';

export function registerControl(app: FastifyInstance, ctx: SimContext): void {
  app.get('/health', async () => ({ ok: true }));
  app.get('/info', async () => ({
    now: ctx.clock.now().toISOString(),
    faults: [...ctx.faults],
    variations: [...ctx.variations],
    versions: ctx.settings.versions,
    default_version: ctx.settings.defaultVersion,
    rate_limit_per_second: ctx.settings.rateLimitPerSecond,
    aggregation_ms: ctx.settings.aggregationMs,
  }));
  app.post('/clock', async (request, reply) => {
    const body = (request.body ?? {}) as { now?: unknown; advance_ms?: unknown; user_guid?: unknown };
    if (body.user_guid !== undefined) {
      // One user's clock (SimClock): time passes for that user's records only, so a
      // scenario need not wait out whole-second timestamps, and scenarios running in
      // parallel keep the shared clock.
      if (
        typeof body.user_guid !== 'string' ||
        !coreState(ctx).users.has(body.user_guid) ||
        typeof body.advance_ms !== 'number' ||
        !Number.isFinite(body.advance_ms) ||
        body.advance_ms < 0
      ) {
        return reply.code(400).send(errorBody('invalid_request', 'Send {"user_guid": "<a user\'s guid>", "advance_ms": <non-negative number>}'));
      }
      ctx.clock.advanceUser(body.user_guid, body.advance_ms);
      return { user_guid: body.user_guid, now: ctx.clock.now(body.user_guid).toISOString() };
    }
    if (typeof body.now === 'string') {
      try {
        ctx.clock.set(body.now);
      } catch (e) {
        return sendError(reply, 'invalid_request', (e as Error).message);
      }
    } else if (typeof body.advance_ms === 'number' && Number.isFinite(body.advance_ms)) {
      ctx.clock.advance(body.advance_ms);
    } else {
      return sendError(reply, 'invalid_request', 'Send {"now": "<ISO time>"} or {"advance_ms": <number>}');
    }
    return { now: ctx.clock.now().toISOString() };
  });
}

/**
 * Simulator control (never part of the svc contract): POST /_sim/refresh starts the
 * 24-hour refreshes that are due; moving the clock (POST /_sim/clock) does the same.
 * With a body `{ "user_guid": "USR-...", "elapsed_ms": n }` it judges only that user's
 * members, as if n more milliseconds had passed (the clock itself does not move).
 */
export function registerCoreControl(app: FastifyInstance, ctx: SimContext): void {
  app.post('/refresh', async (request, reply) => {
    const body = (request.body ?? {}) as { user_guid?: unknown; elapsed_ms?: unknown };
    if (body.user_guid === undefined && body.elapsed_ms === undefined) return { started: runDueRefreshes(ctx) };
    if (typeof body.user_guid !== 'string' || typeof body.elapsed_ms !== 'number' || !Number.isFinite(body.elapsed_ms) || body.elapsed_ms < 0) {
      return reply.code(400).send(errorBody('invalid_request', 'Send {} or {"user_guid": "USR-...", "elapsed_ms": <non-negative number>}'));
    }
    return { started: runDueRefreshes(ctx, { userGuid: body.user_guid, elapsedMs: body.elapsed_ms }) };
  });
  app.addHook('onResponse', async (request) => {
    if (request.method === 'POST' && request.url.split('?')[0] === '/_sim/clock') runDueRefreshes(ctx);
  });
}
