import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePaging, paginate, pageList, MAX_RECORDS_PER_PAGE, DEFAULT_RECORDS_PER_PAGE } from './paging.ts';
import { SimError } from './errors.ts';

const clean = { fault: () => false };
const only = (name: string) => ({ fault: (n: string) => n === name });
const items = Array.from({ length: 2603 }, (_, i) => i);

test('defaults: page 1, 25 records; above the maximum the page is clamped to 1000', () => {
  assert.deepEqual(parsePaging({}), { page: 1, perPage: DEFAULT_RECORDS_PER_PAGE });
  assert.deepEqual(parsePaging({ records_per_page: '5000', page: '2' }), { page: 2, perPage: MAX_RECORDS_PER_PAGE });
  assert.deepEqual(parsePaging({ records_per_page: '', page: '' }), { page: 1, perPage: DEFAULT_RECORDS_PER_PAGE });
});

test('zero, negative, fractional, non-numeric and too-long values are invalid_paging', () => {
  for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '9999999999', ' 5', '0x10']) {
    assert.throws(
      () => parsePaging({ page: bad }),
      (e: unknown) => e instanceof SimError && e.code === 'invalid_paging' && e.message.includes('page'),
    );
    assert.throws(
      () => parsePaging({ records_per_page: bad }),
      (e: unknown) => e instanceof SimError && e.message.includes('records_per_page'),
    );
  }
});

test('a walk over every page returns each record exactly once, in order', () => {
  const walked: number[] = [];
  for (let page = 1; ; page++) {
    const r = pageList(clean, items, { page: String(page), records_per_page: '1000' });
    walked.push(...r.items);
    assert.equal(r.pagination.total_entries, items.length);
    if (page >= r.pagination.total_pages) break;
  }
  assert.deepEqual(walked, items);
});

test('pagination of an empty list still says one page', () => {
  assert.deepEqual(paginate([], { page: 1, perPage: 25 }).pagination, { current_page: 1, per_page: 25, total_entries: 0, total_pages: 1 });
});

test('paging faults deviate exactly as named', () => {
  assert.equal(pageList(only('page-of-1001-records'), items, { records_per_page: '2000' }).items.length, 1001);
  assert.equal(pageList(only('records-per-page-ignored'), items, { records_per_page: '100' }).items.length, 25);
  assert.equal(pageList(only('page-walk-repeats-records'), items, { records_per_page: '10', page: '2' }).items[0], 9);
  assert.equal(pageList(only('page-walk-skips-records'), items, { records_per_page: '10', page: '2' }).items[0], 11);
  // Above the maximum: 1000 records from where a page of 1001 would start, so record 1000 is on no page.
  const skewed = pageList(only('page-offset-uses-asked-size'), items, { records_per_page: '1001', page: '2' });
  assert.deepEqual([skewed.items.length, skewed.items[0], skewed.pagination.per_page], [1000, 1001, 1000]);
  assert.equal(pageList(only('page-offset-uses-asked-size'), items, { records_per_page: '1000', page: '2' }).items[0], 1000);
  assert.throws(
    () => pageList(only('bad-paging-500'), items, { page: '0' }),
    (e: unknown) => !(e instanceof SimError),
  );
});

test('variation page-size-above-1000-falls-back-to-25 touches only the stated-maximum lists, and only above 1000', () => {
  const ctx = { fault: () => false, variation: (n: string) => n === 'page-size-above-1000-falls-back-to-25' };
  assert.equal(pageList(ctx, items, { records_per_page: '1001' }, { statedMaximum: true }).pagination.per_page, 25);
  assert.equal(pageList(ctx, items, { records_per_page: '1000' }, { statedMaximum: true }).pagination.per_page, 1000);
  assert.equal(pageList(ctx, items, { records_per_page: '1001' }).pagination.per_page, 1000);
});
