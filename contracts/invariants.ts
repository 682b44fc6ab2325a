/**
 * Invariants every answer keeps, judged over the exchanges of a whole run, not one
 * scenario at a time (../shared/DESIGN.md, "Two reads, one truth"; Schemathesis' stateful
 * checks go further here). A run's exchanges become compact observations (what was asked,
 * which records of which resource the answer held, which fields each carried, and which
 * headers signal deprecation); a RunLedger takes them in the order they happened and
 * returns the findings each new one raises:
 *
 *   presence consistency  a field the target served (non-null) on one answer about a record
 *                         is present on every other answer about the same record, in the same
 *                         version, unless a write touched it between (Versioning: "removing or
 *                         renaming a response field" is breaking). A field never served is never
 *                         asked for: "Fields named: ..." is a list of names, not a presence
 *                         promise (../shared/real-service-notes.md, Nullability). An omitted
 *                         field and a null are the same (Absence follows the same rule as null).
 *   two reads, one truth  the same record read by its own path, by a list, by its status path,
 *                         agrees on every stable field it carries (identity, owners, the stated
 *                         fields no stated transition changes); a settled member of the test
 *                         institution keeps its end state until a request moves it.
 *   round trip            what a create or update sent reads back as sent: in its own answer
 *                         and in every later read of that record, by guid and by client id.
 *   asked is answered     filters hold on every record; a requested widget type and user are
 *                         the ones answered; the test host answers the status the path names.
 *   pages partition       no record on two pages of one list, nothing on a page past the last,
 *                         totals that agree with what the pages held.
 *   signals where stated  the deprecation and sunset header names the target itself shows on a
 *                         deprecated (sunset) endpoint are held on every other one, and seen on
 *                         no endpoint the specification does not deprecate.
 *
 * Writes: any non-GET request names the records it may change (its path identifiers and the
 * records its answer holds); a comparison never spans a write to the record or to one of its
 * owners (user, member, account). So nothing here depends on how fast the target answers:
 * only on the order of requests and answers.
 *
 * Plain data and pure functions over it: the checked client keeps one ledger per worker and
 * target (findings fail the test that shows them), every worker writes its observations to
 * the run's ledger folder, and the run's last test judges them all at once
 * (scenarios/run/invariants.spec.ts), so a disagreement between two workers' reads is found
 * too.
 */
import { severityOfTier, type Failure, type Tier } from './failure.ts';
import type { ExchangeContext } from './registry.ts';
import { recordsAt, responseRecords } from './records.ts';
import { servedOf, type Served } from './served.ts';

export const INVARIANT_RULES = {
  presence:
    'Versioning: "removing or renaming a response field" is breaking; a field the target served on a record is served on every answer about that record (Resources: one resource, one set of fields; an omitted field counts as null: ../shared/real-service-notes.md, Nullability)',
  twoReads:
    'Resources and their fields: one record, one set of values wherever it is read; States and transitions: a value changes only through a stated transition or a request that moves it, none of which happened between these two reads',
  endState:
    'States and transitions: "In the test institution, scenario credentials yield end states: success leads to CONNECTED; invalid or locked credentials lead to DENIED; missing credentials, a server error or an unavailable institution lead to HALTED"; CHALLENGED moves on by "resume aggregation from MFA"; no request moved this member between the two reads',
  roundTrip:
    'Resources and their fields: "Clients are advised to set their own id (string) on every resource they create, to sync with their systems"; what a create or update sent is what the resource then holds (Resources, ACH return: "Response is an ACH return body"; Member: client-supplied id, institution_code, is_oauth, metadata)',
  byClientId:
    'Endpoints, ACH returns: GET /ach_returns/{ach_return_guid} "path accepts the return\'s guid or id; response one ACH return"; Resources: the client-set id identifies the record the client created',
  filter:
    'Endpoints, Widgets and members: "list transactions with optional filters category_guid, top_level_category_guid, from_created_at, to_created_at, from_updated_at, to_updated_at"; Versioning, v20250224: "list institutions query ... use supported_products": a filtered list holds only records that meet the filter',
  widgetType:
    'Resources, Widget URL: request "widget_type"; "Response object widget_url with type (string), url (string) and user_id (string)": the widget asked for',
  widgetUser:
    'Resources, Widget URL: "Response object widget_url with ... user_id (string)"; Resources, Member: user_id "client identifier of the user": the user the URL was requested for',
  testHostState:
    'Endpoints, Earlier-generation test paths: "GET|PUT /users/test_svc/members/{connection_status} (returns a member in that status)"; "GET /users/test_svc/members/{challenge_type}/challenges (challenge types text, options, image, image_options)"',
  pages:
    'Endpoints: "Lists are paged with page and records_per_page": the pages of one list partition it (no record on two pages, nothing past the last page, totals that agree with the pages)',
  heldSignal:
    'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"; their names are "not shown", so the name this target itself sent on another deprecated (sunset) endpoint in this run is the one held',
  signalWhereStated:
    'Versioning: deprecated endpoints are "/managed_institutions, /users/{user_guid}/managed_members and its member, account, transaction sub-paths" (and /payment_processor_token); the headers "signal deprecated and sunset endpoints": a signal on an endpoint and version the specification does not deprecate announces a deprecation nobody stated',
} as const;

const INVARIANT_CHECKS = {
  presence: 'presence_consistency',
  twoReads: 'two_reads_one_truth',
  roundTrip: 'round_trip',
  asked: 'asked_is_answered',
  pages: 'pages_partition',
  signals: 'signals_where_stated',
} as const;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A field's value as kept: a primitive (long strings cut), or the canonical JSON of a small array or object, or a length marker. */
export type Kept = string | number | boolean | null;

/** One record of one resource in one answer. */
export interface ObservedRecord {
  /** The component schema of the document (`Member`, `Institution`, ...). */
  component: string;
  /** Where it sits in the body (`members[*]`). */
  site: string;
  /** guid, else code (v20111101 institutions have no guid), else id. */
  key: string;
  /** Identifiers of the record's owners (user, member, account guids it names). */
  owners: string[];
  fields: Record<string, Kept>;
}

export interface ObservedList {
  /** The body property holding the page's records. */
  key: string;
  /** Record keys in answer order. */
  ids: string[];
  page?: number;
  /** records_per_page as asked. */
  asked?: number;
  pagination?: { current_page?: number; per_page?: number; total_entries?: number; total_pages?: number };
}

