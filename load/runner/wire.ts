/** Messages between VU workers and the engine (main thread). */
import type { Tags } from './metrics.ts';
import type { ScenarioPlan } from './options.ts';

export interface WireRequest {
  method: string;
  url: string;
  body: string | null;
  headers: Record<string, string>;
  /** Tags of the request's samples, without status/expected_response (the engine adds those); sent once per tag key by a VU. */
  tags: Tags | undefined;
  /** tagKey(tags), computed by the VU. */
  tagKey: string;
  timeoutMs: number;
  /** [min, max] ranges counted as expected; null: no http_req_failed sample. */
  expected: Array<[number, number]> | null;
  discardBody: boolean;
}

export interface WireTimings {
  duration: number;
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
}

export interface WireResponse {
  status: number;
  url: string;
  /**
   * The response's bytes, moved to the VU and decoded there only when the script reads
   * them: header pairs as `name\0value\0` (headerBytes long), then the body. null when
   * there is no response (status 0).
   */
  raw: ArrayBuffer | null;
  headerBytes: number;
  /** False when the body was discarded (discardResponseBodies, responseType "none"). */
  hasBody: boolean;
  timings: WireTimings;
  error: string;
  errorCode: number;
}

/** A sample as a VU sends it: [metric, value, tag key, tags (only the first time the VU sends that key)]. */
export type WireSample = [string, number, string, Tags | undefined];

/**
 * A scenario handed to a VU: the VU runs the executor's loop itself (vu-worker.ts) until
 * the scenario ends or the engine raises the stop flag, so an iteration costs no message
 * between the engine and the VU. Coordination goes through `control`, shared by every
 * VU of the scenario (indexes: CONTROL).
 */
export interface RunOrder {
  kind: 'run';
  plan: ScenarioPlan;
  /** Scenario start on the shared clock (performance.timeOrigin + performance.now()). */
  startAbsMs: number;
  /** Scenario start, ms since the Unix epoch (exec.scenario.startTime). */
  startEpochMs: number;
  control: SharedArrayBuffer;
  /**
   * The VU's first claim runs even if it is overdue: true for the VUs that start with the
   * scenario (they were free; only the order reached them late), false for VUs added
   * mid-scenario (the arrivals they find overdue had no VU at their time: dropped).
   */
  firstClaimOnTime: boolean;
  /** The VU's place in the scenario (0-based): ramping-vus runs VU i while more than i VUs are asked for. */
  vuIndex: number;
}

/** Int32 slots of a RunOrder's control buffer. */
export const CONTROL = {
  /** Next arrival index (arrival-rate) or next shared iteration (shared-iterations). */
  claim: 0,
  /** STOP_END: claim no more iterations (the scenario's time is over); STOP_ABORT: start none at all. Waiters are notified. */
  stop: 1,
  /** Arrival-rate iterations no VU was free for (dropped_iterations). */
  dropped: 2,
  /** Iterations started in the scenario (exec.scenario.iterationInTest). */
  started: 3,
  length: 4,
} as const;

export const STOP_END = 1;
export const STOP_ABORT = 2;

/** A scenario loop's end, from the VU. */
export interface RunDone {
  kind: 'done';
  iterations: number;
  aborted?: string;
}

/** The shared clock: milliseconds comparable between threads (each has its own performance.now() origin). */
export const sharedNow = (): number => performance.timeOrigin + performance.now();
