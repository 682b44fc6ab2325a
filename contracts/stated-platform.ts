/**
 * Stated properties of platform resources that one response shows (what
 * the fuzz project's survivors of the platform half broke). Each check quotes the sentence of
 * ../shared/specification.md it rests on and judges only what that sentence states:
 *
 *   - a field the specification says a resource carries is an element of each record
 *     (presence only: a `null` value is never judged here, real-service-notes,
 *     Nullability: almost every field is nullable in the vendor's reference);
 *   - what `includes` returns is in the answer to a request that asked for it;
 *   - a manual account shows no data feed;
 *   - the default category list counts 119 categories.
 *
 * Which records are which is read from the operation the request matched (platform
 * document, its path template), never from the simulator's shapes: an answer whose
 * records are not where the document's envelope puts them (`{account}`, `{accounts}`)
 * is left to response_schema_conformance. What a sentence says the records carry or return
 * is stated and gates; a field a list only names ("Fields named: ...", "Merchant fields:
 * ...") is inferred: its absence warns (../shared/real-service-notes.md, Nullability), and a
 * field a service served and then dropped is caught by presence consistency over the run
 * (contracts/invariants.ts).
 */
import { severityOfTier, type Failure, type Tier } from './failure.ts';
import { type CheckRule, exchangeCheck, registerCheck, runRules, type ExchangeContext } from './registry.ts';

export const STATED_PLATFORM_RULES = {
  accountBalance:
    'Resources, Account: "Fields named: ... balance, available_balance, plus *_set_by and feed_* variants"; Versioning: "removing or renaming a response field" is breaking',
  accountVariants:
    'Resources, Account: "Fields named: ... plus *_set_by and feed_* variants"; Versioning: "removing or renaming a response field" is breaking. Judged on v20111101 only: the field list names no version, the v20250224 change list is not said to be complete, and the vendor\'s v20250224 accounts carry neither (real-service-notes, Enumerations)',
  manualNoFeed:
    'What the service does: "Manual accounts can be created. They carry no credentials, never aggregate and receive no data feed"; Conventions for _set_by fields: "A field ending in _set_by names the source of the related field: FEED, USER or SYSTEM"',
  transactionMerchant: 'What the service does: "transactions carry merchant_guid and merchant_location_guid"',
  includes: 'Resources, Transaction: "Optional includes query value returns repeating_transactions, merchants, classifications, geolocations"',
  merchantFields: 'Resources, Transaction: "Merchant fields: name, logo_url, website_url"',
  geolocationFields: 'Resources, Transaction: "Geolocation fields: country, city, postal_code"',
  insightFields:
    'Resources, Insight: "Fields named: has_associated_repeating_transactions, cta_clicked_at (settable on update), micro_call_to_action"; Versioning: "removing or renaming a response field" is breaking',
  localization:
    'Resources, Insight: "an opt-in localization_payload object requested with ?includes=localization_payload (supported templates: BillAmountNotStandard, MonthlySubscriptionAggregateV2, SubscriptionPriceIncrease)"',
  goalFields:
    'What the service does: "goals (each with track_type_name such as debt, savings, retirement or emergency fund, and meta_type_name such as college, house or vacation ...)"',
  budgetFields: 'What the service does: "Budgets (each with a category_guid, ...)"',
  credentialGuid: 'Resources and their fields: "Other resources also have a guid"; Resources, Credential (institution or member)',
  defaultCategories:
    'Limits: "default categories | 119 | default category list"; What the service does: "Default categories and subcategories exist (119 in total, ...)"',
} as const;

const CHECK = 'stated_platform_fields';
const SUPPORTED_LOCALIZATION_TEMPLATES = new Set(['BillAmountNotStandard', 'MonthlySubscriptionAggregateV2', 'SubscriptionPriceIncrease']);

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (r: Rec, k: string) => Object.hasOwn(r, k);

