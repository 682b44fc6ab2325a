/**
 * The runner's engine: k6's test lifecycle, one function per phase, each taking what it
 * needs and returning what the next one uses (k6 docs, "Test lifecycle"):
 *
 *   init      bundle the script, evaluate it once for `options`, check the thresholds
 *   (VUs)     start the VUs the first scenarios need (k6 initialises VUs before setup)
 *   setup     run setup() once, hand its JSON to every VU
 *   run       run the scenarios (executors, abortOnFail, exec.test.abort)
 *   teardown  run teardown() with setup()'s data
 *   summary   build k6's summary data, call handleSummary, decide the exit code
 *
 *   const { exitCode } = await runScript('load/paging.ts', { env: { SVC_BASE_URL: ... } });
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { format } from 'node:util';
import { bundleScript } from './bundle.ts';
import { createK6Modules, instantiate, type ScriptConsole, type VuHost } from './shims.ts';
import { MetricStore, aggregationValue } from './metrics.ts';
import { SETUP_TIMEOUT_MS, TEARDOWN_TIMEOUT_MS, arrivalsDue, normaliseOptions, rampingVusAt, type RunOptions, type ScenarioPlan } from './options.ts';
import { checkAggregationAllowed, evaluateExpression, parseThresholdExpression, parseThresholdKey } from './thresholds.ts';
import { HttpClient } from './http-client.ts';
import { VuPool, type Vu } from './vu-pool.ts';
import { CONTROL, STOP_ABORT, STOP_END, sharedNow, type RunOrder } from './wire.ts';
import { buildSummaryData, crossedThresholds, defaultSummary, type SummaryData, type Threshold } from './summary.ts';

export type { SummaryData } from './summary.ts';

/** k6's exit codes (k6 errext/exitcodes). */
const EXIT = { ok: 0, thresholdsFailed: 99, setupTimeout: 100, invalidConfig: 104, scriptException: 107, scriptAborted: 108 } as const;

export interface RunParams {
  env?: Record<string, string | undefined>;
  /** Where handleSummary's `stdout` goes (default process.stdout). */
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Base directory for handleSummary file paths (default process.cwd()). */
  cwd?: string;
}

export interface RunResult {
  exitCode: number;
  summary?: SummaryData;
  /** Why the run stopped early or could not start. */
  error?: string;
}

/** Where a run's output goes, with k6's log-line form. */
interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  log(level: 'WARN' | 'ERRO', text: string): void;
}

/** The script as init left it: its code, the init instance (handleSummary runs there), its options and thresholds. */
interface Script {
  code: string;
  env: Record<string, string>;
  exports: Record<string, unknown>;
  functions: string[];
  options: RunOptions;
  thresholds: Threshold[];
  store: MetricStore;
}

/** A phase that ends the run before its summary: k6's exit code, the error, and the line to log. */
class RunEnd extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    readonly logText = message,
  ) {
    super(message);
  }
}

/** A timer that bounds a race (gracefulStop, timeouts) and never keeps the process alive. */
const deadline = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const firstLines = (text: string, n: number) => text.split('\n').slice(0, n).join(' | ');

function output(params: RunParams): Output {
  const stdout = params.stdout ?? ((t: string) => process.stdout.write(t));
  const stderr = params.stderr ?? ((t: string) => process.stderr.write(t));
  const startMs = Date.now();
  return {
    stdout,
    stderr,
    log(level, text) {
      const secs = String(Math.max(0, Math.floor((Date.now() - startMs) / 1000))).padStart(4, '0');
      stderr(`${level}[${secs}] ${text}\n`);
    },
  };
}

export async function runScript(scriptPath: string, params: RunParams = {}): Promise<RunResult> {
  const out = output(params);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(params.env ?? process.env)) if (v !== undefined) env[k] = v;
  let pool: VuPool | undefined;
  let script: Script, setupJson: string | null, run: RunOutcome;
  try {
    script = await init(scriptPath, env, out);
    pool = vuPool(script, out);
    await pool.prepare(firstVus(script.options.scenarios)).catch((e: Error) => {
      throw new RunEnd(EXIT.scriptException, e.message);
    });
    setupJson = await setup(script, pool);
    run = await runScenarios(script, pool, out);
    await teardown(script, pool, out);
  } catch (e) {
    // The script's own words, not the runner's frames: a script that refuses its settings
    // (a remote target without ALLOW_REMOTE_TARGET, a setting it needs) says why in its message.
    const end = e instanceof RunEnd ? e : new RunEnd(EXIT.scriptException, (e as Error).message, String(e));
    out.log('ERRO', end.logText);
    return { exitCode: end.exitCode, error: end.message };
  } finally {
    // Every VU thread ends before handleSummary runs.
    await pool?.close();
  }
  return summary(script, run, setupJson, out, params.cwd ?? process.cwd());
}

