/**
 * JSON Schema (the request schemas of spec/) -> fast-check arbitraries.
 *
 *   valueOf(node)      values valid by what the schema states: `type`, `enum`, `const`,
 *                      `pattern`, `format`, `required`, `items`; a schema without a
 *                      type (the documents leave most types open: "a field gets a JSON
 *                      type only where the specification states one") draws any scalar.
 *   mutationsOf(node)  the rules a value can break, one per mutation, each with the
 *                      tier of its authority: a property the document requires from a
 *                      version (`x-svc-required-from`, read in the source document, for
 *                      a version whose changes are stated) is stated; every other
 *                      required property, type, pattern and format is inferred here (the
 *                      document's keyword alone states nothing; Versioning even calls
 *                      "adding a validation rule" breaking, so a target is free not to
 *                      validate what the specification does not state). Where the
 *                      specification does state the rule (the request tables of
 *                      contracts/requests.ts), requests.ts `ruleOfBody` gives the case
 *                      that rule's stated tier and sentence. Values that ALMOST meet a
 *                      rule come from the contract's near-miss generator, not from here.
 *
 * `$ref`s are followed with the contract's loader (contracts/load.ts), never re-read.
 */
import fc from 'fast-check';
import { follow, type Tier } from '../../../contracts/index.ts';

/** A schema node and the document it lives in (its `$ref`s resolve against `uri`). */
export interface SchemaAt {
  schema: any;
  uri: string;
  /** `MemberCreateRequest` when the node was reached through `#/components/schemas/MemberCreateRequest`. */
  name?: string;
}

export function resolveSchema(at: SchemaAt): SchemaAt {
  let { schema, uri, name } = at;
  for (let hops = 0; hops < 16 && schema && typeof schema === 'object' && typeof schema.$ref === 'string'; hops++) {
    const ref: string = schema.$ref;
    const m = /#\/components\/schemas\/([^/]+)$/.exec(ref);
    const located = follow<any>(schema, uri, '');
    if (!located) return { schema: {}, uri };
    // Sibling keywords of a $ref (OpenAPI 3.1) describe the same node: keep the extensions.
    const siblings = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref'));
    schema = Object.keys(siblings).length ? { ...located.value, ...siblings } : located.value;
    uri = located.uri;
    if (m) name = decodeURIComponent(m[1]);
  }
  return { schema: schema ?? {}, uri, name };
}

/** Characters safe in a header value and a URL path segment after encoding: printable ASCII. */
const SAFE_CHARS = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~ :@'.split(''));
const safeString = (maxLength = 16) => fc.string({ unit: SAFE_CHARS, minLength: 0, maxLength });

const isoDateTime = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00'));
const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Any JSON scalar: a field whose type the specification does not state. */
const openScalar = fc.oneof(safeString(12), fc.integer({ min: -1000, max: 100000 }), fc.boolean(), fc.constant(null));

function typesOf(schema: any): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/**
 * Strings matching a pattern, drawn from visible ASCII: `\S`, `\d`, `\w` become their
 * ASCII classes first (fast-check draws a negated class by filtering every code point,
 * which is slow and mostly yields characters no header or URL carries). Cached per pattern.
 */
const patternArbs = new Map<string, fc.Arbitrary<string>>();
export function patternArb(pattern: string): fc.Arbitrary<string> {
  let hit = patternArbs.get(pattern);
  if (!hit) {
    const ascii = pattern.replace(/\\S/g, '[!-~]').replace(/\\d/g, '[0-9]').replace(/\\w/g, '[A-Za-z0-9_]');
    try {
      const re = new RegExp(pattern);
      hit = fc.stringMatching(new RegExp(ascii)).filter((s) => s.length <= 200 && re.test(s));
    } catch {
      hit = safeString();
    }
    patternArbs.set(pattern, hit);
  }
  return hit;
}

/** Arbitraries per schema node (the same node recurs in every operation and version that shares it). */
const valueArbs = new WeakMap<object, fc.Arbitrary<unknown>[]>();

/** Values valid by what the schema states. */
export function valueOf(at: SchemaAt, depth = 0): fc.Arbitrary<unknown> {
  const node = at.schema;
  if (node === null || typeof node !== 'object') return valueOfUncached(at, depth);
  let byDepth = valueArbs.get(node);
  if (!byDepth) valueArbs.set(node, (byDepth = []));
  return (byDepth[depth] ??= valueOfUncached(at, depth));
}

function valueOfUncached(at: SchemaAt, depth: number): fc.Arbitrary<unknown> {
  const { schema, uri } = resolveSchema(at);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
  const options = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(options) && options.length) return fc.oneof(...options.map((s: any) => valueOf({ schema: s, uri }, depth + 1)));
  const types = typesOf(schema);
  if (!types.length) return depth > 3 ? fc.constant(null) : openScalar;
  return fc.oneof(...types.map((t) => valueOfType(t, schema, uri, depth)));
}

function valueOfType(type: string, schema: any, uri: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
        max: typeof schema.maximum === 'number' ? schema.maximum : 100_000,
      });
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100);
    case 'string':
      if (schema.format === 'date-time') return isoDateTime;
      if (schema.format === 'date') return isoDate;
      if (schema.format === 'uri') return fc.webUrl({ withQueryParameters: false, withFragments: false });
      if (typeof schema.pattern === 'string') return patternArb(schema.pattern);
      return safeString(typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 24) : 16);
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(valueOf({ schema: schema.items ?? {}, uri }, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, any>;
      const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
      if (depth > 4) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) model[k] = valueOf({ schema: s, uri }, depth + 1);
      for (const k of required) model[k] ??= openScalar;
      return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
    }
    default:
      return openScalar;
  }
}