/** Records of an envelope: `{<singular>: {...}}` or `{<plural>: [...]}` at the top level. */
function recordsOf(body: unknown, singular: string, plural: string): Rec[] {
  if (!isRec(body)) return [];
  const out: Rec[] = [];
  if (isRec(body[singular])) out.push(body[singular] as Rec);
  if (Array.isArray(body[plural])) for (const x of body[plural] as unknown[]) if (isRec(x)) out.push(x);
  return out;
}

/** The values of the `includes` query parameter (comma-separated or repeated; the separator is not shown). */
function includesOf(query: string): Set<string> {
  const out = new Set<string>();
  for (const v of new URLSearchParams(query).getAll('includes')) for (const x of v.split(',')) if (x.trim()) out.add(x.trim());
  return out;
}

const P = '\\{[^}]+\\}';
const ACCOUNTS = new RegExp(`^/users/${P}(/members/${P})?/accounts(/${P})?$`);
const TRANSACTIONS = new RegExp(`^/users/${P}(/(accounts|members)/${P})?/transactions(/${P})?$`);
const INSIGHTS = new RegExp(`^/users/${P}/insights(/${P})?$`);
const GOALS = new RegExp(`^/users/${P}/goals(/reposition)?$`);
const BUDGETS = new RegExp(`^/users/${P}/budgets(/generate)?$`);
const CREDENTIALS = new RegExp(`^(/users/${P}/members/${P}|/institutions/${P})/credentials$`);

function fail(c: ExchangeContext, location: string, rule: string, message: string, tier: Tier = 'stated'): Failure {
  return { check: CHECK, operation: c.operationKey, location, rule, severity: severityOfTier(tier, c.options.strict), tier, message };
}

/**
 * The first record of `records` lacking one of `fields` (one record shows it; one failure per
 * field). `stated` where the sentence says the records carry the field ("transactions carry
 * merchant_guid", goals "each with" their type names, budgets "each with a category_guid",
 * "Other resources also have a guid"); `inferred` where a list only names it ("Fields named:
 * ...", "Merchant fields: ...": ../shared/real-service-notes.md, Nullability).
 */
function missingFields(c: ExchangeContext, records: Rec[], fields: readonly string[], what: string, rule: string, tier: Tier = 'stated'): Failure[] {
  const out: Failure[] = [];
  for (const f of fields) {
    const r = records.find((x) => !has(x, f));
    if (r)
      out.push(
        fail(
          c,
          `response.body.${f}`,
          rule,
          `Received: ${what} ${JSON.stringify(r.guid ?? '(no guid)')} without ${f} / Expected: ${f} (null allowed)${tier === 'inferred' ? '; the specification names the field but does not say it is always present' : ''}`,
          tier,
        ),
      );
  }
  return out;
}

/**
 * The versions on which an account's *_set_by and feed_* variants are stated. Resources,
 * Account lists them ("plus *_set_by and feed_* variants") without a version; Versioning
 * lists the v20250224 changes without saying the list is complete, and the vendor's
 * v20250224 accounts carry no *_set_by and no feed_* field at all (v20111101 has 31 of
 * each: real-service-notes, Enumerations). Removing a field takes a new version
 * (Versioning, breaking), so the list holds for the version before v20250224; from
 * v20250224 on their presence is not stated and not judged.
 */
function accountVariantsStated(version: string | undefined): boolean {
  return version !== undefined && version < 'v20250224';
}

