/**
 * The vendor's published reference as a second witness (../shared/real-service-notes.md:
 * "never fail a real service for doing what the specification leaves open").
 *
 * A team gives the vendor's OpenAPI documents (3.0 or 3.1, YAML or JSON, one per
 * version). For every operation the contract also documents:
 *
 *   1. every example the documents carry for a 2xx JSON response (a media-level
 *      `example`/`examples`, else the example the schema's property-level `example`
 *      values compose) is judged by the contract exactly as a live run judges an answer
 *      (`checkReceived`, the run's check options);
 *   2. the two descriptions are compared schema by schema: a field our `required` list
 *      demands that the reference does not carry at all, a status the reference declares
 *      that our document refuses, a property whose stated types cannot meet (a nullable
 *      reference type against a non-null one of ours is no disagreement: Nullability).
 *
 * Every disagreement quotes both sides. The stated failures an example shows, the
 * required fields the reference lacks and the statuses it declares become the
 * contradictions a run's checks take (`referenceContradictionsOf`, derived once per
 * process; contradictions.ts downgrades them to inferred at the end of the pipeline).
 * The specification stays the source of truth: a contradicted failure is still
 * reported, as a warning naming the reference (or an error under a strict profile).
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { loadContract, type Contract } from './contract.ts';
import { indexContradictions, type DisagreementKind, type ReferenceContradiction, type ReferenceContradictions } from './contradictions.ts';
import { countByTier, normaliseLocation, stepsOf, tierOf, type Failure, type Tier } from './failure.ts';
import { escapePointerSegment, fileUri, follow, pointerOf, readDocument, resolveRef } from './load.ts';
import { documentedResponse, type DocumentModel, type OperationInfo } from './model.ts';
import type { CheckOptions } from './registry.ts';

/** Bad input (a missing or unreadable file, not OpenAPI 3.0/3.1, a version the contract has no document for): the CLI's exit 2. */
export class ReferenceInputError extends Error {
  override name = 'ReferenceInputError';
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const VERSION = /^v?(\d{8})$/;
/** A JSON or JSON-family media type (RFC 6839), as model.ts reads one. */
const isJsonMedia = (type: string) => {
  const t = type.toLowerCase().split(';')[0].trim();
  return t === 'application/json' || t.endsWith('+json');
};

// ---- reading a document -----------------------------------------------------------------

/** One reference document, read and checked. */
export interface ReferenceDocument {
  /** The file as reports name it: relative to the working directory when inside it. */
  file: string;
  path: string;
  uri: string;
  doc: Rec;
  openapi: string;
  /** The platform version it describes (`v<YYYYMMDD>`, Versioning). */
  version: string;
  /** Where the version came from. */
  versionFrom: 'option' | 'info.version' | 'Accept-Version';
}

/** A path as reports name it: relative to the working directory when inside it, else absolute. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** `20250224`, `v20250224` -> `v20250224`; anything else undefined. */
function versionName(raw: unknown): string | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const m = VERSION.exec(String(raw).trim());
  return m ? `v${m[1]}` : undefined;
}

/** Every parameter object of a document (components, path items, operations), references followed. */
function parametersOf(doc: Rec, uri: string): Rec[] {
  const out: Rec[] = [];
  const add = (list: unknown, at: string) => {
    if (Array.isArray(list))
      list.forEach((p, i) => {
        const hit = follow<unknown>(p, uri, `${at}/${i}`);
        if (isRec(hit?.value)) out.push(hit.value);
      });
  };
  const components = isRec(doc.components) && isRec(doc.components.parameters) ? doc.components.parameters : {};
  for (const p of Object.values(components)) if (isRec(p)) out.push(p);
  for (const [path, item] of Object.entries(isRec(doc.paths) ? doc.paths : {})) {
    if (!isRec(item)) continue;
    const at = pointerOf(['paths', path]);
    add(item.parameters, `${at}/parameters`);
    for (const m of METHODS) if (isRec(item[m])) add((item[m] as Rec).parameters, `${at}/${m}/parameters`);
  }
  return out;
}

