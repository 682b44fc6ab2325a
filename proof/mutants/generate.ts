/**
 * The response-mutant generator: every mutant derives from a statement
 * of the specification as the project encodes it, never from what the simulator does:
 *
 *   - the OpenAPI documents per version (spec/versions/, audience, test host): which
 *     component schemas each answer carries and where (contracts/records.ts), their
 *     `required` lists, stated types (a `type` outside any `x-svc-inferred` schema), stated
 *     sets (`enum`), `const`s, formats, stated success statuses, list keys and the stated
 *     page maximum;
 *   - the trace table (spec/trace.yaml): a row whose encoding points at a field, a field
 *     list, a parameter or a request body field states it; the row's quoted statement and
 *     section travel with the mutant;
 *   - the rule tables of contracts/stated-*.ts (STATED_PLATFORM_RULES, PARTNER_RULES): the
 *     fields and limits they state beyond the schemas.
 *
 * Only what a sentence states is mutated. Where a change looks like a mutant but the
 * specification permits it, the generator leaves it out and says why (`EXCLUSIONS`,
 * returned with the mutants and printed in the report). The mutants the suite must tolerate
 * come from the Versioning section's non-breaking list and the notes on what a real
 * service does where the specification is silent.
 */
import {
  loadContract,
  type ApiName,
  type Contract,
  type OperationInfo,
  responseRecords,
  type RecordSite,
  resolveRef,
  STATED_PLATFORM_RULES,
  STATED_FIELDS,
  PARTNER_RULES,
  PROCESSOR_TOKEN_LIFETIME_S,
  INVARIANT_RULES,
} from '../../contracts/index.ts';
import { loadTrace, resolveEncoding, type TraceRow } from '../../spec/trace.ts';
import { PRODUCT_PATH_DEFAULTS, seededRandom } from '../../targets/index.ts';
import {
  opRef,
  parseOpRef,
  STATED_FAMILIES,
  TOLERATED_FAMILIES,
  type Change,
  type Exclusion,
  type Family,
  type Mutant,
  type OpRef,
  type Site,
  type When,
} from './model.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---- statements --------------------------------------------------------------------

const VERSIONING_FIELD = 'Versioning: "removing or renaming a response field" is breaking';
const VERSIONING_TYPE =
  'Versioning: "changing the meaning or type of a parameter"; "changing the structure of a response body incompatibly or the kind of data of a field" is breaking';
