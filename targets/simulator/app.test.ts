/**
 * Cross-cutting behaviour of the simulator: the rate limit (Errors, 429) and bad input
 * everywhere (Developers guide: bad input gets a clear 4xx with the one error body,
 * never a 5xx). The sweep walks EVERY registered route, so routes added later (the
 * core's users, members, ...) are covered without editing this file.
 */
import { test, describe, before, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, BASIC, TEST_HOST_HEADERS, type Sim, type Res } from './testing.test-support.ts';
import { SIMULATOR_DEFAULTS as D, settingsFromEnv } from './settings.ts';
import { SETTINGS } from '../profiles/settings.ts';
import { DATA_EXCHANGE_SEED as S } from './data/data-exchange.ts';

describe('rate limit (Errors: 429 when the rate limit is exceeded)', () => {
  // The token bucket reads performance.now(): held still here, so how many requests a burst
  // gets through is the bucket's arithmetic, never how fast this machine sends them.
  let now = 0;
  before(() => {
    now = performance.now();
    mock.method(performance, 'now', () => now);
  });
  after(() => mock.restoreAll());

  test('exceeded: 429 with the error body and Retry-After; recovers after a second', async () => {
    const sim = await startSim({ settings: { rateLimitPerSecond: 5 } });
    try {
      const results: Res[] = [];
      for (let i = 0; i < 12; i++) results.push(await sim.get('/institutions?records_per_page=1'));
      const limited = results.filter((r) => r.status === 429);
      assert.deepEqual(
        results.map((r) => r.status),
        [...Array(5).fill(200), ...Array(7).fill(429)],
        'a bucket of 5 at one instant',
      );
      assert.ok(isErrorBody(limited[0], 429));
      assert.equal(limited[0].json.error.code, 'rate_limited');
      assert.equal(limited[0].headers['retry-after'], '1');
      now += 1100;
      assert.equal((await sim.get('/institutions?records_per_page=1')).status, 200);
    } finally {
      await sim.close();
    }
  });

  test('the limit is per client: another client id is not limited by the first', async () => {
    const sim = await startSim({ settings: { rateLimitPerSecond: 3 } });
    try {
      for (let i = 0; i < 6; i++) await sim.get('/institutions?records_per_page=1');
      assert.equal((await sim.get('/institutions?records_per_page=1')).status, 429);
      const other = `Basic ${Buffer.from('other-client:x').toString('base64')}`;
      // A different client is refused for its credentials (401), not for the rate (429).
      assert.equal((await sim.get('/institutions', { authorization: other })).status, 401);
    } finally {
      await sim.close();
    }
  });

  test('fault rate-limit-never-recovers: a client once refused stays refused after the second that recovers it', async () => {
    const sim = await startSim({ settings: { rateLimitPerSecond: 2 }, faults: ['rate-limit-never-recovers'] });
    try {
      for (let i = 0; i < 3; i++) await sim.get('/institutions?records_per_page=1');
      now += 5_000;
      assert.equal((await sim.get('/institutions?records_per_page=1')).status, 429);
    } finally {
      await sim.close();
    }
  });

  for (const [fault, expected] of [
    ['no-rate-limit', 200],
    ['rate-limit-500', 500],
  ] as const) {
    test(`fault ${fault}`, async () => {
      const sim = await startSim({ settings: { rateLimitPerSecond: 2 }, faults: [fault] });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) statuses.push((await sim.get('/institutions?records_per_page=1')).status);
        assert.equal(statuses.at(-1), expected);
        assert.ok(!statuses.includes(429));
      } finally {
        await sim.close();
      }
    });
  }
});

/** Headers that pass every scope's authentication, so the input itself is what is judged. */
async function allCredentials(sim: Sim): Promise<Record<string, string>> {
  const token = (await sim.post(`/data_exchange/grantee/${S.granteeClientGuid}/grants/${S.grantGuid}/token`)).json.token;
  const aud = await sim.raw({
    method: 'POST',
    url: '/audience/oauth/token?grant_type=client_credentials',
    headers: { authorization: `Basic ${Buffer.from(`${D.audienceClientId}:${D.audienceClientSecret}`).toString('base64')}` },
  });
  return { 'svc-3dx-token': token, ...TEST_HOST_HEADERS, 'x-audience-bearer': aud.json.access_token };
}

