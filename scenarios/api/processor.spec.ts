/**
 * Processor tokens (specification, Endpoints "Authorization code for processors":
 * "Processor access is limited to the identifiers and features in the scope. A member in
 * the scope must already have been verified";
 * Authentication 4: a client requests an authorization code with a scope and gives it
 * to a processor, processor access_token values expire 60 days after issue; Limits:
 * processor access_token lifetime 60 days; Endpoints, other endpoints named:
 * /payment_account returns user_guid, member_guid, account_guid).
 *
 * The /token request and response shapes are not shown: the code goes as the profile
 * says (SVC_PROCESSOR_TOKEN_REQUEST; journeys.ts exchangeCode: a guess the target does not
 * answer skips, naming the setting) and the lifetime is read from the OAuth 2.0 token response fields
 * (`expires_in` seconds, RFC 6749 section 5.1) or an `expires_at` instant, skipping that
 * assertion with a message when the target shows neither. How a processor presents the
 * access token is not shown either: `Authorization: Bearer` (RFC 6750).
 */
import { test, expect, type CheckedClient, type Poll } from '../fixtures.ts';
import { ANY_2XX, expectRefused } from '../steps/responses.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, exchangeCode, fieldAnywhere, memberAccounts, settle } from './journeys.ts';

const TAGS = ['@processor', '@destructive'];
const SIXTY_DAYS_S = 60 * 86_400;

async function verifiedAccount(api: CheckedClient, poll: Poll) {
  const { user, member } = await connectedUser(api, poll);
  // "A member in the scope must already have been verified": verify first (status not shown: any 2xx).
  await api.post(`/users/${user}/members/${member}/verify`, undefined, { expectStatus: ANY_2XX });
  await settle(api, poll, user, member);
  const accounts = await memberAccounts(api, user, member);
  return { user, member, account: accounts[0].guid, accounts: accounts.map((a) => a.guid) };
}

async function accessToken(api: CheckedClient, scope: string) {
  // Statuses of /authorization_code and /token are not shown: any 2xx.
  const code = await api.post('/authorization_code', { authorization_code: { scope } }, { expectStatus: ANY_2XX });
  const value = fieldAnywhere(code.body, 'code') ?? fieldAnywhere(code.body, 'authorization_code');
  expect(typeof value, 'an authorization code in the response').toBe('string');
  api.secret(value as string);
  const { res: token, access } = await exchangeCode(api, value as string);
  return { access, body: token.body as Record<string, unknown>, issuedAtMs: Date.now() };
}

test('a processor access token lives 60 days', { tag: TAGS }, async ({ api, poll }) => {
  const { user, member, account } = await verifiedAccount(api, poll);
  const { body, issuedAtMs } = await accessToken(api, `user-guid:${user} member-guid:${member} account-guid:${account} read-protected`);
  const expiresIn = fieldAnywhere(body, 'expires_in');
  const expiresAt = fieldAnywhere(body, 'expires_at');
  let lifetimeS: number | undefined;
  if (typeof expiresIn === 'number') lifetimeS = expiresIn;
  else if (typeof expiresAt === 'string' && Number.isFinite(Date.parse(expiresAt))) lifetimeS = (Date.parse(expiresAt) - issuedAtMs) / 1000;
  test.skip(lifetimeS === undefined, 'the /token response shows neither expires_in nor expires_at, so the 60-day lifetime cannot be read');
  // Authentication 4: "expire 60 days after issue" (an hour of slack for clocks and rounding).
  expect(Math.abs(lifetimeS! - SIXTY_DAYS_S), `token lifetime ${lifetimeS} s against 60 days (${SIXTY_DAYS_S} s)`).toBeLessThanOrEqual(3600);
});

test('the payment account names the user, member and account of the scope, and only for the token holder', { tag: [...TAGS, '@auth', '@inferred'] }, async ({
  api,
  poll,
  profile,
}) => {
  const { user, member, account } = await verifiedAccount(api, poll);
  const { access } = await accessToken(api, `user-guid:${user} member-guid:${member} account-guid:${account} read-protected`);
  // Endpoints, other endpoints named: "/payment_account (returns user_guid, member_guid,
  // account_guid)" (Errors: 200 for reads); "Processor access is limited to the
  // identifiers and features in the scope".
  const res = await api.get('/payment_account', { auth: { bearer: access }, expectStatus: 200 });
  expect(fieldAnywhere(res.body, 'user_guid'), 'user_guid of /payment_account').toBe(user);
  expect(fieldAnywhere(res.body, 'member_guid'), 'member_guid of /payment_account').toBe(member);
  expect(fieldAnywhere(res.body, 'account_guid'), 'account_guid of /payment_account').toBe(account);
  // A token never issued opens nothing (Authentication 4: access comes from the token
  // issued for the code); the refusal's status is not shown.
  const never = await api.get('/payment_account', { auth: { bearer: 'scn-not-a-processor-token' }, only: ['content_type_conformance'] });
  expectRefused(profile, never, 'GET /payment_account with a token never issued', { stated: 'Authentication 4' });
  // That the client's own Basic credentials do not open the processor read is not stated
  // (how a processor presents its token is not shown): inferred.
  const basic = await api.get('/payment_account', { auth: 'default', only: ['content_type_conformance'] });
  expectInferred(profile, basic.status >= 400 && basic.status < 500, {
    expectation: 'GET /payment_account with the client Basic credentials and no processor token is refused with a 4xx',
    basis: 'Authentication 4 names the processor token, not how /payment_account is authenticated',
    received: String(basic.status),
  });
});

test('an authorization code for a member not yet verified is refused', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  // The member connects with the success password and is never verified (on v20250224 and
  // later the helper asks for the transactions product only, not account_verification).
  const { user, member } = await connectedUser(api, poll);
  const [account] = await memberAccounts(api, user, member);
  const res = await api.post('/authorization_code', {
    authorization_code: { scope: `user-guid:${user} member-guid:${member} account-guid:${account.guid} read-protected` },
  });
  expectRefused(profile, res, 'POST /authorization_code for an unverified member', {
    stated: 'Endpoints, authorization code for processors: "A member in the scope must already have been verified"',
  });
});

test('a processor token reads only the account its scope names', { tag: TAGS }, async ({ api, poll }) => {
  const { user, member, accounts } = await verifiedAccount(api, poll);
  test.skip(accounts.length < 2, `member ${member} has one account: a second account of the same member is needed to tell scopes apart`);
  // Endpoints: "Processor access is limited to the identifiers and features in the scope":
  // two tokens of the same member, each scoped to one account, each read that account.
  for (const account of [accounts[0], accounts.at(-1)!]) {
    const { access } = await accessToken(api, `user-guid:${user} member-guid:${member} account-guid:${account} read-protected`);
    const res = await api.get('/payment_account', { auth: { bearer: access }, expectStatus: 200 });
    expect(fieldAnywhere(res.body, 'account_guid'), `account_guid read with a token scoped to ${account}`).toBe(account);
    expect(fieldAnywhere(res.body, 'member_guid'), `member_guid read with a token scoped to ${account}`).toBe(member);
    expect(fieldAnywhere(res.body, 'user_guid'), `user_guid read with a token scoped to ${account}`).toBe(user);
  }
});
