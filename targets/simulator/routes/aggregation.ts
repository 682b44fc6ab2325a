/**
 * The aggregation engine: test-institution scenarios, MFA challenges, aggregation-type
 * jobs on the simulator clock, the data a successful aggregation creates, and the
 * 24-hour refresh.
 *
 * Scenario (Endpoints, "Earlier-generation test paths", test-institution table): the
 * password credential selects it; the passwords are settings (the specification shows
 * placeholders). A password that matches no scenario is treated as invalid credentials.
 *
 * States (States and transitions, Member connection_status). The specification's table
 * and end states are followed; transitions it does not show are the simulator's choice:
 * - success (and any scenario once its MFA is passed): `CONNECTED` at once with
 *   `is_being_aggregated` true, false when the job completes ("aggregation has begun").
 * - every other scenario: `PENDING` with `is_being_aggregated` true while the
 *   institution is asked, then its end state (`DENIED`, `HALTED`) or `CHALLENGED`.
 * - `CHALLENGED`: `is_being_aggregated` false (the job waits for answers, nothing runs);
 *   `challenges` on the status read. A correct answer starts the job again; the text
 *   scenario then returns a follow-up challenge ("first challenge, then a follow-up"),
 *   the others connect. A wrong answer ends in `DENIED` (the simulator's choice; the
 *   specification does not show it).
 * - `aggregated_at` stays null until the first job completes (Resources, Member), then
 *   records every completed aggregation attempt; `successfully_aggregated_at` only
 *   successful ones.
 *
 * Jobs: one at a time per member; each runs `settings.aggregationMs` milliseconds.
 * Throttle (Limits, "aggregation throttle"): an explicit standard aggregation request
 * starts a throttle period of `aggregationThrottleMs` simulator milliseconds, during
 * which further standard aggregation requests answer 429 `aggregation_throttled`;
 * extended history, verification and identification are never throttled.
 *
 * 24-hour refresh (What the service does; Limits): a CONNECTED member whose last
 * successful aggregation is 24 simulator hours old gets a background aggregation
 * (`is_background` true), unless its user is disabled. It runs when the clock moves
 * (POST /_sim/clock, POST /_sim/refresh) and lazily on member, account and transaction reads.
 */
import type { SimContext } from '../context.ts';
import { defaultCategories } from '../data/categories.ts';
import { errorBody } from '../errors.ts';
import {
  coreState,
  emitMember,
  emitTyped,
  isoNow,
  isoOf,
  setStatus,
  userIdOf,
  type AccountRecord,
  type ChallengeRecord,
  type JobRecord,
  type JobType,
  type MemberRecord,
  type ScenarioKey,
  type TransactionRecord,
} from './core.ts';

export const DAY_MS = 86_400_000;
/** Default throttle period (simulator milliseconds): one hour. Not shown in the specification. */
export const DEFAULT_THROTTLE_MS = 3_600_000;

const MFA_SCENARIOS: ReadonlySet<ScenarioKey> = new Set(['CHALLENGE', 'OPTIONS', 'IMAGE', 'IMAGE_OPTIONS']);

export function throttleMs(ctx: SimContext): number {
  return ctx.settings.aggregationThrottleMs ?? DEFAULT_THROTTLE_MS;
}

/** The scenario the credentials select: the value that equals a configured password. */
export function scenarioOf(ctx: SimContext, values: string[]): ScenarioKey {
  for (const [key, password] of Object.entries(ctx.settings.passwords)) {
    if (values.includes(password)) return key as ScenarioKey;
  }
  return 'UNKNOWN_PASSWORD';
}

type Outcome = 'CONNECTED' | 'CHALLENGED' | 'DENIED' | 'HALTED';

function outcomeOf(ctx: SimContext, m: MemberRecord): Outcome {
  if (m.is_oauth || m.is_managed) return 'CONNECTED';
  switch (m.scenario) {
    case 'SUCCESS':
      return 'CONNECTED';
    case 'CHALLENGE':
    case 'OPTIONS':
    case 'IMAGE':
    case 'IMAGE_OPTIONS':
      return m.mfaPassed ? 'CONNECTED' : 'CHALLENGED';
    case 'BAD_REQUEST':
    case 'SERVER_ERROR':
    case 'UNAVAILABLE':
      return ctx.fault('halted-reported-as-denied') ? 'DENIED' : 'HALTED';
    case 'LOCKED':
      return ctx.fault('locked-reported-as-connected') ? 'CONNECTED' : 'DENIED';
    default:
      return 'DENIED';
  }
}

