/**
 * What the self-test (proof/) tells the scenarios' side: the plan of its single
 * Playwright invocation (read by playwright.config.ts), the project metadata key and
 * shape that put faults or variations in force in the worker fixture
 * (scenarios/fixtures.ts), and the annotation the fixture leaves on a failure it marks
 * as expected. Here, with the scenarios, because they and the configuration read it:
 * the self-test imports it, and nothing here imports proof/.
 */
/** Project metadata key the scenarios' worker fixture reads. */
export const SELFTEST_METADATA_KEY = 'selftestSimulator';
export interface SelftestProjectMetadata {
  faults: string[];
  variations: string[];
  /**
   * Fault projects: a failure is the expected outcome, so the worker is kept after one
   * (scenarios/fixtures.ts) and nothing is retried. The clean and variation projects,
   * where a failure is the exception, retry once instead: a failure that does not repeat
   * is reported as flaky, not as an alarm.
   */
  keepWorkerOnFailure: boolean;
  /**
   * The entry's profile environment (CatalogEntry.env), laid over process.env by the
   * worker fixtures of scenarios/fixtures.ts when they build the profile and the simulator:
   * an inferred fault runs with SVC_STRICT=1 (or the header names set), so the scenario
   * expectation it breaks gates.
   */
  env?: Record<string, string>;
}

/**
 * Annotation on a self-test scenario that failed (or timed out) and was then marked as
 * expected to keep its worker (scenarios/fixtures.ts): the JSON report's readers
 * (proof/run-suite.ts testsOf) count it as failed.
 */
export const SELFTEST_FAILURE_ANNOTATION = 'selftest-failure';

/**
 * The self-test's single Playwright invocation (proof/selftest.ts): playwright.config.ts
 * reads this plan from the file named by SVC_SELFTEST_PLAN and makes one project per
 * entry (plus `clean`, the baseline), each with the entry's tags as its grep and the
 * entry's faults/variations as project metadata; the worker fixture of
 * scenarios/fixtures.ts starts an in-process simulator with them. One runner start,
 * one contract compilation and one browser per worker, instead of one Playwright run
 * per entry.
 */
export interface PlaywrightPlanProject {
  /** The catalogue entry's name, or `clean`. */
  name: string;
  /** grepFor(tags) source; absent = every api and browser scenario. */
  grep?: string;
  faults: string[];
  variations: string[];
  /** Profile environment of the entry (CatalogEntry.env: SVC_STRICT=1 for inferred faults, ...). */
  env?: Record<string, string>;
}

export interface PlaywrightPlan {
  /** Where the JSON reporter writes. */
  reportFile: string;
  /** Playwright's outputDir (traces, attachments). */
  outputDir: string;
  workers: number;
  /** Per-test bound: a fault that makes a scenario wait forever fails it at this bound. */
  testTimeoutMs: number;
  projects: PlaywrightPlanProject[];
  /**
   * Also run the fast-check project (scenarios/properties) once, as it is, in the same
   * invocation (project `properties`): with `clean` it makes the self-test's baseline
   * everything `npm run conformance` runs.
   */
  properties?: boolean;
}

/** The name of the properties project in a self-test plan (part of the clean baseline). */
export const PROPERTIES_PROJECT = 'properties';
