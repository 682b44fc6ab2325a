/**
 * Request generators of the fuzz project (issue 14): for every operation of the
 * platform (each supported version), audience and test-host documents, fast-check
 * arbitraries of whole requests (path, query, headers, body) drawn from the operation's
 * description in the loaded contract (contracts/: the same documents, models and `$ref`
 * loader the checks use), in the kinds contracts/generated.ts judges:
 *
 *   valid             every parameter and the body valid by what the document states;
 *                     identifiers from the resources the chains created, or unknown ones
 *   positive          a read of resources that exist, nothing else varied: acceptance
 *                     expected (stated where the path parameter's statement says so)
 *   negative          one rule broken (schema.ts mutationsOf), or an unknown identifier
 *                     where the Errors table states 404 for the operation
 *   no-auth / wrong-auth / missing-header / unsupported-method
 *
 * What "valid" means is what the document states, never what the simulator accepts:
 * open fields draw any scalar, so a target may refuse a valid case; only `positive`
 * cases, built from existing resources and nothing open, expect acceptance.
 */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Contract } from '../../../contracts/contract.ts';
import type { ApiName } from '../../../contracts/load.ts';
import { follow, pointerOf } from '../../../contracts/load.ts';
import type { OperationInfo } from '../../../contracts/model.ts';
import type { GeneratedCase } from '../../../contracts/generated.ts';
import { GENERATED_RULES } from '../../../contracts/generated.ts';
import { applyMutation, mutationsOf, resolveSchema, safeString, valueOf, type Mutation, type SchemaAt } from './schema.ts';

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: SchemaAt;
  description?: string;
}

export interface SecurityNeed {
  scheme: string;
  type: 'basic' | 'bearer' | 'header';
  /** Header name of an apiKey scheme. */
  header?: string;
}

export interface OperationSpec {
  api: ApiName;
  /** Platform version whose document describes it (the Accept-Version sent). */
  version?: string;
  info: OperationInfo;
  key: string;
  method: string;
  path: string;
  params: ParamSpec[];
  body?: { at: SchemaAt; required: boolean };
  security: SecurityNeed[];
  /** `x-svc-sunset`: the operation answers an error by design in this version (version_conformance judges it). */
  sunset: boolean;
  /** The description of a documented 404 (Errors table), when there is one. */
  stated404?: string;
  /** Accept header value the document names (test host: x-svc-accept). */
  accept?: string;
}

/** Identifiers known to exist (fed forward by the chains), by path/query parameter name. */
export type KnownIds = Record<string, string[]>;

export interface RequestContext {
  /** Versions whose changes the specification states (x-svc-api-versions without x-svc-not-shown). */
  statedVersions: Set<string>;
  /** Source-document requirements: `Schema.property` -> first version it is required from. */
  requiredFrom: Map<string, string>;
}

