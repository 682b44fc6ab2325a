/**
 * The simulator as a standalone service: what `svc-conformance simulator` and
 * targets/simulator/main.ts print when it listens. The default credentials are the
 * documented ones (README, "Simulator"); a key given in SVC_API_KEY is never printed.
 */
import type { StartedTarget } from '../index.ts';
import { PRODUCT_PATH_ENV } from '../profiles/settings.ts';
import { WIDGET_CONTROLS } from '../profiles/sections.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';

export function simulatorBanner(target: StartedTarget, o: { apiKeyGiven: boolean; startedMs: number }): string {
  const base = target.url;
  const { settings, faults, variations } = target.simulator!;
  const key = o.apiKeyGiven ? 'from SVC_API_KEY (not printed)' : `${SIMULATOR_DEFAULTS.apiKey} (the documented default; SVC_API_KEY sets another)`;
  return [
    `svc simulator listening (started in ${o.startedMs.toFixed(0)} ms)`,
    `  platform API : ${base}`,
    `  audience     : ${base}${SIMULATOR_DEFAULTS.audiencePrefix}`,
    `  test host    : ${base}${SIMULATOR_DEFAULTS.testHostPrefix}`,
    `  client id    : ${settings.clientId}`,
    `  API key      : ${key}`,
    `  versions     : ${settings.versions.map((v) => v.name).join(', ')} (default ${settings.defaultVersion})`,
    `  rate limit   : ${settings.rateLimitPerSecond} requests/s per client`,
    `  aggregation  : ${settings.aggregationMs} ms`,
    `  faults       : ${faults.join(', ') || 'none'}`,
    `  variations   : ${variations.join(', ') || 'none'}`,
    `Point a run at it: SVC_BASE_URL=${base} SVC_CLIENT_ID=${settings.clientId} SVC_API_KEY=... svc-conformance run`,
  ].join('\n');
}

/** One setting of a target, with where its value came from (a config file's comment). */
export interface SourcedSetting {
  variable: string;
  value: string;
  source: string;
}

/**
 * What a run against this simulator, started as a separate service, needs to be told:
 * every non-secret setting (for a config file; each with its source) and the secrets (for
 * the environment). Read from the simulator's own profile, which holds every fact of the
 * embedded run, so a real-target run configured with these checks what the embedded run
 * checks, short of what only the simulator's in-process controls reach (its clock, its
 * webhook dispatcher).
 */
