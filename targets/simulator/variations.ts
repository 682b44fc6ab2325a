/**
 * Response-level variations: non-breaking changes in the Versioning section's sense,
 * applied to every JSON response so that no route needs to know about them.
 * (Variations that concern particular fields, such as a new enumeration value, live
 * where the field is made.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';

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
  if (!(add || reorder) || typeof payload !== 'string') return payload;
  const type = String(reply.getHeader('content-type') ?? '');
  if (!type.includes('json')) return payload;
  try {
    return JSON.stringify(transform(JSON.parse(payload), add, reorder));
  } catch {
    return payload;
  }
}
