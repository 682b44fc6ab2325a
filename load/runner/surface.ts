/**
 * The k6 API surface this runner implements, in one place: the bundler refuses any
 * other import, the options validator any other option key, and load/README.md lists
 * the same. It is the surface the scripts in load/ and a typical user script need
 * (no more, so the runner stays small); adding something means implementing it first, then listing it here.
 */
export const SUPPORTED_MODULES: Record<string, string[]> = {
  k6: ['check', 'group', 'sleep', 'fail', 'default'],
  'k6/http': ['get', 'post', 'put', 'del', 'request', 'batch', 'expectedStatuses', 'setResponseCallback', 'default'],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend', 'default'],
  'k6/execution': ['default'],
  'k6/encoding': ['b64encode', 'default'],
};

export const SUPPORTED_OPTIONS = [
  'scenarios',
  'thresholds',
  'summaryTrendStats',
  'discardResponseBodies',
  // Shortcuts k6 turns into one scenario named "default".
  'vus',
  'duration',
  'iterations',
  'stages',
];

export const SCENARIO_COMMON_KEYS = ['executor', 'startTime', 'gracefulStop', 'exec', 'env', 'tags'];

export const EXECUTOR_KEYS: Record<string, string[]> = {
  'constant-arrival-rate': ['rate', 'timeUnit', 'duration', 'preAllocatedVUs', 'maxVUs'],
  'ramping-arrival-rate': ['startRate', 'timeUnit', 'stages', 'preAllocatedVUs', 'maxVUs'],
  'per-vu-iterations': ['vus', 'iterations', 'maxDuration'],
  'shared-iterations': ['vus', 'iterations', 'maxDuration'],
  'constant-vus': ['vus', 'duration'],
  'ramping-vus': ['startVUs', 'stages'],
};

export const HTTP_PARAM_KEYS = ['headers', 'tags', 'timeout', 'responseType'];

export const EXECUTION_PROPERTIES = {
  scenario: ['name', 'executor', 'startTime', 'iterationInTest'],
  vu: ['idInTest', 'iterationInInstance', 'iterationInScenario'],
  test: ['abort'],
};

export class UnsupportedError extends Error {
  override name = 'UnsupportedError';
}

/** The refusal every unimplemented name gets: what was asked, what is implemented, what to do. */
export function refusal(what: string, implemented: readonly string[]): UnsupportedError {
  return new UnsupportedError(
    `${what} not implemented by the k6-compatible runner (implemented: ${implemented.join(', ')}); run the script with k6 or extend load/runner`,
  );
}
