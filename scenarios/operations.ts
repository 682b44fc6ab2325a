/**
 * The operations of an OpenAPI document of spec/, for scenarios that must cover
 * EVERY endpoint (authentication refused everywhere). Path parameters are filled from
 * `values` (identifiers that exist on the target, by parameter name) where given, else
 * with well-formed identifiers of the specification's shapes that name nothing; `filled`
 * says whether every parameter of the path names something that exists, so a scenario
 * can tell a refusal about authentication from one about a missing resource.
 */
import { loadDocument } from '../contracts/index.ts';

export interface DocOperation {
  method: string;
  /** Path template, e.g. `/users/{user_guid}/members`. */
  template: string;
  /** Template with parameters filled in. */
  path: string;
  sunset: boolean;
  /** Every path parameter came from `values` (names an existing resource). */
  filled: boolean;
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

/** An existing identifier for a path parameter of an operation, or undefined. */
export type ParameterValues = (name: string, template: string, method: string) => string | undefined;

export function documentOperations(api: 'platform' | 'audience' | 'test-host', version?: string, values: ParameterValues = () => undefined): DocOperation[] {
  // The derived document of the version when spec/versions/ has one, else the source (contracts/load.ts).
  const doc = loadDocument(api, version).doc as { paths?: Record<string, Record<string, Record<string, unknown>>> };
  const out: DocOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const versions = op['x-svc-versions'] as { from?: string; until?: string } | undefined;
      if (version && versions && ((versions.from && version < versions.from) || (versions.until && version >= versions.until))) continue;
      const sunsetFrom = op['x-svc-sunset-from'] as string | undefined;
      let filled = true;
      const path = template.replace(/\{([^}]+)\}/g, (_m, n: string) => {
        const v = values(n, template, method.toUpperCase());
        if (v === undefined || v === '') filled = false;
        return encodeURIComponent(v || sample(n));
      });
      out.push({
        method: method.toUpperCase(),
        template,
        path,
        filled,
        sunset: op['x-svc-sunset'] === true || (!!sunsetFrom && !!version && version >= sunsetFrom),
      });
    }
  }
  return out;
}
