/**
 * The contract: the documents of spec/ loaded once per process, and `check`, which
 * builds one context per exchange and runs every applicable registered check.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Failure } from './failure.ts';
import { DEFAULT_SPEC_DIR, discoverDocuments, fileUri, readDocument, type ApiName, type DocumentFiles } from './load.ts';
import { DocumentModel, type OperationMatch } from './model.ts';
import { runChecks, type CheckOptions, type Exchange, type WebhookContext } from './registry.ts';
import { planFor, runPlan } from './plan.ts';
import './checks.ts';
import './generated.ts';

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

const NO_OPTIONS: CheckOptions = Object.freeze({});

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


/** Received Content-Type -> bare media type, cached: the same few values recur. */
const mediaTypes = new Map<string, string | undefined>();
function parseMediaType(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let hit = mediaTypes.get(raw);
  if (hit === undefined && !mediaTypes.has(raw)) {
    const semi = raw.indexOf(';');
    hit = (semi === -1 ? raw : raw.slice(0, semi)).trim().toLowerCase() || undefined;
    if (mediaTypes.size >= 256) mediaTypes.clear();
    mediaTypes.set(raw, hit);
  }
  return hit;
}

export function headerValue(headers: Record<string, string> | undefined, lowerName: string): string | undefined {
  if (!headers) return undefined;
  // Fast path: HTTP clients (undici, fetch) report lower-case names.
  const direct = headers[lowerName];
  if (direct !== undefined) return direct;
  for (const k in headers) if (k.length === lowerName.length && k.toLowerCase() === lowerName) return headers[k];
  return undefined;
}

/** `/a/b?x=1` -> path and query; absolute URLs are reduced to their path. */
function splitUrl(url: string): { path: string; query: string } {
  let rest = url;
  if (rest.charCodeAt(0) !== 47 /* '/' */ && /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
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
  private readonly platformModels = new Map<string, DocumentModel>();
  private readonly otherModels = new Map<ApiName, DocumentModel>();
  private defaultPlatform?: DocumentModel;
  /** One-entry cache in front of platformModels: a run mostly asks for one version. */
  private lastVersion?: string;
  private lastVersionModel?: DocumentModel;
  private readonly newest: string | undefined;

  constructor(specDir: string) {
    this.files = discoverDocuments(specDir);
    this.specDir = this.files.specDir;
    this.versions = this.files.versions.map((v) => v.version);
    // Default platform version: the newest with a derived document (Versioning: current).
    this.newest = this.versions[this.versions.length - 1];
  }

  model(api: ApiName, version?: string): DocumentModel {
    // Hot path (every check): two map reads, no string building.
    if (api === 'platform') {
      const hit = version === undefined ? this.defaultPlatform : this.platformModels.get(version);
      if (hit) return hit;
    } else {
      const hit = this.otherModels.get(api);
      if (hit) return hit;
    }
    return this.loadModel(api, version);
  }

  private loadModel(api: ApiName, version: string | undefined): DocumentModel {
    if (api === 'platform' && this.versions.length > 0) {
      if (version === undefined) return (this.defaultPlatform = this.loadModel(api, this.newest));
      const file = this.files.versions.find((v) => v.version === version)?.file;
      if (!file) throw new Error(`No platform document for version "${version}" in ${this.specDir}/versions (known: ${this.versions.join(', ')})`);
      const model = new DocumentModel(api, version, fileUri(file), readDocument(file), this.specDir);
      this.platformModels.set(version, model);
      return model;
    }
    if (api !== 'platform' && api !== 'audience' && api !== 'test-host') throw new Error(`unknown api "${String(api)}" (platform, audience, test-host)`);
    const file = this.files.sources[api];
    if (!file) throw new Error(`No ${api} document in ${this.specDir} (expected ${api}.openapi.yaml)`);
    const model = new DocumentModel(api, undefined, fileUri(file), readDocument(file), this.specDir);
    // Without derived documents the platform source serves every version.
    if (api === 'platform') { this.defaultPlatform = model; if (version) this.platformModels.set(version, model); }
    else this.otherModels.set(api, model);
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

  /**
   * Hot path: version -> document (one map read), route (cached per URL), plan (cached
   * per operation, status and Content-Type; plan.ts), then only the checks that apply.
   */
  check(exchange: Exchange, options: CheckOptions = NO_OPTIONS): Failure[] {
    const request = exchange?.request;
    const response = exchange?.response;
    if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') return unreadable(exchange, 'request.method and request.url are required');
    if (!response || typeof response.status !== 'number') return unreadable(exchange, 'response.status is required');
    try {
      const api = exchange.api;
      let model: DocumentModel;
      let requestedVersion: string | undefined;
      let versionKnown = true;
      let versionSunset = false;
      if (api === 'platform') {
        requestedVersion = exchange.version ?? headerValue(request.headers, 'accept-version');
        if (requestedVersion === undefined) {
          model = this.defaultPlatform ?? this.model('platform');
        } else {
          const known = requestedVersion === this.lastVersion ? this.lastVersionModel : this.platformModels.get(requestedVersion);
          if (known !== undefined) { model = known; this.lastVersion = requestedVersion; this.lastVersionModel = known; }
          else if (this.versions.length === 0 || this.versions.includes(requestedVersion)) model = this.model('platform', requestedVersion);
          else { versionKnown = false; model = this.defaultPlatform ?? this.model('platform'); }
          const sunset = options.sunsetVersions;
          versionSunset = sunset !== undefined && sunset.length !== 0 && sunset.includes(requestedVersion);
        }
      } else if (api === 'audience' || api === 'test-host') {
        model = this.otherModels.get(api) ?? this.model(api);
      } else {
        return unreadable(exchange, `unknown api "${String(api)}" (platform, audience, test-host)`);
      }
      const m = request.method;
      const method = m === 'GET' || m === 'POST' || m === 'PUT' || m === 'DELETE' || m === 'PATCH' ? m : m.toUpperCase();
      const route = model.route(method, request.url, splitUrl);
      // Content-Type: HTTP clients report lower-case names (the direct read); others are searched.
      const headers = response.headers;
      const rawType = headers?.['content-type'] ?? headerValue(headers, 'content-type');
      const plan = planFor(model, route.match?.operation, method, response.status, rawType, versionKnown, versionSunset, parseMediaType);
      return runPlan(plan, exchange, options, requestedVersion, route);
    } catch (e) {
      return unreadable(exchange, (e as Error).message);
    }
  }

  checkWebhook(type: string, payload: unknown, version?: string, options: CheckOptions = NO_OPTIONS): Failure[] {
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
    };
    return runChecks(ctx);
  }

  compileAll(): string[] {
    const errors: string[] = [];
    const models: DocumentModel[] = [];
    for (const v of this.versions) models.push(this.model('platform', v));
    if (this.versions.length === 0 && this.files.sources.platform) models.push(this.model('platform'));
    if (this.files.sources.audience) models.push(this.model('audience'));
    if (this.files.sources['test-host']) models.push(this.model('test-host'));
    for (const m of models) {
      for (const p of m.problems) errors.push(`${m.api}${m.version ? ' ' + m.version : ''}: ${p}`);
      for (const e of m.compileAll()) errors.push(`${m.api}${m.version ? ' ' + m.version : ''}: ${e}`);
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
