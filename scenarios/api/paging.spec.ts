/**
 * Paging and limits (specification, Endpoints: "Lists are paged with page and
 * records_per_page"; Limits: records_per_page maximum 1000 for institutions,
 * favourites and credentials; 119 default categories).
 *
 * Above the maximum the specification does not say whether the service refuses the
 * request or clamps the page: both are accepted, a page of more than 1000 is not.
 * Default page size and the pagination object are not shown: walks stop at the first
 * page with fewer records than asked for.
 */
import { test, expect } from '../fixtures.ts';

const MAX = 1000;

test('records_per_page=1000 returns a full page of institutions', { tag: ['@paging', '@institutions', '@readonly', '@smoke'] }, async ({ api }) => {
  const small = await api.get('/institutions', { query: { records_per_page: 10 }, expectStatus: 200 });
  expect(small.body.institutions.length, 'records_per_page=10').toBe(10);
  const res = await api.get('/institutions', { query: { records_per_page: MAX }, expectStatus: 200 });
  const total = res.body.pagination?.total_entries as number | undefined;
  // A target with fewer than 1000 institutions returns them all on the first page.
  expect(res.body.institutions.length, 'records on a page of records_per_page=1000').toBe(total === undefined ? MAX : Math.min(MAX, total));
});

test('records_per_page above 1000 never returns more than 1000 records', { tag: ['@paging', '@institutions', '@readonly'] }, async ({ api }) => {
  for (const asked of [1001, 5000]) {
    const res = await api.get('/institutions', { query: { records_per_page: asked } });
    expect(res.status, `records_per_page=${asked}: an error or a clamped page, never a crash`).toBeLessThan(500);
    if (res.status === 200) expect(res.body.institutions.length, `records on a page of records_per_page=${asked}`).toBeLessThanOrEqual(MAX);
    else expect(res.status).toBeGreaterThanOrEqual(400);
  }
});

test('walking every page of institutions returns each record exactly once', { tag: ['@paging', '@institutions', '@readonly'] }, async ({ api }) => {
  const seen = new Map<string, number>();
  const perPage = MAX;
  let total: number | undefined;
  for (let page = 1; page <= 100; page++) {
    const res = await api.get('/institutions', { query: { page, records_per_page: perPage }, expectStatus: 200 });
    total ??= res.body.pagination?.total_entries;
    const records = res.body.institutions as Array<{ code: string }>;
    for (const r of records) seen.set(r.code, (seen.get(r.code) ?? 0) + 1);
    if (records.length < perPage) break;
  }
  const repeated = [...seen].filter(([, n]) => n > 1).map(([code, n]) => `${code} ×${n}`);
  expect(repeated, 'institutions returned on more than one page').toEqual([]);
  if (total !== undefined) expect(seen.size, 'distinct institutions walked vs pagination.total_entries').toBe(total);
  expect(seen.size).toBeGreaterThan(0);
});

test('walking pages of favourite institutions returns each record once', { tag: ['@paging', '@institutions', '@readonly'] }, async ({ api }) => {
  const seen = new Set<string>();
  const perPage = 7;
  for (let page = 1; page <= 200; page++) {
    const res = await api.get('/institutions/favorites', { query: { page, records_per_page: perPage }, expectStatus: 200 });
    const records = res.body.institutions as Array<{ code: string }>;
    for (const r of records) {
      expect(seen.has(r.code), `favourite ${r.code} repeated on page ${page}`).toBe(false);
      seen.add(r.code);
    }
    if (records.length < perPage) break;
  }
});

test('the default category list holds the 119 default categories', { tag: ['@paging', '@categories', '@readonly', '@smoke'] }, async ({ api }) => {
  const res = await api.get('/categories/default', { query: { records_per_page: MAX }, expectStatus: 200 });
  const categories = res.body.categories as Array<{ guid: string; is_default: boolean }>;
  expect(categories.length, 'default categories (Limits: 119)').toBe(119);
  expect(categories.filter((c) => c.is_default !== true).map((c) => c.guid), 'categories whose is_default is not true').toEqual([]);
  expect(new Set(categories.map((c) => c.guid)).size, 'distinct category guids').toBe(119);
  const one = await api.get(`/categories/${categories[0].guid}`, { expectStatus: 200 });
  expect(one.body.category.guid).toBe(categories[0].guid);
});

test('walking the default categories in small pages returns the same 119 once each', { tag: ['@paging', '@categories', '@readonly'] }, async ({ api }) => {
  const seen = new Map<string, number>();
  for (let page = 1; page <= 50; page++) {
    const res = await api.get('/categories/default', { query: { page, records_per_page: 25 }, expectStatus: 200 });
    const records = res.body.categories as Array<{ guid: string }>;
    for (const r of records) seen.set(r.guid, (seen.get(r.guid) ?? 0) + 1);
    if (records.length < 25) break;
  }
  expect([...seen].filter(([, n]) => n > 1), 'categories returned on more than one page').toEqual([]);
  expect(seen.size).toBe(119);
});
