/**
 * The preflight's area table (preflight/requirements.ts) says what the scenarios' skips
 * say: every setting a scenario's skip says it needs is in the table, and every setting
 * in the table is one a scenario's skip names. Read from the scenario files as text, so
 * a new requireSetting or "needs SVC_X" skip without its line in the table fails here.
 *
 * A skip "needs" a setting when the setting decides before the scenario talks to the
 * target: requireSetting's variable, a skip reason saying "needs SVC_X" / "need SVC_X",
 * a product path (pathOf, "SVC_PATH_X is not set") and a widget control
 * (missingControls). Skips that depend on what the target answers ("set SVC_X" after a
 * 404, a transaction that has left the window) are not in the table: the preflight
 * cannot know them before the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadProfile,
  PASSWORD_SCENARIOS,
  PRODUCT_PATH_ENV,
  settingEntries,
  WIDGET_CONTROLS,
  type ProductPaths,
  type WidgetControls,
} from '../targets/index.ts';
import {
  AREA_REQUIREMENTS,
  areaPlan,
  CHECK_SETTINGS,
  EMBEDDED_SIMULATOR,
  MINIMAL_SETTINGS,
  needsFullSettings,
  requirementVariables,
  SETTING_SOURCES,
  settingsOfCheck,
  sourceOfSetting,
} from './requirements.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SCENARIOS = join(ROOT, 'scenarios');
/** The client module whose missing credentials the checked client skips on, naming them (MissingSetting). */
const CLIENT_MODULE = join(ROOT, 'targets', 'client.ts');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const VARIABLE = /\bSVC_[A-Z0-9_]*[A-Z0-9]\b/g;

