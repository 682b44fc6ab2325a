/**
 * What a profile lets run: each area of scenarios with the settings it needs, named
 * exactly as the scenarios' skips name them (requireSetting, test.skip and
 * missingControls messages: "needs SVC_X"). A scenario whose setting is missing skips
 * with that variable's name; this table says so before the run, per area.
 *
 * The table is the scenarios' skips gathered in one place, not a second source of
 * truth: preflight/requirements.test.ts reads every scenario file and fails when a
 * variable a skip names is missing here, or when a variable here is named by no scenario.
 *
 * On the embedded simulator every setting has its default (targets/profiles), so every
 * area runs; the table matters for a real target.
 */
import {
  loadProfile,
  PRODUCT_PATH_ENV,
  WIDGET_CONTROLS,
  type PasswordScenario,
  type ProductPaths,
  type TargetProfile,
  type WidgetControls,
} from '../targets/index.ts';
import { SETTING_SOURCES, settingsOfSource, sourceOfSetting, type SettingSource } from './setting-sources.ts';

export { SETTING_SOURCES, sourceOfSetting, type SettingSource };

/** Playwright projects of playwright.config.ts. */
export type Project = 'api' | 'browser' | 'properties';

export interface AreaRequirement {
  /** What runs, in words. */
  area: string;
  /** Tags of the scenarios concerned (`--grep`), as the scenarios carry them. */
  tags: string[];
  project: Project;
  /** Each setting the area needs, by the variable a skip names, and whether the profile has it. */
  needs(profile: TargetProfile): Array<[variable: string, set: boolean]>;
  /** A need that is not one setting (two use cases, two grantees), said in words. */
  note?: string;
  /**
   * The scenarios that skip without the area's settings, as `<file> > <title>` (the way
   * spec/trace.yaml names them): where an area's settings go beyond the minimal ones
   * (MINIMAL_SETTINGS), `npm run spec:stats` counts what only these scenarios prove under
   * full settings only. Unset: the area's tags say which scenarios (every one runs with
   * minimal settings, or the area is not about one scenario).
   */
  scenarios?: RegExp;
}

/**
 * The settings of a minimal profile (the honest coverage figures count what runs with
 * these alone): what the vendor hands every team, `minimal` in preflight/setting-sources.ts
 * (the base URLs, the credentials, the test institution's user, scenario passwords and MFA
 * answer). What a target cannot reveal beyond these (a client's GUID, an audience, a
 * version it has sunset, the paths the specification does not show, ...) is a
 * full-settings need, or a guess.
 */
export const MINIMAL_SETTINGS: ReadonlySet<string> = new Set(settingsOfSource('minimal'));

const has = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const password = (p: TargetProfile, s: PasswordScenario): [string, boolean] => [`SVC_TEST_PASSWORD_${s}`, has(p.testInstitution.passwords[s])];
const correctAnswer = (p: TargetProfile): [string, boolean] => ['SVC_CORRECT_ANSWER', has(p.testInstitution.correctAnswer)];
const credentials = (p: TargetProfile): Array<[string, boolean]> => [
  ['SVC_CLIENT_ID', has(p.clientId)],
  ['SVC_API_KEY', has(p.apiKey)],
];
const productPaths = (p: TargetProfile, keys: Array<keyof ProductPaths>): Array<[string, boolean]> =>
  keys.map((k) => [PRODUCT_PATH_ENV[k], has(p.productPaths[k])]);
const controls = (p: TargetProfile, keys: Array<keyof WidgetControls>): Array<[string, boolean]> => keys.map((k) => [WIDGET_CONTROLS[k].env, has(p.widget[k])]);
const dx = (p: TargetProfile) => p.dataExchange;
/** The target serves `version` (SVC_VERSIONS): scenarios judged on one version skip without it, naming SVC_VERSIONS. */
const serves = (p: TargetProfile, version: string): [string, boolean] => ['SVC_VERSIONS', p.versions.supported.includes(version)];
/**
 * Scenario titles that name a version, as declared (`${OLD}`, `${V2025}`, `${DATA_REQUEST_FROM}`)
 * and as run (the version itself): one pattern for both.
 */
