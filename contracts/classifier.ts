/**
 * The breaking / non-breaking classifier of the specification's Versioning section.
 * Given two schemas, two OpenAPI documents or two observed responses, it names each
 * difference and classifies it by the specification's own list (quoted in `rule`).
 *
 * Used by the version-upgrade check (../shared/DESIGN.md, "What it is for" 2): what
 * differs between two versions, and is each difference breaking or not.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { getByPointer } from './load.ts';

export type DifferenceKind =
  // breaking (Versioning: "Breaking (require a new version)")
  | 'added-required-request-parameter'
  | 'optional-parameter-made-required'
  | 'removed-request-parameter'
  | 'changed-parameter-type'
  | 'added-validation-rule'
  | 'removed-response-field'
  | 'renamed-response-field'
  | 'changed-field-type'
  | 'removed-enum-value'
  | 'removed-endpoint'
  | 'moved-path'
  | 'removed-response-header'
  | 'changed-status-code'
  // non-breaking (Versioning: "Non-breaking")
  | 'added-endpoint'
  | 'added-optional-parameter'
  | 'added-optional-header'
  | 'added-response-field'
  | 'added-response-header'
  | 'reordered-properties'
  | 'longer-opaque-string'
  | 'added-enum-value'
  | 'required-made-optional'
  | 'deprecated-endpoint';

export interface Difference {
  kind: DifferenceKind;
  breaking: boolean;
  /** `GET /institutions` when the difference belongs to an operation. */
  operation?: string;
  /** e.g. `response.200.body.institutions[].code`, `request.query.records_per_page`. */
  location: string;
  /** The Versioning section's words for this kind of change. */
  rule: string;
  detail: string;
}

const B = 'Versioning, breaking: ';
const N = 'Versioning, non-breaking: ';
export const KINDS: Record<DifferenceKind, { breaking: boolean; rule: string }> = {
  'added-required-request-parameter': { breaking: true, rule: `${B}"adding a required request parameter"` },
  'optional-parameter-made-required': { breaking: true, rule: `${B}"making an optional one required"` },
  'removed-request-parameter': { breaking: true, rule: `${B}"removing a request parameter from path or body"` },
  'changed-parameter-type': { breaking: true, rule: `${B}"changing the meaning or type of a parameter"` },
  'added-validation-rule': { breaking: true, rule: `${B}"adding a validation rule to an existing parameter"` },
  'removed-response-field': { breaking: true, rule: `${B}"removing or renaming a response field"` },
  'renamed-response-field': { breaking: true, rule: `${B}"removing or renaming a response field"` },
  'changed-field-type': { breaking: true, rule: `${B}"changing the structure of a response body incompatibly or the kind of data of a field"` },
  'removed-enum-value': { breaking: true, rule: `${B}"removing enum values"` },
  'removed-endpoint': { breaking: true, rule: `${B}"removing, moving or changing endpoint paths"` },
  'moved-path': { breaking: true, rule: `${B}"removing, moving or changing endpoint paths"` },
  // Not listed by name; a documented header that disappears changes the response incompatibly.
  'removed-response-header': {
    breaking: true,
    rule: `${B}"changing the structure of a response body incompatibly" (by analogy: a documented response header is gone)`,
  },
  'changed-status-code': { breaking: true, rule: `${B}"changing the meaning" (by analogy: the status class of the answer changed)` },
  'added-endpoint': { breaking: false, rule: `${N}"adding endpoints"` },
  'added-optional-parameter': { breaking: false, rule: `${N}"adding optional parameters"` },
  'added-optional-header': { breaking: false, rule: `${N}"adding an optional request header"` },
  'added-response-field': { breaking: false, rule: `${N}"adding response data elements"` },
  'added-response-header': { breaking: false, rule: `${N}"adding a response header"` },
  'reordered-properties': { breaking: false, rule: `${N}"reordering response properties"` },
  'longer-opaque-string': { breaking: false, rule: `${N}"changing length or format of opaque strings (identifiers, messages)"` },
  'added-enum-value': { breaking: false, rule: `${N}"Enumerated response fields (for example account subtype) may gain values"` },
  'required-made-optional': { breaking: false, rule: `${N}"making a required parameter optional"` },
  'deprecated-endpoint': {
    breaking: false,
    // The 12 months the specification gives are a deprecated version's, not an endpoint's.
    rule: 'Versioning, changes in v20250224: "Deprecated endpoints: /managed_institutions, ..."; deprecating is not among the breaking changes ("removing, moving or changing endpoint paths" is): only its sunset removes it',
  },
};

