import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, type Sim, withFault } from './testing.test-support.ts';
import { SUPPORTS_FIELDS } from './data/institutions.ts';

const V_OLD = { 'accept-version': 'v20111101' };
const V_NEW = { 'accept-version': 'v20250224' };

describe('institutions (clean simulator)', () => {
  let sim: Sim;
  before(async () => (sim = await startSim()));
  after(() => sim.close());

  test('the catalogue has at least 2,500 listed institutions and a page walk returns each once', async () => {
    const seen = new Set<string>();
    let total = 0;
    for (let page = 1; ; page++) {
      const r = await sim.get(`/institutions?records_per_page=1000&page=${page}`);
      assert.equal(r.status, 200);
      assert.ok(r.json.institutions.length <= 1000);
      total = r.json.pagination.total_entries;
      for (const i of r.json.institutions) {
        assert.ok(!seen.has(i.guid), `record ${i.code} seen twice`);
        seen.add(i.guid);
      }
      if (page >= r.json.pagination.total_pages) break;
    }
    assert.ok(total >= 2500, `only ${total} institutions`);
    assert.equal(seen.size, total);
  });

  test('records_per_page above 1000 is clamped to 1000', async () => {
    const r = await sim.get('/institutions?records_per_page=5000');
    assert.equal(r.status, 200);
    assert.equal(r.json.institutions.length, 1000);
    assert.equal(r.json.pagination.per_page, 1000);
  });

  test('v20111101 shows the four supports_* fields; v20250224 shows supported_products instead', async () => {
    const old = (await sim.get('/institutions/svcbank', V_OLD)).json.institution;
    for (const [field] of SUPPORTS_FIELDS) assert.equal(typeof old[field], 'boolean', field);
    assert.equal(old.supported_products, undefined);
    const neu = (await sim.get('/institutions/svcbank', V_NEW)).json.institution;
    assert.ok(Array.isArray(neu.supported_products) && neu.supported_products.includes('transactions'));
    for (const [field] of SUPPORTS_FIELDS) assert.equal(neu[field], undefined, field);
    const current = (await sim.get('/institutions/svcbank', { 'accept-version': 'v20260929' })).json.institution;
    assert.ok(Array.isArray(current.supported_products));
  });

  test('every named institution field is present', async () => {
    const i = (await sim.get('/institutions/svc_bank_oauth', V_NEW)).json.institution;
    for (const f of [
      'code',
      'guid',
      'name',
      'created_at',
      'is_hidden',
      'status',
      'client_status',
      'is_disabled_by_client',
      'instructional_text',
      'instructional_text_steps',
      'forgot_password_url',
      'forgot_username_url',
      'trouble_signing_in_url',
      'supports_oauth',
      'supported_products',
    ]) {
      assert.ok(f in i, f);
    }
    assert.equal(i.supports_oauth, true);
    assert.match(i.guid, /^INS-[0-9a-f-]{36}$/);
  });

  test('read by code and by guid give the same institution; unknown is 404', async () => {
    const byCode = (await sim.get('/institutions/svcbank')).json.institution;
    const byGuid = await sim.get(`/institutions/${byCode.guid}`);
    assert.equal(byGuid.status, 200);
    assert.deepEqual(byGuid.json.institution, byCode);
    assert.ok(isErrorBody(await sim.get('/institutions/no_such_bank'), 404));
  });

  test('filters: name, country code, include_blocked_institutions', async () => {
    const named = (await sim.get('/institutions?name=svc%20bank')).json;
    assert.deepEqual(named.institutions.map((i: { code: string }) => i.code).sort(), ['svc_bank_oauth', 'svcbank']);
    const all = (await sim.get('/institutions?records_per_page=1')).json.pagination.total_entries;
    const us = (await sim.get('/institutions?records_per_page=1&country_code=US')).json.pagination.total_entries;
    const ca = (await sim.get('/institutions?records_per_page=1&iso_country_code=ca')).json.pagination.total_entries;
    assert.ok(us > 0 && ca > 0 && us + ca < all);
    const withBlocked = (await sim.get('/institutions?records_per_page=1000&include_blocked_institutions=true&page=1')).json;
    assert.ok(withBlocked.pagination.total_entries > all);
    const blocked = await sim.get('/institutions?records_per_page=1000&include_blocked_institutions=true&page=3');
    assert.ok([...withBlocked.institutions, ...blocked.json.institutions].some((i: { is_disabled_by_client: boolean }) => i.is_disabled_by_client));
    assert.ok(isErrorBody(await sim.get('/institutions?include_blocked_institutions=maybe'), 400));
    assert.ok(isErrorBody(await sim.get('/institutions?country_code=USA'), 400));
  });

  test('supported_products filter (v20250224) and supports_* filters (v20111101)', async () => {
    const r = (await sim.get('/institutions?records_per_page=1000&supported_products=account_verification,identity_verification', V_NEW)).json;
    assert.ok(r.institutions.length > 0);
    for (const i of r.institutions)
      assert.ok(i.supported_products.includes('account_verification') && i.supported_products.includes('identity_verification'), i.code);
    const o = (await sim.get('/institutions?records_per_page=1000&supports_account_verification=false', V_OLD)).json;
    assert.ok(o.institutions.length > 0);
    for (const i of o.institutions) assert.equal(i.supports_account_verification, false);
  });

  test('favourites are ordered by popularity and filter by country', async () => {
    const r = (await sim.get('/institutions/favorites')).json;
    assert.equal(r.institutions[0].code, 'svcbank');
    assert.ok(r.institutions.length >= 10);
    const gb = (await sim.get('/institutions/favorites?country_code=GB')).json;
    assert.ok(gb.institutions.length < r.institutions.length);
  });

  test('credentials: svcbank asks for user name and password; unknown identifier 404', async () => {
    const r = await sim.get('/institutions/svcbank/credentials');
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.json.credentials.map((c: { field_name: string }) => c.field_name),
      ['username', 'password'],
    );
    for (const c of r.json.credentials) assert.ok(c.type && c.guid);
    const guid = (await sim.get('/institutions/svcbank')).json.institution.guid;
    assert.equal((await sim.get(`/institutions/${guid}/credentials`)).status, 200);
    assert.ok(isErrorBody(await sim.get('/institutions/nope/credentials'), 404));
  });

  test('default categories: 119, all is_default, subcategories name their parent, read by guid', async () => {
    const r = (await sim.get('/categories/default?records_per_page=1000')).json;
    assert.equal(r.categories.length, 119);
    assert.equal(r.pagination.total_entries, 119);
    const guids = new Set(r.categories.map((c: { guid: string }) => c.guid));
    for (const c of r.categories) {
      assert.equal(c.is_default, true);
      if (c.parent_guid) assert.ok(guids.has(c.parent_guid));
    }
    const page2 = (await sim.get('/categories/default?records_per_page=100&page=2')).json;
    assert.equal(page2.categories.length, 19);
    const one = await sim.get(`/categories/${r.categories[5].guid}`);
    assert.deepEqual(one.json.category, r.categories[5]);
    assert.ok(isErrorBody(await sim.get('/categories/CAT-nope'), 404));
  });
});

