/**
 * The one table of settings (../shared/DESIGN.md, "Target profiles"): every fact a suite
 * needs that the specification leaves to the environment, each declared once with the
 * config-file key that holds it, the SVC_* variable that sets it, its type, its default
 * and what it is for.
 *
 * From this table come: the profile's reading of the environment (profile.ts, numbers
 * through readNumber with the table's defaults), the CLI's config file (cli/config/schema.ts:
 * the type of `defineConfig`, the JSON Schema a file is validated against, the environment a
 * run hands on, `config init`'s starting file) and the settings reference (docs/settings.md,
 * written by `svc-conformance config docs`, kept current by a test). A value crosses a
 * process boundary (to the Playwright workers, to k6) as its variable's text: written by
 * settingText and read by settingValue, both from the same declaration.
 *
 * Secrets (credentials, the test institution's passwords and correct answer) are in the
 * table so they are documented, but a config file that holds one is refused: they come
 * from the environment only, so no file in a repository ever carries them.
 */

export type SettingKind =
  | 'string'
  | 'url'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'list'
  | 'enum'
  | 'date'
  | 'version'
  | 'path-template'
  | 'selector'
  | 'file-path'
  | 'file-list';

export interface Setting<T = unknown> {
  readonly kind: SettingKind;
  /** The environment variable that sets it (and overrides the config file). */
  readonly env: string;
  readonly doc: string;
  /** Default as a person reads it (documentation only; the profile applies defaults). */
  readonly default?: string;
  /** Environment only: refused in a config file. */
  readonly secret?: boolean;
  /** Accepted values of an `enum`. */
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /**
   * The default by kind of target, where the table states it (the profile applies it,
   * `config init` writes a real target's, `default` above shows it): a kind left out has
   * none, and a scenario that needs the setting there skips naming its variable.
   */
  readonly value?: { readonly real?: T; readonly simulator?: T };
  /** Phantom: the TypeScript type of the config value. */
  readonly __type?: T;
}

const setting =
  <T>(kind: SettingKind) =>
  (env: string, doc: string, o: Partial<Pick<Setting<T>, 'default' | 'min' | 'max' | 'value'>> = {}): Setting<T> => ({ kind, env, doc, ...o });

const str = setting<string>('string');
const url = setting<string>('url');
const int = setting<number>('integer');
const num = setting<number>('number');
const bool = setting<boolean>('boolean');
const list = setting<string[]>('list');
const date = setting<string>('date');
const version = setting<string>('version');
const pathTemplate = setting<string>('path-template');
const selector = setting<string>('selector');
/** A file or folder; relative to the config file's folder when given there. */
const filePath = setting<string>('file-path');
/** Files; each relative to the config file's folder when given there (comma-separated in the environment). */
const fileList = setting<string[]>('file-list');
function oneOf<V extends string>(env: string, values: readonly V[], doc: string, o: { default?: V } = {}): Setting<V> {
  return { kind: 'enum', env, doc, values, ...o };
}
function secret(env: string, doc: string, o: { default?: string } = {}): Setting<string> {
  return { kind: 'string', env, doc, secret: true, ...o };
}

const ms = { min: 0 };

/**
 * Default of SVC_MAX_BODY_BYTES: 16 MiB. A page of 1000 institutions, the largest page the
 * specification allows (Limits: records_per_page maximum 1000), is 0.69 MB from the
 * embedded simulator (694 454 bytes, 694 bytes a record): the bound leaves about 24 times
 * that for records a real service fills with more fields, and stops a body of hundreds of
 * megabytes after 16 MiB.
 */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A number's default on a real target and on the embedded simulator, and how the reference shows it. */
function byTarget(real: number, simulator = real): Pick<Setting<number>, 'value' | 'default'> {
  return { value: { real, simulator }, default: simulator === real ? `${real}` : `${real} (simulator ${simulator})` };
}

/** A text default that holds on every target (a guess at a name the specification does not show), shown as it is, with a note when given. */
function everywhere(v: string, note?: string): Pick<Setting<string>, 'value' | 'default'> {
  return { value: { real: v, simulator: v }, default: note ? `${v} (${note})` : v };
}

/** A number the embedded simulator states and a real target leaves unset (`real` says what unset means there). */
function simulatorNumber(simulator: number, real: string): Pick<Setting<number>, 'value' | 'default'> {
  return { value: { simulator }, default: `${real} on a real target; ${simulator} on the simulator` };
}

/** A text default of the embedded simulator only: a real target has none until the team sets it. */
function simulatorOnly(v: string): Pick<Setting<string>, 'value' | 'default'> {
  return { value: { simulator: v }, default: `${v} (simulator)` };
}