export interface FuzzCase {
  api: ApiName;
  version?: string;
  method: string;
  /** Concrete path, relative to the API's base URL. */
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: unknown;
  /** A body sent as is instead of `body` (malformed JSON). */
  rawBody?: string;
  auth: 'default' | 'none' | 'wrong';
  /** Send the SVC-3DX-TOKEN (or another apiKey header) the operation needs. */
  omitHeader?: string;
  generated: GeneratedCase;
  /** The operation the case was drawn for (`GET /institutions`). */
  operation: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/**
 * Path parameters whose statement says which identifiers the path accepts: a read of an
 * existing resource through them that is refused breaks that sentence (stated).
 */
export const STATED_IDENTIFIERS: Record<string, string> = {
  institution_identifier: 'Endpoints, Institutions: "identifier is the institution code or guid"',
  ach_return_guid: 'Endpoints, ACH returns: "path accepts the return\'s guid or id"',
};

/** The versions whose changes are stated, and the version-bound requirements of the source document. */
export function requestContext(contract: Contract): RequestContext {
  const statedVersions = new Set<string>();
  const requiredFrom = new Map<string, string>();
  try {
    const source = contract.sourceDocument('platform') as any;
    for (const v of source.info?.['x-svc-api-versions'] ?? []) if (v?.name && !v['x-svc-not-shown']) statedVersions.add(v.name);
    // `Name.a.b` for every property (inline objects included) marked x-svc-required-from.
    const walk = (prefix: string, schema: any, depth: number) => {
      if (!schema || typeof schema !== 'object' || depth > 6) return;
      for (const [prop, s] of Object.entries((schema.properties ?? {}) as Record<string, any>)) {
        if (typeof s?.['x-svc-required-from'] === 'string') requiredFrom.set(`${prefix}.${prop}`, s['x-svc-required-from']);
        if (s && typeof s === 'object' && !s.$ref) walk(`${prefix}.${prop}`, s, depth + 1);
      }
    };
    for (const [name, schema] of Object.entries((source.components?.schemas ?? {}) as Record<string, any>)) walk(name, schema, 0);
  } catch {
    /* no source document: nothing is stated, every requirement stays inferred */
  }
  return { statedVersions, requiredFrom };
}

function readParams(raw: unknown, uri: string, pointer: string): ParamSpec[] {
  const out: ParamSpec[] = [];
  if (!Array.isArray(raw)) return out;
  raw.forEach((p, i) => {
    const located = follow<any>(p, uri, `${pointer}/${i}`);
    const v = located?.value;
    if (!v || typeof v.name !== 'string') return;
    out.push({ name: v.name, in: v.in, required: v.required === true || v.in === 'path', schema: { schema: v.schema ?? {}, uri: located!.uri }, description: v.description });
  });
  return out;
}

function securityOf(doc: OpenAPIV3_1.Document, op: any): SecurityNeed[] {
  const reqs = (op.security ?? doc.security ?? []) as Array<Record<string, unknown>>;
  const first = reqs[0];
  if (!first) return [];
  const schemes = ((doc.components as any)?.securitySchemes ?? {}) as Record<string, any>;
  const out: SecurityNeed[] = [];
  for (const name of Object.keys(first)) {
    const s = schemes[name];
    if (!s) continue;
    if (s.type === 'http' && s.scheme === 'basic') out.push({ scheme: name, type: 'basic' });
    else if (s.type === 'http' && s.scheme === 'bearer') out.push({ scheme: name, type: 'bearer' });
    else if (s.type === 'apiKey' && s.in === 'header') out.push({ scheme: name, type: 'header', header: s.name });
  }
  return out;
}

/** Every operation of one document, with parameters (path item and operation), body and security. */
export function operationsOf(contract: Contract, api: ApiName, version?: string): OperationSpec[] {
  const model = contract.model(api, version);
  const doc = model.doc;
  const out: OperationSpec[] = [];
  for (const info of model.operations) {
    const item = follow<any>((doc.paths as any)[info.path], model.uri, pointerOf(['paths', info.path]));
    if (!item?.value) continue;
    const opPointer = `${item.pointer}/${info.method.toLowerCase()}`;
    const byName = new Map<string, ParamSpec>();
    for (const p of readParams(item.value.parameters, item.uri, `${item.pointer}/parameters`)) byName.set(`${p.in}:${p.name}`, p);
    for (const p of readParams(info.operation.parameters, item.uri, `${opPointer}/parameters`)) byName.set(`${p.in}:${p.name}`, p);
    let body: OperationSpec['body'];
    const rb = info.operation.requestBody ? follow<any>(info.operation.requestBody, item.uri, `${opPointer}/requestBody`) : undefined;
    const json = rb?.value?.content?.['application/json'];
    if (json) body = { at: { schema: json.schema ?? {}, uri: rb!.uri }, required: rb!.value.required === true };
    const r404 = info.responses.get('404');
    const r404Raw = (info.operation.responses as any)?.['404'];
    const r404Doc = r404Raw ? follow<any>(r404Raw, item.uri, `${opPointer}/responses/404`)?.value : undefined;
    out.push({
      api, version, info, key: info.key, method: info.method, path: info.path,
      params: [...byName.values()],
      body,
      security: securityOf(doc, info.operation),
      sunset: info.sunset,
      ...(r404 ? { stated404: `Errors, 404: ${String(r404Doc?.description ?? 'documented 404').trim()}` } : {}),
      ...(typeof (doc.info as any)?.['x-svc-accept'] === 'string' ? { accept: (doc.info as any)['x-svc-accept'] } : {}),
    });
  }
  return out;
}

/** Methods the document lists per path template (for unsupported_method). */
export function methodsByPath(specs: readonly OperationSpec[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of specs) {
    const k = `${s.api}|${s.version ?? ''}|${s.path}`;
    if (!out.has(k)) out.set(k, new Set());
    out.get(k)!.add(s.method);
  }
  return out;
}

/** A value drawn for one path parameter, and whether it names a resource that exists. */
interface Drawn { value: string; known: boolean }

function pathParamArb(p: ParamSpec, known: KnownIds, allowKnown: boolean): fc.Arbitrary<Drawn> {
  const values = allowKnown ? known[p.name] ?? [] : [];
  const unknown = fc.string({ unit: fc.constantFrom(...'abcdef0123456789'.split('')), minLength: 6, maxLength: 12 }).map((s) => ({ value: `FUZZ-${s}`, known: false }));
  if (!values.length) return unknown;
  return fc.oneof({ arbitrary: fc.constantFrom(...values).map((value) => ({ value, known: true })), weight: 5 }, { arbitrary: unknown, weight: 1 });
}

function concretePath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
}

