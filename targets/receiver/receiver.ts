/**
 * The reference webhook receiver (DESIGN.md, "What it is for" 1): what the specification's Events section
 * asks of a receiver, done plainly.
 *
 *   - answers fast: a delivery is parsed, stored durably, then answered 204 (rule 4
 *     recommends 204); processing happens later in a worker (rule 6: "queue work");
 *   - stores what it accepted BEFORE answering (SQLite WAL, synchronous=FULL), in one
 *     transaction per batch of deliveries that arrived together (group commit);
 *   - ignores duplicates but still answers success (rule 6);
 *   - keeps the highest `version` per object (rule 3);
 *   - answers 4xx only for bodies that are not a JSON object (rule 6: "a 4xx only
 *     for truly invalid payloads such as bad JSON"); added fields, nulls, unknown
 *     types and any field order are accepted (rule 2);
 *   - the worker claims and applies queued events transactionally, so a kill at any
 *     moment loses no accepted event and processes none twice after restart.
 *
 * Routes: POST /webhooks/{type} (a URL per type, Events) and POST /webhooks (type from
 * a `type` field, else `unknown`); the observation API under /_observe (README).
 *
 * Broken variants (`broken` option) exist only to prove the property suites.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDocument } from '../../contracts/index.ts';
import { ReceiverStore, type BrokenVariant, type IncomingEvent } from './store.ts';

export interface ReceiverOptions {
  dbPath: string;
  broken?: BrokenVariant;
  /** Delay of the slow-answers variant, ms. */
  slowMs?: number;
  /** Largest body accepted, bytes (a bigger one was not received whole: 413). */
  maxBodyBytes?: number;
}

export interface RunningReceiver {
  url: string;
  port: number;
  store: ReceiverStore;
  /** Graceful stop: drains the worker, closes the database. */
  close(): Promise<void>;
  /**
   * What a kill -9 leaves behind, in-process: connections cut, nothing flushed, no
   * in-memory state kept. Committed rows stay (the OS keeps them even on SIGKILL).
   */
  crash(): Promise<void>;
}

const TYPE_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const WORKER_BATCH = 256;

