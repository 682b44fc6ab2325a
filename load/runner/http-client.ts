/**
 * The engine side of k6/http: performs the VUs' requests with undici and records k6's
 * HTTP metrics (http_reqs, http_req_duration and its phases, http_req_failed, data_*).
 * undici exposes no per-phase socket timings, so the response's `blocked`, `connecting`,
 * `sending` and `tls_handshaking` are 0 (and have no metric); `waiting`/`receiving` split
 * at the response headers;
 * `http_req_duration` is the whole request (load/README.md, "Differences from k6").
 *
 * This is the engine thread's hot path, shared by every VU, so it stays lean: undici's
 * low-level `dispatch` with a handler that keeps the raw header and body bytes (no
 * streams, no header objects), copied once into one buffer that is moved to the VU,
 * which decodes only what the script reads (shims.ts Response); redirects are followed
 * here only when one comes; one timer checks every request's k6 `timeout`.
 */
import { Agent, type Dispatcher } from 'undici';
import type { MetricStore, Tags } from './metrics.ts';
import type { WireRequest, WireResponse } from './wire.ts';

interface Exchange {
  status: number;
  rawHeaders: Buffer[];
  chunks: Buffer[];
  bodyBytes: number;
  tHeaders: number;
}

class RequestTimeoutError extends Error {
  override name = 'TimeoutError';
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** k6's default maxRedirects (the option and the per-request `redirects` param are not implemented). */
const MAX_REDIRECTS = 10;

export class HttpClient {
  private agent = new Agent({ keepAliveTimeout: 10_000, connections: null, pipelining: 1 });
  /** Tags of each request tag key: a VU sends a key's tags only with its first request. */
  private requestTags = new Map<string, Tags>();
  /** origin and path of recently requested URLs (load scripts repeat a few URLs). */
  private urls = new Map<string, { origin: string; path: string }>();
  /** Deadlines of the requests in flight (k6's params.timeout covers the whole request). */
  private inFlight = new Set<{ deadline: number; abort: (e: Error) => void }>();
  private timeoutTimer: NodeJS.Timeout | undefined;

  constructor(private store: MetricStore) {}

  async executeAll(requests: WireRequest[], concurrency: number): Promise<WireResponse[]> {
    if (requests.length === 1) return [await this.execute(requests[0])];
    const out: WireResponse[] = new Array(requests.length);
    let next = 0;
    const lane = async () => {
      while (next < requests.length) {
        const i = next++;
        out[i] = await this.execute(requests[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, requests.length)) }, lane));
    return out;
  }

