/**
 * Target profiles (../shared/DESIGN.md, "Target profiles"): every fact a suite needs
 * that the specification leaves to the environment. The simulator's profile is built
 * in; a real environment is chosen with environment variables, never with files.
 *
 * Suites learn about the target only through this object (a URL and settings), so the
 * same suites run unchanged against the simulator and a real environment.
 */
import { SIMULATOR_DEFAULTS } from '../simulator/settings.ts';
import { DEFAULT_SPEC_DIR, discoverDocuments } from '../../contracts/index.ts';
import {
  achFiltersFrom,
  dataExchangeFrom,
  institutionsFrom,
  loadScriptSettingsFrom,
  runSettingsFrom,
  usedOperationsFrom,
  integrationSettingsFrom,
  referenceFilesFrom,
  type IntegrationSettings,
  useCasesFrom,
  processorTokenFrom,
  type ProcessorTokenRequest,
  userCategoryPathsFrom,
  webhookCaptureFrom,
  widgetControlsFrom,
  type AchFilter,
  type DataExchangeSettings,
  type Env,
  type InstitutionSettings,
  type LoadScriptSettings,
  type QueryName,
  type RunSettings,
  type UserCategoryPaths,
  type WebhookCaptureSettings,
  type WidgetControls,
} from './sections.ts';
import {
  PASSWORD_SCENARIOS,
  PRODUCT_PATH_DEFAULTS,
  PRODUCT_PATH_ENV,
  readNumber,
  readStatedText,
  SETTINGS,
  settingEntries,
  statedDefault,
  type PasswordScenario,
  type ProductPaths,
  type TargetKind,
} from './settings.ts';

/**
 * The versions in play (Versioning: "Versions in play: v20260929 (current ...),
 * v20250224, v20111101"), read from the contract: one derived platform document per version in
 * spec/versions/, oldest first. The one list the profiles and the self-test use; a real
 * target may name its own with SVC_VERSIONS.
 */
export const CONTRACT_VERSIONS: readonly string[] = discoverDocuments(DEFAULT_SPEC_DIR).versions.map((v) => v.version);

export interface TargetProfile {
  /** `simulator`, `integration` or `production` (SVC_ENVIRONMENT). */
  name: string;
  isSimulator: boolean;
  /**
   * The embedded simulator is the target although platform credentials were exported
   * (SVC_API_KEY, a secret no config file holds) and no setting names a target (SVC_BASE_URL,
   * SVC_SIMULATOR_URL): they were meant for a target this run does not meet.
   */
  credentialsForUnnamedTarget: boolean;
  isProduction: boolean;
  /** Destructive scenarios (creating/deleting users, members) may run. */
  allowDestructive: boolean;

  platformBaseUrl: string;
  audienceBaseUrl?: string;
  testHostBaseUrl?: string;

  clientId?: string;
  apiKey?: string;

  audience: {
    tokenUrl?: string;
    clientId?: string;
    clientSecret?: string;
    audienceId?: string;
    /** The same audience's slug (Endpoints, Audience list service: `{id_or_slug}`). */
    audienceSlug?: string;
    institutionPublicId?: string;
  };

  /**
   * Data-exchange identities (SVC_3DX_*): the grant, and the user, member, account and
   * transactions the scenarios read through it (sections.ts, DataExchangeSettings).
   */
  dataExchange: DataExchangeSettings;

  /**
   * A second client of the same environment (SVC_SECOND_CLIENT_ID, SVC_SECOND_API_KEY),
   * for cross-client isolation; the embedded simulator serves a second one by default (SIMULATOR_DEFAULTS.secondClientId).
   */
  secondClient: { clientId?: string; apiKey?: string };

  testInstitution: {
    code: string;
    oauthCode: string;
    username: string;
    passwords: Partial<Record<PasswordScenario, string>>;
    correctAnswer?: string;
  };

  versions: {
    /** Versions the target supports and that the suites exercise. */
    supported: string[];
    /** A version the target has sunset (its requests must answer an error). */
    sunset?: string;
    /** Names of the response headers that signal deprecation and sunset (not shown in the specification). */
    deprecationHeader: string;
    sunsetHeader: string;
    /**
     * The header names were set explicitly (SVC_DEPRECATION_HEADER / SVC_SUNSET_HEADER):
     * a missing header is then enforced (a name the user sets explicitly is their statement
     * that the target sends it). The simulator's defaults do not count.
     * Otherwise the name is a guess and a missing header is an inferred failure
     * (Versioning: "Names of the deprecation and sunset response headers: not shown").
     */
    headerNamesExplicit: boolean;
    /** SVC_ACCEPT_VERSION: the version requests send unless they name one (unset: the newest supported). */
    accept?: string;
    /**
     * A version the target has deprecated and the day it was deprecated (YYYY-MM-DD):
     * Versioning, "A deprecated version remains usable for 12 months after its
     * deprecation date". Set with SVC_DEPRECATED_VERSION and SVC_DEPRECATED_ON; the
     * simulator's is v20111101, deprecated on 2026-09-29 (settings.ts).
     */
    deprecated?: { version: string; on: string };
  };

