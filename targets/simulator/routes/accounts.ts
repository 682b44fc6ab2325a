/**
 * Accounts, manual accounts, accounts merge, holdings and merchants (What the service
 * does; Resources, Account and Transaction; Endpoints, "Other endpoints named").
 *
 *   GET    /users/{u}/accounts                       paged { accounts }
 *   GET    /users/{u}/accounts/{a}                   { account }
 *   GET    /users/{u}/members/{m}/accounts[/{a}]     same, per member
 *   POST   /users/{u}/accounts                       manual account { account: { name, account_type, balance, id? } }
 *   PUT    /users/{u}/accounts/{a}                   { account: { name?, is_hidden?, balance? (manual only), id? } }
 *   PUT    /users/{u}/members/{m}/accounts/{a}       same
 *   DELETE /users/{u}/accounts/{a}                   manual accounts only, 204
 *   POST   /users/{u}/accounts/merge                 { account: { account_guids: [keep, other, ...] } } -> { account }
 *   GET    /users/{u}/holdings[/{h}], /users/{u}/accounts/{a}/holdings, /users/{u}/members/{m}/holdings
 *   GET    /merchants, /merchants/{merchant_guid}, /merchant_locations/{merchant_location_guid}
 *
 * Manual accounts: every manual account of a user is created under the user's one built-in
 * manual-institution member (institution code `manual_institution`), which carries no
 * credentials and never aggregates. Merge keeps the first account, moves the others'
 * transactions and holdings onto it and deletes the others (request shape not shown in
 * the specification: the simulator's).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { wrapper } from './query.ts';
import { findInstitution } from './institutions.ts';
import {
  coreState,
  findAccount,
  findMember,
  findUser,
  isoNow,
  optBool,
  optNumber,
  optString,
  optStringArray,
  userIdOf,
  type AccountRecord,
  type MemberRecord,
  type UserRecord,
} from './core.ts';
import { newAccount, runDueRefreshes } from './aggregation.ts';

export const MANUAL_INSTITUTION_CODE = 'manual_institution';
/** Fault account-member-guid-wrong: a well-formed member guid that names no member of the user. */
const NOBODY_MEMBER_GUID = 'MBR-00000000-0000-4000-8000-000000000000';

/** The user's built-in manual-institution member, created on first use. */
export function manualMember(ctx: SimContext, user: UserRecord): MemberRecord {
  const members = coreState(ctx).members;
  const existing = [...members.values()].find((m) => m.user_guid === user.guid && m.is_manual);
  if (existing && !ctx.fault('manual-account-outside-manual-member')) return existing;
  const at = isoNow(ctx);
  const m: MemberRecord = {
    guid: ctx.guid('MBR'), id: null, user_guid: user.guid, institution_code: MANUAL_INSTITUTION_CODE, name: 'Manual Institution',
    connection_status: 'CONNECTED', is_being_aggregated: false, aggregated_at: null, successfully_aggregated_at: null, is_managed_by_user: true,
    is_oauth: false, metadata: null, use_cases: null, products: null, skip_aggregation: true, is_manual: true, is_managed: false, created_at: at,
    scenario: 'SUCCESS', credentials: [], mfaPassed: true, challengeRound: 0, challenges: [], job: null, lastStandardAggregationMs: null, verified: false,
    identified: false, callbackPayload: null, version: 0, oauthToken: null, oauthWindowUri: null, clientRedirectUrl: null, webviewScheme: null,
    oauthReferralSource: null, connectionStatusSetAtMs: ctx.clock.nowMs(), historyExtended: false,
  };
  members.set(m.guid, m);
  return m;
}