function diff(kind: DifferenceKind, location: string, detail: string, operation?: string, breaking?: boolean): Difference {
  const k = KINDS[kind];
  const d: Difference = { kind, breaking: breaking ?? k.breaking, location, rule: k.rule, detail };
  if (operation !== undefined) d.operation = operation;
  return d;
}

// ---- schemas -----------------------------------------------------------------------

export interface SchemaDiffOptions {
  /** `response` (default): the service writes it; `request`: the client writes it. */
  direction?: 'response' | 'request';
  /** Documents the schemas' `#/...` references point into. */
  rootA?: unknown;
  rootB?: unknown;
  operation?: string;
  /** Location prefix, e.g. `response.200.body`. */
  location?: string;
}

type Schema = Record<string, any>;

function deref(node: unknown, root: unknown): Schema | undefined {
  let s: any = node;
  for (let i = 0; i < 32 && s && typeof s === 'object' && typeof s.$ref === 'string'; i++) {
    if (!s.$ref.startsWith('#') || root === undefined) return undefined;
    s = getByPointer(root, s.$ref.slice(1));
  }
  return s && typeof s === 'object' ? (s as Schema) : undefined;
}

/** Non-null JSON types a schema allows, or undefined when it does not say. */
function typesOf(s: Schema): Set<string> | undefined {
  let t: string[] | undefined = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : undefined;
  if (!t && s.properties) t = ['object'];
  if (!t && s.items) t = ['array'];
  if (!t) return undefined;
  const out = new Set(t.filter((x) => x !== 'null').map((x) => (x === 'integer' ? 'number' : x)));
  if (t.includes('integer') && !t.includes('number')) out.add('integer');
  return out;
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function typeLabel(s: Schema | undefined): string {
  if (!s) return 'any';
  const t = typesOf(s);
  return t ? [...t].sort().join('|') : 'any';
}

const VALIDATION_KEYWORDS = [
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'const',
  'minProperties',
  'maxProperties',
];
const OPAQUE_KEYWORDS = ['pattern', 'format', 'minLength', 'maxLength'];

/** True when `b` is at most as permissive as `a` for one keyword (a new or tighter rule). */
function tighter(keyword: string, a: unknown, b: unknown): boolean {
  if (b === undefined) return false;
  if (a === undefined) return true;
  if (a === b) return false;
  if (typeof a === 'number' && typeof b === 'number') {
    if (keyword.startsWith('max') || keyword === 'exclusiveMaximum' || keyword === 'maximum') return b < a;
    if (keyword.startsWith('min') || keyword === 'exclusiveMinimum' || keyword === 'minimum') return b > a;
  }
  return true; // a different pattern/format/multipleOf/const: a rule the client did not have to meet
}

export function diffSchemas(a: unknown, b: unknown, options: SchemaDiffOptions = {}): Difference[] {
  const out: Difference[] = [];
  const direction = options.direction ?? 'response';
  walkSchemas(a, b, options.location ?? (direction === 'request' ? 'request.body' : 'response.body'), direction, options, out, new Set(), 0);
  return out;
}

function walkSchemas(
  rawA: unknown,
  rawB: unknown,
  at: string,
  direction: 'request' | 'response',
  o: SchemaDiffOptions,
  out: Difference[],
  visiting: Set<string>,
  depth: number,
): void {
  if (depth > 24) return;
  const refKey = `${(rawA as any)?.$ref ?? ''}|${(rawB as any)?.$ref ?? ''}`;
  if (refKey !== '|') {
    if (visiting.has(refKey)) return; // a recursive schema: compared once on this branch
    visiting = new Set(visiting).add(refKey);
  }
  const a = deref(rawA, o.rootA);
  const b = deref(rawB, o.rootB);
  if (!a || !b) return;
  const op = o.operation;
  const request = direction === 'request';
  const ta = typesOf(a);
  const tb = typesOf(b);
  if (ta && tb && !sameSet(ta, tb)) {
    const widened = [...ta].every((t) => tb.has(t) || (t === 'integer' && tb.has('number')));
    if (request) {
      if (!widened) out.push(diff('changed-parameter-type', at, `type ${typeLabel(a)} -> ${typeLabel(b)}`, op));
    } else {
      out.push(diff('changed-field-type', at, `type ${typeLabel(a)} -> ${typeLabel(b)}`, op));
    }
    return;
  }

  // Enumerations.
  const ea: unknown[] | undefined = Array.isArray(a.enum) ? a.enum : undefined;
  const eb: unknown[] | undefined = Array.isArray(b.enum) ? b.enum : undefined;
  if (ea && eb) {
    const removed = ea.filter((v) => !eb.some((w) => w === v));
    const added = eb.filter((v) => !ea.some((w) => w === v));
    if (removed.length) out.push(diff('removed-enum-value', at, `removed ${JSON.stringify(removed)}`, op));
    if (added.length) out.push(diff('added-enum-value', at, `added ${JSON.stringify(added)}`, op));
  } else if (!ea && eb && request) {
    out.push(diff('added-validation-rule', at, `enum ${JSON.stringify(eb)} added`, op));
  } else if (ea && !eb && !request) {
    out.push(diff('added-enum-value', at, `enum ${JSON.stringify(ea)} no longer restricted`, op));
  }

  // Validation rules and opaque strings.
  const opaque = a['x-svc-opaque'] === true || b['x-svc-opaque'] === true;
  for (const k of VALIDATION_KEYWORDS) {
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
    if (request) {
      if (tighter(k, a[k], b[k])) out.push(diff('added-validation-rule', at, `${k}: ${JSON.stringify(a[k])} -> ${JSON.stringify(b[k])}`, op));
    } else if (OPAQUE_KEYWORDS.includes(k) && opaque) {
      out.push(diff('longer-opaque-string', at, `${k}: ${JSON.stringify(a[k])} -> ${JSON.stringify(b[k])} (opaque string)`, op));
    } else if ((k === 'format' || k === 'pattern' || k === 'const') && a[k] !== undefined && b[k] !== undefined) {
      out.push(diff('changed-field-type', at, `${k}: ${JSON.stringify(a[k])} -> ${JSON.stringify(b[k])}`, op));
    }
  }

  // Objects.
  const pa: Record<string, unknown> = a.properties && typeof a.properties === 'object' ? a.properties : {};
  const pb: Record<string, unknown> = b.properties && typeof b.properties === 'object' ? b.properties : {};
  const ra = new Set<string>(Array.isArray(a.required) ? a.required : []);
  const rb = new Set<string>(Array.isArray(b.required) ? b.required : []);
  const onlyA = Object.keys(pa).filter((k) => !(k in pb));
  const onlyB = Object.keys(pb).filter((k) => !(k in pa));
  const child = (k: string) => `${at}.${k}`;
  if (request) {
    for (const k of onlyA) out.push(diff('removed-request-parameter', child(k), `property ${k} removed`, op));
    for (const k of onlyB) {
      out.push(
        rb.has(k)
          ? diff('added-required-request-parameter', child(k), `required property ${k} added`, op)
          : diff('added-optional-parameter', child(k), `optional property ${k} added`, op),
      );
    }
  } else {
    const unmatched = new Set(onlyB);
    for (const k of onlyA) {
      const sig = typeLabel(deref(pa[k], o.rootA));
      const twin = [...unmatched].find((n) => typeLabel(deref(pb[n], o.rootB)) === sig);
      if (twin !== undefined) {
        unmatched.delete(twin);
        out.push(diff('renamed-response-field', child(k), `${k} -> ${twin} (same type ${sig}, same level)`, op));
      } else {
        out.push(diff('removed-response-field', child(k), `property ${k} removed`, op));
      }
    }
    for (const k of unmatched) out.push(diff('added-response-field', child(k), `property ${k} added`, op));
  }
  const common = Object.keys(pa).filter((k) => k in pb);
  for (const k of common) {
    if (request) {
      if (!ra.has(k) && rb.has(k)) out.push(diff('optional-parameter-made-required', child(k), `${k} is now required`, op));
      if (ra.has(k) && !rb.has(k)) out.push(diff('required-made-optional', child(k), `${k} is now optional`, op));
    }
    walkSchemas(pa[k], pb[k], child(k), direction, o, out, visiting, depth + 1);
  }
  const orderB = Object.keys(pb).filter((k) => k in pa);
  if (!request && common.some((k, i) => orderB[i] !== k)) {
    out.push(diff('reordered-properties', at, `order ${common.join(',')} -> ${orderB.join(',')}`, op));
  }

  // Arrays.
  if (a.items !== undefined && b.items !== undefined) walkSchemas(a.items, b.items, `${at}[]`, direction, o, out, visiting, depth + 1);
}

// ---- documents ---------------------------------------------------------------------

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface FlatOperation {
  key: string;
  /** Method and the path with parameter names dropped: `GET /users/{}/members`. */
  shape: string;
  path: string;
  op: Schema;
  params: Schema[];
}

function operationsOf(doc: OpenAPIV3_1.Document): FlatOperation[] {
  const out: FlatOperation[] = [];
  for (const [path, rawItem] of Object.entries((doc.paths ?? {}) as Record<string, unknown>)) {
    const item = deref(rawItem, doc);
    if (!item) continue;
    const shared = (Array.isArray(item.parameters) ? item.parameters : []).map((p: unknown) => deref(p, doc)).filter(Boolean) as Schema[];
    for (const m of METHODS) {
      const op = item[m];
      if (!op || typeof op !== 'object') continue;
      const own = (Array.isArray(op.parameters) ? op.parameters : []).map((p: unknown) => deref(p, doc)).filter(Boolean) as Schema[];
      // Operation parameters override path-item ones with the same name and location (OpenAPI 3.1).
      const params = [...shared.filter((s) => !own.some((p) => p.name === s.name && p.in === s.in)), ...own];
      out.push({ key: `${m.toUpperCase()} ${path}`, shape: `${m.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`, path, op, params });
    }
  }
  return out;
}

/** Path parameters are matched by position (a renamed placeholder is the same URL), others by location and name. */
function paramKey(p: Schema, path: string): string {
  if (p.in === 'path') {
    const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    return `path#${names.indexOf(p.name)}`;
  }
  return `${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
}

function jsonSchemaOf(content: unknown): unknown {
  if (!content || typeof content !== 'object') return undefined;
  const entries = Object.entries(content as Record<string, any>);
  const json = entries.find(([t]) => t.toLowerCase() === 'application/json' || t.toLowerCase().endsWith('+json')) ?? entries[0];
  return json?.[1]?.schema;
}

export function diffDocuments(docA: OpenAPIV3_1.Document, docB: OpenAPIV3_1.Document): Difference[] {
  const out: Difference[] = [];
  const opsA = operationsOf(docA);
  const opsB = operationsOf(docB);
  const byShapeB = new Map(opsB.map((o) => [o.shape, o]));
  const byShapeA = new Map(opsA.map((o) => [o.shape, o]));
  const addedB = opsB.filter((o) => !byShapeA.has(o.shape));
  const movedTo = new Set<FlatOperation>();

  for (const a of opsA) {
    const b = byShapeB.get(a.shape);
    if (!b) {
      const twin = a.op.operationId ? addedB.find((o) => o.op.operationId === a.op.operationId && !movedTo.has(o)) : undefined;
      if (twin) {
        movedTo.add(twin);
        out.push(diff('moved-path', a.key, `${a.key} -> ${twin.key} (operationId ${a.op.operationId})`, a.key));
      } else {
        out.push(diff('removed-endpoint', a.key, `${a.key} is gone`, a.key));
      }
      continue;
    }
    if (b.op['x-svc-sunset'] === true && a.op['x-svc-sunset'] !== true) {
      out.push(diff('removed-endpoint', a.key, `${a.key} is sunset (x-svc-sunset): requests answer an error`, a.key));
      continue;
    }
    if (b.op.deprecated === true && a.op.deprecated !== true) out.push(diff('deprecated-endpoint', a.key, `${a.key} is deprecated`, a.key));
    compareOperations(a, b, docA, docB, out);
  }
  for (const b of addedB) if (!movedTo.has(b)) out.push(diff('added-endpoint', b.key, `${b.key} added`, b.key));
  return out;
}

function compareOperations(a: FlatOperation, b: FlatOperation, docA: unknown, docB: unknown, out: Difference[]): void {
  const op = a.key;
  const pa = new Map(a.params.map((p) => [paramKey(p, a.path), p]));
  const pb = new Map(b.params.map((p) => [paramKey(p, b.path), p]));
  for (const [k, p] of pa) {
    const where = `request.${p.in}.${p.name}`;
    const q = pb.get(k);
    if (!q) {
      out.push(diff('removed-request-parameter', where, `${p.in} parameter ${p.name} removed`, op));
      continue;
    }
    if (p.required !== true && q.required === true) out.push(diff('optional-parameter-made-required', where, `${p.name} is now required`, op));
    if (p.required === true && q.required !== true) out.push(diff('required-made-optional', where, `${p.name} is now optional`, op));
    diffSchemasInto(p.schema, q.schema, where, 'request', docA, docB, op, out);
  }
  for (const [k, q] of pb) {
    if (pa.has(k)) continue;
    const where = `request.${q.in}.${q.name}`;
    if (q.required === true) out.push(diff('added-required-request-parameter', where, `required ${q.in} parameter ${q.name} added`, op));
    else if (q.in === 'header') out.push(diff('added-optional-header', where, `optional header ${q.name} added`, op));
    else out.push(diff('added-optional-parameter', where, `optional ${q.in} parameter ${q.name} added`, op));
  }

  const ba = deref(a.op.requestBody, docA);
  const bb = deref(b.op.requestBody, docB);
  if (ba && bb) {
    if (ba.required !== true && bb.required === true)
      out.push(diff('optional-parameter-made-required', 'request.body', 'the request body is now required', op));
    diffSchemasInto(jsonSchemaOf(ba.content), jsonSchemaOf(bb.content), 'request.body', 'request', docA, docB, op, out);
  } else if (!ba && bb?.required === true) {
    out.push(diff('added-required-request-parameter', 'request.body', 'a required request body was added', op));
  }

  const ra = (a.op.responses ?? {}) as Record<string, unknown>;
  const rb = (b.op.responses ?? {}) as Record<string, unknown>;
  for (const status of Object.keys(ra)) {
    if (!(status in rb)) continue; // status sets differ between versions by design (e.g. 201 on v20250224)
    const x = deref(ra[status], docA);
    const y = deref(rb[status], docB);
    if (!x || !y) continue;
    const hx = Object.keys(x.headers ?? {});
    const hy = Object.keys(y.headers ?? {});
    const lower = (h: string[]) => new Set(h.map((n) => n.toLowerCase()));
    const lx = lower(hx),
      ly = lower(hy);
    for (const h of hy) if (!lx.has(h.toLowerCase())) out.push(diff('added-response-header', `response.${status}.headers.${h}`, `header ${h} added`, op));
    for (const h of hx) if (!ly.has(h.toLowerCase())) out.push(diff('removed-response-header', `response.${status}.headers.${h}`, `header ${h} removed`, op));
    diffSchemasInto(jsonSchemaOf(x.content), jsonSchemaOf(y.content), `response.${status}.body`, 'response', docA, docB, op, out);
  }
}

function diffSchemasInto(
  a: unknown,
  b: unknown,
  location: string,
  direction: 'request' | 'response',
  rootA: unknown,
  rootB: unknown,
  operation: string,
  out: Difference[],
): void {
  if (a === undefined || b === undefined) return;
  for (const d of diffSchemas(a, b, { direction, rootA, rootB, operation, location })) out.push(d);
}

// ---- observations ------------------------------------------------------------------

export interface Observation {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface ObservationDiffOptions {
  operation?: string;
  /** Response headers that vary per response and say nothing about the contract. */
  volatileHeaders?: readonly string[];
}

const VOLATILE_HEADERS = [
  'date',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'etag',
  'age',
  'x-request-id',
  'request-id',
  'server-timing',
  'vary',
  'last-modified',
];

/** The shape of observed JSON: merged over all elements of arrays. */
interface Shape {
  types: Set<string>;
  props?: Map<string, Shape>;
  order?: string[];
  items?: Shape;
  maxLength?: number;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function shapeOf(v: unknown, into?: Shape, depth = 0): Shape {
  const s: Shape = into ?? { types: new Set() };
  const t = jsonType(v);
  s.types.add(t);
  if (depth > 32) return s;
  if (t === 'object') {
    s.props ??= new Map();
    s.order ??= Object.keys(v as object);
    for (const [k, x] of Object.entries(v as object)) s.props.set(k, shapeOf(x, s.props.get(k), depth + 1));
  } else if (t === 'array') {
    for (const x of v as unknown[]) s.items = shapeOf(x, s.items, depth + 1);
  } else if (t === 'string') {
    s.maxLength = Math.max(s.maxLength ?? 0, (v as string).length);
  }
  return s;
}

function shapeTypes(s: Shape): string {
  const t = [...s.types].filter((x) => x !== 'null').map((x) => (x === 'integer' ? 'number' : x));
  return [...new Set(t)].sort().join('|') || 'null';
}

/** Identifiers and similar opaque strings, judged by the field name (Resources: guid, id, *_guid, *_id). */
const OPAQUE_NAME = /(^|_)(guid|id|uri|url|token|code|message)$/;

function walkShapes(a: Shape, b: Shape, at: string, name: string, o: ObservationDiffOptions, out: Difference[]): void {
  const op = o.operation;
  const ta = shapeTypes(a),
    tb = shapeTypes(b);
  if (ta !== 'null' && tb !== 'null' && ta !== tb) {
    out.push(diff('changed-field-type', at, `type ${ta} -> ${tb}`, op));
    return;
  }
  if (a.maxLength !== undefined && b.maxLength !== undefined && b.maxLength > a.maxLength && OPAQUE_NAME.test(name)) {
    out.push(diff('longer-opaque-string', at, `length ${a.maxLength} -> ${b.maxLength}`, op));
  }
  if (a.props && b.props) {
    const onlyA = [...a.props.keys()].filter((k) => !b.props!.has(k));
    const unmatched = new Set([...b.props.keys()].filter((k) => !a.props!.has(k)));
    for (const k of onlyA) {
      const sig = shapeTypes(a.props.get(k)!);
      const twin = [...unmatched].find((n) => shapeTypes(b.props!.get(n)!) === sig);
      if (twin !== undefined) {
        unmatched.delete(twin);
        out.push(diff('renamed-response-field', `${at}.${k}`, `${k} -> ${twin} (same type ${sig}, same level)`, op));
      } else {
        out.push(diff('removed-response-field', `${at}.${k}`, `property ${k} is gone`, op));
      }
    }
    for (const k of unmatched) out.push(diff('added-response-field', `${at}.${k}`, `property ${k} added`, op));
    const common = (a.order ?? []).filter((k) => b.props!.has(k));
    const orderB = (b.order ?? []).filter((k) => a.props!.has(k));
    if (common.length === orderB.length && common.some((k, i) => orderB[i] !== k)) {
      out.push(diff('reordered-properties', at, `order ${common.join(',')} -> ${orderB.join(',')}`, op));
    }
    for (const [k, sa] of a.props) {
      const sb = b.props.get(k);
      if (sb) walkShapes(sa, sb, `${at}.${k}`, k, o, out);
    }
  }
  if (a.items && b.items) walkShapes(a.items, b.items, `${at}[]`, name, o, out);
}

export function diffObservations(a: Observation, b: Observation, options: ObservationDiffOptions = {}): Difference[] {
  const out: Difference[] = [];
  const op = options.operation;
  if (a.status !== b.status) {
    const sameClass = Math.floor(a.status / 100) === Math.floor(b.status / 100);
    out.push(diff('changed-status-code', 'response.status', `${a.status} -> ${b.status}${sameClass ? ' (same status class)' : ''}`, op, !sameClass));
  }
  const volatile = new Set((options.volatileHeaders ?? VOLATILE_HEADERS).map((h) => h.toLowerCase()));
  const ha = new Set(
    Object.keys(a.headers ?? {})
      .map((h) => h.toLowerCase())
      .filter((h) => !volatile.has(h)),
  );
  const hb = new Set(
    Object.keys(b.headers ?? {})
      .map((h) => h.toLowerCase())
      .filter((h) => !volatile.has(h)),
  );
  for (const h of hb) if (!ha.has(h)) out.push(diff('added-response-header', `response.headers.${h}`, `header ${h} added`, op));
  for (const h of ha) if (!hb.has(h)) out.push(diff('removed-response-header', `response.headers.${h}`, `header ${h} removed`, op));
  walkShapes(shapeOf(a.body), shapeOf(b.body), 'response.body', '', options, out);
  return out;
}
