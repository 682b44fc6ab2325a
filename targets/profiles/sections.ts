/**
 * Sections of the target profile (profile.ts) for what the specification names without
 * showing and what only some suites need: data-exchange identities, institution facts
 * and query names, ACH filter names, category paths, use cases, the widget's controls,
 * the live webhook capture, the k6 scripts' own settings, the upgrade check and where a
 * run reads and writes. Each comes from an SVC_* variable; on the simulator the
 * seeded values (targets/simulator/data) are the defaults where a scenario needs data
 * to exist, and a real target without a setting skips exactly the scenarios that need
 * it (the skip names the variable). They are read here, not by the suites that use
 * them, so that the profile is the only reader of SVC_* variables (DESIGN.md, "Target
 * profiles"; tests/profile-only.test.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { DATA_EXCHANGE_SEED } from '../simulator/data/data-exchange.ts';
import { simulatorInstitutionSeed } from '../simulator/data/institutions.ts';
import { readStatedText, readText, SETTINGS, statedDefault, WIDGET_CONTROL_SETTINGS, type Setting, type WidgetControl } from './settings.ts';

export type Env = Record<string, string | undefined>;

const list = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;

// ---- data exchange ---------------------------------------------------------------------

export interface DataExchangeSettings {
  issuerClientGuid?: string;
  granteeClientGuid?: string;
  grantGuid?: string;
  /** Every grantee GUID of the grant (SVC_3DX_GRANTEE_GUIDS, comma list). */
  allGranteeGuids: string[];
  /** Name of the grant query's grantee parameter (Endpoints: "not shown"). */
  granteeQueryParam: string;
  /** A user of the issuer that the grant covers (GUID or partner id). */
  userIdentifier?: string;
  memberIdentifier?: string;
  accountGuid?: string;
  /**
   * Partner-defined ids of that user, member and account (SVC_3DX_USER_ID,
   * SVC_3DX_MEMBER_ID, SVC_3DX_ACCOUNT_ID), for the paths that "accept GUID or partner
   * ID"; else taken from the slim records' `id` when they carry one.
   */
  userPartnerId?: string;
  memberPartnerId?: string;
  accountPartnerId?: string;
  /**
   * Name of the slim transaction's date field, for the 90-day window (the slim
   * transaction's fields are not shown): SVC_3DX_TRANSACTION_DATE_FIELD, else the first
   * of date, transacted_at, posted_at, created_at that the transactions carry.
   */
  transactionDateField?: string;
  /** A manual transaction of that user: token reads must answer 404. */
  manualTransactionGuid?: string;
  /** A transaction whose data_scope does not match the grant: 404. */
  scopeMismatchTransactionGuid?: string;
  /**
   * Member and account of those two (SVC_3DX_MANUAL_TRANSACTION_MEMBER / _ACCOUNT,
   * SVC_3DX_SCOPE_MISMATCH_MEMBER / _ACCOUNT): the per-member transaction read of each
   * must answer 404 too ("same rule as above; 404 when no match").
   */
  manualTransactionMember?: string;
  manualTransactionAccount?: string;
  scopeMismatchMember?: string;
  scopeMismatchAccount?: string;
  /**
   * A transaction of accountGuid dated inside the 90 days before the request day
   * (SVC_3DX_WINDOW_TRANSACTION_GUID): the default window must list it. Read by guid
   * first, so a transaction that has since left the window is noticed, not failed.
   */
  windowTransactionGuid?: string;
  /**
   * Field of the grant token response that holds the SVC-3DX-TOKEN (the response's
   * shape is not shown): SVC_3DX_TOKEN_FIELD, unset = the load script's default `token`.
   */
  tokenField?: string;
}

/**
 * The data-exchange identities. The grant itself (issuer, grantee, grant) is given by
 * the caller (profile.ts: the simulator's built-in grant, or SVC_3DX_ISSUER_GUID,
 * SVC_3DX_GRANTEE_GUID, SVC_3DX_GRANT_GUID); the rest comes from its variable, with the
 * simulator's seeded records as defaults on the simulator.
 */
