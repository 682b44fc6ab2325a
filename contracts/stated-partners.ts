/**
 * Stated properties of one answer that the document's schemas cannot say (what the
 * fuzz column's survivors broke in the partner areas: OAuth members, processors, ACH returns,
 * data exchange, audience). Each check quotes the sentence it rests on; it runs on every
 * exchange of every project (api, browser, fuzz), so each one judges only what a single
 * answer shows and never what the specification leaves open:
 *
 *   member_oauth_window_uri      an oauth_window_uri carries its protocol (Resources, Member)
 *   payment_account_fields       /payment_account names user_guid, member_guid, account_guid
 *   authorization_code_body      POST /authorization_code answers an authorization code body
 *   ach_return_body              POST /ach_returns answers an ACH return body (it has a guid)
 *   processor_token_lifetime     an expires_in of the processor /token is 60 days
 *   grant_grantees               a grant names its grantees (a grantee's list; the grant query)
 *   dx_default_window            a default-window transaction page spans at most 90 days
 *   audience_list_count          count equals the identifiers listed (inferred)
 *
 * Where a field name is not shown (the /token and authorization code bodies, the grant's
 * fields, a wrapper object), a check looks at the top level and one wrapper object down
 * and passes when the field it would judge is absent, except where the sentence states
 * presence (payment account fields, an ACH return's guid, a grantee GUID of the path).
 */
import { severityOfTier, type Failure, type Tier } from './failure.ts';
import { exchangeCheck, registerCheck, type ExchangeContext } from './registry.ts';

export const PARTNER_RULES = {
  oauthUri:
    'Resources, Member: oauth_window_uri "begins without the protocol prefix being added by the client (the service supplies it)"; OAuth procedure 2: it "must not be hard-coded or given a protocol prefix by the client"',
  paymentAccount: 'Endpoints, other endpoints named: "/payment_account (returns user_guid, member_guid, account_guid)"',
  authorizationCode:
    'Endpoints, Authorization code for processors: POST /authorization_code "Response: authorization code body" (an answer without any code is not one)',
  achReturn:
    'Resources, ACH return: "Response is an ACH return body"; Endpoints: POST /ach_returns "response ACH return"; Resources: "Other resources also have a guid" (GET /ach_returns/{ach_return_guid} "path accepts the return\'s guid or id")',
  tokenLifetime:
    'Authentication 4: "Processor access_token values expire 60 days after issue"; Limits: processor access_token lifetime 60 days (expires_in: "the lifetime in seconds of the access token", RFC 6749 §5.1)',
  granteeList:
    'Endpoints, Data exchange: GET /data_exchange/grantee/{grantee_client_guid}/grants "list grants of a grantee"; Resources, Data exchange grant: a grant "has an issuer GUID, one or more grantee GUIDs and a data scope"',
  grantQuery: 'Endpoints, Data exchange: GET /data_exchange/grant "every grantee on the grant must be supplied or the grant is not returned"',
  defaultWindow:
    'Endpoints, Data exchange: transaction lists\' "default window is the 90 days before the request day"; Limits, the table\'s row "default transaction window": "90 days before the request day"',
  audienceCount:
    'Endpoints, Audience list service: "count (integer)" beside "list (array of opaque string identifiers)"; that count equals the number of identifiers listed is inferred',
} as const;

/** Processor access_token lifetime (Authentication 4; Limits), seconds. */
export const PROCESSOR_TOKEN_LIFETIME_S = 60 * 86_400;
/** Slack on expires_in: the answer may be computed a moment after issue, or rounded. */
const LIFETIME_SLACK_S = 3_600;
/** Limits, the table\'s row "default transaction window": "90 days before the request day". */
const DEFAULT_WINDOW_DAYS = 90;
/** Slack on the window's span (inclusive bounds, time zones, a posting day): days. */
const WINDOW_SLACK_DAYS = 2;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const is2xx = (s: number) => s >= 200 && s < 300;
const key = (c: ExchangeContext) => c.operation?.key;

function fail(c: ExchangeContext, check: string, tier: Tier, rule: string, location: string, message: string): Failure {
  return { check, operation: c.operationKey, location, rule, severity: severityOfTier(tier, c.options.strict), tier, message };
}