function headersFor(url: string, creds: Record<string, string>): Record<string, string> {
  const { 'x-audience-bearer': bearer, ...rest } = creds;
  return { ...rest, authorization: url.startsWith(D.audiencePrefix) && !url.endsWith('/oauth/token') ? `Bearer ${bearer}` : BASIC };
}

describe('bad input: a 4xx with the one error body, never a 5xx', () => {
  let sim: Sim;
  let creds: Record<string, string>;
  before(async () => {
    sim = await startSim();
    creds = await allCredentials(sim);
  });
  after(() => sim.close());

  const send = (method: string, url: string, payload?: string | Buffer, contentType = 'application/json') =>
    sim.raw({
      method: method as 'GET',
      url,
      headers: { ...headersFor(url, creds), ...(payload !== undefined ? { 'content-type': contentType } : {}) },
      payload,
    });

  /** Named cases on the endpoints of this module's areas (expected status, exactly). */
  const CASES: Array<[string, string, string, string | undefined, number]> = [
    ['malformed JSON', 'POST', '/ach_returns', '{"ach_return": {', 400],
    ['JSON array body', 'POST', '/ach_returns', '[1,2]', 400],
    ['JSON string body', 'POST', '/ach_returns', '"ach_return"', 400],
    ['missing wrapper', 'POST', '/ach_returns', '{"return_code": "R01"}', 400],
    ['wrapper of the wrong type', 'POST', '/ach_returns', '{"ach_return": "R01"}', 400],
    ['wrong field type', 'POST', '/ach_returns', '{"ach_return": {"transaction_amount": "ten"}}', 400],
    ['unknown institution', 'GET', '/institutions/INS-00000000-0000-0000-0000-000000000000', undefined, 404],
    ['unknown institution credentials', 'GET', '/institutions/nope/credentials', undefined, 404],
    ['unknown category', 'GET', '/categories/CAT-nope', undefined, 404],
    ['unknown ACH return', 'GET', '/ach_returns/nope', undefined, 404],
    ['unknown data exchange user', 'GET', '/data_exchange/users/USR-nope', undefined, 404],
    ['unknown grant token', 'POST', `/data_exchange/grantee/${S.granteeClientGuid}/grants/GNT-nope/token`, undefined, 404],
    ['unknown path', 'GET', '/no/such/path', undefined, 404],
    ['page zero', 'GET', '/institutions?page=0', undefined, 400],
    ['negative page', 'GET', '/institutions?page=-3', undefined, 400],
    ['non-numeric page', 'GET', '/institutions/favorites?page=two', undefined, 400],
    ['fractional records_per_page', 'GET', '/categories/default?records_per_page=2.5', undefined, 400],
    ['zero records_per_page', 'GET', '/ach_returns?records_per_page=0', undefined, 400],
    ['negative records_per_page', 'GET', '/data_exchange/users?records_per_page=-1', undefined, 400],
    ['exponent records_per_page', 'GET', '/institutions/svcbank/credentials?records_per_page=1e3', undefined, 400],
    ['huge page', 'GET', '/institutions?page=99999999999999999999', undefined, 400],
    ['huge records_per_page', 'GET', `/data_exchange/issuer/${S.issuerClientGuid}/grants?records_per_page=123456789012`, undefined, 400],
    ['bad boolean', 'GET', '/institutions?include_blocked_institutions=yes', undefined, 400],
    ['unsupported media type', 'POST', '/ach_returns', 'ach_return=1', 415],
    // Parsed, but nested past the engine's stack where the user's metadata is stored.
    ['metadata nested 100 000 deep', 'POST', '/users', `{"user":{"id":"deep","metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`, 400],
  ];
  for (const [name, method, url, payload, status] of CASES) {
    test(`${name}: ${method} ${url.slice(0, 60)} -> ${status}`, async () => {
      const r = await send(method, url, payload, name === 'unsupported media type' ? 'text/plain' : 'application/json');
      assert.ok(isErrorBody(r, status), `${r.status} ${r.text.slice(0, 200)}`);
    });
  }

  test('oversized body (> 1 MiB): 413 with the error body', async () => {
    const big = JSON.stringify({ ach_return: { id: 'x'.repeat(D.maxBodyBytes + 10) } });
    assert.ok(isErrorBody(await send('POST', '/ach_returns', big), 413));
  });

  test('sweep: every registered route, with bad paging, malformed and odd JSON, oversized body, unknown ids', async () => {
    const routes = sim.app.simRoutes.filter((r) => r.url !== '*' && !r.url.includes('*'));
    assert.ok(routes.length >= 40, `only ${routes.length} routes`);
    const problems: string[] = [];
    const check = (label: string, r: Res, mustBe4xx: boolean) => {
      if (r.status >= 500) problems.push(`${label}: ${r.status} ${r.text.slice(0, 160)}`);
      else if (mustBe4xx && !(r.status >= 400 && r.status < 500 && isErrorBody(r, r.status)))
        problems.push(`${label}: expected a 4xx error body, got ${r.status} ${r.text.slice(0, 160)}`);
      else if (r.status >= 400 && r.json?.error && !isErrorBody(r, r.status))
        problems.push(`${label}: error body not in the documented shape: ${r.text.slice(0, 160)}`);
    };
    const big = Buffer.alloc(D.maxBodyBytes + 1024, 0x20);
    for (const { method, url } of routes) {
      const path = url.replace(/:[A-Za-z_]+/g, 'unknown-id-0');
      const label = `${method} ${url}`;
      for (const q of ['page=-1', 'page=abc', 'records_per_page=0', 'records_per_page=99999999999', 'page=1.5']) {
        check(`${label}?${q}`, await send(method, `${path}?${q}`), false);
      }
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        check(`${label} malformed JSON`, await send(method, path, '{"oops": '), true);
        for (const body of ['[]', '"text"', '42', 'null', '{}', '{"user": "x", "member": [], "widget_url": 1}'])
          check(`${label} body ${body}`, await send(method, path, body), false);
        check(`${label} oversized`, await send(method, path, big), true);
      }
    }
    assert.deepEqual(problems, []);
  });
});

