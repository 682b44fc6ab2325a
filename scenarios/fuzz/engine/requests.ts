/**
 * Request generators of the fuzz project: for every operation of the
 * platform (each supported version), audience and test-host documents, fast-check
 * arbitraries of whole requests (path, query, headers, body) drawn from the operation's
 * description in the loaded contract (contracts/: the same documents, models and `$ref`
 * loader the checks use), in the kinds contracts/generated.ts judges:
 *
 *   valid             every parameter and the body valid by what the document states;
 *                     identifiers from the resources the chains created, or unknown ones
 *   positive          a read of resources that exist, nothing else varied: acceptance
 *                     expected (stated where the path parameter's statement says so)
 *   negative          one rule broken (schema.ts mutationsOf; values that ALMOST meet a
 *                     request rule, from the contract's near-miss generator), or an unknown
 *                     identifier where the Errors table states 404 for the operation; a
 *                     broken rule of the contract's request tables gives the case its tier
 *                     (stated where the specification states it)
 *   no-auth / wrong-auth / missing-header / unsupported-method
 *
 * What "valid" means is what the document states, never what the simulator accepts:
 * open fields draw any scalar, so a target may refuse a valid case; only `positive`
 * cases, built from existing resources and nothing open, expect acceptance.
 */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  type Contract,
  type ApiName,
  follow,
  notShownOf,
  pointerOf,
  type OperationInfo,
  type GeneratedCase,
  GENERATED_RULES,
  bodyNearMisses,
  brokenRequestRules,
  pageNearMisses,
  versionNearMisses,
  type NearMiss,
} from '../../../contracts/index.ts';
import { statedPlatformReach } from './stated-reach.ts';
import { applyMutation, mutationsOf, namedValuesOf, resolveSchema, valueOf, type Mutation, type SchemaAt } from './schema.ts';

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
    out.push({
      name: v.name,
      in: v.in,
      required: v.required === true || v.in === 'path',
      schema: { schema: v.schema ?? {}, uri: located!.uri },
      description: v.description,
    });
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
      api,
      version,
      info,
      key: info.key,
      method: info.method,
      path: info.path,
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
interface Drawn {
  value: string;
  known: boolean;
}

function pathParamArb(p: ParamSpec, known: KnownIds, allowKnown: boolean): fc.Arbitrary<Drawn> {
  const values = allowKnown ? (known[p.name] ?? []) : [];
  const unknown = fc
    .string({ unit: fc.constantFrom(...'abcdef0123456789'.split('')), minLength: 6, maxLength: 12 })
    .map((s) => ({ value: `FUZZ-${s}`, known: false }));
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
  /**
   * Credential headers the run has no value for (lower case): no SVC-3DX-TOKEN when the chains
   * could not create one (its grant's identities are settings the target does not reveal).
   * A read that needs one cannot expect acceptance (Authentication 3).
   */
  missingHeaders?: readonly string[];
}

/** The base part of every case: parameters and a valid body. */
function baseArb(spec: OperationSpec, o: CaseOptions) {
  const allowKnown = spec.method !== 'DELETE' && !/\/merge$/.test(spec.path);
  const pathParams = spec.params.filter((p) => p.in === 'path');
  const query = spec.params.filter((p) => p.in === 'query');
  const headers = spec.params.filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'accept-version');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathParamArb(p, o.known, allowKnown)])) as Record<string, fc.Arbitrary<Drawn>>);
  const queryArb = fc.record(
    Object.fromEntries(
      query.map((p) => [
        p.name,
        o.known[p.name]?.length ? fc.oneof(fc.constantFrom(...o.known[p.name]), valueOf(p.schema).map(scalarString)) : valueOf(p.schema).map(scalarString),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: query.filter((p) => p.required).map((p) => p.name) },
  );
  const headerArb = fc.record(
    Object.fromEntries(headers.map((p) => [p.name, valueOf(p.schema).map((v) => headerSafe(scalarString(v)) || 'x')])) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: headers.filter((p) => p.required).map((p) => p.name) },
  );
  const bodyArb: fc.Arbitrary<unknown> = spec.body
    ? spec.body.required
      ? valueOf(spec.body.at)
      : fc.option(valueOf(spec.body.at), { nil: undefined })
    : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb, headers: headerArb, body: bodyArb });
}

