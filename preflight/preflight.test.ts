/**
 * The preflight against the in-process simulator (targets/index.ts startTarget): a
 * profile that works, a wrong API key, a base URL nothing listens on, one that never
 * answers, and sunset versions (the simulator's stand-in v20100101 sunset long ago,
 * targets/simulator/settings.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { loadProfile, SIMULATOR_DEFAULTS, startTarget, type StartedTarget, type TargetProfile } from '../targets/index.ts';
import { assertPlatformUsable, formatPreflight, preflightExitCode, PreflightFailure, runPreflight, type PreflightReport } from './preflight.ts';

let target: StartedTarget;
const WRONG_KEY = 'preflight-test-wrong-key-5d1e';

before(async () => {
  target = await startTarget({ simulator: true, env: {} });
});
after(async () => {
  await target?.close();
});

/** A real-target profile (SVC_BASE_URL) of the simulator with only a base URL and credentials, as a user starts. */
function realProfile(extra: Record<string, string> = {}): TargetProfile {
  return loadProfile({
    SVC_BASE_URL: target.url,
    SVC_CLIENT_ID: SIMULATOR_DEFAULTS.clientId,
    SVC_API_KEY: SIMULATOR_DEFAULTS.apiKey,
    SVC_REQUEST_TIMEOUT_MS: '5000',
    ...extra,
  });
}

const check = (r: PreflightReport, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  assert.ok(c, `check ${id} in ${r.checks.map((x) => x.id).join(', ')}`);
  return c;
};

test('the simulator profile passes every check (its second client included) and runs every area but the one needing a public webhook URL', async () => {
  const report = await runPreflight(target.profile);
  assert.equal(report.fatal, false, formatPreflight(report));
  assert.equal(preflightExitCode(report), 0);
  const notOk = report.checks.filter((c) => c.status !== 'ok').map((c) => `${c.id}: ${c.status}`);
  assert.deepEqual(notOk, [], formatPreflight(report));
  for (const v of target.profile.versions.supported) assert.equal(check(report, `version ${v}`).status, 'ok');
  // The simulator's sunset stand-in is refused, as Versioning requires.
  assert.equal(check(report, 'sunset version').status, 'ok');
  assert.equal(check(report, 'sunset version').httpStatus, 410);
  assert.deepEqual(
    report.areas.filter((a) => a.verdict === 'skips').map((a) => a.missing.join(',')),
    ['SVC_WEBHOOK_PUBLIC_URL'],
  );
});

test('a real-target profile with only a base URL and credentials: credentials ok, and the skips name the missing settings', async () => {
  const report = await runPreflight(realProfile());
  assert.equal(report.fatal, false);
  assert.equal(check(report, 'credentials').status, 'ok');
  assert.equal(check(report, 'test passwords').status, 'not set');
  assert.equal(check(report, 'sunset version').status, 'not set');
  assert.equal(check(report, 'test host').status, 'not set');
  const members = report.areas.find((a) => a.tags.includes('@aggregation'))!;
  assert.equal(members.verdict, 'skips');
  assert.deepEqual(members.missing, ['SVC_TEST_PASSWORD_SUCCESS']);
  assert.equal(report.areas.find((a) => a.area === 'every platform and test-host scenario')!.verdict, 'runs');
  const text = formatPreflight(report);
  assert.match(text, /skips\s+api\s+connected members.*needs SVC_TEST_PASSWORD_SUCCESS/);
  assert.match(text, /No fatal finding/);
});

