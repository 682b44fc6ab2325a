/**
 * What a real target reveals about itself (preflight/discover.ts), against the simulator
 * treated as a real target (SVC_BASE_URL, credentials and the one data-exchange GUID a
 * team holds): every value it discovers is the one the simulator's own settings hold, each
 * names its source, and what it cannot discover is listed with where a team finds it.
 * (`preflight --write-config` as a user runs it: cli/write-config.system.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTRACT_VERSIONS, DATA_EXCHANGE_SEED, loadProfile, simulatorTargetSettings, startTarget, type StartedTarget } from '../targets/index.ts';
import { deprecationDay, discoverSettings } from './discover.ts';

const CREDENTIALS = { SVC_CLIENT_ID: 'sim-client-id', SVC_API_KEY: 'sim-api-key-0000' };

async function withSimulator<T>(run: (target: StartedTarget) => Promise<T>): Promise<T> {
  const target = await startTarget({ env: {}, simulator: true });
  try {
    return await run(target);
  } finally {
    await target.close();
  }
}

test('a deprecation header names its day: RFC 9745 @<epoch seconds>, or a date', () => {
  assert.equal(deprecationDay('@1790640000'), '2026-09-29');
  assert.equal(deprecationDay('Tue, 29 Sep 2026 00:00:00 GMT'), '2026-09-29');
  assert.equal(deprecationDay('true'), undefined);
});

test("what the target reveals is what the simulator's own settings hold, each with its source; the rest is listed with where to find it", async () => {
  await withSimulator(async (target) => {
    const profile = loadProfile({ SVC_BASE_URL: target.url, ...CREDENTIALS, SVC_3DX_ISSUER_GUID: DATA_EXCHANGE_SEED.issuerClientGuid });
    const d = await discoverSettings(profile, { given: (v) => v in CREDENTIALS || v === 'SVC_3DX_ISSUER_GUID' });
    const found = Object.fromEntries(d.found.map((f) => [f.variable, f.value]));
    const own = Object.fromEntries(simulatorTargetSettings(target).settings.map((s) => [s.variable, s.value]));
    for (const v of [
      'SVC_VERSIONS',
      'SVC_DEPRECATED_VERSION',
      'SVC_DEPRECATED_ON',
      'SVC_FAVORITE_INSTITUTION_CODES',
      'SVC_BLOCKED_INSTITUTION_CODE',
      'SVC_TEST_INSTITUTION_CODE',
      'SVC_TEST_OAUTH_INSTITUTION_CODE',
      'SVC_3DX_ISSUER_GUID',
      'SVC_3DX_GRANTEE_GUID',
      'SVC_3DX_GRANTEE_GUIDS',
      'SVC_3DX_GRANT_GUID',
      'SVC_3DX_USER',
      'SVC_3DX_USER_ID',
      'SVC_3DX_ACCOUNT_GUID',
      'SVC_3DX_ACCOUNT_ID',
      'SVC_3DX_MEMBER',
    ])
      assert.equal(found[v], own[v], `${v}: discovered ${found[v]}, the simulator's ${own[v]}`);
    assert.equal(found.SVC_VERSIONS, CONTRACT_VERSIONS.join(','));
    // The headers the deprecated version's answers carry (RFC 9745 / RFC 8594 names here).
    assert.equal(found.SVC_DEPRECATION_HEADER, 'Deprecation');
    assert.equal(found.SVC_SUNSET_HEADER, 'Sunset');
    assert.match(found.SVC_3DX_WINDOW_TRANSACTION_GUID ?? '', /^TRN-/);
    for (const f of d.found) assert.ok(f.source.length > 10, `${f.variable} names its source`);
    assert.match(d.found.find((f) => f.variable === 'SVC_DEPRECATED_ON')!.source, /Deprecation: @\d+ \(2026-09-29\)/);

    const missing = new Map(d.notFound.map((n) => [n.variable, n.where]));
    assert.match(missing.get('SVC_TEST_PASSWORD_SUCCESS') ?? '', /the vendor gives/);
    assert.match(missing.get('SVC_PATH_GOALS') ?? '', /vendor's published reference/);
    assert.match(missing.get('SVC_SECOND_CLIENT_ID') ?? '', /the vendor issues it on request/);
    for (const v of [...Object.keys(found), ...Object.keys(CREDENTIALS)]) assert.ok(!missing.has(v), `${v} is not listed as missing`);
  });
});
