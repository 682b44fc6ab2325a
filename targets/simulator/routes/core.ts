/**
 * The simulator core's state: users, members, accounts, transactions, holdings,
 * merchants, insights, repeating transactions, account owners, processor codes, and the
 * helpers every core route module shares (lookups that answer 404, body field readers,
 * time formats, webhook emission).
 *
 * Other modules (data exchange, test host) read this state through `coreState(ctx)`;
 * records are the simulator's own shape, rendered per version by the route modules.
 *
 * Time formats: resource timestamps are ISO 8601 strings (Resources: `aggregated_at`
 * "string or null"); webhook `_at` fields are Unix epoch seconds and `_on` fields are
 * YYYY-MM-DD (Events, rule 1).
 */
import type { FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import type { FaultName } from '../catalog.ts';
import { SimError } from '../errors.ts';

export const V2025 = 'v20250224';

export interface UserRecord {
  guid: string;
  id: string | null;
  email: string | null;
  metadata: string | null;
  is_disabled: boolean;
  created_at: string;
  updated_at: string;
}

export type JobType = 'aggregation' | 'history' | 'identification' | 'verification';

export interface JobRecord {
  guid: string;
  type: JobType;
  isBackground: boolean;
  startedAtMs: number;
  includeTransactions: boolean;
  includeHoldings: boolean;
}

export type ScenarioKey = 'SUCCESS' | 'CHALLENGE' | 'OPTIONS' | 'IMAGE' | 'IMAGE_OPTIONS' | 'BAD_REQUEST' | 'UNAUTHORIZED' | 'INVALID' | 'LOCKED' | 'SERVER_ERROR' | 'UNAVAILABLE' | 'UNKNOWN_PASSWORD';

export interface ChallengeRecord {
  guid: string;
  type: 'text' | 'options' | 'image' | 'image_options';
  label: string;
  /** The answer that progresses (the correct-answer word, or the correct option's value). */
  answer: string;
  options?: Array<{ guid: string; label: string; value: string; data_uri?: string }>;
  image_data?: string;
}

export interface MemberRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  institution_code: string;
  name: string;
  connection_status: string;
  is_being_aggregated: boolean;
  aggregated_at: string | null;
  successfully_aggregated_at: string | null;
  is_managed_by_user: boolean;
  is_oauth: boolean;
  metadata: string | null;
  use_cases: string[] | null;
  products: string[] | null;
  skip_aggregation: boolean;
  /** The built-in manual-institution member of a user (What the service does: manual accounts). */
  is_manual: boolean;
  /** Created through the deprecated managed-member endpoints (Versioning, v20250224). */
  is_managed: boolean;
  created_at: string;
  // --- simulator state, never rendered as such ---
  scenario: ScenarioKey;
  credentials: Array<{ guid: string; field_name: string; value: string }>;
  mfaPassed: boolean;
  challengeRound: number;
  challenges: ChallengeRecord[];
  job: JobRecord | null;
  lastStandardAggregationMs: number | null;
  verified: boolean;
  identified: boolean;
  callbackPayload: string | null;
  /** Member-webhook `version` (Events, rule 3): rises with every change. */
  version: number;
  oauthToken: string | null;
  oauthWindowUri: string | null;
  clientRedirectUrl: string | null;
  webviewScheme: string | null;
  oauthReferralSource: string | null;
  connectionStatusSetAtMs: number;
  historyExtended: boolean;
}

export interface AccountRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  member_guid: string;
  institution_code: string;
  name: string;
  type: string;
  subtype: string | null;
  balance: number;
  available_balance: number | null;
  available_credit: number | null;
  currency_code: string;
  account_number: string | null;
  routing_number: string | null;
  is_manual: boolean;
  is_hidden: boolean;
  is_closed: boolean;
  created_at: string;
  updated_at: string;
  imported_at: string | null;
  extra: Record<string, unknown>;
}

export interface TransactionRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  amount: number;
  description: string;
  type: 'CREDIT' | 'DEBIT';
  status: 'POSTED' | 'PENDING';
  date: string;
  transacted_at: string;
  posted_at: string | null;
  category_guid: string | null;
  top_level_category_guid: string | null;
  category: string | null;
  top_level_category: string | null;
  merchant_guid: string | null;
  merchant_location_guid: string | null;
  repeating_transaction_guid: string | null;
  check_number: string | null;
  is_manual: boolean;
  is_subscription: boolean;
  is_international: boolean;
  currency_code: string;
  created_at: string;
  updated_at: string;
  createdAtMs: number;
  updatedAtMs: number;
  /** Data exchange (Limits): the scope a grant must match; `HELD` for managed data, `AGGREGATED` otherwise. */
  data_scope: 'HELD' | 'AGGREGATED';
  classification: string;
}

export interface MerchantRecord {
  guid: string;
  name: string;
  logo_url: string;
  website_url: string;
  created_at: string;
  updated_at: string;
  location: { guid: string; merchant_guid: string; city: string; country: string; postal_code: string; state: string; street_address: string; latitude: number; longitude: number };
}