/** Whether the credentials are accepted at once (the job begins as CONNECTED). */
function acceptedAtStart(ctx: SimContext, m: MemberRecord): boolean {
  return outcomeOf(ctx, m) === 'CONNECTED';
}

/** A 1x1 PNG: the image of the image challenges (no external assets). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The challenge set of the member's scenario and round (test-institution table). */
export function buildChallenges(ctx: SimContext, m: MemberRecord): ChallengeRecord[] {
  const right = ctx.settings.correctAnswer;
  const option = (label: string, value: string, image = false) => ({ guid: ctx.guid('CIO'), label, value, ...(image ? { data_uri: PIXEL } : {}) });
  switch (m.scenario) {
    case 'CHALLENGE':
      return [
        m.challengeRound === 0
          ? { guid: ctx.guid('CRD'), type: 'text', label: 'What city were you born in?', answer: right }
          : { guid: ctx.guid('CRD'), type: 'text', label: 'What is the name of your first pet? (follow-up)', answer: right },
      ];
    case 'OPTIONS':
      return [{ guid: ctx.guid('CRD'), type: 'options', label: 'Choose the correct option', answer: right, options: [option('wrong-1', 'wrong-1'), option(right, right), option('wrong-2', 'wrong-2')] }];
    case 'IMAGE':
      return [{ guid: ctx.guid('CRD'), type: 'image', label: 'Type the word shown in the image', answer: right, image_data: PIXEL }];
    case 'IMAGE_OPTIONS':
      return [{ guid: ctx.guid('CRD'), type: 'image_options', label: 'Choose the correct image', answer: right, options: [option('wrong-1', 'wrong-1', true), option(right, right, true)] }];
    default:
      return [];
  }
}

/** Rounds of challenges before the scenario connects (text MFA has a follow-up). */
export function roundsOf(ctx: SimContext, m: MemberRecord): number {
  if (m.scenario === 'CHALLENGE') return ctx.fault('follow-up-challenge-missing') ? 1 : 2;
  return MFA_SCENARIOS.has(m.scenario) ? 1 : 0;
}

export interface JobOptions {
  isBackground?: boolean;
  includeTransactions?: boolean;
  includeHoldings?: boolean;
  skipWebhook?: boolean;
  /**
   * What started the job, for the variation intermediate-connection-statuses: the
   * member reads CREATED / RESUMED / UPDATED while the institution is asked.
   */
  cause?: 'create' | 'resume' | 'update';
}

const INTERMEDIATE_STATUS = { create: 'CREATED', resume: 'RESUMED', update: 'UPDATED' } as const;

/** Variation slow-aggregation: jobs run four times as long (their duration is not stated). */
export function jobDurationMs(ctx: SimContext): number {
  return ctx.settings.aggregationMs * (ctx.variation('slow-aggregation') ? 4 : 1);
}

/** Starts an aggregation-type job; the caller has checked that none runs. */
export function startJob(ctx: SimContext, m: MemberRecord, type: JobType, opts: JobOptions = {}): JobRecord {
  const job: JobRecord = {
    guid: ctx.guid('JOB'),
    type,
    isBackground: opts.isBackground ?? false,
    startedAtMs: ctx.clock.nowMs(),
    includeTransactions: opts.includeTransactions ?? true,
    includeHoldings: opts.includeHoldings ?? true,
  };
  m.job = job;
  m.is_being_aggregated = true;
  // Variation intermediate-connection-statuses (States and transitions: other transitions
  // "not shown"; real-service-notes, Enumerations): CREATED / RESUMED / UPDATED first; an
  // accepted member turns CONNECTED half-way through the job (is_being_aggregated still true).
  const intermediate = opts.cause && !m.is_oauth && ctx.variation('intermediate-connection-statuses') ? INTERMEDIATE_STATUS[opts.cause] : undefined;
  if (type === 'aggregation' || type === 'history') {
    const accepted = acceptedAtStart(ctx, m);
    if (intermediate) {
      setStatus(ctx, m, intermediate);
      if (accepted) ctx.later(Math.floor(jobDurationMs(ctx) / 2), () => {
        if (m.job === job && m.connection_status === intermediate) setStatus(ctx, m, 'CONNECTED');
      });
    } else if (accepted) setStatus(ctx, m, 'CONNECTED');
    else if (m.connection_status !== 'CHALLENGED' || m.challenges.length === 0) setStatus(ctx, m, 'PENDING');
    m.challenges = [];
  }
  emitMember(ctx, m, 'updated', opts.skipWebhook);
  ctx.later(jobDurationMs(ctx), () => settle(ctx, m, job));
  return job;
}

