/**
 * How every caller talks to the target a profile describes, in one place: the checked
 * client of the scenarios (scenarios/fixtures/client.ts), the fuzz engine and its chains
 * (scenarios/fuzz/engine), the integration's recording proxy and its judge (integration/),
 * and the mutating proxy (proof/mutants). Each of them once built these on its own.
 *
 *   baseUrlOf / BASE_URL_SETTING   the base URL of each API and the setting it comes from
 *   locateApi                      the inverse: which API a URL belongs to, and its path there
 *   defaultCredentials             the headers that carry the profile's credentials
 *                                  (Authentication 1, 5; Earlier-generation test paths)
 *   requestAudienceToken           the audience service's access token (Authentication 5)
 *   checkOptionsOf                 the profile's options of the contract checks
 *                                  (strict, deprecation and sunset header names, sunset version,
 *                                  what the vendor's reference contradicts)
 *   HOP_BY_HOP_HEADERS             what a proxy never forwards (RFC 9110 §7.6.1)
 *
 * Every exchange goes through the bounded transport (targets/http.ts).
 */
import { referenceContradictionsOf, type ApiName, type CheckOptions } from '../contracts/index.ts';
import { boundsOf, requestBounded, type BoundedRequest, type BoundedResponse } from './http.ts';
import type { TargetProfile } from './profiles/profile.ts';

/**
 * Connection-specific header fields (RFC 9110 §7.6.1, and the obsolete forms still sent):
 * meaningful for one hop only, so neither proxy (the integration's recording proxy, the
 * mutating proxy) forwards them either way; each adds what it sets itself.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The setting each API's base URL comes from, named when its host cannot be reached or it is missing. */
export const BASE_URL_SETTING: Record<ApiName, string> = { platform: 'SVC_BASE_URL', audience: 'SVC_AUDIENCE_BASE_URL', 'test-host': 'SVC_TEST_HOST_BASE_URL' };

/** The base URL of an API in this profile; undefined when the profile has none (audience, test host on a real target). */
export function baseUrlOf(profile: Pick<TargetProfile, 'platformBaseUrl' | 'audienceBaseUrl' | 'testHostBaseUrl'>, api: ApiName): string | undefined {
  return api === 'platform' ? profile.platformBaseUrl : api === 'audience' ? profile.audienceBaseUrl : profile.testHostBaseUrl;
}

/** Absolute URL prefixes (or path prefixes) of each API, no trailing slash; a URL belongs to the longest that matches. */
export interface ApiBases {
  platform: string[];
  audience: string[];
  'test-host': string[];
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/** The API of a URL and its path relative to that API's base: the longest base the URL starts with. */
export function locateApi(bases: ApiBases, url: string): { api: ApiName; relative: string } | undefined {
  let best: { api: ApiName; relative: string; length: number } | undefined;
  for (const api of ['platform', 'audience', 'test-host'] as const) {
    for (const raw of bases[api]) {
      const base = trimSlash(raw);
      if (!(url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))) continue;
      if (best && best.length >= base.length) continue;
      const rest = url.slice(base.length);
      best = { api, relative: rest.startsWith('/') ? rest : `/${rest}`, length: base.length };
    }
  }
  return best && { api: best.api, relative: best.relative };
}

/** `Basic base64(user:pass)` (RFC 7617). */
export function basicAuthorization(user: string, pass: string): string {
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
}

/** A credential the profile lacks: its setting, for the caller to skip or refuse with. */
export class MissingSetting extends Error {
  override name = 'MissingSetting';
  constructor(readonly setting: string) {
    super(`needs ${setting}`);
  }
}

function setting<T>(value: T | undefined | null | '', name: string): T {
  if (value === undefined || value === null || value === '') throw new MissingSetting(name);
  return value as T;
}

/**
 * The headers that carry the profile's default credentials for an API: Basic with the
 * client id and API key (Authentication 1: "client identifier as user name and API key as
 * password"), the test host's `SVC-API-Key` and `SVC-Client-ID` (Endpoints,
 * "Earlier-generation test paths"), or the audience service's Bearer token
 * (Authentication 5), which the caller obtained with requestAudienceToken. A missing
 * setting throws MissingSetting naming it.
 */
