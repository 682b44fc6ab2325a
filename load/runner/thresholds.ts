/**
 * k6 threshold expressions: `<aggregation> <operator> <number>`, for example
 * `p(95)<200`, `rate>0.99`, `count==0`, `avg<=50`, `med<10`, `max<1000`, `value>0`.
 * The aggregations a metric type allows are k6's: counter count/rate, gauge value,
 * rate rate, trend avg/min/max/med/p(N). Anything else is refused, as k6 refuses it.
 *
 * Threshold keys may name a sub-metric by tags: `http_req_duration{scenario:walk,status:200}`.
 */
import { parseDurationMs } from './duration.ts';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type Operator = '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';

export interface ThresholdExpression {
  source: string;
  aggregation: string; // count | rate | value | avg | min | max | med | p(N)
  percentile?: number; // 0..100 for p(N)
  operator: Operator;
  value: number;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
}

export interface ThresholdKey {
  source: string;
  metric: string;
  tags: Record<string, string>;
}

const AGGREGATIONS_BY_TYPE: Record<MetricType, RegExp> = {
  counter: /^(count|rate)$/,
  gauge: /^(value)$/,
  rate: /^(rate)$/,
  trend: /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/,
};

const EXPRESSION = /^\s*(count|rate|value|avg|min|max|med|p\(\s*(\d+(?:\.\d+)?)\s*\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i;

export function parseThresholdKey(key: string): ThresholdKey {
  const m = /^([^{}\s]+)(?:\{([^{}]*)\})?$/.exec(key.trim());
  if (!m) throw new Error(`threshold key "${key}": expected "metric" or "metric{tag:value,...}"`);
  const tags: Record<string, string> = {};
  if (m[2] !== undefined) {
    for (const part of m[2].split(',')) {
      const i = part.indexOf(':');
      if (i <= 0) throw new Error(`threshold key "${key}": tag filter "${part}" is not "name:value"`);
      tags[part.slice(0, i).trim()] = part.slice(i + 1).trim();
    }
  }
  return { source: key, metric: m[1], tags };
}

export function parseThresholdExpression(entry: unknown, key: string): ThresholdExpression {
  let source: string;
  let abortOnFail = false;
  let delayAbortEvalMs = 0;
  if (typeof entry === 'string') source = entry;
  else if (entry && typeof entry === 'object') {
    const o = entry as Record<string, unknown>;
    const unknownKeys = Object.keys(o).filter((k) => !['threshold', 'abortOnFail', 'delayAbortEval'].includes(k));
    if (unknownKeys.length)
      throw new Error(`threshold on "${key}": unsupported field(s) ${unknownKeys.join(', ')} (supported: threshold, abortOnFail, delayAbortEval)`);
    if (typeof o.threshold !== 'string') throw new Error(`threshold on "${key}": "threshold" must be a string expression`);
    source = o.threshold;
    abortOnFail = o.abortOnFail === true;
    if (o.delayAbortEval !== undefined) delayAbortEvalMs = parseDurationMs(o.delayAbortEval, `threshold on "${key}" delayAbortEval`);
  } else {
    throw new Error(`threshold on "${key}": expected a string or {threshold, abortOnFail}, got ${JSON.stringify(entry)}`);
  }
  const m = EXPRESSION.exec(source);
  if (!m) {
    throw new Error(
      `threshold on "${key}": cannot parse "${source}" (expected e.g. "p(95)<200", "rate>0.99", "count<10", "avg<50", "med<20", "max<500", "value>0")`,
    );
  }
  const aggregation = m[2] !== undefined ? `p(${Number(m[2])})` : m[1].toLowerCase();
  const percentile = m[2] !== undefined ? Number(m[2]) : undefined;
  if (percentile !== undefined && (percentile < 0 || percentile > 100)) {
    throw new Error(`threshold on "${key}": percentile ${percentile} is outside 0..100`);
  }
  return { source, aggregation, percentile, operator: m[3] as Operator, value: Number(m[4]), abortOnFail, delayAbortEvalMs };
}

export function checkAggregationAllowed(expr: ThresholdExpression, type: MetricType, key: string): void {
  if (!AGGREGATIONS_BY_TYPE[type].test(expr.aggregation)) {
    throw new Error(
      `threshold on "${key}": "${expr.aggregation}" is not an aggregation of a ${type} metric (allowed: ${String(AGGREGATIONS_BY_TYPE[type])
        .replace(/^\/\^\(|\)\$\/$/g, '')
        .replace(/\\/g, '')})`,
    );
  }
}

function compare(actual: number, op: Operator, expected: number): boolean {
  switch (op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '==':
    case '===':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

/** Aggregated values of a metric, keyed as k6 keys them (`count`, `rate`, `p(95)`, ...). */
export type AggregateLookup = (aggregation: string, percentile?: number) => number;

export function evaluateExpression(expr: ThresholdExpression, lookup: AggregateLookup): { ok: boolean; actual: number } {
  const actual = lookup(expr.aggregation, expr.percentile);
  return { ok: compare(actual, expr.operator, expr.value), actual };
}
