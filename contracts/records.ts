/**
 * Where the records of each resource sit in a documented response: the component schemas
 * (`#/components/schemas/<Name>`) a response schema reaches, each with its path from the
 * body's root (`member`, `members[*]`, `member.challenges[*]`), read from the document
 * (never from what a service answers). The stated-field checks (stated-fields.ts) and the
 * response-mutant generator (proof/mutants) both locate records this way, so a record is
 * judged where the document puts it, whatever the answer holds.
 *
 * Plain data, computed once per schema location and kept for the process.
 */
import { resolveRef } from './load.ts';

/** One place a component's records sit: `path` from the body root, `*` for each element of an array. */
export interface RecordSite {
  component: string;
  path: readonly string[];
}

/** A `const` a response schema states at a path (e.g. categories[*].is_default = true). */
export interface ConstSite {
  path: readonly string[];
  value: unknown;
  /** The component whose records hold it, when the const sits beside a component reference (allOf). */
  component?: string;
}

export interface ResponseRecords {
  records: RecordSite[];
  consts: ConstSite[];
}

const COMPONENT = /^\/components\/schemas\/([^/]+)$/;
const memo = new Map<string, ResponseRecords>();

/** The records a schema at `uri#pointer` describes (cached by location). */
export function responseRecords(uri: string, pointer: string): ResponseRecords {
  const key = `${uri}#${pointer}`;
  let out = memo.get(key);
  if (!out) {
    out = { records: [], consts: [] };
    const root = resolveRef(`#${pointer}`, uri);
    if (root) walk(root.value, root.uri, [], undefined, out, new Set(), 0);
    memo.set(key, out);
  }
  return out;
}

function walk(node: unknown, uri: string, path: string[], component: string | undefined, out: ResponseRecords, seen: Set<string>, depth: number): void {
  if (node === null || typeof node !== 'object' || depth > 24) return;
  const n = node as Record<string, unknown>;
  if (typeof n.$ref === 'string') {
    const target = resolveRef(n.$ref, uri);
    if (!target) return;
    const name = COMPONENT.exec(target.pointer)?.[1];
    const at = `${target.uri}#${target.pointer}@${path.join('.')}`;
    if (seen.has(at)) return;
    const next = new Set(seen).add(at);
    if (name) out.records.push({ component: name, path });
    walk(target.value, target.uri, path, name ?? component, out, next, depth + 1);
  }
  for (const sub of (Array.isArray(n.allOf) ? n.allOf : []) as unknown[]) walk(sub, uri, path, component, out, seen, depth + 1);
  const props = n.properties;
  if (props && typeof props === 'object') {
    for (const [k, sub] of Object.entries(props as Record<string, unknown>)) {
      if (sub && typeof sub === 'object' && 'const' in (sub as object))
        out.consts.push({ path: [...path, k], value: (sub as { const: unknown }).const, ...(component ? { component } : {}) });
      walk(sub, uri, [...path, k], undefined, out, seen, depth + 1);
    }
  }
  if (n.items && typeof n.items === 'object') walk(n.items, uri, [...path, '*'], undefined, out, seen, depth + 1);
}

/**
 * The objects at a path in a body: `*` steps into each element of an array, `?` keeps an
 * object and adds each object one level down in it (a mutant's site whose wrapper is not
 * known: proof/mutants), any other segment is a member name. Non-objects are left out.
 */
export function recordsAt(body: unknown, path: readonly string[]): Array<Record<string, unknown>> {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  let level: unknown[] = [body];
  for (const seg of path) {
    const next: unknown[] = [];
    for (const v of level) {
      if (seg === '*') {
        if (Array.isArray(v)) next.push(...v);
      } else if (seg === '?') {
        if (isObject(v)) {
          next.push(v);
          for (const x of Object.values(v)) if (isObject(x)) next.push(x);
        }
      } else if (isObject(v) && seg in v) next.push(v[seg]);
    }
    level = next;
  }
  return level.filter(isObject);
}