test("the simulator's own numbers (SVC_SIM_*, its rate limit) are read through the settings table: its defaults, and a bad value refused by name", () => {
  assert.equal(settingsFromEnv({}).aggregationMs, SETTINGS.simulator.aggregationMs.value?.simulator);
  assert.equal(settingsFromEnv({}).webhookTimeScale, 1);
  assert.equal(settingsFromEnv({ SVC_SIM_WEBHOOK_TIME_SCALE: '3600', SVC_SIM_AGGREGATION_MS: '' }).webhookTimeScale, 3600);
  assert.throws(() => settingsFromEnv({ SVC_SIM_WEBHOOK_TIME_SCALE: '-5' }), /SVC_SIM_WEBHOOK_TIME_SCALE must be a non-negative number, got "-5"/);
  assert.throws(() => settingsFromEnv({ SVC_RATE_LIMIT_PER_SECOND: 'fast' }), /SVC_RATE_LIMIT_PER_SECOND must be a non-negative number/);
});

test('the second client is the one the environment names, as the printed secrets say (SVC_SECOND_CLIENT_ID / SVC_SECOND_API_KEY), else the built-in one', async () => {
  const basic = (user: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` });
  const sim = await startSim({ settings: settingsFromEnv({ SVC_SECOND_CLIENT_ID: 'team-second', SVC_SECOND_API_KEY: 'team-second-key' }) });
  try {
    assert.equal((await sim.get('/users', basic('team-second', 'team-second-key'))).status, 200);
    assert.equal((await sim.get('/users', basic(D.secondClientId, D.secondApiKey))).status, 401, 'the built-in pair is no longer accepted');
  } finally {
    await sim.close();
  }
  // Empty variables are unset, as the profile reads them.
  assert.deepEqual(
    [settingsFromEnv({ SVC_SECOND_CLIENT_ID: '', SVC_SECOND_API_KEY: '' }).secondClientId, settingsFromEnv({}).secondApiKey],
    [D.secondClientId, D.secondApiKey],
  );
});

test('a request must arrive whole within 30 s: a body that trickles in or never comes does not hold its socket for good', async () => {
  const sim = await startSim();
  try {
    // Node's http server answers 408 past requestTimeout; Fastify's default would set 0 (never).
    assert.equal(sim.app.server.requestTimeout, 30_000);
  } finally {
    await sim.close();
  }
});
