/**
 * One resource, read more than once, answers one state: one member's reads never disagree,
 * neither between two kinds of read nor across consecutive reads. A settled member (an
 * end state of the test institution: "success leads to CONNECTED; invalid or locked
 * credentials lead to DENIED"; nothing runs on it any more) is read through every read the
 * specification names for it, twice: the member read, its status read ("CONNECTED | reading
 * member or status | credentials accepted | CONNECTED") and the user's member list. Every
 * read must show the same connection_status, and the same owner, institution and OAuth flag
 * (Resources, Member; What the service does: "A member is the connection between a user and
 * an institution"). Its accounts name the same member wherever they are read (What the
 * service does: "An account ... belongs to a member"). An OAuth member whose window nobody
 * opened is read the same ways: an OAuth member on every read, never aggregated (aggregation
 * "starts after a successful OAuth connection", OAuth procedure for members, 4).
 *
 * Nothing about timing: every read comes after the member is read settled, and a settled
 * member has no transition left to make (States and transitions name none from an end
 * state without a new request).
 */
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { createMember, createdMember, readMember, readStatus, type MemberStatus } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import type { Poll } from '../fixtures.ts';
import { memberAccounts, walkList } from './journeys.ts';
import { DATA_SCOPES, grantFacts, type Rec } from './data-exchange-identities.ts';

const TAGS = ['@members', '@destructive'];

/** Fields of a member every read of it shows alike (Resources, Member). */
const SAME = ['connection_status', 'user_guid', 'institution_code', 'is_oauth'] as const;

async function settledMember(api: CheckedClient, poll: Poll, scenario: 'SUCCESS' | 'UNAUTHORIZED') {
  const user = await createUser(api);
  const member = createdMember(api, await createMember(api, user, { scenario })).guid;
  const settled = (await waitUntilSettled(api, poll, user, member)).value;
  return { user, member, settled };
}

/** Every read of one member, twice over, in order: member, status, list entry. */
async function readsOf(api: CheckedClient, user: string, member: string): Promise<Array<{ read: string; m: Partial<MemberStatus> & Record<string, unknown> }>> {
  const out: Array<{ read: string; m: Partial<MemberStatus> & Record<string, unknown> }> = [];
  for (let round = 1; round <= 2; round++) {
    out.push({ read: `member read #${round}`, m: (await readMember(api, user, member)) as never });
    out.push({ read: `status read #${round}`, m: (await readStatus(api, user, member)) as never });
    const list = await walkList<Record<string, unknown>>(api, `/users/${user}/members`, 'members');
    const entry = list.find((x) => x.guid === member);
    expect(entry, `the user's member list names member ${member}`).toBeTruthy();
    out.push({ read: `member list #${round}`, m: entry as never });
  }
  return out;
}

function expectAgreement(reads: Array<{ read: string; m: Record<string, unknown> }>, field: string) {
  const shown = reads.filter((r) => Object.hasOwn(r.m, field));
  const values = [...new Set(shown.map((r) => JSON.stringify(r.m[field])))];
  expect(
    values.length,
    `every read of one settled member shows one ${field}; seen: ${shown.map((r) => `${r.read} ${JSON.stringify(r.m[field])}`).join(', ')}`,
  ).toBeLessThanOrEqual(1);
}