function caseFrom(
  spec: OperationSpec,
  b: { path: Record<string, Drawn>; query: Record<string, string>; headers: Record<string, string>; body: unknown },
  generated: GeneratedCase,
  extra: Partial<FuzzCase> = {},
): FuzzCase {
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
 * The tier and sentence of a case whose body breaks a rule: the first stated rule of the
 * contract's request tables (contracts/ near-miss rules, the integration judge's: the ACH
 * return table, the widget URL and create-member field types, the wrappers, data_request on
 * v20250224, the scope entries) the body breaks and the base met; else the mutation's own
 * (the request description's, inferred). So `ach_return.return_code = "!~not matching~!"`
 * is judged as stated as `r01` is.
 */
export function ruleOfBody(
  spec: OperationSpec,
  base: unknown,
  body: unknown,
  own: { tier: GeneratedCase['tier']; rule: string },
): { tier: GeneratedCase['tier']; rule: string } {
  if (spec.api !== 'platform') return own;
  const before = new Set(brokenRequestRules(spec.key, { body: base, version: spec.version }).map((r) => r.id));
  const stated = brokenRequestRules(spec.key, { body, version: spec.version }).find((r) => r.tier === 'stated' && !before.has(r.id));
  return stated ? { tier: 'stated', rule: `${stated.rule} (${stated.why})` } : own;
}

/** The parts of a case besides its body. */
type CaseParts = Omit<Parameters<typeof caseFrom>[1], 'body'>;

/** A negative case of one body mutation, tiered by `ruleOfBody`. */
function mutationCase(spec: OperationSpec, b: CaseParts, base: unknown, m: Mutation, suffix = ''): FuzzCase {
  const body = applyMutation(base, m);
  const { tier, rule } = ruleOfBody(spec, base, body, m);
  return caseFrom(spec, { ...b, body }, { kind: 'negative', tier, rule, what: `${m.what}${suffix}` });
}

/** A negative case of one near miss (contracts/ near-miss rules): its rule's tier and sentence, and why. */
function nearMissCase(spec: OperationSpec, b: CaseParts, n: NearMiss, suffix = ''): FuzzCase {
  return caseFrom(
    spec,
    { ...b, body: n.request.body },
    { kind: 'negative', tier: n.rule.tier, rule: `${n.rule.rule} (${n.rule.why})`, what: `${n.what}${suffix}` },
    n.request.version !== undefined && n.request.version !== spec.version ? { version: n.request.version } : {},
  );
}

/**
 * Near misses of the operation's body rules on the request the chains had accepted. The
 * client id of an ACH return is never the value varied: ACH returns have no delete
 * operation, and an accepted one would stay without the suite's id.
 */
function bodyNearMissesOf(spec: OperationSpec, example: Example): NearMiss[] {
  if (spec.api !== 'platform' || spec.sunset) return [];
  return bodyNearMisses(spec.key, { body: example.body, version: spec.version }).filter((n) => n.rule.id !== 'ach_return.id');
}

/** Values of a path parameter that name something that exists: fed forward by the chains, or the values its schema enumerates (test host: connection statuses, challenge types). */
function knownValues(p: ParamSpec, o: Pick<CaseOptions, 'known'>): string[] {
  const fed = o.known[p.name];
  if (fed?.length) return fed;
  const e = resolveSchema(p.schema).schema.enum;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : [];
}

/** A GET whose path parameters all have known values. */
function readable(spec: OperationSpec, o: Pick<CaseOptions, 'known'>): boolean {
  return !spec.sunset && spec.method === 'GET' && spec.params.filter((p) => p.in === 'path').every((p) => knownValues(p, o).length > 0);
}

/** A read whose path names only what exists and whose required query parameters are known: acceptance can be expected. */
function positiveApplies(spec: OperationSpec, o: Pick<CaseOptions, 'known' | 'missingHeaders'>): boolean {
  if (spec.sunset || spec.method !== 'GET') return false;
  if (spec.security.some((s) => s.type === 'header' && s.header && (o.missingHeaders ?? []).includes(s.header.toLowerCase()))) return false;
  // A bearer token other than the audience's (the processor's access token) is the chains' to send, not a generated case's.
  if (spec.api !== 'audience' && spec.security.some((s) => s.type === 'bearer')) return false;
  // Parameters the document does not fully show (data exchange grant query: "the exact name of the query parameter
  // carrying the grantee GUIDs" is not shown): a request without them may be refused.
  // Likewise an operation whose method is not shown (the processor's /payment_account, read with the processor's token).
  const notShown = notShownOf(spec.info.operation);
  if (notShown.queryParameter || notShown.method) return false;
  if (!spec.params.filter((p) => p.in === 'path').every((p) => knownValues(p, o).length > 0)) return false;
  return spec.params.filter((p) => p.in !== 'path' && p.required && p.name.toLowerCase() !== 'accept-version').length === 0;
}

/** Test host (Endpoints, Earlier-generation test paths): the listed paths serve static data. */
const TEST_HOST_READS =
  'Endpoints, Earlier-generation test paths: "A test host {test_base_url} serves static data. Requests carry headers SVC-API-Key: <API_KEY>, SVC-Client-ID: <CLIENT_ID> and Accept: application/vnd.svc.legacy.v1+json" and the GET paths are listed';
/** Data exchange per-member paths (Endpoints, Data exchange): identifiers accept GUIDs or partner ids. */
const DX_PARTNER_IDS =
  'Endpoints, Data exchange: "read one slim account under a member; accepts GUID or partner ID" (identifiers "accept service GUIDs or partner-defined IDs where so stated for account and per-member paths")';
const DX_GRANTS_BASIC =
  'Endpoints, Data exchange: "list grants of the issuer; paged; standard authentication only" and "list grants of a grantee; paged; standard authentication only"';
const DEPRECATED_SERVED =
  'Versioning: "Deprecated endpoints: /managed_institutions, /users/{user_guid}/managed_members and its member, account, transaction sub-paths" are listed apart from the sunset ones; "After those 12 months it sunsets: access is removed" (a deprecated endpoint is still served)';
const UNKNOWN_VERSION_RULE =
  'Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"; that a version none of them names is refused is inferred';
const MALFORMED_JSON_RULE = 'Endpoints: "Request and response bodies are JSON"; that a body which is not JSON is refused is inferred';
const LISTED_LIST =
  'Endpoints: the table lists the operation, a list (paged: "Lists are paged with page and records_per_page"); under resources that exist it is served, empty at most';
const INFERRED_READ = 'Endpoints: the operation reads the resource its path names; that a read of an existing resource succeeds is inferred';

/** The expectation of a positive read and its authority: stated where a sentence says the path accepts what it names. */
/** Resources (Member, Account, Transaction, Holding: user_guid, member_guid, account_guid) and the test host's listed paths: what an answer's records name. */
const IDENTITY_RULE =
  "Resources: a record's user_guid, member_guid and account_guid name the user, member and account it belongs to; a read under a path that names them answers their records, and a read of one resource by its guid answers that resource";
const TEST_HOST_IDENTITY_RULE =
  'Endpoints, Earlier-generation test paths: "Test user GUID test_svc, member test_svc_member, account test_svc_account, ..., merchant test_svc_merchant"; /users/test_svc/members/{connection_status} "returns a member in that status"; challenges of the given challenge type';

/** The fields an answer's records must carry as the path names them (resource_identity), or undefined. */
export function identityOf(spec: OperationSpec, path: Record<string, Drawn>, known: KnownIds = {}): GeneratedCase['identity'] {
  const fields: Record<string, string[]> = {};
  if (spec.api === 'test-host') {
    if (spec.path.startsWith('/users/test_svc/') || spec.path === '/users/test_svc') fields.user_guid = ['test_svc'];
    if (path.connection_status) fields.connection_status = [path.connection_status.value];
    if (path.challenge_type) fields.type = [path.challenge_type.value];
    if (spec.path === '/merchants/test_svc_merchant') fields.guid = ['test_svc_merchant'];
    return Object.keys(fields).length ? { fields, tier: 'stated', rule: TEST_HOST_IDENTITY_RULE } : undefined;
  }
  if (spec.api !== 'platform') return undefined;
  // A read of one resource (no list) answers the resource its last identifier names: its guid is that one.
  const last = spec.path.match(/\{([^}]+)\}$/)?.[1];
  const own =
    !spec.info.listKey && last && path[last]?.known && /_(guid|identifier)$/.test(last) && !STATED_IDENTIFIERS[last]
      ? last.endsWith('_identifier')
        ? (known[last] ?? [path[last].value])
        : [path[last].value]
      : undefined;
  for (const [name, d] of Object.entries(path)) {
    if (['user_guid', 'member_guid', 'account_guid'].includes(name)) fields[name] = [d.value];
    // Data exchange identifiers take a GUID or a partner id: any known one of that resource.
    else if (['user_identifier', 'member_identifier', 'account_identifier'].includes(name) && known[name]?.length)
      fields[name.replace(/_identifier$/, '_guid')] = [...known[name]];
  }
  if (!Object.keys(fields).length && !own) return undefined;
  return { fields, tier: 'stated', rule: IDENTITY_RULE, ...(own ? { own } : {}) };
}

