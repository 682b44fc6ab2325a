/**
 * contracts/stated-platform.ts: stated properties of platform records one response shows.
 * Each fires on the record that lacks what the quoted sentence states, passes null values
 * and records the sentence does not describe, and never judges another API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, type Exchange } from '../index.ts';

const contract = loadContract();
const U = 'USR-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';
const M = 'MBR-2b3c4d5e-6f70-4a8b-9cad-1e2f3a4b5c6d';

function ex(url: string, body: unknown, o: { method?: string; status?: number; api?: Exchange['api']; version?: string } = {}): Exchange {
  return {
    api: o.api ?? 'platform',
    version: o.version ?? 'v20250224',
    request: { method: o.method ?? 'GET', url, headers: {} },
    response: { status: o.status ?? 200, headers: { 'content-type': 'application/json' }, body },
  };
}
const found = (e: Exchange) => contract.check(e).filter((f) => f.check === 'stated_platform_fields');

const account = { guid: 'ACT-1', balance: null, balance_set_by: 'FEED', feed_balance: 3, is_manual: false };

test('accounts: balance, a *_set_by and a feed_* field are named (inferred when absent, null allowed); a manual account shows no feed (stated)', () => {
  assert.deepEqual(found(ex(`/users/${U}/accounts`, { accounts: [account] })), []);
  const { balance: _b, ...noBalance } = account;
  const [f] = found(ex(`/users/${U}/members/${M}/accounts`, { accounts: [account, noBalance] }));
  // "Fields named: ..." is a list of names, not a presence promise (real-service-notes, Nullability).
  assert.equal(f.severity, 'warning');
  assert.equal(f.tier, 'inferred');
  assert.match(f.message, /without balance/);
  assert.equal(
    contract.check(ex(`/users/${U}/members/${M}/accounts`, { accounts: [noBalance] }), { strict: true }).find((x) => x.check === 'stated_platform_fields')
      ?.severity,
    'error',
  );
  // The *_set_by and feed_* variants are named on v20111101 only: the field list has no
  // version, and the vendor's v20250224 accounts carry neither (real-service-notes).
  const plain = { account: { guid: 'ACT-1', balance: 1 } };
  const variants = found(ex(`/users/${U}/accounts/ACT-1`, plain, { version: 'v20111101' }));
  assert.deepEqual(
    variants.map((x) => x.tier),
    ['inferred', 'inferred'],
  );
  assert.deepEqual(found(ex(`/users/${U}/accounts/ACT-1`, plain)), [], 'v20250224: presence of the variants is not stated');
  assert.deepEqual(found(ex(`/users/${U}/accounts/ACT-1`, plain, { version: 'v20260929' })), [], 'v20260929: presence of the variants is not stated');
  const manual = { ...account, is_manual: true };
  assert.match(found(ex(`/users/${U}/accounts`, { account: manual }, { method: 'POST' }))[0].message, /manual account/);
  assert.deepEqual(found(ex(`/users/${U}/accounts`, { account: { ...manual, feed_balance: null, balance_set_by: 'USER' } }, { method: 'POST' })), []);
  // data exchange slim accounts are not judged
  assert.deepEqual(found(ex(`/data_exchange/users/${U}/accounts`, { accounts: [{ guid: 'ACT-1' }] })), []);
});

test('transactions: merchant guids; includes returns its data with the stated fields', () => {
  const t = { guid: 'TRN-1', merchant_guid: 'MCH-1', merchant_location_guid: null };
  assert.deepEqual(found(ex(`/users/${U}/transactions`, { transactions: [t] })), []);
  assert.match(found(ex(`/users/${U}/transactions`, { transactions: [{ guid: 'TRN-1' }] }))[0].message, /merchant_guid/);
  assert.match(found(ex(`/users/${U}/transactions?includes=merchants`, { transactions: [t] }))[0].message, /includes=merchants/);
  assert.deepEqual(
    found(ex(`/users/${U}/transactions?includes=merchants`, { transactions: [{ ...t, merchant: { name: 'a', logo_url: null, website_url: null } }] })),
    [],
  );
  assert.match(
    found(ex(`/users/${U}/transactions?includes=merchants`, { transactions: [{ ...t, merchant: { name: 'a', logo_url: null } }] }))[0].message,
    /website_url/,
  );
  assert.match(
    found(ex(`/users/${U}/transactions?includes=geolocations`, { transactions: [{ ...t, geolocation: { country: 'US', city: 'x' } }] }))[0].message,
    /postal_code/,
  );
  // no transaction with a merchant: nothing to return
  assert.deepEqual(found(ex(`/users/${U}/transactions?includes=merchants`, { transactions: [{ ...t, merchant_guid: null }] })), []);
});

test('insights, goals, budgets, credentials, default categories', () => {
  const i = {
    guid: 'BET-1',
    template: 'BillAmountNotStandard',
    has_associated_repeating_transactions: false,
    cta_clicked_at: null,
    micro_call_to_action: null,
  };
  assert.deepEqual(found(ex(`/users/${U}/insights`, { insights: [i] })), []);
  assert.match(found(ex(`/users/${U}/insights/BET-1?includes=localization_payload`, { insight: i }))[0].message, /localization_payload/);
  assert.deepEqual(found(ex(`/users/${U}/insights/BET-1?includes=localization_payload`, { insight: { ...i, template: 'Welcome' } })), []);
  assert.match(found(ex(`/users/${U}/goals`, { goals: [{ guid: 'G', meta_type_name: 'X' }] }))[0].message, /track_type_name/);
  assert.match(found(ex(`/users/${U}/budgets`, { budget: { guid: 'B' } }, { method: 'POST' }))[0].message, /category_guid/);
  assert.match(found(ex(`/users/${U}/members/${M}/credentials`, { credentials: [{ type: 'LOGIN' }] }))[0].message, /without guid/);
  assert.match(found(ex('/categories/default', { categories: [], pagination: { total_entries: 118 } }))[0].message, /119/);
  assert.deepEqual(found(ex('/categories/default', { categories: [], pagination: { total_entries: 119 } })), []);
  assert.deepEqual(found(ex('/categories/default', { categories: [] })), []);
  assert.deepEqual(found(ex(`/users/${U}/goals`, { goals: [] }, { status: 404 })), []);
});
