/**
 * k6 duration strings ("500ms", "2s", "1m30s", "1h") and plain numbers (milliseconds),
 * as k6 accepts them in options (startTime, duration, gracefulStop, timeUnit, timeout).
 */
const UNIT_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDurationMs(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`${what}: expected a duration such as "30s", "1m30s" or "500ms", got ${JSON.stringify(value)}`);
  }
  const text = value.trim();
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || consumed === 0) {
    // k6 also accepts a bare number of seconds in a string only for some fields; be strict.
    throw new Error(`${what}: "${text}" is not a duration (use units ms, s, m, h, e.g. "1m30s")`);
  }
  return total;
}