/** Test-institution scenarios (Endpoints, "Earlier-generation test paths": the password selects the scenario). */
const PASSWORD_DOCS = {
  success: ['SUCCESS', 'success without MFA: aggregates'],
  challenge: ['CHALLENGE', 'text MFA'],
  options: ['OPTIONS', 'option-list MFA'],
  image: ['IMAGE', 'image MFA'],
  imageOptions: ['IMAGE_OPTIONS', 'image-options MFA (challenge type image_options)'],
  badRequest: ['BAD_REQUEST', 'no credentials: HALTED'],
  unauthorized: ['UNAUTHORIZED', 'invalid credentials: DENIED'],
  invalid: ['INVALID', 'invalid login fields: DENIED'],
  locked: ['LOCKED', 'locked out: DENIED'],
  serverError: ['SERVER_ERROR', 'institution server error: HALTED'],
  unavailable: ['UNAVAILABLE', 'institution unavailable: HALTED'],
} as const;

/** The scenarios, by the suffix of their variable (SVC_TEST_PASSWORD_<SCENARIO>) and the placeholder's name. */
export const PASSWORD_SCENARIOS = Object.values(PASSWORD_DOCS).map(([suffix]) => suffix);
export type PasswordScenario = (typeof PASSWORD_DOCS)[keyof typeof PASSWORD_DOCS][0];

const passwords = Object.fromEntries(
  Object.entries(PASSWORD_DOCS).map(([key, [suffix, what]]) => [
    key,
    secret(`SVC_TEST_PASSWORD_${suffix}`, `Test-institution password of the scenario "${what}" (the specification shows it only as a placeholder).`),
  ]),
) as { [K in keyof typeof PASSWORD_DOCS]: Setting<string> };

/**
 * Product-area paths the specification states rules for but does not show: each its variable's
 * suffix, what it is for, and its default, the vendor's published reference's path, which the
 * simulator serves (a real target has only the paths its SVC_PATH_* set).
 */
const PRODUCT_PATH_DOCS = {
  notifications: ['NOTIFICATIONS', 'POST (create) and GET (list) notifications of a user', '/users/{user_guid}/notifications'],
  notification: ['NOTIFICATION', 'GET one notification', '/users/{user_guid}/notifications/{notification_guid}'],
  goals: ['GOALS', 'POST (create) and GET (list) goals of a user', '/users/{user_guid}/goals'],
  goalsReposition: ['GOALS_REPOSITION', "PUT: reposition the user's goals", '/users/{user_guid}/goals/reposition'],
  budgets: ['BUDGETS', 'POST (create) and GET (list) budgets of a user', '/users/{user_guid}/budgets'],
  budgetsGenerate: ['BUDGETS_GENERATE', "POST: auto-generate budgets from the user's transactions", '/users/{user_guid}/budgets/generate'],
  statements: ['STATEMENTS', 'GET: statements of a member', '/users/{user_guid}/members/{member_guid}/statements'],
  statementPdf: ['STATEMENT_PDF', 'GET: one statement as PDF', '/users/{user_guid}/members/{member_guid}/statements/{statement_guid}.pdf'],
  tags: ['TAGS', 'POST (create) and GET (list) tags of a user', '/users/{user_guid}/tags'],
  taggings: ['TAGGINGS', 'POST (create) and GET (list) taggings of a user', '/users/{user_guid}/taggings'],
  tagging: ['TAGGING', 'GET one tagging', '/users/{user_guid}/taggings/{tagging_guid}'],
  holdingsByUser: ['HOLDINGS_BY_USER', 'GET holdings of a user', '/users/{user_guid}/holdings'],
  holdingsByAccount: ['HOLDINGS_BY_ACCOUNT', 'GET holdings of an account', '/users/{user_guid}/accounts/{account_guid}/holdings'],
  holdingsByMember: ['HOLDINGS_BY_MEMBER', 'GET holdings of a member', '/users/{user_guid}/members/{member_guid}/holdings'],
  merchant: ['MERCHANT', 'GET one merchant', '/merchants/{merchant_guid}'],
  microdeposits: ['MICRODEPOSITS', 'POST (create) and GET (list) microdeposits of a user', '/users/{user_guid}/micro_deposits'],
} as const;

const productPaths = Object.fromEntries(
  Object.entries(PRODUCT_PATH_DOCS).map(([key, [suffix, what, dflt]]) => [
    key,
    pathTemplate(
      `SVC_PATH_${suffix}`,
      `Path template: ${what}. Not shown in the specification; on a real target a scenario whose path is unset skips naming this setting.`,
      simulatorOnly(dflt),
    ),
  ]),
) as { [K in keyof typeof PRODUCT_PATH_DOCS]: Setting<string> };

