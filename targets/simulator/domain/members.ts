/**
 * Member operations (Resources, Member; States and transitions; Endpoints, "Widgets and
 * members"; Events, rules 8 and 9; Versioning, "Changes in v20250224"; Limits, aggregation
 * throttle): create, update, delete, answer challenges, and the requests that start
 * aggregation-type jobs. The jobs themselves are aggregation.ts; routes/members.ts parses
 * the requests, picks the status and renders the member.
 *
 * Choices where the specification is silent (README, "Simulator"):
 * - A request for aggregate, verify or extend_history while a job runs starts nothing.
 * - Resume on a member that is not CHALLENGED is `unprocessable`; a missing answer `invalid_request`.
 * - `skip_aggregation` true (before v20250224) creates the member `PENDING` without a job;
 *   from v20250224 it is deprecated and ignored: `data_request.products` decides what is
 *   aggregated (without `transactions`/`transaction_history` no transactions are made).
 * - Manual-institution and managed members carry no credentials and never aggregate.
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { TEST_OAUTH_INSTITUTION_CODE } from '../data/institutions.ts';
import { V2025, type MemberRecord, type UserRecord } from './records.ts';
import { coreState, findInstitution, isoNow } from './store.ts';
import { emitMember } from './events.ts';
import { answerChallenges, scenarioOf, startJob, throttleMs } from './aggregation.ts';
import { issueOauthWindow } from './oauth.ts';

/** Removes a member with its accounts and their data, and says so by webhook. */
export function deleteMember(ctx: SimContext, m: MemberRecord, skipWebhook: boolean): void {
  const s = coreState(ctx);
  s.members.delete(m.guid);
  m.job = null;
  for (const map of [s.accounts, s.transactions, s.holdings, s.repeating, s.owners] as Array<Map<string, { member_guid: string }>>) {
    for (const [k, v] of map) if (v.member_guid === m.guid) map.delete(k);
  }
  emitMember(ctx, m, 'deleted', skipWebhook);
}

/** DELETE member (fault member-delete-not-removed: the member stays). */
export function removeMember(ctx: SimContext, m: MemberRecord, skipWebhook: boolean): void {
  if (!ctx.fault('member-delete-not-removed')) deleteMember(ctx, m, skipWebhook);
}

export interface CredentialInput {
  guid: string;
  field_name: string;
  value: string;
}

export interface NewMemberInput {
  user: UserRecord;
  institutionCode: string;
  id?: string;
  isOauth: boolean;
  credentials?: CredentialInput[];
  metadata?: string;
  useCases?: string[];
  products?: string[];
  skipAggregation: boolean;
  callbackPayload?: string;
  clientRedirectUrl?: string;
  scheme?: string;
  referral?: string;
  baseUrl: string;
  skipWebhook: boolean;
  isManagedByUser?: boolean;
}

