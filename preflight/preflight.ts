/**
 * Preflight (../shared/DESIGN.md, "What it is for": "a preflight that fails fast"): before
 * a run, what the target profile reaches and what it lets run. Read-only, a handful of
 * requests, each bounded by the profile's request timeout (SVC_REQUEST_TIMEOUT_MS):
 *
 *   - reachability of each configured base URL (platform, audience, test host);
 *   - the platform credentials, with one authenticated read (preflight/credentials.ts
 *     CREDENTIAL_PROBE): 401/403 means refused (Authentication 1);
 *   - the versions the target accepts, one read per configured version (SVC_VERSIONS),
 *     and the configured sunset version, which must be refused (Versioning: "After those
 *     12 months it sunsets: access is removed and requests return an error");
 *   - the test institution's code, and which test passwords and the correct answer are set;
 *   - the data-exchange grant, where set ("Grant listing and grant reading need only
 *     Basic authentication", Authentication 3), and which identities are set;
 *   - the audience token and one audience list read, where set (Authentication 5);
 *   - the test host with its key headers, where set (Earlier-generation test paths);
 *   - the second client's credentials, the OAuth page's and the widget's controls;
 *   - what will run and what will skip (preflight/requirements.ts), by the variables the
 *     scenarios' skips name.
 *
 * Fatal (the run cannot mean anything): an unreachable platform, refused credentials.
 * Everything else is reported and the run goes on (a missing setting skips only what
 * needs it).
 *
 *   const report = await runPreflight(profile);
 *   console.log(formatPreflight(report));
 *   process.exitCode = preflightExitCode(report);
 */
import {
  audienceTokenRequest,
  accessTokenOf,
  createRedactor,
  exchangeBounded,
  PASSWORD_SCENARIOS,
  profileSecrets,
  WIDGET_CONTROLS,
  runSettings,
  OAUTH_PAGE_DEFAULTS,
  type HttpBounds,
  type TargetProfile,
  type WidgetControls,
} from '../targets/index.ts';
import {
  CREDENTIAL_PROBE,
  CREDENTIAL_REFUSALS,
  credentialHeaders,
  platformRequest,
  platformUrlSetting,
  refusedCredentialsMessage,
  withQuery,
} from './credentials.ts';
import { areaPlan, type AreaPlan } from './requirements.ts';

/**
 * ok: reached / accepted / as required. refused: the target refused it (credentials 401/403,
 * a version answering an error). unreachable: no HTTP answer. not set: the profile lacks the
 * setting. unexpected: an answer that is none of those (a 404 for the test institution, a
 * sunset version served, a 5xx). not checked: a check that needs one that failed.
 */
export type CheckStatus = 'ok' | 'refused' | 'unreachable' | 'not set' | 'unexpected' | 'not checked';

export interface PreflightCheck {
  /** Stable id (`platform`, `credentials`, `version v20260929`, ...). */
  id: string;
  /** What is checked, in words. */
  label: string;
  status: CheckStatus;
  /** What was asked and answered, or which settings are missing; never a secret. */
  detail: string;
  /** The settings this check is about. */
  variables: string[];
  /** This result stops the run (an unreachable platform, refused credentials). */
  fatal: boolean;
  /** HTTP status of the check's request, when one answered. */
  httpStatus?: number;
  durationMs?: number;
}

export interface PreflightReport {
  target: { name: string; isSimulator: boolean; isProduction: boolean; allowDestructive: boolean; platformBaseUrl: string };
  checks: PreflightCheck[];
  areas: AreaPlan[];
  /** Any check is fatal. */
  fatal: boolean;
  /** One sentence per fatal check. */
  fatalReasons: string[];
  durationMs: number;
}