/** The version an `Accept-Version` header parameter names: its default, its one enum value, or its example. */
function acceptVersionOf(doc: Rec, uri: string): string | undefined {
  for (const p of parametersOf(doc, uri)) {
    if (typeof p.name !== 'string' || p.name.toLowerCase() !== 'accept-version') continue;
    const schema = isRec(p.schema) ? (follow<unknown>(p.schema, uri, '')?.value as Rec | undefined) : undefined;
    const candidates = [schema?.default, Array.isArray(schema?.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined, p.example, schema?.example];
    for (const c of candidates) {
      const v = versionName(c);
      if (v) return v;
    }
  }
  return undefined;
}

/**
 * Reads one reference document and the version it describes: `version` (the caller's
 * `--version-of`), else `info.version` when it is a date (`20250224`), else the
 * `Accept-Version` parameter's default or single enum value. Bad input throws
 * ReferenceInputError naming the file and what is wrong.
 */
export function readReferenceDocument(file: string, o: { version?: string; known: readonly string[] }): ReferenceDocument {
  const path = resolve(file);
  if (!existsSync(path)) throw new ReferenceInputError(`${file}: no such file`);
  if (!statSync(path).isFile()) throw new ReferenceInputError(`${file}: not a file`);
  let parsed: unknown;
  try {
    parsed = readDocument(path);
  } catch (e) {
    throw new ReferenceInputError(`${file}: not valid YAML or JSON (${String((e as Error).message).split('\n')[0]})`);
  }
  if (!isRec(parsed)) throw new ReferenceInputError(`${file}: not an OpenAPI document (the top level is not an object)`);
  if (typeof parsed.swagger === 'string')
    throw new ReferenceInputError(`${file}: Swagger ${parsed.swagger} (OpenAPI 2); OpenAPI 3.0 or 3.1 is required (convert it first)`);
  const openapi = typeof parsed.openapi === 'string' ? parsed.openapi : undefined;
  if (!openapi) throw new ReferenceInputError(`${file}: not an OpenAPI document (no "openapi" field)`);
  if (!/^3\.[01]\.\d+$/.test(openapi)) throw new ReferenceInputError(`${file}: OpenAPI ${openapi}; OpenAPI 3.0 or 3.1 is required`);
  if (!isRec(parsed.paths)) throw new ReferenceInputError(`${file}: OpenAPI ${openapi} document without "paths": nothing to compare`);
  const uri = fileUri(path);
  const info = isRec(parsed.info) ? parsed.info : {};
  let version: string | undefined;
  let versionFrom: ReferenceDocument['versionFrom'] = 'option';
  if (o.version !== undefined) {
    version = versionName(o.version);
    if (!version) throw new ReferenceInputError(`${file}: "${o.version}" is not a version name (v<YYYYMMDD>)`);
  } else if ((version = versionName(info.version))) {
    versionFrom = 'info.version';
  } else if ((version = acceptVersionOf(parsed, uri))) {
    versionFrom = 'Accept-Version';
  }
  if (!version)
    throw new ReferenceInputError(
      `${file}: which version it describes is not said (info.version ${JSON.stringify(info.version ?? null)}, no Accept-Version default); name it with --version-of ${file}=v<YYYYMMDD>`,
    );
  if (!o.known.includes(version))
    throw new ReferenceInputError(`${file}: describes ${version}, a version the contract has no document for (known: ${o.known.join(', ')})`);
  return { file: displayPath(path), path, uri, doc: parsed, openapi, version, versionFrom };
}

// ---- the operations both documents have -----------------------------------------------

interface ReferenceOperation {
  method: string;
  /** The reference's path template. */
  path: string;
  /** `/paths/~1institutions/get` in the reference document (or where a referenced path item lives). */
  pointer: string;
  uri: string;
  op: Rec;
  /** The path with its parameters filled with their examples or a placeholder. */
  url: string;
  /** Our operation the filled path routes to, as a live run routes it; undefined: ours has none. */
  ours?: OperationInfo;
}

/** A path parameter's example: its own, its `examples`' first, its schema's example, default or first enum value. */
function parameterExample(p: Rec, uri: string): string | undefined {
  const schema = isRec(p.schema) ? (follow<unknown>(p.schema, uri, '')?.value as Rec | undefined) : undefined;
  const firstExample = isRec(p.examples) ? Object.values(p.examples).find((x) => isRec(x) && 'value' in x) : undefined;
  for (const v of [
    p.example,
    (firstExample as Rec | undefined)?.value,
    schema?.example,
    schema?.default,
    Array.isArray(schema?.enum) ? schema.enum[0] : undefined,
  ]) {
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  }
  return undefined;
}

function referenceOperations(d: ReferenceDocument, model: DocumentModel): ReferenceOperation[] {
  const out: ReferenceOperation[] = [];
  for (const [path, raw] of Object.entries(d.doc.paths as Rec)) {
    const item = follow<unknown>(raw, d.uri, pointerOf(['paths', path]));
    if (!item || !isRec(item.value)) continue;
    const itemParams = Array.isArray(item.value.parameters) ? item.value.parameters : [];
    for (const method of METHODS) {
      const op = item.value[method];
      if (!isRec(op)) continue;
      const pointer = `${item.pointer}/${method}`;
      // Operation parameters override path-item ones of the same name and place (OpenAPI 3).
      const params = new Map<string, Rec>();
      const read = (list: unknown[], at: string) =>
        list.forEach((p, i) => {
          const hit = follow<unknown>(p, item.uri, `${at}/${i}`);
          if (isRec(hit?.value) && hit.value.in === 'path' && typeof hit.value.name === 'string') params.set(hit.value.name, hit.value);
        });
      read(itemParams, `${item.pointer}/parameters`);
      read(Array.isArray(op.parameters) ? op.parameters : [], `${pointer}/parameters`);
      const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const p = params.get(name);
        return encodeURIComponent((p && parameterExample(p, item.uri)) ?? `example-${name}`);
      });
      const ours = model.match(method.toUpperCase(), url)?.operation;
      out.push({ method: method.toUpperCase(), path, pointer, uri: item.uri, op, url, ...(ours ? { ours } : {}) });
    }
  }
  return out;
}

// ---- examples -----------------------------------------------------------------------------

/** Where a value of an example comes from in the reference: a literal example (whose inside has pointers too) or a schema. */
interface Source {
  uri: string;
  pointer: string;
  literal: boolean;
}

