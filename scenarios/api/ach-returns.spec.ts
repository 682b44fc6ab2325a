/**
 * ACH returns, beta (specification, Endpoints "ACH returns"; Resources "ACH return
 * (create request)"; Errors: 200 for ACH return creation) and processor authorization
 * codes (Endpoints "Authorization code for processors").
 */
import { randomUUID } from 'node:crypto';
import { test, expect } from '../fixtures.ts';
import { createMember, createUser, uniqueId, waitUntilSettled } from '../helpers.ts';

function achReturn(userGuid: string, memberGuid: string, accountGuid: string) {
  return {
    account_guid: accountGuid,
    account_number_last_four: '1234',
    ach_initiated_at: '2026-01-05T10:00:00+00:00',
    id: uniqueId('scn-ach'),
    member_guid: memberGuid,
    return_code: 'R01',
    returned_at: '2026-01-07T09:30:00-05:00',
    sec_code: 'PPD',
    transaction_amount: 42.5,
    transaction_amount_range: 2,
    user_guid: userGuid,
  };
}

const ids = () => ({ user: `USR-${randomUUID()}`, member: `MBR-${randomUUID()}`, account: `ACT-${randomUUID()}` });

test('an ACH return is created with 200 and reads back by guid and by id', { tag: ['@ach-returns', '@destructive', '@smoke'] }, async ({ api }) => {
  const { user, member, account } = ids();
  const body = achReturn(user, member, account);
  const created = await api.post('/ach_returns', { ach_return: body }, { expectStatus: 200 });
  const guid = created.body.ach_return.guid as string;
  expect(guid).toBeTruthy();
  const byGuid = await api.get(`/ach_returns/${guid}`, { expectStatus: 200 });
  expect(byGuid.body.ach_return.id).toBe(body.id);
  const byId = await api.get(`/ach_returns/${body.id}`, { expectStatus: 200 });
  expect(byId.body.ach_return.guid).toBe(guid);
});

test('the ACH return list pages and contains a created return', { tag: ['@ach-returns', '@paging', '@destructive'] }, async ({ api }) => {
  const { user, member, account } = ids();
  const body = achReturn(user, member, account);
  const guid = (await api.post('/ach_returns', { ach_return: body }, { expectStatus: 200 })).body.ach_return.guid;
  const seen: string[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api.get('/ach_returns', { query: { page, records_per_page: 100 }, expectStatus: 200 });
    const list = res.body.ach_returns as Array<{ guid: string }>;
    seen.push(...list.map((r) => r.guid));
    if (list.length < 100) break;
  }
  expect(seen).toContain(guid);
  expect(new Set(seen).size, 'ACH returns listed once each').toBe(seen.length);
});

for (const [field, bad] of [
  ['return_code', '01'],
  ['account_number_last_four', '12a4'],
  ['ach_initiated_at', '2026-01-05 10:00'],
  ['account_guid', 'not-an-account'],
  ['sec_code', 'PP'],
] as const) {
  test(`an ACH return with a malformed ${field} is refused with a 4xx`, { tag: ['@ach-returns', '@errors', '@destructive'] }, async ({ api }) => {
    const { user, member, account } = ids();
    const res = await api.post('/ach_returns', { ach_return: { ...achReturn(user, member, account), [field]: bad } });
    expect(res.status, `${field}=${JSON.stringify(bad)} (Resources, ACH return: stated format)`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
}

test('a processor authorization code is issued for a verified member in scope', { tag: ['@processor', '@ach-returns', '@destructive'] }, async ({ api, poll }) => {
  const user = await createUser(api);
  const member = (await createMember(api, user, { scenario: 'SUCCESS' })).body.member.guid as string;
  await waitUntilSettled(api, poll, user, member);
  const unverified = await api.post('/authorization_code', { authorization_code: { scope: `user-guid:${user} member-guid:${member} read-protected` } });
  // "A member in the scope must already have been verified."
  expect(unverified.status, 'authorization code for an unverified member').toBeGreaterThanOrEqual(400);
  expect(unverified.status).toBeLessThan(500);
  const verify = await api.post(`/users/${user}/members/${member}/verify`);
  expect(verify.status).toBeLessThan(300);
  await waitUntilSettled(api, poll, user, member);
  await api.post('/authorization_code', { authorization_code: { scope: `user-guid:${user} member-guid:${member} read-protected` } }, { expectStatus: [200, 201] });
});
