/**
 * Reads the conformance run's Playwright JSON report (scenarios and properties) into
 * what the gate and the summary need: counts, the failures (error severity: the
 * checked client fails a test on an error-severity contract failure, scenarios/fixtures.ts)
 * and the contract findings by tier (the typed records each test attaches, contracts
 * FINDINGS_ATTACHMENT), grouped as every report shows them (reports/findings.ts). Inferred findings gate only under SVC_STRICT=1, when they
 * arrive as failures too; informational ones never do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { findingsOf, summariseFindings, type FindingsSummary, type TestFindings } from './findings.ts';

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
  /** Contract findings by tier, every distinct one (reports/findings.ts). */
  findings: FindingsSummary;
  /** Errors outside any test (globalSetup crashed, no tests found). */
  globalErrors: string[];
}

interface PwResult {
  status: string;
  errors?: { message?: string }[];
  /** The JSON report holds an attachment's body in base64. */
  attachments?: { name: string; contentType: string; body?: string }[];
}
interface PwTest {
  projectName: string;
  status: string;
  results: PwResult[];
}
interface PwSpec {
  title: string;
  file: string;
  tests: PwTest[];
}
interface PwSuite {
  title: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

export function readConformance(file: string): ConformanceResult | undefined {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites?: PwSuite[]; stats?: { duration?: number }; errors?: { message?: string }[] };
  const r: Omit<ConformanceResult, 'findings'> = {
    passed: 0,
    failed: 0,
    flaky: 0,
    skipped: 0,
    durationMs: report.stats?.duration ?? 0,
    failures: [],
    globalErrors: (report.errors ?? []).map((e) => stripAnsi(e.message ?? '')),
  };
  const tested: TestFindings[] = [];
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
          r.failures.push({
            test: name,
            project: t.projectName,
            message: stripAnsi(last?.errors?.map((e) => e.message ?? '').join('\n') ?? '').slice(0, 2000),
          });
        }
        // The last attempt's findings, as the console's tier summary counts them.
        const attachments = (t.results.at(-1)?.attachments ?? []).map((a) => ({
          ...a,
          body: a.body === undefined ? undefined : Buffer.from(a.body, 'base64'),
        }));
        tested.push({ title: `[${t.projectName}] ${name}`, findings: findingsOf(attachments) });
      }
    }
    for (const c of s.suites ?? []) walk(c, here);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return { ...r, findings: summariseFindings(tested) };
}
