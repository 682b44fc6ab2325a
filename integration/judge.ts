/**
 * Judging an integration's traffic (../shared/DESIGN.md, "What it is for" 4): every API
 * exchange through `contract.check` with its request judged too (contracts/requests.ts:
 * `requestChecks`), the same tiers and Failure shape as the suites; and what only a whole
 * session shows, the OAuth window rules (Endpoints, OAuth procedure for members 2: the
 * returned `oauth_window_uri` "is one-time use and must not be hard-coded or given a
 * protocol prefix by the client"; Limits: `oauth_window_uri` single use).
 *
 * How a recording can see the OAuth window rules: it sees the service RETURN each
 * `oauth_window_uri` (in a member, or a fresh one) and sees the integration (its browser)
 * LOAD a URL. A load of a returned URI is counted (a second load breaks single use); a
 * load of the returned URI with a protocol prefix the service did not give breaks the
 * prefix rule; a load of a URL in the family of the returned ones (same host and path up to
 * the last segment) that the service never returned in this session before the load is a
 * hard-coded URI. A session that never creates an OAuth member cannot show the last one.
 *
 * The proxy feeds exchanges one by one (`TrafficJudge.add`, after the answer went out);
 * a HAR file is judged at once (`judgeTraffic`).
 */
import {
  countByTier,
  loadContract,
  REQUEST_CHECKS,
  severityOfTier,
  type ApiName,
  type CheckedExchange,
  type CheckOptions,
  type Contract,
  type Failure,
  type ReceivedExchange,
  type Tier,
} from '../contracts/index.ts';
import { locateApi, type ApiBases } from '../targets/index.ts';
import type { RecordedExchange } from './har.ts';

/** Absolute URL prefixes of each API (targets/client.ts): an exchange belongs to the longest that matches. */
export type { ApiBases };

export interface JudgeOptions {
  bases: ApiBases;
  /** The contract checks' options of the profile (strict, header names, sunset versions). */
  check: Omit<CheckOptions, 'requestChecks' | 'only' | 'generated'>;
  /** False for a HAR without any credential header (exported sanitized): authentication is not judged. */
  credentialsRecorded: boolean;
  /** The target's deprecated version and day (profile.versions.deprecated): noted when the traffic uses it. */
  deprecatedVersion?: { version: string; on: string };
  contract?: Contract;
}

export type ExchangeKind = 'api' | 'returned-url' | 'other' | 'no-answer';

export interface JudgedExchange {
  index: number;
  startedAt: string;
  method: string;
  url: string;
  kind: ExchangeKind;
  api?: ApiName;
  /** `POST /users/{user_guid}/members`, or the concrete path when no operation matched. */
  operation?: string;
  /** Accept-Version sent. */
  version?: string;
  status?: number;
  durationMs?: number;
  failures: Failure[];
}

export interface TrafficReport {
  /** What was judged: `proxy → http://...` or `HAR file x.har (creator)`. */
  source: string;
  exchanges: JudgedExchange[];
  /** Findings of the session as a whole (the OAuth window rules). */
  session: Failure[];
  /** Context that is not a finding (a sanitized HAR, a deprecated version in use, ignored entries). */
  notes: string[];
  strict: boolean;
  /** Set when no API exchange was judged: the gate checked nothing (traffic.ts `checkedNothingOf`). */
  checkedNothing?: CheckedNothing;
  /**
   * Set when the test command the proxy ran failed (a non-zero exit, or stopped at its bound):
   * the gate fails whatever the traffic shows, and every report says so (a JUnit reader saw
   * a green file beside exit 1).
   */
  commandFailure?: string;
}

/**
 * Why a gate checked nothing, and whether it may pass anyway. "A gate that checked nothing
 * is not green": a recording without any API exchange, or a tolerance baseline during which
 * the test command sent no request to the simulator, fails (exit 1) unless `--allow-empty`
 * says otherwise, as `run` does for a run whose scenarios all skipped
 * (reports/empty-run-reporter.ts).
 */
export interface CheckedNothing {
  /** Why nothing was checked: `no request reached the proxy at http://...`, `the HAR holds no request`. */
  cause: string;
  /** What to change so that the gate checks something. */
  remedy: string;
  /** `--allow-empty`: the gate passes, saying so. */
  allowed: boolean;
}

