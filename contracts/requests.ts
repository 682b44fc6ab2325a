/**
 * Checks of an integration's own REQUESTS (../shared/DESIGN.md, "What it is for" 4: the
 * gate of a team's own integration). The suites judge what the service answers; these
 * judge what a client sends, with the same tiers and the same Failure shape:
 *
 *   stated         the request breaks a sentence of the specification (a sunset endpoint,
 *                  records_per_page above the stated 1000, no data_request on v20250224,
 *                  a return_code that is not R and two digits, no Basic credentials ...)
 *   inferred       reasonable but unstated (no Accept-Version at all, a deprecated
 *                  endpoint still used, a JSON body announced as another type)
 *   informational  the specification is silent and a real service is known to differ
 *                  (records_per_page outside the reference's 10-100, data_request placed
 *                  where the reference does not put it, a widget_type it does not name)
 *
 * They run only when `CheckOptions.requestChecks` is given: the recording proxy and the
 * HAR check of integration/ ask for them. The suites' own exchanges never do, since the
 * negative scenarios and the fuzz project break request rules on purpose.
 *
 * The same rows are the source of contracts/near-miss.ts (values that ALMOST meet each rule,
 * sent by the scenarios and the fuzz project): a rule is written once.
 *
 * Every rule is one row of a table quoting its sentence; where the specification and the
 * vendor's reference differ (../shared/real-service-notes.md, Request shapes: the reference
 * marks data_request optional and puts it beside `member`), the specification decides
 * what is stated and the reference only what is left open.
 */
import { severityOfTier, type Failure, type Tier } from './failure.ts';
import { exchangeCheck, registerCheck, type ExchangeContext } from './registry.ts';

/** What the recording kept, for the checks that need it. */
export interface RequestCheckOptions {
  /**
   * False when the recording dropped the credential headers (a HAR exported "sanitized"
   * by a browser carries no Authorization, Cookie or API key header): authentication is
   * then not judged. Default true (the recording proxy keeps every header).
   */
  credentialsRecorded?: boolean;
}