export function renderAccount(ctx: SimContext, a: AccountRecord): Record<string, unknown> {
  const m = coreState(ctx).members.get(a.member_guid);
  const holdingsValue = [...coreState(ctx).holdings.values()].filter((h) => h.account_guid === a.guid).reduce((s, h) => s + h.market_value, 0);
  const credit = a.type === 'CREDIT_CARD';
  const pending = [...coreState(ctx).transactions.values()].filter((t) => t.account_guid === a.guid && t.status === 'PENDING').reduce((s, t) => s + t.amount, 0);
  // What the service does: manual accounts "receive no data feed" (fault manual-account-has-feed).
  const fed = !a.is_manual || ctx.fault('manual-account-has-feed');
  // Conventions for _set_by fields: FEED, USER or SYSTEM (fault set-by-integer: v20111101's integers everywhere).
  const setBy = ctx.fault('set-by-integer') ? (fed ? 1 : 2) : fed ? 'FEED' : 'USER';
  const out: Record<string, unknown> = {
    guid: a.guid,
    id: a.id,
    user_guid: a.user_guid,
    user_id: userIdOf(ctx, a.user_guid),
    // What the service does: "An account ... belongs to a member" (fault account-member-guid-wrong).
    member_guid: ctx.fault('account-member-guid-wrong') ? NOBODY_MEMBER_GUID : a.member_guid,
    member_id: m?.id ?? null,
    institution_code: a.institution_code,
    institution_guid: findInstitution(ctx, a.institution_code)?.guid ?? null,
    member_is_managed_by_user: m?.is_managed_by_user ?? true,
    name: a.name,
    type: a.type,
    subtype: a.subtype,
    balance: a.balance,
    available_balance: a.available_balance,
    available_credit: a.available_credit,
    currency_code: a.currency_code,
    is_manual: a.is_manual,
    is_hidden: a.is_hidden,
    is_closed: a.is_closed,
    is_personal: true,
    federal_insurance_status: a.type === 'CHECKING' || a.type === 'SAVINGS' ? 'INSURED' : 'NOT_INSURED',
    calculated_apr: credit ? 21.99 : null,
    cash_advance_apr: credit ? 27.99 : null,
    holdings_value: a.type === 'INVESTMENT' ? Math.round(holdingsValue * 100) / 100 : null,
    hold_total: null,
    pending_balance: null,
    pending_transactions_total: Math.round(pending * 100) / 100,
    statement_balance: credit ? a.balance : null,
    statement_on: credit ? isoNow(ctx).slice(0, 8) + '01' : null,
    last_payment_on: credit ? isoNow(ctx).slice(0, 8) + '01' : null,
    loan_amount: null,
    premium_amount: null,
    insured_name: null,
    pay_out_amount: null,
    death_benefit: null,
    cash_surrender_value: null,
    balance_set_by: setBy,
    available_balance_set_by: setBy,
    name_set_by: setBy,
    feed_balance: fed ? a.balance : null,
    feed_available_balance: fed ? a.available_balance : null,
    feed_name: fed ? a.name : null,
    created_at: a.created_at,
    updated_at: a.updated_at,
    imported_at: a.imported_at,
    ...a.extra,
  };
  if (ctx.fault('account-balance-removed')) delete out.balance;
  // Resources, Account: "plus *_set_by and feed_* variants" (fault account-set-by-feed-fields-removed).
  if (ctx.fault('account-set-by-feed-fields-removed')) for (const k of Object.keys(out)) if (k.endsWith('_set_by') || k.startsWith('feed_')) delete out[k];
  // Variation account-fields-null (Resources, Account: no nullness stated; real-service-notes, Nullability).
  if (ctx.variation('account-fields-null')) for (const k of ['available_balance', 'is_personal', 'institution_guid', 'member_is_managed_by_user']) out[k] = null;
  if (ctx.variation('new-enum-values')) {
    // Versioning: "Enumerated response fields (for example account subtype) may gain values."
    out.subtype = 'SIM_NEW_SUBTYPE';
    for (const k of Object.keys(out)) if (k.endsWith('_set_by')) out[k] = 'SIM_NEW_SOURCE';
  }
  return out;
}

function parseAccountFields(o: Record<string, unknown>) {
  return {
    id: optString(o, 'id', 'account'),
    name: optString(o, 'name', 'account'),
    type: optString(o, 'account_type', 'account') ?? optString(o, 'type', 'account'),
    subtype: optString(o, 'account_subtype', 'account') ?? optString(o, 'subtype', 'account'),
    balance: optNumber(o, 'balance', 'account'),
    isHidden: optBool(o, 'is_hidden', 'account'),
  };
}

