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
 *   - answers 4xx only for requests that can never succeed, such as a body that is not
 *     a JSON object (rule 6: "a 4xx only for truly invalid payloads such as bad JSON");
 *     added fields, nulls, unknown types and any field order are accepted (rule 2);
 *   - the worker claims and applies queued events transactionally, so a kill at any
 *     moment loses no accepted event and processes none twice after restart;
 *   - survives any single request: every request gets an answer in bounds or a closed
 *     connection, never a crash or a wait without end. A request that can never succeed
 *     (malformed percent-encoding, a body too large, too deep, not UTF-8, not JSON) gets
 *     a 4xx; a 5xx only when the store cannot take a delivery right now (rule 6: "return
 *     an error status only when a payload was not received"). One delivery never fails
 *     another: they share a commit, and a shared commit that fails is retried one
 *     delivery per transaction (store.ts acceptBatch).
 *
 * Routes: POST /webhooks/{type} (a URL per type, Events) and POST /webhooks (type from
 * a `type` field, else `unknown`); the observation API under /_observe (README).
 *
 * Broken variants (`broken` option) exist only to prove the property suites.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { loadDocument } from '../../contracts/index.ts';
import { prepareDelivery, ReceiverStore, type BrokenVariant, type PreparedDelivery } from './store.ts';

export interface ReceiverOptions {
  dbPath: string;
  broken?: BrokenVariant;
  /** Delay of the slow-answers variant, ms. */
  slowMs?: number;
  /** How long the forgets-duplicates-after-a-while variant keeps a delivery's key, ms. */
  forgetMs?: number;
  /** Largest body accepted, bytes (a bigger one was not received whole: 413). */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects accepted (RFC 8259 §9 lets a parser limit it; deeper: 400). */
  maxDepth?: number;
  /** Time for a whole request (headers and body) to arrive, ms; later: 408 and the connection closed. */
  requestTimeoutMs?: number;
}

/** The bounds a receiver started without options applies (README, "Bounds and statuses"). */
export const RECEIVER_BOUNDS = {
  maxBodyBytes: 1_048_576,
  maxDepth: 512,
  requestTimeoutMs: 30_000,
} as const;

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

/**
 * Whether the request announced a body (RFC 9112 §6.3) that has not been read to its end.
 * Answered without reading it, the connection is closed after the answer: node would
 * otherwise read and discard the rest to reuse the connection, however long it is.
 */
function bodyLeftUnread(req: IncomingMessage): boolean {
  const announced = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  return announced && !req.complete;
}

/**
 * The most a lingering close reads and drops, and for how long (RFC 9112 §9.6). The bytes
 * cover what the two ends' kernel socket buffers hold when the answer goes out (Linux
 * grows them to 4 MiB for sending and 6 MiB for receiving by default): a client still
 * writing reads its answer before the drop budget runs out and the connection is reset.
 */
const LINGER_BYTES = 32 * 1_048_576;
const LINGER_MS = 30_000;

/**
 * RFC 9112 §9.6 (Tear-down): a connection closed at once while its client still sends
 * makes the client's TCP stack reset it, and the reset can erase the answer before the
 * client reads it. So after an answer given before the body was read, the connection is
 * closed in stages: the write side first (node ends a `connection: close` answer's socket
 * through destroySoon, replaced here for this one socket), then what still arrives is read
 * and dropped until the client stops, LINGER_BYTES were dropped or LINGER_MS passed, and
 * only then the socket is closed. Nothing dropped is kept or parsed as JSON, and a body
 * announced past the bound is never read beyond that budget.
 */
function lingerThenClose(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  req.resume(); // flowing with no reader: what the parser hands on is dropped
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  socket.destroySoon = () => {
    socket.end();
    timer = setTimeout(close, LINGER_MS);
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  // A client that went away, or an answer already given (a settled-poll outliving its
  // connection): nothing left to answer, and writing would fail.
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  if (bodyLeftUnread(res.req)) {
    res.setHeader('connection', 'close');
    lingerThenClose(res.req);
  }
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Path segments, percent-decoded; undefined when one is malformed (RFC 3986 §2.1: "%" then two hex digits, decoding to UTF-8). */
function pathSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without parsing
 * (brackets inside strings skipped) and stopping once past `stopAbove`: a body nested
 * past the bound is refused before it is parsed, keyed or stored (RFC 8259 §9: "An
 * implementation may set limits on the maximum depth of nesting").
 */
function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

type BodyRead = { kind: 'read'; bytes: Buffer } | { kind: 'too_large' } | { kind: 'aborted' };

/**
 * Reads a request body up to `max` bytes. Past the bound it stops at once and says so
 * (nothing more is kept; the 413's lingering close drops what still arrives); a client
 * that goes away first ends the read as `aborted`.
 */
function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        finish({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ kind: 'read', bytes: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => finish(req.complete ? { kind: 'read', bytes: Buffer.concat(chunks, size) } : { kind: 'aborted' }));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Group commit and the worker. Deliveries parsed in the same turn of the event loop share one
 * transaction; the worker then processes queued events in transactional batches until the
 * queue is empty.
 */
class AcceptPipeline {
  /** False once the receiver stops or crashes: nothing more is stored or processed. */
  alive = true;
  #pending: Array<{ delivery: PreparedDelivery; done: (fresh: boolean | Error) => void }> = [];
  #flushScheduled = false;
  #lossyTimer: NodeJS.Timeout | undefined;
  #workerScheduled = false;
  #workerRetry: NodeJS.Timeout | undefined;

  readonly #store: ReceiverStore;
  readonly #broken: BrokenVariant | undefined;

  constructor(store: ReceiverStore, broken: BrokenVariant | undefined) {
    this.#store = store;
    this.#broken = broken;
  }

  flush(): void {
    this.#flushScheduled = false;
    if (!this.alive || this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    // acceptBatch answers per delivery (a failed shared commit is retried one delivery at a time).
    const fresh = this.#store.acceptBatch(batch.map((b) => b.delivery));
    batch.forEach((b, i) => {
      b.done(fresh[i]);
    });
    this.kickWorker();
  }

  /** Stores the delivery with the others of this turn: true when it is new, false for a duplicate, an Error when not stored. */
  enqueue(delivery: PreparedDelivery): Promise<boolean | Error> {
    return new Promise((resolve) => {
      if (this.#broken === 'loses-events-on-crash') {
        // BROKEN: answers before storing; a crash within the next 200 ms loses the event.
        this.#pending.push({ delivery, done: () => undefined });
        this.#lossyTimer ??= setTimeout(() => {
          this.#lossyTimer = undefined;
          this.flush();
        }, 200);
        resolve(true);
        return;
      }
      this.#pending.push({ delivery, done: resolve });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  kickWorker(): void {
    if (this.#workerScheduled || !this.alive) return;
    this.#workerScheduled = true;
    setImmediate(() => {
      this.#workerScheduled = false;
      if (!this.alive) return;
      let processed: number;
      try {
        processed = this.#store.processBatch(WORKER_BATCH);
      } catch {
        // The batch rolled back and its events stay queued (none lost, none applied
        // twice); the worker tries again shortly rather than ending the process.
        this.#workerRetry ??= setTimeout(() => {
          this.#workerRetry = undefined;
          this.kickWorker();
        }, 100);
        return;
      }
      if (processed === WORKER_BATCH) this.kickWorker();
    });
  }

  /** Graceful stop: stores what is pending and processes the whole queue. */
  drain(): void {
    this.flush();
    while (this.alive && this.#store.processBatch(WORKER_BATCH) > 0);
    this.alive = false;
    this.#clearTimers();
  }

  /** What a kill -9 leaves: nothing pending kept, nothing more stored or processed. */
  abandon(): void {
    this.alive = false;
    this.#clearTimers();
    this.#pending = [];
  }

  #clearTimers(): void {
    if (this.#lossyTimer) clearTimeout(this.#lossyTimer);
    if (this.#workerRetry) clearTimeout(this.#workerRetry);
  }
}

/** What every request handler of one receiver reads: its options, bounds, store and pipeline. */
interface Receiver {
  options: ReceiverOptions;
  store: ReceiverStore;
  pipeline: AcceptPipeline;
  maxBody: number;
  maxDepth: number;
  /** The 413's body. */
  tooLarge: { error: string; message: string };
  /** The documented field names, for the rejects-added-fields-400 variant only. */
  knownFields?: Set<string>;
}

export async function startReceiver(options: ReceiverOptions & { port?: number; host?: string }): Promise<RunningReceiver> {
  const store = new ReceiverStore(options.dbPath, options.broken, options.forgetMs);
  const maxBody = options.maxBodyBytes ?? RECEIVER_BOUNDS.maxBodyBytes;
  const receiver: Receiver = {
    options,
    store,
    pipeline: new AcceptPipeline(store, options.broken),
    maxBody,
    maxDepth: options.maxDepth ?? RECEIVER_BOUNDS.maxDepth,
    tooLarge: { error: 'payload_too_large', message: `The body exceeds ${maxBody} bytes` },
    knownFields: options.broken === 'rejects-added-fields-400' ? documentedFieldNames() : undefined,
  };
  const server = createReceiverServer(receiver, options.requestTimeoutMs ?? RECEIVER_BOUNDS.requestTimeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (e) {
    // A port already taken: the store opened for it is closed, its file left as it was.
    store.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  receiver.pipeline.kickWorker(); // events queued before a crash are processed after restart
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
      receiver.pipeline.drain();
      store.close();
    },
    async crash() {
      receiver.pipeline.abandon();
      await stopServer();
      store.close();
    },
  };
}

/** The HTTP server of a receiver, not yet listening: its bounds, its routes, and what node would otherwise answer itself. */
function createReceiverServer(receiver: Receiver, requestTimeoutMs: number): Server {
  const server: Server = createServer(
    {
      // The whole request within the bound, else node answers 408 and closes: a client
      // that announces a body and stops sending holds a connection no longer than this.
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // How often node checks those deadlines (its default, 30 s, would let a short bound run long).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
    },
    (req, res) => {
      try {
        route(receiver, req, res);
      } catch (e) {
        send(res, 500, { error: 'internal', message: (e as Error).message });
      }
    },
  );
  // RFC 9110 §10.1.1: a client that sent Expect: 100-continue waits before sending its
  // body; one announced over the bound gets the final 413 instead of the 100.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (announcedTooLarge(req, receiver.maxBody)) return send(res, 413, receiver.tooLarge);
    res.writeContinue();
    server.emit('request', req, res);
  });
  // CONNECT asks for a tunnel (RFC 9110 §9.3.6), which a receiver never opens: a 405, then
  // the connection closed. Node hands the socket over bare, so its errors are caught here.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nallow: POST, GET\r\nconnection: close\r\ncontent-length: 0\r\n\r\n', () => socket.destroy());
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Whether the request announces a body over the bound: answered 413 at once, before reading any of it. */
function announcedTooLarge(req: IncomingMessage, maxBody: number): boolean {
  const announced = req.headers['content-length'];
  return announced !== undefined && Number(announced) > maxBody;
}

function route(receiver: Receiver, req: IncomingMessage, res: ServerResponse) {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://receiver');
  } catch {
    return send(res, 400, { error: 'bad_request', message: 'The request target is not a URL path' });
  }
  const parts = pathSegments(url.pathname);
  if (!parts) return send(res, 400, { error: 'bad_path', message: 'The path has a malformed percent-encoding (RFC 3986 §2.1)' });
  if (parts[0] === '_observe') {
    if (req.method !== 'GET') return send(res, 405, { error: 'method_not_allowed', message: 'The observation API is read-only: use GET' }, { allow: 'GET' });
    try {
      return handleObserve(receiver, url, parts, res);
    } catch (e) {
      return send(res, 503, { error: 'unavailable', message: (e as Error).message });
    }
  }
  if (parts[0] === 'webhooks' && parts.length <= 2) {
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed', message: 'Deliver webhooks with POST' }, { allow: 'POST' });
    const type = parts[1];
    if (type !== undefined && !TYPE_PATTERN.test(type))
      return send(res, 404, { error: 'not_found', message: 'A webhook type in the path is 1-64 of A-Z a-z 0-9 _ . -' });
    if (announcedTooLarge(req, receiver.maxBody)) return send(res, 413, receiver.tooLarge);
    handleDelivery(receiver, req, res, type).catch((e) => {
      // Not the store (its failures are answered 503 above): a fault of the receiver's own code.
      send(res, 500, { error: 'internal', message: (e as Error).message });
    });
    return;
  }
  send(res, 404, { error: 'not_found', message: 'POST webhooks to /webhooks/{type} or /webhooks; observe under /_observe' });
}

/** A refusal: the status and body a delivery is answered with instead of being stored. */
type Refusal = { status: number; body: unknown };

async function handleDelivery(receiver: Receiver, req: IncomingMessage, res: ServerResponse, typeFromPath: string | undefined): Promise<void> {
  const { options } = receiver;
  const started = performance.now();
  const read = await readBody(req, receiver.maxBody);
  // The client went away before its payload arrived: not received, and no one to answer.
  if (read.kind === 'aborted') return;
  if (read.kind === 'too_large') return send(res, 413, receiver.tooLarge);
  const parsed = parseDelivery(receiver, read.bytes, typeFromPath);
  if ('status' in parsed) return send(res, parsed.status, parsed.body);
  const fresh = await receiver.pipeline.enqueue(parsed);
  if (fresh instanceof Error) return send(res, 503, { error: 'storage_unavailable', message: 'Not stored; please retry' });
  if (!fresh && options.broken === 'answers-500-to-duplicates') return send(res, 500, { error: 'duplicate' });
  if (options.broken === 'slow-answers') {
    const wait = (options.slowMs ?? 1_500) - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  // Events rule 6: duplicates also get a success.
  send(res, 204);
}

/**
 * A delivery ready to store from the bytes of its body, or the refusal of a body that can
 * never succeed (rule 6: "a 4xx only for truly invalid payloads such as bad JSON"): not
 * UTF-8, nested too deep, not JSON, not an object, or not keyable.
 */
function parseDelivery(receiver: Receiver, bytes: Buffer, typeFromPath: string | undefined): PreparedDelivery | Refusal {
  const { options, maxDepth } = receiver;
  // BROKEN (answers-500-to-malformed): a 5xx makes the vendor retry a payload that can never succeed (rule 4).
  const malformed = (body: unknown): Refusal =>
    options.broken === 'answers-500-to-malformed' ? { status: 500, body: { error: 'internal' } } : { status: 400, body };
  let raw: string;
  try {
    raw = utf8.decode(bytes);
  } catch {
    return malformed({ error: 'invalid_json', message: 'The body is not UTF-8 (RFC 8259 §8.1: JSON text is exchanged as UTF-8)' });
  }
  if (nestingDepth(raw, maxDepth) > maxDepth)
    return malformed({ error: 'too_deep', message: `The body nests arrays and objects deeper than ${maxDepth} levels` });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    return malformed({ error: 'invalid_json', message: `The body is not valid JSON: ${(e as Error).message}` });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { status: 400, body: { error: 'invalid_payload', message: 'A webhook body must be a JSON object' } };
  }
  const object = body as Record<string, unknown>;
  const refused = brokenFieldRefusal(receiver, object);
  if (refused) return refused;
  const type = typeFromPath ?? (typeof object.type === 'string' && TYPE_PATTERN.test(object.type) ? object.type : 'unknown');
  try {
    return prepareDelivery({ type, body: object, raw });
  } catch (e) {
    // Keying reads only the payload: a payload it fails on fails on every retry, so a 4xx (rule 6).
    return { status: 400, body: { error: 'invalid_payload', message: `The payload cannot be keyed: ${(e as Error).message}` } };
  }
}

/** The broken variants' refusals of what Events rule 2 allows: added fields, null fields. */
function brokenFieldRefusal({ options, knownFields }: Receiver, object: Record<string, unknown>): Refusal | undefined {
  if (knownFields) {
    const unknown = Object.keys(object).filter((k) => !knownFields.has(k));
    // BROKEN: fails added fields, which Events rule 2 says may appear at any time.
    if (unknown.length) return { status: 400, body: { error: 'unknown_fields', message: `Unknown field(s): ${unknown.join(', ')}` } };
  }
  if (options.broken === 'rejects-null-fields-400') {
    const nulls = Object.keys(object).filter((k) => object[k] === null);
    // BROKEN: fails a null field, which Events rule 2 allows ("Fields can be null").
    if (nulls.length) return { status: 400, body: { error: 'null_fields', message: `Null field(s): ${nulls.join(', ')}` } };
  }
  return undefined;
}

/** The observation API (README): parts are the decoded path segments, ['_observe', ...]. */
function handleObserve(receiver: Receiver, url: URL, parts: string[], res: ServerResponse) {
  const { store } = receiver;
  if (parts[1] === 'objects' && parts.length === 3) {
    const prefix = url.searchParams.get('guid_prefix') ?? '';
    const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 1000) || 1000, 1), 10_000);
    return send(res, 200, { objects: store.objectsWithPrefix(parts[2], prefix, limit) });
  }
  if (parts[1] === 'objects' && parts.length === 4) {
    const obj = store.object(parts[2], parts[3]);
    return obj ? send(res, 200, obj) : send(res, 404, { error: 'not_found', message: `No object ${parts[2]}/${parts[3]} stored` });
  }
  if (parts[1] === 'processed-count' && parts.length === 2) return answerProcessedCount(receiver, url, res);
  if (parts[1] === 'events' && parts.length === 2) {
    const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 1000) || 1000, 1), 10_000);
    const afterId = Number(url.searchParams.get('after_id') ?? 0) || 0;
    return send(res, 200, {
      events: store.events({ type: url.searchParams.get('type') ?? undefined, guid: url.searchParams.get('guid') ?? undefined, limit, afterId }),
    });
  }
  if (parts[1] === 'health' && parts.length === 2) return send(res, 200, { ok: true, broken: receiver.options.broken ?? null });
  return send(res, 404, { error: 'not_found', message: `No observation route ${url.pathname}` });
}

