/**
 * Reads the conformance run's Playwright JSON report (scenarios and properties) into
 * what the gate and the summary need: counts, the failures (error severity: the
 * checked client fails a test on an error-severity contract failure, scenarios/fixtures.ts),
 * the inferred deviations (`inferred` annotations: expectations no sentence of the
 * specification states, scenarios/inferred.ts and the contract's inferred tier; they
 * gate only under SVC_STRICT=1, when they arrive as failures instead) and the
 * informational warnings (the client's `contract warning` annotations, which never fail).
 */
import { existsSync, readFileSync } from 'node:fs';
import { TIER_ANNOTATION } from '../contracts/failure.ts';

export interface ConformanceFailure {
  test: string;
  project: string;
  message: string;
}
export interface ConformanceResult {
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  durationMs: number;
  failures: ConformanceFailure[];
  warnings: { test: string; description: string }[];
  /** Inferred expectations a target did not meet (reported apart; never gating unless strict). */
  inferred: { test: string; description: string }[];
  /** Errors outside any test (globalSetup crashed, no tests found). */
  globalErrors: string[];
}

/** Annotation types written by the checked client and scenarios/inferred.ts. */
export const INFERRED_ANNOTATION = TIER_ANNOTATION.inferred;
export const WARNING_ANNOTATION = TIER_ANNOTATION.informational;

interface PwResult { status: string; errors?: { message?: string }[]; annotations?: { type: string; description?: string }[] }
interface PwTest { projectName: string; status: string; annotations?: { type: string; description?: string }[]; results: PwResult[] }
interface PwSpec { title: string; file: string; tests: PwTest[] }
interface PwSuite { title: string; specs?: PwSpec[]; suites?: PwSuite[] }

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

export function readConformance(file: string): ConformanceResult | undefined {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites?: PwSuite[]; stats?: { duration?: number }; errors?: { message?: string }[] };
  const r: ConformanceResult = { passed: 0, failed: 0, flaky: 0, skipped: 0, durationMs: report.stats?.duration ?? 0, failures: [], warnings: [], inferred: [], globalErrors: (report.errors ?? []).map((e) => stripAnsi(e.message ?? '')) };
  const walk = (s: PwSuite, path: string[]) => {
    const here = s.title && !/\.(ts|js)$/.test(s.title) ? [...path, s.title] : path;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const name = `${spec.file.replace(/^(\.\.\/)+/, '')} › ${[...here, spec.title].join(' › ')}`;
        if (t.status === 'expected') r.passed++;
        else if (t.status === 'skipped') r.skipped++;
        else if (t.status === 'flaky') r.flaky++;
        else {
          r.failed++;
          const last = t.results.at(-1);
          r.failures.push({ test: name, project: t.projectName, message: stripAnsi(last?.errors?.map((e) => e.message ?? '').join('\n') ?? '').slice(0, 2000) });
        }
        const annotations = [...(t.annotations ?? []), ...t.results.flatMap((x) => x.annotations ?? [])];
        const seen = new Set<string>();
        for (const a of annotations) {
          if (!a.description || seen.has(a.description)) continue;
          const into = a.type === INFERRED_ANNOTATION ? r.inferred : a.type === WARNING_ANNOTATION ? r.warnings : undefined;
          if (!into) continue;
          seen.add(a.description);
          into.push({ test: name, description: a.description });
        }
      }
    }
    for (const c of s.suites ?? []) walk(c, here);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return r;
}
