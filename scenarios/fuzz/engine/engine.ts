/**
 * The fuzz engine, independent of Playwright so the bench (scenarios/fuzz/
 * bench.ts) and the spec (scenarios/fuzz/fuzz.spec.ts) run the same code:
 *
 *   send(case)     one HTTP request (the bounded transport of targets/), base URL and
 *                  credentials from the profile (targets/client.ts) and the chains
 *   exchange(case) send, then contract.checkReceived with `generated` set: the body parsed
 *                  as the document says, the response checks of contracts/checks.ts plus
 *                  the Schemathesis-style checks of contracts/generated.ts; the profile's
 *                  check options (targets/client.ts checkOptionsOf) as everywhere
 *   fuzzOperation  fc.check of one operation's case arbitrary: a failing case is shrunk
 *                  to a minimal one, reported as a curl line with secrets redacted and
 *                  the seed that replays it (SVC_FUZZ_SEED)
 */
import {
  installedAsDependency,
  BASE_URL_SETTING,
  baseUrlOf,
  basicAuthorization,
  boundsOf,
  checkOptionsOf,
  requestBounded,
  type Redactor,
  type TargetProfile,
} from '../../../targets/index.ts';
import fc from 'fast-check';
import { formatFailure, tierOf, type Contract, type Failure } from '../../../contracts/index.ts';
import { caseArbitrary, reachCases, statedCases, type Example, type FuzzCase, type KnownIds, type OperationSpec, type RequestContext } from './requests.ts';

/**
 * How a team replays a fuzz case: the installed command in a team's project (its own
 * `playwright test` has no fuzz project), Playwright directly in this project's checkout.
 */
const REPLAY_COMMAND = installedAsDependency() ? 'npx svc-conformance run --project fuzz' : 'npx playwright test --project fuzz';
import { currentRunId, suiteId, suitePrefix, type CreatedUsers } from '../../cleanup.ts';

export interface Credentials {
  /** Data exchange token (chains: POST .../token). */
  threeDxToken?: string;
  /** Audience access token (Authentication 5). */
  audienceToken?: string;
}

export interface FuzzTarget {
  profile: TargetProfile;
  contract: Contract;
  redactor: Redactor;
  /** Identifiers that exist, for an operation (chains.ts knownFor). */
  known: (spec: OperationSpec) => KnownIds;
  /** Accept-Version values sent besides the documents' (a sunset one, an unknown one). */
  otherVersions?: { sunset?: string; unknown?: string };
  /** An accepted request of the operation (chains), the base of its negative cases. */
  example?: (spec: OperationSpec) => Example | undefined;
  credentials: Credentials;
  ctx: RequestContext;
  /** Records every user a case or a chain step created, for the teardown (scenarios/cleanup.ts). */
  createdUsers?: CreatedUsers;
}

export interface Sent {
  status: number;
  headers: Record<string, string>;
  text: string;
  url: string;
  requestHeaders: Record<string, string>;
  payload?: string;
}

/** Connections per origin of the fuzzer's pool (targets/http.ts keeps one pool per size and bounds). */
const FUZZ_CONNECTIONS = 8;

/**
 * Loopback only for the embedded simulator (fuzzing sends invalid and unbounded requests): a simulator profile whose URL
 * is not 127.0.0.1/localhost/::1 is refused, never fuzzed.
 */
export function assertLoopback(profile: TargetProfile): void {
  if (!profile.isSimulator) return;
  const host = new URL(profile.platformBaseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`The fuzz project fuzzes the embedded simulator on loopback only; SVC_SIMULATOR_URL names ${host}`);
  }
}

function queryString(q: Array<[string, string]>): string {
  if (!q.length) return '';
  const p = new URLSearchParams();
  for (const [k, v] of q) p.append(k, v);
  return `?${p.toString()}`;
}

/** The headers of a case: Accept, version, credentials (as the case's auth kind says), its own. */
export function headersOf(
  c: FuzzCase,
  spec: Pick<OperationSpec, 'security' | 'accept'>,
  t: Pick<FuzzTarget, 'profile' | 'credentials'>,
): Record<string, string> {
  const p = t.profile;
  const h: Record<string, string> = { accept: spec.accept ?? 'application/json' };
  if (c.api === 'platform' && c.version) h['accept-version'] = c.version;
  for (const s of spec.security) {
    if (c.auth === 'none') break;
    const wrong = c.auth === 'wrong';
    if (s.type === 'basic' && p.clientId && p.apiKey) h.authorization = basicAuthorization(p.clientId, wrong ? `${p.apiKey}-wrong` : p.apiKey);
    else if (s.type === 'bearer' && t.credentials.audienceToken)
      h.authorization = `Bearer ${wrong ? `${t.credentials.audienceToken}-wrong` : t.credentials.audienceToken}`;
    else if (s.type === 'header' && s.header) {
      const lower = s.header.toLowerCase();
      if (c.omitHeader && lower === c.omitHeader.toLowerCase()) continue;
      const value =
        lower === 'svc-3dx-token' ? t.credentials.threeDxToken : lower === 'svc-api-key' ? p.apiKey : lower === 'svc-client-id' ? p.clientId : undefined;
      // A wrong secret changes the secret only (the API key), never the identifier.
      if (value) h[s.header] = wrong && lower !== 'svc-client-id' ? `${value}-wrong` : value;
    }
  }
  return { ...h, ...c.headers };
}

