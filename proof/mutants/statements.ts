/**
 * What the mutant generator quotes and leaves out: the Versioning sentences a mutant
 * carries, the presence a sentence states beyond the documents, the exclusions (changes the
 * specification permits, each with its reason), the conditions under which a field is
 * stated, and the product-area resources the rule tables state fields of.
 */
import { notShownOf, type OperationInfo, STATED_PLATFORM_RULES, STATED_FIELDS } from '../../contracts/index.ts';
import { PRODUCT_PATH_DEFAULTS } from '../../targets/index.ts';
import type { Exclusion, OpRef, When } from './model.ts';

export const VERSIONING_FIELD = 'Versioning: "removing or renaming a response field" is breaking';
export const VERSIONING_TYPE =
  'Versioning: "changing the meaning or type of a parameter"; "changing the structure of a response body incompatibly or the kind of data of a field" is breaking';
export const NON_BREAKING = {
  addField: 'Versioning, non-breaking: "adding response data elements"',
  reorder: 'Versioning, non-breaking: "reordering response properties"',
  opaque: 'Versioning, non-breaking: "changing length or format of opaque strings (identifiers, messages)"',
  enum: 'Versioning, non-breaking: "Enumerated response fields (for example account subtype) may gain values"',
  header: 'Versioning, non-breaking: "adding a response header"',
  other2xx:
    'Errors: the table states no success status for this operation (another 2xx is reported, never gating); ../shared/real-service-notes.md, Status codes',
  omitNull:
    'Resources: presence of this field is not stated (only a null where a type is stated is reported); ../shared/real-service-notes.md, Nullability: almost every field is nullable and objects list no required fields',
  latency:
    '../shared/real-service-notes.md, Latency: "A real integration environment answers in tens to thousands of milliseconds"; Limits name no response time',
  neverServed:
    'no sentence states that the field is always present: "Fields named: ..." is a list of names, not a presence guarantee, and absence follows the same rule as null (../shared/real-service-notes.md, Nullability and required fields); a service that never serves the field removes nothing it served',
} as const;

/**
 * Presence a sentence states beyond the documents' `required` lists, the conditions of
 * CONDITIONAL and the contract's stated presence rules (contracts/stated-fields.ts, tier
 * `stated`): a field a list only names is not among them.
 */
const PRESENCE_SENTENCES: Array<{ component?: string; field: string; statement: string }> = [
  {
    field: 'guid',
    statement: 'Resources and their fields: "Identifier shapes: USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account. Other resources also have a guid"',
  },
  {
    component: 'Member',
    field: 'id',
    statement:
      'Resources and their fields: "Clients are advised to set their own id (string) on every resource they create, to sync with their systems": a member created with an id carries it',
  },
  {
    component: 'Insight',
    field: 'cta_clicked_at',
    statement:
      'Resources, Insight: "cta_clicked_at (settable on update)"; Endpoints: PUT /users/{user_guid}/insights/{insight_guid} "(accepts cta_clicked_at)": an insight whose cta_clicked_at was set carries it',
  },
  {
    component: 'Category',
    field: 'is_default',
    statement: 'What the service does: "Default categories and subcategories exist (119 in total, each with is_default = true)"',
  },
  { component: 'Transaction', field: 'merchant_guid', statement: STATED_PLATFORM_RULES.transactionMerchant },
  { component: 'Transaction', field: 'merchant_location_guid', statement: STATED_PLATFORM_RULES.transactionMerchant },
];

/** The sentence that states a field's presence, if one does (the document's `required` and CONDITIONAL are read by the caller). */
export function presenceSentence(component: string, field: string): string | undefined {
  const rule = (STATED_FIELDS[component] ?? []).find((r) => r.tier === 'stated' && r.fields.includes(field));
  if (rule) return rule.rule;
  return PRESENCE_SENTENCES.find((p) => (p.component === undefined || p.component === component) && p.field === field)?.statement;
}

/**
 * The operation a drop-field-on-path mutant drops a field on, per component: a list where a
 * single-record read serves the field first in the scenarios, the single-record read where a
 * list (or the create answer) serves it first, so that one scenario reads the same record
 * through another operation before this one (presence consistency compares the two answers;
 * the recording baseline counts the scenarios where it does: apply.ts `observed`). A
 * component missing here takes its shortest list path (accounts: the user's list, read after
 * the member's list and the account's own read; institutions: the list, read after one
 * institution by code or guid).
 */
const ON_PATH_OP: Record<string, string> = {
  // Every member scenario reads the create answer (and polls the status) before the member's
  // own read; the user's member list comes later in few of them, and the list is never where
  // an opted-in client's use_cases or a member's metadata is read back.
  Member: 'GET /users/{user_guid}/members/{member_guid}',
  // The insight scenarios list a user's insights, then read one.
  Insight: 'GET /users/{user_guid}/insights/{insight_guid}',
};

