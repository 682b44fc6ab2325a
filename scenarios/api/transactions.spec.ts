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
 * target that ignores the filter fails. Value formats are not shown in the
 * specification: the time filters are sent as ISO 8601 timestamps (UTC), the format of
 * the resources' own `_at` fields.
 */
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { connectedUser, settle, sleep, walkList } from './journeys.ts';

const TAGS = ['@transactions', '@destructive'];

type Txn = { guid: string; category_guid?: string | null; top_level_category_guid?: string | null; created_at?: string; updated_at?: string; [k: string]: unknown };

const sorted = (xs: string[]) => [...xs].sort();

async function expectFilter(api: CheckedClient, user: string, all: Txn[], query: Record<string, string>, selects: (t: Txn) => boolean) {
  const filtered = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions', { query });
  const expected = all.filter(selects).map((t) => t.guid);
  expect(sorted(filtered.map((t) => t.guid)), `transactions listed with ${new URLSearchParams(query)} (expected ${expected.length} of ${all.length})`).toEqual(sorted(expected));
  return expected.length;
}

/** Two distinct instants of the user's transactions: aggregate again once a second has passed. */
async function userWithTwoGenerations(api: CheckedClient, poll: Parameters<typeof connectedUser>[1]) {
  const { user, member } = await connectedUser(api, poll);
  await sleep(1100); // resource timestamps may have whole-second resolution
  const again = await api.post(`/users/${user}/members/${member}/aggregate`);
  expect(again.status, 'a standard aggregation of the connected member').toBeLessThan(500);
  await settle(api, poll, user, member);
  return { user, member };
}

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

for (const [field, from, to] of [
  ['created_at', 'from_created_at', 'to_created_at'],
  ['updated_at', 'from_updated_at', 'to_updated_at'],
] as const) {
  test(`${from} and ${to} select transactions by ${field}`, { tag: TAGS }, async ({ api, poll }) => {
    const { user } = await userWithTwoGenerations(api, poll);
    let all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    if (field === 'updated_at' && all.length > 1) {
      // Update one transaction a second later, so updated_at has a newest value of its own.
      await sleep(1100);
      const target = all[all.length - 1];
      await api.put(`/users/${user}/transactions/${target.guid}`, { transaction: { description: 'updated by the conformance suite' } }, { expectStatus: [200, 202, 204] });
      all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    }
    expect(all.length, 'transactions aggregated for the new member').toBeGreaterThan(0);
    const instants = [...new Set(all.map((t) => ms(String(t[field]))))].filter(Number.isFinite).sort((a, b) => a - b);
    expect(instants.length, `transactions with a ${field}`).toBeGreaterThan(0);
    const newest = instants.at(-1)!;
    // From the newest instant: only the newest transactions (none older).
    await expectFilter(api, user, all, { [from]: iso(newest) }, (t) => ms(String(t[field])) >= newest);
    // Up to just before the newest instant: everything older (none if all share it).
    await expectFilter(api, user, all, { [to]: iso(newest - 1) }, (t) => ms(String(t[field])) < newest);
    // After every transaction: none.
    await expectFilter(api, user, all, { [from]: iso(newest + 1000) }, () => false);
    // Both bounds around everything: all of them.
    await expectFilter(api, user, all, { [from]: iso(instants[0]), [to]: iso(newest + 1000) }, () => true);
  });
}

for (const filter of ['category_guid', 'top_level_category_guid'] as const) {
  test(`${filter} selects the transactions of that category`, { tag: TAGS }, async ({ api, poll }) => {
    const { user } = await connectedUser(api, poll);
    const all = await walkList<Txn>(api, `/users/${user}/transactions`, 'transactions');
    const used = [...new Set(all.map((t) => t[filter]).filter((g): g is string => typeof g === 'string'))];
    expect(used.length, `transactions with a ${filter}`).toBeGreaterThan(0);
    for (const guid of used.slice(0, 2)) await expectFilter(api, user, all, { [filter]: guid }, (t) => t[filter] === guid);
    // A default category none of the transactions carries selects none of them.
    const defaults = await walkList<{ guid: string }>(api, '/categories/default', 'categories', { perPage: 200 });
    const unused = defaults.find((c) => !all.some((t) => t.category_guid === c.guid || t.top_level_category_guid === c.guid));
    expect(unused, 'a default category no transaction of the user carries').toBeTruthy();
    await expectFilter(api, user, all, { [filter]: unused!.guid }, () => false);
  });
}

/** Every key name of a JSON value, at any depth. */
function keyNames(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keyNames(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keyNames(v, out);
    }
  }
  return out;
}

for (const include of ['repeating_transactions', 'merchants', 'classifications', 'geolocations'] as const) {
  test(`includes=${include} adds data to the transaction list`, { tag: TAGS }, async ({ api, poll }) => {
    const { user } = await connectedUser(api, poll);
    const plain = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100 }, expectStatus: 200 });
    const withIncludes = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100, includes: include }, expectStatus: 200 });
    expect(withIncludes.body.transactions.length, 'the same transactions with includes').toBe(plain.body.transactions.length);
    // Placement and shape of included objects are not shown: the response must carry
    // something the plain list lacks.
    const before = keyNames(plain.body);
    const added = [...keyNames(withIncludes.body)].filter((k) => !before.has(k));
    expect(added.length, `elements that includes=${include} added (none means the includes value was ignored)`).toBeGreaterThan(0);
  });
}

/** Every string value of an object that names a twice-a-period recurrence. */
const twiceKinds = (o: unknown) => Object.values((o ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === 'string' && v.startsWith('twice_a_'));

test('repeating transactions report a twice_a_ recurrence kind', { tag: TAGS }, async ({ api, poll, profile }) => {
  const { user } = await connectedUser(api, poll);
  // The user's repeating transactions (the list path is not shown; the platform's analogue of the insight sub-list).
  const repeating = await walkList<Record<string, unknown> & { guid: string }>(api, `/users/${user}/repeating_transactions`, 'repeating_transactions');
  const twice = repeating.filter((r) => twiceKinds(r).length > 0);
  if (twice.length === 0 && !profile.isSimulator) {
    test.skip(true, 'the test user has no repeating transaction that recurs twice a period on this target, so the twice_a_ kind cannot be observed');
  }
  // The simulator's test institution aggregates a twice-monthly payroll.
  expect(twice.map((r) => twiceKinds(r)[0]), 'repeating transactions with a twice_a_ recurrence kind').not.toEqual([]);
  // The same repeating transaction reads the same recurrence through includes=repeating_transactions.
  const viaIncludes = await api.get(`/users/${user}/transactions`, { query: { records_per_page: 100, includes: 'repeating_transactions' }, expectStatus: 200 });
  const text = JSON.stringify(viaIncludes.body);
  for (const r of twice) {
    if (text.includes(r.guid)) expect(text, `recurrence of ${r.guid} through includes`).toContain(twiceKinds(r)[0]);
  }
});
