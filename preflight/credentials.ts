/**
 * The target's credentials, as the preflight, the run's global setup and the checked
 * client (scenarios/fixtures/client.ts) see them: which settings carry them, the one
 * read that proves them, and the message that names what to check when the target
 * refuses them.
 *
 * Authentication 1: "Platform endpoints use HTTP Basic authentication: client identifier
 * as user name and API key as password". Earlier-generation test paths: requests carry
 * `SVC-API-Key` and `SVC-Client-ID`, the same two values. Authentication 5: the audience
 * service's client_id / client_secret produce the Bearer token of its endpoints.
 *
 * Kept free of Playwright and of the contract so that every worker, the global setup and
 * the lead's CLI load it cheaply.
 */
import { createRedactor, defaultCredentials, MissingSetting, profileSecrets, type BoundedRequest, type TargetProfile } from '../targets/index.ts';

/** The three services of a target (contracts/ ApiName, repeated here so this file needs no contract). */
export type ServiceName = 'platform' | 'audience' | 'test-host';

/** HTTP statuses that refuse credentials (RFC 9110 §15.5.2 401 Unauthorized, §15.5.4 403 Forbidden). */
export const CREDENTIAL_REFUSALS: readonly number[] = [401, 403];

/** The settings the default credentials of each service come from (README, "Pointing the suite at a real environment"). */
const CREDENTIAL_VARIABLES: Record<ServiceName, readonly string[]> = {
  platform: ['SVC_CLIENT_ID', 'SVC_API_KEY'],
  'test-host': ['SVC_CLIENT_ID', 'SVC_API_KEY'],
  audience: ['SVC_AUDIENCE_CLIENT_ID', 'SVC_AUDIENCE_CLIENT_SECRET', 'SVC_AUDIENCE_TOKEN_URL'],
};

/**
 * The version requests send unless they name one: the profile's (SVC_ACCEPT_VERSION), else
 * the newest supported (Versioning: version names are dates, v<YYYYMMDD>, so it sorts last).
 */
export function currentVersion(profile: TargetProfile): string {
  return profile.versions.accept ?? [...profile.versions.supported].sort().at(-1)!;
}

/**
 * The one read that proves a service's default credentials: a documented list asked for
 * one record (Endpoints, Institutions: `GET /institutions` takes `records_per_page`;
 * Errors: "200 normal success for reads, lists"), and the test host's listed
 * `GET /test_institutions` (Earlier-generation test paths). Read-only on every target.
 */
export const CREDENTIAL_PROBE: Record<'platform' | 'test-host', { path: string; query?: Record<string, string> }> = {
  platform: { path: '/institutions', query: { records_per_page: '1' } },
  'test-host': { path: '/test_institutions' },
};

/** The headers that carry a service's default credentials, or undefined when a setting is missing. */
export function credentialHeaders(profile: TargetProfile, service: 'platform' | 'test-host'): Record<string, string> | undefined {
  try {
    return defaultCredentials(profile, service);
  } catch (e) {
    if (e instanceof MissingSetting) return undefined;
    throw e;
  }
}

/** A path with its query, URL-encoded. */
export function withQuery(path: string, query?: Record<string, string>): string {
  const q = query ? new URLSearchParams(query).toString() : '';
  return q ? `${path}?${q}` : path;
}

/** The setting the profile's platform URL comes from: the embedded simulator's, or SVC_BASE_URL. */
export function platformUrlSetting(profile: TargetProfile): string {
  return profile.isSimulator ? 'SVC_SIMULATOR_URL' : 'SVC_BASE_URL';
}

export interface PlatformCall {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Path relative to the platform's base URL. */
  path: string;
  query?: Record<string, string>;
  /** The version asked for (Versioning: `Accept-Version`); default the one in play (`currentVersion`). */
  version?: string;
  /** Headers after the default ones (another client's `authorization` replaces the default credentials). */
  headers?: Record<string, string>;
  /** The documented operation, named in a failure's message (`GET /institutions`). */
  operation?: string;
}

/**
 * A platform request as the preflight, the discovery and the cleanup send it: JSON, the
 * version in play, the default credentials when they are set (Authentication 1), and for a
 * failure's message the setting the URL comes from and the profile's redactor. The caller
 * sends it through the one bounded transport (targets/ requestBounded, exchangeBounded)
 * with its own bounds.
 */
export function platformRequest(profile: TargetProfile, c: PlatformCall): BoundedRequest {
  return {
    method: c.method ?? 'GET',
    url: `${profile.platformBaseUrl}${withQuery(c.path, c.query)}`,
    headers: { accept: 'application/json', 'accept-version': c.version ?? currentVersion(profile), ...credentialHeaders(profile, 'platform'), ...c.headers },
    urlSetting: platformUrlSetting(profile),
    // Built only when a message needs it: most requests end in an answer.
    redact: (text) => createRedactor(profileSecrets(profile)).text(text),
    ...(c.operation ? { operation: c.operation } : {}),
  };
}

/** The base URL setting of each service, for messages. */
const BASE_URL_VARIABLE: Record<ServiceName, string> = { platform: 'SVC_BASE_URL', audience: 'SVC_AUDIENCE_BASE_URL', 'test-host': 'SVC_TEST_HOST_BASE_URL' };

/**
 * The sentence a run prints when a target refuses its default credentials: what was
 * asked, what came back, and the settings to check. Never the values themselves.
 */
export function refusedCredentialsMessage(service: ServiceName, what: { request: string; status: number; target?: string; body?: string }): string {
  const variables = CREDENTIAL_VARIABLES[service];
  const how =
    service === 'platform'
      ? "the platform's credentials (HTTP Basic, Authentication 1)"
      : service === 'test-host'
        ? "the test host's SVC-Client-ID / SVC-API-Key headers (Earlier-generation test paths)"
        : "the audience service's client credentials and the access token they produce (Authentication 5)";
  return (
    `The target refused the credentials: ${what.request} answered ${what.status}${what.target ? ` (${what.target})` : ''}. ` +
    `Check ${variables.length > 1 ? `${variables.slice(0, -1).join(', ')} and ${variables.at(-1)}` : variables[0]}: ${how}, for this target (${BASE_URL_VARIABLE[service]}).` +
    (what.body ? ` Body: ${what.body}` : '')
  );
}
