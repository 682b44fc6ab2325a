/**
 * What the mutant generator reads: the record sites, consts and operations of every
 * document (platform per version, audience, test host), the fields of a component's
 * schema, and which trace row states which field (spec/trace.yaml).
 */
import { type ApiName, type Contract, type OperationInfo, responseRecords, type RecordSite } from '../../contracts/index.ts';
import type { TraceRow } from '../../spec/trace.ts';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---- reading the documents ------------------------------------------------------------

export interface DocSite extends RecordSite {
  api: ApiName;
  version?: string;
  op: OperationInfo;
  status: number;
}

export interface Docs {
  contract: Contract;
  /** platform versions, oldest first. */
  versions: string[];
  /** Every 2xx JSON answer's record sites. */
  sites: DocSite[];
  /** Every 2xx JSON answer's const sites. */
  consts: Array<{ api: ApiName; version?: string; op: OperationInfo; status: number; path: readonly string[]; value: unknown }>;
  /** Every operation of every document. */
  ops: Array<{ api: ApiName; version?: string; op: OperationInfo }>;
}

export function readDocs(contract: Contract): Docs {
  const out: Docs = { contract, versions: contract.versions, sites: [], consts: [], ops: [] };
  const docs: Array<{ api: ApiName; version?: string }> = [
    ...contract.versions.map((v) => ({ api: 'platform' as const, version: v })),
    { api: 'audience' },
    { api: 'test-host' },
  ];
  for (const d of docs) {
    for (const op of contract.model(d.api, d.version).operations) {
      out.ops.push({ ...d, op });
      if (op.sunset) continue;
      for (const [status, r] of op.responses) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const m of r.media) {
          if (!m.isJson || !m.schemaUri || m.schemaPointer === undefined) continue;
          const rec = responseRecords(m.schemaUri, m.schemaPointer);
          for (const s of rec.records) out.sites.push({ ...s, ...d, op, status: Number(status) });
          for (const c of rec.consts) out.consts.push({ ...d, op, status: Number(status), path: c.path, value: c.value });
        }
      }
    }
  }
  return out;
}

/** The component schema of a document (platform: per version). */
export function componentSchema(contract: Contract, api: ApiName, version: string | undefined, name: string): Obj | undefined {
  const doc = contract.document(api, version) as unknown as { components?: { schemas?: Record<string, unknown> } };
  const s = doc.components?.schemas?.[name];
  return isObj(s) ? s : undefined;
}

/** A schema with its `$ref`s followed (one chain) inside the document of a version. */
export function deref(
  contract: Contract,
  api: ApiName,
  version: string | undefined,
  node: unknown,
): { node: Obj; component?: string; inferred: boolean } | undefined {
  let n = node;
  let component: string | undefined;
  let inferred = false;
  for (let hops = 0; hops < 8 && isObj(n); hops++) {
    if (typeof n['x-svc-inferred'] === 'string') inferred = true;
    if (typeof n.$ref !== 'string') return { node: n, component, inferred };
    const m = /^#\/components\/schemas\/([^/]+)$/.exec(n.$ref);
    if (!m) return undefined;
    component = m[1];
    n = componentSchema(contract, api, version, m[1]);
  }
  return undefined;
}

/** Fields of a component's records in one document: direct and nested inline properties (never through a `$ref`), with `required` paths. */
interface FieldInfo {
  path: string[];
  schema: Obj;
  required: boolean;
  /** `x-svc-inferred` on the way (the type is not stated). */
  inferred: boolean;
}

export function fieldsOf(contract: Contract, api: ApiName, version: string | undefined, component: string): FieldInfo[] {
  const root = componentSchema(contract, api, version, component);
  if (!root) return [];
  const out: FieldInfo[] = [];
  const visit = (s: Obj, prefix: string[], inferredAbove: boolean, depth: number) => {
    if (depth > 4) return;
    const inferredHere = inferredAbove || typeof s['x-svc-inferred'] === 'string';
    const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props = isObj(s.properties) ? s.properties : {};
    for (const [k, raw] of Object.entries(props)) {
      if (!isObj(raw)) continue;
      const inferred = inferredHere || typeof raw['x-svc-inferred'] === 'string';
      out.push({ path: [...prefix, k], schema: raw, required: req.has(k), inferred });
      // Inline objects and arrays of inline objects: their own fields (widget_url.type, options[*].guid).
      if (typeof raw.$ref !== 'string') {
        if (isObj(raw.properties)) visit(raw, [...prefix, k], inferred, depth + 1);
        if (isObj(raw.items) && typeof raw.items.$ref !== 'string' && isObj(raw.items.properties))
          visit(raw.items, [...prefix, k, '*'], inferred || typeof raw.items['x-svc-inferred'] === 'string', depth + 1);
      }
    }
    for (const sub of (Array.isArray(s.allOf) ? s.allOf : []) as unknown[])
      if (isObj(sub) && typeof sub.$ref !== 'string') visit(sub, prefix, inferredHere, depth + 1);
  };
  visit(root, [], false, 0);
  return out;
}

