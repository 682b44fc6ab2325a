/**
 * The runner's metric store: k6's four metric types, its built-in metrics, and the
 * aggregations k6 reports (trend percentiles are interpolated as k6's trend sink does).
 * Samples are kept as (value, tag-set id) pairs in growable typed arrays so that any
 * `metric{tag:value}` sub-metric can be aggregated at the end without per-sample objects.
 */
import type { MetricType } from './thresholds.ts';

export type MetricContains = 'default' | 'time' | 'data';

export interface MetricDefinition {
  name: string;
  type: MetricType;
  contains: MetricContains;
}

/**
 * k6's built-in metrics that this runner emits (k6 docs, "Built-in metrics"). Not the
 * socket phases (http_req_blocked, _connecting, _tls_handshaking, _sending): undici does
 * not measure them, and a threshold on one is refused rather than passed on zeros.
 */
const BUILTIN_METRICS: MetricDefinition[] = [
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'data_received', type: 'counter', contains: 'data' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'group_duration', type: 'trend', contains: 'time' },
  { name: 'http_req_duration', type: 'trend', contains: 'time' },
  { name: 'http_req_failed', type: 'rate', contains: 'default' },
  { name: 'http_req_receiving', type: 'trend', contains: 'time' },
  { name: 'http_req_waiting', type: 'trend', contains: 'time' },
  { name: 'http_reqs', type: 'counter', contains: 'default' },
  { name: 'iteration_duration', type: 'trend', contains: 'time' },
  { name: 'iterations', type: 'counter', contains: 'default' },
  { name: 'vus', type: 'gauge', contains: 'default' },
  { name: 'vus_max', type: 'gauge', contains: 'default' },
];

export type Tags = Record<string, string>;

class Growable {
  values = new Float64Array(1024);
  tagIds = new Uint32Array(1024);
  length = 0;
  push(value: number, tagId: number) {
    if (this.length === this.values.length) {
      const v = new Float64Array(this.length * 2);
      v.set(this.values);
      this.values = v;
      const t = new Uint32Array(this.length * 2);
      t.set(this.tagIds);
      this.tagIds = t;
    }
    this.values[this.length] = value;
    this.tagIds[this.length] = tagId;
    this.length++;
  }
}

/** A canonical string of a tag set (sorted names), the identity of a sub-metric series. */
export function tagKey(tags: Tags): string {
  const keys = Object.keys(tags).sort();
  let key = '';
  for (const k of keys) key += `${k}\u0000${tags[k]}\u0001`;
  return key;
}

class TagSets {
  private ids = new Map<string, number>();
  readonly sets: Tags[] = [];
  intern(tags: Tags): number {
    return this.internKeyed(tagKey(tags), tags);
  }
  /** Interns with a key computed elsewhere (by a VU, off the engine's thread). */
  internKeyed(key: string, tags: Tags | undefined): number {
    let id = this.ids.get(key);
    if (id === undefined && !tags) return -1;
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push({ ...tags! });
      this.ids.set(key, id);
    }
    return id;
  }
  matching(filter: Tags): Set<number> {
    const out = new Set<number>();
    this.sets.forEach((t, id) => {
      if (Object.entries(filter).every(([k, v]) => t[k] === v)) out.add(id);
    });
    return out;
  }
}

/** k6's trend-sink percentile: linear interpolation between the closest ranks. */
function percentile(sorted: ArrayLike<number>, pct: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (n === 1) return sorted[0];
  const i = (pct / 100) * (n - 1);
  const lo = sorted[Math.floor(i)];
  const hi = sorted[Math.ceil(i)];
  return lo + (hi - lo) * (i - Math.floor(i));
}

export interface Aggregates {
  type: MetricType;
  count: number;
  sum: number;
  /** Non-zero samples (rate metrics: passes). */
  nonZero: number;
  min: number;
  max: number;
  last: number;
  sorted?: Float64Array;
}

export class MetricStore {
  readonly definitions = new Map<string, MetricDefinition>();
  readonly tagSets = new TagSets();
  private samples = new Map<string, Growable>();

  constructor() {
    for (const d of BUILTIN_METRICS) this.define(d);
  }