/** The operation of `ops` (those answering one component's records) a drop-field-on-path mutant drops on. */
export function onPathOp(component: string, ops: readonly OpRef[]): OpRef | undefined {
  const distinct = [...new Set(ops)];
  if (distinct.length < 2) return undefined;
  const chosen = ON_PATH_OP[component];
  if (chosen) return distinct.find((o) => o.endsWith(`:${chosen}`));
  const gets = distinct.filter((o) => o.includes(':GET '));
  const lists = gets.filter((o) => !o.endsWith('}')).sort((a, b) => a.length - b.length);
  return lists[0] ?? gets[0];
}

/**
 * Changes the generator leaves out: the specification permits them, or states nothing a
 * client could rely on. Each is a written reason (the report prints them).
 */
export const EXCLUSIONS: Exclusion[] = [
  {
    subject: 'Transaction.is_recurring',
    family: 'drop-field',
    reason: 'Resources, Transaction: "is_recurring (ignore this field)": a client is told to ignore it, so its absence breaks nothing',
  },
  {
    subject: 'Transaction.check_number',
    family: 'drop-field',
    reason:
      'Resources, Transaction: "check_number (string)" states the type of a check payment\'s number; a transaction paid otherwise has no check, and that it then carries the field is not stated',
  },
  {
    subject: 'Account.*_set_by, Account.feed_*, Account.institution_guid, Account.calculated_apr, Account.holdings_value (from v20250224)',
    family: 'drop-field',
    reason:
      'Resources, Account: the field list has no version, and the list of v20250224 changes is not said to be complete; ../shared/real-service-notes.md, Nullability: v20250224 accounts carry no *_set_by, no feed_*, no institution_guid, calculated_apr or holdings_value',
  },
  {
    subject: 'Institution.guid, Institution.created_at, Institution.is_hidden, Institution.supported_products (v20111101)',
    family: 'drop-field',
    reason:
      'Resources, Institution names fields without versions; ../shared/real-service-notes.md, Nullability: v20111101 institutions have no guid, v20250224 adds guid, created_at, is_hidden and supported_products',
  },
  {
    subject: 'SlimAccount.*, SlimTransaction.* presence',
    family: 'drop-field',
    reason: 'Endpoints, Data exchange: "list slim accounts", "list slim transactions": a slim record is a subset whose fields are not shown',
  },
  {
    subject: 'Challenge.type (re-cased)',
    family: 'recase',
    reason:
      'Resources, Credential: "MFA challenges of type text, options, image and image_options" is a description, not a stated spelling; ../shared/real-service-notes.md, Enumerations: the reference answers TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS',
  },
  {
    subject: 'Institution.supported_products values (re-cased, replaced)',
    family: 'recase',
    reason:
      'Resources, Institution: supported_products "values such as ...": an open list, so another spelling reads as a value the field gained (Versioning: enumerated fields may gain values)',
  },
  {
    subject: 'envelope keys (accounts, members, transaction) and field names the document infers (grant issuer_guid, grantee_guids; challenge options)',
    family: 'drop-field',
    reason:
      'the specification does not show these names (spec/: x-svc-inferred "the envelope key ... is not shown", "the field name is not shown"): an answer under another name breaks no sentence; what the records carry is judged wherever they are',
  },
  {
    subject: 'a null value where a type is stated',
    family: 'retype',
    reason:
      'Resources: "string or null" is stated only for aggregated_at and successfully_aggregated_at; ../shared/real-service-notes.md, Nullability: a null where a type is stated is reported, never a failure',
  },
  {
    subject: 'fields typed by an x-svc-inferred schema (Guid, Institution.code/name, Pagination, challenge options, grant issuer/grantees)',
    family: 'retype',
    reason: 'the specification states no type for them (spec/CONVENTIONS.md: x-svc-inferred)',
  },
  {
    subject: 'deprecation and sunset header names',
    family: 'header',
    reason:
      'Versioning: "Names of the deprecation and sunset response headers: not shown": a dropped header is stated only under names the user sets (the mutant runs set SVC_DEPRECATION_HEADER=Deprecation, SVC_SUNSET_HEADER=Sunset, as a user of such a target would)',
  },
  {
    subject: 'webhook _at / _on formats',
    family: 'date-format',
    reason:
      'webhooks are requests the service sends, not answers a response proxy sees: the delivery faults of the catalogue (webhook-at-in-milliseconds, webhook-on-field-datetime) prove Events rule 1',
  },
  {
    subject: "a refusal (409) of a read whose path is neither shown nor a profile setting (the statement's JSON record)",
    family: 'status',
    reason:
      'Endpoints: "Paths and payloads of the other product areas ...: not shown"; the suite holds a target to the paths the profile names (SVC_PATH_*), and a refusal at a path it is not given breaks no sentence it can hold the target to',
  },
  {
    subject: 'Member.oauth_window_uri on non-OAuth members',
    family: 'drop-field',
    reason: 'Resources, Member: oauth_window_uri is "present for OAuth members"; nothing is stated for others',
  },
];

