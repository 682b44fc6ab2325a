/**
 * The check registry (../shared/DESIGN.md, "Checks and failures"; Schemathesis style):
 * one table of named checks that refuses duplicate names. Whether a check applies is
 * decided by its guard (`appliesTo`), not by branches inside it. A check that throws is
 * caught and becomes a failure: a bad response never crashes the suite.
 *
 * The contexts are plain records that contract.ts fills once per call; this file imports
 * only the types of model.ts (model.ts imports nothing from here).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Failure } from './failure.ts';
import type { SchemaAt } from './compile.ts';
import type { DocumentModel, DocumentedMedia, DocumentedResponse, OperationInfo, OperationMatch, WebhookInfo } from './model.ts';
import type { ApiName } from './load.ts';
import type { RequestCheckOptions } from './requests.ts';

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
  /**
   * Strict profile (profile.strict, SVC_STRICT=1): inferred failures are errors. Default
   * false: they are warnings (contracts/failure.ts, Tier).
   */
  strict?: boolean;
  /**
   * The user named the deprecation/sunset header explicitly (profile.versions.headerNamesExplicit:
   * SVC_DEPRECATION_HEADER / SVC_SUNSET_HEADER set). A header the user names is enforced
   * (stated); under a guessed default name its absence is inferred.
   */
  headerNamesExplicit?: boolean;
  /** Run only these checks (by name). */
  only?: readonly string[];
  /**
   * A generated request (the fuzz project, scenarios/fuzz): what it was meant to be, for
   * the Schemathesis-style checks of generated.ts. Absent on every other exchange.
   */
  generated?: import('./generated.ts').GeneratedCase;
  /**
   * The exchange is an integration's own traffic (integration/: the recording proxy, the
   * HAR check): its REQUEST is judged too (contracts/requests.ts). Absent on every suite
   * exchange, whose requests break rules on purpose.
   */
  requestChecks?: RequestCheckOptions;
  /** Return the exchange's observation for the run-wide invariants (contracts/invariants.ts) with its failures. */
  observe?: boolean;
  /**
   * What the vendor's published reference contradicts (the `reference` setting,
   * SVC_REFERENCE; derived once per process by reference.ts `referenceContradictionsOf`):
   * a stated failure it covers is reported as inferred, at the end of the pipeline
   * (contradictions.ts), never inside a check.
   */
  referenceContradictions?: import('./contradictions.ts').ReferenceContradictions;
}

/**
 * One exchange being checked, as the pipeline of contract.ts reads it: version ->
 * document, route -> operation, status -> documented response, Content-Type -> documented
 * media type.
 */
export interface ExchangeContext {
  kind: 'exchange';
  exchange: Exchange;
  options: CheckOptions;
  model: DocumentModel;
  /** The version whose document is used (platform), else undefined. */
  version?: string;
  /** The version the exchange asked for (explicit or Accept-Version), if any. */
  requestedVersion?: string;
  /** False when the requested version has no document (unknown or sunset). */
  versionKnown: boolean;
  /** The requested version is one of `options.sunsetVersions`. */
  versionSunset: boolean;
  /** Request method, upper case. */
  method: string;
  path: string;
  query: string;
  match?: OperationMatch;
  /** The operation the request matched, or undefined. */
  operation?: OperationInfo;
  /** `GET /institutions` (template), or the concrete path when no operation matched. */
  operationKey: string;
  status: number;
  /** The documented response selected by the status (exact, range, default; see model.ts). */
  documented?: DocumentedResponse;
  /** Received media type, lower case, without parameters. */
  mediaType?: string;
  /** The documented media type the received Content-Type selected (exactly or as JSON family). */
  selectedMedia?: DocumentedMedia;
  /** The documented JSON media type: a parsed body is validated against it when the Content-Type selected none. */
  jsonMedia?: DocumentedMedia;
  mediaExact: boolean;
  /** The received type selected a documented one (exactly or as a JSON-family type). */
  mediaCompatible: boolean;
  /**
   * The documented media type whose schema the body is checked against: the selected
   * one, or, for a parsed (non-text) body with an undocumented Content-Type, the
   * documented JSON one, so both problems are reported.
   */
  media?: DocumentedMedia;
  /** The compiled validator of a documented schema (compiled on first use, once per contract); null: no schema. */
  validator(at: SchemaAt): ValidateFunction | null;
}