function accountFailures(c: ExchangeContext, body: unknown): Failure[] {
  const accounts = recordsOf(body, 'account', 'accounts');
  const out = missingFields(c, accounts, ['balance'], 'account', STATED_PLATFORM_RULES.accountBalance, 'inferred');
  if (accountVariantsStated(c.version)) {
    const noSetBy = accounts.find((a) => !Object.keys(a).some((k) => k.endsWith('_set_by')));
    if (noSetBy)
      out.push(
        fail(
          c,
          'response.body',
          STATED_PLATFORM_RULES.accountVariants,
          `Received: account ${JSON.stringify(noSetBy.guid ?? '(no guid)')} with no field ending in _set_by / Expected: the *_set_by variants (named, not said to be always present)`,
          'inferred',
        ),
      );
    const noFeed = accounts.find((a) => !Object.keys(a).some((k) => k.startsWith('feed_')));
    if (noFeed)
      out.push(
        fail(
          c,
          'response.body',
          STATED_PLATFORM_RULES.accountVariants,
          `Received: account ${JSON.stringify(noFeed.guid ?? '(no guid)')} with no feed_* field / Expected: the feed_* variants (named, not said to be always present)`,
          'inferred',
        ),
      );
  }
  // A manual account (is_manual true, where the answer says so) shows no feed value and no FEED source.
  for (const a of accounts.filter((x) => x.is_manual === true)) {
    const fed = Object.keys(a).filter((k) => (k.startsWith('feed_') && a[k] !== null && a[k] !== undefined) || (k.endsWith('_set_by') && a[k] === 'FEED'));
    if (fed.length) {
      out.push(
        fail(
          c,
          `response.body.${fed[0]}`,
          STATED_PLATFORM_RULES.manualNoFeed,
          `Received: manual account ${JSON.stringify(a.guid ?? '(no guid)')} with ${fed.map((k) => `${k}=${JSON.stringify(a[k])}`).join(', ')} / Expected: no data feed (feed_* null or absent, no _set_by FEED)`,
        ),
      );
      break;
    }
  }
  return out;
}

function transactionFailures(c: ExchangeContext, body: unknown): Failure[] {
  const txs = recordsOf(body, 'transaction', 'transactions');
  const out = missingFields(c, txs, ['merchant_guid', 'merchant_location_guid'], 'transaction', STATED_PLATFORM_RULES.transactionMerchant);
  const includes = includesOf(c.query);
  if (!includes.size || !txs.length) return out;
  // Where the included data sits is not shown: on each transaction or beside the list, singular or plural.
  const carried = (singular: string, plural: string) => (isRec(body) && has(body, plural)) || txs.some((t) => has(t, singular) || has(t, plural));
  const withMerchant = txs.some((t) => typeof t.merchant_guid === 'string' && t.merchant_guid !== '');
  const expected: Array<[string, string, string, boolean]> = [
    ['merchants', 'merchant', 'merchants', withMerchant],
    ['geolocations', 'geolocation', 'geolocations', withMerchant],
    ['classifications', 'classification', 'classifications', true],
    ['repeating_transactions', 'repeating_transaction', 'repeating_transactions', true],
  ];
  for (const [value, singular, plural, applies] of expected) {
    if (includes.has(value) && applies && !carried(singular, plural)) {
      out.push(
        fail(
          c,
          `response.body.${singular}`,
          STATED_PLATFORM_RULES.includes,
          `Received: includes=${value} answered without ${singular}/${plural} data (${txs.length} transactions${value === 'merchants' || value === 'geolocations' ? ', at least one with a merchant_guid' : ''}) / Expected: the ${value} the includes value returns (null where a transaction has none)`,
        ),
      );
    }
  }
  const objects = (singular: string, plural: string): Rec[] => {
    const list: unknown[] = [];
    // Loops, not push(...list): a spread passes every element as an argument, and a page
    // of a misbehaving target can hold more than the engine's argument limit.
    if (isRec(body) && Array.isArray(body[plural])) for (const x of body[plural] as unknown[]) list.push(x);
    for (const t of txs) {
      list.push(t[singular]);
      if (Array.isArray(t[plural])) for (const x of t[plural] as unknown[]) list.push(x);
    }
    return list.filter(isRec);
  };
  const merchants = includes.has('merchants')
    ? missingFields(
        c,
        objects('merchant', 'merchants'),
        ['name', 'logo_url', 'website_url'],
        'included merchant',
        STATED_PLATFORM_RULES.merchantFields,
        'inferred',
      )
    : [];
  const geolocations = includes.has('geolocations')
    ? missingFields(
        c,
        objects('geolocation', 'geolocations'),
        ['country', 'city', 'postal_code'],
        'included geolocation',
        STATED_PLATFORM_RULES.geolocationFields,
        'inferred',
      )
    : [];
  return out.concat(merchants, geolocations);
}

