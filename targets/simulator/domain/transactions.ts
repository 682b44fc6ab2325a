/**
 * Transaction operations (Resources, Transaction; Endpoints, "Other endpoints named"):
 * the list filters, categorisation, client-created transactions (manual accounts and
 * managed members), update and delete. Rendering and query parsing are routes/transactions.ts.
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { defaultCategories } from '../data/categories.ts';
import type { AccountRecord, TransactionRecord } from './records.ts';
import { coreState, isoNow } from './store.ts';
import { makeTransaction } from './feed.ts';

/** The list filters of Endpoints (times in ms, inclusive; dates YYYY-MM-DD). */
export interface TransactionCriteria {
  categoryGuids: string[];
  topLevelCategoryGuids: string[];
  createdFromMs?: number;
  createdToMs?: number;
  updatedFromMs?: number;
  updatedToMs?: number;
  /** Variation added-optional-query-parameter: sim_min_amount. */
  minAmount?: number;
  fromDate?: string;
  toDate?: string;
  useCase?: string;
}

function predicates(ctx: SimContext, c: TransactionCriteria): Array<(t: TransactionRecord) => boolean> {
  const f: Array<(t: TransactionRecord) => boolean> = [];
  const cats = c.categoryGuids;
  if (cats.length && !ctx.fault('transaction-category-filter-ignored')) f.push((t) => t.category_guid !== null && cats.includes(t.category_guid));
  const tops = c.topLevelCategoryGuids;
  if (tops.length && !ctx.fault('transaction-top-level-category-filter-ignored'))
    f.push((t) => t.top_level_category_guid !== null && tops.includes(t.top_level_category_guid));
  const range = (lo: number | undefined, hi: number | undefined, field: 'createdAtMs' | 'updatedAtMs') => {
    if (lo !== undefined) f.push((t) => t[field] >= lo);
    if (hi !== undefined) f.push((t) => t[field] <= hi);
  };
  // Endpoints: from/to_created_at and from/to_updated_at (faults: the filter is ignored).
  if (!ctx.fault('transaction-created-at-filter-ignored')) range(c.createdFromMs, c.createdToMs, 'createdAtMs');
  if (!ctx.fault('transaction-updated-at-filter-ignored')) range(c.updatedFromMs, c.updatedToMs, 'updatedAtMs');
  const min = c.minAmount;
  if (min !== undefined) f.push((t) => Math.abs(t.amount) >= min);
  const { fromDate, toDate, useCase } = c;
  if (fromDate) f.push((t) => t.date >= fromDate);
  if (toDate) f.push((t) => t.date <= toDate);
  // Endpoints: the use_case filter (opted-in clients); fault: the filter is ignored.
  if (useCase !== undefined && !ctx.fault('transaction-use-case-filter-ignored')) {
    const members = coreState(ctx).members;
    f.push((t) => members.get(t.member_guid)?.use_cases?.includes(useCase) ?? false);
  }
  return f;
}

/** The transactions in scope that pass the filters, newest date first. */
export function listTransactions(ctx: SimContext, scope: (t: TransactionRecord) => boolean, criteria: TransactionCriteria): TransactionRecord[] {
  const filters = predicates(ctx, criteria);
  let items = [...coreState(ctx).transactions.values()].filter((t) => scope(t) && filters.every((f) => f(t)));
  // Fault transaction-category-filter-widens-when-empty: a category filter that matches
  // nothing answers the whole list instead of none (a search engine's "no match, show all").
  if (!items.length && criteria.categoryGuids.length && ctx.fault('transaction-category-filter-widens-when-empty')) {
    items = [...coreState(ctx).transactions.values()].filter(scope);
  }
  items.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.createdAtMs - a.createdAtMs));
  return items;
}

function setCategory(t: TransactionRecord, categoryGuid: string): void {
  const all = defaultCategories();
  const c = all.find((x) => x.guid === categoryGuid);
  if (!c) throw new SimError('invalid_request', `transaction.category_guid names no category: "${categoryGuid.slice(0, 80)}"`);
  const top = c.parent_guid ? all.find((x) => x.guid === c.parent_guid)! : c;
  t.category_guid = c.guid;
  t.category = c.name;
  t.top_level_category_guid = top.guid;
  t.top_level_category = top.name;
}

export interface TransactionFields {
  id?: string;
  amount?: number;
  description?: string;
  type?: string;
  date?: string;
  categoryGuid?: string;
}

/** A client-created transaction (manual account or managed member); `validDate` says the date parses. */
export function createTransaction(
  ctx: SimContext,
  a: AccountRecord,
  f: TransactionFields,
  manual: boolean,
  validDate: (date: string) => boolean,
): TransactionRecord {
  const type = f.type ?? 'DEBIT';
  const date = f.date ?? isoNow(ctx, a.user_guid).slice(0, 10);
  const { amount, description } = f;
  if (amount === undefined) throw new SimError('invalid_request', 'transaction.amount is required (a number)');
  if (!description) throw new SimError('invalid_request', 'transaction.description is required');
  if (type !== 'CREDIT' && type !== 'DEBIT') throw new SimError('invalid_request', 'transaction.type must be CREDIT or DEBIT');
  if (!validDate(date)) throw new SimError('invalid_request', 'transaction.date must be YYYY-MM-DD');
  const days = Math.max(0, Math.round((ctx.clock.nowMs(a.user_guid) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000));
  const t = makeTransaction(ctx, a, 0, days, {
    amount,
    description,
    type,
    date,
    transacted_at: `${date}T12:00:00Z`,
    posted_at: `${date}T12:00:00Z`,
    status: 'POSTED',
    is_manual: manual,
    merchant_guid: null,
    merchant_location_guid: null,
    id: f.id ?? null,
    is_subscription: false,
    is_international: false,
    data_scope: manual ? 'AGGREGATED' : 'HELD',
    classification: type === 'CREDIT' ? 'income' : 'spending',
  });
  if (f.categoryGuid !== undefined) {
    try {
      setCategory(t, f.categoryGuid);
    } catch (e) {
      coreState(ctx).transactions.delete(t.guid);
      throw e;
    }
  }
  return t;
}

/** Clients create transactions on manual accounts only; aggregated accounts get theirs from the feed. */
export function assertTakesManualTransactions(a: AccountRecord): void {
  if (!a.is_manual) throw new SimError('unprocessable', 'Transactions can be created on manual accounts only; aggregated accounts get them from the feed');
}

export function updateTransaction(ctx: SimContext, t: TransactionRecord, f: TransactionFields): void {
  if (f.categoryGuid !== undefined) setCategory(t, f.categoryGuid);
  if (f.description !== undefined) t.description = f.description;
  if (f.amount !== undefined) t.amount = f.amount;
  if (f.id !== undefined) t.id = f.id;
  t.updated_at = isoNow(ctx, t.user_guid);
  t.updatedAtMs = ctx.clock.nowMs(t.user_guid);
}

export function deleteTransaction(ctx: SimContext, t: TransactionRecord): void {
  coreState(ctx).transactions.delete(t.guid);
}

/** DELETE transaction: only manual transactions. */
export function deleteManualTransaction(ctx: SimContext, t: TransactionRecord): void {
  if (!t.is_manual) throw new SimError('unprocessable', 'Only manual transactions can be deleted');
  deleteTransaction(ctx, t);
}
