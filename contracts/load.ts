/**
 * Reading the OpenAPI documents of spec/ (layout: spec/CONVENTIONS.md) and following
 * their `$ref`s. Schemas are NOT inlined here: ajv resolves schema `$ref`s itself
 * (see compile.ts), which keeps recursive schemas working and error paths short.
 * This module only follows the OpenAPI-level references (responses, parameters,
 * request bodies, headers) so that operations can be read as plain objects.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';

export type ApiName = 'platform' | 'audience' | 'test-host';
const API_NAMES: readonly ApiName[] = ['platform', 'audience', 'test-host'];

/** spec/ of this checkout (contracts/ sits next to it). */
export const DEFAULT_SPEC_DIR = fileURLToPath(new URL('../spec/', import.meta.url));

/** Version names are `v<YYYYMMDD>` (Versioning), so string order is date order. */
const VERSION_FILE = /^platform\.(v\d{8})\.openapi\.ya?ml$/;

export interface DocumentFiles {
  specDir: string;
  /** Source documents by API; the platform one carries every version's annotations. */
  sources: Partial<Record<ApiName, string>>;
  /** Derived platform documents by version, oldest first. */
  versions: { version: string; file: string }[];
}

export function discoverDocuments(specDir: string): DocumentFiles {
  const dir = resolve(specDir);
  const sources: Partial<Record<ApiName, string>> = {};
  for (const api of API_NAMES) {
    for (const ext of ['yaml', 'yml']) {
      const file = join(dir, `${api}.openapi.${ext}`);
      if (existsSync(file)) {
        sources[api] = file;
        break;
      }
    }
  }
  const versions: { version: string; file: string }[] = [];
  const versionsDir = join(dir, 'versions');
  if (existsSync(versionsDir)) {
    for (const name of readdirSync(versionsDir)) {
      const m = VERSION_FILE.exec(name);
      if (m) versions.push({ version: m[1], file: join(versionsDir, name) });
    }
  }
  versions.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  return { specDir: dir, sources, versions };
}

/** Parsed YAML files by file URL, so each file is read once per process. */
const fileCache = new Map<string, unknown>();

export function fileUri(file: string): string {
  return pathToFileURL(resolve(file)).href;
}

/**
 * Parsed documents as JSON, by the SHA-1 of the YAML text: parsing a large document with
 * `yaml` is much slower than JSON.parse of the same data, and every Playwright worker reads the documents it checks against (the first worker start is
 * on the self-test's critical path). Keyed by content, so an edited document is parsed again.
 * The unit-test runner keeps this folder across runs by its name (scripts/run-unit-tests.mjs KEPT_CACHES).
 */
const JSON_CACHE_DIR = join(tmpdir(), 'svc-contracts-yaml-v1');

/** A YAML file as it is now, through the content-keyed cache: a fresh value every call, the caller's to change. */
export function parseYamlFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  const cached = join(JSON_CACHE_DIR, `${createHash('sha1').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    /* not cached yet (or unreadable): parse the YAML */
  }
  // `uniqueKeys` keeps the YAML default (duplicate keys are an authoring error).
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw doc.errors[0];
  const parsed = doc.toJS({ maxAliasCount: -1 });
  // JSON keeps the value only without aliases (they are one shared object, which
  // locateNode finds by identity) and without values JSON has not (.inf, .nan).
  let aliases = false;
  YAML.visit(doc, {
    Alias: () => {
      aliases = true;
      return YAML.visit.BREAK;
    },
  });
  const json = JSON.stringify(parsed);
  if (!aliases && isDeepStrictEqual(JSON.parse(json), parsed)) {
    try {
      mkdirSync(JSON_CACHE_DIR, { recursive: true });
      // Another worker may write the same file at once: write aside, then rename (atomic).
      const aside = `${cached}.${process.pid}.tmp`;
      writeFileSync(aside, json);
      renameSync(aside, cached);
    } catch {
      /* a cache that cannot be written only costs time */
    }
  }
  return parsed;
}

export function readYamlUri(uri: string): unknown {
  let parsed = fileCache.get(uri);
  if (parsed === undefined) {
    parsed = parseYamlFile(fileURLToPath(uri));
    fileCache.set(uri, parsed);
  }
  return parsed;
}

export function readDocument(file: string): OpenAPIV3_1.Document {
  return readYamlUri(fileUri(file)) as OpenAPIV3_1.Document;
}

// ---- JSON pointers (RFC 6901) ----------------------------------------------------

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** A pointer as a URI fragment: percent-encoded (paths hold `{}`), as ajv expects. */
export function pointerFragment(pointer: string): string {
  return pointer
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%7E/gi, '~'))
    .join('/');
}

export function getByPointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return root;
  let node: any = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Where a node lives: the file's URI and a JSON pointer inside it. */
export interface Located<T> {
  value: T;
  uri: string;
  pointer: string;
}

/**
 * Follows a chain of `$ref`s (internal `#/...` or to another YAML file) from a node at
 * `uri#pointer`. Returns the final node and where it lives, or undefined when a
 * reference does not resolve (the caller reports that, never throws on it).
 */
export function follow<T>(value: unknown, uri: string, pointer: string): Located<T> | undefined {
  let node: any = value;
  let here = uri;
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    if (node === null || typeof node !== 'object' || typeof node.$ref !== 'string') {
      return { value: node as T, uri: here, pointer: at };
    }
    const ref: string = node.$ref;
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    const target = filePart ? new URL(filePart, here).href : here;
    let root: unknown;
    try {
      root = readYamlUri(target);
    } catch {
      return undefined;
    }
    node = getByPointer(root, fragment);
    if (node === undefined) return undefined;
    here = target;
    at = fragment;
  }
  return undefined; // a cycle of references: not an object we can read
}