  define(def: MetricDefinition): void {
    const existing = this.definitions.get(def.name);
    if (existing) {
      if (existing.type !== def.type) {
        throw new Error(`metric "${def.name}" is already defined as a ${existing.type}; it cannot be redefined as a ${def.type}`);
      }
      return;
    }
    if (!/^[\p{L}\p{N}._ !?/&#()<>%-]{1,128}$/u.test(def.name)) {
      throw new Error(`metric name "${def.name}" is invalid (k6 allows 1-128 letters, digits and ._ !?/&#()<>%-)`);
    }
    this.definitions.set(def.name, def);
    this.samples.set(def.name, new Growable());
  }

  add(metric: string, value: number, tagId: number): void {
    const g = this.samples.get(metric);
    if (!g) throw new Error(`sample for undefined metric "${metric}"`);
    g.push(value, tagId);
  }

  addTagged(metric: string, value: number, tags: Tags): void {
    this.add(metric, value, this.tagSets.intern(tags));
  }

  hasSamples(metric: string): boolean {
    return (this.samples.get(metric)?.length ?? 0) > 0;
  }

  aggregate(metric: string, filter: Tags = {}): Aggregates {
    const def = this.definitions.get(metric);
    if (!def) throw new Error(`no metric named "${metric}"`);
    const g = this.samples.get(metric)!;
    const filtered = Object.keys(filter).length > 0;
    const allowed = filtered ? this.tagSets.matching(filter) : undefined;
    let count = 0;
    let sum = 0;
    let nonZero = 0;
    let min = Infinity;
    let max = -Infinity;
    let last = 0;
    const keep = def.type === 'trend' ? new Float64Array(g.length) : undefined;
    for (let i = 0; i < g.length; i++) {
      if (allowed && !allowed.has(g.tagIds[i])) continue;
      const v = g.values[i];
      if (keep) keep[count] = v;
      count++;
      sum += v;
      if (v !== 0) nonZero++;
      if (v < min) min = v;
      if (v > max) max = v;
      last = v;
    }
    const sorted = keep ? keep.subarray(0, count).sort() : undefined;
    return { type: def.type, count, sum, nonZero, min: count ? min : 0, max: count ? max : 0, last, sorted };
  }
}

/** One aggregation (`count`, `rate`, `value`, `avg`, `min`, `max`, `med`, `p(N)`) of aggregates. */
export function aggregationValue(a: Aggregates, aggregation: string, testDurationMs: number, pct?: number): number {
  switch (a.type) {
    case 'counter':
      if (aggregation === 'count') return a.sum;
      if (aggregation === 'rate') return testDurationMs > 0 ? a.sum / (testDurationMs / 1000) : 0;
      break;
    case 'gauge':
      if (aggregation === 'value') return a.last;
      if (aggregation === 'min') return a.min;
      if (aggregation === 'max') return a.max;
      break;
    case 'rate':
      if (aggregation === 'rate') return a.count ? a.nonZero / a.count : 0;
      if (aggregation === 'passes') return a.nonZero;
      if (aggregation === 'fails') return a.count - a.nonZero;
      break;
    case 'trend':
      if (aggregation === 'avg') return a.count ? a.sum / a.count : 0;
      if (aggregation === 'min') return a.min;
      if (aggregation === 'max') return a.max;
      if (aggregation === 'med') return percentile(a.sorted!, 50);
      if (aggregation === 'count') return a.count;
      if (pct !== undefined || aggregation.startsWith('p(')) {
        const p = pct ?? Number(aggregation.slice(2, -1));
        return percentile(a.sorted!, p);
      }
      break;
  }
  throw new Error(`"${aggregation}" is not an aggregation of a ${a.type} metric`);
}

/** The `values` object of a metric in k6's summary data (handleSummary's `data.metrics[name].values`). */
export function summaryValues(a: Aggregates, trendStats: string[], testDurationMs: number): Record<string, number> {
  switch (a.type) {
    case 'counter':
      return { count: a.sum, rate: aggregationValue(a, 'rate', testDurationMs) };
    case 'gauge':
      return { value: a.last, min: a.min, max: a.max };
    case 'rate':
      return { rate: aggregationValue(a, 'rate', testDurationMs), passes: a.nonZero, fails: a.count - a.nonZero };
    case 'trend': {
      const out: Record<string, number> = {};
      for (const s of trendStats) out[s] = aggregationValue(a, s, testDurationMs);
      return out;
    }
  }
}
