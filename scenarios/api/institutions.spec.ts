/**
 * Institutions (specification, Endpoints "Institutions"; Resources "Institution";
 * Errors: 404 for an invalid institution_identifier on the credentials list).
 */
import { test, expect, requireSetting, type CheckedClient } from '../fixtures.ts';
import type { QueryName, TargetProfile } from '../../targets/index.ts';
import { carriesNamed, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { createMember, createdMember, stateOfCreated } from '../steps/members.ts';
import { expectInferred } from '../inferred.ts';
import { walkList } from './journeys.ts';
import { orderFreeJson } from '../../contracts/index.ts';

/** Codes of every institution a list answers (every page, 1000 a page: Limits, the stated maximum). */
async function listedCodes(api: CheckedClient, path: string, query: Record<string, string> = {}): Promise<string[]> {
  return codesOf(await walkList<{ code: string }>(api, path, 'institutions', { query, perPage: 1000 }));
}

/**
 * The codes of listed institutions. The Institution list names `code` without saying it is
 * always present: a target whose records carry none leaves a scenario that recognises
 * institutions by their code nothing to judge.
 */
function codesOf(records: Array<{ code: string }>): string[] {
  test.skip(
    records.length > 0 && records.every((i) => !Object.hasOwn(i, 'code')),
    "the target's institution records carry no code, so institutions cannot be recognised by the codes the settings name",
  );
  return records.map((i) => i.code);
}

/** Stated when the user named the filter's query parameter, else inferred (its name is not shown). */
function judgeNamed(profile: TargetProfile, param: QueryName & { variable: string }, ok: boolean, message: string): void {
  if (param.explicit) expect(ok, message).toBe(true);
  else
    expectInferred(profile, ok, {
      expectation: message,
      basis: `the filter's query name is not shown; ${param.name} is the default guess (set ${param.variable} to enforce one)`,
      received: ok ? 'as expected' : 'the filter did not narrow as expected',
    });
}

test('an institution reads the same by code and by guid', { tag: ['@institutions', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions/{institution_identifier}: identifier is the institution
  // code or guid; response one institution" (Errors: 200 for reads). The guid exists
  // from v20250224 (real-service-notes: v20111101 institutions have none); scenarios
  // send the newest version unless SVC_ACCEPT_VERSION says otherwise.
  const byCode = await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 });
  const a = need<Record<string, unknown>>(byCode, 'institution', api);
  // The code field: named by the Institution list, not said to be always present.
  if (carriesNamed(profile, a, 'code', `institution ${profile.testInstitution.code}`)) expect(a.code).toBe(profile.testInstitution.code);
  // "Other resources also have a guid".
  const guid = need<string>(byCode, 'institution.guid', api);
  const byGuid = await api.get(`/institutions/${encodeURIComponent(guid)}`, { expectStatus: 200 });
  const b = need<Record<string, unknown>>(byGuid, 'institution', api);
  // "response one institution": both reads answer the same institution, field for field
  // where each read shows the field (Resources, Institution: its named fields).
  for (const f of ['code', 'guid', 'name', 'supports_oauth', 'is_disabled_by_client', 'supported_products'] as const) {
    // supported_products is a list in no stated order.
    if (f in a && f in b) expect(orderFreeJson(b[f]), `institution ${f} read by guid, as read by code`).toBe(orderFreeJson(a[f]));
  }
});

test('credentials of an unknown institution answer 404 in every version in play', { tag: ['@institutions', '@errors', '@readonly'] }, async ({
  api,
  profile,
}) => {
  // Endpoints and Errors: "an invalid identifier returns 404" on the credentials list. No
  // version is named, so it holds in every version the target serves.
  for (const version of profile.versions.supported) await api.get('/institutions/scn_no_such_institution_code/credentials', { version, expectStatus: 404 });
});

test('credentials of the test institution list what a member needs', { tag: ['@institutions', '@readonly'] }, async ({ api, profile }) => {
  // Endpoints: "response credentials required to create a member"; the test institution's
  // scenarios are chosen "through the password field of the test user": a user name and a password.
  const res = await api.get(`/institutions/${profile.testInstitution.code}/credentials`, { expectStatus: 200 });
  expect(need<unknown[]>(res, 'credentials', api).length, 'credentials required to create a member').toBeGreaterThanOrEqual(2);
});

test('the credentials list of the test institution is read at the stated maximum page size', { tag: ['@institutions', '@paging', '@readonly'] }, async ({
  api,
  profile,
}) => {
  const path = `/institutions/${profile.testInstitution.code}/credentials`;
  // Endpoints, Institutions: the credentials list takes "query page, records_per_page (max
  // 1000)"; Limits, the table's row "records_per_page maximum": 1000 (... credentials of an institution). 1000 is
  // a page size the list takes; Errors: "200 normal success for ... lists".
  const all = await api.get(path, { query: { page: 1, records_per_page: 1000 }, expectStatus: 200 });
  const byDefault = await api.get(path, { expectStatus: 200 });
  // The test institution's few credentials fit one page of either size: the same list, in
  // whatever order (no order is stated for it).
  const guids = (res: typeof all) =>
    need<Array<{ guid?: unknown }>>(res, 'credentials', api)
      .map((c) => String(c.guid))
      .sort();
  expect(guids(all), 'credentials read at page 1 of 1000 vs read with the default paging').toEqual(guids(byDefault));
});