export async function send(c: FuzzCase, spec: OperationSpec, t: FuzzTarget): Promise<Sent> {
  const base = baseUrlOf(t.profile, c.api);
  if (!base) throw new Error(`no base URL for the ${c.api} API in this profile`);
  const url = `${base}${c.path}${queryString(c.query)}`;
  const requestHeaders = headersOf(c, spec, t);
  let payload: string | undefined;
  if (c.rawBody !== undefined) payload = c.rawBody;
  else if (c.body !== undefined) payload = JSON.stringify(c.body);
  if (payload !== undefined) requestHeaders['content-type'] = 'application/json';
  const res = await requestBounded(
    {
      method: c.method,
      url,
      headers: requestHeaders,
      body: payload,
      operation: c.operation,
      urlSetting: BASE_URL_SETTING[c.api],
      redact: (x) => t.redactor.text(x),
      connections: FUZZ_CONNECTIONS,
    },
    boundsOf(t.profile),
  );
  return { status: res.status, headers: res.headers, text: res.text, url, requestHeaders, payload };
}

/** A case sent and judged: its answer, the body as the contract read it, and every finding. */
export interface Judged extends Sent {
  body: unknown;
  failures: Failure[];
}

/**
 * A drawn create-user case with the suite's `id` (scenarios/cleanup.ts): a user the fuzzer
 * creates is deleted at teardown, and one an interrupted run leaves is found by its `id`
 * (Resources: "Clients are advised to set their own `id` (string) on every resource they
 * create"). A drawn string id is kept after the run's prefix, so the case still sends
 * what was drawn and two equal drawn ids stay equal (a second create with one id may be
 * refused, as before); a user object without an id gets a fresh one. Any other case is
 * returned as is: an id of another type is the case's point (a refused request creates
 * nothing, and a user it creates anyway is deleted by its guid).
 */
function withSuiteUserId(c: FuzzCase): FuzzCase {
  if (c.api !== 'platform' || c.method !== 'POST' || c.path.split('?')[0] !== '/users' || c.rawBody !== undefined) return c;
  const body = c.body as { user?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !body.user || typeof body.user !== 'object' || Array.isArray(body.user)) return c;
  const user = body.user as Record<string, unknown>;
  if (user.id !== undefined && typeof user.id !== 'string') return c;
  const id = user.id === undefined ? suiteId('fuzz-user') : `${suitePrefix(currentRunId())}fuzz-${user.id}`;
  return { ...c, body: { ...body, user: { ...user, id } } };
}

/**
 * Every finding of one answer: the contract's response checks and the generated-case
 * checks, the body parsed as the document says (contract.checkReceived). A user the case
 * created is recorded for the teardown.
 */
export function judge(c: FuzzCase, sent: Sent, t: Pick<FuzzTarget, 'profile' | 'contract' | 'createdUsers'>): Judged {
  const { failures, body } = t.contract.checkReceived(
    {
      api: c.api,
      ...(c.version ? { version: c.version } : {}),
      request: { method: c.method, url: `${c.path}${queryString(c.query)}`, headers: sent.requestHeaders, body: c.rawBody ?? c.body },
      response: { status: sent.status, headers: sent.headers, text: sent.text },
    },
    { ...checkOptionsOf(t.profile), generated: c.generated },
  );
  t.createdUsers?.observe({ api: c.api, method: c.method, path: c.path, status: sent.status, requestBody: c.body, responseBody: body });
  return { ...sent, body, failures };
}