const versionTitles = (file: string, titles: string[]) =>
  new RegExp(
    `^scenarios/api/${file.replace(/\./g, '\\.')} > (${titles
      .map((t) => t.replace(/[.*+?^()|[\]\\]/g, '\\$&').replace(/\{V(\d{8})\}/g, (_m, d: string) => `(?:v${d}|\\$\\{(?:OLD|V2025|DATA_REQUEST_FROM)\\})`))
      .join('|')})$`,
  );
const V2011_SCENARIOS = [
  versionTitles('accounts.spec.ts', ['accounts of a member name that member and carry *_set_by and feed_* fields']),
  versionTitles('aggregation.spec.ts', ['v20111101: a member created with skip_aggregation true is not aggregated']),
  versionTitles('deprecated.spec.ts', ['the managed member endpoints answer on {V20111101}, before their deprecation']),
  versionTitles('versions.spec.ts', [
    '{V20111101} institutions carry the four supports_* fields',
    '{V20111101} list institutions filters by the four supports_* fields',
    '{V20111101} create member needs no data_request',
    'sunset endpoints are refused on {V20250224}',
    'a {V20111101} request with the vendor media type in Accept is served',
  ]),
];
const V2025_SCENARIOS = [
  versionTitles('aggregation.spec.ts', [
    'v20250224: aggregation is assumed without skip_aggregation; every named product is accepted',
    'v20250224: products naming neither transactions nor history bring no transactions',
  ]),
  versionTitles('deprecated.spec.ts', [
    'the managed member endpoints, deprecated on {V20250224}, still answer and signal their deprecation',
    'the deprecation signal /managed_institutions carries is on every deprecated endpoint and on no current one',
  ]),
  versionTitles('near-misses.spec.ts', ['near misses of the data_request required on {V20250224} are refused on create member and widget URL']),
  versionTitles('optional-headers.spec.ts', ['SVC-SKIP-WEBHOOK is accepted on the deprecated managed member create, update and delete (v20250224)']),
  versionTitles('versions.spec.ts', [
    '{V20250224} institutions use supported_products in place of the supports_* fields',
    '{V20250224} list institutions filters by supported_products',
    '{V20250224} create member requires data_request',
    '{V20250224} request widget URL requires data_request',
    '{V20250224} MFA option entries carry a guid',
    'deprecated endpoints on {V20250224} carry the deprecation header',
    'sunset endpoints are refused on {V20250224}',
  ]),
  versionTitles('widgets.spec.ts', ['on v20250224 the widget URL path takes the user_identifier (the partner-defined user id)']),
];
const anyOf = (patterns: RegExp[]) => new RegExp(patterns.map((r) => `(?:${r.source})`).join('|'));

/** Members connected with the success password: what aggregation brings is read after it. */
const CONNECTED_MEMBER_TAGS = [
  '@members',
  '@aggregation',
  '@accounts',
  '@transactions',
  '@insights',
  '@identify',
  '@processor',
  '@ach-returns',
  '@deprecated',
  '@versions',
  '@product-areas',
];

/**
 * The need of a scenario that drives the embedded simulator itself (its clock, its webhook
 * dispatcher): no setting supplies it, so a real target always skips it. Not a variable:
 * requirementVariables and settingsOfCheck leave it out.
 */
export const EMBEDDED_SIMULATOR = 'the embedded simulator';
const embedded = (p: TargetProfile): [string, boolean] => [EMBEDDED_SIMULATOR, p.isSimulator];