  rateLimit: {
    /** Expected request limit per second per client (not shown in the specification). */
    perSecond?: number;
    /** SVC_RATE_LIMIT_PER_SECOND was set (else perSecond is the simulator's default, or unknown on a real target). */
    explicit: boolean;
  };

  /**
   * Inferred expectations (../shared/DESIGN.md, "Checks and failures": stated,
   * inferred, informational) gate the run only when the user asks for it
   * (SVC_STRICT=1). Otherwise they are reported apart as warnings.
   */
  strict: boolean;

  timeouts: {
    /** Bound on polling a member until its aggregation settles. */
    aggregationMs: number;
    pollIntervalMs: number;
    requestMs: number;
    /**
     * Bound on waiting, in a browser scenario, for what a page does after an action: a
     * widget event, a postMessage, a redirect (SVC_BROWSER_EVENT_TIMEOUT_MS). It is also
     * how long a scenario watches for an event that must not come (or, inferred, should).
     * A real target: requestMs unless set. The embedded simulator: 3 s, see loadProfile.
     */
    browserEventMs: number;
    /**
     * The shortest time an aggregation-type job of the target runs (aggregation, extended
     * history, identification), from the request that starts it, when the user knows it
     * (SVC_MIN_JOB_MS). A scenario that needs a job running reads its state; a read answered
     * sooner than this after the start request was sent tells whether the job started, and
     * an answer that soon tells it still ran (scenarios/api/jobs.ts). Unset (a real target
     * by default): a job not seen running is inconclusive, never a failure. The embedded
     * simulator: its job duration (SVC_SIM_AGGREGATION_MS, 60 ms by default).
     */
    minJobMs?: number;
    /**
     * The throttle period a standard aggregation opens on the target (Limits: "only standard
     * aggregations trigger the throttle period"; its length is not shown), when the user
     * knows it (SVC_AGGREGATION_THROTTLE_MS). A second standard aggregation is judged
     * throttled only when it is proven inside the period; unset (a real target by default):
     * one that runs is inconclusive. The embedded simulator: its own period (1 hour).
     */
    throttlePeriodMs?: number;
    /**
     * Bound of one Playwright test (SVC_TEST_TIMEOUT_MS; playwright.config.ts through
     * runSettings). Always above requestMs (loadProfile refuses otherwise), so a stalled
     * request fails with its own message naming the request and SVC_REQUEST_TIMEOUT_MS
     * before the test's bound ends it as a bare "Test timeout ... exceeded". Default: the
     * embedded simulator 30 s; a real target testTimeoutDefault (two aggregation waits and
     * four requests).
     */
    testMs: number;
    /**
     * Bound on the whole run (SVC_RUN_TIMEOUT_MS; Playwright's globalTimeout): a target that
     * stalls every request after the preflight cannot hold a CI job for its own timeout.
     * Default: 30 minutes on a real target, 15 on the simulator; 0 leaves it unbounded.
     */
    runMs: number;
  };

  /**
   * Bounds on what the suite reads from a target (targets/http.ts): a response
   * body larger than maxBodyBytes (SVC_MAX_BODY_BYTES) fails the request with a message
   * naming it, instead of a worker holding gigabytes.
   */
  limits: {
    maxBodyBytes: number;
    /**
     * Transport failures of one kind on one target after which the run stops
     * (SVC_MAX_TRANSPORT_FAILURES, default 5; 0 never stops): the first is named in full, and
     * every later scenario is skipped naming it, instead of each failing on its own bound.
     */
    maxTransportFailures: number;
  };

  oauthPage: {
    authorizeSelector: string;
    denySelector: string;
    /**
     * The variables of the two that are unset, whose guess (the table's default) is in use:
     * what the preflight names. A selector set to the guess's own text is set.
     */
    guessed: string[];
  };

  /** A user's own webhook receiver for the receiver properties (scenarios/properties/harness/client.ts); `{type}` in it is the webhook type. */
  webhookReceiverUrl?: string;