// ---- where a schema object lives (readable failure rules) --------------------------

/** Node -> `uri` + pointer of its first occurrence, for the files indexed so far. */
const nodeLocations = new WeakMap<object, { uri: string; pointer: string }>();
const indexedFiles = new Set<string>();

function indexNode(node: unknown, uri: string, pointer: string, depth: number): void {
  if (node === null || typeof node !== 'object' || depth > 64 || nodeLocations.has(node)) return;
  nodeLocations.set(node, { uri, pointer });
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) indexNode(node[i], uri, `${pointer}/${i}`, depth + 1);
  } else {
    for (const [k, v] of Object.entries(node)) indexNode(v, uri, `${pointer}/${escapePointerSegment(k)}`, depth + 1);
  }
}

/**
 * Where a node of a loaded YAML file lives (the file's URI and a JSON pointer), or
 * undefined. ajv reports the schema object that failed (`parentSchema`, verbose mode):
 * this names it as `<file>#<pointer>`. Indexes each loaded file once, on first need
 * (failures only, never on the hot path).
 */
export function locateNode(node: unknown): { uri: string; pointer: string } | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  let hit = nodeLocations.get(node);
  if (hit === undefined) {
    for (const [uri, parsed] of fileCache) {
      if (indexedFiles.has(uri)) continue;
      indexedFiles.add(uri);
      indexNode(parsed, uri, '', 0);
    }
    hit = nodeLocations.get(node);
  }
  return hit;
}

// ---- the one reader of the documents, for every other reader of the checkout -------

/** Discovered files per spec directory (once per process). */
const discovered = new Map<string, DocumentFiles>();

function documentFiles(specDir: string): DocumentFiles {
  let hit = discovered.get(specDir);
  if (!hit) discovered.set(specDir, (hit = discoverDocuments(specDir)));
  return hit;
}

/** One document as read: its file, its URI (the base of its `$ref`s) and the parsed tree. */
export interface LoadedDocument {
  file: string;
  uri: string;
  /** Shared with every reader (the contract's models included): never modify it. */
  doc: OpenAPIV3_1.Document;
}

/**
 * The document of an API: the derived document of `version` when spec/versions/ has one
 * (platform), else the source document (spec/<api>.openapi.yaml; the platform source
 * carries every version's annotations). Parsed once per process, by the same cache the
 * contract reads through. Throws when the API has no document.
 */
export function loadDocument(api: ApiName, version?: string, specDir: string = DEFAULT_SPEC_DIR): LoadedDocument {
  const files = documentFiles(specDir);
  const file = (version !== undefined ? files.versions.find((v) => v.version === version && api === 'platform')?.file : undefined) ?? files.sources[api];
  if (!file) throw new Error(`No OpenAPI document for ${api}${version ? ` ${version}` : ''} in ${files.specDir} (expected ${api}.openapi.yaml)`);
  return { file, uri: fileUri(file), doc: readDocument(file) };
}

/** Any YAML file (e.g. a document named by spec/trace.yaml), parsed once per process: never modify the result. */
export function readYamlFile(file: string): unknown {
  return readYamlUri(fileUri(file));
}

/**
 * One `$ref` (`#/pointer`, `other.yaml#/pointer` or `other.yaml`) resolved against the
 * URI of the document it appears in: the node it names and where that lives, or
 * undefined when it names nothing. Unlike `follow`, one hop only.
 */
export function resolveRef(ref: string, baseUri: string): Located<unknown> | undefined {
  const hash = ref.indexOf('#');
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  let uri: string;
  let root: unknown;
  try {
    uri = filePart ? new URL(filePart, baseUri).href : baseUri;
    root = readYamlUri(uri);
  } catch {
    return undefined;
  }
  const value = getByPointer(root, fragment);
  return value === undefined ? undefined : { value, uri, pointer: fragment };
}

/**
 * A copy of `node` (found in the document at `uri`) with every `$ref` replaced by what it
 * names, for readers that need plain schemas (the webhook generators). Keywords beside a
 * `$ref` are kept over the referenced ones; a reference cycle or a reference that names
 * nothing becomes an open schema `{}`.
 */
export function inlineRefs(node: unknown, uri: string, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, uri, seen));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let rest = obj;
  if (typeof obj.$ref === 'string') {
    const target = resolveRef(obj.$ref, uri);
    const key = target ? `${target.uri}#${target.pointer}` : '';
    if (!target || seen.includes(key)) return {};
    Object.assign(out, inlineRefs(target.value, target.uri, [...seen, key]));
    const { $ref: _inlined, ...siblings } = obj;
    rest = siblings;
  }
  for (const [k, v] of Object.entries(rest)) out[k] = inlineRefs(v, uri, seen);
  return out;
}