function settle(ctx: SimContext, m: MemberRecord, job: JobRecord): void {
  const state = coreState(ctx);
  if (state.members.get(m.guid) !== m || m.job !== job) return; // deleted or superseded
  m.job = null;
  const now = isoNow(ctx);
  if (job.type === 'aggregation' || job.type === 'history') {
    const outcome = outcomeOf(ctx, m);
    if (outcome === 'CHALLENGED') {
      m.challenges = buildChallenges(ctx, m);
      setStatus(ctx, m, 'CHALLENGED');
      // Variation aggregating-while-challenged: is_being_aggregated while CHALLENGED is not stated.
      m.is_being_aggregated = ctx.variation('aggregating-while-challenged');
      emitMember(ctx, m, 'updated');
      return;
    }
    setStatus(ctx, m, outcome);
    m.aggregated_at = now;
    if (outcome === 'CONNECTED') {
      m.successfully_aggregated_at = now;
      aggregateData(ctx, m, job);
      if (m.products?.includes('account_verification')) verifyAccounts(ctx, m);
      if (m.products?.includes('identity_verification')) identifyOwners(ctx, m);
    }
    emitTyped(ctx, 'aggregation', 'completed', {
      job_guid: ctx.fault('aggregation-webhook-missing-job-guid') ? undefined : job.guid,
      is_background: job.isBackground,
      user_id: userIdOf(ctx, m.user_guid),
      user_guid: m.user_guid,
      member_guid: m.guid,
      member_id: m.id,
      connection_status: m.connection_status,
      started_at: Math.floor(job.startedAtMs / 1000),
      completed_at: ctx.clock.nowEpochSeconds(),
      completed_on: ctx.clock.today(),
    });
    if (outcome === 'CONNECTED') {
      const inner: Record<string, unknown> = { member_guid: m.guid, user_guid: m.user_guid, user_id: userIdOf(ctx, m.user_guid), job_guid: job.guid, completed_at: ctx.clock.nowEpochSeconds() };
      if (m.callbackPayload !== null && !ctx.fault('x-callback-payload-missing-in-member-webhook')) inner.x_callback_payload = m.callbackPayload;
      emitTyped(ctx, 'member_data_updated', 'updated', inner);
      if (job.type === 'history') emitTyped(ctx, 'history', 'completed', { job_guid: job.guid, member_guid: m.guid, user_guid: m.user_guid, completed_at: ctx.clock.nowEpochSeconds() });
    }
  } else if (job.type === 'verification') {
    if (m.connection_status === 'CONNECTED') verifyAccounts(ctx, m);
  } else if (job.type === 'identification') {
    if (m.connection_status === 'CONNECTED') identifyOwners(ctx, m);
  }
  m.is_being_aggregated = ctx.fault('is-being-aggregated-stuck-true');
  emitMember(ctx, m, 'updated');
}

/** Answers MFA challenges (PUT .../resume). Returns false for a wrong answer. */
export function answerChallenges(ctx: SimContext, m: MemberRecord, answers: Map<string, string>, skipWebhook: boolean): boolean {
  const right = m.challenges.every((c) => {
    const given = answers.get(c.guid);
    return given === c.answer || (c.options?.some((o) => o.value === c.answer && o.guid === given) ?? false);
  });
  if (!right && !ctx.fault('wrong-answer-connects')) {
    m.challenges = [];
    setStatus(ctx, m, 'DENIED');
    m.aggregated_at = isoNow(ctx);
    m.is_being_aggregated = false;
    emitMember(ctx, m, 'updated', skipWebhook);
    return false;
  }
  m.challengeRound += 1;
  if (m.challengeRound >= roundsOf(ctx, m)) m.mfaPassed = true;
  startJob(ctx, m, 'aggregation', { skipWebhook, cause: 'resume' });
  return true;
}