function insightFailures(c: ExchangeContext, body: unknown): Failure[] {
  const insights = recordsOf(body, 'insight', 'insights');
  const out = missingFields(
    c,
    insights,
    ['has_associated_repeating_transactions', 'cta_clicked_at', 'micro_call_to_action'],
    'insight',
    STATED_PLATFORM_RULES.insightFields,
    'inferred',
  );
  if (c.method === 'GET' && includesOf(c.query).has('localization_payload')) {
    // Only insights whose template the answer names and the sentence lists (the field that names it is not shown).
    const r = insights.find((i) => typeof i.template === 'string' && SUPPORTED_LOCALIZATION_TEMPLATES.has(i.template) && !has(i, 'localization_payload'));
    if (r)
      out.push(
        fail(
          c,
          'response.body.localization_payload',
          STATED_PLATFORM_RULES.localization,
          `Received: insight ${JSON.stringify(r.guid ?? '(no guid)')} (template ${r.template}) without localization_payload to ?includes=localization_payload / Expected: localization_payload`,
        ),
      );
  }
  return out;
}

/** A response of the platform whose path matches `path`. */
const at = (path: RegExp) => (c: ExchangeContext) => path.test(c.operation!.path);

/**
 * The rules of the check, one per kind of record, each with the paths it applies to (the
 * paths are disjoint: an answer is judged by one rule at most).
 */
const FIELD_RULES: readonly CheckRule<ExchangeContext>[] = [
  { name: 'account_fields', appliesTo: at(ACCOUNTS), run: (c) => accountFailures(c, c.exchange.response.body) },
  { name: 'transaction_fields', appliesTo: at(TRANSACTIONS), run: (c) => transactionFailures(c, c.exchange.response.body) },
  { name: 'insight_fields', appliesTo: at(INSIGHTS), run: (c) => insightFailures(c, c.exchange.response.body) },
  {
    name: 'goal_type_names',
    appliesTo: at(GOALS),
    run: (c) =>
      missingFields(c, recordsOf(c.exchange.response.body, 'goal', 'goals'), ['track_type_name', 'meta_type_name'], 'goal', STATED_PLATFORM_RULES.goalFields),
  },
  {
    name: 'budget_category',
    appliesTo: at(BUDGETS),
    run: (c) => missingFields(c, recordsOf(c.exchange.response.body, 'budget', 'budgets'), ['category_guid'], 'budget', STATED_PLATFORM_RULES.budgetFields),
  },
  {
    name: 'credential_guid',
    appliesTo: at(CREDENTIALS),
    run: (c) =>
      missingFields(c, recordsOf(c.exchange.response.body, 'credential', 'credentials'), ['guid'], 'credential', STATED_PLATFORM_RULES.credentialGuid),
  },
  { name: 'default_category_count', appliesTo: (c) => c.operation!.path === '/categories/default' && c.method === 'GET', run: defaultCategoryCount },
];

/** What the service does: "Default categories and subcategories exist (119 in total ...)". */
function defaultCategoryCount(c: ExchangeContext): Failure[] {
  const total = (c.exchange.response.body as Rec).pagination;
  const n = isRec(total) ? total.total_entries : undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n === 119) return [];
  return [
    fail(
      c,
      'response.body.pagination.total_entries',
      STATED_PLATFORM_RULES.defaultCategories,
      `Received: total_entries ${n} / Expected: 119 default categories`,
    ),
  ];
}

registerCheck(
  exchangeCheck({
    name: CHECK,
    description:
      'Platform records carry what the specification says they carry (account balance and its *_set_by / feed_* variants, no feed on a manual account, transaction merchant guids and what includes returns, insight fields and localization_payload, goal track/meta type names, budget category_guid, a credential guid) and the default category list counts 119',
    appliesTo: (c) => c.model.api === 'platform' && c.status >= 200 && c.status < 300 && !!c.operation && isRec(c.exchange.response.body),
    run: (c) => runRules(FIELD_RULES, c),
  }),
);
