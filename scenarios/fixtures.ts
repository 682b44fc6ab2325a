/**
 * Fixtures every scenario uses (../shared/DESIGN.md, "scenarios/"):
 *
 *   profile   the target profile (targets/profiles/profile.ts): URLs and settings
 *   api       the CHECKED client: every request goes through the contract checks of
 *             contracts/ (contract.check). An error-severity failure fails the test with
 *             the operation, location, rule and message; every finding becomes an
 *             annotation typed by its tier (TIER_ANNOTATION) and an Allure `tier` label.
 *             A 5xx the caller did not expect, or a success body that is not the JSON it
 *             should be, fails first with the cause ("The service answered ...").
 *             Every exchange is attached to the report with secrets redacted.
 *   poll      a bounded poller (profile.timeouts.aggregationMs / pollIntervalMs)
 *
 * Scenarios assert behaviour (states, statuses, redirects); the shape of every body
 * is the contract's job, so scenarios never re-check a schema by hand.
 *
 * Guards, decided before a test body runs:
 *   - production: unless the user opted in (SVC_ALLOW_DESTRUCTIVE, see profile.ts),
 *     only tests tagged @readonly run (issue 4: "A production base URL runs only
 *     scenarios tagged read-only unless the user opts in explicitly"); @destructive
 *     tests are skipped with a message.
 *   - requireSetting(value, 'SVC_X') skips a test that needs a setting the profile
 *     lacks, naming the variable; never a crash.
 */
import { test as base, expect, type TestInfo } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { request as undiciRequest } from 'undici';
import { createRedactor, loadProfile, profileSecrets, startTarget, type Redactor, type TargetProfile } from '../targets/index.ts';
import { formatFailure, tierOf, TIER_ANNOTATION, type Failure, type Tier } from '../contracts/failure.ts';
import { loadContract } from '../contracts/contract.ts';
import { documentedResponse } from '../contracts/model.ts';
// allure-playwright's own runtime API (installed with it): labels set during a test.
import { label as allureLabel } from 'allure-js-commons';
import { SELFTEST_FAILURE_ANNOTATION, SELFTEST_METADATA_KEY, type SelftestProjectMetadata } from './selftest-project.ts';

export { expect };

export type ApiName = 'platform' | 'audience' | 'test-host';

/** The exchange the contract checks (contracts/index.ts). */
export interface Exchange {
  api: ApiName;
  version?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown; durationMs?: number };
}

type Contract = Awaited<ReturnType<typeof loadContract>>;

export interface CallOptions {
  api?: ApiName;
  method?: string;
  /** Path (and optional query) relative to the API's base URL. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | (string | number)[]>;
  headers?: Record<string, string>;
  /** JSON body; `rawBody` sends text as is (malformed-input scenarios). */
  body?: unknown;
  rawBody?: string;
  /** Accept-Version; `null` sends none. Default: the profile's current version. */
  version?: string | null;
  /**
   * Credentials: `default` (Basic for the platform, Bearer for audience, API-key
   * headers for the test host), `none`, or explicit Basic credentials.
   */
  auth?: 'default' | 'none' | { user: string; pass: string } | { bearer: string };
  /** Restrict the contract checks to these names (contract.check's `only`). */
  only?: string[];
  /** Expected status(es); a mismatch fails the test with the exchange in the message. */
  expectStatus?: number | number[];
}

export interface CheckedResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
  durationMs: number;
  failures: Failure[];
}

/** Sum of time spent inside HTTP requests, per test (npm run bench:suite reads it). */
const TIMING_DIR = process.env.SVC_HTTP_TIMING_DIR ?? 'reports/out/http-timing';

/** The version scenarios send unless they name one: SVC_ACCEPT_VERSION or the newest supported. */
export function currentVersion(profile: TargetProfile): string {
  return process.env.SVC_ACCEPT_VERSION ?? [...profile.versions.supported].sort().at(-1)!;
}