/** One exchange as the invariants read it. */
export interface Observation {
  /** Order of the answer in its process (ties of `at` broken by it). */
  seq: number;
  /** When the request left and when the answer was read (ms since the epoch, the process's clock). */
  at: [number, number];
  /** Who observed it (the test's title), for messages. */
  source?: string;
  /** The target (base URL): ledgers never mix two targets. */
  target?: string;
  api: string;
  version?: string;
  method: string;
  /** `GET /institutions` (the template), or the concrete path when no operation matched. */
  operation: string;
  path: string;
  query: string;
  status: number;
  deprecated?: boolean;
  sunset?: boolean;
  /** Path parameters by name. */
  params?: Record<string, string>;
  /** Response headers whose name speaks of deprecation or sunset (lower-case names). */
  signals?: Record<string, string>;
  /** What a create or update sent inside its stated envelope (`member`, `ach_return`, ...). */
  sent?: { envelope: string; fields: Record<string, Kept> };
  records?: ObservedRecord[];
  list?: ObservedList;
  /** The request asked for these `includes` values (fields they add are not judged for presence). */
  includes?: string[];
  /** A widget URL answer's type and user_id. */
  widget?: { type?: string; user_id?: string };
  /**
   * What an undocumented write answer (its body is "not shown", e.g. update member) says of
   * the record it wrote: used only to know which sent values the service took, never for
   * presence or as a read.
   */
  echo?: { key: string; fields: Record<string, Kept> };
  /** On the test host: the connection statuses and challenge types the answer shows. */
  shown?: { connection_status?: string[]; type?: string[] };
  /** What the answer served (header names, field paths with kinds and values), for the nightly's history (served.ts); the invariants read none of it. */
  served?: Served;
}

export interface InvariantOptions {
  strict?: boolean;
  /** Deprecation / sunset header names the user set (a missing one is then stated under that name). */
  deprecationHeader?: string;
  sunsetHeader?: string;
  headerNamesExplicit?: boolean;
  /** Versions the target deprecates (profile): every endpoint of one may carry the signal. */
  deprecatedVersions?: readonly string[];
  sunsetVersions?: readonly string[];
  /**
   * The current version (Versioning: "v20260929 (current ...)"): the one version no lifecycle
   * has deprecated. An earlier one may be deprecated by the target at any time ("A released
   * version is supported for at least 18 months ... A deprecated version remains usable for 12
   * months"), so a signal on every endpoint of it is a version's deprecation, not a finding.
   */
  currentVersion?: string;
  /** The test institution's code: its members' end states are stated. */
  testInstitutionCode?: string;
}

/** A finding with the subject it is about, so the same disagreement is reported once per run. */
export interface InvariantFinding {
  key: string;
  failure: Failure;
}

// ---- observation -------------------------------------------------------------------

/** Longer values are kept as a hash and their length: compared, never shown. */
const KEPT_STRING = 80;
const KEPT_JSON = 160;
/** Records kept per answer: a page is at most the stated maximum (Limits: 1000). */
const MAX_RECORDS = 1000;

function kept(v: unknown): Kept {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.length > KEPT_STRING ? `#hash:${hash(v)}:${v.length}` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  let text: string;
  try {
    text = canonicalJson(v);
  } catch {
    return '#unreadable';
  }
  return text.length > KEPT_JSON ? `#hash:${hash(text)}:${text.length}` : `#json:${text}`;
}

/** FNV-1a, 32 bits: tells two long values apart without keeping them. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * JSON with object keys sorted and arrays of primitives sorted: "field order is not fixed"
 * (Events rule 2; Versioning: reordering is non-breaking). With `everyArray` the items of
 * every array are sorted too (`orderFreeJson`).
 */
