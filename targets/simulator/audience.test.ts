import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, type Sim } from './testing.test-support.ts';
import { SIMULATOR_DEFAULTS as D } from './settings.ts';

const CLIENT = `Basic ${Buffer.from(`${D.audienceClientId}:${D.audienceClientSecret}`).toString('base64')}`;
const LIST = `/audience/api/v1/audience/${D.audienceId}/list`;

async function bearer(sim: Sim): Promise<Record<string, string>> {
  const r = await sim.raw({
    method: 'POST',
    url: '/audience/oauth/token',
    headers: { authorization: CLIENT, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=client_credentials',
  });
  assert.equal(r.status, 200, r.text);
  return { authorization: `Bearer ${r.json.access_token}` };
}

describe('audience service (clean simulator)', () => {
  let sim: Sim;
  before(async () => (sim = await startSim({ settings: { now: '2025-07-01T08:00:00Z' } })));
  after(() => sim.close());

  test('token endpoint: client credentials by Basic, form or JSON body, or query', async () => {
    const form = await sim.raw({
      method: 'POST',
      url: '/audience/oauth/token',
      headers: { authorization: CLIENT, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(form.status, 200);
    assert.equal(form.json.token_type, 'Bearer');
    assert.ok(form.json.expires_in > 0 && typeof form.json.access_token === 'string');
    const query = await sim.raw({ method: 'POST', url: '/audience/oauth/token?grant_type=client_credentials', headers: { authorization: CLIENT } });
    assert.equal(query.status, 200);
    const json = await sim.raw({
      method: 'POST',
      url: '/audience/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'client_credentials', client_id: D.audienceClientId, client_secret: D.audienceClientSecret }),
    });
    assert.equal(json.status, 200);
    const wrong = `Basic ${Buffer.from(`${D.audienceClientId}:wrong`).toString('base64')}`;
    assert.ok(
      isErrorBody(await sim.raw({ method: 'POST', url: '/audience/oauth/token?grant_type=client_credentials', headers: { authorization: wrong } }), 401),
    );
    assert.ok(isErrorBody(await sim.raw({ method: 'POST', url: '/audience/oauth/token?grant_type=password', headers: { authorization: CLIENT } }), 400));
  });

  test('JSON list and CSV list carry the same identifiers; updated_on is a date', async () => {
    const auth = await bearer(sim);
    const j = await sim.raw({
      method: 'GET',
      url: `${LIST}?institution_public_id=${D.audienceInstitutionPublicId}`,
      headers: { ...auth, accept: 'application/json' },
    });
    assert.equal(j.status, 200);
    assert.equal(j.json.audience_id, D.audienceId);
    assert.equal(j.json.institution_id, D.audienceInstitutionPublicId);
    assert.equal(j.json.count, j.json.list.length);
    assert.match(j.json.updated_on, /^\d{4}-\d{2}-\d{2}$/);
    const c = await sim.raw({
      method: 'GET',
      url: `${LIST}.csv?institution_public_id=${D.audienceInstitutionPublicId}`,
      headers: { ...auth, accept: 'text/csv' },
    });
    assert.equal(c.status, 200);
    assert.match(String(c.headers['content-type']), /^text\/csv/);
    assert.deepEqual(c.text.split('\n').filter(Boolean), j.json.list);
    const bySlug = await sim.raw({ method: 'GET', url: `/audience/api/v1/audience/${D.audienceSlug}/list`, headers: auth });
    assert.deepEqual(bySlug.json.list, j.json.list);
  });

  test('401 without bearer, with a wrong one, and after expiry; 404 for unknown audience or institution', async () => {
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: LIST }), 401));
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: `${LIST}.csv`, headers: { authorization: 'Bearer nope' } }), 401));
    const auth = await bearer(sim);
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: '/audience/api/v1/audience/other/list', headers: auth }), 404));
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: `${LIST}?institution_public_id=INS-OTHER`, headers: auth }), 404));
    await sim.post('/_sim/clock', { advance_ms: 3_601_000 });
    assert.ok(isErrorBody(await sim.raw({ method: 'GET', url: LIST, headers: auth }), 401));
  });
});

describe('audience faults change the behaviour', () => {
  const withFault = async (fault: string, fn: (sim: Sim, auth: Record<string, string>) => Promise<void>) => {
    const sim = await startSim({ faults: [fault] });
    try {
      await fn(sim, await bearer(sim));
    } finally {
      await sim.close();
    }
  };
  test('audience-csv-differs-from-json', () =>
    withFault('audience-csv-differs-from-json', async (sim, auth) => {
      const j = (await sim.raw({ method: 'GET', url: LIST, headers: auth })).json.list;
      const c = (await sim.raw({ method: 'GET', url: `${LIST}.csv`, headers: auth })).text.split('\n').filter(Boolean);
      assert.notDeepEqual(c, j);
    }));
  test('audience-bearer-not-enforced', () =>
    withFault('audience-bearer-not-enforced', async (sim) => {
      assert.equal((await sim.raw({ method: 'GET', url: LIST })).status, 200);
    }));
  test('audience-count-mismatch', () =>
    withFault('audience-count-mismatch', async (sim, auth) => {
      const j = (await sim.raw({ method: 'GET', url: LIST, headers: auth })).json;
      assert.notEqual(j.count, j.list.length);
    }));
});
