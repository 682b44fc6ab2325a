/**
 * The built-in checks (../shared/DESIGN.md, "Checks and failures"). Each has one job;
 * its guard says when it applies. Severity follows the developers' guide: strict where
 * the specification states a thing, a warning where it does not show it or where the
 * Versioning section calls the change non-breaking.
 */
import { locationOf, severityOfTier, type Failure, type Tier } from './failure.ts';
import { schemaFailures } from './compile.ts';
import {
  type CheckRule,
  exchangeCheck,
  registerCheck,
  responseHeader,
  runRules,
  type CheckContext,
  type ExchangeContext,
  type WebhookContext,
} from './registry.ts';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

const isWebhook = (ctx: CheckContext): ctx is WebhookContext => ctx.kind === 'webhook';

function hasBody(ctx: ExchangeContext): boolean {
  const body = ctx.exchange.response.body;
  return body !== undefined && body !== null && body !== '';
}

/** Statuses and methods whose responses carry no body (RFC 9110: 204, 304, HEAD). */
const mayHaveBody = (c: ExchangeContext) => c.status !== 204 && c.method !== 'HEAD';

const is2xx = (status: number) => status >= 200 && status < 300;
const is4xx = (status: number) => status >= 400 && status < 500;

const RULES = {
  status: 'Errors: the status codes documented for the operation',
  successStatus:
    'Errors: the success status the table states for the operation ("200 normal success for reads, lists and ACH return creation"; "201 data exchange token created; member created on version v20250224"); `default` stands for error codes beyond the table, not another success code',
  unstatedSuccess: 'Errors: the table states no success status for this operation (an undocumented 2xx is reported, never gating)',
  rateLimited: 'Errors: "429 too many requests; used on the real-time interface when the rate limit is exceeded"',
  json: 'Endpoints: "Request and response bodies are JSON"; the media types documented for the response',
  vendorJson:
    'Authentication 2: "Earlier examples use a vendor media type of the form application/vnd.svc.api.v1+json or v2+json"; a JSON-family type the document does not list is reported, never gating',
  headers: 'the response headers the document marks required',
  pageSize: 'Endpoints: "Lists are paged with page and records_per_page" (a page holds at most the records asked for)',
  pageSizeInferred:
    'Endpoints: "Lists are paged with page and records_per_page"; below 10 records the vendor reference falls back to 25 (../shared/real-service-notes.md, Paging), so at most the records asked for is inferred there',
  pageMax:
    'Limits, the table\'s row "records_per_page maximum": 1000 (list institutions, list favourite institutions, credentials of an institution, all data exchange list endpoints)',
  versionSunset: 'Versioning: "After those 12 months it sunsets: access is removed and requests return an error"',
  versionSunset4xx: 'Versioning: sunset versions "return an error"; that the error is a 4xx (the request, not the service, is at fault) is inferred',
  endpointSunset: 'Versioning, changes in v20250224: "Sunset endpoints" (after sunset "requests return an error")',
  endpointSunset4xx: 'Versioning, changes in v20250224: "Sunset endpoints"; that the error is a 4xx is inferred',
  deprecatedHeader: 'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"',
  deprecatedHeaderGuessed:
    'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"; "Names of the deprecation and sunset response headers: not shown", so a missing header under a name the profile guessed is inferred (set SVC_DEPRECATION_HEADER / SVC_SUNSET_HEADER to enforce it)',
  sunsetHeaderAfterSunset:
    'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"; after sunset "access is removed" and whether the error answer carries the header is not stated',
  unknownVersion: 'Versioning: versions in play are those of spec/versions/',
  undocumented: 'not in the documents of spec/ (an unknown operation is reported, never failed)',
  epochSeconds: 'Events rule 1: "Date and time fields ending in _at are Unix epoch seconds (no milliseconds)"',
  isoDate: 'Events rule 1: "fields ending in _on are ISO 8601 dates (YYYY-MM-DD)"',
  webhookType: 'Events, Webhooks: the webhook types named by the specification',
} as const;

/**
 * Below this records_per_page the vendor's reference answers its default of 25 (valid
 * ranges 10-100 or 10-1000, a value outside falls back to 25; ../shared/real-service-notes.md,
 * Paging). Only there can a conforming service return more records than asked, so only
 * there is at most the records asked for inferred instead of stated.
 */
const PAGE_SIZE_STATED_FROM = 10;

function failure(operation: string, check: string, location: string, rule: string, severity: Failure['severity'], message: string, tier?: Tier): Failure {
  return { check, operation, location, rule, severity, tier: tier ?? (severity === 'error' ? 'stated' : 'informational'), message };
}