/** One path template per product-area operation the scenarios call (profile.productPaths). */
export type ProductPaths = { -readonly [K in keyof typeof PRODUCT_PATH_DOCS]: string };
/** The simulator's product paths: the vendor reference's. */
export const PRODUCT_PATH_DEFAULTS = Object.fromEntries(Object.entries(PRODUCT_PATH_DOCS).map(([key, [, , dflt]]) => [key, dflt])) as ProductPaths;
/** SVC_PATH_NOTIFICATIONS, SVC_PATH_GOALS_REPOSITION, ...: the variable of each product path. */
export const PRODUCT_PATH_ENV = Object.fromEntries(Object.entries(productPaths).map(([key, s]) => [key, s.env])) as Record<keyof ProductPaths, string>;

const WIDGET_CONTROL_DOCS = {
  oauthSelector: ['OAUTH', 'starts the connection to the OAuth test institution', '[data-action="oauth"]'],
  usernameSelector: ['USERNAME', 'the username field of the credentials step', 'input[name=username]'],
  passwordSelector: ['PASSWORD', 'the password field of the credentials step', 'input[name=password]'],
  connectSelector: ['CONNECT', 'submits the credentials', '[data-action="connect"]'],
  primarySelector: ['PRIMARY', 'the primary action once a member is connected', '[data-action="primary"]'],
  deleteSelector: ['DELETE', 'deletes the connected member', '[data-action="delete"]'],
  backSelector: ['BACK', 'the back-to-search control shown with disable_search_institution', '[data-action="back"]'],
} as const;

const widgetControls = Object.fromEntries(
  Object.entries(WIDGET_CONTROL_DOCS).map(([key, [suffix, what, dflt]]) => [
    key,
    selector(
      `SVC_WIDGET_${suffix}_SELECTOR`,
      `CSS selector of the widget control that ${what} (the widget's markup is not shown in the specification; browser widget scenarios skip naming a missing one).`,
      simulatorOnly(dflt),
    ),
  ]),
) as { [K in keyof typeof WIDGET_CONTROL_DOCS]: Setting<string> };
/** The widget's control selectors (the `widget` group less its flag), for the profile's reading of them. */
export const WIDGET_CONTROL_SETTINGS = widgetControls;
/** A widget control as the profile names it: its setting's key less `Selector` (oauth, username, ...). */
export type WidgetControl = keyof typeof WIDGET_CONTROL_DOCS extends infer K ? (K extends `${infer C}Selector` ? C : never) : never;

