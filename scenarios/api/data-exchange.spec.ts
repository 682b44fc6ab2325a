/**
 * Data exchange (specification, Endpoints "Data exchange"; Authentication 3; Errors
 * 201 and 404; Limits: records_per_page max 1000, 90-day default transaction window,
 * scope = is_manual false and data_scope matching the grant).
 *
 * Identities come from the target wherever it can tell them (data-exchange-identities.ts):
 * one GUID of the issuer or of a grantee is the only setting every scenario needs; the
 * grant, its issuer and grantees, a user, account and member are read from the lists.
 * What the target hides by design (a manual or out-of-scope transaction, which no read
 * answers) and what only a list itself would show (a transaction the window must hold)
 * stay settings. An identifier from a setting is sent, never compared as a string with
 * the target's answer (Versioning: the length or format of opaque identifiers may change).
 */
import { test, expect, requireSetting } from '../fixtures.ts';
import { expectRefused, is2xx, need } from '../steps/responses.ts';
import { expectInferred } from '../inferred.ts';
import { walkList } from './journeys.ts';
import { createToken, DATA_SCOPES, grantFacts, grantsOf, holder, memberOf, withToken, type Rec } from './data-exchange-identities.ts';

const TAGS = ['@data-exchange', '@readonly'];
const DAY_MS = 86_400_000;

test('the token endpoint answers 201 and its token opens the protected reads', { tag: [...TAGS, '@smoke'] }, async ({ api }) => {
  const token = await createToken(api);
  // "GET /data_exchange/users: list users of the issuing client; paged; token header" (Errors: 200 for lists).
  const users = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
  expect(need<unknown[]>(users, 'users', api).length, 'users of the issuing client').toBeGreaterThan(0);
});

test('token-protected reads are refused without the token or with a wrong one', { tag: [...TAGS, '@inferred'] }, async ({ api }) => {
  const { user } = await holder(api, await createToken(api));
  // Authentication 3: these reads "also require the header SVC-3DX-TOKEN" (Endpoints:
  // "in addition to normal authentication"): Basic alone, or with a token never
  // issued, must not succeed. The refusal's status is not shown (a 4xx is inferred).
  for (const path of [
    '/data_exchange/users',
    `/data_exchange/users/${user}`,
    `/data_exchange/users/${user}/accounts`,
    `/data_exchange/users/${user}/transactions`,
  ]) {
    for (const headers of [{}, { 'SVC-3DX-TOKEN': 'scn-not-a-token' }] as Record<string, string>[]) {
      const res = await api.get(path, { headers, only: ['content_type_conformance'] });
      expectRefused(api.profile, res, `GET ${path} ${'SVC-3DX-TOKEN' in headers ? 'with a wrong' : 'without'} SVC-3DX-TOKEN`, { stated: 'Authentication 3' });
    }
  }
});

test('a token alone, without Basic authentication, is refused', { tag: [...TAGS, '@auth', '@inferred'] }, async ({ api }) => {
  // Endpoints, data exchange: the header is required "in addition to normal authentication".
  const token = await createToken(api);
  const res = await api.get('/data_exchange/users', { ...withToken(token), auth: 'none', query: { records_per_page: 10 }, only: ['content_type_conformance'] });
  expectRefused(api.profile, res, 'GET /data_exchange/users with SVC-3DX-TOKEN and no Basic credentials', {
    stated: 'Endpoints, data exchange: the token is required "in addition to normal authentication"',
  });
});