/** One example of a 2xx JSON response, as it would be served. */
export interface ReferenceExample {
  file: string;
  version: string;
  /** Our operation key. */
  operation: string;
  /** The reference's `METHOD /path`. */
  referenceOperation: string;
  method: string;
  url: string;
  status: number;
  mediaType: string;
  /** `example`, `examples/<name>` (media level) or `schema` (composed from property-level examples). */
  source: string;
  /** Where it is in the reference document. */
  pointer: string;
  body: unknown;
  /** Body JSON pointer -> where that value comes from (reference file URI and pointer). */
  sources: Map<string, Source>;
}

const NONE = Symbol('no example');
type Composed = unknown | typeof NONE;

/**
 * The example a schema's own `example` values compose: a schema with an `example` takes
 * it; an object takes every property that yields one (through `$ref`, `allOf`, and the
 * first `oneOf`/`anyOf` alternative that yields); an array one element from `items`.
 * NONE when nothing below yields.
 */
function compose(
  node: unknown,
  uri: string,
  pointer: string,
  path: string[],
  sources: Map<string, Source>,
  stack: ReadonlySet<string>,
  depth: number,
): Composed {
  if (depth > 48 || !isRec(node)) return NONE;
  const at = pointerOf(path);
  if ('example' in node) {
    sources.set(at, { uri, pointer: `${pointer}/example`, literal: true });
    return structuredClone(node.example);
  }
  // JSON Schema's own `examples` (an array; OpenAPI 3.1 schemas): its first value.
  if (Array.isArray(node.examples) && node.examples.length > 0) {
    sources.set(at, { uri, pointer: `${pointer}/examples/0`, literal: true });
    return structuredClone(node.examples[0]);
  }
  if (typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, uri);
    const key = target ? `${target.uri}#${target.pointer}` : '';
    if (!target || stack.has(key)) return NONE;
    return compose(target.value, target.uri, target.pointer, path, sources, new Set(stack).add(key), depth + 1);
  }
  let object: Rec | undefined;
  let other: Composed = NONE;
  const take = (v: Composed) => {
    if (isRec(v)) object = { ...(object ?? {}), ...v };
    else if (v !== NONE && other === NONE) other = v;
  };
  if (Array.isArray(node.allOf))
    node.allOf.forEach((sub, i) => {
      take(compose(sub, uri, `${pointer}/allOf/${i}`, path, sources, stack, depth + 1));
    });
  for (const kw of ['oneOf', 'anyOf'] as const) {
    const alternatives = node[kw];
    if (!Array.isArray(alternatives)) continue;
    for (let i = 0; i < alternatives.length; i++) {
      const v = compose(alternatives[i], uri, `${pointer}/${kw}/${i}`, path, sources, stack, depth + 1);
      if (v !== NONE) {
        take(v);
        break;
      }
    }
  }
  if (isRec(node.properties)) {
    for (const [k, sub] of Object.entries(node.properties)) {
      const v = compose(sub, uri, `${pointer}/properties/${escapePointerSegment(k)}`, [...path, k], sources, stack, depth + 1);
      if (v !== NONE) (object ??= {})[k] = v;
    }
  }
  let array: unknown[] | undefined;
  if (isRec(node.items)) {
    const v = compose(node.items, uri, `${pointer}/items`, [...path, '0'], sources, stack, depth + 1);
    if (v !== NONE) array = [v];
  }
  const result: Composed = object ?? array ?? other;
  // The outermost schema that composes a record names it (an `allOf` member composed part of it).
  if (object || array) sources.set(at, { uri, pointer, literal: false });
  return result;
}

function examplesOf(d: ReferenceDocument, r: ReferenceOperation): ReferenceExample[] {
  const out: ReferenceExample[] = [];
  const responses = isRec(r.op.responses) ? r.op.responses : {};
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    const response = follow<unknown>(raw, r.uri, `${r.pointer}/responses/${escapePointerSegment(status)}`);
    if (!response || !isRec(response.value) || !isRec(response.value.content)) continue;
    for (const [mediaType, media] of Object.entries(response.value.content)) {
      if (!isJsonMedia(mediaType) || !isRec(media)) continue;
      const mediaPointer = `${response.pointer}/content/${escapePointerSegment(mediaType)}`;
      const base = {
        file: d.file,
        version: d.version,
        operation: r.ours!.key,
        referenceOperation: `${r.method} ${r.path}`,
        method: r.method,
        url: r.url,
        status: Number(status),
        mediaType,
      };
      const literal = (source: string, uri: string, pointer: string, body: unknown) =>
        out.push({ ...base, source, pointer, body, sources: new Map([['', { uri, pointer, literal: true }]]) });
      if ('example' in media) {
        literal('example', response.uri, `${mediaPointer}/example`, media.example);
      } else if (isRec(media.examples) && Object.keys(media.examples).length > 0) {
        for (const [name, rawExample] of Object.entries(media.examples)) {
          const ex = follow<unknown>(rawExample, response.uri, `${mediaPointer}/examples/${escapePointerSegment(name)}`);
          if (ex && isRec(ex.value) && 'value' in ex.value) literal(`examples/${name}`, ex.uri, `${ex.pointer}/value`, ex.value.value);
        }
      } else if (media.schema !== undefined) {
        const sources = new Map<string, Source>();
        const body = compose(media.schema, response.uri, `${mediaPointer}/schema`, [], sources, new Set(), 0);
        if (body !== NONE) out.push({ ...base, source: 'schema', pointer: `${mediaPointer}/schema`, body, sources });
      }
    }
  }
  return out;
}

