/**
 * Flaky and slow, seen over nights (reports only: neither ever fails a night; latency is
 * never a verdict, the specification states no response time).
 *
 *   flaky  a scenario whose verdict flips between nights (passed one night, failed another,
 *          or Playwright's own "flaky": failed, then passed on a retry) where no breaking drift
 *          of that night touches an operation it exercised: a change of the target explains
 *          a flip, nothing else does.
 *   slow   an operation whose p95 latency tonight exceeds SLOW_FACTOR times the median of its
 *          p95 over the earlier nights kept (at least SLOW_MIN_NIGHTS of them), by at least
 *          SLOW_MIN_MS: small absolute changes of a fast operation are noise, not a trend.
 */
import type { DriftEvent } from './drift.ts';
import type { Night, ScenarioNight } from './night.ts';

export const SLOW_FACTOR = 2;
const SLOW_MIN_NIGHTS = 3;
const SLOW_MIN_MS = 20;

export interface FlakyScenario {
  name: string;
  project: string;
  /** Outcome per night, oldest first: `{night, outcome}`. */
  history: Array<{ night: string; outcome: ScenarioNight['outcome'] }>;
  /** Flips no drift explains. */
  flips: number;
}

export interface SlowOperation {
  target: string;
  version: string;
  api: string;
  operation: string;
  tonightP95: number;
  medianP95: number;
  nights: number;
  factor: number;
}

const sourceOf = (name: string) => name.split(' › ').slice(1).join(' › ');
const opKey = (o: { api: string; version: string; operation: string }) => `${o.api}|${o.version}|${o.operation}`;

/** The operations each scenario exercised on a night (by its observations' source). */
function exercised(n: Night): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (source: string | undefined, op: string) => {
    if (source === undefined) return;
    let s = out.get(source);
    if (!s) out.set(source, (s = new Set()));
    s.add(op);
  };
  for (const op of n.operations) {
    for (const k of Object.keys(op.requests)) add(n.sources[Number(k.slice(0, k.indexOf('|')))], opKey(op));
    for (const r of Object.values(op.responses)) for (const i of r.s) add(n.sources[i], opKey(op));
  }
  return out;
}

/** Flaky scenarios over `nights` (one target, oldest first) with the drift events of those nights. */
export function flakyScenarios(nights: readonly Night[], drift: readonly DriftEvent[]): FlakyScenario[] {
  const breaking = new Map<string, Set<string>>();
  for (const e of drift) if (e.cls === 'breaking') (breaking.get(e.night) ?? breaking.set(e.night, new Set()).get(e.night)!).add(opKey(e));
  const histories = new Map<string, FlakyScenario>();
  const explainedAt = new Map<string, Map<string, Set<string>>>();
  for (const n of nights) {
    explainedAt.set(n.id, exercised(n));
    for (const s of n.scenarios) {
      if (s.outcome === 'skipped') continue;
      let h = histories.get(s.name);
      if (!h) histories.set(s.name, (h = { name: s.name, project: s.project, history: [], flips: 0 }));
      h.history.push({ night: n.id, outcome: s.outcome });
    }
  }
  const out: FlakyScenario[] = [];
  for (const h of histories.values()) {
    let flips = 0;
    for (let i = 0; i < h.history.length; i++) {
      const cur = h.history[i];
      const prev = h.history[i - 1];
      const flipped = cur.outcome === 'flaky' || (prev && (prev.outcome === 'unexpected') !== (cur.outcome === 'unexpected'));
      if (!flipped) continue;
      const touched = explainedAt.get(cur.night)?.get(sourceOf(h.name)) ?? new Set<string>();
      const changes = breaking.get(cur.night) ?? new Set<string>();
      if ([...touched].some((op) => changes.has(op))) continue;
      flips++;
    }
    if (flips) out.push({ ...h, flips });
  }
  return out.sort((a, b) => b.flips - a.flips || a.name.localeCompare(b.name));
}

/** Operations whose p95 tonight (the last of `nights`) grew beyond SLOW_FACTOR times their median p95 of the earlier nights. */
export function slowOperations(nights: readonly Night[], o: { factor?: number; minNights?: number; minMs?: number } = {}): SlowOperation[] {
  const factor = o.factor ?? SLOW_FACTOR;
  const minNights = o.minNights ?? SLOW_MIN_NIGHTS;
  const minMs = o.minMs ?? SLOW_MIN_MS;
  const tonight = nights.at(-1);
  if (!tonight) return [];
  const out: SlowOperation[] = [];
  for (const op of tonight.operations) {
    if (!op.latency.n) continue;
    const earlier = nights
      .slice(0, -1)
      .map((n) => n.operations.find((x) => opKey(x) === opKey(op))?.latency)
      .filter((l): l is NonNullable<typeof l> => !!l && l.n > 0)
      .map((l) => l.p95)
      .sort((a, b) => a - b);
    if (earlier.length < minNights) continue;
    const median = earlier[Math.floor((earlier.length - 1) / 2)];
    if (op.latency.p95 > factor * median && op.latency.p95 - median >= minMs)
      out.push({
        target: tonight.target,
        version: op.version,
        api: op.api,
        operation: op.operation,
        tonightP95: op.latency.p95,
        medianP95: median,
        nights: earlier.length,
        factor: Math.round((op.latency.p95 / Math.max(median, 0.1)) * 10) / 10,
      });
  }
  return out.sort((a, b) => b.factor - a.factor);
}