/** Skips the running test when a profile setting is missing, naming the env var. */
export function requireSetting<T>(value: T | undefined | null | '', envVar: string, why = ''): T {
  if (value === undefined || value === null || value === '') {
    base.skip(true, `needs ${envVar}${why ? ` (${why})` : ''}: set it to run this scenario against this target`);
  }
  return value as T;
}

function baseUrlOf(profile: TargetProfile, api: ApiName): string {
  if (api === 'platform') return profile.platformBaseUrl;
  if (api === 'audience') return requireSetting(profile.audienceBaseUrl, 'SVC_AUDIENCE_BASE_URL');
  return requireSetting(profile.testHostBaseUrl, 'SVC_TEST_HOST_BASE_URL');
}

function buildQuery(query: CallOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => params.append(k, String(x)));
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

const ATTACHMENT_BODY_LIMIT = 16_000;

/**
 * Annotation types of contract findings, one per tier, so HTML, JUnit (properties, with
 * embedAnnotationsAsProperties) and Allure (steps) show them apart, and
 * reports/tier-summary-reporter.ts counts them at the end of a run:
 *   stated         `contract failure`  gating; the test fails with it
 *   inferred       `inferred`          (the same type scenarios/inferred.ts uses) a warning,
 *                                      gating only under SVC_STRICT=1
 *   informational  `contract warning`  never gating
 * Each tier seen in a test also becomes an Allure label `tier` (allure-js-commons `label`,
 * sent as a runtime message: allure-playwright reads annotations only when a test begins,
 * so annotations added while it runs never reach Allure as labels).
 */
export { TIER_ANNOTATION };
export const ALLURE_TIER_LABEL = 'tier';

/** Statuses at and above this are the service's own failure (RFC 9110 §15.6). */
const SERVER_ERROR = 500;
const SNIPPET_CHARS = 200;

/** JSON, or a JSON-family type such as `application/vnd.svc.api.v1+json` (RFC 6839). */
function isJsonFamily(contentType: string): boolean {
  const bare = contentType.split(';')[0].trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json') || bare === 'text/json';
}

