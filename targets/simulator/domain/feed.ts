/**
 * The data a successful aggregation creates (What the service does: aggregation gathers
 * accounts, transactions, holdings; Resources, Account, Transaction, Insight): the
 * accounts, transactions, holdings, repeating transactions and insights of the test
 * institution, the refreshed balances of a later aggregation, extended history, and the
 * results of verification and identification.
 */
import type { SimContext } from '../context.ts';
import { defaultCategories } from '../data/categories.ts';
import type { AccountRecord, JobRecord, MemberRecord, TransactionRecord } from './records.ts';
import { coreState, DAY_MS, isoNow, isoOf } from './store.ts';
import { emitTyped } from './events.ts';

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
        location: {
          guid: ctx.guid('MCL'),
          merchant_guid: guid,
          city,
          country,
          postal_code: postal,
          state: country === 'US' ? 'UT' : 'ON',
          street_address: `${100 + i} Main St`,
          latitude: 40.2 + i / 100,
          longitude: -111.6 - i / 100,
        },
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
  const nowMs = ctx.clock.nowMs(account.user_guid);
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

export function newAccount(
  ctx: SimContext,
  m: MemberRecord,
  spec: { name: string; type: string; subtype: string | null; balance: number },
  isManual: boolean,
): AccountRecord {
  const at = isoNow(ctx, m.user_guid);
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

export function aggregateData(ctx: SimContext, m: MemberRecord, job: JobRecord): void {
  const state = coreState(ctx);
  const accounts = [...state.accounts.values()].filter((a) => a.member_guid === m.guid);
  const makeTxns = !ctx.fault('no-transactions-after-aggregation');
  if (accounts.length === 0) {
    for (const kind of ACCOUNT_KINDS) {
      const a = newAccount(ctx, m, kind, false);
      if (job.includeTransactions && makeTxns)
        kind.kinds.forEach((k, i) => {
          makeTransaction(ctx, a, k, 3 + i * 6);
        });
      if (kind.type === 'INVESTMENT') makeHoldings(ctx, a);
      if (kind.type === 'CHECKING') makeRepeating(ctx, a, 'Acme Payroll Direct Deposit', 2150, 'twice_a_month', 'CREDIT', 'income');
      if (kind.type === 'CREDIT_CARD') makeRepeating(ctx, a, 'StreamFlix Subscription', 15.99, 'monthly', 'DEBIT', 'subscription');
    }
    makeInsights(ctx, m.user_guid);
    return;
  }
  const at = isoNow(ctx, m.user_guid);
  for (const a of accounts) {
    // Manual accounts "never aggregate" (What the service does); fault manual-member-aggregates.
    if (a.is_manual && !ctx.fault('manual-member-aggregates')) continue;
    if (job.type === 'history') {
      // Extended history: older transactions, a year back and more.
      if (!m.historyExtended && makeTxns)
        ACCOUNT_KINDS.find((k) => k.type === a.type)
          ?.kinds.slice(0, 2)
          .forEach((k, i) => {
            makeTransaction(ctx, a, k, 400 + i * 30);
          });
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
      for (const h of state.holdings.values())
        if (h.account_guid === a.guid) {
          h.market_value = Math.round(h.market_value * 1.01 * 100) / 100;
          h.updated_at = at;
        }
    }
    a.updated_at = at;
    a.imported_at = at;
    if (a.balance !== previous) {
      emitTyped(ctx, 'balance', 'changed', {
        account_guid: a.guid,
        member_guid: a.member_guid,
        user_guid: a.user_guid,
        balance: a.balance,
        previous_balance: previous,
        balance_updated_at: ctx.clock.nowEpochSeconds(a.user_guid),
      });
    }
  }
  if (job.type === 'history') m.historyExtended = true;
}

function makeHoldings(ctx: SimContext, a: AccountRecord): void {
  const at = isoNow(ctx, a.user_guid);
  for (const [symbol, description, type, shares, price] of [
    ['VTI', 'Total Stock Market ETF', 'EXCHANGE_TRADED_FUND', 40, 250.12],
    ['AAPL', 'Apple Inc.', 'EQUITY', 12, 190.5],
  ] as Array<[string, string, string, number, number]>) {
    const guid = ctx.guid('HOL');
    coreState(ctx).holdings.set(guid, {
      guid,
      user_guid: a.user_guid,
      member_guid: a.member_guid,
      account_guid: a.guid,
      symbol,
      description,
      holding_type: type,
      shares,
      market_value: Math.round(shares * price * 100) / 100,
      cost_basis: Math.round(shares * price * 0.8 * 100) / 100,
      currency_code: 'USD',
      created_at: at,
      updated_at: at,
    });
  }
}

function makeRepeating(
  ctx: SimContext,
  a: AccountRecord,
  description: string,
  amount: number,
  recurrence: 'monthly' | 'twice_a_month',
  type: 'CREDIT' | 'DEBIT',
  kind: string,
): void {
  const guid = ctx.guid('RPT');
  coreState(ctx).repeating.set(guid, {
    guid,
    user_guid: a.user_guid,
    member_guid: a.member_guid,
    account_guid: a.guid,
    amount,
    description,
    recurrence_type: recurrence,
    repeating_transaction_type: kind,
    transaction_type: type,
    created_at: isoNow(ctx, a.user_guid),
  });
  for (const t of coreState(ctx).transactions.values()) if (t.account_guid === a.guid && t.description === description) t.repeating_transaction_guid = guid;
}

function makeInsights(ctx: SimContext, userGuid: string): void {
  const state = coreState(ctx);
  if ([...state.insights.values()].some((i) => i.user_guid === userGuid)) return;
  const subscriptions = [...state.repeating.values()]
    .filter((r) => r.user_guid === userGuid && r.repeating_transaction_type === 'subscription')
    .map((r) => r.guid);
  const at = isoNow(ctx, userGuid);
  // Resources, Insight: the three templates that support localization_payload.
  const templates: Array<[string, string, string, Record<string, unknown>]> = [
    [
      'BillAmountNotStandard',
      'A bill is higher than usual',
      'Your StreamFlix bill is $3.00 higher than usual.',
      { template: 'BillAmountNotStandard', merchant_name: 'StreamFlix', amount: 15.99, usual_amount: 12.99, currency_code: 'USD' },
    ],
    [
      'MonthlySubscriptionAggregateV2',
      'Your subscriptions this month',
      'You paid $15.99 for 1 subscription this month.',
      { template: 'MonthlySubscriptionAggregateV2', subscription_count: 1, total_amount: 15.99, currency_code: 'USD' },
    ],
    [
      'SubscriptionPriceIncrease',
      'A subscription price went up',
      'StreamFlix went up by $3.00.',
      { template: 'SubscriptionPriceIncrease', merchant_name: 'StreamFlix', old_amount: 12.99, new_amount: 15.99, currency_code: 'USD' },
    ],
  ];
  for (const [template, title, description, payload] of templates) {
    const guid = ctx.guid('BET');
    state.insights.set(guid, {
      guid,
      user_guid: userGuid,
      template,
      title,
      description,
      micro_call_to_action: 'View details',
      cta_clicked_at: null,
      has_associated_repeating_transactions: subscriptions.length > 0 && template !== 'BillAmountNotStandard',
      repeatingGuids: template !== 'BillAmountNotStandard' ? subscriptions : [],
      localization_payload: payload,
      created_at: at,
      updated_at: at,
    });
  }
}

export function verifyAccounts(ctx: SimContext, m: MemberRecord): void {
  m.verified = true;
  const accounts = [...coreState(ctx).accounts.values()].filter((a) => a.member_guid === m.guid && (a.type === 'CHECKING' || a.type === 'SAVINGS'));
  accounts.forEach((a, i) => {
    a.account_number = a.account_number ?? `${1000000000 + coreState(ctx).accounts.size * 10 + i}`;
    a.routing_number = '091000019';
  });
  emitTyped(ctx, 'verification', 'completed', {
    member_guid: m.guid,
    user_guid: m.user_guid,
    accounts: accounts.map((a) => ({ account_guid: a.guid, account_number: a.account_number, routing_number: a.routing_number })),
    completed_at: ctx.clock.nowEpochSeconds(m.user_guid),
  });
}

export function identifyOwners(ctx: SimContext, m: MemberRecord): void {
  m.identified = true;
  const state = coreState(ctx);
  for (const a of state.accounts.values()) {
    if (a.member_guid !== m.guid || [...state.owners.values()].some((o) => o.account_guid === a.guid)) continue;
    const guid = ctx.guid('ACO');
    state.owners.set(guid, {
      guid,
      user_guid: m.user_guid,
      member_guid: m.guid,
      account_guid: a.guid,
      owner_name: 'Jordan Q. Sample',
      address: '123 Main St',
      city: 'Provo',
      state: 'UT',
      postal_code: '84601',
      country: 'US',
      email: 'jordan.sample@example.com',
      phone: '555-555-0100',
    });
  }
}
