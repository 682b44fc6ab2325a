/**
 * Validates a script's exported `options` against what the runner implements
 * (surface.ts) and normalises them into scenario plans. Unknown option keys, executors
 * and executor fields are refused with the list of what is implemented: silently
 * ignoring an option would make a run that looks like k6's but is not.
 */
import { parseDurationMs } from './duration.ts';
import { EXECUTOR_KEYS, SCENARIO_COMMON_KEYS, SUPPORTED_OPTIONS, refusal } from './surface.ts';
import type { Tags } from './metrics.ts';

export interface StagePlan {
  target: number;
  durationMs: number;
}

export interface ScenarioPlan {
  name: string;
  executor: string;
  startTimeMs: number;
  gracefulStopMs: number;
  exec: string;
  env: Record<string, string>;
  tags: Tags;
  rate: number;
  timeUnitMs: number;
  /** Scenario length: duration, or the sum of the stages; 0 for the iteration executors (maxDurationMs bounds them). */
  durationMs: number;
  preAllocatedVUs: number;
  maxVUs: number;
  startRate: number;
  stages: StagePlan[];
  /** VUs of per-vu-iterations, shared-iterations and constant-vus; ramping-vus: the most its stages ask for. */
  vus: number;
  iterations: number;
  maxDurationMs: number;
  /** ramping-vus: [ms from the scenario's start, active VUs from then on], in time order (rampingVuSteps). */
  vuSteps: Array<[number, number]>;
}

export interface RunOptions {
  scenarios: ScenarioPlan[];
  thresholds: Record<string, unknown[]>;
  summaryTrendStats: string[];
  discardResponseBodies: boolean;
}

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
/** k6's defaults for what the runner does not let a script set (setupTimeout, teardownTimeout, maxRedirects). */
export const SETUP_TIMEOUT_MS = 60_000;
export const TEARDOWN_TIMEOUT_MS = 60_000;

function positiveInt(v: unknown, what: string, allowZero = false): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < (allowZero ? 0 : 1)) {
    throw new Error(`${what} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(v)}`);
  }
  return v;
}

function refuseUnknown(obj: Record<string, unknown>, allowed: string[], where: string): void {
  const unknown = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (unknown.length) throw refusal(`${where}: ${unknown.map((k) => `"${k}"`).join(', ')}`, allowed);
}

