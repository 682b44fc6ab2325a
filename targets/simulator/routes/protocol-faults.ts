/**
 * Faults of the platform's request protocol (Endpoints: bodies are JSON, Accept-Version;
 * Authentication 2; Versioning: the versions in play), as hooks over every platform
 * route. Registered right after the upgrade faults, so its hooks cover every route; the
 * app's own pipeline (rate limit, Basic, Accept-Version resolution, lifecycle) has run
 * before these onRequest hooks.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';

export function registerProtocolFaults(app: FastifyInstance, ctx: SimContext): void {
  const newest = () => [...ctx.settings.versions].map((v) => v.name).sort().at(-1)!;
  app.addHook('onRequest', async (request) => {
    // Authentication 2: "Earlier examples use a vendor media type of the form
    // application/vnd.svc.api.v1+json or v2+json in Accept". Fault: such an Accept is refused.
    if (ctx.fault('vendor-accept-refused') && /application\/vnd\.svc\.api\.v[12]\+json/i.test(String(request.headers.accept ?? ''))) {
      throw new SimError('not_acceptable', 'Only application/json is served');
    }
    // Versioning: "Versions in play: v20260929 (current), v20250224, v20111101". Fault: one of them is unknown.
    if (ctx.fault('in-play-version-refused') && request.svcVersion === 'v20250224') {
      throw new SimError('unknown_version', 'Accept-Version v20250224 names no version this service knows');
    }
  });
  // Endpoints: "Most endpoints accept the header Accept-Version"; Versioning: "The version is
  // chosen with the request header Accept-Version". Fault: the header is ignored and every
  // request is answered as the newest version.
  app.addHook('preHandler', async (request) => {
    if (ctx.fault('accept-version-ignored')) request.svcVersion = newest();
  });
  // Endpoints: "Request and response bodies are JSON". Fault: institution answers are sent
  // as text/plain (the same bytes).
  app.addHook('onSend', async (request, reply, payload) => {
    if (ctx.fault('institutions-json-as-text') && request.url.startsWith('/institutions') && String(reply.getHeader('content-type') ?? '').includes('json')) {
      reply.header('content-type', 'text/plain; charset=utf-8');
    }
    return payload;
  });
}
