/**
 * What the self-test hands its single Playwright invocation, and the names its report
 * gives back:
 *
 *   the plan   proof/execute.ts writes it, SVC_SELFTEST_PLAN names the file, and
 *              `selftestPlan` reads it once per process for the self-test's configuration
 *              (proof/playwright.config.ts, the `selftest` project) and the self-test's
 *              `test` (proof/entry-test.ts, which declares each scenario once per entry
 *              that selects it);
 *   the entry  a describe block per entry (`entrySuiteTitle`, read back by `entryOfSuiteTitle`);
 *   the key    a scenario's identity through the self-test (plan → execute → judge →
 *              matrix): its spec file and title path, made in one place from the JSON report
 *              (proof/run-suite.ts testsOf, `testKey`) and printed in one place for people
 *              and as the key of a Map or Set (`printTestKey`); never parsed back. The entry
 *              travels beside it, so one key names the same scenario under every entry.
 *
 * `npm run conformance` never loads this module.
 *
 * One mechanism puts faults in force: an entry is a test-scoped option
 * (`selftestEntry`) set on a describe block per entry, and each worker keeps one simulator
 * per entry it has met. Workers are therefore shared by every entry: no worker start, no
 * contract compilation and no browser launch per catalogue entry (for speed:
 * half the self-test's CPU went to starting a worker per entry).
 */
import { readFileSync } from 'node:fs';
import { loadProfile, runSettings } from '../targets/index.ts';

/** One catalogue unit of the self-test: a fault, a variation, every variation together, or a baseline. */
export interface SelftestEntry {
  /** The catalogue entry's name, or a baseline's (`clean`, `clean-strict`, ...). */
  name: string;
  /**
   * Which scenarios run under this entry: a regular expression over `<title> <tags>`, the
   * same text Playwright's own --grep reads (minus the file path, which no grep of the
   * self-test names). Absent: every scenario.
   */
  grep?: string;
  faults: string[];
  variations: string[];
  /**
   * The entry's profile environment (CatalogEntry.env), laid over process.env when the
   * entry's simulator and profile are built: an inferred fault runs with SVC_STRICT=1 (or
   * the header names set), so the scenario expectation it breaks gates.
   */
  env?: Record<string, string>;
  /**
   * A separately started target instead of a simulator of the entry's own: the entry's
   * profile is read from exactly this environment, as a `playwright test` process pointed at
   * that target with these SVC_* variables would read it (proof/mutants: one mutating
   * proxy per response mutant, each its own SVC_BASE_URL). Faults and variations are then
   * empty: what the target does is its own.
   */
  targetEnv?: Record<string, string>;
  /** Failures are this entry's expected outcome (a mutant the suite must kill), as for a fault entry. */
  expectFailures?: boolean;
}

/**
 * A fault entry expects failures: nothing is retried, and a failure is marked expected
 * after the fact so the worker is kept (proof/entry-test.ts, scenarios/fixtures/outcome.ts). Baselines and
 * variations, where a failure is the exception, retry once instead: a failure that does
 * not repeat is reported as flaky, not as an alarm.
 */
export const expectsFailures = (entry: SelftestEntry): boolean => entry.faults.length > 0 || entry.expectFailures === true;

const ENTRY_SUITE_PREFIX = 'selftest entry ';

/** The title of the describe block each entry's copy of a scenario is declared in (proof/entry-test.ts). */
export const entrySuiteTitle = (entry: string): string => `${ENTRY_SUITE_PREFIX}${entry}`;

/** The entry a describe block of the JSON report names (proof/run-suite.ts testsOf); undefined for any other block. */
export const entryOfSuiteTitle = (title: string): string | undefined =>
  title.startsWith(ENTRY_SUITE_PREFIX) ? title.slice(ENTRY_SUITE_PREFIX.length) : undefined;

let planInForce: { file: string; plan: PlaywrightPlan } | undefined;

