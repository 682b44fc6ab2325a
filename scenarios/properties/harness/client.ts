/**
 * The receiver under test, as the property suites see it: a delivery URL per type,
 * optionally the observation API (targets/receiver/README.md), and — for the
 * reference receiver started by the suite — a kill-and-restart.
 *
 *   WEBHOOK_RECEIVER_URL   a user's own receiver; `{type}` in it is replaced by the
 *                          webhook type. Response-level properties run against it.
 *   WEBHOOK_OBSERVE_URL    its observation API, if it implements one (stored-state
 *                          properties are skipped without it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startReceiver, type BrokenVariant, type RunningReceiver } from '../../../targets/index.ts';

export interface ReceiverUnderTest {
  name: string;
  deliveryUrl(type: string): string;
  observeUrl?: string;
  /** kill -9 semantics, then a restart on the same database and port. */
  crashAndRestart?(): Promise<void>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  ms: number;
}

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });

/**
 * A kept-alive connection to a receiver that was killed and restarted is dead; the
 * suite's own transport tries once more on a fresh connection. (A resent delivery is
 * a duplicate, which a receiver must absorb anyway: Events rule 6.)
 */
async function once<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (!/UND_ERR_SOCKET|ECONNRESET|ECONNREFUSED|EPIPE/.test(code)) throw e;
    return fn();
  }
}

export async function post(url: string, body: string): Promise<Answer> {
  return once(async () => {
    const started = performance.now();
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    await res.body.dump();
    return { status: res.statusCode, ms: performance.now() - started };
  });
}

export async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  return once(async () => {
    const res = await request(url, { method: 'GET', dispatcher: agent });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  });
}

export interface ReceiverStats {
  accepted: number;
  processed: number;
  queued: number;
  duplicates_ignored: number;
  processed_more_than_once: number;
  /** With a scope: stored version per object guid. */
  objects?: Record<string, number>;
}

/** Counts once the worker drained its queue; with `scope`, only events about those objects. */
export const settledStats = async (r: ReceiverUnderTest, scope?: { type: string; guidPrefix: string }) =>
  (
    await getJson<ReceiverStats>(
      `${r.observeUrl}/_observe/processed-count?settled=1${scope ? `&type=${encodeURIComponent(scope.type)}&guid_prefix=${encodeURIComponent(scope.guidPrefix)}` : ''}`,
    )
  ).body;

/** Scratch directory for receiver databases: tmpfs when there is one (fsync is cheap there; a kill -9 keeps committed pages either way). */
function scratchDir(): string {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, 'svc-receiver-'));
}

/** Starts the reference receiver in-process (optionally a broken variant). */
export async function startReference(options: { broken?: BrokenVariant; slowMs?: number } = {}): Promise<ReceiverUnderTest> {
  const dir = scratchDir();
  const dbPath = join(dir, 'receiver.sqlite');
  let running: RunningReceiver = await startReceiver({ dbPath, ...options });
  const port = running.port;
  const url = running.url;
  return {
    name: options.broken ? `reference receiver (broken: ${options.broken})` : 'reference receiver',
    deliveryUrl: (type) => `${url}/webhooks/${encodeURIComponent(type)}`,
    observeUrl: url,
    async crashAndRestart() {
      await running.crash();
      running = await startReceiver({ dbPath, port, ...options });
    },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The user's receiver when WEBHOOK_RECEIVER_URL is set, else the reference receiver. */
export async function receiverFromEnv(env = process.env): Promise<ReceiverUnderTest> {
  const url = env.WEBHOOK_RECEIVER_URL;
  if (!url) return startReference();
  return {
    name: `receiver at ${new URL(url).host}`,
    deliveryUrl: (type) => url.replace('{type}', encodeURIComponent(type)),
    observeUrl: env.WEBHOOK_OBSERVE_URL?.replace(/\/$/, ''),
    async close() {},
  };
}

/** Property settings (env): runs per property, the answer bound, a seed to replay. */
export const PROPERTY_SETTINGS = {
  runs: Number(process.env.WEBHOOK_PROPERTY_RUNS ?? 1000),
  responseBoundMs: Number(process.env.WEBHOOK_RESPONSE_BOUND_MS ?? 1000),
  seed: process.env.WEBHOOK_PROPERTY_SEED ? Number(process.env.WEBHOOK_PROPERTY_SEED) : undefined,
};
