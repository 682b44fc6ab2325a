/**
 * The built-in checks (../shared/DESIGN.md, "Checks and failures"). Each has one job;
 * its guard says when it applies. Severity follows the developers' guide: strict where
 * the specification states a thing, a warning where it does not show it or where the
 * Versioning section calls the change non-breaking.
 */
import type { Failure } from './failure.ts';
import { schemaFailures, locationOf } from './compile.ts';
import { exchangeCheck, registerCheck, responseHeader, type CheckContext, type ExchangeContext, type ExchangePlanFacts, type WebhookContext } from './registry.ts';

const isWebhook = (ctx: CheckContext): ctx is WebhookContext => ctx.kind === 'webhook';

function hasBody(ctx: ExchangeContext): boolean {
  const body = ctx.exchange.response.body;
  return body !== undefined && body !== null && body !== '';
}

/** Statuses and methods whose responses carry no body (RFC 9110: 204, 304, HEAD). */
const mayHaveBody = (plan: ExchangePlanFacts) => plan.status !== 204 && plan.method !== 'HEAD';

const is2xx = (status: number) => status >= 200 && status < 300;
const is4xx = (status: number) => status >= 400 && status < 500;

export const RULES = {
  status: 'Errors: the status codes documented for the operation',
  successStatus: 'Errors: the success status the table states for the operation (`default` stands for error codes beyond the table, not another success code)',
  rateLimited: 'Errors: "429 too many requests; used on the real-time interface when the rate limit is exceeded"',
  json: 'Endpoints: "Request and response bodies are JSON"; the media types documented for the response',
  headers: 'the response headers the document marks required',
  pageSize: 'Endpoints: "Lists are paged with page and records_per_page" (a page holds at most the records asked for)',
  pageMax: 'Limits: "records_per_page maximum 1000"',
  versionSunset: 'Versioning: "After those 12 months it sunsets: access is removed and requests return an error"',
  endpointSunset: 'Versioning, changes in v20250224: "Sunset endpoints" (requests must answer an error)',
  deprecatedHeader: 'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"',
  unknownVersion: 'Versioning: versions in play are those of spec/versions/',
  undocumented: 'not in the documents of spec/ (an unknown operation is reported, never failed)',
  epochSeconds: 'Events rule 1: "Date and time fields ending in _at are Unix epoch seconds (no milliseconds)"',
  isoDate: 'Events rule 1: "fields ending in _on are ISO 8601 dates (YYYY-MM-DD)"',
  webhookType: 'Events, Webhooks: the webhook types named by the specification',
} as const;

/** Shared result of a passing check: no allocation on the hot path. */
const NONE: Failure[] = Object.freeze([]) as unknown as Failure[];

function failure(operation: string, check: string, location: string, rule: string, severity: Failure['severity'], message: string): Failure {
  return { check, operation, location, rule, severity, message };
}

registerCheck(exchangeCheck({
  name: 'undocumented_operation',
  description: 'The request matches an operation of the document (warning only: unknown operations are reported, never failed)',
  appliesToPlan: (plan) => !plan.operation,
  run: (c) => {
    const where = c.version ? `${c.model.api} ${c.version}` : c.model.api;
    return [failure(c.operationKey, 'undocumented_operation', 'request', RULES.undocumented, 'warning',
      `No operation of the ${where} document matches ${c.exchange.request.method.toUpperCase()} ${c.path}`)];
  },
}));

registerCheck(exchangeCheck({
  name: 'status_code_conformance',
  description: 'The status is documented for the operation; `default` covers an unlisted 2xx only where the operation states no success status',
  // Sunset endpoints and sunset versions answer errors by design: version_conformance judges them.
  appliesToPlan: (plan) => !!plan.operation && !plan.operation.sunset && !plan.versionSunset,
  // The verdict reads only the operation and the status: decided once per plan.
  runOnPlan: (plan) => {
    const op = plan.operation!;
    const status = plan.status;
    if (plan.documented) return NONE;
    if (status === 429 && plan.model.api === 'platform') return NONE;
    if (is2xx(status) && op.successStatuses.length > 0) {
      return [failure(op.key, 'status_code_conformance', 'response.status', RULES.successStatus, 'error',
        `Received: ${status} / Documented: ${op.successStatuses.join(', ')}${plan.version ? ` (${plan.version})` : ''}`)];
    }
    return [failure(op.key, 'status_code_conformance', 'response.status', RULES.status, 'error',
      `Received: ${status} / Documented: ${op.documentedStatuses.join(', ') || '(none)'}`)];
  },
}));

