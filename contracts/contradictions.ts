/**
 * What the vendor's published reference contradicts, as the contract's pipeline reads it
 * (`CheckOptions.referenceContradictions`, derived once per process by reference.ts).
 *
 * The specification is the source of truth, and "the authority of a rule is its sentence"
 * (../shared/DESIGN.md, "Checks and failures"). Where the vendor's own reference shows
 * the opposite of what a stated failure claims (one of its examples fails the same rule
 * at the same place, it does not carry a field our `required` list demands, or it
 * declares a status our document refuses), the sentence the failure quotes is read in a
 * way the vendor itself does not serve: the failure is still reported, as `inferred`
 * (a warning unless the profile is strict), with the reference named as the reason
 * (../shared/real-service-notes.md: "never fail a real service for doing what the
 * specification leaves open").
 *
 * The downgrade happens in one place, at the end of contract.ts's pipeline, after every
 * check has run; no check knows of the reference.
 */
import { locationAt, normaliseLocation, severityOfTier, stepsOf, tierOf, type Failure } from './failure.ts';

/** Where the reference's records are: a contradiction's location is in the answer's body. */
const RESPONSE_BODY = 'response.body';

/** The four kinds of disagreement between the contract and the reference (reference.ts). */
export type DisagreementKind = 'example_failure' | 'required_missing' | 'status_refused' | 'type_differs';

/** One place where the reference shows the opposite of a stated rule of the contract. */
export interface ReferenceContradiction {
  kind: DisagreementKind;
  /** The check whose stated failure it contradicts, e.g. `stated_resource_fields`. */
  check: string;
  /** Our operation key (`GET /institutions`): the `operation` of the failure. */
  operation: string;
  /** The platform version of our document the failure is judged by. */
  version: string;
  /** The failure's location with array indices as `[*]` (normaliseLocation). */
  location: string;
  /** The failure's rule must be exactly this (an example failed this very rule)... */
  rule?: string;
  /** ...or start with `<keyword> at ` (a schema comparison: `required`, `type`). */
  keyword?: string;
  /** Only a failure of an exchange answered with this status (a declared status we refuse). */
  status?: number;
  /**
   * An absence: the reference's record at the parent of `location` carries only these
   * fields, so a failure of the same rule about any other field of that record is
   * contradicted too (a check that names the first missing field of a list names
   * whichever the answer lacks first).
   */
  carried?: readonly string[];
  /** The reference document (as the user named it), the JSON pointer inside it, and what it says there. */
  file: string;
  pointer: string;
  text: string;
}

/** Contradictions looked up by (check, operation, version, location): built once, read on every exchange. */
export interface ReferenceContradictions {
  /** The reference documents they come from. */
  readonly files: readonly string[];
  readonly size: number;
  readonly byKey: ReadonlyMap<string, readonly ReferenceContradiction[]>;
  /** Absences (`carried`) by the key of the record's location. */
  readonly byRecord: ReadonlyMap<string, readonly ReferenceContradiction[]>;
}

function contradictionKey(check: string, operation: string, version: string, location: string): string {
  return `${check}\u0000${operation}\u0000${version}\u0000${normaliseLocation(location)}`;
}

/** `response.body.institution.status` -> record `response.body.institution`, field `status`; undefined when the last step is an index. */
function splitField(location: string): { record: string; field: string } | undefined {
  const steps = stepsOf(location, RESPONSE_BODY);
  const last = steps?.at(-1);
  if (!steps || !last || !('key' in last)) return undefined;
  return { record: locationAt(RESPONSE_BODY, steps.slice(0, -1)), field: last.key };
}

export function indexContradictions(list: readonly ReferenceContradiction[], files: readonly string[]): ReferenceContradictions {
  const byKey = new Map<string, ReferenceContradiction[]>();
  const byRecord = new Map<string, ReferenceContradiction[]>();
  const put = (map: Map<string, ReferenceContradiction[]>, key: string, c: ReferenceContradiction) => {
    const at = map.get(key);
    if (at) at.push(c);
    else map.set(key, [c]);
  };
  for (const c of list) {
    put(byKey, contradictionKey(c.check, c.operation, c.version, c.location), c);
    const split = c.carried ? splitField(c.location) : undefined;
    if (split) put(byRecord, contradictionKey(c.check, c.operation, c.version, split.record), c);
  }
  return { files: [...files], size: list.length, byKey, byRecord };
}

/** The contradiction of the reference that covers a failure, if any. */
function contradictionOf(f: Failure, at: { version?: string; status: number }, contradictions: ReferenceContradictions): ReferenceContradiction | undefined {
  if (at.version === undefined) return undefined;
  const sameRule = (c: ReferenceContradiction) =>
    (c.status === undefined || c.status === at.status) &&
    (c.rule !== undefined ? c.rule === f.rule : c.keyword !== undefined ? f.rule.startsWith(`${c.keyword} at `) : true);
  const exact = contradictions.byKey.get(contradictionKey(f.check, f.operation, at.version, f.location))?.find(sameRule);
  if (exact || contradictions.byRecord.size === 0) return exact;
  const split = splitField(normaliseLocation(f.location));
  if (!split) return undefined;
  return contradictions.byRecord
    .get(contradictionKey(f.check, f.operation, at.version, split.record))
    ?.find((c) => sameRule(c) && !c.carried!.includes(split.field));
}

/** How a downgraded failure's rule names the reference: the file, the pointer, what it shows. */
function referenceReason(c: ReferenceContradiction): string {
  const text = c.text.length > 160 ? `${c.text.slice(0, 157)}...` : c.text;
  return `the vendor's reference contradicts this reading (${c.file}#${c.pointer}: ${text}), so it is inferred, not stated`;
}

/**
 * Stated failures the reference contradicts, as `inferred` (severity by the profile:
 * `strict` makes them gate again), their rule extended with the reason. Every other
 * failure is returned as it came.
 */
export function downgradeContradicted(
  failures: Failure[],
  at: { version?: string; status: number },
  contradictions: ReferenceContradictions | undefined,
  strict: boolean | undefined,
): Failure[] {
  if (!contradictions || contradictions.size === 0 || failures.length === 0) return failures;
  return failures.map((f) => {
    if (tierOf(f) !== 'stated') return f;
    const c = contradictionOf(f, at, contradictions);
    return c ? { ...f, tier: 'inferred', severity: severityOfTier('inferred', strict), rule: `${f.rule}; ${referenceReason(c)}` } : f;
  });
}