export const SETTINGS = {
  target: {
    baseUrl: url('SVC_BASE_URL', 'Base URL of the platform API (Endpoints: "Paths are relative to {base_url}"). Unset: the embedded simulator.', {
      default: 'the embedded simulator',
    }),
    audienceBaseUrl: url('SVC_AUDIENCE_BASE_URL', 'Base URL of the audience list service.'),
    testHostBaseUrl: url('SVC_TEST_HOST_BASE_URL', 'Base URL of the earlier-generation test host ({test_base_url}).'),
    environment: oneOf(
      'SVC_ENVIRONMENT',
      ['integration', 'production'] as const,
      'Which environment the base URL is. production runs only @readonly scenarios unless allowDestructive opts in.',
      { default: 'integration' },
    ),
    allowDestructive: str(
      'SVC_ALLOW_DESTRUCTIVE',
      'Destructive scenarios (creating and deleting users and members). On production they run only with the exact value I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION; on integration the value no turns them off.',
    ),
  },
  credentials: {
    // An identifier, not a secret (RFC 6749 §2.2: "The client identifier is not a secret"): it may
    // sit in the config file and shows in reports; the API key beside it is the secret.
    clientId: str(
      'SVC_CLIENT_ID',
      "Client identifier: the Basic user name of the platform (Authentication 1), and the test host's SVC-Client-ID. Not a secret (the API key is).",
      {
        default: 'sim-client-id (simulator)',
      },
    ),
    apiKey: secret('SVC_API_KEY', "API key: the Basic password of the platform (Authentication 1), and the test host's SVC-API-Key.", {
      default: 'sim-api-key-0000 (simulator)',
    }),
    secondClientId: str(
      'SVC_SECOND_CLIENT_ID',
      'A second client of the same environment, for the cross-client isolation scenario (@isolation). Not a secret (its API key is).',
    ),
    secondApiKey: secret('SVC_SECOND_API_KEY', "The second client's API key."),
  },
  testInstitution: {
    code: str('SVC_TEST_INSTITUTION_CODE', 'Code of the test institution with scenario credentials.', everywhere('svcbank')),
    oauthCode: str('SVC_TEST_OAUTH_INSTITUTION_CODE', 'Code of the OAuth test institution (integration environment only).', everywhere('svc_bank_oauth')),
    username: str('SVC_TEST_USERNAME', 'User name typed with every test password.', { value: { real: 'test_user' }, default: 'test_user' }),
    country: str('SVC_TEST_INSTITUTION_COUNTRY', "The test institution's country code (for the country filter scenarios)."),
    passwords,
    correctAnswer: secret('SVC_CORRECT_ANSWER', 'The correct-answer word of the MFA scenarios (a placeholder in the specification).'),
  },
  versions: {
    supported: list('SVC_VERSIONS', 'Versions the target serves and the suites exercise (Versioning: v<YYYYMMDD>).', {
      default: 'v20111101, v20250224, v20260929',
    }),
    accept: version('SVC_ACCEPT_VERSION', 'Accept-Version sent when a scenario names none.', { default: 'the newest of versions.supported' }),
    sunset: version('SVC_SUNSET_VERSION', 'A version the target has sunset: its requests must answer an error (Versioning, lifecycle).'),
    deprecated: version('SVC_DEPRECATED_VERSION', 'A version the target has deprecated (set deprecatedOn with it).'),
    deprecatedOn: date('SVC_DEPRECATED_ON', 'The day versions.deprecated was deprecated, YYYY-MM-DD: it must stay usable for 12 months after (Versioning).'),
    deprecationHeader: str(
      'SVC_DEPRECATION_HEADER',
      'Name of the response header that signals deprecation (not shown in the specification): a missing header is enforced only when this is set.',
      { value: { real: 'Deprecation' }, default: 'Deprecation (a guess: inferred)' },
    ),
    sunsetHeader: str('SVC_SUNSET_HEADER', 'Name of the response header that signals sunset (not shown): enforced only when set.', {
      value: { real: 'Sunset' },
      default: 'Sunset (a guess: inferred)',
    }),
  },
  rateLimit: {
    perSecond: int('SVC_RATE_LIMIT_PER_SECOND', 'Expected request limit per second per client (Limits: "Request rate limit values: not shown").', {
      min: 1,
      ...simulatorNumber(300, 'unknown'),
    }),
    paths: list('SVC_RATE_LIMIT_PATHS', 'GET paths the rate-limit script spreads its traffic over.', { default: '/institutions, /categories/default' }),
    body429: oneOf(
      'SVC_429_BODY',
      ['any', 'non-empty', 'json-error'] as const,
      "What a 429's body must be (not shown in the specification: any unless you state more).",
      { default: 'any' },
    ),
  },
  strict: bool('SVC_STRICT', 'Inferred expectations (an unknown id is 404, ...) fail the run like stated rules. Default: reported apart as warnings.', {
    default: 'false',
  }),
  timeouts: {
    requestMs: int(
      'SVC_REQUEST_TIMEOUT_MS',
      'Bound on one whole request, connect to last byte; below the test timeout. A stall names the request, this limit and this setting.',
      { min: 1, ...byTarget(30_000, 10_000) },
    ),
    runMs: int(
      'SVC_RUN_TIMEOUT_MS',
      "Bound of the whole run (Playwright's globalTimeout) and of each script k6 runs in `load`: a target that stalls after the preflight ends the run here. 0 leaves it unbounded.",
      { ...ms, ...byTarget(30 * 60_000, 15 * 60_000) },
    ),
    // A real target's default is derived (profile.ts testTimeoutDefault: two aggregation waits and four requests).
    testMs: int('SVC_TEST_TIMEOUT_MS', 'Bound of one scenario; must be above requestMs.', {
      min: 1,
      value: { simulator: 30_000 },
      default: '2 x aggregationMs + 4 x requestMs on a real target (360000); simulator 30000',
    }),
    aggregationMs: int('SVC_AGGREGATION_TIMEOUT_MS', 'Bound on polling a member until its aggregation settles.', {
      ...ms,
      ...byTarget(120_000, 10_000),
    }),
    pollIntervalMs: int('SVC_POLL_INTERVAL_MS', 'Interval between polls of a member.', { ...ms, ...byTarget(2_000, 25) }),
    minJobMs: int(
      'SVC_MIN_JOB_MS',
      "The target's shortest aggregation-type job, if you know it: an answer sooner than this after a job started proves the job was still running, so job-state verdicts (identify's 202/409) become conclusive instead of inconclusive.",
      { min: 1, default: 'unset on a real target; the simulator: its job time' },
    ),
    aggregationThrottleMs: int(
      'SVC_AGGREGATION_THROTTLE_MS',
      "The target's throttle period after a standard aggregation (Limits: only standard aggregations trigger it; its length is not shown): the throttle verdict is judged only inside it.",
      { min: 1, ...simulatorNumber(3_600_000, 'unset') },
    ),
    // A real target's default is its requestMs (its pages may take as long as a request).
    browserEventMs: int('SVC_BROWSER_EVENT_TIMEOUT_MS', "Bound on a browser scenario's wait for a widget event, postMessage or redirect.", {
      ...ms,
      value: { simulator: 3_000 },
      default: 'requestMs (simulator 3000)',
    }),
  },
  limits: {
    maxBodyBytes: int(
      'SVC_MAX_BODY_BYTES',
      'Largest response body read from the target, as received and once its Content-Encoding is inflated; a larger one fails the request, naming the operation, this limit and this setting.',
      { min: 1, value: { real: MAX_BODY_BYTES, simulator: MAX_BODY_BYTES }, default: `${MAX_BODY_BYTES} (16 MiB)` },
    ),
    maxTransportFailures: int(
      'SVC_MAX_TRANSPORT_FAILURES',
      'Transport failures of one kind (a stall, a reset, a refused connection) on one target after which the run stops: the first is named in full and every later scenario skips naming it. 0 never stops.',
      { min: 0, ...byTarget(5) },
    ),
  },
  oauthPage: {
    authorizeSelector: selector(
      'SVC_OAUTH_AUTHORIZE_SELECTOR',
      "CSS selector of the OAuth test institution's authorize action.",
      everywhere('[data-action="authorize"]'),
    ),
    denySelector: selector('SVC_OAUTH_DENY_SELECTOR', "CSS selector of the OAuth test institution's deny action.", everywhere('[data-action="deny"]')),
  },
  widget: {
    ...widgetControls,
    currentInstitution: bool('SVC_WIDGET_CURRENT_INSTITUTION', 'Send current_institution_code so the widget opens on the test institution.'),
  },
  productPaths,
  institutions: {
    favoriteCodes: list('SVC_FAVORITE_INSTITUTION_CODES', "The client's favourite institutions, most popular first (set up by the vendor on request)."),
    blockedCode: str('SVC_BLOCKED_INSTITUTION_CODE', 'An institution blocked for this client (listed only with include_blocked_institutions).'),
    nameParam: str(
      'SVC_INSTITUTION_NAME_PARAM',
      "Query name of the institution list's name filter (not shown; a miss is enforced only when set).",
      everywhere('name'),
    ),
    countryParam: str('SVC_INSTITUTION_COUNTRY_PARAM', "Query name of the institution lists' country filter (not shown).", everywhere('iso_country_code')),
  },
  achFilters: {
    institution: str('SVC_ACH_INSTITUTION_PARAM', 'Query name of the ACH return list filter by institution guid (not shown).', everywhere('institution_guid')),
    fromReturned: str('SVC_ACH_FROM_RETURNED_PARAM', 'Query name: returned-at lower bound (not shown).', everywhere('from_returned_at')),
    toReturned: str('SVC_ACH_TO_RETURNED_PARAM', 'Query name: returned-at upper bound (not shown).', everywhere('to_returned_at')),
    fromResolved: str('SVC_ACH_FROM_RESOLVED_PARAM', 'Query name: resolved-at lower bound (not shown).', everywhere('from_resolved_at')),
    toResolved: str('SVC_ACH_TO_RESOLVED_PARAM', 'Query name: resolved-at upper bound (not shown).', everywhere('to_resolved_at')),
    returnCode: str('SVC_ACH_RETURN_CODE_PARAM', 'Query name: return code (not shown).', everywhere('return_code')),
    returnStatus: str('SVC_ACH_RETURN_STATUS_PARAM', 'Query name: return status (not shown).', everywhere('return_status')),
  },
  userCategories: {
    defaultsPath: pathTemplate(
      'SVC_USER_DEFAULT_CATEGORIES_PATH',
      "Path of a user's default categories (not shown).",
      everywhere('/users/{user_guid}/categories/default'),
    ),
    allPath: pathTemplate('SVC_USER_CATEGORIES_PATH', "Path of a user's categories (not shown).", everywhere('/users/{user_guid}/categories')),
    createPath: pathTemplate('SVC_USER_CATEGORY_CREATE_PATH', 'Path that creates a custom category (not shown).', { default: 'userCategories.allPath' }),
  },
  useCases: list(
    'SVC_USE_CASES',
    'Use cases the client is opted in to (Member: use_cases "only for clients opted in"); the use-case filter scenario needs two.',
  ),
  processor: {
    tokenRequest: str(
      'SVC_PROCESSOR_TOKEN_REQUEST',
      'How the target issues a processor token ("Request and response shape of the processor /token endpoint: not shown"): METHOD /path [JSON body] with {code}, e.g. GET /tokens?authorization_code={code}. Unset: the default is tried as a guess and an unanswered guess skips.',
      everywhere('POST /token {"code":"{code}"}', 'a guess'),
    ),
  },
  dataExchange: {
    issuerGuid: str('SVC_3DX_ISSUER_GUID', 'Issuer client GUID of the grant the scenarios read through.'),
    granteeGuid: str('SVC_3DX_GRANTEE_GUID', 'Grantee client GUID of that grant.'),
    granteeGuids: list('SVC_3DX_GRANTEE_GUIDS', 'Every grantee GUID of the grant.'),
    grantGuid: str('SVC_3DX_GRANT_GUID', 'The grant GUID.'),
    granteeQueryParam: str('SVC_3DX_GRANTEE_QUERY_PARAM', 'Query name of the grant lookup by grantees (not shown).', everywhere('grantee_guids')),
    user: str('SVC_3DX_USER', 'A user of the issuing client readable through the grant.'),
    member: str('SVC_3DX_MEMBER', 'A member of that user.'),
    accountGuid: str('SVC_3DX_ACCOUNT_GUID', 'An account of that member.'),
    userId: str('SVC_3DX_USER_ID', 'Partner-defined id of that user (paths that "accept GUID or partner ID").'),
    memberId: str('SVC_3DX_MEMBER_ID', 'Partner-defined id of that member.'),
    accountId: str('SVC_3DX_ACCOUNT_ID', 'Partner-defined id of that account.'),
    transactionDateField: str('SVC_3DX_TRANSACTION_DATE_FIELD', "The slim transaction's date field for the 90-day window (not shown).", {
      default: 'the first of date, transacted_at, posted_at, created_at present',
    }),
    manualTransactionGuid: str('SVC_3DX_MANUAL_TRANSACTION_GUID', 'A manual transaction (is_manual true): its read must answer 404 (Errors).'),
    manualTransactionMember: str('SVC_3DX_MANUAL_TRANSACTION_MEMBER', 'Member of that manual transaction.'),
    manualTransactionAccount: str('SVC_3DX_MANUAL_TRANSACTION_ACCOUNT', 'Account of that manual transaction.'),
    scopeMismatchTransactionGuid: str(
      'SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID',
      'A transaction whose data_scope does not match the grant: its read must answer 404 (Errors).',
    ),
    scopeMismatchMember: str('SVC_3DX_SCOPE_MISMATCH_MEMBER', 'Member of that transaction.'),
    scopeMismatchAccount: str('SVC_3DX_SCOPE_MISMATCH_ACCOUNT', 'Account of that transaction.'),
    windowTransactionGuid: str(
      'SVC_3DX_WINDOW_TRANSACTION_GUID',
      'A transaction of accountGuid inside the default 90-day window (Limits), which every default list must hold.',
    ),
    tokenField: str('SVC_3DX_TOKEN_FIELD', "Field of the token endpoint's answer that holds the token (not shown).", { default: 'token' }),
  },
  audience: {
    tokenUrl: url('SVC_AUDIENCE_TOKEN_URL', 'Token endpoint of the audience service (its path and shape are not shown).'),
    clientId: str('SVC_AUDIENCE_CLIENT_ID', 'Audience client_id (Authentication 5). Not a secret (RFC 6749 §2.2; the client_secret is).'),
    clientSecret: secret('SVC_AUDIENCE_CLIENT_SECRET', 'Audience client_secret (Authentication 5).'),
    audienceId: str('SVC_AUDIENCE_ID', 'An audience id or slug the client can read.'),
    audienceSlug: str('SVC_AUDIENCE_SLUG', 'The slug of the audience audienceId names, when that is its id (the path takes {id_or_slug}).'),
    institutionPublicId: str('SVC_AUDIENCE_INSTITUTION_PUBLIC_ID', 'The institution public id of the audience queries.'),
  },
  webhooks: {
    receiverUrl: url('WEBHOOK_RECEIVER_URL', 'Run the webhook response properties against your own receiver at this URL.'),
    publicUrl: url('SVC_WEBHOOK_PUBLIC_URL', 'Public (https) URL the service delivers to: a tunnel to webhooks.listen.'),
    listen: str('SVC_WEBHOOK_LISTEN', 'host:port the webhook capture listens on.', everywhere('127.0.0.1:4020')),
    waitMs: int('SVC_WEBHOOK_WAIT_MS', 'Bound on waiting for deliveries after the last trigger.', { ...ms, ...byTarget(60_000) }),
    failFirst: bool('SVC_WEBHOOK_FAIL_FIRST', 'Answer 503 to the first delivery of each object and check the retry is identical (Events, rules 4-5).'),
    expect: bool('SVC_WEBHOOK_EXPECT', 'You assert the service is configured to deliver to publicUrl: nothing arriving is a failure, not a skip.'),
    testUrl: url('SVC_WEBHOOK_TEST_URL', 'POST {"type": T} there asks the target for a test webhook (how is not shown).'),
    testTypes: list('SVC_WEBHOOK_TEST_TYPES', 'Webhook types asked for at testUrl.', { value: { real: ['member'], simulator: ['member'] }, default: 'member' }),
    platformClient: bool(
      'SVC_WEBHOOK_PLATFORM_CLIENT',
      "The credentials are a platform client's, which receives only the six platform webhook types (Events).",
    ),
  },
  load: {
    pageP95Ms: int('SVC_PAGE_P95_MS', 'Page-read latency threshold, p95.', { ...ms, default: '500' }),
    pageP99Ms: int('SVC_PAGE_P99_MS', 'Page-read latency threshold, p99.', { ...ms, default: '1000' }),
    checksRate: num('SVC_CHECKS_RATE', 'Minimum checks pass rate of a load script (0..1).', { min: 0, max: 1, default: '1' }),
  },
  fuzz: {
    seed: int('SVC_FUZZ_SEED', 'Replays a fuzz run (default: a fresh seed, printed).'),
    runs: int('SVC_FUZZ_RUNS', 'Generated cases per operation and version.', { min: 1, ...byTarget(10) }),
    seconds: int('SVC_FUZZ_SECONDS', 'Time budget of the generated cases, seconds.', { min: 1, ...byTarget(30) }),
    only: str('SVC_FUZZ_ONLY', 'Fuzz only this operation, e.g. "GET /institutions".'),
    rateShare: num('SVC_FUZZ_RATE_SHARE', "Share of the target's request limit the fuzzer paces itself to, in (0, 1].", { min: 0, max: 1, ...byTarget(0.5) }),
  },
  usedOperations: list('SVC_USED_OPERATIONS', 'Operations your integration uses ("METHOD /path/{template}"), for the upgrade check.', { default: 'all' }),
  reference: fileList(
    'SVC_REFERENCE',
    "The vendor's published OpenAPI documents (3.0 or 3.1, YAML or JSON, one per version; the version from info.version or the Accept-Version parameter): a stated failure that one of their examples also shows at the same place, a required field they do not carry, or a status they declare that the contract refuses is reported as inferred, naming the document and the pointer (svc-conformance reference lists every disagreement).",
  ),
  integration: {
    testCommand: str(
      'SVC_INTEGRATION_COMMAND',
      'Your integration\'s own test command (a shell command line, e.g. "npm test"): proxy runs it through the recording proxy and tolerance once per variation when no command follows --.',
    ),
    usageFile: filePath(
      'SVC_USAGE_FILE',
      "Your integration's usage file (svc-conformance usage writes it): versions judges differences against the operations, parameters and fields it names when --usage is not given.",
    ),
    variationTimeoutMs: int('SVC_TOLERANCE_TIMEOUT_MS', 'Bound on one run of the test command in the tolerance matrix.', { min: 1, ...byTarget(120_000) }),
  },
  run: {
    runId: str(
      'SVC_RUN_ID',
      "The run's name inside every created user's id (svcct-<run id>-...); letters and digits, at most 32. The cleanup command removes one run's leftovers by it.",
      { default: 'drawn per run' },
    ),
    workers: int('SVC_WORKERS', 'Playwright workers of a conformance run.', { min: 1, default: '2' }),
    chromiumPath: filePath('SVC_CHROMIUM_PATH', 'Browser of the browser scenarios.', {
      default: '/usr/bin/chromium-headless-shell when installed, else /usr/bin/chromium',
    }),
    reportsDir: filePath('SVC_REPORTS_OUT', 'Where every report is written (HTML, JUnit, Allure results, traces).', {
      default: 'svc-reports (installed CLI); reports/out (in the repository)',
    }),
    specFile: filePath('SVC_SPEC_FILE', "The specification markdown the trace checks read (the project's own tests).", {
      default: '../shared/specification.md',
    }),
    maxFailures: int('SVC_MAX_FAILURES', 'Failed scenarios after which Playwright stops the run (its maxFailures); 0 runs everything.', {
      min: 0,
      default: '0',
    }),
    allowEmpty: bool(
      'SVC_ALLOW_EMPTY',
      'A run in which every scenario of a selected project skipped passes. Default: it fails (exit 1), naming what the skips needed, so a gate that checked nothing is never green; `run --allow-empty` sets it for one run.',
      { default: 'false' },
    ),
  },
  simulator: {
    faults: list('SVC_SIM_FAULTS', 'Catalogue faults the embedded simulator starts with (svc-conformance simulator --list).'),
    variations: list('SVC_SIM_VARIATIONS', 'Catalogue variations the embedded simulator starts with.'),
    aggregationMs: int('SVC_SIM_AGGREGATION_MS', 'How long a simulated aggregation job runs.', { ...ms, value: { simulator: 60 }, default: '60' }),
    now: str('SVC_SIM_NOW', "ISO timestamp fixing the simulator's clock at start."),
    webhookUrl: url('SVC_SIM_WEBHOOK_URL', 'Where the simulator delivers its webhooks (Events).'),
    webhookTimeScale: num('SVC_SIM_WEBHOOK_TIME_SCALE', 'The webhook retry schedule is divided by this (3600: an hour a second).', {
      min: 0,
      value: { simulator: 1 },
      default: '1',
    }),
  },
} as const;