// ---- init: bundle, evaluate once for options (k6's "init context") -----------------------

/** The engine's instance's console (init code, handleSummary): lines to the run's output, warnings and errors to its stderr. */
function scriptConsole(out: Output): ScriptConsole {
  const line =
    (write: (text: string) => void) =>
    (...args: unknown[]) =>
      write(`${format(...args)}\n`);
  return { log: line(out.stdout), info: line(out.stdout), debug: line(out.stdout), warn: line(out.stderr), error: line(out.stderr) };
}

/** The engine's own script instance: it may define metrics and read __ENV, nothing else (k6's init context). */
function initHost(store: MetricStore): VuHost {
  const refuse = (what: string) => () => {
    throw new Error(`${what} is not supported in the init context`);
  };
  return {
    vuId: 0,
    inInit: true,
    stage: 'init',
    vuIterationInInstance: 0,
    discardResponseBodies: false,
    send: refuse('Making http requests'),
    sleepMs: refuse('sleep()'),
    emit: refuse('Emitting metrics'),
    defineMetric: (d) => store.define(d),
    abort: refuse('exec.test.abort()') as () => never,
  };
}

async function init(scriptPath: string, env: Record<string, string>, out: Output): Promise<Script> {
  let code: string;
  try {
    code = (await bundleScript(resolve(scriptPath))).code;
  } catch (e) {
    throw new RunEnd(EXIT.scriptException, (e as Error).message);
  }
  const store = new MetricStore();
  const exports = instantiate(code, createK6Modules(initHost(store)), { vu: 0, iter: 0, env }, scriptConsole(out));
  const functions = Object.keys(exports).filter((k) => typeof exports[k] === 'function');
  try {
    const options = normaliseOptions(exports.options, functions);
    const thresholds = Object.entries(options.thresholds).map(([key, list]): Threshold => {
      const k = parseThresholdKey(key);
      const def = store.definitions.get(k.metric);
      if (!def) throw new Error(`invalid threshold defined on "${key}": no metric named "${k.metric}" is defined`);
      const exprs = list.map((x) => parseThresholdExpression(x, key));
      for (const x of exprs) checkAggregationAllowed(x, def.type, key);
      return { key: k, exprs };
    });
    return { code, env, exports, functions, options, thresholds, store };
  } catch (e) {
    throw new RunEnd(EXIT.invalidConfig, (e as Error).message);
  }
}

/** The VU pool of a run: VUs evaluate the bundled script, send their samples to the script's store and their errors to the log. */
function vuPool(script: Script, out: Output): VuPool {
  const errors = new Map<string, number>();
  return new VuPool({
    code: script.code,
    env: script.env,
    discardResponseBodies: script.options.discardResponseBodies,
    http: new HttpClient(script.store),
    store: script.store,
    onError: (vuId, text) => {
      // Like k6, log every error; repeated identical ones are collapsed after the third.
      const first = text.split('\n')[0];
      const n = (errors.get(first) ?? 0) + 1;
      errors.set(first, n);
      if (n <= 3) out.log('ERRO', `VU ${vuId}: ${firstLines(text, 3)}`);
    },
    stdout: out.stdout,
    stderr: out.stderr,
  });
}

/**
 * VUs to start before setup(): k6 initialises every VU first; here, as many as the
 * scenarios that run together ask for at most (later scenarios take these or start more).
 */
function firstVus(scenarios: ScenarioPlan[]): number {
  const ends = (s: ScenarioPlan) => s.startTimeMs + (s.durationMs || 0);
  let peak = 0;
  for (const s of scenarios) {
    const overlapping = scenarios.filter((o) => o.startTimeMs <= s.startTimeMs && (o === s || ends(o) > s.startTimeMs));
    peak = Math.max(
      peak,
      overlapping.reduce((n, o) => n + initialVus(o), 0),
    );
  }
  return peak;
}

const isArrivalRate = (plan: ScenarioPlan) => plan.executor === 'constant-arrival-rate' || plan.executor === 'ramping-arrival-rate';
/** VUs a scenario starts with: arrival-rate preAllocatedVUs, else its VUs (ramping-vus: the most its stages ask for). */
const initialVus = (plan: ScenarioPlan) => (isArrivalRate(plan) ? plan.preAllocatedVUs : plan.vus);

// ---- setup() -------------------------------------------------------------------------------

