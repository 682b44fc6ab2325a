/**
 * The one door into targets/ (../shared/DESIGN.md, "The layout"): suites, load, the
 * CLI, the nightly, the self-test, reports, the tests and benches import this file and
 * nothing else of targets/, so the same suites run unchanged against a real
 * environment and the simulator's insides can change without touching them. The
 * import-rule test (tests/import-rules.test.ts) keeps it so.
 *
 *   const target = await startTarget({ env: process.env });
 *   // target.profile: every setting a suite needs; target.url: the platform base URL
 *   await target.close();
 *
 * startTarget is the only place that starts the embedded simulator for a run (build it
 * in-process, listen on 127.0.0.1 on a free port), with the faults and variations of
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists of targets/simulator/catalog.ts
 * names) in force. With SVC_BASE_URL set, the target is that separately started environment:
 * nothing is started and close() does nothing.
 *
 * The profile (targets/profiles/) is the only reader of SVC_* variables on the Node
 * side (DESIGN.md, "Target profiles"; tests/profile-only.test.ts): this file decides from the profile,
 * and hands the environment on only to the simulator's own configuration
 * (settingsFromEnv), as a separately started simulator reads its own.
 */
import { settingsFromEnv, type SimulatorSettings } from './simulator/settings.ts';
import { loadProfile, type TargetProfile } from './profiles/profile.ts';
import { VARIATIONS } from './simulator/catalog.ts';

// Light modules only at the top: every Playwright worker loads this file, and the
// simulator itself (routes, seed data, Fastify) is loaded when one is started.
export {
  loadProfile,
  profileSecrets,
  flagValue,
  CONTRACT_VERSIONS,
  OAUTH_PAGE_DEFAULTS,
  type TargetProfile,
} from './profiles/profile.ts';
export {
  K6_SETTING_ALIASES,
  WIDGET_CONTROLS,
  missingControls,
  type AchFilter,
  type QueryName,
  type WidgetControls,
  type WebhookCaptureSettings,
} from './profiles/sections.ts';
export { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH, RUN_ID_PATTERN } from './profiles/sections.ts';
export { createRedactor, type Redactor } from './profiles/redact.ts';
export {
  PASSWORD_SCENARIOS,
  PRODUCT_PATH_DEFAULTS,
  PRODUCT_PATH_ENV,
  SETTINGS,
  settingEntries,
  settingText,
  settingValue,
  statedDefault,
  type PasswordScenario,
  type ProductPaths,
  type Setting,
  type SettingEntry,
} from './profiles/settings.ts';
export { seededRandom } from './seeded-random.ts';
export { serveUntilStopped } from './serve-until-stopped.ts';
export {
  orRefuse,
  runSettings,
  selftestSettings,
  needsEmbeddedSimulator,
  SIMULATOR_URL_VARIABLE,
  RUN_ID_VARIABLE,
  RUN_LEDGER_VARIABLE,
} from './profiles/run-settings.ts';
export {
  CATALOG,
  FAULTS,
  VARIATIONS,
  catalogEntry,
  tierOfEntry,
  type CatalogEntry,
  type FaultEntry,
  type VariationEntry,
  type NotFuzzableReason,
  type CatalogTier,
} from './simulator/catalog.ts';
export { SIMULATOR_DEFAULTS, type SimulatorSettings } from './simulator/settings.ts';
export { DATA_EXCHANGE_SEED } from './simulator/data/data-exchange.ts';
export {
  startReceiver,
  RECEIVER_BOUNDS,
  OBSERVATION_COUNTS_PATH,
  isObservationCounts,
  missingObservationCounts,
  notObservationApi,
  type RunningReceiver,
} from './receiver/receiver.ts';
export { canonicalJson, BROKEN_VARIANTS, DEFAULT_FORGET_MS, ReceiverStoreError, type BrokenVariant } from './receiver/store.ts';
export { simulatorBanner, simulatorTargetSettings } from './simulator/serve.ts';
// Running a child in its own process group (the CLI's Playwright runs, the self-test, the
// integration's test command, the benches): a general helper, here because targets/ is the
// room every runner may import (proof/, scenarios/, load/, integration/, cli/).
export {
  guardProcessGroup,
  installedAsDependency,
  PACKAGE_ROOT,
  PARENT_PID_VARIABLE,
  playwrightTest,
  processGroupMembers,
  processRunning,
  runChild,
  runForwardingSignals,
  runProcess,
} from './process.ts';
export {
  cleanEnv,
  freeLoopbackPort,
  liveDeliveryEnv,
  realTargetEnv,
  RUN_SECRETS,
  secondClientEnv,
  simulatorDeliveryEnv,
  simulatorProcessEnv,
  startSimulatorProcess,
} from './simulator-process.ts';
export {
  bodySize,
  boundsOf,
  decodeContentEncoding,
  exchangeBounded,
  RATE_LIMIT_RESENDS,
  requestBounded,
  requestResendingRateLimited,
  TransportError,
  type BoundedOutcome,
  type BoundedRequest,
  type BoundedResponse,
  type HttpBounds,
} from './http.ts';
export {
  BASE_URL_SETTING,
  baseUrlOf,
  locateApi,
  basicAuthorization,
  defaultCredentials,
  audienceTokenSettings,
  audienceTokenRequest,
  accessTokenOf,
  requestAudienceToken,
  checkOptionsOf,
  MissingSetting,
  HOP_BY_HOP_HEADERS,
  type ApiBases,
} from './client.ts';