function canonicalJson(v: unknown, depth = 0, everyArray = false): string {
  if (depth > 8) return '"…"';
  if (Array.isArray(v)) {
    const items = v.map((x) => canonicalJson(x, depth + 1, everyArray));
    if (everyArray || v.every((x) => x === null || typeof x !== 'object')) items.sort();
    return `[${items.join(',')}]`;
  }
  if (isRec(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k], depth + 1, everyArray)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * A value's content without its orders, for comparing two reads of the same data: keys
 * sorted (reordering response properties is non-breaking, Versioning) and every array's
 * items sorted (no list's order is stated but the favourites', Endpoints, Institutions).
 * Nesting below 8 levels is not compared.
 */
export const orderFreeJson = (v: unknown): string => canonicalJson(v, 0, true);

const ENVELOPES = ['member', 'user', 'ach_return', 'widget_url', 'authorization_code', 'account', 'transaction', 'tag', 'goal', 'budget', 'category'];
const OWNER_FIELDS = ['user_guid', 'member_guid', 'account_guid'];
const SIGNAL_NAME = /deprecat|sunset/i;

function recordKey(r: Rec): string | undefined {
  for (const k of ['guid', 'code', 'id']) if (typeof r[k] === 'string' && r[k] !== '') return `${k}:${r[k]}`;
  return undefined;
}

function includesOf(query: string): string[] {
  const out: string[] = [];
  for (const v of new URLSearchParams(query).getAll('includes')) for (const x of v.split(',')) if (x.trim()) out.push(x.trim());
  return out;
}

/**
 * The observation of one checked exchange (contract.ts fills the context; the caller adds
 * times and its own name). Records are read where the document puts them (records.ts).
 */
export function observationOf(c: ExchangeContext): Omit<Observation, 'seq' | 'at'> {
  const ex = c.exchange;
  const body = ex.response.body;
  const o: Omit<Observation, 'seq' | 'at'> = {
    api: c.model.api,
    ...(c.version ? { version: c.version } : {}),
    method: c.method,
    operation: c.operationKey,
    path: c.path,
    query: c.query,
    status: c.status,
    served: servedOf(body, ex.response.headers, ex.response.durationMs),
  };
  if (c.operation?.deprecated) o.deprecated = true;
  if (c.operation?.sunset) o.sunset = true;
  if (c.match && Object.keys(c.match.params).length) o.params = { ...c.match.params };
  const signals: Record<string, string> = {};
  for (const [name, value] of Object.entries(ex.response.headers ?? {})) {
    if (SIGNAL_NAME.test(name) && value !== undefined && value !== null) signals[name.toLowerCase()] = String(value).slice(0, 200);
  }
  if (Object.keys(signals).length) o.signals = signals;
  const includes = includesOf(c.query);
  if (includes.length) o.includes = includes;
  if (c.method !== 'GET' && isRec(ex.request.body)) {
    const envelope = ENVELOPES.find((e) => isRec((ex.request.body as Rec)[e]));
    if (envelope) {
      const fields: Record<string, Kept> = {};
      for (const [k, v] of Object.entries((ex.request.body as Rec)[envelope] as Rec)) if (v === null || typeof v !== 'object') fields[k] = kept(v);
      o.sent = { envelope, fields };
    }
  }
  if (c.status < 200 || c.status >= 300 || !isRec(body)) return o;
  if (isRec(body.widget_url)) {
    const w = body.widget_url;
    o.widget = { ...(typeof w.type === 'string' ? { type: w.type } : {}), ...(typeof w.user_id === 'string' ? { user_id: w.user_id } : {}) };
  }
  if (c.model.api === 'test-host') o.shown = testHostShown(body);
  if (c.model.api === 'platform' && c.method !== 'GET' && o.sent) {
    const echoed = body[o.sent.envelope];
    const component = ENVELOPE_COMPONENT[o.sent.envelope];
    if (component && isRec(echoed) && typeof echoed.guid === 'string') o.echo = { key: `guid:${echoed.guid}`, fields: keptFields(component, echoed) };
  }
  const out: ObservedRecord[] = [];
  if (c.media?.schemaUri && c.media.schemaPointer !== undefined) {
    const { records } = responseRecords(c.media.schemaUri, c.media.schemaPointer);
    for (const site of records) {
      const siteText = site.path.map((s) => (s === '*' ? '[*]' : `.${s}`)).join('');
      for (const r of recordsAt(body, site.path)) {
        if (out.length >= MAX_RECORDS * 2) break;
        const key = recordKey(r);
        if (!key) continue;
        const fields = keptFields(site.component, r);
        const owners = OWNER_FIELDS.map((f) => r[f]).filter((v): v is string => typeof v === 'string' && v !== '');
        out.push({ component: site.component, site: siteText, key, owners, fields });
      }
    }
  }
  // Users: "Field lists of ... users ... not shown": whether or not a document gives the
  // answer a record, a `{user: {guid, ...}}` answer is the user, and its client id is what a
  // widget URL must name (Resources, Widget URL: user_id).
  if (c.model.api === 'platform' && isRec(body.user) && typeof body.user.guid === 'string' && !out.some((r) => r.component === 'User')) {
    out.push({ component: 'User', site: '.user', key: `guid:${body.user.guid}`, owners: [], fields: keptFields('User', body.user) });
  }
  if (out.length) o.records = out;
  const listKey = c.operation?.listKey;
  if (c.method === 'GET' && listKey && Array.isArray(body[listKey])) {
    const q = new URLSearchParams(c.query);
    const num = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
    const p = isRec(body.pagination) ? body.pagination : undefined;
    const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
    o.list = {
      key: listKey,
      ids: (body[listKey] as unknown[]).map((r) => (isRec(r) ? (recordKey(r) ?? '') : '')),
      ...(num(q.get('page')) !== undefined ? { page: num(q.get('page')) } : {}),
      ...(num(q.get('records_per_page')) !== undefined ? { asked: num(q.get('records_per_page')) } : {}),
      ...(p
        ? {
            pagination: {
              current_page: int(p.current_page),
              per_page: int(p.per_page),
              total_entries: int(p.total_entries),
              total_pages: int(p.total_pages),
            },
          }
        : {}),
    };
  }
  return o;
}

/** Values only of the fields the invariants compare or filter on; of every other field, whether it is there. */
function keptFields(component: string, r: Rec): Record<string, Kept> {
  const keep = STABLE[canonical(component)] ?? new Set(IDENTITY);
  const fields: Record<string, Kept> = {};
  for (const [k, v] of Object.entries(r)) fields[k] = keep.has(k) || FILTERED.has(k) ? kept(v) : v === null || v === undefined ? null : true;
  return fields;
}

/** The statuses and challenge types a test-host answer shows (its bodies are open: spec/test-host.openapi.yaml). */
function testHostShown(body: Rec): Observation['shown'] {
  const statuses: string[] = [];
  const types: string[] = [];
  const holders = [body, ...Object.values(body).filter(isRec)];
  for (const h of holders) {
    if (typeof h.connection_status === 'string') statuses.push(h.connection_status);
    if (Array.isArray(h.challenges)) for (const ch of h.challenges) if (isRec(ch) && typeof ch.type === 'string') types.push(ch.type);
  }
  return { ...(statuses.length ? { connection_status: statuses } : {}), ...(types.length ? { type: types } : {}) };
}

// ---- what may change, what may not ---------------------------------------------------

/** Status records are member records read through their status path (Endpoints: "connection status"). */
const CANONICAL: Record<string, string> = { MemberStatus: 'Member', MemberStatusEnvelope: 'Member' };
const canonical = (component: string) => CANONICAL[component] ?? component;

/**
 * Fields whose VALUE two reads must agree on, per resource: the fields the specification
 * names for it that no stated transition, aggregation or passing of time changes
 * (Resources and their fields; States and transitions; What the service does: "Accounts
 * and their transactions refresh every 24 hours"). Every other field a service sends may
 * change between two reads (an unnamed progress flag, a balance, a timestamp): only its
 * presence is judged.
 */
const IDENTITY = ['guid', 'id', 'user_guid', 'member_guid', 'account_guid'];
const STABLE: Record<string, ReadonlySet<string>> = {
  Member: new Set([...IDENTITY, 'user_id', 'institution_code', 'name', 'is_managed_by_user', 'is_oauth', 'metadata', 'use_cases']),
  Account: new Set([...IDENTITY, 'user_id', 'member_id', 'institution_guid', 'member_is_managed_by_user', 'is_manual']),
  Transaction: new Set([...IDENTITY, 'is_manual', 'member_is_managed_by_user', 'category_guid', 'top_level_category_guid']),
  // The vendor's institution records: nothing in a run moves them.
  Institution: new Set([
    'code',
    'guid',
    'name',
    'created_at',
    'is_hidden',
    'status',
    'client_status',
    'is_disabled_by_client',
    'instructional_text',
    'instructional_text_steps',
    'forgot_password_url',
    'forgot_username_url',
    'trouble_signing_in_url',
    'supports_oauth',
    'supported_products',
    'supports_account_verification',
    'supports_account_identification',
    'supports_transaction_history',
    'supports_account_statement',
  ]),
  Category: new Set(['guid', 'is_default']),
  Credential: new Set(['guid', 'type']),
  User: new Set(['guid', 'id']),
  AchReturn: new Set([
    ...IDENTITY,
    'account_number_last_four',
    'ach_initiated_at',
    'return_code',
    'returned_at',
    'sec_code',
    'transaction_amount',
    'transaction_amount_range',
  ]),
};

/**
 * Fields present only under a stated condition: their absence on another answer says nothing.
 * Resources, Member: oauth_window_uri "present for OAuth members; one-time use" (use_cases, "only
 * for clients opted in", holds for every read of one client alike); Endpoints: challenges "when MFA is required"; Insight: localization_payload
 * "opt-in"; Transaction: what `includes` returns.
 */
const CONDITIONAL = new Set([
  'oauth_window_uri',
  'challenges',
  'localization_payload',
  'repeating_transactions',
  'repeating_transaction',
  'merchant',
  'merchants',
  'classification',
  'classifications',
  'geolocation',
  'geolocations',
]);

/** Fields the "asked is answered" invariant reads (filters, states). */
const FILTERED = new Set([
  'created_at',
  'updated_at',
  'supported_products',
  'category_guid',
  'top_level_category_guid',
  'connection_status',
  'is_being_aggregated',
]);

const comparable = (component: string, field: string) => (STABLE[component] ?? new Set(IDENTITY)).has(field);

/** Timestamps compared as instants, numbers compared as numbers: "changing ... format of opaque strings" is non-breaking (Versioning). */
function sameValue(field: string, a: Kept, b: Kept): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (/_at$|_on$/.test(field)) {
    const t = (v: Kept) => (typeof v === 'number' ? v * 1000 : typeof v === 'string' ? Date.parse(v) : Number.NaN);
    const ta = t(a);
    const tb = t(b);
    if (!Number.isNaN(ta) && !Number.isNaN(tb)) return ta === tb;
  }
  const na = typeof a === 'number' ? a : typeof a === 'string' && /^-?\d+(\.\d+)?$/.test(a) ? Number(a) : undefined;
  const nb = typeof b === 'number' ? b : typeof b === 'string' && /^-?\d+(\.\d+)?$/.test(b) ? Number(b) : undefined;
  if (na !== undefined && nb !== undefined) return na === nb;
  return false;
}

