/**
 * What one answer served, as the nightly's history keeps it (../shared/DESIGN.md, "The nightly
 * remembers"; history/): the response header names, and every field path of the body with the
 * kinds of data it carried, how often it was null, the enumeration-like values and identifier
 * forms seen, and one short example. Read once per exchange beside the run-wide invariants'
 * observation (invariants.ts `observationOf`), so comparing tonight with last night needs
 * no body kept.
 *
 * Why these and no more: Versioning names what may not change inside a version ("removing or
 * renaming a response field; removing enum values; changing ... the kind of data of a field")
 * and what may ("adding response data elements; adding a response header; changing length or
 * format of opaque strings (identifiers, messages)"; "Enumerated response fields ... may gain
 * values"). Each of those is a difference of this shape between two nights.
 *
 * Bounded: arrays are read up to ITEMS_READ items per level, paths up to MAX_DEPTH levels and
 * MAX_PATHS per answer; values are kept only where short and never under a key that carries
 * credentials (the history redacts what it writes again, history/store.ts).
 */

/** A field's kinds of data: JSON's, with integer and number one kind (a balance of 100 and of 100.5 are one kind of data). */
export type ServedKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface ServedField {
  /** Kinds seen, sorted (`null` only when it was null). */
  k: ServedKind[];
  /** Times it was present and not null. */
  n: number;
  /** Times it was present and null. */
  z?: number;
  /** Enumeration-like string values seen (UPPER_SNAKE or lower_snake tokens), at most MAX_VALUES; `null`: more than that, not an enumeration. */
  v?: string[] | null;
  /** Identifier forms seen (`MBR-<uuid>`, `<uuid>`), at most MAX_FORMS. */
  f?: string[];
  /** The first short value seen (strings up to EXAMPLE_CHARS), for a report of what was served. */
  e?: string | number | boolean;
}

export interface Served {
  /** Response header names, lower case, without the transport's own (RFC 9112 connection headers, Date, Content-Length). */
  h: string[];
  /** Field paths of the body (`member.guid`, `members[].guid`; `[]` for the items of an array). */
  p: Record<string, ServedField>;
  /** The transport's duration of the exchange, ms (request sent to last byte read). */
  ms?: number;
  /** Microseconds spent reading this shape: what recording costs a run. */
  us: number;
}

const ITEMS_READ = 100;
const MAX_DEPTH = 8;
const MAX_PATHS = 600;
const MAX_VALUES = 24;
const MAX_FORMS = 4;
const EXAMPLE_CHARS = 60;

/** Transport headers whose presence follows the body's size or the connection, not the service's contract. */
const TRANSPORT_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
  'vary',
  'server',
  'etag',
  'last-modified',
  'age',
]);
/** Keys whose value is never kept, not even as an example: credentials and one-time links (Authentication; Resources, Member: oauth_window_uri "one-time use"). */
const UNKEPT_KEY = /token|secret|password|passwd|api_?key|authori[sz]ation|credential|cookie|code_verifier|_uri$|_url$|^url$|^uri$/i;
/** UPPER_SNAKE (`CONNECTED`, `TEXT`, `HELD`) or lower_snake with an underscore (`connect_widget`, `account_verification`): the shapes of the specification's enumerations. */
const ENUM_TOKEN = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const IDENTIFIER_KEY = /(^|_)(guid|id)$/;

/** The form of an identifier: its UUIDs and digit runs replaced (`MBR-<uuid>`, `svcct-<id>`), so a form that changes is told from a value that does. */
export function identifierForm(value: string): string {
  if (value.startsWith('svcct-')) return 'svcct-<suite id>';
  return value
    .replace(UUID, '<uuid>')
    .replace(/[0-9a-f]{16,}/gi, '<hex>')
    .replace(/\d+/g, '<n>')
    .slice(0, 40);
}

function kindOf(v: unknown): ServedKind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

function note(out: Record<string, ServedField>, path: string, key: string, v: unknown): ServedField | undefined {
  let f = out[path];
  if (!f) {
    if (Object.keys(out).length >= MAX_PATHS) return undefined;
    out[path] = f = { k: [], n: 0 };
  }
  const kind = kindOf(v);
  if (!f.k.includes(kind)) {
    f.k.push(kind);
    f.k.sort();
  }
  if (kind === 'null') {
    f.z = (f.z ?? 0) + 1;
    return f;
  }
  f.n++;
  if (UNKEPT_KEY.test(key)) return f;
  if (typeof v === 'string') {
    // One value that is no token (a name, a sentence) makes the field no enumeration.
    if (f.v !== null && !IDENTIFIER_KEY.test(key)) {
      if (!ENUM_TOKEN.test(v)) f.v = null;
      else if (!f.v?.includes(v)) f.v = (f.v?.length ?? 0) >= MAX_VALUES ? null : [...(f.v ?? []), v];
    }
    if (IDENTIFIER_KEY.test(key) && v) {
      const form = identifierForm(v);
      if (!f.f?.includes(form) && (f.f?.length ?? 0) < MAX_FORMS) f.f = [...(f.f ?? []), form];
    }
    if (f.e === undefined && v.length <= EXAMPLE_CHARS) f.e = v;
  } else if ((typeof v === 'number' || typeof v === 'boolean') && f.e === undefined) f.e = v;
  return f;
}

function walk(out: Record<string, ServedField>, v: unknown, path: string, key: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(v)) {
    const items = `${path}[]`;
    for (const item of v.slice(0, ITEMS_READ)) {
      if (note(out, items, key, item)) walk(out, item, items, key, depth + 1);
    }
    return;
  }
  if (v === null || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const p = path ? `${path}.${k}` : k;
    if (note(out, p, k, x)) walk(out, x, p, k, depth + 1);
  }
}

/** The shape an answer served (its headers and JSON body); a body that is not JSON adds no path. */
export function servedOf(body: unknown, headers: Record<string, unknown> | undefined, durationMs?: number): Served {
  const started = performance.now();
  const h = Object.keys(headers ?? {})
    .map((n) => n.toLowerCase())
    .filter((n) => !TRANSPORT_HEADERS.has(n))
    .sort();
  const p: Record<string, ServedField> = {};
  if (body !== null && typeof body === 'object') walk(p, body, '', '', 0);
  return { h, p, ...(typeof durationMs === 'number' ? { ms: Math.round(durationMs * 10) / 10 } : {}), us: Math.round((performance.now() - started) * 1000) };
}