export interface PreflightOptions {
  /** Bound of each request; default the profile's request timeout (SVC_REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
}

const is2xx = (s: number) => s >= 200 && s < 300;
const ms = (p: { durationMs: number }) => `${Math.round(p.durationMs)} ms`;

/** Body bound of a preflight read: a read of one record, a token or a list page needs little. */
const READ_BODY_BYTES = 256 * 1024;

/**
 * Bounds of one preflight read: the request timeout in force, and a body bound of the
 * preflight's own, so a base URL that points at the wrong server neither keeps the
 * preflight waiting nor fills its memory.
 */
function readBounds(timeoutMs: number, maxBodyBytes = READ_BODY_BYTES): HttpBounds {
  return { requestMs: timeoutMs, maxBodyBytes, maxBodyBytesFrom: "the preflight's bound of one read" };
}

/** The platform's answer to a read with the default credentials. */
function platformRead(
  profile: TargetProfile,
  timeoutMs: number,
  path: string,
  o: { version?: string; query?: Record<string, string>; headers?: Record<string, string>; bodyLimit?: number } = {},
) {
  return exchangeBounded(
    platformRequest(profile, { path, query: o.query, version: o.version, headers: o.headers, operation: `GET ${path}` }),
    readBounds(timeoutMs, o.bodyLimit),
  );
}

/**
 * Credentials alone, for the run's global setup (scenarios/global-setup.ts): one
 * authenticated read of the platform. Throws PreflightFailure naming the settings to check
 * when the platform is unreachable or refuses the credentials; returns otherwise.
 */
export async function assertPlatformUsable(profile: TargetProfile, o: PreflightOptions = {}): Promise<PreflightCheck[]> {
  const checks = await platformChecks(profile, o.timeoutMs ?? profile.timeouts.requestMs, createRedactor(profileSecrets(profile)).text);
  const fatal = checks.filter((c) => c.fatal);
  if (fatal.length) throw new PreflightFailure(fatal.map((c) => c.detail).join('\n'));
  return checks;
}

/** A fatal preflight finding: its message is the whole story, so it carries no stack. */
export class PreflightFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreflightFailure';
    // Playwright prints a global setup error's stack: the frames would bury the one line
    // that matters (which settings to check).
    this.stack = `${this.name}: ${message}`;
  }
}

/** Reachability of the platform and its credentials, from one read. */
async function platformChecks(profile: TargetProfile, timeoutMs: number, redact: (s: string) => string): Promise<PreflightCheck[]> {
  const probeDef = CREDENTIAL_PROBE.platform;
  const request = `GET ${withQuery(probeDef.path, probeDef.query)}`;
  const baseVariable = platformUrlSetting(profile);
  const res = await platformRead(profile, timeoutMs, probeDef.path, { query: probeDef.query });
  const credentialsSet = !!credentialHeaders(profile, 'platform');
  const credentialVariables = ['SVC_CLIENT_ID', 'SVC_API_KEY'];
  if (res.kind === 'failed') {
    // An answer that began and then failed (a body past the bound, a stall inside it) reached
    // the target: said so, so the reader looks at the answer rather than the network.
    const how = res.failure.status === undefined ? 'is unreachable' : `answered ${res.failure.status}, but the answer could not be read`;
    return [
      {
        id: 'platform',
        label: 'platform API',
        status: 'unreachable',
        fatal: true,
        variables: [baseVariable],
        durationMs: res.durationMs,
        detail: `The platform API at ${profile.platformBaseUrl} (${baseVariable}) ${how}: ${res.failure.message}`,
      },
      {
        id: 'credentials',
        label: 'platform credentials',
        status: 'not checked',
        fatal: false,
        variables: credentialVariables,
        detail: res.failure.status === undefined ? 'the platform did not answer' : "the platform's answer could not be read",
      },
    ];
  }
  const reached: PreflightCheck = {
    id: 'platform',
    label: 'platform API',
    status: 'ok',
    fatal: false,
    variables: [baseVariable],
    httpStatus: res.status,
    durationMs: res.durationMs,
    detail: `${profile.platformBaseUrl} answered ${res.status} in ${ms(res)}`,
  };
  const base = { id: 'credentials', label: 'platform credentials', variables: credentialVariables, httpStatus: res.status, durationMs: res.durationMs };
  if (!credentialsSet) {
    const missing = credentialVariables.filter((v) => (v === 'SVC_CLIENT_ID' ? !profile.clientId : !profile.apiKey));
    // A real target without its credentials (Authentication 1: "Platform endpoints use HTTP
    // Basic authentication") would run a gate that checks nothing: refused here, in seconds,
    // unless the user asked for an empty run (run --allow-empty).
    const fatal = !profile.isSimulator && !runSettings().allowEmpty;
    return [
      reached,
      {
        ...base,
        status: 'not set',
        fatal,
        detail: `${missing.join(' and ')} not set: every platform and test-host scenario would skip${fatal ? `; set ${missing.join(' and ')} (the credentials of your client at ${profile.platformBaseUrl}) or pass --allow-empty` : ''}`,
      },
    ];
  }
  if (CREDENTIAL_REFUSALS.includes(res.status)) {
    return [
      reached,
      {
        ...base,
        status: 'refused',
        fatal: true,
        detail: refusedCredentialsMessage('platform', { request, status: res.status, target: profile.platformBaseUrl, body: redact(res.text.slice(0, 160)) }),
      },
    ];
  }
  if (is2xx(res.status)) return [reached, { ...base, status: 'ok', fatal: false, detail: `${request} answered ${res.status}` }];
  // Endpoints: "Paths are relative to `{base_url}`", and the institutions list is one of them.
  // A 404 there is a base URL whose path is wrong: every platform scenario would fail on it.
  if (res.status === 404)
    return [
      reached,
      {
        ...base,
        status: 'unexpected',
        fatal: true,
        detail: `${request} answered 404: the institutions list is not at ${profile.platformBaseUrl}, so every platform scenario would fail the same way. The specification's paths are relative to SVC_BASE_URL ("Paths are relative to \`{base_url}\`"): check its path (a prefix too many or one missing). Body: ${redact(res.text.slice(0, 160))}`,
      },
    ];
  return [
    reached,
    {
      ...base,
      status: 'unexpected',
      fatal: false,
      detail: `${request} answered ${res.status}, neither a success nor a refusal of the credentials. Body: ${redact(res.text.slice(0, 160))}`,
    },
  ];
}