const NON_BREAKING = {
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
function presenceSentence(component: string, field: string): string | undefined {
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
function onPathOp(component: string, ops: readonly OpRef[]): OpRef | undefined {
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
function presenceExcluded(component: string, field: string, version: string | undefined): boolean {
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
const CONDITIONAL: Record<string, Record<string, When[]>> = {
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
const INCLUDED = new Set(['merchants', 'geolocations', 'classifications', 'repeating_transactions']);

/** Stated sets whose spelling the generator does not hold a target to (see EXCLUSIONS). */
const RECASE_EXCLUDED = new Set(['ChallengeType', 'Product']);

/**
 * Resources the product-area rule table states fields of, whose paths the specification
 * does not show (contracts/stated-platform.ts: goals, budgets): their operations are the
 * documented defaults, their records sit in `{goal}` / `{goals: [...]}`.
 */
const RULE_TABLE_RESOURCES = [
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

// ---- reading the documents ------------------------------------------------------------

interface DocSite extends RecordSite {
  api: ApiName;
  version?: string;
  op: OperationInfo;
  status: number;
}

interface Docs {
  contract: Contract;
  /** platform versions, oldest first. */
  versions: string[];
  /** Every 2xx JSON answer's record sites. */
  sites: DocSite[];
  /** Every 2xx JSON answer's const sites. */
  consts: Array<{ api: ApiName; version?: string; op: OperationInfo; status: number; path: readonly string[]; value: unknown }>;
  /** Every operation of every document. */
  ops: Array<{ api: ApiName; version?: string; op: OperationInfo }>;
}

function readDocs(contract: Contract): Docs {
  const out: Docs = { contract, versions: contract.versions, sites: [], consts: [], ops: [] };
  const docs: Array<{ api: ApiName; version?: string }> = [
    ...contract.versions.map((v) => ({ api: 'platform' as const, version: v })),
    { api: 'audience' },
    { api: 'test-host' },
  ];
  for (const d of docs) {
    for (const op of contract.model(d.api, d.version).operations) {
      out.ops.push({ ...d, op });
      if (op.sunset) continue;
      for (const [status, r] of op.responses) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const m of r.media) {
          if (!m.isJson || !m.schemaUri || m.schemaPointer === undefined) continue;
          const rec = responseRecords(m.schemaUri, m.schemaPointer);
          for (const s of rec.records) out.sites.push({ ...s, ...d, op, status: Number(status) });
          for (const c of rec.consts) out.consts.push({ ...d, op, status: Number(status), path: c.path, value: c.value });
        }
      }
    }
  }
  return out;
}

/** The component schema of a document (platform: per version). */
function componentSchema(contract: Contract, api: ApiName, version: string | undefined, name: string): Obj | undefined {
  const doc = contract.document(api, version) as unknown as { components?: { schemas?: Record<string, unknown> } };
  const s = doc.components?.schemas?.[name];
  return isObj(s) ? s : undefined;
}

/** A schema with its `$ref`s followed (one chain) inside the document of a version. */
function deref(contract: Contract, api: ApiName, version: string | undefined, node: unknown): { node: Obj; component?: string; inferred: boolean } | undefined {
  let n = node;
  let component: string | undefined;
  let inferred = false;
  for (let hops = 0; hops < 8 && isObj(n); hops++) {
    if (typeof n['x-svc-inferred'] === 'string') inferred = true;
    if (typeof n.$ref !== 'string') return { node: n, component, inferred };
    const m = /^#\/components\/schemas\/([^/]+)$/.exec(n.$ref);
    if (!m) return undefined;
    component = m[1];
    n = componentSchema(contract, api, version, m[1]);
  }
  return undefined;
}

/** Fields of a component's records in one document: direct and nested inline properties (never through a `$ref`), with `required` paths. */
interface FieldInfo {
  path: string[];
  schema: Obj;
  required: boolean;
  /** `x-svc-inferred` on the way (the type is not stated). */
  inferred: boolean;
}

function fieldsOf(contract: Contract, api: ApiName, version: string | undefined, component: string): FieldInfo[] {
  const root = componentSchema(contract, api, version, component);
  if (!root) return [];
  const out: FieldInfo[] = [];
  const visit = (s: Obj, prefix: string[], inferredAbove: boolean, depth: number) => {
    if (depth > 4) return;
    const inferredHere = inferredAbove || typeof s['x-svc-inferred'] === 'string';
    const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props = isObj(s.properties) ? s.properties : {};
    for (const [k, raw] of Object.entries(props)) {
      if (!isObj(raw)) continue;
      const inferred = inferredHere || typeof raw['x-svc-inferred'] === 'string';
      out.push({ path: [...prefix, k], schema: raw, required: req.has(k), inferred });
      // Inline objects and arrays of inline objects: their own fields (widget_url.type, options[*].guid).
      if (typeof raw.$ref !== 'string') {
        if (isObj(raw.properties)) visit(raw, [...prefix, k], inferred, depth + 1);
        if (isObj(raw.items) && typeof raw.items.$ref !== 'string' && isObj(raw.items.properties))
          visit(raw.items, [...prefix, k, '*'], inferred || typeof raw.items['x-svc-inferred'] === 'string', depth + 1);
      }
    }
    for (const sub of (Array.isArray(s.allOf) ? s.allOf : []) as unknown[])
      if (isObj(sub) && typeof sub.$ref !== 'string') visit(sub, prefix, inferredHere, depth + 1);
  };
  visit(root, [], false, 0);
  return out;
}

// ---- the trace table: which row states which field ------------------------------------

/** Pointers of the rows into component schemas: `Member` -> [{pointer under it, row}]. */
function componentPointers(rows: TraceRow[]): Map<string, Array<{ rest: string[]; row: TraceRow }>> {
  const out = new Map<string, Array<{ rest: string[]; row: TraceRow }>>();
  for (const row of rows) {
    if (row.not_shown) continue;
    for (const ref of row.encoded_in) {
      const m = /#\/components\/schemas\/([^/]+)(\/.*)?$/.exec(ref);
      if (!m) continue;
      const rest = (m[2] ?? '')
        .split('/')
        .filter(Boolean)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      let list = out.get(m[1]);
      if (!list) out.set(m[1], (list = []));
      list.push({ rest, row });
    }
  }
  return out;
}

/** A schema pointer's rest (`properties/options/items/properties/guid/x-svc-required-from`) as a field path (`options.*.guid`), or 'list' for `properties`, 'required', 'patternProperties'. */
function fieldPathOf(rest: string[]): { path?: string[]; whole?: 'properties' | 'required' | 'patternProperties' } {
  if (rest.length === 1 && (rest[0] === 'properties' || rest[0] === 'required' || rest[0] === 'patternProperties')) return { whole: rest[0] as 'properties' };
  const path: string[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] === 'properties' && i + 1 < rest.length) {
      path.push(rest[i + 1]);
      i += 2;
      continue;
    }
    if (rest[i] === 'items') {
      path.push('*');
      i += 1;
      continue;
    }
    if (rest[i] === 'allOf' && i + 1 < rest.length) {
      i += 2;
      continue;
    }
    break;
  }
  // A trailing '*' names the array itself.
  while (path.at(-1) === '*') path.pop();
  return path.length ? { path } : {};
}

const key = (p: readonly string[]) => p.join('.');

/**
 * The stated fields of a component in one document: a `required` entry (the documents
 * require only what a statement makes present), or a field a trace row names (one field,
 * or the component's whole field list), with the row that states it.
 */
interface StatedField {
  path: string[];
  rows: TraceRow[];
  fromRequired: boolean;
  /** A row points at this field itself (not only at the component or its field list). */
  specific: boolean;
  info?: FieldInfo;
}

function statedFields(
  contract: Contract,
  api: ApiName,
  version: string | undefined,
  component: string,
  pointers: Map<string, Array<{ rest: string[]; row: TraceRow }>>,
): Map<string, StatedField> {
  const fields = fieldsOf(contract, api, version, component);
  const byKey = new Map(fields.map((f) => [key(f.path), f]));
  const out = new Map<string, StatedField>();
  const add = (path: string[], row: TraceRow | undefined, fromRequired: boolean, specific = false) => {
    const k = key(path);
    let e = out.get(k);
    if (!e) out.set(k, (e = { path, rows: [], fromRequired, specific, info: byKey.get(k) }));
    if (row && !e.rows.includes(row)) e.rows.push(row);
    e.fromRequired ||= fromRequired;
    e.specific ||= specific;
  };
  const rows = pointers.get(component) ?? [];
  for (const f of fields) if (f.required) add(f.path, undefined, true);
  for (const { rest, row } of rows) {
    const p = fieldPathOf(rest);
    if (p.whole === 'properties') for (const f of fields.filter((x) => x.path.length === 1)) add(f.path, row, false);
    else if (p.whole === 'required') for (const f of fields.filter((x) => x.required)) add(f.path, row, true);
    else if (p.path && byKey.has(key(p.path))) add(p.path, row, false, true);
  }
  // A required field with no row of its own: the rows that encode the component (or its list) state it.
  for (const e of out.values()) {
    if (e.rows.length) continue;
    const nearest = rows
      .map(({ rest, row }) => ({ row, p: fieldPathOf(rest) }))
      .filter(({ p }) => p.whole || (p.path && key(e.path).startsWith(key(p.path))))
      .map(({ row }) => row);
    e.rows.push(...nearest);
  }
  return out;
}

// ---- helpers ------------------------------------------------------------------------

/** Mutants of one subject across versions: the same change in every version where it applies. */
class Builder {
  readonly mutants = new Map<string, Mutant>();

  add(m: Omit<Mutant, 'ops' | 'versions'> & { ops?: OpRef[] }, version: string | undefined, sites: Site[] = []): void {
    const existing = this.mutants.get(m.id);
    const ops = [...new Set([...(m.ops ?? []), ...sites.map((s) => s.op)])];
    if (!existing) {
      const change = m.change.kind === 'field' ? { ...m.change, sites: [...m.change.sites, ...sites] } : m.change;
      this.mutants.set(m.id, { ...m, change, ops, ...(version ? { versions: [version] } : {}) });
      return;
    }
    if (version && existing.versions && !existing.versions.includes(version)) existing.versions.push(version);
    for (const o of ops) if (!existing.ops.includes(o)) existing.ops.push(o);
    if (existing.change.kind === 'field') {
      for (const s of sites) if (!existing.change.sites.some((x) => x.op === s.op && key(x.path) === key(s.path))) existing.change.sites.push(s);
      const more = m.change.kind === 'field' ? (m.change.witnesses ?? []) : [];
      if (more.length) {
        const witnesses = (existing.change.witnesses ??= []);
        for (const s of more) if (!witnesses.some((x) => x.op === s.op && key(x.path) === key(s.path))) witnesses.push(s);
      }
    }
    for (const r of m.rows) if (!existing.rows.includes(r)) existing.rows.push(r);
  }

  /** Mutants that apply in every version collapse to "every version". */
  done(allVersions: string[]): Mutant[] {
    return [...this.mutants.values()].map((m) => {
      if (m.versions && allVersions.every((v) => m.versions!.includes(v))) {
        const { versions: _all, ...rest } = m;
        return rest;
      }
      return m.versions ? { ...m, versions: [...m.versions].sort() } : m;
    });
  }
}

const quote = (rows: TraceRow[], fallback: string) => (rows.length ? rows.map((r) => r.statement).join('; ') : fallback);
const sectionOf = (rows: TraceRow[], fallback: string) => rows[0]?.section ?? fallback;

/** A value of another JSON type than the stated one (the null is not one: see EXCLUSIONS). */
function otherType(types: string[]): unknown {
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
function pathUnknown(op: OperationInfo): boolean {
  const notShown = (op.operation as unknown as Record<string, unknown>)['x-svc-not-shown'];
  return typeof notShown === 'string' && /other product areas/.test(notShown) && !PROFILE_PATHS.has(op.path.replace(/\{[^}]+\}/g, '{}'));
}

// ---- the generator ------------------------------------------------------------------

export interface GeneratedMutants {
  mutants: Mutant[];
  exclusions: Exclusion[];
}

export function generateMutants(o: { contract?: Contract; rows?: TraceRow[] } = {}): GeneratedMutants {
  const contract = o.contract ?? loadContract();
  const rows = o.rows ?? loadTrace();
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const row = (id: string) => rowById.get(id);
  const rowsOf = (...ids: string[]) => ids.map(row).filter((r): r is TraceRow => !!r);
  const docs = readDocs(contract);
  const pointers = componentPointers(rows);
  const b = new Builder();

  // Sites by component and version.
  const siteIndex = new Map<string, DocSite[]>();
  for (const s of docs.sites) {
    const k = `${s.api}|${s.version ?? ''}|${s.component}`;
    let list = siteIndex.get(k);
    if (!list) siteIndex.set(k, (list = []));
    list.push(s);
  }
  const toSites = (list: DocSite[]): Site[] => {
    const seen = new Set<string>();
    const out: Site[] = [];
    const push = (site: Site) => {
      const k = `${site.op}|${key(site.path)}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(site);
      }
    };
    for (const s of list) {
      const site = { op: opRef(s.api, s.op.key), path: [...s.path] };
      push(site);
      // Resources, Transaction: where included data sits (singular on each transaction, or
      // beside the list) is not shown (contracts/stated-platform.ts reads it the same way).
      const at = site.path.findIndex((x, i) => INCLUDED.has(x) && site.path[i + 1] === '*');
      if (at > 0) {
        push({ op: site.op, path: [...site.path.slice(0, at), site.path[at].replace(/s$/, '')] });
        push({ op: site.op, path: site.path.slice(at) });
      }
    }
    return out;
  };

  // Slim records (data exchange) sit where their full component is also recorded (allOf): presence is not stated there.
  const slimAt = new Set(docs.sites.filter((x) => x.component.startsWith('Slim')).map((x) => `${opRef(x.api, x.op.key)}|${key(x.path)}`));
  const notSlim = (list: Site[]) =>
    list.filter(
      (x) =>
        ![...slimAt].some((k) => {
          const [op, p] = k.split('|');
          return op === x.op && (key(x.path) === p || key(x.path).startsWith(`${p}.`));
        }),
    );

  /**
   * A field a list only names: a service that never serves it is tolerated (never-served:
   * every answer, every record); one that serves it on some operations and not on another
   * is killed (drop-field-on-path: presence consistency sees a record served with the field
   * on one answer and without it on another, Versioning: "removing or renaming a response
   * field" is breaking).
   */
  const documented = new Set(docs.sites.map((x) => `${opRef(x.api, x.op.key)}|${key(x.path)}`));
  const namedOnly = (
    subject: string,
    component: string,
    statement: string,
    section: string,
    rowIds: string[],
    field: string[],
    action: Extract<Change, { kind: 'field' }>['action'],
    version: string | undefined,
    dropSites: Site[],
  ) => {
    // Presence consistency reads records where the document puts them (contracts/records.ts):
    // the one-operation drop and what keeps serving the field are taken there only, never at the
    // placements of included data the generator also tries (a singular `merchant`, a list
    // beside the transactions), which the comparison does not read.
    const onDocumented = dropSites.filter((x) => documented.has(`${x.op}|${key(x.path)}`));
    b.add(
      {
        id: `never-served:${subject}`,
        family: 'never-served',
        expect: 'tolerated',
        statement: `${statement}: ${NON_BREAKING.neverServed}`,
        section,
        rows: rowIds,
        change: { kind: 'field', sites: [], field, action },
      },
      version,
      dropSites,
    );
    const op = onPathOp(
      component,
      onDocumented.map((x) => x.op),
    );
    if (!op) return;
    b.add(
      {
        id: `drop-field-on-path:${subject}`,
        family: 'drop-field-on-path',
        expect: 'killed',
        statement: `${statement}; the field left out on ${parseOpRef(op).key} while the other operations that answer the same record serve it: ${INVARIANT_RULES.presence}`,
        section,
        rows: [...rowIds, ...['ver.breaking.5'].filter((id) => rowById.has(id) && !rowIds.includes(id))],
        change: { kind: 'field', sites: [], field, action, witnesses: onDocumented.filter((x) => x.op !== op) },
      },
      version,
      onDocumented.filter((x) => x.op === op),
    );
  };

  // 1. Fields of resources: drop, retype, recase, replace, date format, identifier prefix.
  for (const [k, list] of siteIndex) {
    const [api, versionRaw, component] = k.split('|') as [ApiName, string, string];
    const version = versionRaw || undefined;
    const sites = toSites(list);
    const slim = component.startsWith('Slim');
    const stated = statedFields(contract, api, version, component, pointers);
    for (const f of stated.values()) {
      const subject = `${component}.${key(f.path).replace(/\.\*/g, '[*]')}`;
      const fieldRows = f.rows;
      const statement = quote(fieldRows, `spec/ requires it (${api} document, #/components/schemas/${component}/required)`);
      const section = sectionOf(fieldRows, 'Resources and their fields');
      const rowIds = fieldRows.map((r) => r.id);
      const path = f.path;
      // The record path of a nested field: the site path plus the field's parents.
      const recordSites = path.length > 1 ? sites.map((s) => ({ op: s.op, path: [...s.path, ...path.slice(0, -1)] })) : sites;
      let field = [path[path.length - 1]];
      const when = CONDITIONAL[component]?.[key(path)];
      // An included list (includes=merchants, ...): singular on each transaction, plural, or beside the list.
      const included = component === 'Transaction' && INCLUDED.has(key(path));
      if (included) field = [];
      // drop-field: presence (not on slim records, not where a version does not state it, not
      // under a name the specification does not show: an envelope key or a field name the
      // document infers, unless a row names that very field).
      const ownInferred = typeof f.info?.schema['x-svc-inferred'] === 'string' ? (f.info.schema['x-svc-inferred'] as string) : '';
      const rootInferred = typeof componentSchema(contract, api, version, component)?.['x-svc-inferred'] === 'string';
      const nameInferred = /field name is not shown|neither the field name/.test(ownInferred) || (rootInferred && !f.specific);
      if (!slim && !nameInferred && !presenceExcluded(component, key(path), version)) {
        const action = included ? { op: 'drop-matching' as const, pattern: `^${key(path).replace(/s$/, '')}s?$` } : { op: 'drop' as const };
        const dropSites = notSlim(included ? [...recordSites, ...[...new Set(recordSites.map((x) => x.op))].map((op) => ({ op, path: [] }))] : recordSites);
        // Presence stated: a `required` entry (the documents require only what a sentence makes
        // present), a condition that states it (CONDITIONAL, includes), or a sentence.
        const sentence = f.fromRequired || when || included ? undefined : presenceSentence(component, key(path));
        if (f.fromRequired || when || included || sentence) {
          b.add(
            {
              id: `drop-field:${subject}`,
              family: 'drop-field',
              expect: 'killed',
              statement: `${sentence ? `${sentence}; ` : ''}${statement}; ${VERSIONING_FIELD}`,
              section: sentence ? 'Resources and their fields' : section,
              rows: rowIds,
              change: { kind: 'field', sites: [], field, action, ...(when ? { when } : {}) },
            },
            version,
            dropSites,
          );
        } else {
          namedOnly(subject, component, statement, section, rowIds, field, action, version, dropSites);
        }
      }
      const info = f.info;
      if (!info || included) continue;
      const d = deref(contract, api, version, info.schema);
      if (!d) continue;
      // retype: a stated type (no x-svc-inferred on the way).
      const types = Array.isArray(d.node.type) ? (d.node.type as string[]) : typeof d.node.type === 'string' ? [d.node.type as string] : [];
      if (types.length && !info.inferred && !d.inferred) {
        const value = otherType(types);
        if (value !== undefined) {
          b.add(
            {
              id: `retype:${subject}`,
              family: 'retype',
              expect: 'killed',
              statement: `${statement} (type ${types.filter((t) => t !== 'null').join(' or ')}); ${VERSIONING_TYPE}`,
              section,
              rows: rowIds,
              change: { kind: 'field', sites: [], field, action: { op: 'set', value }, ...(when ? { when } : {}) },
            },
            version,
            recordSites,
          );
        }
      }
      // Stated sets: re-cased (stated), a new value (tolerated).
      const enumValues = Array.isArray(d.node.enum) ? (d.node.enum as unknown[]).filter((v): v is string => typeof v === 'string') : [];
      if (enumValues.length && d.component) {
        // A value the set gains where no statement fixes the value: a connection_status while the
        // member aggregates (States and transitions: "other transitions not shown"; the reference
        // has 23 values), any value elsewhere.
        const isState = d.component === 'ConnectionStatus';
        const values = isState
          ? { PENDING: 'MUTANT_SYNCING', CONNECTED: 'MUTANT_SYNCING' }
          : Object.fromEntries(enumValues.map((v) => [v, `MUTANT_NEW_${v.toUpperCase()}`]));
        b.add(
          {
            id: `new-enum-value:${subject}`,
            family: 'new-enum-value',
            expect: 'tolerated',
            statement: isState
              ? `${NON_BREAKING.enum}; States and transitions: "Transitions between member connection statuses other than those in the table: not shown" (a value while the member aggregates)`
              : NON_BREAKING.enum,
            section: 'Versioning',
            rows: ['ver.non-breaking.10'].filter((id) => rowById.has(id)),
            change: {
              kind: 'field',
              sites: [],
              field,
              action: { op: 'map', values },
              ...(isState ? { when: [{ field: 'is_being_aggregated', equals: true }] } : {}),
            },
          },
          version,
          recordSites,
        );
      }
      // Stated formats of dates.
      const format = typeof d.node.format === 'string' ? d.node.format : undefined;
      if ((format === 'date' || format === 'date-time') && !d.inferred) {
        b.add(
          {
            id: `date-format:${subject}`,
            family: 'date-format',
            expect: 'killed',
            statement: `${statement} (format ${format})`,
            section,
            rows: rowIds,
            change: { kind: 'field', sites: [], field, action: { op: 'date', to: format === 'date' ? 'date-time' : 'date' } },
          },
          version,
          recordSites,
        );
      }
      // Array of a stated set: a new value appended (tolerated).
      if (types.includes('array') && isObj(d.node.items)) {
        const item = deref(contract, api, version, d.node.items);
        if (item && Array.isArray(item.node.enum)) {
          b.add(
            {
              id: `new-enum-value:${subject}`,
              family: 'new-enum-value',
              expect: 'tolerated',
              statement: NON_BREAKING.enum,
              section: 'Versioning',
              rows: ['ver.non-breaking.10'].filter((id) => rowById.has(id)),
              change: { kind: 'field', sites: [], field, action: { op: 'append-enum', value: 'mutant_new_value' } },
            },
            version,
            recordSites,
          );
        }
      }
    }
    // Stated sets wherever a field takes one (stated or not, the field's value must be spelt as stated): re-cased.
    for (const info of fieldsOf(contract, api, version, component)) {
      const d = deref(contract, api, version, info.schema);
      if (!d?.component || !Array.isArray(d.node.enum) || RECASE_EXCLUDED.has(d.component)) continue;
      const setRows = (pointers.get(d.component) ?? []).map((p) => p.row);
      if (!setRows.length) continue;
      const subject = `${component}.${key(info.path).replace(/\.\*/g, '[*]')}`;
      const recordSites = info.path.length > 1 ? sites.map((s) => ({ op: s.op, path: [...s.path, ...info.path.slice(0, -1)] })) : sites;
      b.add(
        {
          id: `recase:${subject}`,
          family: 'recase',
          expect: 'killed',
          statement: `${quote(setRows, d.component)}; a value differing from a stated one only by case is not a new value (a client comparing with the stated spelling no longer recognises it)`,
          section: sectionOf(setRows, 'Resources and their fields'),
          rows: setRows.map((r) => r.id),
          change: { kind: 'field', sites: [], field: [info.path[info.path.length - 1]], action: { op: 'recase' } },
        },
        version,
        recordSites,
      );
    }
    // Pattern fields of a component (Account: `_set_by$`, and the feed_* variants of the rule table).
    if (component === 'Account' && !(version && version >= 'v20250224')) {
      const variantRows = rowsOf('res.account.set-by-feed');
      for (const [name, pattern] of [
        ['*_set_by', '_set_by$'],
        ['feed_*', '^feed_'],
      ] as const) {
        // "plus *_set_by and feed_* variants" names them, like the rest of the field list.
        namedOnly(
          `Account.${name}`,
          component,
          STATED_PLATFORM_RULES.accountVariants,
          'Resources and their fields',
          variantRows.map((r) => r.id),
          [],
          { op: 'drop-matching', pattern },
          version,
          notSlim(sites),
        );
      }
    }
    if (component === 'Account') {
      b.add(
        {
          id: 'recase:Account.*_set_by',
          family: 'recase',
          expect: 'killed',
          statement: `${
            rowsOf('res.set-by')
              .map((r) => r.statement)
              .join('; ') || 'A field ending in _set_by names the source: FEED, USER or SYSTEM'
          }; a value differing from a stated one only by case is not a new value`,
          section: 'Resources and their fields',
          rows: rowsOf('res.set-by').map((r) => r.id),
          change: { kind: 'field', sites: [], field: ['_set_by$'], action: { op: 'recase' } },
        },
        version,
        sites,
      );
      b.add(
        {
          id: 'new-enum-value:Account.*_set_by',
          family: 'new-enum-value',
          expect: 'tolerated',
          statement: NON_BREAKING.enum,
          section: 'Versioning',
          rows: ['ver.non-breaking.10'].filter((id) => rowById.has(id)),
          change: { kind: 'field', sites: [], field: ['_set_by$'], action: { op: 'map', values: { USER: 'MUTANT_NEW_SOURCE', SYSTEM: 'MUTANT_NEW_SOURCE' } } },
        },
        version,
        sites,
      );
    }
  }

  // Conditional presence the rule tables state (includes, localization) rides on CONDITIONAL above;
  // product-area resources whose paths are not shown (goals, budgets):
  for (const res of RULE_TABLE_RESOURCES) {
    for (const d of docs.ops.filter((x) => x.api === 'platform' && res.path.test(x.op.path) && ['GET', 'POST', 'PUT'].includes(x.op.method))) {
      const sites: Site[] = [
        { op: opRef('platform', d.op.key), path: [res.singular] },
        { op: opRef('platform', d.op.key), path: [res.plural, '*'] },
      ];
      for (const f of res.fields) {
        b.add(
          {
            id: `drop-field:${res.name}.${f}`,
            family: 'drop-field',
            expect: 'killed',
            statement: `${res.rule}; ${VERSIONING_FIELD}`,
            section: res.section,
            rows: rowsOf('wsd.budgets-goals').map((r) => r.id),
            change: { kind: 'field', sites: [], field: [f], action: { op: 'drop' } },
          },
          d.version,
          sites,
        );
      }
    }
  }

  // Partner areas the rule tables state (contracts/stated-partners.ts): fields at the top level or one wrapper down.
  const partner = (opKey: string, fields: string[], rule: string, section: string, rowIds: string[]) => {
    for (const d of docs.ops.filter((x) => x.api === 'platform' && x.op.key === opKey)) {
      for (const f of fields) {
        b.add(
          {
            id: `drop-field:${opKey.replace(/^\w+ /, '')}.${f}`,
            family: 'drop-field',
            expect: 'killed',
            statement: rule,
            section,
            rows: rowIds,
            change: { kind: 'field', sites: [], field: [f], action: { op: 'drop' } },
          },
          d.version,
          [{ op: opRef('platform', d.op.key), path: ['?'] }],
        );
      }
    }
  };
  // contracts/stated-platform.ts: a credential (institution or member) carries a guid ("Other resources also have a guid").
  for (const d of docs.sites.filter((x) => x.component === 'Credential')) {
    b.add(
      {
        id: 'drop-field:Credential.guid',
        family: 'drop-field',
        expect: 'killed',
        statement: `${STATED_PLATFORM_RULES.credentialGuid}; ${VERSIONING_FIELD}`,
        section: 'Resources and their fields',
        rows: rowsOf('res.other-guid').map((r) => r.id),
        change: { kind: 'field', sites: [], field: ['guid'], action: { op: 'drop' } },
      },
      d.version,
      [{ op: opRef(d.api, d.op.key), path: [...d.path] }],
    );
  }
  // Endpoints, earlier-generation test paths: GET|PUT /users/test_svc/members/{connection_status} "returns a member in that status".
  const byStatus = [
    ...new Set(
      docs.ops.filter((d) => d.api === 'test-host' && d.op.path.includes('{connection_status}') && d.op.method !== 'POST').map((d) => opRef(d.api, d.op.key)),
    ),
  ];
  const testRows = rowsOf('ep.test.connection-status');
  b.add(
    {
      id: 'replace-value:test host member by connection status',
      family: 'replace-value',
      expect: 'killed',
      statement: quote(testRows, 'GET|PUT /users/test_svc/members/{connection_status} (returns a member in that status)'),
      section: 'Endpoints',
      rows: testRows.map((r) => r.id),
      change: {
        kind: 'field',
        sites: [],
        field: ['connection_status'],
        action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'CONNECTED', CHALLENGED: 'CONNECTED', PENDING: 'CONNECTED' } },
      },
    },
    undefined,
    byStatus.map((op) => ({ op, path: ['?'] })),
  );
  partner(
    'GET /payment_account',
    ['user_guid', 'member_guid', 'account_guid'],
    PARTNER_RULES.paymentAccount,
    'Endpoints',
    rowsOf('ep.other.payment-account').map((r) => r.id),
  );
  partner(
    'POST /ach_returns',
    ['guid'],
    PARTNER_RULES.achReturn,
    'Resources and their fields',
    rowsOf('res.ach.response').map((r) => r.id),
  );
  for (const d of docs.ops.filter((x) => x.api === 'platform' && x.op.key === 'POST /authorization_code')) {
    b.add(
      {
        id: 'drop-field:/authorization_code.(the code)',
        family: 'drop-field',
        expect: 'killed',
        statement: PARTNER_RULES.authorizationCode,
        section: 'Endpoints',
        rows: rowsOf('ep.authcode.response').map((r) => r.id),
        ops: [opRef('platform', d.op.key)],
        change: { kind: 'body', ops: [opRef('platform', d.op.key)], body: {} },
      },
      d.version,
    );
  }

  // 2. Identifier shapes (Resources: "USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account").
  const idRows = rowsOf('res.id-shapes', 'res.member.guid');
  for (const [prefix, to] of [
    ['USR-', 'USER-'],
    ['MBR-', 'MEM-'],
    ['ACT-', 'ACC-'],
  ] as const) {
    b.add(
      {
        id: `id-prefix:${prefix}`,
        family: 'id-prefix',
        expect: 'killed',
        statement: quote(idRows, 'Identifier shapes: USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account'),
        section: 'Resources and their fields',
        rows: idRows.map((r) => r.id),
        ops: [],
        change: { kind: 'ids', action: 'prefix', prefix, to },
      },
      undefined,
    );
  }

  // 3. Stated sets whose value a statement fixes: connection_status after the test institution's scenarios, OAuth create.
  const stateRows = rowsOf('states.values', 'states.oauth-create', 'states.test-success', 'states.test-denied', 'states.test-halted');
  const memberSites = [...docs.sites.filter((s) => s.component === 'Member' || s.component === 'MemberStatus')];
  const rotation = { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED', PENDING: 'CONNECTED', CHALLENGED: 'CONNECTED' };
  for (const v of docs.versions) {
    b.add(
      {
        id: 'replace-value:Member.connection_status',
        family: 'replace-value',
        expect: 'killed',
        statement: quote(stateRows, 'States and transitions'),
        section: 'States and transitions',
        rows: stateRows.map((r) => r.id),
        change: { kind: 'field', sites: [], field: ['connection_status'], action: { op: 'map', values: rotation } },
      },
      v,
      toSites(memberSites.filter((s) => s.version === v)),
    );
  }
  // consts: categories[*].is_default true, slim transactions is_manual false.
  for (const c of docs.consts) {
    if (typeof c.value !== 'boolean' && typeof c.value !== 'string') continue;
    const field = c.path[c.path.length - 1];
    const subject = `${c.op.key} ${c.path.join('.').replace(/\.\*/g, '[*]')}`;
    const constRows = rows.filter((r) =>
      r.encoded_in.some((e) => new RegExp(`/${field}/const$`).test(e) || (field === 'is_default' && /Category\/properties\/is_default/.test(e))),
    );
    b.add(
      {
        id: `replace-value:${subject}`,
        family: 'replace-value',
        expect: 'killed',
        statement: quote(constRows, `the document states ${field} = ${JSON.stringify(c.value)}`),
        section: sectionOf(constRows, 'Limits'),
        rows: constRows.map((r) => r.id),
        change: { kind: 'field', sites: [], field: [field], action: { op: 'set', value: typeof c.value === 'boolean' ? !c.value : `${c.value}-mutant` } },
      },
      c.version,
      [{ op: opRef(c.api, c.op.key), path: [...c.path.slice(0, -1)] }],
    );
  }

  // 4. Statuses: every stated success status -> another 2xx, or another row's refusal (409).
  const statusRows = (op: OperationInfo, status: string) =>
    rows.filter(
      (r) => r.section === 'Errors' && r.encoded_in.some((e) => e.includes(`${op.path.replace(/\//g, '~1')}/${op.method.toLowerCase()}/responses/${status}`)),
    );
  for (const d of docs.ops) {
    if (d.op.sunset) continue;
    for (const s of d.op.statedSuccessStatuses) {
      if (!/^2\d\d$/.test(s)) continue;
      const n = Number(s);
      const sRows = statusRows(d.op, s).length ? statusRows(d.op, s) : rowsOf('err.200');
      const statement = quote(sRows, `Errors: ${s}`);
      const ref = opRef(d.api, d.op.key);
      if (d.api !== 'platform') continue; // the audience and test-host documents state no success status by the Errors table
      // Another 2xx the operation does not document (a documented one, stated or not, is the
      // operation's own: create member's 200 and 202 beside the stated 201 on v20250224).
      const other = [200, 201, 202, 203].find((x) => x !== n && !d.op.successStatuses.includes(String(x)))!;
      b.add(
        {
          id: `status:${d.op.key} ${n}->other 2xx`,
          family: 'status',
          expect: 'killed',
          statement: `${statement}; ${d.op.key} answers ${n}`,
          section: 'Errors',
          rows: sRows.map((r) => r.id),
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [n], to: other },
        },
        d.version,
      );
      // A refusal is held against a read only where the suite knows the target serves it: a
      // path the specification shows, or one the profile names (PRODUCT_PATH_DEFAULTS).
      if (pathUnknown(d.op)) continue;
      b.add(
        {
          id: `status:${d.op.key} ${n}->409`,
          family: 'status',
          expect: 'killed',
          statement: `${statement}; 409 is the Errors table's answer to identify while another aggregation-type job runs`,
          section: 'Errors',
          rows: sRows.map((r) => r.id),
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [n], to: 409 },
        },
        d.version,
      );
    }
    // Another 2xx where none is stated (tolerated): 200 <-> 202, keeping the body.
    if (d.op.successStatuses.length && !d.op.statedSuccessStatuses.length && !d.op.sunset) {
      const ref = opRef(d.api, d.op.key);
      b.add(
        {
          id: 'other-2xx:where no success status is stated',
          family: 'other-2xx',
          expect: 'tolerated',
          statement: NON_BREAKING.other2xx,
          section: 'Errors',
          rows: [],
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [200, 201, 202], to: 203 },
        },
        undefined,
      );
    }
  }
  // The identify rows: 202 while an identification runs <-> 409 while another job runs.
  const identify = opRef('platform', 'POST /users/{user_guid}/members/{member_guid}/identify');
  b.add(
    {
      id: 'status:identify 409->202',
      family: 'status',
      expect: 'killed',
      statement: quote(rowsOf('ep.member.identify-409', 'err.409-identify'), 'identify while another aggregation-type job runs: 409'),
      section: 'Errors',
      rows: ['ep.member.identify-409', 'err.409-identify'].filter((id) => rowById.has(id)),
      ops: [identify],
      change: { kind: 'status', ops: [identify], from: [409], to: 202 },
    },
    undefined,
  );
  b.add(
    {
      id: 'status:identify 202->409',
      family: 'status',
      expect: 'killed',
      statement: quote(rowsOf('ep.member.identify-202', 'err.202-identify'), 'identify while an identification runs: 202'),
      section: 'Errors',
      rows: ['ep.member.identify-202', 'err.202-identify'].filter((id) => rowById.has(id)),
      ops: [identify],
      change: { kind: 'status', ops: [identify], from: [202], to: 409 },
    },
    undefined,
  );

  // 5. Stated refusals answered as successes.
  const refusal = (id: string, rowIds: string[], opKeys: (o: OperationInfo, api: ApiName) => boolean, from: number[], fallback: string, section: string) => {
    const ops = [...new Set(docs.ops.filter((d) => opKeys(d.op, d.api)).map((d) => opRef(d.api, d.op.key)))];
    const rr = rowsOf(...rowIds);
    b.add(
      {
        id: `refusal-served:${id}`,
        family: 'refusal-served',
        expect: 'killed',
        statement: quote(rr, fallback),
        section,
        rows: rr.map((r) => r.id),
        ops,
        change: { kind: 'serve-refusal', ops, from },
      },
      undefined,
    );
  };
  refusal(
    'credentials of an unknown institution',
    ['err.404-credentials', 'ep.inst.credentials-404'],
    (o) => o.key === 'GET /institutions/{institution_identifier}/credentials',
    [404],
    'an invalid identifier returns 404',
    'Errors',
  );
  refusal(
    'data exchange transaction out of scope',
    ['err.404-dx-transaction', 'lim.dx-scope'],
    (o) => /^GET \/data_exchange\/users\/.*\/transactions\/\{[^}]+\}$/.test(o.key),
    [404],
    'data exchange transaction read with no matching transaction: 404',
    'Errors',
  );
  refusal(
    'data exchange read without its token',
    ['auth.3-dx-token', 'ep.dx.token-header'],
    (o) => /^GET \/data_exchange\/users/.test(o.key),
    [401, 403],
    'Data exchange read endpoints also require SVC-3DX-TOKEN',
    'Authentication',
  );
  refusal(
    'platform request without valid Basic credentials',
    ['auth.1-basic'],
    (o, api) => api === 'platform' && o.method === 'GET' && !/^\/data_exchange\/users/.test(o.path) && o.path !== '/payment_account',
    [401, 403],
    'Platform endpoints use HTTP Basic authentication',
    'Authentication',
  );
  refusal(
    'processor read without its access token',
    ['auth.4-processor', 'ep.authcode.limited'],
    (o) => o.key === 'GET /payment_account',
    [401, 403],
    'Processor access is limited to the identifiers and features in the scope',
    'Authentication',
  );
  refusal(
    'sunset version or endpoint',
    ['err.sunset-version', 'ver.sunset-error', 'ver.v20250224.sunset-payment-authcode', 'ver.v20250224.sunset-connect-widget-url'],
    (_o, api) => api === 'platform',
    [400, 404, 406, 410],
    'When an API version has reached sunset, attempts to use it return an error',
    'Versioning',
  );
  refusal(
    'audience list without a bearer token',
    ['auth.5-bearer'],
    (_o, api) => api === 'audience',
    [401, 403],
    'These credentials produce an access token used as Authorization: Bearer on all audience endpoints',
    'Authentication',
  );

  // 6. Headers: the deprecation header under the names the user sets; JSON answered as text.
  const deprecatedOps = [...new Set(docs.ops.filter((d) => d.op.deprecated).map((d) => opRef(d.api, d.op.key)))];
  const verRows = rowsOf('ver.headers-all-versions');
  b.add(
    {
      id: 'header:Deprecation dropped',
      family: 'header',
      expect: 'killed',
      statement: quote(verRows, 'Response headers that signal deprecated and sunset endpoints are present in all versions'),
      section: 'Versioning',
      rows: verRows.map((r) => r.id),
      ops: deprecatedOps,
      change: { kind: 'header', drop: 'deprecation', onlyWhenPresent: true },
    },
    undefined,
  );
  const jsonRows = rowsOf('ep.json');
  b.add(
    {
      id: 'header:platform JSON as text/plain',
      family: 'header',
      expect: 'killed',
      statement: quote(jsonRows, 'Request and response bodies are JSON'),
      section: 'Endpoints',
      rows: jsonRows.map((r) => r.id),
      ops: [...new Set(docs.ops.filter((d) => d.api === 'platform').map((d) => opRef(d.api, d.op.key)))],
      change: { kind: 'header', set: { name: 'content-type', value: 'text/plain; charset=utf-8' }, onlyWhenPresent: true },
    },
    undefined,
  );
  const testAccept = rowsOf('ep.test.accept');
  b.add(
    {
      id: 'header:test host answers text/plain',
      family: 'header',
      expect: 'killed',
      statement: quote(testAccept, 'Accept: application/vnd.svc.legacy.v1+json'),
      section: 'Endpoints',
      rows: testAccept.map((r) => r.id),
      ops: [...new Set(docs.ops.filter((d) => d.api === 'test-host').map((d) => opRef(d.api, d.op.key)))],
      change: { kind: 'header', set: { name: 'content-type', value: 'text/plain' }, onlyWhenPresent: true },
    },
    undefined,
  );

  // 7. Limits exceeded by one.
  const pageRows = rowsOf('lim.rpp-1000');
  const maxOps = [...new Set(docs.ops.filter((d) => d.op.maxRecordsPerPage && d.op.listKey).map((d) => `${opRef(d.api, d.op.key)}|${d.op.listKey}`))];
  for (const entry of maxOps) {
    const [ref, listKey] = entry.split('|');
    b.add(
      {
        id: `limit:${ref.replace(/^\w+:/, '')} 1001 records`,
        family: 'limit',
        expect: 'killed',
        statement: quote(pageRows, 'records_per_page maximum 1000'),
        section: 'Limits',
        rows: pageRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'page', ops: [ref], listKey, action: 'one-more', full: 1000 },
      },
      undefined,
    );
  }
  const pagingRows = rowsOf('ep.paging');
  const listOps = [...new Set(docs.ops.filter((d) => d.op.listKey && d.api === 'platform').map((d) => `${opRef(d.api, d.op.key)}|${d.op.listKey}`))];
  for (const entry of listOps) {
    const [ref, listKey] = entry.split('|');
    b.add(
      {
        id: `limit:${ref.replace(/^\w+:/, '')} a record more than asked`,
        family: 'limit',
        expect: 'killed',
        statement: `${quote(pagingRows, 'Lists are paged with page and records_per_page')} (a page holds at most the records asked for, from 10 up)`,
        section: 'Endpoints',
        rows: pagingRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'page', ops: [ref], listKey, action: 'one-more', full: 'asked' },
      },
      undefined,
    );
  }
  const catRows = rowsOf('lim.default-categories', 'wsd.default-categories');
  const cat = opRef('platform', 'GET /categories/default');
  b.add(
    {
      id: 'limit:120 default categories',
      family: 'limit',
      expect: 'killed',
      statement: quote(catRows, 'default categories 119'),
      section: 'Limits',
      rows: catRows.map((r) => r.id),
      ops: [cat],
      change: { kind: 'field', sites: [], field: ['total_entries'], action: { op: 'add-number', delta: 1 } },
    },
    undefined,
    [{ op: cat, path: ['pagination'] }],
  );
  const windowRows = rowsOf('lim.dx-window');
  const dxLists = [...new Set(docs.ops.filter((d) => /^GET \/data_exchange\/users\/.*\/transactions$/.test(d.op.key)).map((d) => opRef(d.api, d.op.key)))];
  b.add(
    {
      id: 'limit:data exchange default window 93 days',
      family: 'limit',
      expect: 'killed',
      statement: quote(windowRows, 'default transaction window 90 days before the request day'),
      section: 'Limits',
      rows: windowRows.map((r) => r.id),
      ops: dxLists,
      change: {
        kind: 'page',
        ops: dxLists,
        listKey: 'transactions',
        action: 'older-record',
        days: 93,
        dateField: 'date',
        onlyWithoutQuery: ['from_date', 'to_date'],
      },
    },
    undefined,
  );
  const tokenRows = rowsOf('lim.access-token', 'auth.4-processor');
  const tokenOps = [
    ...new Set(docs.ops.filter((d) => d.op.key === 'POST /token' || d.op.key === 'POST /payment_processor_token').map((d) => opRef(d.api, d.op.key))),
  ];
  b.add(
    {
      id: 'limit:processor access_token 61 days',
      family: 'limit',
      expect: 'killed',
      statement: quote(tokenRows, PARTNER_RULES.tokenLifetime),
      section: 'Limits',
      rows: tokenRows.map((r) => r.id),
      ops: tokenOps,
      change: { kind: 'field', sites: [], field: ['expires_in'], action: { op: 'add-number', delta: PROCESSOR_TOKEN_LIFETIME_S / 60 } },
    },
    undefined,
    tokenOps.map((op) => ({ op, path: ['?'] })),
  );

  // 8. Request elements a statement names, refused (the stated maximum, deprecated-but-not-removed fields, named parameters and headers).
  for (const entry of maxOps) {
    const [ref] = entry.split('|');
    b.add(
      {
        id: `request-refused:${ref.replace(/^\w+:/, '')} records_per_page=1000`,
        family: 'request-refused',
        expect: 'killed',
        statement: `${quote(pageRows, 'records_per_page (max 1000)')} (the maximum itself is a valid value)`,
        section: 'Limits',
        rows: pageRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'refuse-request', ops: [ref], query: 'records_per_page', queryValue: '1000' },
      },
      undefined,
    );
  }
  requestElements(docs, rows, b);

  // 9. Two reads of one resource disagree on a stated field (the second, fourth ... read of the same guid).
  const disagree = (component: string, field: string, action: Change, rowIds: string[]) => {
    const rr = rowsOf(...rowIds);
    const sites = toSites(docs.sites.filter((s) => s.component === component && s.op.method === 'GET'));
    b.add(
      {
        id: `disagree:${component}.${field}`,
        family: 'disagree',
        expect: 'killed',
        statement: `${quote(rr, `${component}.${field}`)}; one resource read twice shows one value`,
        section: sectionOf(rr, 'Resources and their fields'),
        rows: rr.map((r) => r.id),
        change: action,
      },
      undefined,
      sites,
    );
  };
  const settled: When[] = [
    { field: 'connection_status', oneOf: ['CONNECTED', 'DENIED', 'HALTED'] },
    { field: 'is_being_aggregated', oneOf: [false, undefined] },
  ];
  disagree(
    'Member',
    'connection_status',
    {
      kind: 'field',
      sites: [],
      field: ['connection_status'],
      action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED' } },
      when: settled,
      reads: 'even',
    },
    ['states.values', 'states.test-success', 'states.test-denied', 'states.test-halted'],
  );
  disagree(
    'MemberStatus',
    'connection_status',
    {
      kind: 'field',
      sites: [],
      field: ['connection_status'],
      action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED' } },
      when: settled,
      reads: 'even',
    },
    ['states.values', 'states.connected'],
  );
  disagree(
    'Member',
    'institution_code',
    { kind: 'field', sites: [], field: ['institution_code'], action: { op: 'set', value: 'mutant_other_institution' }, reads: 'even' },
    ['res.member.institution-code', 'wsd.member-connects'],
  );
  disagree(
    'Member',
    'user_guid',
    { kind: 'field', sites: [], field: ['user_guid'], action: { op: 'set', value: 'USR-00000000-0000-4000-8000-000000000000' }, reads: 'even' },
    ['res.member.user-guid', 'wsd.member-connects'],
  );
  disagree(
    'Member',
    'is_oauth',
    { kind: 'field', sites: [], field: ['is_oauth'], action: { op: 'map', values: { true: false, false: true } }, reads: 'even' },
    ['res.member.is-oauth'],
  );
  disagree(
    'Account',
    'member_guid',
    { kind: 'field', sites: [], field: ['member_guid'], action: { op: 'set', value: 'MBR-00000000-0000-4000-8000-000000000000' }, reads: 'even' },
    ['wsd.account-belongs-member'],
  );
  // Shared resources (an institution, a grant) are read by many scenarios at once, so which read
  // is the second is not the scenario's: these disagree by the kind of read instead (by guid as
  // against by code; a grantee's list as against the issuer's list and the grant query).
  const onlyOp = (component: string, opKey: string) => toSites(docs.sites.filter((x) => x.component === component && x.op.key === opKey));
  const rr = (ids: string[]) => rowsOf(...ids);
  b.add(
    {
      id: 'disagree:Institution.name',
      family: 'disagree',
      expect: 'killed',
      statement: `${quote(rr(['res.inst.fields', 'ep.inst.read']), 'Institution.name')}; one institution read by code and by guid shows one name`,
      section: 'Resources and their fields',
      rows: rr(['res.inst.fields', 'ep.inst.read']).map((r) => r.id),
      change: { kind: 'field', sites: [], field: ['name'], action: { op: 'set', value: 'Mutant Other Institution' }, when: [{ pathLacks: 'code' }] },
    },
    undefined,
    onlyOp('Institution', 'GET /institutions/{institution_identifier}'),
  );
  b.add(
    {
      id: 'disagree:Grant.data_scope',
      family: 'disagree',
      expect: 'killed',
      statement: `${quote(rr(['res.grant.data-scope', 'res.grant.parts']), 'Grant.data_scope')}; one grant shows one data scope wherever it is read`,
      section: 'Resources and their fields',
      rows: rr(['res.grant.data-scope', 'res.grant.parts']).map((r) => r.id),
      change: { kind: 'field', sites: [], field: ['data_scope'], action: { op: 'map', values: { HELD: 'AGGREGATED', AGGREGATED: 'HELD', ALL: 'HELD' } } },
    },
    undefined,
    onlyOp('Grant', 'GET /data_exchange/grantee/{grantee_client_guid}/grants'),
  );

  // 10. What the suite must tolerate.
  const every = (family: Family, id: string, statement: string, rowIds: string[], change: Change, extra: Partial<Mutant> = {}) =>
    b.add(
      {
        id: `${family}:${id}`,
        family,
        expect: 'tolerated',
        statement,
        section: 'Versioning',
        rows: rowIds.filter((r) => rowById.has(r)),
        ops: [],
        change,
        ...extra,
      },
      undefined,
    );
  every('add-field', 'every object gains a field', NON_BREAKING.addField, ['ver.non-breaking.5'], { kind: 'objects', action: 'add-field' });
  every('reorder', 'every object lists its properties in reverse', NON_BREAKING.reorder, ['ver.non-breaking.6'], { kind: 'objects', action: 'reorder' });
  every('longer-id', 'identifiers 8 characters longer', NON_BREAKING.opaque, ['ver.non-breaking.7'], { kind: 'ids', action: 'longer' }, { envMap: 'ids' });
  every('reformat-id', 'identifiers in upper case', NON_BREAKING.opaque, ['ver.non-breaking.7'], { kind: 'ids', action: 'upper' }, { envMap: 'ids' });
  every('add-header', 'every answer carries one more header', NON_BREAKING.header, ['ver.non-breaking.4'], {
    kind: 'header',
    set: { name: 'x-svc-mutant-added', value: '1' },
  });
  every('omit-null', 'null fields left out where presence is not stated', NON_BREAKING.omitNull, [], {
    kind: 'objects',
    action: 'omit-null',
    keep: keepStated(b),
  });
  every('latency', 'every answer 120 ms later', NON_BREAKING.latency, [], { kind: 'latency', ms: 120 }, { section: 'Limits' });
  const jobs = [
    ...new Set(
      docs.ops.filter((d) => d.api === 'platform' && /\/(aggregate|extend_history|identify|verify|resume)$/.test(d.op.path)).map((d) => opRef(d.api, d.op.key)),
    ),
  ];
  every('latency', 'job requests answered 3 s later', NON_BREAKING.latency, [], { kind: 'latency', ms: 3000, ops: jobs }, { section: 'Limits', ops: jobs });

  for (const m of b.mutants.values()) if (!m.ops.length && m.change.kind === 'field') m.ops = [...new Set(m.change.sites.map((s) => s.op))];
  return { mutants: b.done(docs.versions).sort((a, b2) => a.id.localeCompare(b2.id)), exclusions: EXCLUSIONS };
}