export const REQUEST_RULES = {
  versionHeader:
    'Versioning: "The version is chosen with the request header Accept-Version"; without it the service chooses one, and which is not shown (inferred: the integration should name the version it is written for)',
  versionName: 'Versioning: "version names are dates of the form v<YYYYMMDD>"',
  versionInPlay: 'Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"; another version may exist at the target (inferred)',
  versionSunset: 'Versioning: "After those 12 months it sunsets: access is removed and requests return an error"',
  basic: 'Authentication 1: "Platform endpoints use HTTP Basic authentication: client identifier as user name and API key as password (<CLIENT_ID>:<API_KEY>)"',
  threeDxToken:
    'Authentication 3: "Data exchange read endpoints for users, accounts and transactions also require the header SVC-3DX-TOKEN: <DATA_EXCHANGE_TOKEN>"',
  bearer: 'Authentication 5: the audience credentials "produce an access token used as Authorization: Bearer <ACCESS_TOKEN> on all audience endpoints"',
  testHostHeaders:
    'Endpoints, Earlier-generation test paths: "Requests carry headers SVC-API-Key: <API_KEY>, SVC-Client-ID: <CLIENT_ID> and Accept: application/vnd.svc.legacy.v1+json"',
  json: 'Endpoints: "Request and response bodies are JSON"',
  jsonContentType:
    'Endpoints: "Request and response bodies are JSON"; that a JSON body announced under another Content-Type may be refused is inferred (the request Content-Type is not stated)',
  memberEnvelope: 'Endpoints, Widgets and members: POST /users/{user_guid}/members, "request member object"',
  widgetEnvelope:
    'Endpoints, Widgets and members: POST /users/{user_guid}/widget_urls, "request widget_url object"; Resources, Widget URL: "Request object widget_url"',
  achEnvelope: 'Resources, ACH return (create request): "The request is wrapped in an ach_return object"',
  authorizationCodeEnvelope: 'Endpoints, Authorization code for processors: "Request: object authorization_code with scope"',
  dataRequest:
    'Resources, Member: "in v20250224 a required data_request object holding a products array"; Versioning, changes in v20250224: "create member and request widget URL take a required data_request with a products array"',
  dataRequestLater:
    'Versioning, changes in v20250224: "create member and request widget URL take a required data_request with a products array"; "Breaking changes introduced by v20260929: not shown", and "making a required parameter optional" is non-breaking, so a later version may accept the request without it (inferred)',
  widgetDataRequest:
    'Resources, Widget URL: "Request object widget_url with fields: ... and data_request"; Versioning, changes in v20250224: "create member and request widget URL take a required data_request with a products array"',
  dataRequestPlacement:
    "Resources, Member: data_request is a create-member request field; where it sits is not shown, and the vendor's reference sends it at the top level beside member (../shared/real-service-notes.md, Request shapes)",
  products: 'Resources, Member: data_request "holding a products array (values such as account_verification, identity_verification, transactions, history)"',
  productsOpen:
    'Resources, Member: products "values such as account_verification, identity_verification, transactions, history" (an open list: another value is reported, never failed)',
  sunsetEndpoint:
    'Versioning, changes in v20250224: "Sunset endpoints: /payment_processor_authorization_code, /users/{user_guid}/connect_widget_url"; after sunset "access is removed and requests return an error"',
  deprecatedEndpoint:
    'Versioning: "Deprecated endpoints: /managed_institutions, /users/{user_guid}/managed_members and its member, account, transaction sub-paths"; "/payment_processor_token is deprecated in favour of /token"; a deprecated version "remains usable for 12 months after its deprecation date", then sunsets (that the integration must move off a deprecated endpoint is inferred)',
  skipAggregation:
    'Resources, Member: "skip_aggregation (boolean; deprecated in version v20250224)"; Versioning: "aggregation is assumed unless data_request.products says otherwise" (that the integration must stop sending it is inferred)',
  pageMax:
    'Limits, the table\'s row "records_per_page maximum": 1000 (list institutions, list favourite institutions, credentials of an institution, all data exchange list endpoints); Endpoints: "records_per_page (max 1000)"; Data exchange: "records_per_page on these lists has a maximum of 1000"',
  pageValue: 'Endpoints: "Lists are paged with page and records_per_page"; their type is not stated (a positive whole number is inferred)',
  pageReference:
    'Limits: "Maximum records_per_page for list endpoints other than those in the table: not shown"; "Default page size and default page number: not shown". The vendor\'s reference answers 25 records for a records_per_page outside 10-100 (10-1000 on some lists) (../shared/real-service-notes.md, Paging): the integration may get another number of records than it asked for',
  achFormat: 'Resources, ACH return (create request): the field table',
  widgetFields: 'Resources, Widget URL: the request fields and their types',
  referralSource: 'Resources, Widget URL: "oauth_referral_source (string, BROWSER or APP)"',
  widgetTypeOpen:
    'Resources, Widget URL: "widget_type (string, for example connect_widget; other types named are ...)" (the named list may not be complete: another value is reported, never failed)',
  memberFields:
    'Resources, Member: "is_oauth | boolean | set true in the create request"; "skip_aggregation (boolean ...)"; "Clients are advised to set their own id (string)"',
  memberFieldsInferred:
    'Resources, Member: institution_code is a string in the member\'s field table; "Types of fields beyond those stated ... not shown" for the create request (inferred)',
  scope:
    'Endpoints, Authorization code for processors: scope is a "string: space-separated entries user-guid:<USR-guid>, member-guid:<MBR-guid>, account-guid:<ACT-guid>, and the word read-protected"',
} as const;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const prefixed = (prefix: string) => new RegExp(`^${prefix}-${UUID}$`);
/** Resources, ACH return: "ISO 8601 timestamp with offset" (Z is the zero offset). */
const TIMESTAMP_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
export const VERSION_NAME = /^v\d{8}$/;
const JSON_FAMILY = /^application\/(?:[\w.+-]+\+)?json$/i;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const describe = (v: unknown) =>
  typeof v === 'string'
    ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v)
    : v === undefined
      ? 'nothing'
      : Array.isArray(v)
        ? 'an array'
        : v === null
          ? 'null'
          : typeof v === 'object'
            ? 'an object'
            : `${typeof v} ${String(v)}`;

function requestHeader(c: ExchangeContext, lowerName: string): string | undefined {
  const h = c.exchange.request.headers ?? {};
  for (const k in h) if (k.toLowerCase() === lowerName) return Array.isArray(h[k]) ? (h[k] as unknown as string[]).join(', ') : h[k];
  return undefined;
}

function fail(c: ExchangeContext, check: string, location: string, rule: string, tier: Tier, message: string): Failure {
  return { check, operation: c.operationKey, location, rule, severity: severityOfTier(tier, c.options.strict), tier, message };
}

/** The request body as JSON: the parsed value, or undefined when there is none, or `invalid`. */
function requestJson(c: ExchangeContext): { value?: unknown; invalid?: string } {
  const body = c.exchange.request.body;
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'string') return { value: body };
  if (body.trim() === '') return {};
  try {
    return { value: JSON.parse(body) };
  } catch (e) {
    return { invalid: (e as Error).message };
  }
}

const judged = (c: ExchangeContext) => c.options.requestChecks !== undefined;
const credentialsRecorded = (c: ExchangeContext) => c.options.requestChecks?.credentialsRecorded !== false;
/** `POST /users/{}/members`: an operation key with its parameter names left out, so a version renaming one still matches. */
export const shapeOf = (key: string) => key.replace(/\{[^}]+\}/g, '{}');
const isOperation = (c: ExchangeContext, ...keys: string[]) => c.operation !== undefined && keys.includes(shapeOf(c.operation.key));

