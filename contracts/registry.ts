/**
 * The check registry (../shared/DESIGN.md, "Checks and failures"; Schemathesis style):
 * one table of named checks that refuses duplicate names. Whether a check applies is
 * decided by its guard (`appliesTo`), not by branches inside it. A check that throws is
 * caught here and becomes a failure: a bad response never crashes the suite.
 */
import type { Failure } from './failure.ts';
import type { DocumentModel, DocumentedMedia, DocumentedResponse, OperationMatch, WebhookInfo } from './model.ts';
import type { ApiName } from './load.ts';

export interface Exchange {
  api: ApiName;
  /** Platform API version; falls back to the request's Accept-Version, then the newest. */
  version?: string;
  request: {
    method: string;
    /** Path and query relative to the API's base URL, e.g. `/institutions?page=2`. */
    url: string;
    headers: Record<string, string>;
    body?: unknown;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    /** Parsed JSON, or text when the body is not JSON. */
    body: unknown;
    durationMs?: number;
  };
}

export interface CheckOptions {
  /** Name of the deprecation response header (not shown in the specification). Default `Deprecation`. */
  deprecationHeader?: string;
  /** Name of the sunset response header (not shown in the specification). Default `Sunset`. */
  sunsetHeader?: string;
  /** Versions the target has sunset: every request naming one must answer 4xx (Versioning). */
  sunsetVersions?: readonly string[];
  /** Run only these checks (by name). */
  only?: readonly string[];
}

export interface ExchangeContext {
  kind: 'exchange';
  exchange: Exchange;
  options: CheckOptions;
  model: DocumentModel;
  /** The version whose document was used (platform), else undefined. */
  version?: string;
  /** The version the exchange asked for (explicit or Accept-Version), if any. */
  requestedVersion?: string;
  /** False when the requested version has no document (unknown or sunset). */
  versionKnown: boolean;
  /** Request method, upper case. */
  method: string;
  path: string;
  query: string;
  match?: OperationMatch;
  /** `GET /institutions` (template), or the concrete path when no operation matched. */
  operationKey: string;
  /** The documented response selected by the status (exact, range, default). */
  documented?: DocumentedResponse;
  /** Received media type, lower case, without parameters. */
  mediaType?: string;
  /** The documented media type selected by `mediaType`. */
  media?: DocumentedMedia;
  mediaExact: boolean;
  /** The received type selected a documented one (exactly or as a JSON-family type). */
  mediaCompatible: boolean;
  /** Filled on first use by `responseHeader` (most exchanges never need it). */
  lowerCaseHeaders: Record<string, string> | undefined;
}

/** A response header by name, case-insensitively (RFC 9110: field names are case-insensitive). */
export function responseHeader(ctx: ExchangeContext, name: string): string | undefined {
  let map = ctx.lowerCaseHeaders;
  if (!map) {
    map = {};
    const raw = ctx.exchange.response.headers ?? {};
    for (const k in raw) {
      const v = raw[k] as unknown;
      if (v !== undefined && v !== null) map[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    }
    ctx.lowerCaseHeaders = map;
  }
  return map[name.toLowerCase()];
}

export interface WebhookContext {
  kind: 'webhook';
  type: string;
  payload: unknown;
  model: DocumentModel;
  webhook?: WebhookInfo;
  operationKey: string;
  options: CheckOptions;
}

export type CheckContext = ExchangeContext | WebhookContext;

export interface CheckDefinition {
  name: string;
  /** What the check inspects; a check of the other kind is never asked (default: both). */
  kind?: 'exchange' | 'webhook';
  /** One line: what it verifies and the specification section it rests on. */
  description: string;
  appliesTo(ctx: CheckContext): boolean;
  run(ctx: CheckContext): Failure[];
}

const table = new Map<string, CheckDefinition>();
let ordered: CheckDefinition[] = [];
/** The table split by kind, so an exchange never pays for webhook guards and vice versa. */
let byKind: Record<'exchange' | 'webhook', CheckDefinition[]> = { exchange: [], webhook: [] };

export function registerCheck(def: CheckDefinition): void {
  if (!def || typeof def.name !== 'string' || !def.name) throw new Error('registerCheck: a check needs a name');
  if (table.has(def.name)) throw new Error(`registerCheck: a check named "${def.name}" is already registered`);
  table.set(def.name, def);
  ordered = [...table.values()];
  byKind = {
    exchange: ordered.filter((d) => d.kind !== 'webhook'),
    webhook: ordered.filter((d) => d.kind !== 'exchange'),
  };
}

export function registeredChecks(): readonly CheckDefinition[] {
  return ordered;
}

function crashed(name: string, ctx: CheckContext, phase: string, e: unknown): Failure {
  return {
    check: name,
    operation: ctx.operationKey,
    location: ctx.kind === 'exchange' ? 'response' : 'payload',
    rule: 'a check never throws (../shared/DESIGN.md, "Checks and failures")',
    severity: 'error',
    message: `The check crashed in ${phase} (a suite defect, not necessarily the target's): ${(e as Error)?.message ?? String(e)}`,
  };
}

export function runChecks(ctx: CheckContext, only?: readonly string[]): Failure[] {
  const out: Failure[] = [];
  const defs = byKind[ctx.kind];
  for (let d = 0; d < defs.length; d++) {
    const def = defs[d];
    if (only && !only.includes(def.name)) continue;
    let applies: boolean;
    try {
      applies = def.appliesTo(ctx);
    } catch (e) {
      out.push(crashed(def.name, ctx, 'appliesTo', e));
      continue;
    }
    if (!applies) continue;
    try {
      const found = def.run(ctx);
      if (found.length !== 0) for (let i = 0; i < found.length; i++) out.push(found[i]);
    } catch (e) {
      out.push(crashed(def.name, ctx, 'run', e));
    }
  }
  return out;
}
