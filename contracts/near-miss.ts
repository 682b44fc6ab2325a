/**
 * Near misses (../shared/DESIGN.md, "Style": Schemathesis' negative-data rejection, "a
 * request that breaks a stated rule must not get a 2xx; here, with near-miss values
 * generated from each stated format and the sentence quoted"): for each request rule, values
 * that ALMOST meet it, each put into an otherwise valid request:
 *
 *   one character too many or too few   "12345" / "123" for "string of 4 digits", R011, v202502240
 *   the wrong case                      r01, act-<uuid>, browser (for BROWSER), V20250224
 *   a timestamp without its offset      2026-01-05T10:00:00; a date without time 2026-01-05
 *   a number as a string                "42.5", "2", "false", "4"
 *   a prefix of another resource        MBR-<uuid> where ACT- is stated; the bare <uuid>
 *   the right value in the wrong place  the ach_return fields beside, not inside, ach_return;
 *                                       `user_guid:` for `user-guid:`; a comma between scope entries
 *   one past a limit                    records_per_page=1001 where the maximum is 1000
 *
 * One source: the rules are the tables of requests.ts (the integration judge's: ACH_FIELDS,
 * WIDGET_FIELDS, MEMBER_FIELDS, ENVELOPES, SCOPE_ENTRY, VERSION_NAME, REQUEST_RULES), so a
 * rule is written once. Every near miss carries its rule: the sentence, the tier of a 2xx
 * to it and why (`why`), and the rule's own `ok`, which refuses it (near-miss.test.ts proves
 * it for every rule). The scenarios (scenarios/api/near-misses.spec.ts) and the fuzz project
 * (scenarios/fuzz/engine/requests.ts; `negative_data_rejection`) send them.
 *
 * The tier of a 2xx: a rule the specification states is stated (the request it accepts is
 * not the request the sentence describes; that it must not succeed is stated, which status refuses
 * it is not shown, so a 4xx stays inferred); an inferred rule stays inferred.
 */
import type { Tier } from './failure.ts';
import {
  AUTHORIZATION_CODE,
  CREATE_MEMBER,
  DATA_REQUEST_FROM,
  ENVELOPES,
  FIELD_TABLES,
  REQUEST_RULES,
  SCOPE_ENTRY,
  VERSION_NAME,
  WIDGET_URL,
  shapeOf,
  type FieldForm,
  type FieldRule,
} from './requests.ts';

/** What kind of "almost" a near miss is. */
export type NearMissFamily =
  | 'one-too-many'
  | 'one-too-few'
  | 'wrong-case'
  | 'no-offset'
  | 'date-only'
  | 'as-string'
  | 'as-number'
  | 'not-whole'
  | 'no-prefix'
  | 'other-prefix'
  | 'other-type'
  | 'outside-wrapper'
  | 'misspelt-wrapper'
  | 'left-out'
  | 'misspelt-key'
  | 'wrong-separator'
  | 'unknown-version'
  | 'one-past-limit';

/** The parts of a request near misses vary: the JSON body, the Accept-Version sent, the query. */
export interface NearMissRequest {
  body?: unknown;
  version?: string;
  query?: Record<string, string>;
}

/** One request rule, as near misses break it. */
export interface RequestRule {
  /** `ach_return.account_number_last_four`, `ach_return (wrapper)`, `data_request`, `authorization_code.scope`, `Accept-Version`, `records_per_page`. */
  id: string;
  /** The tier of a 2xx to a request breaking the rule. */
  tier: Tier;
  /** The sentence. */
  rule: string;
  /** Why a 2xx to a request breaking it has that tier. */
  why: string;
  /** The stated form, for messages. */
  expected: string;
  /**
   * What is judged of the answer: `refusal`, no 2xx; `page-size`, at most the stated
   * maximum of records, the status free (a service may clamp; paging_conformance judges it).
   */
  judged: 'refusal' | 'page-size';
  /** The rule's own predicate over a whole request: false when the request breaks the rule. */
  ok(request: NearMissRequest): boolean;
}