for (const scenario of ['SUCCESS', 'UNAUTHORIZED'] as const) {
  const end = scenario === 'SUCCESS' ? 'CONNECTED' : 'DENIED';
  test(`a settled ${end} member shows one state, owner and institution on every read, twice over`, { tag: TAGS }, async ({ api, poll }) => {
    const { user, member, settled } = await settledMember(api, poll, scenario);
    // States and transitions, test institution: success -> CONNECTED; invalid credentials -> DENIED.
    expect(settled.connection_status, `the ${scenario} password ends in ${end}`).toBe(end);
    const reads = await readsOf(api, user, member);
    for (const r of reads) {
      if (r.m.connection_status !== undefined) expect(r.m.connection_status, `${r.read}: connection_status of the settled member`).toBe(end);
      expect(
        r.m.is_being_aggregated === true,
        `${r.read}: nothing runs on the settled member (is_being_aggregated ${JSON.stringify(r.m.is_being_aggregated)})`,
      ).toBe(false);
    }
    for (const f of SAME) expectAgreement(reads, f);
    const owner = reads.find((r) => r.m.user_guid !== undefined)?.m.user_guid;
    if (owner !== undefined) expect(owner, 'user_guid: the owning user').toBe(user);
  });
}
test('an OAuth member whose window was never opened reads as an OAuth member, never aggregated, on every read, twice over', {
  tag: [...TAGS, '@oauth'],
}, async ({ api }) => {
  const user = await createUser(api);
  const member = createdMember(api, await createMember(api, user, { isOauth: true })).guid;
  const reads = await readsOf(api, user, member);
  for (const r of reads) {
    // OAuth procedure for members, 4: "Aggregation of accounts and transactions starts after a
    // successful OAuth connection"; nobody opened the window, so none began. Resources, Member:
    // aggregated_at "null before first aggregation" (States and transitions, first row: PENDING,
    // "aggregated_at null"), on every read, not only the create answer. Omitted reads as null
    // (real-service-notes, Nullability).
    expect(r.m.aggregated_at ?? null, `${r.read}: aggregated_at of an OAuth member whose window was never opened`).toBeNull();
    // Resources, Member: is_oauth "set true in the create request to make an OAuth member", where a read carries it.
    if (Object.hasOwn(r.m, 'is_oauth')) expect(r.m.is_oauth, `${r.read}: is_oauth of a member created with is_oauth true`).toBe(true);
  }
  // Its state may move without a request (transitions other than the table's are not shown): owner and institution may not.
  for (const f of ['user_guid', 'institution_code']) expectAgreement(reads, f);
});

/**
 * Balances an account's reads must agree on while nothing refreshes it: What the service does,
 * "Accounts and their transactions refresh every 24 hours" (a balance moves with a refresh or
 * an aggregation, and the settled member has none running: is_being_aggregated false, no
 * request between the reads moves it).
 */
const BALANCES = ['balance', 'available_balance'] as const;

test('the accounts of a member name that member and show one balance in the member list, the user list and their own reads, twice over', {
  tag: ['@accounts', '@destructive'],
}, async ({ api, poll }) => {
  const { user, member, settled } = await settledMember(api, poll, 'SUCCESS');
  expect(settled.connection_status).toBe('CONNECTED');
  type AccountRead = { guid: string; member_guid?: string } & Partial<Record<(typeof BALANCES)[number], unknown>>;
  /** Per account and balance field: every read that shows a value, with where it was read. */
  const balances = new Map<string, Array<{ read: string; value: number }>>();
  const noteBalances = (read: AccountRead | undefined, what: string) => {
    for (const field of BALANCES) {
      const value = read?.[field];
      // Absent or null says nothing of agreement (Account: nullness not stated); a number is compared as a number.
      if (value === undefined || value === null) continue;
      const key = `${read!.guid} ${field}`;
      balances.set(key, [...(balances.get(key) ?? []), { read: what, value: Number(value) }]);
    }
  };
  for (let round = 1; round <= 2; round++) {
    const mine = await memberAccounts<AccountRead>(api, user, member);
    const all = await walkList<AccountRead>(api, `/users/${user}/accounts`, 'accounts');
    // Every read that names a member names this one (the Account list names member_guid without
    // saying it is always present; one read serving it and another dropping it is presence
    // consistency's to find: contracts/invariants.ts).
    const names = (read: { member_guid?: string } | undefined, what: string) => {
      if (read && Object.hasOwn(read, 'member_guid')) expect(read.member_guid, `round ${round}: account ${what} names the member`).toBe(member);
    };
    for (const a of mine) {
      names(a, `${a.guid} in the member's list`);
      noteBalances(a, `the member's list #${round}`);
      const listed = all.find((x) => x.guid === a.guid);
      expect(listed, `round ${round}: account ${a.guid} is in the user's account list`).toBeTruthy();
      names(listed, `${a.guid} in the user's list`);
      noteBalances(listed, `the user's list #${round}`);
      const one = await api.get(`/users/${user}/accounts/${a.guid}`, { expectStatus: 200 });
      expect(one.body?.account, `round ${round}: account ${a.guid} read alone`).toBeTruthy();
      names(one.body.account, `${a.guid} read alone`);
      noteBalances(one.body.account, `its own read #${round}`);
    }
  }
  expect(balances.size, 'the connected member has accounts whose balances were read').toBeGreaterThan(0);
  for (const [key, seen] of balances)
    expect(
      new Set(seen.map((s) => s.value)).size,
      `account ${key}: one value in every read while nothing refreshes it; seen ${seen.map((s) => `${s.read} ${s.value}`).join(', ')}`,
    ).toBe(1);
});

