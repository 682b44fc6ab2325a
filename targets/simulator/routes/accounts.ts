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
 * The operations (manual accounts, merge, delete) are ../domain/accounts.ts; this module
 * parses, renders and looks up.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { wrapper } from './query.ts';
import { optBool, optNumber, optString, optStringArray } from './request.ts';
import type { AccountRecord } from '../domain/records.ts';
import { coreState, findAccount, findInstitution, findMember, findUser, isoNow, userIdOf } from '../domain/store.ts';
import { runDueRefreshes } from '../domain/aggregation.ts';
import { createManualAccount, deleteManualAccount, findMemberAccount, mergeAccounts, updateAccount, type AccountFields } from '../domain/accounts.ts';

/** Fault account-member-guid-wrong: a well-formed member guid that names no member of the user. */
const NOBODY_MEMBER_GUID = 'MBR-00000000-0000-4000-8000-000000000000';

export function renderAccount(ctx: SimContext, a: AccountRecord, version?: string): Record<string, unknown> {
  const m = coreState(ctx).members.get(a.member_guid);
  const holdingsValue = [...coreState(ctx).holdings.values()].filter((h) => h.account_guid === a.guid).reduce((s, h) => s + h.market_value, 0);
  const credit = a.type === 'CREDIT_CARD';
  const pending = [...coreState(ctx).transactions.values()]
    .filter((t) => t.account_guid === a.guid && t.status === 'PENDING')
    .reduce((s, t) => s + t.amount, 0);
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
    statement_on: credit ? `${isoNow(ctx).slice(0, 8)}01` : null,
    last_payment_on: credit ? `${isoNow(ctx).slice(0, 8)}01` : null,
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
  // Resources, Account: "plus *_set_by and feed_* variants" (fault account-set-by-feed-fields-removed).
  if (ctx.fault('account-set-by-feed-fields-removed')) for (const k of Object.keys(out)) if (k.endsWith('_set_by') || k.startsWith('feed_')) delete out[k];
  // Variation v20250224-accounts-without-variants (Resources, Account: the field list names no
  // version; real-service-notes, Enumerations: the vendor's v20250224 accounts carry no
  // *_set_by and no feed_* field, nor institution_guid, calculated_apr or holdings_value).
  if (ctx.variation('v20250224-accounts-without-variants') && version !== undefined && version >= 'v20250224') {
    for (const k of Object.keys(out))
      if (k.endsWith('_set_by') || k.startsWith('feed_') || ['institution_guid', 'calculated_apr', 'holdings_value'].includes(k)) delete out[k];
  }
  // Variation account-fields-null (Resources, Account: no nullness stated; real-service-notes, Nullability).
  if (ctx.variation('account-fields-null'))
    for (const k of ['available_balance', 'is_personal', 'institution_guid', 'member_is_managed_by_user']) out[k] = null;
  if (ctx.variation('new-enum-values')) {
    // Versioning: "Enumerated response fields (for example account subtype) may gain values."
    out.subtype = 'SIM_NEW_SUBTYPE';
    for (const k of Object.keys(out)) if (k.endsWith('_set_by')) out[k] = 'SIM_NEW_SOURCE';
  }
  return out;
}

export function parseAccountFields(o: Record<string, unknown>): AccountFields {
  return {
    id: optString(o, 'id', 'account'),
    name: optString(o, 'name', 'account'),
    type: optString(o, 'account_type', 'account') ?? optString(o, 'type', 'account'),
    subtype: optString(o, 'account_subtype', 'account') ?? optString(o, 'subtype', 'account'),
    balance: optNumber(o, 'balance', 'account'),
    isHidden: optBool(o, 'is_hidden', 'account'),
  };
}

type UserParams = { Params: { user_guid: string } };
type AccountParams = { Params: { user_guid: string; account_guid: string; member_guid?: string } };

