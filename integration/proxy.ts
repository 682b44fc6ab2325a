/**
 * The recording, validating reverse proxy a team's integration tests run through
 * (../shared/DESIGN.md, "What it is for" 4). It listens on 127.0.0.1, forwards every
 * request unchanged to one upstream (the embedded simulator by default, or the vendor's
 * integration environment), streams the answer back unchanged, and records the exchange;
 * only after the answer went out is the exchange judged (integration/judge.ts), so the
 * judging never delays the integration (`npm run bench:proxy` measures what the hop adds).
 *
 * Forwarding: hop-by-hop headers (RFC 9110 §7.6.1) are dropped both ways; `Host` is the
 * upstream's, except with the embedded simulator (`preserveHost`), whose returned URLs
 * (oauth_window_uri, the widget URL) then point at the proxy, so the loads of those URLs
 * by the integration's browser pass through it and the OAuth window rules can be judged.
 *
 * Bounds: a request body above `maxRequestBytes` is answered 413 by the proxy itself (a
 * message naming the bound); a response body is streamed whole to the integration and
 * recorded up to `maxRecordedBytes`, as received and once its Content-Encoding is
 * inflated (beyond it: kept truncated, or not kept when only its inflation passes the
 * bound, marked, its body not judged); upstream waits are bounded by `timeoutMs` (504
 * from the proxy).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { decodeBody } from '../contracts/index.ts';
import { decodeContentEncoding, HOP_BY_HOP_HEADERS } from '../targets/index.ts';
import type { RecordedExchange } from './har.ts';
import { IntegrationInputError } from './har.ts';

export interface ProxyOptions {
  /** Base URL requests are forwarded to (a path prefix is kept: /x -> <upstream>/x). */
  upstream: string;
  /** 127.0.0.1 port; 0 (default) picks a free one. */
  port?: number;
  /** Forward the integration's Host header (the embedded simulator); default: the upstream's host. */
  preserveHost?: boolean;
  /** Bound on a request body the proxy buffers (default 16 MiB). */
  maxRequestBytes?: number;
  /** Bound on a response body kept in the recording (default 16 MiB). */
  maxRecordedBytes?: number;
  /**
   * Bound on all the bodies the recording keeps (default 256 MiB): past it, an exchange is
   * kept without its bodies (judged with them all the same), so a long session of large
   * bodies cannot exhaust the machine.
   */
  maxRecordingBytes?: number;
  /** Bound on the upstream's headers and body (default 30 s). */
  timeoutMs?: number;
  /** Called with each exchange once its answer went out (the judging). */
  onExchange?: (e: RecordedExchange) => void;
}

export interface RunningProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  upstream: string;
  readonly exchanges: readonly RecordedExchange[];
  /** Exchanges kept without their bodies once the recording's bound was reached. */
  bodiesLeftOut(): number;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/**
 * The recorded body as text, its Content-Encoding undone by the transport's decoder
 * (targets/http.ts decodeContentEncoding), each inflation stopped at `max` bytes. Bytes that
 * are not UTF-8 stay visible to the judge (decodeBody). A coding not decoded there, or a body
 * that does not decode, is recorded as received.
 */
async function decoded(body: Buffer, encoding: string | undefined, max: number): Promise<{ text: string } | { inflatedTooLarge: true }> {
  const d = await decodeContentEncoding(body, encoding, max);
  if (d.kind === 'decoded') return { text: decodeBody(d.body) };
  if (d.kind === 'too-large') return { inflatedTooLarge: true };
  return { text: decodeBody(body) };
}

/**
 * The recording's bound on all the bodies it keeps: an exchange is kept whole while the
 * bodies kept so far and its own fit, else without its bodies (the judge had them whole).
 */