function positiveCase(
  spec: OperationSpec,
  path: Record<string, Drawn>,
  varied?: { name: string; value: string; first: boolean },
  known?: KnownIds,
): GeneratedCase {
  const c = positiveCaseOf(spec, path, varied);
  const identity = identityOf(spec, path, known);
  return identity ? { ...c, identity } : c;
}

function positiveCaseOf(spec: OperationSpec, path: Record<string, Drawn>, varied?: { name: string; value: string; first: boolean }): GeneratedCase {
  const names = Object.keys(path);
  const what = names.length ? `a read of existing ${names.map((n) => `${n}=${path[n].value}`).join(', ')}` : `a read of ${spec.path}`;
  if (spec.api === 'test-host') return { kind: 'positive', tier: 'stated', rule: TEST_HOST_READS, what };
  // Authentication 3 / Data exchange: grant lists are read with standard authentication only.
  if (/^\/data_exchange\/(issuer|grantee)\/\{[^}]+\}\/grants$/.test(spec.path)) return { kind: 'positive', tier: 'stated', rule: DX_GRANTS_BASIC, what };
  // A deprecated endpoint is still served: only a sunset removes access (Versioning).
  if (spec.api === 'platform' && spec.info.deprecated)
    return { kind: 'positive', tier: 'stated', rule: DEPRECATED_SERVED, what: `${what} (a deprecated endpoint)` };
  const statedParam = names.find((n) => STATED_IDENTIFIERS[n]);
  if (statedParam) return { kind: 'positive', tier: 'stated', rule: STATED_IDENTIFIERS[statedParam], what };
  // A list the Endpoints table names, under resources the chains created (or none): served, at most empty.
  // (The first known value of each parameter only: another one, a partner id, is stated on its own paths alone.)
  if (spec.api === 'platform' && spec.info.listKey && !varied && names.every((n) => path[n].known))
    return { kind: 'positive', tier: 'stated', rule: LISTED_LIST, what };
  // A partner id of the member or account on a per-member data exchange path (the GUID reads stay inferred).
  if (
    varied &&
    !varied.first &&
    spec.path.startsWith('/data_exchange/') &&
    spec.path.includes('/members/{member_identifier}/accounts/{account_identifier}') &&
    ['member_identifier', 'account_identifier'].includes(varied.name)
  ) {
    return { kind: 'positive', tier: 'stated', rule: DX_PARTNER_IDS, what: `${what} (${varied.name} ${varied.value}: a partner id)` };
  }
  return { kind: 'positive', tier: 'inferred', rule: INFERRED_READ, what };
}

