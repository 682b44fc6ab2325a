/**
 * Recorded traffic: the one shape the proxy records and a HAR file is read into, and HAR
 * 1.2 reading and writing (http://www.softwareishard.com/blog/har-12-spec/). HAR files come
 * from browser devtools (Chrome, Firefox), Playwright's `recordHar` (`content: 'embed'`, or
 * `'attach'` with the bodies in files beside the HAR), mitmproxy (`hardump`), and from the
 * recording proxy itself (recording.har), so a proxy run can be checked again offline.
 *
 * Bounded: a HAR file above `maxBytes` is refused with a message naming the option, and a
 * body recorded above the proxy's bound is kept truncated and marked, never judged.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { decodeBody } from '../contracts/index.ts';

/** Input the integration commands cannot use (a file that is not HAR, a bad URL): exit code 2. */
export class IntegrationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntegrationInputError';
  }
}

export interface RecordedExchange {
  /** When the request started (ISO 8601). */
  startedAt: string;
  durationMs?: number;
  request: {
    method: string;
    /** Absolute URL as the integration sent it. */
    url: string;
    headers: Record<string, string>;
    /** The body as text (JSON bodies are parsed when judged). */
    body?: string;
  };
  /** Absent when no answer came (a refused connection, a timeout, a request the browser blocked). */
  response?: {
    status: number;
    headers: Record<string, string>;
    body?: string;
    /** The body was larger than the recording bound (as received, or once inflated): kept truncated or not kept, never judged. */
    bodyTruncated?: boolean;
  };
  /** Why no answer came. */
  error?: string;
}

export interface ReadHar {
  exchanges: RecordedExchange[];
  /** `creator.name creator.version` of the HAR. */
  creator: string;
  /**
   * Whether any request of the file carries a credential header (Authorization, Cookie,
   * SVC-API-Key). Browsers export HAR "sanitized" by default, without them; then
   * authentication cannot be judged.
   */
  credentialsRecorded: boolean;
}

const MiB = 1024 * 1024;

/** Default bound on a HAR file read into memory: 256 MiB (`--max-har-mb`, in MiB, sets another). */
const HAR_MAX_BYTES = 256 * MiB;

interface HarHeader {
  name: string;
  value: string;
}
interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: HarHeader[];
    postData?: { mimeType?: string; text?: string; params?: Array<{ name: string; value?: string }> };
  };
  response?: {
    status?: number;
    statusText?: string;
    headers?: HarHeader[];
    content?: { mimeType?: string; text?: string; encoding?: string; _file?: string };
    _error?: string;
  };
  _error?: string;
}

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'svc-api-key'];