export function dataExchangeFrom(
  env: Env,
  isSimulator: boolean,
  grant: { issuerClientGuid?: string; granteeClientGuid?: string; grantGuid?: string },
): DataExchangeSettings {
  const sim = isSimulator ? DATA_EXCHANGE_SEED : undefined;
  return {
    issuerClientGuid: grant.issuerClientGuid,
    granteeClientGuid: grant.granteeClientGuid,
    grantGuid: grant.grantGuid,
    allGranteeGuids:
      list(env.SVC_3DX_GRANTEE_GUIDS) ??
      (sim ? [sim.granteeClientGuid, sim.secondGranteeClientGuid] : grant.granteeClientGuid ? [grant.granteeClientGuid] : []),
    granteeQueryParam: readStatedText(env, SETTINGS.dataExchange.granteeQueryParam, 'real'),
    userIdentifier: env.SVC_3DX_USER ?? sim?.userGuid,
    memberIdentifier: env.SVC_3DX_MEMBER ?? sim?.heldMemberGuid,
    accountGuid: env.SVC_3DX_ACCOUNT_GUID ?? sim?.checkingAccountGuid,
    userPartnerId: env.SVC_3DX_USER_ID ?? sim?.userId,
    memberPartnerId: env.SVC_3DX_MEMBER_ID ?? sim?.heldMemberId,
    accountPartnerId: env.SVC_3DX_ACCOUNT_ID ?? sim?.checkingAccountId,
    transactionDateField: env.SVC_3DX_TRANSACTION_DATE_FIELD,
    manualTransactionGuid: env.SVC_3DX_MANUAL_TRANSACTION_GUID ?? sim?.manualTransactionGuid,
    scopeMismatchTransactionGuid: env.SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID ?? sim?.scopeMismatchTransactionGuid,
    manualTransactionMember: env.SVC_3DX_MANUAL_TRANSACTION_MEMBER ?? sim?.manualMemberGuid,
    manualTransactionAccount: env.SVC_3DX_MANUAL_TRANSACTION_ACCOUNT ?? sim?.manualAccountGuid,
    scopeMismatchMember: env.SVC_3DX_SCOPE_MISMATCH_MEMBER ?? sim?.aggregatedMemberGuid,
    scopeMismatchAccount: env.SVC_3DX_SCOPE_MISMATCH_ACCOUNT ?? sim?.cardAccountGuid,
    windowTransactionGuid: env.SVC_3DX_WINDOW_TRANSACTION_GUID ?? sim?.windowTransactionGuid,
    tokenField: env.SVC_3DX_TOKEN_FIELD || undefined,
  };
}

// ---- institutions and query names -------------------------------------------------------

/**
 * Query parameter names of filters the specification describes without naming
 * (Endpoints, Institutions: "Exact query names of the institution list filters other
 * than the ones given: not shown"). A name the user sets is enforced; the default (the
 * vendor reference's name) is a guess, and a miss under it is only inferred.
 */
export interface QueryName {
  name: string;
  explicit: boolean;
}

/**
 * Institution facts a real target's profile must name (the specification leaves them to
 * the client's set-up), with the simulator's seeded values as defaults there:
 *  - favouriteCodes: the client's favourite institutions in popularity order
 *    (SVC_FAVORITE_INSTITUTION_CODES, comma list; Endpoints: "the list of favourites is
 *    set up by the vendor on request", so the client knows it);
 *  - blockedCode: an institution blocked for this client (SVC_BLOCKED_INSTITUTION_CODE),
 *    listed only with include_blocked_institutions;
 *  - testInstitutionCountry: the test institution's country code (SVC_TEST_INSTITUTION_COUNTRY);
 *  - nameParam: the name filter's query name (SVC_INSTITUTION_NAME_PARAM, default `name`);
 *  - countryParam: the institution lists' country-code filter (Endpoints, Institutions:
 *    "filters by name, country code ..." and favourites "query: country code"; their
 *    names are not shown): SVC_INSTITUTION_COUNTRY_PARAM, default `iso_country_code` (a
 *    guess; the simulator accepts it and `country_code`), so a miss under it is only inferred.
 */