/** The settings the scenarios' skips say they need, with the files that say so. */
function neededBySkips(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (variable: string, file: string) => out.set(variable, (out.get(variable) ?? new Set()).add(relative(ROOT, file)));
  for (const file of sources(SCENARIOS)) {
    const text = readFileSync(file, 'utf8');
    // requireSetting(value, 'SVC_X' | `SVC_X_${...}`, ...)
    for (const m of text.matchAll(/requireSetting\([^;]*?,\s*(['`])([^'`]*)\1/g)) {
      if (m[2] === 'SVC_X') continue; // the fixture's own documentation example
      if (m[2] === 'SVC_TEST_PASSWORD_${scenario}')
        PASSWORD_SCENARIOS.forEach((s) => {
          add(`SVC_TEST_PASSWORD_${s}`, file);
        });
      else for (const v of m[2].match(VARIABLE) ?? []) add(v, file);
    }
    // "needs SVC_X", "needs SVC_X and SVC_Y", "need SVC_X, SVC_Y and SVC_Z"
    for (const m of text.matchAll(/\bneeds? ((?:SVC_[A-Z0-9_]+(?:,\s*|\s+and\s+)?)+)/g)) for (const v of m[1].match(VARIABLE) ?? []) add(v, file);
    // product paths: pathOf(profile, 'key', ...) skips naming PRODUCT_PATH_ENV[key]
    if (/PRODUCT_PATH_ENV\[key\]} is not set/.test(text)) {
      for (const key of Object.keys(PRODUCT_PATH_ENV) as Array<keyof ProductPaths>) {
        // A path used only when set (`if (profile.productPaths.tagging) ...`) never skips.
        const optional = text.includes(`if (profile.productPaths.${key})`);
        if (!optional && new RegExp(`pathOf\\(profile, '${key}'|'${key}'(?:,|\\])`).test(text)) add(PRODUCT_PATH_ENV[key], file);
      }
    }
    // versions: a scenario judged on one version skips when SVC_VERSIONS leaves it out
    if (/test\.skip\(\s*!profile\.versions\.supported\.includes\(/.test(text)) add('SVC_VERSIONS', file);
    // widget controls: missingControls(controls, ['oauth', ...])
    for (const m of text.matchAll(/missingControls\([^,]+,\s*\[([^\]]*)\]/g)) {
      for (const key of m[1].match(/[a-z]+/g) ?? []) add(WIDGET_CONTROLS[key as keyof WidgetControls].env, file);
    }
  }
  // The checked client's credentials: targets/client.ts setting(value, 'SVC_X'), a skip naming SVC_X.
  const client = readFileSync(CLIENT_MODULE, 'utf8');
  for (const m of client.matchAll(/\bsetting\([^;]*?,\s*'(SVC_[A-Z0-9_]+)'\)/g)) add(m[1], CLIENT_MODULE);
  return out;
}

test('every setting a scenario skip needs is in the preflight table, and every table setting is one a skip needs', () => {
  const needed = neededBySkips();
  // The reader saw what it must see, so the comparison means something.
  for (const v of [
    'SVC_CLIENT_ID',
    'SVC_TEST_PASSWORD_SUCCESS',
    'SVC_3DX_ISSUER_GUID',
    'SVC_PATH_GOALS',
    'SVC_WIDGET_OAUTH_SELECTOR',
    'SVC_USE_CASES',
    'SVC_WEBHOOK_PUBLIC_URL',
  ]) {
    assert.ok(needed.has(v), `the scenario reader found ${v}`);
  }
  const table = requirementVariables(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' }));
  const missingFromTable = [...needed.keys()].filter((v) => !table.has(v)).map((v) => `${v} (${[...needed.get(v)!].join(', ')})`);
  assert.deepEqual(missingFromTable, [], 'settings a scenario skip needs that preflight/requirements.ts does not list');
  const namedByNoSkip = [...table].filter((v) => !needed.has(v));
  assert.deepEqual(namedByNoSkip, [], 'settings in preflight/requirements.ts that no scenario skip names');
});

test('every tag of the table is a tag some scenario carries', () => {
  const tags = new Set(
    sources(SCENARIOS)
      .flatMap((f) => readFileSync(f, 'utf8').match(/'@[a-z-]+'/g) ?? [])
      .map((t) => t.slice(1, -1)),
  );
  const unknown = AREA_REQUIREMENTS.flatMap((r) => r.tags).filter((t) => t !== '(all)' && !tags.has(t));
  assert.deepEqual(unknown, []);
});

test('on the simulator every area runs but the one the simulator cannot serve (a public webhook URL); on a bare real target only the credentials area and the areas judged on one version (every version is the default) run; a version left out skips its area', () => {
  const sim = areaPlan(loadProfile({}));
  assert.deepEqual(
    sim.filter((a) => a.verdict === 'skips').map((a) => a.missing),
    [['SVC_WEBHOOK_PUBLIC_URL']],
  );
  // Every version of the contract is a real target's default (SVC_VERSIONS), so the areas judged on one run.
  const bare = areaPlan(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CLIENT_ID: 'c', SVC_API_KEY: 'k' }));
  assert.deepEqual(
    bare.filter((a) => a.verdict === 'runs').map((a) => a.area.replace(/:.*/, '')),
    ['every platform and test-host scenario', 'judged on v20111101', 'judged on v20250224'],
  );
  const twoVersions = areaPlan(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_VERSIONS: 'v20250224,v20260929' }));
  assert.deepEqual(
    twoVersions.filter((a) => a.area.startsWith('judged on v20111101')).map((a) => [a.verdict, a.missing, a.note]),
    [['skips', ['SVC_VERSIONS'], 'v20111101 among the versions']],
  );
  const noCredentials = areaPlan(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' }));
  assert.deepEqual(noCredentials[0].missing, ['SVC_CLIENT_ID', 'SVC_API_KEY']);
});

/** `<file> > <title>` of every scenario declared with a literal title, in any quotes (the way spec/trace.yaml names checks). */
function declaredChecks(): string[] {
  const out: string[] = [];
  for (const file of sources(SCENARIOS)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\btest\((['"`])((?:(?!\1)[^\\]|\\.)*)\1/g))
      out.push(`${relative(ROOT, file)} > ${m[2].replace(/\\'/g, "'")}`);
  }
  return out;
}

test('every area needing more than the minimal settings names its scenarios, and each such name is a declared scenario', () => {
  const bare = loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' });
  const checks = declaredChecks();
  assert.ok(checks.length > 100, `scenarios read: ${checks.length}`);
  const unnamed = AREA_REQUIREMENTS.filter((r) => r.needs(bare).some(([v]) => !MINIMAL_SETTINGS.has(v)) && !r.scenarios).map((r) => r.area);
  assert.deepEqual(unnamed, [], 'areas beyond the minimal settings whose scenarios are not named');
  const matchingNone = AREA_REQUIREMENTS.filter((r) => r.scenarios && !checks.some((c) => r.scenarios!.test(c))).map((r) => `${r.area}: ${r.scenarios}`);
  assert.deepEqual(matchingNone, [], 'areas whose scenarios match no declared scenario');
  // What the table says, read back: a data-exchange scenario needs a client GUID; an identify one runs with minimal settings.
  assert.equal(needsFullSettings('scenarios/api/data-exchange.spec.ts > the token endpoint answers 201 and its token opens the protected reads'), true);
  assert.equal(needsFullSettings('scenarios/api/identify.spec.ts > identify while an identification runs answers 202'), false);
  assert.equal(
    needsFullSettings('scenarios/api/legacy.spec.ts > the test institutions are svcbank and svc_bank_oauth'),
    false,
    'the test host needs only its base URL',
  );
  // A check that would use a default of ours needs the setting: the OAuth page's markup is not shown.
  assert.equal(needsFullSettings('scenarios/browser/oauth.spec.ts > the oauth_window_uri is single use'), true);
  assert.deepEqual(settingsOfCheck('scenarios/browser/oauth.spec.ts > the oauth_window_uri is single use'), [
    'SVC_OAUTH_AUTHORIZE_SELECTOR',
    'SVC_OAUTH_DENY_SELECTOR',
  ]);
});

/**
 * Every declared scenario whose body skips when the target does not serve a version
 * (`test.skip(!profile.versions.supported.includes(...))`, directly or through the file's
 * `supports(profile, V)`), with that version: read from the scenario files as text.
 */
function versionSkips(): Array<{ check: string; version: string }> {
  const out: Array<{ check: string; version: string }> = [];
  for (const file of sources(join(SCENARIOS, 'api'))) {
    const text = readFileSync(file, 'utf8');
    const constants: Record<string, string> = Object.fromEntries([...text.matchAll(/\bconst (\w+) = '(v\d{8})'/g)].map((m) => [m[1], m[2]]));
    // scenarios/steps/members.ts: "create member and request widget URL take a required data_request" from v20250224.
    constants.DATA_REQUEST_FROM = 'v20250224';
    const declarations = [...text.matchAll(/\btest\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)];
    declarations.forEach((m, i) => {
      const body = text.slice(m.index, declarations[i + 1]?.index ?? text.length).replace(/\n(?:async )?function \w+\([\s\S]*?\n\}/g, '');
      const versions = new Set<string>();
      for (const call of body.matchAll(/\bsupports\(profile, (\w+)\)/g)) versions.add(constants[call[1]] ?? call[1]);
      if (/test\.skip\(\s*!profile\.versions\.supported\.includes\((version|stated)\)/.test(body))
        for (const c of body.matchAll(/\bconst (?:version|stated) = (?:'(v\d{8})'|(\w+))/g)) versions.add(c[1] ?? constants[c[2]] ?? c[2]);
      for (const version of versions) out.push({ check: `${relative(ROOT, file)} > ${m[2].replace(/\\'/g, "'")}`, version });
    });
  }
  return out;
}

test('the preflight names every scenario that skips when SVC_VERSIONS leaves its version out', () => {
  const skips = versionSkips();
  assert.ok(skips.length >= 20, `version skips read: ${skips.length}`);
  for (const { version } of skips) assert.match(version, /^v\d{8}$/);
  const unnamed = skips.filter(
    ({ check, version }) =>
      !AREA_REQUIREMENTS.some(
        (r) =>
          r.scenarios?.test(check) &&
          r.needs(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_VERSIONS: 'v20260929' })).some(([v, set]) => v === 'SVC_VERSIONS' && !set) &&
          !r.needs(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_VERSIONS: `v20260929,${version}` })).some(([v, set]) => v === 'SVC_VERSIONS' && !set),
      ),
  );
  assert.deepEqual(
    unnamed.map((u) => `${u.check} (${u.version})`),
    [],
    'scenarios judged on a version that no area of preflight/requirements.ts names with that version',
  );
});

