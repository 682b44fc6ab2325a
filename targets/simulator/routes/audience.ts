/**
 * Audience list service (Endpoints, "Audience list service"; Authentication 5), served
 * under /audience.
 *
 * The specification does not show the token endpoint ("Path, request and response shape
 * of the audience token endpoint: not shown"). The simulator's design, documented in
 * README "Simulator" and in the target profile (`audience.tokenUrl`), is an OAuth 2.0
 * client-credentials grant (RFC 6749 section 4.4):
 *
 *   POST /audience/oauth/token
 *   Authorization: Basic base64(client_id:client_secret)   (or client_id/client_secret in the body)
 *   body (form or JSON) or query: grant_type=client_credentials
 *   -> 200 {"access_token": "...", "token_type": "Bearer", "expires_in": 3600}
 *
 * Tokens expire on the simulator clock. Every audience endpoint needs
 * `Authorization: Bearer <access_token>` (401 without it or with a token it never issued
 * or that expired).
 *
 *   GET /audience/api/v1/audience/{id_or_slug}/list[?institution_public_id=...]  JSON
 *   GET /audience/api/v1/audience/{id_or_slug}/list.csv                          text/csv
 *
 * The CSV has no header row: one identifier per line, the same identifiers in the same
 * order as the JSON `list`. An `institution_public_id` that is not the audience's
 * institution answers 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { SIMULATOR_DEFAULTS } from '../settings.ts';
import { stableUuid } from '../data/stable-id.ts';
import { one, type Query } from './query.ts';

const TOKEN_LIFETIME_S = 3600;

export interface Audience {
  audience_id: string;
  slug: string;
  institution_id: string;
  list: string[];
}

/** The seeded audience: 40 opaque member identifiers. */
function seededAudience(): Audience {
  const d = SIMULATOR_DEFAULTS;
  return {
    audience_id: d.audienceId,
    slug: d.audienceSlug,
    institution_id: d.audienceInstitutionPublicId,
    list: Array.from({ length: 40 }, (_, i) => `aud-member-${stableUuid(`audience:${i}`)}`),
  };
}

function basic(request: FastifyRequest): { id: string; secret: string } | undefined {
  const h = request.headers.authorization;
  if (!h || !/^basic /i.test(h)) return undefined;
  const decoded = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
}

export function registerAudience(app: FastifyInstance, ctx: SimContext): void {
  const tokens = ctx.collection<number>('audience_tokens'); // token -> expiry (epoch ms, simulator clock)
  const audience = seededAudience();

  app.post('/oauth/token', async (request) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Query;
    const query = (request.query ?? {}) as Query;
    const fromBody = one(body, 'client_id') !== undefined ? { id: one(body, 'client_id')!, secret: one(body, 'client_secret') ?? '' } : undefined;
    const client = basic(request) ?? fromBody;
    if (!client || client.id !== ctx.settings.audienceClientId || client.secret !== ctx.settings.audienceClientSecret) {
      throw new SimError('unauthorized', 'Authenticate with the audience client_id and client_secret (HTTP Basic)');
    }
    const grantType = one(body, 'grant_type') ?? one(query, 'grant_type');
    if (grantType !== 'client_credentials')
      throw new SimError('invalid_request', `grant_type must be client_credentials, got "${String(grantType ?? '').slice(0, 40)}"`);
    const token = `aud_${randomBytes(24).toString('base64url')}`;
    tokens.set(token, ctx.clock.nowMs() + TOKEN_LIFETIME_S * 1000);
    return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S };
  });

  /** Authentication 5: `Authorization: Bearer <ACCESS_TOKEN>` on all audience endpoints. */
  const requireBearer = async (request: FastifyRequest) => {
    if (ctx.fault('audience-bearer-not-enforced')) return;
    const h = request.headers.authorization;
    const token = h && /^bearer /i.test(h) ? h.slice(7).trim() : undefined;
    if (!token) throw new SimError('unauthorized', 'Authorization: Bearer <access_token> is required; get a token from POST /audience/oauth/token');
    const expires = tokens.get(token);
    if (expires === undefined || expires <= ctx.clock.nowMs()) throw new SimError('unauthorized', 'The bearer token is unknown or expired');
  };

  const find = (request: FastifyRequest): Audience => {
    const { id_or_slug } = request.params as { id_or_slug: string };
    const institution = one(request.query as Query, 'institution_public_id');
    // Endpoints, Audience list service: the path takes `{id_or_slug}`. Fault
    // audience-slug-not-found: only the audience id is found, its slug answers 404.
    const bySlug = id_or_slug === audience.slug && !ctx.fault('audience-slug-not-found');
    if ((id_or_slug !== audience.audience_id && !bySlug) || (institution !== undefined && institution !== audience.institution_id)) {
      throw new SimError('not_found', `No audience "${id_or_slug.slice(0, 80)}"${institution ? ` for institution "${institution.slice(0, 80)}"` : ''}`);
    }
    return audience;
  };

  app.get('/api/v1/audience/:id_or_slug/list', { preHandler: requireBearer }, async (request) => {
    const a = find(request);
    return {
      audience_id: a.audience_id,
      count: ctx.fault('audience-count-mismatch') ? a.list.length + 1 : a.list.length,
      institution_id: a.institution_id,
      // Endpoints: "list (array of opaque string identifiers)". Fault: the identifiers are numbers.
      list: ctx.fault('audience-list-not-strings') ? a.list.map((_, i) => 1000 + i) : a.list,
      // Endpoints: updated_on is an ISO 8601 date.
      updated_on: ctx.clock.today(),
    };
  });

  app.get('/api/v1/audience/:id_or_slug/list.csv', { preHandler: requireBearer }, async (request, reply) => {
    const a = find(request);
    const ids = ctx.fault('audience-csv-differs-from-json') ? a.list.slice(1) : a.list;
    return reply.type('text/csv; charset=utf-8').send(ids.map((id) => `${id}\n`).join(''));
  });
}
