/**
 * Faults of the platform's request protocol (Endpoints: bodies are JSON, Accept-Version;
 * Authentication 2, and 3: grant reads with Basic only; Versioning: the versions in play)
 * and of the test institution's scenario table (DENIED end states), as hooks over every
 * platform route. Registered right after the upgrade faults, so its hooks cover every
 * route; the app's own pipeline (rate limit, Basic, Accept-Version resolution,
 * lifecycle) has run before these onRequest hooks.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';

export function registerProtocolFaults(app: FastifyInstance, ctx: SimContext): void {
  const newest = () =>
    [...ctx.settings.versions]
      .map((v) => v.name)
      .sort()
      .at(-1)!;
  app.addHook('onRequest', async (request) => {
    // Authentication 2: "Earlier examples use a vendor media type of the form
    // application/vnd.svc.api.v1+json or v2+json in Accept". Fault: such an Accept is refused.
    if (ctx.fault('vendor-accept-refused') && /application\/vnd\.svc\.api\.v[12]\+json/i.test(String(request.headers.accept ?? ''))) {
      throw new SimError('not_acceptable', 'Only application/json is served');
    }
    // Versioning: "A deprecated version remains usable for 12 months after its deprecation
    // date". Fault: a deprecated version answers the sunset error at once.
    const entry = ctx.settings.versions.find((v) => v.name === request.svcVersion);
    if (ctx.fault('deprecated-version-refused') && entry?.deprecatedOn && entry.deprecatedOn <= ctx.clock.today()) {
      throw new SimError('version_sunset', `Version ${entry.name} is deprecated (${entry.deprecatedOn}) and no longer served`);
    }
    // Versioning: "a released version is supported for at least 18 months from launch".
    // Fault: the newest version (launched 2026-09-29) has already sunset.
    if (
      ctx.fault('recent-version-sunset') &&
      entry &&
      entry.name ===
        [...ctx.settings.versions]
          .map((v) => v.name)
          .sort()
          .at(-1)
    ) {
      throw new SimError('version_sunset', `Version ${entry.name} reached sunset`);
    }
    // Versioning: "Versions in play: v20260929 (current), v20250224, v20111101". Fault: one of them is unknown.
    if (ctx.fault('in-play-version-refused') && request.svcVersion === 'v20250224') {
      throw new SimError('unknown_version', 'Accept-Version v20250224 names no version this service knows');
    }
  });
  // Authentication 3: "Grant listing and grant reading need only Basic authentication".
  // Fault: they also demand the SVC-3DX-TOKEN header of the token-protected reads.
  const GRANT_READS = ['/data_exchange/issuer/:issuer_client_guid/grants', '/data_exchange/grantee/:grantee_client_guid/grants', '/data_exchange/grant'];
  app.addHook('preHandler', async (request) => {
    if (
      ctx.fault('grants-require-3dx-token') &&
      request.method === 'GET' &&
      GRANT_READS.includes(String(request.routeOptions?.url)) &&
      !request.headers['svc-3dx-token']
    ) {
      throw new SimError('unauthorized', 'The header SVC-3DX-TOKEN is required');
    }
  });
  // Endpoints: "Most endpoints accept the header Accept-Version"; Versioning: "The version is
  // chosen with the request header Accept-Version". Fault: the header is ignored and every
  // request is answered as the newest version.
  app.addHook('preHandler', async (request) => {
    if (ctx.fault('accept-version-ignored')) request.svcVersion = newest();
  });
  // Endpoints, test institution: "invalid credentials", "invalid login fields" and "locked
  // out" lead to DENIED. Fault: member reads report HALTED instead of DENIED.
  const MEMBER_READS = ['/users/:user_guid/members/:member_guid', '/users/:user_guid/members/:member_guid/status'];
  app.addHook('onSend', async (request, _reply, payload) => {
    if (
      !ctx.fault('denied-reported-as-halted') ||
      request.method !== 'GET' ||
      !MEMBER_READS.includes(String(request.routeOptions?.url)) ||
      typeof payload !== 'string'
    )
      return payload;
    return payload.replace(/"connection_status":"DENIED"/g, '"connection_status":"HALTED"');
  });
}
