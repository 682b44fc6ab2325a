/**
 * Two arbitrary OpenAPI documents compared (a team's vendor-supplied ones, or any two
 * versions of an API description): every difference the contracts classifier finds,
 * classified breaking or not by the specification's Versioning section, as the same
 * VersionReport the version-upgrade check writes (reports/version-diff.ts renders it).
 *
 * The documents are files, YAML or JSON, OpenAPI 3.0 or 3.1. The classifier reads 3.1
 * schemas; the two 3.0 forms that would otherwise read as differences between a 3.0 and
 * a 3.1 document are rewritten to their 3.1 equivalents first (`exclusiveMinimum: true`
 * with `minimum: n` is `exclusiveMinimum: n`; `nullable: true` is a `null` type). A
 * reference into another file cannot be followed here: the document is refused with the
 * command that bundles it into one file.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { diffDocuments, readDocument } from '../contracts/index.ts';
import type { DocumentInfo, Finding, VersionReport } from '../reports/version-diff.ts';
import { isUsed, VersionInputError } from './version-check.ts';

/** Reads and checks one OpenAPI 3.0/3.1 document; bad input is a VersionInputError naming the file and what is wrong. */
function readOpenApiFile(file: string): { document: OpenAPIV3_1.Document; info: DocumentInfo } {
  const path = resolve(file);
  if (!existsSync(path)) throw new VersionInputError(`${file}: no such file`);
  if (!statSync(path).isFile()) throw new VersionInputError(`${file}: not a file`);
  let parsed: unknown;
  try {
    parsed = readDocument(path);
  } catch (e) {
    throw new VersionInputError(`${file}: not valid YAML or JSON (${String((e as Error).message).split('\n')[0]})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new VersionInputError(`${file}: not an OpenAPI document (the top level is not an object)`);
  const doc = parsed as Record<string, unknown>;
  if (typeof doc.swagger === 'string')
    throw new VersionInputError(`${file}: Swagger ${doc.swagger} (OpenAPI 2); OpenAPI 3.0 or 3.1 is required (convert it first)`);
  const openapi = typeof doc.openapi === 'string' ? doc.openapi : undefined;
  if (!openapi) throw new VersionInputError(`${file}: not an OpenAPI document (no "openapi" field)`);
  if (!/^3\.[01]\.\d+$/.test(openapi)) throw new VersionInputError(`${file}: OpenAPI ${openapi}; OpenAPI 3.0 or 3.1 is required`);
  if (!doc.paths || typeof doc.paths !== 'object') throw new VersionInputError(`${file}: OpenAPI ${openapi} document without "paths": nothing to compare`);
  const external = firstExternalRef(doc, '');
  if (external)
    throw new VersionInputError(
      `${file}: $ref "${external.ref}" at ${external.at || '/'} points into another file; bundle the document into one file first (npx redocly bundle ${file} -o bundled.yaml)`,
    );
  const info = doc.info && typeof doc.info === 'object' ? (doc.info as Record<string, unknown>) : {};
  // A copy: readDocument's result is cached and shared.
  const document = (openapi.startsWith('3.0.') ? as31(structuredClone(doc)) : doc) as unknown as OpenAPIV3_1.Document;
  return {
    document,
    info: {
      file: path,
      openapi,
      title: typeof info.title === 'string' ? info.title : undefined,
      version: info.version === undefined ? undefined : String(info.version),
    },
  };
}

function firstExternalRef(node: unknown, at: string, seen = new Set<unknown>()): { ref: string; at: string } | undefined {
  if (!node || typeof node !== 'object' || seen.has(node)) return undefined;
  seen.add(node);
  const ref = (node as Record<string, unknown>).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return { ref, at };
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    const hit = firstExternalRef(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * OpenAPI 3.0 schema keywords in their 3.1 (JSON Schema 2020-12) form, wherever they
 * stand. Only schema objects carry these keywords with a boolean value (a property
 * named `nullable` has a schema, an object, as its value).
 */
function as31<T>(node: T, seen = new Set<unknown>()): T {
  if (!node || typeof node !== 'object' || seen.has(node)) return node;
  seen.add(node);
  if (Array.isArray(node)) {
    node.forEach((x) => {
      as31(x, seen);
    });
    return node;
  }
  const s = node as Record<string, unknown>;
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[bound] !== 'boolean') continue;
    if (s[bound] === true && typeof s[limit] === 'number') {
      s[bound] = s[limit];
      delete s[limit];
    } else {
      delete s[bound];
    }
  }
  if (typeof s.nullable === 'boolean') {
    if (s.nullable && typeof s.type === 'string') s.type = [s.type, 'null'];
    delete s.nullable;
  }
  for (const v of Object.values(s)) as31(v, seen);
  return node;
}

export interface DocumentComparison {
  fromFile: string;
  toFile: string;
  /** Operations the integration uses (`METHOD /path/{template}`), or all. */
  used: 'all' | string[];
}

/** Every difference between two OpenAPI documents, classified; the report of `versions` in documents mode. */
export function compareOpenApiFiles(o: DocumentComparison): VersionReport {
  const a = readOpenApiFile(o.fromFile);
  const b = readOpenApiFile(o.toFile);
  const findings: Finding[] = diffDocuments(a.document, b.document).map((d) => ({ ...d, source: 'documents', used: isUsed(d.operation, o.used) }));
  return {
    mode: 'documents',
    from: label(a.info),
    to: label(b.info),
    target: 'none (documents only)',
    probes: 0,
    findings,
    blocking: findings.filter((f) => f.breaking && f.used),
    usedOperations: o.used,
    documents: { from: a.info.file, to: b.info.file, compared: true, fromInfo: a.info, toInfo: b.info },
  };
}

function label(info: DocumentInfo): string {
  return info.version ? `${basename(info.file)} (${info.version})` : basename(info.file);
}
