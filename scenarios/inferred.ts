/**
 * Inferred expectations in scenarios (../shared/DESIGN.md, "Checks and failures",
 * tier "inferred"): reasonable but not stated by the specification (an unknown id is
 * 404, a malformed ACH return is refused, an unknown version is refused). Each call
 * names why it is only inferred. Every miss is an `inferred` annotation (HTML, JUnit
 * properties, the console's tier summary); under a strict profile (SVC_STRICT=1) it also
 * fails the test like a stated rule, otherwise it is printed and the test goes on.
 *
 * Stated rules use `expect` (or the contract checks) and always fail.
 */
import { expect, test } from '@playwright/test';
import type { TargetProfile } from '../targets/index.ts';
import { noteFinding } from './fixtures/findings.ts';

export interface InferredOptions {
  /** What was expected, as a person reads it ("an unknown member guid answers 404"). */
  expectation: string;
  /** Why it is inferred: the statement that is missing ("Errors: error codes per endpoint beyond the table: not shown"). */
  basis: string;
  /** What was received, for the message. */
  received?: string;
}

class InferredExpectationFailed extends Error {}

/** Records (or, when strict, enforces) one inferred expectation. Returns `ok`. */
export function expectInferred(profile: Pick<TargetProfile, 'strict'>, ok: boolean, o: InferredOptions): boolean {
  if (ok) return true;
  const words = `${o.expectation}${o.received ? ` / Received: ${o.received}` : ''} (basis: ${o.basis})`;
  const message = `[inferred] ${words}`;
  // Noted in strict mode too, so the tier summary counts it as the checked client's findings are.
  noteFinding(test.info(), 'inferred', words, message);
  if (profile.strict) throw new InferredExpectationFailed(`${message}; failing because SVC_STRICT=1`);
  // eslint-disable-next-line no-console
  console.warn(`${test.info().title}: ${message} (not gating; SVC_STRICT=1 makes it fail)`);
  return false;
}

/**
 * The deprecation header on a deprecated endpoint's or version's answer. Versioning:
 * "Response headers that signal deprecated and sunset endpoints are present in all
 * versions"; "Names of the deprecation and sunset response headers: not shown". A name the
 * user set (SVC_DEPRECATION_HEADER, `headerNamesExplicit`) is enforced as stated; the
 * profile's default guess is only inferred.
 */
export function expectDeprecationHeader(profile: TargetProfile, headers: Record<string, unknown>, what = 'a deprecated endpoint'): void {
  const name = profile.versions.deprecationHeader;
  const present = name.toLowerCase() in headers;
  if (profile.versions.headerNamesExplicit) {
    expect(present, `${what}: response header ${name} (SVC_DEPRECATION_HEADER, set in the profile)`).toBe(true);
  } else {
    expectInferred(profile, present, {
      expectation: `${what} answers with the header ${name} (the profile's default guess)`,
      basis: 'Versioning: "Names of the deprecation and sunset response headers: not shown"; set SVC_DEPRECATION_HEADER to enforce a name',
      received: `headers ${Object.keys(headers).join(', ')}`,
    });
  }
}
