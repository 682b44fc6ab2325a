/**
 * Where the value of each setting comes from (targets/profiles/settings.ts names every setting;
 * docs/settings.md is its generated table): the one place that says, per setting,
 * whether a team can know its value, and why. The honest figures of `npm run spec:stats`
 * rest on it: a row counts under "minimal settings" only when its verifying check needs
 * nothing beyond the `minimal` ones, under "full settings" when it needs `knowable` ones,
 * and in a column of its own when it needs a `guess` (preflight/requirements.ts says
 * which checks need which settings).
 *
 *   minimal   a fact the vendor gives every team with its access: base URLs, credentials,
 *             the test institution's user, passwords and answer word (the specification
 *             shows them only as placeholders, Endpoints, "Earlier-generation test paths");
 *   stated    the specification states the value the default holds (svcbank, the versions
 *             in play): nothing to set;
 *   knowable  not in every profile, but a team can learn it: the vendor sets it up for the
 *             client or tells it (a client GUID, favourites, use cases, a sunset version), the
 *             vendor's reference documents it (the paths and query names real-service-notes
 *             describes), the target shows it when a person looks (the widget's and the OAuth
 *             page's markup, the fields of an answer), or the team arranges it itself (a
 *             public webhook URL);
 *   guess     nothing a team is given shows it: the specification says "not shown", the
 *             vendor's reference does not have it, and the target does not reveal it; our
 *             default is a guess, and a value a team sets is a guess too;
 *   option    a choice about the run, not a fact about the target (timeouts, reports,
 *             strictness, the simulator): no row's verification rests on it.
 */
import { SETTINGS, settingEntries, WIDGET_CONTROLS } from '../targets/index.ts';

export type SettingSource = 'minimal' | 'stated' | 'knowable' | 'guess' | 'option';

export interface SettingSourceEntry {
  source: SettingSource;
  /** Why, citing the specification or real-service-notes. */
  reason: string;
}

const entry = (source: SettingSource, reason: string): SettingSourceEntry => ({ source, reason });
const each = (variables: readonly string[], e: SettingSourceEntry): Record<string, SettingSourceEntry> => Object.fromEntries(variables.map((v) => [v, e]));

/** The variables of a group of the settings table (targets/profiles/settings.ts), which share one source and reason. */
const variablesOf = (group: object): string[] => settingEntries(group).map((s) => s.env);

/** A grant's identities and the records read through it: the client's own data, which the team holds (no endpoint reveals a client's own GUID). */
const DATA_EXCHANGE_IDENTITIES = [
  'SVC_3DX_ISSUER_GUID',
  'SVC_3DX_GRANTEE_GUID',
  'SVC_3DX_GRANTEE_GUIDS',
  'SVC_3DX_GRANT_GUID',
  'SVC_3DX_USER',
  'SVC_3DX_MEMBER',
  'SVC_3DX_ACCOUNT_GUID',
  'SVC_3DX_USER_ID',
  'SVC_3DX_MEMBER_ID',
  'SVC_3DX_ACCOUNT_ID',
  'SVC_3DX_MANUAL_TRANSACTION_GUID',
  'SVC_3DX_MANUAL_TRANSACTION_MEMBER',
  'SVC_3DX_MANUAL_TRANSACTION_ACCOUNT',
  'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID',
  'SVC_3DX_SCOPE_MISMATCH_MEMBER',
  'SVC_3DX_SCOPE_MISMATCH_ACCOUNT',
  'SVC_3DX_WINDOW_TRANSACTION_GUID',
];

const RUN_CHOICE = entry('option', 'how the suite runs (bounds, pacing, reports), not a fact about the target');
const SIMULATOR = entry('option', 'the embedded simulator only; a real target ignores it');
const INTEGRATION = entry('option', "the team's own integration gate (proxy, tolerance, upgrade check), not a fact about the target");

