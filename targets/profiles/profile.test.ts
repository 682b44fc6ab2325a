/**
 * Product-area paths of the target profile (the specification does not show them): the simulator profile
 * has every documented default; a real target has only the paths its SVC_PATH_*
 * variables set, so a scenario whose path is unset skips naming the variable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile, profileSecrets } from './profile.ts';
import { PRODUCT_PATH_DEFAULTS, PRODUCT_PATH_ENV, readStatedText, SETTINGS, settingNamed } from './settings.ts';
import { missingControls } from './sections.ts';
import { profileEnv } from '../index.ts';

test('the simulator profile serves every product path at its documented default', () => {
  assert.deepEqual(loadProfile({}).productPaths, PRODUCT_PATH_DEFAULTS);
});

test('a real target has only the product paths its variables set', () => {
  const p = loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_PATH_GOALS_REPOSITION: '/users/{user_guid}/goals/order' });
  assert.deepEqual(p.productPaths, { goalsReposition: '/users/{user_guid}/goals/order' });
});

test('each product path has one SVC_PATH_ variable in upper snake case', () => {
  assert.equal(PRODUCT_PATH_ENV.goalsReposition, 'SVC_PATH_GOALS_REPOSITION');
  assert.equal(PRODUCT_PATH_ENV.holdingsByMember, 'SVC_PATH_HOLDINGS_BY_MEMBER');
  assert.equal(new Set(Object.values(PRODUCT_PATH_ENV)).size, Object.keys(PRODUCT_PATH_DEFAULTS).length);
});

test('a deprecated version: the simulator names its own; a real target sets both variables or neither', () => {
  assert.deepEqual(loadProfile({}).versions.deprecated, { version: 'v20111101', on: '2026-09-29' });
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://int.example' }).versions.deprecated, undefined);
  assert.deepEqual(
    loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_DEPRECATED_VERSION: 'v20111101', SVC_DEPRECATED_ON: '2026-01-15' }).versions.deprecated,
    { version: 'v20111101', on: '2026-01-15' },
  );
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_DEPRECATED_VERSION: 'v20111101' }), /go together/);
});

// ---- the profile's sections (profile.ts and sections.ts read every SVC_* variable) ----

test("data-exchange identities: the simulator's seeded records by default, a real target's only from its variables", async () => {
  const { DATA_EXCHANGE_SEED } = await import('../simulator/data/data-exchange.ts');
  const sim = loadProfile({}).dataExchange;
  assert.equal(sim.userIdentifier, DATA_EXCHANGE_SEED.userGuid);
  assert.deepEqual(sim.allGranteeGuids, [DATA_EXCHANGE_SEED.granteeClientGuid, DATA_EXCHANGE_SEED.secondGranteeClientGuid]);
  assert.equal(sim.granteeQueryParam, 'grantee_guids');
  assert.equal(loadProfile({ SVC_3DX_USER: 'USR-given' }).dataExchange.userIdentifier, 'USR-given');
  const real = loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_3DX_GRANTEE_GUID: 'CLT-1', SVC_3DX_MEMBER: 'MBR-1' }).dataExchange;
  assert.deepEqual(
    [real.granteeClientGuid, real.allGranteeGuids, real.memberIdentifier, real.userIdentifier, real.windowTransactionGuid],
    ['CLT-1', ['CLT-1'], 'MBR-1', undefined, undefined],
  );
});

test('institution facts: seeded on the simulator, set on a real target; query names explicit only when set', () => {
  const sim = loadProfile({}).institutions;
  assert.ok(sim.favouriteCodes && sim.favouriteCodes.length > 0 && sim.blockedCode && sim.testInstitutionCountry);
  assert.deepEqual(sim.nameParam, { name: 'name', explicit: false });
  const real = loadProfile({
    SVC_BASE_URL: 'https://int.example',
    SVC_FAVORITE_INSTITUTION_CODES: 'a, b',
    SVC_INSTITUTION_COUNTRY_PARAM: 'country',
  }).institutions;
  assert.deepEqual(
    [real.favouriteCodes, real.blockedCode, real.countryParam],
    [['a', 'b'], undefined, { name: 'country', explicit: true, variable: 'SVC_INSTITUTION_COUNTRY_PARAM' }],
  );
  const ach = loadProfile({ SVC_ACH_RETURN_CODE_PARAM: 'code' }).achFilters;
  assert.deepEqual(
    [ach.returnCode, ach.returnStatus],
    [
      { name: 'code', explicit: true, variable: 'SVC_ACH_RETURN_CODE_PARAM' },
      { name: 'return_status', explicit: false, variable: 'SVC_ACH_RETURN_STATUS_PARAM' },
    ],
  );
});

test("categories, use cases and the widget's controls: the simulator's built in, a real target's only when set", () => {
  const sim = loadProfile({});
  const real = loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_WIDGET_OAUTH_SELECTOR: '#oauth', SVC_USER_CATEGORIES_PATH: '/u/{user_guid}/c' });
  assert.deepEqual([sim.useCases, real.useCases], [['MONEY_MOVEMENT', 'PFM'], undefined]);
  assert.equal(sim.widget.back, '[data-action="back"]');
  assert.deepEqual([real.widget.oauth, real.widget.back], ['#oauth', undefined]);
  assert.equal(missingControls(real.widget, ['oauth', 'back', 'delete'])?.includes('set SVC_WIDGET_BACK_SELECTOR, SVC_WIDGET_DELETE_SELECTOR ('), true);
  assert.equal(missingControls(sim.widget, ['oauth', 'back']), undefined);
  assert.deepEqual(real.userCategories, {
    defaults: '/users/{user_guid}/categories/default',
    all: '/u/{user_guid}/c',
    create: '/u/{user_guid}/c',
    explicit: true,
  });
});

test("a second client's credentials are settings and secrets", () => {
  const p = loadProfile({ SVC_SECOND_CLIENT_ID: 'other', SVC_SECOND_API_KEY: 'other-key-1234' });
  assert.deepEqual(p.secondClient, { clientId: 'other', apiKey: 'other-key-1234' });
  assert.ok(profileSecrets(p).includes('other-key-1234'));
  assert.ok(profileSecrets(p).includes(Buffer.from('other:other-key-1234').toString('base64')));
  // The simulator serves a second client by default; a real target's is a setting.
  assert.deepEqual(loadProfile({}).secondClient, { clientId: 'sim-second-client', apiKey: 'sim-second-key-0000' });
  assert.deepEqual(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' }).secondClient, { clientId: undefined, apiKey: undefined });
});

test("the entries in force, the operations used, the run's files", () => {
  const p = loadProfile({ SVC_SIM_FAULTS: 'a, b', SVC_USED_OPERATIONS: 'GET /users\nPOST /users', SVC_SPEC_FILE: '/tmp/spec.md', SVC_REPORTS_OUT: '/tmp/out' });
  assert.deepEqual(p.simulatorEntries, { faults: ['a', 'b'], variations: [] });
  assert.deepEqual(p.usedOperations, ['GET /users', 'POST /users']);
  assert.deepEqual([loadProfile({ SVC_USED_OPERATIONS: '*' }).usedOperations, loadProfile({}).usedOperations], ['all', 'all']);
  assert.deepEqual([p.run.specFile, p.run.reportsOut, p.run.httpTimingDir], ['/tmp/spec.md', '/tmp/out', '/tmp/out/http-timing']);
  assert.match(loadProfile({}).run.specFile, /shared\/specification\.md$/);
});

test("profileEnv: the k6 scripts get the profile's settings; an unset script setting stays unset", () => {
  const sim = profileEnv(loadProfile({ SVC_SIMULATOR_URL: 'http://127.0.0.1:9' }));
  assert.equal(sim.SVC_BASE_URL, 'http://127.0.0.1:9');
  for (const unset of ['SVC_429_BODY', 'SVC_RATE_LIMIT_PATHS', 'SVC_3DX_USER', 'SVC_3DX_TOKEN_FIELD', 'SVC_ACCEPT_VERSION']) assert.ok(!(unset in sim), unset);
  const real = profileEnv(
    loadProfile({ SVC_BASE_URL: 'https://int.example/', SVC_RATE_LIMIT_PER_SECOND: '20', SVC_429_BODY: 'json-error', SVC_RATE_LIMIT_PATH: '/institutions' }),
  );
  assert.deepEqual(
    [real.SVC_BASE_URL, real.SVC_RATE_LIMIT_PER_SECOND, real.SVC_429_BODY, real.SVC_RATE_LIMIT_PATHS],
    ['https://int.example', '20', 'json-error', '/institutions'],
  );
  assert.deepEqual([loadProfile({}).rateLimit.explicit, loadProfile({ SVC_RATE_LIMIT_PER_SECOND: '10' }).rateLimit.explicit], [false, true]);
});

test("the processor token request: the simulator's shape by default (a guess on a real target), the user's when set; a shape without {code} is refused", () => {
  const sim = loadProfile({}).processorToken;
  assert.deepEqual([sim.method, sim.path, sim.explicit], ['POST', '/token', true]);
  const guess = loadProfile({ SVC_BASE_URL: 'https://x.example' }).processorToken;
  assert.deepEqual([guess.method, guess.path, guess.explicit], ['POST', '/token', false]);
  const set = loadProfile({ SVC_BASE_URL: 'https://x.example', SVC_PROCESSOR_TOKEN_REQUEST: 'GET /tokens?authorization_code={code}' }).processorToken;
  assert.deepEqual([set.method, set.path, set.body, set.explicit], ['GET', '/tokens?authorization_code={code}', undefined, true]);
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://x.example', SVC_PROCESSOR_TOKEN_REQUEST: 'GET /tokens' }), /no \{code\}/);
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://x.example', SVC_PROCESSOR_TOKEN_REQUEST: 'POST /token {code}' }), /not JSON/);
});

test('job and throttle durations: the simulator knows its own; a real target only what the user sets', () => {
  assert.deepEqual([loadProfile({}).timeouts.minJobMs, loadProfile({}).timeouts.throttlePeriodMs], [60, 3_600_000]);
  assert.equal(loadProfile({ SVC_SIM_AGGREGATION_MS: '200' }).timeouts.minJobMs, 200);
  const real = loadProfile({ SVC_BASE_URL: 'https://x.example' }).timeouts;
  assert.deepEqual([real.minJobMs, real.throttlePeriodMs], [undefined, undefined]);
  const set = loadProfile({ SVC_BASE_URL: 'https://x.example', SVC_MIN_JOB_MS: '1500', SVC_AGGREGATION_THROTTLE_MS: '14400000' }).timeouts;
  assert.deepEqual([set.minJobMs, set.throttlePeriodMs], [1500, 14_400_000]);
});

test('the test bound: the simulator 30 s; a real target two aggregation waits and four requests, or SVC_TEST_TIMEOUT_MS', () => {
  assert.equal(loadProfile({}).timeouts.testMs, 30_000);
  const real = loadProfile({ SVC_BASE_URL: 'https://int.example' });
  assert.equal(real.timeouts.requestMs, 30_000);
  assert.equal(real.timeouts.testMs, 2 * 120_000 + 4 * 30_000);
  assert.equal(
    loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_AGGREGATION_TIMEOUT_MS: '10000', SVC_REQUEST_TIMEOUT_MS: '10000' }).timeouts.testMs,
    60_000,
  );
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_TEST_TIMEOUT_MS: '45000' }).timeouts.testMs, 45_000);
});

test('a request bound at or above the test bound is refused, naming both settings and values', () => {
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_TEST_TIMEOUT_MS: '30000' }), {
    message:
      'SVC_REQUEST_TIMEOUT_MS (30000 ms) must be below the test timeout (SVC_TEST_TIMEOUT_MS=30000): a stalled request would end as "Test timeout of 30000ms exceeded" instead of naming the request. Lower SVC_REQUEST_TIMEOUT_MS or raise SVC_TEST_TIMEOUT_MS.',
  });
  assert.throws(
    () => loadProfile({ SVC_REQUEST_TIMEOUT_MS: '30000' }),
    /^Error: SVC_REQUEST_TIMEOUT_MS \(30000 ms\) must be below the test timeout \(the default for this target, 30000 ms\)/,
  );
  assert.throws(
    () => loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_REQUEST_TIMEOUT_MS: '0' }),
    /SVC_REQUEST_TIMEOUT_MS must be a positive number of milliseconds, got "0"/,
  );
});

test('the body limit: 16 MiB unless SVC_MAX_BODY_BYTES says otherwise; a bad value is refused', () => {
  assert.equal(loadProfile({}).limits.maxBodyBytes, 16 * 1024 * 1024);
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://int.example' }).limits.maxBodyBytes, 16 * 1024 * 1024);
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_MAX_BODY_BYTES: '1048576' }).limits.maxBodyBytes, 1_048_576);
  for (const bad of ['0', '1.5', 'lots']) assert.throws(() => loadProfile({ SVC_MAX_BODY_BYTES: bad }), /SVC_MAX_BODY_BYTES must be/);
});

test('a base URL setting that is not an http(s) URL is refused, naming it', () => {
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'ftp://x' }), /SVC_BASE_URL must be an http\(s\) URL, got "ftp:\/\/x"/);
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://x.example', SVC_AUDIENCE_BASE_URL: 'not a url' }), /SVC_AUDIENCE_BASE_URL must be an http\(s\) URL/);
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://x.example/' }).platformBaseUrl, 'https://x.example');
});

test('run bounds: the run deadline sits above the test bound; the transport-failure stop counts whole failures', () => {
  assert.equal(loadProfile({}).timeouts.runMs, 15 * 60_000);
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://x.example' }).timeouts.runMs, 30 * 60_000);
  assert.equal(loadProfile({ SVC_RUN_TIMEOUT_MS: '0' }).timeouts.runMs, 0, '0 leaves the run unbounded');
  assert.throws(() => loadProfile({ SVC_RUN_TIMEOUT_MS: '1000' }), /must be above the test timeout/);
  assert.equal(loadProfile({}).limits.maxTransportFailures, 5);
  assert.throws(() => loadProfile({ SVC_MAX_TRANSPORT_FAILURES: '-1' }), /SVC_MAX_TRANSPORT_FAILURES must be/);
});

// ---- one parse per environment per process ----

test('the same environment gives the same frozen profile: one parse, every reader of a process shares it', () => {
  const env = { SVC_BASE_URL: 'https://int.example', SVC_REQUEST_TIMEOUT_MS: '1234' };
  const first = loadProfile(env);
  assert.equal(loadProfile({ ...env }), first, 'an equal environment in another object is the same parse');
  assert.equal(loadProfile({ ...env, UNRELATED_VARIABLE: 'x' }), first, 'a variable the profile does not read cannot change it');
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.timeouts) && Object.isFrozen(first.versions.supported));
  assert.throws(() => {
    (first.timeouts as { requestMs: number }).requestMs = 1;
  }, TypeError);
  assert.equal(loadProfile(env).timeouts.requestMs, 1234);
});

test('a variable the profile reads, changed between two calls, gives a fresh parse', () => {
  const env: Record<string, string | undefined> = { SVC_BASE_URL: 'https://int.example', SVC_REQUEST_TIMEOUT_MS: '1234' };
  const first = loadProfile(env);
  env.SVC_REQUEST_TIMEOUT_MS = '2345';
  assert.equal(loadProfile(env).timeouts.requestMs, 2345);
  env.SVC_REQUEST_TIMEOUT_MS = '1234';
  assert.equal(loadProfile(env), first);
  // A variable read only on the other branch (the simulator's) counts once that branch is taken.
  assert.notEqual(loadProfile({ ...env, SVC_BASE_URL: undefined }).name, first.name);
  assert.throws(() => loadProfile({ ...env, SVC_REQUEST_TIMEOUT_MS: 'soon' }), /SVC_REQUEST_TIMEOUT_MS/);
});

// ---- a text setting's default, declared once in the table ----

test("a text setting reads its variable, else the table's default for the kind of target; a missing default is refused, named", () => {
  const real = loadProfile({ SVC_BASE_URL: 'https://int.example' });
  assert.equal(real.achFilters.returnCode.name, SETTINGS.achFilters.returnCode.value?.real);
  assert.equal(real.widget.oauth, undefined, 'a widget control has no default on a real target: its scenario skips naming the variable');
  assert.equal(loadProfile({}).widget.oauth, SETTINGS.widget.oauthSelector.value?.simulator);
  assert.equal(loadProfile({ SVC_ACH_RETURN_CODE_PARAM: '' }).achFilters.returnCode.name, 'return_code', 'an empty variable is unset');
  assert.equal(loadProfile({ SVC_ACH_RETURN_CODE_PARAM: 'rc' }).achFilters.returnCode.name, 'rc');
  assert.equal(readStatedText({}, SETTINGS.oauthPage.denySelector, 'real'), '[data-action="deny"]');
  assert.throws(
    () => readStatedText({}, SETTINGS.widget.oauthSelector, 'real'),
    /^Error: SVC_WIDGET_OAUTH_SELECTOR has no default on a real target: the settings table must state one/,
  );
});

test("the OAuth page's controls: each variable, else the table's default; an empty variable is unset", () => {
  const guessed = ['SVC_OAUTH_AUTHORIZE_SELECTOR', 'SVC_OAUTH_DENY_SELECTOR'];
  const stated = { authorizeSelector: '[data-action="authorize"]', denySelector: '[data-action="deny"]', guessed };
  for (const base of [{}, { SVC_BASE_URL: 'https://int.example' }]) {
    assert.deepEqual(loadProfile({ ...base }).oauthPage, stated);
    // An exported but empty variable (a CI secret not set) is not an empty CSS selector.
    assert.deepEqual(loadProfile({ ...base, SVC_OAUTH_AUTHORIZE_SELECTOR: '', SVC_OAUTH_DENY_SELECTOR: '' }).oauthPage, stated);
    assert.deepEqual(loadProfile({ ...base, SVC_OAUTH_AUTHORIZE_SELECTOR: '#yes', SVC_OAUTH_DENY_SELECTOR: '#no' }).oauthPage, {
      authorizeSelector: '#yes',
      denySelector: '#no',
      guessed: [],
    });
    // Set to the guess's own text (a config file the simulator wrote) is set, not a guess.
    assert.deepEqual(loadProfile({ ...base, SVC_OAUTH_DENY_SELECTOR: '[data-action="deny"]' }).oauthPage.guessed, ['SVC_OAUTH_AUTHORIZE_SELECTOR']);
  }
});

test('a credential holding a control character (a secret stored with its line break) is refused by name, never shown', () => {
  const real = { SVC_BASE_URL: 'https://int.example', SVC_CLIENT_ID: 'client' };
  assert.throws(
    () => loadProfile({ ...real, SVC_API_KEY: 'k3y-value\n' }),
    (e: Error) => e.message.startsWith('SVC_API_KEY holds a line break at its end') && !e.message.includes('k3y-value'),
  );
  assert.throws(
    () => loadProfile({ ...real, SVC_API_KEY: 'key', SVC_TEST_PASSWORD_SUCCESS: 'pa\tss' }),
    /^Error: SVC_TEST_PASSWORD_SUCCESS holds a tab inside it/,
  );
  assert.throws(
    () => loadProfile({ ...real, SVC_API_KEY: 'key', SVC_AUDIENCE_CLIENT_ID: '\r\naud' }),
    /^Error: SVC_AUDIENCE_CLIENT_ID holds a carriage return at its start/,
  );
  // The simulator's profile reads the same variables.
  assert.throws(() => loadProfile({ SVC_CLIENT_ID: 'sim-client-id\n' }), /^Error: SVC_CLIENT_ID holds a line break at its end/);
  // Spaces are no control characters; a setting that is no credential is not this rule's.
  assert.equal(loadProfile({ ...real, SVC_API_KEY: 'key with spaces' }).apiKey, 'key with spaces');
});

test('a message names a setting by its variable and its config file key; a secret (environment only) and a command-line option as given', () => {
  assert.equal(settingNamed('SVC_BASE_URL'), 'SVC_BASE_URL (target.baseUrl in a config file)');
  assert.equal(settingNamed('SVC_AUDIENCE_TOKEN_URL'), 'SVC_AUDIENCE_TOKEN_URL (audience.tokenUrl in a config file)');
  assert.equal(settingNamed('SVC_API_KEY'), 'SVC_API_KEY');
  assert.equal(settingNamed('--observe-url'), '--observe-url');
});
