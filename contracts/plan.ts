/**
 * Check plans: what the registry's guards decide from facts that repeat (document,
 * operation, status, Content-Type value, version flags) is decided once per plan, so a
 * call does the route lookup, one plan lookup, and runs only the checks that apply.
 *
 * A plan keeps each check's place in the registry order. For a check with a split guard
 * (`appliesToPlan` / `appliesToCall`) the static part is evaluated here; a check whose
 * verdict reads only plan facts (`runOnPlan`) is run here too and dropped when it finds
 * nothing. A check without a split guard is asked `appliesTo` per call, as before.
 */
import type { Failure } from './failure.ts';
import type { DocumentModel, DocumentedMedia, DocumentedResponse, OperationInfo, OperationMatch, Route } from './model.ts';
import { documentedMedia, documentedResponse } from './model.ts';
import {
  checksOfKind, crashed, registryGeneration,
  type CheckOptions, type Exchange, type ExchangeContext, type ExchangePlan, type ExchangePlanFacts, type PlanStep,
} from './registry.ts';

/** Plans kept per operation and status (distinct Content-Type values), and per model for the rest. */
const MAX_PLANS_PER_STATUS = 32;
const MAX_OTHER_PLANS = 2048;

/**
 * The plan for one exchange shape. Fast path (a matched operation, known version, not
 * sunset): the operation's last plan; kept small so it inlines into the caller.
 */
export function planFor(
  model: DocumentModel, operation: OperationInfo | undefined, method: string, status: number,
  rawContentType: string | undefined, versionKnown: boolean, versionSunset: boolean,
  parseMediaType: (raw: string | undefined) => string | undefined,
): ExchangePlan {
  // One-entry cache first: an operation mostly answers one status and Content-Type.
  const last = operation?.lastPlan;
  if (last !== undefined && last.status === status && last.rawContentType === rawContentType && versionKnown && !versionSunset &&
      last.generation === registryGeneration()) return last;
  return cachedPlan(model, operation, method, status, rawContentType, versionKnown, versionSunset, parseMediaType);
}

/** Plans by status then Content-Type per operation; by a string key per document for the rest. */
function cachedPlan(
  model: DocumentModel, operation: OperationInfo | undefined, method: string, status: number,
  rawContentType: string | undefined, versionKnown: boolean, versionSunset: boolean,
  parseMediaType: (raw: string | undefined) => string | undefined,
): ExchangePlan {
  const generation = registryGeneration();
  const typeKey = rawContentType ?? '';
  if (operation !== undefined && versionKnown && !versionSunset && status >= 0 && status < operation.plans.length && Number.isInteger(status)) {
    let byType = operation.plans[status];
    let plan = byType?.get(typeKey);
    if (plan === undefined || plan.generation !== generation) {
      plan = buildPlan(model, operation, method, status, rawContentType, true, false, parseMediaType, generation);
      if (byType === undefined) operation.plans[status] = byType = new Map();
      if (byType.size >= MAX_PLANS_PER_STATUS) byType.clear();
      byType.set(typeKey, plan);
    }
    operation.lastPlan = plan;
    return plan;
  }
  const key = `${versionKnown ? 1 : 0}${versionSunset ? 1 : 0}|${operation?.key ?? method}|${status}|${typeKey}`;
  const hit = model.otherPlans.get(key);
  if (hit !== undefined && hit.generation === generation) return hit;
  const plan = buildPlan(model, operation, method, status, rawContentType, versionKnown, versionSunset, parseMediaType, generation);
  if (model.otherPlans.size >= MAX_OTHER_PLANS) model.otherPlans.clear();
  model.otherPlans.set(key, plan);
  return plan;
}

