/**
 * A webhook receiver that lives across nights and writes every delivery attempt it gets to a
 * JSON-lines file the next nightly reads (history/keepers.ts): Events rule 5's "at most 12
 * [retries] after the first attempt, spread over about 24 hours" shows only to a receiver
 * that keeps refusing for a day. It refuses (503) every delivery whose body carries a refusal
 * marker (`X-CALLBACK-PAYLOAD` of the member the nightly left, Events rule 8: it "appears in
 * the member and member data updated webhooks") and accepts every other one (204, rule 4).
 *
 * One line per attempt: `{at, status, sha256, marker?, type?}`; the body itself is not kept
 * (a payload can carry anything), only its digest, so retries of one delivery are told apart
 * from other deliveries ("Retries carry an identical payload", rule 4).
 *
 * The receiver runs for weeks and takes every webhook of the environment: the file is bounded.
 * Past LOG_BYTES it becomes `<file>.1` (the one before is dropped) and a new file begins, so
 * the disk holds at most twice LOG_BYTES and a reader reads both generations: a day of retries
 * (rule 5) is a few lines among them.
 */
import { readJsonLines } from '../reports/trends.ts';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { RECEIVER_BOUNDS } from '../targets/index.ts';

/** What a refused member's callback payload starts with (history/keepers.ts sets it). */
export const REFUSAL_MARKER = 'svcct-keep_refuse-';
/** Bodies read at most, as the reference receiver (Events: webhook payloads are small JSON objects). */
const MAX_BODY = RECEIVER_BOUNDS.maxBodyBytes;
/** One generation of the log at most (about 200 000 attempts). */
const LOG_BYTES = 32 * 1024 * 1024;
const previousGeneration = (file: string) => `${file}.1`;

/** Appends one line, first starting a new generation when this file has reached `limit`. */
export function appendBounded(file: string, line: string, limit = LOG_BYTES): void {
  if (existsSync(file) && statSync(file).size + Buffer.byteLength(line) > limit) renameSync(file, previousGeneration(file));
  appendFileSync(file, line);
}

export interface DeliveryAttempt {
  /** Receiver's clock, ms since the epoch. */
  at: number;
  status: number;
  sha256: string;
  /** The refusal marker the body carried, if any. */
  marker?: string;
  type?: string;
}

export interface DeliveryLog {
  url: string;
  close(): Promise<void>;
}

/** Starts the receiver on 127.0.0.1 (`port` 0: a free one). */
export async function startDeliveryLog(o: { file: string; port?: number }): Promise<DeliveryLog> {
  mkdirSync(dirname(o.file), { recursive: true });
  const server: Server = createServer((req, res) => {
    // Only what the service sends is an attempt: a POST (Events, Webhooks: "HTTPS POST
    // requests with a JSON body") to this receiver's path; anything else is answered and not
    // logged, so the log the nightly reads holds deliveries only.
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !(path === '/hooks' || path.startsWith('/hooks/'))) {
      req.resume();
      res.writeHead(req.method !== 'POST' ? 405 : 404, req.method !== 'POST' ? { allow: 'POST' } : {}).end();
      return;
    }
    const announced = Number(req.headers['content-length']);
    if (announced > MAX_BODY) {
      res.writeHead(413, { connection: 'close' }).end();
      req.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
      else if (!tooLarge) {
        tooLarge = true;
        res.writeHead(413, { connection: 'close' }).end();
        req.destroy();
      }
    });
    req.on('end', () => {
      if (tooLarge) return;
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const at = text.indexOf(REFUSAL_MARKER);
      const marker = at >= 0 ? /^[A-Za-z0-9_-]+/.exec(text.slice(at))?.[0] : undefined;
      let type: string | undefined;
      try {
        const json = JSON.parse(text) as Record<string, unknown>;
        type = typeof json.type === 'string' ? json.type : Object.keys(json).find((k) => k !== 'action' && k !== 'version' && typeof json[k] === 'object');
      } catch {
        /* not JSON: still an attempt */
      }
      const status = marker ? 503 : 204;
      const line: DeliveryAttempt = {
        at: Date.now(),
        status,
        sha256: createHash('sha256').update(body).digest('hex'),
        ...(marker ? { marker } : {}),
        ...(type ? { type } : {}),
      };
      appendBounded(o.file, `${JSON.stringify(line)}\n`);
      res.statusCode = status;
      res.end();
    });
  });
  // A request must arrive whole within the reference receiver's bound (Node's default is 300 s).
  server.requestTimeout = RECEIVER_BOUNDS.requestTimeoutMs;
  // A port already taken rejects here, for the caller to name; unhandled, the server's
  // 'error' event would end the process with a stack trace.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Both generations, oldest first. */
export function readDeliveryLog(file: string): DeliveryAttempt[] {
  return [...readJsonLines<DeliveryAttempt>(previousGeneration(file)), ...readJsonLines<DeliveryAttempt>(file)];
}