/**
 * The plan in force (SVC_SELFTEST_PLAN), read once per process: the configuration and the
 * self-test's `test` share it. Outside the self-test there is none, and asking is an error.
 */
export function selftestPlan(): { file: string; plan: PlaywrightPlan } {
  if (planInForce) return planInForce;
  const file = runSettings().selftestPlanFile;
  if (!file) throw new Error('the self-test configuration (proof/playwright.config.ts) needs SVC_SELFTEST_PLAN, the plan proof/execute.ts writes');
  planInForce = { file, plan: JSON.parse(readFileSync(file, 'utf8')) as PlaywrightPlan };
  return planInForce;
}

/** The self-test's single Playwright invocation (proof/selftest.ts writes it, SVC_SELFTEST_PLAN names the file). */
export interface PlaywrightPlan {
  /** Where the JSON reporter writes. */
  reportFile: string;
  /** Playwright's outputDir (traces, attachments). */
  outputDir: string;
  workers: number;
  /** Per-test bound: a fault that makes a scenario wait forever fails it at this bound. */
  testTimeoutMs: number;
  entries: SelftestEntry[];
  /** Scenario folders to declare entries in; default SELFTEST_FOLDERS. */
  folders?: SelftestFolder[];
  /**
   * Also run the fast-check project (scenarios/properties) once, as it is, in the same
   * invocation (project `properties`): with `clean` it makes the self-test's baseline
   * everything `npm run conformance` runs.
   */
  properties?: boolean;
  /**
   * Spec files of scenarios/properties the properties project leaves out because a side run
   * of the same invocation runs the same scenarios against the same clean simulator
   * (proof/selftest.ts: delivery.spec.ts when the clean delivery baseline covers every
   * delivery scenario).
   */
  propertiesIgnore?: string[];
}

/** The scenario folders whose scenarios run under the entries (the properties project runs once, as it is). */
export const SELFTEST_FOLDERS = ['api', 'browser', 'fuzz'] as const;
export type SelftestFolder = (typeof SELFTEST_FOLDERS)[number];

/** The project of the plan's scenarios, and the properties project of the baseline. */
export const SELFTEST_PROJECT = 'selftest';
export const PROPERTIES_PROJECT = 'properties';
/**
 * The plan's fuzz scenarios, in a project of their own listed first. Playwright hands out
 * tests in project order, then file order, and `fuzz/` sorts after `api/` and `browser/`:
 * in the one project, the longest scenario of the run (a fuzz baseline of some two thousand
 * sequential cases per entry) would start last and end the run alone.
 */
export const SELFTEST_FIRST_PROJECT = 'selftest-first';
export const SELFTEST_FIRST_FOLDERS: readonly SelftestFolder[] = ['fuzz'];

/**
 * Whether some entry's target refuses destructive runs (targets/profiles/profile.ts
 * allowDestructive). Only there does the read-only fuzz scenario run: every simulator allows
 * them, and on such a target that scenario skips itself (scenarios/fuzz/fuzz.spec.ts) once
 * a worker has started and set up its fixtures for it.
 */
export function someTargetReadOnly(plan: Pick<PlaywrightPlan, 'entries'>): boolean {
  return plan.entries.some((e) => e.targetEnv !== undefined && !loadProfile(e.targetEnv).allowDestructive);
}

/** Whether an entry's grep selects a scenario declared with this title and these tags. */
export function entrySelects(entry: Pick<SelftestEntry, 'grep'>, title: string, tags: readonly string[]): boolean {
  return entry.grep === undefined || grepOf(entry.grep).test(`${title} ${tags.join(' ')}`);
}

/** Each entry's grep compiled once per process: every scenario declaration asks every entry (proof/entry-test.ts). */
const compiledGreps = new Map<string, RegExp>();
function grepOf(source: string): RegExp {
  let re = compiledGreps.get(source);
  if (!re) compiledGreps.set(source, (re = new RegExp(source)));
  return re;
}

/** A scenario's identity: the same under every entry (the entry travels beside it). */
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
