/**
 * Versions (specification, Versioning): Accept-Version selects the version; each
 * version's stated differences; a sunset version and an unknown version answer an
 * error; deprecated endpoints carry the deprecation headers (names: profile setting,
 * not shown in the specification); sunset endpoints are refused.
 */
import { test, expect, requireSetting } from '../fixtures.ts';
import { createMember, createUser, readStatus, waitUntilSettled } from '../helpers.ts';

const OLD = 'v20111101';
const V2025 = 'v20250224';
const SUPPORTS_FIELDS = ['supports_account_verification', 'supports_account_identification', 'supports_transaction_history', 'supports_account_statement'];

function supports(profile: { versions: { supported: string[] } }, version: string) {
  test.skip(!profile.versions.supported.includes(version), `the target does not list ${version} in SVC_VERSIONS`);
}

test(`${OLD} institutions carry the four supports_* fields`, { tag: ['@versions', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, OLD);
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version: OLD, expectStatus: 200 });
  for (const field of SUPPORTS_FIELDS) expect(res.body.institution, `${OLD} institution field ${field}`).toHaveProperty(field);
});

test(`${V2025} institutions use supported_products in place of the supports_* fields`, { tag: ['@versions', '@institutions', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version: V2025, expectStatus: 200 });
  expect(Array.isArray(res.body.institution.supported_products), `${V2025} institution.supported_products is an array`).toBe(true);
});

test(`${V2025} list institutions filters by supported_products`, { tag: ['@versions', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  const product = 'account_verification';
  const res = await api.get('/institutions', { version: V2025, query: { supported_products: product, records_per_page: 200 }, expectStatus: 200 });
  const list = res.body.institutions as Array<{ code: string; supported_products: string[] }>;
  expect(list.length).toBeGreaterThan(0);
  expect(list.filter((i) => !i.supported_products?.includes(product)).map((i) => i.code), `institutions returned for supported_products=${product} without it`).toEqual([]);
});

test(`${V2025} create member requires data_request and answers 201 with it`, { tag: ['@versions', '@members', '@destructive'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  const user = await createUser(api, { version: V2025 });
  const refused = await createMember(api, user, { scenario: 'SUCCESS', version: V2025, omitDataRequest: true, expectStatus: [400, 422] });
  expect(refused.status).toBeLessThan(500);
  const created = await createMember(api, user, { scenario: 'SUCCESS', version: V2025, expectStatus: 201 });
  expect(created.body.member.guid).toMatch(/^MBR-/);
});

test(`${V2025} request widget URL requires data_request`, { tag: ['@versions', '@widgets', '@destructive'] }, async ({ api, profile }) => {
  // Versioning, changes in v20250224: "create member and request widget URL take a
  // required data_request with a products array". Only the 4xx class is stated.
  supports(profile, V2025);
  const user = await createUser(api, { version: V2025 });
  const refused = await api.post(`/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { version: V2025, expectStatus: [400, 422] });
  expect(refused.status, 'widget URL without data_request on v20250224').toBeGreaterThanOrEqual(400);
  const granted = await api.post(`/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget', data_request: { products: ['transactions'] } } }, { version: V2025, expectStatus: 200 });
  expect(typeof granted.body.widget_url.url).toBe('string');
});

test(`${OLD} create member needs no data_request`, { tag: ['@versions', '@members', '@destructive'] }, async ({ api, profile }) => {
  supports(profile, OLD);
  const user = await createUser(api, { version: OLD });
  const created = await createMember(api, user, { scenario: 'SUCCESS', version: OLD, expectStatus: [200, 201, 202] });
  expect(created.body.member.guid).toMatch(/^MBR-/);
});

test(`${V2025} MFA option entries carry a guid`, { tag: ['@versions', '@members', '@destructive'] }, async ({ api, poll, profile }) => {
  supports(profile, V2025);
  const user = await createUser(api, { version: V2025 });
  const member = (await createMember(api, user, { scenario: 'OPTIONS', version: V2025 })).body.member.guid;
  const { value } = await waitUntilSettled(api, poll, user, member, V2025);
  expect(value.connection_status).toBe('CHALLENGED');
  const options = (value.challenges ?? []).flatMap((c) => c.options ?? []);
  expect(options.length, 'options of the option-list challenge').toBeGreaterThan(0);
  expect(options.filter((o) => typeof o.guid !== 'string' || o.guid === ''), 'option entries without a guid').toEqual([]);
  void readStatus;
});

test('a sunset version answers an error', { tag: ['@versions', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  const sunset = requireSetting(profile.versions.sunset, 'SVC_SUNSET_VERSION', 'a version the target has sunset');
  const res = await api.get('/institutions', { version: sunset, query: { records_per_page: 1 } });
  expect(res.status, `Accept-Version ${sunset} (sunset): an error`).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
});

test('an unknown version answers an error', { tag: ['@versions', '@readonly'] }, async ({ api }) => {
  for (const version of ['v29991231', 'not-a-version']) {
    const res = await api.get('/institutions', { version, query: { records_per_page: 1 } });
    expect(res.status, `Accept-Version ${version}: an error`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
});

test(`deprecated endpoints on ${V2025} carry the deprecation header`, { tag: ['@versions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  const header = profile.versions.deprecationHeader.toLowerCase();
  const res = await api.get('/managed_institutions', { version: V2025 });
  expect(res.status, 'GET /managed_institutions (deprecated, still usable)').toBeLessThan(400);
  expect(res.headers, `response header ${profile.versions.deprecationHeader} (SVC_DEPRECATION_HEADER)`).toHaveProperty(header);
});

test(`sunset endpoints are refused on ${V2025}`, { tag: ['@versions', '@destructive'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  supports(profile, OLD);
  const user = await createUser(api, { version: OLD });
  // The same request that an earlier version serves must be refused once the endpoint has sunset.
  const before = await api.post(`/users/${user}/connect_widget_url`, {}, { version: OLD });
  expect(before.status, `POST /users/{user_guid}/connect_widget_url on ${OLD}`).toBeLessThan(300);
  const after = await api.post(`/users/${user}/connect_widget_url`, {}, { version: V2025 });
  expect(after.status, `POST /users/{user_guid}/connect_widget_url on ${V2025} (sunset)`).toBeGreaterThanOrEqual(400);
  expect(after.status).toBeLessThan(500);
  const code = await api.post('/payment_processor_authorization_code', { payment_processor_authorization_code: {} }, { version: V2025 });
  expect(code.status, 'POST /payment_processor_authorization_code (sunset)').toBeGreaterThanOrEqual(400);
  expect(code.status).toBeLessThan(500);
});