/** Vendor media type (Authentication 2): "Earlier examples use a vendor media type of the form application/vnd.svc.api.v1+json or v2+json in Accept". */
export const VENDOR_ACCEPT = 'application/vnd.svc.api.v1+json';
const VENDOR_ACCEPT_RULE = 'Authentication 2: "Earlier examples use a vendor media type of the form application/vnd.svc.api.v1+json or v2+json in Accept"';

/** At most this many reach cases of one kind per operation (reads of every known value, bounded). */
const REACH_READS = 8;
/** At most this many named-value variants of an accepted write per operation. */
const REACH_WRITES = 24;
const NAMED_VALUE_RULE =
  "the request description (spec/) names the value (an enum value or a documented example, from the specification's sentence on the field)";
const NAMED_HEADER_RULE = 'the request description (spec/) lists the optional request header (Endpoints / Events rule 8)';

/**
 * Cases every run sends first, once per operation and version, before any drawn case (no
 * shrinking needed: each is already one thing): what a single response can show but a
 * random draw among dozens reaches rarely.
 *
 *   - a read of every known value of each path parameter (one varied at a time; partner
 *     ids of data exchange members and accounts; the test host's listed paths and its
 *     enumerated statuses and challenge types): acceptance expected (positive_data_acceptance),
 *     each response checked against the document (response_schema_conformance);
 *   - an unknown identifier where the Errors table states 404 (stated);
 *   - the first of those reads without credentials, with a wrong secret, and without the
 *     data exchange token where the operation needs it (ignored_auth, missing_required_header);
 *   - on platform lists without path parameters, the sunset and an unknown Accept-Version
 *     (version_conformance; an unknown one refused: inferred); on every list,
 *     records_per_page=not-a-number (inferred refusal, never a 5xx);
 *   - on a platform read whose acceptance is stated, the same read with the vendor media
 *     type in Accept (Authentication 2);
 *   - lists with a stated maximum page size: records_per_page at the maximum and one above
 *     (kind valid: a refusal is free, a page longer than the maximum is not; paging_conformance);
 *   - on the request the chains had accepted, each value the description names for a body
 *     field (enum values, documented examples) and each optional header it lists, one at
 *     a time: acceptance expected (stated: a refusal of a named value);
 *   - a body that is not JSON, and every inferred rule of the body broken alone on the request the chains had accepted
 *     (the stated ones are statedCases), with values close to a valid one for patterns and
 *     timestamps (nearMisses): they gate only under SVC_STRICT=1, as every inferred rule.
 */
export function reachCases(spec: OperationSpec, ctx: RequestContext, o: CaseOptions): FuzzCase[] {
  if (spec.sunset) return [];
  const pathParams = spec.params.filter((p) => p.in === 'path');
  return [
    ...readDescribedInPart(spec, o, pathParams),
    ...(positiveApplies(spec, o) ? readsOfKnownValues(spec, o, pathParams) : []),
    ...variantsOfAcceptedRequest(spec, ctx, o.example, pathParams),
    // Stated parameters whose answer one response judges (stated-reach.ts: includes, include_holdings/include_transactions).
    ...statedPlatformReach(spec, o),
  ];
}

/**
 * A read whose method or parameters the document does not fully show: sent once as a valid
 * case (no expectation of acceptance), so the response checks judge what it answers
 * (deprecated endpoints: the signalling header, version_conformance).
 */
function readDescribedInPart(spec: OperationSpec, o: CaseOptions, pathParams: ParamSpec[]): FuzzCase[] {
  if (positiveApplies(spec, o) || !readable(spec, o)) return [];
  const path: Record<string, Drawn> = Object.fromEntries(pathParams.map((p) => [p.name, { value: knownValues(p, o)[0], known: true }]));
  return [
    caseFrom(
      spec,
      { path, query: {}, headers: {}, body: undefined },
      {
        kind: 'valid',
        tier: 'informational',
        rule: 'the read is described in part (x-svc-not-shown): no acceptance is expected',
        what: `a read of ${spec.path} with known identifiers`,
      },
    ),
  ];
}

/** A read of every known value of each path parameter (one varied at a time), and what is sent around the first of them. */
function readsOfKnownValues(spec: OperationSpec, o: CaseOptions, pathParams: ParamSpec[]): FuzzCase[] {
  const values = Object.fromEntries(pathParams.map((p) => [p.name, knownValues(p, o)]));
  const base: Record<string, Drawn> = Object.fromEntries(pathParams.map((p) => [p.name, { value: values[p.name][0], known: true }]));
  const reads: FuzzCase[] = [caseFrom(spec, { path: base, query: {}, headers: {}, body: undefined }, positiveCase(spec, base, undefined, o.known))];
  for (const p of pathParams) {
    for (const value of values[p.name].slice(1)) {
      const path = { ...base, [p.name]: { value, known: true } };
      reads.push(caseFrom(spec, { path, query: {}, headers: {}, body: undefined }, positiveCase(spec, path, { name: p.name, value, first: false }, o.known)));
    }
  }
  const first = reads[0];
  return [
    ...reads.slice(0, REACH_READS),
    ...readWithoutCredentials(spec, first),
    ...readWithVendorAccept(spec, reads),
    // Lists without path parameters carry the version cases (a few operations show a version fault as well as all).
    ...(spec.api === 'platform' && !pathParams.length ? otherVersionsOfRead(spec, o, first) : []),
    ...pageSizeNotANumber(spec, base),
    ...unknownIdentifierRead(spec, base, pathParams),
    ...pageSizeAtAndAboveMaximum(spec, base, first),
  ];
}