  /**
   * Paths of the product areas whose rules the specification states but whose paths it
   * does not show (What the service does: notifications, goals, budgets, statements,
   * tags and taggings, holdings, merchants, microdeposits; Endpoints: "Paths and payloads
   * of the other product areas listed under What the service does: not shown").
   * Templates relative to the platform base URL, with `{user_guid}`, `{member_guid}`,
   * `{account_guid}`, `{goal_guid}`, ... placeholders. The simulator serves every one at
   * its default (PRODUCT_PATH_DEFAULTS, the vendor reference's paths); on a real target a
   * path is set only by its SVC_PATH_* variable, and a scenario whose path is unset skips
   * with the variable's name.
   */
  productPaths: Partial<ProductPaths>;

  /**
   * Bounds of the fuzz project (scenarios/fuzz): SVC_FUZZ_SEED replays a run
   * (default: a fresh seed, printed), SVC_FUZZ_RUNS cases per operation and version,
   * SVC_FUZZ_SECONDS the time budget of the generated cases, SVC_FUZZ_ONLY one
   * operation (`GET /institutions`) to replay, SVC_FUZZ_RATE_SHARE the share of the
   * target's request limit the fuzzer paces itself to (default 0.5: under Playwright the
   * other workers' scenarios use the same client and its limit).
   */
  fuzz: FuzzSettings;

  /** Institution facts and the institution lists' query names (sections.ts, InstitutionSettings). */
  institutions: InstitutionSettings;
  /** Query names of the ACH return list filters (SVC_ACH_*_PARAM; settings.ts achFilters, read by sections.ts). */
  achFilters: Record<AchFilter, QueryName & { variable: string }>;
  /** By-user category paths (SVC_USER_*CATEGOR*_PATH; sections.ts). */
  userCategories: UserCategoryPaths;
  /** The client's use cases (SVC_USE_CASES); undefined on a real target that names none. */
  useCases?: string[];
  /** How a processor token is asked for with an authorization code (SVC_PROCESSOR_TOKEN_REQUEST; sections.ts). */
  processorToken: ProcessorTokenRequest;
  /** CSS selectors of the widget's controls (SVC_WIDGET_*_SELECTOR; sections.ts). */
  widget: WidgetControls;
  /** The live webhook capture's settings as given (SVC_WEBHOOK_*; sections.ts). */
  webhookCapture: WebhookCaptureSettings;
  /** The k6 scripts' own settings as given, handed to them by profileEnv (targets/index.ts). */
  load: LoadScriptSettings;
  /** Operations the integration uses, for the upgrade check (SVC_USED_OPERATIONS). */
  usedOperations: 'all' | string[];
  /**
   * The vendor's published OpenAPI documents (SVC_REFERENCE; absolute paths): every run's
   * contract checks report a stated failure they contradict as inferred (targets/client.ts
   * checkOptionsOf; contracts/reference.ts). Empty: the contract alone.
   */
  reference: string[];
  /** The gate of the team's own integration: its test command, usage file, tolerance bound (SVC_INTEGRATION_COMMAND, SVC_USAGE_FILE, SVC_TOLERANCE_TIMEOUT_MS; sections.ts). */
  integration: IntegrationSettings;
  /**
   * Catalogue entries (targets/simulator/catalog.ts) the embedded simulator is started
   * with: SVC_SIM_FAULTS and SVC_SIM_VARIATIONS, comma lists (empty on a real target's
   * profile only when unset; startTarget ignores them for a real target).
   */
  simulatorEntries: { faults: string[]; variations: string[] };
  /** Where a run reads and writes (SVC_SPEC_FILE, SVC_REPORTS_OUT, ...; sections.ts). */
  run: RunSettings;
}

/** SVC_DEPRECATED_VERSION + SVC_DEPRECATED_ON (YYYY-MM-DD), both or neither; else the fallback. */
function deprecatedFrom(env: Env, fallback?: { version: string; on: string }): { version: string; on: string } | undefined {
  const version = env.SVC_DEPRECATED_VERSION;
  const on = env.SVC_DEPRECATED_ON;
  if (!version && !on) return fallback;
  if (!version || !on || !/^\d{4}-\d{2}-\d{2}$/.test(on) || Number.isNaN(Date.parse(on))) {
    throw new Error(`SVC_DEPRECATED_VERSION and SVC_DEPRECATED_ON (YYYY-MM-DD) go together, got "${version ?? ''}" and "${on ?? ''}"`);
  }
  return { version, on };
}

