/**
 * Transactions (Resources, Transaction; Endpoints, "Other endpoints named").
 *
 *   GET    /users/{u}/transactions                                   paged { transactions }
 *   GET    /users/{u}/accounts/{a}/transactions
 *   GET    /users/{u}/members/{m}/transactions
 *   GET    /users/{u}/members/{m}/accounts/{a}/transactions
 *   GET    /users/{u}/transactions/{t}                               { transaction }
 *   PUT    /users/{u}/transactions/{t}                               { transaction: { description?, category_guid?, id? } }
 *   POST   /users/{u}/accounts/{a}/transactions                      manual accounts only: { transaction: { amount, date, description, type } }
 *   DELETE /users/{u}/transactions/{t}                               manual transactions only, 204
 *
 * List filters: `category_guid`, `top_level_category_guid` (one or a comma list),
 * `from_created_at`, `to_created_at`, `from_updated_at`, `to_updated_at` (ISO 8601 date or
 * timestamp with offset, or Unix timestamp seconds as the v20250224 reference takes them; inclusive), `from_date`/`to_date` (transaction date), `use_case`
 * (transactions of members opted in to that use case), and `includes` (comma list of
 * `repeating_transactions`, `merchants`, `classifications`, `geolocations`), which adds
 * `repeating_transaction`, `merchant`, `classification`, `geolocation` to each transaction.
 * An unknown `includes` value answers 400 naming the accepted ones. Order: newest date first.
 * `is_recurring` is present but, as the specification says, to be ignored.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { dayFilter, isoDay, many, one, timeFilter, wrapper, type Query } from './query.ts';
import { defaultCategories } from '../data/categories.ts';
import {
  coreState,
  findAccount,
  findMember,
  findTransaction,
  findUser,
  isoNow,
  optNumber,
  optString,
  skipWebhookOf,
  userIdOf,
  type TransactionRecord,
} from './core.ts';
import { makeTransaction, runDueRefreshes } from './aggregation.ts';

export const TRANSACTION_INCLUDES = ['repeating_transactions', 'merchants', 'classifications', 'geolocations'] as const;

export function renderTransaction(ctx: SimContext, t: TransactionRecord, includes: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const s = coreState(ctx);
  const m = s.members.get(t.member_guid);
  const a = s.accounts.get(t.account_guid);
  const out: Record<string, unknown> = {
    guid: t.guid,
    id: t.id,
    user_guid: t.user_guid,
    user_id: userIdOf(ctx, t.user_guid),
    member_guid: t.member_guid,
    member_id: m?.id ?? null,
    account_guid: t.account_guid,
    account_id: a?.id ?? null,
    amount: t.amount,
    description: t.description,
    type: t.type,
    status: t.status,
    date: t.date,
    transacted_at: t.transacted_at,
    posted_at: t.posted_at,
    category: t.category,
    category_guid: t.category_guid,
    top_level_category: t.top_level_category,
    top_level_category_guid: t.top_level_category_guid,
    // What the service does: "transactions carry merchant_guid and merchant_location_guid" (fault: both left out).
    ...(ctx.fault('transaction-merchant-guids-missing') ? {} : { merchant_guid: t.merchant_guid, merchant_location_guid: t.merchant_location_guid }),
    // Resources, Transaction: `check_number` (string) — omitted when there is none; the
    // variation transaction-check-number-null sends null (nullness not stated; real-service-notes).
    // Fault transaction-check-number-number: check_number sent as a number, not the stated string.
    ...(t.check_number !== null ? { check_number: ctx.fault('transaction-check-number-number') && /^\d+$/.test(t.check_number) ? Number(t.check_number) : t.check_number } : ctx.variation('transaction-check-number-null') ? { check_number: null } : {}),
    currency_code: t.currency_code,
    is_manual: t.is_manual,
    is_subscription: t.is_subscription,
    is_international: t.is_international,
    is_recurring: t.repeating_transaction_guid !== null,
    member_is_managed_by_user: m?.is_managed_by_user ?? true,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
  if (ctx.fault('transaction-includes-ignored')) return out;
  const merchant = t.merchant_guid ? s.merchants.get(t.merchant_guid) : undefined;
  if (includes.has('repeating_transactions')) out.repeating_transaction = t.repeating_transaction_guid ? renderRepeating(s.repeating.get(t.repeating_transaction_guid)) : null;
  // Resources, Transaction: "Merchant fields: name, logo_url, website_url" (fault: website_url left out).
  if (includes.has('merchants')) {
    out.merchant = merchant ? { guid: merchant.guid, name: merchant.name, logo_url: merchant.logo_url, ...(ctx.fault('included-merchant-without-website-url') ? {} : { website_url: merchant.website_url }) } : null;
  }
  if (includes.has('classifications')) out.classification = { name: t.classification };
  if (includes.has('geolocations')) {
    // Resources, Transaction: "Geolocation fields: country, city, postal_code" (fault: postal_code left out).
    const postal = ctx.fault('included-geolocation-without-postal-code') ? {} : { postal_code: merchant?.location.postal_code };
    out.geolocation = merchant ? { country: merchant.location.country, city: merchant.location.city, ...postal, latitude: merchant.location.latitude, longitude: merchant.location.longitude } : null;
  }
  return out;
}

export function renderRepeating(r: import('./core.ts').RepeatingRecord | undefined): Record<string, unknown> | null {
  if (!r) return null;
  return { guid: r.guid, user_guid: r.user_guid, member_guid: r.member_guid, account_guid: r.account_guid, amount: r.amount, description: r.description, recurrence_type: r.recurrence_type, repeating_transaction_type: r.repeating_transaction_type, transaction_type: r.transaction_type, created_at: r.created_at };
}

function parseIncludes(query: Query): Set<string> {
  const values = many(query, 'includes');
  const bad = values.filter((v) => !(TRANSACTION_INCLUDES as readonly string[]).includes(v));
  if (bad.length) throw new SimError('invalid_request', `includes accepts ${TRANSACTION_INCLUDES.join(', ')}; got "${bad.join(',').slice(0, 80)}"`);
  return new Set(values);
}

function listFilters(ctx: SimContext, query: Query): Array<(t: TransactionRecord) => boolean> {
  const f: Array<(t: TransactionRecord) => boolean> = [];
  const cats = many(query, 'category_guid');
  if (cats.length && !ctx.fault('transaction-category-filter-ignored')) f.push((t) => t.category_guid !== null && cats.includes(t.category_guid));
  const tops = many(query, 'top_level_category_guid');
  if (tops.length && !ctx.fault('transaction-top-level-category-filter-ignored')) f.push((t) => t.top_level_category_guid !== null && tops.includes(t.top_level_category_guid));
  // Endpoints: from/to_created_at and from/to_updated_at; ISO 8601 or Unix seconds (query.ts timeFilter).
  const range = (from: string, to: string, field: 'createdAtMs' | 'updatedAtMs') => {
    const lo = timeFilter(query, from)?.ms;
    const upper = timeFilter(query, to);
    // A bare date as the upper bound includes the whole day.
    const hi = upper === undefined ? undefined : upper.ms + (upper.wholeDay ? 86_399_999 : 0);
    if (lo !== undefined) f.push((t) => t[field] >= lo);
    if (hi !== undefined) f.push((t) => t[field] <= hi);
  };
  if (!ctx.fault('transaction-created-at-filter-ignored')) range('from_created_at', 'to_created_at', 'createdAtMs');
  if (!ctx.fault('transaction-updated-at-filter-ignored')) range('from_updated_at', 'to_updated_at', 'updatedAtMs');
  // Variation added-optional-query-parameter (Versioning: "adding optional parameters").
  const minAmount = ctx.variation('added-optional-query-parameter') ? one(query, 'sim_min_amount') : undefined;
  if (minAmount !== undefined) {
    const min = Number(minAmount);
    if (!Number.isFinite(min)) throw new SimError('invalid_request', `sim_min_amount must be a number, got "${minAmount.slice(0, 40)}"`);
    f.push((t) => Math.abs(t.amount) >= min);
  }
  const fromDate = dayFilter(query, 'from_date');
  const toDate = dayFilter(query, 'to_date');
  if (fromDate) f.push((t) => t.date >= fromDate);
  if (toDate) f.push((t) => t.date <= toDate);
  const useCase = one(query, 'use_case');
  // Endpoints: the use_case filter (opted-in clients); fault: the filter is ignored.
  if (useCase !== undefined && !ctx.fault('transaction-use-case-filter-ignored')) {
    const members = coreState(ctx).members;
    f.push((t) => members.get(t.member_guid)?.use_cases?.includes(useCase) ?? false);
  }
  return f;
}

type P = { Params: { user_guid: string; account_guid?: string; member_guid?: string; transaction_guid?: string } };

export function registerTransactions(app: FastifyInstance, ctx: SimContext): void {
  const list = (request: FastifyRequest<P>, scope: (t: TransactionRecord) => boolean) => {
    const query = request.query as Query;
    const includes = parseIncludes(query);
    const filters = listFilters(ctx, query);
    const items = [...coreState(ctx).transactions.values()].filter((t) => scope(t) && filters.every((f) => f(t)));
    items.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.createdAtMs - a.createdAtMs));
    const page = pageList(ctx, items, query);
    return { transactions: page.items.map((t) => renderTransaction(ctx, t, includes)), pagination: page.pagination };
  };
  const user = (request: FastifyRequest<P>) => {
    runDueRefreshes(ctx);
    return findUser(ctx, request.params.user_guid);
  };

  app.get<P>('/users/:user_guid/transactions', async (request) => {
    const u = user(request);
    return list(request, (t) => t.user_guid === u.guid);
  });
  app.get<P>('/users/:user_guid/accounts/:account_guid/transactions', async (request) => {
    const a = findAccount(ctx, user(request), request.params.account_guid!);
    return list(request, (t) => t.account_guid === a.guid);
  });
  app.get<P>('/users/:user_guid/members/:member_guid/transactions', async (request) => {
    const m = findMember(ctx, user(request), request.params.member_guid!);
    return list(request, (t) => t.member_guid === m.guid);
  });
  app.get<P>('/users/:user_guid/members/:member_guid/accounts/:account_guid/transactions', async (request) => {
    const u = user(request);
    const m = findMember(ctx, u, request.params.member_guid!);
    const a = findAccount(ctx, u, request.params.account_guid!);
    if (a.member_guid !== m.guid) throw new SimError('not_found', `Account ${a.guid} does not belong to member ${m.guid}`);
    return list(request, (t) => t.account_guid === a.guid);
  });
  app.get<P>('/users/:user_guid/transactions/:transaction_guid', async (request) => {
    const t = findTransaction(ctx, user(request), request.params.transaction_guid!);
    return { transaction: renderTransaction(ctx, t, parseIncludes(request.query as Query)) };
  });

  app.put<P>('/users/:user_guid/transactions/:transaction_guid', async (request) => {
    const t = findTransaction(ctx, user(request), request.params.transaction_guid!);
    const o = wrapper(request.body, 'transaction');
    const description = optString(o, 'description', 'transaction');
    const id = optString(o, 'id', 'transaction');
    const categoryGuid = optString(o, 'category_guid', 'transaction');
    if (categoryGuid !== undefined) setCategory(t, categoryGuid);
    if (description !== undefined) t.description = description;
    if (id !== undefined) t.id = id;
    t.updated_at = isoNow(ctx);
    t.updatedAtMs = ctx.clock.nowMs();
    skipWebhookOf(request); // no transaction webhook is emitted on update (Events, rule 8: nothing to skip)
    return { transaction: renderTransaction(ctx, t) };
  });

  app.post<P>('/users/:user_guid/accounts/:account_guid/transactions', async (request) => {
    const a = findAccount(ctx, user(request), request.params.account_guid!);
    if (!a.is_manual) throw new SimError('unprocessable', 'Transactions can be created on manual accounts only; aggregated accounts get them from the feed');
    const t = createTransactionFromBody(ctx, a, wrapper(request.body, 'transaction'), true);
    return { transaction: renderTransaction(ctx, t) };
  });

  app.delete<P>('/users/:user_guid/transactions/:transaction_guid', async (request, reply) => {
    const t = findTransaction(ctx, user(request), request.params.transaction_guid!);
    if (!t.is_manual) throw new SimError('unprocessable', 'Only manual transactions can be deleted');
    coreState(ctx).transactions.delete(t.guid);
    return reply.code(204).send();
  });
}

export function setCategory(t: TransactionRecord, categoryGuid: string): void {
  const all = defaultCategories();
  const c = all.find((x) => x.guid === categoryGuid);
  if (!c) throw new SimError('invalid_request', `transaction.category_guid names no category: "${categoryGuid.slice(0, 80)}"`);
  const top = c.parent_guid ? all.find((x) => x.guid === c.parent_guid)! : c;
  t.category_guid = c.guid;
  t.category = c.name;
  t.top_level_category_guid = top.guid;
  t.top_level_category = top.name;
}

/** A client-created transaction (manual account or managed member). */
export function createTransactionFromBody(ctx: SimContext, a: import('./core.ts').AccountRecord, o: Record<string, unknown>, manual: boolean): TransactionRecord {
  const amount = optNumber(o, 'amount', 'transaction');
  const description = optString(o, 'description', 'transaction');
  const type = optString(o, 'type', 'transaction') ?? 'DEBIT';
  const date = optString(o, 'date', 'transaction') ?? isoNow(ctx).slice(0, 10);
  if (amount === undefined) throw new SimError('invalid_request', 'transaction.amount is required (a number)');
  if (!description) throw new SimError('invalid_request', 'transaction.description is required');
  if (type !== 'CREDIT' && type !== 'DEBIT') throw new SimError('invalid_request', 'transaction.type must be CREDIT or DEBIT');
  if (isoDay({ date }, 'date') === undefined) throw new SimError('invalid_request', 'transaction.date must be YYYY-MM-DD');
  const days = Math.max(0, Math.round((ctx.clock.nowMs() - Date.parse(`${date}T00:00:00Z`)) / 86_400_000));
  const t = makeTransaction(ctx, a, 0, days, {
    amount, description, type, date, transacted_at: `${date}T12:00:00Z`, posted_at: `${date}T12:00:00Z`, status: 'POSTED',
    is_manual: manual, merchant_guid: null, merchant_location_guid: null, id: optString(o, 'id', 'transaction') ?? null,
    is_subscription: false, is_international: false, data_scope: manual ? 'AGGREGATED' : 'HELD', classification: type === 'CREDIT' ? 'income' : 'spending',
  });
  const categoryGuid = optString(o, 'category_guid', 'transaction');
  if (categoryGuid !== undefined) {
    try {
      setCategory(t, categoryGuid);
    } catch (e) {
      coreState(ctx).transactions.delete(t.guid);
      throw e;
    }
  }
  return t;
}