const SESSION_RULES = {
  oauthWindow:
    'Endpoints, OAuth procedure for members 2: "Load the returned oauth_window_uri for the user. It is one-time use and must not be hard-coded or given a protocol prefix by the client"',
  singleUse: 'Limits: "oauth_window_uri | single use"; Endpoints, OAuth procedure for members 2: "It is one-time use"',
  prefix:
    'Resources, Member: oauth_window_uri "begins without the protocol prefix being added by the client (the service supplies it)"; OAuth procedure 2: it "must not be ... given a protocol prefix by the client"',
} as const;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A recorded request body: JSON when its type says so or it looks like JSON (the answer's body is parsed by contract.checkReceived). */
function parseBody(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || text === '') return text;
  const looksJson = (contentType && JSON_TYPE.test(contentType)) || /^\s*[[{]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `https://host/a/b/c?x` -> `host/a/b/` (the family of an OAuth window URI); scheme-less URIs too. */
function familyOf(uri: string): string | undefined {
  const bare = uri.replace(SCHEME, '').split(/[?#]/)[0];
  const slash = bare.lastIndexOf('/');
  return slash > 0 ? bare.slice(0, slash + 1).toLowerCase() : undefined;
}
const withoutScheme = (u: string) => u.replace(SCHEME, '');
/** A request that loads a page: GET, or HEAD (a link check spends a single-use URI as a GET does). */
const isLoad = (method: string) => method === 'GET' || method === 'HEAD';
const schemeOf = (u: string) => SCHEME.exec(u)?.[0];

/** Every string under a key naming a URL or URI (`oauth_window_uri`, `url`, `client_redirect_url`), with the key. */
function urlsIn(body: unknown, out: Array<{ key: string; value: string }> = [], depth = 0): Array<{ key: string; value: string }> {
  if (depth > 12 || body === null || typeof body !== 'object') return out;
  if (Array.isArray(body)) {
    for (const x of body) urlsIn(x, out, depth + 1);
    return out;
  }
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v === 'string' && /(^|_)(uri|url)$/i.test(k) && v.length > 0) out.push({ key: k, value: v });
    else if (v !== null && typeof v === 'object') urlsIn(v, out, depth + 1);
  }
  return out;
}

export class TrafficJudge {
  readonly exchanges: JudgedExchange[] = [];
  private readonly contract: Contract;
  /** Every URL the service returned (any *_url / *_uri field), without scheme, lower case host kept as given. */
  private readonly returned = new Set<string>();
  /** oauth_window_uri values returned, with the index of the exchange that first returned each. */
  private readonly issued = new Map<string, number>();
  /** GET and HEAD requests outside the APIs: candidate OAuth window loads. */
  private readonly loads: Array<{ index: number; url: string; method: string }> = [];
  private usedDeprecated = false;

  constructor(private readonly o: JudgeOptions) {
    this.contract = o.contract ?? loadContract();
  }

  add(e: RecordedExchange): JudgedExchange {
    const index = this.exchanges.length;
    const base = {
      index,
      startedAt: e.startedAt,
      method: e.request.method,
      url: e.request.url,
      ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
      failures: [] as Failure[],
    };
    let judged: JudgedExchange;
    if (!e.response) {
      judged = { ...base, kind: 'no-answer' };
    } else if (this.onReturnedPage(e.request.method, e.request.url)) {
      // The integration (or a browser it drives) loading a URL the service returned (an OAuth
      // window, a widget), or on an OAuth window's page (its own form): not an API call. A GET
      // or a HEAD loads it: each is a use of a single-use URI, which the service cannot tell apart.
      judged = { ...base, kind: 'returned-url', status: e.response.status };
      if (isLoad(e.request.method) && this.returned.has(withoutScheme(e.request.url))) this.loads.push({ index, url: e.request.url, method: e.request.method });
    } else {
      const at = locateApi(this.o.bases, e.request.url);
      // A page under the API's host that no operation describes (an OAuth window, a widget
      // page the service serves there): a load, not an API call.
      const page =
        at &&
        e.request.method === 'GET' &&
        !JSON_TYPE.test(e.response.headers['content-type'] ?? '') &&
        !this.contract.findOperation(at.api, 'GET', at.relative);
      if (!at || page) {
        judged = { ...base, kind: 'other', status: e.response.status };
        if (isLoad(e.request.method)) this.loads.push({ index, url: e.request.url, method: e.request.method });
      } else {
        judged = this.judgeApi(e, at, base);
      }
    }
    this.exchanges.push(judged);
    return judged;
  }

  /**
   * A load (GET, HEAD) of a URL the service returned, or any request to an oauth_window_uri
   * it returned or under it (`<oauth_window_uri>/decision`, the authorization page's form):
   * the page's, not the API's. Only the OAuth windows lend their paths: another returned URL
   * (a resource link, even the API's own base) must not take API calls out of judgement.
   */
  private onReturnedPage(method: string, url: string): boolean {
    const bare = withoutScheme(url);
    if (isLoad(method) && this.returned.has(bare)) return true;
    const path = bare.split(/[?#]/)[0];
    for (const uri of this.issued.keys()) {
      const page = withoutScheme(uri).split(/[?#]/)[0].replace(/\/+$/, '');
      if (page.includes('/') && (path === page || path.startsWith(`${page}/`))) return true;
    }
    return false;
  }

  private judgeApi(e: RecordedExchange, at: { api: ApiName; relative: string }, base: Omit<JudgedExchange, 'kind'>): JudgedExchange {
    const response = e.response!;
    const version = at.api === 'platform' ? e.request.headers['accept-version'] : undefined;
    if (version && version === this.o.deprecatedVersion?.version) this.usedDeprecated = true;
    const exchange: ReceivedExchange = {
      api: at.api,
      request: { method: e.request.method, url: at.relative, headers: e.request.headers, body: parseBody(e.request.body, e.request.headers['content-type']) },
      // A body above the recording bound is not read (judged empty: see below).
      response: { status: response.status, headers: response.headers, text: response.bodyTruncated ? '' : (response.body ?? '') },
    };
    const requestChecks = { credentialsRecorded: this.o.credentialsRecorded };
    let checked: CheckedExchange;
    let chosen: string | undefined;
    if (at.api === 'platform' && !version && this.contract.versions.length > 1) {
      // No Accept-Version: the service answered the version it chose, which is not shown
      // (Versioning). The request is judged without a version (request_version_header says
      // so; no version-bound request rule applies) and the answer against the version it
      // matches best, so a choice the integration left open raises no false alarm.
      const requestFailures = this.contract.checkReceived(exchange, { ...this.o.check, requestChecks, only: REQUEST_CHECKS }).failures;
      let best: { version: string; checked: CheckedExchange; errors: number } | undefined;
      for (const v of [...this.contract.versions].reverse()) {
        const c = this.contract.checkReceived({ ...exchange, version: v }, this.o.check);
        const errors = c.failures.filter((x) => x.severity === 'error').length;
        if (!best || errors < best.errors || (errors === best.errors && c.failures.length < best.checked.failures.length))
          best = { version: v, checked: c, errors };
      }
      checked = { ...best!.checked, failures: [...requestFailures, ...best!.checked.failures] };
      chosen = best!.version;
    } else {
      checked = this.contract.checkReceived(exchange, { ...this.o.check, requestChecks });
    }
    let failures = checked.failures;
    const responseBody = checked.body;
    // A body above the recording bound was not kept whole: only what does not read it is judged.
    if (response.bodyTruncated) failures = failures.filter((f) => !f.location.startsWith('response.body'));
    for (const { key, value } of urlsIn(responseBody)) {
      this.returned.add(withoutScheme(value));
      if (key === 'oauth_window_uri' && !this.issued.has(value)) this.issued.set(value, base.index);
    }
    return {
      ...base,
      kind: 'api',
      api: at.api,
      operation: checked.operation?.key ?? `${e.request.method} ${at.relative.split('?')[0]}`,
      ...(version ? { version } : chosen ? { version: `none sent; the answer matches ${chosen} best` } : {}),
      status: response.status,
      failures,
    };
  }

  /** The session's own findings (OAuth window rules) and notes; call once the traffic is complete. */
  finish(source: string, notes: string[] = []): TrafficReport {
    const session: Failure[] = [];
    const strict = !!this.o.check.strict;
    const failure = (rule: string, tier: Tier, load: { url: string; method: string }, message: string): Failure => ({
      check: 'oauth_window_uri_use',
      operation: `${load.method} ${load.url.split('?')[0]}`,
      location: 'request.url',
      rule,
      severity: severityOfTier(tier, strict),
      tier,
      message,
    });
    const families = new Set([...this.issued.keys()].map(familyOf).filter((f): f is string => !!f));
    const loadCount = new Map<string, number>();
    for (const load of this.loads) {
      // The returned URI this load is (as given, or with a scheme the integration added).
      const exact = [...this.issued].find(([uri, at]) => uri === load.url && at < load.index);
      const prefixed = exact
        ? undefined
        : [...this.issued].find(([uri, at]) => at < load.index && withoutScheme(uri) === withoutScheme(load.url) && schemeOf(uri) !== schemeOf(load.url));
      const uri = exact?.[0] ?? prefixed?.[0];
      if (uri !== undefined) {
        if (prefixed)
          session.push(
            failure(
              SESSION_RULES.prefix,
              'stated',
              load,
              `Received: a load of ${load.url} / The service returned ${uri}${schemeOf(uri) ? '' : ' without a protocol'}: load it exactly as returned (exchange #${load.index})`,
            ),
          );
        const n = (loadCount.get(uri) ?? 0) + 1;
        loadCount.set(uri, n);
        if (n === 2)
          session.push(
            failure(
              SESSION_RULES.singleUse,
              'stated',
              load,
              `Received: a second load of the same oauth_window_uri (exchange #${load.index}) / Expected: one load per returned URI; ask for a new one (a new member read or its oauth_window_uri)`,
            ),
          );
        continue;
      }
      const family = familyOf(load.url);
      if (family && families.has(family)) {
        const later = [...this.issued].some(([u]) => withoutScheme(u) === withoutScheme(load.url));
        session.push(
          failure(
            SESSION_RULES.oauthWindow,
            'stated',
            load,
            `Received: a load of an OAuth window URI the service ${later ? 'returned only after it was loaded' : 'never returned in this session'} (exchange #${load.index}) / Expected: the oauth_window_uri of this session's member, never a stored or hard-coded one`,
          ),
        );
      }
    }
    const out = [...notes];
    // A recording without any request says nothing about credentials; its verdict names that first (checkedNothing).
    if (!this.o.credentialsRecorded && this.exchanges.length)
      out.push(
        'The recording carries no credential header at all (a HAR exported "sanitized" drops Authorization, Cookie and API keys): authentication was not judged.',
      );
    if (this.usedDeprecated && this.o.deprecatedVersion) {
      const { version, on } = this.o.deprecatedVersion;
      const until = new Date(Date.parse(on));
      until.setUTCFullYear(until.getUTCFullYear() + 1);
      out.push(
        `Accept-Version ${version} is deprecated by the target since ${on}: Versioning, "A deprecated version remains usable for 12 months after its deprecation date" (until ${until.toISOString().slice(0, 10)}); plan the upgrade (svc-conformance versions --from ${version} --to <newer> --usage usage.json).`,
      );
    }
    const other = this.exchanges.filter((x) => x.kind === 'other').length;
    if (other) out.push(`${other} exchange(s) were no API call (pages, assets, other services): judged by the OAuth window rules only.`);
    const unanswered = this.exchanges.filter((x) => x.kind === 'no-answer').length;
    if (unanswered) out.push(`${unanswered} request(s) got no answer (refused, timed out or blocked): not judged.`);
    return { source, exchanges: this.exchanges, session, notes: out, strict };
  }
}

/**
 * Platform bases when none is given: the origins whose requests carry Accept-Version
 * (Endpoints: "Most endpoints accept the header Accept-Version"); an integration's HAR
 * also holds pages, assets and its own services.
 */
export function detectPlatformBases(exchanges: readonly RecordedExchange[]): string[] {
  const origins = new Set<string>();
  for (const e of exchanges) if (e.request.headers['accept-version']) origins.add(new URL(e.request.url).origin);
  return [...origins];
}

export function judgeTraffic(exchanges: readonly RecordedExchange[], o: JudgeOptions, source: string, notes: string[] = []): TrafficReport {
  const judge = new TrafficJudge(o);
  for (const e of exchanges) judge.add(e);
  return judge.finish(source, notes);
}

/** Every failure of a report: per exchange, then the session's. */
export function allFailures(r: TrafficReport): Failure[] {
  return [...r.exchanges.flatMap((x) => x.failures), ...r.session];
}

/** 1 when a failure gates (stated; inferred under a strict profile) or the traffic held no API exchange (unless allowed), else 0. */
export function trafficExitCode(r: TrafficReport): 0 | 1 {
  if (r.commandFailure) return 1;
  if (r.checkedNothing && !r.checkedNothing.allowed) return 1;
  return allFailures(r).some((f) => f.severity === 'error') ? 1 : 0;
}

export function trafficCounts(r: TrafficReport) {
  const api = r.exchanges.filter((x) => x.kind === 'api');
  return {
    exchanges: r.exchanges.length,
    api: api.length,
    returnedUrlLoads: r.exchanges.filter((x) => x.kind === 'returned-url').length,
    operations: new Set(api.map((x) => `${x.api} ${x.operation}`)).size,
    byTier: countByTier(allFailures(r)),
  };
}
