/**
 * Versions (specification, Versioning): Accept-Version selects the version; each
 * version's stated differences; a sunset version and an unknown version answer an
 * error; deprecated endpoints carry the deprecation headers (names: profile setting,
 * not shown in the specification); sunset endpoints are refused.
 */
import { test, expect, requireSetting } from '../fixtures.ts';
import { REQUEST_RULES, TIER_REASONS } from '../../contracts/index.ts';
import { ANY_2XX, carriesNamed, expectRefused, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { requireTestInstitution } from '../steps/test-institution.ts';
import { CREATE_MEMBER_STATUSES, createMember, createdMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { expectDeprecationHeader, expectInferred } from '../inferred.ts';

const OLD = 'v20111101';
const V2025 = 'v20250224';
const SUPPORTS_FIELDS = ['supports_account_verification', 'supports_account_identification', 'supports_transaction_history', 'supports_account_statement'];

function supports(profile: { versions: { supported: string[] } }, version: string) {
  test.skip(!profile.versions.supported.includes(version), `the target does not list ${version} in SVC_VERSIONS`);
}

test(`${OLD} institutions carry the four supports_* fields`, { tag: ['@versions', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  // Versioning, changes in v20250224: "institution responses use supported_products in
  // place of four supports_* fields": the earlier version has those four.
  supports(profile, OLD);
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version: OLD, expectStatus: 200 });
  const institution = need<Record<string, unknown>>(res, 'institution', api);
  // supported_products "in place of" the four is the v20250224 form: an answer that carries it
  // and none of the four was answered as a later version, not the one asked for.
  const carried = SUPPORTS_FIELDS.filter((f) => Object.hasOwn(institution, f));
  expect(
    carried.length === 0 && Object.hasOwn(institution, 'supported_products'),
    `${OLD} institution ${profile.testInstitution.code} answered in the ${V2025} form: supported_products in place of the four supports_* fields`,
  ).toBe(false);
  // The Institution list names the four without saying they are always present: one missing is
  // an inferred finding (one served on a read and dropped on another is presence consistency's:
  // contracts/invariants.ts).
  for (const field of SUPPORTS_FIELDS) carriesNamed(profile, institution, field, `${OLD} institution ${profile.testInstitution.code}`);
});

test(`${V2025} institutions use supported_products in place of the supports_* fields`, { tag: ['@versions', '@institutions', '@readonly', '@smoke'] }, async ({
  api,
  profile,
}) => {
  supports(profile, V2025);
  // Versioning, changes in v20250224; Resources, Institution: "supported_products (array ...)".
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version: V2025, expectStatus: 200 });
  const institution = need<Record<string, unknown>>(res, 'institution', api);
  if (carriesNamed(profile, institution, 'supported_products', `${V2025} institution ${profile.testInstitution.code}`))
    expect(Array.isArray(institution.supported_products), `${V2025} institution.supported_products is an array`).toBe(true);
});

