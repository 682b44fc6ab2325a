/**
 * Faults and variations added to close the scenario coverage gaps (DESIGN.md, "Proving the suite": every check proven by a fault it catches):
 * each fault changes the behaviour it names (clean and faulty results differ, the clean
 * one is the specified one); each variation changes the response in its Versioning way
 * and nothing else; the scoped 24-hour refresh control judges one user only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSimulator } from './app.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';
import { catalogEntry } from './catalog.ts';
import { Sim, AGG_MS, sleep } from './core-helpers.test-support.ts';
import { LONGER_MESSAGE_SUFFIX } from './variations.ts';

type Probe = (sim: Sim) => Promise<unknown>;

async function processorToken(sim: Sim) {
  const { user, member } = await sim.connected();
  await sim.req('POST', `/users/${user}/members/${member}/verify`);
  await sim.settle(user, member);
  const code = (await sim.req('POST', '/authorization_code', { authorization_code: { scope: `user-guid:${user} member-guid:${member}` } })).body
    .authorization_code.code;
  return (await sim.req('POST', '/token', { code })).body.access_token as string;
}

const PROBES: Record<string, Probe> = {
  'transaction-top-level-category-filter-ignored': async (sim) => {
    const { user } = await sim.connected();
    const all = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000`)).body.transactions;
    return (
      (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&top_level_category_guid=${all[0].top_level_category_guid}`)).body.transactions
        .length < all.length
    );
  },
  'transaction-updated-at-filter-ignored': async (sim) => {
    const { user } = await sim.connected();
    const future = new Date(sim.app.sim.clock.nowMs() + 3_600_000).toISOString();
    return (await sim.req('GET', `/users/${user}/transactions?from_updated_at=${encodeURIComponent(future)}`)).body.transactions.length;
  },
  'basic-auth-wrong-key-accepted': async (sim) =>
    (
      await sim.app.inject({
        method: 'GET',
        url: '/institutions',
        headers: { authorization: `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:wrong-key`).toString('base64')}` },
      })
    ).statusCode,
  'test-host-refuses-legacy-accept': async (sim) =>
    (
      await sim.app.inject({
        method: 'GET',
        url: `${SIMULATOR_DEFAULTS.testHostPrefix}/users/test_svc/accounts`,
        headers: { 'svc-api-key': SIMULATOR_DEFAULTS.apiKey, 'svc-client-id': SIMULATOR_DEFAULTS.clientId, accept: 'application/vnd.svc.legacy.v1+json' },
      })
    ).statusCode,
  'processor-token-not-required': async (sim) => {
    await processorToken(sim);
    const none = (await sim.req('GET', '/payment_account')).status;
    const wrong = (await sim.app.inject({ method: 'GET', url: '/payment_account', headers: { authorization: 'Bearer never-issued' } })).statusCode;
    return [none, wrong];
  },
};

for (const [name, probe] of Object.entries(PROBES)) {
  test(`fault ${name} changes the behaviour`, async () => {
    assert.equal(catalogEntry(name)?.kind, 'fault', `${name} is a catalogued fault`);
    const clean = await Sim.start();
    const faulty = await Sim.start([name]);
    try {
      const a = await probe(clean);
      const b = await probe(faulty);
      assert.notDeepEqual(b, a, `${name}: clean ${JSON.stringify(a)} vs fault ${JSON.stringify(b)}`);
    } finally {
      await clean.close();
      await faulty.close();
    }
  });
}

test('clean: a processor token is required on /payment_account and a wrong API key is refused', async () => {
  const sim = await Sim.start();
  try {
    assert.deepEqual(await PROBES['processor-token-not-required'](sim), [401, 401]);
    assert.equal(await PROBES['basic-auth-wrong-key-accepted'](sim), 401);
  } finally {
    await sim.close();
  }
});

async function withVariation<T>(variation: string, fn: (sim: Sim) => Promise<T>): Promise<T> {
  assert.equal(catalogEntry(variation)?.kind, 'variation', `${variation} is a catalogued variation`);
  const sim = new Sim(await buildSimulator({ variations: [variation], settings: { aggregationMs: AGG_MS, rateLimitPerSecond: 0 } }));
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

test('variation new-enum-values: account subtype and _set_by gain values; institutions list a new product', async () => {
  await withVariation('new-enum-values', async (sim) => {
    const { user } = await sim.connected();
    const account = (await sim.req('GET', `/users/${user}/accounts`)).body.accounts[0];
    assert.equal(account.subtype, 'SIM_NEW_SUBTYPE');
    assert.equal(account.balance_set_by, 'SIM_NEW_SOURCE');
    const inst = (await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': 'v20250224' })).body.institution;
    assert.ok(inst.supported_products.includes('sim_new_product'));
  });
});

test('variation longer-error-messages: error messages grow, success bodies do not change', async () => {
  await withVariation('longer-error-messages', async (sim) => {
    const err = await sim.req('GET', '/users/USR-00000000-0000-4000-8000-000000000000');
    assert.equal(err.status, 404);
    assert.ok(String(err.body.error.message).endsWith(LONGER_MESSAGE_SUFFIX));
    const ok = await sim.req('GET', '/institutions/svcbank');
    assert.ok(!ok.text.includes('longer-error-messages'));
  });
});

test('variation required-parameter-made-optional: a manual account without balance and account_type is created', async () => {
  const body = { account: { name: 'no balance' } };
  const clean = await Sim.start();
  try {
    assert.equal((await clean.req('POST', `/users/${await clean.user()}/accounts`, body)).status, 400);
  } finally {
    await clean.close();
  }
  await withVariation('required-parameter-made-optional', async (sim) => {
    const r = await sim.req('POST', `/users/${await sim.user()}/accounts`, body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.account.balance, 0);
  });
});

test('variation added-optional-query-parameter: sim_min_amount filters when given, nothing changes without it', async () => {
  await withVariation('added-optional-query-parameter', async (sim) => {
    const { user } = await sim.connected();
    const all = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000`)).body.transactions;
    const big = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&sim_min_amount=100`)).body.transactions;
    assert.ok(big.length > 0 && big.length < all.length);
    assert.ok(big.every((t: { amount: number }) => Math.abs(t.amount) >= 100));
  });
});

test('variation new-endpoint: an extra authenticated endpoint answers; it does not exist clean', async () => {
  await withVariation('new-endpoint', async (sim) => {
    const user = await sim.user();
    assert.equal((await sim.req('GET', `/users/${user}/sim_added_resources`)).status, 200);
    assert.equal((await sim.app.inject({ method: 'GET', url: `/users/${user}/sim_added_resources` })).statusCode, 401);
  });
  const clean = await Sim.start();
  try {
    assert.equal((await clean.req('GET', `/users/${await clean.user()}/sim_added_resources`)).status, 404);
  } finally {
    await clean.close();
  }
});

test('POST /_sim/refresh with user_guid and elapsed_ms refreshes only that user, without moving the clock', async () => {
  const sim = await Sim.start();
  try {
    const a = await sim.connected();
    const b = await sim.connected();
    const before = sim.app.sim.clock.nowMs();
    const tooEarly = await sim.app.inject({ method: 'POST', url: '/_sim/refresh', payload: { user_guid: a.user, elapsed_ms: 3_600_000 } });
    assert.equal(tooEarly.json().started, 0);
    const due = await sim.app.inject({ method: 'POST', url: '/_sim/refresh', payload: { user_guid: a.user, elapsed_ms: 86_400_001 } });
    assert.equal(due.json().started, 1);
    assert.ok(Math.abs(sim.app.sim.clock.nowMs() - before) < 5_000, 'the clock did not move');
    assert.equal((await sim.read(b.user, b.member)).is_being_aggregated, false, 'the other user is not refreshed');
    await sleep(AGG_MS * 3);
    const bad = await sim.app.inject({ method: 'POST', url: '/_sim/refresh', payload: { user_guid: a.user } });
    assert.equal(bad.statusCode, 400);
  } finally {
    await sim.close();
  }
});