/** The same read without credentials, with a wrong secret, without the data exchange token. */
function readWithoutCredentials(spec: OperationSpec, first: FuzzCase): FuzzCase[] {
  const out: FuzzCase[] = [];
  if (spec.security.length) {
    const { tier, rule } = authRule(spec);
    out.push({ ...first, auth: 'none', generated: { kind: 'no-auth', tier, rule, what: `no credentials on ${first.generated.what}` } });
    out.push({ ...first, auth: 'wrong', generated: { kind: 'wrong-auth', tier, rule, what: `a wrong secret on ${first.generated.what}` } });
  }
  const token = spec.security.find((x) => x.type === 'header' && x.header?.toLowerCase() === 'svc-3dx-token');
  if (token)
    out.push({
      ...first,
      omitHeader: token.header,
      generated: { kind: 'missing-header', tier: 'stated', rule: GENERATED_RULES.threeDxToken, what: `no SVC-3DX-TOKEN header on ${first.generated.what}` },
    });
  return out;
}

/** On a platform read whose acceptance is stated, the same read with the vendor media type in Accept (Authentication 2). */
function readWithVendorAccept(spec: OperationSpec, reads: FuzzCase[]): FuzzCase[] {
  const stated = reads.find((c) => c.generated.tier === 'stated');
  if (spec.api !== 'platform' || !stated) return [];
  return [
    {
      ...stated,
      headers: { ...stated.headers, accept: VENDOR_ACCEPT },
      generated: { ...stated.generated, rule: `${VENDOR_ACCEPT_RULE}; ${stated.generated.rule}`, what: `${stated.generated.what}, Accept ${VENDOR_ACCEPT}` },
    },
  ];
}

/** The read with the sunset version, a version no document names and near misses of the version's form. */
function otherVersionsOfRead(spec: OperationSpec, o: CaseOptions, first: FuzzCase): FuzzCase[] {
  const out: FuzzCase[] = [];
  const sunsetV = o.otherVersions?.sunset;
  if (sunsetV)
    out.push({
      ...first,
      version: sunsetV,
      generated: {
        kind: 'valid',
        tier: 'informational',
        rule: 'Versioning: after sunset "requests return an error"',
        what: `Accept-Version ${sunsetV} (sunset) on ${first.generated.what}`,
      },
    });
  const unknownV = o.otherVersions?.unknown;
  if (unknownV)
    out.push({
      ...first,
      version: unknownV,
      generated: {
        kind: 'negative',
        tier: 'inferred',
        rule: UNKNOWN_VERSION_RULE,
        what: `Accept-Version ${unknownV}, a version the specification does not name, on ${first.generated.what}`,
      },
    });
  // Values that ALMOST have the form v<YYYYMMDD> (contracts/ near-miss rules; stated), and the
  // day after the version (inferred): on the lists with a stated maximum page only, a few a version.
  if (spec.info.maxRecordsPerPage !== undefined)
    for (const n of versionNearMisses({ version: spec.version }))
      out.push({
        ...first,
        version: n.request.version,
        generated: { kind: 'negative', tier: n.rule.tier, rule: `${n.rule.rule} (${n.rule.why})`, what: `${n.what} on ${first.generated.what}` },
      });
  return out;
}

const takesPageSize = (spec: OperationSpec) => spec.params.some((p) => p.in === 'query' && p.name === 'records_per_page');

/** records_per_page=not-a-number on every list: an inferred refusal, never a 5xx. */
function pageSizeNotANumber(spec: OperationSpec, base: Record<string, Drawn>): FuzzCase[] {
  if (!takesPageSize(spec)) return [];
  return [
    caseFrom(
      spec,
      { path: base, query: { records_per_page: 'not-a-number' }, headers: {}, body: undefined },
      {
        kind: 'negative',
        tier: 'inferred',
        rule: 'the request description (spec/): query records_per_page is of type integer; that a service refuses another value is inferred',
        what: 'query records_per_page=not-a-number',
      },
    ),
  ];
}

/** An unknown identifier where the Errors table states 404 for the operation (stated). */
function unknownIdentifierRead(spec: OperationSpec, base: Record<string, Drawn>, pathParams: ParamSpec[]): FuzzCase[] {
  if (!spec.stated404 || !pathParams.length) return [];
  const lastParam = pathParams[pathParams.length - 1];
  return [
    caseFrom(
      spec,
      { path: { ...base, [lastParam.name]: { value: `FUZZ-unknown-${lastParam.name}`, known: false } }, query: {}, headers: {}, body: undefined },
      { kind: 'negative', tier: 'stated', rule: spec.stated404, what: `an unknown ${lastParam.name}` },
    ),
  ];
}