function productPathsFrom(env: Env, defaults?: ProductPaths): Partial<ProductPaths> {
  const out: Partial<ProductPaths> = {};
  for (const key of Object.keys(PRODUCT_PATH_DEFAULTS) as Array<keyof ProductPaths>) {
    const v = env[PRODUCT_PATH_ENV[key]] ?? defaults?.[key];
    if (v) out[key] = v;
  }
  return out;
}

export interface FuzzSettings {
  seed?: number;
  runs: number;
  seconds: number;
  only?: string;
  /** Share of profile.rateLimit.perSecond the fuzzer takes (scenarios/fuzz/engine/engine.ts pacerOf), in (0, 1]. */
  rateShare: number;
}

/** The fuzz bounds of any profile: the defaults keep the fuzz project under a minute on 2 cores. */
function fuzzSettings(env: Env): FuzzSettings {
  const raw = env.SVC_FUZZ_SEED;
  let seed: number | undefined;
  if (raw !== undefined && raw !== '') {
    seed = Number(raw);
    if (!Number.isInteger(seed)) throw new Error(`SVC_FUZZ_SEED must be an integer, got "${raw}"`);
  }
  const rateShare = readNumber(env, SETTINGS.fuzz.rateShare, 'real');
  if (!(rateShare > 0 && rateShare <= 1)) throw new Error(`SVC_FUZZ_RATE_SHARE must be in (0, 1], got "${env.SVC_FUZZ_RATE_SHARE}"`);
  return {
    ...(seed !== undefined ? { seed } : {}),
    runs: readNumber(env, SETTINGS.fuzz.runs, 'real'),
    seconds: readNumber(env, SETTINGS.fuzz.seconds, 'real'),
    ...(env.SVC_FUZZ_ONLY ? { only: env.SVC_FUZZ_ONLY } : {}),
    rateShare,
  };
}

/**
 * The OAuth page's controls when SVC_OAUTH_AUTHORIZE_SELECTOR / SVC_OAUTH_DENY_SELECTOR are
 * unset: the simulator's page (Endpoints: "the authorization screen offers an authorize
 * action ... and a deny action"; their markup is not shown), a guess on a real target.
 */
export const OAUTH_PAGE_DEFAULTS = {
  authorizeSelector: statedDefault(SETTINGS.oauthPage.authorizeSelector, 'real'),
  denySelector: statedDefault(SETTINGS.oauthPage.denySelector, 'real'),
};

const PRODUCTION_OPT_IN = 'I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION';

/**
 * A real target's test bound when SVC_TEST_TIMEOUT_MS is unset: a scenario waits for at
 * most two aggregations (an aggregate, then a verify or resume) and sends a few requests
 * around them, each bounded by the request timeout, so it ends on the poll's or the
 * request's own message rather than on the test's bound.
 */
function testTimeoutDefault(aggregationMs: number, requestMs: number): number {
  return 2 * aggregationMs + 4 * requestMs;
}

/**
 * The request and test bounds and the body limit, checked together: a test bound at or
 * below the request bound would end a stalled request as "Test timeout of N ms exceeded",
 * naming neither the request nor the setting.
 */
function boundsFrom(
  env: Env,
  target: TargetKind,
  o: { requestMs: number; testMsDefault?: number },
): { testMs: number; maxBodyBytes: number; runMs: number; maxTransportFailures: number } {
  if (!(o.requestMs > 0))
    throw new Error(
      `SVC_REQUEST_TIMEOUT_MS must be a positive number of milliseconds, got "${env.SVC_REQUEST_TIMEOUT_MS}" (0 would leave a request unbounded)`,
    );
  const testMs = readNumber(env, SETTINGS.timeouts.testMs, target, o.testMsDefault);
  if (o.requestMs >= testMs) {
    const source = env.SVC_TEST_TIMEOUT_MS ? `SVC_TEST_TIMEOUT_MS=${env.SVC_TEST_TIMEOUT_MS}` : `the default for this target, ${testMs} ms`;
    throw new Error(
      `SVC_REQUEST_TIMEOUT_MS (${o.requestMs} ms) must be below the test timeout (${source}): a stalled request would end as "Test timeout of ${testMs}ms exceeded" instead of naming the request. Lower SVC_REQUEST_TIMEOUT_MS or raise SVC_TEST_TIMEOUT_MS.`,
    );
  }
  const maxBodyBytes = readNumber(env, SETTINGS.limits.maxBodyBytes, target);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)
    throw new Error(`SVC_MAX_BODY_BYTES must be a positive whole number of bytes, got "${env.SVC_MAX_BODY_BYTES}"`);
  const runMs = readNumber(env, SETTINGS.timeouts.runMs, target);
  if (!Number.isInteger(runMs) || runMs < 0)
    throw new Error(`SVC_RUN_TIMEOUT_MS must be 0 (unbounded) or a whole number of milliseconds, got "${env.SVC_RUN_TIMEOUT_MS}"`);
  if (runMs > 0 && runMs <= testMs)
    throw new Error(`SVC_RUN_TIMEOUT_MS (${runMs} ms) must be above the test timeout (${testMs} ms): the run would end inside its first scenario.`);
  const maxTransportFailures = readNumber(env, SETTINGS.limits.maxTransportFailures, target);
  if (!Number.isInteger(maxTransportFailures) || maxTransportFailures < 0)
    throw new Error(`SVC_MAX_TRANSPORT_FAILURES must be 0 (never stop) or a whole number, got "${env.SVC_MAX_TRANSPORT_FAILURES}"`);
  return { testMs, maxBodyBytes, runMs, maxTransportFailures };
}