test(`${V2025} list institutions filters by supported_products`, { tag: ['@versions', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  // Versioning, changes in v20250224: "list institutions query ... use supported_products";
  // Endpoints, Institutions: "filters by ... supported products".
  const product = 'account_verification';
  const res = await api.get('/institutions', { version: V2025, query: { supported_products: product, records_per_page: 200 }, expectStatus: 200 });
  const list = need<Array<{ code: string; guid?: string; supported_products: string[] }>>(res, 'institutions', api);
  expect(list.length).toBeGreaterThan(0);
  // Judged on the institutions that carry supported_products (named, not said to be always present).
  const shown = list.filter((i) => Object.hasOwn(i, 'supported_products'));
  test.skip(shown.length === 0, `no institution of the filtered list carries supported_products, so the filter cannot be judged`);
  expect(
    shown.filter((i) => !i.supported_products?.includes(product)).map((i) => i.code ?? i.guid),
    `institutions returned for supported_products=${product} without it`,
  ).toEqual([]);
});

test(`${OLD} list institutions filters by the four supports_* fields`, { tag: ['@versions', '@institutions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, OLD);
  // Versioning, changes in v20250224: "list institutions query and institution responses use
  // supported_products in place of four supports_* fields": before it the list query takes
  // those four; Endpoints, Institutions: "filters by ... supported products".
  for (const field of SUPPORTS_FIELDS) {
    const res = await api.get('/institutions', { version: OLD, query: { [field]: true, records_per_page: 200 }, expectStatus: 200 });
    const list = need<Array<Record<string, unknown>>>(res, 'institutions', api);
    // A field left out or null says nothing (real-service-notes, Nullability); false contradicts the filter.
    expect(
      list.filter((i) => i[field] === false).map((i) => i.code),
      `${OLD} institutions returned for ${field}=true that say ${field} false`,
    ).toEqual([]);
  }
});

test(`${V2025} create member requires data_request`, { tag: ['@versions', '@members', '@destructive', '@inferred'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  requireTestInstitution(profile, ['SUCCESS']);
  const user = await createUser(api, { version: V2025 });
  // Versioning, changes in v20250224: "create member ... take a required data_request".
  // Required means the request without it must not succeed; its status is not shown.
  const refused = await createMember(api, user, { scenario: 'SUCCESS', version: V2025, omitDataRequest: true, expectStatus: null });
  expectRefused(profile, refused, `create member without data_request on ${V2025}`, { stated: 'Versioning: a required data_request on v20250224' });
  // Endpoints: "On v20250224, a 201 created response exists"; 200 and 202 are not ruled
  // out (the reference declares both): scenarios/steps/members.ts CREATE_MEMBER_STATUSES.
  const created = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS', version: V2025, expectStatus: CREATE_MEMBER_STATUSES }));
  expect(created.guid).toMatch(/^MBR-/);
});

test(`${V2025} request widget URL requires data_request`, { tag: ['@versions', '@widgets', '@destructive', '@inferred'] }, async ({ api, profile }) => {
  // Versioning, changes in v20250224: "create member and request widget URL take a
  // required data_request with a products array": without it the request must not
  // succeed; the status is not shown (a 4xx is inferred). Resources, Widget URL: the
  // request object widget_url lists data_request among its fields, so it goes inside.
  supports(profile, V2025);
  const user = await createUser(api, { version: V2025 });
  const refused = await api.post(`/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { version: V2025 });
  expectRefused(profile, refused, `widget URL without data_request on ${V2025}`, { stated: 'Versioning: a required data_request on v20250224' });
  // The widget URL status is not shown (the Errors table's 200 is for reads, lists and ACH returns): any 2xx.
  const granted = await api.post(
    `/users/${user}/widget_urls`,
    { widget_url: { widget_type: 'connect_widget', data_request: { products: ['transactions'] } } },
    { version: V2025, expectStatus: ANY_2XX },
  );
  // Resources, Widget URL: "Response object widget_url with type (string), url (string) and user_id (string)".
  expect(typeof need(granted, 'widget_url.url', api)).toBe('string');
});

test(`${OLD} create member needs no data_request`, { tag: ['@versions', '@members', '@destructive'] }, async ({ api, profile }) => {
  supports(profile, OLD);
  // Versioning: data_request became required in v20250224, so the earlier version
  // creates a member without it (200, 201 or 202: scenarios/steps/members.ts CREATE_MEMBER_STATUSES).
  requireTestInstitution(profile, ['SUCCESS']);
  const user = await createUser(api, { version: OLD });
  const created = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS', version: OLD, expectStatus: CREATE_MEMBER_STATUSES }));
  expect(created.guid).toMatch(/^MBR-/);
});

test(`${V2025} MFA option entries carry a guid`, { tag: ['@versions', '@members', '@destructive'] }, async ({ api, poll, profile }) => {
  supports(profile, V2025);
  // Resources, Credential: "MFA challenges of type text, options, image and image_options
  // carry a guid on option entries (v20250224)".
  requireTestInstitution(profile, ['OPTIONS']);
  const user = await createUser(api, { version: V2025 });
  const member = createdMember(api, await createMember(api, user, { scenario: 'OPTIONS', version: V2025 })).guid;
  const { value } = await waitUntilSettled(api, poll, user, member, V2025);
  expect(value.connection_status).toBe('CHALLENGED');
  const options = (value.challenges ?? []).flatMap((c) => c.options ?? []);
  expect(options.length, 'options of the option-list challenge').toBeGreaterThan(0);
  expect(
    options.filter((o) => typeof o.guid !== 'string' || o.guid === ''),
    'option entries without a guid',
  ).toEqual([]);
});

test('a sunset version answers an error', { tag: ['@versions', '@readonly', '@smoke', '@inferred'] }, async ({ api, profile }) => {
  const sunset = requireSetting(profile.versions.sunset, 'SVC_SUNSET_VERSION', 'a version the target has sunset');
  const res = await api.get('/institutions', { version: sunset, query: { records_per_page: 10 } });
  // Versioning, lifecycle: "After those 12 months it sunsets: access is removed and
  // requests return an error"; Errors: "When an API version has reached sunset,
  // attempts to use it return an error". An error is not a success; its status is not shown.
  expectRefused(profile, res, `Accept-Version ${sunset} (sunset)`, { stated: 'Versioning: requests to a sunset version return an error' });
});

test('an unknown version answers an error', { tag: ['@versions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  // Not stated: the specification names the versions in play and says a sunset one
  // answers an error, but not what a well-formed version that never existed gets. Inferred.
  const unknown = await api.get('/institutions', { version: 'v29991231', query: { records_per_page: 10 } });
  expectInferred(profile, unknown.status >= 400 && unknown.status < 500, {
    expectation: 'Accept-Version v29991231 (no such version) is refused with a 4xx',
    basis: "Versioning names the versions in play and the sunset error only; an unknown version's answer is not shown",
    received: String(unknown.status),
  });
  // Versioning: "version names are dates of the form v<YYYYMMDD>": a value of another form
  // names no version, so a 2xx fails (stated); the refusal's status is inferred.
  const malformed = await api.get('/institutions', { version: 'not-a-version', query: { records_per_page: 10 } });
  expectRefused(profile, malformed, 'Accept-Version not-a-version (not of the form v<YYYYMMDD>)', {
    stated: `${REQUEST_RULES.versionName}; ${TIER_REASONS.versionName}`,
    basis: "Versioning states the form of version names; the answer to another form's status is not shown",
  });
});

test(`deprecated endpoints on ${V2025} carry the deprecation header`, { tag: ['@versions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  // Versioning: "Deprecated endpoints: /managed_institutions, ..." in v20250224; a
  // deprecated item is removed only at its sunset ("After those 12 months it sunsets:
  // access is removed"), so the read still succeeds (Errors: 200 for reads).
  const res = await api.get('/managed_institutions', { version: V2025, expectStatus: 200 });
  expectDeprecationHeader(profile, res.headers, 'GET /managed_institutions');
});

test(`sunset endpoints are refused on ${V2025}`, { tag: ['@versions', '@destructive', '@inferred'] }, async ({ api, profile }) => {
  supports(profile, V2025);
  supports(profile, OLD);
  const user = await createUser(api, { version: OLD });
  // Versioning, changes in v20250224: "Sunset endpoints: /payment_processor_authorization_code,
  // /users/{user_guid}/connect_widget_url"; a sunset item: "access is removed and
  // requests return an error". The same request an earlier version serves (its status
  // is not shown: any 2xx) must be refused once the endpoint has sunset.
  const before = await api.post(`/users/${user}/connect_widget_url`, {}, { version: OLD });
  expect(is2xx(before.status), `POST /users/{user_guid}/connect_widget_url on ${OLD} (not sunset there): ${before.status}`).toBe(true);
  const after = await api.post(`/users/${user}/connect_widget_url`, {}, { version: V2025 });
  expectRefused(profile, after, `POST /users/{user_guid}/connect_widget_url on ${V2025} (sunset)`, { stated: 'Versioning: sunset endpoints return an error' });
  const code = await api.post('/payment_processor_authorization_code', { payment_processor_authorization_code: {} }, { version: V2025 });
  expectRefused(profile, code, `POST /payment_processor_authorization_code on ${V2025} (sunset)`, { stated: 'Versioning: sunset endpoints return an error' });
});

test('each version in play is served', { tag: ['@versions', '@readonly'] }, async ({ api, profile }) => {
  // Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"; the
  // version is chosen with Accept-Version. Each one the profile lists answers a read
  // (Errors: "200 normal success for reads").
  const inPlay = ['v20260929', V2025, OLD].filter((v) => profile.versions.supported.includes(v));
  test.skip(inPlay.length === 0, 'SVC_VERSIONS lists none of the versions in play');
  for (const version of inPlay) await api.get(`/institutions/${profile.testInstitution.code}`, { version, expectStatus: 200 });
});

test(`a ${OLD} request with the vendor media type in Accept is served`, { tag: ['@versions', '@readonly'] }, async ({ api, profile }) => {
  supports(profile, OLD);
  // Authentication 2: "Earlier examples use a vendor media type of the form
  // application/vnd.svc.api.v1+json or v2+json in Accept": a client doing so is served
  // (Errors: 200 for reads). The answer's media type is open (real-service-notes: the
  // vendor type or application/json).
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, {
    version: OLD,
    headers: { accept: 'application/vnd.svc.api.v1+json' },
    expectStatus: 200,
  });
  const institution = need<Record<string, unknown>>(res, 'institution', api);
  if (carriesNamed(profile, institution, 'code', `${OLD} institution ${profile.testInstitution.code}`))
    expect(institution.code).toBe(profile.testInstitution.code);
});

test('a deprecated version stays usable for 12 months after its deprecation date', { tag: ['@versions', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  const deprecated = requireSetting(
    profile.versions.deprecated,
    'SVC_DEPRECATED_VERSION and SVC_DEPRECATED_ON',
    'a version the target has deprecated and its deprecation date',
  );
  // Versioning, lifecycle: "A deprecated version remains usable for 12 months after its
  // deprecation date ... After those 12 months it sunsets" (the sunset error is the
  // sunset-version scenario's).
  const until = new Date(`${deprecated.on}T00:00:00Z`);
  until.setUTCMonth(until.getUTCMonth() + 12);
  test.skip(Date.now() >= until.getTime(), `${deprecated.version} was deprecated on ${deprecated.on}: its 12 months have passed, so it may have sunset`);
  // Still usable: a read answers as any read does (Errors: "200 normal success for reads").
  const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version: deprecated.version, expectStatus: 200 });
  const institution = need<Record<string, unknown>>(res, 'institution', api);
  if (carriesNamed(profile, institution, 'code', `${deprecated.version} institution ${profile.testInstitution.code}`))
    expect(institution.code).toBe(profile.testInstitution.code);
  // Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions".
  expectDeprecationHeader(profile, res.headers);
});

test('a version released less than 18 months ago is served', { tag: ['@versions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  // Versioning, lifecycle: "a released version is supported for at least 18 months from
  // launch". That a version's name (v<YYYYMMDD>) is its launch day is read from the
  // naming rule, not stated: the expectation is inferred.
  const launched = (v: string) => Date.parse(`${v.slice(1, 5)}-${v.slice(5, 7)}-${v.slice(7, 9)}T00:00:00Z`);
  const recent = profile.versions.supported.filter((v) => {
    if (!/^v\d{8}$/.test(v) || Number.isNaN(launched(v))) return false;
    const until = new Date(launched(v));
    until.setUTCMonth(until.getUTCMonth() + 18);
    return Date.now() < until.getTime();
  });
  test.skip(recent.length === 0, 'no version in SVC_VERSIONS is named for a day less than 18 months ago');
  for (const version of recent) {
    const res = await api.get(`/institutions/${profile.testInstitution.code}`, { version, only: ['content_type_conformance'] });
    expectInferred(profile, res.status === 200, {
      expectation: `${version} (launched ${version.slice(1, 5)}-${version.slice(5, 7)}-${version.slice(7, 9)}, less than 18 months ago) answers a read with 200`,
      basis: 'Versioning: supported for at least 18 months from launch; the launch day is read from the version name',
      received: String(res.status),
    });
  }
});
