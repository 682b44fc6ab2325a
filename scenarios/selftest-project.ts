/**
 * What the self-test (proof/) tells the scenarios' side: the plan of its single
 * Playwright invocation. playwright.config.ts reads it to make the `selftest` project,
 * and the scenarios' fixtures (scenarios/fixtures/selftest.ts) read it to declare each
 * scenario once per entry that selects it. Here, with the scenarios, because they and the
 * configuration read it: the self-test imports it, and nothing here imports proof/.
 *
 * One mechanism puts faults in force: an entry is a test-scoped option
 * (`selftestEntry`) set on a describe block per entry, and each worker keeps one simulator
 * per entry it has met. Workers are therefore shared by every entry: no worker start, no
 * contract compilation and no browser launch per catalogue entry (for speed:
 * half the self-test's CPU went to starting a worker per entry).
 */
import { readFileSync } from 'node:fs';

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
 * after the fact so the worker is kept (scenarios/fixtures/selftest.ts). Baselines and
 * variations, where a failure is the exception, retry once instead: a failure that does
 * not repeat is reported as flaky, not as an alarm.
 */
export const expectsFailures = (entry: SelftestEntry): boolean => entry.faults.length > 0 || entry.expectFailures === true;

/**
 * The title of the describe block each entry's copy of a scenario is declared in. The
 * JSON report's readers (proof/run-suite.ts testsOf) turn it back into the entry's name.
 */
export const ENTRY_SUITE_PREFIX = 'selftest entry ';

/**
 * Annotation on a self-test scenario that failed (or timed out) and was then marked as
 * expected to keep its worker: the JSON report's readers count it as failed.
 */
export const SELFTEST_FAILURE_ANNOTATION = 'selftest-failure';

/** Reads a plan file: playwright.config.ts and the scenarios' fixtures share this one reader. */
export function readPlan(file: string): PlaywrightPlan {
  return JSON.parse(readFileSync(file, 'utf8')) as PlaywrightPlan;
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

/** Whether an entry's grep selects a scenario declared with this title and these tags. */
export function entrySelects(entry: Pick<SelftestEntry, 'grep'>, title: string, tags: readonly string[]): boolean {
  return entry.grep === undefined || new RegExp(entry.grep).test(`${title} ${tags.join(' ')}`);
}