/** `1`/`true`/`yes` turn a flag on; anything else set is refused with a message, never guessed. */
const versionList = (env: Env): string[] =>
  (env.SVC_VERSIONS ?? CONTRACT_VERSIONS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function flag(env: Env, name: string): boolean {
  return flagValue(env[name], name);
}

/** flag() on a value the profile holds as given (`name` is its variable, for the message). */
export function flagValue(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new Error(`${name} must be 1 or 0 (true/false), got "${raw}"`);
}

function passwordsFrom(env: Env, fallback?: Partial<Record<PasswordScenario, string>>) {
  const out: Partial<Record<PasswordScenario, string>> = {};
  for (const s of PASSWORD_SCENARIOS) {
    const v = env[`SVC_TEST_PASSWORD_${s}`] ?? fallback?.[s];
    if (v) out[s] = v;
  }
  return out;
}

/**
 * A base URL setting is an http(s) URL, refused like a bad value in the config file ("must be
 * an http(s) URL") rather than tried and reported unreachable.
 */
function httpBase(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw.slice(0, 80)}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${raw.slice(0, 80)}"`);
  return raw.replace(/\/$/, '');
}

/**
 * The profile of an environment, parsed once per process: the config, global setup, the
 * reporters and the fixtures of one Playwright process all get the same object, frozen so
 * no reader changes what the others read. A parse is reused while every variable it read
 * still holds the value it read (a variable it did not read cannot change its result), so
 * a caller that changes the environment between two calls gets a fresh parse. The two
 * facts a parse takes from the disk are kept with it: which Chromium is installed, and
 * that the SVC_REFERENCE files exist (a missing one throws, and a throw is never kept).
 */
export function loadProfile(env: Env = process.env): TargetProfile {
  const known = PARSED.find((p) => [...p.reads].every(([name, value]) => env[name] === value));
  if (known) return known.profile;
  const reads = new Map<string, string | undefined>();
  let readAll = false;
  const watched = new Proxy(env, {
    get(target, name) {
      const value = Reflect.get(target, name) as string | undefined;
      if (typeof name === 'string') reads.set(name, value);
      return value;
    },
    has(target, name) {
      if (typeof name === 'string') reads.set(name, Reflect.get(target, name) as string | undefined);
      return Reflect.has(target, name);
    },
    ownKeys(target) {
      readAll = true;
      return Reflect.ownKeys(target);
    },
  });
  const profile = deepFreeze(parseProfile(watched));
  if (!readAll) {
    PARSED.unshift({ reads, profile });
    PARSED.length = Math.min(PARSED.length, PARSED_KEPT);
  }
  return profile;
}

/** The last environments parsed in this process (tools such as the reach measure build a few dozen). */
const PARSED: Array<{ reads: Map<string, string | undefined>; profile: TargetProfile }> = [];
const PARSED_KEPT = 32;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Builds the profile from the environment. Without SVC_BASE_URL the target is the
 * embedded simulator, whose URL the runner passes in SVC_SIMULATOR_URL.
 */
/**
 * The credentials travel in headers and bodies (Authentication 1 and 5, the test host's
 * SVC-Client-ID / SVC-API-Key, the test passwords typed into pages), where a control character
 * is part of no value: a secret stored with its line break answered 401 to Basic and failed
 * the test host's header before any request. The client identifiers are there too.
 */
const CREDENTIAL_SETTINGS = settingEntries().filter((s) => s.secret || /^(credentials|audience)\.\w*clientId$/i.test(s.key));

