/**
 * The runner's engine: k6's test lifecycle (init, setup, scenarios, teardown,
 * handleSummary) over the VU pool, the executors, thresholds and k6's exit codes.
 *
 *   const { exitCode } = await runScript('load/paging.ts', { env: { SVC_BASE_URL: ... } });
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleScript } from './bundle.ts';
import { createK6Modules, instantiate, type VuHost } from './shims.ts';
import { MetricStore, aggregationValue, summaryValues, type MetricDefinition, type Tags } from './metrics.ts';
import { arrivalsDue, normaliseOptions, type RunOptions, type ScenarioPlan } from './options.ts';
import { checkAggregationAllowed, evaluateExpression, parseThresholdExpression, parseThresholdKey, type ThresholdExpression, type ThresholdKey } from './thresholds.ts';
import { HttpClient } from './http-client.ts';
import { Vu, type PoolContext } from './vu-pool.ts';
import { UnsupportedError } from './surface.ts';
import { CONTROL, STOP_ABORT, STOP_END, sharedNow, type RunOrder, type WireSample } from './wire.ts';
import { textSummary, type SummaryData } from '../lib/summary.ts';

/** k6's exit codes (k6 errext/exitcodes). */
export const EXIT = { ok: 0, thresholdsFailed: 99, setupTimeout: 100, invalidConfig: 104, scriptException: 107, scriptAborted: 108 } as const;

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