export interface InstitutionSettings {
  favouriteCodes?: string[];
  blockedCode?: string;
  testInstitutionCountry?: string;
  nameParam: QueryName;
  countryParam: QueryName & { variable: string };
}

export function institutionsFrom(env: Env, isSimulator: boolean): InstitutionSettings {
  const given = {
    favouriteCodes: list(env.SVC_FAVORITE_INSTITUTION_CODES),
    blockedCode: env.SVC_BLOCKED_INSTITUTION_CODE,
    testInstitutionCountry: env.SVC_TEST_INSTITUTION_COUNTRY,
  };
  const nameSetting = SETTINGS.institutions.nameParam;
  const countrySetting = SETTINGS.institutions.countryParam;
  const nameParam = { name: readStatedText(env, nameSetting, 'real'), explicit: !!env[nameSetting.env] };
  const countryParam = { name: readStatedText(env, countrySetting, 'real'), explicit: !!env[countrySetting.env], variable: countrySetting.env };
  if (!isSimulator) return { ...given, nameParam, countryParam };
  // The simulator's seed builds its institution catalogue (most of a second): only when
  // a scenario asks, never for every profile a worker, a reporter or a script loads.
  let seed: ReturnType<typeof simulatorInstitutionSeed> | undefined;
  const sim = () => (seed ??= simulatorInstitutionSeed());
  return {
    get favouriteCodes() {
      return given.favouriteCodes ?? sim().favouriteCodes;
    },
    get blockedCode() {
      return given.blockedCode ?? sim().blockedCode;
    },
    get testInstitutionCountry() {
      return given.testInstitutionCountry ?? sim().testInstitutionCountry;
    },
    nameParam,
    countryParam,
  };
}

/**
 * Query names of the ACH return list filters (Endpoints, ACH returns: "query filters:
 * institution guid, returned time, resolved-status time, return code, return status";
 * "Exact query parameter names of the ACH list filters: not shown"). Each name is a
 * setting (SVC_ACH_*_PARAM, the table's achFilters); the defaults are the simulator's names, a guess, so a filter
 * that does not narrow under a default name is only an inferred miss.
 */
export type AchFilter = keyof typeof SETTINGS.achFilters;

export function achFiltersFrom(env: Env): Record<AchFilter, QueryName & { variable: string }> {
  const out = {} as Record<AchFilter, QueryName & { variable: string }>;
  for (const [filter, setting] of Object.entries(SETTINGS.achFilters) as Array<[AchFilter, Setting<string>]>) {
    out[filter] = { name: readStatedText(env, setting, 'real'), explicit: !!env[setting.env], variable: setting.env };
  }
  return out;
}

// ---- categories, use cases, the widget ----------------------------------------------------

/**
 * Categories: GET /categories/default is "equivalent to the by-user default list", and
 * "a user can also have custom categories"; neither the by-user paths nor the custom
 * category body are shown. Defaults are the vendor reference's paths; `{user_guid}` is
 * replaced. On a real target the vendor paths are used unless set otherwise.
 */
export interface UserCategoryPaths {
  defaults: string;
  all: string;
  /** Custom categories are created with POST on this path (`{category: {name}}`, the vendor reference's body). */
  create: string;
  explicit: boolean;
}

export function userCategoryPathsFrom(env: Env): UserCategoryPaths {
  const defaultsPath = SETTINGS.userCategories.defaultsPath;
  const allPath = SETTINGS.userCategories.allPath;
  const createPath = SETTINGS.userCategories.createPath;
  const all = readStatedText(env, allPath, 'real');
  return {
    defaults: readStatedText(env, defaultsPath, 'real'),
    all,
    // Unset, custom categories are created on the categories path (the table's default: userCategories.allPath).
    create: env[createPath.env] || all,
    explicit: !!(env[defaultsPath.env] || env[allPath.env]),
  };
}

/**
 * Use cases (Resources, Member: `use_cases` "only for clients opted in to use cases";
 * Endpoints: the transaction list's `use_case` filter is for "opted-in clients").
 * Whether the client is opted in, and to which values, is not in the specification:
 * SVC_USE_CASES lists the client's use cases (at least two for the filter scenario).
 * The simulator takes any value; its default is the vendor reference's two.
 */