test('a grant shows one data scope wherever it is read: by issuer, by grantee and by the grant query, twice over', {
  tag: ['@data-exchange', '@readonly'],
}, async ({ api }) => {
  const dx = api.profile.dataExchange;
  // Resources, Data exchange grant: a grant "has an issuer GUID, one or more grantee GUIDs and a
  // data scope with values HELD, AGGREGATED, ALL": one grant, one scope. The grant, its issuer
  // and grantees are read from the target (data-exchange-identities.ts grantFacts): identifiers
  // as the target answers them (Versioning: opaque identifiers may change length or format).
  const g = await grantFacts(api);
  // As the data exchange scenarios send them: the settings' identifiers where given (sent, never
  // compared), else the grant's values whose lists hold it.
  const issuer = dx.issuerClientGuid ?? g.issuers[0];
  test.skip(!issuer, `no value of grant ${g.guid} is a client whose issuer list holds it, and SVC_3DX_ISSUER_GUID is not set: its issuer cannot be read`);
  const grantees = dx.allGranteeGuids.length ? dx.allGranteeGuids : g.grantees;
  const seen: Array<{ read: string; scope: unknown }> = [];
  const scopeIn = (body: unknown): unknown => {
    const grants = body as { grants?: unknown[]; grant?: unknown } | undefined;
    const list = Array.isArray(grants?.grants) ? grants!.grants : grants?.grant ? [grants.grant] : [body];
    const grant = list.find((x): x is Rec => !!x && typeof x === 'object' && (x as Rec).guid === g.guid);
    // The scope's field name is not shown: the grant's value that is one of the stated scopes (any case).
    return grant
      ? Object.values(grant)
          .flatMap((v) => (Array.isArray(v) ? v : [v]))
          .find((v) => typeof v === 'string' && DATA_SCOPES.some((x) => x.toLowerCase() === v.toLowerCase()))
      : undefined;
  };
  for (let round = 1; round <= 2; round++) {
    const reads: Array<[string, () => Promise<{ body: unknown }>]> = [
      [`issuer list #${round}`, () => api.get(`/data_exchange/issuer/${encodeURIComponent(issuer!)}/grants`, { expectStatus: 200 })],
      [`grantee list #${round}`, () => api.get(`/data_exchange/grantee/${encodeURIComponent(g.grantee)}/grants`, { expectStatus: 200 })],
      [
        `grant query #${round}`,
        () => api.get('/data_exchange/grant', { query: { issuer_guid: issuer!, [dx.granteeQueryParam]: grantees.join(',') }, expectStatus: 200 }),
      ],
    ];
    for (const [read, run] of reads) {
      const scope = scopeIn((await run()).body);
      expect(scope, `${read} names grant ${g.guid} with a data scope`).toBeDefined();
      seen.push({ read, scope });
    }
  }
  expect(
    new Set(seen.map((s) => JSON.stringify(s.scope))).size,
    `one data scope for grant ${g.guid}; seen: ${seen.map((s) => `${s.read} ${JSON.stringify(s.scope)}`).join(', ')}`,
  ).toBe(1);
});