function scalarString(v: unknown): string {
  if (typeof v === 'string') return v;
  return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Header values must be visible ASCII (RFC 9110 §5.5); anything else is not a header this generator sends. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '').trim();

/** A request the chains sent and the target accepted: the base of negative cases (one rule broken on a request that is otherwise accepted). */
export interface Example {
  params: Record<string, string>;
  body: unknown;
}

export interface CaseOptions {
  known: KnownIds;
  /** An accepted request of this operation (chains.ts), when the chains made one. */
  example?: Example;
  /** Operations whose known identifiers may be used (false for deletes: they would remove the chains' resources). */
  destructiveIds?: boolean;
  /** Methods other operations list for the same path (unsupported_method draws another). */
  pathMethods?: Set<string>;
  /**
   * Platform versions to send besides the document's own: a version the target has sunset
   * (profile.versions.sunset; Versioning: "requests return an error", stated, judged by
   * version_conformance) and one no document names (refused: inferred).
   */
  otherVersions?: { sunset?: string; unknown?: string };
}

/** The base part of every case: parameters and a valid body. */
function baseArb(spec: OperationSpec, o: CaseOptions) {
  const allowKnown = spec.method !== 'DELETE' && !/\/merge$/.test(spec.path);
  const pathParams = spec.params.filter((p) => p.in === 'path');
  const query = spec.params.filter((p) => p.in === 'query');
  const headers = spec.params.filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'accept-version');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathParamArb(p, o.known, allowKnown)])) as Record<string, fc.Arbitrary<Drawn>>);
  const queryArb = fc.record(
    Object.fromEntries(query.map((p) => [p.name, o.known[p.name]?.length ? fc.oneof(fc.constantFrom(...o.known[p.name]), valueOf(p.schema).map(scalarString)) : valueOf(p.schema).map(scalarString)])) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: query.filter((p) => p.required).map((p) => p.name) },
  );
  const headerArb = fc.record(
    Object.fromEntries(headers.map((p) => [p.name, valueOf(p.schema).map((v) => headerSafe(scalarString(v)) || 'x')])) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: headers.filter((p) => p.required).map((p) => p.name) },
  );
  const bodyArb: fc.Arbitrary<unknown> = spec.body
    ? spec.body.required ? valueOf(spec.body.at) : fc.option(valueOf(spec.body.at), { nil: undefined })
    : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb, headers: headerArb, body: bodyArb });
}

function caseFrom(spec: OperationSpec, b: { path: Record<string, Drawn>; query: Record<string, string>; headers: Record<string, string>; body: unknown }, generated: GeneratedCase, extra: Partial<FuzzCase> = {}): FuzzCase {
  const values = Object.fromEntries(Object.entries(b.path).map(([k, d]) => [k, d.value]));
  return {
    api: spec.api,
    version: spec.version,
    method: spec.method,
    path: concretePath(spec.path, values),
    query: Object.entries(b.query).map(([k, v]) => [k, v] as [string, string]),
    headers: { ...b.headers },
    ...(b.body !== undefined ? { body: b.body } : {}),
    auth: 'default',
    generated,
    operation: spec.key,
    ...extra,
  };
}

/** The authority of a refusal without credentials, per scheme (Authentication 1, 5; test host: inferred). */
function authRule(spec: OperationSpec): { tier: GeneratedCase['tier']; rule: string } {
  if (spec.api === 'audience') return { tier: 'stated', rule: GENERATED_RULES.bearerAuth };
  if (spec.api === 'test-host') return { tier: 'inferred', rule: GENERATED_RULES.testHostAuth };
  return { tier: 'stated', rule: GENERATED_RULES.basicAuth };
}

/** The mutations of an operation's body, with stated requirements resolved for its version. */
export function bodyMutations(spec: OperationSpec, ctx: RequestContext): Mutation[] {
  if (!spec.body) return [];
  return mutationsOf(spec.body.at, {
    version: spec.version,
    statedRequirement: (schemaName, prop) => {
      const from = schemaName ? ctx.requiredFrom.get(`${schemaName}.${prop}`) : undefined;
      if (!from || !spec.version || spec.version < from || !ctx.statedVersions.has(spec.version)) return undefined;
      return `Versioning, changes in ${from}: "${prop}" is required from ${from} (${schemaName}; the ${spec.version} document states it)`;
    },
  });
}