export function useCasesFrom(env: Env, isSimulator: boolean): string[] | undefined {
  return list(env.SVC_USE_CASES) ?? (isSimulator ? ['MONEY_MOVEMENT', 'PFM'] : undefined);
}

// ---- processor token request ----------------------------------------------------------

/**
 * How a processor token is asked for with an authorization code (Authentication: "Request
 * and response shape of the processor /token endpoint: not shown"; Endpoints names only
 * "/token (processor token)"; the vendor's reference reads tokens with GET /tokens,
 * real-service-notes, Request shapes). SVC_PROCESSOR_TOKEN_REQUEST: `<METHOD> <path>`,
 * optionally followed by a JSON body, with `{code}` where the code goes (in the path, the
 * query or the body), e.g. `GET /tokens?authorization_code={code}` or
 * `POST /token {"code":"{code}"}`. Unset: the simulator's own shape, a guess on a real
 * target (`explicit` false): a guess the target does not answer is a skip naming the
 * variable, never a failure.
 */
export interface ProcessorTokenRequest {
  method: string;
  /** Path and query, `{code}` possibly inside. */
  path: string;
  /** JSON body template, `{code}` possibly inside; undefined: no body. */
  body?: string;
  /** Set by the user, or the embedded simulator's documented shape: a refusal then fails. */
  explicit: boolean;
  /** As given (or the default), for messages. */
  text: string;
}

function parseProcessorTokenRequest(text: string, explicit: boolean): ProcessorTokenRequest {
  const m = /^\s*([A-Za-z]+)\s+(\/\S*)(?:\s+(.+?))?\s*$/.exec(text);
  if (!m) throw new Error(`SVC_PROCESSOR_TOKEN_REQUEST must be "<METHOD> </path>[ <JSON body>]" with {code} where the code goes, got "${text}"`);
  const body = m[3];
  if (!`${m[2]} ${body ?? ''}`.includes('{code}')) throw new Error(`SVC_PROCESSOR_TOKEN_REQUEST names no {code} placeholder: "${text}"`);
  if (body !== undefined) {
    try {
      JSON.parse(body.replace(/\{code\}/g, 'x'));
    } catch {
      throw new Error(`SVC_PROCESSOR_TOKEN_REQUEST's body is not JSON: "${body}"`);
    }
  }
  return { method: m[1].toUpperCase(), path: m[2], ...(body !== undefined ? { body } : {}), explicit, text: text.trim() };
}

export function processorTokenFrom(env: Env, isSimulator: boolean): ProcessorTokenRequest {
  const setting = SETTINGS.processor.tokenRequest;
  const given = env[setting.env];
  return parseProcessorTokenRequest(readStatedText(env, setting, 'real'), !!given || isSimulator);
}

/**
 * The widget's own controls are not shown in the specification. A real target's widget
 * is driven only when the profile names them: a CSS selector inside the widget page per
 * control, each a setting of the table's `widget` group (SVC_WIDGET_<CONTROL>_SELECTOR, what
 * each control does, the simulator's built-in selector). Searching for the institution
 * beforehand is the target's own flow: SVC_WIDGET_CURRENT_INSTITUTION=1 sends
 * current_institution_code so the widget opens on the test institution.
 */
export type WidgetControls = Partial<Record<WidgetControl, string>>;

/** The setting of each widget control (the table's `widget.<control>Selector`: its variable, and the simulator's built-in selector). */
export const WIDGET_CONTROLS = Object.fromEntries(
  Object.entries(WIDGET_CONTROL_SETTINGS).map(([key, setting]) => [key.replace(/Selector$/, ''), setting]),
) as Record<keyof WidgetControls, Setting<string>>;

export function widgetControlsFrom(env: Env, isSimulator: boolean): WidgetControls {
  const out: WidgetControls = {};
  for (const [key, setting] of Object.entries(WIDGET_CONTROLS) as Array<[keyof WidgetControls, Setting<string>]>) {
    out[key] = readText(env, setting, isSimulator ? 'simulator' : 'real');
  }
  return out;
}

