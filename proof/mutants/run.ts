/**
 * Running the suite against response mutants (the mutants themselves,
 * their proxy and report are proof/mutants/):
 *
 *   1. the simulator started as its own process (targets/simulator-process.ts), never a remote
 *      target; the suite configured only by SVC_* variables, as a user points it at a
 *      vendor (realTargetEnv), SVC_BASE_URL being a proxy;
 *   2. a baseline: every scenario once, each through a recording proxy port of its own,
 *      which notes the operations it reached and dry-runs every mutant on its traffic, so
 *      a mutant later runs only the scenarios whose answers it changes;
 *   3. the mutants in batches, one proxy port per mutant, all of a batch in ONE Playwright
 *      invocation whose workers every mutant shares (the self-test's plan, a `targetEnv`
 *      entry per mutant: proof/playwright-plan.ts). A stated mutant first runs its
 *      fastest reaching scenarios; a survivor runs again on every reaching scenario and the
 *      fuzz project (the confirmation pass). A tolerated mutant runs every reaching
 *      scenario, retried once (a scenario passing on its retry is flaky, not an alarm);
 *   4. verdicts: KILLED only by a scenario that passed in the baseline and fails under the
 *      mutant (a default gate run: stated rules and scenario assertions fail it, inferred
 *      and informational findings never do); a tolerated mutant that makes a scenario fail
 *      is a false alarm.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract, type Contract } from '../../contracts/index.ts';
import {
  playwrightTest,
  runProcess,
  PACKAGE_ROOT,
  SIMULATOR_DEFAULTS,
  realTargetEnv,
  simulatorProcessEnv,
  startSimulatorProcess,
} from '../../targets/index.ts';
import type { PwReport, SuiteTest } from '../run-suite.ts';
import { runPlaywrightPlan, type PlaywrightRunResult } from '../execute.ts';
import { printTestKey, type PlaywrightPlan, type SelftestEntry } from '../playwright-plan.ts';
import { generateMutants, sampleMutants } from './generate.ts';
import { idsForward } from './apply.ts';
import { startMutantProxy, startRecordingProxy, type SeenExchange, type TargetPrefixes } from './proxy.ts';
import type { Family, Mutant } from './model.ts';
import { renderMarkdown, type MutantOutcome, type MutantsReport } from './report.ts';

export interface MutantRunOptions {
  /** A seeded sample of this many mutants (stratified by family); absent: every mutant. */
  sample?: number;
  /** Seed of the sample (default 1). */
  seed?: number;
  /** Only mutants whose id contains one of these strings. */
  only?: string[];
  /** Only these families. */
  families?: Family[];
  /** Only the mutants a previous report (mutants.json) did not settle: survivors, unreached, false alarms. */
  rerun?: string;
  /** Only scenarios whose title matches (a regular expression): the baseline and every run. */
  grep?: string;
  /** Scenario folders (default api, browser, fuzz). */
  folders?: Array<'api' | 'browser' | 'fuzz'>;
  /** Reaching scenarios a stated mutant runs first, fastest first (default 3). */
  testsPerMutant?: number;
  /** Survivors run again on every reaching scenario and the fuzz project (default true). */
  confirm?: boolean;
  /** Playwright workers (default 3, as the self-test: a worker waits a third of its time). */
  workers?: number;
  /** Scenario runs per Playwright invocation (default 160). */
  batchSize?: number;
  /** Where the JSON and Markdown reports go (default <reports>/mutants). */
  out?: string;
  /** Progress lines (default console.log). */
  log?: (line: string) => void;
}

/** A scenario as the baseline saw it. */
interface BaselineTest {
  title: string;
  file: string;
  status: SuiteTest['status'];
  durationMs: number;
  seen: SeenExchange[];
  wouldFire: Set<string>;
  /** drop-field-on-path mutants whose change a comparison of two answers in this scenario would see. */
  wouldObserve: Set<string>;
  error?: string;
}