/** Sends a case (paced, 429 retried) and judges its answer. */
export async function exchange(c: FuzzCase, spec: OperationSpec, t: FuzzTarget, retries = 3): Promise<Judged> {
  return judge(c, await sendPaced(c, spec, t, retries), t);
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The request as a curl line, every credential redacted (targets/profiles/redact.ts). */
export function curlOf(sent: Pick<Sent, 'url' | 'requestHeaders' | 'payload'>, method: string, redactor: Redactor): string {
  const parts = ['curl', '-i', '-X', method, shellQuote(redactor.text(sent.url))];
  for (const [k, v] of Object.entries(redactor.headers(sent.requestHeaders))) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (sent.payload !== undefined) {
    let shown = sent.payload;
    try {
      shown = JSON.stringify(redactor.json(JSON.parse(sent.payload)));
    } catch {
      /* not JSON: sent as is */
    }
    parts.push('--data-raw', shellQuote(redactor.text(shown)));
  }
  return parts.join(' ');
}

/** Tallies of one run, per check and tier (warnings included), and the cases sent. */
export interface FuzzStats {
  cases: number;
  /** `platform GET /institutions` -> cases sent. */
  operations: Map<string, number>;
  /** check -> tier -> count of findings. */
  findings: Map<string, Record<'stated' | 'inferred' | 'informational', number>>;
  statuses: Map<number, number>;
  rateLimited: number;
  /** Non-gating findings of the generated-case checks (`check operation: message`), first 200, for the report. */
  warnings: string[];
}

export function newStats(): FuzzStats {
  return { cases: 0, operations: new Map(), findings: new Map(), statuses: new Map(), rateLimited: 0, warnings: [] };
}

function tally(stats: FuzzStats, c: FuzzCase, status: number, failures: Failure[]): void {
  stats.cases++;
  const id = `${c.api} ${c.operation}`;
  stats.operations.set(id, (stats.operations.get(id) ?? 0) + 1);
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
  if (status === 429) stats.rateLimited++;
  for (const f of failures) {
    let row = stats.findings.get(f.check);
    if (!row) stats.findings.set(f.check, (row = { stated: 0, inferred: 0, informational: 0 }));
    row[tierOf(f)]++;
    if (f.severity === 'warning' && tierOf(f) !== 'informational' && stats.warnings.length < 200)
      stats.warnings.push(`${f.check} ${c.operation}${c.version ? ` (${c.version})` : ''}: ${f.message}`);
  }
}

/** One failing case, shrunk: what a person needs to reproduce it. */
export interface Counterexample {
  operation: string;
  checks: string[];
  failures: string[];
  curl: string;
  seed: number;
  path?: string;
  kind: string;
  numShrinks: number;
}

class CaseFailed extends Error {
  constructor(
    readonly errors: Failure[],
    readonly curl: string,
    readonly c: FuzzCase,
  ) {
    super(errors.map((f) => formatFailure(f)).join('\n'));
  }
}

export interface FuzzOptions {
  seed: number;
  numRuns: number;
  /** performance.now() bound: no case starts after it. */
  deadline: number;
  stats: FuzzStats;
  /** Retry a 429 after a pause (Errors: 429 is the rate limit, not a verdict on the case). */
  retries429?: number;
}

/**
 * A token bucket below the target's request limit (profile.rateLimit.perSecond; Errors:
 * 429 when the limit is exceeded): the fuzzer keeps under it instead of collecting 429s.
 */
export class Pacer {
  private tokens: number;
  private last = performance.now();
  /** A tenth of a second's requests, and at least one: below 10 a second a bucket of rate / 10 could never hold a request. */
  private readonly capacity: number;
  constructor(private readonly perSecond: number | undefined) {
    this.capacity = perSecond ? Math.max(1, perSecond / 10) : 0;
    this.tokens = this.capacity;
  }
  async take(): Promise<void> {
    const rate = this.perSecond;
    if (!rate) return;
    for (;;) {
      const now = performance.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / rate) * 1000)));
    }
  }
}

/** Pacers per rate, shared by every sender of a process (one client, one limit). */
const pacers = new Map<number, Pacer>();
/**
 * The pacer of a profile: `share` of its request limit (profile.fuzz.rateShare,
 * SVC_FUZZ_RATE_SHARE: under Playwright the other projects' scenarios use the same client
 * and its limit, so the fuzzer takes only a share of it; a caller alone on the target may
 * take more), or none when the limit is unknown.
 */
function pacerOf(profile: TargetProfile, share = profile.fuzz.rateShare): Pacer {
  const rate = profile.rateLimit.perSecond ? Math.floor(profile.rateLimit.perSecond * share) : 0;
  let p = pacers.get(rate);
  if (!p) pacers.set(rate, (p = new Pacer(rate || undefined)));
  return p;
}

/** Sends a case, pausing and retrying while the target answers 429. */
async function sendPaced(c: FuzzCase, spec: OperationSpec, t: FuzzTarget, retries = 3): Promise<Sent> {
  const pacer = pacerOf(t.profile);
  await pacer.take();
  let sent = await send(c, spec, t);
  for (let i = 0; i < retries && sent.status === 429; i++) {
    await new Promise((r) => setTimeout(r, 120 * (i + 1)));
    await pacer.take();
    sent = await send(c, spec, t);
  }
  return sent;
}

/**
 * Runs one operation's property. Returns the shrunk counterexample when a case breaks a
 * gating rule (an error-severity failure), else undefined; findings of every tier land
 * in `stats`.
 */