/** Fields whose presence a version does not state, by component (see EXCLUSIONS). */
export function presenceExcluded(component: string, field: string, version: string | undefined): boolean {
  if (component === 'Transaction' && (field === 'is_recurring' || field === 'check_number')) return true;
  if (component === 'Account' && version !== undefined && version >= 'v20250224') {
    if (/_set_by$/.test(field) || /^feed_/.test(field) || ['institution_guid', 'calculated_apr', 'holdings_value'].includes(field)) return true;
  }
  if (
    component === 'Institution' &&
    version !== undefined &&
    version < 'v20250224' &&
    ['guid', 'created_at', 'is_hidden', 'supported_products'].includes(field)
  )
    return true;
  return false;
}

/** Fields stated only under a condition the answer shows (Resources, Member; Resources, Transaction; Resources, Insight). */
export const CONDITIONAL: Record<string, Record<string, When[]>> = {
  Member: {
    oauth_window_uri: [
      { field: 'is_oauth', equals: true },
      { field: 'connection_status', equals: 'PENDING' },
    ],
  },
  MemberStatus: { challenges: [{ field: 'connection_status', equals: 'CHALLENGED' }] },
  Transaction: {
    merchants: [{ query: 'includes', has: 'merchants' }],
    geolocations: [{ query: 'includes', has: 'geolocations' }],
    classifications: [{ query: 'includes', has: 'classifications' }],
    repeating_transactions: [{ query: 'includes', has: 'repeating_transactions' }],
  },
  Insight: {
    localization_payload: [
      { query: 'includes', has: 'localization_payload' },
      { field: 'template', oneOf: ['BillAmountNotStandard', 'MonthlySubscriptionAggregateV2', 'SubscriptionPriceIncrease'] },
    ],
  },
};

/** Lists `includes` adds to transactions (Resources, Transaction). */
export const INCLUDED = new Set(['merchants', 'geolocations', 'classifications', 'repeating_transactions']);

/** Stated sets whose spelling the generator does not hold a target to (see EXCLUSIONS). */
export const RECASE_EXCLUDED = new Set(['ChallengeType', 'Product']);

/**
 * Resources the product-area rule table states fields of, whose paths the specification
 * does not show (contracts/stated-platform.ts: goals, budgets): their operations are the
 * documented defaults, their records sit in `{goal}` / `{goals: [...]}`.
 */
export const RULE_TABLE_RESOURCES = [
  {
    name: 'Goal',
    path: /^\/users\/\{[^}]+\}\/goals(\/reposition)?$/,
    singular: 'goal',
    plural: 'goals',
    fields: ['track_type_name', 'meta_type_name'],
    rule: STATED_PLATFORM_RULES.goalFields,
    section: 'What the service does',
  },
  {
    name: 'Budget',
    path: /^\/users\/\{[^}]+\}\/budgets(\/generate)?$/,
    singular: 'budget',
    plural: 'budgets',
    fields: ['category_guid'],
    rule: STATED_PLATFORM_RULES.budgetFields,
    section: 'What the service does',
  },
] as const;

/** A value of another JSON type than the stated one (the null is not one: see EXCLUSIONS). */
export function otherType(types: string[]): unknown {
  if (types.includes('string')) return 12345;
  if (types.includes('boolean')) return 'true';
  if (types.includes('integer') || types.includes('number')) return '1';
  if (types.includes('array')) return { value: 'not an array' };
  if (types.includes('object')) return 'not an object';
  return undefined;
}

/** Paths the profile names (the product areas whose paths are not shown), templates normalised. */
const PROFILE_PATHS = new Set(Object.values(PRODUCT_PATH_DEFAULTS).map((p) => String(p).replace(/\{[^}]+\}/g, '{}')));

/**
 * A product-area operation ("Paths and payloads of the other product areas ...: not shown")
 * whose path the profile does not name either: the suite has no setting that holds a target
 * to it (the paths the scenarios use without a setting, by analogy with the test host, are
 * held to).
 */
export function pathUnknown(op: OperationInfo): boolean {
  return notShownOf(op.operation).otherProductArea && !PROFILE_PATHS.has(op.path.replace(/\{[^}]+\}/g, '{}'));
}