describe('institution and category faults change the behaviour', () => {
  test('page-of-1001-records', () =>
    withFault('page-of-1001-records', async (sim) => {
      assert.equal((await sim.get('/institutions?records_per_page=5000')).json.institutions.length, 1001);
    }));
  test('records-per-page-ignored', () =>
    withFault('records-per-page-ignored', async (sim) => {
      assert.equal((await sim.get('/institutions?records_per_page=100')).json.institutions.length, 25);
    }));
  for (const fault of ['page-walk-repeats-records', 'page-walk-skips-records']) {
    test(fault, () =>
      withFault(fault, async (sim) => {
        const p1 = (await sim.get('/institutions?records_per_page=10&page=1')).json.institutions;
        const p2 = (await sim.get('/institutions?records_per_page=10&page=2')).json.institutions;
        const all = (await sim.get('/institutions?records_per_page=20&page=1')).json.institutions;
        const walked = [...p1, ...p2].map((i: { guid: string }) => i.guid);
        assert.notDeepEqual(
          walked,
          all.map((i: { guid: string }) => i.guid),
        );
      }),
    );
  }
  test('bad-paging-500', () =>
    withFault('bad-paging-500', async (sim) => {
      assert.equal((await sim.get('/institutions?page=-1')).status, 500);
    }));
  test('credentials-unknown-institution-200', () =>
    withFault('credentials-unknown-institution-200', async (sim) => {
      assert.equal((await sim.get('/institutions/nope/credentials')).status, 200);
    }));
  test('supported-products-filter-ignored', () =>
    withFault('supported-products-filter-ignored', async (sim) => {
      const r = (await sim.get('/institutions?records_per_page=1000&supported_products=identity_verification', V_NEW)).json;
      assert.ok(r.institutions.some((i: { supported_products: string[] }) => !i.supported_products.includes('identity_verification')));
    }));
  test('institution-by-guid-404', () =>
    withFault('institution-by-guid-404', async (sim) => {
      const guid = (await sim.get('/institutions/svcbank')).json.institution.guid;
      assert.equal((await sim.get(`/institutions/${guid}`)).status, 404);
    }));
  test('institution-name-filter-ignored', () =>
    withFault('institution-name-filter-ignored', async (sim) => {
      assert.ok((await sim.get('/institutions?name=SVC%20Bank&records_per_page=100')).json.institutions.length > 2);
    }));
  test('institution-country-filter-ignored', () =>
    withFault('institution-country-filter-ignored', async (sim) => {
      assert.ok((await sim.get('/institutions?iso_country_code=ZZ')).json.institutions.length > 0);
    }));
  test('favorites-country-filter-ignored', () =>
    withFault('favorites-country-filter-ignored', async (sim) => {
      assert.ok((await sim.get('/institutions/favorites?iso_country_code=ZZ')).json.institutions.length > 0);
    }));
  test('favorites-not-by-popularity', () =>
    withFault('favorites-not-by-popularity', async (sim) => {
      const codes = (await sim.get('/institutions/favorites?records_per_page=100')).json.institutions.map((i: { code: string }) => i.code);
      assert.notEqual(codes[0], 'svcbank');
    }));
  test('include-blocked-institutions-ignored', () =>
    withFault('include-blocked-institutions-ignored', async (sim) => {
      const r = (await sim.get('/institutions?include_blocked_institutions=true&records_per_page=1000')).json.institutions;
      assert.ok(r.every((i: { is_disabled_by_client: boolean }) => !i.is_disabled_by_client));
    }));
  test('blocked-institutions-listed-by-default', () =>
    withFault('blocked-institutions-listed-by-default', async (sim) => {
      const r = (await sim.get('/institutions?records_per_page=1000')).json.institutions;
      assert.ok(r.some((i: { is_disabled_by_client: boolean }) => i.is_disabled_by_client));
    }));
  test('supports-oauth-without-oauth', () =>
    withFault('supports-oauth-without-oauth', async (sim) => {
      assert.equal((await sim.get('/institutions/svcbank')).json.institution.supports_oauth, true);
    }));
  test('credentials-list-incomplete', () =>
    withFault('credentials-list-incomplete', async (sim) => {
      assert.equal((await sim.get('/institutions/svcbank/credentials')).json.credentials.length, 1);
    }));
  test('categories-118-defaults', () =>
    withFault('categories-118-defaults', async (sim) => {
      assert.equal((await sim.get('/categories/default?records_per_page=1000')).json.categories.length, 118);
    }));
});