test("the OAuth page's controls: unset on a real target is the guess, named; set, even to the guess's own text, is set", async () => {
  const unset = check(await runPreflight(realProfile()), 'oauth page controls');
  assert.equal(unset.status, 'not set');
  assert.match(unset.detail, /^SVC_OAUTH_AUTHORIZE_SELECTOR, SVC_OAUTH_DENY_SELECTOR: the OAuth browser scenarios use the guess/);
  // The config file the simulator writes states the page's own controls, which are the guess's text.
  const setToGuess = realProfile({ SVC_OAUTH_AUTHORIZE_SELECTOR: '[data-action="authorize"]', SVC_OAUTH_DENY_SELECTOR: '[data-action="deny"]' });
  assert.equal(check(await runPreflight(setToGuess), 'oauth page controls').status, 'ok');
  const oneSet = check(await runPreflight(realProfile({ SVC_OAUTH_DENY_SELECTOR: '#deny' })), 'oauth page controls');
  assert.match(oneSet.detail, /^SVC_OAUTH_AUTHORIZE_SELECTOR: the OAuth browser scenarios use the guess \[data-action="authorize"\] and fail/);
});

test('a base URL with a path prefix too many (the institutions list answers 404) is fatal, named, and says which way to look', async () => {
  const report = await runPreflight(realProfile({ SVC_BASE_URL: `${target.url}/api` }));
  assert.equal(report.fatal, true);
  assert.equal(preflightExitCode(report), 1);
  const credentials = check(report, 'credentials');
  assert.deepEqual([credentials.status, credentials.httpStatus, credentials.fatal], ['unexpected', 404, true]);
  assert.match(credentials.detail, /answered 404: the institutions list is not at http:\/\/127\.0\.0\.1:\d+\/api, so every platform scenario would fail/);
  assert.match(credentials.detail, /check its path \(a prefix too many or one missing\)/);
});

test('a test password with a space at either end is named, and sent as written', async () => {
  const report = await runPreflight(realProfile({ SVC_TEST_PASSWORD_SUCCESS: 'pass-word ', SVC_TEST_PASSWORD_LOCKED: 'locked' }));
  const passwords = check(report, 'test passwords');
  assert.match(passwords.detail, /; SVC_TEST_PASSWORD_SUCCESS begins or ends with a space, sent as written$/);
  assert.doesNotMatch(passwords.detail, /pass-word/, 'the password is not shown');
});

