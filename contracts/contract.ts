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
import { DocumentModel, documentedMedia, documentedResponse, type OperationMatch } from './model.ts';
import { runChecks, type CheckOptions, type Exchange, type ExchangeContext, type WebhookContext } from './registry.ts';
import './checks.ts';
import './generated.ts';
import './stated-partners.ts';
import './stated-platform.ts';
import './stated-fields.ts';
import './requests.ts';

export interface Contract {
  /** Versions with a derived document in spec/versions/, oldest first. */
  readonly versions: string[];
  readonly specDir: string;
  document(api: ApiName, version?: string): OpenAPIV3_1.Document;
  /** The source document (the platform one carries every version's annotations). */
  sourceDocument(api: ApiName): OpenAPIV3_1.Document;
  findOperation(api: ApiName, method: string, path: string, version?: string): OperationMatch | undefined;
  check(exchange: Exchange, options?: CheckOptions): Failure[];
  /** `options.strict` makes inferred failures errors (the other options concern exchanges). */
  checkWebhook(type: string, payload: unknown, version?: string, options?: CheckOptions): Failure[];
  /** Compiles every schema of every document now; returns what failed to compile. */
  compileAll(): string[];
  /** The loaded document model (operations, webhooks), for tools that list them. */
  model(api: ApiName, version?: string): DocumentModel;
}

/**
 * A sink for the time spent inside `check` and `checkWebhook` (ms and calls, summed per
 * process). npm run bench:suite puts one in every Playwright worker under this global
 * symbol before any suite code loads (scripts/bench-suite.ts, a module given to `node --import`):
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
  return [{
    check: 'contract',
    operation: `${exchange?.request?.method ?? '?'} ${exchange?.request?.url ?? '?'}`,
    location: 'exchange',
    rule: 'contracts/index.ts: Exchange',
    severity: 'error',
    message: `The exchange could not be read: ${why}`,
  }];
}

/** A Content-Type value -> bare media type, lower case (`application/json; charset=utf-8` -> `application/json`). */
function mediaTypeOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  return raw.split(';')[0].trim().toLowerCase() || undefined;
}

export function headerValue(headers: Record<string, string> | undefined, lowerName: string): string | undefined {
  if (!headers) return undefined;
  for (const k in headers) if (k.toLowerCase() === lowerName) return headers[k];
  return undefined;
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
    const v = derived ? version ?? this.versions[this.versions.length - 1] : undefined;
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
    if (!this.timing) return this.checkExchange(exchange, options);
    const started = performance.now();
    try {
      return this.checkExchange(exchange, options);
    } finally {
      this.timing.ms += performance.now() - started;
      this.timing.calls++;
    }
  }

  private checkExchange(exchange: Exchange, options: CheckOptions): Failure[] {
    const request = exchange?.request;
    const response = exchange?.response;
    if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') return unreadable(exchange, 'request.method and request.url are required');
    if (!response || typeof response.status !== 'number') return unreadable(exchange, 'response.status is required');
    if (exchange.api !== 'platform' && exchange.api !== 'audience' && exchange.api !== 'test-host') {
      return unreadable(exchange, `unknown api "${String(exchange.api)}" (platform, audience, test-host)`);
    }
    try {
      // 1. Version -> document. A version without a document (unknown, or sunset and
      // removed) is checked against the newest one; version_conformance judges it.
      const requestedVersion = exchange.api === 'platform' ? exchange.version ?? headerValue(request.headers, 'accept-version') : undefined;
      const versionKnown = requestedVersion === undefined || this.versions.length === 0 || this.versions.includes(requestedVersion);
      const versionSunset = requestedVersion !== undefined && (options.sunsetVersions ?? []).includes(requestedVersion);
      const model = this.model(exchange.api, versionKnown ? requestedVersion : undefined);
      // 2. Route -> operation.
      const method = request.method.toUpperCase();
      const { path, query } = splitUrl(request.url);
      const match = model.match(method, path);
      const operation = match?.operation;
      // 3. Status -> documented response; Content-Type -> documented media type.
      const status = response.status;
      const documented = operation ? documentedResponse(operation, status) : undefined;
      const mediaType = mediaTypeOf(headerValue(response.headers, 'content-type'));
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
        media: selected?.media ?? (typeof response.body !== 'string' ? jsonMedia : undefined),
        validator: this.validator,
      };
      // 4. Every registered exchange check that applies.
      return runChecks(ctx, options.only);
    } catch (e) {
      return unreadable(exchange, (e as Error).message);
    }
  }

  checkWebhook(type: string, payload: unknown, version?: string, options: CheckOptions = {}): Failure[] {
    const started = this.timing ? performance.now() : 0;
    try {
      let model: DocumentModel;
      try {
        model = this.model('platform', version !== undefined && this.versions.includes(version) ? version : undefined);
      } catch (e) {
        return [{ check: 'contract', operation: `WEBHOOK ${type}`, location: 'payload', rule: 'spec/CONVENTIONS.md', severity: 'error', message: (e as Error).message }];
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
      if (this.timing) { this.timing.ms += performance.now() - started; this.timing.calls++; }
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
      const where = `${m.api}${m.version ? ' ' + m.version : ''}`;
      for (const p of m.problems) errors.push(`${where}: ${p}`);
      for (const op of m.operations) {
        for (const r of op.responses.values()) {
          for (const media of r.media) {
            try { this.validators.of(media); } catch (e) { errors.push(`${where}: ${op.key} ${r.status} ${media.type}: ${(e as Error).message}`); }
          }
        }
      }
      for (const w of m.webhooks.values()) {
        try { this.validators.of(w); } catch (e) { errors.push(`${where}: webhook ${w.type}: ${(e as Error).message}`); }
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