/** Runs setup() when the script has one; returns its JSON (null without setup), already handed to every VU. */
async function setup(script: Script, pool: VuPool): Promise<string | null> {
  let json: string | null = null;
  if (script.functions.includes('setup')) {
    const r = await Promise.race([pool.lifecycle('setup'), deadline(SETUP_TIMEOUT_MS).then(() => 'timeout' as const)]);
    if (r === 'timeout') throw new RunEnd(EXIT.setupTimeout, `setup() execution timed out after ${SETUP_TIMEOUT_MS / 1000} seconds`);
    if (r.aborted) throw new RunEnd(EXIT.scriptAborted, r.aborted, `setup() failed: ${firstLines(r.aborted, 3)}`);
    if (r.error) throw new RunEnd(EXIT.scriptException, r.error, `setup() failed: ${firstLines(r.error, 3)}`);
    json = r.json;
  }
  pool.shareSetupData(json);
  return json;
}

// ---- run: the scenarios ------------------------------------------------------------------------

/**
 * What the scenarios running now share: the stop flags of their VUs, raised at each
 * scenario's end and, for all at once, on exec.test.abort() and abortOnFail.
 */
class RunControl {
  aborted: string | undefined;
  private controls = new Set<Int32Array>();
  /** Active VUs of each running scenario (the vus metric). */
  readonly activeVus = new Map<string, () => number>();

  open(): Int32Array {
    const control = new Int32Array(new SharedArrayBuffer(CONTROL.length * Int32Array.BYTES_PER_ELEMENT));
    this.controls.add(control);
    return control;
  }

  close(control: Int32Array): void {
    this.controls.delete(control);
  }

  static raise(control: Int32Array, how: typeof STOP_END | typeof STOP_ABORT): void {
    if (Atomics.load(control, CONTROL.stop) === STOP_ABORT) return;
    Atomics.store(control, CONTROL.stop, how);
    Atomics.notify(control, CONTROL.stop);
  }

  abort(message: string): void {
    this.aborted ??= message;
    this.controls.forEach((c) => {
      RunControl.raise(c, STOP_ABORT);
    });
  }
}

interface RunOutcome {
  durationMs: number;
  aborted?: string;
}

async function runScenarios(script: Script, pool: VuPool, out: Output): Promise<RunOutcome> {
  const { store, thresholds } = script;
  const run = new RunControl();
  const runStart = performance.now();
  // Once a second: the vus/vus_max gauges, and thresholds with abortOnFail (k6 evaluates them as the test runs).
  const monitor = setInterval(() => {
    store.addTagged(
      'vus',
      [...run.activeVus.values()].reduce((n, f) => n + f(), 0),
      {},
    );
    store.addTagged('vus_max', pool.size, {});
    const elapsed = performance.now() - runStart;
    for (const t of thresholds) {
      for (const x of t.exprs) {
        if (!x.abortOnFail || elapsed < x.delayAbortEvalMs) continue;
        const a = store.aggregate(t.key.metric, t.key.tags);
        if (!evaluateExpression(x, (agg, pct) => aggregationValue(a, agg, elapsed, pct)).ok) {
          run.abort(`thresholds on metric "${t.key.source}" were crossed ('${x.source}', abortOnFail)`);
        }
      }
    }
  }, 1000);
  try {
    await Promise.all(
      script.options.scenarios.map(async (plan) => {
        await sleep(plan.startTimeMs - (performance.now() - runStart));
        if (run.aborted) return;
        const dropped = await runScenario(plan, pool, run, out);
        if (dropped > 0) store.addTagged('dropped_iterations', dropped, { ...plan.tags, scenario: plan.name });
      }),
    );
  } finally {
    clearInterval(monitor);
  }
  return { durationMs: performance.now() - runStart, aborted: run.aborted };
}

/**
 * One scenario: its VUs run the executor's loop themselves (vu-worker.ts); the engine
 * hands out the order, adds arrival-rate VUs while arrivals drop (up to maxVUs), raises
 * the stop flag at the end and interrupts what outlives gracefulStop. Returns the
 * scenario's dropped iterations.
 */