function oneLine(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function truncateForReport(text: string): string {
  return text.length > ATTACHMENT_BODY_LIMIT ? `${text.slice(0, ATTACHMENT_BODY_LIMIT)}\n… (${text.length - ATTACHMENT_BODY_LIMIT} more characters)` : text;
}

export class CheckedClient {
  private audienceToken?: string;
  /** Exchanges of this test, for assertions that compare requests (e.g. versions). */
  readonly exchanges: Exchange[] = [];
  httpMs = 0;
  requests = 0;

  constructor(
    readonly profile: TargetProfile,
    private readonly contract: Contract,
    private readonly redactor: Redactor,
    private readonly testInfo: TestInfo,
    /**
     * Attach every exchange to the report (the default). The self-test turns it off: it
     * reads only pass/fail and the error, and 15 000 attachments per matrix cost more
     * runner time and report size (50 MB) than the scenarios themselves.
     */
    private readonly attachExchanges = true,
  ) {}

  /** Registers a secret learned at run time (tokens) so reports never show it. */
  secret(value: string | undefined): void {
    this.redactor.add(value);
  }

  get<T = any>(path: string, o: Omit<CallOptions, 'path' | 'method'> = {}) {
    return this.call<T>({ ...o, path, method: 'GET' });
  }
  post<T = any>(path: string, body?: unknown, o: Omit<CallOptions, 'path' | 'method' | 'body'> = {}) {
    return this.call<T>({ ...o, path, body, method: 'POST' });
  }
  put<T = any>(path: string, body?: unknown, o: Omit<CallOptions, 'path' | 'method' | 'body'> = {}) {
    return this.call<T>({ ...o, path, body, method: 'PUT' });
  }
  delete<T = any>(path: string, o: Omit<CallOptions, 'path' | 'method'> = {}) {
    return this.call<T>({ ...o, path, method: 'DELETE' });
  }

  private async authHeaders(api: ApiName, auth: CallOptions['auth']): Promise<Record<string, string>> {
    if (auth === 'none') return {};
    if (auth && typeof auth === 'object') {
      if ('bearer' in auth) return { authorization: `Bearer ${auth.bearer}` };
      return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}` };
    }
    const p = this.profile;
    if (api === 'platform') {
      const user = requireSetting(p.clientId, 'SVC_CLIENT_ID');
      const pass = requireSetting(p.apiKey, 'SVC_API_KEY');
      return { authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` };
    }
    if (api === 'test-host') {
      // Endpoints, "Earlier-generation test paths": SVC-API-Key and SVC-Client-ID headers.
      return {
        'SVC-API-Key': requireSetting(p.apiKey, 'SVC_API_KEY'),
        'SVC-Client-ID': requireSetting(p.clientId, 'SVC_CLIENT_ID'),
      };
    }
    return { authorization: `Bearer ${await this.audienceAccessToken()}` };
  }

  /**
   * Authentication 5: client_id / client_secret produce an access token used as
   * Bearer on every audience endpoint. The token endpoint's shape is not shown in the
   * specification: the profile names its URL (SVC_AUDIENCE_TOKEN_URL) and this sends
   * the usual OAuth 2.0 client-credentials form (RFC 6749 §4.4), Basic-authenticated.
   */
  async audienceAccessToken(): Promise<string> {
    if (this.audienceToken) return this.audienceToken;
    const a = this.profile.audience;
    const url = requireSetting(a.tokenUrl, 'SVC_AUDIENCE_TOKEN_URL');
    const id = requireSetting(a.clientId, 'SVC_AUDIENCE_CLIENT_ID');
    const secret = requireSetting(a.clientSecret, 'SVC_AUDIENCE_CLIENT_SECRET');
    const started = performance.now();
    const res = await undiciRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      headersTimeout: this.profile.timeouts.requestMs,
      bodyTimeout: this.profile.timeouts.requestMs,
    });
    const text = await res.body.text();
    this.httpMs += performance.now() - started;
    this.requests++;
    const contentType = String(res.headers['content-type'] ?? '(no content type)');
    const snippet = () => this.redactor.text(text.slice(0, 300));
    // Cause first (issue 11): a token endpoint that fails is named as the service failing,
    // with the same prefixes as `call`, before any "no access_token" complaint.
    if (res.statusCode >= 500) {
      throw new Error(`The service answered ${res.statusCode} (${contentType}) to the audience token request POST ${url}: ${snippet()}`);
    }
    let token: unknown;
    try {
      token = (JSON.parse(text) as { access_token?: unknown }).access_token;
    } catch (e) {
      if (res.statusCode >= 200 && res.statusCode < 300) {
        throw new Error(`The service answered a body that is not valid JSON: ${res.statusCode} ${contentType}, ${Buffer.byteLength(text)} bytes, to the audience token request POST ${url}: ${(e as Error).message}. Body: ${snippet()}`);
      }
    }
    if (res.statusCode !== 200 || typeof token !== 'string') {
      throw new Error(`Audience token endpoint ${url} answered ${res.statusCode} without an access_token: ${this.redactor.text(text.slice(0, 300))}`);
    }
    this.redactor.add(token);
    this.audienceToken = token;
    return token;
  }

  async call<T = any>(o: CallOptions): Promise<CheckedResponse<T>> {
    const api = o.api ?? 'platform';
    const method = (o.method ?? 'GET').toUpperCase();
    const version = o.version === null ? undefined : (o.version ?? (api === 'platform' ? currentVersion(this.profile) : undefined));
    const relative = `${o.path}${buildQuery(o.query)}`;
    const url = `${baseUrlOf(this.profile, api)}${relative}`;
    const headers: Record<string, string> = {
      accept: api === 'test-host' ? 'application/vnd.svc.legacy.v1+json' : 'application/json',
      ...(version ? { 'accept-version': version } : {}),
      ...(await this.authHeaders(api, o.auth)),
      ...o.headers,
    };
    let payload: string | undefined;
    if (o.rawBody !== undefined) payload = o.rawBody;
    else if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }

    const started = performance.now();
    const res = await undiciRequest(url, {
      method: method as 'GET',
      headers,
      body: payload,
      headersTimeout: this.profile.timeouts.requestMs,
      bodyTimeout: this.profile.timeouts.requestMs,
    });
    const text = await res.body.text();
    const durationMs = performance.now() - started;
    this.httpMs += durationMs;
    this.requests++;

    const responseHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    const status = res.statusCode;
    const contentType = responseHeaders['content-type'] ?? '';
    const expected = o.expectStatus === undefined ? undefined : Array.isArray(o.expectStatus) ? o.expectStatus : [o.expectStatus];
    const title = `${method} ${this.redactor.text(relative.split('?')[0])} → ${status}`;
    const target = `${api}${version ? `, Accept-Version ${version}` : ''}`;

    // Parse JSON when the Content-Type is JSON-family, or when it is not (or absent) but the
    // document expects JSON for this status (Endpoints: "Request and response bodies are
    // JSON"); content_type_conformance still reports a wrong or missing Content-Type.
    let body: unknown = text;
    let invalidJson: string | undefined;
    if (text.length && (isJsonFamily(contentType) || this.jsonDocumented(api, method, relative, status, version))) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        invalidJson = (e as Error).message;
      }
    }
    const exchange: Exchange = {
      api,
      version,
      request: { method, url: relative, headers, body: o.rawBody !== undefined ? o.rawBody : o.body },
      response: { status, headers: responseHeaders, body, durationMs },
    };
    this.exchanges.push(exchange);

    const failures = this.contract.check(exchange as never, {
      deprecationHeader: this.profile.versions.deprecationHeader,
      sunsetHeader: this.profile.versions.sunsetHeader,
      sunsetVersions: this.profile.versions.sunset ? [this.profile.versions.sunset] : [],
      // Inferred rules gate only under a strict profile; a header name the user set is enforced.
      strict: this.profile.strict,
      headerNamesExplicit: this.profile.versions.headerNamesExplicit,
      ...(o.only ? { only: o.only } : {}),
    }) as Failure[];
    if (this.attachExchanges) await this.attach(title, exchange, failures);

    // Cause first (issue 11): when the service itself misbehaves, the first line says so,
    // before any contract detail that would only be a consequence of it.
    const snippet = () => this.redactor.text(oneLine(text)) || '(empty)';
    if (status >= SERVER_ERROR && !expected?.includes(status)) {
      throw new Error(
        `The service answered ${status}${contentType ? ` (${contentType})` : ' (no Content-Type)'} to ${title.replace(/ → \d+$/, '')} (${target}): ${snippet()}`,
      );
    }
    // Error bodies are open (Errors: "Shape of error response bodies: not shown"): only a
    // body of a non-error status must be the JSON it claims to be.
    if (invalidJson !== undefined && status < 400) {
      throw new Error(
        `The service answered a body that is not valid JSON: ${status}${contentType ? ` ${contentType}` : ''}, ${Buffer.byteLength(text)} bytes, to ${title.replace(/ → \d+$/, '')} (${target}): ${invalidJson}. Body: ${snippet()}`,
      );
    }

    const errors = failures.filter((f) => f.severity === 'error');
    await this.annotate(failures);
    if (errors.length) {
      const shown = errors.slice(0, 10).map((f) => `  - ${this.redactor.text(formatFailure(f))}`);
      if (errors.length > shown.length) shown.push(`  … ${errors.length - shown.length} more (all in the attached exchange)`);
      const lines = shown.join('\n');
      const inferred = errors.filter((f) => tierOf(f) === 'inferred').length;
      const why = inferred ? ` (${inferred} of them inferred, gating because SVC_STRICT=1)` : '';
      throw new Error(`Contract check failed for ${title} (${target})${why}:\n${lines}`);
    }
    if (expected !== undefined && !expected.includes(status)) {
      throw new Error(`${title}: expected status ${expected.join(' or ')}, received ${status}. Body: ${this.redactor.text(text.slice(0, 400))}`);
    }
    return { status, headers: responseHeaders, body: body as T, text, durationMs, failures };
  }

  /** Whether the document expects a JSON body for this status (used when the Content-Type is not JSON). */
  private jsonDocumented(api: ApiName, method: string, relative: string, status: number, version: string | undefined): boolean {
    try {
      const match = this.contract.findOperation(api, method, relative, api === 'platform' && version && this.contract.versions.includes(version) ? version : undefined);
      const documented = match ? documentedResponse(match.operation, status) : undefined;
      return !!documented?.media.some((m) => m.isJson);
    } catch {
      return false;
    }
  }

  /**
   * One annotation per failure, typed by tier (TIER_ANNOTATION), plus one Allure label per
   * tier seen in the test. Gating ones too, so the reporters count every tier.
   */
  private readonly labelledTiers = new Set<Tier>();

  private async annotate(failures: Failure[]): Promise<void> {
    for (const f of failures) {
      const tier = tierOf(f);
      this.testInfo.annotations.push({ type: TIER_ANNOTATION[tier], description: this.redactor.text(formatFailure(f)) });
      // One label per tier and test; not in the self-test, whose only reporter is JSON.
      if (this.attachExchanges && !this.labelledTiers.has(tier)) {
        this.labelledTiers.add(tier);
        await allureLabel(ALLURE_TIER_LABEL, tier);
      }
    }
  }

  private async attach(title: string, exchange: Exchange, failures: Failure[]): Promise<void> {
    const r = this.redactor;
    const record = {
      api: exchange.api,
      version: exchange.version,
      request: {
        method: exchange.request.method,
        url: r.text(exchange.request.url),
        headers: r.headers(exchange.request.headers),
        body: r.json(exchange.request.body),
      },
      response: {
        status: exchange.response.status,
        headers: r.headers(exchange.response.headers),
        body: r.json(exchange.response.body),
        durationMs: Math.round((exchange.response.durationMs ?? 0) * 10) / 10,
      },
      failures: failures.map((f) => ({ ...f, message: r.text(f.message) })),
    };
    await this.testInfo.attach(`${String(this.requests).padStart(3, '0')} ${title}`, {
      body: truncateForReport(JSON.stringify(record, null, 2)),
      contentType: 'application/json',
    });
  }
}