test('slim user, accounts and transactions read with GUIDs and partner ids', { tag: [...TAGS, '@inferred'] }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  const h = await holder(api, await createToken(api));
  const member = memberOf(h);
  const t = withToken(h.token);
  // Endpoints, data exchange: read one user, list slim accounts, read one (Errors: 200 for reads and lists).
  const one = await api.get(`/data_exchange/users/${h.user}`, { ...t, expectStatus: 200 });
  await walkList(api, `/data_exchange/users/${h.user}/accounts`, 'accounts', { headers: t.headers });
  await api.get(`/data_exchange/users/${h.user}/accounts/${h.account}`, { ...t, expectStatus: 200 });
  // "read one slim account under a member; accepts GUID or partner ID".
  await api.get(`/data_exchange/users/${h.user}/members/${member}/accounts/${h.account}`, { ...t, expectStatus: 200 });
  // The user path's partner id is not stated ("where so stated for account and per-member paths"): inferred.
  const userId = need<Rec>(one, 'user', api).id ?? dx.userPartnerId;
  if (typeof userId === 'string' && userId) {
    const byId = await api.get(`/data_exchange/users/${encodeURIComponent(userId)}`, { ...t });
    expectInferred(api.profile, byId.status === 200, {
      expectation: 'the slim user reads by its partner-defined id',
      basis: 'Data exchange: partner IDs are accepted "where so stated for account and per-member paths"; the user read is not among them',
      received: String(byId.status),
    });
  }
  // The same per-member read by partner ids: the account's from its slim record (or the
  // setting), the member's only from the setting (no data-exchange read answers a member).
  const accountId = typeof h.accountRecord.id === 'string' && h.accountRecord.id ? h.accountRecord.id : dx.accountPartnerId;
  const memberId = dx.memberPartnerId;
  if (!memberId)
    test.skip(
      true,
      "the partner-id reads need SVC_3DX_MEMBER_ID (the member's partner-defined id: no data-exchange read answers a member; the GUID reads above ran)",
    );
  if (!accountId) test.skip(true, 'the slim account carries no partner-defined id: set SVC_3DX_ACCOUNT_ID (the GUID reads above ran)');
  await api.get(`/data_exchange/users/${h.user}/members/${encodeURIComponent(memberId!)}/accounts/${encodeURIComponent(accountId!)}`, {
    ...t,
    expectStatus: 200,
  });
});

test('the per-member paths read the account, its transactions and a transaction by partner ids', { tag: [...TAGS, '@inferred'] }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  // No data-exchange read answers a member, so its partner-defined id is a setting.
  const memberId = requireSetting(dx.memberPartnerId, 'SVC_3DX_MEMBER_ID', "the member's partner-defined id: no data-exchange read answers a member");
  const held = await holder(api, await createToken(api));
  const { user, account } = held;
  const member = memberOf(held);
  const h = withToken(held.token);
  const own = (r: Rec, setting: string | undefined, name: string) =>
    typeof r.id === 'string' && r.id ? r.id : requireSetting(setting, name, 'the slim record carries no partner-defined id');
  const userId = own(held.userRecord, dx.userPartnerId, 'SVC_3DX_USER_ID');
  const accountId = own(held.accountRecord, dx.accountPartnerId, 'SVC_3DX_ACCOUNT_ID');
  // Endpoints, Data exchange: user_identifier, member_identifier, account_identifier and
  // transaction_identifier "accept service GUIDs or partner-defined IDs where so stated for
  // account and per-member paths"; the account read under a member "accepts GUID or partner ID".
  const byGuids = `/data_exchange/users/${user}/members/${member}/accounts/${account}`;
  const byIds = `/data_exchange/users/${encodeURIComponent(userId)}/members/${encodeURIComponent(memberId)}/accounts/${encodeURIComponent(accountId)}`;
  const read = await api.get(byIds, { ...h, expectStatus: 200 });
  expect(need(read, 'account.guid', api), `GET ${byIds} answers the account ${account}`).toBe(account);
  // The member-account transaction list and read ("same default window", "same rule as
  // above") by the same partner ids; Errors: "200 normal success for reads, lists".
  const listed = need<Array<{ guid?: string }>>(
    await api.get(`${byGuids}/transactions`, { ...h, query: { records_per_page: 10 }, expectStatus: 200 }),
    'transactions',
    api,
  );
  const viaIds = need<Array<{ guid?: string }>>(
    await api.get(`${byIds}/transactions`, { ...h, query: { records_per_page: 10 }, expectStatus: 200 }),
    'transactions',
    api,
  );
  expectInferred(api.profile, JSON.stringify(viaIds.map((t) => t.guid)) === JSON.stringify(listed.map((t) => t.guid)), {
    expectation: 'the first page of the member-account transactions is the same by partner ids as by GUIDs',
    basis: 'the same account named two ways; the order of the list is not shown, and it may change between two reads',
    received: `${viaIds.length} by partner ids, ${listed.length} by GUIDs`,
  });
  // A transaction of that list is in the grant's scope (the list holds it): read by partner ids.
  const inScope = listed[0]?.guid;
  expect(inScope, 'a transaction of the member account to read by partner ids').toBeTruthy();
  await api.get(`${byIds}/transactions/${encodeURIComponent(inScope!)}`, { ...h, expectStatus: 200 });
});

const DATE_FIELDS = ['date', 'transacted_at', 'posted_at', 'created_at'];

