/**
 * The k6 API surface this runner implements, in one place: the bundler refuses any
 * other import, the options validator any other option key, and load/README.md lists
 * the same. Adding something means implementing it first, then listing it here.
 */
export const SUPPORTED_MODULES: Record<string, string[]> = {
  k6: ['check', 'group', 'sleep', 'fail', 'default'],
  'k6/http': ['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'request', 'batch', 'expectedStatuses', 'setResponseCallback', 'default'],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend', 'default'],
  'k6/execution': ['default'],
  'k6/encoding': ['b64encode', 'b64decode', 'default'],
};

/** Globals of the k6 runtime that scripts may use. */
export const SUPPORTED_GLOBALS = ['__ENV', '__VU', '__ITER', 'console'];

/** Lifecycle exports of a script (k6 docs, "Test lifecycle"). */
export const LIFECYCLE_EXPORTS = ['options', 'setup', 'teardown', 'handleSummary', 'default'];

export const SUPPORTED_OPTIONS = [
  'scenarios',
  'thresholds',
  'tags',
  'summaryTrendStats',
  'setupTimeout',
  'teardownTimeout',
  'discardResponseBodies',
  'maxRedirects',
  'batch',
  'batchPerHost',
  'userAgent',
  // Shortcuts k6 turns into one scenario named "default".
  'vus',
  'duration',
  'iterations',
];

export const SCENARIO_COMMON_KEYS = ['executor', 'startTime', 'gracefulStop', 'exec', 'env', 'tags'];

export const EXECUTOR_KEYS: Record<string, string[]> = {
  'constant-arrival-rate': ['rate', 'timeUnit', 'duration', 'preAllocatedVUs', 'maxVUs'],
  'ramping-arrival-rate': ['startRate', 'timeUnit', 'stages', 'preAllocatedVUs', 'maxVUs'],
  'per-vu-iterations': ['vus', 'iterations', 'maxDuration'],
  'shared-iterations': ['vus', 'iterations', 'maxDuration'],
  'constant-vus': ['vus', 'duration'],
};

export const HTTP_PARAM_KEYS = ['headers', 'tags', 'timeout', 'responseCallback', 'responseType', 'redirects'];

export const EXECUTION_PROPERTIES = {
  scenario: ['name', 'executor', 'startTime', 'iterationInInstance', 'iterationInTest'],
  vu: ['idInInstance', 'idInTest', 'iterationInInstance', 'iterationInScenario'],
  test: ['abort', 'options'],
  instance: ['currentTestRunDuration', 'vusInitialized', 'iterationsCompleted'],
};

export class UnsupportedError extends Error {
  override name = 'UnsupportedError';
}