/**
 * Where the observation API's counts answer, below its base URL (README, "Observation API"):
 * what the property harness reads and webhook-check's preflight asks before any property.
 */
export const OBSERVATION_COUNTS_PATH = '/_observe/processed-count';

/** An answer of OBSERVATION_COUNTS_PATH: its `accepted` and `processed` counts are numbers. */
export function isObservationCounts(body: unknown, scoped = false): boolean {
  return missingObservationCounts(body, scoped).length === 0;
}

/** The counts the property suites read: the answer's own three, and `objects` on a scoped read. */
const OBSERVATION_COUNTS = ['accepted', 'processed', 'processed_more_than_once'] as const;

/** The counts an answer lacks (a name for each, so a team's observation API learns what to add). */
export function missingObservationCounts(body: unknown, scoped = false): string[] {
  const counts = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const missing: string[] = OBSERVATION_COUNTS.filter((k) => typeof counts[k] !== 'number');
  if (scoped && (typeof counts.objects !== 'object' || counts.objects === null || Array.isArray(counts.objects))) missing.push('objects');
  return missing;
}

/**
 * What a base URL that is not the observation API's is told: the answer it gave, and where
 * the counts are looked for. `setting` names where the URL came from.
 */
export function notObservationApi(setting: string, base: string, status: number, text: string, missing: readonly string[] = []): string {
  const lacks = status === 200 && missing.length ? ` (it lacks ${missing.join(', ')})` : '';
  return `${setting} ${base} is not the base URL of an observation API: GET ${base}${OBSERVATION_COUNTS_PATH} answered ${status} ${JSON.stringify(text.slice(0, 120))}, not its counts ({accepted, processed, processed_more_than_once} as numbers; with ?type=&guid_prefix= also objects: {guid: version})${lacks}. Give the URL below which ${OBSERVATION_COUNTS_PATH} answers (targets/receiver/README.md, "Observation API").`;
}

/** GET /_observe/processed-count: the store's counts, or one run's (type and guid prefix). */
function answerProcessedCount({ store, pipeline }: Receiver, url: URL, res: ServerResponse) {
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
      if (!pipeline.alive) return send(res, 503, { error: 'unavailable', message: 'The receiver is stopping' });
      const stats = read();
      if (stats.queued === 0 || performance.now() > until) return send(res, 200, stats);
      pipeline.kickWorker();
      setTimeout(poll, 2);
    };
    return poll();
  }
  return send(res, 200, read());
}
