/**
 * The data k6 hands a script's handleSummary (k6's end-of-test summary, k6 >= 1.0): the
 * runner builds it (summary.ts) and the scripts read it (load/script-support/summary.ts). Types
 * only, with no imports, so k6 code can import them (`import type` is erased before k6
 * or the runner's bundler sees the file).
 */
export interface SummaryMetric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains: 'default' | 'time' | 'data';
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryGroup {
  name: string;
  path: string;
  id: string;
  groups: SummaryGroup[];
  checks: Array<{ name: string; path: string; id: string; passes: number; fails: number }>;
}

export interface SummaryData {
  root_group: SummaryGroup;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}