function boundedRecording(maxBytes: number): { kept(e: RecordedExchange): RecordedExchange; bodiesLeftOut(): number } {
  let bytes = 0;
  let leftOut = 0;
  return {
    kept(e) {
      const size = (e.request.body?.length ?? 0) + (e.response?.body?.length ?? 0);
      if (bytes + size <= maxBytes) {
        bytes += size;
        return e;
      }
      leftOut++;
      const { body: _requestBody, ...request } = e.request;
      if (!e.response) return { ...e, request };
      const { body: responseBody, ...response } = e.response;
      return { ...e, request, response: { ...response, ...(responseBody !== undefined ? { bodyTruncated: true } : {}) } };
    },
    bodiesLeftOut: () => leftOut,
  };
}

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  let upstream: URL;
  try {
    upstream = new URL(o.upstream);
    if (!/^https?:$/.test(upstream.protocol)) throw new Error('not http(s)');
  } catch {
    throw new IntegrationInputError(`--upstream must be an http(s) URL, got "${o.upstream}"`);
  }
  const upstreamBase = o.upstream.replace(/\/+$/, '');
  const maxRequest = o.maxRequestBytes ?? 16 * MiB;
  const maxRecorded = o.maxRecordedBytes ?? 16 * MiB;
  const timeoutMs = o.timeoutMs ?? 30_000;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, pipelining: 1 });
  const exchanges: RecordedExchange[] = [];
  const recording = boundedRecording(o.maxRecordingBytes ?? 256 * MiB);
  let selfOrigin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    // The integration reaches the service at this proxy's own address, so every request names
    // a path (origin form). An absolute URL or `*` would name no API operation, and would
    // record an address that is not one: refused, the session's recording left whole.
    if (!path.startsWith('/')) {
      req.resume();
      res
        .writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end(
          `svc-conformance proxy: the request target must be a path starting with / (the integration's base URL is this proxy), got "${path.slice(0, 200)}"`,
        );
      return;
    }
    const requestHeaders = flatHeaders(req.headers);
    const record = (response: RecordedExchange['response'], error?: string, body?: string) => {
      const e: RecordedExchange = {
        startedAt,
        durationMs: performance.now() - started,
        request: { method, url: `${selfOrigin}${path}`, headers: requestHeaders, ...(body !== undefined && body !== '' ? { body } : {}) },
        ...(response ? { response } : {}),
        ...(error ? { error } : {}),
      };
      exchanges.push(recording.kept(e));
      // After the answer: judging never holds up the integration (the whole exchange).
      if (o.onExchange) setImmediate(() => o.onExchange!(e));
    };
    // The request body, bounded.
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxRequest) {
        tooLarge = true;
        break;
      }
      chunks.push(chunk as Buffer);
    }
    if (tooLarge) {
      const message = `svc-conformance proxy: request body above the proxy's bound of ${maxRequest} bytes`;
      res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(message);
      record(undefined, message);
      return;
    }
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const forward: Record<string, string> = {};
    for (const [k, v] of Object.entries(requestHeaders)) if (!HOP_BY_HOP_HEADERS.has(k) && k !== 'host' && k !== 'content-length') forward[k] = v;
    if (o.preserveHost && requestHeaders.host) forward.host = requestHeaders.host;
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(`${upstreamBase}${path}`, {
        method: method as 'GET',
        headers: forward,
        body,
        dispatcher: agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      const status = /TIMEOUT/.test(code) ? 504 : 502;
      const message = `svc-conformance proxy: the upstream ${upstreamBase} did not answer (${code || (e as Error).message})`;
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
      record(undefined, message, body?.toString('utf8'));
      return;
    }
    const responseHeaders = flatHeaders(answer.headers as Record<string, string | string[]>);
    const out: Array<[string, string | string[]]> = [];
    for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP_HEADERS.has(k.toLowerCase()) && v !== undefined) out.push([k, v as string | string[]]);
    res.writeHead(answer.statusCode, Object.fromEntries(out));
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let truncated = false;
    try {
      for await (const chunk of answer.body) {
        const b = chunk as Buffer;
        if (!res.write(b)) await new Promise((r) => res.once('drain', r));
        if (keptBytes + b.length <= maxRecorded) {
          kept.push(b);
          keptBytes += b.length;
        } else truncated = true;
      }
      res.end();
    } catch (e) {
      res.destroy(e as Error);
      record(undefined, `the upstream's body broke off: ${(e as Error).message}`, body?.toString('utf8'));
      return;
    }
    const responseBody = Buffer.concat(kept);
    const text = responseBody.length && !truncated ? await decoded(responseBody, responseHeaders['content-encoding'], maxRecorded) : undefined;
    const inflatedTooLarge = text !== undefined && 'inflatedTooLarge' in text;
    record(
      {
        status: answer.statusCode,
        headers: responseHeaders,
        ...(responseBody.length && !inflatedTooLarge ? { body: text && 'text' in text ? text.text : decodeBody(responseBody) } : {}),
        ...(truncated || inflatedTooLarge ? { bodyTruncated: true } : {}),
      },
      undefined,
      body?.toString('utf8'),
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`svc-conformance proxy: ${(e as Error).message}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  selfOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: selfOrigin,
    upstream: upstreamBase,
    exchanges,
    bodiesLeftOut: recording.bodiesLeftOut,
    async close() {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
