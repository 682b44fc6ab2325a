/**
 * The k6 modules as the runner provides them to a script instance (one per VU, plus
 * one init-only instance in the engine that reads `options` and runs handleSummary).
 * Semantics follow k6's documentation: requests are synchronous for the script (a VU
 * blocks until its response arrives), `check` emits to the `checks` rate, `group`
 * tags samples with the group path, metrics may only be created in the init context.
 */
import { EXECUTION_PROPERTIES, HTTP_PARAM_KEYS, SUPPORTED_MODULES, UnsupportedError, refusal } from './surface.ts';
import type { MetricDefinition, Tags } from './metrics.ts';
import type { MetricType } from './thresholds.ts';
import type { WireRequest, WireResponse } from './wire.ts';
import { parseDurationMs } from './duration.ts';

export interface ScenarioState {
  name: string;
  executor: string;
  startTime: number;
  tags: Tags;
  iterationInTest: number;
  vuIterationInScenario: number;
}

/** What a script instance needs from its VU (worker) or from the engine (init instance). */
export interface VuHost {
  vuId: number;
  /** True while init code runs, and always for the engine's init-only instance. */
  inInit: boolean;
  /** 'setup' | 'teardown' | 'iteration' | 'init' */
  stage: string;
  scenario?: ScenarioState;
  vuIterationInInstance: number;
  /** options.discardResponseBodies: bodies are dropped unless a request asks for responseType "text". */
  discardResponseBodies: boolean;
  send(requests: WireRequest[]): WireResponse[];
  sleepMs(ms: number): void;
  emit(metric: string, value: number, tags: Tags): void;
  defineMetric(def: MetricDefinition): void;
  abort(message: string): never;
}

export class AbortTestError extends Error {
  override name = 'AbortTestError';
}

/** What k6's fail() throws: the script's own words, reported without the runner's stack. */
export class ScriptFailure extends Error {}

const EXPECTED = Symbol.for('k6runner.expectedStatuses');
/** Sent with every request, as k6 sends its own (the userAgent option is not implemented). */
const USER_AGENT = 'k6-compatible-runner (svc-conformance)';
type ExpectedCallback = { [EXPECTED]: Array<[number, number]> };

function canonicalHeaderName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

function strictObject<T extends object>(what: string, allowed: readonly string[], target: T): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return Reflect.get(t, prop, receiver);
      if (!allowed.includes(prop)) throw refusal(`${what}.${prop} is`, allowed);
      return Reflect.get(t, prop, receiver);
    },
  });
}

/**
 * Response headers as k6 shows them (canonical MIME names, e.g. Content-Type; repeated
 * headers joined with ", ") from the `name\0value\0` block of a WireResponse.
 */
function decodeHeaders(raw: ArrayBuffer | null, length: number): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw || length === 0) return out;
  const parts = Buffer.from(raw, 0, length).toString('latin1').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = canonicalHeaderName(parts[i]);
    out[name] = name in out ? `${out[name]}, ${parts[i + 1]}` : parts[i + 1];
  }
  return out;
}

const utf8 = new TextDecoder();