/** One rule a value can break. `path` is the property path inside the value. */
export interface Mutation {
  path: string[];
  op: 'drop' | 'set';
  /** For `set`: the invalid value. */
  value?: unknown;
  tier: Tier;
  rule: string;
  what: string;
}

export interface MutationContext {
  /** The version of the document (platform), for version-bound requirements. */
  version?: string;
  /**
   * Whether a property's requirement is stated for this version: `(schemaName, property
   * path inside that named schema)` -> the rule it quotes, or undefined (inferred).
   */
  statedRequirement?: (schemaName: string | undefined, property: string) => string | undefined;
}

const INFERRED_RULE =
  'the request description (spec/); that a service refuses a request breaking it is inferred (Versioning names "adding a validation rule" among breaking changes, so a target may accept more than it documents)';

/** A value of another JSON type than every stated one. */
function wrongTypeValue(types: string[]): unknown | undefined {
  const candidates: Array<[string, unknown]> = [
    ['string', 'not-a-number'],
    ['integer', 12345],
    ['boolean', true],
    ['object', { unexpected: 1 }],
    ['array', [1, 2]],
  ];
  for (const [t, v] of candidates) {
    const excluded = types.includes(t) || (t === 'integer' && types.includes('number')) || (t === 'string' && types.length === 0);
    if (!excluded) return v;
  }
  return undefined;
}

/** The rules a value of this schema can break, down to `maxDepth` levels of properties. */
export function mutationsOf(
  at: SchemaAt,
  ctx: MutationContext = {},
  path: string[] = [],
  depth = 0,
  named: { name?: string; rel: string[] } = { rel: [] },
): Mutation[] {
  const resolved = resolveSchema(at);
  const { schema, uri } = resolved;
  // The named schema this node belongs to, and its place inside it (`WidgetUrlRequest`, [`widget_url`]).
  const here = resolved.name && resolved.name !== at.name ? { name: resolved.name, rel: [] as string[] } : named;
  const name = here.name;
  const out: Mutation[] = [];
  const where = path.length ? path.join('.') : 'the body';
  const types = typesOf(schema);
  if (types.length && !types.includes('null') && path.length) {
    const wrong = wrongTypeValue(types);
    if (wrong !== undefined)
      out.push({
        path,
        op: 'set',
        value: wrong,
        tier: 'inferred',
        rule: `${INFERRED_RULE}: ${where} is of type ${types.join(' or ')}`,
        what: `${where} of another type (${JSON.stringify(wrong)})`,
      });
  }
  if (types.includes('string') && typeof schema.pattern === 'string' && path.length) {
    out.push({
      path,
      op: 'set',
      value: '!~not matching~!',
      tier: 'inferred',
      rule: `${INFERRED_RULE}: ${where} matches ${schema.pattern}`,
      what: `${where} not matching ${schema.pattern}`,
    });
  }
  if (types.includes('string') && schema.format === 'date-time' && path.length) {
    out.push({
      path,
      op: 'set',
      value: 'yesterday',
      tier: 'inferred',
      rule: `${INFERRED_RULE}: ${where} is an ISO 8601 timestamp`,
      what: `${where} not a timestamp ("yesterday")`,
    });
  }
  if (types.includes('object') && depth < 3) {
    const props = (schema.properties ?? {}) as Record<string, any>;
    for (const req of Array.isArray(schema.required) ? schema.required : []) {
      const stated = ctx.statedRequirement?.(name, [...here.rel, req].join('.'));
      out.push({
        path: [...path, req],
        op: 'drop',
        tier: stated ? 'stated' : 'inferred',
        rule: stated ?? `${INFERRED_RULE}: ${req} is required in ${name ?? where}`,
        what: `${[...path, req].join('.')} left out (required${stated ? ', stated' : ''})`,
      });
    }
    for (const [k, s] of Object.entries(props))
      out.push(...mutationsOf({ schema: s, uri, ...(name ? { name } : {}) }, ctx, [...path, k], depth + 1, { name, rel: [...here.rel, k] }));
  }
  return out;
}

/**
 * Values the request description names for a body's properties (an `enum`, `examples`, or
 * an array of such items), by property path, down to `maxDepth` levels: the values a
 * target must accept when everything else of the request is accepted.
 */
export function namedValuesOf(at: SchemaAt, path: string[] = [], depth = 0): Array<{ path: string[]; value: unknown }> {
  const { schema, uri } = resolveSchema(at);
  const out: Array<{ path: string[]; value: unknown }> = [];
  const named = (node: any): unknown[] =>
    [...(Array.isArray(node?.enum) ? node.enum : []), ...(Array.isArray(node?.examples) ? node.examples : [])].filter((v) => v !== null);
  if (path.length) {
    for (const v of named(schema)) out.push({ path, value: v });
    if (schema.items) for (const v of named(resolveSchema({ schema: schema.items, uri }).schema)) out.push({ path, value: [v] });
  }
  if (depth < 3)
    for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, any>))
      out.push(...namedValuesOf({ schema: s, uri }, [...path, k], depth + 1));
  return out;
}

/** The value with one mutation applied (parents created as objects where absent). */
export function applyMutation(value: unknown, m: Mutation): unknown {
  if (m.path.length === 0) return m.op === 'drop' ? undefined : m.value;
  const root: any = value !== null && typeof value === 'object' && !Array.isArray(value) ? structuredClone(value) : {};
  let node = root;
  for (const key of m.path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  const last = m.path[m.path.length - 1];
  if (m.op === 'drop') delete node[last];
  else node[last] = m.value;
  return root;
}
