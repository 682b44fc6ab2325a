/**
 * Per-instance state of the simulator: settings, a clock tests can move, the faults
 * and variations in force, the in-memory store, and the webhook sink. Route modules
 * receive this object; nothing here is global, so many simulators run in one process
 * (the self-test starts one per catalogue entry).
 */
import { randomUUID } from 'node:crypto';
import type { SimulatorSettings } from './settings.ts';
import { assertKnown, type FaultName, type VariationName } from './catalog.ts';

export class SimClock {
  private offsetMs = 0;
  constructor(startIso?: string) {
    if (startIso) this.set(startIso);
  }
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  now(): Date {
    return new Date(this.nowMs());
  }
  /** Unix epoch seconds (Events rule 1: `_at` fields are whole seconds). */
  nowEpochSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
  /** YYYY-MM-DD (Events rule 1: `_on` fields). */
  today(): string {
    return this.now().toISOString().slice(0, 10);
  }
  set(iso: string): void {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) throw new Error(`Invalid clock time "${iso}"`);
    this.offsetMs = t - Date.now();
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** A webhook the simulator's behaviour produced (Events). Delivery is targets/simulator/webhooks. */
export interface WebhookEvent {
  /** Webhook type, e.g. `member`, `aggregation`, `connection_status`. */
  type: string;
  body: Record<string, unknown>;
}

export interface WebhookSink {
  emit(event: WebhookEvent, options?: { skip?: boolean }): void;
}

/** Keeps every emitted event in memory; the default until a dispatcher is attached. */
export class RecordingWebhookSink implements WebhookSink {
  readonly events: WebhookEvent[] = [];
  readonly skipped: WebhookEvent[] = [];
  emit(event: WebhookEvent, options?: { skip?: boolean }): void {
    (options?.skip ? this.skipped : this.events).push(event);
  }
}

export type Guid = string;

export interface SimContext {
  settings: SimulatorSettings;
  clock: SimClock;
  faults: ReadonlySet<string>;
  variations: ReadonlySet<string>;
  /** True when the named fault is in force. Call sites name the exact deviation. */
  fault(name: FaultName): boolean;
  variation(name: VariationName): boolean;
  /** A fresh identifier in the specification's shape (`USR-<uuid>` ...). */
  guid(prefix: string): Guid;
  webhooks: WebhookSink;
  /**
   * The in-memory store. Each route module keeps its collections here under its own
   * key (ctx.store.get('members') ...), so modules share data only deliberately.
   */
  store: Map<string, unknown>;
  /** Typed access to a store collection, created on first use. */
  collection<T>(name: string): Map<string, T>;
  /** Timers the simulator started (aggregation jobs, webhook retries); cleared on close. */
  timers: Set<NodeJS.Timeout>;
  later(ms: number, fn: () => void): void;
}

export function createContext(settings: SimulatorSettings, faults: string[] = [], variations: string[] = []): SimContext {
  assertKnown([...faults, ...variations]);
  const faultSet = new Set(faults);
  const variationSet = new Set(variations);
  const store = new Map<string, unknown>();
  const timers = new Set<NodeJS.Timeout>();
  const ctx: SimContext = {
    settings,
    clock: new SimClock(settings.now),
    faults: faultSet,
    variations: variationSet,
    fault: (n) => faultSet.has(n),
    variation: (n) => variationSet.has(n),
    guid: (prefix) =>
      variationSet.has('longer-opaque-identifiers') && !['USR', 'MBR', 'ACT'].includes(prefix)
        ? `${prefix}-${randomUUID()}-${randomUUID().slice(0, 8)}`
        : `${prefix}-${randomUUID()}`,
    webhooks: new RecordingWebhookSink(),
    store,
    collection<T>(name: string) {
      let c = store.get(name) as Map<string, T> | undefined;
      if (!c) {
        c = new Map<string, T>();
        store.set(name, c);
      }
      return c;
    },
    timers,
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      t.unref?.();
      timers.add(t);
    },
  };
  return ctx;
}