const show = (v: Kept) =>
  typeof v === 'string' && v.startsWith('#json:')
    ? v.slice(6)
    : typeof v === 'string' && v.startsWith('#hash:')
      ? `(a value of ${v.split(':')[2]} characters)`
      : v === true
        ? '(a value)'
        : JSON.stringify(v);
const where = (o: Observation) =>
  `${o.method} ${o.path}${o.query ? `?${o.query}` : ''} → ${o.status}${o.version ? ` (${o.version})` : ''}${o.source ? ` in "${o.source}"` : ''}`;

// ---- the ledger --------------------------------------------------------------------

interface Snapshot {
  obs: Observation;
  record: ObservedRecord;
}

interface History {
  /** Per field: the first snapshot since the last write that carried it non-null. */
  served: Map<string, Snapshot>;
  /** The answers about the record since the last write (the first and the latest few), for a field served only later. */
  seen: Snapshot[];
  /** Per field: the first non-null value since the last write (stable fields only). */
  values: Map<string, Snapshot>;
  /** A settled end state of a member (States and transitions), since the last write. */
  settled?: Snapshot;
}

interface Sent {
  obs: Observation;
  fields: Record<string, Kept>;
  /** Sent fields the write's own answer showed with the value sent. */
  acknowledged: ReadonlySet<string>;
}

interface Pages {
  /** Page number -> the latest answer for it since the last write to the list's owners. */
  pages: Map<number, Observation>;
}

/** Answers kept per record for a field served only later (the first and the latest). */
const SEEN_KEPT = 6;
const END_STATES = new Set(['CONNECTED', 'DENIED', 'HALTED', 'CHALLENGED']);
/** Fields of a create/update whose value the record then holds (Resources: client id; Member's create fields; the ACH return table). */
const ROUND_TRIP: Record<string, readonly string[]> = {
  member: ['id', 'institution_code', 'is_oauth', 'metadata'],
  // User fields are "not shown" beyond the client-set id.
  user: ['id'],
  ach_return: [
    'id',
    'account_guid',
    'account_number_last_four',
    'ach_initiated_at',
    'member_guid',
    'return_code',
    'returned_at',
    'sec_code',
    'transaction_amount',
    'transaction_amount_range',
    'user_guid',
  ],
};
const ENVELOPE_COMPONENT: Record<string, string> = { member: 'Member', user: 'User', ach_return: 'AchReturn' };
/** Lists other tests change while this one walks them (every test creates its own user). */
const SHARED_LISTS = new Set(['/users', '/data_exchange/users']);

export class RunLedger {
  private readonly histories = new Map<string, History>();
  /** Identifier -> when the last write that names it ended (its seq and time). */
  private readonly writes = new Map<string, { seq: number; end: number }>();
  /** Record key -> what the create or update that made it sent. */
  private readonly sent = new Map<string, Sent>();
  /** Client id -> the record key its create answered, and the record's component. */
  private readonly byClientId = new Map<string, { key: string; component: string; obs: Observation }>();
  /** User guid -> its client id (for the widget's user_id). */
  private readonly userIds = new Map<string, string>();
  private readonly lists = new Map<string, Pages>();
  private learned: { deprecation?: { name: string; obs: Observation }; sunset?: { name: string; obs: Observation } } = {};
  /** Deprecated / sunset answers seen before a name was learned, judged once it is. */
  private readonly unjudgedSignals: Observation[] = [];
  private readonly reported = new Set<string>();
  readonly observations: Observation[] = [];

  constructor(private readonly options: InvariantOptions = {}) {}

  /** The learned header names (for reports). */
  get learnedNames(): { deprecation?: string; sunset?: string } {
    return { deprecation: this.learned.deprecation?.name, sunset: this.learned.sunset?.name };
  }

