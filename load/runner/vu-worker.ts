/**
 * One VU: a worker thread that evaluates its own instance of the script (as k6 gives
 * each VU its own JavaScript runtime) and runs a scenario's iterations on order from the
 * engine. HTTP requests are synchronous for the script: the VU posts the request to the
 * engine and blocks on Atomics.wait until the engine has written the response back,
 * which is how k6's blocking `http.get()` semantics are kept on Node.
 *
 * The executor's loop runs here, not in the engine: per scenario the VU gets one order
 * and starts iterations itself (arrival-rate: it claims the next arrival from a counter
 * shared by the scenario's VUs and sleeps until it is due), so an iteration costs no
 * engine round trip; samples go to the engine in batches.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { AbortTestError, ScriptFailure, createK6Modules, instantiate, type VuHost } from './shims.ts';
import { tagKey, type MetricDefinition, type Tags } from './metrics.ts';
import { arrivalTimeMs, rampingVusAt } from './options.ts';
import { CONTROL, STOP_ABORT, sharedNow, type RunDone, type RunOrder, type WireRequest, type WireResponse, type WireSample } from './wire.ts';

export interface VuWorkerData {
  code: string;
  vuId: number;
  env: Record<string, string>;
  discardResponseBodies: boolean;
  httpPort: MessagePort;
  signal: SharedArrayBuffer;
}

const data = workerData as VuWorkerData;
const signal = new Int32Array(data.signal);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const samples: WireSample[] = [];
const newMetrics: MetricDefinition[] = [];
const vuState = { vu: data.vuId, iter: 0, env: data.env };

const host: VuHost = {
  vuId: data.vuId,
  inInit: true,
  stage: 'init',
  vuIterationInInstance: 0,
  discardResponseBodies: data.discardResponseBodies,
  send(requests: WireRequest[]): WireResponse[] {
    Atomics.store(signal, 0, 0);
    for (const r of requests) {
      r.tagKey = tagKey(r.tags!);
      // The engine keeps the tags of a key it has seen: send them once.
      if (sentRequestKeys.has(r.tagKey)) r.tags = undefined;
      else sentRequestKeys.add(r.tagKey);
    }
    data.httpPort.postMessage(requests);
    for (;;) {
      Atomics.wait(signal, 0, 0, 1000);
      const got = receiveMessageOnPort(data.httpPort);
      if (got) return got.message as WireResponse[];
    }
  },
  sleepMs(ms: number) {
    if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
  },
  emit(metric: string, value: number, tags: Tags) {
    samples.push(sample(metric, value, tags));
  },
  defineMetric(def: MetricDefinition) {
    newMetrics.push(def);
  },
  abort(message: string): never {
    throw new AbortTestError(message);
  },
};

const sentKeys = new Set<string>();
const sentRequestKeys = new Set<string>();
function sample(metric: string, value: number, tags: Tags): WireSample {
  const key = tagKey(tags);
  if (sentKeys.has(key)) return [metric, value, key, undefined];
  sentKeys.add(key);
  return [metric, value, key, tags];
}

function errorText(e: unknown): string {
  // A fail() is the script saying what went wrong: its message is the whole report.
  if (e instanceof ScriptFailure) return e.message;
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return String(e);
}

let exportsOfScript: Record<string, unknown>;
try {
  exportsOfScript = instantiate(data.code, createK6Modules(host), vuState);
  host.inInit = false;
  parentPort!.postMessage({ kind: 'ready', metrics: newMetrics.splice(0) });
} catch (e) {
  parentPort!.postMessage({ kind: 'initError', error: errorText(e) });
}

let setupData: unknown;

async function call(name: string, arg: unknown): Promise<unknown> {
  const fn = exportsOfScript[name];
  if (typeof fn !== 'function') throw new Error(`the script exports no function "${name}"`);
  const result = fn(arg);
  return result && typeof (result as Promise<unknown>).then === 'function' ? await result : result;
}

/** Samples go to the engine in batches: at most this old or this many. */
const FLUSH_MS = 200;
const FLUSH_SAMPLES = 4096;
let lastFlush = performance.now();
function flush(force = false): void {
  if (!force && samples.length < FLUSH_SAMPLES && performance.now() - lastFlush < FLUSH_MS) return;
  lastFlush = performance.now();
  if (samples.length || newMetrics.length) parentPort!.postMessage({ kind: 'samples', samples: samples.splice(0), metrics: newMetrics.splice(0) });
}

/** Iterations this VU ran per scenario (exec.vu.iterationInScenario). */
const iterationsByScenario = new Map<string, number>();

/** Runs one iteration; returns the message when the script aborted the test (exec.test.abort). */
async function iteration(o: RunOrder, iterationInTest: number, tags: Tags): Promise<string | undefined> {
  const plan = o.plan;
  const vuIter = iterationsByScenario.get(plan.name) ?? 0;
  iterationsByScenario.set(plan.name, vuIter + 1);
  host.scenario!.iterationInTest = iterationInTest;
  host.scenario!.vuIterationInScenario = vuIter;
  vuState.iter = vuIter;
  const t0 = performance.now();
  let aborted: string | undefined;
  try {
    await call(plan.exec, setupData);
  } catch (e) {
    if (e instanceof AbortTestError) aborted = e.message;
    else parentPort!.postMessage({ kind: 'error', error: errorText(e) });
  }
  samples.push(sample('iterations', 1, tags), sample('iteration_duration', performance.now() - t0, tags));
  host.vuIterationInInstance++;
  flush();
  return aborted;
}