function buildPlan(
  model: DocumentModel, operation: OperationInfo | undefined, method: string, status: number,
  rawContentType: string | undefined, versionKnown: boolean, versionSunset: boolean,
  parseMediaType: (raw: string | undefined) => string | undefined, generation: number,
): ExchangePlan {
  const documented: DocumentedResponse | undefined = operation ? documentedResponse(operation, status) : undefined;
  let mediaType: string | undefined;
  let selectedMedia: DocumentedMedia | undefined;
  let jsonMedia: DocumentedMedia | undefined;
  let mediaExact = false;
  if (!documented) {
    mediaType = parseMediaType(rawContentType);
  } else {
    const selected = documentedMedia(documented, rawContentType, parseMediaType);
    mediaType = selected.received;
    selectedMedia = selected.media;
    mediaExact = selected.exact;
    jsonMedia = documented.media.find((m) => m.isJson);
    // Prepared state: compile the validators this plan can use now, not on a call.
    for (const m of [selectedMedia, jsonMedia]) {
      if (m?.schemaUri && m.validator === undefined) {
        try { model.responseValidator(documented, m); } catch { /* reported by the schema check's run */ }
      }
    }
  }
  const facts: ExchangePlanFacts = {
    kind: 'exchange',
    model,
    version: model.version,
    versionKnown,
    versionSunset,
    method,
    operation,
    status,
    documented,
    mediaType,
    selectedMedia,
    jsonMedia,
    mediaExact,
    mediaCompatible: selectedMedia !== undefined,
  };
  const where = operation?.key ?? method;
  const steps: PlanStep[] = [];
  for (const def of checksOfKind('exchange')) {
    if (!def.appliesToPlan) {
      steps.push({ def, guard: def.appliesTo as (ctx: ExchangeContext) => boolean, fixed: undefined });
      continue;
    }
    let applies: boolean;
    try {
      applies = def.appliesToPlan(facts);
    } catch (e) {
      steps.push({ def, guard: undefined, fixed: [crashed(def.name, where, 'response', 'appliesToPlan', e)] });
      continue;
    }
    if (!applies) continue;
    if (def.runOnPlan) {
      let fixed: Failure[];
      try {
        fixed = def.runOnPlan(facts);
      } catch (e) {
        fixed = [crashed(def.name, where, 'response', 'runOnPlan', e)];
      }
      // Nothing to report for any call of this plan: the check costs nothing per call.
      if (fixed.length === 0) continue;
      steps.push({ def, guard: def.appliesToCall, fixed });
    } else {
      steps.push({ def, guard: def.appliesToCall, fixed: undefined });
    }
  }
  return { ...facts, rawContentType, generation, steps };
}

/** The per-call context: the plan's facts (read through) plus the exchange. One small object per call that runs a check. */
class CallContext implements ExchangeContext {
  readonly kind = 'exchange' as const;
  lowerCaseHeaders: Record<string, string> | undefined = undefined;
  /**
   * The documented media type whose schema the body is checked against: the selected
   * one, or, for a parsed (non-text) body with an undocumented Content-Type, the
   * documented JSON one, so both problems are reported.
   */
  readonly media: DocumentedMedia | undefined;
  constructor(
    readonly plan: ExchangePlan,
    readonly exchange: Exchange,
    readonly options: CheckOptions,
    readonly requestedVersion: string | undefined,
    readonly route: Route,
  ) {
    this.media = plan.selectedMedia ?? (typeof exchange.response.body !== 'string' ? plan.jsonMedia : undefined);
  }
  get model(): DocumentModel { return this.plan.model; }
  get version(): string | undefined { return this.plan.version; }
  get versionKnown(): boolean { return this.plan.versionKnown; }
  get versionSunset(): boolean { return this.plan.versionSunset; }
  get method(): string { return this.plan.method; }
  get operation(): OperationInfo | undefined { return this.plan.operation; }
  get status(): number { return this.plan.status; }
  get documented(): DocumentedResponse | undefined { return this.plan.documented; }
  get mediaType(): string | undefined { return this.plan.mediaType; }
  get selectedMedia(): DocumentedMedia | undefined { return this.plan.selectedMedia; }
  get jsonMedia(): DocumentedMedia | undefined { return this.plan.jsonMedia; }
  get mediaExact(): boolean { return this.plan.mediaExact; }
  get mediaCompatible(): boolean { return this.plan.mediaCompatible; }
  get path(): string { return this.route.path; }
  get query(): string { return this.route.query; }
  get match(): OperationMatch | undefined { return this.route.match; }
  get operationKey(): string { return this.route.operationKey; }
}

/** Runs a plan's steps on one exchange; a check that throws becomes a failure. */
export function runPlan(plan: ExchangePlan, exchange: Exchange, options: CheckOptions, requestedVersion: string | undefined, route: Route): Failure[] {
  const out: Failure[] = [];
  const steps = plan.steps;
  const n = steps.length;
  if (n === 0) return out;
  const only = options.only;
  const ctx = new CallContext(plan, exchange, options, requestedVersion, route);
  for (let i = 0; i < n; i++) {
    const step = steps[i];
    if (only !== undefined && !only.includes(step.def.name)) continue;
    const guard = step.guard;
    if (guard !== undefined) {
      let applies: boolean;
      try {
        applies = guard(ctx);
      } catch (e) {
        out.push(crashed(step.def.name, route.operationKey, 'response', step.def.appliesToPlan ? 'appliesToCall' : 'appliesTo', e));
        continue;
      }
      if (!applies) continue;
    }
    const fixed = step.fixed;
    if (fixed !== undefined) {
      // Copies: a caller may annotate its failures; the plan's stay as built.
      for (let j = 0; j < fixed.length; j++) out.push({ ...fixed[j], operation: route.operationKey });
      continue;
    }
    try {
      const found = step.def.run(ctx);
      for (let j = 0; j < found.length; j++) out.push(found[j]);
    } catch (e) {
      out.push(crashed(step.def.name, route.operationKey, 'response', 'run', e));
    }
  }
  return out;
}