/** `response.body.institutions[0]["a b"].code` -> ['institutions', '0', 'a b', 'code'] (any index: the first); undefined outside the body. */
function bodyPathOf(location: string): string[] | undefined {
  return stepsOf(location, 'response.body')?.map((s) => ('key' in s ? s.key : 'index' in s ? String(s.index) : '0'));
}

function shortText(value: unknown, max = 240): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Where in the reference a failure's location sits in an example, and the example's value there (the deepest place that exists). */
function exampleSite(
  ex: ReferenceExample,
  location: string,
  refFile: (uri: string) => string,
): { file: string; pointer: string; text: string; carried?: string[]; described?: { pointer: string; uri: string } } {
  const path = bodyPathOf(location) ?? [];
  let value: unknown = ex.body;
  let depth = 0;
  for (const seg of path) {
    if (Array.isArray(value) ? Number(seg) < value.length : isRec(value) && Object.hasOwn(value, seg)) {
      value = (value as Rec)[seg];
      depth++;
    } else break;
  }
  const found = path.slice(0, depth);
  // The longest prefix with a recorded source; inside a literal example, the rest of the path too.
  for (let n = found.length; n >= 0; n--) {
    const src = ex.sources.get(pointerOf(found.slice(0, n)));
    if (!src) continue;
    const pointer = src.literal ? `${src.pointer}${pointerOf(found.slice(n))}` : src.pointer;
    const what = path.length > depth ? `${depth === 0 ? 'the example' : `the example at ${pointerOf(found)}`} has no ${pointerOf(path.slice(depth))}: ` : '';
    const absentField = path.length === depth + 1 && isRec(value) ? path[depth] : undefined;
    // A record composed from a schema lacks every property without an example value: the
    // properties the schema lists are carried by the reference all the same.
    const record = n === found.length && !src.literal ? view({ node: { $ref: `#${src.pointer}` }, uri: src.uri, pointer: '' }).properties : undefined;
    const described = absentField !== undefined ? record?.get(absentField) : undefined;
    // The failure is about a field a record of the example lacks: every other field it lacks is as
    // absent. Records only (inside the envelope): a check that names a field at the body's root
    // (`response.body.cta_clicked_at`) does not say which record lacks it.
    const carried = depth >= 1 && absentField !== undefined ? [...new Set([...Object.keys(value as Rec), ...(record?.keys() ?? [])])] : undefined;
    return {
      file: refFile(src.uri),
      pointer,
      text: `${what}${shortText(value)}`,
      ...(carried ? { carried } : {}),
      ...(described ? { described: { uri: described.uri, pointer: described.pointer } } : {}),
    };
  }
  return { file: ex.file, pointer: ex.pointer, text: shortText(value) };
}

// ---- comparing the two descriptions --------------------------------------------------------

interface Loc {
  node: unknown;
  uri: string;
  pointer: string;
}

/** One schema with its `allOf` members merged (and `oneOf`/`anyOf` alternatives' properties), references followed. */
interface SchemaView {
  at?: { uri: string; pointer: string };
  type?: { value: unknown; nullable: boolean; uri: string; pointer: string };
  required: { name: string; uri: string; pointer: string; list: unknown[]; inferred: boolean }[];
  properties: Map<string, Loc>;
  /** Where the first `properties` is. */
  propertiesAt?: { uri: string; pointer: string };
  items?: Loc;
}

function view(start: Loc): SchemaView {
  const v: SchemaView = { required: [], properties: new Map() };
  const seen = new Set<string>();
  const visit = (l: Loc, depth: number, alternative: boolean) => {
    const hit = follow<unknown>(l.node, l.uri, l.pointer);
    if (!hit || !isRec(hit.value) || depth > 16) return;
    const key = `${hit.uri}#${hit.pointer}`;
    if (seen.has(key)) return;
    seen.add(key);
    const n = hit.value;
    v.at ??= { uri: hit.uri, pointer: hit.pointer };
    if (!alternative && n.type !== undefined && v.type === undefined)
      v.type = { value: n.type, nullable: n.nullable === true, uri: hit.uri, pointer: hit.pointer };
    if (!alternative && Array.isArray(n.required))
      for (const name of n.required)
        if (typeof name === 'string')
          v.required.push({ name, uri: hit.uri, pointer: hit.pointer, list: n.required, inferred: typeof n['x-svc-inferred'] === 'string' });
    if (isRec(n.properties)) {
      v.propertiesAt ??= { uri: hit.uri, pointer: hit.pointer };
      for (const [k, sub] of Object.entries(n.properties))
        if (!v.properties.has(k)) v.properties.set(k, { node: sub, uri: hit.uri, pointer: `${hit.pointer}/properties/${escapePointerSegment(k)}` });
    }
    if (isRec(n.items) && !v.items) v.items = { node: n.items, uri: hit.uri, pointer: `${hit.pointer}/items` };
    if (Array.isArray(n.allOf))
      n.allOf.forEach((s, i) => {
        visit({ node: s, uri: hit.uri, pointer: `${hit.pointer}/allOf/${i}` }, depth + 1, alternative);
      });
    for (const kw of ['oneOf', 'anyOf'] as const)
      if (Array.isArray(n[kw]))
        (n[kw] as unknown[]).forEach((s, i) => {
          visit({ node: s, uri: hit.uri, pointer: `${hit.pointer}/${kw}/${i}` }, depth + 1, true);
        });
  };
  visit(start, 0, false);
  return v;
}