/** k6's Response, with the fields of load/README.md ("Implemented k6 surface"); other fields are absent. */
class Response {
  status: number;
  url: string;
  timings: WireResponse['timings'];
  error: string;
  error_code: number;
  // The body arrives as bytes and the headers as the client gave them; both are turned
  // into what k6 shows only when the script reads them (most load iterations never do).
  #wire: WireResponse;
  #body: string | null | undefined;
  #headers: Record<string, string> | undefined;
  constructor(w: WireResponse) {
    this.status = w.status;
    this.url = w.url;
    this.timings = w.timings;
    this.error = w.error;
    this.error_code = w.errorCode;
    this.#wire = w;
  }
  get body(): string | null {
    if (this.#body === undefined) {
      const w = this.#wire;
      this.#body = w.raw && w.hasBody ? utf8.decode(new Uint8Array(w.raw, w.headerBytes)) : w.status === 0 ? null : w.hasBody ? '' : null;
    }
    return this.#body;
  }
  get headers(): Record<string, string> {
    return (this.#headers ??= decodeHeaders(this.#wire.raw, this.#wire.headerBytes));
  }
  /** k6's Response serialises with its fields; the lazy ones are getters here. */
  toJSON(): Record<string, unknown> {
    const { status, url, timings, error, error_code, body, headers } = this;
    return { status, url, body, headers, timings, error, error_code };
  }
  json(selector?: string): unknown {
    if (selector !== undefined)
      throw new UnsupportedError('Response.json(selector) (gjson selectors) is not implemented by the k6-compatible runner; call json() and read the field');
    if (this.body === null) throw new Error('the response has no body (discardResponseBodies or responseType "none")');
    return JSON.parse(this.body);
  }
}

/** What the modules of one script instance share: its VU, the current group path and the response callback. */
interface InstanceState {
  host: VuHost;
  groupPath: string;
  responseCallback: ExpectedCallback | null;
}

export function createK6Modules(host: VuHost): Record<string, Record<string, unknown>> {
  const state: InstanceState = { host, groupPath: '', responseCallback: expectedStatuses({ min: 200, max: 399 }) };
  const k6 = k6Module(state);
  const http = httpModule(state);
  const metrics = {
    Counter: metricClass(state, 'counter'),
    Gauge: metricClass(state, 'gauge'),
    Rate: metricClass(state, 'rate'),
    Trend: metricClass(state, 'trend'),
  };
  const execution = executionModule(host);
  const modules: Record<string, Record<string, unknown>> = {
    k6: { ...k6, default: k6 },
    'k6/http': { ...http, default: http },
    'k6/metrics': { ...metrics, default: metrics },
    'k6/execution': { default: execution },
    'k6/encoding': { b64encode, default: { b64encode } },
  };
  guardDefaultMembers(modules);
  return modules;
}

/**
 * Every supported module holds the exports surface.ts lists (else a runner bug). The bundler
 * refuses a named import it does not know; a member of a default import (`http.patch`) is
 * refused here, when the script reads it.
 */
function guardDefaultMembers(modules: Record<string, Record<string, unknown>>): void {
  for (const [name, exports] of Object.entries(SUPPORTED_MODULES)) {
    const missing = exports.filter((e) => !(e in modules[name]));
    if (missing.length) throw new Error(`runner bug: ${name} lacks ${missing.join(', ')}`);
    const names = exports.filter((e) => e !== 'default');
    if (names.length) modules[name].default = strictObject(name === 'k6/http' ? 'http' : name, names, modules[name].default as object);
  }
}

/** The tags every sample of the instance carries: its scenario's, and the group (setup and teardown are groups of their own). */
function baseTags({ host, groupPath }: InstanceState): Tags {
  const tags: Tags = {};
  if (host.scenario) {
    Object.assign(tags, host.scenario.tags);
    tags.scenario = host.scenario.name;
  }
  tags.group = host.stage === 'setup' ? '::setup' : host.stage === 'teardown' ? '::teardown' : groupPath;
  return tags;
}

function notInInit(host: VuHost, what: string): void {
  if (host.inInit) throw new Error(`${what} is not supported in the init context (k6 allows it only in setup, the VU code and teardown)`);
}

// ---- k6 -------------------------------------------------------------------------------
function k6Module(state: InstanceState) {
  const { host } = state;
  function check<T>(value: T, sets: Record<string, ((v: T) => unknown) | unknown>, tags?: Tags): boolean {
    notInInit(host, 'check()');
    let all = true;
    for (const [name, predicate] of Object.entries(sets)) {
      const ok = Boolean(typeof predicate === 'function' ? (predicate as (v: T) => unknown)(value) : predicate);
      if (!ok) all = false;
      host.emit('checks', ok ? 1 : 0, { ...baseTags(state), ...(tags ?? {}), check: name });
    }
    return all;
  }

  function group<T>(name: string, fn: () => T): T {
    notInInit(host, 'group()');
    if (name.includes('::')) throw new Error(`group name "${name}" must not contain "::"`);
    const parent = state.groupPath;
    state.groupPath = `${parent}::${name}`;
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      host.emit('group_duration', performance.now() - t0, baseTags(state));
      state.groupPath = parent;
    }
  }

  function sleep(seconds: number): void {
    notInInit(host, 'sleep()');
    if (!(typeof seconds === 'number' && seconds >= 0)) throw new Error(`sleep(): expected a non-negative number of seconds, got ${seconds}`);
    host.sleepMs(seconds * 1000);
  }

  function fail(message = ''): never {
    throw new ScriptFailure(message);
  }
  return { check, group, sleep, fail };
}

