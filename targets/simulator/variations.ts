/**
 * Response-level variations: non-breaking changes in the Versioning section's sense,
 * applied to every JSON response so that no route needs to know about them.
 * (Variations that concern particular fields, such as a new enumeration value, live
 * where the field is made.)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';
import { SimError } from './errors.ts';

/** What longer-error-messages appends: messages are opaque strings (Versioning). */
export const LONGER_MESSAGE_SUFFIX = ` (longer-error-messages variation: ${'this message is longer than before, which the Versioning section allows for opaque strings. '.repeat(2).trim()})`;

/** Lengthens `error.message` (and any top-level `message`) of an error body. */
function lengthenMessages(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = { ...(value as Record<string, unknown>) };
  if (typeof out.message === 'string') out.message += LONGER_MESSAGE_SUFFIX;
  if (out.error && typeof out.error === 'object' && typeof (out.error as Record<string, unknown>).message === 'string') {
    out.error = { ...(out.error as Record<string, unknown>), message: `${(out.error as Record<string, unknown>).message}${LONGER_MESSAGE_SUFFIX}` };
  }
  return out;
}

/**
 * Variation new-endpoint (Versioning: "adding endpoints" is non-breaking): a platform
 * endpoint the specification does not name, registered only while the variation is in
 * force, behind the same Basic authentication and version pipeline as every other.
 */
export function registerVariationRoutes(app: FastifyInstance, ctx: SimContext): void {
  if (!ctx.variation('new-endpoint')) return;
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/sim_added_resources', async (request) => {
    if (!/^USR-/.test(request.params.user_guid)) throw new SimError('not_found', `No user "${request.params.user_guid.slice(0, 80)}"`);
    return { sim_added_resources: [], pagination: { current_page: 1, per_page: 25, total_entries: 0, total_pages: 1 } };
  });
}

function transform(value: unknown, add: boolean, reorder: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => transform(v, add, reorder));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, transform(v, add, reorder)] as const);
    if (reorder) entries.reverse();
    const out: Record<string, unknown> = Object.fromEntries(entries);
    // Versioning: "adding response data elements" is non-breaking.
    if (add) out.sim_added_field = 'added by the added-response-fields variation';
    return out;
  }
  return value;
}

export async function applyVariations(ctx: SimContext, _request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (ctx.variations.size === 0) return payload;
  // Versioning: "adding a response header" is non-breaking.
  if (ctx.variation('new-response-header')) reply.header('X-Svc-Sim-Added', 'added by the new-response-header variation');
  const add = ctx.variation('added-response-fields');
  const reorder = ctx.variation('reordered-properties');
  const longer = ctx.variation('longer-error-messages') && reply.statusCode >= 400;
  if (!(add || reorder || longer) || typeof payload !== 'string') return payload;
  const type = String(reply.getHeader('content-type') ?? '');
  if (!type.includes('json')) return payload;
  try {
    const parsed = JSON.parse(payload);
    return JSON.stringify(transform(longer ? lengthenMessages(parsed) : parsed, add, reorder));
  } catch {
    return payload;
  }
}
