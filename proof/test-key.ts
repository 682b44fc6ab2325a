/**
 * A scenario's identity through the self-test (plan → execute → judge → matrix): its spec
 * file and its title path (describe blocks, then the test's title). Made in one place, from
 * Playwright's JSON report (run-suite.ts `testsOf`), and printed in one place for people
 * and as a map key (`file > title`); never parsed back. Where a copy ran (its plan entry, or
 * its project outside the self-test) travels beside it (`SuiteTest.entry`), so one key names
 * the same scenario under every entry.
 */
export interface TestKey {
  /** The spec file, relative to the project root (`scenarios/api/members.spec.ts`). */
  readonly file: string;
  /** Describe titles, then the test's own title. */
  readonly titlePath: readonly string[];
}

export function testKey(file: string, titlePath: readonly string[]): TestKey {
  return { file, titlePath: [...titlePath] };
}

/** `file > describe > title`: how people read a key, and the key of a Map or Set of keys. */
export function printTestKey(key: TestKey): string {
  return [key.file, ...key.titlePath].join(' > ');
}