/** The types a schema states, `null` left out (Nullability: a nullable type is no disagreement). */
function statedTypes(t: unknown): string[] {
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string' && x !== 'null');
}

/** Two stated type sets can hold the same value (an integer is a number). */
function typesMeet(a: string[], b: string[]): boolean {
  const meet = (x: string, y: string) => x === y || (x === 'integer' && y === 'number') || (x === 'number' && y === 'integer');
  return a.some((x) => b.some((y) => meet(x, y)));
}

function locationText(path: readonly string[], extra?: string): string {
  let out = 'response.body';
  for (const seg of extra === undefined ? path : [...path, extra])
    out += seg === '*' ? '[*]' : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  return out;
}

// ---- the report -----------------------------------------------------------------------------

/** One disagreement between the contract and the reference, both sides quoted. */
export interface Disagreement {
  kind: DisagreementKind;
  version: string;
  /** Our operation key. */
  operation: string;
  /** Where a failure would stand (response.body.institutions[*].status, response.status). */
  location: string;
  ours: {
    check: string;
    tier: Tier;
    /** The rule text a failure quotes (a sentence of the specification, or a keyword at a pointer into spec/). */
    rule?: string;
    /** A pointer into spec/ (`versions/platform.v20250224.openapi.yaml#/...`). */
    spec?: string;
    /** What ours says there (the failure's message, the required list, the type). */
    text: string;
  };
  reference: {
    file: string;
    /** The reference's `METHOD /path`. */
    operation: string;
    pointer: string;
    /** What the reference says there (the example value, the declared status, the type). */
    text: string;
  };
  /** The status the reference declares (status_refused). */
  status?: number;
  /** A field the example's record lacks (example_failure): the fields that record carries. */
  carried?: string[];
  /** How many examples show it (example failures). */
  examples?: number;
  /** A live stated failure that matches it is reported inferred (every kind but type_differs). */
  downgrades: boolean;
}

export interface ReferenceDocumentSummary {
  file: string;
  version: string;
  openapi: string;
  versionFrom: ReferenceDocument['versionFrom'];
  /** Operations of the reference, and how many our contract also documents. */
  operations: number;
  matched: number;
  /** The reference's operations our contract does not document (`METHOD /path`). */
  unmatched: string[];
  examples: number;
}

export interface ExampleVerdict {
  file: string;
  version: string;
  operation: string;
  referenceOperation: string;
  url: string;
  status: number;
  mediaType: string;
  source: string;
  pointer: string;
  /** Failures of the example by tier, as a live run judges it. */
  failures: Record<Tier, number>;
  /** The same with the reference's contradictions in force. */
  withReference: Record<Tier, number>;
  /** Its stated failures with the contradictions in force: the gaps (ReferenceReport.gaps), and anything that escaped the downgrade. */
  statedLeft: Failure[];
}

export interface ReferenceReport {
  documents: ReferenceDocumentSummary[];
  examples: ExampleVerdict[];
  /** Over every example: failures by tier, and how many examples have a stated one; the same with the contradictions in force. */
  totals: {
    examples: number;
    failures: Record<Tier, number>;
    examplesWithStated: number;
    withReference: Record<Tier, number>;
    examplesWithStatedWithReference: number;
  };
  disagreements: Disagreement[];
  counts: Record<DisagreementKind, number>;
  /**
   * Stated failures of composed examples about a field the reference's schema carries
   * without an example value: no disagreement (the reference describes the field), so no
   * contradiction; they stay stated when the examples are judged with the reference.
   */
  gaps: ExampleGap[];
  contradictions: ReferenceContradiction[];
}

/** A field a composed example lacks only because the reference gives it no example value. */
export interface ExampleGap {
  version: string;
  operation: string;
  location: string;
  check: string;
  rule: string;
  reference: { file: string; operation: string; pointer: string; text: string };
}

export const DISAGREEMENT_KINDS: readonly DisagreementKind[] = ['example_failure', 'required_missing', 'status_refused', 'type_differs'];

/** What each kind means, for reports. */
export const DISAGREEMENT_TITLES: Record<DisagreementKind, string> = {
  example_failure: 'an example of the reference fails a stated rule, judged as a live run judges an answer',
  required_missing: 'a field our required list demands that the reference does not carry at all',
  status_refused: 'a status the reference declares that our document refuses for the operation',
  type_differs: 'a property whose stated types cannot meet (nullable against non-null is no disagreement)',
};

export interface ReferenceFile {
  file: string;
  /** The version it describes when the document does not say (`--version-of`). */
  version?: string;
}

/** One operation both documents have, and where its disagreements go. */
interface Site {
  doc: ReferenceDocument;
  op: ReferenceOperation;
  ours: OperationInfo;
  /** A file URI as our rules name it (relative to spec/) and as reports name the reference's. */
  specFile: (uri: string) => string;
  refFile: (uri: string) => string;
  add: (d: Disagreement) => Disagreement | undefined;
}