export interface PollOptions {
  /** What is being waited for, for the timeout message. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

export type Poll = <T>(read: () => Promise<T>, done: (value: T) => boolean, o: PollOptions) => Promise<{ value: T; seen: T[] }>;

function makePoll(profile: TargetProfile): Poll {
  return async (read, done, o) => {
    const timeoutMs = o.timeoutMs ?? profile.timeouts.aggregationMs;
    const intervalMs = o.intervalMs ?? profile.timeouts.pollIntervalMs;
    const deadline = performance.now() + timeoutMs;
    const seen = [];
    for (;;) {
      const value = await read();
      seen.push(value);
      if (done(value)) return { value, seen };
      if (performance.now() >= deadline) {
        throw new Error(
          `Timed out after ${timeoutMs} ms (SVC_AGGREGATION_TIMEOUT_MS) waiting for ${o.what}; last seen: ${JSON.stringify(value).slice(0, 400)}`,
        );
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  };
}

type WorkerFixtures = { contract: Contract; profile: TargetProfile; selftestSimulator: SelftestProjectMetadata | undefined; selftestSimulatorUrl: string | undefined };
type TestFixtures = { api: CheckedClient; poll: Poll; targetGuard: void; selftestKeepWorker: void };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  /**
   * The self-test's per-project simulator (playwright.config.ts, SVC_SELFTEST_PLAN):
   * when the project's metadata names faults/variations, this worker builds its own
   * simulator in-process with them and listens on a free 127.0.0.1 port. Without that
   * metadata (npm run conformance) it is undefined and the profile is the usual one
   * (globalSetup's simulator or the real target).
   */
  selftestSimulator: [
    async ({}, use, workerInfo) => {
      await use(workerInfo.project.metadata?.[SELFTEST_METADATA_KEY] as SelftestProjectMetadata | undefined);
    },
    { scope: 'worker' },
  ],
  selftestSimulatorUrl: [
    async ({ selftestSimulator: meta }, use) => {
      if (!meta) return use(undefined);
      // The project's metadata is the one source of what is in force here, never SVC_SIM_*.
      const env = { ...process.env, ...meta.env, SVC_SIM_FAULTS: undefined, SVC_SIM_VARIATIONS: undefined };
      const target = await startTarget({ env, faults: meta.faults, variations: meta.variations, simulator: true });
      try {
        await use(target.url);
      } finally {
        await target.close();
      }
    },
    { scope: 'worker' },
  ],
  profile: [
    async ({ selftestSimulator: meta, selftestSimulatorUrl }, use) => {
      // The self-test is about the simulator: its URL wins over any SVC_BASE_URL. The
      // entry's env (SelftestProjectMetadata.env: SVC_STRICT=1 for an inferred fault, or
      // the header names) is laid over the process environment.
      await use(selftestSimulatorUrl ? loadProfile({ ...process.env, ...meta?.env, SVC_BASE_URL: undefined, SVC_SIMULATOR_URL: selftestSimulatorUrl }) : loadProfile());
    },
    { scope: 'worker' },
  ],
  contract: [
    async ({}, use) => {
      await use(await loadContract());
    },
    { scope: 'worker' },
  ],
  /**
   * Self-test only (a fault's project, see SelftestProjectMetadata): a failed or
   * timed-out scenario is what a fault is expected to produce, and the self-test reads each result's own status
   * from the JSON report. Marking the outcome as expected here (after the test body, before
   * Playwright decides) keeps the worker: Playwright otherwise discards a worker after every
   * unexpected failure, and a new worker (runner, simulator, contract compilation) costs
   * seconds per caught fault. The worker's simulator and contract hold no per-test state a
   * failure could spoil: every scenario creates its own user.
   */
  selftestKeepWorker: [
    async ({ selftestSimulator }, use, testInfo) => {
      await use();
      if (selftestSimulator?.keepWorkerOnFailure && (testInfo.status === 'failed' || testInfo.status === 'timedOut') && testInfo.expectedStatus === 'passed') {
        testInfo.annotations.push({ type: SELFTEST_FAILURE_ANNOTATION, description: testInfo.status });
        testInfo.expectedStatus = testInfo.status;
      }
    },
    { auto: true },
  ],
  targetGuard: [
    async ({ profile }, use, testInfo) => {
      if (profile.isProduction && !profile.allowDestructive) {
        if (testInfo.tags.includes('@destructive')) {
          testInfo.skip(true, 'destructive scenario skipped on production: set SVC_ALLOW_DESTRUCTIVE=I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION to run it');
        } else if (!testInfo.tags.includes('@readonly')) {
          testInfo.skip(true, 'only @readonly scenarios run on production unless SVC_ALLOW_DESTRUCTIVE opts in');
        }
      }
      await use();
    },
    { auto: true },
  ],
  api: async ({ profile, contract, selftestSimulator }, use, testInfo) => {
    const redactor = createRedactor([
      ...profileSecrets(profile),
      ...Object.values(profile.testInstitution.passwords),
    ]);
    const client = new CheckedClient(profile, contract, redactor, testInfo, !selftestSimulator);
    await use(client);
    if (client.requests) {
      mkdirSync(TIMING_DIR, { recursive: true });
      appendFileSync(
        `${TIMING_DIR}/${process.pid}.jsonl`,
        `${JSON.stringify({ test: testInfo.titlePath.join(' › '), project: testInfo.project.name, requests: client.requests, httpMs: client.httpMs, testMs: testInfo.duration })}\n`,
      );
    }
  },
  poll: async ({ profile }, use) => {
    await use(makePoll(profile));
  },
});