/** A response header by name, case-insensitively (RFC 9110: field names are case-insensitive). */
export function responseHeader(ctx: ExchangeContext, name: string): string | undefined {
  const raw = ctx.exchange.response.headers ?? {};
  const lower = name.toLowerCase();
  for (const k in raw) {
    if (k.toLowerCase() !== lower) continue;
    const v = raw[k] as unknown;
    if (v !== undefined && v !== null) return Array.isArray(v) ? v.join(', ') : String(v);
  }
  return undefined;
}

export interface WebhookContext {
  kind: 'webhook';
  type: string;
  payload: unknown;
  model: DocumentModel;
  webhook?: WebhookInfo;
  operationKey: string;
  options: CheckOptions;
  /** As ExchangeContext.validator. */
  validator(at: SchemaAt): ValidateFunction | null;
}

export type CheckContext = ExchangeContext | WebhookContext;

export interface CheckDefinition {
  name: string;
  /** What the check inspects; a check of the other kind is never asked (default: both). */
  kind?: 'exchange' | 'webhook';
  /** One line: what it verifies and the specification section it rests on. */
  description: string;
  /** Whether the check applies to this exchange or payload. */
  appliesTo(ctx: CheckContext): boolean;
  run(ctx: CheckContext): Failure[];
}

/** An exchange check, typed on the exchange context (it is never asked about a webhook). */
export function exchangeCheck(def: {
  name: string;
  description: string;
  appliesTo: (ctx: ExchangeContext) => boolean;
  run: (ctx: ExchangeContext) => Failure[];
}): CheckDefinition {
  return {
    name: def.name,
    kind: 'exchange',
    description: def.description,
    appliesTo: (ctx) => ctx.kind === 'exchange' && def.appliesTo(ctx),
    run: (ctx) => def.run(ctx as ExchangeContext),
  };
}

/**
 * One named rule of a check (../shared/DESIGN.md, "Checks and failures": when a check applies
 * is decided by small guards around it, not branches inside it). A check whose job has
 * several cases runs its rules: each rule whose guard holds, in order.
 */
export interface CheckRule<C> {
  name: string;
  appliesTo: (ctx: C) => boolean;
  run: (ctx: C) => Failure[];
}

/** The failures of every rule whose guard holds, in the rules' order. */
export function runRules<C>(rules: readonly CheckRule<C>[], ctx: C): Failure[] {
  const out: Failure[] = [];
  for (const rule of rules) if (rule.appliesTo(ctx)) for (const f of rule.run(ctx)) out.push(f);
  return out;
}

const table = new Map<string, CheckDefinition>();

export function registerCheck(def: CheckDefinition): void {
  if (!def || typeof def.name !== 'string' || !def.name) throw new Error('registerCheck: a check needs a name');
  if (table.has(def.name)) throw new Error(`registerCheck: a check named "${def.name}" is already registered`);
  table.set(def.name, def);
}

export function registeredChecks(): readonly CheckDefinition[] {
  return [...table.values()];
}

export function crashed(name: string, operationKey: string, location: string, phase: string, e: unknown): Failure {
  return {
    check: name,
    operation: operationKey,
    location,
    rule: 'a check never throws (../shared/DESIGN.md, "Checks and failures")',
    severity: 'error',
    message: `The check crashed in ${phase} (a suite defect, not necessarily the target's): ${(e as Error)?.message ?? String(e)}`,
  };
}

/** Runs every registered check of the context's kind, in registration order. */
export function runChecks(ctx: CheckContext, only?: readonly string[]): Failure[] {
  const out: Failure[] = [];
  const location = ctx.kind === 'exchange' ? 'response' : 'payload';
  for (const def of table.values()) {
    if (def.kind !== undefined && def.kind !== ctx.kind) continue;
    if (only && !only.includes(def.name)) continue;
    let applies: boolean;
    try {
      applies = def.appliesTo(ctx);
    } catch (e) {
      out.push(crashed(def.name, ctx.operationKey, location, 'appliesTo', e));
      continue;
    }
    if (!applies) continue;
    try {
      // A loop, not out.push(...failures): a spread passes every failure as an argument, and
      // a check of a huge list can return more than the engine's argument limit ("Maximum
      // call stack size exceeded" on a 20 MB page).
      for (const f of def.run(ctx)) out.push(f);
    } catch (e) {
      out.push(crashed(def.name, ctx.operationKey, location, 'run', e));
    }
  }
  return out;
}
