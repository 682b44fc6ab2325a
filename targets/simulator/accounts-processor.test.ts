/**
 * Accounts, manual accounts, merge, holdings, merchants, transactions (filters, includes),
 * insights, processor codes and tokens, managed (deprecated) endpoints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { V_NEW, withSim } from './core-helpers.test-support.ts';
import { widgetPage } from './pages/widget.ts';

test('accounts carry the Account fields; manual accounts sit under one manual-institution member; merge', () =>
  withSim([], async (sim) => {
    const { user, member } = await sim.connected();
    const accounts = (await sim.req('GET', `/users/${user}/accounts`)).body.accounts;
    for (const f of [
      'guid',
      'user_guid',
      'member_guid',
      'institution_guid',
      'member_is_managed_by_user',
      'balance',
      'available_balance',
      'federal_insurance_status',
      'holdings_value',
      'balance_set_by',
      'feed_balance',
      'imported_at',
      'is_personal',
    ]) {
      assert.ok(f in accounts[0], f);
    }
    const m1 = await sim.req('POST', `/users/${user}/accounts`, { account: { name: 'Cash jar', account_type: 'cash', balance: 20 } });
    const m2 = await sim.req('POST', `/users/${user}/accounts`, { account: { name: 'Wallet', account_type: 'cash', balance: 5 } });
    assert.equal(m1.status, 200);
    assert.equal(m1.body.account.is_manual, true);
    assert.equal(m1.body.account.member_guid, m2.body.account.member_guid);
    assert.notEqual(m1.body.account.member_guid, member);
    const manualMember = (await sim.req('GET', `/users/${user}/members/${m1.body.account.member_guid}`)).body.member;
    assert.equal(manualMember.institution_code, 'manual_institution');
    assert.equal((await sim.req('POST', `/users/${user}/members/${manualMember.guid}/aggregate`)).status, 422);
    assert.equal((await sim.req('POST', `/users/${user}/accounts`, { account: { name: 'x' } })).status, 400);
    const t = await sim.req('POST', `/users/${user}/accounts/${m2.body.account.guid}/transactions`, {
      transaction: { amount: 3.5, description: 'Lunch', type: 'DEBIT', date: '2025-01-02' },
    });
    assert.equal(t.status, 200);
    assert.equal(t.body.transaction.is_manual, true);
    const merged = await sim.req('POST', `/users/${user}/accounts/merge`, { account: { account_guids: [m1.body.account.guid, m2.body.account.guid] } });
    assert.equal(merged.status, 200);
    assert.equal((await sim.req('GET', `/users/${user}/accounts/${m2.body.account.guid}`)).status, 404);
    assert.equal((await sim.req('GET', `/users/${user}/transactions/${t.body.transaction.guid}`)).body.transaction.account_guid, m1.body.account.guid);
    assert.equal((await sim.req('POST', `/users/${user}/accounts/merge`, { account: { account_guids: [m1.body.account.guid] } })).status, 400);
    assert.equal((await sim.req('DELETE', `/users/${user}/accounts/${accounts[0].guid}`)).status, 422);
    assert.equal((await sim.req('DELETE', `/users/${user}/accounts/${m1.body.account.guid}`)).status, 204);
    const holdings = (await sim.req('GET', `/users/${user}/holdings`)).body.holdings;
    assert.ok(holdings.length > 0);
    assert.equal((await sim.req('GET', `/users/${user}/holdings/${holdings[0].guid}`)).body.holding.guid, holdings[0].guid);
  }));

test('transactions: filters, includes, merchants; bad filter values answer 400', () =>
  withSim([], async (sim) => {
    const { user } = await sim.connected();
    const all = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000`)).body.transactions;
    const cat = all[0].category_guid;
    const byCat = (await sim.req('GET', `/users/${user}/transactions?category_guid=${cat}&records_per_page=1000`)).body.transactions;
    assert.ok(byCat.length > 0 && byCat.length < all.length);
    assert.ok(byCat.every((t: any) => t.category_guid === cat));
    const top = all[0].top_level_category_guid;
    assert.ok(
      (await sim.req('GET', `/users/${user}/transactions?top_level_category_guid=${top}`)).body.transactions.every(
        (t: any) => t.top_level_category_guid === top,
      ),
    );
    sim.app.sim.clock.advance(2 * 86_400_000);
    const cutoff = sim.app.sim.clock.now().toISOString();
    sim.app.sim.clock.advance(4 * 3_600_000);
    const { user: u2 } = await sim.connected();
    void u2;
    const member = (await sim.req('GET', `/users/${user}/members`)).body.members[0].guid;
    await sim.req('POST', `/users/${user}/members/${member}/aggregate`);
    await sim.settle(user, member);
    const recent = (await sim.req('GET', `/users/${user}/transactions?from_created_at=${encodeURIComponent(cutoff)}`)).body.transactions;
    assert.ok(recent.length > 0 && recent.length < all.length);
    const older = (await sim.req('GET', `/users/${user}/transactions?to_created_at=${encodeURIComponent(cutoff)}&records_per_page=1000`)).body.transactions;
    assert.equal(older.length, all.length);
    assert.equal((await sim.req('GET', `/users/${user}/transactions?from_updated_at=${encodeURIComponent(cutoff)}`)).body.transactions.length, recent.length);
    const withIncludes = (
      await sim.req('GET', `/users/${user}/transactions?includes=repeating_transactions,merchants,classifications,geolocations&records_per_page=1000`)
    ).body.transactions;
    const t = withIncludes.find((x: any) => x.repeating_transaction);
    assert.ok(t, 'a transaction with a repeating transaction');
    assert.ok(['twice_a_month', 'monthly'].includes(t.repeating_transaction.recurrence_type));
    assert.ok(withIncludes.some((x: any) => x.repeating_transaction?.recurrence_type.startsWith('twice_a_')));
    assert.deepEqual(Object.keys(t.merchant).sort(), ['guid', 'logo_url', 'name', 'website_url']);
    assert.ok(t.geolocation.country && t.geolocation.city && t.geolocation.postal_code);
    assert.equal(typeof t.classification.name, 'string');
    assert.ok(!('merchant' in all[0]));
    const merchant = (await sim.req('GET', `/merchants/${all[0].merchant_guid}`)).body.merchant;
    assert.equal(merchant.guid, all[0].merchant_guid);
    assert.equal((await sim.req('GET', `/merchant_locations/${all[0].merchant_location_guid}`)).status, 200);
    for (const q of ['includes=nope', 'from_created_at=yesterday', 'to_updated_at=2025-13-01', 'from_date=2025-02-30']) {
      assert.equal((await sim.req('GET', `/users/${user}/transactions?${q}`)).status, 400, q);
    }
    assert.equal((await sim.req('GET', `/users/${user}/transactions?use_case=MONEY_MOVEMENT`)).body.transactions.length, 0);
    const put = await sim.req('PUT', `/users/${user}/transactions/${all[0].guid}`, { transaction: { description: 'Renamed' } });
    assert.equal(put.body.transaction.description, 'Renamed');
    assert.equal((await sim.req('PUT', `/users/${user}/transactions/${all[0].guid}`, { transaction: { category_guid: 'CAT-nope' } })).status, 400);
  }));

test('insights: list, localization_payload opt-in, cta_clicked_at update, repeating transactions', () =>
  withSim([], async (sim) => {
    const { user } = await sim.connected();
    const list = (await sim.req('GET', `/users/${user}/insights`)).body.insights;
    assert.equal(list.length, 3);
    assert.ok(list.every((i: any) => !('localization_payload' in i)));
    const withLoc = (await sim.req('GET', `/users/${user}/insights?includes=localization_payload`)).body.insights;
    assert.deepEqual(withLoc.map((i: any) => i.localization_payload.template).sort(), [
      'BillAmountNotStandard',
      'MonthlySubscriptionAggregateV2',
      'SubscriptionPriceIncrease',
    ]);
    const g = list.find((i: any) => i.has_associated_repeating_transactions).guid;
    const put = await sim.req('PUT', `/users/${user}/insights/${g}`, { insight: { cta_clicked_at: '2025-03-01T12:00:00+00:00' } });
    assert.equal(put.status, 200);
    assert.equal(put.body.insight.cta_clicked_at, '2025-03-01T12:00:00Z');
    assert.equal((await sim.req('GET', `/users/${user}/insights/${g}`)).body.insight.cta_clicked_at, '2025-03-01T12:00:00Z');
    assert.equal((await sim.req('PUT', `/users/${user}/insights/${g}`, { insight: { cta_clicked_at: 'tomorrow' } })).status, 400);
    const rep = (await sim.req('GET', `/users/${user}/insights/${g}/repeating_transactions`)).body.repeating_transactions;
    assert.ok(rep.length > 0);
    assert.equal((await sim.req('GET', `/users/${user}/insights/BET-nope`)).status, 404);
  }));

test('processor: scope parsing, verified member required, token (60 days), payment_account with Bearer', () =>
  withSim([], async (sim) => {
    const { user, member } = await sim.connected();
    const account = (await sim.req('GET', `/users/${user}/members/${member}/accounts`)).body.accounts[0].guid;
    const scope = `user-guid:${user} member-guid:${member} account-guid:${account} read-protected`;
    const unverified = await sim.req('POST', '/authorization_code', { authorization_code: { scope } });
    assert.equal(unverified.status, 422);
    assert.match(unverified.body.error.message, /verif/);
    for (const bad of ['', 'user-guid:USR-nope', `member-guid:${member}`, `user-guid:${user} colour:blue`]) {
      const r = await sim.req('POST', '/authorization_code', { authorization_code: { scope: bad } });
      assert.ok(r.status >= 400 && r.status < 500, bad);
    }
    assert.equal((await sim.req('POST', '/authorization_code', { scope })).status, 400);
    await sim.req('POST', `/users/${user}/members/${member}/verify`);
    await sim.settle(user, member);
    const code = await sim.req('POST', '/authorization_code', { authorization_code: { scope } });
    assert.equal(code.status, 200);
    const tok = await sim.req('POST', '/token', { grant_type: 'authorization_code', code: code.body.authorization_code.code });
    assert.equal(tok.status, 200);
    assert.equal(tok.body.expires_in, 60 * 86_400);
    assert.equal((await sim.req('POST', '/token', { code: code.body.authorization_code.code })).status, 400);
    const pa = await sim.app.inject({ method: 'GET', url: '/payment_account', headers: { authorization: `Bearer ${tok.body.access_token}` } });
    assert.equal(pa.statusCode, 200);
    assert.deepEqual(
      [pa.json().payment_account.user_guid, pa.json().payment_account.member_guid, pa.json().payment_account.account_guid],
      [user, member, account],
    );
    assert.equal((await sim.app.inject({ method: 'GET', url: '/payment_account', headers: { authorization: 'Bearer nope' } })).statusCode, 401);
    sim.app.sim.clock.advance(61 * 86_400_000);
    assert.equal(
      (await sim.app.inject({ method: 'GET', url: '/payment_account', headers: { authorization: `Bearer ${tok.body.access_token}` } })).statusCode,
      401,
    );
    // Deprecated /payment_processor_token answers with deprecation headers; the sunset code endpoint answers 410 on v20250224.
    const code2 = await sim.req('POST', '/payment_processor_authorization_code', {
      payment_processor_authorization_code: { user_guid: user, member_guid: member, account_guid: account },
    });
    assert.equal(code2.status, 200);
    const dep = await sim.req('POST', '/payment_processor_token', { code: code2.body.payment_processor_authorization_code.authorization_code });
    assert.equal(dep.status, 200);
    assert.ok(dep.headers.deprecation);
    assert.equal(
      (
        await sim.req(
          'POST',
          '/payment_processor_authorization_code',
          { payment_processor_authorization_code: { user_guid: user } },
          { 'accept-version': V_NEW },
        )
      ).status,
      410,
    );
  }));

test('managed members, accounts and transactions work and carry deprecation headers', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    const inst = await sim.req('GET', '/managed_institutions', undefined, { 'accept-version': V_NEW });
    assert.equal(inst.status, 200);
    assert.ok(inst.headers.deprecation);
    const m = await sim.req('POST', `/users/${user}/managed_members`, { member: { institution_code: 'svcbank', name: 'Held' } });
    assert.equal(m.status, 200);
    assert.equal(m.body.member.connection_status, 'CONNECTED');
    const base = `/users/${user}/managed_members/${m.body.member.guid}`;
    const a = await sim.req('POST', `${base}/accounts`, { account: { name: 'Held checking', account_type: 'CHECKING', balance: 100 } });
    assert.equal(a.status, 200);
    const t = await sim.req('POST', `${base}/accounts/${a.body.account.guid}/transactions`, {
      transaction: { amount: 10, description: 'Held txn', type: 'CREDIT', date: '2025-01-01' },
    });
    assert.equal(t.status, 200);
    assert.equal((await sim.req('GET', `${base}/accounts/${a.body.account.guid}/transactions`)).body.transactions.length, 1);
    assert.equal(
      (await sim.req('PUT', `${base}/accounts/${a.body.account.guid}/transactions/${t.body.transaction.guid}`, { transaction: { amount: 11 } })).body
        .transaction.amount,
      11,
    );
    assert.equal((await sim.req('DELETE', `${base}/accounts/${a.body.account.guid}/transactions/${t.body.transaction.guid}`)).status, 204);
    assert.equal((await sim.req('DELETE', base)).status, 204);
    assert.equal((await sim.req('GET', base)).status, 404);
  }));

test('the widget page script is valid JavaScript', () => {
  const html = widgetPage({
    token: 't',
    userGuid: 'USR-x',
    sessionGuid: 'SES-x',
    widgetType: 'connect_widget',
    mobile: false,
    scheme: 'svc',
    opensOauthWindow: true,
    payload: 'p</script>',
    institutionCode: null,
    oauthInstitutionCode: 'svc_bank_oauth',
    credentialInstitutionCode: 'svcbank',
    disableSearch: false,
  });
  const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
  assert.doesNotThrow(() => new Function(script));
  assert.ok(!script.includes('p</script>'));
});
