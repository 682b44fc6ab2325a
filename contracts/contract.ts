/**
 * The contract: the documents of spec/ loaded once per process, and `check`, a plain
 * pipeline: version -> document, route -> operation, status -> documented response,
 * Content-Type -> documented media type, then every registered check that applies.
 * Documents are read on first use and each schema is compiled on first use, once
 * (compile.ts, Validators): a worker's start pays only for what it checks.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Failure } from './failure.ts';
import { Validators, type SchemaAt } from './compile.ts';
import { DEFAULT_SPEC_DIR, discoverDocuments, fileUri, readDocument, type ApiName, type DocumentFiles } from './load.ts';
import { DocumentModel, documentedMedia, documentedResponse, type OperationInfo, type OperationMatch } from './model.ts';
import { runChecks, type CheckOptions, type Exchange, type ExchangeContext, type WebhookContext } from './registry.ts';
import { downgradeContradicted } from './contradictions.ts';
import './checks.ts';
import './generated.ts';
import './stated-partners.ts';
import './stated-platform.ts';
import './stated-fields.ts';
import './requests.ts';
import { observationOf, type Observation } from './invariants.ts';
import { noteReading, readJsonText, tooDeepMessage, type JsonReading } from './json-text.ts';

export interface Contract {
  /** Versions with a derived document in spec/versions/, oldest first. */
  readonly versions: string[];
  readonly specDir: string;
  document(api: ApiName, version?: string): OpenAPIV3_1.Document;
  /** The source document (the platform one carries every version's annotations). */
  sourceDocument(api: ApiName): OpenAPIV3_1.Document;
  findOperation(api: ApiName, method: string, path: string, version?: string): OperationMatch | undefined;
  check(exchange: Exchange, options?: CheckOptions): Failure[];
  /**
   * An exchange as received, its response body as text: parsed as the documented media
   * type says, checked as `check` does, and returned with the body as the checks read it
   * and the operation the request matched, so a caller routes nothing itself.
   */
  checkReceived(exchange: ReceivedExchange, options?: CheckOptions): CheckedExchange;
  /** `options.strict` makes inferred failures errors (the other options concern exchanges). */
  checkWebhook(type: string, payload: unknown, version?: string, options?: CheckOptions): Failure[];
  /** Compiles every schema of every document now; returns what failed to compile. */
  compileAll(): string[];
  /** The loaded document model (operations, webhooks), for tools that list them. */
  model(api: ApiName, version?: string): DocumentModel;
}

/** An exchange whose response body is the text received (`checkReceived` parses it). */
export interface ReceivedExchange extends Omit<Exchange, 'response'> {
  response: Omit<Exchange['response'], 'body'> & { text: string };
}

/** What `checkReceived` found and read. */
export interface CheckedExchange {
  failures: Failure[];
  /**
   * The body as the checks read it: parsed JSON when the received Content-Type is JSON or
   * a JSON-family type (RFC 6839), or when it is not (or absent) but the document expects
   * JSON for this status (Endpoints: "Request and response bodies are JSON"); else the
   * text. content_type_conformance still reports a wrong or missing Content-Type.
   */
  body: unknown;
  /** JSON.parse's message when the body was to be JSON and is not (the body is then the text). */
  invalidJson?: string;
  /**
   * Why a body that was to be JSON was not read at all (nested deeper than the bound,
   * json-text.ts): no check saw a body; the message of the `response_json_text` finding.
   */
  unreadJson?: string;
  /** The operation the request matched; undefined when the document has none for it. */
  operation?: OperationInfo;
  /**
   * With `options.observe`: the exchange as the run-wide invariants read it (invariants.ts),
   * without its times, which the caller knows.
   */
  observation?: Omit<Observation, 'seq' | 'at'>;
}

/**
 * A sink for the time spent inside `check` and `checkWebhook` (ms and calls, summed per
 * process). npm run bench:suite puts one in every Playwright worker under this global
 * symbol before any suite code loads (bench/suite.ts, a module given to `node --import`):
 * the workers load contracts/ through Playwright's own transform, so a module export could
 * not reach them. Without a sink (every ordinary run) nothing is timed.
 */