/** The statuses the reference declares for an operation that our document refuses: status_code_conformance, exactly as on a live answer with that status. */
function refusedStatuses(contract: Contract, at: Site, judge: CheckOptions): void {
  const { doc: d, op: r, ours } = at;
  for (const [status, raw] of Object.entries(isRec(r.op.responses) ? r.op.responses : {})) {
    if (!/^\d{3}$/.test(status)) continue;
    const { failures } = contract.checkReceived(
      {
        api: 'platform',
        version: d.version,
        request: { method: r.method, url: r.url, headers: { 'accept-version': d.version } },
        response: { status: Number(status), headers: {}, text: '' },
      },
      { ...judge, only: ['status_code_conformance'] },
    );
    const response = follow<unknown>(raw, r.uri, `${r.pointer}/responses/${status}`);
    const described = isRec(response?.value) && typeof response.value.description === 'string' ? `: ${shortText(response.value.description, 120)}` : '';
    const media = isRec(response?.value) && isRec(response.value.content) ? ` (${Object.keys(response.value.content).join(', ')})` : '';
    for (const f of failures.filter((x) => tierOf(x) === 'stated')) {
      at.add({
        kind: 'status_refused',
        version: d.version,
        operation: ours.key,
        location: normaliseLocation(f.location),
        ours: { check: f.check, tier: 'stated', rule: f.rule, text: f.message },
        reference: {
          file: d.file,
          operation: `${r.method} ${r.path}`,
          pointer: response?.pointer ?? `${r.pointer}/responses/${status}`,
          text: `declares ${status}${media}${described}`,
        },
        status: Number(status),
        downgrades: true,
      });
    }
  }
}

/**
 * The schemas of each 2xx JSON response both documents describe, compared place by place:
 * a field we require that the reference's object does not list (an object listing no
 * properties says nothing), and stated types that cannot meet.
 */
function compareSchemas(at: Site): void {
  const { doc: d, op: r, ours, specFile, refFile, add } = at;
  const refOp = `${r.method} ${r.path}`;
  for (const [status, raw] of Object.entries(isRec(r.op.responses) ? r.op.responses : {})) {
    if (!/^2\d\d$/.test(status)) continue;
    const ourMedia = documentedResponse(ours, Number(status))?.media.find((m) => m.isJson && m.schemaUri);
    const response = follow<unknown>(raw, r.uri, `${r.pointer}/responses/${status}`);
    if (!ourMedia || !response || !isRec(response.value) || !isRec(response.value.content)) continue;
    const refMedia = Object.entries(response.value.content).find(([t, m]) => isJsonMedia(t) && isRec(m) && m.schema !== undefined);
    if (!refMedia) continue;
    const refLoc: Loc = {
      node: (refMedia[1] as Rec).schema,
      uri: response.uri,
      pointer: `${response.pointer}/content/${escapePointerSegment(refMedia[0])}/schema`,
    };
    const ourLoc: Loc = { node: { $ref: `#${ourMedia.schemaPointer}` }, uri: ourMedia.schemaUri!, pointer: '' };
    const pairs = new Set<string>();
    const walk = (a: Loc, b: Loc, path: string[], depth: number) => {
      if (depth > 24) return;
      const mine = view(a);
      const theirs = view(b);
      const pair = `${mine.at?.uri}#${mine.at?.pointer}|${theirs.at?.uri}#${theirs.at?.pointer}`;
      if (pairs.has(pair)) return;
      pairs.add(pair);
      if (theirs.propertiesAt) {
        for (const req of mine.required) {
          if (theirs.properties.has(req.name)) continue;
          const carried = [...theirs.properties.keys()];
          add({
            kind: 'required_missing',
            version: d.version,
            operation: ours.key,
            location: locationText(path, req.name),
            ours: {
              check: 'response_schema_conformance',
              tier: req.inferred ? 'inferred' : 'stated',
              spec: `${specFile(req.uri)}#${req.pointer}/required`,
              text: `required: [${req.list.join(', ')}]`,
            },
            reference: {
              file: refFile(theirs.propertiesAt.uri),
              operation: refOp,
              pointer: `${theirs.propertiesAt.pointer}/properties`,
              text: `properties: ${carried.length > 20 ? `${carried.slice(0, 20).join(', ')}, ... (${carried.length})` : carried.join(', ')} (no "${req.name}")`,
            },
            // A required list of an `x-svc-inferred` schema fails inferred already.
            downgrades: !req.inferred,
          });
        }
      }
      if (mine.type && theirs.type) {
        const a1 = statedTypes(mine.type.value);
        const b1 = statedTypes(theirs.type.value);
        if (a1.length && b1.length && !typesMeet(a1, b1)) {
          add({
            kind: 'type_differs',
            version: d.version,
            operation: ours.key,
            location: locationText(path),
            ours: {
              check: 'response_schema_conformance',
              tier: 'stated',
              spec: `${specFile(mine.type.uri)}#${mine.type.pointer}/type`,
              text: `type: ${shortText(mine.type.value)}`,
            },
            reference: {
              file: refFile(theirs.type.uri),
              operation: refOp,
              pointer: `${theirs.type.pointer}/type`,
              text: `type: ${shortText(theirs.type.value)}${theirs.type.nullable ? ', nullable: true' : ''}`,
            },
            // What the reference declares without an example showing it: listed, no downgrade.
            downgrades: false,
          });
        }
      }
      for (const [k, sub] of mine.properties) {
        const other = theirs.properties.get(k);
        if (other) walk(sub, other, [...path, k], depth + 1);
      }
      if (mine.items && theirs.items) walk(mine.items, theirs.items, [...path, '*'], depth + 1);
    };
    walk(ourLoc, refLoc, [], 0);
  }
}