/** Fields whose presence is stated (the drop-field mutants): omit-null leaves them alone. */
function keepStated(b: Builder): Record<OpRef, string[][]> {
  const out: Record<OpRef, string[][]> = {};
  for (const m of b.mutants.values()) {
    if (m.family !== 'drop-field' || m.change.kind !== 'field' || m.change.action.op !== 'drop') continue;
    for (const s of m.change.sites) (out[s.op] ??= []).push([...s.path, ...m.change.field]);
  }
  return out;
}

/**
 * Request elements a trace row names (a parameter, a header, a request body field): a
 * request carrying one answered 400. Stated: the specification says the operation takes it
 * (Versioning: "removing a request parameter from path or body" is breaking; a deprecated
 * element is not removed).
 */
function requestElements(docs: Docs, rows: TraceRow[], b: Builder): void {
  // Parameters a row encodes, by (in, name) and where (an operation's own, or a shared component).
  const statedParams: Array<{ name: string; in: string; row: TraceRow; path?: string }> = [];
  const statedBody: Array<{ component?: string; opPath?: string; method?: string; field: string[]; row: TraceRow }> = [];
  for (const row of rows) {
    if (row.not_shown) continue;
    for (const ref of row.encoded_in) {
      if (!ref.startsWith('spec/platform.openapi.yaml#')) continue;
      const pointer = ref.slice(ref.indexOf('#') + 1);
      let node: unknown;
      try {
        node = resolveEncoding(ref);
      } catch {
        continue;
      }
      const pm = /^\/paths\/([^/]+)\/(get|put|post|delete)\/parameters\/\d+$/.exec(pointer) ?? /^\/components\/parameters\/[^/]+$/.exec(pointer);
      if (pm && isObj(node)) {
        let p = node;
        if (typeof p.$ref === 'string') {
          const t = resolveRef(p.$ref, new URL('../../spec/platform.openapi.yaml', import.meta.url).href);
          if (t && isObj(t.value)) p = t.value;
        }
        if (typeof p.name === 'string' && (p.in === 'query' || p.in === 'header'))
          statedParams.push({ name: p.name, in: p.in, row, ...(pm[1] ? { path: pm[1].replace(/~1/g, '/') } : {}) });
        continue;
      }
      const cm = /^\/components\/schemas\/(MemberCreateRequest|WidgetUrlRequest|AchReturnCreate)\/properties\/(.+)$/.exec(pointer);
      if (cm) {
        const p = fieldPathOf(['properties', ...cm[2].split('/')]);
        if (p.path) statedBody.push({ component: cm[1], field: p.path, row });
        else if (cm[2].endsWith('/properties')) {
          const listed = isObj(node) ? Object.keys(node) : [];
          const parent = fieldPathOf(['properties', ...cm[2].split('/').slice(0, -1)]).path ?? [];
          for (const k of listed) statedBody.push({ component: cm[1], field: [...parent, k], row });
        }
        continue;
      }
      const om = /^\/paths\/([^/]+)\/(put|post)\/requestBody\/content\/application~1json\/schema\/properties\/(.+)$/.exec(pointer);
      if (om) {
        const p = fieldPathOf(['properties', ...om[3].split('/')]);
        if (p.path) statedBody.push({ opPath: om[1].replace(/~1/g, '/'), method: om[2].toUpperCase(), field: p.path, row });
      }
    }
  }
  const wrapperOf: Record<string, string[]> = { MemberCreateRequest: [], WidgetUrlRequest: [], AchReturnCreate: ['ach_return'] };
  const opsUsing = (component: string) => {
    const out: Array<{ op: OperationInfo; version?: string }> = [];
    for (const d of docs.ops) {
      if (d.api !== 'platform' || d.op.sunset) continue;
      const body = (d.op.operation.requestBody as Obj | undefined)?.content as Obj | undefined;
      const schema = isObj(body?.['application/json']) ? (body!['application/json'] as Obj).schema : undefined;
      if (!isObj(schema)) continue;
      const text = JSON.stringify(schema);
      if (text.includes(`#/components/schemas/${component}"`) || text.includes(`#/components/schemas/${component}Request"`)) out.push(d);
    }
    return out;
  };
  for (const d of docs.ops) {
    if (d.api !== 'platform' || d.op.sunset) continue;
    const params = (Array.isArray(d.op.operation.parameters) ? d.op.operation.parameters : []) as unknown[];
    for (const raw of params) {
      let p = raw as Obj;
      if (typeof p.$ref === 'string') {
        const m = /^#\/components\/parameters\/(.+)$/.exec(p.$ref);
        const doc = docs.contract.document('platform', d.version) as unknown as { components?: { parameters?: Record<string, Obj> } };
        p = (m && doc.components?.parameters?.[m[1]]) || p;
      }
      if (typeof p.name !== 'string' || (p.in !== 'query' && p.in !== 'header')) continue;
      if (p.in === 'header' && /^accept-version$/i.test(p.name)) continue; // Versioning: judged by the version scenarios
      if (p.name === 'page' || p.name === 'records_per_page') continue; // the stated maximum is its own mutant; paging is open
      const hit = statedParams.find((s) => s.name === p.name && s.in === p.in && (!s.path || s.path === d.op.path));
      if (!hit) continue;
      const ref = opRef('platform', d.op.key);
      b.add(
        {
          id: `request-refused:${d.op.key} ${p.in} ${p.name}`,
          family: 'request-refused',
          expect: 'killed',
          statement: `${hit.row.statement}; Versioning: "removing a request parameter from path or body" is breaking`,
          section: hit.row.section,
          rows: [hit.row.id],
          ops: [ref],
          change: { kind: 'refuse-request', ops: [ref], ...(p.in === 'query' ? { query: p.name } : { header: p.name.toLowerCase() }) },
        },
        d.version,
      );
    }
  }
  for (const s of statedBody) {
    const targets = s.component ? opsUsing(s.component) : docs.ops.filter((d) => d.api === 'platform' && d.op.path === s.opPath && d.op.method === s.method);
    for (const d of targets) {
      const ref = opRef('platform', d.op.key);
      const bodyPath = [...(s.component ? (wrapperOf[s.component] ?? []) : []), ...s.field];
      b.add(
        {
          id: `request-refused:${d.op.key} body ${bodyPath.join('.')}`,
          family: 'request-refused',
          expect: 'killed',
          statement: `${s.row.statement}; Versioning: "removing a request parameter from path or body" is breaking (a deprecated field is not removed)`,
          section: s.row.section,
          rows: [s.row.id],
          ops: [ref],
          change: { kind: 'refuse-request', ops: [ref], bodyPath },
        },
        d.version,
      );
    }
  }
}

