/**
 * "Upgrade" faults: a breaking vendor upgrade played by the simulator, for the
 * version-upgrade regression check (issue 7; npm run versions). Each one is in force
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

export const UPGRADE_FAULTS = [
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
export const UPGRADE_VARIATIONS = ['upgrade-adds-field', 'upgrade-adds-header', 'upgrade-reorders-properties'] as const;

function newestVersion(ctx: SimContext): string {
  return [...ctx.settings.versions.map((v) => v.name)].sort().at(-1)!;
}

function active(ctx: SimContext, request: FastifyRequest, name: (typeof UPGRADE_FAULTS)[number] | (typeof UPGRADE_VARIATIONS)[number]): boolean {
  return (ctx.fault(name) || ctx.variation(name)) && request.svcVersion === newestVersion(ctx);
}

/** Rewrites every object in a JSON value (institutions, credentials, categories ...). */
function rewrite(value: unknown, fn: (o: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, fn));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = rewrite(v, fn);
    return fn(out);
  }
  return value;
}

const isInstitution = (o: Record<string, unknown>) => typeof o.code === 'string' && typeof o.guid === 'string' && String(o.guid).startsWith('INS-');

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
      if (rpp !== undefined && !['small', 'medium', 'large'].includes(String(rpp))) return sendError(reply, 'invalid_request', 'records_per_page must be small, medium or large');
    }
    // Versioning, breaking: "removing a request parameter from path or body" (here the query):
    // the newest version no longer takes records_per_page on the default categories.
    if (active(ctx, request, 'upgrade-removes-parameter') && url === '/categories/default' && (request.query as Record<string, unknown>).records_per_page !== undefined) {
      return sendError(reply, 'invalid_request', 'records_per_page is not a parameter of GET /categories/default');
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    const removes = active(ctx, request, 'upgrade-removes-field');
    const renames = active(ctx, request, 'upgrade-renames-field');
    const retypes = active(ctx, request, 'upgrade-changes-field-type');
    const enums = active(ctx, request, 'upgrade-removes-enum-value');
    const adds = active(ctx, request, 'upgrade-adds-field');
    const reorders = active(ctx, request, 'upgrade-reorders-properties');
    const onInstitutions = String(request.routeOptions.url ?? '').startsWith('/institutions') || request.routeOptions.url === '/managed_institutions';
    if (onInstitutions && active(ctx, request, 'upgrade-adds-header')) reply.header('X-Svc-Upgrade-Added', 'added by the upgrade-adds-header variation');
    if (!(removes || renames || retypes || enums || adds || reorders)) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(
      rewrite(body, (o) => {
        if (isInstitution(o)) {
          if (removes) delete o.instructional_text;
          if (renames && 'name' in o) {
            const { name, ...rest } = o;
            o = { ...rest, display_name: name };
          }
          if (retypes && typeof o.is_hidden === 'boolean') o.is_hidden = String(o.is_hidden);
          if (adds) o.upgrade_added_field = 'added by the upgrade-adds-field variation';
          if (reorders) o = Object.fromEntries(Object.entries(o).reverse());
        }
        // Credentials' field type: the PASSWORD value is replaced by a new one.
        if (enums && o.type === 'PASSWORD' && typeof o.field_name === 'string') o.type = 'SECRET';
        return o;
      }),
    );
  });
}