/**
 * Every kind of case for one operation, weighted. `kinds` restricts the kinds (unit
 * tests, the bench); by default every kind that applies to the operation is drawn.
 */
export function caseArbitrary(spec: OperationSpec, ctx: RequestContext, o: CaseOptions): fc.Arbitrary<FuzzCase> {
  const base = baseArb(spec, o);
  const arbs: Array<{ arbitrary: fc.Arbitrary<FuzzCase>; weight: number }> = [];
  // Sunset operations answer an error whatever is sent (version_conformance judges that): valid cases only.
  const judged = !spec.sunset;
  arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'valid', tier: 'informational', rule: 'valid by the request description (spec/)', what: 'a request valid by its description' })), weight: 4 });

  // positive: a read whose path names only resources that exist, no query, no open header.
  const pathParams = spec.params.filter((p) => p.in === 'path');
  if (judged && spec.method === 'GET' && pathParams.every((p) => (o.known[p.name]?.length ?? 0) > 0) && pathParams.length > 0) {
    const positive = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.constantFrom(...o.known[p.name]).map((value) => ({ value, known: true }))])) as Record<string, fc.Arbitrary<Drawn>>)
      .map((path) => {
        const statedParam = pathParams.find((p) => STATED_IDENTIFIERS[p.name]);
        const generated: GeneratedCase = statedParam
          ? { kind: 'positive', tier: 'stated', rule: STATED_IDENTIFIERS[statedParam.name], what: `a read of an existing resource by ${pathParams.map((p) => p.name).join(', ')}` }
          : { kind: 'positive', tier: 'inferred', rule: 'Endpoints: the operation reads the resource its path names; that a read of an existing resource succeeds is inferred', what: `a read of existing ${pathParams.map((p) => p.name).join(', ')}` };
        return caseFrom(spec, { path, query: {}, headers: {}, body: undefined }, generated);
      });
    arbs.push({ arbitrary: positive, weight: 2 });
  }

  // negative: one rule of the body or of a typed parameter broken.
  const mutations = judged ? bodyMutations(spec, ctx) : [];
  const example = o.example;
  if (mutations.length && example && pathParams.every((p) => example.params[p.name] !== undefined)) {
    // On a request the target accepted, so the one broken rule is the only reason to refuse it.
    const path = Object.fromEntries(pathParams.map((p) => [p.name, { value: example.params[p.name], known: true }]));
    arbs.push({
      arbitrary: fc.constantFrom(...mutations).map((m) => caseFrom(spec, { path, query: {}, headers: {}, body: applyMutation(example.body, m) }, { kind: 'negative', tier: m.tier, rule: m.rule, what: `${m.what}, on a request otherwise accepted` })),
      weight: mutations.some((m) => m.tier === 'stated') ? 4 : 2,
    });
  }
  if (mutations.length) {
    arbs.push({
      arbitrary: fc.tuple(base, fc.constantFrom(...mutations)).map(([b, m]) => caseFrom(spec, { ...b, body: applyMutation(b.body ?? {}, m) }, { kind: 'negative', tier: m.tier, rule: m.rule, what: m.what })),
      weight: mutations.some((m) => m.tier === 'stated') ? 3 : 2,
    });
  }
  const typedQuery = judged ? spec.params.filter((p) => p.in === 'query' && ['integer', 'number', 'boolean'].includes(resolveSchema(p.schema).schema.type)) : [];
  if (typedQuery.length) {
    arbs.push({
      arbitrary: fc.tuple(base, fc.constantFrom(...typedQuery)).map(([b, p]) => caseFrom(spec, { ...b, query: { ...b.query, [p.name]: 'not-a-number' } },
        { kind: 'negative', tier: 'inferred', rule: `the request description (spec/): query ${p.name} is of type ${resolveSchema(p.schema).schema.type}; that a service refuses another value is inferred`, what: `query ${p.name}=not-a-number` })),
      weight: 1,
    });
  }
  // An unknown identifier where the Errors table states 404 (credentials list, data exchange transaction reads).
  if (judged && spec.stated404 && pathParams.length) {
    const last = pathParams[pathParams.length - 1];
    arbs.push({
      arbitrary: base.map((b) => caseFrom(spec, { ...b, path: { ...b.path, [last.name]: { value: `FUZZ-unknown-${last.name}`, known: false } }, query: {} },
        { kind: 'negative', tier: 'stated', rule: spec.stated404!, what: `an unknown ${last.name}` })),
      weight: 1,
    });
  }
  if (judged && spec.security.length) {
    const { tier, rule } = authRule(spec);
    arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'no-auth', tier, rule, what: 'no credentials' }, { auth: 'none' })), weight: 1 });
    arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'wrong-auth', tier, rule, what: 'a wrong secret' }, { auth: 'wrong' })), weight: 1 });
  }
  const token = spec.security.find((s) => s.type === 'header' && s.header?.toLowerCase() === 'svc-3dx-token');
  if (judged && token) {
    arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'missing-header', tier: 'stated', rule: GENERATED_RULES.threeDxToken, what: 'no SVC-3DX-TOKEN header' }, { omitHeader: token.header })), weight: 2 });
  }
  // Another Accept-Version on the same request: version_conformance judges the answer.
  const sunsetV = spec.api === 'platform' ? o.otherVersions?.sunset : undefined;
  if (sunsetV) arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'valid', tier: 'informational', rule: 'Versioning: after sunset "requests return an error"', what: `Accept-Version ${sunsetV} (sunset)` }, { version: sunsetV })), weight: 1 });
  const unknownV = spec.api === 'platform' ? o.otherVersions?.unknown : undefined;
  if (unknownV && judged) {
    arbs.push({ arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'negative', tier: 'inferred', rule: 'Versioning: "Versions in play: v20260929, v20250224, v20111101"; that a version none of them names is refused is inferred', what: `Accept-Version ${unknownV}, a version the specification does not name` }, { version: unknownV })), weight: 1 });
  }
  // Malformed JSON where the operation takes a body (Endpoints: "Request and response bodies
  // are JSON"): a refusal is expected (inferred: no status is stated), never a 5xx.
  if (judged && spec.body) {
    arbs.push({
      arbitrary: fc.tuple(base, fc.constantFrom('{"unterminated": ', '{not json}', '[1, 2,', 'null null')).map(([b, raw]) => caseFrom(spec, { ...b, body: undefined }, { kind: 'negative', tier: 'inferred', rule: 'Endpoints: "Request and response bodies are JSON"; that a body which is not JSON is refused is inferred', what: `a body that is not JSON (${JSON.stringify(raw)})` }, { rawBody: raw })),
      weight: 1,
    });
  }
  const others = METHODS.filter((m) => !(o.pathMethods ?? new Set([spec.method])).has(m));
  if (others.length) {
    arbs.push({
      arbitrary: fc.tuple(base, fc.constantFrom(...others)).map(([b, m]) => caseFrom(spec, { ...b, body: m === 'GET' || m === 'DELETE' ? undefined : b.body ?? {} },
        { kind: 'unsupported-method', tier: 'informational', rule: GENERATED_RULES.unsupportedMethod, what: `${m} on a path the document lists only for ${[...(o.pathMethods ?? [])].join(', ')}` }, { method: m, operation: `${m} ${spec.path}` })),
      weight: 1,
    });
  }
  return fc.oneof(...arbs);
}