export interface SettingEntry extends Setting {
  /** Dotted key in the config file, e.g. `timeouts.requestMs`. */
  key: string;
}

function isSetting(x: unknown): x is Setting {
  return typeof x === 'object' && x !== null && 'kind' in x && 'env' in x && typeof (x as Setting).env === 'string';
}

/** Every setting, flattened, in table order. */
export function settingEntries(tree: object = SETTINGS, prefix = ''): SettingEntry[] {
  const out: SettingEntry[] = [];
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isSetting(v)) out.push({ ...v, key });
    else out.push(...settingEntries(v as object, key));
  }
  return out;
}

/**
 * A setting as a message names it to its user: its variable and, unless it is a secret
 * (secrets are read from the environment only), its key in a config file, since the CLI
 * hands a config file's values on as those variables (a user who set target.baseUrl reads
 * "SVC_BASE_URL (target.baseUrl in a config file)", not a variable it never set). A name
 * that is no setting of the table (a command-line option) is returned as given.
 */
export function settingNamed(variable: string): string {
  const entry = settingEntries().find((e) => e.env === variable);
  return entry && !entry.secret ? `${variable} (${entry.key} in a config file)` : variable;
}

/** Which default of a setting applies: a real target's, or the embedded simulator's. */
export type TargetKind = 'real' | 'simulator';