  /** Something outside the contract changed these records (a simulator control call): no comparison spans it. */
  noteWrite(ids: readonly string[], seq: number, end: number): void {
    for (const id of ids) this.writes.set(id, { seq, end });
  }

  /** Takes one observation; returns the findings it raises that were not raised before in this ledger. */
  add(o: Observation, keep = true): InvariantFinding[] {
    if (keep) this.observations.push(o);
    const found: InvariantFinding[] = [];
    const push = (f: InvariantFinding | undefined) => {
      if (f && !this.reported.has(f.key)) {
        this.reported.add(f.key);
        found.push(f);
      }
    };
    if (o.status >= 200 && o.status < 300 && o.method !== 'GET') this.write(o);
    for (const f of this.signals(o)) push(f);
    if (o.status < 200 || o.status >= 300) return found;
    for (const f of this.asked(o)) push(f);
    for (const r of o.records ?? []) {
      for (const f of this.record(o, r)) push(f);
    }
    if (o.method !== 'GET' && o.sent) this.remember(o);
    for (const f of this.paging(o)) push(f);
    return found;
  }

  /** Marks reported keys (findings already raised in a test) so a whole-run pass does not raise them again. */
  markReported(keys: Iterable<string>): void {
    for (const k of keys) this.reported.add(k);
  }

  private fail(check: string, tier: Tier, key: string, o: Observation, location: string, rule: string, message: string): InvariantFinding {
    return {
      key: `${check}|${key}`,
      failure: { check, operation: o.operation, location, rule, severity: severityOfTier(tier, this.options.strict), tier, message },
    };
  }

  // -- writes

  private write(o: Observation): void {
    const ids = new Set<string>(Object.values(o.params ?? {}));
    for (const r of o.records ?? []) {
      ids.add(r.key.slice(r.key.indexOf(':') + 1));
      for (const w of r.owners) ids.add(w);
    }
    for (const id of ids) this.writes.set(id, { seq: o.seq, end: o.at[1] });
  }

  /** A write that names the record (or an owner) ended after `since` began and is not `since` itself. */
  private writtenSince(r: ObservedRecord, since: Observation): boolean {
    const ids = [r.key.slice(r.key.indexOf(':') + 1), ...r.owners];
    return ids.some((id) => {
      const w = this.writes.get(id);
      return w !== undefined && w.seq !== since.seq && w.end >= since.at[0];
    });
  }

  // -- records

  private history(key: string): History {
    let h = this.histories.get(key);
    if (!h) this.histories.set(key, (h = { served: new Map(), values: new Map(), seen: [] }));
    return h;
  }

  private record(o: Observation, r: ObservedRecord): InvariantFinding[] {
    const out: InvariantFinding[] = [];
    const comp = canonical(r.component);
    const presenceKey = `${o.api}|${o.version ?? ''}|${r.component}|${r.key}`;
    const valueKey = `${o.api}|${o.version ?? ''}|${comp}|${r.key}`;
    const presence = this.history(presenceKey);
    const values = presenceKey === valueKey ? presence : this.history(valueKey);
    const asked = new Set(o.includes ?? []);
    // Whether an absent field says anything is learned from the target: a service that sends
    // its nulls (seen on this resource in this run) keeps every field it has; one that leaves
    // its nulls out ("Absence follows the same rule as null", real-service-notes) drops a field
    // whenever its value becomes null, which a value that moves may do. So a field whose value
    // may change is held present only on a target that shows it sends nulls; a stable one always.
    const resource = `${o.api}|${o.version ?? ''}|${r.component}`;
    if (Object.values(r.fields).includes(null)) this.sendsNulls.add(resource);
    const held = (field: string) => comparable(comp, field) || this.sendsNulls.has(resource);
    // Presence: every field served non-null since the last write is still here.
    for (const [field, first] of presence.served) {
      if (Object.hasOwn(r.fields, field) || !held(field) || CONDITIONAL.has(field) || asked.has(field) || (first.obs.includes ?? []).includes(field)) continue;
      if (this.writtenSince(r, first.obs)) {
        presence.served.delete(field);
        continue;
      }
      out.push(
        this.fail(
          INVARIANT_CHECKS.presence,
          'stated',
          `${presenceKey}|${field}`,
          o,
          `response.body${r.site}.${field}`,
          INVARIANT_RULES.presence,
          `Received: ${r.component.toLowerCase()} ${r.key} without ${field} on ${where(o)} / Expected: ${field}, as ${where(first.obs)} served it (${show(first.record.fields[field])}); null would do`,
        ),
      );
    }
    // ...and a field served now for the first time was not left out by an earlier answer.
    presence.seen = presence.seen.filter((s) => !this.writtenSince(r, s.obs));
    for (const [field, v] of Object.entries(r.fields)) {
      if (v === null) continue;
      const s = presence.served.get(field);
      if (s && !this.writtenSince(r, s.obs)) continue;
      presence.served.set(field, { obs: o, record: r });
      if (CONDITIONAL.has(field) || asked.has(field) || !held(field)) continue;
      const earlier = presence.seen.find((x) => !Object.hasOwn(x.record.fields, field) && !(x.obs.includes ?? []).includes(field));
      if (earlier)
        out.push(
          this.fail(
            INVARIANT_CHECKS.presence,
            'stated',
            `${presenceKey}|${field}`,
            earlier.obs,
            `response.body${earlier.record.site}.${field}`,
            INVARIANT_RULES.presence,
            `Received: ${r.component.toLowerCase()} ${r.key} without ${field} on ${where(earlier.obs)} / Expected: ${field}, as ${where(o)} serves it (${show(v)}); null would do`,
          ),
        );
    }
    // The first answer and the latest few are enough to find a field one of them left out.
    presence.seen.push({ obs: o, record: r });
    if (presence.seen.length > SEEN_KEPT) presence.seen.splice(1, 1);
    // Two reads, one truth: stable fields keep their value.
    for (const [field, v] of Object.entries(r.fields)) {
      if (!comparable(comp, field)) continue;
      const first = values.values.get(field);
      if (!first || this.writtenSince(r, first.obs)) {
        if (v !== null) values.values.set(field, { obs: o, record: r });
        else values.values.delete(field);
        continue;
      }
      const was = first.record.fields[field];
      if (v === null || !sameValue(field, was, v)) {
        out.push(
          this.fail(
            INVARIANT_CHECKS.twoReads,
            'stated',
            `${valueKey}|${field}|${show(was)}|${show(v)}`,
            o,
            `response.body${r.site}.${field}`,
            INVARIANT_RULES.twoReads,
            `Received: ${comp.toLowerCase()} ${r.key} with ${field} ${show(v)} on ${where(o)} / Expected: ${show(was)}, as ${where(first.obs)} answered, with no request to it in between`,
          ),
        );
      }
    }
    if (comp === 'Member') for (const f of this.endState(o, r, values)) out.push(f);
    // Round trip: what a create or update sent.
    const sent = this.sent.get(r.key);
    if (sent && !this.writtenSinceExcept(r, sent.obs)) {
      for (const [field, want] of Object.entries(sent.fields)) {
        const got = r.fields[field];
        const lost = got === null && sent.acknowledged.has(field);
        if (!lost && (got === undefined || got === null || want === null || sameValue(field, want, got))) continue;
        out.push(
          this.fail(
            INVARIANT_CHECKS.roundTrip,
            'stated',
            `${valueKey}|${field}|${show(got)}`,
            o,
            `response.body${r.site}.${field}`,
            INVARIANT_RULES.roundTrip,
            `Received: ${field} ${show(got)} on ${where(o)} / Expected: ${show(want)}, as ${where(sent.obs)} sent it`,
          ),
        );
      }
    }
    // A read by the client's id (the path's last identifier) answers the record created with it.
    const lastParam = o.params ? Object.values(o.params).at(-1) : undefined;
    if (o.method === 'GET' && lastParam !== undefined && (o.records ?? []).length === 1) {
      for (const value of [lastParam]) {
        const made = this.byClientId.get(value);
        if (!made || made.component !== comp || made.key === r.key || !r.key.startsWith('guid:')) continue;
        out.push(
          this.fail(
            INVARIANT_CHECKS.roundTrip,
            'stated',
            `byid|${value}|${r.key}`,
            o,
            `response.body${r.site}`,
            INVARIANT_RULES.byClientId,
            `Received: ${r.key} to a read by client id ${JSON.stringify(value)} on ${where(o)} / Expected: ${made.key}, the record ${where(made.obs)} created with that id`,
          ),
        );
      }
    }
    if (comp === 'User' && typeof r.fields.id === 'string' && r.key.startsWith('guid:')) this.userIds.set(r.key.slice(5), r.fields.id);
    return out;
  }

