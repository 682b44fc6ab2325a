/**
 * The one shape every check returns (../shared/DESIGN.md, "Checks and failures").
 * A check never throws on a bad response: it returns a list of these.
 */
export type Severity = 'error' | 'warning';

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
  /** What a person can act on: expected versus received. */
  message: string;
}

export function formatFailure(f: Failure): string {
  return `[${f.severity}] ${f.check} ${f.operation} at ${f.location}: ${f.message} (rule: ${f.rule})`;
}

export function hasErrors(failures: readonly Failure[]): boolean {
  return failures.some((f) => f.severity === 'error');
}