/** Creates a member and starts what follows (OAuth window, or the first aggregation). */
export function createMember(ctx: SimContext, input: NewMemberInput): MemberRecord {
  const institution = findInstitution(ctx, input.institutionCode);
  if (!institution) throw new SimError('not_found', `No institution "${input.institutionCode.slice(0, 80)}"`);
  const oauthInstitution = institution.supports_oauth || institution.code === TEST_OAUTH_INSTITUTION_CODE;
  if (input.isOauth && !oauthInstitution)
    throw new SimError('invalid_request', `Institution ${institution.code} does not support OAuth; use ${TEST_OAUTH_INSTITUTION_CODE}`);
  if (!input.isOauth && !input.credentials?.length) {
    throw new SimError(
      'invalid_request',
      oauthInstitution && institution.code === TEST_OAUTH_INSTITUTION_CODE
        ? `${institution.code} is an OAuth institution: create the member with "is_oauth": true`
        : 'member.credentials is required (the user name and password of the institution)',
    );
  }
  if (input.id !== undefined && [...coreState(ctx).members.values()].some((m) => m.user_guid === input.user.guid && m.id === input.id)) {
    throw new SimError('conflict', `The user already has a member with id "${input.id.slice(0, 80)}"`);
  }
  const now = ctx.clock.nowMs(input.user.guid);
  const m: MemberRecord = {
    guid: ctx.guid('MBR'),
    id: input.id ?? null,
    user_guid: input.user.guid,
    institution_code: institution.code,
    name: institution.name,
    connection_status: 'PENDING',
    is_being_aggregated: false,
    aggregated_at: ctx.fault('aggregated-at-set-before-aggregation') ? isoNow(ctx, input.user.guid) : null,
    successfully_aggregated_at: null,
    is_managed_by_user: input.isManagedByUser ?? true,
    is_oauth: input.isOauth,
    metadata: input.metadata ?? null,
    use_cases: input.useCases ?? null,
    products: input.products ?? null,
    skip_aggregation: input.skipAggregation,
    is_manual: false,
    is_managed: false,
    created_at: isoNow(ctx, input.user.guid),
    scenario: scenarioOf(
      ctx,
      (input.credentials ?? []).filter((c) => c.field_name !== 'username').map((c) => c.value),
    ),
    credentials: input.credentials ?? [],
    mfaPassed: false,
    challengeRound: 0,
    challenges: [],
    job: null,
    lastStandardAggregationMs: null,
    verified: false,
    identified: false,
    callbackPayload: input.callbackPayload ?? null,
    version: 0,
    oauthToken: null,
    oauthWindowUri: null,
    clientRedirectUrl: input.clientRedirectUrl ?? null,
    webviewScheme: input.scheme ?? null,
    oauthReferralSource: input.referral ?? null,
    connectionStatusSetAtMs: now,
    historyExtended: false,
  };
  coreState(ctx).members.set(m.guid, m);
  if (m.is_oauth) {
    // States and transitions: create with is_oauth -> PENDING, aggregated_at null, oauth_window_uri returned.
    issueOauthWindow(ctx, m, input.baseUrl);
    if (ctx.fault('oauth-member-not-pending')) m.connection_status = 'CONNECTED';
    emitMember(ctx, m, 'created', input.skipWebhook);
    return m;
  }
  emitMember(ctx, m, 'created', input.skipWebhook);
  // Fault products-ignored-on-v20250224 (inferred): transactions are aggregated whatever data_request.products names.
  const includeTransactions = wantsTransactions(m.products) || ctx.fault('products-ignored-on-v20250224');
  if (!input.skipAggregation) startJob(ctx, m, 'aggregation', { includeTransactions, skipWebhook: input.skipWebhook, cause: 'create' });
  return m;
}

/**
 * Whether a create request skips the first aggregation. Resources, Member: skip_aggregation
 * (boolean; deprecated in version v20250224); Versioning: from v20250224 "aggregation is
 * assumed unless data_request.products says otherwise", so the flag is ignored there.
 * Fault skip-aggregation-ignored: before v20250224 skip_aggregation true still aggregates.
 * Fault aggregation-not-assumed-on-v20250224: from v20250224 a member aggregates only when
 * skip_aggregation false is sent explicitly.
 */
export function skipAggregationOf(ctx: SimContext, version: string, requested: boolean | undefined): boolean {
  if (version < V2025) return ctx.fault('skip-aggregation-ignored') ? false : (requested ?? false);
  return ctx.fault('aggregation-not-assumed-on-v20250224') ? requested !== false : false;
}

/** Versioning, v20250224: aggregation is assumed unless data_request.products says otherwise. */
function wantsTransactions(products: string[] | null | undefined): boolean {
  return !products || products.some((p) => ['transactions', 'transaction_history', 'history'].includes(p));
}

export function assertAggregatable(ctx: SimContext, m: MemberRecord): void {
  // Fault manual-member-aggregates: the manual-institution member aggregates like any other.
  if (m.is_manual && !ctx.fault('manual-member-aggregates'))
    throw new SimError('unprocessable', 'The manual-institution member never aggregates (What the service does: manual accounts)');
  if (m.is_managed) throw new SimError('unprocessable', 'A managed member carries no credentials and does not aggregate');
  if (m.is_oauth && m.connection_status === 'PENDING' && !m.successfully_aggregated_at) {
    throw new SimError('unprocessable', 'The OAuth member is not authorized yet: load its oauth_window_uri first');
  }
}

/** Limits: extended history, verification and identification are never throttled (fault aggregation-throttles-other-jobs). */
function throttleOtherJob(ctx: SimContext, m: MemberRecord): void {
  if (!ctx.fault('aggregation-throttles-other-jobs')) return;
  if (m.lastStandardAggregationMs !== null && ctx.clock.nowMs(m.user_guid) - m.lastStandardAggregationMs < throttleMs(ctx)) {
    throw new SimError('aggregation_throttled', 'The member was aggregated recently; this job is throttled');
  }
}

