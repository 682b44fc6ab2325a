/**
 * "Upgrade" faults: a breaking vendor upgrade played by the simulator, for the
 * version-upgrade regression check (DESIGN.md, "What it is for" 2; npm run versions). Each one is in force
 * only for requests under the NEWEST version the simulator serves (v20260929), so the
 * check that compares an older Accept-Version with the newest must find it and call it
 * breaking by the Versioning section's list ("removing or renaming a response field;
 * removing enum values; changing ... the kind of data of a field; adding a required
 * request parameter; removing, moving or changing endpoint paths").
 *
 * A route module of the platform scope: its preHandler runs after the scope's
 * onRequest (authentication, Accept-Version), its onSend rewrites JSON bodies.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';
import { sendError } from './errors.ts';
import { applyShapeEdits, shapeEditsInForce } from './shape.ts';

const UPGRADE_FAULTS = [
  'upgrade-removes-field',
  'upgrade-renames-field',
  'upgrade-changes-field-type',
  'upgrade-removes-enum-value',
  'upgrade-requires-parameter',
  'upgrade-moves-path',
  'upgrade-adds-validation',
  'upgrade-removes-parameter',
  'upgrade-changes-parameter-type',
] as const;

/** A non-breaking upgrade (Versioning, "Non-breaking"), on institution responses under the newest version only. */
const UPGRADE_VARIATIONS = ['upgrade-adds-field', 'upgrade-adds-header', 'upgrade-reorders-properties'] as const;

function newestVersion(ctx: SimContext): string {
  return [...ctx.settings.versions.map((v) => v.name)].sort().at(-1)!;
}

function active(ctx: SimContext, request: FastifyRequest, name: (typeof UPGRADE_FAULTS)[number] | (typeof UPGRADE_VARIATIONS)[number]): boolean {
  const inForce = (UPGRADE_FAULTS as readonly string[]).includes(name)
    ? ctx.fault(name as (typeof UPGRADE_FAULTS)[number])
    : ctx.variation(name as (typeof UPGRADE_VARIATIONS)[number]);
  return inForce && request.svcVersion === newestVersion(ctx);
}

export function registerUpgradeFaults(app: FastifyInstance, ctx: SimContext): void {
  if (!UPGRADE_FAULTS.some((f) => ctx.fault(f)) && !UPGRADE_VARIATIONS.some((v) => ctx.variation(v))) return;
  app.addHook('preHandler', async (request, reply) => {
    const url = request.routeOptions.url;
    if (active(ctx, request, 'upgrade-moves-path') && url === '/categories/default') {
      return sendError(reply, 'not_found', `No route GET /categories/default (moved to /categories/defaults)`);
    }
    if (active(ctx, request, 'upgrade-requires-parameter') && url === '/institutions' && request.method === 'GET') {
      const q = request.query as Record<string, unknown>;
      if (q.region === undefined) return sendError(reply, 'invalid_request', 'query parameter region is required');
    }
    // Versioning, breaking: "adding a validation rule to an existing parameter".
    if (active(ctx, request, 'upgrade-adds-validation') && url === '/institutions' && request.method === 'GET') {
      const rpp = Number((request.query as Record<string, unknown>).records_per_page);
      if (Number.isFinite(rpp) && rpp > 20) return sendError(reply, 'invalid_request', 'records_per_page must be at most 20');
    }
    // Versioning, breaking: "changing the meaning or type of a parameter": the newest version
    // takes records_per_page on GET /users as a size name, and refuses the number it took before.
    if (active(ctx, request, 'upgrade-changes-parameter-type') && url === '/users' && request.method === 'GET') {
      const rpp = (request.query as Record<string, unknown>).records_per_page;
      if (rpp !== undefined && !['small', 'medium', 'large'].includes(String(rpp)))
        return sendError(reply, 'invalid_request', 'records_per_page must be small, medium or large');
    }
    // Versioning, breaking: "removing a request parameter from path or body" (here the query):
    // the newest version no longer takes records_per_page on the default categories.
    if (
      active(ctx, request, 'upgrade-removes-parameter') &&
      url === '/categories/default' &&
      (request.query as Record<string, unknown>).records_per_page !== undefined
    ) {
      return sendError(reply, 'invalid_request', 'records_per_page is not a parameter of GET /categories/default');
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    const onInstitutions = String(request.routeOptions.url ?? '').startsWith('/institutions') || request.routeOptions.url === '/managed_institutions';
    if (onInstitutions && active(ctx, request, 'upgrade-adds-header')) reply.header('X-Svc-Upgrade-Added', 'added by the upgrade-adds-header variation');
    // Shape-only upgrade entries (shape.ts), under the newest version only.
    const edits = request.svcVersion === newestVersion(ctx) ? shapeEditsInForce(ctx, 'upgrade') : [];
    if (edits.length === 0) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(applyShapeEdits(body, edits));
  });
}