/** Every property name the platform document shows (for the rejects-added-fields-400 variant only). */
function documentedFieldNames(): Set<string> {
  const names = new Set([
    'action',
    'type',
    'version',
    'guid',
    'member_guid',
    'user_guid',
    'user_id',
    'job_guid',
    'is_background',
    'is_oauth',
    'use_cases',
    'is_being_aggregated',
    'accounts',
    'connection_status',
    'updated_at',
    'created_at',
    'created_on',
  ]);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) for (const name of Object.keys(value)) names.add(name);
      walk(value);
    }
  };
  walk(loadDocument('platform').doc);
  return names;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startReceiver(options: ReceiverOptions & { port?: number; host?: string }): Promise<RunningReceiver> {
  const store = new ReceiverStore(options.dbPath, options.broken);
  const maxBody = options.maxBodyBytes ?? 1_048_576;
  const knownFields = options.broken === 'rejects-added-fields-400' ? documentedFieldNames() : undefined;
  let alive = true;

  // Group commit: deliveries parsed in the same turn of the event loop share one transaction.
  let pending: Array<{ event: IncomingEvent; done: (fresh: boolean | Error) => void }> = [];
  let flushScheduled = false;
  let lossyTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    flushScheduled = false;
    if (!alive || pending.length === 0) return;
    const batch = pending;
    pending = [];
    try {
      const fresh = store.acceptBatch(batch.map((b) => b.event));
      batch.forEach((b, i) => {
        b.done(fresh[i]);
      });
    } catch (e) {
      batch.forEach((b) => {
        b.done(e as Error);
      });
    }
    kickWorker();
  };
  const enqueue = (event: IncomingEvent): Promise<boolean | Error> =>
    new Promise((resolve) => {
      if (options.broken === 'loses-events-on-crash') {
        // BROKEN: answers before storing; a crash within the next 200 ms loses the event.
        pending.push({ event, done: () => undefined });
        lossyTimer ??= setTimeout(() => {
          lossyTimer = undefined;
          flush();
        }, 200);
        resolve(true);
        return;
      }
      pending.push({ event, done: resolve });
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    });

  // The worker: processes queued events in transactional batches until the queue is empty.
  let workerScheduled = false;
  const kickWorker = () => {
    if (workerScheduled || !alive) return;
    workerScheduled = true;
    setImmediate(() => {
      workerScheduled = false;
      if (!alive) return;
      if (store.processBatch(WORKER_BATCH) === WORKER_BATCH) kickWorker();
    });
  };

  const handleDelivery = async (req: IncomingMessage, res: ServerResponse, typeFromPath: string | undefined) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return send(res, 413, { error: 'payload_too_large', message: `The body exceeds ${maxBody} bytes` });
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      // BROKEN: a 5xx makes the vendor retry a payload that can never succeed (rule 4).
      if (options.broken === 'answers-500-to-malformed') return send(res, 500, { error: 'internal' });
      return send(res, 400, { error: 'invalid_json', message: `The body is not valid JSON: ${(e as Error).message}` });
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return send(res, 400, { error: 'invalid_payload', message: 'A webhook body must be a JSON object' });
    }
    const object = body as Record<string, unknown>;
    if (knownFields) {
      const unknown = Object.keys(object).filter((k) => !knownFields.has(k));
      // BROKEN: fails added fields, which Events rule 2 says may appear at any time.
      if (unknown.length) return send(res, 400, { error: 'unknown_fields', message: `Unknown field(s): ${unknown.join(', ')}` });
    }
    if (options.broken === 'rejects-null-fields-400') {
      const nulls = Object.keys(object).filter((k) => object[k] === null);
      // BROKEN: fails a null field, which Events rule 2 allows ("Fields can be null").
      if (nulls.length) return send(res, 400, { error: 'null_fields', message: `Null field(s): ${nulls.join(', ')}` });
    }
    const type = typeFromPath ?? (typeof object.type === 'string' && TYPE_PATTERN.test(object.type) ? object.type : 'unknown');
    const fresh = await enqueue({ type, body: object, raw });
    if (fresh instanceof Error) return send(res, 503, { error: 'storage_unavailable', message: 'Not stored; please retry' });
    if (!fresh && options.broken === 'answers-500-to-duplicates') return send(res, 500, { error: 'duplicate' });
    if (options.broken === 'slow-answers') {
      const wait = (options.slowMs ?? 1_500) - (performance.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    // Events rule 6: duplicates also get a success.
    send(res, 204);
  };

  const handleObserve = (url: URL, res: ServerResponse) => {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent); // ['_observe', ...]
    if (parts[1] === 'objects' && parts.length === 3) {
      const prefix = url.searchParams.get('guid_prefix') ?? '';
      const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 1000) || 1000, 1), 10_000);
      return send(res, 200, { objects: store.objectsWithPrefix(parts[2], prefix, limit) });
    }
    if (parts[1] === 'objects' && parts.length === 4) {
      const obj = store.object(parts[2], parts[3]);
      return obj ? send(res, 200, obj) : send(res, 404, { error: 'not_found', message: `No object ${parts[2]}/${parts[3]} stored` });
    }
    if (parts[1] === 'processed-count' && parts.length === 2) {
      const type = url.searchParams.get('type');
      const prefix = url.searchParams.get('guid_prefix');
      // Scoped to one run's objects, the answer also lists those objects' stored versions
      // (one round trip for a model check).
      const read = () =>
        type && prefix !== null
          ? {
              ...store.statsFor(type, prefix),
              duplicates_ignored: null,
              objects: Object.fromEntries(store.objectsWithPrefix(type, prefix, 1000).map((o) => [o.guid, o.version])),
            }
          : store.stats();
      // ?settled=1 answers once the worker has drained the queue (at most 2 s), so
      // stored-state checks need no polling loop.
      if (url.searchParams.get('settled')) {
        const until = performance.now() + 2_000;
        const poll = () => {
          if (!alive) return send(res, 503, { error: 'unavailable', message: 'The receiver is stopping' });
          const stats = read();
          if (stats.queued === 0 || performance.now() > until) return send(res, 200, stats);
          kickWorker();
          setTimeout(poll, 2);
        };
        return poll();
      }
      return send(res, 200, read());
    }
    if (parts[1] === 'events' && parts.length === 2) {
      const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 1000) || 1000, 1), 10_000);
      const afterId = Number(url.searchParams.get('after_id') ?? 0) || 0;
      return send(res, 200, {
        events: store.events({ type: url.searchParams.get('type') ?? undefined, guid: url.searchParams.get('guid') ?? undefined, limit, afterId }),
      });
    }
    if (parts[1] === 'health' && parts.length === 2) return send(res, 200, { ok: true, broken: options.broken ?? null });
    return send(res, 404, { error: 'not_found', message: `No observation route ${url.pathname}` });
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === '_observe') {
      if (req.method !== 'GET') return send(res, 405, { error: 'method_not_allowed', message: 'The observation API is read-only: use GET' });
      try {
        return handleObserve(url, res);
      } catch (e) {
        return send(res, 503, { error: 'unavailable', message: (e as Error).message });
      }
    }
    if (parts[0] === 'webhooks' && parts.length <= 2) {
      if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed', message: 'Deliver webhooks with POST' });
      const type = parts[1] ? decodeURIComponent(parts[1]) : undefined;
      if (type !== undefined && !TYPE_PATTERN.test(type))
        return send(res, 404, { error: 'not_found', message: 'A webhook type in the path is 1-64 of A-Z a-z 0-9 _ . -' });
      handleDelivery(req, res, type).catch((e) => {
        if (!res.headersSent) send(res, 503, { error: 'unavailable', message: (e as Error).message });
      });
      return;
    }
    send(res, 404, { error: 'not_found', message: 'POST webhooks to /webhooks/{type} or /webhooks; observe under /_observe' });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  kickWorker(); // events queued before a crash are processed after restart
  const stopServer = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store,
    async close() {
      await stopServer();
      flush();
      while (alive && store.processBatch(WORKER_BATCH) > 0);
      alive = false;
      if (lossyTimer) clearTimeout(lossyTimer);
      store.close();
    },
    async crash() {
      alive = false;
      if (lossyTimer) clearTimeout(lossyTimer);
      pending = [];
      await stopServer();
      store.close();
    },
  };
}