/** HAR headers -> one record; HTTP/2 pseudo-headers (`:authority`) left out, repeated names joined. */
function headersOf(list: HarHeader[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list ?? []) {
    if (!h || typeof h.name !== 'string' || h.name.startsWith(':')) continue;
    const name = h.name.toLowerCase();
    const value = String(h.value ?? '');
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

function contentText(content: NonNullable<HarEntry['response']>['content'], harDir: string, maxBytes: number): string | undefined {
  if (!content) return undefined;
  // A body kept as bytes is decoded so that bytes which are not UTF-8 stay visible to the judge (decodeBody).
  if (typeof content.text === 'string') return content.encoding === 'base64' ? decodeBody(Buffer.from(content.text, 'base64')) : content.text;
  // Playwright's recordHar with content 'attach': the body is a file beside the HAR.
  if (typeof content._file === 'string') {
    const file = resolve(harDir, content._file);
    if (file.startsWith(resolve(harDir)) && existsSync(file) && statSync(file).size <= maxBytes) return decodeBody(readFileSync(file));
  }
  return undefined;
}

/** Reads a HAR 1.2 file; throws IntegrationInputError naming what is wrong. */
export function readHar(file: string, o: { maxBytes?: number } = {}): ReadHar {
  const maxBytes = o.maxBytes ?? HAR_MAX_BYTES;
  const path = resolve(file);
  if (!existsSync(path)) throw new IntegrationInputError(`no HAR file at ${path}`);
  const size = statSync(path).size;
  if (size > maxBytes)
    throw new IntegrationInputError(
      // In MiB, the unit --max-har-mb takes (mb * 1024 * 1024); the bytes too, so a file just above the bound reads as above it.
      `${path} is ${size} bytes (${(size / MiB).toFixed(1)} MiB), above the bound of ${+(maxBytes / MiB).toFixed(2)} MiB (--max-har-mb raises it)`,
    );
  let har: { log?: { creator?: { name?: string; version?: string }; entries?: HarEntry[] } };
  try {
    har = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new IntegrationInputError(`${path} is not a HAR file: not JSON (${(e as Error).message})`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries))
    throw new IntegrationInputError(`${path} is not a HAR file: no log.entries array (HAR 1.2, as devtools, Playwright's recordHar and mitmproxy write it)`);
  const harDir = dirname(path);
  const exchanges: RecordedExchange[] = [];
  let credentialsRecorded = false;
  entries.forEach((e, i) => {
    const method = e?.request?.method;
    const url = e?.request?.url;
    if (typeof method !== 'string' || typeof url !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      throw new IntegrationInputError(`${path}: entry ${i} has no request method and absolute URL (got ${JSON.stringify(method)} ${JSON.stringify(url)})`);
    }
    const headers = headersOf(e.request!.headers);
    if (CREDENTIAL_HEADERS.some((h) => h in headers)) credentialsRecorded = true;
    const post = e.request!.postData;
    const body =
      typeof post?.text === 'string' ? post.text : post?.params ? new URLSearchParams(post.params.map((p) => [p.name, p.value ?? ''])).toString() : undefined;
    const status = e.response?.status;
    const answered = typeof status === 'number' && status > 0;
    exchanges.push({
      startedAt: e.startedDateTime ?? new Date(0).toISOString(),
      ...(typeof e.time === 'number' && e.time >= 0 ? { durationMs: e.time } : {}),
      request: { method: method.toUpperCase(), url, headers, ...(body !== undefined ? { body } : {}) },
      ...(answered
        ? {
            response: {
              status: status!,
              headers: headersOf(e.response!.headers),
              ...(() => {
                const text = contentText(e.response!.content, harDir, maxBytes);
                return text !== undefined ? { body: text } : {};
              })(),
            },
          }
        : { error: e.response?._error ?? e._error ?? 'no response recorded' }),
    });
  });
  const creator = [har.log?.creator?.name, har.log?.creator?.version].filter(Boolean).join(' ') || 'unknown';
  return { exchanges, creator, credentialsRecorded };
}

const harHeaders = (h: Record<string, string>): HarHeader[] => Object.entries(h).map(([name, value]) => ({ name, value }));

/** A HAR 1.2 document of recorded exchanges (the proxy's recording.har). */
export function toHar(exchanges: readonly RecordedExchange[], creator: { name: string; version: string }): unknown {
  return {
    log: {
      version: '1.2',
      creator,
      entries: exchanges.map((e) => {
        const url = new URL(e.request.url);
        const requestType = e.request.headers['content-type'] ?? '';
        const responseType = e.response?.headers['content-type'] ?? '';
        return {
          startedDateTime: e.startedAt,
          time: e.durationMs ?? 0,
          request: {
            method: e.request.method,
            url: e.request.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: harHeaders(e.request.headers),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            ...(e.request.body !== undefined ? { postData: { mimeType: requestType, text: e.request.body } } : {}),
            headersSize: -1,
            bodySize: e.request.body !== undefined ? Buffer.byteLength(e.request.body) : 0,
          },
          response: e.response
            ? {
                status: e.response.status,
                statusText: '',
                httpVersion: 'HTTP/1.1',
                cookies: [],
                headers: harHeaders(e.response.headers),
                content: {
                  size: e.response.body !== undefined ? Buffer.byteLength(e.response.body) : 0,
                  mimeType: responseType,
                  ...(e.response.body !== undefined ? { text: e.response.body } : {}),
                  ...(e.response.bodyTruncated ? { comment: 'truncated at the recording bound' } : {}),
                },
                redirectURL: e.response.headers.location ?? '',
                headersSize: -1,
                bodySize: -1,
              }
            : {
                status: 0,
                statusText: '',
                httpVersion: 'HTTP/1.1',
                cookies: [],
                headers: [],
                content: { size: 0, mimeType: '' },
                redirectURL: '',
                headersSize: -1,
                bodySize: -1,
                _error: e.error ?? 'no response',
              },
          cache: {},
          timings: { send: 0, wait: e.durationMs ?? 0, receive: 0 },
        };
      }),
    },
  };
}