/** What the examination gathers, document after document, and the run's check options it judges with. */
interface Examination {
  contract: Contract;
  judge: CheckOptions;
  refFile: (uri: string) => string;
  documents: ReferenceDocumentSummary[];
  examples: ReferenceExample[];
  verdicts: ExampleVerdict[];
  disagreements: Disagreement[];
  /** The example_failure disagreement of each stated rule an example breaks, to count the examples breaking it again. */
  exampleFailures: Map<string, Disagreement>;
  undescribed: ExampleGap[];
  /** Records a disagreement once; undefined when the same one is already recorded. */
  add: (d: Disagreement) => Disagreement | undefined;
}

/**
 * Every example of the reference documents judged, the descriptions compared, each
 * disagreement quoted from both sides, and the contradictions a run's checks take.
 * `options` are the run's check options (targets/client.ts checkOptionsOf); any
 * `referenceContradictions` in them are left out: the reference is judged by the contract alone.
 */
export function examineReference(files: readonly (string | ReferenceFile)[], options: CheckOptions = {}, o: { contract?: Contract } = {}): ReferenceReport {
  const contract = o.contract ?? loadContract();
  const { referenceContradictions: _left, only: _all, ...judge } = options;
  const docs = files
    .map((f) => (typeof f === 'string' ? { file: f } : f))
    .map((f) => readReferenceDocument(f.file, { version: f.version, known: contract.versions }));
  const x = newExamination(contract, judge, docs);
  for (const d of docs) examineDocument(x, d);
  const contradictions = x.disagreements.filter((d) => d.downgrades).map(contradictionOfDisagreement);
  judgeWithContradictions(x, contradictions, docs);
  return referenceReport(x, contradictions);
}

