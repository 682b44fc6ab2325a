/**
 * One bounded request of the preflight: the whole exchange (connect, headers, body) ends
 * within the profile's request timeout (SVC_REQUEST_TIMEOUT_MS), and at most
 * `bodyLimit` bytes of the body are read: a base URL that points at the wrong server
 * must not keep the preflight waiting or fill its memory.
 */
import { request } from 'undici';

export type Probe =
  | { kind: 'answered'; status: number; headers: Record<string, string>; text: string; truncated: boolean; ms: number }
  | { kind: 'unreachable'; reason: string; ms: number };

export interface ProbeRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Bytes of the body read at most; the rest is discarded (default 256 KiB). */
  bodyLimit?: number;
}

const DEFAULT_BODY_LIMIT = 256 * 1024;

/** Why a request got no HTTP answer, in words a user acts on. */
function unreachableReason(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs} ms (SVC_REQUEST_TIMEOUT_MS)`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  if (code === 'ERR_INVALID_URL' || err.name === 'InvalidArgumentError') return `not a valid URL (${err.message ?? code})`;
  return `${code ?? err.name ?? 'error'}: ${(err.message ?? String(e)).slice(0, 200)}`;
}

export async function probe(r: ProbeRequest): Promise<Probe> {
  const started = performance.now();
  const limit = r.bodyLimit ?? DEFAULT_BODY_LIMIT;
  try {
    const res = await request(r.url, {
      method: r.method ?? 'GET',
      headers: r.headers,
      body: r.body,
      signal: AbortSignal.timeout(r.timeoutMs),
      headersTimeout: r.timeoutMs,
      bodyTimeout: r.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      const room = limit - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= limit) {
        truncated = true;
        res.body.destroy();
        break;
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { kind: 'answered', status: res.statusCode, headers, text: Buffer.concat(chunks).toString('utf8'), truncated, ms: performance.now() - started };
  } catch (e) {
    return { kind: 'unreachable', reason: unreachableReason(e, r.timeoutMs), ms: performance.now() - started };
  }
}

/** A path with its query, URL-encoded. */
export function withQuery(path: string, query?: Record<string, string>): string {
  const q = query ? new URLSearchParams(query).toString() : '';
  return q ? `${path}?${q}` : path;
}
