/**
 * Derives one plain OpenAPI 3.1 document per API version from spec/platform.openapi.yaml
 * (spec/CONVENTIONS.md): version annotations are resolved, everything else is kept.
 *
 *   npm run spec:derive            writes spec/versions/platform.<version>.openapi.yaml
 *
 * Versioning section: "Versions in play: v20260929 (current ...), v20250224, v20111101". The changes of
 * v20260929 are not shown, so its document equals v20250224 and says so in info.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const SPEC_DIR = dirname(fileURLToPath(import.meta.url));
export const SOURCE_FILE = join(SPEC_DIR, 'platform.openapi.yaml');
export const VERSIONS = ['v20111101', 'v20250224', 'v20260929'] as const;
export type ApiVersion = (typeof VERSIONS)[number];

export function derivedFile(version: string): string {
  return join(SPEC_DIR, 'versions', `platform.${version}.openapi.yaml`);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface VersionRange {
  from?: string;
  until?: string;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Version names are `v<YYYYMMDD>`, so string order is release order (CONVENTIONS.md). */
function inRange(version: string, range: VersionRange | undefined): boolean {
  if (!range) return true;
  if (range.from && version < range.from) return false;
  if (range.until && version >= range.until) return false;
  return true;
}

function isActive(node: Json, version: string): boolean {
  return !isObject(node) || inRange(version, node['x-svc-versions'] as VersionRange | undefined);
}

/** Annotations that only make sense in the source document. */
const SOURCE_ONLY = ['x-svc-versions', 'x-svc-required-from', 'x-svc-deprecated-from', 'x-svc-sunset-from', 'x-svc-path-from'];

/** Resolves one node in place (children first), returning it. */
function resolveNode(node: Json, version: string): Json {
  if (Array.isArray(node)) {
    return node.filter((item) => isActive(item, version)).map((item) => resolveNode(item, version));
  }
  if (!isObject(node)) return node;

  // Schema properties: drop inactive ones (and their `required` entries), add required-from.
  if (isObject(node.properties)) {
    const props = node.properties;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, schema] of Object.entries(props)) {
      if (!isActive(schema, version)) {
        delete props[name];
        required.delete(name);
        continue;
      }
      const from = isObject(schema) ? (schema['x-svc-required-from'] as string | undefined) : undefined;
      if (from && version >= from) required.add(name);
    }
    if (required.size > 0) node.required = [...required];
    else delete node.required;
  }

  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') {
      for (const [name, schema] of Object.entries(value as JsonObject)) (value as JsonObject)[name] = resolveNode(schema, version);
      continue;
    }
    if (!isActive(value, version)) {
      delete node[key];
      continue;
    }
    node[key] = resolveNode(value, version);
  }

  const deprecatedFrom = node['x-svc-deprecated-from'];
  if (typeof deprecatedFrom === 'string' && version >= deprecatedFrom) node.deprecated = true;
  const sunsetFrom = node['x-svc-sunset-from'];
  if (typeof sunsetFrom === 'string' && version >= sunsetFrom) node['x-svc-sunset'] = true;
  for (const key of SOURCE_ONLY) delete node[key];
  return node;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Path items and webhooks left with no operation disappear from the version. */
function dropEmptyPathItems(map: JsonObject | undefined): void {
  if (!map) return;
  for (const [key, item] of Object.entries(map)) {
    if (isObject(item) && !HTTP_METHODS.some((m) => m in item)) delete map[key];
  }
}

interface PathRename {
  version: string;
  path: string;
  rename_parameter?: { from: string; to: string };
}

/** Endpoints table: "In version v20250224 the path uses user_identifier" (same path shape). */
function renamePaths(paths: JsonObject, version: string): JsonObject {
  const out: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    const rename = isObject(item) ? (item['x-svc-path-from'] as unknown as PathRename | undefined) : undefined;
    if (rename && version >= rename.version) {
      const renamed = rename.rename_parameter;
      if (renamed && isObject(item) && Array.isArray(item.parameters)) {
        for (const param of item.parameters) {
          if (isObject(param) && param.in === 'path' && param.name === renamed.from) param.name = renamed.to;
        }
      }
      out[rename.path] = item;
    } else {
      out[path] = item;
    }
  }
  return out;
}

export function deriveVersion(source: JsonObject, version: string): JsonObject {
  const doc = structuredClone(source);
  if (isObject(doc.paths)) doc.paths = renamePaths(doc.paths, version);
  resolveNode(doc, version);
  dropEmptyPathItems(doc.paths as JsonObject | undefined);
  dropEmptyPathItems(doc.webhooks as JsonObject | undefined);

  const info = doc.info as JsonObject;
  const versions = (info['x-svc-api-versions'] ?? []) as JsonObject[];
  const entry = versions.find((v) => v.name === version);
  info.title = `svc financial data platform API (${version})`;
  info.version = version;
  info['x-svc-api-version'] = version;
  if (entry?.note) info['x-svc-version-note'] = entry.note;
  // Versioning: "Breaking changes introduced by v20260929: not shown" - the version's own open
  // point leads info's x-svc-not-shown (a string, CONVENTIONS.md) and heads the open-points list.
  const ownNotShown = entry?.['x-svc-not-shown'];
  if (typeof ownNotShown === 'string') {
    info['x-svc-not-shown'] = ownNotShown;
    const points = Array.isArray(info['x-svc-open-points']) ? info['x-svc-open-points'] : [];
    info['x-svc-open-points'] = [ownNotShown, ...points];
  }
  delete info['x-svc-api-versions'];
  return doc;
}

export function loadSource(): JsonObject {
  return parse(readFileSync(SOURCE_FILE, 'utf8')) as JsonObject;
}

const HEADER = (version: string) =>
  `# GENERATED by spec/derive.ts from spec/platform.openapi.yaml for ${version}; do not edit.\n` +
  `# Regenerate with: npm run spec:derive (a unit test fails when this file is stale).\n`;

export function renderVersion(source: JsonObject, version: string): string {
  return HEADER(version) + stringify(deriveVersion(source, version), { lineWidth: 0, aliasDuplicateObjects: false });
}

function main(): void {
  const source = loadSource();
  mkdirSync(join(SPEC_DIR, 'versions'), { recursive: true });
  for (const version of VERSIONS) {
    writeFileSync(derivedFile(version), renderVersion(source, version));
    console.log(`wrote ${derivedFile(version)}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
