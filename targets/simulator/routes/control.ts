/**
 * Simulator-only control endpoints under /_sim (never part of the svc contract): the
 * clock tests can move, and a description of the settings and faults in force.
 * Credentials are never echoed.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { sendError } from '../errors.ts';

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
    const body = (request.body ?? {}) as { now?: unknown; advance_ms?: unknown };
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
