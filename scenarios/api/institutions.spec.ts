/**
 * Institutions (specification, Endpoints "Institutions"; Resources "Institution";
 * Errors: 404 for an invalid institution_identifier on the credentials list).
 */
import { test, expect } from '../fixtures.ts';
import { need } from '../helpers.ts';
import { expectInferred } from '../inferred.ts';
import { institutionNameParam } from '../settings.ts';

test('an institution reads the same by code and by guid', { tag: ['@institutions', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions/{institution_identifier}: identifier is the institution
  // code or guid; response one institution" (Errors: 200 for reads). The guid exists
  // from v20250224 (real-service-notes: v20111101 institutions have none); scenarios
  // send the newest version unless SVC_ACCEPT_VERSION says otherwise.
  const byCode = await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 });
  const code = need<string>(byCode, 'institution.code', api);
  expect(code).toBe(profile.testInstitution.code);
  const guid = need<string>(byCode, 'institution.guid', api);
  const byGuid = await api.get(`/institutions/${encodeURIComponent(guid)}`, { expectStatus: 200 });
  expect(need(byGuid, 'institution.code', api)).toBe(code);
});

test('credentials of an unknown institution answer 404', { tag: ['@institutions', '@errors', '@readonly'] }, async ({ api }) => {
  // Endpoints and Errors: "an invalid identifier returns 404" on the credentials list.
  await api.get('/institutions/scn_no_such_institution_code/credentials', { expectStatus: 404 });
});

test('credentials of the test institution list what a member needs', { tag: ['@institutions', '@readonly'] }, async ({ api, profile }) => {
  // Endpoints: "response credentials required to create a member"; the test institution's
  // scenarios are chosen "through the password field of the test user": a user name and a password.
  const res = await api.get(`/institutions/${profile.testInstitution.code}/credentials`, { expectStatus: 200 });
  expect(need<unknown[]>(res, 'credentials', api).length, 'credentials required to create a member').toBeGreaterThanOrEqual(2);
});

test('the name filter narrows the institution list', { tag: ['@institutions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  // Endpoints: "GET /institutions ... filters by name"; the query parameter's name is
  // not shown ("Exact query names of the institution list filters other than the ones
  // given: not shown"): SVC_INSTITUTION_NAME_PARAM, default `name` (a guess, so a miss
  // under the default is only inferred).
  const param = institutionNameParam();
  const inst = need<{ name: string }>(await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 }), 'institution', api);
  const res = await api.get('/institutions', { query: { [param.name]: inst.name, records_per_page: 100 }, expectStatus: 200 });
  const names = need<Array<{ name: string }>>(res, 'institutions', api).map((i) => i.name);
  const wanted = String(inst.name).toLowerCase();
  const others = names.filter((n) => !String(n).toLowerCase().includes(wanted));
  const ok = names.length > 0 && others.length === 0;
  const message = `institutions listed with ${param.name}=${JSON.stringify(inst.name)}: ${names.length}, of which not matching: ${others.slice(0, 5).join(', ')}`;
  if (param.explicit) expect(ok, message).toBe(true);
  else expectInferred(profile, ok, { expectation: `the query parameter ${param.name} filters institutions by name`, basis: 'the name filter\'s query parameter is not shown; set SVC_INSTITUTION_NAME_PARAM to enforce one', received: message });
});
