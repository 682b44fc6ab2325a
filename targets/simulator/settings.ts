/**
 * Settings of the embedded simulator, with documented defaults (README, "Simulator").
 * Every credential and test-institution value is overridden by the same environment
 * variable a real environment uses, so a profile reads identically for both.
 *
 * The specification shows the test passwords and the correct MFA answer only as
 * placeholders (Endpoints, "Earlier-generation test paths"): here they are settings.
 */
import { readNumber, SETTINGS, statedDefault } from '../profiles/settings.ts';
import { webhookDeliverySettingsFromEnv, type WebhookAuth } from './webhooks/settings.ts';

export interface VersionEntry {
  name: string;
  /** ISO dates (YYYY-MM-DD). Lifecycle: Versioning section. */
  launchedOn: string;
  deprecatedOn?: string;
  /** Access removed: requests answer an error (Versioning; Errors). */
  sunsetOn?: string;
}

export const SIMULATOR_DEFAULTS = {
  clientId: 'sim-client-id',
  apiKey: 'sim-api-key-0000',
  /** A second client of the same service: its users are not the first client's (What the service does). */
  secondClientId: 'sim-second-client',
  secondApiKey: 'sim-second-key-0000',
  audienceClientId: 'sim-audience-client',
  audienceClientSecret: 'sim-audience-secret-0000',
  audienceId: 'aud-primary',
  audienceSlug: 'primary-audience',
  audienceInstitutionPublicId: 'INS-PUBLIC-0001',
  audiencePrefix: '/audience',
  testHostPrefix: '/test-host',
  testUsername: 'test_user',
  passwords: {
    SUCCESS: 'sim-pass-success',
    CHALLENGE: 'sim-pass-challenge',
    OPTIONS: 'sim-pass-options',
    IMAGE: 'sim-pass-image',
    IMAGE_OPTIONS: 'sim-pass-image-options',
    BAD_REQUEST: 'sim-pass-bad-request',
    UNAUTHORIZED: 'sim-pass-unauthorized',
    INVALID: 'sim-pass-invalid',
    LOCKED: 'sim-pass-locked',
    SERVER_ERROR: 'sim-pass-server-error',
    UNAVAILABLE: 'sim-pass-unavailable',
  } as Record<string, string>,
  correctAnswer: 'correct',
  /** RFC 9745 and RFC 8594 header names; the specification does not name them (Versioning). */
  deprecationHeader: 'Deprecation',
  sunsetHeader: 'Sunset',
  /**
   * The specification names three versions in play and none that has sunset; the
   * simulator's catalogue adds one stand-in that sunset long ago so the "sunset version
   * answers an error" rule (Versioning) can be exercised. A real target names its own
   * with SVC_SUNSET_VERSION.
   */
  sunsetStandInVersion: 'v20100101',
  versions: [
    { name: 'v20100101', launchedOn: '2010-01-01', deprecatedOn: '2011-11-01', sunsetOn: '2012-11-01' },
    { name: 'v20111101', launchedOn: '2011-11-01', deprecatedOn: '2026-09-29', sunsetOn: '2027-09-29' },
    { name: 'v20250224', launchedOn: '2025-02-24' },
    { name: 'v20260929', launchedOn: '2026-09-29' },
  ] as VersionEntry[],
  /** Version used when a request sends no Accept-Version (not shown in the specification). */
  defaultVersion: 'v20111101',
  /**
   * Per-client request limit (Limits: "Request rate limit values: not shown"). One
   * setting (SVC_RATE_LIMIT_PER_SECOND), three values by purpose: 300 here, so the
   * conformance suites (two workers, parallel tests) never meet it; 10 when `npm run
   * load` starts the simulator (load/run.ts EMBEDDED_RATE_LIMIT_PER_SECOND), low enough
   * that a 2-core machine can exceed it; 20 in the self-test's load runs
   * (proof/adapters.ts SELFTEST_RATE_LIMIT_PER_SECOND), where the load generator shares
   * the cores with the Playwright run. Simulator and scripts always get the same value.
   */
  rateLimitPerSecond: statedDefault(SETTINGS.rateLimit.perSecond, 'simulator'),
  /** How long an aggregation job runs before it settles (the settings table's SVC_SIM_AGGREGATION_MS). */
  aggregationMs: statedDefault(SETTINGS.simulator.aggregationMs, 'simulator'),
  /** Throttle period after a standard aggregation, simulator ms (Limits: its length is not shown; domain/aggregation.ts). */
  aggregationThrottleMs: statedDefault(SETTINGS.timeouts.aggregationThrottleMs, 'simulator'),
  institutionCount: 2600,
  dataExchange: {
    issuerClientGuid: 'CLT-1f0c5e4a-0000-4000-8000-000000000001',
    granteeClientGuid: 'CLT-1f0c5e4a-0000-4000-8000-000000000002',
    secondGranteeClientGuid: 'CLT-1f0c5e4a-0000-4000-8000-000000000003',
    grantGuid: 'GNT-1f0c5e4a-0000-4000-8000-000000000001',
  },
  maxBodyBytes: 1_048_576,
};

