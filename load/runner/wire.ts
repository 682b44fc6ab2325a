/** Messages between VU workers and the engine (main thread). */
import type { Tags } from './metrics.ts';

export interface WireRequest {
  method: string;
  url: string;
  body: string | null;
  headers: Record<string, string>;
  /** Tags of the request's samples, without status/expected_response (the engine adds those). */
  tags: Tags;
  /** tagKey(tags), computed by the VU. */
  tagKey: string;
  timeoutMs: number;
  /** [min, max] ranges counted as expected; null: no http_req_failed sample. */
  expected: Array<[number, number]> | null;
  discardBody: boolean;
  redirects: number;
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
  statusText: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timings: WireTimings;
  error: string;
  errorCode: number;
  proto: string;
}

/** A sample as a VU sends it: [metric, value, tag key, tags (only the first time the VU sends that key)]. */
export type WireSample = [string, number, string, Tags | undefined];

export interface IterationOrder {
  kind: 'iter';
  exec: string;
  scenario: string;
  executor: string;
  scenarioStartTime: number;
  scenarioTags: Tags;
  scenarioEnv: Record<string, string>;
  iterationInScenario: number;
  vuIterationInScenario: number;
}