/**
 * Limits, the table's row "records_per_page maximum": 1000: the maximum itself is a value the list takes
 * (acceptance expected, with the tier of the read it is added to); one above it may be
 * refused or clamped (the status is free, the page is judged by paging_conformance).
 */
function pageSizeAtAndAboveMaximum(spec: OperationSpec, base: Record<string, Drawn>, first: FuzzCase): FuzzCase[] {
  const max = spec.info.maxRecordsPerPage;
  if (max === undefined || !takesPageSize(spec)) return [];
  const atMax = caseFrom(
    spec,
    { path: base, query: { records_per_page: String(max) }, headers: {}, body: undefined },
    {
      ...first.generated,
      kind: 'positive',
      rule: `Limits, the table's row "records_per_page maximum": ${max} (the maximum is a valid value); ${first.generated.rule}`,
      what: `records_per_page=${max} (the stated maximum) on ${first.generated.what}`,
    },
  );
  const aboveMax = pageNearMisses(max, {}).map((n) =>
    caseFrom(
      spec,
      { path: base, query: n.request.query ?? {}, headers: {}, body: undefined },
      {
        kind: 'valid',
        tier: 'informational',
        rule: `${n.rule.rule}; ${n.rule.why}`,
        what: n.what,
      },
    ),
  );
  return [atMax, ...aboveMax];
}

/** On the request the chains had accepted: named values and optional headers (acceptance), then each rule broken alone. */
function variantsOfAcceptedRequest(spec: OperationSpec, ctx: RequestContext, example: Example | undefined, pathParams: ParamSpec[]): FuzzCase[] {
  if (!example || !pathParams.every((p) => example.params[p.name] !== undefined)) return [];
  const path = Object.fromEntries(pathParams.map((p) => [p.name, { value: example.params[p.name], known: true }]));
  return [...namedValuesOnAccepted(spec, example, path), ...optionalHeadersOnAccepted(spec, example, path), ...brokenRulesOnAccepted(spec, ctx, example, path)];
}

/**
 * The accepted request with one value the description names (an enum value, a documented example):
 * acceptance expected (a refusal of what the specification names is a failure).
 */
function namedValuesOnAccepted(spec: OperationSpec, example: Example, path: Record<string, Drawn>): FuzzCase[] {
  const named = spec.body ? namedValuesOf(spec.body.at).slice(0, REACH_WRITES) : [];
  return named.map((n) => {
    const body = applyMutation(example.body, { path: n.path, op: 'set', value: n.value, tier: 'stated', rule: '', what: '' });
    return caseFrom(
      spec,
      { path, query: {}, headers: {}, body },
      {
        kind: 'positive',
        tier: 'stated',
        rule: `${NAMED_VALUE_RULE}: ${n.path.join('.')} takes ${JSON.stringify(n.value)}`,
        what: `${n.path.join('.')} = ${JSON.stringify(n.value)} on a request otherwise accepted`,
      },
    );
  });
}

/** The accepted request with one optional header the description lists: acceptance expected. */
function optionalHeadersOnAccepted(spec: OperationSpec, example: Example, path: Record<string, Drawn>): FuzzCase[] {
  return spec.params
    .filter((p) => p.in === 'header' && !p.required && p.name.toLowerCase() !== 'accept-version')
    .map((h) => {
      const schema = resolveSchema(h.schema).schema;
      const value = Array.isArray(schema.enum) ? String(schema.enum[0]) : schema.type === 'string' ? 'fuzz-header-value' : 'true';
      return caseFrom(
        spec,
        { path, query: {}, headers: { [h.name]: value }, body: example.body },
        {
          kind: 'positive',
          tier: 'stated',
          rule: `${NAMED_HEADER_RULE}: ${h.name}${h.description ? ` (${h.description.trim().slice(0, 120)})` : ''}`,
          what: `header ${h.name}: ${value} on a request otherwise accepted`,
        },
      );
    });
}

/** A body that is not JSON, every rule the statedCases do not send already broken alone, and near misses. */
function brokenRulesOnAccepted(spec: OperationSpec, ctx: RequestContext, example: Example, path: Record<string, Drawn>): FuzzCase[] {
  const out: FuzzCase[] = [
    caseFrom(
      spec,
      { path, query: {}, headers: {}, body: undefined },
      { kind: 'negative', tier: 'inferred', rule: MALFORMED_JSON_RULE, what: 'a body that is not JSON ("{not json}")' },
      { rawBody: '{not json}' },
    ),
  ];
  const onAccepted = ', on a request otherwise accepted';
  for (const m of bodyMutations(spec, ctx)) {
    const c = mutationCase(spec, { path, query: {}, headers: {} }, example.body, m, onAccepted);
    if (c.generated.tier !== 'stated') out.push(c);
  }
  // Values that ALMOST meet each request rule (contracts/ near-miss rules), with the rule's tier.
  for (const n of bodyNearMissesOf(spec, example)) out.push(nearMissCase(spec, { path, query: {}, headers: {} }, n, onAccepted));
  return out;
}

/**
 * Every kind of case for one operation, weighted. `kinds` restricts the kinds (unit
 * tests, the bench); by default every kind that applies to the operation is drawn.
 */
