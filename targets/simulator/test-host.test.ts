import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, TEST_HOST_HEADERS, type Sim, withFault } from './testing.test-support.ts';
import { LEGACY_MEDIA_TYPE } from './routes/test-host.ts';

const H = { ...TEST_HOST_HEADERS, accept: LEGACY_MEDIA_TYPE };
const M = '/users/test_svc/members/test_svc_member';

/** Every path the specification lists (Endpoints, "Earlier-generation test paths"). */
const PATHS: Array<[string, string, string]> = [
  ['GET', '/users/test_svc/accounts', 'accounts'],
  ['GET', '/users/test_svc/accounts/test_svc_account', 'account'],
  ['GET', `${M}/accounts`, 'accounts'],
  ['GET', '/users/test_svc/holdings', 'holdings'],
  ['GET', '/users/test_svc/accounts/test_svc_account/holdings', 'holdings'],
  ['GET', '/users/test_svc/holdings/test_svc_holding', 'holding'],
  ['GET', '/test_institutions', 'institutions'],
  ['GET', '/institutions/test_svcbank', 'institution'],
  ['GET', '/institutions/test_svcbank/credentials', 'credentials'],
  ['POST', '/users/test_svc/members', 'member'],
  ['GET', M, 'member'],
  ['PUT', M, 'member'],
  ['DELETE', M, ''],
  ['GET', '/users/test_svc/members/CONNECTED', 'member'],
  ['PUT', '/users/test_svc/members/DENIED', 'member'],
  ['POST', '/users/test_svc/members/HALTED/aggregate', 'member'],
  ['GET', '/users/test_svc/members/CHALLENGED/status', 'member'],
  ['GET', '/users/test_svc/members/text/challenges', 'challenges'],
  ['PUT', `${M}/resume`, 'member'],
  ['GET', `${M}/credentials`, 'credentials'],
  ['GET', `${M}/transactions`, 'transactions'],
  ['POST', `${M}/identify`, 'member'],
  ['GET', `${M}/account_owners`, 'account_owners'],
  ['POST', `${M}/extend_history`, 'member'],
  ['POST', `${M}/verify`, 'member'],
  ['GET', `${M}/account_numbers`, 'account_numbers'],
  ['GET', '/merchants/test_svc_merchant', 'merchant'],
  ['GET', '/users/test_svc/transactions', 'transactions'],
  ['GET', '/users/test_svc/accounts/test_svc_account/transactions', 'transactions'],
  ['GET', '/users/test_svc/transactions/test_svc_transaction', 'transaction'],
  ['POST', '/test_transactions/cleanse_and_categorize', 'transactions'],
  ['POST', '/test_users', 'user'],
  ['GET', '/test_users', 'users'],
  ['GET', '/users/test_svc', 'user'],
  ['PUT', '/users/test_svc', 'user'],
  ['DELETE', '/users/test_svc', ''],
  ['POST', '/users/test_svc/connect_widget_url', 'user'],
];

describe('earlier-generation test host (clean simulator)', () => {
  let sim: Sim;
  before(async () => (sim = await startSim()));
  after(() => sim.close());

  for (const [method, path, key] of PATHS) {
    test(`${method} ${path}: 200 in the legacy media type`, async () => {
      const r = await sim.raw({ method: method as 'GET', url: `/test-host${path}`, headers: H });
      assert.equal(r.status, 200, r.text);
      assert.ok(String(r.headers['content-type']).startsWith(LEGACY_MEDIA_TYPE));
      if (key) assert.ok(r.json[key] !== undefined, `body has ${key}`);
    });
  }

  test('members in a given connection status', async () => {
    for (const status of ['PENDING', 'CONNECTED', 'CHALLENGED', 'HALTED', 'DENIED']) {
      const r = await sim.raw({ method: 'GET', url: `/test-host/users/test_svc/members/${status}`, headers: H });
      assert.equal(r.json.member.connection_status, status);
      const s = await sim.raw({ method: 'GET', url: `/test-host/users/test_svc/members/${status.toLowerCase()}/status`, headers: H });
      assert.equal(s.json.member.connection_status, status);
      assert.equal(Array.isArray(s.json.member.challenges), status === 'CHALLENGED');
    }
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: '/test-host/users/test_svc/members/SLEEPING', headers: H }), 404));
  });

  test('challenge types text, options, image, image_options', async () => {
    for (const type of ['text', 'options', 'image', 'image_options']) {
      const r = await sim.raw({ method: 'GET', url: `/test-host/users/test_svc/members/${type}/challenges`, headers: H });
      assert.equal(r.status, 200);
      assert.equal(r.json.challenges[0].type, type.toUpperCase());
    }
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: '/test-host/users/test_svc/members/captcha/challenges', headers: H }), 404));
  });

  test('test institutions svcbank and svc_bank_oauth', async () => {
    const r = await sim.raw({ method: 'GET', url: '/test-host/test_institutions', headers: H });
    assert.deepEqual(
      r.json.institutions.map((i: { code: string }) => i.code),
      ['svcbank', 'svc_bank_oauth'],
    );
    assert.equal((await sim.raw({ method: 'GET', url: '/test-host/institutions/svc_bank_oauth', headers: H })).json.institution.supports_oauth, true);
  });

  test('401 without or with wrong SVC-API-Key / SVC-Client-ID', async () => {
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: '/test-host/users/test_svc' }), 401));
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: '/test-host/users/test_svc', headers: { ...H, 'svc-api-key': 'wrong' } }), 401));
    assert.ok(
      isErrorBody(await sim.raw({ method: 'GET', url: '/test-host/users/test_svc', headers: { 'svc-api-key': TEST_HOST_HEADERS['svc-api-key'] } }), 401),
    );
  });
});

describe('test host faults change the behaviour', () => {
  test('test-host-headers-not-enforced', () =>
    withFault('test-host-headers-not-enforced', async (sim) => {
      assert.equal((await sim.raw({ method: 'GET', url: '/test-host/users/test_svc' })).status, 200);
    }));
  // A variation, not a fault: the specification states the legacy media type for the
  // request's Accept header only, so a plain-JSON response must not raise an alarm.
  test('variation test-host-plain-json answers application/json', async () => {
    const sim = await startSim({ variations: ['test-host-plain-json'] });
    try {
      assert.ok(
        String((await sim.raw({ method: 'GET', url: '/test-host/users/test_svc', headers: H })).headers['content-type']).startsWith('application/json'),
      );
    } finally {
      await sim.close();
    }
  });
  test('test-host-member-status-ignored', () =>
    withFault('test-host-member-status-ignored', async (sim) => {
      assert.equal((await sim.raw({ method: 'GET', url: '/test-host/users/test_svc/members/DENIED', headers: H })).json.member.connection_status, 'CONNECTED');
    }));
});