  /** The write that made `sent` does not count; a later one does. */
  private writtenSinceExcept(r: ObservedRecord, since: Observation): boolean {
    const ids = [r.key.slice(r.key.indexOf(':') + 1), ...r.owners];
    return ids.some((id) => {
      const w = this.writes.get(id);
      return w !== undefined && w.seq !== since.seq && w.end > since.at[1];
    });
  }

  private endState(o: Observation, r: ObservedRecord, h: History): InvariantFinding[] {
    const state = r.fields.connection_status;
    if (typeof state !== 'string') return [];
    const code = r.fields.institution_code;
    if (typeof code === 'string') this.memberInstitution.set(r.key, code);
    const institution = this.memberInstitution.get(r.key);
    if (!this.options.testInstitutionCode || institution !== this.options.testInstitutionCode) return [];
    const settled = h.settled;
    if (settled && !this.writtenSince(r, settled.obs)) {
      const was = settled.record.fields.connection_status;
      if (was !== state) {
        return [
          this.fail(
            INVARIANT_CHECKS.twoReads,
            'stated',
            `end|${r.key}|${String(was)}|${state}`,
            o,
            `response.body${r.site}.connection_status`,
            INVARIANT_RULES.endState,
            `Received: member ${r.key} in ${state} on ${where(o)} / Expected: ${String(was)}, the end state ${where(settled.obs)} showed, with no request to the member in between`,
          ),
        ];
      }
      return [];
    }
    // CHALLENGED waits for the client's answers; the others are end states once nothing runs.
    if (END_STATES.has(state) && (state === 'CHALLENGED' || r.fields.is_being_aggregated === false)) h.settled = { obs: o, record: r };
    else h.settled = undefined;
    return [];
  }

  private readonly memberInstitution = new Map<string, string>();
  /** Resources (api, version, component) on which the target sent an explicit null: it keeps fields it has no value for. */
  private readonly sendsNulls = new Set<string>();

  private remember(o: Observation): void {
    const sent = o.sent!;
    const component = ENVELOPE_COMPONENT[sent.envelope];
    const fields = ROUND_TRIP[sent.envelope];
    if (!component || !fields) return;
    const records = (o.records ?? []).filter((r) => canonical(r.component) === component);
    const made = records.length === 0 && o.echo ? [o.echo] : records;
    if (made.length !== 1) return;
    const keep: Record<string, Kept> = {};
    for (const f of fields) if (Object.hasOwn(sent.fields, f)) keep[f] = sent.fields[f];
    // Fields the write's own answer shows as sent: the service took the value, so a later
    // read showing null has lost it (a null there is not "no value": one was written).
    const acknowledged = new Set(
      Object.keys(keep).filter((f) => keep[f] !== null && made[0].fields[f] !== undefined && sameValue(f, keep[f], made[0].fields[f])),
    );
    this.sent.set(made[0].key, { obs: o, fields: keep, acknowledged });
    if (o.method === 'POST' && typeof sent.fields.id === 'string' && sent.fields.id)
      this.byClientId.set(sent.fields.id, { key: made[0].key, component, obs: o });
  }

  // -- asked is answered

