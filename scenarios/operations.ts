/**
 * The operations of an OpenAPI document of spec/, for scenarios that must cover
 * EVERY endpoint (authentication refused everywhere). Path parameters are filled with
 * well-formed identifiers of the specification's shapes that name nothing, so a
 * target that enforces authentication first answers 4xx, and one that forgot to answers
 * 2xx on at least the parameterless lists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface DocOperation {
  method: string;
  /** Path template, e.g. `/users/{user_guid}/members`. */
  template: string;
  /** Template with parameters filled in. */
  path: string;
  sunset: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function sample(name: string): string {
  const uuid = '00000000-0000-4000-8000-00000000c0de';
  if (/user/.test(name)) return `USR-${uuid}`;
  if (/member/.test(name)) return `MBR-${uuid}`;
  if (/account/.test(name)) return `ACT-${uuid}`;
  if (/connection_status/.test(name)) return 'CONNECTED';
  if (/challenge_type/.test(name)) return 'text';
  return `SCN-${uuid}`;
}

export function documentOperations(api: 'platform' | 'audience' | 'test-host', version?: string): DocOperation[] {
  const candidates = [
    version ? `spec/versions/${api}.${version}.openapi.yaml` : undefined,
    `spec/${api}.openapi.yaml`,
  ].filter((f): f is string => !!f);
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`No OpenAPI document for ${api} under spec/ (looked for ${candidates.join(', ')})`);
  const doc = parse(readFileSync(file, 'utf8')) as { paths?: Record<string, Record<string, Record<string, unknown>>> };
  const out: DocOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const versions = op['x-svc-versions'] as { from?: string; until?: string } | undefined;
      if (version && versions && ((versions.from && version < versions.from) || (versions.until && version >= versions.until))) continue;
      const sunsetFrom = op['x-svc-sunset-from'] as string | undefined;
      out.push({
        method: method.toUpperCase(),
        template,
        path: template.replace(/\{([^}]+)\}/g, (_m, n: string) => sample(n)),
        sunset: op['x-svc-sunset'] === true || (!!sunsetFrom && !!version && version >= sunsetFrom),
      });
    }
  }
  return out;
}