/** `n` mutants drawn family by family in turn (each family and each round's order shuffled by the seed), so every family is in a sample of at least their count. */
export function sampleMutants(mutants: readonly Mutant[], n: number, seed = 1): Mutant[] {
  const rand = seededRandom(seed);
  const families = [...STATED_FAMILIES, ...TOLERATED_FAMILIES]
    .map((f) => {
      const list = mutants.filter((m) => m.family === f);
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
      return list;
    })
    .filter((l) => l.length);
  const out: Mutant[] = [];
  for (let round = 0; out.length < n && families.some((l) => l.length > round); round++) {
    // The families' order in a round is drawn too, so a sample smaller than a round is not always the first families.
    const order = families
      .map((l, i) => ({ l, k: rand(), i }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.l);
    for (const l of order) if (l[round] && out.length < n) out.push(l[round]);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** Mutants by family, in the order of model.ts. */
export function byFamily(mutants: readonly Mutant[]): Map<Family, Mutant[]> {
  const out = new Map<Family, Mutant[]>();
  for (const m of mutants) {
    let list = out.get(m.family);
    if (!list) out.set(m.family, (list = []));
    list.push(m);
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*proof\//, 'proof/'))) {
  const { mutants, exclusions } = generateMutants();
  for (const [family, list] of byFamily(mutants)) console.log(`${family}: ${list.length}`);
  console.log(
    `total ${mutants.length} (${mutants.filter((m) => m.expect === 'killed').length} stated, ${mutants.filter((m) => m.expect === 'tolerated').length} tolerated); ${exclusions.length} exclusions`,
  );
  if (process.argv.includes('--list'))
    for (const m of mutants) console.log(`${m.expect === 'killed' ? 'K' : 'T'} ${m.id}${m.versions ? ` [${m.versions.join(',')}]` : ''} ops=${m.ops.length}`);
}
