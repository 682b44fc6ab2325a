/**
 * Institutions (Endpoints, "Institutions"; Resources, "Institution"; Limits).
 *
 *   GET /institutions                        list; filters below; records_per_page max 1000
 *   GET /institutions/favorites              favourites ordered by popularity; country filter
 *   GET /institutions/{code or guid}         one institution
 *   GET /institutions/{code or guid}/credentials   credentials to create a member; 404 unknown
 *
 * Filter names (the specification names the filters but not all their query names;
 * documented in README "Simulator"): `name` (case-insensitive substring),
 * `country_code` or `iso_country_code`, from v20250224 `supported_products` (comma list,
 * repeated, or `supported_products[]`; an institution must support every product
 * named), before v20250224 the four `supports_*` flags (`true`/`false`), and
 * `include_blocked_institutions` (blocked = `is_disabled_by_client` true).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { institutionCatalog, institutionCredentials, SUPPORTS_FIELDS, TEST_INSTITUTION_CODE, type InstitutionRecord } from '../data/institutions.ts';
import { bool, many, one, type Query } from './query.ts';
import { findInstitution } from '../domain/store.ts';

/** Versioning, "Changes in v20250224": supported_products replaces the four supports_* fields. */
const SUPPORTED_PRODUCTS_FROM = 'v20250224';

export function renderInstitution(ctx: SimContext, rec: InstitutionRecord, version: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    code: rec.code,
    guid: rec.guid,
    name: rec.name,
    created_at: rec.created_at,
    is_hidden: rec.is_hidden,
    status: rec.status,
    client_status: rec.client_status,
    is_disabled_by_client: rec.is_disabled_by_client,
    instructional_text: rec.instructional_text,
    instructional_text_steps: rec.instructional_text_steps,
    forgot_password_url: rec.forgot_password_url,
    forgot_username_url: rec.forgot_username_url,
    trouble_signing_in_url: rec.trouble_signing_in_url,
    // Resources: "true only when the institution supports OAuth and the client is registered
    // with it" (fault supports-oauth-without-oauth: the credentials-only test institution claims it).
    supports_oauth: rec.supports_oauth || (rec.code === TEST_INSTITUTION_CODE && ctx.fault('supports-oauth-without-oauth')),
  };
  const newShape = version >= SUPPORTED_PRODUCTS_FROM;
  if (newShape) {
    out.supported_products = rec.products.filter((p) => p !== 'statements');
    // Variation new-enum-values (Versioning: enumerated response fields may gain values).
    if (ctx.variation('new-enum-values')) (out.supported_products as string[]).push('sim_new_product');
    // Variation more-supported-products (Resources, Institution: values "such as"; real-service-notes, Enumerations).
    if (ctx.variation('more-supported-products'))
      for (const p of ['statements', 'investments', 'rewards'])
        if (!(out.supported_products as string[]).includes(p)) (out.supported_products as string[]).push(p);
  }
  // Variation v20111101-institutions-without-guid (real-service-notes, Nullability: v20250224 adds guid, created_at, is_hidden, supported_products).
  if (!newShape && ctx.variation('v20111101-institutions-without-guid'))
    for (const k of ['guid', 'created_at', 'is_hidden', 'supported_products']) delete out[k];
  // Variation institution-text-fields-null (nullness not stated; real-service-notes, Nullability).
  if (ctx.variation('institution-text-fields-null'))
    for (const k of ['instructional_text', 'instructional_text_steps', 'forgot_password_url', 'forgot_username_url', 'trouble_signing_in_url']) out[k] = null;
  if (!newShape) {
    for (const [field, product] of SUPPORTS_FIELDS) out[field] = rec.products.includes(product);
  }
  return out;
}

function catalogOf(ctx: SimContext) {
  return institutionCatalog(ctx.settings.institutionCount);
}

/**
 * Institutions listed without `include_blocked_institutions`, and each record's JSON per
 * response shape, made once per simulator (faults are fixed at start, so the cache is
 * per context): the list endpoint is the benchmark's hot path (npm run bench:simulator).
 */