test('a wrong API key is refused and fatal: the report names SVC_CLIENT_ID and SVC_API_KEY and never the key', async () => {
  const report = await runPreflight(realProfile({ SVC_API_KEY: WRONG_KEY }));
  const credentials = check(report, 'credentials');
  assert.equal(credentials.status, 'refused');
  assert.equal(credentials.httpStatus, 401);
  assert.equal(credentials.fatal, true);
  assert.equal(report.fatal, true);
  assert.equal(preflightExitCode(report), 1);
  // The other platform reads would only repeat the refusal.
  const versions = report.checks.filter((c) => c.id.startsWith('version '));
  assert.equal(versions.length, 3);
  assert.deepEqual(new Set(versions.map((c) => c.status)), new Set(['not checked']));
  const text = formatPreflight(report);
  assert.match(text, /FATAL: .*SVC_CLIENT_ID and SVC_API_KEY/);
  assert.match(text, /refused \(fatal\)/);
  assert.doesNotMatch(text, new RegExp(WRONG_KEY));
  assert.doesNotMatch(text, new RegExp(Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${WRONG_KEY}`).toString('base64').slice(0, 12)));
  await assert.rejects(
    assertPlatformUsable(realProfile({ SVC_API_KEY: WRONG_KEY })),
    (e: Error) => e instanceof PreflightFailure && /SVC_CLIENT_ID and SVC_API_KEY/.test(e.message) && /answered 401/.test(e.message),
  );
});

/** A port on 127.0.0.1 nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('an unreachable platform is fatal and named by its variable; nothing else of the platform is checked', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const profile = realProfile({ SVC_BASE_URL: url, SVC_TEST_HOST_BASE_URL: `${url}/test-host` });
  const report = await runPreflight(profile);
  const platform = check(report, 'platform');
  assert.equal(platform.status, 'unreachable');
  assert.equal(platform.fatal, true);
  assert.match(platform.detail, /SVC_BASE_URL.*connection refused/);
  assert.equal(check(report, 'credentials').status, 'not checked');
  assert.equal(check(report, 'test host').status, 'unreachable');
  assert.equal(report.fatal, true);
  // The transport's own words: method, URL, operation, cause.
  await assert.rejects(
    assertPlatformUsable(profile),
    /unreachable: GET http:\/\/127\.0\.0\.1:\d+\/institutions\?records_per_page=1 \(operation GET \/institutions\): connection refused \(ECONNREFUSED\)/,
  );
});

test('a platform that accepts connections and never answers is unreachable within the request timeout', async () => {
  const sockets = new Set<import('node:net').Socket>();
  const silent: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const started = performance.now();
    const report = await runPreflight(
      realProfile({ SVC_BASE_URL: `http://127.0.0.1:${(silent.address() as { port: number }).port}`, SVC_REQUEST_TIMEOUT_MS: '400' }),
    );
    const elapsed = performance.now() - started;
    assert.equal(check(report, 'platform').status, 'unreachable');
    assert.match(
      check(report, 'platform').detail,
      /GET http:\/\/127\.0\.0\.1:\d+\/institutions\?records_per_page=1 \(operation GET \/institutions\): no response headers arrived within 400 ms \(SVC_REQUEST_TIMEOUT_MS=400, the bound of one request\)/,
    );
    assert.ok(elapsed < 5_000, `the preflight ended ${Math.round(elapsed)} ms after it started`);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test("a configured sunset version must be refused: the simulator's stand-in is; a served version named as sunset is unexpected", async () => {
  const sunsetRefused = await runPreflight(realProfile({ SVC_SUNSET_VERSION: SIMULATOR_DEFAULTS.sunsetStandInVersion }));
  assert.equal(check(sunsetRefused, 'sunset version').status, 'ok');
  assert.equal(check(sunsetRefused, 'sunset version').httpStatus, 410);
  const servedAsSunset = await runPreflight(realProfile({ SVC_SUNSET_VERSION: 'v20250224' }));
  assert.equal(check(servedAsSunset, 'sunset version').status, 'unexpected');
  assert.match(check(servedAsSunset, 'sunset version').detail, /served \(200\): a sunset version must answer an error/);
  assert.equal(servedAsSunset.fatal, false);
  // A sunset version listed among the versions in play is refused there.
  const listed = await runPreflight(realProfile({ SVC_VERSIONS: `v20260929,${SIMULATOR_DEFAULTS.sunsetStandInVersion}` }));
  assert.equal(check(listed, `version ${SIMULATOR_DEFAULTS.sunsetStandInVersion}`).status, 'refused');
  assert.equal(check(listed, 'version v20260929').status, 'ok');
});

test('a test institution code that does not exist, a wrong audience secret and a wrong test-host URL are reported, not fatal', async () => {
  const report = await runPreflight(
    realProfile({
      SVC_TEST_INSTITUTION_CODE: 'preflight_no_such_bank',
      SVC_AUDIENCE_BASE_URL: `${target.url}${SIMULATOR_DEFAULTS.audiencePrefix}`,
      SVC_AUDIENCE_TOKEN_URL: `${target.url}${SIMULATOR_DEFAULTS.audiencePrefix}/oauth/token`,
      SVC_AUDIENCE_CLIENT_ID: SIMULATOR_DEFAULTS.audienceClientId,
      SVC_AUDIENCE_CLIENT_SECRET: 'preflight-wrong-secret',
      SVC_TEST_HOST_BASE_URL: `${target.url}/no-test-host-here`,
    }),
  );
  assert.equal(check(report, 'test institution').status, 'unexpected');
  assert.match(check(report, 'test institution').detail, /answered 404.*SVC_TEST_INSTITUTION_CODE/);
  assert.equal(check(report, 'audience token').status, 'refused');
  assert.match(check(report, 'audience token').detail, /SVC_AUDIENCE_CLIENT_ID and SVC_AUDIENCE_CLIENT_SECRET/);
  assert.equal(check(report, 'test host').status, 'unexpected');
  assert.equal(report.fatal, false);
  assert.doesNotMatch(formatPreflight(report), /preflight-wrong-secret/);
});
