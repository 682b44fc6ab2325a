/**
 * Accounts (specification, What the service does: accounts belong to members; manual
 * accounts "carry no credentials, never aggregate" and "every manual account is created
 * under one built-in manual-institution member"; Resources, Account: `balance` among the
 * named fields; Endpoints, other endpoints named: POST /users/{user_guid}/accounts/merge).
 *
 * The request shapes of manual-account creation and of merge are not shown in the
 * specification: these scenarios send the shapes the platform's other create requests
 * use (a wrapper object named for the resource), and assert only the stated outcome.
 */
import { test, expect, currentVersion, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX, carriesNamed, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { readMember, type MemberStatus } from '../steps/members.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, letTimePass, memberAccounts, sleep, walkList } from './journeys.ts';

const TAGS = ['@accounts', '@destructive'];

type Account = { guid: string; member_guid: string; balance?: unknown; [k: string]: unknown };

async function createManualAccount(api: CheckedClient, user: string, name: string, balance: number): Promise<Account> {
  // The create status is not shown: any 2xx.
  const res = await api.post(`/users/${user}/accounts`, { account: { name, account_type: 'CASH', balance } }, { expectStatus: ANY_2XX });
  need(res, 'account.guid', api);
  return res.body.account as Account;
}

test('aggregated accounts carry a balance', { tag: [...TAGS, '@smoke', '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const accounts = await memberAccounts<Account>(api, user, member);
  // Resources, Account names `balance` without saying it is always present: an account without
  // one is an inferred finding; one whose balance another read served and this one dropped is
  // presence consistency's (Versioning: "removing or renaming a response field" is breaking).
  const without = accounts.filter((a) => !('balance' in a)).map((a) => a.guid);
  expectInferred(profile, without.length === 0, {
    expectation: 'aggregated accounts carry a balance element',
    basis:
      'Resources, Account: "Fields named: ... balance" (a list of names, not a presence guarantee: ../shared/real-service-notes.md, Nullability and required fields)',
    received: `accounts without one: ${without.join(', ')}`,
  });
});

test('manual accounts share one built-in manual-institution member and keep their balance', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  const user = await createUser(api);
  const first = await createManualAccount(api, user, 'Cash jar', 123.45);
  const second = await createManualAccount(api, user, 'Coin box', 6.5);
  expect(first.member_guid, 'manual account member').toBeTruthy();
  // What the service does: "Every manual account is created under one built-in manual-institution member."
  expect(second.member_guid, 'the second manual account is under the same member as the first').toBe(first.member_guid);
  // The balance a manual account was created with reads back: the create request's
  // shape is not shown, so this is inferred.
  const read = await api.get(`/users/${user}/accounts/${first.guid}`, { expectStatus: 200 });
  const balance = need<Record<string, unknown>>(read, 'account', api).balance;
  expectInferred(profile, balance === 123.45, {
    expectation: 'a manual account keeps the balance it was created with',
    basis: 'the manual-account create request is not shown',
    received: JSON.stringify(balance),
  });
  const members = await walkList<{ guid: string }>(api, `/users/${user}/members`, 'members');
  const manualMembers = new Set([first.member_guid, second.member_guid]);
  expect(manualMembers.size).toBe(1);
  // Manual accounts "carry no credentials, never aggregate": the member holding them is not a second connection.
  expect(members.filter((m) => m.guid !== first.member_guid).length, 'members other than the built-in manual one').toBe(0);
});

test('merged accounts are no longer listed', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  // Endpoints, other endpoints named: "POST /users/{user_guid}/accounts/merge". Its
  // request, response and effect are not shown ("Full request and response bodies of
  // the endpoints in this paragraph: not shown"): that two merged accounts leave one is
  // inferred from the word, and so is the request shape.
  const user = await createUser(api);
  const keep = await createManualAccount(api, user, 'Keep me', 10);
  const merged = await createManualAccount(api, user, 'Merge me', 20);
  const res = await api.post(`/users/${user}/accounts/merge`, { account: { account_guids: [keep.guid, merged.guid] } });
  const after = is2xx(res.status) ? (await walkList<Account>(api, `/users/${user}/accounts`, 'accounts')).map((a) => a.guid) : [];
  const left = after.filter((g) => g === keep.guid || g === merged.guid).length;
  expectInferred(profile, is2xx(res.status) && left === 1, {
    expectation: 'merging two accounts succeeds and leaves one of them listed',
    basis: 'the merge endpoint is named only; its effect and shapes are not shown',
    received: `merge answered ${res.status}; ${left} of the two listed after`,
  });
});

/**
 * Resources, Account: "plus *_set_by and feed_* variants". The field list names no
 * version, and the vendor's v20250224 accounts carry neither (real-service-notes,
 * Enumerations): their presence is judged on v20111101, where the list holds
 * (contracts/stated-platform.ts accountVariantsStated), and on the version the scenarios
 * send only what a *_set_by field that is there says.
 */
