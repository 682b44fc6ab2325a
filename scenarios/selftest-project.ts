/**
 * What a self-test project (proof/plan.ts, playwright.config.ts) tells the scenarios'
 * worker fixture (scenarios/fixtures.ts): the project metadata key and shape that put
 * faults or variations in force, and the annotation the fixture leaves on a failure it
 * marks as expected. Here, on the scenarios' side, because the scenarios read it: the
 * self-test (proof/) imports it, the scenarios never import proof/.
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
