/**
 * Institutions (specification, Endpoints "Institutions"; Resources "Institution";
 * Errors: 404 for an invalid institution_identifier on the credentials list).
 */
import { test, expect } from '../fixtures.ts';

test('an institution reads the same by code and by guid', { tag: ['@institutions', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  const byCode = await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 });
  const inst = byCode.body.institution;
  expect(inst.code).toBe(profile.testInstitution.code);
  const byGuid = await api.get(`/institutions/${inst.guid}`, { expectStatus: 200 });
  expect(byGuid.body.institution.code).toBe(inst.code);
});

test('credentials of an unknown institution answer 404', { tag: ['@institutions', '@errors', '@readonly'] }, async ({ api }) => {
  await api.get('/institutions/scn_no_such_institution_code/credentials', { expectStatus: 404 });
});

test('credentials of the test institution list what a member needs', { tag: ['@institutions', '@readonly'] }, async ({ api, profile }) => {
  const res = await api.get(`/institutions/${profile.testInstitution.code}/credentials`, { expectStatus: 200 });
  expect(res.body.credentials.length, 'credentials required to create a member').toBeGreaterThanOrEqual(2);
});

test('the name filter narrows the institution list', { tag: ['@institutions', '@readonly'] }, async ({ api, profile }) => {
  const inst = (await api.get(`/institutions/${profile.testInstitution.code}`, { expectStatus: 200 })).body.institution;
  const res = await api.get('/institutions', { query: { name: inst.name, records_per_page: 100 }, expectStatus: 200 });
  const names = (res.body.institutions as Array<{ name: string }>).map((i) => i.name);
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((n) => !n.toLowerCase().includes(String(inst.name).toLowerCase())), 'institutions not matching the name filter').toEqual([]);
});