interface InstitutionCache {
  unblocked: InstitutionRecord[];
  json: Map<string, Map<InstitutionRecord, string>>;
}

function cacheOf(ctx: SimContext): InstitutionCache {
  let c = ctx.store.get('institutions-cache') as InstitutionCache | undefined;
  if (!c) {
    c = { unblocked: catalogOf(ctx).all.filter((r) => !r.is_disabled_by_client), json: new Map() };
    ctx.store.set('institutions-cache', c);
  }
  return c;
}

function institutionJson(ctx: SimContext, rec: InstitutionRecord, version: string): string {
  const shape = version >= SUPPORTED_PRODUCTS_FROM ? 'products' : 'supports';
  const cache = cacheOf(ctx).json;
  let byRecord = cache.get(shape);
  if (!byRecord) cache.set(shape, (byRecord = new Map()));
  let text = byRecord.get(rec);
  if (text === undefined) byRecord.set(rec, (text = JSON.stringify(renderInstitution(ctx, rec, version))));
  return text;
}

/** `{"institutions": [...], "pagination": {...}}` assembled from the cached record JSON. */
function listBody(ctx: SimContext, records: InstitutionRecord[], pagination: unknown, version: string): string {
  // Fault institution-list-drops-status: lists leave out status and client_status, which the
  // read of the same institution serves (Versioning: "removing or renaming a response field").
  const json = ctx.fault('institution-list-drops-status')
    ? (r: InstitutionRecord) => {
        const { status: _s, client_status: _c, ...rest } = renderInstitution(ctx, r, version);
        return JSON.stringify(rest);
      }
    : (r: InstitutionRecord) => institutionJson(ctx, r, version);
  return `{"institutions":[${records.map(json).join(',')}],"pagination":${JSON.stringify(pagination)}}`;
}
const JSON_TYPE = 'application/json; charset=utf-8';

function countryFilter(query: Query): ((r: InstitutionRecord) => boolean) | undefined {
  const country = (one(query, 'country_code') ?? one(query, 'iso_country_code'))?.toUpperCase();
  if (country === undefined) return undefined;
  if (!/^[A-Z]{2}$/.test(country)) throw new SimError('invalid_request', `country_code must be a two-letter ISO 3166 code, got "${country.slice(0, 40)}"`);
  return (r) => r.countryCode === country;
}

function listFilters(ctx: SimContext, query: Query, version: string): Array<(r: InstitutionRecord) => boolean> {
  const filters: Array<(r: InstitutionRecord) => boolean> = [];
  const name = one(query, 'name')?.toLowerCase();
  // Fault institution-name-filter-nomatch-widens: a name no institution bears is dropped, so
  // the answer is the whole list instead of an empty one.
  const widens =
    name !== undefined && ctx.fault('institution-name-filter-nomatch-widens') && !catalogOf(ctx).all.some((r) => r.name.toLowerCase().includes(name));
  if (name !== undefined && !widens && !ctx.fault('institution-name-filter-ignored')) filters.push((r) => r.name.toLowerCase().includes(name));
  const country = countryFilter(query);
  if (country && !ctx.fault('institution-country-filter-ignored')) filters.push(country);
  if (version >= SUPPORTED_PRODUCTS_FROM) {
    const products = many(query, 'supported_products', 'supported_products[]');
    if (products.length && !ctx.fault('supported-products-filter-ignored')) filters.push((r) => products.every((p) => r.products.includes(p)));
  } else if (!ctx.fault('supports-filters-ignored')) {
    // Before v20250224 the list query takes the four supports_* fields (Versioning, "Changes
    // in v20250224"); fault supports-filters-ignored: every institution is listed whatever they say.
    for (const [field, product] of SUPPORTS_FIELDS) {
      const wanted = bool(query, field);
      if (wanted !== undefined) filters.push((r) => r.products.includes(product) === wanted);
    }
  }
  return filters;
}

