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
import { optNumber, optString, skipWebhookOf } from './request.ts';
import type { AccountRecord, RepeatingRecord, TransactionRecord } from '../domain/records.ts';
import { coreState, findAccount, findMember, findTransaction, findUser, userIdOf } from '../domain/store.ts';
import { runDueRefreshes } from '../domain/aggregation.ts';
import { findMemberAccount } from '../domain/accounts.ts';
import {
  assertTakesManualTransactions,
  createTransaction,
  deleteManualTransaction,
  listTransactions,
  updateTransaction,
  type TransactionCriteria,
  type TransactionFields,
} from '../domain/transactions.ts';

const TRANSACTION_INCLUDES = ['repeating_transactions', 'merchants', 'classifications', 'geolocations'] as const;

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
    // What the service does: "transactions carry merchant_guid and merchant_location_guid".
    merchant_guid: t.merchant_guid,
    merchant_location_guid: t.merchant_location_guid,
    // Resources, Transaction: `check_number` (string) — omitted when there is none; the
    // variation transaction-check-number-null sends null (nullness not stated; real-service-notes).
    ...(t.check_number !== null ? { check_number: t.check_number } : ctx.variation('transaction-check-number-null') ? { check_number: null } : {}),
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
  if (includes.has('repeating_transactions'))
    out.repeating_transaction = t.repeating_transaction_guid ? renderRepeating(s.repeating.get(t.repeating_transaction_guid)) : null;
  // Resources, Transaction: "Merchant fields: name, logo_url, website_url".
  if (includes.has('merchants')) {
    out.merchant = merchant ? { guid: merchant.guid, name: merchant.name, logo_url: merchant.logo_url, website_url: merchant.website_url } : null;
    // Fault included-merchant-of-another: the included merchant carries another merchant's guid (a join on the wrong key).
    if (ctx.fault('included-merchant-of-another') && merchant) out.merchant = { ...(out.merchant as object), guid: `${merchant.guid.slice(0, -4)}0000` };
  }
  if (includes.has('classifications')) out.classification = { name: t.classification };
  if (includes.has('geolocations')) {
    // Resources, Transaction: "Geolocation fields: country, city, postal_code".
    out.geolocation = merchant
      ? {
          country: merchant.location.country,
          city: merchant.location.city,
          postal_code: merchant.location.postal_code,
          latitude: merchant.location.latitude,
          longitude: merchant.location.longitude,
        }
      : null;
  }
  return out;
}

export function renderRepeating(r: RepeatingRecord | undefined): Record<string, unknown> | null {
  if (!r) return null;
  return {
    guid: r.guid,
    user_guid: r.user_guid,
    member_guid: r.member_guid,
    account_guid: r.account_guid,
    amount: r.amount,
    description: r.description,
    recurrence_type: r.recurrence_type,
    repeating_transaction_type: r.repeating_transaction_type,
    transaction_type: r.transaction_type,
    created_at: r.created_at,
  };
}

function parseIncludes(query: Query): Set<string> {
  const values = many(query, 'includes');
  const bad = values.filter((v) => !(TRANSACTION_INCLUDES as readonly string[]).includes(v));
  if (bad.length) throw new SimError('invalid_request', `includes accepts ${TRANSACTION_INCLUDES.join(', ')}; got "${bad.join(',').slice(0, 80)}"`);
  return new Set(values);
}

/** The list filters of the query (Endpoints); the filtering is ../domain/transactions.ts. */
function listCriteria(ctx: SimContext, query: Query): TransactionCriteria {
  // Endpoints: from/to_created_at and from/to_updated_at; ISO 8601 or Unix seconds (query.ts timeFilter).
  const range = (from: string, to: string) => {
    const lo = timeFilter(query, from)?.ms;
    const upper = timeFilter(query, to);
    // A bare date as the upper bound includes the whole day.
    const hi = upper === undefined ? undefined : upper.ms + (upper.wholeDay ? 86_399_999 : 0);
    return [lo, hi] as const;
  };
  const [createdFromMs, createdToMs] = range('from_created_at', 'to_created_at');
  const [updatedFromMs, updatedToMs] = range('from_updated_at', 'to_updated_at');
  // Variation added-optional-query-parameter (Versioning: "adding optional parameters").
  const minAmount = ctx.variation('added-optional-query-parameter') ? one(query, 'sim_min_amount') : undefined;
  const min = minAmount === undefined ? undefined : Number(minAmount);
  if (minAmount !== undefined && !Number.isFinite(min))
    throw new SimError('invalid_request', `sim_min_amount must be a number, got "${minAmount.slice(0, 40)}"`);
  return {
    categoryGuids: many(query, 'category_guid'),
    topLevelCategoryGuids: many(query, 'top_level_category_guid'),
    createdFromMs,
    createdToMs,
    updatedFromMs,
    updatedToMs,
    minAmount: min,
    fromDate: dayFilter(query, 'from_date'),
    toDate: dayFilter(query, 'to_date'),
    useCase: one(query, 'use_case'),
  };
}

function transactionFields(o: Record<string, unknown>): TransactionFields {
  return {
    amount: optNumber(o, 'amount', 'transaction'),
    description: optString(o, 'description', 'transaction'),
    type: optString(o, 'type', 'transaction'),
    date: optString(o, 'date', 'transaction'),
    id: optString(o, 'id', 'transaction'),
    categoryGuid: optString(o, 'category_guid', 'transaction'),
  };
}

/** Transaction.date must be a real calendar day (query.ts isoDay). */
const validDate = (date: string) => isoDay({ date }, 'date') !== undefined;

/** A client-created transaction on a managed member's account (routes/managed.ts). */
export function createTransactionFromBody(ctx: SimContext, a: AccountRecord, o: Record<string, unknown>): TransactionRecord {
  return createTransaction(ctx, a, transactionFields(o), false, validDate);
}

type P = { Params: { user_guid: string; account_guid?: string; member_guid?: string; transaction_guid?: string } };

export function registerTransactions(app: FastifyInstance, ctx: SimContext): void {
  const list = (request: FastifyRequest<P>, scope: (t: TransactionRecord) => boolean) => {
    const query = request.query as Query;
    const includes = parseIncludes(query);
    const page = pageList(ctx, listTransactions(ctx, scope, listCriteria(ctx, query)), query);
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
    const a = findMemberAccount(ctx, u, findMember(ctx, u, request.params.member_guid!), request.params.account_guid!);
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
    updateTransaction(ctx, t, { description, id, categoryGuid });
    skipWebhookOf(request); // no transaction webhook is emitted on update (Events, rule 8: nothing to skip)
    return { transaction: renderTransaction(ctx, t) };
  });

  app.post<P>('/users/:user_guid/accounts/:account_guid/transactions', async (request) => {
    const a = findAccount(ctx, user(request), request.params.account_guid!);
    assertTakesManualTransactions(a);
    const t = createTransaction(ctx, a, transactionFields(wrapper(request.body, 'transaction')), true, validDate);
    return { transaction: renderTransaction(ctx, t) };
  });

  app.delete<P>('/users/:user_guid/transactions/:transaction_guid', async (request, reply) => {
    const t = findTransaction(ctx, user(request), request.params.transaction_guid!);
    deleteManualTransaction(ctx, t);
    return reply.code(204).send();
  });
}