export function defaultCredentials(profile: TargetProfile, api: ApiName, audienceToken?: string): Record<string, string> {
  if (api === 'platform') return { authorization: basicAuthorization(setting(profile.clientId, 'SVC_CLIENT_ID'), setting(profile.apiKey, 'SVC_API_KEY')) };
  if (api === 'test-host') return { 'SVC-API-Key': setting(profile.apiKey, 'SVC_API_KEY'), 'SVC-Client-ID': setting(profile.clientId, 'SVC_CLIENT_ID') };
  return { authorization: `Bearer ${setting(audienceToken, 'SVC_AUDIENCE_TOKEN_URL')}` };
}

/** The settings the audience token request needs, in the order they are checked; the first missing one is named. */
export function audienceTokenSettings(profile: TargetProfile): { url: string; clientId: string; clientSecret: string } {
  const a = profile.audience;
  return {
    url: setting(a.tokenUrl, 'SVC_AUDIENCE_TOKEN_URL'),
    clientId: setting(a.clientId, 'SVC_AUDIENCE_CLIENT_ID'),
    clientSecret: setting(a.clientSecret, 'SVC_AUDIENCE_CLIENT_SECRET'),
  };
}

/**
 * Authentication 5: client_id / client_secret produce an access token used as Bearer on
 * every audience endpoint. The token endpoint's shape is not shown in the specification:
 * the profile names its URL (SVC_AUDIENCE_TOKEN_URL) and this is the usual OAuth 2.0
 * client-credentials form (RFC 6749 §4.4), Basic-authenticated. A missing setting throws
 * MissingSetting naming it.
 */
export function audienceTokenRequest(profile: TargetProfile, redact?: (text: string) => string): BoundedRequest {
  const { url, clientId, clientSecret } = audienceTokenSettings(profile);
  return {
    method: 'POST',
    url,
    headers: { authorization: basicAuthorization(clientId, clientSecret), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'grant_type=client_credentials',
    operation: 'the audience token request',
    urlSetting: 'SVC_AUDIENCE_TOKEN_URL',
    ...(redact ? { redact } : {}),
  };
}

/** The `access_token` of a token answer (RFC 6749 §5.1), when it carries one as a string. */
export function accessTokenOf(text: string): string | undefined {
  try {
    const token = (JSON.parse(text) as { access_token?: unknown } | null)?.access_token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The audience token request (audienceTokenRequest) sent: the answer as received (the caller judges it) and the token when it carries one. */
export async function requestAudienceToken(
  profile: TargetProfile,
  redact?: (text: string) => string,
): Promise<{ url: string; response: BoundedResponse; token?: string }> {
  const request = audienceTokenRequest(profile, redact);
  const response = await requestBounded(request, boundsOf(profile));
  const token = accessTokenOf(response.text);
  return { url: request.url, response, ...(token !== undefined ? { token } : {}) };
}

/** The contract checks' options a profile gives, the same for every exchange path. */
export function checkOptionsOf(
  profile: TargetProfile,
): Pick<CheckOptions, 'deprecationHeader' | 'sunsetHeader' | 'sunsetVersions' | 'strict' | 'headerNamesExplicit' | 'referenceContradictions'> {
  const options = {
    deprecationHeader: profile.versions.deprecationHeader,
    sunsetHeader: profile.versions.sunsetHeader,
    sunsetVersions: profile.versions.sunset ? [profile.versions.sunset] : [],
    // Inferred rules gate only under a strict profile; a header name the user set is enforced.
    strict: profile.strict,
    headerNamesExplicit: profile.versions.headerNamesExplicit,
  };
  // The vendor's reference (SVC_REFERENCE): what it contradicts, judged under the same options,
  // derived on the first exchange of the process and kept (contracts/reference.ts).
  return profile.reference?.length ? { ...options, referenceContradictions: referenceContradictionsOf(profile.reference, options) } : options;
}