registerCheck(exchangeCheck({
  name: 'content_type_conformance',
  description: 'The Content-Type is one of the media types documented for the response',
  appliesToPlan: (plan) => !!plan.documented && plan.documented.media.length > 0 && mayHaveBody(plan),
  appliesToCall: hasBody,
  // The verdict reads only the documented media and the received type: once per plan.
  runOnPlan: (plan) => {
    if (plan.mediaCompatible && plan.mediaExact) return NONE;
    const key = plan.operation!.key;
    const documented = plan.documented!.media.map((m) => m.type).join(', ');
    if (!plan.mediaType) {
      return [failure(key, 'content_type_conformance', 'response.headers.content-type', RULES.json, 'error',
        `Received: no Content-Type header / Documented: ${documented}`)];
    }
    // A JSON-family type (e.g. a vendor `+json` type) where JSON is documented: the body
    // is still JSON; the specification shows vendor media types in Accept (Authentication 2).
    const severity = plan.mediaCompatible ? 'warning' : 'error';
    return [failure(key, 'content_type_conformance', 'response.headers.content-type', RULES.json, severity,
      `Received: ${plan.mediaType} / Documented: ${documented}`)];
  },
}));

registerCheck(exchangeCheck({
  name: 'response_schema_conformance',
  description: 'The body validates against the documented schema (enum and opaque-string mismatches are warnings)',
  appliesToPlan: (plan) => !!(plan.selectedMedia ?? plan.jsonMedia)?.schemaUri,
  appliesToCall: (ctx) => ctx.exchange.response.body !== undefined && !!ctx.media?.schemaUri,
  run: (c) => {
    const media = c.media!;
    const validate = media.validator !== undefined ? media.validator : c.model.responseValidator(c.documented!, media);
    if (!validate || validate(c.exchange.response.body)) return NONE;
    return schemaFailures(validate.errors, 'response_schema_conformance', c.operationKey, 'response.body', c.model.displayName);
  },
}));

registerCheck(exchangeCheck({
  name: 'response_headers_conformance',
  description: 'Response headers the document marks required are present',
  appliesToPlan: (plan) => !!plan.documented && plan.documented.headers.some((h) => h.required),
  run: (c) => {
    const out: Failure[] = [];
    for (const h of c.documented!.headers) {
      if (h.required && responseHeader(c, h.lower) === undefined) {
        out.push(failure(c.operationKey, 'response_headers_conformance', `response.headers.${h.lower}`, RULES.headers, 'error',
          `Received: no ${h.name} header / Documented: ${h.name} required on ${c.documented!.status}`));
      }
    }
    return out;
  },
}));

/** Query string -> records_per_page asked (null: none), bounded: a paging walk repeats its queries. */
const recordsPerPageByQuery = new Map<string, number | null>();

function recordsPerPageAsked(query: string): number | undefined {
  if (!query || !query.includes('records_per_page')) return undefined;
  let hit = recordsPerPageByQuery.get(query);
  if (hit === undefined) {
    const raw = new URLSearchParams(query).get('records_per_page');
    hit = raw !== null && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
    if (recordsPerPageByQuery.size >= 1024) recordsPerPageByQuery.clear();
    recordsPerPageByQuery.set(query, hit);
  }
  return hit ?? undefined;
}

registerCheck(exchangeCheck({
  name: 'paging_conformance',
  description: 'A page holds no more records than records_per_page asked nor than the stated maximum (x-svc-list-key, x-svc-max-records-per-page)',
  appliesToPlan: (plan) => !!plan.operation?.listKey && is2xx(plan.status),
  appliesToCall: (ctx) => {
    const body = ctx.exchange.response.body as any;
    return body !== null && typeof body === 'object' && Array.isArray(body[ctx.operation!.listKey!]);
  },
  run: (c) => {
    const op = c.operation!;
    const count = ((c.exchange.response.body as any)[op.listKey!] as unknown[]).length;
    const out: Failure[] = [];
    const asked = recordsPerPageAsked(c.query);
    const location = locationOf('response.body', '/' + op.listKey!);
    if (asked !== undefined && count > asked) {
      out.push(failure(c.operationKey, 'paging_conformance', location, RULES.pageSize, 'error',
        `Received: ${count} records / Asked: records_per_page=${asked}`));
    }
    if (op.maxRecordsPerPage !== undefined && count > op.maxRecordsPerPage) {
      out.push(failure(c.operationKey, 'paging_conformance', location, RULES.pageMax, 'error',
        `Received: ${count} records / Documented maximum: ${op.maxRecordsPerPage} per page`));
    }
    return out;
  },
}));