export const AREA_REQUIREMENTS: readonly AreaRequirement[] = [
  {
    area: 'every platform and test-host scenario',
    tags: ['(all)'],
    project: 'api',
    needs: credentials,
  },
  {
    area: 'connected members: accounts, transactions, insights, identify, processor, lifecycle',
    tags: CONNECTED_MEMBER_TAGS,
    project: 'api',
    needs: (p) => [password(p, 'SUCCESS')],
  },
  {
    area: 'text MFA answered right and wrong',
    tags: ['@mfa', '@members'],
    project: 'api',
    needs: (p) => [password(p, 'CHALLENGE'), correctAnswer(p)],
  },
  {
    area: 'option-list MFA answered right and wrong',
    tags: ['@mfa', '@members', '@versions'],
    project: 'api',
    needs: (p) => [password(p, 'OPTIONS'), correctAnswer(p)],
  },
  {
    area: 'image MFA answered right and wrong',
    tags: ['@mfa', '@members'],
    project: 'api',
    needs: (p) => [password(p, 'IMAGE'), correctAnswer(p)],
  },
  {
    area: 'image-options MFA answered right and wrong',
    tags: ['@mfa', '@members'],
    project: 'api',
    needs: (p) => [password(p, 'IMAGE_OPTIONS'), correctAnswer(p)],
  },
  {
    area: 'end states DENIED and HALTED of the test institution',
    tags: ['@members'],
    project: 'api',
    needs: (p) => (['BAD_REQUEST', 'UNAUTHORIZED', 'INVALID', 'LOCKED', 'SERVER_ERROR', 'UNAVAILABLE'] as const).map((s) => password(p, s)),
  },
  {
    // One client GUID is the entry point: the grant, its issuer and grantees, a user, an
    // account and its member are read from the target (scenarios/api/data-exchange-identities.ts).
    area: 'data exchange: grants, the token, users, accounts and members (read from the grant lists)',
    tags: ['@data-exchange', '@paging'],
    project: 'api',
    scenarios: /^scenarios\/api\/data-exchange\.spec\.ts > /,
    needs: (p) => [['SVC_3DX_ISSUER_GUID', has(dx(p).issuerClientGuid) || has(dx(p).granteeClientGuid)]],
    note: "or SVC_3DX_GRANTEE_GUID: no endpoint reveals a client's own GUID",
  },
  {
    area: 'data exchange: reads by partner-defined ids',
    tags: ['@data-exchange'],
    project: 'api',
    scenarios:
      /^scenarios\/api\/data-exchange\.spec\.ts > (slim user, accounts and transactions read with GUIDs and partner ids|the per-member paths read the account, its transactions and a transaction by partner ids)$/,
    needs: (p) => [['SVC_3DX_MEMBER_ID', has(dx(p).memberPartnerId)]],
    note: 'no data-exchange read answers a member, so its partner id is a setting',
  },
  {
    area: 'data exchange: the 90-day default window',
    tags: ['@data-exchange'],
    project: 'api',
    scenarios: /^scenarios\/api\/data-exchange\.spec\.ts > the default window reaches back the full 90 days/,
    needs: (p) => [['SVC_3DX_WINDOW_TRANSACTION_GUID', has(dx(p).windowTransactionGuid)]],
  },
  {
    area: 'data exchange: manual and out-of-scope transactions answer 404',
    tags: ['@data-exchange'],
    project: 'api',
    scenarios:
      /^scenarios\/api\/data-exchange\.spec\.ts > (a manual transaction and one outside the grant scope answer 404|the member-account transaction read answers 404 for a manual or out-of-scope transaction)$/,
    needs: (p) => [
      ['SVC_3DX_MANUAL_TRANSACTION_GUID', has(dx(p).manualTransactionGuid)],
      ['SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID', has(dx(p).scopeMismatchTransactionGuid)],
      ['SVC_3DX_MANUAL_TRANSACTION_MEMBER', has(dx(p).manualTransactionMember)],
      ['SVC_3DX_MANUAL_TRANSACTION_ACCOUNT', has(dx(p).manualTransactionAccount)],
      ['SVC_3DX_SCOPE_MISMATCH_MEMBER', has(dx(p).scopeMismatchMember)],
      ['SVC_3DX_SCOPE_MISMATCH_ACCOUNT', has(dx(p).scopeMismatchAccount)],
    ],
  },
  {
    area: 'audience list service',
    tags: ['@audience'],
    project: 'api',
    scenarios: /^scenarios\/api\/(audience\.spec\.ts > |auth\.spec\.ts > the audience service refuses)/,
    needs: (p) => [
      ['SVC_AUDIENCE_BASE_URL', has(p.audienceBaseUrl)],
      ['SVC_AUDIENCE_TOKEN_URL', has(p.audience.tokenUrl)],
      ['SVC_AUDIENCE_CLIENT_ID', has(p.audience.clientId)],
      ['SVC_AUDIENCE_CLIENT_SECRET', has(p.audience.clientSecret)],
      ['SVC_AUDIENCE_ID', has(p.audience.audienceId)],
    ],
  },
  {
    area: 'audience list read by its slug',
    tags: ['@audience'],
    project: 'api',
    scenarios: /^scenarios\/api\/audience\.spec\.ts > the audience list read by its slug /,
    needs: (p) => [['SVC_AUDIENCE_SLUG', has(p.audience.audienceSlug)]],
    note: 'no answer carries the slug: the partner administrator knows it',
  },
  {
    area: 'earlier-generation test host',
    tags: ['@legacy'],
    project: 'api',
    scenarios: /^scenarios\/api\/(legacy\.spec\.ts > |auth\.spec\.ts > the test host refuses)/,
    needs: (p) => [['SVC_TEST_HOST_BASE_URL', has(p.testHostBaseUrl)]],
  },
  {
    // A blocked institution is read from the list (is_disabled_by_client) when none is named.
    area: "institutions: the test institution's country, favourites in popularity order",
    tags: ['@institutions'],
    project: 'api',
    scenarios:
      /^scenarios\/api\/institutions\.spec\.ts > (the institution list filtered by the test institution's country code keeps it|favourite institutions are listed by popularity)$/,
    needs: (p) => [
      ['SVC_TEST_INSTITUTION_COUNTRY', has(p.institutions.testInstitutionCountry)],
      ['SVC_FAVORITE_INSTITUTION_CODES', has(p.institutions.favouriteCodes)],
    ],
  },
  {
    area: 'cross-client isolation',
    tags: ['@isolation'],
    project: 'api',
    scenarios: /^scenarios\/api\/isolation\.spec\.ts > /,
    needs: (p) => [
      ['SVC_SECOND_CLIENT_ID', has(p.secondClient.clientId)],
      ['SVC_SECOND_API_KEY', has(p.secondClient.apiKey)],
    ],
  },
  {
    area: 'transactions filtered by use case',
    tags: ['@transactions'],
    project: 'api',
    scenarios: /^scenarios\/api\/transactions\.spec\.ts > .*use.case/,
    needs: (p) => [['SVC_USE_CASES', (p.useCases?.length ?? 0) >= 2]],
    note: 'two or more use cases the client is opted in to',
  },
  {
    // Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"; what a version
    // changed is judged on that version, so a target whose SVC_VERSIONS leaves it out skips these.
    area: 'judged on v20111101: supports_* and *_set_by fields, skip_aggregation, managed members before their deprecation, the vendor media type, sunset endpoints',
    tags: ['@versions', '@accounts', '@aggregation', '@deprecated'],
    project: 'api',
    scenarios: anyOf(V2011_SCENARIOS),
    needs: (p) => [serves(p, 'v20111101')],
    note: 'v20111101 among the versions',
  },
  {
    area: 'judged on v20250224: supported_products, data_request, skip_aggregation deprecated, managed members deprecated, the widget URL by user_identifier, sunset endpoints',
    tags: ['@versions', '@aggregation', '@deprecated', '@widgets'],
    project: 'api',
    scenarios: anyOf(V2025_SCENARIOS),
    needs: (p) => [serves(p, 'v20250224')],
    note: 'v20250224 among the versions',
  },
  {
    area: 'a sunset version answers an error',
    tags: ['@versions'],
    project: 'api',
    scenarios: /^scenarios\/api\/versions\.spec\.ts > a sunset version answers an error$/,
    needs: (p) => [['SVC_SUNSET_VERSION', has(p.versions.sunset)]],
  },
  {
    area: 'a deprecated version stays usable for 12 months',
    tags: ['@versions'],
    project: 'api',
    scenarios: /^scenarios\/api\/versions\.spec\.ts > a deprecated version stays usable for 12 months/,
    needs: (p) => [
      ['SVC_DEPRECATED_VERSION', has(p.versions.deprecated?.version)],
      ['SVC_DEPRECATED_ON', has(p.versions.deprecated?.on)],
    ],
  },
  {
    area: 'product area: notifications',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => productPaths(p, ['notifications']),
  },
  {
    area: 'product area: goals',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => productPaths(p, ['goals', 'goalsReposition']),
  },
  {
    area: 'product area: budgets',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => [...productPaths(p, ['budgets', 'budgetsGenerate']), password(p, 'SUCCESS')],
  },
  {
    area: 'product area: statements',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => [...productPaths(p, ['statements', 'statementPdf']), password(p, 'SUCCESS')],
  },
  {
    area: 'product area: tags and taggings',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => [...productPaths(p, ['tags', 'taggings']), password(p, 'SUCCESS')],
  },
  {
    area: 'product area: holdings',
    tags: ['@product-areas'],
    project: 'api',
    scenarios: /^scenarios\/api\/product-areas\.spec\.ts > /,
    needs: (p) => [...productPaths(p, ['holdingsByUser', 'holdingsByAccount', 'holdingsByMember']), password(p, 'SUCCESS')],
  },
  {
    area: 'widget: OAuth through the widget',
    tags: ['@widgets', '@oauth'],
    project: 'browser',
    scenarios: /^scenarios\/browser\/widget\.spec\.ts > /,
    needs: (p) => controls(p, ['oauth']),
  },
  {
    area: 'widget: connect, primary action, delete',
    tags: ['@widgets'],
    project: 'browser',
    scenarios: /^scenarios\/browser\/widget\.spec\.ts > /,
    needs: (p) => [...controls(p, ['username', 'password', 'connect', 'primary', 'delete']), password(p, 'SUCCESS')],
  },
  {
    area: 'widget: back to search',
    tags: ['@widgets'],
    project: 'browser',
    scenarios: /^scenarios\/browser\/widget\.spec\.ts > /,
    needs: (p) => controls(p, ['back']),
  },
  {
    area: 'the 24-hour refresh of connected members',
    tags: ['@aggregation'],
    project: 'api',
    scenarios:
      /^scenarios\/api\/aggregation\.spec\.ts > (connected members refresh when 24 hours have passed|members of a disabled user are not refreshed after 24 hours)$/,
    needs: (p) => [embedded(p)],
    note: "a day must pass: only the simulator's clock can be moved; on a real target observe it over a day",
  },
  {
    area: 'webhook delivery conformance of the simulated service (retries, ordering, payloads)',
    tags: ['@webhooks', '@delivery'],
    project: 'properties',
    scenarios: /^scenarios\/properties\/delivery\.spec\.ts > /,
    needs: (p) => [embedded(p)],
    note: "drives the simulator's webhook dispatcher; a real service's deliveries: SVC_WEBHOOK_PUBLIC_URL (@live)",
  },
  {
    area: 'webhook deliveries of a real service',
    tags: ['@webhooks', '@live'],
    project: 'properties',
    scenarios: /^(scenarios\/properties\/live-delivery\.spec\.ts > |live-delivery\b|check: webhook_)/,
    needs: (p) => [['SVC_WEBHOOK_PUBLIC_URL', has(p.webhookCapture.publicUrl)], password(p, 'SUCCESS')],
  },
];

export interface AreaPlan {
  area: string;
  tags: string[];
  project: Project;
  /** `runs`: every setting is there; `skips`: the area's scenarios skip, naming `missing`. */
  verdict: 'runs' | 'skips';
  /** The missing settings, by the variables the skips name. */
  missing: string[];
  note?: string;
}

/** The area plan of a profile: what runs and what skips, and which settings are missing. */
export function areaPlan(profile: TargetProfile): AreaPlan[] {
  return AREA_REQUIREMENTS.map((r) => {
    const missing = r
      .needs(profile)
      .filter(([, set]) => !set)
      .map(([variable]) => variable);
    return {
      area: r.area,
      tags: r.tags,
      project: r.project,
      verdict: missing.length ? 'skips' : 'runs',
      missing,
      ...(r.note && missing.length ? { note: r.note } : {}),
    };
  });
}

/**
 * Checks whose verdict rests on a setting that has a default of ours, or that another
 * command than the gate refuses to run without: the scenario does not skip when the
 * setting is unset, it uses the default (the simulator's page, a reference path, a
 * guessed query name or request), so a real target's verdict is only as good as that
 * guess. Honest figures (`npm run spec:stats`) count such a check only with the setting
 * given: under full settings when a team can know it, in a column of its own when nobody
 * can (preflight/setting-sources.ts). Checks are named as spec/trace.yaml names them
 * (`<file> > <title>`, `load: <script>`); preflight/requirements.test.ts fails when a
 * scenario file reads one of these profile fields and no entry names a check of it.
 */
export interface CheckSetting {
  /** The settings the checks read (by variable). */
  variables: string[];
  checks: RegExp;
  /** What the checks do with the default on a real target. */
  unset: string;
}

export const CHECK_SETTINGS: readonly CheckSetting[] = [
  {
    variables: ['SVC_OAUTH_AUTHORIZE_SELECTOR', 'SVC_OAUTH_DENY_SELECTOR'],
    checks:
      /^scenarios\/browser\/(oauth\.spec\.ts > |widget\.spec\.ts > (in a browser iframe |in a mobile WebView |in an iframe inside a WebView |a denied OAuth in the widget ))/,
    unset: "clicks the simulator's [data-action=authorize] / [data-action=deny] on the vendor's page",
  },
  {
    variables: ['SVC_PROCESSOR_TOKEN_REQUEST'],
    checks:
      /^scenarios\/api\/(processor\.spec\.ts > (a processor access token lives 60 days|the payment account names the user, member and account of the scope|a processor token reads only the account its scope names)|deprecated\.spec\.ts > \/payment_processor_token, deprecated in favour of \/token)/,
    unset: 'asks POST /token {"code":"{code}"} and skips when the target does not answer it',
  },
  {
    variables: ['SVC_3DX_GRANTEE_QUERY_PARAM'],
    checks:
      /^scenarios\/api\/(data-exchange\.spec\.ts > the grant query returns the grant only when every grantee is supplied|consistency\.spec\.ts > a grant shows one data scope wherever it is read)/,
    unset: 'sends the grantees as grantee_guids, which a target that names the parameter otherwise ignores',
  },
  {
    variables: ['SVC_3DX_TRANSACTION_DATE_FIELD'],
    checks: /^scenarios\/api\/data-exchange\.spec\.ts > (transaction lists default to the 90 days|the default window reaches back the full 90 days)/,
    unset: 'judges the window on the first of date, transacted_at, posted_at, created_at the transaction carries',
  },
  {
    variables: ['SVC_INSTITUTION_NAME_PARAM'],
    checks: /^scenarios\/api\/institutions\.spec\.ts > the name filter narrows the institution list$/,
    unset: 'filters by name; a list the guessed name does not narrow is only an inferred miss',
  },
  {
    variables: ['SVC_INSTITUTION_COUNTRY_PARAM'],
    checks:
      /^scenarios\/api\/institutions\.spec\.ts > (the (institution|favourites) list filtered by a country code|the institution list filtered by the test institution's country code)/,
    unset: 'filters by iso_country_code; a list the guessed name does not narrow is only an inferred miss',
  },
  {
    variables: ['SVC_ACH_RETURN_CODE_PARAM'],
    checks: /^scenarios\/api\/ach-returns\.spec\.ts > the ACH return list filters by return code$/,
    unset: 'filters by return_code; a list the guessed name does not narrow is only an inferred miss',
  },
  {
    variables: ['SVC_ACH_INSTITUTION_PARAM'],
    checks: /^scenarios\/api\/ach-returns\.spec\.ts > the ACH return list filters by institution guid$/,
    unset: 'filters by institution_guid; a miss is only inferred',
  },
  {
    variables: ['SVC_ACH_FROM_RETURNED_PARAM', 'SVC_ACH_TO_RETURNED_PARAM'],
    checks: /^scenarios\/api\/ach-returns\.spec\.ts > the ACH return list filters by returned time$/,
    unset: 'filters by from_returned_at / to_returned_at; a miss is only inferred',
  },
  {
    variables: ['SVC_ACH_FROM_RESOLVED_PARAM', 'SVC_ACH_TO_RESOLVED_PARAM'],
    checks: /^scenarios\/api\/ach-returns\.spec\.ts > the ACH return list filters by resolved-status time$/,
    unset: 'filters by from_resolved_at / to_resolved_at; a miss is only inferred',
  },
  {
    variables: ['SVC_ACH_RETURN_STATUS_PARAM'],
    checks: /^scenarios\/api\/ach-returns\.spec\.ts > the ACH return list filters by return status$/,
    unset: 'filters by return_status; a miss is only inferred',
  },
  {
    variables: ['SVC_USER_DEFAULT_CATEGORIES_PATH'],
    checks: /^scenarios\/api\/categories\.spec\.ts > the by-user default category list equals GET \/categories\/default$/,
    unset: "reads the reference's path and skips on a 404",
  },
  {
    variables: ['SVC_USER_CATEGORIES_PATH', 'SVC_USER_CATEGORY_CREATE_PATH'],
    checks: /^scenarios\/api\/categories\.spec\.ts > a custom category of a user is listed beside the default categories$/,
    unset: "creates and lists on the reference's path and skips on a 404",
  },
  {
    variables: ['SVC_RATE_LIMIT_PER_SECOND'],
    checks: /^load: rate-limit\b/,
    unset: 'refuses to run against a real target (load/script-support/config.ts): the limit is not shown',
  },
];

/** A real target's profile with nothing set: what every area needs shows as missing. */
let bare: TargetProfile | undefined;

/**
 * Every setting a check of spec/trace.yaml (`<file> > <title>`, `live-delivery ...`,
 * `load: ...`) needs on a real target beyond none at all: the ones whose absence skips it
 * (AREA_REQUIREMENTS, read on a real target's bare profile, where nothing has a default)
 * and the ones whose default it would otherwise use (CHECK_SETTINGS). Areas named by tags
 * alone need only minimal settings and are left out.
 */
export function settingsOfCheck(check: string): string[] {
  const profile = (bare ??= loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9' }));
  const out = new Set<string>();
  for (const r of AREA_REQUIREMENTS)
    if (r.scenarios?.test(check)) for (const [variable] of r.needs(profile)) if (variable !== EMBEDDED_SIMULATOR) out.add(variable);
  for (const c of CHECK_SETTINGS) if (c.checks.test(check)) for (const variable of c.variables) out.add(variable);
  return [...out];
}

/** Whether a check needs settings beyond the minimal ones (a `knowable` or a `guess`, preflight/setting-sources.ts). */
export function needsFullSettings(check: string): boolean {
  return settingsOfCheck(check).some((variable) => !MINIMAL_SETTINGS.has(variable) && sourceOfSetting(variable) !== 'stated');
}

/** Every variable the table names (for the consistency test). */
export function requirementVariables(profile: TargetProfile): Set<string> {
  return new Set(AREA_REQUIREMENTS.flatMap((r) => r.needs(profile).map(([v]) => v)).filter((v) => v !== EMBEDDED_SIMULATOR));
}