/** The table's default of a setting on this kind of target; a setting without one is refused, named. */
export function statedDefault<T>(s: Setting<T>, target: TargetKind): T {
  const value = s.value?.[target];
  if (value === undefined)
    throw new Error(`${s.env} has no default on ${target === 'real' ? 'a real target' : 'the simulator'}: the settings table must state one`);
  return value;
}

/** A text setting of a profile: its variable's value when set and not empty, else the table's default for this kind of target (if any). */
export function readText(env: Readonly<Record<string, string | undefined>>, s: Setting<string>, target: TargetKind): string | undefined {
  return env[s.env] || s.value?.[target];
}

/** readText of a setting the table gives a default on this kind of target: never undefined. */
export function readStatedText(env: Readonly<Record<string, string | undefined>>, s: Setting<string>, target: TargetKind): string {
  return env[s.env] || statedDefault(s, target);
}

/**
 * A setting's value from its variable's text: the one reading of every kind (booleans
 * 1/true/yes, lists comma-separated, numbers as numbers), for the profile and for `config
 * init --from-env`. A number that is not one stays NaN here: the caller's check names it.
 */
export function settingValue(s: Setting, text: string): unknown {
  if (s.kind === 'boolean') return ['1', 'true', 'yes'].includes(text);
  if (s.kind === 'integer' || s.kind === 'number') return Number(text);
  if (s.kind === 'list' || s.kind === 'file-list')
    return text
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  return text;
}

/** A setting's value as its variable's text (the one writing, the inverse of settingValue): what crosses to a worker or to k6. */
export function settingText(s: Setting, value: unknown): string {
  if (s.kind === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/**
 * A number setting of a profile: its variable's value when set (a non-negative number, or the
 * run is refused naming the variable), else `fallback` when given (a default derived from
 * other settings), else the table's default for this kind of target.
 */
export function readNumber(env: Readonly<Record<string, string | undefined>>, s: Setting<number>, target: TargetKind, fallback?: number): number {
  const raw = env[s.env];
  if (raw === undefined || raw === '') {
    return fallback ?? statedDefault(s, target);
  }
  const n = settingValue(s, raw) as number;
  if (!Number.isFinite(n) || n < 0) throw new Error(`${s.env} must be a non-negative number, got "${raw}"`);
  return n;
}