// ---- the trace table: which row states which field ------------------------------------

/** Pointers of the rows into component schemas: `Member` -> [{pointer under it, row}]. */
export function componentPointers(rows: TraceRow[]): Map<string, Array<{ rest: string[]; row: TraceRow }>> {
  const out = new Map<string, Array<{ rest: string[]; row: TraceRow }>>();
  for (const row of rows) {
    if (row.not_shown) continue;
    for (const ref of row.encoded_in) {
      const m = /#\/components\/schemas\/([^/]+)(\/.*)?$/.exec(ref);
      if (!m) continue;
      const rest = (m[2] ?? '')
        .split('/')
        .filter(Boolean)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      let list = out.get(m[1]);
      if (!list) out.set(m[1], (list = []));
      list.push({ rest, row });
    }
  }
  return out;
}

/** A schema pointer's rest (`properties/options/items/properties/guid/x-svc-required-from`) as a field path (`options.*.guid`), or 'list' for `properties`, 'required', 'patternProperties'. */
export function fieldPathOf(rest: string[]): { path?: string[]; whole?: 'properties' | 'required' | 'patternProperties' } {
  if (rest.length === 1 && (rest[0] === 'properties' || rest[0] === 'required' || rest[0] === 'patternProperties')) return { whole: rest[0] as 'properties' };
  const path: string[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] === 'properties' && i + 1 < rest.length) {
      path.push(rest[i + 1]);
      i += 2;
      continue;
    }
    if (rest[i] === 'items') {
      path.push('*');
      i += 1;
      continue;
    }
    if (rest[i] === 'allOf' && i + 1 < rest.length) {
      i += 2;
      continue;
    }
    break;
  }
  // A trailing '*' names the array itself.
  while (path.at(-1) === '*') path.pop();
  return path.length ? { path } : {};
}

export const key = (p: readonly string[]) => p.join('.');

/**
 * The stated fields of a component in one document: a `required` entry (the documents
 * require only what a statement makes present), or a field a trace row names (one field,
 * or the component's whole field list), with the row that states it.
 */
export interface StatedField {
  path: string[];
  rows: TraceRow[];
  fromRequired: boolean;
  /** A row points at this field itself (not only at the component or its field list). */
  specific: boolean;
  info?: FieldInfo;
}

export function statedFields(
  contract: Contract,
  api: ApiName,
  version: string | undefined,
  component: string,
  pointers: Map<string, Array<{ rest: string[]; row: TraceRow }>>,
): Map<string, StatedField> {
  const fields = fieldsOf(contract, api, version, component);
  const byKey = new Map(fields.map((f) => [key(f.path), f]));
  const out = new Map<string, StatedField>();
  const add = (path: string[], row: TraceRow | undefined, fromRequired: boolean, specific = false) => {
    const k = key(path);
    let e = out.get(k);
    if (!e) out.set(k, (e = { path, rows: [], fromRequired, specific, info: byKey.get(k) }));
    if (row && !e.rows.includes(row)) e.rows.push(row);
    e.fromRequired ||= fromRequired;
    e.specific ||= specific;
  };
  const rows = pointers.get(component) ?? [];
  for (const f of fields) if (f.required) add(f.path, undefined, true);
  for (const { rest, row } of rows) {
    const p = fieldPathOf(rest);
    if (p.whole === 'properties') for (const f of fields.filter((x) => x.path.length === 1)) add(f.path, row, false);
    else if (p.whole === 'required') for (const f of fields.filter((x) => x.required)) add(f.path, row, true);
    else if (p.path && byKey.has(key(p.path))) add(p.path, row, false, true);
  }
  // A required field with no row of its own: the rows that encode the component (or its list) state it.
  for (const e of out.values()) {
    if (e.rows.length) continue;
    const nearest = rows
      .map(({ rest, row }) => ({ row, p: fieldPathOf(rest) }))
      .filter(({ p }) => p.whole || (p.path && key(e.path).startsWith(key(p.path))))
      .map(({ row }) => row);
    e.rows.push(...nearest);
  }
  return out;
}
