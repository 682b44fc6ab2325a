/**
 * A capture receiver for delivery conformance: a bare node:http server on 127.0.0.1
 * that records every request (arrival time, headers, raw body bytes) and answers
 * from a script, so a scenario can answer errors on purpose and watch the retries
 * (specification, Events, Webhooks rules 4-5). It also plays an OAuth 2.0
 * client-credentials token endpoint (Authentication 6) at /oauth/token.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { RECEIVER_BOUNDS } from '../../../targets/index.ts';

export interface CapturedRequest {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** performance.now() at arrival, in ms. */
  atMs: number;
  /** The status the capture answered (or 'timeout' when it held the answer back). */
  answered: number | 'timeout';
}

export interface TokenRequest {
  method: string;
  query: URLSearchParams;
  body: string;
  authorization?: string;
  contentType?: string;
  issued: string;
}

export interface CaptureOptions {
  /** Status to answer for the n-th webhook request (0-based); 'timeout' never answers in time. Default 204. */
  answer?: (n: number, req: CapturedRequest) => number | 'timeout';
  /**
   * A 'timeout' answer is held until the sender gives up and closes the connection; after
   * holdMs (default 10 s, generous: only a sender with no timeout at all reaches it) it is
   * answered 204.
   */
  holdMs?: number;
  /** `expires_in` of the issued tokens, seconds. */
  tokenExpiresInS?: number;
}

export class CaptureReceiver {
  readonly requests: CapturedRequest[] = [];
  readonly tokenRequests: TokenRequest[] = [];
  private server?: Server;
  url = '';
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(private readonly options: CaptureOptions = {}) {}

  /** Listens on `host:port` (default: a free port on 127.0.0.1; the live-delivery spec passes SVC_WEBHOOK_LISTEN). */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => {
      // It listens where the service delivers (behind a public tunnel on a live run): any
      // request may reach it. A payload above the reference receiver's bound is refused, not
      // kept; a target that is no URL path is refused, not thrown.
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= RECEIVER_BOUNDS.maxBodyBytes) chunks.push(c);
        else if (!tooLarge) {
          tooLarge = true;
          res.writeHead(413, { connection: 'close' }).end();
          req.destroy();
        }
      });
      req.on('end', () => {
        if (tooLarge) return;
        const body = Buffer.concat(chunks);
        let url: URL;
        try {
          url = new URL(req.url ?? '/', 'http://capture');
        } catch {
          res.writeHead(400).end();
          return;
        }
        if (url.pathname === '/oauth/token') {
          const issued = randomBytes(12).toString('hex');
          this.tokenRequests.push({
            method: req.method ?? '',
            query: url.searchParams,
            body: body.toString('utf8'),
            authorization: req.headers.authorization,
            contentType: req.headers['content-type'],
            issued,
          });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: issued, expires_in: this.options.tokenExpiresInS ?? 3600, token_type: 'Bearer' }));
          return;
        }
        const captured: CapturedRequest = { path: url.pathname, method: req.method ?? '', headers: req.headers, body, atMs: performance.now(), answered: 204 };
        const answer = this.options.answer?.(this.requests.length, captured) ?? 204;
        captured.answered = answer;
        this.requests.push(captured);
        this.notify();
        if (answer === 'timeout') {
          const t = setTimeout(() => {
            res.writeHead(204);
            res.end();
          }, this.options.holdMs ?? 10_000);
          res.on('close', () => clearTimeout(t));
          return;
        }
        res.writeHead(answer);
        res.end();
      });
    });
    this.server.keepAliveTimeout = 1_000;
    this.server.requestTimeout = RECEIVER_BOUNDS.requestTimeoutMs;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => {
        this.server!.off('error', reject);
        resolve();
      });
    });
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Resolves when `count` webhook requests have arrived, or after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const w = { count, resolve };
      this.waiters.push(w);
      setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve();
      }, timeoutMs).unref();
    });
  }

  private notify(): void {
    for (const w of [...this.waiters]) {
      if (this.requests.length >= w.count) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve();
      }
    }
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
