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
import {
  isObservationCounts,
  missingObservationCounts,
  loadProfile,
  notObservationApi,
  OBSERVATION_COUNTS_PATH,
  requestBounded,
  startReceiver,
  type BrokenVariant,
  type HttpBounds,
  type RunningReceiver,
} from '../../../targets/index.ts';

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

/**
 * One read of the observation API is bounded as every read of a target is (targets/http.ts):
 * a user's receiver that stalls or answers without end fails the read, naming the URL and
 * the bound, instead of holding the suite.
 */
const OBSERVE_BOUNDS: HttpBounds = {
  requestMs: 30_000,
  maxBodyBytes: 16 * 1024 * 1024,
  maxBodyBytesFrom: "the property harness's bound of one observation read",
};

async function getJson<T>(url: string): Promise<{ status: number; body: T; text: string }> {
  return once(async () => {
    const res = await requestBounded({ method: 'GET', url, operation: 'the observation API' }, OBSERVE_BOUNDS);
    try {
      return { status: res.status, body: (res.text ? JSON.parse(res.text) : undefined) as T, text: res.text };
    } catch {
      throw new Error(`The observation API answered ${res.status} to GET ${url} with a body that is not JSON: ${res.text.slice(0, 200)}`);
    }
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

/**
 * Counts once the worker drained its queue; with `scope`, only events about those objects.
 * An answer that is not the counts (a wrong WEBHOOK_OBSERVE_URL answers 404) is named as
 * that, not judged as a receiver that lost or doubled deliveries.
 */
export async function settledStats(r: ReceiverUnderTest, scope?: { type: string; guidPrefix: string }): Promise<ReceiverStats> {
  const scoped = scope ? `&type=${encodeURIComponent(scope.type)}&guid_prefix=${encodeURIComponent(scope.guidPrefix)}` : '';
  const read = await getJson<ReceiverStats>(`${r.observeUrl}${OBSERVATION_COUNTS_PATH}?settled=1${scoped}`);
  if (read.status !== 200 || !isObservationCounts(read.body, !!scope))
    throw new Error(
      notObservationApi(
        'WEBHOOK_OBSERVE_URL (webhook-check --observe-url)',
        r.observeUrl ?? '',
        read.status,
        read.text,
        missingObservationCounts(read.body, !!scope),
      ),
    );
  return read.body;
}

/** Scratch directory for receiver databases: tmpfs when there is one (fsync is cheap there; a kill -9 keeps committed pages either way). */
function scratchDir(): string {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, 'svc-receiver-'));
}

/** Starts the reference receiver in-process (optionally a broken variant). */
export async function startReference(options: { broken?: BrokenVariant; slowMs?: number; forgetMs?: number } = {}): Promise<ReceiverUnderTest> {
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

/** The user's receiver when WEBHOOK_RECEIVER_URL is set (read, as every setting, by the profile), else the reference receiver. */
export async function receiverFromEnv(env = process.env): Promise<ReceiverUnderTest> {
  const url = loadProfile(env).webhookReceiverUrl;
  if (!url) return startReference();
  return {
    name: `receiver at ${new URL(url).host}`,
    deliveryUrl: (type) => url.replace('{type}', encodeURIComponent(type)),
    observeUrl: env.WEBHOOK_OBSERVE_URL?.replace(/\/$/, ''),
    async close() {},
  };
}

/** A whole number from `name`, else `fallback`; anything else is refused by name (never NaN runs or a NaN bound). */
export function wholeNumberSetting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${text}"`);
  return n;
}

/** Property settings (env): runs per property, the answer bound, how late the late retry comes, a seed to replay. */
export const PROPERTY_SETTINGS = {
  runs: wholeNumberSetting(process.env, 'WEBHOOK_PROPERTY_RUNS', 1000, 1),
  responseBoundMs: wholeNumberSetting(process.env, 'WEBHOOK_RESPONSE_BOUND_MS', 1000, 1),
  /** How late the late-retry property retries (LateRetry): the example schedule's first retry, and a day's deliveries between is unknowable. */
  lateRetry: {
    afterMs: wholeNumberSetting(process.env, 'WEBHOOK_LATE_RETRY_MS', 30_000, 0),
    deliveriesBetween: wholeNumberSetting(process.env, 'WEBHOOK_LATE_RETRY_BETWEEN', 500, 0),
  },
  seed: process.env.WEBHOOK_PROPERTY_SEED ? wholeNumberSetting(process.env, 'WEBHOOK_PROPERTY_SEED', 0, -(2 ** 31)) : undefined,
};