/** The request day (UTC) from a response's Date header, and the first day of the 90 days before it. */
function windowOf(res: { headers: Record<string, string> }) {
  const day = new Date(res.headers.date ? Date.parse(res.headers.date) : Date.now());
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return { earliest: new Date(today - 90 * DAY_MS).toISOString().slice(0, 10), requestDay: new Date(today).toISOString().slice(0, 10) };
}

/**
 * The slim transaction's date field (its fields are not shown): the setting
 * SVC_3DX_TRANSACTION_DATE_FIELD, or the first known name the record carries; the test
 * is skipped, with the setting named, when there is none.
 */
function dateFieldOf(dx: { transactionDateField?: string }, transaction: Record<string, unknown>): string {
  const field = dx.transactionDateField ?? DATE_FIELDS.find((f) => f in transaction);
  if (!field) test.skip(true, `the slim transactions carry none of ${DATE_FIELDS.join(', ')}: set SVC_3DX_TRANSACTION_DATE_FIELD to name their date field`);
  return field!;
}

/** A transaction's day (YYYY-MM-DD) from an ISO 8601 text or a Unix timestamp in seconds. */
function dayOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v * 1000).toISOString().slice(0, 10);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return v.slice(0, 10);
  return undefined;
}

test('transaction lists default to the 90 days before the request day', { tag: TAGS }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  const token = await createToken(api);
  const h = await holder(api, token);
  const { user, account } = h;
  const member = memberOf(h);
  // Endpoints and Limits: "default window is the 90 days before the request day", on
  // the user list and the account-level and member-account lists ("same default window").
  for (const path of [
    `/data_exchange/users/${user}/transactions`,
    `/data_exchange/users/${user}/accounts/${account}/transactions`,
    `/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions`,
  ]) {
    // One record for the Date header: the request day.
    const res = await api.get(path, { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
    const { earliest, requestDay } = windowOf(res);
    // The order of the list is not shown, so every page is read (not just the first 1000).
    const transactions = await walkList<Record<string, unknown>>(api, path, 'transactions', { ...withToken(token), perPage: 1000 });
    expect(transactions.length, `transactions of ${path} in the window`).toBeGreaterThan(0);
    // The slim transaction's fields are not shown: the date field is a setting, or the
    // first known name the transactions carry. Every transaction must carry it, or the
    // window cannot be judged (no silent drop of undated records).
    const field = dateFieldOf(dx, transactions[0]);
    const undated = transactions.filter((t) => dayOf(t[field!]) === undefined).map((t) => `${t.guid} ${JSON.stringify(t[field!])}`);
    expect(undated.slice(0, 5), `transactions of ${path} without a readable ${field} (SVC_3DX_TRANSACTION_DATE_FIELD)`).toEqual([]);
    // Both bounds: nothing older than the 90 days, nothing dated after the request day.
    // Whether the day 90 days back and the request day itself belong to the window is
    // not stated ("the 90 days before the request day"): both are accepted.
    const older = transactions.filter((t) => dayOf(t[field])! < earliest).map((t) => `${t.guid} ${dayOf(t[field])}`);
    expect(older.slice(0, 5), `transactions of ${path} dated before ${earliest} (older than the 90 days before the request day ${requestDay})`).toEqual([]);
    const later = transactions.filter((t) => dayOf(t[field])! > requestDay).map((t) => `${t.guid} ${dayOf(t[field])}`);
    expect(later.slice(0, 5), `transactions of ${path} dated after the request day ${requestDay} (the window is the 90 days before it)`).toEqual([]);
  }
});

test('the default window reaches back the full 90 days on the user, account and member-account lists', { tag: TAGS }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  // A transaction only a list would show cannot prove what that list holds: a setting.
  const setting = requireSetting(
    dx.windowTransactionGuid,
    'SVC_3DX_WINDOW_TRANSACTION_GUID',
    'a transaction of the held account dated inside the 90 days before today',
  );
  const token = await createToken(api);
  const h = await holder(api, token);
  const { user, account } = h;
  const member = memberOf(h);
  // The transaction read is not windowed (Endpoints: it answers by is_manual and scope):
  // its date says whether the default window must hold it; its guid, as the target
  // answers it, is what the lists are searched for.
  const read = await api.get(`/data_exchange/users/${user}/transactions/${encodeURIComponent(setting)}`, { ...withToken(token), expectStatus: 200 });
  const transaction = need<Record<string, unknown>>(read, 'transaction', api);
  const inWindow = String(transaction.guid ?? setting);
  const field = dateFieldOf(dx, transaction);
  const day = dayOf(transaction[field]);
  expect(day, `a readable ${field} on transaction ${inWindow}`).toBeTruthy();
  const { earliest, requestDay } = windowOf(read);
  // Strictly inside (the two edge days are open, see the window test above).
  test.skip(
    !(day! > earliest && day! < requestDay),
    `transaction ${inWindow} is dated ${day}, not strictly inside ${earliest}..${requestDay}: name a more recent one in SVC_3DX_WINDOW_TRANSACTION_GUID`,
  );
  // Endpoints and Limits: the default window "is the 90 days before the request day",
  // "same default window" on the account-level and member-account lists.
  for (const path of [
    `/data_exchange/users/${user}/transactions`,
    `/data_exchange/users/${user}/accounts/${account}/transactions`,
    `/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions`,
  ]) {
    const listed = (await walkList<{ guid?: string }>(api, path, 'transactions', { ...withToken(token), perPage: 1000 })).map((t) => t.guid);
    expect(listed, `${path} without from/to lists transaction ${inWindow} dated ${day} (inside the 90 days before ${requestDay})`).toContain(inWindow);
  }
});

