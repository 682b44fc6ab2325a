/**
 * Paging and limits (specification, Endpoints: "Lists are paged with page and
 * records_per_page"; Limits, the table's row "records_per_page maximum": 1000 for list institutions,
 * list favourite institutions, credentials of an institution and the data exchange
 * lists; "default categories 119").
 *
 * What is not stated, and therefore not asked of a target: the default page size and
 * page number ("not shown"), the maximum of the other lists ("not shown"), and what a
 * request above a maximum gets (refused or clamped). The vendor's reference takes
 * 10-100 (or 10-1000) records per page and falls back to 25 outside that range
 * (real-service-notes, "Paging"): every page size asked here is at least 10, and the
 * category list (maximum not shown) is walked in pages of 100 or less, never read in one.
 */
import { test, expect } from '../fixtures.ts';
import { is2xx, need } from '../steps/responses.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, isLastPage, walkList } from './journeys.ts';

const MAX = 1000;
const DEFAULT_CATEGORIES = 119;
/** How many default categories are read by guid: a spread of the list, a few requests, not 119. */
const CATEGORIES_READ_BY_GUID = 8;

/** `count` indices spread evenly over a list of `length` (its first and last among them). */
function spreadIndices(length: number, count: number): number[] {
  if (length <= count) return [...Array(length).keys()];
  return [...new Set(Array.from({ length: count }, (_, k) => Math.round((k * (length - 1)) / (count - 1))))];
}

test('records_per_page=1000 returns a full page of institutions', { tag: ['@paging', '@institutions', '@readonly', '@smoke'] }, async ({ api }) => {
  // records_per_page is the number of records per page: a page of 10 asked holds 10 when more exist.
  const small = await api.get('/institutions', { query: { records_per_page: 10 }, expectStatus: 200 });
  const all = await walkList<{ code: string }>(api, '/institutions', 'institutions', { perPage: 100 });
  expect(need<unknown[]>(small, 'institutions', api).length, 'records_per_page=10').toBe(Math.min(10, all.length));
  // Limits, the table's row "records_per_page maximum": 1000 (... list institutions): 1000 may be asked and is honoured.
  const res = await api.get('/institutions', { query: { records_per_page: MAX }, expectStatus: 200 });
  expect(need<unknown[]>(res, 'institutions', api).length, 'records on a page of records_per_page=1000').toBe(Math.min(MAX, all.length));
});