/** A failure of the given tier, its severity from the profile (strict: inferred gates). */
function tiered(operation: string, check: string, location: string, rule: string, tier: Tier, strict: boolean | undefined, message: string): Failure {
  return { check, operation, location, rule, severity: severityOfTier(tier, strict), tier, message };
}

registerCheck(
  exchangeCheck({
    name: 'undocumented_operation',
    description: 'The request matches an operation of the document (warning only: unknown operations are reported, never failed)',
    appliesTo: (c) => !c.operation,
    run: (c) => {
      const where = c.version ? `${c.model.api} ${c.version}` : c.model.api;
      return [
        failure(
          c.operationKey,
          'undocumented_operation',
          'request',
          RULES.undocumented,
          'warning',
          `No operation of the ${where} document matches ${c.exchange.request.method.toUpperCase()} ${c.path}`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'status_code_conformance',
    description:
      'The status is documented for the operation; an unlisted 2xx fails only where the Errors table states the success status (else informational); 429 is accepted on every platform operation',
    // Sunset endpoints and sunset versions answer errors by design: version_conformance judges them.
    appliesTo: (c) => !!c.operation && !c.operation.sunset && !c.versionSunset,
    run: (c) => {
      const op = c.operation!;
      const status = c.status;
      const listed = op.responses.get(String(status)) ?? op.responses.get(`${Math.floor(status / 100)}XX`);
      if (listed) return [];
      // Errors: "429 too many requests" - any platform operation may answer it.
      if (status === 429 && c.model.api === 'platform') return [];
      if (is2xx(status) && op.successStatuses.length > 0) {
        const where = c.version ? ` (${c.version})` : '';
        if (op.statedSuccessStatuses.length > 0) {
          return [
            failure(
              op.key,
              'status_code_conformance',
              'response.status',
              RULES.successStatus,
              'error',
              `Received: ${status} / Documented: ${op.successStatuses.join(', ')}${where}; stated: ${op.statedSuccessStatuses.join(', ')}`,
            ),
          ];
        }
        return [
          failure(
            op.key,
            'status_code_conformance',
            'response.status',
            RULES.unstatedSuccess,
            'warning',
            `Received: ${status} / Documented: ${op.successStatuses.join(', ')}${where}; the specification states no success status here`,
            'informational',
          ),
        ];
      }
      if (c.documented) return []; // `default`: statuses beyond the Errors table are open
      // A redirect names where it sends (a login page, another host in front of the API).
      const location = status >= 300 && status < 400 ? responseHeader(c, 'location') : undefined;
      return [
        failure(
          op.key,
          'status_code_conformance',
          'response.status',
          RULES.status,
          'error',
          `Received: ${status}${location !== undefined ? ` (Location: ${location.slice(0, 300)})` : ''} / Documented: ${op.documentedStatuses.join(', ') || '(none)'}`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'content_type_conformance',
    description:
      'The Content-Type is one of the media types documented for the response (a vendor JSON type passes; a missing one over a JSON body is inferred)',
    // A received type that selects a documented one exactly never reaches the check.
    appliesTo: (c) => !!c.documented && c.documented.media.length > 0 && mayHaveBody(c) && !(c.mediaCompatible && c.mediaExact) && hasBody(c),
    run: (c) => {
      const key = c.operationKey;
      const documented = c.documented!.media.map((m) => m.type).join(', ');
      if (!c.mediaType) {
        // Endpoints: "Request and response bodies are JSON" - a body that is not JSON breaks it
        // (stated). A JSON body without the header breaks no sentence of the specification
        // (HTTP says a sender SHOULD name the type, RFC 9110 §8.3): inferred.
        const jsonBody = c.exchange.response.body !== null && typeof c.exchange.response.body === 'object';
        return [
          tiered(
            key,
            'content_type_conformance',
            'response.headers.content-type',
            RULES.json,
            jsonBody ? 'inferred' : 'stated',
            c.options.strict,
            `Received: no Content-Type header${jsonBody ? ' (the body is JSON)' : ''} / Documented: ${documented}`,
          ),
        ];
      }
      // A JSON-family type (e.g. a vendor `+json` type) where JSON is documented: the body
      // is still JSON; the specification shows vendor media types in Accept (Authentication 2),
      // and v20111101 responses carry application/vnd.svc.api.v1+json (real-service-notes,
      // Media types). Those named by the document (info.x-svc-legacy-accept) pass; any other
      // JSON-family type is informational.
      if (c.mediaCompatible) {
        if (c.model.legacyJsonTypes.has(c.mediaType)) return [];
        return [
          failure(
            key,
            'content_type_conformance',
            'response.headers.content-type',
            RULES.vendorJson,
            'warning',
            `Received: ${c.mediaType} / Documented: ${documented}`,
            'informational',
          ),
        ];
      }
      return [
        failure(key, 'content_type_conformance', 'response.headers.content-type', RULES.json, 'error', `Received: ${c.mediaType} / Documented: ${documented}`),
      ];
    },
  }),
);

/**
 * Records of a list validated at once: the stated maximum page (Limits, the table's row
 * "records_per_page maximum": 1000). ajv, collecting every error (allErrors), appends each record's errors to
 * the list so far with `concat`, so one validation of N broken records costs N^2: a 20 MB
 * page of 90 000 broken records held a worker at full CPU for minutes. A longer list is
 * validated a slice at a time, the same envelope around each slice, and the errors'
 * record indices shifted back; the cost is then linear in the records.
 */
const LIST_SLICE = 1000;

/** ajv errors of `body`, validated a slice of its list at a time when the list is long (LIST_SLICE). */
export function validateBody(validate: ValidateFunction, body: unknown, listKey: string | undefined): ErrorObject[] {
  const list = listKey && body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[listKey] : undefined;
  if (!Array.isArray(list) || list.length <= LIST_SLICE) return validate(body) ? [] : [...(validate.errors ?? [])];
  const under = `/${listKey!.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const errors: ErrorObject[] = [];
  const listLevel = new Set<string>();
  for (let from = 0; from < list.length; from += LIST_SLICE) {
    if (validate({ ...(body as object), [listKey!]: list.slice(from, from + LIST_SLICE) })) continue;
    for (const e of validate.errors ?? []) {
      if (e.instancePath.startsWith(`${under}/`)) {
        // A record's error: its index within the slice, back to its index in the list.
        const rest = e.instancePath.slice(under.length + 1);
        const cut = rest.indexOf('/');
        const index = Number(cut === -1 ? rest : rest.slice(0, cut)) + from;
        errors.push({ ...e, instancePath: `${under}/${index}${cut === -1 ? '' : rest.slice(cut)}` });
      } else if (e.instancePath === under) {
        // The list's own keywords (the documents put none but `type` on a list): once each.
        const key = `${e.keyword}\u0000${e.schemaPath}`;
        if (!listLevel.has(key)) errors.push(e);
        listLevel.add(key);
      } else if (from === 0) {
        errors.push(e); // the envelope, the same in every slice
      }
    }
  }
  return errors;
}

registerCheck(
  exchangeCheck({
    name: 'response_schema_conformance',
    description: 'The body validates against the documented schema (enum and opaque-string mismatches are warnings)',
    appliesTo: (c) => c.exchange.response.body !== undefined && !!c.media?.schemaUri,
    run: (c) => {
      const validate = c.validator(c.media!);
      if (!validate) return [];
      const errors = validateBody(validate, c.exchange.response.body, c.operation?.listKey);
      return schemaFailures(errors, 'response_schema_conformance', c.operationKey, 'response.body', c.model.displayName, c.options.strict);
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'response_headers_conformance',
    description: 'Response headers the document marks required are present',
    appliesTo: (c) => !!c.documented && c.documented.headers.some((h) => h.required),
    run: (c) => {
      const out: Failure[] = [];
      for (const h of c.documented!.headers) {
        if (h.required && responseHeader(c, h.lower) === undefined) {
          out.push(
            failure(
              c.operationKey,
              'response_headers_conformance',
              `response.headers.${h.lower}`,
              RULES.headers,
              'error',
              `Received: no ${h.name} header / Documented: ${h.name} required on ${c.documented!.status}`,
            ),
          );
        }
      }
      return out;
    },
  }),
);

/** The records_per_page a query string asks for (a positive integer), if any. */
function recordsPerPageAsked(query: string): number | undefined {
  const raw = new URLSearchParams(query).get('records_per_page');
  return raw !== null && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
}

registerCheck(
  exchangeCheck({
    name: 'paging_conformance',
    description: 'A page holds no more records than records_per_page asked nor than the stated maximum (x-svc-list-key, x-svc-max-records-per-page)',
    appliesTo: (c) => {
      if (!c.operation?.listKey || !is2xx(c.status)) return false;
      const body = c.exchange.response.body as any;
      return body !== null && typeof body === 'object' && Array.isArray(body[c.operation.listKey]);
    },
    run: (c) => {
      const op = c.operation!;
      const count = ((c.exchange.response.body as any)[op.listKey!] as unknown[]).length;
      const out: Failure[] = [];
      const asked = recordsPerPageAsked(c.query);
      const location = locationOf('response.body', `/${op.listKey!}`);
      if (asked !== undefined && count > asked) {
        // Asked for fewer than PAGE_SIZE_STATED_FROM: a real service may answer its default page
        // (real-service-notes, Paging), so the rule is inferred there; stated from 10 up.
        const tier: Tier = asked < PAGE_SIZE_STATED_FROM ? 'inferred' : 'stated';
        out.push(
          tiered(
            c.operationKey,
            'paging_conformance',
            location,
            tier === 'stated' ? RULES.pageSize : RULES.pageSizeInferred,
            tier,
            c.options.strict,
            `Received: ${count} records / Asked: records_per_page=${asked}`,
          ),
        );
      }
      if (op.maxRecordsPerPage !== undefined && count > op.maxRecordsPerPage) {
        out.push(
          failure(
            c.operationKey,
            'paging_conformance',
            location,
            RULES.pageMax,
            'error',
            `Received: ${count} records / Documented maximum: ${op.maxRecordsPerPage} per page`,
          ),
        );
      }
      return out;
    },
  }),
);

/** An error answer to a sunset version or operation: stated a status >= 400, a 4xx inferred. */
function sunsetAnsweredError(c: ExchangeContext, what: string, rules: { error: string; clientError: string }): Failure[] {
  const status = c.exchange.response.status;
  if (status < 400)
    return [
      failure(
        c.operationKey,
        'version_conformance',
        'response.status',
        rules.error,
        'error',
        `Received: ${status} ${what} / Expected: an error (a status >= 400)`,
      ),
    ];
  if (!is4xx(status))
    return [
      tiered(
        c.operationKey,
        'version_conformance',
        'response.status',
        rules.clientError,
        'inferred',
        c.options.strict,
        `Received: ${status} ${what} / Expected: a 4xx`,
      ),
    ];
  return [];
}

/**
 * The rules of version_conformance, each with its guard. A sunset version is judged by its
 * error alone (nothing else about a sunset version is stated); otherwise an unknown version
 * is reported, a sunset operation answers an error (and its header is looked for), and a
 * deprecated operation's success carries the deprecation header.
 */
const VERSION_RULES: readonly CheckRule<ExchangeContext>[] = [
  {
    // Versioning: "requests return an error" - stated: a status >= 400. A 4xx specifically: inferred.
    name: 'sunset_version_answers_error',
    appliesTo: (c) => c.versionSunset,
    run: (c) => sunsetAnsweredError(c, `for sunset version ${c.requestedVersion}`, { error: RULES.versionSunset, clientError: RULES.versionSunset4xx }),
  },
  {
    name: 'unknown_version_reported',
    appliesTo: (c) => !c.versionSunset && !c.versionKnown,
    run: (c) => [
      failure(
        c.operationKey,
        'version_conformance',
        'request.headers.accept-version',
        RULES.unknownVersion,
        'warning',
        `Received: Accept-Version ${c.requestedVersion} / Expected: a version with a document in spec/versions/ (checked against ${c.version ?? 'the source document'})`,
        'informational',
      ),
    ],
  },
  {
    name: 'sunset_operation_answers_error',
    appliesTo: (c) => !c.versionSunset && !!c.operation?.sunset,
    run: (c) =>
      sunsetAnsweredError(c, `from sunset operation ${c.operation!.key} in ${c.version}`, {
        error: RULES.endpointSunset,
        clientError: RULES.endpointSunset4xx,
      }),
  },
  {
    // After sunset "access is removed": whether the error answer still carries the header
    // is not stated (RFC 8594 has the Sunset header announce a coming sunset), so its
    // absence here is informational whatever the header's name.
    name: 'sunset_operation_header',
    appliesTo: (c) => !c.versionSunset && !!c.operation?.sunset,
    run: (c) => {
      const name = c.options.sunsetHeader ?? 'Sunset';
      if (responseHeader(c, name) !== undefined) return [];
      return [
        failure(
          c.operationKey,
          'version_conformance',
          `response.headers.${name.toLowerCase()}`,
          RULES.sunsetHeaderAfterSunset,
          'warning',
          `Received: no ${name} header / Expected: one on sunset operation ${c.operation!.key}`,
          'informational',
        ),
      ];
    },
  },
  {
    // Versioning: the headers "are present in all versions" but their names are not shown: a
    // name the user set (SVC_DEPRECATION_HEADER / SVC_SUNSET_HEADER) is enforced; the default
    // guess is inferred (../shared/real-service-notes.md, Headers: the reference declares none).
    name: 'deprecated_operation_header',
    appliesTo: (c) => !c.versionSunset && !c.operation?.sunset && !!c.operation?.deprecated && c.exchange.response.status < 400,
    run: (c) => {
      const name = c.options.deprecationHeader ?? 'Deprecation';
      if (responseHeader(c, name) !== undefined) return [];
      const explicit = c.options.headerNamesExplicit;
      return [
        tiered(
          c.operationKey,
          'version_conformance',
          `response.headers.${name.toLowerCase()}`,
          explicit ? RULES.deprecatedHeader : RULES.deprecatedHeaderGuessed,
          explicit ? 'stated' : 'inferred',
          c.options.strict,
          `Received: no ${name} header / Expected: ${name} on deprecated operation ${c.operation!.key} in ${c.version}`,
        ),
      ];
    },
  },
];

registerCheck(
  exchangeCheck({
    name: 'version_conformance',
    description:
      'Sunset versions and sunset operations answer an error (a 4xx: inferred); deprecated and sunset operations carry the signalling header (stated under a name the profile sets explicitly, else inferred)',
    appliesTo: (c) => c.model.api === 'platform' && (!c.versionKnown || c.versionSunset || !!c.operation?.sunset || !!c.operation?.deprecated),
    run: (c) => runRules(VERSION_RULES, c),
  }),
);

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
        out.push(
          failure(
            ctx.operationKey,
            'webhook_payload_conformance',
            location,
            RULES.epochSeconds,
            'error',
            `Received: ${JSON.stringify(v)} / Expected: integer Unix epoch seconds`,
          ),
        );
      } else if (v > MAX_EPOCH_SECONDS) {
        out.push(
          failure(
            ctx.operationKey,
            'webhook_payload_conformance',
            location,
            RULES.epochSeconds,
            'error',
            `Received: ${v} (milliseconds?) / Expected: Unix epoch seconds`,
          ),
        );
      }
    } else if (v !== null && key.endsWith('_on') && !seen.has(location)) {
      if (typeof v !== 'string' || !validDate(v)) {
        out.push(
          failure(
            ctx.operationKey,
            'webhook_payload_conformance',
            location,
            RULES.isoDate,
            'error',
            `Received: ${JSON.stringify(v)} / Expected: a date YYYY-MM-DD`,
          ),
        );
      }
    }
    dateFieldFailures(ctx, v, childPath, out, seen, depth + 1);
  }
}

registerCheck({
  name: 'webhook_payload_conformance',
  kind: 'webhook',
  description: "A webhook payload validates against its type's schema; `_at` are epoch seconds and `_on` dates (Events rule 1)",
  appliesTo: isWebhook,
  run: (ctx) => {
    const c = ctx as WebhookContext;
    const out: Failure[] = [];
    if (c.payload === null || typeof c.payload !== 'object' || Array.isArray(c.payload)) {
      return [
        failure(
          c.operationKey,
          'webhook_payload_conformance',
          'payload',
          // A JSON body whose fields the rules describe (rules 1, 2, 3, 9: fields that end in
          // _at, that can be null, a version): an array or a bare value has no fields.
          'Events, Webhooks: "HTTPS POST requests with a JSON body"; rules 1-3 and 9 describe its fields, so the body is an object',
          'error',
          `Received: ${Array.isArray(c.payload) ? 'an array' : c.payload === null ? 'null' : typeof c.payload} / Expected: a JSON object`,
        ),
      ];
    }
    if (!c.webhook) {
      out.push(
        failure(
          c.operationKey,
          'webhook_payload_conformance',
          'payload',
          RULES.webhookType,
          'warning',
          `Received: webhook type "${c.type}" / Expected: a type of the document's webhooks section (${[...c.model.webhooks.keys()].join(', ')})`,
        ),
      );
    } else {
      const validate = c.validator(c.webhook);
      if (validate && !validate(c.payload)) {
        for (const f of schemaFailures(validate.errors, 'webhook_payload_conformance', c.operationKey, 'payload', c.model.displayName, c.options.strict))
          out.push(f);
      }
    }
    const seen = new Set(out.map((f) => f.location));
    dateFieldFailures(c, c.payload, '', out, seen, 0);
    return out;
  },
});