test("account-level and member-account transaction lists hold only that account's transactions", { tag: TAGS }, async ({ api }) => {
  const held = await holder(api, await createToken(api));
  const { user, account } = held;
  const member = memberOf(held);
  const h = withToken(held.token);
  const walk = async (path: string) => (await walkList<{ guid: string }>(api, path, 'transactions', { ...h, perPage: 1000 })).map((t) => t.guid);
  // What the service does: "Each transaction belongs to exactly one account". The
  // account-level lists of the user's accounts are therefore disjoint, and each is part
  // of the user's list (same default window, Endpoints).
  const all = new Set(await walk(`/data_exchange/users/${user}/transactions`));
  const accounts = await walkList<{ guid: string }>(api, `/data_exchange/users/${user}/accounts`, 'accounts', { headers: h.headers });
  const owner = new Map<string, string>();
  const twice: string[] = [];
  const strangers: string[] = [];
  for (const a of accounts) {
    for (const t of await walk(`/data_exchange/users/${user}/accounts/${a.guid}/transactions`)) {
      if (owner.has(t) && owner.get(t) !== a.guid) twice.push(`${t} in ${owner.get(t)} and ${a.guid}`);
      owner.set(t, a.guid);
      if (!all.has(t)) strangers.push(`${t} of ${a.guid}`);
    }
  }
  expect(owner.size, `transactions listed under the user's ${accounts.length} accounts`).toBeGreaterThan(0);
  expect(twice.slice(0, 5), 'transactions listed under two accounts (each belongs to exactly one)').toEqual([]);
  expect(strangers.slice(0, 5), "account-level transactions missing from the user's list (same default window)").toEqual([]);
  // The member-account list of one account is that account's list (same window, same records).
  const ofAccount = [...owner]
    .filter(([, a]) => a === account)
    .map(([t]) => t)
    .sort();
  expect(ofAccount.length, `transactions of ${account} in its account-level list`).toBeGreaterThan(0);
  expect(
    (await walk(`/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions`)).sort(),
    `the member-account list of ${account} equals its account-level list`,
  ).toEqual(ofAccount);
});

test('a manual transaction and one outside the grant scope answer 404', { tag: TAGS }, async ({ api }) => {
  // Endpoints: the transaction read "only returns a transaction with is_manual false and
  // a data_scope matching the grant; otherwise 404" (Errors: 404).
  // The target hides both by design (no read or list answers them): settings.
  const dx = api.profile.dataExchange;
  const manual = requireSetting(dx.manualTransactionGuid, 'SVC_3DX_MANUAL_TRANSACTION_GUID');
  const mismatch = requireSetting(dx.scopeMismatchTransactionGuid, 'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID');
  const token = await createToken(api);
  const { user } = await holder(api, token);
  await api.get(`/data_exchange/users/${user}/transactions/${manual}`, { ...withToken(token), expectStatus: 404 });
  await api.get(`/data_exchange/users/${user}/transactions/${mismatch}`, { ...withToken(token), expectStatus: 404 });
  // The same read of an in-scope transaction succeeds, so the 404s are about scope.
  const list = await api.get(`/data_exchange/users/${user}/transactions`, { ...withToken(token), query: { records_per_page: 10 }, expectStatus: 200 });
  const inScope = need<Array<{ guid?: string }>>(list, 'transactions', api)[0]?.guid;
  expect(inScope, 'an in-scope transaction to compare with').toBeTruthy();
  await api.get(`/data_exchange/users/${user}/transactions/${inScope}`, { ...withToken(token), expectStatus: 200 });
});

