/**
 * Schemathesis-style checks of generated requests (the fuzz project; ../shared/DESIGN.md,
 * "Checks and failures"). The response checks that Schemathesis names and this registry
 * already has are reused as they are (`status_code_conformance`,
 * `content_type_conformance`, `response_headers_conformance`,
 * `response_schema_conformance`); the checks here judge what only a generator knows:
 * what the request was meant to be (valid by what the specification states, invalid by
 * one stated or inferred rule, without credentials, without a required header, a method
 * the document does not list, a read after a delete or after a create).
 *
 * The generator says so in `CheckOptions.generated`; an exchange without it (every
 * ordinary scenario) is never asked by these checks, so they cost one property read per
 * exchange elsewhere.
 *
 * Severity discipline (contracts/failure.ts): the generator gives the tier of the rule a
 * case rests on, with the sentence it quotes. A rule the specification states gates
 * (stated); a reasonable, unstated one is a warning unless the profile is strict
 * (inferred); a refusal of data the specification leaves open is never a failure, so a
 * case built from open data carries no expectation about acceptance at all.
 */
import { severityOfTier, type Failure, type Tier } from './failure.ts';
import { exchangeCheck, registerCheck, type ExchangeContext } from './registry.ts';

/** What a generated request was meant to be. */
export type GeneratedKind =
  /** Valid by what the specification states, from open data: only the response is judged. */
  | 'valid'
  /** Valid and built from resources that exist (identifiers fed forward): acceptance is expected. */
  | 'positive'
  /** One rule of the request's description broken: a 2xx is a failure of the rule's tier. */
  | 'negative'
  /** No credentials at all. */
  | 'no-auth'
  /** Credentials of the right scheme with a wrong secret. */
  | 'wrong-auth'
  /** A header the specification requires left out. */
  | 'missing-header'
  /** A method the document does not list for the path. */
  | 'unsupported-method'
  /** A read of a resource after its delete answered a 2xx. */
  | 'after-delete'
  /** A read of a resource after its create answered a 2xx. */
  | 'after-create';

export interface GeneratedCase {
  kind: GeneratedKind;
  /** The authority of the expectation: stated (quotes `rule`), inferred or informational. */
  tier: Tier;
  /** The sentence (or section) the expectation rests on. */
  rule: string;
  /** What was generated, for the message: "data_request left out", "no Authorization". */
  what: string;
  /**
   * What the answer's records must name (resource_identity): field -> the values the
   * request's path names (a read under /users/{user_guid}/members/{member_guid} answers
   * records of that user and member), with the tier and sentence of that expectation.
   */
  identity?: { fields: Record<string, string[]>; tier: Tier; rule: string; own?: string[] };
}

/** Statuses that decide nothing about the request: rate limited (Errors: 429 on any operation). */
const INCONCLUSIVE = new Set([429]);

const is2xx = (s: number) => s >= 200 && s < 300;

export const GENERATED_RULES = {
  serverError:
    'Errors: "Error codes per endpoint beyond those in the table: not shown"; no status of the table is a 5xx, and a 5xx names the service, not the request, as at fault (RFC 9110 §15.6): inferred',
  basicAuth: 'Authentication 1: "Platform endpoints use HTTP Basic authentication: client identifier as user name and API key as password"',
  bearerAuth: 'Authentication 5: these credentials produce an access token used as "Authorization: Bearer <ACCESS_TOKEN>" on all audience endpoints',
  testHostAuth:
    'Endpoints, Earlier-generation test paths: "Requests carry headers SVC-API-Key: <API_KEY>, SVC-Client-ID: <CLIENT_ID>" (that a request without them is refused is inferred)',
  threeDxToken: 'Authentication 3: "Data exchange read endpoints for users, accounts and transactions also require the header SVC-3DX-TOKEN"',
  unsupportedMethod:
    'Versioning, non-breaking: "adding endpoints" — a method the document does not list may exist; 405 is HTTP\'s answer (RFC 9110 §15.5.6), never a stated one',
  useAfterFree:
    'What the service does / Endpoints: members and users "can also be ... deleted"; that a deleted resource is no longer served is inferred (no status is stated for it)',
  availability:
    'Endpoints: a created resource is read by its identifier; that it can be read right after a successful create is inferred (no sentence states read-after-create)',
} as const;