  /** One HTTP exchange, bytes as they came. */
  private exchange(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | null,
    timeoutMs: number,
    discardBody: boolean,
  ): Promise<Exchange> {
    const u = this.parsedUrl(url);
    return new Promise<Exchange>((resolve, reject) => {
      const x: Exchange = { status: 0, rawHeaders: [], chunks: [], bodyBytes: 0, tHeaders: 0 };
      const entry = { deadline: performance.now() + timeoutMs, abort: (e: Error) => reject(e) };
      this.watch(entry);
      const handler: Dispatcher.DispatchHandler = {
        onConnect: (abort: (err?: Error) => void) => {
          entry.abort = (e: Error) => abort(e);
        },
        onHeaders: (statusCode: number, rawHeaders: Buffer[]) => {
          x.status = statusCode;
          x.rawHeaders = rawHeaders;
          x.tHeaders = performance.now();
          return true;
        },
        onData: (chunk: Buffer) => {
          x.bodyBytes += chunk.length;
          if (!discardBody) x.chunks.push(chunk);
          return true;
        },
        onComplete: () => {
          this.inFlight.delete(entry);
          resolve(x);
        },
        onError: (err: Error) => {
          this.inFlight.delete(entry);
          reject(err);
        },
      } as Dispatcher.DispatchHandler;
      this.agent.dispatch(
        {
          origin: u.origin,
          path: u.path,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? undefined,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        handler,
      );
    });
  }

  private watch(entry: { deadline: number; abort: (e: Error) => void }): void {
    this.inFlight.add(entry);
    this.timeoutTimer ??= setInterval(() => {
      const now = performance.now();
      for (const e of this.inFlight) {
        if (e.deadline > now) continue;
        this.inFlight.delete(e);
        e.abort(new RequestTimeoutError('request timeout'));
      }
    }, 100).unref();
  }

  async execute(req: WireRequest): Promise<WireResponse> {
    // Before any await: a batch may carry a key's tags on one request and not on the next.
    if (req.tags) this.requestTags.set(req.tagKey, req.tags);
    const t0 = performance.now();
    let x: Exchange | undefined;
    let url = req.url;
    let error = '';
    let errorCode = 0;
    try {
      let method = req.method;
      let body = req.body;
      let headers = req.headers;
      for (let redirects = MAX_REDIRECTS; ; redirects--) {
        x = await this.exchange(url, method, headers, body, Math.max(1, Math.ceil(req.timeoutMs - (performance.now() - t0))), req.discardBody);
        if (!REDIRECT_STATUSES.has(x.status) || redirects <= 0) break;
        const location = headerValue(x.rawHeaders, 'location');
        if (location === undefined) break;
        const next = new URL(location, url);
        // As Go's client (k6) does: credentials do not follow a redirect to another host.
        if (next.host !== new URL(url).host)
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie|www-authenticate)$/i.test(k)));
        url = next.toString();
        // As browsers and k6 (Go's client) do: 303, and 301/302 after a POST, continue as GET.
        if (x.status === 303 || ((x.status === 301 || x.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = null;
        }
      }
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      x = undefined;
      error = err.message || String(e);
      // k6 error codes (docs "Error codes"): 1050 request timeout, 1212 connection refused, 1000 other.
      errorCode = err.name === 'TimeoutError' || /timeout/i.test(err.code ?? '') ? 1050 : /ECONNREFUSED/.test(`${err.code} ${err.cause?.code}`) ? 1212 : 1000;
    }
    const tEnd = performance.now();
    const status = x?.status ?? 0;
    // Header pairs as name\0value\0, then the body: one buffer, moved to the VU.
    let headerBytes = 0;
    let received = 0;
    let raw: ArrayBuffer | null = null;
    if (x) {
      for (const h of x.rawHeaders) headerBytes += h.length + 1;
      received = headerBytes + x.rawHeaders.length + x.bodyBytes;
      const bytes = new Uint8Array(new ArrayBuffer(headerBytes + (req.discardBody ? 0 : x.bodyBytes)));
      let at = 0;
      for (const h of x.rawHeaders) {
        bytes.set(h, at);
        at += h.length + 1;
      }
      if (!req.discardBody)
        for (const c of x.chunks) {
          bytes.set(c, at);
          at += c.length;
        }
      raw = bytes.buffer;
    }
    const timings = {
      duration: tEnd - t0,
      blocked: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: (status ? x!.tHeaders : tEnd) - t0,
      receiving: status ? tEnd - x!.tHeaders : 0,
    };
    this.record(req, status, errorCode, timings, received);
    return { status, url, raw, headerBytes, hasBody: Boolean(x) && !req.discardBody, timings, error, errorCode };
  }

  private parsedUrl(url: string): { origin: string; path: string } {
    let u = this.urls.get(url);
    if (!u) {
      const p = new URL(url);
      u = { origin: p.origin, path: `${p.pathname}${p.search}` };
      if (this.urls.size >= 1000) this.urls.clear();
      this.urls.set(url, u);
    }
    return u;
  }

  private record(req: WireRequest, status: number, errorCode: number, t: WireResponse['timings'], received: number): void {
    let expected: boolean | undefined;
    if (req.expected) expected = status !== 0 && req.expected.some(([min, max]) => status >= min && status <= max);
    // The VU's key of its tags plus what only the response decides.
    const key = `${req.tagKey}|${status}|${errorCode}|${expected}`;
    let id = this.store.tagSets.internKeyed(key, undefined);
    if (id < 0) {
      const tags: Tags = { ...this.requestTags.get(req.tagKey), status: String(status), proto: status ? 'HTTP/1.1' : '' };
      if (errorCode) tags.error_code = String(errorCode);
      if (expected !== undefined) tags.expected_response = String(expected);
      id = this.store.tagSets.internKeyed(key, tags);
    }
    const s = this.store;
    s.add('http_reqs', 1, id);
    s.add('http_req_duration', t.duration, id);
    s.add('http_req_waiting', t.waiting, id);
    s.add('http_req_receiving', t.receiving, id);
    if (expected !== undefined) s.add('http_req_failed', expected ? 0 : 1, id);
    let sent = req.method.length + req.url.length + 12 + (req.body?.length ?? 0);
    for (const [k, v] of Object.entries(req.headers)) sent += k.length + v.length + 4;
    s.add('data_sent', sent, id);
    s.add('data_received', received, id);
  }

  async close(): Promise<void> {
    if (this.timeoutTimer) clearInterval(this.timeoutTimer);
    await this.agent.close();
  }
}

/** A response header's value from undici's raw [name, value, ...] buffers (case-insensitive name). */
function headerValue(rawHeaders: Buffer[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toString('latin1').toLowerCase() === name) return rawHeaders[i + 1].toString('latin1');
  }
  return undefined;
}