export interface NearMiss {
  rule: RequestRule;
  family: NearMissFamily;
  /** `ach_return.return_code = "r01" (wrong case)`. */
  what: string;
  /** Where it sits: `request.body.ach_return.return_code`, `request.headers.accept-version`, `request.query.records_per_page`. */
  location: string;
  /** The whole request with the near miss in place. */
  request: NearMissRequest;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** Why a 2xx to a request breaking a rule of each table has the rule's tier. */
export const TIER_REASONS = {
  ach: "Resources, ACH return (create request) states the field's type and format: a 2xx creates a return the table does not allow, so that it must not succeed is stated (which status refuses it is not shown: a 4xx is inferred)",
  widget:
    "Resources, Widget URL states the field's type (or its values): a 2xx issues a widget URL for a request the sentence does not describe, so that it must not succeed is stated (the status of the refusal is not shown)",
  member:
    "Resources, Member states the create request field's type: a 2xx creates a member from a request the sentence does not describe, so that it must not succeed is stated (the status of the refusal is not shown)",
  memberInferred:
    'institution_code\'s type is read from the member\'s field table; for the create request "Types of fields beyond those stated ... not shown", so a 2xx stays inferred',
  skipAggregationDeprecated:
    'skip_aggregation is "deprecated in version v20250224", where "aggregation is assumed unless data_request.products says otherwise": a service may ignore the field from that version, so whether it still checks its type is inferred',
  envelope:
    "the request is stated wrapped: a body without the wrapper (its fields beside it, or under another name) is not the stated request, and a 2xx treats unwrapped fields as the request's, so that it must not succeed is stated",
  dataRequest: 'Versioning, changes in v20250224: "a required data_request with a products array": a request without it on v20250224 must not succeed (stated)',
  dataRequestLater:
    'on a later version the requirement may have been dropped ("Breaking changes introduced by v20260929: not shown"; "making a required parameter optional" is non-breaking): inferred',
  scope:
    'the scope\'s entry forms are stated and "Processor access is limited to the identifiers and features in the scope": a code issued for an entry of another form grants access the sentence does not describe, so that it must not succeed is stated',
  versionName:
    'a value that is not v<YYYYMMDD> names no version, and "The version is chosen with the request header Accept-Version": a 2xx answers under a version the request did not choose, so that it must not succeed is stated',
  versionInPlay: 'a well-formed version outside the three in play may exist at the target: that it is refused is inferred',
  pageMax:
    'Limits state the maximum, not what a request above it gets: the status is free (a service may clamp), and a page of more records than the maximum breaks the limit (paging_conformance, stated)',
} as const;

/** The reason a field table's tier holds, per table envelope. */
const TABLE_REASON: Record<string, string> = { ach_return: TIER_REASONS.ach, widget_url: TIER_REASONS.widget, member: TIER_REASONS.member };

/** Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101". */
const VERSIONS_IN_PLAY = ['v20260929', 'v20250224', 'v20111101'] as const;

/** A prefix of another resource for each stated identifier prefix (Resources: "USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account"). */
const OTHER_PREFIX = { ACT: 'MBR', MBR: 'ACT', USR: 'MBR' } as const;

/** The next digit, for "one character too many" of a digit string ("1234" -> "12345"). */
const nextDigit = (s: string) => String((Number(s.at(-1) ?? '0') + 1) % 10);
/** The case flipped: `r01` for R01, `browser` for BROWSER. */
const flipCase = (s: string) => (s === s.toUpperCase() ? s.toLowerCase() : s.toUpperCase());

/**
 * Values that ALMOST have the form, from a valid one, sharpest first (a scenario bounded
 * to a few per rule sends the first ones), each with its family.
 */
function formNearMisses(form: FieldForm, v: unknown): Array<[NearMissFamily, unknown]> {
  switch (form.kind) {
    case 'guid': {
      if (typeof v !== 'string' || !v.startsWith(`${form.prefix}-`)) return [];
      const rest = v.slice(form.prefix.length + 1);
      return [
        ['no-prefix', rest],
        ['other-prefix', `${OTHER_PREFIX[form.prefix]}-${rest}`],
        ['wrong-case', `${form.prefix.toLowerCase()}-${rest}`],
        ['one-too-many', `${v}0`],
        ['one-too-few', v.slice(0, -1)],
      ];
    }
    case 'digits':
      if (typeof v !== 'string' || !/^\d+$/.test(v)) return [];
      return [
        ['one-too-many', `${v}${nextDigit(v)}`],
        ['one-too-few', v.slice(0, -1)],
        ['as-number', Number(v)],
      ];
    case 'timestamp': {
      if (typeof v !== 'string') return [];
      const bare = v.replace(/(Z|[+-]\d{2}:?\d{2})$/, '');
      const out: Array<[NearMissFamily, unknown]> = [];
      if (bare !== v) out.push(['no-offset', bare]);
      if (/^\d{4}-\d{2}-\d{2}T/.test(v)) out.push(['date-only', v.slice(0, 10)]);
      if (!Number.isNaN(Date.parse(v))) out.push(['as-number', Math.floor(Date.parse(v) / 1000)]);
      return out;
    }
    case 'code':
      if (typeof v !== 'string' || v.length < 2) return [];
      return [
        ['wrong-case', flipCase(v)],
        ['one-too-many', `${v}${v.at(-1)}`],
        ['one-too-few', v.slice(0, -1)],
      ];
    case 'letters':
      if (typeof v !== 'string' || v.length < 2) return [];
      return [
        ['one-too-many', `${v}${v.at(-1)}`],
        ['one-too-few', v.slice(0, -1)],
      ];
    case 'number':
      return typeof v === 'number' ? [['as-string', String(v)]] : [];
    case 'integer':
      return typeof v === 'number'
        ? [
            ['as-string', String(v)],
            ['not-whole', v + 0.5],
          ]
        : [];
    case 'boolean':
      return typeof v === 'boolean'
        ? [
            ['as-string', String(v)],
            ['as-number', v ? 1 : 0],
          ]
        : [];
    case 'enum':
      if (typeof v !== 'string' || v.length < 2) return [];
      return [
        ['wrong-case', flipCase(v)],
        ['one-too-many', `${v}${v.at(-1)}`],
        ['one-too-few', v.slice(0, -1)],
      ];
    case 'string':
      // The right value in the wrong shape: the string inside an array.
      return typeof v === 'string' ? [['other-type', [v]]] : [];
    case 'object':
      return isObject(v) ? [['as-string', JSON.stringify(v)]] : [];
  }
}

const FAMILY_NOTE: Record<NearMissFamily, string> = {
  'one-too-many': 'one character too many',
  'one-too-few': 'one character too few',
  'wrong-case': 'the wrong case',
  'no-offset': 'a timestamp without its offset',
  'date-only': 'a date without time',
  'as-string': 'the value as a string',
  'as-number': 'the value as a number',
  'not-whole': 'not a whole number',
  'no-prefix': 'without its prefix',
  'other-prefix': "another resource's prefix",
  'other-type': 'the value inside an array',
  'outside-wrapper': 'the fields beside the wrapper, not inside it',
  'misspelt-wrapper': 'the wrapper under a name one character too long',
  'left-out': 'left out',
  'misspelt-key': 'a key one character off',
  'wrong-separator': 'the wrong separator',
  'unknown-version': 'a well-formed version no document names',
  'one-past-limit': 'one past the stated limit',
};

// ---- rules ------------------------------------------------------------------------------

/** The tier of a field rule on a version, and why (skip_aggregation is deprecated from v20250224). */
function fieldTier(envelope: string, f: FieldRule, version: string | undefined): { tier: Tier; why: string } {
  if (envelope === 'member' && f.field === 'skip_aggregation' && version !== undefined && version >= DATA_REQUEST_FROM)
    return { tier: 'inferred', why: TIER_REASONS.skipAggregationDeprecated };
  if (f.tier !== 'stated') return { tier: f.tier, why: TIER_REASONS.memberInferred };
  return { tier: 'stated', why: TABLE_REASON[envelope] };
}

function fieldRule(envelope: string, f: FieldRule, version: string | undefined): RequestRule {
  const { tier, why } = fieldTier(envelope, f, version);
  return {
    id: `${envelope}.${f.field}`,
    tier,
    // The table's row as well when the sentence does not name the field itself.
    rule: f.rule.includes(f.field) ? f.rule : `${f.rule}: ${f.field} "${f.expected}"`,
    why,
    expected: f.expected,
    judged: 'refusal',
    // As the judge reads it (request_field_formats): a field absent or null breaks nothing.
    ok: (r) => {
      const inner = isObject(r.body) ? r.body[envelope] : undefined;
      if (!isObject(inner) || !(f.field in inner) || inner[f.field] === null) return true;
      return f.ok(inner[f.field]);
    },
  };
}

function envelopeRule(e: (typeof ENVELOPES)[number]): RequestRule {
  return {
    id: `${e.key} (wrapper)`,
    tier: 'stated',
    rule: e.rule,
    why: TIER_REASONS.envelope,
    expected: e.key === 'authorization_code' ? '{"authorization_code": {"scope": "..."}}' : `{"${e.key}": {...}}`,
    judged: 'refusal',
    ok: (r) => {
      const inner = isObject(r.body) ? r.body[e.key] : undefined;
      return isObject(inner) && (e.key !== 'authorization_code' || typeof inner.scope === 'string');
    },
  };
}

/**
 * Where a request carries data_request: a create member's beside member or inside it (its
 * place is not shown); a widget URL's inside widget_url, among that object's stated fields.
 */
function dataRequestOf(body: unknown, envelope: string): { value: unknown; inside: boolean } | undefined {
  if (!isObject(body)) return undefined;
  if (body.data_request !== undefined && envelope !== 'widget_url') return { value: body.data_request, inside: false };
  const inner = body[envelope];
  if (isObject(inner) && inner.data_request !== undefined) return { value: inner.data_request, inside: true };
  return undefined;
}

function dataRequestRule(envelope: string, version: string): RequestRule {
  const stated = version === DATA_REQUEST_FROM;
  return {
    id: 'data_request',
    tier: stated ? 'stated' : 'inferred',
    rule: stated ? REQUEST_RULES.dataRequest : REQUEST_RULES.dataRequestLater,
    why: stated ? TIER_REASONS.dataRequest : TIER_REASONS.dataRequestLater,
    expected: '"data_request": {"products": [...]}',
    judged: 'refusal',
    ok: (r) => {
      const dr = dataRequestOf(r.body, envelope)?.value;
      return isObject(dr) && Array.isArray(dr.products);
    },
  };
}

const SCOPE_RULE: RequestRule = {
  id: 'authorization_code.scope',
  tier: 'stated',
  rule: REQUEST_RULES.scope,
  why: TIER_REASONS.scope,
  expected: 'space-separated user-guid:USR-<uuid>, member-guid:MBR-<uuid>, account-guid:ACT-<uuid>, read-protected',
  judged: 'refusal',
  ok: (r) => {
    const ac = isObject(r.body) ? r.body.authorization_code : undefined;
    const scope = isObject(ac) ? ac.scope : undefined;
    return typeof scope !== 'string' || scope.split(' ').every((e) => SCOPE_ENTRY.test(e));
  },
};

const VERSION_NAME_RULE: RequestRule = {
  id: 'Accept-Version',
  tier: 'stated',
  rule: REQUEST_RULES.versionName,
  why: TIER_REASONS.versionName,
  expected: 'v<YYYYMMDD>',
  judged: 'refusal',
  ok: (r) => r.version === undefined || VERSION_NAME.test(r.version),
};

const VERSION_IN_PLAY_RULE: RequestRule = {
  id: 'Accept-Version (in play)',
  tier: 'inferred',
  rule: REQUEST_RULES.versionInPlay,
  why: TIER_REASONS.versionInPlay,
  expected: VERSIONS_IN_PLAY.join(', '),
  judged: 'refusal',
  ok: (r) => r.version === undefined || !VERSION_NAME.test(r.version) || (VERSIONS_IN_PLAY as readonly string[]).includes(r.version),
};

/** Limits, the table's row "records_per_page maximum": 1000 on the lists it names (`x-svc-max-records-per-page`). */
function pageRule(max: number): RequestRule {
  return {
    id: 'records_per_page',
    tier: 'stated',
    rule: REQUEST_RULES.pageMax,
    why: TIER_REASONS.pageMax,
    expected: `at most ${max}`,
    judged: 'page-size',
    ok: (r) => {
      const n = Number(r.query?.records_per_page);
      return r.query?.records_per_page === undefined || !Number.isFinite(n) || n <= max;
    },
  };
}

/**
 * The body rules of an operation on a version (`POST /ach_returns`, `POST /users/{user_guid}/members`:
 * parameter names are ignored): its wrapper, the fields of its table, data_request from
 * v20250224, the scope entries. None for another operation.
 */
export function requestRules(operation: string, version?: string): RequestRule[] {
  const op = shapeOf(operation);
  const out: RequestRule[] = [];
  const envelope = ENVELOPES.find((e) => e.operation === op);
  if (envelope) out.push(envelopeRule(envelope));
  const table = FIELD_TABLES.find((t) => t.operation === op);
  if (table) for (const f of table.fields) if (f.tier !== 'informational') out.push(fieldRule(table.envelope, f, version));
  if ((op === CREATE_MEMBER || op === WIDGET_URL) && version !== undefined && VERSION_NAME.test(version) && version >= DATA_REQUEST_FROM)
    out.push(dataRequestRule(op === CREATE_MEMBER ? 'member' : 'widget_url', version));
  if (op === AUTHORIZATION_CODE) out.push(SCOPE_RULE);
  return out;
}

/** The rules of `requestRules` a request breaks (the fuzz project tiers a mutated body by them). */
export function brokenRequestRules(operation: string, request: NearMissRequest): RequestRule[] {
  return requestRules(operation, request.version).filter((r) => !r.ok(request));
}

// ---- near misses ------------------------------------------------------------------------

function near(rule: RequestRule, family: NearMissFamily, what: string, location: string, request: NearMissRequest): NearMiss {
  return { rule, family, what: `${what} (${FAMILY_NOTE[family]})`, location, request };
}

function fieldNearMisses(rule: RequestRule, envelope: string, f: FieldRule, base: NearMissRequest): NearMiss[] {
  const inner = isObject(base.body) ? base.body[envelope] : undefined;
  if (!isObject(inner) || !f.form) return [];
  const valid = inner[f.field] ?? ('example' in f.form ? f.form.example : undefined);
  return formNearMisses(f.form, valid).map(([family, value]) => {
    const body = clone(base.body) as Obj;
    (body[envelope] as Obj)[f.field] = value;
    return near(rule, family, `${envelope}.${f.field} = ${shown(value)}`, `request.body.${envelope}.${f.field}`, { ...base, body });
  });
}

function envelopeNearMisses(rule: RequestRule, key: string, base: NearMissRequest): NearMiss[] {
  if (!isObject(base.body) || !isObject(base.body[key])) return [];
  const { [key]: inner, ...rest } = base.body;
  // A data_request inside the wrapper goes beside it (a place the judge takes: its place is
  // not shown), so the misspelt wrapper breaks the wrapper rule alone.
  const { data_request: dataRequest, ...fields } = inner as Obj;
  const lifted = dataRequest === undefined ? {} : { data_request: clone(dataRequest) };
  return [
    near(rule, 'outside-wrapper', `the ${key} fields at the top level, no ${key} object`, `request.body.${key}`, {
      ...base,
      body: { ...clone(rest), ...clone(inner as Obj) },
    }),
    near(rule, 'misspelt-wrapper', `the fields under "${key}s" instead of "${key}"`, `request.body.${key}`, {
      ...base,
      body: { ...clone(rest), ...lifted, [`${key}s`]: clone(fields) },
    }),
  ];
}

function dataRequestNearMisses(rule: RequestRule, envelope: string, base: NearMissRequest): NearMiss[] {
  const at = dataRequestOf(base.body, envelope);
  if (!at || !isObject(at.value) || !Array.isArray(at.value.products)) return [];
  const products = at.value.products as unknown[];
  const where = at.inside ? `${envelope}.data_request` : 'data_request';
  const put = (value: unknown) => {
    const body = clone(base.body) as Obj;
    const holder = at.inside ? (body[envelope] as Obj) : body;
    if (value === undefined) delete holder.data_request;
    else holder.data_request = value;
    return { ...base, body };
  };
  const others = Object.fromEntries(Object.entries(at.value).filter(([k]) => k !== 'products'));
  return [
    // Where data_request sits is not shown: its absence is named at the top level, as the judge names it.
    near(rule, 'left-out', `no data_request on ${base.version}`, 'request.body.data_request', put(undefined)),
    near(
      rule,
      'misspelt-key',
      `${where} = ${shown({ ...others, product: products })}`,
      `request.body.${where}.products`,
      put({ ...others, product: products }),
    ),
    near(rule, 'other-type', `${where}.products = ${shown(products[0])}`, `request.body.${where}.products`, put({ ...others, products: products[0] })),
  ];
}

const SCOPE_KEY = /^(user-guid|member-guid|account-guid):(USR|MBR|ACT)-(.+)$/;

function scopeNearMisses(rule: RequestRule, base: NearMissRequest): NearMiss[] {
  const ac = isObject(base.body) ? base.body.authorization_code : undefined;
  const scope = isObject(ac) ? ac.scope : undefined;
  if (typeof scope !== 'string') return [];
  const entries = scope.split(' ');
  const with_ = (family: NearMissFamily, value: string) => {
    const body = clone(base.body) as Obj;
    (body.authorization_code as Obj).scope = value;
    return near(rule, family, `authorization_code.scope = ${shown(value)}`, 'request.body.authorization_code.scope', { ...base, body });
  };
  const out: NearMiss[] = [];
  const i = entries.findIndex((e) => SCOPE_KEY.test(e));
  if (i >= 0) {
    const [, key, prefix, rest] = SCOPE_KEY.exec(entries[i])!;
    const swap = (entry: string) => entries.map((e, j) => (j === i ? entry : e)).join(' ');
    const other = OTHER_PREFIX[prefix as keyof typeof OTHER_PREFIX];
    out.push(with_('misspelt-key', swap(`${key.replace('-', '_')}:${prefix}-${rest}`)));
    out.push(with_('wrong-case', swap(`${key}:${prefix.toLowerCase()}-${rest}`)));
    out.push(with_('wrong-separator', entries.length > 1 ? entries.join(',') : `${scope},read-protected`));
    out.push(with_('other-prefix', swap(`${key}:${other}-${rest}`)));
    out.push(with_('no-prefix', swap(`${key}:${rest}`)));
  } else out.push(with_('wrong-separator', entries.length > 1 ? entries.join(',') : `${scope},read-protected`));
  out.push(
    with_(
      'misspelt-key',
      entries.includes('read-protected') ? entries.map((e) => (e === 'read-protected' ? 'read_protected' : e)).join(' ') : `${scope} read_protected`,
    ),
  );
  return out;
}

/**
 * Near misses of every body rule of the operation (`requestRules`), each on the base
 * request (which must meet the rules: a scenario's accepted request, the fuzz chains'
 * example). A field the base leaves out is varied from its form's example, when it has one.
 */
export function bodyNearMisses(operation: string, base: NearMissRequest): NearMiss[] {
  const op = shapeOf(operation);
  const out: NearMiss[] = [];
  const table = FIELD_TABLES.find((t) => t.operation === op);
  for (const rule of requestRules(op, base.version)) {
    if (rule.id.endsWith(' (wrapper)')) out.push(...envelopeNearMisses(rule, rule.id.replace(' (wrapper)', ''), base));
    else if (rule.id === 'data_request') out.push(...dataRequestNearMisses(rule, op === CREATE_MEMBER ? 'member' : 'widget_url', base));
    else if (rule.id === SCOPE_RULE.id) out.push(...scopeNearMisses(rule, base));
    else if (table) {
      const f = table.fields.find((x) => `${table.envelope}.${x.field}` === rule.id && x.tier !== 'informational');
      if (f) out.push(...fieldNearMisses(rule, table.envelope, f, base));
    }
  }
  return out;
}

/** The day after a version's date, as a version name (`v20250225` for v20250224). */
function nextDay(version: string): string | undefined {
  const m = /^v(\d{4})(\d{2})(\d{2})$/.exec(version);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
  return `v${d.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** Near misses of the Accept-Version form `v<YYYYMMDD>` from the base's version (stated), and the day after it (inferred). */
export function versionNearMisses(base: NearMissRequest): NearMiss[] {
  const v = base.version;
  if (v === undefined || !VERSION_NAME.test(v)) return [];
  const digits = v.slice(1);
  const at = 'request.headers.accept-version';
  const of = (rule: RequestRule, family: NearMissFamily, value: string) => near(rule, family, `Accept-Version: ${value}`, at, { ...base, version: value });
  const out = [
    of(VERSION_NAME_RULE, 'one-too-few', v.slice(0, -1)),
    of(VERSION_NAME_RULE, 'wrong-case', `V${digits}`),
    of(VERSION_NAME_RULE, 'one-too-many', `${v}0`),
    of(VERSION_NAME_RULE, 'no-prefix', digits),
    of(VERSION_NAME_RULE, 'wrong-separator', `v${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}`),
  ];
  const next = nextDay(v);
  if (next && !(VERSIONS_IN_PLAY as readonly string[]).includes(next)) out.push(of(VERSION_IN_PLAY_RULE, 'unknown-version', next));
  return out;
}

/** records_per_page one past a list's stated maximum (Limits): judged by the page's size, the status free. */
export function pageNearMisses(maxRecordsPerPage: number, base: NearMissRequest): NearMiss[] {
  const value = String(maxRecordsPerPage + 1);
  return [
    near(pageRule(maxRecordsPerPage), 'one-past-limit', `records_per_page=${value}`, 'request.query.records_per_page', {
      ...base,
      query: { ...base.query, records_per_page: value },
    }),
  ];
}

/** At most `perRule` near misses of each rule, sharpest first: a scenario's bounded share. */
export function firstPerRule(nearMisses: readonly NearMiss[], perRule: number): NearMiss[] {
  const count = new Map<string, number>();
  return nearMisses.filter((n) => {
    const k = count.get(n.rule.id) ?? 0;
    count.set(n.rule.id, k + 1);
    return k < perRule;
  });
}