export interface HoldingRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  symbol: string;
  description: string;
  holding_type: string;
  shares: number;
  market_value: number;
  cost_basis: number;
  currency_code: string;
  created_at: string;
  updated_at: string;
}

export interface RepeatingRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  amount: number;
  description: string;
  /** Resources, Transaction: "a recurrence type including a twice_a_ kind". */
  recurrence_type: 'monthly' | 'twice_a_month' | 'weekly' | 'every_other_week';
  repeating_transaction_type: string;
  transaction_type: 'CREDIT' | 'DEBIT';
  created_at: string;
}

export interface InsightRecord {
  guid: string;
  user_guid: string;
  template: string;
  title: string;
  description: string;
  micro_call_to_action: string;
  cta_clicked_at: string | null;
  has_associated_repeating_transactions: boolean;
  repeatingGuids: string[];
  localization_payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AccountOwnerRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  owner_name: string;
  address: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  email: string;
  phone: string;
}

export interface CoreState {
  users: Map<string, UserRecord>;
  members: Map<string, MemberRecord>;
  accounts: Map<string, AccountRecord>;
  transactions: Map<string, TransactionRecord>;
  merchants: Map<string, MerchantRecord>;
  holdings: Map<string, HoldingRecord>;
  repeating: Map<string, RepeatingRecord>;
  insights: Map<string, InsightRecord>;
  owners: Map<string, AccountOwnerRecord>;
}

export function coreState(ctx: SimContext): CoreState {
  return {
    users: ctx.collection<UserRecord>('users'),
    members: ctx.collection<MemberRecord>('members'),
    accounts: ctx.collection<AccountRecord>('accounts'),
    transactions: ctx.collection<TransactionRecord>('transactions'),
    merchants: ctx.collection<MerchantRecord>('merchants'),
    holdings: ctx.collection<HoldingRecord>('holdings'),
    repeating: ctx.collection<RepeatingRecord>('repeating_transactions'),
    insights: ctx.collection<InsightRecord>('insights'),
    owners: ctx.collection<AccountOwnerRecord>('account_owners'),
  };
}

// ---- time -------------------------------------------------------------------------

