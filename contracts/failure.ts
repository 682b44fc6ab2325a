/**
 * The one shape every check returns (../shared/DESIGN.md, "Checks and failures").
 * A check never throws on a bad response: it returns a list of these.
 */
export type Severity = 'error' | 'warning';

/**
 * Where a rule's authority comes from (../shared/DESIGN.md, "Checks and failures"):
 *   stated         quotes a sentence of the specification; fails the gate
 *   inferred       reasonable but unstated ("an unknown id is 404"); a warning unless
 *                  the profile is strict (SVC_STRICT=1), then an error
 *   informational  non-breaking changes, enum growth, nulls where a type is stated:
 *                  reported, never gating
 * A failure without a tier is `stated` when its severity is error, else informational.
 */
export type Tier = 'stated' | 'inferred' | 'informational';

export interface Failure {
  /** Registered check name, e.g. `response_schema_conformance`. */
  check: string;
  /** `METHOD /path/template`, e.g. `GET /institutions`. */
  operation: string;
  /** Where the problem is, e.g. `response.body.institutions[3].code`. */
  location: string;
  /** The rule broken: a quote or section of the specification, or the ajv keyword. */
  rule: string;
  severity: Severity;
  tier?: Tier;
  /** What a person can act on: expected versus received. */
  message: string;
}

/**
 * Report annotation type per tier: the checked client and the scenarios write them, every
 * report reads them (HTML annotations, JUnit properties, the console's tier summary, the
 * nightly summary). The type is the tier's own name, so one vocabulary reads the same in
 * every report and the HTML report's filter `annot:inferred` finds a tier's tests.
 */
export const TIER_ANNOTATION: Record<Tier, Tier> = {
  stated: 'stated',
  inferred: 'inferred',
  informational: 'informational',
};

/** A failure's texts: what a check may have copied from a request or an answer (each redacted, each checked when read back). */
export const FAILURE_TEXT_FIELDS = ['check', 'operation', 'location', 'rule', 'message'] as const satisfies readonly (keyof Failure)[];

export function tierOf(f: Failure): Tier {
  return f.tier ?? (f.severity === 'error' ? 'stated' : 'informational');
}

/** An inferred failure: gating (error) only under a strict profile. */
export function inferredSeverity(strict: boolean | undefined): Severity {
  return strict ? 'error' : 'warning';
}

/** The severity a tier gives: stated gates, inferred gates only under a strict profile, informational never. */
export function severityOfTier(tier: Tier, strict: boolean | undefined): Severity {
  return tier === 'stated' ? 'error' : tier === 'inferred' ? inferredSeverity(strict) : 'warning';
}

/** Counts per tier (reports: stated failures, inferred deviations, informational warnings). */
export function countByTier(failures: readonly Failure[]): Record<Tier, number> {
  const out: Record<Tier, number> = { stated: 0, inferred: 0, informational: 0 };
  for (const f of failures) out[tierOf(f)]++;
  return out;
}

/** A failure as a person reads it under its check's name: where, what, and the rule. */
export function failureText(f: Failure): string {
  return `${f.operation} at ${f.location}: ${f.message} (rule: ${f.rule})`;
}

export function formatFailure(f: Failure): string {
  const tier = tierOf(f);
  const tag = tier === 'stated' || (tier === 'informational' && f.severity === 'warning') ? f.severity : `${f.severity}, ${tier}`;
  return `[${tag}] ${f.check} ${failureText(f)}`;
}

export function hasErrors(failures: readonly Failure[]): boolean {
  return failures.some((f) => f.severity === 'error');
}