export function applyAccountUpdate(ctx: SimContext, a: AccountRecord, o: Record<string, unknown>): void {
  const f = parseAccountFields(o);
  if (f.balance !== undefined && !a.is_manual) throw new SimError('invalid_request', 'account.balance can be set on manual accounts only (aggregated balances come from the feed)');
  if (f.id !== undefined) a.id = f.id;
  if (f.name !== undefined) a.name = f.name;
  if (f.isHidden !== undefined) a.is_hidden = f.isHidden;
  if (f.balance !== undefined) a.balance = a.available_balance = f.balance;
  a.updated_at = isoNow(ctx);
}

type UserParams = { Params: { user_guid: string } };
type AccountParams = { Params: { user_guid: string; account_guid: string; member_guid?: string } };

export function registerAccounts(app: FastifyInstance, ctx: SimContext): void {
  const state = () => coreState(ctx);
  const list = (request: FastifyRequest, items: AccountRecord[]) => {
    const page = pageList(ctx, items, request.query as Record<string, unknown>);
    return { accounts: page.items.map((a) => renderAccount(ctx, a)), pagination: page.pagination };
  };

  app.get<UserParams>('/users/:user_guid/accounts', async (request) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return list(request, [...state().accounts.values()].filter((a) => a.user_guid === user.guid));
  });
  app.get<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    return { account: renderAccount(ctx, findAccount(ctx, user, request.params.account_guid)) };
  });
  app.get<{ Params: { user_guid: string; member_guid: string } }>('/users/:user_guid/members/:member_guid/accounts', async (request) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    const m = findMember(ctx, user, request.params.member_guid);
    return list(request, [...state().accounts.values()].filter((a) => a.member_guid === m.guid));
  });
  const memberAccount = (request: FastifyRequest<AccountParams>) => {
    const user = findUser(ctx, request.params.user_guid);
    const m = findMember(ctx, user, request.params.member_guid!);
    const a = findAccount(ctx, user, request.params.account_guid);
    if (a.member_guid !== m.guid) throw new SimError('not_found', `Account ${a.guid} does not belong to member ${m.guid}`);
    return a;
  };
  app.get<AccountParams>('/users/:user_guid/members/:member_guid/accounts/:account_guid', async (request) => ({ account: renderAccount(ctx, memberAccount(request)) }));

  app.post<UserParams>('/users/:user_guid/accounts', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const f = parseAccountFields(wrapper(request.body, 'account'));
    if (ctx.variation('required-parameter-made-optional')) {
      // Versioning: "making a required parameter optional" is non-breaking.
      f.type ??= 'OTHER';
      f.balance ??= 0;
    }
    if (!f.name) throw new SimError('invalid_request', 'account.name is required');
    if (!f.type) throw new SimError('invalid_request', 'account.account_type is required (e.g. CHECKING, SAVINGS, CASH)');
    if (f.balance === undefined) throw new SimError('invalid_request', 'account.balance is required (a number)');
    const a = newAccount(ctx, manualMember(ctx, user), { name: f.name, type: f.type.toUpperCase(), subtype: f.subtype ?? null, balance: f.balance }, true);
    a.id = f.id ?? null;
    if (f.isHidden !== undefined) a.is_hidden = f.isHidden;
    return { account: renderAccount(ctx, a) };
  });

  app.put<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const a = findAccount(ctx, user, request.params.account_guid);
    applyAccountUpdate(ctx, a, wrapper(request.body, 'account'));
    return { account: renderAccount(ctx, a) };
  });
  app.put<AccountParams>('/users/:user_guid/members/:member_guid/accounts/:account_guid', async (request) => {
    const a = memberAccount(request);
    applyAccountUpdate(ctx, a, wrapper(request.body, 'account'));
    return { account: renderAccount(ctx, a) };
  });

  app.delete<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request, reply) => {
    const user = findUser(ctx, request.params.user_guid);
    const a = findAccount(ctx, user, request.params.account_guid);
    if (!a.is_manual) throw new SimError('unprocessable', 'Only manual accounts can be deleted; delete the member to remove aggregated accounts');
    deleteAccount(ctx, a);
    return reply.code(204).send();
  });

  app.post<UserParams>('/users/:user_guid/accounts/merge', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const guids = optStringArray(wrapper(request.body, 'account'), 'account_guids', 'account');
    if (!guids || guids.length < 2) throw new SimError('invalid_request', 'account.account_guids must list at least two account guids; the first is kept');
    if (new Set(guids).size !== guids.length) throw new SimError('invalid_request', 'account.account_guids lists an account twice');
    const [keep, ...others] = guids.map((g) => findAccount(ctx, user, g));
    for (const other of others) {
      for (const t of state().transactions.values()) if (t.account_guid === other.guid) {
        t.account_guid = keep.guid;
        t.member_guid = keep.member_guid;
        t.updated_at = isoNow(ctx);
        t.updatedAtMs = ctx.clock.nowMs();
      }
      for (const h of state().holdings.values()) if (h.account_guid === other.guid) { h.account_guid = keep.guid; h.member_guid = keep.member_guid; }
      if (!ctx.fault('merge-keeps-source-accounts')) state().accounts.delete(other.guid);
    }
    keep.updated_at = isoNow(ctx);
    return { account: renderAccount(ctx, keep) };
  });

  // ---- holdings --------------------------------------------------------------------
  const holdings = (request: FastifyRequest, filter: (h: { account_guid: string; member_guid: string; user_guid: string }) => boolean) => {
    const page = pageList(ctx, [...state().holdings.values()].filter(filter), request.query as Record<string, unknown>);
    return { holdings: page.items, pagination: page.pagination };
  };
  app.get<UserParams>('/users/:user_guid/holdings', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    return holdings(request, (h) => h.user_guid === user.guid);
  });
  app.get<{ Params: { user_guid: string; holding_guid: string } }>('/users/:user_guid/holdings/:holding_guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const h = state().holdings.get(request.params.holding_guid);
    if (!h || h.user_guid !== user.guid) throw new SimError('not_found', `No holding "${request.params.holding_guid.slice(0, 80)}"`);
    return { holding: h };
  });
  app.get<AccountParams>('/users/:user_guid/accounts/:account_guid/holdings', async (request) => {
    const a = findAccount(ctx, findUser(ctx, request.params.user_guid), request.params.account_guid);
    return holdings(request, (h) => h.account_guid === a.guid);
  });
  app.get<{ Params: { user_guid: string; member_guid: string } }>('/users/:user_guid/members/:member_guid/holdings', async (request) => {
    const m = findMember(ctx, findUser(ctx, request.params.user_guid), request.params.member_guid);
    return holdings(request, (h) => h.member_guid === m.guid);
  });

  // ---- merchants (Resources, Transaction: name, logo_url, website_url) ----------------------
  const renderMerchant = (guid: string) => {
    const m = state().merchants.get(guid);
    if (!m) throw new SimError('not_found', `No merchant "${guid.slice(0, 80)}"`);
    return { guid: m.guid, name: m.name, logo_url: m.logo_url, website_url: m.website_url, created_at: m.created_at, updated_at: m.updated_at };
  };
  app.get('/merchants', async (request) => {
    const page = pageList(ctx, [...state().merchants.keys()], request.query as Record<string, unknown>);
    return { merchants: page.items.map(renderMerchant), pagination: page.pagination };
  });
  app.get<{ Params: { merchant_guid: string } }>('/merchants/:merchant_guid', async (request) => ({ merchant: renderMerchant(request.params.merchant_guid) }));
  app.get<{ Params: { guid: string } }>('/merchant_locations/:guid', async (request) => {
    const m = [...state().merchants.values()].find((x) => x.location.guid === request.params.guid);
    if (!m) throw new SimError('not_found', `No merchant location "${request.params.guid.slice(0, 80)}"`);
    return { merchant_location: m.location };
  });
}

export function deleteAccount(ctx: SimContext, a: AccountRecord): void {
  const s = coreState(ctx);
  s.accounts.delete(a.guid);
  for (const map of [s.transactions, s.holdings, s.repeating, s.owners] as Array<Map<string, { account_guid: string }>>) {
    for (const [k, v] of map) if (v.account_guid === a.guid) map.delete(k);
  }
}