// ---- k6/http --------------------------------------------------------------------------
function expectedStatuses(...specs: Array<number | { min: number; max: number }>): ExpectedCallback {
  const ranges: Array<[number, number]> = specs.map((s) => {
    if (typeof s === 'number' && Number.isInteger(s)) return [s, s];
    if (s && typeof s === 'object' && Number.isInteger(s.min) && Number.isInteger(s.max)) return [s.min, s.max];
    throw new Error(`http.expectedStatuses(): arguments must be integers or {min, max} objects, got ${JSON.stringify(s)}`);
  });
  return { [EXPECTED]: ranges };
}

/** A request as the VU sends it, from what the script passed to http.* (k6's argument rules). */
function buildRequest(state: InstanceState, method: string, url: unknown, body: unknown, params: Record<string, unknown> | undefined): WireRequest {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new Error(`http.${method.toLowerCase()}(): the URL must be an absolute http(s) URL string, got ${JSON.stringify(url)}`);
  }
  const p = params ?? {};
  const unknown = Object.keys(p).filter((k) => !HTTP_PARAM_KEYS.includes(k));
  if (unknown.length) throw refusal(`http request params ${unknown.map((k) => `"${k}"`).join(', ')}`, HTTP_PARAM_KEYS);
  const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
  for (const [k, v] of Object.entries((p.headers as Record<string, unknown>) ?? {})) headers[k] = String(v);
  const payload = requestPayload(body, headers);
  const responseType = p.responseType ?? 'text';
  if (responseType !== 'text' && responseType !== 'none') {
    throw new UnsupportedError(`responseType "${String(responseType)}" is not implemented by the k6-compatible runner (implemented: text, none)`);
  }
  const userTags = (p.tags as Tags) ?? {};
  const tags: Tags = { ...baseTags(state), method, url, name: url, ...Object.fromEntries(Object.entries(userTags).map(([k, v]) => [k, String(v)])) };
  return {
    method,
    url,
    body: payload,
    headers,
    tags,
    tagKey: '',
    timeoutMs: p.timeout !== undefined ? parseDurationMs(p.timeout, 'params.timeout') : 60_000,
    expected: state.responseCallback ? state.responseCallback[EXPECTED] : null,
    discardBody: responseType === 'none' || (state.host.discardResponseBodies && p.responseType === undefined),
  };
}

/** The body's text: a string as given, an object form-encoded as k6 does (setting its content type unless one is given). */
function requestPayload(body: unknown, headers: Record<string, string>): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && !(body instanceof ArrayBuffer) && !ArrayBuffer.isView(body)) {
    // k6 form-encodes an object body.
    const payload = new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return payload;
  }
  throw new UnsupportedError('binary request bodies are not implemented by the k6-compatible runner');
}

type BatchEntry =
  | string
  | [string, string, unknown?, Record<string, unknown>?]
  | { method?: string; url: string; body?: unknown; params?: Record<string, unknown> };

function httpModule(state: InstanceState) {
  function setResponseCallback(cb: unknown): void {
    if (cb !== null && !(cb && typeof cb === 'object' && EXPECTED in cb)) {
      throw new UnsupportedError('http.setResponseCallback(): only callbacks made by http.expectedStatuses() (or null) are supported, as in k6');
    }
    state.responseCallback = cb as ExpectedCallback | null;
  }

  function request(method: string, url: unknown, body?: unknown, params?: Record<string, unknown>): Response {
    notInInit(state.host, 'Making http requests');
    const req = buildRequest(state, String(method).toUpperCase(), url, body, params);
    return new Response(state.host.send([req])[0]);
  }

  function batch(requests: BatchEntry[] | Record<string, BatchEntry>): Response[] | Record<string, Response> {
    notInInit(state.host, 'Making http requests');
    const entries = Array.isArray(requests) ? requests.map((r, i) => [String(i), r] as const) : Object.entries(requests);
    const built = entries.map(([, r]) => {
      if (typeof r === 'string') return buildRequest(state, 'GET', r, null, undefined);
      if (Array.isArray(r)) return buildRequest(state, String(r[0]).toUpperCase(), r[1], r[2], r[3]);
      return buildRequest(state, String(r.method ?? 'GET').toUpperCase(), r.url, r.body, r.params);
    });
    const responses = state.host.send(built).map((w) => new Response(w));
    if (Array.isArray(requests)) return responses;
    return Object.fromEntries(entries.map(([k], i) => [k, responses[i]]));
  }

  return {
    request,
    batch,
    get: (url: string, params?: Record<string, unknown>) => request('GET', url, null, params),
    post: (url: string, body?: unknown, params?: Record<string, unknown>) => request('POST', url, body, params),
    put: (url: string, body?: unknown, params?: Record<string, unknown>) => request('PUT', url, body, params),
    del: (url: string, body?: unknown, params?: Record<string, unknown>) => request('DELETE', url, body, params),
    expectedStatuses,
    setResponseCallback,
  };
}