const CONTROL_NAMES: Record<string, string> = { '\n': 'a line break', '\r': 'a carriage return', '\t': 'a tab' };

/** Refuses a credential holding a control character, naming the variable and where, never the value. */
function refuseControlCharacters(env: Env): void {
  for (const s of CREDENTIAL_SETTINGS) {
    const value = env[s.env];
    const at = value ? value.search(/[\u0000-\u001f\u007f]/) : -1;
    if (!value || at < 0) continue;
    const what = CONTROL_NAMES[value[at]] ?? `the control character U+${value.charCodeAt(at).toString(16).padStart(4, '0').toUpperCase()}`;
    const where = at === value.trimEnd().length ? 'at its end' : at === 0 ? 'at its start' : 'inside it';
    throw new Error(`${s.env} holds ${what} ${where} (a secret stored with its line break?): no credential has one; remove it where ${s.env} is set.`);
  }
}

function parseProfile(env: Env): TargetProfile {
  refuseControlCharacters(env);
  const realBase = httpBase(env, 'SVC_BASE_URL');
  if (!realBase) {
    const base = (env.SVC_SIMULATOR_URL ?? 'http://127.0.0.1:4010').replace(/\/$/, '');
    const d = SIMULATOR_DEFAULTS;
    const requestMs = readNumber(env, SETTINGS.timeouts.requestMs, 'simulator');
    const bounds = boundsFrom(env, 'simulator', { requestMs });
    return {
      name: 'simulator',
      isSimulator: true,
      credentialsForUnnamedTarget: !!env.SVC_API_KEY && !env.SVC_SIMULATOR_URL,
      isProduction: false,
      allowDestructive: true,
      platformBaseUrl: base,
      audienceBaseUrl: `${base}${d.audiencePrefix}`,
      testHostBaseUrl: `${base}${d.testHostPrefix}`,
      clientId: env.SVC_CLIENT_ID ?? d.clientId,
      apiKey: env.SVC_API_KEY ?? d.apiKey,
      audience: {
        tokenUrl: `${base}${d.audiencePrefix}/oauth/token`,
        clientId: env.SVC_AUDIENCE_CLIENT_ID ?? d.audienceClientId,
        clientSecret: env.SVC_AUDIENCE_CLIENT_SECRET ?? d.audienceClientSecret,
        audienceId: d.audienceId,
        audienceSlug: d.audienceSlug,
        institutionPublicId: d.audienceInstitutionPublicId,
      },
      dataExchange: dataExchangeFrom(env, true, d.dataExchange),
      secondClient: { clientId: env.SVC_SECOND_CLIENT_ID || d.secondClientId, apiKey: env.SVC_SECOND_API_KEY || d.secondApiKey },
      testInstitution: {
        code: 'svcbank',
        oauthCode: 'svc_bank_oauth',
        username: d.testUsername,
        passwords: passwordsFrom(env, d.passwords),
        correctAnswer: env.SVC_CORRECT_ANSWER ?? d.correctAnswer,
      },
      versions: {
        supported: [...CONTRACT_VERSIONS],
        sunset: d.sunsetStandInVersion,
        deprecationHeader: env.SVC_DEPRECATION_HEADER ?? d.deprecationHeader,
        sunsetHeader: env.SVC_SUNSET_HEADER ?? d.sunsetHeader,
        headerNamesExplicit: !!(env.SVC_DEPRECATION_HEADER || env.SVC_SUNSET_HEADER),
        deprecated: deprecatedFrom(
          env,
          d.versions.filter((v) => v.deprecatedOn && v.name !== d.sunsetStandInVersion).map((v) => ({ version: v.name, on: v.deprecatedOn! }))[0],
        ),
        ...acceptFrom(env),
      },
      rateLimit: { perSecond: readNumber(env, SETTINGS.rateLimit.perSecond, 'simulator', d.rateLimitPerSecond), explicit: !!env.SVC_RATE_LIMIT_PER_SECOND },
      timeouts: {
        aggregationMs: readNumber(env, SETTINGS.timeouts.aggregationMs, 'simulator'),
        pollIntervalMs: readNumber(env, SETTINGS.timeouts.pollIntervalMs, 'simulator'),
        requestMs,
        // The in-process simulator's widget and OAuth pages act at once (the widget polls
        // its member every 100 ms); what remains is Chromium's own latency, well under the
        // bound even on a loaded machine. The bound is also how long a fault that leaves an
        // event out keeps a scenario waiting (the self-test's fault copies), hence not 10 s.
        browserEventMs: readNumber(env, SETTINGS.timeouts.browserEventMs, 'simulator'),
        // The simulator settles a job this long after it starts (settings.ts aggregationMs;
        // the slow-aggregation variation only lengthens it).
        minJobMs: readNumber(env, SETTINGS.timeouts.minJobMs, 'simulator', readNumber(env, SETTINGS.simulator.aggregationMs, 'simulator', d.aggregationMs)),
        throttlePeriodMs: readNumber(env, SETTINGS.timeouts.aggregationThrottleMs, 'simulator', d.aggregationThrottleMs),
        testMs: bounds.testMs,
        runMs: bounds.runMs,
      },
      productPaths: productPathsFrom(env, PRODUCT_PATH_DEFAULTS),
      ...commonSections(env, 'simulator', bounds),
    };
  }

  const name = env.SVC_ENVIRONMENT ?? 'integration';
  const isProduction = name === 'production';
  const aggregationMs = readNumber(env, SETTINGS.timeouts.aggregationMs, 'real');
  const requestMs = readNumber(env, SETTINGS.timeouts.requestMs, 'real');
  const bounds = boundsFrom(env, 'real', { requestMs, testMsDefault: testTimeoutDefault(aggregationMs, requestMs) });
  const allowDestructive = isProduction ? env.SVC_ALLOW_DESTRUCTIVE === PRODUCTION_OPT_IN : env.SVC_ALLOW_DESTRUCTIVE !== 'no';
  return {
    name,
    isSimulator: false,
    credentialsForUnnamedTarget: false,
    isProduction,
    allowDestructive,
    platformBaseUrl: realBase,
    audienceBaseUrl: httpBase(env, 'SVC_AUDIENCE_BASE_URL'),
    testHostBaseUrl: httpBase(env, 'SVC_TEST_HOST_BASE_URL'),
    clientId: env.SVC_CLIENT_ID,
    apiKey: env.SVC_API_KEY,
    audience: {
      tokenUrl: env.SVC_AUDIENCE_TOKEN_URL,
      clientId: env.SVC_AUDIENCE_CLIENT_ID,
      clientSecret: env.SVC_AUDIENCE_CLIENT_SECRET,
      audienceId: env.SVC_AUDIENCE_ID,
      audienceSlug: env.SVC_AUDIENCE_SLUG,
      institutionPublicId: env.SVC_AUDIENCE_INSTITUTION_PUBLIC_ID,
    },
    dataExchange: dataExchangeFrom(env, false, {
      issuerClientGuid: env.SVC_3DX_ISSUER_GUID,
      granteeClientGuid: env.SVC_3DX_GRANTEE_GUID,
      grantGuid: env.SVC_3DX_GRANT_GUID,
    }),
    secondClient: secondClientFrom(env),
    testInstitution: {
      code: readStatedText(env, SETTINGS.testInstitution.code, 'real'),
      oauthCode: readStatedText(env, SETTINGS.testInstitution.oauthCode, 'real'),
      username: readStatedText(env, SETTINGS.testInstitution.username, 'real'),
      passwords: passwordsFrom(env),
      correctAnswer: env.SVC_CORRECT_ANSWER,
    },
    versions: {
      supported: versionList(env),
      sunset: env.SVC_SUNSET_VERSION,
      deprecationHeader: readStatedText(env, SETTINGS.versions.deprecationHeader, 'real'),
      sunsetHeader: readStatedText(env, SETTINGS.versions.sunsetHeader, 'real'),
      headerNamesExplicit: !!(env.SVC_DEPRECATION_HEADER || env.SVC_SUNSET_HEADER),
      deprecated: deprecatedFrom(env),
      ...acceptFrom(env),
    },
    rateLimit: {
      perSecond: env.SVC_RATE_LIMIT_PER_SECOND ? readNumber(env, SETTINGS.rateLimit.perSecond, 'real') : undefined,
      explicit: !!env.SVC_RATE_LIMIT_PER_SECOND,
    },
    timeouts: {
      aggregationMs,
      pollIntervalMs: readNumber(env, SETTINGS.timeouts.pollIntervalMs, 'real'),
      requestMs,
      // A real target's pages may take as long as a request: requestMs unless set.
      browserEventMs: readNumber(env, SETTINGS.timeouts.browserEventMs, 'real', requestMs),
      testMs: bounds.testMs,
      runMs: bounds.runMs,
      ...(env.SVC_MIN_JOB_MS ? { minJobMs: readNumber(env, SETTINGS.timeouts.minJobMs, 'real') } : {}),
      ...(env.SVC_AGGREGATION_THROTTLE_MS ? { throttlePeriodMs: readNumber(env, SETTINGS.timeouts.aggregationThrottleMs, 'real') } : {}),
    },
    productPaths: productPathsFrom(env),
    ...commonSections(env, 'real', bounds),
  };
}