// ---- data ------------------------------------------------------------------------------

const MERCHANTS: Array<[string, string, string, string, boolean]> = [
  // name, city, country, postal code, international
  ['Corner Grocery', 'Provo', 'US', '84601', false],
  ['Bean There Coffee', 'Lehi', 'US', '84043', false],
  ['StreamFlix', 'Los Gatos', 'US', '95032', false],
  ['Fuel Stop', 'Orem', 'US', '84057', false],
  ['Maple Outfitters', 'Toronto', 'CA', 'M5H 2N2', true],
  ['Acme Payroll', 'Salt Lake City', 'US', '84101', false],
];

function ensureMerchants(ctx: SimContext): string[] {
  const merchants = coreState(ctx).merchants;
  if (merchants.size === 0) {
    const at = isoNow(ctx);
    MERCHANTS.forEach(([name, city, country, postal], i) => {
      const guid = ctx.guid('MCH');
      const slug = name.toLowerCase().replace(/[^a-z]+/g, '');
      merchants.set(guid, {
        guid,
        name,
        logo_url: `https://logos.svc.example/${slug}.png`,
        website_url: `https://${slug}.example`,
        created_at: at,
        updated_at: at,
        location: { guid: ctx.guid('MCL'), merchant_guid: guid, city, country, postal_code: postal, state: country === 'US' ? 'UT' : 'ON', street_address: `${100 + i} Main St`, latitude: 40.2 + i / 100, longitude: -111.6 - i / 100 },
      });
    });
  }
  return [...merchants.keys()];
}

function category(name: string): { guid: string; name: string; top: { guid: string; name: string } } {
  const all = defaultCategories();
  const c = all.find((x) => x.name === name) ?? all[0];
  const top = c.parent_guid ? all.find((x) => x.guid === c.parent_guid)! : c;
  return { guid: c.guid, name: c.name, top: { guid: top.guid, name: top.name } };
}

const TXN_KINDS: Array<{ description: string; category: string; merchant: number; amount: number; type: 'CREDIT' | 'DEBIT'; subscription?: boolean }> = [
  { description: 'Corner Grocery', category: 'Groceries', merchant: 0, amount: 54.12, type: 'DEBIT' },
  { description: 'Bean There Coffee', category: 'Coffee Shops', merchant: 1, amount: 4.75, type: 'DEBIT' },
  { description: 'StreamFlix Subscription', category: 'Streaming Services', merchant: 2, amount: 15.99, type: 'DEBIT', subscription: true },
  { description: 'Fuel Stop', category: 'Gas', merchant: 3, amount: 38.4, type: 'DEBIT' },
  { description: 'Maple Outfitters', category: 'Clothing', merchant: 4, amount: 89.0, type: 'DEBIT' },
  { description: 'Acme Payroll Direct Deposit', category: 'Paycheck', merchant: 5, amount: 2150.0, type: 'CREDIT' },
];

export function makeTransaction(
  ctx: SimContext,
  account: AccountRecord,
  kindIndex: number,
  dayOffset: number,
  overrides: Partial<TransactionRecord> = {},
): TransactionRecord {
  const merchants = ensureMerchants(ctx);
  const kind = TXN_KINDS[kindIndex % TXN_KINDS.length];
  const cat = category(kind.category);
  const merchant = coreState(ctx).merchants.get(merchants[kind.merchant])!;
  const nowMs = ctx.clock.nowMs();
  const day = isoOf(nowMs - dayOffset * DAY_MS).slice(0, 10);
  const at = isoOf(nowMs);
  const t: TransactionRecord = {
    guid: ctx.guid('TRN'),
    id: null,
    user_guid: account.user_guid,
    member_guid: account.member_guid,
    account_guid: account.guid,
    amount: kind.amount,
    description: kind.description,
    type: kind.type,
    status: dayOffset === 0 ? 'PENDING' : 'POSTED',
    date: day,
    transacted_at: `${day}T12:00:00Z`,
    posted_at: dayOffset === 0 ? null : `${day}T18:00:00Z`,
    category_guid: cat.guid,
    top_level_category_guid: cat.top.guid,
    category: cat.name,
    top_level_category: cat.top.name,
    merchant_guid: merchant.guid,
    merchant_location_guid: merchant.location.guid,
    repeating_transaction_guid: null,
    // Resources, Transaction: check_number is a string; only check payments carry one.
    check_number: kind.type === 'DEBIT' && dayOffset % 7 === 3 ? String(1000 + dayOffset) : null,
    is_manual: false,
    is_subscription: kind.subscription ?? false,
    is_international: merchant.location.country !== 'US',
    currency_code: 'USD',
    created_at: at,
    updated_at: at,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    data_scope: 'AGGREGATED',
    classification: kind.type === 'CREDIT' ? 'income' : kind.subscription ? 'subscription' : 'spending',
    ...overrides,
  };
  coreState(ctx).transactions.set(t.guid, t);
  return t;
}