/** The body and each object one level down (a wrapper such as `{payment_account: {...}}`): where a field of the answer may sit. */
function levels(body: unknown): Array<{ at: string; o: Obj }> {
  if (!isObj(body)) return [];
  return [
    { at: 'response.body', o: body },
    ...Object.entries(body)
      .filter(([, v]) => isObj(v))
      .map(([k, v]) => ({ at: `response.body.${k}`, o: v as Obj })),
  ];
}

/** Member objects of an answer: `{member}`, `{members: [...]}`, or the list key of the operation. */
function membersOf(body: unknown): Array<{ at: string; m: Obj }> {
  if (!isObj(body)) return [];
  const out: Array<{ at: string; m: Obj }> = [];
  if (isObj(body.member)) out.push({ at: 'response.body.member', m: body.member });
  if (Array.isArray(body.members))
    body.members.forEach((m, i) => {
      if (isObj(m)) out.push({ at: `response.body.members[${i}]`, m });
    });
  return out;
}

/** A URI that carries its protocol: a scheme (RFC 3986 §3.1) followed by `://`. */
const WITH_PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;

registerCheck(
  exchangeCheck({
    name: 'member_oauth_window_uri',
    description:
      "A member's oauth_window_uri carries its protocol prefix: the service supplies it, the client adds none (Resources, Member; OAuth procedure 2)",
    appliesTo: (c) => c.model.api === 'platform' && is2xx(c.status) && isObj(c.exchange.response.body),
    run: (c) => {
      for (const { at, m } of membersOf(c.exchange.response.body)) {
        const uri = m.oauth_window_uri;
        if (typeof uri === 'string' && uri !== '' && !WITH_PROTOCOL.test(uri)) {
          return [
            fail(
              c,
              'member_oauth_window_uri',
              'stated',
              PARTNER_RULES.oauthUri,
              `${at}.oauth_window_uri`,
              `Received: ${JSON.stringify(uri.slice(0, 120))} / Expected: a URI with its protocol prefix (e.g. https://...), which the service supplies`,
            ),
          ];
        }
      }
      return [];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'payment_account_fields',
    description: 'GET /payment_account answers user_guid, member_guid and account_guid (at the top level or in one wrapper object; null is not judged here)',
    appliesTo: (c) => key(c) === 'GET /payment_account' && is2xx(c.status),
    run: (c) => {
      const names = ['user_guid', 'member_guid', 'account_guid'];
      const lv = levels(c.exchange.response.body);
      // The level that names most of the three is the payment account.
      const best = lv.map((l) => ({ ...l, n: names.filter((f) => f in l.o).length })).sort((a, b) => b.n - a.n)[0];
      const missing = best ? names.filter((f) => !(f in best.o)) : names;
      if (!missing.length) return [];
      return [
        fail(
          c,
          'payment_account_fields',
          'stated',
          PARTNER_RULES.paymentAccount,
          best?.at ?? 'response.body',
          `Received: no ${missing.join(', ')}${best ? ` (fields: ${Object.keys(best.o).slice(0, 12).join(', ') || 'none'})` : ' (the body is not an object)'} / Expected: user_guid, member_guid and account_guid`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'authorization_code_body',
    description: 'POST /authorization_code answers an authorization code body: a non-empty string (the code) at the top level or in one wrapper object',
    appliesTo: (c) => key(c) === 'POST /authorization_code' && is2xx(c.status),
    run: (c) => {
      const carries = levels(c.exchange.response.body).some(({ o }) => Object.values(o).some((v) => typeof v === 'string' && v !== ''));
      if (carries) return [];
      const body = c.exchange.response.body;
      return [
        fail(
          c,
          'authorization_code_body',
          'stated',
          PARTNER_RULES.authorizationCode,
          'response.body',
          `Received: ${JSON.stringify(body)?.slice(0, 120) ?? 'no body'} / Expected: an authorization code body (a code)`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'ach_return_body',
    description: "POST /ach_returns answers an ACH return body: the return's guid at the top level or in one wrapper object (its other fields are not shown)",
    appliesTo: (c) => key(c) === 'POST /ach_returns' && is2xx(c.status),
    run: (c) => {
      if (levels(c.exchange.response.body).some(({ o }) => 'guid' in o)) return [];
      const body = c.exchange.response.body;
      return [
        fail(
          c,
          'ach_return_body',
          'stated',
          PARTNER_RULES.achReturn,
          'response.body',
          `Received: ${JSON.stringify(body)?.slice(0, 120) ?? 'no body'} / Expected: an ACH return body (a resource with its guid)`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'processor_token_lifetime',
    description:
      'A processor token answer (/token, /payment_processor_token) whose expires_in is a number gives 60 days (Authentication 4; Limits); its shape is not shown, so an answer without expires_in passes',
    appliesTo: (c) => (key(c) === 'POST /token' || key(c) === 'POST /payment_processor_token') && is2xx(c.status),
    run: (c) => {
      for (const { at, o } of levels(c.exchange.response.body)) {
        const v = o.expires_in;
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        if (Math.abs(v - PROCESSOR_TOKEN_LIFETIME_S) <= LIFETIME_SLACK_S) return [];
        return [
          fail(
            c,
            'processor_token_lifetime',
            'stated',
            PARTNER_RULES.tokenLifetime,
            `${at}.expires_in`,
            `Received: expires_in ${v} (${(v / 86_400).toFixed(2)} days) / Expected: ${PROCESSOR_TOKEN_LIFETIME_S} (60 days)`,
          ),
        ];
      }
      return [];
    },
  }),
);

/** The values of a record one level down, with array elements: where a grantee GUID may be named. */
function valuesOf(o: Obj): unknown[] {
  return Object.values(o).flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** The query's values, comma lists split (the grantee parameter's name and form are not shown). */
function queryValues(query: string): Set<string> {
  const out = new Set<string>();
  for (const [, v] of new URLSearchParams(query)) for (const x of v.split(',')) if (x.trim()) out.add(x.trim());
  return out;
}

registerCheck(
  exchangeCheck({
    name: 'grant_grantees',
    description:
      "A grant names its grantees: each grant of a grantee's list names that grantee's GUID; the grant query answers no grant with a grantee it was not given (a field named like grantee)",
    appliesTo: (c) => is2xx(c.status) && (key(c) === 'GET /data_exchange/grantee/{grantee_client_guid}/grants' || key(c) === 'GET /data_exchange/grant'),
    run: (c) => {
      const body = c.exchange.response.body;
      if (!isObj(body)) return [];
      if (key(c) === 'GET /data_exchange/grant') {
        const supplied = queryValues(c.query);
        for (const { at, o } of levels(body)) {
          for (const [k, v] of Object.entries(o)) {
            if (!/grantee/i.test(k) || !Array.isArray(v)) continue;
            const extra = v.filter((g) => typeof g === 'string' && !supplied.has(g));
            if (extra.length) {
              // Versioning: "changing length or format of opaque strings (identifiers ...)" is
              // non-breaking, so a grantee answered in another form than the one supplied is the
              // same grantee. Only when the answer shows the supplied form (one grantee equal) is
              // a grantee not equal to any supplied one another grantee: stated; else inferred.
              const sameForm = v.some((g) => typeof g === 'string' && supplied.has(g));
              return [
                fail(
                  c,
                  'grant_grantees',
                  sameForm ? 'stated' : 'inferred',
                  PARTNER_RULES.grantQuery,
                  `${at}.${k}`,
                  `Received: a grant whose grantees include ${extra.map((g) => JSON.stringify(g)).join(', ')}, not supplied in the query (${[...supplied].join(', ') || 'none'})${sameForm ? '' : ", none of its grantees written as supplied (an identifier's form may change: Versioning)"} / Expected: no grant returned unless every grantee on it is supplied`,
                ),
              ];
            }
          }
        }
        return [];
      }
      const grantee = c.match?.params?.grantee_client_guid ?? '';
      const list = body.grants;
      if (!grantee || !Array.isArray(list)) return [];
      const names = (g: Obj) => valuesOf(g).some((v) => typeof v === 'string' && v.toLowerCase() === grantee.toLowerCase());
      // "one or more grantee GUIDs": a field named like grantee with a value (its name is not shown).
      const granteeField = (g: Obj) =>
        Object.entries(g).some(
          ([k, v]) => /grantee/i.test(k) && (typeof v === 'string' ? v !== '' : Array.isArray(v) && v.some((x) => typeof x === 'string' && x !== '')),
        );
      const none = list.findIndex((g) => isObj(g) && !names(g) && !granteeField(g));
      if (none >= 0) {
        return [
          fail(
            c,
            'grant_grantees',
            'stated',
            PARTNER_RULES.granteeList,
            `response.body.grants[${none}]`,
            `Received: a grant naming no grantee (fields: ${Object.keys(list[none] as Obj).join(', ')}) / Expected: the grant's grantee GUIDs, among them the grantee whose grants are listed`,
          ),
        ];
      }
      // The grantee of the path written differently in the grant is the same grantee when
      // identifiers changed form (Versioning, non-breaking): that it is written as in the
      // path is inferred.
      const other = list.findIndex((g) => isObj(g) && !names(g));
      if (other < 0) return [];
      return [
        fail(
          c,
          'grant_grantees',
          'inferred',
          PARTNER_RULES.granteeList,
          `response.body.grants[${other}]`,
          `Received: a grant whose grantee GUIDs do not include ${JSON.stringify(grantee)} as the path writes it (fields: ${Object.keys(list[other] as Obj).join(', ')}) / Expected: the grantee whose grants are listed among them (an identifier's length or format may change: Versioning)`,
        ),
      ];
    },
  }),
);

const DX_TRANSACTION_LISTS = new Set([
  'GET /data_exchange/users/{user_identifier}/transactions',
  'GET /data_exchange/users/{user_identifier}/accounts/{account_guid}/transactions',
  'GET /data_exchange/users/{user_identifier}/members/{member_identifier}/accounts/{account_identifier}/transactions',
]);
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayOf = (s: unknown) => (typeof s === 'string' && ISO_DAY.test(s) ? Date.parse(`${s}T00:00:00Z`) : undefined);

registerCheck(
  exchangeCheck({
    name: 'dx_default_window',
    description:
      'A data exchange transaction page asked without window parameters (only page, records_per_page) lists transactions whose dates (YYYY-MM-DD `date`) span at most the 90-day default window',
    appliesTo: (c) =>
      is2xx(c.status) &&
      DX_TRANSACTION_LISTS.has(key(c) ?? '') &&
      [...new URLSearchParams(c.query).keys()].every((k) => k === 'page' || k === 'records_per_page'),
    run: (c) => {
      const list = isObj(c.exchange.response.body) ? c.exchange.response.body.transactions : undefined;
      if (!Array.isArray(list)) return [];
      const days = list.map((t) => (isObj(t) ? dayOf(t.date) : undefined)).filter((d): d is number => d !== undefined);
      if (days.length < 2) return [];
      // A reduce, not Math.min(...days): a spread of a misbehaving target's huge page exceeds the engine's argument limit.
      const min = days.reduce((a, b) => Math.min(a, b));
      const max = days.reduce((a, b) => Math.max(a, b));
      const span = Math.round((max - min) / 86_400_000);
      if (span <= DEFAULT_WINDOW_DAYS + WINDOW_SLACK_DAYS) return [];
      const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      return [
        fail(
          c,
          'dx_default_window',
          'stated',
          PARTNER_RULES.defaultWindow,
          'response.body.transactions',
          `Received: transactions dated ${iso(min)} to ${iso(max)} (${span} days) without window parameters / Expected: at most the ${DEFAULT_WINDOW_DAYS} days before the request day`,
        ),
      ];
    },
  }),
);

registerCheck(
  exchangeCheck({
    name: 'audience_list_count',
    description: 'An audience list answers count equal to the number of identifiers in list (inferred: the two fields are stated, their relation is not)',
    appliesTo: (c) => c.model.api === 'audience' && is2xx(c.status) && isObj(c.exchange.response.body),
    run: (c) => {
      const b = c.exchange.response.body as Obj;
      if (typeof b.count !== 'number' || !Array.isArray(b.list) || b.count === b.list.length) return [];
      return [
        fail(
          c,
          'audience_list_count',
          'inferred',
          PARTNER_RULES.audienceCount,
          'response.body.count',
          `Received: count ${b.count} beside ${b.list.length} identifiers in list / Expected: equal`,
        ),
      ];
    },
  }),
);