function fail(c: ExchangeContext, check: string, tier: Tier, rule: string, message: string, location = 'response.status'): Failure {
  return { check, operation: c.operationKey, location, rule, severity: severityOfTier(tier, c.options.strict), tier, message };
}

/** The exchange is a generated request of one of these kinds. */
const generatedAs = (c: ExchangeContext, ...kinds: GeneratedKind[]) => {
  const g = c.options.generated;
  return g !== undefined && kinds.includes(g.kind);
};

const status = (c: ExchangeContext) => c.exchange.response.status;
const method = (c: ExchangeContext) => c.exchange.request.method.toUpperCase();

registerCheck(
  exchangeCheck({
    name: 'not_a_server_error',
    description: 'A generated request never answers a 5xx (inferred: no sentence states it; a 5xx blames the service, not the request)',
    appliesTo: (c) => c.status >= 500 && c.options.generated !== undefined,
    run: (c) => [
      fail(
        c,
        'not_a_server_error',
        'inferred',
        GENERATED_RULES.serverError,
        `Received: ${status(c)} to a generated request (${c.options.generated!.kind}: ${c.options.generated!.what}) / Expected: not a 5xx`,
      ),
    ],
  }),
);

registerCheck(
  exchangeCheck({
    name: 'negative_data_rejection',
    description:
      "A request that breaks a rule of its description (a required field left out, a stated type or format broken, a value that ALMOST meets a stated format: contracts/near-miss.ts) is not accepted with a 2xx; the rule's tier decides the severity: stated where the specification states the rule (the request tables of requests.ts, data_request on v20250224, a stated 404), inferred where only the document's keyword does",
    appliesTo: (c) => is2xx(c.status) && generatedAs(c, 'negative'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'negative_data_rejection', g.tier, g.rule, `Received: ${status(c)} / Expected: a refusal (not a 2xx) of a request with ${g.what}`)];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'positive_data_acceptance',
    description:
      'A request valid by what the specification states, built from resources that exist, is not refused with a 4xx (429 aside); tier from the rule the case rests on',
    appliesTo: (c) => c.status >= 400 && c.status < 500 && !INCONCLUSIVE.has(c.status) && generatedAs(c, 'positive'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'positive_data_acceptance', g.tier, g.rule, `Received: ${status(c)} / Expected: acceptance of ${g.what}`)];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'missing_required_header',
    description: 'A request without a header the specification requires (SVC-3DX-TOKEN on data exchange reads) is not answered with a 2xx',
    appliesTo: (c) => is2xx(c.status) && generatedAs(c, 'missing-header'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'missing_required_header', g.tier, g.rule, `Received: ${status(c)} / Expected: a refusal of a request with ${g.what}`)];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'ignored_auth',
    description:
      'A request without credentials, or with wrong ones, is not answered with a 2xx (platform Basic and audience Bearer: stated; test host headers: inferred)',
    appliesTo: (c) => is2xx(c.status) && generatedAs(c, 'no-auth', 'wrong-auth'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'ignored_auth', g.tier, g.rule, `Received: ${status(c)} / Expected: a refusal of a request with ${g.what}`)];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'unsupported_method',
    description: 'A method the document does not list for a path: a 2xx is reported (informational: "adding endpoints" is non-breaking), anything else passes',
    appliesTo: (c) => is2xx(c.status) && generatedAs(c, 'unsupported-method'),
    run: (c) => [
      fail(
        c,
        'unsupported_method',
        'informational',
        GENERATED_RULES.unsupportedMethod,
        `Received: ${status(c)} to ${method(c)} ${c.path}, a method the document does not list for this path / Expected (HTTP): 405`,
      ),
    ],
  }),
);