const ACCOUNT_KINDS: Array<{ name: string; type: string; subtype: string | null; balance: number; kinds: number[] }> = [
  { name: 'Everyday Checking', type: 'CHECKING', subtype: 'NONE', balance: 2412.55, kinds: [0, 1, 5, 3, 0, 5, 1] },
  { name: 'High Yield Savings', type: 'SAVINGS', subtype: 'HIGH_YIELD', balance: 10250.0, kinds: [5] },
  { name: 'Rewards Card', type: 'CREDIT_CARD', subtype: 'NONE', balance: 512.33, kinds: [2, 4, 1, 2, 3] },
  { name: 'Brokerage', type: 'INVESTMENT', subtype: 'BROKERAGE', balance: 15830.2, kinds: [] },
];

export function newAccount(ctx: SimContext, m: MemberRecord, spec: { name: string; type: string; subtype: string | null; balance: number }, isManual: boolean): AccountRecord {
  const at = isoNow(ctx);
  const a: AccountRecord = {
    guid: ctx.guid('ACT'),
    id: null,
    user_guid: m.user_guid,
    member_guid: m.guid,
    institution_code: m.institution_code,
    name: spec.name,
    type: spec.type,
    subtype: spec.subtype,
    balance: spec.balance,
    available_balance: spec.type === 'CREDIT_CARD' ? null : spec.balance,
    available_credit: spec.type === 'CREDIT_CARD' ? 5000 - spec.balance : null,
    currency_code: 'USD',
    account_number: null,
    routing_number: null,
    is_manual: isManual,
    is_hidden: false,
    is_closed: false,
    created_at: at,
    updated_at: at,
    imported_at: isManual ? null : at,
    extra: {},
  };
  coreState(ctx).accounts.set(a.guid, a);
  return a;
}

function aggregateData(ctx: SimContext, m: MemberRecord, job: JobRecord): void {
  const state = coreState(ctx);
  const accounts = [...state.accounts.values()].filter((a) => a.member_guid === m.guid);
  const makeTxns = !ctx.fault('no-transactions-after-aggregation');
  if (accounts.length === 0) {
    for (const kind of ACCOUNT_KINDS) {
      const a = newAccount(ctx, m, kind, false);
      if (job.includeTransactions && makeTxns) kind.kinds.forEach((k, i) => makeTransaction(ctx, a, k, 3 + i * 6));
      if (kind.type === 'INVESTMENT') makeHoldings(ctx, a);
      if (kind.type === 'CHECKING') makeRepeating(ctx, a, 'Acme Payroll Direct Deposit', 2150, 'twice_a_month', 'CREDIT', 'income');
      if (kind.type === 'CREDIT_CARD') makeRepeating(ctx, a, 'StreamFlix Subscription', 15.99, 'monthly', 'DEBIT', 'subscription');
    }
    makeInsights(ctx, m.user_guid);
    return;
  }
  const at = isoNow(ctx);
  for (const a of accounts) {
    // Manual accounts "never aggregate" (What the service does); fault manual-member-aggregates.
    if (a.is_manual && !ctx.fault('manual-member-aggregates')) continue;
    if (job.type === 'history') {
      // Extended history: older transactions, a year back and more.
      if (!m.historyExtended && makeTxns) ACCOUNT_KINDS.find((k) => k.type === a.type)?.kinds.slice(0, 2).forEach((k, i) => makeTransaction(ctx, a, k, 400 + i * 30));
      continue;
    }
    const previous = a.balance;
    if (a.type !== 'INVESTMENT' && job.includeTransactions && makeTxns) {
      const kind = ACCOUNT_KINDS.find((k) => k.type === a.type)?.kinds[0];
      if (kind !== undefined) makeTransaction(ctx, a, kind, 0);
      a.balance = Math.round((a.balance + (a.type === 'SAVINGS' ? 12.5 : -10)) * 100) / 100;
      if (a.available_balance !== null) a.available_balance = a.balance;
    }
    if (a.type === 'INVESTMENT' && job.includeHoldings) {
      for (const h of state.holdings.values()) if (h.account_guid === a.guid) {
        h.market_value = Math.round(h.market_value * 1.01 * 100) / 100;
        h.updated_at = at;
      }
    }
    a.updated_at = at;
    a.imported_at = at;
    if (a.balance !== previous) {
      emitTyped(ctx, 'balance', 'changed', { account_guid: a.guid, member_guid: a.member_guid, user_guid: a.user_guid, balance: a.balance, previous_balance: previous, balance_updated_at: ctx.clock.nowEpochSeconds() });
    }
  }
  if (job.type === 'history') m.historyExtended = true;
}

