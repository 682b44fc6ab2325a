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
import { coreState } from './domain/store.ts';

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

/**
 * Variation longer-identifiers (Versioning: "changing length or format of opaque strings
 * (identifiers, messages)" is non-breaking). Every identifier whose shape the
 * specification does not state (a grant's, a client's, a transaction's, an institution's,
 * ...: "Other resources also have a guid") is answered longer and in another format
 * (`GNT-1f0c…` becomes `GNT-L1f0c…`, so the old form is not even a part of the new one);
 * the stated shapes USR-, MBR- and ACT-<uuid> (Resources, identifier shapes) keep theirs.
 * Requests take both forms, as a service that lengthened its identifiers still takes the
 * ones its clients hold.
 */
const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const STATED_SHAPES = new Set(['USR', 'MBR', 'ACT']);
const SHORT_ID = new RegExp(`^([A-Z]{3})-(${UUID})$`);
const LONG_ID = new RegExp(`\\b([A-Z]{3})-L(${UUID})(?![0-9A-Fa-f-])`, 'g');

/** The longer form of an opaque identifier, or the value itself. */
function lengthenIdentifier(value: string): string {
  const m = SHORT_ID.exec(value);
  return m && !STATED_SHAPES.has(m[1]) ? `${m[1]}-L${m[2]}` : value;
}

/** Every longer identifier in a text (a URL, a body) back in the form the records hold. */
function shortenIdentifiers(text: string): string {
  return text.replace(LONG_ID, '$1-$2');
}

/** The request's URL with longer identifiers taken back (Fastify rewriteUrl: before routing). */
export function requestUrlFor(ctx: SimContext, url: string): string {
  return ctx.variations.has('longer-identifiers') ? shortenIdentifiers(url) : url;
}

/** A parsed request body with longer identifiers taken back (preValidation). */
export function requestBodyFor(ctx: SimContext, body: unknown): unknown {
  if (!ctx.variations.has('longer-identifiers') || body === undefined || body === null || typeof body !== 'object') return body;
  return JSON.parse(shortenIdentifiers(JSON.stringify(body)));
}

const lengthenAll = (value: unknown): unknown =>
  typeof value === 'string'
    ? lengthenIdentifier(value)
    : Array.isArray(value)
      ? value.map(lengthenAll)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lengthenAll(v)]))
        : value;

/** Error codes that refuse a request's content (bad input): no status is stated for them (Errors). */
const REFUSED_INPUT_CODES = new Set(['invalid_json', 'invalid_request', 'invalid_paging', 'unprocessable']);