test('records_per_page above 1000 never returns more than 1000 records', { tag: ['@paging', '@institutions', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  for (const asked of [1001, 5000]) {
    const res = await api.get('/institutions', { query: { records_per_page: asked } });
    if (is2xx(res.status)) {
      // Limits, the table's row "records_per_page maximum": 1000: no page holds more.
      expect(need<unknown[]>(res, 'institutions', api).length, `records on a page of records_per_page=${asked}`).toBeLessThanOrEqual(MAX);
    } else {
      // Refusing the request is the other reading of a maximum; its status is not shown.
      expectInferred(profile, res.status >= 400 && res.status < 500, {
        expectation: `records_per_page=${asked} is clamped or refused with a 4xx`,
        basis: 'Limits state the maximum, not what a request above it gets',
        received: String(res.status),
      });
    }
  }
});

test('walking institutions at records_per_page above 1000 returns each record once, as a walk at 1000 does', {
  tag: ['@paging', '@institutions', '@readonly'],
}, async ({ api }) => {
  const asked = MAX + 1;
  const first = await api.get('/institutions', { query: { records_per_page: asked } });
  // Refusing is the other reading of a maximum (the test above): then there is no page of that size to walk.
  test.skip(!is2xx(first.status), `records_per_page=${asked} is refused (${first.status}): no walk at that size`);
  const id = (r: { code?: string; guid?: string }) => r.code ?? r.guid ?? JSON.stringify(r);
  const atMax = new Set((await walkList<{ code?: string; guid?: string }>(api, '/institutions', 'institutions', { perPage: MAX })).map(id));
  // Whatever page size the service takes for a request above the maximum (1000, or 25 in the
  // reference: real-service-notes, "Paging"), a walk pages the same list: Endpoints, "Lists are
  // paged with page and records_per_page". 150 pages cover the reference's 25 a page.
  const above = (await walkList<{ code?: string; guid?: string }>(api, '/institutions', 'institutions', { perPage: asked, maxPages: 150 })).map(id);
  expect(
    above.filter((c, i) => above.indexOf(c) !== i),
    `institutions on more than one page of records_per_page=${asked}`,
  ).toEqual([]);
  const walkedAbove = new Set(above);
  expect(
    [...atMax].filter((c) => !walkedAbove.has(c)),
    `institutions a walk at ${MAX} holds and a walk at ${asked} missed`,
  ).toEqual([]);
  expect(atMax.size, 'institutions walked').toBeGreaterThan(0);
});

test('walking every page of institutions returns each record exactly once', { tag: ['@paging', '@institutions', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  const seen = new Map<string, number>();
  let total: number | undefined;
  for (let page = 1; page <= 100; page++) {
    const res = await api.get('/institutions', { query: { page, records_per_page: MAX }, expectStatus: 200 });
    total ??= res.body?.pagination?.total_entries;
    const records = need<Array<{ code?: string; guid?: string }>>(res, 'institutions', api);
    // An institution is known by its code or guid (Endpoints: "identifier is the institution code
    // or guid"); the list names both without saying either is always present.
    for (const r of records) {
      const id = r.code ?? r.guid ?? JSON.stringify(r);
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    if (records.length < MAX) break;
  }
  // Paging: a record belongs to one page.
  const repeated = [...seen].filter(([, n]) => n > 1).map(([code, n]) => `${code} ×${n}`);
  expect(repeated, 'institutions returned on more than one page').toEqual([]);
  expect(seen.size, 'institutions walked').toBeGreaterThan(0);
  // The pagination object is not shown in the specification (the reference has one).
  if (total !== undefined) {
    expectInferred(profile, seen.size === total, {
      expectation: 'the institutions walked number pagination.total_entries',
      basis: 'the pagination object and its fields are not shown (real-service-notes, "Paging")',
      received: `${seen.size} walked, total_entries ${total}`,
    });
  }
});

test('walking pages of favourite institutions returns each record once', { tag: ['@paging', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions/favorites ... page, records_per_page (max 1000)".
  // The favourites are "set up by the vendor on request": a target may have none.
  const perPage = 10;
  const seen: string[] = [];
  for (let page = 1; page <= 200; page++) {
    const res = await api.get('/institutions/favorites', { query: { page, records_per_page: perPage }, expectStatus: 200 });
    const records = need<Array<{ code: string }>>(res, 'institutions', api);
    seen.push(...records.map((r) => r.code));
    if (isLastPage(res, page, records)) break;
  }
  if (seen.length === 0 && !profile.isSimulator)
    test.skip(true, 'the client has no favourite institutions on this target (set up by the vendor on request), so their paging cannot be observed');
  expect(seen.length, 'favourite institutions walked').toBeGreaterThan(0);
  expect(
    seen.filter((c, i) => seen.indexOf(c) !== i),
    'favourites returned on more than one page',
  ).toEqual([]);
});

test('the default category list holds the 119 default categories', { tag: ['@paging', '@categories', '@readonly', '@smoke'] }, async ({ api }) => {
  // Limits: "default categories 119"; What the service does: "each with is_default = true".
  const categories = await walkList<{ guid: string; is_default: boolean }>(api, '/categories/default', 'categories', { perPage: 100 });
  expect(categories.length, 'default categories (Limits: 119)').toBe(DEFAULT_CATEGORIES);
  expect(
    categories.filter((c) => c.is_default !== true).map((c) => c.guid),
    'categories whose is_default is not true',
  ).toEqual([]);
  expect(new Set(categories.map((c) => c.guid)).size, 'distinct category guids').toBe(DEFAULT_CATEGORIES);
  // Endpoints: "GET /categories/{category_guid}: response one default category", with is_default
  // true as in the list ("each with is_default = true"). A spread of the list, not only its first
  // entry: categories and subcategories are both default ones, and the list's order is not stated.
  for (const i of spreadIndices(categories.length, CATEGORIES_READ_BY_GUID)) {
    const one = need<{ guid: string; is_default?: unknown }>(await api.get(`/categories/${categories[i].guid}`, { expectStatus: 200 }), 'category', api);
    expect(one.guid, `GET /categories/${categories[i].guid}: the category asked for`).toBe(categories[i].guid);
    expect(one.is_default, `GET /categories/${categories[i].guid}: is_default of a default category`).toBe(true);
  }
});

test('walking the default categories in small pages returns the same 119 once each', { tag: ['@paging', '@categories', '@readonly'] }, async ({ api }) => {
  const seen = new Map<string, number>();
  for (let page = 1; page <= 50; page++) {
    const res = await api.get('/categories/default', { query: { page, records_per_page: 25 }, expectStatus: 200 });
    const records = need<Array<{ guid: string }>>(res, 'categories', api);
    for (const r of records) seen.set(r.guid, (seen.get(r.guid) ?? 0) + 1);
    if (isLastPage(res, page, records)) break;
  }
  expect(
    [...seen].filter(([, n]) => n > 1),
    'categories returned on more than one page',
  ).toEqual([]);
  expect(seen.size).toBe(DEFAULT_CATEGORIES);
});

test('a page past the last holds no record, and the totals agree with what the pages held', { tag: ['@paging', '@categories', '@readonly'] }, async ({
  api,
}) => {
  // Endpoints: "Lists are paged with page and records_per_page": the pages of a list partition
  // it, so a page past the last holds nothing. The list is the default categories (Limits: 119),
  // read with the Endpoints' own parameters; the run-wide invariants also judge each page against
  // the others (contracts/invariants.ts, pages partition).
  const perPage = 25;
  const first = await api.get('/categories/default', { query: { page: 1, records_per_page: perPage }, expectStatus: 200 });
  const totalPages = first.body?.pagination?.total_pages;
  let held = need<unknown[]>(first, 'categories', api).length;
  // Without a stated total_pages the walk ends on the first empty page: a page shorter than
  // asked need not be the last (Limits: the maximum of this list is not shown).
  let last = typeof totalPages === 'number' ? totalPages : undefined;
  for (let page = 2; last === undefined || page <= last; page++) {
    const records = need<unknown[]>(await api.get('/categories/default', { query: { page, records_per_page: perPage }, expectStatus: 200 }), 'categories', api);
    if (last === undefined && records.length === 0) last = page - 1;
    held += records.length;
    if (page > 20) break;
  }
  const past = await api.get('/categories/default', { query: { page: (last ?? 1) + 1, records_per_page: perPage } });
  // An error for a page that does not exist is no record either (its status is not shown).
  if (past.status === 200) expect(need<unknown[]>(past, 'categories', api).length, `page ${(last ?? 1) + 1}, past the last page ${last}`).toBe(0);
  else expect(past.status, 'a page past the last: no records, or an error').toBeGreaterThanOrEqual(400);
  expect(held, 'the pages together hold the 119 default categories').toBe(DEFAULT_CATEGORIES);
});

test("walking a user's transactions in pages of 10 returns each once, the ones a single page holds", {
  tag: ['@paging', '@transactions', '@destructive'],
}, async ({ api, poll }) => {
  // Endpoints: "Lists are paged with page and records_per_page" (the transaction lists
  // among them): pages partition the list, so a walk in small pages returns every record of
  // the list once. 10 is the smallest size the vendor's reference takes without falling back
  // (real-service-notes, Paging). The run-wide invariants judge the pages as well
  // (contracts/invariants.ts, pages partition).
  const { user } = await connectedUser(api, poll);
  const whole = need<Array<{ guid: string }>>(
    await api.get(`/users/${user}/transactions`, { query: { records_per_page: 1000 }, expectStatus: 200 }),
    'transactions',
    api,
  );
  // Fewer than 11 transactions make one page: the walk would show nothing about paging.
  test.skip(whole.length <= 10, `the test institution's connected member has ${whole.length} transactions: one page of 10 holds them all`);
  const walked = await walkList<{ guid: string }>(api, `/users/${user}/transactions`, 'transactions', { perPage: 10, maxPages: 100 });
  const counts = new Map<string, number>();
  for (const t of walked) counts.set(t.guid, (counts.get(t.guid) ?? 0) + 1);
  expect(
    [...counts].filter(([, n]) => n > 1).map(([guid]) => guid),
    'transactions returned on more than one page',
  ).toEqual([]);
  expect(
    whole.map((t) => t.guid).filter((g) => !counts.has(g)),
    'transactions of the one-page read that no page of 10 returned',
  ).toEqual([]);
});