export function registerAccounts(app: FastifyInstance, ctx: SimContext): void {
  const state = () => coreState(ctx);
  const list = (request: FastifyRequest, items: AccountRecord[]) => {
    const page = pageList(ctx, items, request.query as Record<string, unknown>);
    const listed = page.items.map((a) => renderAccount(ctx, a, request.svcVersion));
    // Fault account-list-balance-rounded: the lists disagree with the account's own read.
    if (ctx.fault('account-list-balance-rounded')) for (const a of listed) if (typeof a.balance === 'number') a.balance = Math.round(a.balance);
    // Fault manual-account-list-set-by-differs: the lists name SYSTEM where a manual account's own read names USER.
    if (ctx.fault('manual-account-list-set-by-differs'))
      for (const a of listed) if (a.is_manual === true) for (const k of Object.keys(a)) if (k.endsWith('_set_by') && a[k] === 'USER') a[k] = 'SYSTEM';
    return { accounts: listed, pagination: page.pagination };
  };

  app.get<UserParams>('/users/:user_guid/accounts', async (request) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return list(
      request,
      [...state().accounts.values()].filter((a) => a.user_guid === user.guid),
    );
  });
  app.get<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    return { account: renderAccount(ctx, findAccount(ctx, user, request.params.account_guid), request.svcVersion) };
  });
  app.get<{ Params: { user_guid: string; member_guid: string } }>('/users/:user_guid/members/:member_guid/accounts', async (request) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    const m = findMember(ctx, user, request.params.member_guid);
    return list(
      request,
      [...state().accounts.values()].filter((a) => a.member_guid === m.guid),
    );
  });
  const memberAccount = (request: FastifyRequest<AccountParams>) => {
    const user = findUser(ctx, request.params.user_guid);
    return findMemberAccount(ctx, user, findMember(ctx, user, request.params.member_guid!), request.params.account_guid);
  };
  app.get<AccountParams>('/users/:user_guid/members/:member_guid/accounts/:account_guid', async (request) => ({
    account: renderAccount(ctx, memberAccount(request), request.svcVersion),
  }));

  app.post<UserParams>('/users/:user_guid/accounts', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const f = parseAccountFields(wrapper(request.body, 'account'));
    if (ctx.variation('required-parameter-made-optional')) {
      // Versioning: "making a required parameter optional" is non-breaking.
      f.type ??= 'OTHER';
      f.balance ??= 0;
    }
    return { account: renderAccount(ctx, createManualAccount(ctx, user, f), request.svcVersion) };
  });

  app.put<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const a = findAccount(ctx, user, request.params.account_guid);
    updateAccount(ctx, a, parseAccountFields(wrapper(request.body, 'account')));
    return { account: renderAccount(ctx, a, request.svcVersion) };
  });
  app.put<AccountParams>('/users/:user_guid/members/:member_guid/accounts/:account_guid', async (request) => {
    const a = memberAccount(request);
    updateAccount(ctx, a, parseAccountFields(wrapper(request.body, 'account')));
    return { account: renderAccount(ctx, a, request.svcVersion) };
  });

  app.delete<AccountParams>('/users/:user_guid/accounts/:account_guid', async (request, reply) => {
    const user = findUser(ctx, request.params.user_guid);
    const a = findAccount(ctx, user, request.params.account_guid);
    deleteManualAccount(ctx, a);
    return reply.code(204).send();
  });

  app.post<UserParams>('/users/:user_guid/accounts/merge', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const guids = optStringArray(wrapper(request.body, 'account'), 'account_guids', 'account');
    return { account: renderAccount(ctx, mergeAccounts(ctx, user, guids), request.svcVersion) };
  });

  // ---- holdings --------------------------------------------------------------------
  const holdings = (request: FastifyRequest, filter: (h: { account_guid: string; member_guid: string; user_guid: string }) => boolean) => {
    const page = pageList(ctx, [...state().holdings.values()].filter(filter), request.query as Record<string, unknown>);
    return { holdings: page.items, pagination: page.pagination };
  };
  app.get<UserParams>('/users/:user_guid/holdings', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    // Fault holdings-by-user-empty: the per-user view is never built; the per-member and per-account reads are.
    return holdings(request, (h) => h.user_guid === user.guid && !ctx.fault('holdings-by-user-empty'));
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