export interface SimulatorSettings {
  clientId: string;
  apiKey: string;
  /** The second client of the same service (cross-client isolation), as the profile reads it: SVC_SECOND_CLIENT_ID / SVC_SECOND_API_KEY. */
  secondClientId: string;
  secondApiKey: string;
  audienceClientId: string;
  audienceClientSecret: string;
  passwords: Record<string, string>;
  correctAnswer: string;
  testUsername: string;
  deprecationHeader: string;
  sunsetHeader: string;
  versions: VersionEntry[];
  defaultVersion: string;
  rateLimitPerSecond: number;
  aggregationMs: number;
  /** Throttle period after a standard aggregation, simulator ms (Limits; default 1 hour, domain/aggregation.ts). */
  aggregationThrottleMs?: number;
  institutionCount: number;
  /** Webhook retry schedule is divided by this (1 = real time; 3600 = an hour a second). */
  webhookTimeScale: number;
  /** URL per webhook type, or `*` for all types (Events: "a different URL can be configured per event type"). */
  webhookUrls: Record<string, string>;
  /** Webhook delivery timeout, jitter and receiver authentication (targets/simulator/webhooks/settings.ts). */
  webhookTimeoutMs?: number;
  webhookJitter?: number;
  webhookAuth?: WebhookAuth;
  /** ISO timestamp fixing the simulator clock at start; the clock can also be moved. */
  now?: string;
}

type Env = Record<string, string | undefined>;

export function settingsFromEnv(env: Env = process.env, overrides: Partial<SimulatorSettings> = {}): SimulatorSettings {
  const d = SIMULATOR_DEFAULTS;
  const passwords = { ...d.passwords };
  for (const key of Object.keys(passwords)) {
    const v = env[`SVC_TEST_PASSWORD_${key}`];
    if (v) passwords[key] = v;
  }
  const webhookUrls: Record<string, string> = {};
  if (env.SVC_SIM_WEBHOOK_URL) webhookUrls['*'] = env.SVC_SIM_WEBHOOK_URL;
  return {
    clientId: env.SVC_CLIENT_ID ?? d.clientId,
    apiKey: env.SVC_API_KEY ?? d.apiKey,
    // As the profile reads them (an empty variable is unset), so the secrets the simulator
    // prints as in force are the ones it accepts.
    secondClientId: env.SVC_SECOND_CLIENT_ID || d.secondClientId,
    secondApiKey: env.SVC_SECOND_API_KEY || d.secondApiKey,
    audienceClientId: env.SVC_AUDIENCE_CLIENT_ID ?? d.audienceClientId,
    audienceClientSecret: env.SVC_AUDIENCE_CLIENT_SECRET ?? d.audienceClientSecret,
    passwords,
    correctAnswer: env.SVC_CORRECT_ANSWER ?? d.correctAnswer,
    testUsername: d.testUsername,
    deprecationHeader: env.SVC_DEPRECATION_HEADER ?? d.deprecationHeader,
    sunsetHeader: env.SVC_SUNSET_HEADER ?? d.sunsetHeader,
    versions: d.versions,
    defaultVersion: d.defaultVersion,
    rateLimitPerSecond: readNumber(env, SETTINGS.rateLimit.perSecond, 'simulator', d.rateLimitPerSecond),
    aggregationMs: readNumber(env, SETTINGS.simulator.aggregationMs, 'simulator', d.aggregationMs),
    institutionCount: d.institutionCount,
    webhookTimeScale: readNumber(env, SETTINGS.simulator.webhookTimeScale, 'simulator'),
    webhookUrls,
    now: env.SVC_SIM_NOW,
    ...webhookDeliverySettingsFromEnv(env),
    ...overrides,
  };
}