async function runScenario(plan: ScenarioPlan, pool: VuPool, run: RunControl, out: Output): Promise<number> {
  const arrival = isArrivalRate(plan);
  const taken = await pool.take(initialVus(plan));
  if (run.aborted) {
    pool.give(taken);
    return 0;
  }
  const control = run.open();
  const order: RunOrder = {
    kind: 'run',
    plan,
    startAbsMs: sharedNow(),
    startEpochMs: Date.now(),
    control: control.buffer as SharedArrayBuffer,
    firstClaimOnTime: true,
    vuIndex: 0,
  };
  const startedAt = performance.now();
  const mine: Vu[] = [];
  const runs: Promise<void>[] = [];
  let running = 0;
  const launch = (vu: Vu, onTime: boolean) => {
    const vuIndex = mine.length;
    mine.push(vu);
    vu.busy = true;
    running++;
    runs.push(
      vu.run({ ...order, firstClaimOnTime: onTime, vuIndex }).then((r) => {
        vu.busy = false;
        running--;
        if (r.aborted) run.abort(r.aborted);
      }),
    );
  };
  for (const vu of taken) launch(vu, true);
  run.activeVus.set(plan.name, () => (plan.executor === 'ramping-vus' ? Math.min(running, rampingVusAt(plan, performance.now() - startedAt)) : running));

  // Until the scenario's end: arrival-rate VUs grow from preAllocatedVUs towards maxVUs
  // while iterations are dropped for want of a free VU (k6 allocates them mid-test, one
  // at a time: starting many threads at once would take the CPU the running VUs need).
  const endMs = plan.durationMs || plan.maxDurationMs;
  let spawning = false;
  let seenDropped = 0;
  while (!run.aborted && (running > 0 || spawning) && performance.now() - startedAt < endMs) {
    if (arrival) {
      const dropped = Atomics.load(control, CONTROL.dropped);
      if (dropped > seenDropped && mine.length < plan.maxVUs && !spawning) {
        const spare = pool.takeIdle();
        if (spare) launch(spare, false);
        else {
          spawning = true;
          void pool.spawn().then(
            (vu) => {
              spawning = false;
              if (performance.now() - startedAt >= endMs || run.aborted || vu.dead) pool.give([vu]);
              else launch(vu, false);
            },
            (e: Error) => {
              spawning = false;
              out.log('WARN', `scenario ${plan.name}: could not start another VU: ${e.message.split('\n')[0]}`);
            },
          );
        }
      }
      if (!spawning) seenDropped = dropped;
    }
    await sleep(arrival ? 10 : 25);
  }
  RunControl.raise(control, STOP_END);
  // gracefulStop: iterations still running get this long to finish, then are interrupted.
  if (running > 0) {
    const done = await Promise.race([Promise.all(runs).then(() => true), deadline(plan.gracefulStopMs).then(() => false)]);
    if (!done) {
      for (const vu of mine)
        if (vu.busy) {
          out.log('WARN', `scenario ${plan.name}: VU ${vu.id} interrupted after gracefulStop ${plan.gracefulStopMs} ms`);
          await pool.terminate(vu);
        }
    }
  }
  run.close(control);
  run.activeVus.delete(plan.name);
  pool.give(mine);
  let dropped = Atomics.load(control, CONTROL.dropped);
  // Arrivals due before the end that no VU was free to claim by then: dropped too (k6
  // drops them at their time; here nobody looked at them).
  if (arrival && !run.aborted) dropped += Math.max(0, arrivalsDue(plan, plan.durationMs) - Atomics.load(control, CONTROL.claim));
  return dropped;
}

// ---- teardown() ------------------------------------------------------------------------------------

async function teardown(script: Script, pool: VuPool, out: Output): Promise<void> {
  if (!script.functions.includes('teardown')) return;
  const r = await Promise.race([pool.lifecycle('teardown'), deadline(TEARDOWN_TIMEOUT_MS).then(() => ({ error: 'teardown() timed out' }))]);
  if (r.error) out.log('ERRO', `teardown() failed: ${r.error.split('\n')[0]}`);
}

// ---- summary: thresholds, handleSummary, exit code ---------------------------------------------------

async function summary(script: Script, run: RunOutcome, setupJson: string | null, out: Output, cwd: string): Promise<RunResult> {
  const data = buildSummaryData(script.store, script.options.summaryTrendStats, script.thresholds, run.durationMs, setupJson);
  const crossed = crossedThresholds(data);
  const handleSummary = script.exports.handleSummary;
  if (typeof handleSummary === 'function') {
    try {
      const outputs = ((await handleSummary(data)) ?? {}) as Record<string, unknown>;
      for (const [target, content] of Object.entries(outputs)) {
        const text = typeof content === 'string' ? content : JSON.stringify(content);
        if (target === 'stdout') out.stdout(text);
        else if (target === 'stderr') out.stderr(text);
        else {
          // k6 does not create missing directories; the runner does (load/README.md).
          const file = resolve(cwd, target);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
    } catch (e) {
      out.log('ERRO', `handleSummary() failed: ${(e as Error).message}; printing the default summary`);
      out.stdout(defaultSummary(data));
    }
  } else {
    out.stdout(defaultSummary(data));
  }
  if (run.aborted) {
    out.log('ERRO', `test run aborted: ${run.aborted}`);
    return { exitCode: crossed.length ? EXIT.thresholdsFailed : EXIT.scriptAborted, summary: data, error: run.aborted };
  }
  if (crossed.length) {
    out.log('ERRO', `thresholds on metrics '${crossed.join(', ')}' have been crossed`);
    return { exitCode: EXIT.thresholdsFailed, summary: data };
  }
  return { exitCode: EXIT.ok, summary: data };
}