/** One read per configured version, and the sunset version, which must be refused. */
async function versionChecks(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck[]> {
  const { path, query } = CREDENTIAL_PROBE.platform;
  const supported = await Promise.all(
    profile.versions.supported.map(async (version): Promise<PreflightCheck> => {
      const res = await platformRead(profile, timeoutMs, path, { version, query });
      const base = { id: `version ${version}`, label: `version ${version}`, variables: ['SVC_VERSIONS'], fatal: false, durationMs: res.durationMs };
      if (res.kind === 'failed') return { ...base, status: 'unreachable', detail: res.failure.message };
      if (is2xx(res.status)) return { ...base, httpStatus: res.status, status: 'ok', detail: `served (${res.status})` };
      return {
        ...base,
        httpStatus: res.status,
        status: 'refused',
        detail: `answered ${res.status}: its scenarios will fail; leave it out of SVC_VERSIONS if the target no longer serves it`,
      };
    }),
  );
  const sunset = profile.versions.sunset;
  if (!sunset)
    return [
      ...supported,
      {
        id: 'sunset version',
        label: 'sunset version',
        status: 'not set',
        fatal: false,
        variables: ['SVC_SUNSET_VERSION'],
        detail: 'SVC_SUNSET_VERSION not set: the sunset-version scenario skips',
      },
    ];
  const res = await platformRead(profile, timeoutMs, path, { version: sunset, query });
  const base = { id: 'sunset version', label: `sunset version ${sunset}`, variables: ['SVC_SUNSET_VERSION'], fatal: false, durationMs: res.durationMs };
  if (res.kind === 'failed') return [...supported, { ...base, status: 'unreachable', detail: res.failure.message }];
  // Versioning: a sunset version's requests "return an error": any non-success is as required.
  if (!is2xx(res.status)) return [...supported, { ...base, httpStatus: res.status, status: 'ok', detail: `refused as required (${res.status})` }];
  return [
    ...supported,
    {
      ...base,
      httpStatus: res.status,
      status: 'unexpected',
      detail: `served (${res.status}): a sunset version must answer an error (Versioning); is SVC_SUNSET_VERSION right?`,
    },
  ];
}

/** The test institutions exist (GET /institutions/{code}; Endpoints: "identifier is the institution code or guid"). */
async function institutionChecks(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck[]> {
  const one = async (code: string, variable: string, label: string, note: string): Promise<PreflightCheck> => {
    const res = await platformRead(profile, timeoutMs, `/institutions/${encodeURIComponent(code)}`);
    const base = { id: label, label: `${label} ${code}`, variables: [variable], fatal: false, durationMs: res.durationMs };
    if (res.kind === 'failed') return { ...base, status: 'unreachable', detail: res.failure.message };
    if (is2xx(res.status)) return { ...base, httpStatus: res.status, status: 'ok', detail: `exists (${res.status})` };
    return { ...base, httpStatus: res.status, status: 'unexpected', detail: `GET /institutions/${code} answered ${res.status}: ${note} (${variable})` };
  };
  return Promise.all([
    one(profile.testInstitution.code, 'SVC_TEST_INSTITUTION_CODE', 'test institution', 'the member scenarios need it'),
    one(
      profile.testInstitution.oauthCode,
      'SVC_TEST_OAUTH_INSTITUTION_CODE',
      'OAuth test institution',
      'the OAuth scenarios need it (the specification: "integration environment only")',
    ),
  ]);
}

/** Which scenario passwords and the correct answer are set: names only, never values. */
function testInstitutionSettings(profile: TargetProfile): PreflightCheck[] {
  const set = PASSWORD_SCENARIOS.filter((s) => profile.testInstitution.passwords[s]);
  const missing = PASSWORD_SCENARIOS.filter((s) => !profile.testInstitution.passwords[s]).map((s) => `SVC_TEST_PASSWORD_${s}`);
  // A space at either end is kept as written (it may belong to a password), and named: pasted
  // with one, the success password reads as the target denying the member.
  const padded = set.filter((s) => /^\s|\s$/.test(profile.testInstitution.passwords[s] ?? '')).map((s) => `SVC_TEST_PASSWORD_${s}`);
  const paddedNote = padded.length ? `; ${padded.join(', ')} ${padded.length === 1 ? 'begins or ends' : 'begin or end'} with a space, sent as written` : '';
  return [
    {
      id: 'test passwords',
      label: 'test institution passwords',
      status: missing.length ? 'not set' : 'ok',
      fatal: false,
      variables: PASSWORD_SCENARIOS.map((s) => `SVC_TEST_PASSWORD_${s}`),
      detail: `${missing.length ? `${missing.join(', ')}${set.length ? ` (set: ${set.join(', ')})` : ''}` : `all ${PASSWORD_SCENARIOS.length} set`}${paddedNote}`,
    },
    {
      id: 'correct answer',
      label: 'MFA correct answer',
      status: profile.testInstitution.correctAnswer ? 'ok' : 'not set',
      fatal: false,
      variables: ['SVC_CORRECT_ANSWER'],
      detail: profile.testInstitution.correctAnswer ? 'set' : 'SVC_CORRECT_ANSWER not set: MFA scenarios skip',
    },
  ];
}

/**
 * Which data-exchange identities are set. A user, member, account and the account's partner
 * id are read from the target when unset (scenarios/api/data-exchange-identities.ts); what no
 * read reveals is a setting, and its scenarios skip without it.
 */
function dataExchangeIdentities(profile: TargetProfile): PreflightCheck {
  const dx = profile.dataExchange;
  const identityVariables: Array<[string, unknown]> = [
    ['SVC_3DX_MEMBER_ID', dx.memberPartnerId],
    ['SVC_3DX_WINDOW_TRANSACTION_GUID', dx.windowTransactionGuid],
    ['SVC_3DX_MANUAL_TRANSACTION_GUID', dx.manualTransactionGuid],
    ['SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID', dx.scopeMismatchTransactionGuid],
  ];
  const unsetIdentities = identityVariables.filter(([, v]) => !v).map(([n]) => n);
  const derived = 'SVC_3DX_USER, SVC_3DX_MEMBER, SVC_3DX_ACCOUNT_GUID are read from the target when unset';
  return {
    id: 'data exchange identities',
    label: 'data exchange identities',
    status: unsetIdentities.length ? 'not set' : 'ok',
    fatal: false,
    variables: identityVariables.map(([n]) => n),
    detail: unsetIdentities.length ? `${unsetIdentities.join(', ')} (no read reveals them; their scenarios skip); ${derived}` : `all set; ${derived}`,
  };
}

/**
 * The entry point of the data-exchange scenarios: the issuer's or the grantee's grant list,
 * read with Basic authentication only (Authentication 3: "Grant listing and grant reading
 * need only Basic authentication"). The grant, its issuer and grantees are read from it.
 */
async function dataExchangeGrant(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck> {
  const dx = profile.dataExchange;
  const grantVariables = ['SVC_3DX_ISSUER_GUID', 'SVC_3DX_GRANTEE_GUID', 'SVC_3DX_GRANT_GUID'];
  if (!dx.issuerClientGuid && !dx.granteeClientGuid) {
    return {
      id: 'data exchange grant',
      label: 'data exchange grant',
      status: 'not set',
      fatal: false,
      variables: grantVariables,
      detail: "SVC_3DX_ISSUER_GUID or SVC_3DX_GRANTEE_GUID: the data-exchange scenarios skip (no endpoint reveals a client's own GUID)",
    };
  }
  // Endpoints: "GET /data_exchange/grantee/{grantee_client_guid}/grants: list grants of a
  // grantee; paged; standard authentication only" (the issuer's the same); records_per_page "has a maximum of 1000".
  const side = dx.granteeClientGuid ? 'grantee' : 'issuer';
  const variable = side === 'grantee' ? 'SVC_3DX_GRANTEE_GUID' : 'SVC_3DX_ISSUER_GUID';
  const path = `/data_exchange/${side}/${encodeURIComponent((dx.granteeClientGuid ?? dx.issuerClientGuid)!)}/grants`;
  const res = await platformRead(profile, timeoutMs, path, { query: { records_per_page: '1000' }, bodyLimit: 4 * 1024 * 1024 });
  const base = { id: 'data exchange grant', label: 'data exchange grant', variables: grantVariables, fatal: false, durationMs: res.durationMs };
  if (res.kind === 'failed') return { ...base, status: 'unreachable', detail: res.failure.message };
  const request = `GET /data_exchange/${side}/{${variable}}/grants`;
  if (CREDENTIAL_REFUSALS.includes(res.status))
    return { ...base, httpStatus: res.status, status: 'refused', detail: `${request} answered ${res.status}: this client may not read those grants` };
  if (!is2xx(res.status)) return { ...base, httpStatus: res.status, status: 'unexpected', detail: `${request} answered ${res.status}` };
  let grants: unknown[] = [];
  try {
    const body = JSON.parse(res.text) as { grants?: unknown };
    if (Array.isArray(body.grants)) grants = body.grants;
  } catch {
    /* reported below */
  }
  if (grants.length === 0)
    return {
      ...base,
      httpStatus: res.status,
      status: 'unexpected',
      detail: `${request} answered ${res.status} with no grant: the data-exchange scenarios have none to use`,
    };
  // An identifier's form may change (Versioning): a set grant not found as written is reported, and the scenarios use the first.
  const named = dx.grantGuid && !res.text.includes(dx.grantGuid) ? `; SVC_3DX_GRANT_GUID is not among them as written, so the scenarios use the first` : '';
  return { ...base, httpStatus: res.status, status: 'ok', detail: `${grants.length} grant(s) on the first page of 1000${named}` };
}

/** Any HTTP answer from a base URL means it is reachable. */
async function reachable(
  profile: TargetProfile,
  id: string,
  label: string,
  url: string | undefined,
  variable: string,
  timeoutMs: number,
): Promise<PreflightCheck> {
  if (!url) return { id, label, status: 'not set', fatal: false, variables: [variable], detail: `${variable} not set` };
  // Any answer means reachable: the body is read up to the run's own bound (a landing page may be large).
  const res = await exchangeBounded({ method: 'GET', url, urlSetting: variable }, { requestMs: timeoutMs, maxBodyBytes: profile.limits.maxBodyBytes });
  if (res.kind === 'failed')
    return { id, label, status: 'unreachable', fatal: false, variables: [variable], durationMs: res.durationMs, detail: res.failure.message };
  return {
    id,
    label,
    status: 'ok',
    fatal: false,
    variables: [variable],
    httpStatus: res.status,
    durationMs: res.durationMs,
    detail: `${url} reachable (answered ${res.status} in ${ms(res)})`,
  };
}

/**
 * The audience service: the token (Authentication 5; the endpoint's shape is not shown, so
 * the client-credentials form the checked client sends, RFC 6749 §4.4) and one list read.
 */
async function audienceChecks(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck[]> {
  const a = profile.audience;
  const base = await reachable(profile, 'audience', 'audience service', profile.audienceBaseUrl, 'SVC_AUDIENCE_BASE_URL', timeoutMs);
  const tokenVariables = ['SVC_AUDIENCE_TOKEN_URL', 'SVC_AUDIENCE_CLIENT_ID', 'SVC_AUDIENCE_CLIENT_SECRET'];
  const missing = tokenVariables.filter((_, i) => ![a.tokenUrl, a.clientId, a.clientSecret][i]);
  if (missing.length)
    return [base, { id: 'audience token', label: 'audience token', status: 'not set', fatal: false, variables: tokenVariables, detail: missing.join(', ') }];
  // The request the checked client sends (targets/ audienceTokenRequest); a token answer is small.
  const res = await exchangeBounded(audienceTokenRequest(profile, createRedactor(profileSecrets(profile)).text), readBounds(timeoutMs, 64 * 1024));
  const t = { id: 'audience token', label: 'audience token', variables: tokenVariables, fatal: false, durationMs: res.durationMs };
  if (res.kind === 'failed') return [base, { ...t, status: 'unreachable', detail: res.failure.message }];
  const token = accessTokenOf(res.text);
  if (res.status === 400 || CREDENTIAL_REFUSALS.includes(res.status)) {
    return [
      base,
      {
        ...t,
        httpStatus: res.status,
        status: 'refused',
        detail: `the token endpoint answered ${res.status}: check SVC_AUDIENCE_CLIENT_ID and SVC_AUDIENCE_CLIENT_SECRET (Authentication 5)`,
      },
    ];
  }
  if (!is2xx(res.status) || typeof token !== 'string') {
    return [
      base,
      {
        ...t,
        httpStatus: res.status,
        status: 'unexpected',
        detail: `the token endpoint answered ${res.status}${typeof token === 'string' ? '' : ' without an access_token'}: is SVC_AUDIENCE_TOKEN_URL right?`,
      },
    ];
  }
  const tokenCheck: PreflightCheck = { ...t, httpStatus: res.status, status: 'ok', detail: `access token issued (${res.status})` };
  if (!a.audienceId || !profile.audienceBaseUrl) {
    return [
      base,
      tokenCheck,
      {
        id: 'audience list',
        label: 'audience list',
        status: 'not set',
        fatal: false,
        variables: ['SVC_AUDIENCE_ID'],
        detail: [!a.audienceId && 'SVC_AUDIENCE_ID', !profile.audienceBaseUrl && 'SVC_AUDIENCE_BASE_URL'].filter(Boolean).join(', '),
      },
    ];
  }
  const query = a.institutionPublicId ? { institution_public_id: a.institutionPublicId } : undefined;
  const list = await exchangeBounded(
    {
      method: 'GET',
      url: `${profile.audienceBaseUrl}${withQuery(`/api/v1/audience/${encodeURIComponent(a.audienceId)}/list`, query)}`,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      urlSetting: 'SVC_AUDIENCE_BASE_URL',
    },
    readBounds(timeoutMs),
  );
  const l = {
    id: 'audience list',
    label: 'audience list',
    variables: ['SVC_AUDIENCE_ID', 'SVC_AUDIENCE_INSTITUTION_PUBLIC_ID'],
    fatal: false,
    durationMs: list.durationMs,
  };
  if (list.kind === 'failed') return [base, tokenCheck, { ...l, status: 'unreachable', detail: list.failure.message }];
  if (is2xx(list.status))
    return [base, tokenCheck, { ...l, httpStatus: list.status, status: 'ok', detail: `GET /api/v1/audience/{SVC_AUDIENCE_ID}/list answered ${list.status}` }];
  if (CREDENTIAL_REFUSALS.includes(list.status))
    return [base, tokenCheck, { ...l, httpStatus: list.status, status: 'refused', detail: `the issued token was refused (${list.status})` }];
  return [
    base,
    tokenCheck,
    {
      ...l,
      httpStatus: list.status,
      status: 'unexpected',
      detail: `GET /api/v1/audience/{SVC_AUDIENCE_ID}/list answered ${list.status}: is SVC_AUDIENCE_ID right?`,
    },
  ];
}

/** The test host with its key headers (Earlier-generation test paths). */
async function testHostChecks(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck[]> {
  const variables = ['SVC_TEST_HOST_BASE_URL', 'SVC_CLIENT_ID', 'SVC_API_KEY'];
  if (!profile.testHostBaseUrl)
    return [
      { id: 'test host', label: 'test host', status: 'not set', fatal: false, variables, detail: 'SVC_TEST_HOST_BASE_URL not set: the @legacy scenarios skip' },
    ];
  const headers = credentialHeaders(profile, 'test-host');
  if (!headers) return [await reachable(profile, 'test host', 'test host', profile.testHostBaseUrl, 'SVC_TEST_HOST_BASE_URL', timeoutMs)];
  const path = CREDENTIAL_PROBE['test-host'].path;
  const res = await exchangeBounded(
    {
      method: 'GET',
      url: `${profile.testHostBaseUrl}${path}`,
      headers: { ...headers, accept: 'application/vnd.svc.legacy.v1+json' },
      urlSetting: 'SVC_TEST_HOST_BASE_URL',
      redact: createRedactor(profileSecrets(profile)).text,
    },
    readBounds(timeoutMs),
  );
  const base = { id: 'test host', label: 'test host', variables, fatal: false, durationMs: res.durationMs };
  if (res.kind === 'failed') return [{ ...base, status: 'unreachable', detail: `${profile.testHostBaseUrl}: ${res.failure.message}` }];
  if (is2xx(res.status)) return [{ ...base, httpStatus: res.status, status: 'ok', detail: `GET ${path} answered ${res.status}` }];
  if (CREDENTIAL_REFUSALS.includes(res.status))
    return [
      { ...base, httpStatus: res.status, status: 'refused', detail: refusedCredentialsMessage('test-host', { request: `GET ${path}`, status: res.status }) },
    ];
  return [{ ...base, httpStatus: res.status, status: 'unexpected', detail: `GET ${path} answered ${res.status}: is SVC_TEST_HOST_BASE_URL right?` }];
}

/** The second client, for cross-client isolation: the same credential read. */
async function secondClientCheck(profile: TargetProfile, timeoutMs: number): Promise<PreflightCheck> {
  const { clientId, apiKey } = profile.secondClient;
  const variables = ['SVC_SECOND_CLIENT_ID', 'SVC_SECOND_API_KEY'];
  if (!clientId || !apiKey)
    return {
      id: 'second client',
      label: 'second client credentials',
      status: 'not set',
      fatal: false,
      variables,
      detail: 'SVC_SECOND_CLIENT_ID, SVC_SECOND_API_KEY: the isolation scenario skips',
    };
  const { path, query } = CREDENTIAL_PROBE.platform;
  const res = await platformRead(profile, timeoutMs, path, {
    query,
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${apiKey}`).toString('base64')}` },
  });
  const base = { id: 'second client', label: 'second client credentials', variables, fatal: false, durationMs: res.durationMs };
  if (res.kind === 'failed') return { ...base, status: 'unreachable', detail: res.failure.message };
  if (is2xx(res.status)) return { ...base, httpStatus: res.status, status: 'ok', detail: `accepted (${res.status})` };
  if (CREDENTIAL_REFUSALS.includes(res.status))
    return { ...base, httpStatus: res.status, status: 'refused', detail: `refused (${res.status}): check SVC_SECOND_CLIENT_ID and SVC_SECOND_API_KEY` };
  return { ...base, httpStatus: res.status, status: 'unexpected', detail: `answered ${res.status}` };
}

/** The OAuth page's and the widget's controls: set, or the guess in use (not shown in the specification). */
function controlChecks(profile: TargetProfile): PreflightCheck[] {
  const oauth: Array<[string, string]> = [
    ['SVC_OAUTH_AUTHORIZE_SELECTOR', OAUTH_PAGE_DEFAULTS.authorizeSelector],
    ['SVC_OAUTH_DENY_SELECTOR', OAUTH_PAGE_DEFAULTS.denySelector],
  ];
  const { guessed } = profile.oauthPage;
  const widgetKeys = Object.keys(WIDGET_CONTROLS) as Array<keyof WidgetControls>;
  const unsetWidget = widgetKeys.filter((k) => !profile.widget[k]).map((k) => WIDGET_CONTROLS[k].env);
  return [
    {
      id: 'oauth page controls',
      label: 'OAuth page controls',
      // The simulator's page has the default controls: a guess only on a real target.
      status: guessed.length && !profile.isSimulator ? 'not set' : 'ok',
      fatal: false,
      variables: oauth.map(([v]) => v),
      detail:
        guessed.length && !profile.isSimulator
          ? `${guessed.join(', ')}: the OAuth browser scenarios use the guess ${guessed.map((v) => oauth.find(([n]) => n === v)![1]).join(' / ')} and fail if the page has no such control`
          : 'set',
    },
    {
      id: 'widget controls',
      label: 'widget controls',
      status: unsetWidget.length ? 'not set' : 'ok',
      fatal: false,
      variables: widgetKeys.map((k) => WIDGET_CONTROLS[k].env),
      detail: unsetWidget.length ? `${unsetWidget.join(', ')}: the widget scenarios that need them skip` : 'all set',
    },
  ];
}

function notChecked(ids: Array<[string, string, string[]]>, why: string): PreflightCheck[] {
  return ids.map(([id, label, variables]) => ({ id, label, status: 'not checked', fatal: false, variables, detail: why }));
}

export async function runPreflight(profile: TargetProfile, o: PreflightOptions = {}): Promise<PreflightReport> {
  const started = performance.now();
  const timeoutMs = o.timeoutMs ?? profile.timeouts.requestMs;
  const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
  // The platform first: without it, or with refused credentials, every other platform read says nothing.
  const platformPart = platformChecks(profile, timeoutMs, redactor.text);
  const independent = Promise.all([audienceChecks(profile, timeoutMs), testHostChecks(profile, timeoutMs)]);
  const platform = await platformPart;
  const credentialsOk = platform.find((c) => c.id === 'credentials')?.status === 'ok';
  const dependent = credentialsOk
    ? (
        await Promise.all([
          versionChecks(profile, timeoutMs),
          institutionChecks(profile, timeoutMs),
          dataExchangeGrant(profile, timeoutMs).then((c) => [c]),
          secondClientCheck(profile, timeoutMs).then((c) => [c]),
        ])
      ).flat()
    : notChecked(
        [
          ...profile.versions.supported.map((v): [string, string, string[]] => [`version ${v}`, `version ${v}`, ['SVC_VERSIONS']]),
          ['sunset version', 'sunset version', ['SVC_SUNSET_VERSION']],
          ['test institution', 'test institution', ['SVC_TEST_INSTITUTION_CODE']],
          ['OAuth test institution', 'OAuth test institution', ['SVC_TEST_OAUTH_INSTITUTION_CODE']],
          ['data exchange grant', 'data exchange grant', ['SVC_3DX_ISSUER_GUID', 'SVC_3DX_GRANTEE_GUID', 'SVC_3DX_GRANT_GUID']],
          ['second client', 'second client credentials', ['SVC_SECOND_CLIENT_ID', 'SVC_SECOND_API_KEY']],
        ],
        'needs the platform credentials accepted',
      );
  const [audience, testHost] = await independent;
  const checks = [
    ...platform,
    ...dependent,
    ...testInstitutionSettings(profile),
    dataExchangeIdentities(profile),
    ...audience,
    ...testHost,
    ...controlChecks(profile),
  ].map((c) => ({ ...c, detail: redactor.text(c.detail) }));
  // Keep the order of the table stable whatever finished first.
  const order = [
    'platform',
    'credentials',
    'version',
    'sunset version',
    'test institution',
    'OAuth test institution',
    'test passwords',
    'correct answer',
    'data exchange grant',
    'data exchange identities',
    'second client',
    'audience',
    'audience token',
    'audience list',
    'test host',
    'oauth page controls',
    'widget controls',
  ];
  const rank = (c: PreflightCheck) => {
    const i = order.indexOf(c.id.startsWith('version ') ? 'version' : c.id);
    return i < 0 ? order.length : i;
  };
  checks.sort((a, b) => rank(a) - rank(b));
  const fatalReasons = checks.filter((c) => c.fatal).map((c) => c.detail);
  return {
    target: {
      name: profile.name,
      isSimulator: profile.isSimulator,
      isProduction: profile.isProduction,
      allowDestructive: profile.allowDestructive,
      platformBaseUrl: profile.platformBaseUrl,
    },
    checks,
    areas: areaPlan(profile),
    fatal: fatalReasons.length > 0,
    fatalReasons,
    durationMs: performance.now() - started,
  };
}

/** The exit code a `preflight` command ends with: 1 when a check is fatal, else 0. */
export function preflightExitCode(report: PreflightReport): number {
  return report.fatal ? 1 : 0;
}

function table(rows: string[][], indent = '  '): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (i === r.length - 1 ? 0 : r[i].length))));
  return rows
    .map(
      (r) =>
        indent +
        r
          .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** The report as a console table: each check, then what runs and what skips and why, then the verdict. */
export function formatPreflight(report: PreflightReport): string {
  const t = report.target;
  const lines: string[] = [];
  lines.push(
    `Preflight of ${t.isSimulator ? 'the simulator' : `the ${t.name} target`} at ${t.platformBaseUrl} (${report.checks.length} checks, ${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  lines.push('');
  lines.push(table([['check', 'result', 'detail'], ...report.checks.map((c) => [c.label, c.status + (c.fatal ? ' (fatal)' : ''), c.detail])]));
  lines.push('');
  if (t.isProduction && !t.allowDestructive)
    lines.push('Production: only @readonly scenarios run (SVC_ALLOW_DESTRUCTIVE=I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION opts in).', '');
  if (report.fatal) {
    lines.push('What runs: nothing: the checks marked fatal stop the run before its first scenario.');
  } else {
    const runs = report.areas.filter((a) => a.verdict === 'runs');
    const skips = report.areas.filter((a) => a.verdict === 'skips');
    const areas = (n: number, verb: string) => `${n} ${n === 1 ? `area ${verb}s` : `areas ${verb}`}`;
    lines.push(
      `What runs and what skips (${areas(runs.length, 'run')}, ${areas(skips.length, 'skip')}; a scenario outside these areas needs no setting beyond the credentials):`,
    );
    lines.push(
      table([
        ['', 'project', 'area', 'tags / why'],
        ...report.areas.map((a) => [
          a.verdict,
          a.project,
          a.area,
          a.verdict === 'runs' ? a.tags.join(' ') : `${a.tags.join(' ')}: needs ${a.missing.join(', ')}${a.note ? ` (${a.note})` : ''}`,
        ]),
      ]),
    );
  }
  lines.push('');
  lines.push(report.fatal ? `FATAL: ${report.fatalReasons.join(' ')}` : 'No fatal finding: the run can start.');
  return lines.join('\n');
}