/**
 * The simulator as an in-process app and its webhook dispatcher, for the suites that
 * drive it directly because they must tell it where to deliver webhooks and how fast
 * to retry (the delivery conformance scenarios, simulator-only: Events,
 * "Configuration is done out of band"). Loaded on first use.
 */
export async function simulatorInProcess() {
  const [{ buildSimulator }, { dispatcherOf }] = await Promise.all([import('./simulator/app.ts'), import('./simulator/webhooks/dispatcher.ts')]);
  return { buildSimulator, dispatcherOf };
}

type Env = Record<string, string | undefined>;

export interface StartTargetOptions {
  /** Environment the profile and the simulator's settings are read from; default process.env. */
  env?: Env;
  /** Faults in force, after those of the environment's SVC_SIM_FAULTS. */
  faults?: readonly string[];
  /** Variations in force, after those of SVC_SIM_VARIATIONS; `all` names every variation of the catalogue. */
  variations?: readonly string[];
  /**
   * Start the embedded simulator even when SVC_BASE_URL names a real environment: the
   * self-test (its subject is the simulator) and `npm run simulator`.
   */
  simulator?: boolean;
  /** Port to listen on (127.0.0.1); default 0, a free one. */
  port?: number;
}

export interface StartedTarget {
  /** The profile of the target: the started simulator's, or the real environment's. */
  profile: TargetProfile;
  /** The platform API's base URL (profile.platformBaseUrl). */
  url: string;
  /** The started simulator's settings, faults and variations (absent for a real target from SVC_BASE_URL). */
  simulator?: {
    settings: SimulatorSettings;
    faults: string[];
    variations: string[];
    /** HTTP requests it has received so far (tolerance: a baseline its test command sent nothing to checked nothing). */
    requests(): number;
  };
  close(): Promise<void>;
}

export async function startTarget(o: StartTargetOptions = {}): Promise<StartedTarget> {
  const env = o.env ?? process.env;
  const asked = loadProfile(env);
  if (!asked.isSimulator && !o.simulator) return { profile: asked, url: asked.platformBaseUrl, close: async () => {} };
  const settings = settingsFromEnv(env);
  const inForce = asked.simulatorEntries;
  const faults = [...inForce.faults, ...(o.faults ?? [])];
  // `all` stands for every variation of the catalogue (simulator --variation all, SVC_SIM_VARIATIONS=all):
  // together they are still legitimate behaviour (the self-test's joint run proves the suite passes them).
  const variations = [...new Set([...inForce.variations, ...(o.variations ?? [])].flatMap((v) => (v === 'all' ? VARIATIONS().map((e) => e.name) : [v])))];
  const { buildSimulator } = await import('./simulator/app.ts');
  const app = await buildSimulator({ settings, faults, variations });
  let requests = 0;
  app.server.on('request', () => {
    requests++;
  });
  try {
    // Fastify may print the loopback address as `localhost`: the suites use the literal.
    const url = (await app.listen({ host: '127.0.0.1', port: o.port ?? 0 })).replace('localhost', '127.0.0.1');
    // The simulator is the subject: its URL wins over any SVC_BASE_URL of the environment.
    const profile = loadProfile({ ...env, SVC_BASE_URL: undefined, SVC_SIMULATOR_URL: url });
    return { profile, url, simulator: { settings, faults, variations, requests: () => requests }, close: () => app.close() };
  } catch (e) {
    await app.close();
    throw e;
  }
}

/**
 * The environment a k6 script reads (__ENV; load/script-support/config.ts) for a profile's
 * target: base URL, credentials, the rate limit to expect, the data-exchange grant, and
 * the scripts' own settings the user gave (profile.load, passed as given: the scripts
 * check them, and an unset one keeps the script's default). Every SVC_* variable the
 * k6 scripts read comes from here (tests/profile-only.test.ts checks it).
 */
export function profileEnv(profile: TargetProfile): Record<string, string> {
  const given = (entries: Record<string, string | undefined>) => Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => !!e[1]));
  return {
    SVC_BASE_URL: profile.platformBaseUrl,
    SVC_CLIENT_ID: profile.clientId ?? '',
    SVC_API_KEY: profile.apiKey ?? '',
    SVC_RATE_LIMIT_PER_SECOND: String(profile.rateLimit.perSecond ?? ''),
    SVC_3DX_GRANTEE_GUID: profile.dataExchange.granteeClientGuid ?? '',
    SVC_3DX_GRANT_GUID: profile.dataExchange.grantGuid ?? '',
    ...given({
      SVC_ACCEPT_VERSION: profile.versions.accept,
      SVC_429_BODY: profile.load.rateLimitBody,
      SVC_RATE_LIMIT_PATHS: profile.load.rateLimitPaths,
      SVC_PAGE_P95_MS: profile.load.pageP95Ms,
      SVC_PAGE_P99_MS: profile.load.pageP99Ms,
      SVC_CHECKS_RATE: profile.load.checksRate,
      SVC_3DX_USER: profile.load.dataExchangeUser,
      SVC_3DX_TOKEN_FIELD: profile.dataExchange.tokenField,
    }),
  };
}