/** The skip reason naming every missing control variable, or undefined when all are set. */
export function missingControls(c: WidgetControls, needed: Array<keyof WidgetControls>): string | undefined {
  const missing = needed.filter((k) => !c[k]).map((k) => WIDGET_CONTROLS[k].env);
  return missing.length
    ? `the widget's controls are not shown in the specification: set ${missing.join(', ')} (CSS selectors inside the target's widget) to drive it`
    : undefined;
}

// ---- webhook deliveries of a real service (scenarios/properties/live-delivery.spec.ts) ----

/**
 * The live webhook capture's settings as the user gave them. They are parsed and
 * checked by liveDeliverySettings (scenarios/properties/harness/live-delivery.ts), which
 * knows the target (https is required unless the target is on this machine) and turns
 * a wrong value into that one test's failure, not every run's.
 */
export interface WebhookCaptureSettings {
  /** SVC_WEBHOOK_PUBLIC_URL: where the service delivers (a tunnel to the capture). */
  publicUrl?: string;
  /** SVC_WEBHOOK_LISTEN: host:port the capture listens on. */
  listen?: string;
  /** SVC_WEBHOOK_WAIT_MS: bound on waiting for deliveries after the last trigger. */
  waitMs?: string;
  /** SVC_WEBHOOK_FAIL_FIRST=1: answer 503 to the first delivery of each object (rules 4-5). */
  failFirst?: string;
  /** SVC_WEBHOOK_EXPECT=1: the user asserts the service is configured to deliver to publicUrl. */
  expect?: string;
  /** SVC_WEBHOOK_TEST_URL: POST {"type": T} there asks the target for a test webhook (rule 7; how is not shown). */
  testUrl?: string;
  /** SVC_WEBHOOK_TEST_TYPES: the types asked for (comma list). */
  testTypes?: string;
  /** SVC_WEBHOOK_PLATFORM_CLIENT=1: the client is a platform client (Events: only six types are available to it). */
  platformClient?: string;
}

export function webhookCaptureFrom(env: Env): WebhookCaptureSettings {
  return {
    publicUrl: env.SVC_WEBHOOK_PUBLIC_URL,
    listen: env.SVC_WEBHOOK_LISTEN,
    waitMs: env.SVC_WEBHOOK_WAIT_MS,
    failFirst: env.SVC_WEBHOOK_FAIL_FIRST,
    expect: env.SVC_WEBHOOK_EXPECT,
    testUrl: env.SVC_WEBHOOK_TEST_URL,
    testTypes: env.SVC_WEBHOOK_TEST_TYPES,
    platformClient: env.SVC_WEBHOOK_PLATFORM_CLIENT,
  };
}

// ---- the k6 scripts' own settings (load/script-support/config.ts) -------------------------------------

/**
 * Settings only the load scripts use, as the user gave them: profileEnv hands them to
 * k6 unchanged and load/script-support/config.ts checks them there (the scripts also run under k6
 * alone, with the same variables). Unset = the script's own default.
 */
export interface LoadScriptSettings {
  /** SVC_429_BODY: any | non-empty | json-error (a 429's body is not shown: Errors). */
  rateLimitBody?: string;
  /** SVC_RATE_LIMIT_PATHS (or the older SVC_RATE_LIMIT_PATH): GET paths the flood spreads over. */
  rateLimitPaths?: string;
  /** SVC_PAGE_P95_MS, SVC_PAGE_P99_MS: page-read latency thresholds. */
  pageP95Ms?: string;
  pageP99Ms?: string;
  /** SVC_CHECKS_RATE: minimum checks pass rate. */
  checksRate?: string;
  /**
   * SVC_3DX_USER as the user set it: the data-exchange user the paging script walks;
   * unset, the script takes the first user the grant lists (on the simulator too, unlike
   * the scenarios, which default to the seeded user: dataExchange.userIdentifier).
   */
  dataExchangeUser?: string;
}

/** Older names of k6 settings the profile folds into one (read by the scripts; profileEnv passes the new name). */
export const K6_SETTING_ALIASES: Record<string, string> = { SVC_RATE_LIMIT_PATH: 'SVC_RATE_LIMIT_PATHS' };