/**
 * Cases every run tries first (fast-check `examples`): each requirement the specification
 * states for this version, broken alone on a request the chains had accepted. Drawn at
 * random among dozens of inferred mutations they would be rare; stated rules are the ones
 * that gate, so each is tried every run.
 */
export function statedCases(spec: OperationSpec, ctx: RequestContext, o: CaseOptions): FuzzCase[] {
  const example = o.example;
  if (spec.sunset || !example) return [];
  const pathParams = spec.params.filter((p) => p.in === 'path');
  if (!pathParams.every((p) => example.params[p.name] !== undefined)) return [];
  const path = Object.fromEntries(pathParams.map((p) => [p.name, { value: example.params[p.name], known: true }]));
  return bodyMutations(spec, ctx).filter((m) => m.tier === 'stated')
    .map((m) => caseFrom(spec, { path, query: {}, headers: {}, body: applyMutation(example.body, m) }, { kind: 'negative', tier: m.tier, rule: m.rule, what: `${m.what}, on a request otherwise accepted` }));
}

/** Case kinds an operation can draw (for the bench's and the report's coverage lines). */
export function caseKinds(spec: OperationSpec, ctx: RequestContext, o: CaseOptions): string[] {
  const kinds = ['valid'];
  if (!spec.sunset && spec.method === 'GET' && spec.params.filter((p) => p.in === 'path').every((p) => o.known[p.name]?.length)) kinds.push('positive');
  if (!spec.sunset && bodyMutations(spec, ctx).length) kinds.push('negative');
  if (!spec.sunset && spec.security.length) kinds.push('no-auth', 'wrong-auth');
  return kinds;
}

export { safeString };