export function caseArbitrary(spec: OperationSpec, ctx: RequestContext, o: CaseOptions): fc.Arbitrary<FuzzCase> {
  const base = baseArb(spec, o);
  // Sunset operations answer an error whatever is sent (version_conformance judges that): valid cases only.
  const judged = !spec.sunset;
  const mutations = judged ? bodyMutations(spec, ctx) : [];
  const pathParams = spec.params.filter((p) => p.in === 'path');
  // The order is the draw's: fc.oneof picks by index, so a seed replays only while it stays.
  return fc.oneof(
    validCases(spec, base),
    ...(judged ? positiveReads(spec, o, pathParams) : []),
    ...mutationsOnAccepted(spec, o, mutations, pathParams),
    ...mutationsOnDrawn(spec, base, mutations),
    ...(judged ? typedQueryRefusals(spec, base) : []),
    ...(judged ? unknownIdentifiers(spec, base, pathParams) : []),
    ...(judged ? authVariants(spec, base) : []),
    ...(judged ? missingToken(spec, base) : []),
    ...otherVersions(spec, base, o, judged),
    ...(judged ? malformedBodies(spec, base) : []),
    ...unsupportedMethods(spec, base, o),
  );
}

/** One kind of case with its weight among the kinds fc.oneof draws from. */
interface WeightedCases {
  arbitrary: fc.Arbitrary<FuzzCase>;
  weight: number;
}
type BaseArbitrary = ReturnType<typeof baseArb>;

/** valid: everything valid by what the document states. */
function validCases(spec: OperationSpec, base: BaseArbitrary): WeightedCases {
  return {
    arbitrary: base.map((b) =>
      caseFrom(spec, b, { kind: 'valid', tier: 'informational', rule: 'valid by the request description (spec/)', what: 'a request valid by its description' }),
    ),
    weight: 4,
  };
}

/** positive: a read whose path names only resources that exist, no query, no open header. */
function positiveReads(spec: OperationSpec, o: CaseOptions, pathParams: ParamSpec[]): WeightedCases[] {
  if (!positiveApplies(spec, o)) return [];
  const positive = fc
    .record(
      Object.fromEntries(pathParams.map((p) => [p.name, fc.constantFrom(...knownValues(p, o)).map((value) => ({ value, known: true }))])) as Record<
        string,
        fc.Arbitrary<Drawn>
      >,
    )
    .map((path) => {
      // A value other than the first known one (a partner id) is judged as the reach pass judges it.
      const p = pathParams.find((x) => path[x.name].value !== knownValues(x, o)[0]);
      return caseFrom(
        spec,
        { path, query: {}, headers: {}, body: undefined },
        positiveCase(spec, path, p ? { name: p.name, value: path[p.name].value, first: false } : undefined, o.known),
      );
    });
  return [{ arbitrary: positive, weight: 2 }];
}

/** negative: one rule of the body broken on a request the target accepted, so the one broken rule is the only reason to refuse it. */
function mutationsOnAccepted(spec: OperationSpec, o: CaseOptions, mutations: Mutation[], pathParams: ParamSpec[]): WeightedCases[] {
  const example = o.example;
  if (!mutations.length || !example || !pathParams.every((p) => example.params[p.name] !== undefined)) return [];
  const path = Object.fromEntries(pathParams.map((p) => [p.name, { value: example.params[p.name], known: true }]));
  const near = bodyNearMissesOf(spec, example);
  const out: WeightedCases[] = [
    {
      arbitrary: fc
        .constantFrom(...mutations)
        .map((m) => mutationCase(spec, { path, query: {}, headers: {} }, example.body, m, ', on a request otherwise accepted')),
      weight: mutations.some((m) => m.tier === 'stated') ? 4 : 2,
    },
  ];
  // Values that ALMOST meet a request rule (contracts/ near-miss rules), drawn as well as sent once by the reach pass.
  if (near.length)
    out.push({
      arbitrary: fc.constantFrom(...near).map((n) => nearMissCase(spec, { path, query: {}, headers: {} }, n, ', on a request otherwise accepted')),
      weight: 2,
    });
  return out;
}

/** negative: one rule of the body broken on a drawn request. */
function mutationsOnDrawn(spec: OperationSpec, base: BaseArbitrary, mutations: Mutation[]): WeightedCases[] {
  if (!mutations.length) return [];
  return [
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...mutations)).map(([b, m]) => mutationCase(spec, b, b.body ?? {}, m)),
      weight: mutations.some((m) => m.tier === 'stated') ? 3 : 2,
    },
  ];
}

/** negative: a typed query parameter that is not a number (inferred). */
function typedQueryRefusals(spec: OperationSpec, base: BaseArbitrary): WeightedCases[] {
  const typedQuery = spec.params.filter((p) => p.in === 'query' && ['integer', 'number', 'boolean'].includes(resolveSchema(p.schema).schema.type));
  if (!typedQuery.length) return [];
  return [
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...typedQuery)).map(([b, p]) =>
        caseFrom(
          spec,
          { ...b, query: { ...b.query, [p.name]: 'not-a-number' } },
          {
            kind: 'negative',
            tier: 'inferred',
            rule: `the request description (spec/): query ${p.name} is of type ${resolveSchema(p.schema).schema.type}; that a service refuses another value is inferred`,
            what: `query ${p.name}=not-a-number`,
          },
        ),
      ),
      weight: 1,
    },
  ];
}