interface Threshold {
  key: ThresholdKey;
  exprs: ThresholdExpression[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** A timer that bounds a race (maxDuration, gracefulStop, timeouts) and never keeps the process alive. */
const deadline = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

function logLine(level: 'INFO' | 'WARN' | 'ERRO', startMs: number, text: string): string {
  const secs = String(Math.max(0, Math.floor((Date.now() - startMs) / 1000))).padStart(4, '0');
  return `${level}[${secs}] ${text}\n`;
}

export async function runScript(scriptPath: string, params: RunParams = {}): Promise<RunResult> {
  const stdout = params.stdout ?? ((t: string) => process.stdout.write(t));
  const stderr = params.stderr ?? ((t: string) => process.stderr.write(t));
  const bootMs = Date.now();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(params.env ?? process.env)) if (v !== undefined) env[k] = v;

  // ---- init: bundle, evaluate once for options (k6's "init context") ------------------
  let code: string;
  try {
    code = (await bundleScript(resolve(scriptPath))).code;
  } catch (e) {
    const msg = (e as Error).message;
    stderr(logLine('ERRO', bootMs, msg));
    return { exitCode: EXIT.scriptException, error: msg };
  }
  const store = new MetricStore();
  const initHost: VuHost = {
    vuId: 0,
    env,
    inInit: true,
    stage: 'init',
    vuIterationInInstance: 0,
    globalTags: {},
    options: {},
    testStartMs: bootMs,
    httpDefaults: { discardResponseBodies: false, maxRedirects: 10, userAgent: '' },
    send: () => {
      throw new Error('Making http requests in the init context is not supported');
    },
    sleepMs: () => {
      throw new Error('sleep() is not supported in the init context');
    },
    emit: () => {
      throw new Error('metrics cannot be emitted in the init context');
    },
    defineMetric: (d: MetricDefinition) => store.define(d),
    abort: (m: string) => {
      throw new Error(`test aborted in the init context: ${m}`);
    },
  };
  let scriptExports: Record<string, unknown>;
  try {
    scriptExports = instantiate(code, createK6Modules(initHost), { vu: 0, iter: 0, env });
  } catch (e) {
    const msg = (e as Error).stack ?? String(e);
    stderr(logLine('ERRO', bootMs, msg));
    return { exitCode: EXIT.scriptException, error: (e as Error).message };
  }
  const functions = Object.keys(scriptExports).filter((k) => typeof scriptExports[k] === 'function');
  let options: RunOptions;
  const thresholds: Threshold[] = [];
  try {
    options = normaliseOptions(scriptExports.options, functions);
    for (const [key, list] of Object.entries(options.thresholds)) {
      const k = parseThresholdKey(key);
      const def = store.definitions.get(k.metric);
      if (!def) throw new Error(`invalid threshold defined on "${key}": no metric named "${k.metric}" is defined`);
      const exprs = list.map((x) => parseThresholdExpression(x, key));
      for (const x of exprs) checkAggregationAllowed(x, def.type, key);
      thresholds.push({ key: k, exprs });
    }
  } catch (e) {
    const msg = (e as Error).message;
    stderr(logLine('ERRO', bootMs, msg));
    return { exitCode: e instanceof UnsupportedError ? EXIT.invalidConfig : EXIT.invalidConfig, error: msg };
  }
  initHost.options = scriptExports.options as Record<string, unknown>;

  // ---- the VU pool --------------------------------------------------------------------
  const http = new HttpClient(store);
  let aborted: string | undefined;
  const iterationErrors = new Map<string, number>();
  let setupJson: string | null | undefined;
  const testStartMs = Date.now();
  const ctx: PoolContext = {
    code,
    env,
    globalTags: options.tags,
    options: (scriptExports.options ?? {}) as Record<string, unknown>,
    testStartMs,
    httpDefaults: { discardResponseBodies: options.discardResponseBodies, maxRedirects: options.maxRedirects, userAgent: options.userAgent },
    batchConcurrency: Math.min(options.batch, options.batchPerHost || options.batch),
    store,
    http,
    onDefinitions: (defs) => defs.forEach((d) => store.define(d)),
    onSamples: (samples: WireSample[]) => {
      for (const [metric, value, key, tags] of samples) {
        const id = store.tagSets.internKeyed(key, tags);
        // A VU sends the tags of a key once; a key it sent is always known here.
        store.add(metric, value, id);
      }
    },
    onError: (vuId, text) => {
      const first = text.split('\n')[0];
      const n = (iterationErrors.get(first) ?? 0) + 1;
      iterationErrors.set(first, n);
      // Like k6, log every error; repeated identical ones are collapsed after the third.
      if (n <= 3) stderr(logLine('ERRO', testStartMs, `VU ${vuId}: ${text.split('\n').slice(0, 3).join(' | ')}`));
    },
    onAbort: (m) => {
      aborted ??= m;
    },
  };
  let nextVuId = 1;
  const idle: Vu[] = [];
  const all = new Set<Vu>();
  let closed = false;
  const spawn = async (): Promise<Vu> => {
    const vu = await Vu.spawn(nextVuId++, ctx, setupJson);
    if (closed) {
      // Finished starting after the run ended: nothing will use it.
      await vu.terminate();
      return vu;
    }
    all.add(vu);
    return vu;
  };

  const cleanup = async () => {
    closed = true;
    await Promise.all([...all].map((v) => v.terminate()));
    await http.close();
  };

  // k6 initialises VUs before setup(); the pool starts with the largest number of VUs
  // that scenarios starting together ask for, and grows when a scenario needs more.
  const initialNeed = (s: ScenarioPlan) => (s.executor.includes('arrival') ? s.preAllocatedVUs : s.vus);
  const estimatedEnd = (s: ScenarioPlan) => s.startTimeMs + (s.durationMs || 0);
  let peak = 0;
  for (const s of options.scenarios) {
    const overlapping = options.scenarios.filter((o) => o.startTimeMs <= s.startTimeMs && (o === s || estimatedEnd(o) > s.startTimeMs));
    peak = Math.max(peak, overlapping.reduce((n, o) => n + initialNeed(o), 0));
  }
  try {
    idle.push(...(await Promise.all(Array.from({ length: peak }, spawn))));
  } catch (e) {
    await cleanup();
    const msg = (e as Error).message;
    stderr(logLine('ERRO', bootMs, msg));
    return { exitCode: EXIT.scriptException, error: msg };
  }

  // ---- setup() ---------------------------------------------------------------------------
  let lifecycleVu: Vu | undefined;
  if (functions.includes('setup') || functions.includes('teardown')) {
    lifecycleVu = await Vu.spawn(0, ctx, undefined);
    all.add(lifecycleVu);
  }
  if (functions.includes('setup')) {
    const timeout = deadline(options.setupTimeoutMs).then(() => 'timeout' as const);
    const r = await Promise.race([lifecycleVu!.lifecycle('setup'), timeout]);
    if (r === 'timeout') {
      await cleanup();
      const msg = `setup() execution timed out after ${options.setupTimeoutMs / 1000} seconds`;
      stderr(logLine('ERRO', bootMs, msg));
      return { exitCode: EXIT.setupTimeout, error: msg };
    }
    if (r.error || r.aborted) {
      await cleanup();
      const msg = r.aborted ?? r.error!;
      stderr(logLine('ERRO', bootMs, `setup() failed: ${msg.split('\n').slice(0, 3).join(' | ')}`));
      return { exitCode: r.aborted ? EXIT.scriptAborted : EXIT.scriptException, error: msg };
    }
    setupJson = r.json;
  } else {
    setupJson = null;
  }
  for (const vu of all) if (vu !== lifecycleVu) vu.sendData(setupJson);
  lifecycleVu?.sendData(setupJson);

  // ---- scenarios --------------------------------------------------------------------------
  const runStart = performance.now();
  const runStartEpoch = Date.now();
  let stopAll = false;
  let stopAllScenarios = () => {
    stopAll = true;
  };
  const vusBusy = () => [...all].filter((v) => v.busy).length;
  const monitor = setInterval(() => {
    const tags = { ...options.tags };
    store.addTagged('vus', vusBusy(), tags);
    store.addTagged('vus_max', all.size - (lifecycleVu ? 1 : 0), tags);
    const elapsed = performance.now() - runStart;
    for (const t of thresholds) {
      for (const x of t.exprs) {
        if (!x.abortOnFail || elapsed < x.delayAbortEvalMs) continue;
        const a = store.aggregate(t.key.metric, t.key.tags);
        if (!evaluateExpression(x, (agg, pct) => aggregationValue(a, agg, elapsed, pct)).ok) {
          aborted ??= `thresholds on metric "${t.key.source}" were crossed ('${x.source}', abortOnFail)`;
        }
      }
    }
    if (aborted) stopAllScenarios();
  }, 1000);

  // Stop flags of the scenarios running now: raised at their end, on abort and abortOnFail.
  const activeControls = new Set<Int32Array>();
  const raiseStop = (c: Int32Array, how: typeof STOP_END | typeof STOP_ABORT) => {
    if (Atomics.load(c, CONTROL.stop) === STOP_ABORT) return;
    Atomics.store(c, CONTROL.stop, how);
    Atomics.notify(c, CONTROL.stop);
  };
  const stopEverything = () => {
    stopAll = true;
    activeControls.forEach((c) => raiseStop(c, STOP_ABORT));
  };
  stopAllScenarios = stopEverything;

  const runScenario = async (plan: ScenarioPlan): Promise<void> => {
    await sleep(plan.startTimeMs - (performance.now() - runStart));
    if (stopAll || aborted) return;
    const arrival = plan.executor === 'constant-arrival-rate' || plan.executor === 'ramping-arrival-rate';
    // k6 has every VU of a scenario initialised before the scenario starts (arrival-rate:
    // preAllocatedVUs); the engine spawned the peak need up front, the rest start here.
    const need = arrival ? plan.preAllocatedVUs : plan.vus;
    const taken: Vu[] = [];
    while (taken.length < need && idle.length) taken.push(idle.pop()!);
    taken.push(...(await Promise.all(Array.from({ length: need - taken.length }, spawn))));
    if (stopAll || aborted) {
      idle.push(...taken);
      return;
    }
    const control = new Int32Array(new SharedArrayBuffer(CONTROL.length * Int32Array.BYTES_PER_ELEMENT));
    activeControls.add(control);
    const order: RunOrder = { kind: 'run', plan, startAbsMs: sharedNow(), startEpochMs: Date.now(), control: control.buffer as SharedArrayBuffer, firstClaimOnTime: true };
    const lateOrder: RunOrder = { ...order, firstClaimOnTime: false };
    const startedAt = performance.now();
    const mine: Vu[] = [];
    const runs: Promise<void>[] = [];
    let running = 0;
    let scenarioOver = false;
    const launch = (vu: Vu, late = true) => {
      mine.push(vu);
      vu.busy = true;
      running++;
      runs.push(
        vu.run(late ? lateOrder : order).then((r) => {
          vu.busy = false;
          running--;
          if (r.aborted) stopEverything();
        }),
      );
    };
    for (const vu of taken) launch(vu, false);

    // Until the scenario's end: arrival-rate VUs grow from preAllocatedVUs towards maxVUs
    // while iterations are dropped for want of a free VU (k6 allocates them mid-test).
    const endMs = arrival || plan.executor === 'constant-vus' ? plan.durationMs : plan.maxDurationMs;
    let spawning = 0;
    let seenDropped = 0;
    while (!stopAll && (running > 0 || spawning > 0) && performance.now() - startedAt < endMs) {
      if (arrival) {
        const dropped = Atomics.load(control, CONTROL.dropped);
        // Like k6's arrival-rate executor, new VUs are initialised one at a time: starting
        // many threads at once would take the CPU the running VUs need.
        if (dropped > seenDropped && mine.length + spawning < plan.maxVUs) {
          const spare = idle.pop();
          if (spare) launch(spare);
          else if (spawning === 0) {
            spawning++;
            void spawn().then(
              (v) => {
                spawning--;
                if (scenarioOver || stopAll || v.dead) idle.push(v);
                else launch(v);
              },
              (e: Error) => {
                spawning--;
                stderr(logLine('WARN', testStartMs, `scenario ${plan.name}: could not start another VU: ${e.message.split('\n')[0]}`));
              },
            );
          }
        }
        if (spawning === 0) seenDropped = dropped;
      }
      await sleep(arrival ? 10 : 25);
    }
    scenarioOver = true;
    raiseStop(control, STOP_END);
    // gracefulStop: iterations still running get this long to finish, then are interrupted.
    if (running > 0) {
      const settled = Promise.all(runs).then(() => true);
      const done = await Promise.race([settled, deadline(plan.gracefulStopMs).then(() => false)]);
      if (!done) {
        for (const vu of mine) if (vu.busy) {
          stderr(logLine('WARN', testStartMs, `scenario ${plan.name}: VU ${vu.id} interrupted after gracefulStop ${plan.gracefulStopMs} ms`));
          await vu.terminate();
          all.delete(vu);
        }
      }
    }
    activeControls.delete(control);
    let dropped = Atomics.load(control, CONTROL.dropped);
    // Arrivals due before the end that no VU was free to claim by then: dropped too (k6
    // drops them at their time; here nobody looked at them).
    if (arrival && !stopAll) dropped += Math.max(0, arrivalsDue(plan, plan.durationMs) - Atomics.load(control, CONTROL.claim));
    if (dropped > 0) store.addTagged('dropped_iterations', dropped, { ...options.tags, ...plan.tags, scenario: plan.name });
    for (const vu of mine) if (!vu.dead) idle.push(vu);
  };
  await Promise.all(options.scenarios.map(runScenario));
  clearInterval(monitor);
  const testRunDurationMs = performance.now() - runStart;

  // ---- teardown() ---------------------------------------------------------------------------
  if (functions.includes('teardown') && lifecycleVu) {
    const r = await Promise.race([lifecycleVu.lifecycle('teardown'), deadline(options.teardownTimeoutMs).then(() => ({ error: 'teardown() timed out', json: null }))]);
    if ('error' in r && r.error) stderr(logLine('ERRO', testStartMs, `teardown() failed: ${r.error.split('\n')[0]}`));
  }
  await cleanup();

  // ---- thresholds and summary -------------------------------------------------------------------
  const data = buildSummaryData(store, options, thresholds, testRunDurationMs, setupJson);
  const crossed = Object.entries(data.metrics)
    .filter(([, m]) => m.thresholds && Object.values(m.thresholds).some((t) => !t.ok))
    .map(([name]) => name);

  const summaryFn = scriptExports.handleSummary;
  if (typeof summaryFn === 'function') {
    try {
      let out = summaryFn(data);
      if (out && typeof out.then === 'function') out = await out;
      for (const [target, content] of Object.entries((out ?? {}) as Record<string, unknown>)) {
        const text = typeof content === 'string' ? content : JSON.stringify(content);
        if (target === 'stdout') stdout(text);
        else if (target === 'stderr') stderr(text);
        else {
          const file = resolve(params.cwd ?? process.cwd(), target);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
    } catch (e) {
      stderr(logLine('ERRO', testStartMs, `handleSummary() failed: ${(e as Error).message}; printing the default summary`));
      stdout(textSummary(data));
    }
  } else {
    stdout(textSummary(data));
  }
  void runStartEpoch;
  if (aborted) {
    stderr(logLine('ERRO', testStartMs, `test run aborted: ${aborted}`));
    return { exitCode: crossed.length ? EXIT.thresholdsFailed : EXIT.scriptAborted, summary: data, error: aborted };
  }
  if (crossed.length) {
    stderr(logLine('ERRO', testStartMs, `thresholds on metrics '${crossed.join(', ')}' have been crossed`));
    return { exitCode: EXIT.thresholdsFailed, summary: data };
  }
  return { exitCode: EXIT.ok, summary: data };
}

function groupTree(store: MetricStore): SummaryData['root_group'] {
  type G = SummaryData['root_group'];
  const root: G = { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: [] };
  const byPath = new Map<string, G>([['', root]]);
  const groupFor = (path: string): G => {
    let g = byPath.get(path);
    if (g) return g;
    const i = path.lastIndexOf('::');
    const parent = groupFor(path.slice(0, i));
    g = { name: path.slice(i + 2), path, id: path, groups: [], checks: [] };
    parent.groups.push(g);
    byPath.set(path, g);
    return g;
  };
  const counts = new Map<string, { group: string; check: string; passes: number; fails: number }>();
  const checksAgg = store.tagSets.sets;
  // Aggregate checks per (group, check) from the raw samples through per-tag-set filters.
  const seen = new Set<string>();
  for (const tags of checksAgg) {
    if (tags.check === undefined || tags.group === undefined) continue;
    const k = `${tags.group}\u0000${tags.check}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const a = store.aggregate('checks', { group: tags.group, check: tags.check });
    if (a.count === 0) continue;
    counts.set(k, { group: tags.group, check: tags.check, passes: a.nonZero, fails: a.count - a.nonZero });
  }
  for (const c of counts.values()) {
    if (c.group.startsWith('::setup') || c.group.startsWith('::teardown')) continue;
    groupFor(c.group).checks.push({ name: c.check, path: `${c.group}::${c.check}`, id: `${c.group}::${c.check}`, passes: c.passes, fails: c.fails });
  }
  return root;
}

export function buildSummaryData(store: MetricStore, options: RunOptions, thresholds: Threshold[], testRunDurationMs: number, setupJson: string | null | undefined): SummaryData {
  const metrics: SummaryData['metrics'] = {};
  const describe = (name: string, filter: Tags) => {
    const def = store.definitions.get(name)!;
    const a = store.aggregate(name, filter);
    return { a, entry: { type: def.type, contains: def.contains, values: summaryValues(a, options.summaryTrendStats, testRunDurationMs) } };
  };
  for (const name of store.definitions.keys()) {
    if (!store.hasSamples(name)) continue;
    metrics[name] = describe(name, {}).entry;
  }
  for (const t of thresholds) {
    const { a, entry } = describe(t.key.metric, t.key.tags);
    const target = (metrics[t.key.source] ??= entry);
    target.thresholds ??= {};
    for (const x of t.exprs) {
      const { ok } = evaluateExpression(x, (agg, pct) => aggregationValue(a, agg, testRunDurationMs, pct));
      target.thresholds[x.source] = { ok };
      // The threshold's own statistic is shown even when it is not a summaryTrendStat.
      if (a.type === 'trend' && !(x.aggregation in target.values)) target.values[x.aggregation] = aggregationValue(a, x.aggregation, testRunDurationMs, x.percentile);
    }
  }
  return {
    root_group: groupTree(store),
    options: { summaryTrendStats: options.summaryTrendStats, summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: Boolean(process.stdout.isTTY), isStdErrTTY: Boolean(process.stderr.isTTY), testRunDurationMs },
    metrics,
    setup_data: setupJson ? JSON.parse(setupJson) : undefined,
  };
}