  private asked(o: Observation): InvariantFinding[] {
    const out: InvariantFinding[] = [];
    const q = new URLSearchParams(o.query);
    const records = o.records ?? [];
    if (o.api === 'platform' && o.method === 'GET' && /\/transactions$/.test(o.path)) {
      for (const field of ['category_guid', 'top_level_category_guid']) {
        const want = q.get(field);
        if (want === null || want === '') continue;
        const off = records.find((r) => typeof r.fields[field] === 'string' && r.fields[field] !== want);
        if (off)
          out.push(
            this.fail(
              INVARIANT_CHECKS.asked,
              'stated',
              `filter|${o.operation}|${field}|${want}|${off.key}`,
              o,
              `response.body${off.site}.${field}`,
              INVARIANT_RULES.filter,
              `Received: transaction ${off.key} with ${field} ${show(off.fields[field])} to ${where(o)} / Expected: only transactions with ${field} ${JSON.stringify(want)}`,
            ),
          );
      }
      for (const [from, to, field] of [
        ['from_created_at', 'to_created_at', 'created_at'],
        ['from_updated_at', 'to_updated_at', 'updated_at'],
      ] as const) {
        const lo = instant(q.get(from));
        const hi = instant(q.get(to));
        if (lo === undefined && hi === undefined) continue;
        const off = records.find((r) => {
          const t = instant(r.fields[field]);
          return t !== undefined && ((lo !== undefined && t < lo) || (hi !== undefined && t > hi + dayIfDate(q.get(to))));
        });
        if (off)
          out.push(
            this.fail(
              INVARIANT_CHECKS.asked,
              'stated',
              `filter|${o.operation}|${field}|${o.query}|${off.key}`,
              o,
              `response.body${off.site}.${field}`,
              INVARIANT_RULES.filter,
              `Received: transaction ${off.key} with ${field} ${show(off.fields[field])} to ${where(o)} / Expected: ${field} within ${q.get(from) ?? '…'} – ${q.get(to) ?? '…'}`,
            ),
          );
      }
    }
    if (o.api === 'platform' && o.method === 'GET' && o.path === '/institutions' && o.version !== undefined && o.version >= 'v20250224') {
      const want = q.getAll('supported_products').flatMap((v) =>
        v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
      if (want.length) {
        const off = records.find((r) => {
          const have = r.fields.supported_products;
          if (typeof have !== 'string' || !have.startsWith('#json:[')) return false;
          const list = JSON.parse(have.slice(6)) as unknown[];
          return want.some((p) => !list.includes(p));
        });
        if (off)
          out.push(
            this.fail(
              INVARIANT_CHECKS.asked,
              'stated',
              `filter|${o.operation}|supported_products|${want.join(',')}|${off.key}`,
              o,
              `response.body${off.site}.supported_products`,
              INVARIANT_RULES.filter,
              `Received: institution ${off.key} with supported_products ${show(off.fields.supported_products)} to ${where(o)} / Expected: only institutions supporting ${want.join(', ')}`,
            ),
          );
      }
    }
    if (o.api === 'platform' && o.method === 'POST' && /\/widget_urls$/.test(o.path) && o.sent?.envelope === 'widget_url') {
      const answer = o.widget;
      const asked = o.sent.fields.widget_type;
      if (answer && typeof asked === 'string' && typeof answer.type === 'string' && answer.type !== asked) {
        out.push(
          this.fail(
            INVARIANT_CHECKS.asked,
            'stated',
            `widget-type|${o.seq}|${o.at[0]}`,
            o,
            'response.body.widget_url.type',
            INVARIANT_RULES.widgetType,
            `Received: widget_url.type ${JSON.stringify(answer.type)} to ${where(o)} / Expected: ${JSON.stringify(asked)}, the widget_type asked for`,
          ),
        );
      }
      const user = o.params ? Object.values(o.params)[0] : undefined;
      const id = user ? this.userIds.get(user) : undefined;
      if (answer && id !== undefined && typeof answer.user_id === 'string' && answer.user_id !== id) {
        out.push(
          this.fail(
            INVARIANT_CHECKS.asked,
            'stated',
            `widget-user|${o.seq}|${o.at[0]}`,
            o,
            'response.body.widget_url.user_id',
            INVARIANT_RULES.widgetUser,
            `Received: widget_url.user_id ${JSON.stringify(answer.user_id)} to ${where(o)} / Expected: ${JSON.stringify(id)}, the id of user ${user}`,
          ),
        );
      }
    }
    if (o.api === 'test-host' && o.method === 'GET' && o.params && o.shown) {
      for (const [param, field] of [
        ['connection_status', 'connection_status'],
        ['challenge_type', 'type'],
      ] as const) {
        const want = o.params[param];
        const got = o.shown[field];
        if (want === undefined || got === undefined) continue;
        const off = got.find((v) => v.toLowerCase() !== want.toLowerCase());
        if (off !== undefined)
          out.push(
            this.fail(
              INVARIANT_CHECKS.asked,
              'stated',
              `testhost|${o.path}|${off}`,
              o,
              `response.body.${field}`,
              INVARIANT_RULES.testHostState,
              `Received: ${field} ${JSON.stringify(off)} to ${where(o)} / Expected: ${JSON.stringify(want)}, the ${param.replace('_', ' ')} the path names (any case: the casing is not shown)`,
            ),
          );
      }
    }
    return out;
  }

  // -- pages

  private paging(o: Observation): InvariantFinding[] {
    const l = o.list;
    if (!l || o.method !== 'GET' || SHARED_LISTS.has(o.path)) return [];
    const q = new URLSearchParams(o.query);
    q.delete('page');
    const scope = Object.values(o.params ?? {});
    const listKey = `${o.api}|${o.version ?? ''}|${o.path}|${[...q.entries()]
      .sort()
      .map((e) => e.join('='))
      .join('&')}`;
    let p = this.lists.get(listKey);
    if (!p) this.lists.set(listKey, (p = { pages: new Map() }));
    // A write to the list's owners between page reads reshapes the list: start again.
    for (const [page, seen] of p.pages) {
      if (
        scope.some((id) => {
          const w = this.writes.get(id);
          return w !== undefined && w.end >= seen.at[0];
        })
      )
        p.pages.delete(page);
    }
    const page = l.page ?? 1;
    p.pages.set(page, o);
    const out: InvariantFinding[] = [];
    const rule = INVARIANT_RULES.pages;
    const totalPages = [...p.pages.values()].map((x) => x.list?.pagination?.total_pages).find((n) => n !== undefined);
    // Nothing on a page past the last.
    if (totalPages !== undefined && page > Math.max(totalPages, 1) && l.ids.length > 0) {
      out.push(
        this.fail(
          INVARIANT_CHECKS.pages,
          'stated',
          `past|${listKey}|${page}`,
          o,
          `response.body.${l.key}`,
          rule,
          `Received: ${l.ids.length} records on page ${page} of ${where(o)} / Expected: none (total_pages ${totalPages})`,
        ),
      );
    }
    // No record on two pages.
    for (const [other, seen] of p.pages) {
      if (other === page) continue;
      const theirs = new Set(seen.list!.ids.filter(Boolean));
      const both = l.ids.find((id) => id && theirs.has(id));
      if (both)
        out.push(
          this.fail(
            INVARIANT_CHECKS.pages,
            'stated',
            `twice|${listKey}|${Math.min(page, other)}|${Math.max(page, other)}`,
            o,
            `response.body.${l.key}`,
            rule,
            `Received: ${both} on page ${page} (${where(o)}) and on page ${other} (${where(seen)}) / Expected: each record on one page`,
          ),
        );
    }
    // Totals agree with the pages, once every page is read.
    const total = l.pagination?.total_entries;
    if (totalPages !== undefined && total !== undefined && totalPages >= 1 && totalPages <= 2000) {
      let all = true;
      let count = 0;
      for (let n = 1; n <= totalPages && all; n++) {
        const seen = p.pages.get(n);
        if (!seen) all = false;
        else count += seen.list!.ids.length;
      }
      if (all && count !== total)
        out.push(
          this.fail(
            INVARIANT_CHECKS.pages,
            'stated',
            `total|${listKey}|${total}|${count}`,
            o,
            'response.body.pagination.total_entries',
            rule,
            `Received: total_entries ${total} while its ${totalPages} pages held ${count} records (${where(o)}) / Expected: the same number`,
          ),
        );
    }
    return out;
  }

  // -- signals

  private signals(o: Observation): InvariantFinding[] {
    if (o.api !== 'platform') return [];
    const out: InvariantFinding[] = [];
    const names = Object.keys(o.signals ?? {}).filter((n) => !/^(false|0|no)$/i.test(o.signals![n].trim()));
    const deprecationName = this.options.headerNamesExplicit ? this.options.deprecationHeader?.toLowerCase() : this.learned.deprecation?.name;
    const sunsetName = this.options.headerNamesExplicit ? this.options.sunsetHeader?.toLowerCase() : this.learned.sunset?.name;
    // Learn: the first deprecated (sunset) answer that shows such a header names it for the run.
    if (!this.options.headerNamesExplicit) {
      if (o.deprecated && !o.sunset && o.status < 400 && !this.learned.deprecation) {
        const n = names.find((x) => /deprecat/.test(x)) ?? names.find((x) => /sunset/.test(x));
        if (n) {
          this.learned.deprecation = { name: n, obs: o };
          for (const earlier of this.unjudgedSignals.splice(0)) for (const f of this.heldSignal(earlier)) out.push(f);
        }
      }
      if (o.sunset && !this.learned.sunset) {
        const n = names.find((x) => /sunset/.test(x));
        if (n) this.learned.sunset = { name: n, obs: o };
      }
    }
    if (o.deprecated && !o.sunset && o.status < 400) {
      if (deprecationName) for (const f of this.heldSignal(o)) out.push(f);
      else this.unjudgedSignals.push(o);
    }
    // A signal where none is stated: not a deprecated or sunset operation, not a deprecated or sunset version.
    const versionSignals =
      (o.version && (this.options.deprecatedVersions ?? []).includes(o.version)) ||
      (o.version && (this.options.sunsetVersions ?? []).includes(o.version)) ||
      (o.version !== undefined && this.options.currentVersion !== undefined && o.version < this.options.currentVersion);
    if (!o.deprecated && !o.sunset && !versionSignals && o.status < 400) {
      for (const [name, known] of [
        [deprecationName, true],
        [sunsetName, true],
      ] as const) {
        if (!name || !known || !names.includes(name)) continue;
        out.push(
          this.fail(
            INVARIANT_CHECKS.signals,
            'stated',
            `where|${o.operation}|${o.version ?? ''}|${name}`,
            o,
            `response.headers.${name}`,
            INVARIANT_RULES.signalWhereStated,
            `Received: ${name}: ${o.signals![name]} on ${where(o)}, an endpoint the specification does not deprecate / Expected: no deprecation or sunset signal${this.options.headerNamesExplicit ? '' : ` (${name} is the name the target sent on ${where(this.learned.deprecation?.name === name ? this.learned.deprecation.obs : this.learned.sunset!.obs)})`}`,
          ),
        );
      }
    }
    return out;
  }

  /** A deprecated answer carries the name learned from another one (a name the user set is version_conformance's to judge). */
  private heldSignal(o: Observation): InvariantFinding[] {
    const learned = this.learned.deprecation;
    if (this.options.headerNamesExplicit || !learned || learned.obs === o) return [];
    if (Object.hasOwn(o.signals ?? {}, learned.name)) return [];
    return [
      this.fail(
        INVARIANT_CHECKS.signals,
        'stated',
        `held|${o.operation}|${o.version ?? ''}|${learned.name}`,
        o,
        `response.headers.${learned.name}`,
        INVARIANT_RULES.heldSignal,
        `Received: no ${learned.name} header on deprecated ${where(o)} / Expected: ${learned.name}, as the target sent it on deprecated ${where(learned.obs)}`,
      ),
    ];
  }
}

/** An instant from a timestamp (ISO 8601, a date, or Unix seconds as on v20250224 filters: real-service-notes, Request shapes). */
function instant(v: unknown): number | undefined {
  if (typeof v === 'number') return v * 1000;
  if (typeof v !== 'string' || v === '') return undefined;
  if (/^\d{9,11}$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** A `to` bound given as a date covers that whole day. */
const dayIfDate = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? 86_400_000 - 1 : 0);

/** Every finding of a whole run's observations (all workers), taken in the order they began. */
export function judgeRun(observations: readonly Observation[], options: InvariantOptions = {}, alreadyReported: Iterable<string> = []): InvariantFinding[] {
  const byTarget = new Map<string, Observation[]>();
  for (const o of observations) {
    const t = o.target ?? '';
    let list = byTarget.get(t);
    if (!list) byTarget.set(t, (list = []));
    list.push(o);
  }
  const out: InvariantFinding[] = [];
  for (const list of byTarget.values()) {
    const ledger = new RunLedger(options);
    ledger.markReported(alreadyReported);
    // Numbered anew: every process counts its own observations from 1.
    const ordered = [...list].sort((a, b) => a.at[1] - b.at[1] || a.seq - b.seq).map((o, i) => ({ ...o, seq: i + 1 }));
    for (const o of ordered) for (const f of ledger.add(o, false)) out.push(f);
  }
  return out;
}
