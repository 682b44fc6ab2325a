/**
 * Per-instance state of the simulator: settings, a clock tests can move, the faults
 * and variations in force, the in-memory store, and the webhook sink. Route modules
 * receive this object; nothing here is global, so many simulators run in one process
 * (the self-test starts one per catalogue entry).
 */
import { randomUUID } from 'node:crypto';
import type { SimulatorSettings } from './settings.ts';
import { assertKnown, type FaultName, type VariationName } from './catalog.ts';

/**
 * The simulator's clock, and one clock per user that runs ahead of it by what the control
 * POST /_sim/clock {user_guid, advance_ms} added. The domain reads a user's clock (`user`
 * argument) for every instant it stamps on that user's records or judges for its members
 * (created_at, updated_at, aggregated_at, the throttle period, the 24-hour refresh), so a
 * scenario can let time pass for its own user without waiting and without moving the clock
 * that scenarios running in parallel share.
 */
export class SimClock {
  private offsetMs = 0;
  private readonly userOffsetMs = new Map<string, number>();
  constructor(startIso?: string) {
    if (startIso) this.set(startIso);
  }
  /** Now on the simulator's clock, or on the clock of `user`. */
  nowMs(user?: string): number {
    return Date.now() + this.offsetMs + (user === undefined ? 0 : (this.userOffsetMs.get(user) ?? 0));
  }
  now(user?: string): Date {
    return new Date(this.nowMs(user));
  }
  /** Unix epoch seconds (Events rule 1: `_at` fields are whole seconds). */
  nowEpochSeconds(user?: string): number {
    return Math.floor(this.nowMs(user) / 1000);
  }
  /** YYYY-MM-DD (Events rule 1: `_on` fields). */
  today(user?: string): string {
    return this.now(user).toISOString().slice(0, 10);
  }
  /** Moves one user's clock forward (never back: a record's instants only grow). */
  advanceUser(user: string, ms: number): void {
    if (!(ms >= 0)) throw new Error(`advance_ms must be a non-negative number, not ${ms}`);
    this.userOffsetMs.set(user, (this.userOffsetMs.get(user) ?? 0) + ms);
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