test('the name filter narrows the institution list', { tag: ['@institutions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions ... filters by name"; the query parameter's name is
  // not shown ("Exact query names of the institution list filters other than the ones
  // given: not shown"): SVC_INSTITUTION_NAME_PARAM, default `name` (a guess, so a miss
  // under the default is only inferred).
  const param = profile.institutions.nameParam;
  const inst = need<{ name: string }>(await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 }), 'institution', api);
  const res = await api.get('/institutions', { query: { [param.name]: inst.name, records_per_page: 100 }, expectStatus: 200 });
  const names = need<Array<{ name: string }>>(res, 'institutions', api).map((i) => i.name);
  const wanted = String(inst.name).toLowerCase();
  const others = names.filter((n) => !String(n).toLowerCase().includes(wanted));
  const ok = names.length > 0 && others.length === 0;
  const message = `institutions listed with ${param.name}=${JSON.stringify(inst.name)}: ${names.length}, of which not matching: ${others.slice(0, 5).join(', ')}`;
  if (param.explicit) expect(ok, message).toBe(true);
  else
    expectInferred(profile, ok, {
      expectation: `the query parameter ${param.name} filters institutions by name`,
      basis: "the name filter's query parameter is not shown; set SVC_INSTITUTION_NAME_PARAM to enforce one",
      received: message,
    });
  // Once the target has shown that this parameter filters by name (the answer above holds
  // only matching names, fewer than the whole list), the name is learned and held: a name
  // no institution bears must not widen to the whole list (Endpoints: "filters by name";
  // an empty result is a result).
  const whole = await api.get('/institutions', { query: { records_per_page: 100 }, expectStatus: 200 });
  const wholeCount = Number(whole.body?.pagination?.total_entries ?? need<unknown[]>(whole, 'institutions', api).length);
  const shownToFilter = ok && Number(res.body?.pagination?.total_entries ?? names.length) < wholeCount;
  if (!shownToFilter) return;
  const nobody = `zz-no-such-institution-${Math.random().toString(36).slice(2, 10)}`;
  const none = need<Array<{ name: string }>>(
    await api.get('/institutions', { query: { [param.name]: nobody, records_per_page: 100 }, expectStatus: 200 }),
    'institutions',
    api,
  ).map((i) => String(i.name));
  expect(
    none.filter((n) => !n.toLowerCase().includes(nobody)).slice(0, 5),
    `institutions listed with ${param.name}=${nobody}, a name no institution bears (the target showed ${param.name} filters by name)`,
  ).toEqual([]);
});

// ---- country code ------------------------------------------------------------------
// Endpoints, Institutions: GET /institutions "filters by name, country code ..."; GET
// /institutions/favorites "query: country code". The query names are not shown
// (SVC_INSTITUTION_COUNTRY_PARAM). No institution field carries the country either, so
// the filter is judged by what it leaves out: ZZ is an ISO 3166 user-assigned code no
// country has, so under it a filter leaves out every institution (or refuses the value).

for (const [path, label] of [
  ['/institutions', 'institution list'],
  ['/institutions/favorites', 'favourites list'],
] as const) {
  test(`the ${label} filtered by a country code no institution has lists none`, { tag: ['@institutions', '@readonly', '@inferred'] }, async ({
    api,
    profile,
  }) => {
    const param = profile.institutions.countryParam;
    // Control: without the filter the list is not empty (the test institution at least).
    const all = await api.get(path, { query: { records_per_page: 10 }, expectStatus: 200 });
    expect(need<unknown[]>(all, 'institutions', api).length, `the unfiltered ${label}`).toBeGreaterThan(0);
    const res = await api.get(path, { query: { [param.name]: 'ZZ', records_per_page: 100 } });
    const listed = is2xx(res.status) ? need<Array<{ code: string }>>(res, 'institutions', api).map((i) => i.code) : [];
    judgeNamed(
      profile,
      param,
      !is2xx(res.status) || listed.length === 0,
      `the ${label} filtered by ${param.name}=ZZ lists no institution (status ${res.status}; listed ${listed.slice(0, 5).join(', ')}${listed.length > 5 ? ', …' : ''})`,
    );
  });
}