export function loadScriptSettingsFrom(env: Env): LoadScriptSettings {
  return {
    rateLimitBody: env.SVC_429_BODY || undefined,
    rateLimitPaths: env.SVC_RATE_LIMIT_PATHS || env.SVC_RATE_LIMIT_PATH || undefined,
    pageP95Ms: env.SVC_PAGE_P95_MS || undefined,
    pageP99Ms: env.SVC_PAGE_P99_MS || undefined,
    checksRate: env.SVC_CHECKS_RATE || undefined,
    dataExchangeUser: env.SVC_3DX_USER || undefined,
  };
}

// ---- the upgrade check (upgrade/versions.ts) --------------------------------------------

/** SVC_USED_OPERATIONS: comma or newline list of `METHOD /path/{template}`; unset, `*` or `all` = all. */
export function usedOperationsFrom(env: Env): 'all' | string[] {
  const raw = env.SVC_USED_OPERATIONS?.trim();
  if (!raw || raw === '*' || raw.toLowerCase() === 'all') return 'all';
  return raw
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// ---- the vendor's reference as a second witness (contracts/reference.ts) --------------------

/**
 * SVC_REFERENCE: the vendor's published OpenAPI documents, comma-separated (a config file's
 * `reference` list, resolved against the config file's folder). Each must exist: a run
 * stops before it starts, naming the file, rather than judging without the reference.
 */
export function referenceFilesFrom(env: Env): string[] {
  const files = (env.SVC_REFERENCE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((f) => resolve(f));
  for (const f of files)
    if (!existsSync(f)) throw new Error(`SVC_REFERENCE names ${f}, which does not exist (the vendor's OpenAPI documents, comma-separated)`);
  return files;
}

// ---- the gate of the team's own integration (integration/) ---------------------------------

export interface IntegrationSettings {
  /**
   * SVC_INTEGRATION_COMMAND: the team's own test command (a shell command line), run by
   * `proxy` (through the proxy) and `tolerance` (once per variation) when none follows `--`.
   */
  testCommand?: string;
  /** SVC_USAGE_FILE: the integration's usage file; `versions` judges differences against it when --usage is not given. */
  usageFile?: string;
  /** SVC_TOLERANCE_TIMEOUT_MS: bound on one run of the test command in the tolerance matrix (the table's default). */
  variationTimeoutMs: number;
}

export function integrationSettingsFrom(env: Env): IntegrationSettings {
  const raw = env.SVC_TOLERANCE_TIMEOUT_MS;
  const variationTimeoutMs = raw === undefined || raw === '' ? statedDefault(SETTINGS.integration.variationTimeoutMs, 'real') : Number(raw);
  if (!Number.isInteger(variationTimeoutMs) || variationTimeoutMs < 1)
    throw new Error(`SVC_TOLERANCE_TIMEOUT_MS must be a positive whole number of milliseconds, got "${raw}"`);
  return {
    ...(env.SVC_INTEGRATION_COMMAND?.trim() ? { testCommand: env.SVC_INTEGRATION_COMMAND.trim() } : {}),
    ...(env.SVC_USAGE_FILE ? { usageFile: resolve(env.SVC_USAGE_FILE) } : {}),
    variationTimeoutMs,
  };
}

// ---- where a run reads and writes ---------------------------------------------------------

export interface RunSettings {
  /** SVC_SPEC_FILE: the specification the trace and the statement checks read (default ../shared/specification.md). */
  specFile: string;
  /**
   * SVC_REPORTS_OUT: where every reporter of a run writes (HTML, JUnit, Allure results,
   * test results, the nightly's files); absolute. Default: the project's reports/out
   * (reports/reporters.ts).
   */
  reportsOut: string;
  /** SVC_HTTP_TIMING_DIR: where the checked client writes its HTTP timings (default <reportsOut>/http-timing). */
  httpTimingDir: string;
  /**
   * SVC_CHROMIUM_PATH: the browser of the browser project. Default: Debian's
   * chromium-headless-shell when it is installed, else /usr/bin/chromium (defaultChromiumPath).
   */
  chromiumPath: string;
  /** SVC_WORKERS: Playwright workers of a conformance run (unset: the configuration's default). */
  workers?: number;
  /**
   * SVC_RUN_ID: the run's name inside the client-supplied `id` of every user the suite
   * creates (`svcct-<run id>-<purpose>-<random>`, scenarios/cleanup.ts), so one run's
   * leftovers can be told from another's. Letters and digits only (a dash would let one
   * run's prefix match another's). Unset: scenarios/global-setup.ts draws one per run.
   */
  runId?: string;
  /**
   * SVC_RUN_LEDGER_DIR: where every worker writes the observations of the run-wide
   * invariants (contracts/invariants.ts) and the run's last test reads them
   * (scenarios/run/invariants.spec.ts). Set by scenarios/global-setup.ts for each run;
   * unset (the self-test, a batch of runs), each worker judges only what it saw.
   */
  runLedgerDir?: string;
  /** SVC_ALLOW_EMPTY: a run in which every scenario of a selected project skipped passes (reports/empty-run-reporter.ts). */
  allowEmpty: boolean;
  /** SVC_MAX_FAILURES: failed scenarios after which Playwright stops the run (maxFailures); 0 runs everything. */
  maxFailures: number;
  /** SVC_PREFLIGHT_PASSED: the CLI read the target once before starting Playwright; globalSetup does not read it again. */
  preflightPassed: boolean;
}

/** A run id: letters and digits, at most 32 (it is part of every created user's `id`). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/**
 * Debian packages both of Chromium's headless builds: `chromium` (the full browser, whose
 * headless mode renders as a headed one does) and `chromium-headless-shell` (the build
 * Playwright itself runs for headless tests). The shell runs the browser scenarios in
 * much less CPU than the full browser (it renders no window), with the same verdicts. A headed run
 * (`--headed`, `--debug`, `--ui`, PWDEBUG) needs the full browser.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

function defaultChromiumPath(): string {
  return existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH;
}

const DEFAULT_SPEC_FILE = fileURLToPath(new URL('../../../shared/specification.md', import.meta.url));
/** The project's own report folder: the default when no SVC_REPORTS_OUT names another (the installed CLI always names one). */
const DEFAULT_REPORTS_OUT = fileURLToPath(new URL('../../reports/out', import.meta.url));

function maxFailuresOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw)) throw new Error(`SVC_MAX_FAILURES must be 0 (run everything) or a whole number of failed scenarios, got "${raw.slice(0, 40)}"`);
  return Number(raw);
}