export const SETTING_SOURCES: Readonly<Record<string, SettingSourceEntry>> = {
  // ---- minimal: what the vendor hands every team ----
  SVC_BASE_URL: entry(
    'minimal',
    'Endpoints: "an integration environment and a production environment exist, each with its own base address": the vendor gives it',
  ),
  SVC_AUDIENCE_BASE_URL: entry(
    'minimal',
    'the audience list service is the vendor\'s (Endpoints, "Audience list service"): its address comes with access to it',
  ),
  SVC_TEST_HOST_BASE_URL: entry('minimal', 'Endpoints, "Earlier-generation test paths": {test_base_url} is the vendor\'s, given with access'),
  SVC_AUDIENCE_TOKEN_URL: entry(
    'minimal',
    'Authentication 5: the credentials a partner administrator creates "produce an access token"; where to ask is given with them (its path is not shown)',
  ),
  SVC_CLIENT_ID: entry('minimal', 'Authentication 1: the client identifier the vendor issues'),
  SVC_API_KEY: entry('minimal', 'Authentication 1: the API key the vendor issues'),
  SVC_AUDIENCE_CLIENT_ID: entry('minimal', 'Authentication 5: created by the partner administrator in the application'),
  SVC_AUDIENCE_CLIENT_SECRET: entry('minimal', 'Authentication 5: created with the client_id'),
  SVC_TEST_USERNAME: entry(
    'minimal',
    'Endpoints, "Earlier-generation test paths": the scenario is chosen through the password field "of the test user"; the vendor gives that user with its passwords (our default test_user is a guess)',
  ),
  ...each(
    variablesOf(SETTINGS.testInstitution.passwords),
    entry('minimal', 'Endpoints, test-institution table: shown only as a placeholder <TEST_PASSWORD_...>; the vendor gives the values'),
  ),
  SVC_CORRECT_ANSWER: entry('minimal', 'Endpoints, test-institution table: shown only as the placeholder <CORRECT_ANSWER>; the vendor gives it'),

  // ---- stated: the specification holds the default ----
  SVC_TEST_INSTITUTION_CODE: entry('stated', 'Endpoints: "Test institution codes: svcbank (scenario credentials)"'),
  SVC_TEST_OAUTH_INSTITUTION_CODE: entry('stated', 'Endpoints: "svc_bank_oauth (integration environment only, for OAuth flows)"'),
  SVC_VERSIONS: entry('stated', 'Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"'),

  // ---- knowable: the vendor sets it up or tells it, its reference shows it, or the target shows it ----
  SVC_SECOND_CLIENT_ID: entry(
    'knowable',
    'a second client of the same environment: the vendor issues it on request (What the service does: a user "belongs to exactly one client")',
  ),
  SVC_SECOND_API_KEY: entry('knowable', "the second client's key, issued with it"),
  SVC_TEST_INSTITUTION_COUNTRY: entry('knowable', "the test institution's country: the vendor's to tell (no institution field is stated to carry it)"),
  SVC_SUNSET_VERSION: entry('knowable', 'Versioning, lifecycle: a sunset follows an announced deprecation; the vendor announces which version'),
  SVC_DEPRECATED_VERSION: entry('knowable', 'Versioning, lifecycle: "the announced deprecation date": the vendor announces the version'),
  SVC_DEPRECATED_ON: entry('knowable', 'Versioning, lifecycle: "the announced deprecation date"'),
  SVC_RATE_LIMIT_PER_SECOND: entry(
    'knowable',
    'Limits: "Request rate limit values: not shown" and the reference declares no rate-limit header: only the vendor\'s word to the client gives it, which a team can ask for',
  ),
  SVC_MIN_JOB_MS: entry(
    'knowable',
    "the target's shortest job, which a team measures on its own target; unset, a job not seen running is inconclusive, never a guess",
  ),
  SVC_AGGREGATION_THROTTLE_MS: entry(
    'knowable',
    'Limits: the throttle period exists, its length is not shown; the vendor can tell it; unset, a throttle verdict is inconclusive, never a guess',
  ),
  SVC_OAUTH_AUTHORIZE_SELECTOR: entry(
    'knowable',
    'Endpoints: "the authorization screen offers an authorize action"; its markup is not shown, our default is the simulator\'s, but a person sees the vendor\'s page in the integration environment',
  ),
  SVC_OAUTH_DENY_SELECTOR: entry('knowable', "as the authorize action: the deny action of the vendor's page is seen by opening it"),
  ...each(
    variablesOf(WIDGET_CONTROLS),
    entry('knowable', "the widget's markup is not shown, but the vendor's widget is seen by opening the URL the widget URL request answers"),
  ),
  ...each(
    variablesOf(SETTINGS.productPaths),
    entry(
      'knowable',
      "the specification does not show the product areas' paths; the vendor's published reference does (real-service-notes, Paths: the statements paths; the table's productPaths defaults are the reference's)",
    ),
  ),
  SVC_FAVORITE_INSTITUTION_CODES: entry(
    'knowable',
    'Endpoints, Institutions: "the list of favourites is set up by the vendor on request", so the client knows it',
  ),
  SVC_BLOCKED_INSTITUTION_CODE: entry('knowable', 'the client blocks institutions itself; unset, one is read from the list (is_disabled_by_client)'),
  SVC_INSTITUTION_NAME_PARAM: entry(
    'knowable',
    'Endpoints, Institutions: "Exact query names of the institution list filters other than the ones given: not shown"; the vendor\'s reference lists the institution query parameters (our default is its name)',
  ),
  SVC_INSTITUTION_COUNTRY_PARAM: entry('knowable', "as the name filter: the vendor's reference names the country-code query parameter"),
  ...each(
    variablesOf(SETTINGS.achFilters),
    entry(
      'knowable',
      'Endpoints, ACH returns: "Exact query parameter names of the ACH list filters: not shown"; the ACH endpoints are in the vendor\'s reference (real-service-notes, Request shapes), which names their query parameters',
    ),
  ),
  SVC_USER_DEFAULT_CATEGORIES_PATH: entry('knowable', "the by-user category paths are not shown; the vendor's reference has them (our defaults are its paths)"),
  SVC_USER_CATEGORIES_PATH: entry('knowable', "as the by-user default list: the vendor's reference path"),
  SVC_USER_CATEGORY_CREATE_PATH: entry('knowable', "as the by-user default list: the vendor's reference path"),
  SVC_USE_CASES: entry(
    'knowable',
    'Resources, Member: use_cases "only for clients opted in to use cases": the vendor opts the client in, so the client knows to which',
  ),
  ...each(
    DATA_EXCHANGE_IDENTITIES,
    entry(
      'knowable',
      "the client's own grant and the records it shares (Resources, Data exchange grant): the team holds them; no endpoint reveals a client's own GUID",
    ),
  ),
  SVC_3DX_TRANSACTION_DATE_FIELD: entry(
    'knowable',
    "the slim transaction's fields are not shown, but the team reads its date field off an answer of its own grant",
  ),
  SVC_3DX_TOKEN_FIELD: entry('knowable', "the token response's shape is not shown, but the field that holds the token is seen in the answer"),
  SVC_AUDIENCE_ID: entry('knowable', 'Endpoints, Audience list service: an audience the client can read; the partner administrator knows it'),
  SVC_AUDIENCE_SLUG: entry(
    'knowable',
    'Endpoints, Audience list service: the path takes `{id_or_slug}`; no answer carries the slug (the list names audience_id only), the partner administrator knows it',
  ),
  SVC_AUDIENCE_INSTITUTION_PUBLIC_ID: entry('knowable', "the institution public id of the audience queries: the partner's own"),
  SVC_WEBHOOK_PUBLIC_URL: entry(
    'knowable',
    'Events: the client chooses the URL ("to a URL chosen by the client"); the team arranges its tunnel and the configuration "out of band"',
  ),
  SVC_WEBHOOK_PLATFORM_CLIENT: entry(
    'knowable',
    'Events: "For platform clients only these types are available": whether the client is one is the vendor\'s arrangement with it',
  ),
  SVC_WEBHOOK_EXPECT: entry('knowable', "the team's own statement that it configured the service to deliver to its URL"),
  WEBHOOK_RECEIVER_URL: entry('knowable', "the team's own receiver (Events, rule 6 is about it)"),

  // ---- guess: nothing a team is given shows it ----
  SVC_DEPRECATION_HEADER: entry(
    'guess',
    'Versioning: "Names of the deprecation and sunset response headers: not shown", and the vendor\'s reference declares no response headers (real-service-notes, Headers)',
  ),
  SVC_SUNSET_HEADER: entry('guess', 'as the deprecation header: its name is not shown and the reference declares none'),
  SVC_PROCESSOR_TOKEN_REQUEST: entry(
    'guess',
    'Authentication: "Request and response shape of the processor /token endpoint: not shown"; the reference reads tokens with GET /tokens (real-service-notes) and shows no exchange of a code, so the request is a guess',
  ),
  SVC_3DX_GRANTEE_QUERY_PARAM: entry(
    'guess',
    'the grant query\'s grantee parameter is not shown, the reference has no data exchange endpoint (real-service-notes, "Absent from the reference"), and a name the target ignores looks like one it applies',
  ),
  SVC_WEBHOOK_TEST_URL: entry(
    'guess',
    'Events rule 7: test webhooks come "from the dashboard" or "by the vendor on request": how to ask a target for one by HTTP is not shown',
  ),

  // ---- option: a choice about the run ----
  SVC_ENVIRONMENT: entry('option', 'which of the two environments the base URL is: the team chooses'),
  SVC_ALLOW_DESTRUCTIVE: entry('option', 'whether the run may create and delete: the team chooses'),
  SVC_ACCEPT_VERSION: entry('option', 'the version sent when a scenario names none: the team chooses among the stated ones'),
  SVC_RATE_LIMIT_PATHS: RUN_CHOICE,
  SVC_429_BODY: entry(
    'option',
    'Errors: "Shape of error response bodies: not shown": a stricter 429 body is the team\'s own statement; unset, nothing is assumed',
  ),
  SVC_REFERENCE: entry(
    'option',
    "the vendor's published reference documents the team holds: a second witness that turns the stated rules they contradict into inferred ones, never a value the run guesses",
  ),
  SVC_STRICT: entry(
    'option',
    'whether inferred expectations gate the run (DESIGN.md, "Checks and failures"); an inferred rule is no sentence of the specification',
  ),
  SVC_REQUEST_TIMEOUT_MS: RUN_CHOICE,
  SVC_RUN_TIMEOUT_MS: RUN_CHOICE,
  SVC_MAX_TRANSPORT_FAILURES: RUN_CHOICE,
  SVC_MAX_FAILURES: RUN_CHOICE,
  SVC_ALLOW_EMPTY: RUN_CHOICE,
  SVC_TEST_TIMEOUT_MS: RUN_CHOICE,
  SVC_AGGREGATION_TIMEOUT_MS: RUN_CHOICE,
  SVC_POLL_INTERVAL_MS: RUN_CHOICE,
  SVC_BROWSER_EVENT_TIMEOUT_MS: RUN_CHOICE,
  SVC_MAX_BODY_BYTES: RUN_CHOICE,
  SVC_WIDGET_CURRENT_INSTITUTION: entry(
    'option',
    'whether the widget URL request names the test institution (current_institution_code): a way into the widget, not a fact',
  ),
  SVC_WEBHOOK_LISTEN: RUN_CHOICE,
  SVC_WEBHOOK_WAIT_MS: RUN_CHOICE,
  SVC_WEBHOOK_FAIL_FIRST: entry('option', 'whether the capture answers 503 first to see a retry (Events rules 4-5): the team chooses'),
  SVC_WEBHOOK_TEST_TYPES: RUN_CHOICE,
  SVC_PAGE_P95_MS: RUN_CHOICE,
  SVC_PAGE_P99_MS: RUN_CHOICE,
  SVC_CHECKS_RATE: RUN_CHOICE,
  SVC_FUZZ_SEED: RUN_CHOICE,
  SVC_FUZZ_RUNS: RUN_CHOICE,
  SVC_FUZZ_SECONDS: RUN_CHOICE,
  SVC_FUZZ_ONLY: RUN_CHOICE,
  SVC_FUZZ_RATE_SHARE: RUN_CHOICE,
  SVC_USED_OPERATIONS: INTEGRATION,
  SVC_INTEGRATION_COMMAND: INTEGRATION,
  SVC_USAGE_FILE: INTEGRATION,
  SVC_TOLERANCE_TIMEOUT_MS: INTEGRATION,
  SVC_RUN_ID: RUN_CHOICE,
  SVC_WORKERS: RUN_CHOICE,
  SVC_CHROMIUM_PATH: RUN_CHOICE,
  SVC_REPORTS_OUT: RUN_CHOICE,
  SVC_SPEC_FILE: RUN_CHOICE,
  SVC_SIM_FAULTS: SIMULATOR,
  SVC_SIM_VARIATIONS: SIMULATOR,
  SVC_SIM_AGGREGATION_MS: SIMULATOR,
  SVC_SIM_NOW: SIMULATOR,
  SVC_SIM_WEBHOOK_URL: SIMULATOR,
  SVC_SIM_WEBHOOK_TIME_SCALE: SIMULATOR,
};

/** Where a setting's value comes from; undefined for a variable the table does not know (a test keeps that from happening). */
export function sourceOfSetting(variable: string): SettingSource | undefined {
  return SETTING_SOURCES[variable]?.source;
}

/** The settings of a minimal profile: every `minimal` one. */
export function settingsOfSource(source: SettingSource): string[] {
  return Object.keys(SETTING_SOURCES).filter((v) => SETTING_SOURCES[v].source === source);
}
