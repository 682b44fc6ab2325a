/**
 * Response mutants: one change to what a target answers, derived from one
 * statement of the specification. A mutant the suite must KILL breaks the statement it
 * carries; a mutant it must TOLERATE plays a freedom the Versioning section (or the
 * specification's silence, ../shared/real-service-notes.md) leaves. Plain data: the
 * generator (generate.ts) writes them, the proxy (proxy.ts, apply.ts) applies them, the
 * report (report.ts) groups them by family and section.
 */
import type { ApiName } from '../../contracts/index.ts';

/** Families of mutants the suite must kill (each breaks a stated rule). */
export const STATED_FAMILIES = [
  'drop-field', // a field whose presence a sentence states left out (every answer)
  'drop-field-on-path', // a field a list names left out on ONE operation while the others that answer the record keep serving it
  'retype', // a field of a stated type answered as another JSON type
  'recase', // a value of a stated set re-cased (connected for CONNECTED)
  'replace-value', // a value a statement fixes replaced by another of its set (or a const)
  'id-prefix', // USR- / MBR- / ACT- changed
  'date-format', // a stated date or date-time format changed
  'status', // a stated status replaced by another 2xx or another row's refusal
  'refusal-served', // a stated refusal (404, 401/403, sunset error) answered with a success
  'header', // a stated header dropped, or JSON answered under another media type
  'limit', // a stated limit exceeded by one (1001 records, 120 categories, 91 days, 61 days)
  'request-refused', // a request element a statement names (accepted) refused with 400
  'disagree', // two reads of one resource disagree on a stated field
] as const;

/** Families of mutants the suite must tolerate (Versioning: non-breaking; what the specification leaves open). */
export const TOLERATED_FAMILIES = [
  'add-field',
  'reorder',
  'longer-id',
  'reformat-id',
  'new-enum-value',
  'add-header',
  'other-2xx',
  'omit-null',
  'never-served',
  'latency',
] as const;

export type StatedFamily = (typeof STATED_FAMILIES)[number];
export type ToleratedFamily = (typeof TOLERATED_FAMILIES)[number];
export type Family = StatedFamily | ToleratedFamily;

/** An operation of a document: `platform:GET /users/{user_guid}/members`. */
export type OpRef = string;
export const opRef = (api: ApiName, key: string): OpRef => `${api}:${key}`;
export function parseOpRef(ref: OpRef): { api: ApiName; key: string } {
  const i = ref.indexOf(':');
  return { api: ref.slice(0, i) as ApiName, key: ref.slice(i + 1) };
}

/**
 * Where records sit in an operation's answer: `path` from the body root (`*`: each element
 * of an array; `?`: the body itself and each object one level down, where the document
 * does not say which).
 */
export interface Site {
  op: OpRef;
  path: string[];
}

/** A record-level condition: the change applies only to records (or answers) it holds for. */
export type When =
  | { field: string; equals: unknown } // record[field] === equals
  | { field: string; oneOf: unknown[] }
  | { query: string; has: string } // the request's query parameter carries the value (comma lists split)
  | { pathLacks: string }; // the request path does not name the record's value of this field (a read by another identifier)

export type FieldAction =
  | { op: 'drop' } // leave the field out
  | { op: 'drop-matching'; pattern: string } // leave out every key matching the pattern (e.g. `_set_by$`)
  | { op: 'set'; value: unknown } // another value of the stated type, or of another type
  | { op: 'recase' } // upper case <-> lower case
  | { op: 'map'; values: Record<string, unknown> } // one stated value for another
  | { op: 'date'; to: 'epoch-seconds' | 'date-time' | 'no-offset' | 'date' } // another date/time representation
  | { op: 'add-days'; days: number } // a YYYY-MM-DD date moved
  | { op: 'add-number'; delta: number }
  | { op: 'append-enum'; value: string }; // an array of values gains one

export type Change =
  /**
   * Records at the sites: a field changed. `reads: 'even'`: only the second, fourth ... read
   * of one resource (by its guid). `witnesses`: the sites of the same component on the other
   * operations, which keep serving the field (drop-field-on-path): the change is OBSERVED
   * where one of them served a record's field (non-null) before a site answers the same
   * record, in the same version and to the same credentials, with no write naming the record
   * or an owner between (what presence consistency compares: contracts/invariants.ts).
   */
  | { kind: 'field'; sites: Site[]; field: string[]; action: FieldAction; when?: When[]; reads?: 'even'; witnesses?: Site[] }
  /** The whole JSON body replaced (an answer without the resource). */
  | { kind: 'body'; ops: OpRef[]; body: unknown }
  /** The status replaced (the body kept). */
  | { kind: 'status'; ops: OpRef[]; from: number[]; to: number }
  /**
   * A refusal answered as a success: when the target answers one of `from`, the proxy
   * answers 200 with the body of the last success it saw on the same operation.
   */
  | { kind: 'serve-refusal'; ops: OpRef[]; from: number[] }
  /** A header dropped, set or added (all answers of the operations, or all answers). */
  | { kind: 'header'; ops?: OpRef[]; drop?: string; set?: { name: string; value: string }; onlyWhenPresent?: boolean }
  /** A list page: one record more than allowed (`one-more`: when full at `atLeast` records), or a record dated outside a window. */
  | { kind: 'page'; ops: OpRef[]; listKey: string; action: 'one-more'; full: 'asked' | number }
  | { kind: 'page'; ops: OpRef[]; listKey: string; action: 'older-record'; days: number; dateField: string; onlyWithoutQuery?: string[] }
  /** A request carrying an element a statement names is refused with 400. */
  | { kind: 'refuse-request'; ops: OpRef[]; query?: string; header?: string; queryValue?: string; bodyPath?: string[] }
  /** Identifiers of a shape transformed in every answer (and mapped back in every request). */
  | { kind: 'ids'; action: 'prefix' | 'longer' | 'upper'; prefix?: string; to?: string }
  /** Every JSON object of every answer: a field added, properties reversed, null fields left out (except stated ones). */
  | { kind: 'objects'; action: 'add-field' | 'reorder' | 'omit-null'; keep?: Record<OpRef, string[][]> }
  /** Answers delayed. */
  | { kind: 'latency'; ms: number; ops?: OpRef[] };

export interface Mutant {
  /** Stable identifier: `<family>:<subject>`. */
  id: string;
  family: Family;
  /** killed: it breaks a stated rule; tolerated: the Versioning section (or the specification's silence) allows it. */
  expect: 'killed' | 'tolerated';
  /** The statement it breaks (quoted), or the rule that tolerates it. */
  statement: string;
  /** Section of ../shared/specification.md. */
  section: string;
  /** spec/trace.yaml rows whose statement it breaks or plays. */
  rows: string[];
  /** Platform versions whose answers it changes (the Accept-Version asked); absent: every version. */
  versions?: string[];
  /** Operations whose answers it can change: scenarios are chosen among those that reach one. */
  ops: OpRef[];
  change: Change;
  /** Extra environment a user of such a target sets (e.g. an identifier the target shows in another shape). */
  envMap?: 'ids';
}

/** A mutant the generator leaves out, and the written reason the specification permits the change (or states nothing there). */
export interface Exclusion {
  subject: string;
  family: Family;
  reason: string;
}