/** The OAuth page's controls: each variable, else the table's default (an empty variable is unset, as for every text setting). */
function oauthPageFrom(env: Env, target: TargetKind): TargetProfile['oauthPage'] {
  const { authorizeSelector, denySelector } = SETTINGS.oauthPage;
  return {
    authorizeSelector: readStatedText(env, authorizeSelector, target),
    denySelector: readStatedText(env, denySelector, target),
    guessed: [authorizeSelector.env, denySelector.env].filter((name) => !env[name]),
  };
}

/** SVC_ACCEPT_VERSION, when set. */
function acceptFrom(env: Env): { accept?: string } {
  return env.SVC_ACCEPT_VERSION ? { accept: env.SVC_ACCEPT_VERSION } : {};
}

function secondClientFrom(env: Env): TargetProfile['secondClient'] {
  return { clientId: env.SVC_SECOND_CLIENT_ID || undefined, apiKey: env.SVC_SECOND_API_KEY || undefined };
}

/** A comma list of catalogue names (SVC_SIM_FAULTS, SVC_SIM_VARIATIONS); absent or empty = none. */
const names = (s: string | undefined): string[] =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

/** The catalogue entries an environment puts in force: the one reader of SVC_SIM_FAULTS / SVC_SIM_VARIATIONS. */
export function simulatorEntriesInForce(env: Env = process.env): { faults: string[]; variations: string[] } {
  return { faults: names(env.SVC_SIM_FAULTS), variations: names(env.SVC_SIM_VARIATIONS) };
}

