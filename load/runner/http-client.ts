/**
 * The engine side of k6/http: performs the VUs' requests with undici and records k6's
 * HTTP metrics (http_reqs, http_req_duration and its phases, http_req_failed, data_*).
 * undici exposes no per-phase socket timings, so `blocked`, `connecting`, `sending` and
 * `tls_handshaking` are 0 and `waiting`/`receiving` split at the response headers;
 * `http_req_duration` is the whole request (load/README.md, "Differences from k6").
 */
import { Agent, interceptors, type Dispatcher } from 'undici';
import type { MetricStore, Tags } from './metrics.ts';
import type { WireRequest, WireResponse } from './wire.ts';

export class HttpClient {
  private agent = new Agent({ keepAliveTimeout: 10_000, connections: null, pipelining: 1 });
  private withRedirects = new Map<number, Dispatcher>();
  /** Tags of each request tag key: a VU sends a key's tags only with its first request. */
  private requestTags = new Map<string, Tags>();
  /** origin and path of recently requested URLs (load scripts repeat a few URLs). */
  private urls = new Map<string, { origin: string; path: string }>();

  constructor(private store: MetricStore) {}

  private dispatcher(redirects: number): Dispatcher {
    if (redirects <= 0) return this.agent;
    let d = this.withRedirects.get(redirects);
    if (!d) {
      d = this.agent.compose(interceptors.redirect({ maxRedirections: redirects }));
      this.withRedirects.set(redirects, d);
    }
    return d;
  }

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

  async execute(req: WireRequest): Promise<WireResponse> {
    // Before any await: a batch may carry a key's tags on one request and not on the next.
    if (req.tags) this.requestTags.set(req.tagKey, req.tags);
    const t0 = performance.now();
    let tHeaders = t0;
    let status = 0;
    let statusText = '';
    const headers: Record<string, string> = {};
    let body: ArrayBuffer | null = null;
    let error = '';
    let errorCode = 0;
    let received = 0;
    try {
      const u = this.parsedUrl(req.url);
      const res = await this.dispatcher(req.redirects).request({
        origin: u.origin,
        path: u.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? undefined,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        signal: AbortSignal.timeout(req.timeoutMs),
      });
      tHeaders = performance.now();
      status = res.statusCode;
      // Raw names and bytes: the VU canonicalises and decodes only what the script reads.
      for (const k in res.headers) {
        const v = res.headers[k];
        if (v === undefined) continue;
        const value = Array.isArray(v) ? v.join(', ') : v;
        headers[k] = value;
        received += k.length + value.length + 4;
      }
      if (req.discardBody) {
        for await (const chunk of res.body) received += (chunk as Buffer).length;
      } else {
        body = await res.body.arrayBuffer();
        received += body.byteLength;
      }
    } catch (e) {
      const err = e as Error & { code?: string };
      status = 0;
      error = err.message || String(e);
      // k6 error codes (docs "Error codes"): 1050 request timeout, 1212 connection refused, 1000 other.
      errorCode = err.name === 'TimeoutError' || /timeout/i.test(err.code ?? '') ? 1050 : /ECONNREFUSED/.test(`${err.code} ${(err as { cause?: { code?: string } }).cause?.code}`) ? 1212 : 1000;
    }
    const tEnd = performance.now();
    const duration = tEnd - t0;
    const timings = {
      duration,
      blocked: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: (status ? tHeaders : tEnd) - t0,
      receiving: status ? tEnd - tHeaders : 0,
    };
    this.record(req, status, error, errorCode, timings, received);
    return { status, statusText, url: req.url, headers, body, timings, error, errorCode, proto: status ? 'HTTP/1.1' : '' };
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

  private record(req: WireRequest, status: number, _error: string, errorCode: number, t: WireResponse['timings'], received: number): void {
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
    s.add('http_req_blocked', t.blocked, id);
    s.add('http_req_connecting', t.connecting, id);
    s.add('http_req_tls_handshaking', t.tls_handshaking, id);
    s.add('http_req_sending', t.sending, id);
    s.add('http_req_waiting', t.waiting, id);
    s.add('http_req_receiving', t.receiving, id);
    if (expected !== undefined) s.add('http_req_failed', expected ? 0 : 1, id);
    let sent = req.method.length + req.url.length + 12 + (req.body?.length ?? 0);
    for (const [k, v] of Object.entries(req.headers)) sent += k.length + v.length + 4;
    s.add('data_sent', sent, id);
    s.add('data_received', received, id);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
