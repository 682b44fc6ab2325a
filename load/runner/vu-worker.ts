/**
 * One VU: a worker thread that evaluates its own instance of the script (as k6 gives
 * each VU its own JavaScript runtime) and runs iterations on order from the engine.
 * HTTP requests are synchronous for the script: the VU posts the request to the engine
 * and blocks on Atomics.wait until the engine has written the response back, which is
 * how k6's blocking `http.get()` semantics are kept on Node.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { AbortTestError, createK6Modules, instantiate, type VuHost } from './shims.ts';
import { tagKey, type MetricDefinition, type Tags } from './metrics.ts';
import type { IterationOrder, WireRequest, WireResponse, WireSample } from './wire.ts';

interface VuWorkerData {
  code: string;
  vuId: number;
  env: Record<string, string>;
  globalTags: Tags;
  options: Record<string, unknown>;
  testStartMs: number;
  httpDefaults: VuHost['httpDefaults'];
  httpPort: MessagePort;
  signal: SharedArrayBuffer;
}

const data = workerData as VuWorkerData;
const signal = new Int32Array(data.signal);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
let samples: WireSample[] = [];
const newMetrics: MetricDefinition[] = [];
const vuState = { vu: data.vuId, iter: 0, env: data.env };

const host: VuHost = {
  vuId: data.vuId,
  env: data.env,
  inInit: true,
  stage: 'init',
  vuIterationInInstance: 0,
  globalTags: data.globalTags,
  options: data.options,
  testStartMs: data.testStartMs,
  httpDefaults: data.httpDefaults,
  send(requests: WireRequest[]): WireResponse[] {
    Atomics.store(signal, 0, 0);
    for (const r of requests) r.tagKey = tagKey(r.tags);
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
function sample(metric: string, value: number, tags: Tags): WireSample {
  const key = tagKey(tags);
  if (sentKeys.has(key)) return [metric, value, key, undefined];
  sentKeys.add(key);
  return [metric, value, key, tags];
}

function errorText(e: unknown): string {
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

parentPort!.on('message', async (m: IterationOrder | { kind: 'data'; json: string | null } | { kind: 'lifecycle'; stage: 'setup' | 'teardown' }) => {
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
  // An iteration.
  host.stage = 'iteration';
  host.scenario = {
    name: m.scenario,
    executor: m.executor,
    startTime: m.scenarioStartTime,
    tags: m.scenarioTags,
    iterationInTest: m.iterationInScenario,
    vuIterationInScenario: m.vuIterationInScenario,
  };
  vuState.iter = m.vuIterationInScenario;
  vuState.env = Object.keys(m.scenarioEnv).length ? { ...data.env, ...m.scenarioEnv } : data.env;
  host.env = vuState.env;
  const t0 = performance.now();
  let error: string | undefined;
  let aborted: string | undefined;
  try {
    await call(m.exec, setupData);
  } catch (e) {
    if (e instanceof AbortTestError) aborted = e.message;
    else error = errorText(e);
  }
  const tags: Tags = { ...data.globalTags, ...m.scenarioTags, scenario: m.scenario, group: '' };
  samples.push(sample('iterations', 1, tags), sample('iteration_duration', performance.now() - t0, tags));
  host.vuIterationInInstance++;
  parentPort!.postMessage({ kind: 'iterDone', error, aborted, samples: samples.splice(0), metrics: newMetrics.splice(0) });
});