registerCheck(
  exchangeCheck({
    name: 'use_after_free',
    description: 'After a delete answered a 2xx, a read of the same resource does not answer a 2xx',
    appliesTo: (c) => is2xx(c.status) && generatedAs(c, 'after-delete'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'use_after_free', g.tier, g.rule, `Received: ${status(c)} / Expected: not a 2xx for ${g.what}`)];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'ensure_resource_availability',
    description: 'After a create answered a 2xx, a read of the created resource does not answer a 4xx (429 aside)',
    appliesTo: (c) => c.status >= 400 && c.status < 500 && !INCONCLUSIVE.has(c.status) && generatedAs(c, 'after-create'),
    run: (c) => {
      const g = c.options.generated!;
      return [fail(c, 'ensure_resource_availability', g.tier, g.rule, `Received: ${status(c)} / Expected: a 2xx for ${g.what}`)];
    },
  }),
);

/** The records of an answer: the top-level objects and the objects of top-level arrays (`{member: {...}}`, `{accounts: [...]}`). */
function recordsOf(body: unknown): Array<Record<string, unknown>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const out: Array<Record<string, unknown>> = [];
  for (const v of Object.values(body as Record<string, unknown>)) {
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object' && !Array.isArray(x)) out.push(x as Record<string, unknown>);
    } else if (v !== null && typeof v === 'object') out.push(v as Record<string, unknown>);
  }
  return out;
}

registerCheck(
  exchangeCheck({
    name: 'resource_identity',
    description:
      "A 2xx read of resources the path names answers records of those resources: each record's user_guid, member_guid, account_guid (or the test host's status, challenge type, merchant) is the one the path names; a field absent or null is not judged",
    appliesTo: (c) => is2xx(c.status) && c.options.generated?.kind === 'positive' && c.options.generated.identity !== undefined,
    run: (c) => {
      const id = c.options.generated!.identity!;
      const out: Failure[] = [];
      // A read of one resource (`{member: {...}}`): the object answered is the one the path's last identifier names.
      if (id.own?.length) {
        const body = c.exchange.response.body;
        for (const v of body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.values(body as Record<string, unknown>) : []) {
          const guid = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).guid : undefined;
          if (typeof guid === 'string' && !id.own.some((a) => a.toLowerCase() === guid.toLowerCase())) {
            return [
              fail(
                c,
                'resource_identity',
                id.tier,
                id.rule,
                `Received: guid ${JSON.stringify(guid)} / Expected: ${id.own.map((a) => JSON.stringify(a)).join(' or ')}, the resource the path names (${c.options.generated!.what})`,
                'response.body.guid',
              ),
            ];
          }
        }
      }
      for (const r of recordsOf(c.exchange.response.body)) {
        for (const [field, allowed] of Object.entries(id.fields)) {
          const v = r[field];
          if (typeof v !== 'string' || allowed.some((a) => a.toLowerCase() === v.toLowerCase())) continue;
          out.push(
            fail(
              c,
              'resource_identity',
              id.tier,
              id.rule,
              `Received: ${field} ${JSON.stringify(v)} / Expected: ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, as the path names (${c.options.generated!.what})`,
              `response.body.${field}`,
            ),
          );
          return out; // one record shows it
        }
      }
      return out;
    },
  }),
);

/** The checks of this file, in registration order (the fuzz report counts per check). */
export const GENERATED_CHECKS = [
  'not_a_server_error',
  'negative_data_rejection',
  'positive_data_acceptance',
  'missing_required_header',
  'ignored_auth',
  'unsupported_method',
  'use_after_free',
  'ensure_resource_availability',
  'resource_identity',
] as const;

/** Every check the fuzz project reports on: the response checks it reuses plus those above. */
export const FUZZ_CHECKS = [
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  ...GENERATED_CHECKS,
] as const;
