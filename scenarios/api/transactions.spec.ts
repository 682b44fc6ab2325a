/**
 * Transactions (specification, Resources "Transaction"; Endpoints, other endpoints
 * named: list transactions with the optional filters `category_guid`,
 * `top_level_category_guid`, `from_created_at`, `to_created_at`, `from_updated_at`,
 * `to_updated_at`; the optional `includes` value returning `repeating_transactions`,
 * `merchants`, `classifications`, `geolocations`; repeating transactions have a
 * recurrence type including a `twice_a_` kind).
 *
 * A filter is checked against the unfiltered list of the same user: the filtered list
 * must hold exactly the transactions the filter selects, whatever data the target has.
 * Bounds are chosen so that at least one case selects a proper subset (or none), so a
 * target that ignores the filter fails, and no bound falls on a transaction's own
 * instant (whether a bound is inclusive is not shown).
 *
 * Value formats of the time filters are not shown in the specification. The vendor's
 * reference takes Unix timestamps (seconds) from v20250224 and ISO 8601 / YYYY-MM-DD
 * on v20111101 (real-service-notes, "Request shapes"): the suite sends Unix seconds on
 * v20250224 and later, ISO 8601 timestamps before.
 */
import { test, expect, currentVersion, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX, carriesNamed, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { requireTestInstitution } from '../steps/test-institution.ts';
import { createMember, createdMember, readMember } from '../steps/members.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, letTimePass, settle, walkList } from './journeys.ts';
import { inconclusive } from './jobs.ts';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

const TAGS = ['@transactions', '@destructive'];

type Txn = {
  guid: string;
  category_guid?: string | null;
  top_level_category_guid?: string | null;
  created_at?: string;
  updated_at?: string;
  [k: string]: unknown;
};

const sorted = (xs: string[]) => [...xs].sort();

async function expectFilter(api: CheckedClient, user: string, all: Txn[], query: Record<string, string>, selects: (t: Txn) => boolean) {
  const filtered = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions', { query });
  const expected = all.filter(selects).map((t) => t.guid);
  expect(sorted(filtered.map((t) => t.guid)), `transactions listed with ${new URLSearchParams(query)} (expected ${expected.length} of ${all.length})`).toEqual(
    sorted(expected),
  );
  return expected.length;
}

/** Two distinct instants of the user's transactions: aggregate again once two seconds have passed. */
async function userWithTwoGenerations(api: CheckedClient, poll: Parameters<typeof connectedUser>[1]) {
  const { user, member } = await connectedUser(api, poll);
  await letTimePass(api.profile, user, 2100); // resource timestamps may have whole-second resolution: leave a whole second between generations
  // A second standard aggregation may be throttled (Limits: its period is not shown):
  // its status is not asserted; the filters are judged on whatever instants exist.
  await api.post(`/users/${user}/members/${member}/aggregate`);
  await settle(api, poll, user, member);
  return { user, member };
}

/** An `_at` value as whole seconds: ISO 8601 text, or a Unix timestamp in seconds. */
const seconds = (v: unknown): number => (typeof v === 'number' ? Math.floor(v) : Math.floor(Date.parse(String(v)) / 1000));

/** The filter value of an instant (whole seconds) in the version's format. */
function filterValue(version: string, s: number): string {
  return version >= 'v20250224' ? String(s) : new Date(s * 1000).toISOString().replace('.000Z', 'Z');
}

for (const [field, from, to] of [
  ['created_at', 'from_created_at', 'to_created_at'],
  ['updated_at', 'from_updated_at', 'to_updated_at'],
] as const) {
  test(`${from} and ${to} select transactions by ${field}`, { tag: TAGS }, async ({ api, poll, profile }) => {
    const version = currentVersion(profile);
    const { user } = await userWithTwoGenerations(api, poll);
    let all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    expect(all.length, 'transactions aggregated for the new member').toBeGreaterThan(0);
    if (field === 'updated_at') {
      // Update one transaction two seconds later, so updated_at has a newest value of its own (update status not shown: any 2xx).
      await letTimePass(profile, user, 2100);
      const target = all[all.length - 1];
      await api.put(
        `/users/${user}/transactions/${target.guid}`,
        { transaction: { description: 'updated by the conformance suite' } },
        { expectStatus: ANY_2XX },
      );
      all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    }
    const at = (t: Txn) => seconds(t[field]);
    const unreadable = all.filter((t) => !Number.isFinite(at(t))).map((t) => `${t.guid}: ${JSON.stringify(t[field])}`);
    expect(unreadable, `transactions whose ${field} is neither ISO 8601 nor Unix seconds`).toEqual([]);
    const instants = [...new Set(all.map(at))].sort((a, b) => a - b);
    const newest = instants.at(-1)!;
    const q = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, filterValue(version, v)]));
    // After every transaction: none. Around everything: all of them.
    await expectFilter(api, user, all, q({ [from]: newest + 2 }), () => false);
    await expectFilter(api, user, all, q({ [from]: instants[0] - 2, [to]: newest + 2 }), () => true);
    // Before every transaction: none.
    await expectFilter(api, user, all, q({ [to]: instants[0] - 2 }), () => false);
    // Between two neighbouring instants at least two seconds apart (the newest such
    // pair), a bound that equals no transaction's instant: from there only the newer
    // transactions, up to there only the older ones.
    const gap = instants.findLastIndex((s, i) => i > 0 && s - instants[i - 1] >= 2);
    if (field === 'updated_at') expect(gap, "an updated_at two seconds older than the updated transaction's").toBeGreaterThan(0);
    if (gap > 0) {
      const mid = instants[gap - 1] + 1;
      await expectFilter(api, user, all, q({ [from]: mid }), (t) => at(t) > mid);
      await expectFilter(api, user, all, q({ [to]: mid }), (t) => at(t) < mid);
    }
  });
}