export const CREATE_MEMBER = 'POST /users/{}/members';
export const WIDGET_URL = 'POST /users/{}/widget_urls';
const ACH_CREATE = 'POST /ach_returns';
export const AUTHORIZATION_CODE = 'POST /authorization_code';

// ---- headers ---------------------------------------------------------------------------

registerCheck(
  exchangeCheck({
    name: 'request_version_header',
    description: 'A platform request names its version in Accept-Version (inferred), as v<YYYYMMDD> (stated), one in play (inferred) and not sunset (stated)',
    appliesTo: (c) => judged(c) && c.model.api === 'platform',
    run: (c) => {
      const value = requestHeader(c, 'accept-version');
      const at = 'request.headers.accept-version';
      if (value === undefined || value.trim() === '') {
        return [
          fail(
            c,
            'request_version_header',
            at,
            REQUEST_RULES.versionHeader,
            'inferred',
            'Received: no Accept-Version header / Expected: Accept-Version: v<YYYYMMDD>, the version the integration is written for',
          ),
        ];
      }
      if (!VERSION_NAME.test(value.trim())) {
        return [
          fail(
            c,
            'request_version_header',
            at,
            REQUEST_RULES.versionName,
            'stated',
            `Received: Accept-Version ${describe(value)} / Expected: v<YYYYMMDD>, e.g. v20250224`,
          ),
        ];
      }
      if (c.versionSunset) {
        return [
          fail(
            c,
            'request_version_header',
            at,
            REQUEST_RULES.versionSunset,
            'stated',
            `Received: Accept-Version ${value}, a version the target has sunset / Expected: a supported version`,
          ),
        ];
      }
      if (!c.versionKnown) {
        return [
          fail(
            c,
            'request_version_header',
            at,
            REQUEST_RULES.versionInPlay,
            'inferred',
            `Received: Accept-Version ${value} / Expected: a version in play (${c.model.version ? 'the documents know ' : ''}v20111101, v20250224, v20260929)`,
          ),
        ];
      }
      return [];
    },
  }),
);

/** Header names of the apiKey schemes an operation requires (the data exchange token). */
function requiredApiKeyHeaders(c: ExchangeContext): string[] {
  const security = (c.operation?.operation.security ?? (c.model.doc as { security?: unknown }).security) as Array<Record<string, unknown>> | undefined;
  const schemes =
    (c.model.doc.components as { securitySchemes?: Record<string, { type?: string; in?: string; name?: string }> } | undefined)?.securitySchemes ?? {};
  if (!Array.isArray(security) || security.length === 0) return [];
  // Every alternative must name the header for it to be required.
  const perAlternative = security.map((alt) =>
    Object.keys(alt)
      .map((n) => schemes[n])
      .filter((s) => s?.type === 'apiKey' && s.in === 'header' && s.name)
      .map((s) => s!.name!),
  );
  return perAlternative.reduce((a, b) => a.filter((x) => b.includes(x)));
}

