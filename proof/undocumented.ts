/**
 * `npm run spec:undocumented`: which operations the conformance scenarios send that no
 * document of spec/ has: their responses are checked against nothing.
 *
 * contracts/checks.ts reports such a request as an `undocumented_operation` warning (a
 * `informational` annotation, never gating): its response is then checked against
 * nothing. Every operation a scenario calls must be in spec/ (open where the
 * specification shows no shape), so a clean run has none of these warnings.
 *
 *   npm run spec:undocumented                        # runs api, browser, properties (JSON reporter)
 *   npm run spec:undocumented -- --project api       # one project (repeatable)
 *   npm run spec:undocumented -- --report a.json ... # reads existing Playwright JSON reports
 *
 * Prints each undocumented operation once (api, method, path with identifiers replaced by
 * `{id}`), with how often and by which tests it was sent; exits 1 when there is any, 2 when
 * a report holds no test at all (no vacuous pass) or a run could not be read.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_PROJECTS = ['api', 'browser', 'properties'];

export interface UndocumentedOperation {
  /** `platform v20250224`, `test-host`, ... as the warning names the document. */
  document: string;
  method: string;
  /** Request path, query removed, identifier segments replaced by `{id}`. */
  template: string;
  count: number;
  tests: string[];
}

/** The warning's message (contracts/checks.ts, undocumented_operation). */
const MESSAGE = /No operation of the (.+?) document matches ([A-Z]+) (\S+)/;

/**
 * A path segment that is an identifier rather than a name: the specification's shapes
 * (`USR-<uuid>`, `MBR-<uuid>`, `ACT-<uuid>`, other `XXX-<uuid>` guids), a bare uuid, a
 * number, or anything carrying a digit and a dash (client-defined ids of the scenarios).
 */
function isIdentifier(segment: string): boolean {
  return (
    /^[A-Za-z]{2,4}-[0-9a-fA-F-]{8,}$/.test(segment) ||
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(segment) ||
    /^\d+$/.test(segment) ||
    (/\d/.test(segment) && /-/.test(segment))
  );
}

export function normalisePath(path: string): string {
  const bare = path.split('?')[0];
  return bare
    .split('/')
    .map((s) => (s && isIdentifier(decodeURIComponent(s)) ? '{id}' : s))
    .join('/');
}

interface ReportAnnotation {
  type?: string;
  description?: string;
}
interface ReportTest {
  annotations?: ReportAnnotation[];
  results?: { annotations?: ReportAnnotation[] }[];
}
interface ReportSpec {
  title?: string;
  file?: string;
  tests?: ReportTest[];
}
interface ReportSuite {
  title?: string;
  suites?: ReportSuite[];
  specs?: ReportSpec[];
}
export interface PlaywrightJsonReport {
  suites?: ReportSuite[];
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
}

/** Tests in a report (a report with none proves nothing). */
export function countTests(report: PlaywrightJsonReport): number {
  let n = 0;
  const walk = (s: ReportSuite) => {
    s.suites?.forEach(walk);
    s.specs?.forEach((sp) => {
      n += sp.tests?.length ?? 0;
    });
  };
  report.suites?.forEach(walk);
  return n;
}

/** The undocumented operations a Playwright JSON report's annotations name, merged by template. */
export function undocumentedFromReport(report: PlaywrightJsonReport, into = new Map<string, UndocumentedOperation>()): Map<string, UndocumentedOperation> {
  const walk = (s: ReportSuite) => {
    s.suites?.forEach(walk);
    for (const spec of s.specs ?? []) {
      const title = `${spec.file ?? ''} > ${spec.title ?? ''}`;
      for (const t of spec.tests ?? []) {
        // The same annotation may appear on the test and on its result: count each once per test.
        const seen = new Set<string>();
        const all = [...(t.annotations ?? []), ...(t.results ?? []).flatMap((r) => r.annotations ?? [])];
        for (const a of all) {
          const text = a.description ?? '';
          if (!text.includes('undocumented_operation') || seen.has(text)) continue;
          seen.add(text);
          const m = MESSAGE.exec(text);
          if (!m) continue;
          const [, document, method, path] = m;
          const template = normalisePath(path);
          const key = `${document} ${method} ${template}`;
          const entry = into.get(key) ?? { document, method, template, count: 0, tests: [] };
          entry.count++;
          if (!entry.tests.includes(title)) entry.tests.push(title);
          into.set(key, entry);
        }
      }
    }
  };
  report.suites?.forEach(walk);
  return into;
}

/** Distinct operations regardless of version: `<api> <METHOD> <template>`. */
export function distinctOperations(found: Iterable<UndocumentedOperation>): string[] {
  return [...new Set([...found].map((o) => `${o.document.split(' ')[0]} ${o.method} ${o.template}`))].sort();
}

function runProject(project: string, dir: string): PlaywrightJsonReport {
  const file = join(dir, `${project}.json`);
  const res = spawnSync('npx', ['playwright', 'test', '--project', project, '--reporter=json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: file },
    maxBuffer: 512 * 1024 * 1024,
  });
  // The JSON reporter writes to the file when PLAYWRIGHT_JSON_OUTPUT_FILE is set, else to stdout.
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = res.stdout?.toString('utf8') ?? '';
  }
  const start = text.indexOf('{');
  if (start < 0) throw new Error(`playwright --project ${project} wrote no JSON report (exit ${res.status})`);
  if (res.status !== 0) console.error(`note: playwright --project ${project} exited ${res.status}; its report is read all the same`);
  return JSON.parse(text.slice(start)) as PlaywrightJsonReport;
}

function main(argv: string[]): number {
  const projects: string[] = [];
  const reports: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--project') projects.push(argv[++i]);
    else if (argv[i] === '--report') reports.push(argv[++i]);
    else {
      console.error(`unknown argument ${argv[i]}`);
      return 2;
    }
  }
  const sources: { name: string; report: PlaywrightJsonReport }[] = [];
  if (reports.length) {
    for (const r of reports) sources.push({ name: r, report: JSON.parse(readFileSync(r, 'utf8')) as PlaywrightJsonReport });
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'svc-undocumented-'));
    try {
      for (const p of projects.length ? projects : DEFAULT_PROJECTS) sources.push({ name: `project ${p}`, report: runProject(p, dir) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const found = new Map<string, UndocumentedOperation>();
  let empty = false;
  for (const { name, report } of sources) {
    const tests = countTests(report);
    const st = report.stats;
    console.log(
      `${name}: ${tests} tests${st ? ` (passed ${st.expected ?? 0}, failed ${st.unexpected ?? 0}, flaky ${st.flaky ?? 0}, skipped ${st.skipped ?? 0})` : ''}`,
    );
    if (tests === 0) empty = true;
    undocumentedFromReport(report, found);
  }
  const distinct = distinctOperations(found.values());
  console.log(`undocumented operations: ${distinct.length} (${[...found.values()].reduce((n, o) => n + o.count, 0)} requests)`);
  for (const o of [...found.values()].sort((a, b) => `${a.template} ${a.method}`.localeCompare(`${b.template} ${b.method}`))) {
    console.log(`  ${o.method} ${o.template}  [${o.document}] x${o.count}  e.g. ${o.tests[0]}`);
  }
  if (empty) {
    console.error('a report holds no test: nothing was checked');
    return 2;
  }
  return distinct.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