for (const filter of ['category_guid', 'top_level_category_guid'] as const) {
  test(`${filter} selects the transactions of that category`, { tag: TAGS }, async ({ api, poll }) => {
    const { user } = await connectedUser(api, poll);
    const all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    const used = [...new Set(all.map((t) => t[filter]).filter((g): g is string => typeof g === 'string'))];
    // The field is named, not promised (real-service-notes, Nullability): without a transaction
    // that carries it, there is no value to filter by and nothing to decide.
    if (!used.length) inconclusive(`none of the ${all.length} transactions carries ${filter}: there is no value of it to filter by`);
    for (const guid of used.slice(0, 2)) await expectFilter(api, user, all, { [filter]: guid }, (t) => t[filter] === guid);
    // A default category none of the transactions carries selects none of them.
    const defaults = await walkList<{ guid: string }>(api, '/categories/default', 'categories');
    const unused = defaults.find((c) => !all.some((t) => t.category_guid === c.guid || t.top_level_category_guid === c.guid));
    expect(unused, 'a default category no transaction of the user carries').toBeTruthy();
    await expectFilter(api, user, all, { [filter]: unused!.guid }, () => false);
  });
}

/** Every value under a key of one of these names, at any depth. */
function valuesUnder(value: unknown, names: string[], out: unknown[] = []): unknown[] {
  if (Array.isArray(value))
    value.forEach((v) => {
      valuesUnder(v, names, out);
    });
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (names.includes(k)) out.push(v);
      valuesUnder(v, names, out);
    }
  }
  return out;
}

/** The objects of included values (a list of objects, or one object). */
const objectsOf = (values: unknown[]) =>
  values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((o): o is Record<string, unknown> => !!o && typeof o === 'object' && !Array.isArray(o));

/**
 * Resources, Transaction: "Optional includes query value returns repeating_transactions,
 * merchants, classifications, geolocations. Merchant fields: name, logo_url,
 * website_url. Geolocation fields: country, city, postal_code." Where the included data
 * sits is not shown: it is looked for under a key of the include's name (plural or
 * singular) anywhere in the response; an entry without a field named for it is an
 * inferred finding (the fields are named, not said to be always present).
 */
const INCLUDES: Record<string, { keys: string[]; fields: string[] }> = {
  repeating_transactions: { keys: ['repeating_transactions', 'repeating_transaction'], fields: [] },
  merchants: { keys: ['merchants', 'merchant'], fields: ['name', 'logo_url', 'website_url'] },
  classifications: { keys: ['classifications', 'classification'], fields: [] },
  geolocations: { keys: ['geolocations', 'geolocation'], fields: ['country', 'city', 'postal_code'] },
};