function stringMap(v: unknown, what: string): Record<string, string> {
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what} must be an object of strings`);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
}

function stagesOf(raw: unknown, where: string): StagePlan[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new Error(`${where}.stages must be a non-empty array of {target, duration}`);
  return raw.map((s: Record<string, unknown>, i: number) => {
    refuseUnknown(s, ['target', 'duration'], `${where}.stages[${i}]`);
    return { target: positiveInt(s.target, `${where}.stages[${i}].target`, true), durationMs: parseDurationMs(s.duration, `${where}.stages[${i}].duration`) };
  });
}

/**
 * ramping-vus: when the number of active VUs changes, as k6 computes its execution steps:
 * over a stage from `from` to `to` VUs lasting d, the count moves by one VU at each
 * multiple of d / |to - from| (so a ramp from 0 starts its first VU after one step).
 */
function rampingVuSteps(startVUs: number, stages: StagePlan[]): Array<[number, number]> {
  const steps: Array<[number, number]> = [[0, startVUs]];
  let from = startVUs;
  let at = 0;
  for (const s of stages) {
    const diff = s.target - from;
    for (let i = 1; i <= Math.abs(diff); i++) steps.push([at + (s.durationMs * i) / Math.abs(diff), from + Math.sign(diff) * i]);
    at += s.durationMs;
    from = s.target;
  }
  return steps;
}

/** Active VUs of a ramping-vus scenario `elapsedMs` after its start. */
export function rampingVusAt(plan: ScenarioPlan, elapsedMs: number): number {
  let vus = 0;
  for (const [at, n] of plan.vuSteps) {
    if (at > elapsedMs) break;
    vus = n;
  }
  return vus;
}

function scenarioPlan(name: string, raw: Record<string, unknown>, functions: string[]): ScenarioPlan {
  const where = `options.scenarios.${name}`;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`${where}: scenario names may contain only letters, digits, "_" and "-"`);
  const executor = raw.executor;
  if (typeof executor !== 'string' || !(executor in EXECUTOR_KEYS))
    throw refusal(`${where}: executor ${JSON.stringify(executor)} is`, Object.keys(EXECUTOR_KEYS));
  refuseUnknown(raw, [...SCENARIO_COMMON_KEYS, ...EXECUTOR_KEYS[executor]], where);
  const exec = raw.exec === undefined ? 'default' : String(raw.exec);
  if (!functions.includes(exec)) throw new Error(`${where}: exec "${exec}" is not a function exported by the script`);
  const plan: ScenarioPlan = {
    name,
    executor,
    startTimeMs: raw.startTime === undefined ? 0 : parseDurationMs(raw.startTime, `${where}.startTime`),
    gracefulStopMs: raw.gracefulStop === undefined ? 30_000 : parseDurationMs(raw.gracefulStop, `${where}.gracefulStop`),
    exec,
    env: stringMap(raw.env, `${where}.env`),
    tags: stringMap(raw.tags, `${where}.tags`),
    rate: 0,
    timeUnitMs: 1000,
    durationMs: 0,
    preAllocatedVUs: 0,
    maxVUs: 0,
    startRate: 0,
    stages: [],
    vus: 1,
    iterations: 1,
    maxDurationMs: 600_000,
    vuSteps: [],
  };
  switch (executor) {
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      plan.timeUnitMs = raw.timeUnit === undefined ? 1000 : parseDurationMs(raw.timeUnit, `${where}.timeUnit`);
      plan.preAllocatedVUs = positiveInt(raw.preAllocatedVUs, `${where}.preAllocatedVUs`);
      plan.maxVUs = raw.maxVUs === undefined ? plan.preAllocatedVUs : positiveInt(raw.maxVUs, `${where}.maxVUs`);
      if (plan.maxVUs < plan.preAllocatedVUs) throw new Error(`${where}: maxVUs (${plan.maxVUs}) is below preAllocatedVUs (${plan.preAllocatedVUs})`);
      if (executor === 'constant-arrival-rate') {
        plan.rate = positiveInt(raw.rate, `${where}.rate`);
        plan.durationMs = parseDurationMs(raw.duration, `${where}.duration`);
      } else {
        plan.startRate = raw.startRate === undefined ? 0 : positiveInt(raw.startRate, `${where}.startRate`, true);
        plan.stages = stagesOf(raw.stages, where);
        plan.durationMs = plan.stages.reduce((t, s) => t + s.durationMs, 0);
      }
      break;
    case 'per-vu-iterations':
    case 'shared-iterations':
      plan.vus = raw.vus === undefined ? 1 : positiveInt(raw.vus, `${where}.vus`);
      plan.iterations = raw.iterations === undefined ? 1 : positiveInt(raw.iterations, `${where}.iterations`);
      plan.maxDurationMs = raw.maxDuration === undefined ? 600_000 : parseDurationMs(raw.maxDuration, `${where}.maxDuration`);
      if (executor === 'shared-iterations' && plan.iterations < plan.vus) plan.vus = plan.iterations;
      break;
    case 'constant-vus':
      plan.vus = raw.vus === undefined ? 1 : positiveInt(raw.vus, `${where}.vus`);
      plan.durationMs = parseDurationMs(raw.duration, `${where}.duration`);
      break;
    case 'ramping-vus': {
      const startVUs = raw.startVUs === undefined ? 1 : positiveInt(raw.startVUs, `${where}.startVUs`, true);
      plan.stages = stagesOf(raw.stages, where);
      plan.durationMs = plan.stages.reduce((t, s) => t + s.durationMs, 0);
      plan.vuSteps = rampingVuSteps(startVUs, plan.stages);
      plan.vus = Math.max(1, ...plan.vuSteps.map(([, n]) => n));
      break;
    }
  }
  return plan;
}

/** Normalises exported options; `functions` lists the script's exported function names. */
export function normaliseOptions(raw: unknown, functions: string[]): RunOptions {
  const o = (raw ?? {}) as Record<string, unknown>;
  if (typeof o !== 'object' || Array.isArray(o)) throw new Error('options must be an object');
  refuseUnknown(o, SUPPORTED_OPTIONS, 'options');
  let scenarios: ScenarioPlan[];
  const shortcut = (executor: string, fields: Record<string, unknown>) => [scenarioPlan('default', { executor, ...fields }, functions)];
  if (o.scenarios !== undefined) {
    if (o.vus !== undefined || o.duration !== undefined || o.iterations !== undefined || o.stages !== undefined) {
      throw new Error('options: "scenarios" cannot be combined with the vus/duration/iterations/stages shortcuts');
    }
    const entries = Object.entries(o.scenarios as Record<string, Record<string, unknown>>);
    if (entries.length === 0) throw new Error('options.scenarios is empty');
    scenarios = entries.map(([name, s]) => scenarioPlan(name, s, functions));
  } else if (o.stages !== undefined) {
    // k6: stages (with vus as the starting VUs) make a ramping-vus scenario.
    scenarios = shortcut('ramping-vus', { startVUs: o.vus ?? 1, stages: o.stages });
  } else if (o.iterations !== undefined) {
    // k6: iterations make a shared-iterations scenario; a duration then bounds it.
    scenarios = shortcut('shared-iterations', { vus: o.vus ?? 1, iterations: o.iterations, ...(o.duration !== undefined ? { maxDuration: o.duration } : {}) });
  } else if (o.duration !== undefined) {
    scenarios = shortcut('constant-vus', { vus: o.vus ?? 1, duration: o.duration });
  } else {
    scenarios = shortcut('shared-iterations', { vus: o.vus ?? 1, iterations: 1 });
  }
  const thresholds: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries((o.thresholds as Record<string, unknown>) ?? {})) thresholds[k] = Array.isArray(v) ? v : [v];
  const trendStats = (o.summaryTrendStats as string[] | undefined) ?? DEFAULT_TREND_STATS;
  for (const s of trendStats) {
    if (!/^(avg|min|med|max|count|p\(\d+(\.\d+)?\))$/.test(s))
      throw new Error(`options.summaryTrendStats: "${s}" is not a trend statistic (avg, min, med, max, count, p(N))`);
  }
  return { scenarios, thresholds, summaryTrendStats: trendStats, discardResponseBodies: o.discardResponseBodies === true };
}

/** Iterations (fractional) an arrival-rate scenario asks for between its start and `elapsedMs` (k6: rate per timeUnit). */
function cumulativeArrivals(plan: ScenarioPlan, elapsedMs: number): number {
  const t = Math.min(Math.max(0, elapsedMs), plan.durationMs);
  if (plan.executor === 'constant-arrival-rate') return (t * plan.rate) / plan.timeUnitMs;
  // ramping-arrival-rate: integrate the piecewise-linear rate.
  let acc = 0;
  let from = plan.startRate;
  let left = t;
  for (const s of plan.stages) {
    if (left <= 0) break;
    const d = Math.min(left, s.durationMs);
    const rateAtD = s.durationMs > 0 ? from + ((s.target - from) * d) / s.durationMs : s.target;
    acc += ((from + rateAtD) / 2) * d;
    left -= d;
    from = s.target;
  }
  return acc / plan.timeUnitMs;
}

/** Iterations an arrival-rate scenario has started by `elapsedMs`: arrival i is due once the integral passes i. */
export function arrivalsDue(plan: ScenarioPlan, elapsedMs: number): number {
  return Math.max(0, Math.ceil(cumulativeArrivals(plan, elapsedMs) - 1e-9));
}

/**
 * When arrival `i` (0-based) of an arrival-rate scenario is due, in ms from the
 * scenario's start (the inverse of arrivalsDue), or Infinity when the scenario asks
 * for fewer than i + 1 iterations. The VUs schedule themselves from this (vu-worker.ts),
 * so no per-iteration message is needed between the engine and a VU.
 */
export function arrivalTimeMs(plan: ScenarioPlan, i: number): number {
  if (plan.executor === 'constant-arrival-rate') {
    const t = (i * plan.timeUnitMs) / plan.rate;
    return t < plan.durationMs ? t : Infinity;
  }
  if (cumulativeArrivals(plan, plan.durationMs) - 1e-9 <= i) return Infinity;
  // The integral is non-decreasing: bisect to 1 µs.
  let lo = 0;
  let hi = plan.durationMs;
  while (hi - lo > 0.001) {
    const mid = (lo + hi) / 2;
    if (cumulativeArrivals(plan, mid) - 1e-9 > i) hi = mid;
    else lo = mid;
  }
  return i === 0 && cumulativeArrivals(plan, 0) > 0 ? 0 : hi;
}