function identifierParam(request: FastifyRequest): string {
  return (request.params as { institution_identifier: string }).institution_identifier;
}

export function registerInstitutions(app: FastifyInstance, ctx: SimContext): void {
  app.get('/institutions', async (request, reply) => {
    const query = (request.query ?? {}) as Query;
    const filters = listFilters(ctx, query, request.svcVersion);
    // Blocked institutions only with include_blocked_institutions=true (Endpoints, "Institutions").
    // Faults: include-blocked-institutions-ignored (never listed), blocked-institutions-listed-by-default (always).
    const include = bool(query, 'include_blocked_institutions');
    const base =
      (include && !ctx.fault('include-blocked-institutions-ignored')) || ctx.fault('blocked-institutions-listed-by-default')
        ? catalogOf(ctx).all
        : cacheOf(ctx).unblocked;
    const matching = filters.length ? base.filter((r) => filters.every((f) => f(r))) : base;
    const page = pageList(ctx, matching, query, { statedMaximum: true });
    return reply.type(JSON_TYPE).send(listBody(ctx, page.items, page.pagination, request.svcVersion));
  });

  app.get('/institutions/favorites', async (request, reply) => {
    const query = (request.query ?? {}) as Query;
    // The filter is read (and a malformed country refused) even when the fault ignores it.
    const requested = countryFilter(query);
    const country = ctx.fault('favorites-country-filter-ignored') ? undefined : requested;
    // Endpoints: "ordered by popularity" (fault favorites-not-by-popularity: by name).
    const favorites = ctx.fault('favorites-not-by-popularity')
      ? [...catalogOf(ctx).favorites].sort((a, b) => a.name.localeCompare(b.name))
      : catalogOf(ctx).favorites;
    const page = pageList(ctx, country ? favorites.filter(country) : favorites, query, { statedMaximum: true });
    return reply.type(JSON_TYPE).send(listBody(ctx, page.items, page.pagination, request.svcVersion));
  });

  app.get('/institutions/:institution_identifier', async (request) => {
    const id = identifierParam(request);
    const rec = findInstitution(ctx, id);
    if (!rec || (ctx.fault('institution-by-guid-404') && id === rec.guid))
      throw new SimError('not_found', `No institution with code or guid "${id.slice(0, 80)}"`);
    return { institution: renderInstitution(ctx, rec, request.svcVersion) };
  });

  app.get('/institutions/:institution_identifier/credentials', async (request) => {
    const id = identifierParam(request);
    const rec = findInstitution(ctx, id);
    const query = (request.query ?? {}) as Query;
    if (!rec) {
      // Errors: "404 invalid institution_identifier on the credentials list".
      // Fault credentials-unknown-institution-200-before-current: the stated 404 holds on the
      // newest version only; the earlier versions in play answer an empty list.
      const older = request.svcVersion !== ctx.settings.versions.at(-1)?.name;
      if (ctx.fault('credentials-unknown-institution-200') || (older && ctx.fault('credentials-unknown-institution-200-before-current')))
        return { credentials: [], pagination: pageList(ctx, [], query, { statedMaximum: true }).pagination };
      throw new SimError('not_found', `No institution with code or guid "${id.slice(0, 80)}"`);
    }
    // Endpoints: "credentials required to create a member" (fault credentials-list-incomplete: the password is left out).
    const credentials = institutionCredentials(rec.code).filter((c) => !(ctx.fault('credentials-list-incomplete') && c.field_name === 'password'));
    // Endpoints, Institutions: the credentials list takes "records_per_page (max 1000)". Fault
    // credentials-max-page-refused: a page size above 100 is refused.
    if (ctx.fault('credentials-max-page-refused') && Number(one(query, 'records_per_page')) > 100)
      throw new SimError('invalid_request', 'records_per_page must be between 10 and 100');
    const page = pageList(ctx, credentials, query, { statedMaximum: true });
    return { credentials: page.items, pagination: page.pagination };
  });
}