export async function fuzzOperation(spec: OperationSpec, t: FuzzTarget, o: FuzzOptions, pathMethods?: Set<string>): Promise<Counterexample | undefined> {
  const caseOptions = {
    known: t.known(spec),
    example: t.example?.(spec),
    pathMethods,
    otherVersions: t.otherVersions,
    missingHeaders: t.credentials.threeDxToken ? [] : ['svc-3dx-token'],
  };
  const arb = caseArbitrary(spec, t.ctx, caseOptions);
  // Every stated requirement broken alone, tried first in every run (then shrunk like any case).
  const examples = statedCases(spec, t.ctx, caseOptions).map((c) => [withSuiteUserId(c)] as [FuzzCase]);
  const remaining = Math.max(0, o.deadline - performance.now());
  if (remaining < 50) return undefined;
  const property = fc.asyncProperty(arb.map(withSuiteUserId), async (c) => {
    const sent = await exchange(c, spec, t, o.retries429 ?? 3);
    tally(o.stats, c, sent.status, sent.failures);
    const errors = sent.failures.filter((f) => f.severity === 'error');
    if (errors.length) throw new CaseFailed(errors, curlOf(sent, c.method, t.redactor), c);
  });
  const out = await fc.check(property, {
    seed: o.seed,
    numRuns: o.numRuns,
    examples,
    interruptAfterTimeLimit: remaining,
    markInterruptAsFailure: false,
    endOnFailure: false,
  });
  if (!out.failed) return undefined;
  const err = out.errorInstance as CaseFailed | undefined;
  // The time budget ran out (interruptAfterTimeLimit): no verdict, not a failure.
  if (!(err instanceof CaseFailed) && (out.interrupted || err === null || err === undefined)) return undefined;
  if (!(err instanceof CaseFailed)) {
    return {
      operation: spec.key,
      checks: ['fuzz-engine'],
      failures: [String((out.errorInstance as Error)?.message ?? out.errorInstance)],
      curl: '(no request: the engine failed)',
      seed: out.seed,
      path: out.counterexamplePath ?? undefined,
      kind: '?',
      numShrinks: out.numShrinks,
    };
  }
  return {
    operation: err.c.operation,
    checks: [...new Set(err.errors.map((f) => f.check))],
    failures: err.errors.map((f) => t.redactor.text(formatFailure(f))),
    curl: err.curl,
    seed: out.seed,
    path: out.counterexamplePath ?? undefined,
    kind: err.c.generated.kind,
    numShrinks: out.numShrinks,
  };
}

/**
 * The reach pass (requests.ts reachCases): the operation's deterministic cases, each sent
 * once, before any drawn case. The first one that breaks a gating rule is the operation's
 * counterexample (already minimal: one read, one bound, one rule broken).
 */
export async function reachOperation(
  spec: OperationSpec,
  t: FuzzTarget,
  o: Pick<FuzzOptions, 'deadline' | 'stats' | 'retries429'>,
  pathMethods?: Set<string>,
): Promise<Counterexample | undefined> {
  const cases = reachCases(spec, t.ctx, {
    known: t.known(spec),
    example: t.example?.(spec),
    pathMethods,
    otherVersions: t.otherVersions,
    missingHeaders: t.credentials.threeDxToken ? [] : ['svc-3dx-token'],
  }).map(withSuiteUserId);
  for (const c of cases) {
    if (performance.now() >= o.deadline) return undefined;
    const sent = await exchange(c, spec, t, o.retries429 ?? 3);
    tally(o.stats, c, sent.status, sent.failures);
    const errors = sent.failures.filter((f) => f.severity === 'error');
    if (errors.length) {
      return {
        operation: c.operation,
        checks: [...new Set(errors.map((f) => f.check))],
        failures: errors.map((f) => t.redactor.text(formatFailure(f))),
        curl: curlOf(sent, c.method, t.redactor),
        seed: 0,
        kind: c.generated.kind,
        numShrinks: 0,
      };
    }
  }
  return undefined;
}

/** A stable per-operation seed from the run seed, so one operation replays alone. */
export function seedFor(runSeed: number, key: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

export function renderCounterexample(x: Counterexample, runSeed: number): string {
  return [
    `${x.operation} — ${x.checks.join(', ')} (case kind ${x.kind}, shrunk ${x.numShrinks} times)`,
    ...x.failures.map((f) => `  ${f}`),
    `  reproduce: ${x.curl}`,
    `  replay: SVC_FUZZ_SEED=${runSeed} SVC_FUZZ_ONLY=${JSON.stringify(x.operation)} ${REPLAY_COMMAND} (operation seed ${x.seed}${x.path ? `, shrink path ${x.path}` : ''})`,
  ].join('\n');
}
