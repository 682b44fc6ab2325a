/**
 * Bad input never gets a 5xx (Developers' guide, Standards: "Bad input gets a clear
 * 4xx error with a body that says what is wrong, never a crash or 5xx"). The
 * specification does not show error bodies, so only the status class and a non-empty
 * body are asserted.
 */
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { createUser } from '../helpers.ts';

async function expectClear4xx(api: CheckedClient, label: string, res: { status: number; text: string }) {
  expect(res.status, `${label}: a 4xx`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: never a 5xx`).toBeLessThan(500);
  expect(res.text.length, `${label}: a body that says what is wrong`).toBeGreaterThan(0);
}

test('malformed JSON, wrong types and missing wrappers answer 4xx', { tag: ['@errors', '@destructive', '@smoke'] }, async ({ api }) => {
  const user = await createUser(api);
  const path = `/users/${user}/members`;
  await expectClear4xx(api, 'malformed JSON', await api.call({ method: 'POST', path, rawBody: '{"member": {"institution_code": ' }));
  await expectClear4xx(api, 'member is a string', await api.post(path, { member: 'svcbank' }));
  await expectClear4xx(api, 'no member wrapper', await api.post(path, { institution_code: 'svcbank' }));
  await expectClear4xx(api, 'unknown institution', await api.post(path, { member: { institution_code: 'scn_no_such_bank', data_request: { products: ['transactions'] } } }));
  await expectClear4xx(api, 'ach_return wrapper is an array', await api.post('/ach_returns', { ach_return: [] }));
});

test('negative, zero, huge and non-numeric paging values answer 4xx or a bounded page', { tag: ['@errors', '@paging', '@readonly'] }, async ({ api }) => {
  for (const [page, rpp] of [['-1', '10'], ['0', '10'], ['1', '-5'], ['1', 'abc'], ['99999999999999999999', '10'], ['1', '1e3']]) {
    const res = await api.get('/institutions', { query: { page, records_per_page: rpp } });
    expect(res.status, `page=${page} records_per_page=${rpp}: never a 5xx`).toBeLessThan(500);
  }
});

test('unknown identifiers answer 404, not 5xx', { tag: ['@errors', '@readonly'] }, async ({ api }) => {
  for (const path of ['/users/USR-00000000-0000-4000-8000-000000000000', '/categories/CAT-00000000-0000-4000-8000-000000000000', '/ach_returns/scn-none', '/institutions/scn_none']) {
    const res = await api.get(path);
    expect(res.status, `GET ${path}`).toBe(404);
  }
});