for (const [include, { keys, fields }] of Object.entries(INCLUDES)) {
  test(`includes=${include} adds data to the transaction list`, { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
    const { user } = await connectedUser(api, poll);
    const plain = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100 }, expectStatus: 200 });
    const withIncludes = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100, includes: include }, expectStatus: 200 });
    // includes adds data; it does not change which transactions are listed.
    expect(need<unknown[]>(withIncludes, 'transactions', api).length, 'the same transactions with includes').toBe(
      need<unknown[]>(plain, 'transactions', api).length,
    );
    const included = objectsOf(valuesUnder(withIncludes.body, keys));
    if (included.length === 0 && !profile.isSimulator) {
      test.skip(true, `the test user's transactions carry no ${include} data on this target, so includes=${include} cannot be observed`);
    }
    expect(included.length, `objects under ${keys.join(' or ')} with includes=${include}`).toBeGreaterThan(0);
    if (fields.length) {
      // "Merchant fields: ...", "Geolocation fields: ...": lists of names, not a presence guarantee.
      const missing = included.filter((o) => !fields.every((f) => f in o)).map((o) => JSON.stringify(o).slice(0, 120));
      expectInferred(profile, missing.length === 0, {
        expectation: `${include} entries carry the fields named for them (${fields.join(', ')})`,
        basis: 'Resources, Transaction: the fields are named, not said to be always present (../shared/real-service-notes.md, Nullability and required fields)',
        received: missing.slice(0, 3).join('; '),
      });
    }
    if (include === 'merchants') {
      // What the service does: "A merchant is the origin of a transaction; transactions carry merchant_guid":
      // a merchant included inside a transaction is that transaction's merchant.
      const mismatched = need<Rec[]>(withIncludes, 'transactions', api)
        .filter((t) => typeof t.merchant_guid === 'string' && isRec(t.merchant) && typeof t.merchant.guid === 'string' && t.merchant.guid !== t.merchant_guid)
        .map((t) => `${String(t.guid)}: merchant_guid ${String(t.merchant_guid)}, included merchant ${String((t.merchant as Rec).guid)}`);
      expect(mismatched, 'transactions whose included merchant is not the one their merchant_guid names').toEqual([]);
    }
    // "Optional": without includes the data is not sent. Not stated in those words: inferred.
    const unasked = objectsOf(valuesUnder(plain.body, keys));
    expectInferred(profile, unasked.length === 0, {
      expectation: `the list without includes carries no ${include} data`,
      basis: 'Resources, Transaction: includes is "optional"; whether the data is absent without it is not shown',
      received: `${unasked.length} objects`,
    });
  });
}

/** Every string value of an object that names a twice-a-period recurrence. */
const twiceKinds = (o: unknown) =>
  Object.values((o ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === 'string' && v.startsWith('twice_a_'));

test('repeating transactions report a twice_a_ recurrence kind', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  // The user's repeating transactions (the list path is not shown; the platform's analogue of the insight sub-list).
  const repeating = await walkList<Record<string, unknown> & { guid: string }>(api, `/users/${user}/repeating_transactions`, 'repeating_transactions');
  const twice = repeating.filter((r) => twiceKinds(r).length > 0);
  if (twice.length === 0 && !profile.isSimulator) {
    test.skip(true, 'the test user has no repeating transaction that recurs twice a period on this target, so the twice_a_ kind cannot be observed');
  }
  // The simulator's test institution aggregates a twice-monthly payroll.
  expect(
    twice.map((r) => twiceKinds(r)[0]),
    'repeating transactions with a twice_a_ recurrence kind',
  ).not.toEqual([]);
  // The same repeating transactions read through includes=repeating_transactions: that
  // both paths agree is not stated (the list path is not shown at all): inferred.
  const viaIncludes = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100, includes: 'repeating_transactions' }, expectStatus: 200 });
  const text = JSON.stringify(viaIncludes.body);
  const disagree = twice.filter((r) => !text.includes(r.guid) || !text.includes(twiceKinds(r)[0])).map((r) => r.guid);
  expectInferred(profile, disagree.length === 0, {
    expectation: 'every twice_a_ repeating transaction appears with its recurrence kind under includes=repeating_transactions',
    basis: 'the repeating-transaction list path is not shown; only includes=repeating_transactions is',
    received: `missing or different: ${disagree.join(', ')}`,
  });
});