test('the member-account transaction read answers 404 for a manual or out-of-scope transaction', { tag: TAGS }, async ({ api }) => {
  // Endpoints: GET .../members/{member_identifier}/accounts/{account_identifier}/transactions/{transaction_identifier}:
  // "same rule as above; 404 when no match" (Errors: 404 "data exchange transaction read
  // with no matching transaction (not manual, scope matching the grant)"). Each
  // transaction is read under its own member and account, so the 404 is about the rule.
  const dx = api.profile.dataExchange;
  const cases = [
    [
      'manual',
      requireSetting(dx.manualTransactionGuid, 'SVC_3DX_MANUAL_TRANSACTION_GUID'),
      requireSetting(dx.manualTransactionMember, 'SVC_3DX_MANUAL_TRANSACTION_MEMBER'),
      requireSetting(dx.manualTransactionAccount, 'SVC_3DX_MANUAL_TRANSACTION_ACCOUNT'),
    ],
    [
      'out of the grant scope',
      requireSetting(dx.scopeMismatchTransactionGuid, 'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID'),
      requireSetting(dx.scopeMismatchMember, 'SVC_3DX_SCOPE_MISMATCH_MEMBER'),
      requireSetting(dx.scopeMismatchAccount, 'SVC_3DX_SCOPE_MISMATCH_ACCOUNT'),
    ],
  ] as const;
  const held = await holder(api, await createToken(api));
  const { user, account } = held;
  const member = memberOf(held);
  const h = withToken(held.token);
  for (const [what, transaction, m, a] of cases) {
    const res = await api.get(`/data_exchange/users/${user}/members/${m}/accounts/${a}/transactions/${transaction}`, h);
    expect(res.status, `the ${what} transaction ${transaction} read under its member ${m} and account ${a}`).toBe(404);
  }
  // Control: an in-scope transaction of the held account reads through the same path.
  const list = await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions`, {
    ...h,
    query: { records_per_page: 10 },
    expectStatus: 200,
  });
  const inScope = need<Array<{ guid?: string }>>(list, 'transactions', api)[0]?.guid;
  expect(inScope, 'an in-scope transaction of the member account to compare with').toBeTruthy();
  await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account}/transactions/${inScope}`, { ...h, expectStatus: 200 });
});

test('slim reads answer the user and the account they name', { tag: TAGS }, async ({ api }) => {
  const held = await holder(api, await createToken(api));
  const { user, account } = held;
  const member = memberOf(held);
  const h = withToken(held.token);
  // Endpoints: "read one user": the read by the user's GUID (as the target answers it) answers that user.
  const one = need<{ guid?: string }>(await api.get(`/data_exchange/users/${user}`, { ...h, expectStatus: 200 }), 'user', api);
  expect(one.guid, `the user read of ${user} answers that user`).toBe(user);
  // "list slim accounts" and "read one slim account": every listed account reads back as itself.
  const accounts = await walkList<{ guid: string }>(api, `/data_exchange/users/${user}/accounts`, 'accounts', { headers: h.headers });
  expect(
    accounts.map((a) => a.guid),
    `the user's slim accounts include ${account}`,
  ).toContain(account);
  for (const a of accounts) {
    const read = await api.get(`/data_exchange/users/${user}/accounts/${a.guid}`, { ...h, expectStatus: 200 });
    expect(need(read, 'account.guid', api), `GET .../accounts/${a.guid}`).toBe(a.guid);
  }
  // "read one slim account under a member".
  const viaMember = await api.get(`/data_exchange/users/${user}/members/${member}/accounts/${account}`, { ...h, expectStatus: 200 });
  expect(need(viaMember, 'account.guid', api), `GET .../members/${member}/accounts/${account}`).toBe(account);
});

test('data exchange lists honour records_per_page up to 1000', { tag: [...TAGS, '@paging', '@inferred'] }, async ({ api }) => {
  // Limits, the table's row "records_per_page maximum": 1000 (... all data exchange list endpoints).
  const token = await createToken(api);
  const all = await walkList(api, '/data_exchange/users', 'users', { ...withToken(token), perPage: 100 });
  const res = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1000 }, expectStatus: 200 });
  expect(need<unknown[]>(res, 'users', api).length, 'users on a page of records_per_page=1000').toBe(Math.min(1000, all.length));
  const over = await api.get('/data_exchange/users', { ...withToken(token), query: { records_per_page: 1001 } });
  if (is2xx(over.status)) {
    expect(need<unknown[]>(over, 'users', api).length, 'users on a page of records_per_page=1001').toBeLessThanOrEqual(1000);
  } else {
    expectInferred(api.profile, over.status >= 400 && over.status < 500, {
      expectation: 'records_per_page=1001 is clamped or refused with a 4xx',
      basis: 'Limits state the maximum, not what a request above it gets',
      received: String(over.status),
    });
  }
});

