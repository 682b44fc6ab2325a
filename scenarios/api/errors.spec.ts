/**
 * Bad input and unknown identifiers. The specification shows no status for either:
 * its Errors table names 404 only for "invalid institution_identifier on the
 * credentials list" and the data exchange transaction reads, and says "Error codes per
 * endpoint beyond those in the table: not shown" and "Shape of error response bodies:
 * not shown". So:
 *   - a malformed request refused with a 4xx is an inferred expectation (reported,
 *     gating only with SVC_STRICT=1); no body is required (error bodies of any shape or
 *     none are a real service's freedom);
 *   - reading an identifier that names nothing must not succeed (a read returns "one"
 *     resource, and there is none); the exact 404 is inferred. The two stated 404s are
 *     asserted where they live (institutions.spec.ts, data-exchange.spec.ts).
 * Every request names a user that exists, so a refusal is about the malformed part.
 */
import { test, expect, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { expectRefused, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { expectInferred } from '../inferred.ts';

function expectInferred4xx(api: CheckedClient, label: string, res: CheckedResponse) {
  expectInferred(api.profile, res.status >= 400 && res.status < 500, {
    expectation: `${label} is refused with a 4xx`,
    basis: 'Errors: "Error codes per endpoint beyond those in the table: not shown"',
    received: String(res.status),
  });
}

test('malformed JSON, wrong types and missing wrappers answer 4xx', { tag: ['@errors', '@destructive', '@smoke', '@inferred'] }, async ({ api }) => {
  const user = await createUser(api);
  const path = `/users/${user}/members`;
  expectInferred4xx(api, 'malformed JSON', await api.call({ method: 'POST', path, rawBody: '{"member": {"institution_code": ' }));
  expectInferred4xx(api, 'member is a string', await api.post(path, { member: 'svcbank' }));
  expectInferred4xx(api, 'no member wrapper', await api.post(path, { institution_code: 'svcbank' }));
  expectInferred4xx(
    api,
    'unknown institution',
    await api.post(path, { member: { institution_code: 'scn_no_such_bank' }, data_request: { products: ['transactions'] } }),
  );
  expectInferred4xx(api, 'ach_return wrapper is an array', await api.post('/ach_returns', { ach_return: [] }));
});

test('negative, zero, huge and non-numeric paging values answer 4xx or a bounded page', { tag: ['@errors', '@paging', '@readonly', '@inferred'] }, async ({
  api,
}) => {
  for (const [page, rpp] of [
    ['-1', '10'],
    ['0', '10'],
    ['1', '-5'],
    ['1', 'abc'],
    ['99999999999999999999', '10'],
    ['1', '1e3'],
  ]) {
    const res = await api.get('/institutions', { query: { page, records_per_page: rpp } });
    const label = `page=${page} records_per_page=${rpp}`;
    if (is2xx(res.status)) {
      // Limits, the table's row "records_per_page maximum": 1000 (... list institutions): whatever the value, no page holds more.
      expect(need<unknown[]>(res, 'institutions', api).length, `${label}: records on the page`).toBeLessThanOrEqual(1000);
    } else {
      expectInferred4xx(api, label, res);
    }
  }
});

test('unknown identifiers answer 404, not 5xx', { tag: ['@errors', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  for (const path of [
    '/users/USR-00000000-0000-4000-8000-000000000000',
    '/categories/CAT-00000000-0000-4000-8000-000000000000',
    '/ach_returns/scn-none',
    '/institutions/scn_none',
  ]) {
    const res = await api.get(path);
    expectRefused(profile, res, `GET ${path} (names nothing)`, {
      stated: 'a read returns one resource, and none exists',
      inferred: [404],
      basis: 'Errors names 404 only for the credentials list and data exchange transaction reads; elsewhere "not shown"',
    });
  }
});