/** The sections read the same way for both kinds of target; the simulator's seeds are defaults only there. */
function commonSections(env: Env, target: TargetKind, bounds: { maxBodyBytes: number; maxTransportFailures: number }) {
  const isSimulator = target === 'simulator';
  return {
    strict: flag(env, 'SVC_STRICT'),
    limits: { maxBodyBytes: bounds.maxBodyBytes, maxTransportFailures: bounds.maxTransportFailures },
    oauthPage: oauthPageFrom(env, target),
    webhookReceiverUrl: env.WEBHOOK_RECEIVER_URL,
    fuzz: fuzzSettings(env),
    institutions: institutionsFrom(env, isSimulator),
    achFilters: achFiltersFrom(env),
    userCategories: userCategoryPathsFrom(env),
    useCases: useCasesFrom(env, isSimulator),
    processorToken: processorTokenFrom(env, isSimulator),
    widget: widgetControlsFrom(env, isSimulator),
    webhookCapture: webhookCaptureFrom(env),
    load: loadScriptSettingsFrom(env),
    usedOperations: usedOperationsFrom(env),
    reference: referenceFilesFrom(env),
    integration: integrationSettingsFrom(env),
    simulatorEntries: simulatorEntriesInForce(env),
    run: runSettingsFrom(env),
  } satisfies Partial<TargetProfile>;
}

/**
 * Every credential value of a profile: what redaction must remove from every artifact.
 * The test institution's passwords and correct-answer word are typed into pages and sent
 * in request bodies (Endpoints, test-institution table: the specification shows them only
 * as placeholders), so they are credentials too. The embedded simulator's built-in answer
 * word is published in this repository and is an ordinary word ("correct"): redacting it
 * would blank prose, so only an answer given in SVC_CORRECT_ANSWER counts.
 */
export function profileSecrets(p: TargetProfile): string[] {
  const answer = p.testInstitution.correctAnswer;
  const values = [
    ...Object.values(p.testInstitution.passwords),
    p.isSimulator && answer === SIMULATOR_DEFAULTS.correctAnswer ? undefined : answer,
    p.apiKey,
    p.audience.clientSecret,
    p.secondClient.apiKey,
    p.secondClient.clientId && p.secondClient.apiKey ? Buffer.from(`${p.secondClient.clientId}:${p.secondClient.apiKey}`).toString('base64') : undefined,
    p.clientId && p.apiKey ? Buffer.from(`${p.clientId}:${p.apiKey}`).toString('base64') : undefined,
    p.audience.clientId && p.audience.clientSecret ? Buffer.from(`${p.audience.clientId}:${p.audience.clientSecret}`).toString('base64') : undefined,
  ];
  return values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
}
