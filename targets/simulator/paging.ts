/**
 * Paging of every list (Endpoints: "Lists are paged with page and records_per_page").
 *
 * The specification states a records_per_page maximum of 1000 for institutions,
 * favourites, credentials and all data-exchange lists (Limits). Default page size and
 * number are not shown: the simulator uses page 1 and 25 records. Above the maximum the
 * simulator answers the maximum (it clamps; README, "Simulator"), and it applies the
 * same 1000 cap to every other list. Zero, negative, fractional or non-numeric values
 * answer 400 invalid_paging.
 */
import { SimError } from './errors.ts';

export const MAX_RECORDS_PER_PAGE = 1000;
export const DEFAULT_RECORDS_PER_PAGE = 25;

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Pagination {
  current_page: number;
  per_page: number;
  total_entries: number;
  total_pages: number;
}

function positiveInt(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const s = String(raw);
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) {
    throw new SimError('invalid_paging', `${name} must be a positive integer, got "${s.slice(0, 40)}"`);
  }
  return Number(s);
}

export function parsePaging(query: Record<string, unknown> | undefined, max = MAX_RECORDS_PER_PAGE): PageRequest {
  const page = positiveInt(query?.page, 'page') ?? 1;
  const asked = positiveInt(query?.records_per_page, 'records_per_page') ?? DEFAULT_RECORDS_PER_PAGE;
  return { page, perPage: Math.min(asked, max) };
}

export function paginate<T>(items: readonly T[], req: PageRequest): { items: T[]; pagination: Pagination } {
  const start = (req.page - 1) * req.perPage;
  return {
    items: items.slice(start, start + req.perPage),
    pagination: {
      current_page: req.page,
      per_page: req.perPage,
      total_entries: items.length,
      total_pages: Math.max(1, Math.ceil(items.length / req.perPage)),
    },
  };
}

/**
 * parsePaging + paginate with the paging faults of the catalogue applied at the exact
 * point they deviate (Limits: records_per_page maximum 1000; Endpoints: lists are paged).
 * Used by every list of institutions, categories, data exchange, ACH returns.
 */
export interface PageListOptions {
  /** The list's records_per_page maximum (default 1000). */
  max?: number;
  /**
   * The list is one of those with the stated 1000 maximum (Limits: institutions,
   * favourites, credentials of an institution, every data exchange list): the
   * page-size-above-100-falls-back-to-25 variation leaves it alone.
   */
  statedMaximum?: boolean;
  /** The list's name, for list-specific variations (`categories`). */
  list?: string;
}

/** The maximum of variation page-size-capped-at-10. */
const PAGE_CAP_OF_VARIATION = 10;

/** Variation page sizes (real-service-notes, Paging: outside the valid range a list falls back to 25). */
function variedPerPage(ctx: { variation?(name: string): boolean }, req: PageRequest, asked: unknown, o: PageListOptions): number {
  const v = (n: string) => ctx.variation?.(n) ?? false;
  const askedNumber = asked === undefined || asked === '' ? undefined : Number(asked);
  let perPage = req.perPage;
  if (askedNumber !== undefined && askedNumber < 10 && v('page-size-below-10-falls-back-to-25')) perPage = DEFAULT_RECORDS_PER_PAGE;
  // Limits: "Maximum records_per_page for list endpoints other than those in the table: not shown".
  if (askedNumber !== undefined && askedNumber > 100 && !o.statedMaximum && v('page-size-above-100-falls-back-to-25')) perPage = DEFAULT_RECORDS_PER_PAGE;
  // The table's lists: what a request above their maximum gets is not stated (the reference falls back to 25).
  if (askedNumber !== undefined && askedNumber > MAX_RECORDS_PER_PAGE && o.statedMaximum && v('page-size-above-1000-falls-back-to-25'))
    perPage = DEFAULT_RECORDS_PER_PAGE;
  if (o.list === 'categories' && v('categories-page-max-25')) perPage = Math.min(perPage, DEFAULT_RECORDS_PER_PAGE);
  // The same sentence: a maximum the service chose, smaller than what a client asks within range.
  if (!o.statedMaximum && v('page-size-capped-at-10')) perPage = Math.min(perPage, PAGE_CAP_OF_VARIATION);
  return perPage;
}

export function pageList<T>(
  ctx: { fault(name: string): boolean; variation?(name: string): boolean },
  items: readonly T[],
  query: Record<string, unknown> | undefined,
  options: number | PageListOptions = {},
): { items: T[]; pagination: Pagination } {
  const o: PageListOptions = typeof options === 'number' ? { max: options } : options;
  const max = o.max ?? MAX_RECORDS_PER_PAGE;
  let req: PageRequest;
  try {
    req = parsePaging(query, ctx.fault('page-of-1001-records') ? max + 1 : max);
  } catch (e) {
    if (ctx.fault('bad-paging-500')) throw new Error('paging value not handled');
    throw e;
  }
  req = { ...req, perPage: variedPerPage(ctx, req, query?.records_per_page, o) };
  if (ctx.fault('records-per-page-ignored')) req = { ...req, perPage: DEFAULT_RECORDS_PER_PAGE };
  const result = paginate(items, req);
  if (req.page > 1 && (ctx.fault('page-walk-repeats-records') || ctx.fault('page-walk-skips-records'))) {
    // Off by one at every page boundary: the page starts one record early (repeats the
    // previous page's last record) or one record late (skips a record).
    const shift = ctx.fault('page-walk-repeats-records') ? -1 : 1;
    const start = (req.page - 1) * req.perPage + shift;
    result.items = items.slice(start, start + req.perPage);
  }
  // Fault page-offset-uses-asked-size: the count is clamped to the maximum, the page's start is not.
  const asked = Number(query?.records_per_page);
  if (ctx.fault('page-offset-uses-asked-size') && asked > req.perPage) {
    const start = (req.page - 1) * asked;
    result.items = items.slice(start, start + req.perPage);
  }
  // Fault page-past-last-repeats-last: a page past the last answers the last page again
  // instead of nothing (Endpoints: "Lists are paged with page and records_per_page").
  if (ctx.fault('page-past-last-repeats-last') && req.page > result.pagination.total_pages) {
    const lastStart = (result.pagination.total_pages - 1) * req.perPage;
    result.items = items.slice(lastStart, lastStart + req.perPage);
  }
  // Fault page-totals-count-one-more: total_entries counts a record no page holds.
  if (ctx.fault('page-totals-count-one-more')) result.pagination = { ...result.pagination, total_entries: result.pagination.total_entries + 1 };
  return result;
}