/** The status of a refused input under the bad-request-* variations (422 over 404 over 400), or undefined. */
function refusedInputStatus(ctx: SimContext): number | undefined {
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

const MEMBER = '/users/:user_guid/members/:member_guid';
/** Requests that start an aggregation-type job (create, update with credentials, resume, aggregate, verify, extended history, identify). */
const JOB_STARTS = new Set([
  `POST /users/:user_guid/members`,
  `PUT ${MEMBER}`,
  `PUT ${MEMBER}/resume`,
  ...['aggregate', 'verify', 'extend_history', 'identify'].map((j) => `POST ${MEMBER}/${j}`),
]);
/** The jobs the identify rules name (Endpoints, identify behaviour: identification; standard aggregation, extended transaction history). */
const IDENTIFY_RULE_JOB_STARTS = new Set(['aggregate', 'extend_history', 'identify'].map((j) => `POST ${MEMBER}/${j}`));
/** Reads of a job's state (Resources, Member: is_being_aggregated). */
const JOB_READS = new Set([`GET ${MEMBER}`, `GET ${MEMBER}/status`]);

/** Latencies of the latency variations, ms. */
const JOB_LATENCY_MS = { 'latency-100ms': 100, 'latency-3s': 3_000 } as const;

/** Whether an aggregation-type job runs, after this request, on the member it names (path, or the created member's guid). */
function jobRunsOnMember(ctx: SimContext, request: FastifyRequest, payload: unknown): boolean {
  let guid = (request.params as { member_guid?: string } | undefined)?.member_guid;
  if (!guid && typeof payload === 'string') {
    try {
      guid = (JSON.parse(payload) as { member?: { guid?: string } }).member?.guid;
    } catch {
      return false;
    }
  }
  return !!guid && !!coreState(ctx).members.get(guid)?.job;
}

/**
 * Variations latency-100ms and latency-3s (Latency: a real integration environment answers
 * in tens to thousands of milliseconds, and its jobs run for seconds to minutes; no
 * response time is stated anywhere): the answer comes late, the work is done on time. A
 * verdict can change with latency only where a job's state decides it (Endpoints, identify
 * behaviour: 202 while an identification runs, 409 while another aggregation-type job
 * runs): the delay goes where a job is started or read, so the self-test's other
 * scenarios (and the fuzz baseline's two thousand sequential requests) keep their pace.
 */
function jobLatencyMs(ctx: SimContext, request: FastifyRequest, payload: unknown): number {
  const slow = ctx.variation('latency-3s');
  const fast = ctx.variation('latency-100ms');
  if (!slow && !fast) return 0;
  const route = `${request.method} ${request.routeOptions?.url ?? ''}`;
  const starts = JOB_STARTS.has(route);
  if (!starts && !JOB_READS.has(route)) return 0;
  if (!jobRunsOnMember(ctx, request, payload)) return 0;
  let ms = 0;
  if (fast) ms = JOB_LATENCY_MS['latency-100ms'];
  if (slow && IDENTIFY_RULE_JOB_STARTS.has(route)) ms = JOB_LATENCY_MS['latency-3s'];
  return ms;
}

/** List answers served so far under list-order-varies, per simulator. */
const listReads = new WeakMap<SimContext, number>();

/**
 * Variation list-order-varies: no list's order is stated but the favourites' ("response
 * list of favourites ordered by popularity", Endpoints, Institutions), so every other list
 * answer (a JSON object holding one array) carries its page's records reversed on every
 * second list read of the run: two reads of one list, or of two lists holding the same
 * records, disagree in order and never in content. The page's records stay the page's, so
 * a walk of the pages still sees each record once.
 */
function reorderList(ctx: SimContext, request: FastifyRequest, parsed: unknown): boolean {
  if (request.method !== 'GET' || !parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  if (/\/institutions\/favorites(\?|$)/.test(request.url) || request.url.startsWith('/_sim')) return false;
  const lists = Object.values(parsed as Record<string, unknown>).filter(Array.isArray);
  if (lists.length !== 1 || lists[0].length < 2) return false;
  const reads = (listReads.get(ctx) ?? 0) + 1;
  listReads.set(ctx, reads);
  if (reads % 2 === 1) return false;
  lists[0].reverse();
  return true;
}

export async function applyVariations(ctx: SimContext, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (ctx.variations.size === 0) return payload;
  const lateMs = jobLatencyMs(ctx, request, payload);
  if (lateMs > 0) await new Promise((r) => setTimeout(r, lateMs));
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
  const longerIds = ctx.variation('longer-identifiers') && isPlatform(request);
  if (longerIds) parsed = lengthenAll(parsed);
  const reordered = ctx.variation('list-order-varies') && !isError && reorderList(ctx, request, parsed);
  if (otherShape && simErrorOf(parsed)) {
    const e = simErrorOf(parsed)!;
    parsed = { errors: [{ status: String(reply.statusCode), title: e.code, detail: e.message }] };
  }
  // Media types: v20111101 responses use the v1 vendor type (real-service-notes; Authentication 2).
  if (v1 && /^application\/json/.test(type)) reply.header('content-type', `${V1_VENDOR_MEDIA_TYPE}; charset=utf-8`);
  if (!(shapeEdits.length || longer || otherShape || simError || longerIds || reordered)) return payload;
  return JSON.stringify(applyShapeEdits(parsed, shapeEdits));
}