function makeHoldings(ctx: SimContext, a: AccountRecord): void {
  const at = isoNow(ctx);
  for (const [symbol, description, type, shares, price] of [
    ['VTI', 'Total Stock Market ETF', 'EXCHANGE_TRADED_FUND', 40, 250.12],
    ['AAPL', 'Apple Inc.', 'EQUITY', 12, 190.5],
  ] as Array<[string, string, string, number, number]>) {
    const guid = ctx.guid('HOL');
    coreState(ctx).holdings.set(guid, {
      guid, user_guid: a.user_guid, member_guid: a.member_guid, account_guid: a.guid, symbol, description, holding_type: type,
      shares, market_value: Math.round(shares * price * 100) / 100, cost_basis: Math.round(shares * price * 0.8 * 100) / 100, currency_code: 'USD', created_at: at, updated_at: at,
    });
  }
}

function makeRepeating(ctx: SimContext, a: AccountRecord, description: string, amount: number, recurrence: 'monthly' | 'twice_a_month', type: 'CREDIT' | 'DEBIT', kind: string): void {
  const guid = ctx.guid('RPT');
  coreState(ctx).repeating.set(guid, {
    guid, user_guid: a.user_guid, member_guid: a.member_guid, account_guid: a.guid, amount, description, recurrence_type: recurrence,
    repeating_transaction_type: kind, transaction_type: type, created_at: isoNow(ctx),
  });
  for (const t of coreState(ctx).transactions.values()) if (t.account_guid === a.guid && t.description === description) t.repeating_transaction_guid = guid;
}

function makeInsights(ctx: SimContext, userGuid: string): void {
  const state = coreState(ctx);
  if ([...state.insights.values()].some((i) => i.user_guid === userGuid)) return;
  const subscriptions = [...state.repeating.values()].filter((r) => r.user_guid === userGuid && r.repeating_transaction_type === 'subscription').map((r) => r.guid);
  const at = isoNow(ctx);
  // Resources, Insight: the three templates that support localization_payload.
  const templates: Array<[string, string, string, Record<string, unknown>]> = [
    ['BillAmountNotStandard', 'A bill is higher than usual', 'Your StreamFlix bill is $3.00 higher than usual.', { template: 'BillAmountNotStandard', merchant_name: 'StreamFlix', amount: 15.99, usual_amount: 12.99, currency_code: 'USD' }],
    ['MonthlySubscriptionAggregateV2', 'Your subscriptions this month', 'You paid $15.99 for 1 subscription this month.', { template: 'MonthlySubscriptionAggregateV2', subscription_count: 1, total_amount: 15.99, currency_code: 'USD' }],
    ['SubscriptionPriceIncrease', 'A subscription price went up', 'StreamFlix went up by $3.00.', { template: 'SubscriptionPriceIncrease', merchant_name: 'StreamFlix', old_amount: 12.99, new_amount: 15.99, currency_code: 'USD' }],
  ];
  for (const [template, title, description, payload] of templates) {
    const guid = ctx.guid('BET');
    state.insights.set(guid, {
      guid, user_guid: userGuid, template, title, description, micro_call_to_action: 'View details', cta_clicked_at: null,
      has_associated_repeating_transactions: subscriptions.length > 0 && template !== 'BillAmountNotStandard',
      repeatingGuids: template !== 'BillAmountNotStandard' ? subscriptions : [], localization_payload: payload, created_at: at, updated_at: at,
    });
  }
}

