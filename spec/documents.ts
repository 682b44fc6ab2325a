/**
 * The OpenAPI documents of spec/ (CONVENTIONS.md) and small helpers to walk their operations.
 * Shared by the spec tests and spec/stats.ts.
 */
import { join } from 'node:path';
import { parseYamlFile } from '../contracts/index.ts';
import { SPEC_DIR, VERSIONS, derivedFile } from './derive.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface SpecDocument {
  name: string;
  file: string;
}

export const AUTHORED_DOCUMENTS: SpecDocument[] = [
  { name: 'platform (source)', file: join(SPEC_DIR, 'platform.openapi.yaml') },
  { name: 'audience', file: join(SPEC_DIR, 'audience.openapi.yaml') },
  { name: 'test host', file: join(SPEC_DIR, 'test-host.openapi.yaml') },
];

export const DERIVED_DOCUMENTS: SpecDocument[] = VERSIONS.map((v) => ({ name: `platform ${v}`, file: derivedFile(v) }));

type PathMap = Record<string, Record<string, unknown>>;
export interface OpenApiLike {
  paths?: PathMap;
  webhooks?: PathMap;
  [key: string]: unknown;
}

export function loadDocument(file: string): OpenApiLike {
  return parseYamlFile(file) as OpenApiLike;
}

export interface OperationRef {
  method: string;
  path: string;
  operation: Record<string, unknown>;
}

export function operationsOf(map: PathMap | undefined): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(map ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation && typeof operation === 'object') out.push({ method, path, operation: operation as Record<string, unknown> });
    }
  }
  return out;
}

/** Path templates compare by shape: `/users/{user_guid}` equals `/users/{user_identifier}`. */
export function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}