test('the preflight names every scenario that skips on any target but the embedded simulator', () => {
  const named: string[] = [];
  for (const file of sources(SCENARIOS)) {
    const text = readFileSync(file, 'utf8');
    const skip = /test\.skip\(\s*!(?:profile|PROFILE)\.isSimulator\b/;
    // A helper of the file that holds the skip (simulatorOnly(profile)) counts as the skip.
    const helpers = [...text.matchAll(/\bfunction (\w+)\([^)]*\)[^{]*\{([\s\S]*?)\n\}/g)].filter((m) => skip.test(m[2])).map((m) => m[1]);
    const declarations = [...text.matchAll(/\btest\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)];
    declarations.forEach((m, i) => {
      // Up to the next declaration, top-level functions (a helper's own definition) left out.
      const body = text.slice(m.index, declarations[i + 1]?.index ?? text.length).replace(/\n(?:async )?function \w+\([\s\S]*?\n\}/g, '');
      if (skip.test(body) || helpers.some((h) => new RegExp(`\\b${h}\\(`).test(body))) named.push(`${relative(ROOT, file)} > ${m[2]}`);
    });
  }
  assert.ok(named.length >= 3, `simulator-only scenarios read: ${named.join('; ')}`);
  const real = loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' });
  assert.deepEqual(
    named.filter((check) => !AREA_REQUIREMENTS.some((r) => r.scenarios?.test(check) && r.needs(real).some(([v, set]) => v === EMBEDDED_SIMULATOR && !set))),
    [],
    'simulator-only scenarios no area of preflight/requirements.ts names',
  );
  assert.deepEqual(settingsOfCheck('scenarios/api/aggregation.spec.ts > connected members refresh when 24 hours have passed'), [], 'not a setting');
});

// ---- where each setting's value comes from (setting-sources.ts) --------------------------------

/** Every variable of the settings table (targets/profiles/settings.ts). */
const documentedSettings = (): string[] => settingEntries().map((s) => s.env);

test('every setting of the settings table says where its value comes from, and why; the table names no other', () => {
  const documented = documentedSettings();
  assert.ok(documented.length > 100, `settings read from docs/settings.md: ${documented.length}`);
  assert.deepEqual(
    documented.filter((v) => !(v in SETTING_SOURCES)),
    [],
    'settings without a source in preflight/setting-sources.ts',
  );
  assert.deepEqual(
    Object.keys(SETTING_SOURCES).filter((v) => !documented.includes(v)),
    [],
    'sources of settings the table does not have',
  );
  assert.deepEqual(
    Object.entries(SETTING_SOURCES)
      .filter(([, e]) => e.reason.trim().length < 20)
      .map(([v]) => v),
    [],
    'sources without a reason',
  );
});

test('the minimal settings are what the vendor hands every team; every setting a check needs is classified', () => {
  assert.deepEqual(
    [...MINIMAL_SETTINGS].sort(),
    Object.keys(SETTING_SOURCES)
      .filter((v) => SETTING_SOURCES[v].source === 'minimal')
      .sort(),
  );
  for (const v of ['SVC_BASE_URL', 'SVC_CLIENT_ID', 'SVC_API_KEY', 'SVC_TEST_USERNAME', 'SVC_TEST_PASSWORD_SUCCESS', 'SVC_CORRECT_ANSWER'])
    assert.ok(MINIMAL_SETTINGS.has(v), v);
  // The guesses the specification leaves (DESIGN.md, "Target profiles": "deprecation header names").
  for (const v of ['SVC_DEPRECATION_HEADER', 'SVC_PROCESSOR_TOKEN_REQUEST', 'SVC_3DX_GRANTEE_QUERY_PARAM']) assert.equal(sourceOfSetting(v), 'guess', v);
  const needed = new Set([...requirementVariables(loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' })), ...CHECK_SETTINGS.flatMap((c) => c.variables)]);
  assert.deepEqual(
    [...needed].filter((v) => sourceOfSetting(v) === undefined || sourceOfSetting(v) === 'option'),
    [],
    'a setting a check needs that is unclassified, or classified as a mere option',
  );
});

/** Profile fields with a default of ours that a scenario uses when the setting is unset, and their settings. */
const DEFAULTED_FIELDS: Record<string, string[]> = {
  oauthPage: ['SVC_OAUTH_AUTHORIZE_SELECTOR', 'SVC_OAUTH_DENY_SELECTOR'],
  exchangeCode: ['SVC_PROCESSOR_TOKEN_REQUEST'],
  granteeQueryParam: ['SVC_3DX_GRANTEE_QUERY_PARAM'],
  dateFieldOf: ['SVC_3DX_TRANSACTION_DATE_FIELD'],
  nameParam: ['SVC_INSTITUTION_NAME_PARAM'],
  countryParam: ['SVC_INSTITUTION_COUNTRY_PARAM'],
  achFilters: ['SVC_ACH_RETURN_CODE_PARAM'],
  userCategories: ['SVC_USER_DEFAULT_CATEGORIES_PATH'],
};

/** A defaulted field some scenarios read through a helper of their own (scenarios/browser/controls.ts). */
const READ_THROUGH: Record<string, string> = { oauthPage: 'oauthAction' };

test('every scenario file that uses a default of ours has its checks in CHECK_SETTINGS, and each entry names declared scenarios', () => {
  const checks = declaredChecks();
  const uncovered: string[] = [];
  for (const file of sources(SCENARIOS)) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(ROOT, file);
    // journeys.ts defines exchangeCode and browser/controls.ts oauthAction; the scenario files that call them are the uses.
    if (rel === 'scenarios/api/journeys.ts' || rel === 'scenarios/browser/controls.ts') continue;
    for (const [field, variables] of Object.entries(DEFAULTED_FIELDS)) {
      if (!new RegExp(`\\b(${field}|${READ_THROUGH[field] ?? field})\\b`).test(text)) continue;
      const covered = CHECK_SETTINGS.some(
        (c) => variables.some((v) => c.variables.includes(v)) && checks.some((check) => check.startsWith(`${rel} > `) && c.checks.test(check)),
      );
      if (!covered) uncovered.push(`${rel} uses ${field}`);
    }
  }
  assert.deepEqual(uncovered, []);
  const matchingNone = CHECK_SETTINGS.filter((c) => !/^\^load/.test(c.checks.source) && !checks.some((check) => c.checks.test(check))).map((c) =>
    String(c.checks),
  );
  assert.deepEqual(matchingNone, [], 'entries whose checks match no declared scenario');
});