export const CHECK_TIMING_SINK = Symbol.for('svc.contracts.check-timing');
export interface CheckTimingSink {
  calls: number;
  ms: number;
}

/** An exchange the contract cannot read (a suite defect): one failure, never a throw. */
function unreadable(exchange: Exchange, why: string): Failure[] {
  return [
    {
      check: 'contract',
      operation: `${exchange?.request?.method ?? '?'} ${exchange?.request?.url ?? '?'}`,
      location: 'exchange',
      rule: 'contracts/index.ts: Exchange',
      severity: 'error',
      message: `The exchange could not be read: ${why}`,
    },
  ];
}

/** A Content-Type value -> bare media type, lower case (`application/json; charset=utf-8` -> `application/json`). */
function mediaTypeOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  return raw.split(';')[0].trim().toLowerCase() || undefined;
}

function headerValue(headers: Record<string, string> | undefined, lowerName: string): string | undefined {
  if (!headers) return undefined;
  for (const k in headers) if (k.toLowerCase() === lowerName) return headers[k];
  return undefined;
}

/** JSON, or a JSON-family type such as `application/vnd.svc.api.v1+json` (RFC 6839). */
function isJsonFamily(mediaType: string | undefined): boolean {
  return mediaType !== undefined && (mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'text/json');
}