/*
 * The records below are read through every path the specification gives them, in one test,
 * so the run-wide invariants (contracts/invariants.ts, judged by the checked client on every
 * answer) compare them: a field one read served and another dropped (presence consistency,
 * Versioning: "removing or renaming a response field" is breaking), a stable value two reads
 * disagree on, a value that does not read back as it was written. The assertions here name
 * what each read must show; the invariants judge everything else every answer carries.
 */

test('an institution reads the same through its code, its guid, the institution list and the favourites', {
  tag: ['@institutions', '@readonly'],
}, async ({ api }) => {
  // Endpoints, Institutions: GET /institutions lists them; GET /institutions/{institution_identifier}
  // "identifier is the institution code or guid"; GET /institutions/favorites lists the favourites.
  const listed = (await api.get('/institutions', { query: { records_per_page: 10 }, expectStatus: 200 })).body?.institutions as Rec[] | undefined;
  expect(Array.isArray(listed) && listed.length > 0, 'the institution list holds institutions').toBe(true);
  const favourites = (await api.get('/institutions/favorites', { query: { records_per_page: 10 }, expectStatus: 200 })).body?.institutions as Rec[] | undefined;
  const sample = [...listed!.slice(0, 3), ...(favourites ?? []).slice(0, 2)].filter((r) => typeof r.code === 'string');
  for (const inst of sample) {
    const byCode = await api.get(`/institutions/${encodeURIComponent(inst.code as string)}`, { expectStatus: 200 });
    expect(byCode.body?.institution?.code, `the read of ${inst.code} answers that institution`).toBe(inst.code);
    // v20111101 institutions carry no guid (real-service-notes, Nullability): read by guid where there is one.
    if (typeof inst.guid === 'string') {
      const byGuid = await api.get(`/institutions/${encodeURIComponent(inst.guid)}`, { expectStatus: 200 });
      expect(byGuid.body?.institution?.code, `the read of guid ${inst.guid} answers institution ${inst.code}`).toBe(inst.code);
    }
  }
});

test("an updated member reads the same through its own read, its status and the user's member list", { tag: ['@members', '@destructive'] }, async ({
  api,
  poll,
}) => {
  const { user, member } = await settledMember(api, poll, 'SUCCESS');
  // Endpoints: members "can also be ... updated"; Resources, Member: id "client-supplied identifier", metadata "additional information".
  const id = `scn-member-updated-${Date.now().toString(36)}`;
  // A string, kept as written: shaped as the JSON a team keeps there, compact, with a run of
  // spaces inside a value, so a service that parses it and writes it again (or collapses
  // spaces) reads back another string.
  const metadata = `{"source":"conformance suite","ref":"${id}","note":"two  spaces"}`;
  await api.put(`/users/${user}/members/${member}`, { member: { id, metadata } }, { expectStatus: ANY_2XX });
  for (let round = 1; round <= 2; round++) {
    const read = await readMember(api, user, member);
    if (read.id !== undefined && read.id !== null) expect(read.id, `round ${round}: the member's own read shows the id it was updated with`).toBe(id);
    if (read.metadata !== undefined && read.metadata !== null)
      expect(read.metadata, `round ${round}: the member's own read shows the metadata it was updated with`).toBe(metadata);
    await readStatus(api, user, member);
    const entry = (await walkList<Rec>(api, `/users/${user}/members`, 'members')).find((m) => m.guid === member);
    expect(entry, `round ${round}: the user's member list names member ${member}`).toBeTruthy();
    if (entry!.metadata !== undefined && entry!.metadata !== null)
      expect(entry!.metadata, `round ${round}: the member list shows the metadata the member was updated with`).toBe(metadata);
  }
});
