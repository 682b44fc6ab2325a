/**
 * Response-level variations: non-breaking changes in the Versioning section's sense,
 * applied to every JSON response so that no route needs to know about them.
 * (Variations that concern particular fields, such as a new enumeration value, live
 * where the field is made.)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';
import { SimError } from './errors.ts';
import { applyShapeEdits, shapeEditsInForce } from './shape.ts';

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

/** Error codes that refuse a request's content (bad input): no status is stated for them (Errors). */
const REFUSED_INPUT_CODES = new Set(['invalid_json', 'invalid_request', 'invalid_paging', 'unprocessable']);

/** The status of a refused input under the bad-request-* variations (422 over 404 over 400), or undefined. */
export function refusedInputStatus(ctx: SimContext): number | undefined {
  if (ctx.variation('bad-request-422')) return 422;
  if (ctx.variation('bad-request-404')) return 404;
  if (ctx.variation('bad-request-400')) return 400;
  return undefined;
}

/** The simulator's error body (errors.ts) as a parsed object, or undefined. */
function simErrorOf(value: unknown): { status: number; code: string; message: string } | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const e = (value as Record<string, unknown>).error;
  if (!e || typeof e !== 'object' || Array.isArray(e)) return undefined;
  const o = e as Record<string, unknown>;
  return typeof o.code === 'string' && typeof o.message === 'string' ? { status: Number(o.status), code: o.code, message: o.message } : undefined;
}

/** The platform scope: what a request to the platform API (not /_sim, /audience, /test-host) is. */
function isPlatform(request: FastifyRequest): boolean {
  return request.svcVersion !== '' && request.svcVersion !== undefined;
}

export const V1_VENDOR_MEDIA_TYPE = 'application/vnd.svc.api.v1+json';

export async function applyVariations(ctx: SimContext, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (ctx.variations.size === 0) return payload;
  // Versioning: "adding a response header" is non-breaking.
  if (ctx.variation('new-response-header')) reply.header('X-Svc-Sim-Added', 'added by the new-response-header variation');
  // Errors: 429 names no header ("Request rate limit values: not shown"); the reference declares none.
  if (reply.statusCode === 429 && ctx.variation('no-rate-limit-headers')) {
    for (const h of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']) reply.removeHeader(h);
  }
  // Errors: no status is stated for delete operations; 200 with a body instead of 204.
  if (ctx.variation('delete-200-with-body') && request.method === 'DELETE' && reply.statusCode === 204 && isPlatform(request)) {
    reply.code(200).type('application/json; charset=utf-8');
    payload = JSON.stringify({ deleted: true });
  }
  // Shape-only variations (shape.ts): fields added, keys reordered.
  const shapeEdits = shapeEditsInForce(ctx, 'response');
  const isError = reply.statusCode >= 400;
  const longer = ctx.variation('longer-error-messages') && isError;
  const badStatus = refusedInputStatus(ctx);
  const otherShape = ctx.variation('error-body-other-shape') && isError;
  const emptyError = isError && (ctx.variation('error-body-empty') || (reply.statusCode === 429 && ctx.variation('rate-limit-429-without-body')));
  const v1 = ctx.variation('v1-vendor-media-type') && request.svcVersion === 'v20111101';
  const type = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !type.includes('json')) return payload;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return payload;
  }
  const simError = isError ? simErrorOf(parsed) : undefined;
  // Errors: "Error codes per endpoint beyond those in the table: not shown": refused input may answer 400, 404 or 422.
  if (simError && badStatus !== undefined && REFUSED_INPUT_CODES.has(simError.code)) {
    reply.code(badStatus);
    parsed = { error: { ...(parsed as { error: object }).error, status: badStatus } };
  }
  // Errors: "Shape of error response bodies: not shown".
  if (emptyError) {
    reply.removeHeader('content-type');
    return '';
  }
  if (longer) parsed = lengthenMessages(parsed);
  if (otherShape && simErrorOf(parsed)) {
    const e = simErrorOf(parsed)!;
    parsed = { errors: [{ status: String(reply.statusCode), title: e.code, detail: e.message }] };
  }
  // Media types: v20111101 responses use the v1 vendor type (real-service-notes; Authentication 2).
  if (v1 && /^application\/json/.test(type)) reply.header('content-type', `${V1_VENDOR_MEDIA_TYPE}; charset=utf-8`);
  if (!(shapeEdits.length || longer || otherShape || simError)) return payload;
  return JSON.stringify(applyShapeEdits(parsed, shapeEdits));
}