/** Sleeps until `untilAbs` on the shared clock; false when the test is aborted meanwhile. */
function waitUntil(control: Int32Array, untilAbs: number): boolean {
  for (;;) {
    const stop = Atomics.load(control, CONTROL.stop);
    if (stop === STOP_ABORT) return false;
    const left = untilAbs - sharedNow();
    if (left <= 0) return true;
    Atomics.wait(control, CONTROL.stop, stop, left);
  }
}

/** The executor's loop for this VU (k6 semantics per executor), until the scenario ends or stops. */
async function runScenario(o: RunOrder): Promise<RunDone> {
  const plan = o.plan;
  const control = new Int32Array(o.control);
  host.stage = 'iteration';
  host.scenario = { name: plan.name, executor: plan.executor, startTime: o.startEpochMs, tags: plan.tags, iterationInTest: 0, vuIterationInScenario: 0 };
  vuState.env = Object.keys(plan.env).length ? { ...data.env, ...plan.env } : data.env;
  const tags: Tags = { ...plan.tags, scenario: plan.name, group: '' };
  const stopped = () => Atomics.load(control, CONTROL.stop) !== 0;
  let iterations = 0;
  let aborted: string | undefined;
  let first = o.firstClaimOnTime;
  for (;;) {
    if (stopped()) break;
    let iterationInTest: number;
    if (plan.executor === 'constant-arrival-rate' || plan.executor === 'ramping-arrival-rate') {
      const i = Atomics.add(control, CONTROL.claim, 1);
      const due = arrivalTimeMs(plan, i);
      if (due === Infinity) break;
      const dueAbs = o.startAbsMs + due;
      // Claims are taken in order by VUs as they become free, so an arrival claimed after
      // it was due found every VU busy: k6 drops it (dropped_iterations). The first claim
      // of a VU that started with the scenario is exempt (RunOrder.firstClaimOnTime).
      if (!first && sharedNow() > dueAbs) {
        Atomics.add(control, CONTROL.dropped, 1);
        continue;
      }
      first = false;
      // A claimed arrival is due before the scenario's end: it starts even if the end
      // comes first on the engine's clock (this VU woke late); only an abort cancels it.
      if (!waitUntil(control, dueAbs)) break;
      iterationInTest = Atomics.add(control, CONTROL.started, 1);
    } else if (plan.executor === 'shared-iterations') {
      if (sharedNow() >= o.startAbsMs + plan.maxDurationMs) break;
      iterationInTest = Atomics.add(control, CONTROL.claim, 1);
      if (iterationInTest >= plan.iterations) break;
    } else if (plan.executor === 'per-vu-iterations') {
      if (iterations >= plan.iterations || sharedNow() >= o.startAbsMs + plan.maxDurationMs) break;
      iterationInTest = Atomics.add(control, CONTROL.started, 1);
    } else if (plan.executor === 'ramping-vus') {
      const elapsed = sharedNow() - o.startAbsMs;
      if (elapsed >= plan.durationMs) break;
      if (rampingVusAt(plan, elapsed) <= o.vuIndex) {
        // Not one of the VUs the stages ask for now: wait for the next step that asks for
        // it (k6 starts and stops ramping VUs between iterations), or the scenario's end.
        const next = plan.vuSteps.find(([at, n]) => at > elapsed && n > o.vuIndex)?.[0] ?? plan.durationMs;
        if (!waitUntil(control, o.startAbsMs + Math.min(next, plan.durationMs))) break;
        continue;
      }
      iterationInTest = Atomics.add(control, CONTROL.started, 1);
    } else {
      // constant-vus
      if (sharedNow() >= o.startAbsMs + plan.durationMs) break;
      iterationInTest = Atomics.add(control, CONTROL.started, 1);
    }
    iterations++;
    aborted = await iteration(o, iterationInTest, tags);
    if (aborted) break;
  }
  host.scenario = undefined;
  flush(true);
  return { kind: 'done', iterations, aborted };
}

parentPort!.on('message', async (m: RunOrder | { kind: 'data'; json: string | null } | { kind: 'lifecycle'; stage: 'setup' | 'teardown' }) => {
  if (m.kind === 'data') {
    setupData = m.json === null ? undefined : JSON.parse(m.json);
    return;
  }
  if (m.kind === 'lifecycle') {
    host.stage = m.stage;
    host.scenario = undefined;
    let result: unknown;
    let error: string | undefined;
    let aborted: string | undefined;
    try {
      result = await call(m.stage, m.stage === 'teardown' ? setupData : undefined);
    } catch (e) {
      if (e instanceof AbortTestError) aborted = e.message;
      else error = errorText(e);
    }
    const json = m.stage === 'setup' && result !== undefined ? JSON.stringify(result) : null;
    parentPort!.postMessage({ kind: 'lifecycleDone', json, error, aborted, samples: samples.splice(0), metrics: newMetrics.splice(0) });
    return;
  }
  parentPort!.postMessage(await runScenario(m));
});