test('accounts of a member name that member and carry *_set_by and feed_* fields', { tag: TAGS }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const accounts = await memberAccounts<Account>(api, user, member);
  // v20111101 carries nullable integers in *_set_by (real-service-notes, Enumerations); from
  // v20250224 the contract reads them as strings.
  const integersAllowed = currentVersion(profile) < 'v20250224';
  for (const a of accounts) {
    // What the service does: "An account ... belongs to a member" (member_guid where the account
    // carries it: the Account list names the field without saying it is always present).
    if (carriesNamed(profile, a, 'member_guid', `account ${a.guid}`))
      expect(a.member_guid, `member_guid of account ${a.guid} listed under member ${member}`).toBe(member);
    // Conventions for _set_by fields: the value "names the source: FEED, USER or SYSTEM" (a
    // new value is a warning of the contract: enumerated fields may gain values, Versioning).
    const setBy = Object.keys(a).filter((k) => k.endsWith('_set_by'));
    const mistyped = setBy.filter((k) => !(a[k] === null || typeof a[k] === 'string' || (integersAllowed && typeof a[k] === 'number')));
    expect(
      mistyped.map((k) => `${k}=${JSON.stringify(a[k])}`),
      `*_set_by fields of account ${a.guid} that name no source`,
    ).toEqual([]);
  }
  const stated = 'v20111101';
  test.skip(
    !profile.versions.supported.includes(stated),
    `the *_set_by and feed_* variants are judged on ${stated} only (their presence is not stated from v20250224), which is not among the target's versions (SVC_VERSIONS)`,
  );
  // The same accounts read under the version where the variants are stated.
  const old = await walkList<Account>(api, `/users/${user}/members/${member}/accounts`, 'accounts', { version: stated });
  expect(old.length, `accounts of member ${member} read on ${stated}`).toBeGreaterThan(0);
  // "plus *_set_by and feed_* variants" names them like the rest of the field list: an account
  // without them is an inferred finding (../shared/real-service-notes.md, Nullability and
  // required fields); the contract's stated_platform_fields says the same.
  for (const a of old) {
    for (const [variant, has] of [
      ['*_set_by', (k: string) => k.endsWith('_set_by')],
      ['feed_*', (k: string) => k.startsWith('feed_')],
    ] as const) {
      expectInferred(profile, Object.keys(a).some(has), {
        expectation: `account ${a.guid} carries ${variant} fields on ${stated}`,
        basis: 'Resources, Account: "plus *_set_by and feed_* variants" names them without saying they are always present',
        received: 'none',
      });
    }
  }
});

/**
 * What the service does: manual accounts "carry no credentials, never aggregate and
 * receive no data feed. Every manual account is created under one built-in
 * manual-institution member." The manual member's credentials list holds nothing (or the
 * read is refused: a member without credentials has none to list); an aggregation asked
 * of it never runs (whether the request is refused, and how, is not shown: inferred);
 * the manual account carries no feed_* value and no field set by FEED.
 */
test('manual accounts carry no credentials, never aggregate and receive no feed', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  const user = await createUser(api);
  const account = await createManualAccount(api, user, 'Piggy bank', 42.5);
  const manual = account.member_guid;
  expect(typeof manual, 'member_guid of the manual account').toBe('string');

  const creds = await api.get(`/users/${user}/members/${manual}/credentials`);
  if (is2xx(creds.status)) expect(need<unknown[]>(creds, 'credentials', api), 'credentials of the manual-institution member').toEqual([]);

  const read = need<Record<string, unknown>>(await api.get(`/users/${user}/accounts/${account.guid}`, { expectStatus: 200 }), 'account', api);
  const fed = Object.entries(read)
    .filter(([k, v]) => k.startsWith('feed_') && v !== null && v !== undefined)
    .map(([k]) => k);
  expect(fed, 'feed_* values of a manual account').toEqual([]);
  const byFeed = Object.entries(read)
    .filter(([k, v]) => k.endsWith('_set_by') && v === 'FEED')
    .map(([k]) => k);
  expect(byFeed, 'fields of a manual account set by FEED').toEqual([]);
  // The same account in the user's account list names the same source for every field
  // (Conventions for _set_by fields: "names the source of the related field"): nothing can
  // have moved a source between the two reads, as a manual account "never aggregate[s] and
  // receive[s] no data feed" and no request touched it.
  const listed = (await walkList<Record<string, unknown>>(api, `/users/${user}/accounts`, 'accounts')).find((a) => a.guid === account.guid);
  expect(listed, `the user's account list names the manual account ${account.guid}`).toBeTruthy();
  const sourcesDiffering = Object.keys(read)
    .filter((k) => k.endsWith('_set_by') && Object.hasOwn(listed!, k) && JSON.stringify(listed![k]) !== JSON.stringify(read[k]))
    .map((k) => `${k}: own read ${JSON.stringify(read[k])}, list ${JSON.stringify(listed![k])}`);
  expect(sourcesDiffering, 'sources (*_set_by) of the manual account: its own read against the account list').toEqual([]);

  const before = await readMember(api, user, manual);
  await letTimePass(profile, user, 1100); // aggregated_at may have whole-second resolution
  const aggregate = await api.post(`/users/${user}/members/${manual}/aggregate`);
  const quietMs = Math.min(profile.timeouts.aggregationMs, 10 * profile.timeouts.pollIntervalMs);
  const reads: MemberStatus[] = [];
  const end = performance.now() + quietMs;
  do {
    reads.push(await readMember(api, user, manual));
    await sleep(profile.timeouts.pollIntervalMs);
  } while (performance.now() < end);
  expect(reads.filter((m) => m.is_being_aggregated === true).length, 'reads of the manual member with is_being_aggregated true').toBe(0);
  expect(reads.at(-1)!.aggregated_at, 'aggregated_at of the manual member after an aggregation was asked').toBe(before.aggregated_at);
  const after = need<Record<string, unknown>>(await api.get(`/users/${user}/accounts/${account.guid}`, { expectStatus: 200 }), 'account', api);
  expect(after.balance, 'balance of the manual account after an aggregation was asked').toBe(read.balance);
  expectInferred(profile, aggregate.status >= 400 && aggregate.status < 500, {
    expectation: 'an aggregation of the manual-institution member is refused with a 4xx',
    basis: 'manual accounts "never aggregate"; how a request to aggregate them is answered is not shown',
    received: String(aggregate.status),
  });
});