/** `/a/b?x=1` -> path and query; absolute URLs are reduced to their path. */
function splitUrl(url: string): { path: string; query: string } {
  let rest = url;
  if (!rest.startsWith('/') && /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    const u = new URL(rest);
    return { path: u.pathname, query: u.search.slice(1) };
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q === -1 ? { path: rest || '/', query: '' } : { path: rest.slice(0, q) || '/', query: rest.slice(q + 1) };
}

class ContractImpl implements Contract {
  readonly versions: string[];
  readonly specDir: string;
  private readonly files: DocumentFiles;
  /** Documents read so far, by `api` or `platform version`. */
  private readonly models = new Map<string, DocumentModel>();
  private readonly validators = new Validators();
  private readonly validator = (at: SchemaAt) => this.validators.of(at);
  private readonly timing = (globalThis as Record<symbol, CheckTimingSink | undefined>)[CHECK_TIMING_SINK];

  constructor(specDir: string) {
    this.files = discoverDocuments(specDir);
    this.specDir = this.files.specDir;
    this.versions = this.files.versions.map((v) => v.version);
  }

  /**
   * The document of an API; for the platform one, of a version (default: the newest with
   * a derived document, Versioning: current). Without derived documents the platform
   * source serves every version.
   */
  model(api: ApiName, version?: string): DocumentModel {
    if (api !== 'platform' && api !== 'audience' && api !== 'test-host') throw new Error(`unknown api "${String(api)}" (platform, audience, test-host)`);
    const derived = api === 'platform' && this.versions.length > 0;
    const v = derived ? (version ?? this.versions[this.versions.length - 1]) : undefined;
    const key = v ? `${api} ${v}` : api;
    let model = this.models.get(key);
    if (!model) {
      let file: string | undefined;
      if (v) {
        file = this.files.versions.find((x) => x.version === v)?.file;
        if (!file) throw new Error(`No platform document for version "${v}" in ${this.specDir}/versions (known: ${this.versions.join(', ')})`);
      } else {
        file = this.files.sources[api];
        if (!file) throw new Error(`No ${api} document in ${this.specDir} (expected ${api}.openapi.yaml)`);
      }
      model = new DocumentModel(api, v, fileUri(file), readDocument(file), this.specDir);
      this.models.set(key, model);
    }
    return model;
  }

  document(api: ApiName, version?: string): OpenAPIV3_1.Document {
    return this.model(api, version).doc;
  }

  sourceDocument(api: ApiName): OpenAPIV3_1.Document {
    const file = this.files.sources[api];
    if (!file) throw new Error(`No ${api} document in ${this.specDir}`);
    return readDocument(file);
  }

  findOperation(api: ApiName, method: string, path: string, version?: string): OperationMatch | undefined {
    return this.model(api, version).match(method, splitUrl(path).path);
  }

  check(exchange: Exchange, options: CheckOptions = {}): Failure[] {
    return this.timed(() => this.checkExchange(exchange, options).failures);
  }

  checkReceived(exchange: ReceivedExchange, options: CheckOptions = {}): CheckedExchange {
    return this.timed(() => this.checkExchange(exchange, options));
  }

  private timed<T>(run: () => T): T {
    if (!this.timing) return run();
    const started = performance.now();
    try {
      return run();
    } finally {
      this.timing.ms += performance.now() - started;
      this.timing.calls++;
    }
  }

  /**
   * The one pipeline of `check` (a body already read) and `checkReceived` (the text
   * received, parsed here once the route and the documented response are known).
   */
  private checkExchange(given: Exchange | ReceivedExchange, options: CheckOptions): CheckedExchange {
    const request = given?.request;
    const response = given?.response as (Partial<Exchange['response']> & { text?: string }) | undefined;
    const received = response && !('body' in response) && typeof response.text === 'string' ? response.text : undefined;
    let body: unknown = received ?? response?.body;
    const unreadableAs = (why: string): CheckedExchange => ({ failures: unreadable(given as Exchange, why), body });
    if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') return unreadableAs('request.method and request.url are required');
    if (!response || typeof response.status !== 'number') return unreadableAs('response.status is required');
    if (given.api !== 'platform' && given.api !== 'audience' && given.api !== 'test-host') {
      return unreadableAs(`unknown api "${String(given.api)}" (platform, audience, test-host)`);
    }
    let invalidJson: string | undefined;
    let operation: OperationInfo | undefined;
    try {
      // 1. Version -> document. A version without a document (unknown, or sunset and
      // removed) is checked against the newest one; version_conformance judges it.
      const requestedVersion = given.api === 'platform' ? (given.version ?? headerValue(request.headers, 'accept-version')) : undefined;
      const versionKnown = requestedVersion === undefined || this.versions.length === 0 || this.versions.includes(requestedVersion);
      const versionSunset = requestedVersion !== undefined && (options.sunsetVersions ?? []).includes(requestedVersion);
      const model = this.model(given.api, versionKnown ? requestedVersion : undefined);
      // 2. Route -> operation.
      const method = request.method.toUpperCase();
      const { path, query } = splitUrl(request.url);
      const match = model.match(method, path);
      operation = match?.operation;
      // 3. Status -> documented response; Content-Type -> documented media type.
      const status = response.status;
      const documented = operation ? documentedResponse(operation, status) : undefined;
      const mediaType = mediaTypeOf(headerValue(response.headers, 'content-type'));
      // A body received as text is JSON when its type says so or the document expects JSON
      // here; every reader of an answer reads it through one function (json-text.ts: bounded
      // nesting before JSON.parse, UTF-8, repeated names, numbers), whose findings the check
      // response_json_text reports.
      let reading: JsonReading | undefined;
      if (received && (isJsonFamily(mediaType) || documented?.media.some((m) => m.isJson))) {
        reading = readJsonText(received);
        body = reading.body;
        invalidJson = reading.invalidJson;
      }
      const exchange: Exchange =
        received === undefined
          ? (given as Exchange)
          : {
              ...given,
              response: { status, headers: response.headers ?? {}, body, ...(response.durationMs !== undefined ? { durationMs: response.durationMs } : {}) },
            };
      if (reading) noteReading(exchange, reading);
      const unreadJson = reading?.tooDeep ? tooDeepMessage(reading.tooDeep) : undefined;
      const selected = documented ? documentedMedia(documented, mediaType) : undefined;
      const jsonMedia = documented?.media.find((m) => m.isJson);
      const ctx: ExchangeContext = {
        kind: 'exchange',
        exchange,
        options,
        model,
        version: model.version,
        requestedVersion,
        versionKnown,
        versionSunset,
        method,
        path,
        query,
        match,
        operation,
        operationKey: operation ? operation.key : `${method} ${path}`,
        status,
        documented,
        mediaType,
        selectedMedia: selected?.media,
        jsonMedia,
        mediaExact: selected?.exact ?? false,
        mediaCompatible: selected?.media !== undefined,
        media: selected?.media ?? (typeof body !== 'string' ? jsonMedia : undefined),
        validator: this.validator,
      };
      // 4. Every registered exchange check that applies.
      // 5. Stated failures the vendor's reference contradicts become inferred, here and
      // nowhere else (contradictions.ts; no check knows of the reference).
      const failures = downgradeContradicted(runChecks(ctx, options.only), { version: ctx.version, status }, options.referenceContradictions, options.strict);
      return {
        failures,
        body,
        ...(invalidJson !== undefined ? { invalidJson } : {}),
        ...(unreadJson !== undefined ? { unreadJson } : {}),
        ...(operation ? { operation } : {}),
        ...(options.observe && invalidJson === undefined && unreadJson === undefined ? { observation: observationOf(ctx) } : {}),
      };
    } catch (e) {
      return { ...unreadableAs((e as Error).message), ...(operation ? { operation } : {}) };
    }
  }

  checkWebhook(type: string, payload: unknown, version?: string, options: CheckOptions = {}): Failure[] {
    const started = this.timing ? performance.now() : 0;
    try {
      let model: DocumentModel;
      try {
        model = this.model('platform', version !== undefined && this.versions.includes(version) ? version : undefined);
      } catch (e) {
        return [
          {
            check: 'contract',
            operation: `WEBHOOK ${type}`,
            location: 'payload',
            rule: 'spec/CONVENTIONS.md',
            severity: 'error',
            message: (e as Error).message,
          },
        ];
      }
      const ctx: WebhookContext = {
        kind: 'webhook',
        type,
        payload,
        model,
        webhook: model.webhooks.get(type),
        operationKey: `WEBHOOK ${type}`,
        options,
        validator: this.validator,
      };
      return runChecks(ctx);
    } finally {
      if (this.timing) {
        this.timing.ms += performance.now() - started;
        this.timing.calls++;
      }
    }
  }

  compileAll(): string[] {
    const errors: string[] = [];
    const models: DocumentModel[] = [];
    for (const v of this.versions) models.push(this.model('platform', v));
    if (this.versions.length === 0 && this.files.sources.platform) models.push(this.model('platform'));
    if (this.files.sources.audience) models.push(this.model('audience'));
    if (this.files.sources['test-host']) models.push(this.model('test-host'));
    for (const m of models) {
      const where = `${m.api}${m.version ? ` ${m.version}` : ''}`;
      for (const p of m.problems) errors.push(`${where}: ${p}`);
      for (const op of m.operations) {
        for (const r of op.responses.values()) {
          for (const media of r.media) {
            try {
              this.validators.of(media);
            } catch (e) {
              errors.push(`${where}: ${op.key} ${r.status} ${media.type}: ${(e as Error).message}`);
            }
          }
        }
      }
      for (const w of m.webhooks.values()) {
        try {
          this.validators.of(w);
        } catch (e) {
          errors.push(`${where}: webhook ${w.type}: ${(e as Error).message}`);
        }
      }
    }
    return errors;
  }
}

const contracts = new Map<string, Contract>();

/** The contract of a spec directory (default: this checkout's spec/), loaded once per process. */
export function loadContract(options: { specDir?: string } = {}): Contract {
  const dir = options.specDir ?? DEFAULT_SPEC_DIR;
  let c = contracts.get(dir);
  if (!c) contracts.set(dir, (c = new ContractImpl(dir)));
  return c;
}