function verifyAccounts(ctx: SimContext, m: MemberRecord): void {
  m.verified = true;
  const accounts = [...coreState(ctx).accounts.values()].filter((a) => a.member_guid === m.guid && (a.type === 'CHECKING' || a.type === 'SAVINGS'));
  accounts.forEach((a, i) => {
    a.account_number = a.account_number ?? `${1000000000 + coreState(ctx).accounts.size * 10 + i}`;
    a.routing_number = '091000019';
  });
  emitTyped(ctx, 'verification', 'completed', { member_guid: m.guid, user_guid: m.user_guid, accounts: accounts.map((a) => ({ account_guid: a.guid, account_number: a.account_number, routing_number: a.routing_number })), completed_at: ctx.clock.nowEpochSeconds() });
}

function identifyOwners(ctx: SimContext, m: MemberRecord): void {
  m.identified = true;
  const state = coreState(ctx);
  for (const a of state.accounts.values()) {
    if (a.member_guid !== m.guid || [...state.owners.values()].some((o) => o.account_guid === a.guid)) continue;
    const guid = ctx.guid('ACO');
    state.owners.set(guid, {
      guid, user_guid: m.user_guid, member_guid: m.guid, account_guid: a.guid, owner_name: 'Jordan Q. Sample', address: '123 Main St', city: 'Provo', state: 'UT',
      postal_code: '84601', country: 'US', email: 'jordan.sample@example.com', phone: '555-555-0100',
    });
  }
}

// ---- 24-hour refresh ----------------------------------------------------------------------

/**
 * Starts the background aggregations that are due; answers how many started.
 * `only` limits the pass to one user's members and judges them `elapsedMs` later than
 * the clock says (simulator control, below): scenarios age their own user without moving
 * the shared clock under scenarios running in parallel.
 */
export function runDueRefreshes(ctx: SimContext, only?: { userGuid: string; elapsedMs: number }): number {
  if (ctx.fault('no-daily-refresh')) return 0;
  const state = coreState(ctx);
  const now = ctx.clock.nowMs() + (only?.elapsedMs ?? 0);
  let started = 0;
  for (const m of state.members.values()) {
    if (only && m.user_guid !== only.userGuid) continue;
    if (m.is_manual || m.is_managed || m.job || m.connection_status !== 'CONNECTED' || !m.successfully_aggregated_at) continue;
    if (now - Date.parse(m.successfully_aggregated_at) < DAY_MS) continue;
    const user = state.users.get(m.user_guid);
    if (user?.is_disabled && !ctx.fault('refresh-for-disabled-users')) continue;
    startJob(ctx, m, 'aggregation', { isBackground: true });
    started += 1;
  }
  return started;
}

/**
 * Simulator control (never part of the svc contract): POST /_sim/refresh starts the
 * 24-hour refreshes that are due; moving the clock (POST /_sim/clock) does the same.
 * With a body `{ "user_guid": "USR-...", "elapsed_ms": n }` it judges only that user's
 * members, as if n more milliseconds had passed (the clock itself does not move).
 */
export function registerCoreControl(app: import('fastify').FastifyInstance, ctx: SimContext): void {
  app.post('/refresh', async (request, reply) => {
    const body = (request.body ?? {}) as { user_guid?: unknown; elapsed_ms?: unknown };
    if (body.user_guid === undefined && body.elapsed_ms === undefined) return { started: runDueRefreshes(ctx) };
    if (typeof body.user_guid !== 'string' || typeof body.elapsed_ms !== 'number' || !Number.isFinite(body.elapsed_ms) || body.elapsed_ms < 0) {
      return reply.code(400).send(errorBody('invalid_request', 'Send {} or {"user_guid": "USR-...", "elapsed_ms": <non-negative number>}'));
    }
    return { started: runDueRefreshes(ctx, { userGuid: body.user_guid, elapsedMs: body.elapsed_ms }) };
  });
  app.addHook('onResponse', async (request) => {
    if (request.method === 'POST' && request.url.split('?')[0] === '/_sim/clock') runDueRefreshes(ctx);
  });
}