function newExamination(contract: Contract, judge: CheckOptions, docs: readonly ReferenceDocument[]): Examination {
  const byUri = new Map(docs.map((d) => [d.uri, d.file]));
  const disagreements: Disagreement[] = [];
  const seen = new Set<string>();
  const add = (d: Disagreement) => {
    const key = `${d.kind}\u0000${d.version}\u0000${d.operation}\u0000${d.location}\u0000${d.status ?? ''}\u0000${d.ours.rule ?? d.ours.spec ?? ''}\u0000${d.reference.file}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    disagreements.push(d);
    return d;
  };
  return {
    contract,
    judge,
    refFile: (uri: string) => byUri.get(uri) ?? (uri.startsWith('file:') ? displayPath(new URL(uri).pathname) : uri),
    documents: [],
    examples: [],
    verdicts: [],
    disagreements,
    exampleFailures: new Map(),
    undescribed: [],
    add,
  };
}

/** One reference document: its operations' declarations compared with ours, then its examples judged. */
function examineDocument(x: Examination, d: ReferenceDocument): void {
  const model = x.contract.model('platform', d.version);
  const specFile = (uri: string) => model.displayName(uri);
  const ops = referenceOperations(d, model);
  const matched = ops.filter((r) => r.ours);
  const own: ReferenceExample[] = [];
  for (const r of matched) {
    const at: Site = { doc: d, op: r, ours: r.ours!, specFile, refFile: x.refFile, add: x.add };
    refusedStatuses(x.contract, at, x.judge);
    compareSchemas(at);
    own.push(...examplesOf(d, r));
  }
  // Every example, judged as a live run judges an answer.
  for (const ex of own) {
    const failures = judgeExample(x.contract, ex, x.judge);
    x.verdicts.push({
      file: ex.file,
      version: ex.version,
      operation: ex.operation,
      referenceOperation: ex.referenceOperation,
      url: ex.url,
      status: ex.status,
      mediaType: ex.mediaType,
      source: ex.source,
      pointer: ex.pointer,
      failures: countByTier(failures),
      withReference: { stated: 0, inferred: 0, informational: 0 },
      statedLeft: [],
    });
    for (const f of failures) recordExampleFailure(x, ex, f);
  }
  x.examples.push(...own);
  x.documents.push({
    file: d.file,
    version: d.version,
    openapi: d.openapi,
    versionFrom: d.versionFrom,
    operations: ops.length,
    matched: matched.length,
    unmatched: ops.filter((r) => !r.ours).map((r) => `${r.method} ${r.path}`),
    examples: own.length,
  });
}

/** One example judged as a live run judges an answer with that status, media type and body. */
function judgeExample(contract: Contract, ex: ReferenceExample, judge: CheckOptions): Failure[] {
  return contract.checkReceived(
    {
      api: 'platform',
      version: ex.version,
      request: { method: ex.method, url: ex.url, headers: { 'accept-version': ex.version } },
      response: { status: ex.status, headers: { 'content-type': ex.mediaType }, text: JSON.stringify(ex.body) },
    },
    judge,
  ).failures;
}

/** A stated failure of an example: a disagreement (counted once per rule), or a gap where the reference's schema carries the field. */
function recordExampleFailure(x: Examination, ex: ReferenceExample, f: Failure): void {
  // A refused status is its own kind (status_refused, from the declarations above).
  if (tierOf(f) !== 'stated' || f.check === 'status_code_conformance') return;
  const key = `${ex.version}\u0000${f.check}\u0000${f.operation}\u0000${normaliseLocation(f.location)}\u0000${f.rule}`;
  const known = x.exampleFailures.get(key);
  if (known) {
    known.examples = (known.examples ?? 1) + 1;
    return;
  }
  const location = normaliseLocation(f.location);
  // A required field the reference's schema does not carry is listed once, as required_missing.
  if (
    f.rule.startsWith('required at ') &&
    x.disagreements.some((d) => d.kind === 'required_missing' && d.version === ex.version && d.operation === f.operation && d.location === location)
  )
    return;
  const site = exampleSite(ex, f.location, x.refFile);
  if (site.described) {
    // The reference's schema carries the field; only its composed example has no value for
    // it (no property-level example): the reference does not contradict the rule there.
    if (!x.undescribed.some((u) => u.version === ex.version && u.operation === f.operation && u.location === location && u.check === f.check))
      x.undescribed.push({
        version: ex.version,
        operation: f.operation,
        location,
        check: f.check,
        rule: f.rule,
        reference: {
          file: x.refFile(site.described.uri),
          operation: ex.referenceOperation,
          pointer: site.described.pointer,
          text: 'the schema carries the field without an example value, so the composed example leaves it out',
        },
      });
    return;
  }
  const added = x.add({
    kind: 'example_failure',
    version: ex.version,
    operation: f.operation,
    location,
    ours: { check: f.check, tier: 'stated', rule: f.rule, text: f.message },
    reference: { file: site.file, operation: ex.referenceOperation, pointer: site.pointer, text: site.text },
    ...(site.carried ? { carried: site.carried } : {}),
    examples: 1,
    downgrades: true,
  });
  if (added) x.exampleFailures.set(key, added);
}

/** The examples again, with the contradictions in force: what a run with this reference reports. */
function judgeWithContradictions(x: Examination, contradictions: readonly ReferenceContradiction[], docs: readonly ReferenceDocument[]): void {
  const index = indexContradictions(
    contradictions,
    docs.map((d) => d.file),
  );
  x.examples.forEach((ex, i) => {
    const failures = judgeExample(x.contract, ex, { ...x.judge, referenceContradictions: index });
    x.verdicts[i].withReference = countByTier(failures);
    x.verdicts[i].statedLeft = failures.filter((f) => tierOf(f) === 'stated');
  });
}

function referenceReport(x: Examination, contradictions: ReferenceContradiction[]): ReferenceReport {
  const { verdicts, disagreements } = x;
  const sum = (pick: (v: ExampleVerdict) => Record<Tier, number>) =>
    verdicts.reduce(
      (acc, v) => ({
        stated: acc.stated + pick(v).stated,
        inferred: acc.inferred + pick(v).inferred,
        informational: acc.informational + pick(v).informational,
      }),
      { stated: 0, inferred: 0, informational: 0 },
    );
  const counts = Object.fromEntries(DISAGREEMENT_KINDS.map((k) => [k, disagreements.filter((d) => d.kind === k).length])) as Record<DisagreementKind, number>;
  return {
    documents: x.documents,
    examples: verdicts,
    totals: {
      examples: verdicts.length,
      failures: sum((v) => v.failures),
      examplesWithStated: verdicts.filter((v) => v.failures.stated > 0).length,
      withReference: sum((v) => v.withReference),
      examplesWithStatedWithReference: verdicts.filter((v) => v.withReference.stated > 0).length,
    },
    disagreements,
    counts,
    gaps: x.undescribed,
    contradictions,
  };
}

function contradictionOfDisagreement(d: Disagreement): ReferenceContradiction {
  const base = {
    kind: d.kind,
    check: d.ours.check,
    operation: d.operation,
    version: d.version,
    location: d.location,
    file: d.reference.file,
    pointer: d.reference.pointer,
    text: d.reference.text,
  };
  if (d.kind === 'example_failure') return { ...base, rule: d.ours.rule, ...(d.carried ? { carried: d.carried } : {}) };
  if (d.kind === 'required_missing') return { ...base, keyword: 'required' };
  // status_refused: only an answer with the status the reference declares.
  return { ...base, ...(d.status !== undefined ? { status: d.status } : {}) };
}

// ---- the contradictions of a run, once per process -------------------------------------------

const derived = new Map<string, ReferenceContradictions>();

/**
 * The contradictions of reference documents under a run's check options, derived on
 * first use and kept for the process (every exchange of a run reads them; none derives
 * them again). Bad input throws ReferenceInputError.
 */
export function referenceContradictionsOf(files: readonly string[], options: CheckOptions = {}): ReferenceContradictions {
  const { referenceContradictions: _left, only: _all, generated: _g, requestChecks: _r, ...judge } = options;
  const key = `${files.join('\n')}\u0000${JSON.stringify(judge)}`;
  let hit = derived.get(key);
  if (!hit) {
    const report = examineReference(files, judge);
    hit = indexContradictions(
      report.contradictions,
      report.documents.map((d) => d.file),
    );
    derived.set(key, hit);
  }
  return hit;
}
