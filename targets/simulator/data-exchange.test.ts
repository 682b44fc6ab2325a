import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, type Sim } from './testing.test-support.ts';
import { DATA_EXCHANGE_SEED as S } from './data/data-exchange.ts';

const tokenPath = (grantee: string, grant: string) => `/data_exchange/grantee/${grantee}/grants/${grant}/token`;

async function tokenFor(sim: Sim, grantee: string = S.granteeClientGuid, grant: string = S.grantGuid): Promise<string> {
  const r = await sim.post(tokenPath(grantee, grant));
  assert.ok(r.status === 201 || r.status === 200, r.text);
  return r.json.token;
}

function daysBefore(today: string, iso: string): number {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${iso}T00:00:00Z`)) / 86_400_000);
}

describe('data exchange (clean simulator)', () => {
  let sim: Sim;
  let held: Record<string, string>;
  const today = new Date().toISOString().slice(0, 10);
  before(async () => {
    sim = await startSim({ settings: { now: `${today}T12:00:00Z` } });
    held = { 'svc-3dx-token': await tokenFor(sim) };
  });
  after(() => sim.close());

  test('token endpoint answers 201 with a token; unknown grant or grantee not on the grant is 404', async () => {
    const r = await sim.post(tokenPath(S.granteeClientGuid, S.grantGuid));
    assert.equal(r.status, 201);
    assert.equal(typeof r.json.token, 'string');
    assert.ok(isErrorBody(await sim.post(tokenPath(S.granteeClientGuid, 'GNT-nope')), 404));
    assert.ok(isErrorBody(await sim.post(tokenPath(S.aggregatedGranteeClientGuid, S.grantGuid)), 404));
  });

  test('token-protected reads: 401 without the token, 403 with a wrong one, 200 with it', async () => {
    assert.ok(isErrorBody(await sim.get('/data_exchange/users'), 401));
    assert.ok(isErrorBody(await sim.get('/data_exchange/users', { 'svc-3dx-token': 'not-a-token' }), 403));
    assert.equal((await sim.get('/data_exchange/users', held)).status, 200);
    // Basic authentication still applies.
    const r = await sim.raw({ method: 'GET', url: '/data_exchange/users', headers: held });
    assert.ok(isErrorBody(r, 401));
  });

  test('grant listing needs only Basic authentication, by issuer and by grantee', async () => {
    const byIssuer = await sim.get(`/data_exchange/issuer/${S.issuerClientGuid}/grants`);
    assert.equal(byIssuer.status, 200);
    assert.equal(byIssuer.json.grants.length, 3);
    const scopes = byIssuer.json.grants.map((g: { data_scope: string }) => g.data_scope).sort();
    assert.deepEqual(scopes, ['AGGREGATED', 'ALL', 'HELD']);
    const byGrantee = (await sim.get(`/data_exchange/grantee/${S.secondGranteeClientGuid}/grants`)).json.grants;
    assert.deepEqual(
      byGrantee.map((g: { guid: string }) => g.guid),
      [S.grantGuid],
    );
    assert.equal(byGrantee[0].issuer_guid, S.issuerClientGuid);
  });

  test('grant query needs every grantee of the grant', async () => {
    const both = await sim.get(`/data_exchange/grant?issuer_guid=${S.issuerClientGuid}&grantee_guids=${S.granteeClientGuid},${S.secondGranteeClientGuid}`);
    assert.equal(both.status, 200);
    assert.equal(both.json.grant.guid, S.grantGuid);
    const repeated = await sim.get(
      `/data_exchange/grant?issuer_guid=${S.issuerClientGuid}&grantee_guid=${S.granteeClientGuid}&grantee_guid=${S.secondGranteeClientGuid}`,
    );
    assert.equal(repeated.json.grant.guid, S.grantGuid);
    assert.ok(isErrorBody(await sim.get(`/data_exchange/grant?issuer_guid=${S.issuerClientGuid}&grantee_guids=${S.granteeClientGuid}`), 404));
    assert.ok(isErrorBody(await sim.get(`/data_exchange/grant?grantee_guids=${S.granteeClientGuid}`), 400));
  });

  test('users: paged list of at least 2,500 walks every user once; read by guid or partner id', async () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const r = (await sim.get(`/data_exchange/users?records_per_page=1000&page=${page}`, held)).json;
      for (const u of r.users) seen.add(u.guid);
    }
    assert.ok(seen.size >= 2500);
    assert.equal((await sim.get('/data_exchange/users?records_per_page=5000', held)).json.users.length, 1000);
    const byGuid = (await sim.get(`/data_exchange/users/${S.userGuid}`, held)).json.user;
    const byId = (await sim.get(`/data_exchange/users/${S.userId}`, held)).json.user;
    assert.deepEqual(byGuid, byId);
    assert.ok(isErrorBody(await sim.get('/data_exchange/users/USR-nope', held), 404));
  });

  test('accounts: slim list, read by guid, read under a member by guid or partner id', async () => {
    const list = (await sim.get(`/data_exchange/users/${S.userGuid}/accounts`, held)).json.accounts;
    assert.ok(list.length >= 3);
    const acct = (await sim.get(`/data_exchange/users/${S.userGuid}/accounts/${S.checkingAccountGuid}`, held)).json.account;
    assert.equal(acct.guid, S.checkingAccountGuid);
    const viaIds = await sim.get(`/data_exchange/users/${S.userId}/members/${S.heldMemberId}/accounts/${S.checkingAccountId}`, held);
    assert.equal(viaIds.status, 200);
    assert.deepEqual(viaIds.json.account, acct);
    const viaGuids = await sim.get(`/data_exchange/users/${S.userGuid}/members/${S.heldMemberGuid}/accounts/${S.checkingAccountGuid}`, held);
    assert.deepEqual(viaGuids.json.account, acct);
  });

  test('transactions: default window is the 90 days before the request day; from/to override it', async () => {
    const r = (await sim.get(`/data_exchange/users/${S.userGuid}/transactions?records_per_page=1000`, held)).json;
    assert.ok(r.pagination.total_entries >= 2500);
    for (const t of r.transactions) assert.ok(daysBefore(today, t.date) <= 90 && daysBefore(today, t.date) >= 0, t.date);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 400 * 86_400_000).toISOString().slice(0, 10);
    const wide = (await sim.get(`/data_exchange/users/${S.userGuid}/transactions?records_per_page=1000&from_date=${from}&to_date=${today}`, held)).json;
    assert.ok(wide.pagination.total_entries > r.pagination.total_entries);
    assert.ok(isErrorBody(await sim.get(`/data_exchange/users/${S.userGuid}/transactions?from_date=yesterday`, held), 400));
    assert.ok(isErrorBody(await sim.get(`/data_exchange/users/${S.userGuid}/transactions?from_date=${today}&to_date=${from}`, held), 400));
  });

  test('transactions: a page walk returns every transaction once, never manual, scope matching the grant', async () => {
    const seen = new Set<string>();
    let total = 0;
    for (let page = 1; ; page++) {
      const r = (await sim.get(`/data_exchange/users/${S.userGuid}/transactions?records_per_page=500&page=${page}`, held)).json;
      total = r.pagination.total_entries;
      for (const t of r.transactions) {
        assert.ok(!seen.has(t.guid));
        seen.add(t.guid);
        assert.equal(t.is_manual, false);
        assert.equal(t.data_scope, 'HELD');
      }
      if (page >= r.pagination.total_pages) break;
    }
    assert.equal(seen.size, total);
  });

  test('per-account and per-member transaction lists', async () => {
    const acct = (await sim.get(`/data_exchange/users/${S.userGuid}/accounts/${S.checkingAccountGuid}/transactions?records_per_page=10`, held)).json;
    for (const t of acct.transactions) assert.equal(t.account_guid, S.checkingAccountGuid);
    const viaMember = (
      await sim.get(`/data_exchange/users/${S.userId}/members/${S.heldMemberId}/accounts/${S.checkingAccountId}/transactions?records_per_page=10`, held)
    ).json;
    assert.deepEqual(viaMember.pagination, acct.pagination);
  });

  test('transaction reads: 404 for manual and for a data_scope that does not match the grant', async () => {
    const u = `/data_exchange/users/${S.userGuid}`;
    assert.equal((await sim.get(`${u}/transactions/${S.oldTransactionGuid}`, held)).status, 200);
    assert.ok(isErrorBody(await sim.get(`${u}/transactions/${S.manualTransactionGuid}`, held), 404));
    assert.ok(isErrorBody(await sim.get(`${u}/transactions/${S.scopeMismatchTransactionGuid}`, held), 404));
    // The AGGREGATED grant reads it; the ALL grant reads it too, never the manual one.
    const agg = { 'svc-3dx-token': await tokenFor(sim, S.aggregatedGranteeClientGuid, S.aggregatedGrantGuid) };
    assert.equal((await sim.get(`${u}/transactions/${S.scopeMismatchTransactionGuid}`, agg)).status, 200);
    assert.ok(isErrorBody(await sim.get(`${u}/transactions/${S.oldTransactionGuid}`, agg), 404));
    const all = { 'svc-3dx-token': await tokenFor(sim, S.allGranteeClientGuid, S.allGrantGuid) };
    assert.equal((await sim.get(`${u}/transactions/${S.scopeMismatchTransactionGuid}`, all)).status, 200);
    assert.ok(isErrorBody(await sim.get(`${u}/transactions/${S.manualTransactionGuid}`, all), 404));
    const t = (await sim.get(`${u}/transactions/${S.oldTransactionGuid}`, held)).json.transaction;
    const viaMember = await sim.get(`/data_exchange/users/${S.userId}/members/${S.heldMemberId}/accounts/${S.checkingAccountId}/transactions/${t.id}`, held);
    assert.equal(viaMember.status, 200);
    assert.equal(viaMember.json.transaction.guid, S.oldTransactionGuid);
  });
});

describe('data exchange faults change the behaviour', () => {
  const withFault = async (fault: string, fn: (sim: Sim, held: Record<string, string>) => Promise<void>) => {
    const sim = await startSim({ faults: [fault] });
    try {
      await fn(sim, { 'svc-3dx-token': await tokenFor(sim) });
    } finally {
      await sim.close();
    }
  };
  const u = `/data_exchange/users/${S.userGuid}`;
  test('threedx-token-not-required', () =>
    withFault('threedx-token-not-required', async (sim) => {
      assert.equal((await sim.get('/data_exchange/users')).status, 200);
      assert.equal((await sim.get('/data_exchange/users', { 'svc-3dx-token': 'wrong' })).status, 200);
    }));
  test('threedx-manual-transaction-served', () =>
    withFault('threedx-manual-transaction-served', async (sim, held) => {
      assert.equal((await sim.get(`${u}/transactions/${S.manualTransactionGuid}`, held)).status, 200);
    }));
  test('threedx-scope-mismatch-served', () =>
    withFault('threedx-scope-mismatch-served', async (sim, held) => {
      assert.equal((await sim.get(`${u}/transactions/${S.scopeMismatchTransactionGuid}`, held)).status, 200);
    }));
  test('threedx-window-not-90-days', () =>
    withFault('threedx-window-not-90-days', async (sim, held) => {
      const today = new Date().toISOString().slice(0, 10);
      const r = (await sim.get(`${u}/transactions?records_per_page=1000&page=3`, held)).json;
      assert.ok(r.transactions.some((t: { date: string }) => daysBefore(today, t.date) > 90));
    }));
  test('threedx-grant-query-partial-grantees', () =>
    withFault('threedx-grant-query-partial-grantees', async (sim) => {
      assert.equal((await sim.get(`/data_exchange/grant?issuer_guid=${S.issuerClientGuid}&grantee_guids=${S.granteeClientGuid}`)).status, 200);
    }));
  test('threedx-partner-id-not-accepted', () =>
    withFault('threedx-partner-id-not-accepted', async (sim, held) => {
      assert.equal((await sim.get(`/data_exchange/users/${S.userGuid}/members/${S.heldMemberId}/accounts/${S.checkingAccountId}`, held)).status, 404);
    }));
  const today = () => new Date().toISOString().slice(0, 10);
  test('threedx-window-includes-future', () =>
    withFault('threedx-window-includes-future', async (sim, held) => {
      const r = (await sim.get(`${u}/transactions?records_per_page=1000`, held)).json;
      assert.ok(r.transactions.some((t: { date: string }) => t.date > today()));
    }));
  test('threedx-window-too-narrow', () =>
    withFault('threedx-window-too-narrow', async (sim, held) => {
      const r = (await sim.get(`${u}/transactions?records_per_page=1000&page=3`, held)).json;
      assert.ok(r.transactions.every((t: { date: string }) => daysBefore(today(), t.date) <= 30));
      assert.ok(
        !(await sim.get(`${u}/accounts/${S.checkingAccountGuid}/transactions?records_per_page=1000&page=3`, held)).json.transactions.some(
          (t: { guid: string }) => t.guid === S.windowTransactionGuid,
        ),
      );
    }));
  test('threedx-account-transactions-unfiltered', () =>
    withFault('threedx-account-transactions-unfiltered', async (sim, held) => {
      const r = (await sim.get(`${u}/accounts/${S.checkingAccountGuid}/transactions?records_per_page=1000`, held)).json;
      assert.ok(r.transactions.some((t: { account_guid: string }) => t.account_guid !== S.checkingAccountGuid));
    }));
  test('threedx-member-path-scope-ignored', () =>
    withFault('threedx-member-path-scope-ignored', async (sim, held) => {
      assert.equal(
        (await sim.get(`${u}/members/${S.manualMemberGuid}/accounts/${S.manualAccountGuid}/transactions/${S.manualTransactionGuid}`, held)).status,
        200,
      );
      assert.equal((await sim.get(`${u}/transactions/${S.manualTransactionGuid}`, held)).status, 404);
    }));
  test('threedx-user-read-ignores-identifier', () =>
    withFault('threedx-user-read-ignores-identifier', async (sim, held) => {
      assert.notEqual((await sim.get(u, held)).json.user.guid, S.userGuid);
    }));
  test('threedx-account-read-ignores-identifier', () =>
    withFault('threedx-account-read-ignores-identifier', async (sim, held) => {
      const accounts = (await sim.get(`${u}/accounts`, held)).json.accounts as Array<{ guid: string }>;
      assert.notEqual((await sim.get(`${u}/accounts/${accounts[1].guid}`, held)).json.account.guid, accounts[1].guid);
    }));
  test('threedx-grants-need-token', () =>
    withFault('threedx-grants-need-token', async (sim) => {
      assert.equal((await sim.get(`/data_exchange/issuer/${S.issuerClientGuid}/grants`)).status, 401);
    }));
  test('threedx-grant-without-grantees', () =>
    withFault('threedx-grant-without-grantees', async (sim) => {
      assert.equal((await sim.get(`/data_exchange/issuer/${S.issuerClientGuid}/grants`)).json.grants[0].grantee_guids, undefined);
    }));
  test('page-of-1001-records applies to data exchange lists', () =>
    withFault('page-of-1001-records', async (sim, held) => {
      assert.equal((await sim.get('/data_exchange/users?records_per_page=2000', held)).json.users.length, 1001);
    }));
});