// ---- k6/metrics -----------------------------------------------------------------------
function metricClass(state: InstanceState, type: MetricType) {
  const { host } = state;
  return class {
    readonly name: string;
    readonly type = type;
    constructor(name: string, isTime = false) {
      if (!host.inInit) throw new Error(`k6/metrics: metrics must be created in the init context (creating "${name}")`);
      this.name = name;
      host.defineMetric({ name, type, contains: type === 'trend' && isTime ? 'time' : 'default' });
    }
    add(value: number | boolean, tags?: Tags): boolean {
      notInInit(host, `${this.name}.add()`);
      let v: number;
      if (typeof value === 'boolean') v = value ? 1 : 0;
      else if (typeof value === 'number' && Number.isFinite(value)) v = value;
      else throw new Error(`${this.name}.add(): expected a number${type === 'rate' ? ' or boolean' : ''}, got ${JSON.stringify(value)}`);
      if (type === 'rate') v = v !== 0 ? 1 : 0;
      host.emit(this.name, v, { ...baseTags(state), ...(tags ?? {}) });
      return true;
    }
  };
}

// ---- k6/execution ---------------------------------------------------------------------
function executionModule(host: VuHost) {
  const needScenario = (prop: string): ScenarioState => {
    if (!host.scenario) throw new Error(`k6/execution: scenario.${prop} is only available inside a scenario iteration`);
    return host.scenario;
  };
  const scenario = strictObject('exec.scenario', EXECUTION_PROPERTIES.scenario, {
    get name() {
      return needScenario('name').name;
    },
    get executor() {
      return needScenario('executor').executor;
    },
    get startTime() {
      return needScenario('startTime').startTime;
    },
    get iterationInTest() {
      return needScenario('iterationInTest').iterationInTest;
    },
  });
  const vu = strictObject('exec.vu', EXECUTION_PROPERTIES.vu, {
    get idInTest() {
      notInInit(host, 'exec.vu');
      return host.vuId;
    },
    get iterationInInstance() {
      notInInit(host, 'exec.vu');
      return host.vuIterationInInstance;
    },
    get iterationInScenario() {
      return needScenario('iterationInScenario').vuIterationInScenario;
    },
  });
  const test = strictObject('exec.test', EXECUTION_PROPERTIES.test, {
    abort: (message = 'test aborted by the script') => host.abort(message),
  });
  return strictObject('exec', Object.keys(EXECUTION_PROPERTIES), { scenario, vu, test });
}

// ---- k6/encoding ----------------------------------------------------------------------
function b64encode(input: string | ArrayBuffer, encoding = 'std'): string {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  let out = buf.toString(encoding.includes('url') ? 'base64url' : 'base64');
  if (encoding === 'url') out += '='.repeat((4 - (out.length % 4)) % 4);
  if (encoding === 'rawstd') out = out.replace(/=+$/, '');
  if (!['std', 'rawstd', 'url', 'rawurl'].includes(encoding)) throw new Error(`b64encode: unknown encoding "${encoding}"`);
  return out;
}

/** The `console` a script instance sees: k6 writes its lines to the run's log, not to the process's output. */
export type ScriptConsole = Pick<Console, 'log' | 'info' | 'warn' | 'error' | 'debug'>;

/**
 * Evaluates a bundled script (CommonJS text from bundle.ts) as one k6 script instance. With
 * `scriptConsole` the script's console goes there (the run's log, load/runner/engine.ts);
 * without it, to the process's.
 */
export function instantiate(
  code: string,
  modules: Record<string, Record<string, unknown>>,
  vuState: { vu: number; iter: number; env: Record<string, string> },
  scriptConsole: ScriptConsole = console,
): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const open = () => {
    throw new UnsupportedError('open() is not implemented by the k6-compatible runner');
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const fn = new Function('__k6modules', '__k6vu', 'module', 'exports', 'open', 'console', code);
  fn(modules, vuState, module, module.exports, open, scriptConsole);
  return module.exports;
}