/** An unknown identifier where the Errors table states 404 (credentials list, data exchange transaction reads). */
function unknownIdentifiers(spec: OperationSpec, base: BaseArbitrary, pathParams: ParamSpec[]): WeightedCases[] {
  if (!spec.stated404 || !pathParams.length) return [];
  const last = pathParams[pathParams.length - 1];
  return [
    {
      arbitrary: base.map((b) =>
        caseFrom(
          spec,
          { ...b, path: { ...b.path, [last.name]: { value: `FUZZ-unknown-${last.name}`, known: false } }, query: {} },
          { kind: 'negative', tier: 'stated', rule: spec.stated404!, what: `an unknown ${last.name}` },
        ),
      ),
      weight: 1,
    },
  ];
}

/** no-auth and wrong-auth (ignored_auth). */
function authVariants(spec: OperationSpec, base: BaseArbitrary): WeightedCases[] {
  if (!spec.security.length) return [];
  const { tier, rule } = authRule(spec);
  return [
    { arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'no-auth', tier, rule, what: 'no credentials' }, { auth: 'none' })), weight: 1 },
    { arbitrary: base.map((b) => caseFrom(spec, b, { kind: 'wrong-auth', tier, rule, what: 'a wrong secret' }, { auth: 'wrong' })), weight: 1 },
  ];
}

/** missing-header: no SVC-3DX-TOKEN where the operation needs one (Authentication 3). */
function missingToken(spec: OperationSpec, base: BaseArbitrary): WeightedCases[] {
  const token = spec.security.find((s) => s.type === 'header' && s.header?.toLowerCase() === 'svc-3dx-token');
  if (!token) return [];
  return [
    {
      arbitrary: base.map((b) =>
        caseFrom(
          spec,
          b,
          { kind: 'missing-header', tier: 'stated', rule: GENERATED_RULES.threeDxToken, what: 'no SVC-3DX-TOKEN header' },
          { omitHeader: token.header },
        ),
      ),
      weight: 2,
    },
  ];
}

/** Another Accept-Version on the same request: version_conformance judges the answer. */
function otherVersions(spec: OperationSpec, base: BaseArbitrary, o: CaseOptions, judged: boolean): WeightedCases[] {
  const out: WeightedCases[] = [];
  const sunsetV = spec.api === 'platform' ? o.otherVersions?.sunset : undefined;
  if (sunsetV)
    out.push({
      arbitrary: base.map((b) =>
        caseFrom(
          spec,
          b,
          { kind: 'valid', tier: 'informational', rule: 'Versioning: after sunset "requests return an error"', what: `Accept-Version ${sunsetV} (sunset)` },
          { version: sunsetV },
        ),
      ),
      weight: 1,
    });
  const unknownV = spec.api === 'platform' ? o.otherVersions?.unknown : undefined;
  if (unknownV && judged) {
    out.push({
      arbitrary: base.map((b) =>
        caseFrom(
          spec,
          b,
          {
            kind: 'negative',
            tier: 'inferred',
            rule: 'Versioning: "Versions in play: v20260929 (current ...), v20250224, v20111101"; that a version none of them names is refused is inferred',
            what: `Accept-Version ${unknownV}, a version the specification does not name`,
          },
          { version: unknownV },
        ),
      ),
      weight: 1,
    });
  }
  return out;
}

/**
 * Malformed JSON where the operation takes a body (Endpoints: "Request and response bodies
 * are JSON"): a refusal is expected (inferred: no status is stated), never a 5xx.
 */
function malformedBodies(spec: OperationSpec, base: BaseArbitrary): WeightedCases[] {
  if (!spec.body) return [];
  return [
    {
      arbitrary: fc.tuple(base, fc.constantFrom('{"unterminated": ', '{not json}', '[1, 2,', 'null null')).map(([b, raw]) =>
        caseFrom(
          spec,
          { ...b, body: undefined },
          {
            kind: 'negative',
            tier: 'inferred',
            rule: 'Endpoints: "Request and response bodies are JSON"; that a body which is not JSON is refused is inferred',
            what: `a body that is not JSON (${JSON.stringify(raw)})`,
          },
          { rawBody: raw },
        ),
      ),
      weight: 1,
    },
  ];
}

/** unsupported-method: a method the document does not list for the path. */
function unsupportedMethods(spec: OperationSpec, base: BaseArbitrary, o: CaseOptions): WeightedCases[] {
  const others = METHODS.filter((m) => !(o.pathMethods ?? new Set([spec.method])).has(m));
  if (!others.length) return [];
  return [
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...others)).map(([b, m]) =>
        caseFrom(
          spec,
          { ...b, body: m === 'GET' || m === 'DELETE' ? undefined : (b.body ?? {}) },
          {
            kind: 'unsupported-method',
            tier: 'informational',
            rule: GENERATED_RULES.unsupportedMethod,
            what: `${m} on a path the document lists only for ${[...(o.pathMethods ?? [])].join(', ')}`,
          },
          { method: m, operation: `${m} ${spec.path}` },
        ),
      ),
      weight: 1,
    },
  ];
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
  return bodyMutations(spec, ctx)
    .map((m) => mutationCase(spec, { path, query: {}, headers: {} }, example.body, m, ', on a request otherwise accepted'))
    .filter((c) => c.generated.tier === 'stated');
}
