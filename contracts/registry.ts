/**
 * The check registry (../shared/DESIGN.md, "Checks and failures"; Schemathesis style):
 * one table of named checks that refuses duplicate names. Whether a check applies is
 * decided by its guard (`appliesTo`), not by branches inside it. An exchange check may
 * split its guard into a static part (`appliesToPlan`: operation, status, Content-Type,
 * version flags) and a per-call part (`appliesToCall`: body, query, options); plan.ts
 * evaluates the static part once per plan. A check that throws is caught and becomes a
 * failure: a bad response never crashes the suite.
 */
import type { Failure } from './failure.ts';
import type { DocumentModel, DocumentedMedia, DocumentedResponse, OperationInfo, OperationMatch, WebhookInfo } from './model.ts';
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
}

/**
 * What one check plan fixes (plan.ts): the same for every exchange with this document,
 * operation, status, Content-Type value and version flags. A check's static guard
 * (`appliesToPlan`) and plan-only verdict (`runOnPlan`) read only these, once per plan.
 */
export interface ExchangePlanFacts {
  kind: 'exchange';
  model: DocumentModel;
  /** The version whose document is used (platform), else undefined. */
  version?: string;
  /** False when the requested version has no document (unknown or sunset). */
  versionKnown: boolean;
  /** The requested version is one of `options.sunsetVersions`. */
  versionSunset: boolean;
  /** Request method, upper case. */
  method: string;
  /** The operation the request matched, or undefined. */
  operation?: OperationInfo;
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
}

/** One exchange being checked: the plan's facts plus what varies per call. */
export interface ExchangeContext extends ExchangePlanFacts {
  exchange: Exchange;
  options: CheckOptions;
  /** The version the exchange asked for (explicit or Accept-Version), if any. */
  requestedVersion?: string;
  path: string;
  query: string;
  match?: OperationMatch;
  /** `GET /institutions` (template), or the concrete path when no operation matched. */
  operationKey: string;
  /** The documented media type whose schema the body is checked against. */
  media?: DocumentedMedia;
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
  /** The whole guard, for any context (checks without `appliesToPlan` are asked per call). */
  appliesTo(ctx: CheckContext): boolean;
  run(ctx: CheckContext): Failure[];
  /**
   * Exchange checks, optional: the static part of the guard, asked once per plan
   * (operation, status, Content-Type, version flags). When present, exchanges use it and
   * `appliesToCall` instead of `appliesTo`.
   */
  appliesToPlan?(plan: ExchangePlanFacts): boolean;
  /** The per-call rest of the guard (body, query, options); absent: always applies. */
  appliesToCall?(ctx: ExchangeContext): boolean;
  /**
   * Optional: the verdict reads only plan facts, so a plan computes it once; an empty
   * verdict drops the check from the plan.
   */
  runOnPlan?(plan: ExchangePlanFacts): Failure[];
}

/** A check whose step runs in a plan (plan.ts). */
export interface PlanStep {
  def: CheckDefinition;
  /** Per-call guard, or undefined when the plan decided applicability. */
  guard: ((ctx: ExchangeContext) => boolean) | undefined;
  /** The failures fixed by the plan (runOnPlan), or undefined: `def.run` per call. */
  fixed: Failure[] | undefined;
}

/** A check plan: facts, the checks that apply, and the registry generation it was built from. */
export interface ExchangePlan extends ExchangePlanFacts {
  /** The Content-Type value the plan was built for, as received. */
  rawContentType: string | undefined;
  generation: number;
  steps: PlanStep[];
}

/**
 * An exchange check from the two parts of its guard; `appliesTo` and `run` are derived,
 * so the full-context path and the plan path decide alike.
 */
export function exchangeCheck(def: {
  name: string;
  description: string;
  appliesToPlan: (plan: ExchangePlanFacts) => boolean;
  appliesToCall?: (ctx: ExchangeContext) => boolean;
} & ({ run: (ctx: ExchangeContext) => Failure[]; runOnPlan?: undefined } | { runOnPlan: (plan: ExchangePlanFacts) => Failure[]; run?: undefined })): CheckDefinition {
  const { appliesToPlan, appliesToCall, runOnPlan, run } = def;
  return {
    name: def.name,
    kind: 'exchange',
    description: def.description,
    appliesToPlan,
    appliesToCall,
    runOnPlan,
    appliesTo: (ctx) => ctx.kind === 'exchange' && appliesToPlan(ctx) && (appliesToCall === undefined || appliesToCall(ctx)),
    // `appliesTo` holds only for exchanges, so the cast is safe; `run` is the check's own function (no wrapper on the hot path).
    run: (runOnPlan ?? run!) as (ctx: CheckContext) => Failure[],
  };
}

const table = new Map<string, CheckDefinition>();
let ordered: CheckDefinition[] = [];
/** The table split by kind, so an exchange never pays for webhook guards and vice versa. */
let byKind: Record<'exchange' | 'webhook', CheckDefinition[]> = { exchange: [], webhook: [] };
/** Rises on every registration: plans built from an older table are rebuilt. */
let generation = 0;

export function registerCheck(def: CheckDefinition): void {
  if (!def || typeof def.name !== 'string' || !def.name) throw new Error('registerCheck: a check needs a name');
  if (table.has(def.name)) throw new Error(`registerCheck: a check named "${def.name}" is already registered`);
  table.set(def.name, def);
  ordered = [...table.values()];
  byKind = {
    exchange: ordered.filter((d) => d.kind !== 'webhook'),
    webhook: ordered.filter((d) => d.kind !== 'exchange'),
  };
  generation++;
}

export function registeredChecks(): readonly CheckDefinition[] {
  return ordered;
}

export function registryGeneration(): number {
  return generation;
}

export function checksOfKind(kind: 'exchange' | 'webhook'): readonly CheckDefinition[] {
  return byKind[kind];
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

/** Runs every registered check of the context's kind on a full context (webhooks). */
export function runChecks(ctx: CheckContext, only?: readonly string[]): Failure[] {
  const out: Failure[] = [];
  const defs = byKind[ctx.kind];
  const location = ctx.kind === 'exchange' ? 'response' : 'payload';
  for (let d = 0; d < defs.length; d++) {
    const def = defs[d];
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
      const found = def.run(ctx);
      if (found.length !== 0) for (let i = 0; i < found.length; i++) out.push(found[i]);
    } catch (e) {
      out.push(crashed(def.name, ctx.operationKey, location, 'run', e));
    }
  }
  return out;
}