registerCheck(
  exchangeCheck({
    name: 'request_authentication',
    description:
      'Platform requests carry Basic credentials (Authentication 1) and, on data exchange reads, SVC-3DX-TOKEN (3); audience requests a Bearer token (5); test-host requests SVC-API-Key. Not judged when the recording dropped credential headers',
    appliesTo: (c) => judged(c) && credentialsRecorded(c) && c.operation !== undefined,
    run: (c) => {
      const out: Failure[] = [];
      const auth = requestHeader(c, 'authorization');
      const at = 'request.headers.authorization';
      if (c.model.api === 'platform') {
        const m = auth ? /^Basic\s+(\S+)$/i.exec(auth.trim()) : null;
        if (!auth)
          out.push(
            fail(
              c,
              'request_authentication',
              at,
              REQUEST_RULES.basic,
              'stated',
              'Received: no Authorization header / Expected: Authorization: Basic base64(<CLIENT_ID>:<API_KEY>)',
            ),
          );
        else if (!m)
          out.push(
            fail(
              c,
              'request_authentication',
              at,
              REQUEST_RULES.basic,
              'stated',
              `Received: Authorization ${/^\S+/.exec(auth)?.[0] ?? ''} … / Expected: the Basic scheme`,
            ),
          );
        else if (!m[1].includes('[REDACTED]') && !Buffer.from(m[1], 'base64').toString('utf8').includes(':')) {
          out.push(
            fail(
              c,
              'request_authentication',
              at,
              REQUEST_RULES.basic,
              'stated',
              'Received: Basic credentials without a colon between client identifier and API key / Expected: base64(<CLIENT_ID>:<API_KEY>)',
            ),
          );
        }
        for (const name of requiredApiKeyHeaders(c)) {
          if (!requestHeader(c, name.toLowerCase()))
            out.push(
              fail(
                c,
                'request_authentication',
                `request.headers.${name.toLowerCase()}`,
                REQUEST_RULES.threeDxToken,
                'stated',
                `Received: no ${name} header / Expected: ${name}: <DATA_EXCHANGE_TOKEN> from the grant's token endpoint`,
              ),
            );
        }
      } else if (c.model.api === 'audience') {
        if (!auth || !/^Bearer\s+\S+/i.test(auth.trim()))
          out.push(
            fail(
              c,
              'request_authentication',
              at,
              REQUEST_RULES.bearer,
              'stated',
              `Received: ${auth ? `Authorization ${/^\S+/.exec(auth)?.[0]} …` : 'no Authorization header'} / Expected: Authorization: Bearer <ACCESS_TOKEN>`,
            ),
          );
      } else if (!requestHeader(c, 'svc-api-key')) {
        out.push(
          fail(
            c,
            'request_authentication',
            'request.headers.svc-api-key',
            REQUEST_RULES.testHostHeaders,
            'stated',
            'Received: no SVC-API-Key header / Expected: SVC-API-Key: <API_KEY>',
          ),
        );
      }
      return out;
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'request_required_headers',
    description: 'Test-host requests carry SVC-Client-ID and Accept: application/vnd.svc.legacy.v1+json (Endpoints, Earlier-generation test paths)',
    appliesTo: (c) => judged(c) && c.model.api === 'test-host' && c.operation !== undefined,
    run: (c) => {
      const out: Failure[] = [];
      if (!requestHeader(c, 'svc-client-id'))
        out.push(
          fail(
            c,
            'request_required_headers',
            'request.headers.svc-client-id',
            REQUEST_RULES.testHostHeaders,
            'stated',
            'Received: no SVC-Client-ID header / Expected: SVC-Client-ID: <CLIENT_ID>',
          ),
        );
      const accept = requestHeader(c, 'accept');
      if (!accept?.toLowerCase().includes('application/vnd.svc.legacy.v1+json')) {
        out.push(
          fail(
            c,
            'request_required_headers',
            'request.headers.accept',
            REQUEST_RULES.testHostHeaders,
            'stated',
            `Received: ${accept ? `Accept ${describe(accept)}` : 'no Accept header'} / Expected: Accept: application/vnd.svc.legacy.v1+json`,
          ),
        );
      }
      return out;
    },
  }),
);

// ---- body ------------------------------------------------------------------------------

registerCheck(
  exchangeCheck({
    name: 'request_body_json',
    description: 'A request body is JSON (stated) and announced as JSON in Content-Type (inferred)',
    appliesTo: (c) => {
      if (!judged(c) || c.operation === undefined) return false;
      const body = requestJson(c);
      return body.value !== undefined || body.invalid !== undefined;
    },
    run: (c) => {
      const { invalid } = requestJson(c);
      if (invalid !== undefined)
        return [
          fail(c, 'request_body_json', 'request.body', REQUEST_RULES.json, 'stated', `Received: a body that is not JSON (${invalid}) / Expected: a JSON body`),
        ];
      const type = requestHeader(c, 'content-type')?.split(';')[0].trim();
      if (!type || !JSON_FAMILY.test(type)) {
        return [
          fail(
            c,
            'request_body_json',
            'request.headers.content-type',
            REQUEST_RULES.jsonContentType,
            'inferred',
            `Received: ${type ? `Content-Type ${type}` : 'no Content-Type'} over a JSON body / Expected: Content-Type: application/json`,
          ),
        ];
      }
      return [];
    },
  }),
);

/** The stated envelope of each request body. */
export const ENVELOPES: Array<{ operation: string; key: string; rule: string }> = [
  { operation: CREATE_MEMBER, key: 'member', rule: REQUEST_RULES.memberEnvelope },
  { operation: WIDGET_URL, key: 'widget_url', rule: REQUEST_RULES.widgetEnvelope },
  { operation: ACH_CREATE, key: 'ach_return', rule: REQUEST_RULES.achEnvelope },
  { operation: AUTHORIZATION_CODE, key: 'authorization_code', rule: REQUEST_RULES.authorizationCodeEnvelope },
];

const envelopeOf = (c: ExchangeContext) => ENVELOPES.find((e) => isOperation(c, e.operation));

registerCheck(
  exchangeCheck({
    name: 'request_body_envelope',
    description: 'Request bodies are wrapped as stated: member, widget_url, ach_return, authorization_code (with scope)',
    appliesTo: (c) => judged(c) && c.model.api === 'platform' && envelopeOf(c) !== undefined && requestJson(c).invalid === undefined,
    run: (c) => {
      const e = envelopeOf(c)!;
      const body = requestJson(c).value;
      if (!isObject(body) || !isObject(body[e.key])) {
        const got = !isObject(body)
          ? body === undefined
            ? 'no body'
            : describe(body)
          : body[e.key] === undefined
            ? `an object with ${
                Object.keys(body)
                  .map((k) => JSON.stringify(k))
                  .join(', ') || 'no field'
              }`
            : `${e.key}: ${describe(body[e.key])}`;
        return [fail(c, 'request_body_envelope', `request.body.${e.key}`, e.rule, 'stated', `Received: ${got} / Expected: {"${e.key}": {...}}`)];
      }
      if (e.key === 'authorization_code' && typeof (body[e.key] as Record<string, unknown>).scope !== 'string') {
        return [
          fail(
            c,
            'request_body_envelope',
            'request.body.authorization_code.scope',
            e.rule,
            'stated',
            `Received: scope ${describe((body[e.key] as Record<string, unknown>).scope)} / Expected: a scope string`,
          ),
        ];
      }
      return [];
    },
  }),
);

/** `v20250224` <= version (names are dates: string order is time order). */
const atLeast = (version: string | undefined, from: string) => version !== undefined && VERSION_NAME.test(version) && version >= from;
/** The version whose change list states the data_request requirement (Versioning). */
export const DATA_REQUEST_FROM = 'v20250224';

registerCheck(
  exchangeCheck({
    name: 'request_required_fields',
    description:
      'From v20250224, create member and widget URL requests carry data_request with a products array (stated for v20250224; inferred for later versions, whose changes are not shown)',
    appliesTo: (c) =>
      judged(c) && isOperation(c, CREATE_MEMBER, WIDGET_URL) && atLeast(c.requestedVersion, DATA_REQUEST_FROM) && isObject(requestJson(c).value),
    run: (c) => {
      const body = requestJson(c).value as Record<string, unknown>;
      const envelope = isOperation(c, CREATE_MEMBER) ? 'member' : 'widget_url';
      const inner = isObject(body[envelope]) ? (body[envelope] as Record<string, unknown>) : {};
      const tier: Tier = c.requestedVersion === DATA_REQUEST_FROM ? 'stated' : 'inferred';
      const rule = tier === 'stated' ? REQUEST_RULES.dataRequest : REQUEST_RULES.dataRequestLater;
      // A create member's data_request: its place is not shown, so beside member (the
      // reference's place) or inside it both satisfy the statement. A widget URL's is one of
      // the widget_url object's fields (Resources, Widget URL), where the vendor's reference
      // has it too: one beside widget_url is not the widget URL's.
      const widget = envelope === 'widget_url';
      const top = widget ? undefined : body.data_request;
      const nested = inner.data_request;
      const dataRequest = top ?? nested;
      const where = top !== undefined ? 'request.body.data_request' : `request.body.${envelope}.data_request`;
      if (widget && nested === undefined && body.data_request !== undefined)
        return [
          fail(
            c,
            'request_required_fields',
            'request.body.data_request',
            tier === 'stated' ? REQUEST_RULES.widgetDataRequest : REQUEST_RULES.dataRequestLater,
            tier,
            `Received: data_request beside widget_url, none inside it, on ${c.requestedVersion} / Expected: "widget_url": {..., "data_request": {"products": [...]}}`,
          ),
        ];
      if (dataRequest === undefined) {
        return [
          fail(
            c,
            'request_required_fields',
            'request.body.data_request',
            rule,
            tier,
            `Received: no data_request (neither beside nor inside ${envelope}) on ${c.requestedVersion} / Expected: "data_request": {"products": [...]}`,
          ),
        ];
      }
      const out: Failure[] = [];
      if (!isObject(dataRequest) || !Array.isArray(dataRequest.products)) {
        out.push(
          fail(
            c,
            'request_required_fields',
            `${where}.products`,
            REQUEST_RULES.products,
            tier,
            `Received: data_request ${isObject(dataRequest) ? `with products ${describe(dataRequest.products)}` : describe(dataRequest)} / Expected: an object holding a products array`,
          ),
        );
      } else {
        const named = ['account_verification', 'identity_verification', 'transactions', 'history'];
        const other = dataRequest.products.filter((p) => typeof p !== 'string' || !named.includes(p));
        if (other.length)
          out.push(
            fail(
              c,
              'request_required_fields',
              `${where}.products`,
              REQUEST_RULES.productsOpen,
              'informational',
              `Received: products ${other.map(describe).join(', ')} / The specification names ${named.join(', ')} ("values such as")`,
            ),
          );
      }
      if (top === undefined && envelope === 'member') {
        out.push(
          fail(
            c,
            'request_required_fields',
            where,
            REQUEST_RULES.dataRequestPlacement,
            'informational',
            "Received: data_request inside member / The vendor's reference sends it at the top level, beside member (its place is not stated)",
          ),
        );
      }
      return out;
    },
  }),
);

// ---- field formats ---------------------------------------------------------------------

/**
 * The shape a field's statement gives it, from which contracts/near-miss.ts derives values
 * that ALMOST meet it (one character too many, the wrong case, no offset, a number as a
 * string ...). `example` is a valid value for a field the base request leaves out; a field
 * that names a resource (`guid`) or the client's own id has none: only the request's own
 * value is varied.
 */
export type FieldForm =
  | { kind: 'guid'; prefix: 'ACT' | 'MBR' | 'USR' }
  | { kind: 'digits'; length: number; example: string }
  | { kind: 'timestamp'; example: string }
  | { kind: 'code'; letter: string; digits: number; example: string }
  | { kind: 'letters'; length: number; example: string }
  | { kind: 'number'; example: number }
  | { kind: 'integer'; example: number }
  | { kind: 'boolean'; example: boolean }
  | { kind: 'enum'; values: readonly string[]; example: string }
  | { kind: 'string'; example?: string }
  | { kind: 'object'; example: Record<string, unknown> };

export interface FieldRule {
  field: string;
  tier: Tier;
  rule: string;
  expected: string;
  ok(v: unknown): boolean;
  /** Where near misses come from (contracts/near-miss.ts); informational rules have none. */
  form?: FieldForm;
}

const isString = (v: unknown) => typeof v === 'string';
const ACH_FIELDS: FieldRule[] = [
  {
    field: 'account_guid',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string ACT-<uuid>',
    ok: (v) => isString(v) && prefixed('ACT').test(v as string),
    form: { kind: 'guid', prefix: 'ACT' },
  },
  {
    field: 'account_number_last_four',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string of 4 digits',
    ok: (v) => isString(v) && /^\d{4}$/.test(v as string),
    form: { kind: 'digits', length: 4, example: '1234' },
  },
  {
    field: 'ach_initiated_at',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string, ISO 8601 timestamp with offset',
    ok: (v) => isString(v) && TIMESTAMP_WITH_OFFSET.test(v as string) && !Number.isNaN(Date.parse(v as string)),
    form: { kind: 'timestamp', example: '2026-01-05T10:00:00+00:00' },
  },
  { field: 'id', tier: 'stated', rule: REQUEST_RULES.achFormat, expected: 'string, client-defined', ok: isString, form: { kind: 'string' } },
  {
    field: 'member_guid',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string MBR-<uuid>',
    ok: (v) => isString(v) && prefixed('MBR').test(v as string),
    form: { kind: 'guid', prefix: 'MBR' },
  },
  {
    field: 'return_code',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string, letter R followed by two digits',
    ok: (v) => isString(v) && /^R\d{2}$/.test(v as string),
    form: { kind: 'code', letter: 'R', digits: 2, example: 'R01' },
  },
  {
    field: 'returned_at',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string, ISO 8601 timestamp with offset',
    ok: (v) => isString(v) && TIMESTAMP_WITH_OFFSET.test(v as string) && !Number.isNaN(Date.parse(v as string)),
    form: { kind: 'timestamp', example: '2026-01-07T09:30:00-05:00' },
  },
  {
    field: 'sec_code',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string, three-letter code',
    ok: (v) => isString(v) && /^[A-Za-z]{3}$/.test(v as string),
    form: { kind: 'letters', length: 3, example: 'PPD' },
  },
  {
    field: 'transaction_amount',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'number, decimal',
    ok: (v) => typeof v === 'number' && Number.isFinite(v),
    form: { kind: 'number', example: 42.5 },
  },
  {
    field: 'transaction_amount_range',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'integer',
    ok: (v) => Number.isInteger(v),
    form: { kind: 'integer', example: 2 },
  },
  {
    field: 'user_guid',
    tier: 'stated',
    rule: REQUEST_RULES.achFormat,
    expected: 'string USR-<uuid>',
    ok: (v) => isString(v) && prefixed('USR').test(v as string),
    form: { kind: 'guid', prefix: 'USR' },
  },
];
/**
 * Resources, Widget URL: `widget_type`, "for example connect_widget; other types named are
 * ..." (the document's WidgetType enumeration, which a test keeps equal to this list).
 */
export const WIDGET_TYPES: readonly string[] = [
  'connect_widget',
  'actionable_integration',
  'money_dashboard_widget',
  'spending_plan_widget',
  'mini_spending_plan_widget',
  'micro_pulse_carousel_widget',
  'mini_pulse_carousel_widget',
  'pulse_widget',
];
const absoluteUrl = (v: unknown) => {
  if (!isString(v)) return false;
  try {
    return /^[a-z][a-z0-9+.-]*:/i.test(v as string) && !!new URL(v as string);
  } catch {
    return false;
  }
};
/** Resources, Widget URL: "oauth_referral_source (string, BROWSER or APP)". */
const REFERRAL_SOURCES = ['BROWSER', 'APP'] as const;
const WIDGET_FIELDS: FieldRule[] = [
  {
    field: 'widget_type',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'string',
    ok: isString,
    form: { kind: 'string', example: 'connect_widget' },
  },
  {
    field: 'widget_type',
    tier: 'informational',
    rule: REQUEST_RULES.widgetTypeOpen,
    expected: `one of the named types (${WIDGET_TYPES.join(', ')})`,
    ok: (v) => !isString(v) || WIDGET_TYPES.includes(v as string),
  },
  {
    field: 'is_mobile_webview',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'boolean',
    ok: (v) => typeof v === 'boolean',
    form: { kind: 'boolean', example: false },
  },
  {
    field: 'client_redirect_url',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'string URL',
    ok: absoluteUrl,
    form: { kind: 'string', example: 'https://client.example/widget/done' },
  },
  {
    field: 'oauth_referral_source',
    tier: 'stated',
    rule: REQUEST_RULES.referralSource,
    expected: 'BROWSER or APP',
    ok: (v) => REFERRAL_SOURCES.includes(v as (typeof REFERRAL_SOURCES)[number]),
    form: { kind: 'enum', values: REFERRAL_SOURCES, example: 'BROWSER' },
  },
  {
    field: 'ui_message_webview_url_scheme',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'string',
    ok: isString,
    form: { kind: 'string', example: 'scnapp' },
  },
  {
    field: 'ui_message_version',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'integer (4 shown)',
    ok: (v) => Number.isInteger(v),
    form: { kind: 'integer', example: 4 },
  },
  { field: 'style', tier: 'stated', rule: REQUEST_RULES.widgetFields, expected: 'object', ok: isObject, form: { kind: 'object', example: {} } },
  {
    field: 'deep_link_params',
    tier: 'stated',
    rule: REQUEST_RULES.widgetFields,
    expected: 'object with widget, view, date_range, account_guid',
    ok: isObject,
    form: { kind: 'object', example: { widget: 'connect_widget' } },
  },
];
const MEMBER_FIELDS: FieldRule[] = [
  {
    field: 'is_oauth',
    tier: 'stated',
    rule: REQUEST_RULES.memberFields,
    expected: 'boolean',
    ok: (v) => typeof v === 'boolean',
    form: { kind: 'boolean', example: false },
  },
  {
    field: 'skip_aggregation',
    tier: 'stated',
    rule: REQUEST_RULES.memberFields,
    expected: 'boolean',
    ok: (v) => typeof v === 'boolean',
    form: { kind: 'boolean', example: false },
  },
  { field: 'id', tier: 'stated', rule: REQUEST_RULES.memberFields, expected: 'string', ok: isString, form: { kind: 'string' } },
  {
    field: 'institution_code',
    tier: 'inferred',
    rule: REQUEST_RULES.memberFieldsInferred,
    expected: 'string',
    ok: isString,
    form: { kind: 'string' },
  },
];
export const SCOPE_ENTRY = new RegExp(`^(?:user-guid:USR-${UUID}|member-guid:MBR-${UUID}|account-guid:ACT-${UUID}|read-protected)$`);

export const FIELD_TABLES: Array<{ operation: string; envelope: string; fields: FieldRule[] }> = [
  { operation: ACH_CREATE, envelope: 'ach_return', fields: ACH_FIELDS },
  { operation: WIDGET_URL, envelope: 'widget_url', fields: WIDGET_FIELDS },
  { operation: CREATE_MEMBER, envelope: 'member', fields: MEMBER_FIELDS },
];

registerCheck(
  exchangeCheck({
    name: 'request_field_formats',
    description:
      'Request fields whose type, format or values the specification states: the ACH return table, the widget URL fields (oauth_referral_source BROWSER or APP), create-member is_oauth/skip_aggregation/id, the authorization code scope',
    appliesTo: (c) => judged(c) && isOperation(c, ACH_CREATE, WIDGET_URL, CREATE_MEMBER, AUTHORIZATION_CODE) && isObject(requestJson(c).value),
    run: (c) => {
      const body = requestJson(c).value as Record<string, unknown>;
      const out: Failure[] = [];
      if (isOperation(c, AUTHORIZATION_CODE)) {
        const scope = isObject(body.authorization_code) ? body.authorization_code.scope : undefined;
        if (typeof scope === 'string') {
          const bad = scope.split(' ').filter((e) => !SCOPE_ENTRY.test(e));
          if (bad.length)
            out.push(
              fail(
                c,
                'request_field_formats',
                'request.body.authorization_code.scope',
                REQUEST_RULES.scope,
                'stated',
                `Received: scope entries ${bad.map(describe).join(', ')} / Expected: space-separated user-guid:USR-<uuid>, member-guid:MBR-<uuid>, account-guid:ACT-<uuid>, read-protected`,
              ),
            );
        }
        return out;
      }
      const table = FIELD_TABLES.find((t) => isOperation(c, t.operation))!;
      const inner = body[table.envelope];
      if (!isObject(inner)) return out; // request_body_envelope says so
      for (const f of table.fields) {
        if (!(f.field in inner) || inner[f.field] === null) continue; // absent or null: no required field is stated here
        if (!f.ok(inner[f.field]))
          out.push(
            fail(
              c,
              'request_field_formats',
              `request.body.${table.envelope}.${f.field}`,
              f.rule,
              f.tier,
              `Received: ${describe(inner[f.field])} / Expected: ${f.expected}`,
            ),
          );
      }
      return out;
    },
  }),
);

// ---- lifecycle and paging --------------------------------------------------------------

registerCheck(
  exchangeCheck({
    name: 'request_endpoint_lifecycle',
    description:
      'The integration calls no sunset endpoint (stated) and no deprecated one (inferred), and sends no deprecated field (skip_aggregation from v20250224, inferred)',
    appliesTo: (c) =>
      judged(c) &&
      c.operation !== undefined &&
      (c.operation.sunset || c.operation.deprecated || (isOperation(c, CREATE_MEMBER) && atLeast(c.requestedVersion, DATA_REQUEST_FROM))),
    run: (c) => {
      const op = c.operation!;
      const version = c.requestedVersion ?? c.version ?? 'the default version';
      if (op.sunset)
        return [
          fail(
            c,
            'request_endpoint_lifecycle',
            'request',
            REQUEST_RULES.sunsetEndpoint,
            'stated',
            `Received: a request to ${op.key}, sunset in ${version} / Expected: no request to a sunset endpoint`,
          ),
        ];
      if (op.deprecated)
        return [
          fail(
            c,
            'request_endpoint_lifecycle',
            'request',
            REQUEST_RULES.deprecatedEndpoint,
            'inferred',
            `Received: a request to ${op.key}, deprecated in ${version} / Expected: its replacement before the endpoint sunsets`,
          ),
        ];
      const body = requestJson(c).value;
      const member = isObject(body) && isObject(body.member) ? body.member : undefined;
      if (member && 'skip_aggregation' in member) {
        return [
          fail(
            c,
            'request_endpoint_lifecycle',
            'request.body.member.skip_aggregation',
            REQUEST_RULES.skipAggregation,
            'inferred',
            `Received: skip_aggregation ${describe(member.skip_aggregation)} on ${version} / Expected: data_request.products saying which products to aggregate`,
          ),
        ];
      }
      return [];
    },
  }),
);

/** Query values of a name (the last one wins as most servers read it; all are judged). */
function queryValues(query: string, name: string): string[] {
  return new URLSearchParams(query).getAll(name);
}

registerCheck(
  exchangeCheck({
    name: 'request_paging',
    description:
      "records_per_page at most the stated 1000 where Limits states it (stated); page and records_per_page positive whole numbers (inferred); outside the reference's 10-100 where no maximum is stated (informational)",
    appliesTo: (c) =>
      judged(c) &&
      c.operation !== undefined &&
      (c.operation.listKey !== undefined || c.operation.maxRecordsPerPage !== undefined) &&
      (queryValues(c.query, 'records_per_page').length > 0 || queryValues(c.query, 'page').length > 0),
    run: (c) => {
      const op = c.operation!;
      const out: Failure[] = [];
      for (const name of ['page', 'records_per_page']) {
        for (const raw of queryValues(c.query, name)) {
          const at = `request.query.${name}`;
          const n = Number(raw);
          if (raw.trim() === '' || !Number.isInteger(n) || n < 1) {
            out.push(
              fail(c, 'request_paging', at, REQUEST_RULES.pageValue, 'inferred', `Received: ${name}=${describe(raw)} / Expected: a positive whole number`),
            );
            continue;
          }
          if (name !== 'records_per_page') continue;
          if (op.maxRecordsPerPage !== undefined && n > op.maxRecordsPerPage) {
            out.push(
              fail(
                c,
                'request_paging',
                at,
                REQUEST_RULES.pageMax,
                'stated',
                `Received: records_per_page=${n} / Expected: at most ${op.maxRecordsPerPage} on ${op.key} (ask page by page)`,
              ),
            );
          } else if (n < 10 || (op.maxRecordsPerPage === undefined && n > 100)) {
            out.push(
              fail(
                c,
                'request_paging',
                at,
                REQUEST_RULES.pageReference,
                'informational',
                `Received: records_per_page=${n} / The vendor's reference answers 25 records outside 10-${op.maxRecordsPerPage ?? 100} on this list: read pagination, never assume the page size asked`,
              ),
            );
          }
        }
      }
      return out;
    },
  }),
);

/** The request checks of this file, in registration order (integration/ reports them apart from the response checks). */
export const REQUEST_CHECKS = [
  'request_version_header',
  'request_authentication',
  'request_required_headers',
  'request_body_json',
  'request_body_envelope',
  'request_required_fields',
  'request_field_formats',
  'request_endpoint_lifecycle',
  'request_paging',
] as const;
