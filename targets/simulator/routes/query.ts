/**
 * Small parsers of query values shared by the domain route modules. Bad values answer
 * 400 invalid_request with a message naming the parameter (Errors; bad input never 5xx).
 */
import { SimError } from '../errors.ts';

export type Query = Record<string, unknown>;

/** The first value of a query parameter (repeated parameters arrive as arrays). */
export function one(query: Query | undefined, name: string): string | undefined {
  const v = query?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first === '' ? undefined : String(first);
}

/** Every value of a parameter given repeated, as a comma list, or as `name[]`. */
export function many(query: Query | undefined, ...names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const v = query?.[n];
    for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
      out.push(
        ...String(item)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    }
  }
  return out;
}

export function bool(query: Query | undefined, name: string): boolean | undefined {
  const v = one(query, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new SimError('invalid_request', `${name} must be true or false, got "${v.slice(0, 40)}"`);
}

/** YYYY-MM-DD, checked to be a real calendar day. */
export function isoDay(query: Query | undefined, name: string): string | undefined {
  const v = one(query, name);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) {
    throw new SimError('invalid_request', `${name} must be a date YYYY-MM-DD, got "${v.slice(0, 40)}"`);
  }
  return v;
}

/** An ISO 8601 timestamp (with offset) or a date; returns epoch milliseconds. */
export function isoTime(query: Query | undefined, name: string): number | undefined {
  const v = one(query, name);
  if (v === undefined) return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(v);
  const t = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
  if (!ok || Number.isNaN(t)) throw new SimError('invalid_request', `${name} must be an ISO 8601 date or timestamp with offset, got "${v.slice(0, 40)}"`);
  return t;
}

/** A Unix timestamp in whole seconds, as a query string (real-service-notes: v20250224 filters take them). */
const EPOCH_SECONDS = /^-?\d{1,12}$/;

/**
 * A time filter given as an ISO 8601 date or timestamp with offset (v20111101 reference)
 * or as Unix timestamp seconds (v20250224 reference; real-service-notes, Request shapes):
 * both are accepted in every version. Returns epoch milliseconds and whether the value
 * was a bare date (an upper bound then includes the whole day).
 */
export function timeFilter(query: Query | undefined, name: string): { ms: number; wholeDay: boolean } | undefined {
  const v = one(query, name);
  if (v === undefined) return undefined;
  if (EPOCH_SECONDS.test(v)) return { ms: Number(v) * 1000, wholeDay: false };
  return { ms: isoTime(query, name)!, wholeDay: /^\d{4}-\d{2}-\d{2}$/.test(v) };
}

/** A date filter given as YYYY-MM-DD or as Unix timestamp seconds (its UTC day); answers YYYY-MM-DD. */
export function dayFilter(query: Query | undefined, name: string): string | undefined {
  const v = one(query, name);
  if (v === undefined) return undefined;
  if (EPOCH_SECONDS.test(v)) {
    const d = new Date(Number(v) * 1000);
    if (Number.isNaN(d.getTime()))
      throw new SimError('invalid_request', `${name} must be a date YYYY-MM-DD or Unix timestamp seconds, got "${v.slice(0, 40)}"`);
    return d.toISOString().slice(0, 10);
  }
  return isoDay(query, name);
}

/** Answers the request's JSON wrapper object (`{"ach_return": {...}}`) or a 400 naming it. */
export function wrapper(body: unknown, name: string): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new SimError('invalid_request', `The request body must be a JSON object with a "${name}" object`);
  }
  const inner = (body as Record<string, unknown>)[name];
  if (!inner || typeof inner !== 'object' || Array.isArray(inner)) {
    throw new SimError('invalid_request', `The request body must contain a "${name}" object`);
  }
  return inner as Record<string, unknown>;
}