export interface MemberUpdate {
  id?: string;
  metadata?: string;
  credentials?: CredentialInput[];
  skipAggregation?: boolean;
  callbackPayload?: string;
  clientRedirectUrl?: string;
  scheme?: string;
}

/** PUT member: new credentials choose the scenario again and re-aggregate (unless skipped before v20250224). */
export function updateMember(ctx: SimContext, m: MemberRecord, u: MemberUpdate, version: string, skipWebhook: boolean): void {
  // Fault member-update-not-saved: the update answers like a success and changes nothing.
  if (ctx.fault('member-update-not-saved')) return;
  if (u.id !== undefined) m.id = u.id;
  if (u.metadata !== undefined) m.metadata = u.metadata;
  if (u.callbackPayload !== undefined) m.callbackPayload = u.callbackPayload;
  if (u.clientRedirectUrl !== undefined) m.clientRedirectUrl = u.clientRedirectUrl;
  if (u.scheme !== undefined) m.webviewScheme = u.scheme;
  if (u.credentials?.length) {
    if (m.is_oauth || m.is_manual || m.is_managed) throw new SimError('invalid_request', 'This member takes no credentials');
    m.credentials = u.credentials;
    m.scenario = scenarioOf(
      ctx,
      u.credentials.filter((c) => c.field_name !== 'username').map((c) => c.value),
    );
    m.mfaPassed = false;
    m.challengeRound = 0;
    m.challenges = [];
    if (!m.job && !(version < V2025 && u.skipAggregation)) {
      startJob(ctx, m, 'aggregation', { includeTransactions: wantsTransactions(m.products), skipWebhook, cause: 'update' });
      return;
    }
  }
  emitMember(ctx, m, 'updated', skipWebhook);
}

/** PUT .../resume: answers every challenge of a CHALLENGED member. */
export function resumeMember(ctx: SimContext, m: MemberRecord, answers: Map<string, string>, skipWebhook: boolean): void {
  if (m.connection_status !== 'CHALLENGED' || m.challenges.length === 0) {
    throw new SimError('unprocessable', `The member is ${m.connection_status}, not CHALLENGED: there is nothing to answer`);
  }
  const missing = m.challenges.filter((c) => !answers.has(c.guid));
  if (missing.length) throw new SimError('invalid_request', `Answer every challenge; missing: ${missing.map((c) => c.guid).join(', ')}`);
  // Fault resume-ignores-answers: the member keeps waiting on the same challenges.
  if (!ctx.fault('resume-ignores-answers')) answerChallenges(ctx, m, answers, skipWebhook);
}

/**
 * A standard aggregation request (the caller has checked assertAggregatable). Starts nothing
 * while a job runs; Limits: a standard aggregation starts (and obeys) the throttle period.
 */
export function requestAggregation(
  ctx: SimContext,
  m: MemberRecord,
  opts: { includeHoldings?: boolean; includeTransactions?: boolean; callbackPayload?: string },
): void {
  if (opts.callbackPayload !== undefined) m.callbackPayload = opts.callbackPayload;
  if (m.job) return;
  const period = throttleMs(ctx);
  const now = ctx.clock.nowMs(m.user_guid);
  if (m.lastStandardAggregationMs !== null && now - m.lastStandardAggregationMs < period && !ctx.fault('standard-aggregation-not-throttled')) {
    const until = new Date(m.lastStandardAggregationMs + period).toISOString();
    throw new SimError('aggregation_throttled', `The member was aggregated recently; standard aggregation is throttled until ${until}`);
  }
  m.lastStandardAggregationMs = now;
  // Fault aggregate-starts-nothing: accepted, and no aggregation runs.
  if (ctx.fault('aggregate-starts-nothing')) return;
  startJob(ctx, m, 'aggregation', {
    heldForReads: true,
    includeHoldings: opts.includeHoldings ?? true,
    includeTransactions: (opts.includeTransactions ?? true) && wantsTransactions(m.products),
  });
}

/** Verification or extended history (the caller has checked assertAggregatable); nothing starts while a job runs. */
export function requestOtherJob(ctx: SimContext, m: MemberRecord, type: 'verification' | 'history', callbackPayload: string | undefined): void {
  if (callbackPayload !== undefined) m.callbackPayload = callbackPayload;
  if (m.job) return;
  throttleOtherJob(ctx, m);
  // Faults verify-starts-nothing / extend-history-starts-nothing: accepted, and no job runs.
  if (ctx.fault(type === 'verification' ? 'verify-starts-nothing' : 'extend-history-starts-nothing')) return;
  startJob(ctx, m, type, { heldForReads: type === 'history' });
}