export function runSettingsFrom(env: Env): RunSettings {
  const reportsOut = resolve(env.SVC_REPORTS_OUT || DEFAULT_REPORTS_OUT);
  const workers = env.SVC_WORKERS ? Number(env.SVC_WORKERS) : undefined;
  const runId = env.SVC_RUN_ID || undefined;
  if (runId !== undefined && !RUN_ID_PATTERN.test(runId)) {
    throw new Error(`SVC_RUN_ID must be 1 to 32 letters or digits (it becomes part of every created user's id), got "${runId.slice(0, 40)}"`);
  }
  return {
    specFile: env.SVC_SPEC_FILE ?? DEFAULT_SPEC_FILE,
    reportsOut,
    httpTimingDir: env.SVC_HTTP_TIMING_DIR ?? join(reportsOut, 'http-timing'),
    chromiumPath: env.SVC_CHROMIUM_PATH ?? defaultChromiumPath(),
    ...(workers !== undefined ? { workers } : {}),
    ...(runId !== undefined ? { runId } : {}),
    ...(env.SVC_RUN_LEDGER_DIR ? { runLedgerDir: env.SVC_RUN_LEDGER_DIR } : {}),
    allowEmpty: ['1', 'true', 'yes'].includes(env.SVC_ALLOW_EMPTY ?? ''),
    maxFailures: maxFailuresOf(env.SVC_MAX_FAILURES),
    preflightPassed: env.SVC_PREFLIGHT_PASSED === '1',
  };
}