registerCheck(exchangeCheck({
  name: 'version_conformance',
  description: 'Sunset versions and sunset operations answer 4xx; deprecated operations carry the deprecation header',
  appliesToPlan: (plan) =>
    plan.model.api === 'platform' &&
    (!plan.versionKnown || plan.versionSunset || !!plan.operation?.sunset || !!plan.operation?.deprecated),
  run: (c) => {
    const status = c.exchange.response.status;
    const out: Failure[] = [];
    if (c.versionSunset) {
      if (!is4xx(status)) {
        out.push(failure(c.operationKey, 'version_conformance', 'response.status', RULES.versionSunset, 'error',
          `Received: ${status} for sunset version ${c.requestedVersion} / Expected: an error (4xx)`));
      }
      return out; // nothing else about a sunset version is stated
    }
    if (!c.versionKnown) {
      out.push(failure(c.operationKey, 'version_conformance', 'request.headers.accept-version', RULES.unknownVersion, 'warning',
        `Received: Accept-Version ${c.requestedVersion} / Expected: a version with a document in spec/versions/ (checked against ${c.version ?? 'the source document'})`));
    }
    const op = c.operation;
    if (op?.sunset) {
      if (!is4xx(status)) {
        out.push(failure(c.operationKey, 'version_conformance', 'response.status', RULES.endpointSunset, 'error',
          `Received: ${status} from sunset operation ${op.key} in ${c.version} / Expected: an error (4xx)`));
      }
      const sunsetHeader = (c.options.sunsetHeader ?? 'Sunset').toLowerCase();
      if (responseHeader(c, sunsetHeader) === undefined) {
        // Warning: the header's name is not shown in the specification (a profile setting).
        out.push(failure(c.operationKey, 'version_conformance', `response.headers.${sunsetHeader}`, RULES.deprecatedHeader, 'warning',
          `Received: no ${c.options.sunsetHeader ?? 'Sunset'} header / Expected: one on sunset operation ${op.key}`));
      }
    } else if (op?.deprecated && status < 400) {
      const name = c.options.deprecationHeader ?? 'Deprecation';
      if (responseHeader(c, name) === undefined) {
        out.push(failure(c.operationKey, 'version_conformance', `response.headers.${name.toLowerCase()}`, RULES.deprecatedHeader, 'error',
          `Received: no ${name} header / Expected: ${name} on deprecated operation ${op.key} in ${c.version}`));
      }
    }
    return out;
  },
}));

// ---- webhooks ---------------------------------------------------------------------

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Epoch seconds reach 10^11 only in the year 5138; a larger `_at` is milliseconds. */
const MAX_EPOCH_SECONDS = 1e11;

function validDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Events rule 1 applies to every `_at`/`_on` field, also those the document does not list. */
function dateFieldFailures(ctx: WebhookContext, value: unknown, path: string, out: Failure[], seen: Set<string>, depth: number): void {
  if (depth > 32 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) dateFieldFailures(ctx, value[i], `${path}/${i}`, out, seen, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const location = locationOf('payload', childPath);
    if (v !== null && key.endsWith('_at') && !seen.has(location)) {
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        out.push(failure(ctx.operationKey, 'webhook_payload_conformance', location, RULES.epochSeconds, 'error',
          `Received: ${JSON.stringify(v)} / Expected: integer Unix epoch seconds`));
      } else if (v > MAX_EPOCH_SECONDS) {
        out.push(failure(ctx.operationKey, 'webhook_payload_conformance', location, RULES.epochSeconds, 'error',
          `Received: ${v} (milliseconds?) / Expected: Unix epoch seconds`));
      }
    } else if (v !== null && key.endsWith('_on') && !seen.has(location)) {
      if (typeof v !== 'string' || !validDate(v)) {
        out.push(failure(ctx.operationKey, 'webhook_payload_conformance', location, RULES.isoDate, 'error',
          `Received: ${JSON.stringify(v)} / Expected: a date YYYY-MM-DD`));
      }
    }
    dateFieldFailures(ctx, v, childPath, out, seen, depth + 1);
  }
}

registerCheck({
  name: 'webhook_payload_conformance',
  kind: 'webhook',
  description: 'A webhook payload validates against its type\'s schema; `_at` are epoch seconds and `_on` dates (Events rule 1)',
  appliesTo: isWebhook,
  run: (ctx) => {
    const c = ctx as WebhookContext;
    const out: Failure[] = [];
    if (c.payload === null || typeof c.payload !== 'object' || Array.isArray(c.payload)) {
      return [failure(c.operationKey, 'webhook_payload_conformance', 'payload', 'Events: "a JSON body"', 'error',
        `Received: ${Array.isArray(c.payload) ? 'an array' : c.payload === null ? 'null' : typeof c.payload} / Expected: a JSON object`)];
    }
    if (!c.webhook) {
      out.push(failure(c.operationKey, 'webhook_payload_conformance', 'payload', RULES.webhookType, 'warning',
        `Received: webhook type "${c.type}" / Expected: a type of the document's webhooks section (${[...c.model.webhooks.keys()].join(', ')})`));
    } else {
      const validate = c.model.webhookValidator(c.webhook);
      if (validate && !validate(c.payload)) {
        for (const f of schemaFailures(validate.errors, 'webhook_payload_conformance', c.operationKey, 'payload', c.model.displayName)) out.push(f);
      }
    }
    const seen = new Set(out.map((f) => f.location));
    dateFieldFailures(c, c.payload, '', out, seen, 0);
    return out;
  },
});
