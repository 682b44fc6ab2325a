/**
 * One bounded request of the preflight, through the one bounded transport of the project
 * (targets/http.ts requestBounded): the whole exchange ends within the profile's request
 * timeout (SVC_REQUEST_TIMEOUT_MS) and at most `bodyLimit` bytes of the body are read, so a
 * base URL that points at the wrong server neither keeps the preflight waiting nor fills its
 * memory. A request that gets no answer says so in the transport's own words: the method,
 * the URL, the operation, what happened and the limit or setting involved.
 */
import { requestBounded, TransportError } from '../targets/index.ts';

export type Probe =
  | { kind: 'answered'; status: number; headers: Record<string, string>; text: string; ms: number }
  | { kind: 'unreachable'; reason: string; ms: number };

export interface ProbeRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Bytes of the body read at most (default 256 KiB); a longer body is a transport failure naming the limit. */
  bodyLimit?: number;
  /** The operation the request reads (`GET /institutions`), named in a failure's message. */
  operation?: string;
  /** The setting the URL comes from (`SVC_BASE_URL`), named when the host cannot be reached. */
  urlSetting?: string;
  /** Removes secrets from what a message shows. */
  redact?: (text: string) => string;
}

const DEFAULT_BODY_LIMIT = 256 * 1024;

export async function probe(r: ProbeRequest): Promise<Probe> {
  const started = performance.now();
  try {
    const res = await requestBounded(
      {
        method: r.method ?? 'GET',
        url: r.url,
        headers: r.headers,
        body: r.body,
        ...(r.operation ? { operation: r.operation } : {}),
        ...(r.urlSetting ? { urlSetting: r.urlSetting } : {}),
        ...(r.redact ? { redact: r.redact } : {}),
      },
      { requestMs: r.timeoutMs, maxBodyBytes: r.bodyLimit ?? DEFAULT_BODY_LIMIT },
    );
    return { kind: 'answered', status: res.status, headers: res.headers, text: res.text, ms: performance.now() - started };
  } catch (e) {
    // requestBounded words every failure of the exchange, a setting's value that is no URL
    // at all included; anything else is a fault of this code, not of the target.
    if (!(e instanceof TransportError)) throw e;
    return { kind: 'unreachable', reason: e.message, ms: performance.now() - started };
  }
}

/** A path with its query, URL-encoded. */
export function withQuery(path: string, query?: Record<string, string>): string {
  const q = query ? new URLSearchParams(query).toString() : '';
  return q ? `${path}?${q}` : path;
}