/**
 * Identification (the caller has checked assertAggregatable). Answers what happened; the
 * route picks the status (Endpoints, identify behaviour: 202 while an identification runs,
 * 409 while another aggregation-type job runs).
 */
export function requestIdentification(ctx: SimContext, m: MemberRecord): 'started' | 'ignored' | 'identifying' | 'other-job' {
  // Fault identify-starts-nothing: accepted, and no identification runs (no account owners).
  if (ctx.fault('identify-starts-nothing')) return 'ignored';
  if (m.job) return m.job.type === 'identification' ? 'identifying' : 'other-job';
  throttleOtherJob(ctx, m);
  startJob(ctx, m, 'identification', { heldForReads: true });
  return 'started';
}

const MANUAL_INSTITUTION_CODE = 'manual_institution';

/** What a manual and a managed member differ in: every other field is the same. */
type ConnectedWithoutAggregationFields = Pick<
  MemberRecord,
  'id' | 'institution_code' | 'name' | 'is_managed_by_user' | 'metadata' | 'is_manual' | 'is_managed'
>;

/**
 * A member whose data the client supplies (a manual or a managed member): CONNECTED at
 * once, never aggregated, no credentials (What the service does: manual accounts carry
 * no credentials and never aggregate; Versioning: managed members).
 */
function connectedWithoutAggregation(ctx: SimContext, user: UserRecord, own: ConnectedWithoutAggregationFields): MemberRecord {
  const at = isoNow(ctx, user.guid);
  return {
    guid: ctx.guid('MBR'),
    id: own.id,
    user_guid: user.guid,
    institution_code: own.institution_code,
    name: own.name,
    connection_status: 'CONNECTED',
    is_being_aggregated: false,
    aggregated_at: null,
    successfully_aggregated_at: null,
    is_managed_by_user: own.is_managed_by_user,
    is_oauth: false,
    metadata: own.metadata,
    use_cases: null,
    products: null,
    skip_aggregation: true,
    is_manual: own.is_manual,
    is_managed: own.is_managed,
    created_at: at,
    scenario: 'SUCCESS',
    credentials: [],
    mfaPassed: true,
    challengeRound: 0,
    challenges: [],
    job: null,
    lastStandardAggregationMs: null,
    verified: false,
    identified: false,
    callbackPayload: null,
    version: 0,
    oauthToken: null,
    oauthWindowUri: null,
    clientRedirectUrl: null,
    webviewScheme: null,
    oauthReferralSource: null,
    connectionStatusSetAtMs: ctx.clock.nowMs(user.guid),
    historyExtended: false,
  };
}

/**
 * The user's built-in manual-institution member, created on first use (What the service
 * does: manual accounts carry no credentials and never aggregate).
 */
export function manualMember(ctx: SimContext, user: UserRecord): MemberRecord {
  const members = coreState(ctx).members;
  const existing = [...members.values()].find((m) => m.user_guid === user.guid && m.is_manual);
  if (existing && !ctx.fault('manual-account-outside-manual-member')) return existing;
  const m = connectedWithoutAggregation(ctx, user, {
    id: null,
    institution_code: MANUAL_INSTITUTION_CODE,
    name: 'Manual Institution',
    is_managed_by_user: true,
    metadata: null,
    is_manual: true,
    is_managed: false,
  });
  members.set(m.guid, m);
  return m;
}

/**
 * A managed member (Versioning, v20250224: deprecated managed-member endpoints): its data
 * is supplied by the client, so it is CONNECTED at once and never aggregates.
 */
export function createManagedMember(
  ctx: SimContext,
  user: UserRecord,
  input: { institutionCode: string; id?: string; name?: string; metadata?: string },
): MemberRecord {
  const inst = findInstitution(ctx, input.institutionCode);
  if (!inst) throw new SimError('not_found', `No institution "${input.institutionCode.slice(0, 80)}"`);
  const m = connectedWithoutAggregation(ctx, user, {
    id: input.id ?? null,
    institution_code: inst.code,
    name: input.name ?? inst.name,
    is_managed_by_user: false,
    metadata: input.metadata ?? null,
    is_manual: false,
    is_managed: true,
  });
  coreState(ctx).members.set(m.guid, m);
  return m;
}
