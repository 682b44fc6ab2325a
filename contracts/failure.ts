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

// ---- a failure's location: one format, written and read here ----------------------

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** One step of a location: a property, an index of a list, or any index (`[*]`, a normalised location). */
export type LocationStep = { key: string } | { index: number } | { anyIndex: true };

const stepText = (s: LocationStep): string =>
  'key' in s ? (IDENTIFIER.test(s.key) ? `.${s.key}` : `[${JSON.stringify(s.key)}]`) : 'index' in s ? `[${s.index}]` : '[*]';

/** `prefix` and its steps as a location: `response.body` + [institutions, 3, code] -> `response.body.institutions[3].code`. */
export function locationAt(prefix: string, steps: readonly LocationStep[]): string {
  return prefix + steps.map(stepText).join('');
}

/** `/institutions/3/code` (a JSON pointer, ajv's instancePath) under `response.body` -> `response.body.institutions[3].code`. */
export function locationOf(prefix: string, instancePath: string, extra?: string): string {
  const steps: LocationStep[] = [];
  if (instancePath) {
    for (const raw of instancePath.slice(1).split('/')) {
      const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      // An array index has no leading zero (a key such as "007" is a key).
      steps.push(/^(0|[1-9]\d*)$/.test(seg) ? { index: Number(seg) } : { key: seg });
    }
  }
  if (extra !== undefined) steps.push({ key: extra });
  return locationAt(prefix, steps);
}

const STEP = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[(\*)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** The inverse of locationAt: the steps of `location` after `prefix`; undefined when it is not under `prefix` or not in this format. */
export function stepsOf(location: string, prefix: string): LocationStep[] | undefined {
  if (!location.startsWith(prefix)) return undefined;
  const steps: LocationStep[] = [];
  STEP.lastIndex = prefix.length;
  while (STEP.lastIndex < location.length) {
    const m = STEP.exec(location);
    if (!m) return undefined;
    steps.push(
      m[1] !== undefined
        ? { key: m[1] }
        : m[2] !== undefined
          ? { index: Number(m[2]) }
          : m[3] !== undefined
            ? { anyIndex: true }
            : { key: JSON.parse(m[4]!) as string },
    );
  }
  return steps;
}

/** `institutions[3].code` -> `institutions[*].code`: the same place in every record of a list. */
export function normaliseLocation(location: string): string {
  return location.replace(/\[\d+\]/g, '[*]');
}