export function simulatorTargetSettings(target: StartedTarget): { settings: SourcedSetting[]; secrets: Array<{ variable: string; value: string }> } {
  const p = target.profile;
  const s = target.simulator!.settings;
  const dx = p.dataExchange;
  const settings: SourcedSetting[] = [];
  const add = (source: string, entries: Record<string, string | number | readonly string[] | undefined>) => {
    for (const [variable, value] of Object.entries(entries))
      if (value !== undefined && !(Array.isArray(value) && value.length === 0))
        settings.push({ variable, value: Array.isArray(value) ? value.join(',') : String(value), source });
  };
  add("this simulator's address", { SVC_BASE_URL: p.platformBaseUrl });
  add('a separately started service is tested as an integration environment', { SVC_ENVIRONMENT: 'integration' });
  add('its audience service and earlier-generation test host, under its own address', {
    SVC_AUDIENCE_BASE_URL: p.audienceBaseUrl,
    SVC_AUDIENCE_TOKEN_URL: p.audience.tokenUrl,
    SVC_TEST_HOST_BASE_URL: p.testHostBaseUrl,
  });
  add('its seeded audience', {
    SVC_AUDIENCE_ID: p.audience.audienceId,
    SVC_AUDIENCE_SLUG: p.audience.audienceSlug,
    SVC_AUDIENCE_INSTITUTION_PUBLIC_ID: p.audience.institutionPublicId,
  });
  add('its test institution and test user', {
    SVC_TEST_INSTITUTION_CODE: p.testInstitution.code,
    SVC_TEST_OAUTH_INSTITUTION_CODE: p.testInstitution.oauthCode,
    SVC_TEST_USERNAME: p.testInstitution.username,
  });
  add('its institution catalogue: the favourites in popularity order, a blocked institution, the test institution’s country', {
    SVC_FAVORITE_INSTITUTION_CODES: p.institutions.favouriteCodes,
    SVC_BLOCKED_INSTITUTION_CODE: p.institutions.blockedCode,
    SVC_TEST_INSTITUTION_COUNTRY: p.institutions.testInstitutionCountry,
  });
  add('its versions: every one it serves, the one it has deprecated (and since when), the one that has sunset', {
    SVC_VERSIONS: p.versions.supported,
    SVC_DEPRECATED_VERSION: p.versions.deprecated?.version,
    SVC_DEPRECATED_ON: p.versions.deprecated?.on,
    SVC_SUNSET_VERSION: p.versions.sunset,
  });
  add('its request limit per client', { SVC_RATE_LIMIT_PER_SECOND: s.rateLimitPerSecond });
  add('its seeded data-exchange grant and the records it shares', {
    SVC_3DX_ISSUER_GUID: dx.issuerClientGuid,
    SVC_3DX_GRANTEE_GUID: dx.granteeClientGuid,
    SVC_3DX_GRANTEE_GUIDS: dx.allGranteeGuids,
    SVC_3DX_GRANT_GUID: dx.grantGuid,
    SVC_3DX_USER: dx.userIdentifier,
    SVC_3DX_MEMBER: dx.memberIdentifier,
    SVC_3DX_ACCOUNT_GUID: dx.accountGuid,
    SVC_3DX_USER_ID: dx.userPartnerId,
    SVC_3DX_MEMBER_ID: dx.memberPartnerId,
    SVC_3DX_ACCOUNT_ID: dx.accountPartnerId,
    SVC_3DX_MANUAL_TRANSACTION_GUID: dx.manualTransactionGuid,
    SVC_3DX_MANUAL_TRANSACTION_MEMBER: dx.manualTransactionMember,
    SVC_3DX_MANUAL_TRANSACTION_ACCOUNT: dx.manualTransactionAccount,
    SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID: dx.scopeMismatchTransactionGuid,
    SVC_3DX_SCOPE_MISMATCH_MEMBER: dx.scopeMismatchMember,
    SVC_3DX_SCOPE_MISMATCH_ACCOUNT: dx.scopeMismatchAccount,
    SVC_3DX_WINDOW_TRANSACTION_GUID: dx.windowTransactionGuid,
  });
  add('the use cases its client is opted in to', { SVC_USE_CASES: p.useCases });
  add('how it issues processor tokens', { SVC_PROCESSOR_TOKEN_REQUEST: p.processorToken.text });
  add(
    'the product-area paths it serves (the vendor reference’s)',
    Object.fromEntries(Object.entries(p.productPaths).map(([k, v]) => [PRODUCT_PATH_ENV[k as keyof typeof PRODUCT_PATH_ENV], v])),
  );
  add('the controls of its OAuth page', { SVC_OAUTH_AUTHORIZE_SELECTOR: p.oauthPage.authorizeSelector, SVC_OAUTH_DENY_SELECTOR: p.oauthPage.denySelector });
  add(
    'the controls of its widget',
    Object.fromEntries(Object.entries(WIDGET_CONTROLS).map(([k, setting]) => [setting.env, p.widget[k as keyof typeof p.widget]])),
  );
  add(`its jobs settle in ${s.aggregationMs} ms and its throttle period is known: job-state verdicts are conclusive`, {
    SVC_MIN_JOB_MS: p.timeouts.minJobMs,
    SVC_AGGREGATION_THROTTLE_MS: p.timeouts.throttlePeriodMs,
  });
  add('bounds for a target on this machine (a run choice; a vendor environment needs longer ones)', {
    SVC_REQUEST_TIMEOUT_MS: p.timeouts.requestMs,
    SVC_AGGREGATION_TIMEOUT_MS: p.timeouts.aggregationMs,
    SVC_POLL_INTERVAL_MS: p.timeouts.pollIntervalMs,
    SVC_BROWSER_EVENT_TIMEOUT_MS: p.timeouts.browserEventMs,
  });
  const secrets = Object.entries({
    SVC_CLIENT_ID: s.clientId,
    SVC_API_KEY: s.apiKey,
    // The simulator's second client is built in (cross-client isolation).
    SVC_SECOND_CLIENT_ID: p.secondClient.clientId,
    SVC_SECOND_API_KEY: p.secondClient.apiKey,
    SVC_AUDIENCE_CLIENT_ID: s.audienceClientId,
    SVC_AUDIENCE_CLIENT_SECRET: s.audienceClientSecret,
    SVC_CORRECT_ANSWER: s.correctAnswer,
    ...Object.fromEntries(Object.entries(s.passwords).map(([scenario, value]) => [`SVC_TEST_PASSWORD_${scenario}`, value])),
  })
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
    .map(([variable, value]) => ({ variable, value }));
  return { settings, secrets };
}