test("the institution list filtered by the test institution's country code keeps it", { tag: ['@institutions', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  const country = requireSetting(profile.institutions.testInstitutionCountry, 'SVC_TEST_INSTITUTION_COUNTRY', 'the country code of the test institution');
  const param = profile.institutions.countryParam;
  const codes = await listedCodes(api, '/institutions', { [param.name]: country });
  judgeNamed(
    profile,
    param,
    codes.includes(profile.testInstitution.code),
    `the institution list filtered by ${param.name}=${country} keeps the test institution ${profile.testInstitution.code} (${codes.length} listed)`,
  );
});

// ---- favourites ----------------------------------------------------------------------

test('favourite institutions are listed by popularity', { tag: ['@institutions', '@readonly'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions/favorites ... response list of favourites ordered by
  // popularity (the list of favourites is set up by the vendor on request)". Popularity
  // is not a field: the order the client agreed with the vendor is a setting
  // (SVC_FAVORITE_INSTITUTION_CODES, most popular first).
  const expected = requireSetting(
    profile.institutions.favouriteCodes,
    'SVC_FAVORITE_INSTITUTION_CODES',
    "the client's favourite institution codes, most popular first",
  );
  const listed = await listedCodes(api, '/institutions/favorites');
  expect(listed.length, 'favourite institutions listed').toBeGreaterThan(0);
  const missing = expected.filter((c) => !listed.includes(c));
  expect(missing, 'favourites set up for the client that the list leaves out').toEqual([]);
  // Their relative order is the popularity order (other favourites may sit between them).
  expect(
    listed.filter((c) => expected.includes(c)),
    'favourites in popularity order',
  ).toEqual(expected);
});

// ---- include_blocked_institutions ------------------------------------------------------

test('include_blocked_institutions lists a blocked institution that the default list leaves out', { tag: ['@institutions', '@readonly', '@inferred'] }, async ({
  api,
  profile,
}) => {
  // Endpoints: GET /institutions "query: ... include_blocked_institutions": with it the
  // blocked institutions are listed (stated by the parameter's name and place).
  const withBlocked = await walkList<{ code: string; is_disabled_by_client?: unknown }>(api, '/institutions', 'institutions', {
    query: { include_blocked_institutions: 'true' },
    perPage: 1000,
  });
  // The blocked institution: the one the profile names (SVC_BLOCKED_INSTITUTION_CODE), else
  // one the list itself says is blocked (Resources, Institution: is_disabled_by_client).
  // Taken from the list, its presence there proves nothing: only a named one is judged so.
  const named = profile.institutions.blockedCode;
  codesOf(withBlocked);
  const blocked = named ?? withBlocked.find((i) => i.is_disabled_by_client === true)?.code;
  test.skip(
    !blocked,
    'no institution of the list with include_blocked_institutions=true reads is_disabled_by_client true, so this client has none blocked to judge: set SVC_BLOCKED_INSTITUTION_CODE to name one',
  );
  if (named)
    expect(
      withBlocked.map((i) => i.code),
      `the list with include_blocked_institutions=true holds the blocked institution ${blocked}`,
    ).toContain(blocked);
  // Without it they are not: what the parameter includes is, by default, left out. The
  // default is not stated in so many words: inferred.
  const plain = await listedCodes(api, '/institutions');
  expectInferred(profile, !plain.includes(blocked!), {
    expectation: `the list without include_blocked_institutions leaves out the blocked institution ${blocked}`,
    basis: 'Endpoints, Institutions names include_blocked_institutions; its default is not stated',
    received: `${blocked} listed among ${plain.length}`,
  });
  // Every institution of the default list is also in the list with blocked ones.
  const withCodes = new Set(withBlocked.map((i) => i.code));
  expect(plain.filter((c) => !withCodes.has(c)).slice(0, 5), 'institutions of the default list missing once blocked ones are included').toEqual([]);
});

// ---- supports_oauth ----------------------------------------------------------------------

test('supports_oauth is true only for an institution that offers OAuth', { tag: ['@institutions', '@oauth', '@destructive'] }, async ({ api, profile }) => {
  // Resources, Institution: supports_oauth is "true only when the institution supports
  // OAuth and the client is registered with it". Whether this client is registered is
  // not observable, so false proves nothing; true must mean the institution offers OAuth:
  // a member created there with is_oauth true is an OAuth member (States and transitions:
  // PENDING, oauth_window_uri returned; Resources, Member: "present for OAuth members").
  const claiming: string[] = [];
  for (const code of [profile.testInstitution.code, profile.testInstitution.oauthCode]) {
    const inst = need<{ supports_oauth?: unknown }>(await api.get(`/institutions/${encodeURIComponent(code)}`, { expectStatus: 200 }), 'institution', api);
    if (inst.supports_oauth === true) claiming.push(code);
  }
  test.skip(claiming.length === 0, 'neither test institution reports supports_oauth true for this client, so the rule has nothing to judge');
  const user = await createUser(api);
  for (const code of claiming) {
    const res = await createMember(api, user, { isOauth: true, institutionCode: code, expectStatus: null });
    expect(
      is2xx(res.status),
      `an OAuth member at ${code}, which reports supports_oauth true: create answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
    ).toBe(true);
    const member = createdMember(api, res);
    expect(await stateOfCreated(api, user, member), `the OAuth member at ${code}`).toBe('PENDING');
    expect(typeof member.oauth_window_uri, `oauth_window_uri of the OAuth member at ${code}`).toBe('string');
  }
});