/** Settings of every run against a proxy, besides realTargetEnv's: what a user of such a target sets. */
const MUTANT_RUN_ENV: Record<string, string> = {
  // Versioning: the header names are not shown; a user whose vendor sends Deprecation/Sunset names them.
  SVC_DEPRECATION_HEADER: 'Deprecation',
  SVC_SUNSET_HEADER: 'Sunset',
  // The fuzz project, bounded by count and replayable: the verdict never depends on the machine's speed.
  SVC_FUZZ_SEED: '1',
  SVC_FUZZ_RUNS: '2',
  SVC_FUZZ_SECONDS: '60',
};

const FUZZ_FOLDER = /scenarios[\\/]fuzz[\\/]/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const grepOf = (titles: readonly string[]) => `^(?:${titles.map(escapeRe).join('|')})(?: |$)`;

/** Every scenario of the folders, as `playwright test --list` sees it. */
async function listScenarios(folders: readonly string[], grep: string | undefined): Promise<Array<{ title: string; file: string }>> {
  const work = mkdtempSync(join(tmpdir(), 'svc-mutants-list-'));
  try {
    const env = { ...realTargetEnv('http://127.0.0.1:9'), FORCE_COLOR: '0', PLAYWRIGHT_JSON_OUTPUT_FILE: join(work, 'list.json') };
    const pw = playwrightTest(['--list', '--reporter=json', ...folders.map((f) => `--project=${f}`), ...(grep ? [`--grep=${grep}`] : [])], env, PACKAGE_ROOT);
    const r = await runProcess(pw.command, pw.args, { cwd: PACKAGE_ROOT, env: pw.env, timeoutMs: 120_000, captureStdout: false, stderrTailBytes: 2000 });
    if (!existsSync(join(work, 'list.json'))) throw new Error(`playwright --list wrote nothing (exit ${r.code}): ${r.stderr}`);
    const report = JSON.parse(readFileSync(join(work, 'list.json'), 'utf8')) as PwReport;
    const out: Array<{ title: string; file: string }> = [];
    const walk = (s: { specs?: Array<{ title: string; file: string }>; suites?: unknown[] }) => {
      for (const sp of s.specs ?? []) out.push({ title: sp.title, file: sp.file });
      for (const c of (s.suites ?? []) as (typeof s)[]) walk(c);
    };
    for (const s of (report.suites ?? []) as unknown as Array<Parameters<typeof walk>[0]>) walk(s);
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One Playwright invocation of a plan: the self-test pipeline's execute stage
 * (proof/execute.ts runPlaywrightPlan), each entry a mutant with the proxy in front of the
 * simulator process as its target.
 */
async function runPlan(
  entries: SelftestEntry[],
  o: { workers: number; folders: readonly string[]; testTimeoutMs: number; timeoutMs: number },
): Promise<PlaywrightRunResult> {
  const work = mkdtempSync(join(tmpdir(), 'svc-mutants-run-'));
  try {
    return await runPlaywrightPlan(
      PACKAGE_ROOT,
      work,
      { workers: o.workers, testTimeoutMs: o.testTimeoutMs, entries, folders: o.folders as PlaywrightPlan['folders'] },
      {
        timeoutMs: o.timeoutMs,
        env: (planFile) => {
          // The runner's own environment: no target of its own (each entry names one), never CI's forbidOnly.
          const env: NodeJS.ProcessEnv = {
            ...realTargetEnv('http://127.0.0.1:9'),
            FORCE_COLOR: '0',
            SVC_SELFTEST_PLAN: planFile,
            SVC_HTTP_TIMING_DIR: join(work, 'http-timing'),
          };
          delete env.SVC_BASE_URL;
          return env;
        },
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What every step of one mutation run reads: its settings, the simulator behind the proxies, and the mutants. */
interface MutantRun {
  o: MutantRunOptions;
  log: (line: string) => void;
  contract: Contract;
  /** The newest version: what a request without Accept-Version is judged under. */
  current: string;
  folders: Array<'api' | 'browser' | 'fuzz'>;
  workers: number;
  batchSize: number;
  /** The simulator process's base URL, behind every proxy. */
  target: string;
  prefixes: TargetPrefixes;
  mutants: Mutant[];
  outcomes: Map<string, MutantOutcome>;
}

/** A mutant and the scenarios it runs in one pass. */
type MutantWork = { m: Mutant; tests: BaselineTest[] };

export async function runMutants(o: MutantRunOptions = {}): Promise<MutantsReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = performance.now();
  const load0 = loadavg();
  const contract = loadContract();
  const folders = o.folders ?? ['api', 'browser', 'fuzz'];
  const { mutants, exclusions, generated } = selectMutants(o, contract, log);
  const scenarios = await listScenarios(folders, o.grep);
  if (!scenarios.length) throw new Error(`no scenario matches ${o.grep ?? '(all)'}`);
  const sim = await startSimulatorProcess(simulatorProcessEnv());
  const run: MutantRun = {
    o,
    log,
    contract,
    current: contract.versions.at(-1)!,
    folders,
    workers: o.workers ?? 3,
    batchSize: o.batchSize ?? 160,
    target: sim.base,
    prefixes: { audience: SIMULATOR_DEFAULTS.audiencePrefix, testHost: SIMULATOR_DEFAULTS.testHostPrefix },
    mutants,
    outcomes: new Map(),
  };
  try {
    log(`baseline: ${scenarios.length} scenarios against the simulator process ${sim.pid} (${sim.base}), each through a recording proxy`);
    const { baseline, durationMs } = await runBaseline(run, scenarios);
    const passed = baseline.filter((t) => t.status === 'passed' || t.status === 'flaky');
    log(
      `baseline: ${passed.length} passed, ${baseline.filter((t) => t.status === 'failed').length} failed, ${baseline.filter((t) => t.status === 'skipped').length} skipped in ${(durationMs / 1000).toFixed(1)} s`,
    );
    const reaching = reachingScenarios(mutants, passed);
    for (const m of mutants) run.outcomes.set(m.id, surviving(m, reaching.get(m.id)!.length));
    await runBatches(run, firstPass(mutants, reaching, o.testsPerMutant ?? 3), 'first pass');
    // Confirmation: a survivor on every reaching scenario.
    if (o.confirm !== false) {
      const again = confirmationPass(run, reaching);
      if (again.length) await runBatches(run, again, 'confirmation');
    }
    settleUnchanged(run, passed);
    const report: MutantsReport = {
      generatedAt: new Date().toISOString(),
      wallTimeMs: performance.now() - started,
      machine: {
        cores: cpus().length,
        loadAverageStart: load0.map((x) => Math.round(x * 100) / 100),
        loadAverageEnd: loadavg().map((x) => Math.round(x * 100) / 100),
      },
      options: {
        sample: o.sample,
        seed: o.sample !== undefined ? (o.seed ?? 1) : undefined,
        only: o.only,
        families: o.families,
        grep: o.grep,
        testsPerMutant: o.testsPerMutant ?? 3,
        workers: run.workers,
        confirm: o.confirm !== false,
      },
      generated,
      baseline: {
        scenarios: baseline.length,
        passed: passed.length,
        failed: baseline.filter((t) => t.status === 'failed').map((t) => ({ title: t.title, error: (t.error ?? '').split('\n')[0].slice(0, 300) })),
        durationMs,
      },
      outcomes: [...run.outcomes.values()],
      exclusions,
    };
    writeMutantsReport(o.out ?? join(PACKAGE_ROOT, 'reports', 'out', 'mutants'), report, log);
    return report;
  } finally {
    await sim.stop();
  }
}

/** A selection that cannot be made (a --rerun file that is not a mutants report, a filter that matches nothing): the message names it. */
export class MutantSelectionError extends Error {}

/** What `rerun` reads of an earlier mutants.json: each outcome's id and verdict, the shape checked and the file named when it is not one. */
function readRerun(file: string): Array<{ id: string; verdict: string }> {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new MutantSelectionError(`--rerun ${file} is not a mutants report: ${(e as Error).message}`);
  }
  const outcomes = (report as { outcomes?: unknown } | null)?.outcomes;
  const isOutcome = (x: unknown) => typeof (x as { id?: unknown })?.id === 'string' && typeof (x as { verdict?: unknown }).verdict === 'string';
  if (!Array.isArray(outcomes) || !outcomes.every(isOutcome))
    throw new MutantSelectionError(
      `--rerun ${file} is not a mutants report: it has no "outcomes" list of {id, verdict} (a mutants.json of an earlier run has)`,
    );
  return outcomes as Array<{ id: string; verdict: string }>;
}

/** The mutants this run takes: every generated one, narrowed by family, id, a previous report and a seeded sample. */
function selectMutants(
  o: MutantRunOptions,
  contract: Contract,
  log: (line: string) => void,
): { mutants: Mutant[]; exclusions: MutantsReport['exclusions']; generated: number } {
  let { mutants, exclusions } = generateMutants({ contract });
  const generated = mutants.length;
  if (o.families?.length) mutants = mutants.filter((m) => o.families!.includes(m.family));
  if (o.only?.length) mutants = mutants.filter((m) => o.only!.some((s) => m.id.includes(s)));
  if (o.rerun) {
    const previous = readRerun(o.rerun);
    const open = new Set(previous.filter((x) => x.verdict !== 'killed' && x.verdict !== 'tolerated').map((x) => x.id));
    const settled = new Set(previous.map((x) => x.id));
    mutants = mutants.filter((m) => open.has(m.id) || !settled.has(m.id));
  }
  if (o.sample !== undefined) mutants = sampleMutants(mutants, o.sample, o.seed ?? 1);
  if (!mutants.length)
    throw new MutantSelectionError(
      `no mutant selected of ${generated} generated: check --only, --family${o.rerun ? ` and --rerun (${o.rerun} left none open)` : ''}`,
    );
  log(
    `mutants: ${mutants.length} selected of ${generated} generated (${mutants.filter((m) => m.expect === 'killed').length} stated, ${mutants.filter((m) => m.expect === 'tolerated').length} tolerated)`,
  );
  return { mutants, exclusions, generated };
}

/** The suite's settings for a target at `url`; an identifier mutant's settings carry the identifiers as it rewrites them. */
function envFor(url: string, m?: Mutant): Record<string, string> {
  const env = realTargetEnv(url, MUTANT_RUN_ENV) as Record<string, string>;
  if (m?.envMap === 'ids' && m.change.kind === 'ids') for (const k of Object.keys(env)) if (k.startsWith('SVC_')) env[k] = idsForward(m.change, env[k]);
  return env;
}

/** The baseline: each scenario through its own recording port, which notes what it reached and which mutants its answers would change. */
async function runBaseline(
  run: MutantRun,
  scenarios: ReadonlyArray<{ title: string; file: string }>,
): Promise<{ baseline: BaselineTest[]; durationMs: number }> {
  const { target, prefixes, mutants, current, contract } = run;
  const recorders = await Promise.all(scenarios.map(() => startRecordingProxy({ target, prefixes, mutants, currentVersion: current, contract })));
  let baseRun: PlaywrightRunResult;
  try {
    const entries: SelftestEntry[] = scenarios.map((s, i) => ({
      name: `baseline-${i}`,
      grep: grepOf([s.title]),
      faults: [],
      variations: [],
      targetEnv: envFor(recorders[i].url),
    }));
    baseRun = await runPlan(entries, { workers: run.workers, folders: run.folders, testTimeoutMs: 60_000, timeoutMs: 30 * 60_000 });
  } finally {
    await Promise.all(recorders.map((r) => r.close()));
  }
  if (baseRun.error && !baseRun.tests.length) throw new Error(`baseline run failed: ${baseRun.error}`);
  const baseline: BaselineTest[] = scenarios.map((s, i) => {
    const t = baseRun.tests.find((x) => x.entry === `baseline-${i}` && x.title === s.title);
    return {
      ...s,
      status: t?.status ?? 'skipped',
      durationMs: t?.durationMs ?? 0,
      seen: recorders[i].seen,
      wouldFire: new Set(recorders[i].wouldFire()),
      wouldObserve: new Set(recorders[i].wouldObserve()),
      ...(t?.error ? { error: t.error } : {}),
    };
  });
  return { baseline, durationMs: baseRun.durationMs };
}

/** A mutant that leaves a field out on one operation only (witnesses). */
const observedOnly = (m: Mutant) => m.change.kind === 'field' && !!m.change.witnesses;

/**
 * The passing scenarios whose answers each mutant changes, fastest first. A mutant that
 * leaves a field out on one operation only reaches a scenario only where that scenario read
 * the same record through another operation first: what presence consistency compares
 * (proof/mutants/apply.ts `observed`). Presence consistency judges the checked client's
 * exchanges (scenarios/fixtures/run-ledger.ts); the fuzz engine's own requests are not among
 * them, so the fuzz project never reaches one.
 */
function reachingScenarios(mutants: readonly Mutant[], passed: readonly BaselineTest[]): Map<string, BaselineTest[]> {
  const judgedBy = (m: Mutant, t: BaselineTest) => (observedOnly(m) ? t.wouldObserve.has(m.id) && !FUZZ_FOLDER.test(t.file) : t.wouldFire.has(m.id));
  const reaching = new Map<string, BaselineTest[]>();
  for (const m of mutants)
    reaching.set(
      m.id,
      passed.filter((t) => judgedBy(m, t)).sort((a, b) => a.durationMs - b.durationMs),
    );
  return reaching;
}

/** A mutant's outcome before it runs: survived until a scenario kills it. */
function surviving(m: Mutant, reaching: number): MutantOutcome {
  return {
    id: m.id,
    family: m.family,
    expect: m.expect,
    section: m.section,
    statement: m.statement,
    rows: m.rows,
    verdict: 'survived',
    reaching,
    ran: [],
    fired: 0,
    failures: [],
  };
}

/** A stated mutant runs its fastest reaching scenarios (the fuzz project's only when no other reaches it); a tolerated one runs every reaching scenario. */
function firstPass(mutants: readonly Mutant[], reaching: Map<string, BaselineTest[]>, perMutant: number): MutantWork[] {
  return mutants.map((m) => {
    const r = reaching.get(m.id)!;
    const nonFuzz = r.filter((t) => !FUZZ_FOLDER.test(t.file));
    const chosen = m.expect === 'killed' ? (nonFuzz.length ? nonFuzz.slice(0, perMutant) : r.slice(0, 1)) : r;
    return { m, tests: chosen };
  });
}

/** Every stated survivor again, on every reaching scenario it has not run yet. */
function confirmationPass(run: MutantRun, reaching: Map<string, BaselineTest[]>): MutantWork[] {
  const { mutants, outcomes } = run;
  return mutants
    .filter((m) => m.expect === 'killed' && outcomes.get(m.id)!.verdict !== 'killed')
    .map((m) => ({ m, tests: reaching.get(m.id)! }))
    .filter((x) => x.tests.some((t) => !outcomes.get(x.m.id)!.ran.includes(t.title)));
}

/**
 * Verdicts of what never ran or never changed an answer. A mutant no baseline scenario's
 * answers would change is "not applied" when some passing scenario reached one of its
 * operations with a success (the target never showed what it changes: nothing to kill),
 * "unreached" when none did (the suite never looks there).
 */
function settleUnchanged(run: MutantRun, passed: readonly BaselineTest[]): void {
  const reachedOps = new Set(passed.flatMap((t) => t.seen.filter((x) => x.op && x.status < 500).map((x) => x.op!)));
  for (const m of run.mutants) {
    const oc = run.outcomes.get(m.id)!;
    if (oc.verdict === 'killed' || oc.verdict === 'false-alarm') continue;
    if (observedOnly(m) && !oc.reaching) {
      // Left out of the score: the suite cannot see a field dropped on one operation unless one scenario reads the record twice.
      const fired = passed.filter((t) => t.wouldFire.has(m.id)).length;
      const onlyFuzz = passed.some((t) => t.wouldObserve.has(m.id));
      const ops = m.ops.map((o) => o.replace(/^\w[\w-]*:/, '')).join(', ');
      oc.verdict = 'not-observable';
      oc.reason = onlyFuzz
        ? `only the fuzz project read a record through another operation before ${ops}; presence consistency does not judge the fuzz engine's own requests`
        : fired
          ? `${fired} scenario(s) read records on ${ops} with the field, none of them after another operation served the same record with it (no write between)`
          : `no scenario's answer on ${ops} carries the field`;
      continue;
    }
    const global = !m.ops.length;
    if (!oc.reaching) oc.verdict = m.expect === 'killed' ? (!global && !m.ops.some((op) => reachedOps.has(op)) ? 'unreached' : 'not-applied') : 'tolerated';
    else if (!oc.fired) oc.verdict = m.expect === 'killed' ? 'not-applied' : 'tolerated';
    else oc.verdict = m.expect === 'killed' ? 'survived' : 'tolerated';
  }
}

function writeMutantsReport(out: string, report: MutantsReport, log: (line: string) => void): void {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'mutants.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(out, 'mutants.md'), renderMarkdown(report));
  log(`report: ${join(out, 'mutants.md')}`);
}

/** The work in batches of at most `batchSize` scenario runs, a mutant never split across two. */
function batchesOf(work: readonly MutantWork[], batchSize: number): MutantWork[][] {
  const todo = work.filter((w) => w.tests.length);
  let batch: MutantWork[] = [];
  let size = 0;
  const batches: MutantWork[][] = [];
  for (const w of todo) {
    if (size + w.tests.length > batchSize && batch.length) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(w);
    size += w.tests.length;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/** Each batch in one Playwright invocation, one proxy port per mutant; a failing scenario kills a stated mutant and is a false alarm of a tolerated one. */
async function runBatches(run: MutantRun, work: readonly MutantWork[], label: string): Promise<void> {
  const batches = batchesOf(work, run.batchSize);
  for (const [i, b] of batches.entries()) {
    const { durationMs } = await runBatch(run, b);
    const killed = b.filter((w) => run.outcomes.get(w.m.id)!.verdict === 'killed').length;
    run.log(
      `${label} batch ${i + 1}/${batches.length}: ${b.length} mutants, ${b.reduce((n, w) => n + w.tests.length, 0)} scenario runs, ${killed} killed, ${(durationMs / 1000).toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`,
    );
  }
}

async function runBatch(run: MutantRun, b: readonly MutantWork[]): Promise<PlaywrightRunResult> {
  const { target, prefixes, current, contract } = run;
  const proxies = await Promise.all(b.map((w) => startMutantProxy({ target, prefixes, mutant: w.m, currentVersion: current, contract })));
  let result: PlaywrightRunResult;
  try {
    const entries: SelftestEntry[] = b.map((w, j) => ({
      name: `m${j}`,
      grep: grepOf(w.tests.map((t) => t.title)),
      faults: [],
      variations: [],
      targetEnv: envFor(proxies[j].url, w.m),
      expectFailures: w.m.expect === 'killed',
    }));
    const slow = b.some((w) => w.m.change.kind === 'latency' && w.m.change.ms >= 1000);
    result = await runPlan(entries, { workers: run.workers, folders: run.folders, testTimeoutMs: slow ? 120_000 : 45_000, timeoutMs: 45 * 60_000 });
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
  }
  for (const [j, w] of b.entries()) {
    const oc = run.outcomes.get(w.m.id)!;
    oc.fired += proxies[j].runtime.fired;
    const mine = result.tests.filter((t) => t.entry === `m${j}`);
    for (const t of w.tests) if (!oc.ran.includes(t.title)) oc.ran.push(t.title);
    for (const t of mine.filter((x) => x.status === 'failed')) {
      oc.failures.push({
        test: printTestKey(t.key),
        error: (t.error ?? '').split('\n').filter(Boolean).slice(0, 3).join(' | ').slice(0, 400),
      });
    }
    if (oc.failures.length) oc.verdict = w.m.expect === 'killed' ? 'killed' : 'false-alarm';
    if (result.error && !mine.length) oc.runError = result.error.slice(0, 300);
  }
  return result;
}