/**
 * What the service does: "A merchant is the origin of a transaction; transactions carry
 * merchant_guid and merchant_location_guid." Resources, Transaction names both fields.
 * Their values may be null (a transaction without a known merchant; nullness is not
 * stated and the vendor reference makes nearly every field nullable), but the fields
 * are carried. That the test institution's aggregated transactions name a merchant is
 * not stated: inferred on a real target.
 */
test('transactions carry merchant_guid and merchant_location_guid', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  const all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
  expect(all.length, 'transactions aggregated for the new member').toBeGreaterThan(0);
  const without = all.filter((t) => !('merchant_guid' in t) || !('merchant_location_guid' in t)).map((t) => t.guid);
  expect(without.slice(0, 5), `transactions without merchant_guid or merchant_location_guid (${without.length} of ${all.length})`).toEqual([]);
  // Resources, Transaction: the other fields named (check_number only where there is one;
  // is_recurring is to be ignored; guid: "Other resources also have a guid"). "Fields named: ..."
  // is a list of names, not a presence guarantee: one missing is an inferred finding.
  expect(all.filter((t) => !('guid' in t)).length, 'transactions without a guid (Resources and their fields: "Other resources also have a guid")').toBe(0);
  const FIELDS = ['category_guid', 'top_level_category_guid', 'user_guid', 'is_manual', 'is_subscription', 'is_international', 'member_is_managed_by_user'];
  const lacking = all.flatMap((t) => FIELDS.filter((f) => !(f in t)).map((f) => `${t.guid}: ${f}`));
  // "Fields named: ..." is a list of names, not a presence promise (real-service-notes,
  // Nullability: the vendor's own transactions carry no top_level_category_guid). Inferred.
  expectInferred(profile, lacking.length === 0, {
    expectation: `transactions carry the fields Resources, Transaction names (${FIELDS.join(', ')})`,
    basis: 'Resources, Transaction names the fields without saying they are always present',
    received: `${lacking.length} missing: ${lacking.slice(0, 5).join('; ')}`,
  });
  const named = all.filter((t) => typeof t.merchant_guid === 'string' && typeof t.merchant_location_guid === 'string');
  const ok = named.length > 0;
  if (profile.isSimulator)
    expect(named.length, "transactions naming a merchant and its location (the simulator's test institution has merchants)").toBeGreaterThan(0);
  else
    expectInferred(profile, ok, {
      expectation: 'at least one aggregated transaction names its merchant and merchant location',
      basis: "What the service does: transactions carry the fields; whether the test institution's transactions have merchants is not shown",
      received: `${named.length} of ${all.length}`,
    });
});

/**
 * Endpoints, other endpoints named: list transactions with the optional filter
 * `use_case` "(opted-in clients)"; Resources, Member: `use_cases` on create. Whether the
 * client is opted in, and to which values, is a profile setting (SVC_USE_CASES, at least
 * two values). The member is created with the first use case only: the filter on it
 * selects every transaction of the user, the filter on the second selects none.
 */
test('use_case selects the transactions of members with that use case', { tag: TAGS }, async ({ api, poll, profile }) => {
  const useCases = profile.useCases;
  test.skip(
    !useCases || useCases.length < 2,
    'needs SVC_USE_CASES: two or more use cases the client is opted in to (Endpoints: use_case is for "opted-in clients"; which clients are opted in is not shown)',
  );
  const [mine, other] = useCases!;
  requireTestInstitution(profile, ['SUCCESS']);
  const user = await createUser(api);
  const member = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS', extra: { use_cases: [mine] } })).guid;
  await settle(api, poll, user, member);
  // Resources, Member: use_cases (array) "only for clients opted in to use cases": this client is.
  // "Only for" says where the field may be, not that it always is: where the member carries it,
  // it holds the use case it was created with.
  const read = (await readMember(api, user, member)) as unknown as Record<string, unknown>;
  if (carriesNamed(profile, read, 'use_cases', `member ${member} of an opted-in client`))
    expect(read.use_cases as unknown[], `use_cases of a member created with ${mine}, for an opted-in client`).toContain(mine);
  const all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
  expect(all.length, 'transactions aggregated for the new member').toBeGreaterThan(0);
  expect(await expectFilter(api, user, all, { use_case: mine }, () => true), `transactions with use_case=${mine}`).toBe(all.length);
  await expectFilter(api, user, all, { use_case: other }, () => false);
});