test('the grant query returns the grant only when every grantee is supplied', { tag: TAGS }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  const g = await grantFacts(api);
  const issuer = dx.issuerClientGuid ?? g.issuers[0];
  expect(issuer, `the issuer of grant ${g.guid}`).toBeTruthy();
  // Every grantee: the setting's list, else the grant's values each of whose grantee lists holds it.
  const grantees = dx.allGranteeGuids.length >= 2 ? dx.allGranteeGuids : g.grantees;
  test.skip(
    grantees.length < 2,
    `grant ${g.guid} has one grantee: the rule is about a grant with two or more (SVC_3DX_GRANT_GUID picks one, SVC_3DX_GRANTEE_GUIDS names its grantees)`,
  );
  // Endpoints: "GET /data_exchange/grant ... every grantee on the grant must be supplied or the grant is not returned".
  const all = await api.get('/data_exchange/grant', { query: { issuer_guid: issuer!, [dx.granteeQueryParam]: grantees.join(',') }, expectStatus: 200 });
  expect(JSON.stringify(all.body), 'the grant is returned when every grantee is supplied').toContain(g.guid);
  const some = await api.get('/data_exchange/grant', { query: { issuer_guid: issuer!, [dx.granteeQueryParam]: grantees[0] } });
  expect(some.status < 300 ? JSON.stringify(some.body) : '', 'the grant with one grantee missing').not.toContain(g.guid);
});

test('grants list by issuer and by grantee with Basic authentication only', { tag: TAGS }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  // Authentication 3: "Grant listing and grant reading need only Basic authentication":
  // no SVC-3DX-TOKEN is sent, and each list answers 200 with the grant both share.
  const g = await grantFacts(api);
  const issuer = dx.issuerClientGuid ?? g.issuers[0];
  expect(issuer, `the issuer of grant ${g.guid}`).toBeTruthy();
  expect(
    (await grantsOf(api, 'issuer', issuer!)).map((x) => x.guid),
    `grants of the issuer ${issuer}`,
  ).toContain(g.guid);
  expect(
    (await grantsOf(api, 'grantee', g.grantee)).map((x) => x.guid),
    `grants of the grantee ${g.grantee}`,
  ).toContain(g.guid);
});

test('a grant names its issuer, its grantees and a data scope HELD, AGGREGATED or ALL', { tag: TAGS }, async ({ api }) => {
  const dx = api.profile.dataExchange;
  // Resources, Data exchange grant: "an issuer GUID, one or more grantee GUIDs and a data
  // scope with values HELD, AGGREGATED, ALL". The field names are not shown: the grant
  // carries its issuer when one of its values is a client whose issuer list holds it, and
  // a grantee when one is a client whose grantee list holds it (grantFacts).
  const g = await grantFacts(api);
  expect(g.issuers, `values of grant ${g.guid} that are its issuer (its issuer's grant list holds it): ${JSON.stringify(g.record).slice(0, 300)}`).not.toEqual(
    [],
  );
  expect(g.grantees, `values of grant ${g.guid} that are its grantees (their grant lists hold it): ${JSON.stringify(g.record).slice(0, 300)}`).not.toEqual([]);
  // Each configured grantee is one of them: its list holds the grant, and the grant carries as many grantees.
  const configured = dx.allGranteeGuids.length ? dx.allGranteeGuids : dx.granteeClientGuid ? [dx.granteeClientGuid] : [];
  for (const c of configured)
    expect(
      (await grantsOf(api, 'grantee', c)).map((x) => x.guid),
      `grants of the configured grantee ${c}`,
    ).toContain(g.guid);
  expect(g.grantees.length, `grantee GUIDs grant ${g.guid} carries, against the ${configured.length} configured`).toBeGreaterThanOrEqual(configured.length);
  const values = Object.values(g.record).flatMap((v) => (Array.isArray(v) ? v : [v]));
  expect(
    values.filter((v) => DATA_SCOPES.includes(v as string)),
    "the grant's data scope (HELD, AGGREGATED or ALL)",
  ).toHaveLength(1);
});
