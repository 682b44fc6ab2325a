/**
 * Helpers for the simulator's in-process unit tests (node:test): build an app with
 * chosen faults, send requests with the simulator's default credentials, parse JSON.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildSimulator, type SimulatorOptions } from './app.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';

export const BASIC = `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${SIMULATOR_DEFAULTS.apiKey}`).toString('base64')}`;
export const TEST_HOST_HEADERS = { 'svc-api-key': SIMULATOR_DEFAULTS.apiKey, 'svc-client-id': SIMULATOR_DEFAULTS.clientId };

export interface Sim {
  app: FastifyInstance;
  /** Platform request with Basic authentication (and an optional Accept-Version). */
  get(url: string, headers?: Record<string, string>): Promise<Res>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  raw(opts: InjectOptions): Promise<Res>;
  close(): Promise<void>;
}

export interface Res {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function wrap(r: { statusCode: number; headers: Record<string, unknown>; body: string }): Res {
  let json: unknown;
  try {
    json = JSON.parse(r.body);
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, headers: r.headers, text: r.body, json };
}

export async function startSim(options: SimulatorOptions = {}): Promise<Sim> {
  // Tests send bursts: the rate limit is off unless a test sets it.
  const app = await buildSimulator({ ...options, settings: { rateLimitPerSecond: 0, ...options.settings } });
  await app.ready();
  const raw = async (opts: InjectOptions) => wrap((await app.inject(opts)) as never);
  return {
    app,
    raw,
    get: (url, headers = {}) => raw({ method: 'GET', url, headers: { authorization: BASIC, ...headers } }),
    post: (url, body, headers = {}) =>
      raw({
        method: 'POST',
        url,
        headers: { authorization: BASIC, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => app.close(),
  };
}

/** Runs fn against a fresh in-process simulator with the named fault in force, then closes it. */
export async function withFault(fault: string, fn: (sim: Sim) => Promise<void>): Promise<void> {
  const sim = await startSim({ faults: [fault] });
  try {
    await fn(sim);
  } finally {
    await sim.close();
  }
}

/** Asserts the one error body of errors.ts: `{error: {status, code, message}}`. */
export function isErrorBody(res: Res, status: number): boolean {
  const e = res.json?.error;
  return res.status === status && e?.status === status && typeof e.code === 'string' && typeof e.message === 'string' && e.message.length > 0;
}