/** ISO 8601 with offset, whole seconds (resource timestamps). */
export function isoNow(ctx: SimContext): string {
  return isoOf(ctx.clock.nowMs());
}
export function isoOf(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
/** Events, rule 1: `_at` in webhooks are Unix epoch seconds. */
export function epochOf(iso: string | null): number | null {
  return iso === null ? null : Math.floor(Date.parse(iso) / 1000);
}

// ---- lookups ------------------------------------------------------------------------

/** Users are found by guid or by the client's own `id` (v20250224 paths use `user_identifier`). */
export function findUser(ctx: SimContext, identifier: string): UserRecord {
  const users = coreState(ctx).users;
  const u = users.get(identifier) ?? [...users.values()].find((x) => x.id !== null && x.id === identifier);
  if (!u) throw new SimError('not_found', `No user "${identifier.slice(0, 80)}"`);
  return u;
}

export function findMember(ctx: SimContext, user: UserRecord, identifier: string): MemberRecord {
  const members = coreState(ctx).members;
  const m = members.get(identifier) ?? [...members.values()].find((x) => x.user_guid === user.guid && x.id !== null && x.id === identifier);
  if (!m || m.user_guid !== user.guid) throw new SimError('not_found', `No member "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return m;
}

export function findAccount(ctx: SimContext, user: UserRecord, identifier: string): AccountRecord {
  const accounts = coreState(ctx).accounts;
  const a = accounts.get(identifier) ?? [...accounts.values()].find((x) => x.user_guid === user.guid && x.id !== null && x.id === identifier);
  if (!a || a.user_guid !== user.guid) throw new SimError('not_found', `No account "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return a;
}

export function findTransaction(ctx: SimContext, user: UserRecord, identifier: string): TransactionRecord {
  const t = coreState(ctx).transactions.get(identifier);
  if (!t || t.user_guid !== user.guid) throw new SimError('not_found', `No transaction "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return t;
}

export function membersOf(ctx: SimContext, userGuid: string): MemberRecord[] {
  return [...coreState(ctx).members.values()].filter((m) => m.user_guid === userGuid);
}

export function userIdOf(ctx: SimContext, userGuid: string): string | null {
  return coreState(ctx).users.get(userGuid)?.id ?? null;
}

// ---- request bodies ---------------------------------------------------------------------

type Obj = Record<string, unknown>;

export function optString(o: Obj, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new SimError('invalid_request', `${where}.${key} must be a string, got ${typeof v}`);
  return v;
}

export function optBool(o: Obj, key: string, where: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new SimError('invalid_request', `${where}.${key} must be a boolean, got ${typeof v}`);
  return v;
}

export function optNumber(o: Obj, key: string, where: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SimError('invalid_request', `${where}.${key} must be a number, got ${typeof v}`);
  return v;
}

export function optStringArray(o: Obj, key: string, where: string): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new SimError('invalid_request', `${where}.${key} must be an array of strings`);
  return v as string[];
}

export function optObject(o: Obj, key: string, where: string): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new SimError('invalid_request', `${where}.${key} must be an object`);
  return v as Obj;
}

/** Metadata is a string (Resources, Member); objects are stored as their JSON text. */
export function optMetadata(o: Obj, where: string): string | undefined {
  const v = o.metadata;
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  throw new SimError('invalid_request', `${where}.metadata must be a string`);
}

/**
 * Versioning, "Changes in v20250224": create member and request widget URL take a
 * required `data_request` with a `products` array.
 */
export function dataRequestProducts(ctx: SimContext, o: Obj, where: string, version: string, faultName: FaultName): string[] | undefined {
  const dr = optObject(o, 'data_request', where);
  // Versioning, changes in v20250224: a required data_request. Variation
  // data-request-optional-on-v20260929: no sentence states it for v20260929, and "making a
  // required parameter optional" is non-breaking.
  const required = version >= V2025 && !ctx.fault(faultName) && !(version >= 'v20260929' && ctx.variation('data-request-optional-on-v20260929'));
  if (!dr) {
    if (required) throw new SimError('invalid_request', `${where}.data_request is required from version ${V2025}: send {"data_request": {"products": ["transactions", ...]}}`);
    return undefined;
  }
  const products = optStringArray(dr, 'products', `${where}.data_request`);
  if (!products && required) throw new SimError('invalid_request', `${where}.data_request.products must be an array of product names from version ${V2025}`);
  return products;
}

// ---- headers -----------------------------------------------------------------------------

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Events, rule 8: X-CALLBACK-PAYLOAD on create, update, aggregate or verify member and widget URL request. */
export function callbackPayloadOf(request: FastifyRequest): string | undefined {
  const v = header(request, 'x-callback-payload');
  return v === undefined || v === '' ? undefined : v;
}

/** Events, rule 8: SVC-SKIP-WEBHOOK on create, update and delete. Any value but `false`/`0` skips. */
export function skipWebhookOf(request: FastifyRequest): boolean {
  const v = header(request, 'svc-skip-webhook');
  if (v === undefined) return false;
  return !/^(false|0)$/i.test(v.trim());
}

export function baseUrlOf(request: FastifyRequest): string {
  const host = header(request, 'host') ?? '127.0.0.1';
  return `${request.protocol}://${host}`;
}

// ---- webhooks ------------------------------------------------------------------------------

/**
 * Events, rules 1, 3, 8, 9: the member webhook carries `version` (rising), `is_oauth`,
 * `use_cases`, `is_being_aggregated` and `x_callback_payload`; `_at` fields are epoch seconds.
 * Body: `{ action, version, member: {...} }` (the object named for its type, as rule 7
 * describes test webhooks).
 */
export function emitMember(ctx: SimContext, m: MemberRecord, action: string, skip = false): void {
  m.version += 1;
  const inner: Record<string, unknown> = {
    guid: m.guid,
    id: m.id,
    user_guid: m.user_guid,
    user_id: userIdOf(ctx, m.user_guid),
    institution_code: m.institution_code,
    connection_status: m.connection_status,
    connection_status_set_at: Math.floor(m.connectionStatusSetAtMs / 1000),
    is_being_aggregated: m.is_being_aggregated,
    is_oauth: m.is_oauth,
    use_cases: m.use_cases,
    aggregated_at: epochOf(m.aggregated_at),
    successfully_aggregated_at: epochOf(m.successfully_aggregated_at),
    version: m.version,
  };
  if (m.callbackPayload !== null && !ctx.fault('x-callback-payload-missing-in-member-webhook')) inner.x_callback_payload = m.callbackPayload;
  ctx.webhooks.emit({ type: 'member', body: { action, version: m.version, member: inner } }, { skip });
}

/** Other webhook types: `{ action, <type>: {...} }`; `_at` epoch seconds, `_on` dates (Events, rule 1). */
export function emitTyped(ctx: SimContext, type: string, action: string, inner: Record<string, unknown>, skip = false): void {
  ctx.webhooks.emit({ type, body: { action, [type]: inner } }, { skip });
}

export function setStatus(ctx: SimContext, m: MemberRecord, status: string): void {
  if (m.connection_status === status) return;
  m.connection_status = status;
  m.connectionStatusSetAtMs = ctx.clock.nowMs();
  emitTyped(ctx, 'connection_status', 'changed', {
    member_guid: m.guid,
    member_id: m.id,
    user_guid: m.user_guid,
    user_id: userIdOf(ctx, m.user_guid),
    connection_status: status,
    connection_status_set_at: ctx.clock.nowEpochSeconds(),
  });
}
