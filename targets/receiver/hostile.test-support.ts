/**
 * Hostile requests against a webhook receiver, and the run that fires them while valid
 * deliveries flow (Events, Webhooks rules 4 and 6: a success means stored, duplicates
 * ignored but answered success, an error status only for a payload not received, a 4xx
 * only for a payload that can never succeed).
 *
 * A request is written byte for byte on its own TCP connection (node's and undici's
 * clients refuse most of what is generated here): any method, any request target
 * (broken percent-encoding included), any headers (content types, a Content-Length
 * that lies, chunked bodies, broken chunks, Expect: 100-continue, oversized headers),
 * any body (random bytes, JSON cut short, nesting of any depth, bodies over the size
 * bound, broken UTF-8), ended by waiting for the answer, by half-closing, or by a reset.
 *
 * The verdicts are counts, never times: the receiver process is alive at the end, every
 * valid delivery was answered 2xx and is stored and processed exactly once, no valid
 * delivery got a 5xx, no hostile request got a 5xx (or a 1xx or 3xx as its final answer),
 * every complete hostile request that waited for its answer got one. The one time bound
 * is a request's exchange limit (EXCHANGE_LIMIT_MS), there only to tell a hang from an
 * answer: no count can.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { seededRandom } from '../seeded-random.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/**
 * The longest one exchange may take before it counts as a hang. The reference receiver's
 * own bounds end any request well before it (a whole request within 30 s, else 408; a
 * complete one is answered once stored), and every exchange here either completes its
 * request or ends its side of the connection; the limit is four times the receiver's
 * longest bound so a busy machine's slowness is never read as a hang.
 */
const EXCHANGE_LIMIT_MS = 120_000;

/** The receiver's default body bound (RECEIVER_BOUNDS.maxBodyBytes): hostile bodies are generated around it. */
const MAX_BODY = 1_048_576;

// ---------------------------------------------------------------------------------------
// What a hostile request is

export type Framing =
  /** Content-Length equal to the body's length. */
  | { kind: 'length' }
  /** Content-Length that is not the body's length (larger, smaller, or far past the bound). */
  | { kind: 'lying-length'; announced: string }
  /** Content-Length values a parser must refuse, or two framings at once. */
  | { kind: 'bad-length'; headers: Array<[string, string]> }
  /** Transfer-Encoding: chunked, the body cut in chunks of `size` bytes, optionally broken. */
  | { kind: 'chunked'; size: number; fault: 'none' | 'bad-size' | 'no-last-chunk' | 'long-extension' | 'trailer' }
  /** No framing header: the body bytes are read as the next request on the connection. */
  | { kind: 'none' };

export type Body =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'text'; text: string }
  /** `depth` openers, an optional core, and (if closed) the closers: JSON nested `depth` levels. */
  | { kind: 'deep'; depth: number; opener: '[' | '{"a":' | '{"a":['; closed: boolean; wrapped: boolean }
  /** A body over the size bound: `length` bytes of a JSON object with one long string. */
  | { kind: 'oversize'; length: number }
  /** A valid JSON object with bytes that are not UTF-8 spliced into a string, or a BOM before it. */
  | { kind: 'not-utf8'; json: string; splice: readonly number[]; at: 'string' | 'bom' };

export interface HostileRequest {
  method: string;
  target: string;
  version: string;
  headers: Array<[string, string]>;
  framing: Framing;
  body: Body;
  /** After writing: wait for the answer (complete requests only), end the write side, or reset. */
  ending: 'wait' | 'half-close' | 'reset';
}

// ---------------------------------------------------------------------------------------
// Arbitraries

const TYPES = ['member', 'aggregation', 'balance', 'connection_status', 'history', 'insights', 'statements', 'unknown_type'];

/** Percent-encodings decodeURIComponent refuses (RFC 3986 §2.1; RFC 3629 for the UTF-8 they must decode to). */
const BROKEN_PERCENT = ['%', '%E0%A4%A', '%ZZ', '%C0%80', '%FF', '%ED%A0%80', '%E0%A4', '%%', '%2', '%u0041', '%F4%90%80%80', '%80'];

const segmentArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...TYPES),
  fc.tuple(fc.stringMatching(/^[a-z]{0,4}$/), fc.constantFrom(...BROKEN_PERCENT), fc.stringMatching(/^[a-z%0-9]{0,4}$/)).map((p) => p.join('')),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9_.-]{65,80}$/),
  fc.constantFrom('.', '..', '%2F', 'a%2Fb', '%00', '%20', '__proto__', 'constructor', 'toString'),
);

const targetArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: segmentArb.map((s) => `/webhooks/${s}`) },
  { weight: 1, arbitrary: fc.constant('/webhooks') },
  { weight: 1, arbitrary: fc.tuple(segmentArb, segmentArb).map(([a, b]) => `/webhooks/${a}/${b}`) },
  { weight: 2, arbitrary: fc.tuple(segmentArb, segmentArb).map(([a, b]) => `/_observe/objects/${a}/${b}`) },
  { weight: 1, arbitrary: segmentArb.map((s) => `/_observe/${s}?settled=1&limit=${s}&after_id=${s}&guid_prefix=${s}&type=${s}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '*',
      'http://x:99999/webhooks/member',
      'http://[::1/webhooks/member',
      '//[',
      '/webhooks/member?%E0%A4%A',
      '/webhooks/member#fragment',
      'webhooks/member',
      '/webhooks/member/../../_observe/health',
      '/_observe/processed-count?settled=1&type=member&guid_prefix=%E0%A4%A',
      `/webhooks/${'a'.repeat(9000)}`,
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
);

const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant('POST') },
  { weight: 2, arbitrary: fc.constantFrom('GET', 'PUT', 'HEAD', 'OPTIONS', 'DELETE', 'PATCH', 'TRACE', 'CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('post', 'BREW', '', 'P\u0000ST', 'GET POST') },
);

const versionArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/9', 'HTXP/1.1', '') },
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '*/*',
  '',
  'application/json;;;;=====',
  'x'.repeat(300),
);

const tokenArb = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/);

const extraHeadersArb: fc.Arbitrary<Array<[string, string]>> = fc
  .tuple(
    fc
      .boolean()
      .chain((b) => (b ? fc.constant(true) : fc.boolean()))
      .chain((b) => (b ? fc.constant(true) : fc.boolean())), // mostly a Host header (HTTP/1.1 asks for one: RFC 9112 §3.2)
    fc.option(contentTypeArb, { nil: undefined }),
    fc.constantFrom<Array<[string, string]>>(
      [],
      [],
      [],
      [['expect', '100-continue']],
      [['expect', 'the-unexpected']],
      [['content-encoding', 'gzip']],
      [['connection', 'close']],
      [
        ['connection', 'upgrade'],
        ['upgrade', 'websocket'],
      ],
      [['x-long', 'v'.repeat(20_000)]],
    ),
    fc.array(
      fc.tuple(
        tokenArb,
        fc.oneof(
          { weight: 9, arbitrary: fc.stringMatching(/^[\x21-\x7e]{0,30}$/) },
          { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
        ),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([host, contentType, special, random]) => [
    ...(host ? [['host', '127.0.0.1'] as [string, string]] : []),
    ...(contentType === undefined ? [] : [['content-type', contentType] as [string, string]]),
    ...special,
    ...random,
  ]);

const framingArb: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Framing>({ kind: 'length' }) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(fc.integer({ min: 0, max: 5_000 }).map(String), fc.constantFrom('1000000000000', String(MAX_BODY + 1), String(2 ** 53), '99999999999999999999999'))
      .map((announced): Framing => ({ kind: 'lying-length', announced })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<Array<[string, string]>>(
        [['content-length', 'abc']],
        [['content-length', '-1']],
        [['content-length', '+5']],
        [['content-length', '0x10']],
        [['content-length', '1, 2']],
        [
          ['content-length', '3'],
          ['content-length', '4'],
        ],
        [
          ['content-length', '3'],
          ['transfer-encoding', 'chunked'],
        ],
        [['transfer-encoding', 'gzip, chunked, identity']],
        [['transfer-encoding', 'chunked, gzip']],
      )
      .map((headers): Framing => ({ kind: 'bad-length', headers })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        size: fc.integer({ min: 1, max: 70_000 }),
        fault: fc.constantFrom('none', 'none', 'none', 'bad-size', 'no-last-chunk', 'long-extension', 'trailer'),
      })
      .map((c): Framing => ({ kind: 'chunked', ...c })),
  },
  { weight: 1, arbitrary: fc.constant<Framing>({ kind: 'none' }) },
);

const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes): Body => ({ kind: 'bytes', bytes })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v): Body => ({ kind: 'text', text: JSON.stringify(v) ?? 'null' })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([json, at, junk]): Body => ({ kind: 'text', text: json.slice(0, at % (json.length + 1)) + junk })),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text): Body => ({ kind: 'text', text })) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        depth: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(511, 512, 513, 100_000), fc.integer({ min: 1, max: 200_000 })),
        opener: fc.constantFrom<'[' | '{"a":' | '{"a":['>('[', '{"a":', '{"a":['),
        closed: fc.boolean(),
        wrapped: fc.boolean(),
      })
      .map((d): Body => ({ kind: 'deep', ...d })),
  },
  { weight: 1, arbitrary: fc.integer({ min: MAX_BODY + 1, max: 3 * MAX_BODY }).map((length): Body => ({ kind: 'oversize', length })) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        json: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.string({ maxLength: 10 }), { minKeys: 1, maxKeys: 4 }).map((o) => JSON.stringify(o)),
        splice: fc.constantFrom([0xff], [0xc0, 0x80], [0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe0, 0xa4]),
        at: fc.constantFrom<'string' | 'bom'>('string', 'string', 'bom'),
      })
      .map((b): Body => ({ kind: 'not-utf8', ...b })),
  },
  { weight: 1, arbitrary: fc.constant<Body>({ kind: 'bytes', bytes: new Uint8Array() }) },
);

/** Whether the bytes written make one whole request (or a request the parser refuses at once), so its answer can be awaited. */
function completeRequest(h: Pick<HostileRequest, 'framing' | 'body' | 'headers'>): boolean {
  const framing = h.framing;
  // With Upgrade, node's parser hands a broken chunked body on as the protocol's bytes
  // rather than refusing it: the request is answered at the request timeout (408).
  if (framing.kind === 'chunked' && framing.fault !== 'none' && h.headers.some(([k]) => k.toLowerCase() === 'upgrade')) return false;
  switch (framing.kind) {
    case 'length':
    case 'bad-length':
    case 'none':
      return true;
    case 'lying-length': {
      const announced = Number(framing.announced);
      // Announced past the bound: answered 413 before any of it is read.
      return announced <= bodyLength(h.body) || announced > MAX_BODY;
    }
    case 'chunked':
      // Node's parser finds a chunk extension over its limit only when more bytes arrive
      // (or the connection's end): alone on the connection, it is answered at the request
      // timeout (408), so it does not wait here.
      return framing.fault !== 'no-last-chunk' && framing.fault !== 'long-extension';
  }
}

/** Anything: every part of the request drawn at random. */
const anyRequestArb: fc.Arbitrary<HostileRequest> = fc.record({
  method: methodArb,
  target: targetArb,
  version: versionArb,
  headers: extraHeadersArb,
  framing: framingArb,
  body: bodyArb,
  ending: fc.constantFrom<HostileRequest['ending']>('wait', 'wait', 'wait', 'half-close', 'reset'),
});

/** A well-formed POST to a delivery URL (host, a type in the path or none, honest framing) whose body is hostile. */
const hostileBodyArb: fc.Arbitrary<HostileRequest> = fc.record({
  method: fc.constant('POST'),
  target: fc.oneof(
    fc.constantFrom(...TYPES).map((t) => `/webhooks/${t}`),
    fc.constant('/webhooks'),
  ),
  version: fc.constant('HTTP/1.1'),
  headers: fc
    .option(contentTypeArb, { nil: undefined })
    .map((ct): Array<[string, string]> => [['host', '127.0.0.1'], ...(ct === undefined ? [] : [['content-type', ct] as [string, string]])]),
  framing: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Framing>({ kind: 'length' }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 70_000 }).map((size): Framing => ({ kind: 'chunked', size, fault: 'none' })) },
  ),
  body: bodyArb,
  ending: fc.constant<HostileRequest['ending']>('wait'),
});

export const hostileRequestArb: fc.Arbitrary<HostileRequest> = fc
  .oneof({ weight: 3, arbitrary: anyRequestArb }, { weight: 2, arbitrary: hostileBodyArb })
  // An incomplete request that waits would wait for the receiver's request timeout: it
  // ends its side instead (the timeout itself is a test of its own).
  .map((h) => (h.ending === 'wait' && !completeRequest(h) ? { ...h, ending: 'half-close' as const } : h));

// ---------------------------------------------------------------------------------------
// Bytes on the wire

const DEEP_WRAP = '{"guid":"MBR-deep","version":1,"x":';
const closerOf = (opener: string) => (opener === '[' ? ']' : opener === '{"a":' ? '}' : ']}');

/** A body's length in bytes, without building it (a generated run holds thousands of requests, some of megabytes). */
export function bodyLength(body: Body): number {
  switch (body.kind) {
    case 'deep': {
      const core = body.opener === '{"a":' ? 1 : 0;
      const nested = body.opener.length * body.depth + core + (body.closed ? closerOf(body.opener).length * body.depth : 0);
      return body.wrapped ? DEEP_WRAP.length + nested + (body.closed ? 1 : 0) : nested;
    }
    case 'oversize':
      return body.length;
    default:
      return bodyBytes(body).length;
  }
}

/** A body's bytes, built when its request is sent. */
export function bodyBytes(body: Body): Buffer {
  switch (body.kind) {
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'text':
      return Buffer.from(body.text, 'utf8');
    case 'deep': {
      const closer = closerOf(body.opener);
      const core = body.opener === '{"a":' ? '1' : '';
      const nested = body.opener.repeat(body.depth) + core + (body.closed ? closer.repeat(body.depth) : '');
      return Buffer.from(body.wrapped ? `${DEEP_WRAP}${nested}${body.closed ? '}' : ''}` : nested);
    }
    case 'oversize': {
      const out = Buffer.alloc(body.length, 0x61);
      out.write('{"a":"', 0);
      out.write('"}', body.length - 2);
      return out;
    }
    case 'not-utf8': {
      const json = Buffer.from(body.json);
      const splice = Buffer.from(body.splice);
      if (body.at === 'bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), splice, json]);
      const at = json.indexOf('"', json.indexOf(':')) + 1; // inside the first value's string
      return Buffer.concat([json.subarray(0, at), splice, json.subarray(at)]);
    }
  }
}

/** The request as bytes, in pieces (a large body goes out in chunks, with backpressure). */
function requestPieces(h: HostileRequest): Buffer[] {
  const body = bodyBytes(h.body);
  const lines = [`${h.method} ${h.target} ${h.version}`.trimEnd(), ...h.headers.map(([k, v]) => `${k}: ${v}`)];
  const f = h.framing;
  if (f.kind === 'length') lines.push(`content-length: ${body.length}`);
  if (f.kind === 'lying-length') lines.push(`content-length: ${f.announced}`);
  if (f.kind === 'bad-length') lines.push(...f.headers.map(([k, v]) => `${k}: ${v}`));
  if (f.kind === 'chunked') lines.push('transfer-encoding: chunked');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (f.kind !== 'chunked') return [head, ...slices(body, 65_536)];
  const pieces: Buffer[] = [head];
  // At most 2,000 chunks: a generated run stays a few megabytes on the wire.
  slices(body, Math.max(f.size, Math.ceil(body.length / 2_000))).forEach((chunk, i) => {
    const size = f.fault === 'bad-size' ? 'zz' : chunk.length.toString(16);
    const ext = f.fault === 'long-extension' && i === 0 ? `;ext=${'e'.repeat(20_000)}` : '';
    pieces.push(Buffer.from(`${size}${ext}\r\n`), chunk, Buffer.from('\r\n'));
  });
  if (f.fault === 'trailer') pieces.push(Buffer.from('0\r\nx-trailer: 1\r\n\r\n'));
  else if (f.fault !== 'no-last-chunk') pieces.push(Buffer.from('0\r\n\r\n'));
  return pieces;
}

function slices(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** A short description of a request (the counterexample printer shows the structure; this names it in a figure's list). */
export function describe(h: HostileRequest): string {
  const b = h.body;
  const body =
    b.kind === 'deep'
      ? `nested ${b.depth} (${b.opener}${b.closed ? ', closed' : ''}${b.wrapped ? ', in an object' : ''})`
      : b.kind === 'oversize'
        ? `${b.length} bytes`
        : `${b.kind} of ${bodyLength(b)} bytes`;
  return `${JSON.stringify(h.method)} ${JSON.stringify(h.target.length > 80 ? `${h.target.slice(0, 80)}…` : h.target)} ${h.version}, framing ${JSON.stringify(h.framing).slice(0, 120)}, body ${body}, ${h.ending}`;
}

// ---------------------------------------------------------------------------------------
// One exchange on its own connection

export interface Exchange {
  /** Statuses of the final answers read (interim 1xx answers skipped). */
  statuses: number[];
  /** The `error` field of each final answer's JSON body, where it has one. */
  errors: Array<string | undefined>;
  /** Statuses of interim answers (100 Continue). */
  interim: number[];
  /** Every piece of the request was handed to the socket. */
  wroteAll: boolean;
  /** The client's socket error, if any (a reset or a write after the receiver closed). */
  error?: string;
  /** No answer and no close within EXCHANGE_LIMIT_MS. */
  hang: boolean;
}

/**
 * Final and interim statuses of the HTTP/1.1 responses in `data` (RFC 9112 §6: a body
 * framed by Content-Length, chunked, or to the close; none to a HEAD request, RFC 9110 §9.3.2).
 */
export function parseResponses(data: Buffer, head = false): { statuses: number[]; errors: Array<string | undefined>; interim: number[]; complete: boolean } {
  const statuses: number[] = [];
  const errors: Array<string | undefined> = [];
  const interim: number[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return { statuses, errors, interim, complete: false };
    const fields = data.subarray(at, end).toString('latin1');
    const m = /^HTTP\/\d\.\d (\d{3})/.exec(fields);
    if (!m) return { statuses, errors, interim, complete: false };
    const status = Number(m[1]);
    at = end + 4;
    if (status < 200) {
      interim.push(status);
      continue;
    }
    statuses.push(status);
    errors.push(/"error":"([a-z_]{1,40})"/.exec(data.subarray(end + 4, end + 100).toString('latin1'))?.[1]);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(fields);
    if (head || status === 204 || status === 304) continue;
    if (length) at += Number(length[1]);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(fields)) {
      for (;;) {
        const line = data.indexOf('\r\n', at);
        if (line < 0) return { statuses, errors, interim, complete: false };
        const size = Number.parseInt(data.subarray(at, line).toString('latin1'), 16);
        at = line + 2 + size + 2;
        if (size === 0) break;
      }
    } else return { statuses, errors, interim, complete: false }; // a body to the close
    if (at > data.length) return { statuses, errors, interim, complete: false };
  }
  return { statuses, errors, interim, complete: statuses.length > 0 };
}

/**
 * Writes one request on a new connection and reads what comes back: for `wait`, until a
 * final answer is read whole (then the connection is closed from this side) or the
 * receiver closes; for `half-close`, until the receiver closes; `reset` aborts the
 * connection once written.
 */
export function exchange(port: number, h: HostileRequest): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const received: Buffer[] = [];
    let wroteAll = false;
    let error: string | undefined;
    let done = false;
    const finish = (hang: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      socket.destroy();
      const parsed = parseResponses(Buffer.concat(received), h.method === 'HEAD');
      resolve({ statuses: parsed.statuses, errors: parsed.errors, interim: parsed.interim, wroteAll, error, hang });
    };
    const limit = setTimeout(() => finish(true), EXCHANGE_LIMIT_MS);
    socket.on('data', (d: Buffer) => {
      received.push(d);
      if (h.ending === 'wait' && parseResponses(Buffer.concat(received), h.method === 'HEAD').complete) finish(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => finish(false));
    socket.once('connect', async () => {
      for (const piece of requestPieces(h)) {
        if (socket.destroyed || !socket.writable) return;
        if (!socket.write(piece)) {
          const drained = await new Promise<boolean>((r) => {
            const onDrain = () => {
              socket.off('close', onClose);
              r(true);
            };
            const onClose = () => {
              socket.off('drain', onDrain);
              r(false);
            };
            socket.once('drain', onDrain);
            socket.once('close', onClose);
          });
          if (!drained) return;
        }
      }
      wroteAll = true;
      if (h.ending === 'half-close') socket.end();
      else if (h.ending === 'reset') {
        socket.resetAndDestroy();
        finish(false);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------
// Valid deliveries

export interface ValidDelivery {
  guid: string;
  version: number;
  /** The type in the path, or (undefined) in the body's `type` field on POST /webhooks. */
  pathType: string | undefined;
  raw: string;
}

/**
 * Valid member deliveries with their own guids (Events rules 2 and 3: added fields, nulls,
 * any order), each a whole request on its own connection, waiting for its answer.
 */
export function validDeliveries(count: number, prefix: string, seed: number): ValidDelivery[] {
  const extras = fc.sample(
    fc.record({
      added: fc.dictionary(fc.stringMatching(/^x_[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      nulls: fc.subarray(['is_oauth', 'use_cases', 'is_being_aggregated', 'user_guid']),
      inPath: fc.boolean(),
    }),
    { seed, numRuns: count },
  );
  return extras.map((e, i) => {
    const guid = `${prefix}${i}`;
    const body: Record<string, unknown> = { ...e.added, ...Object.fromEntries(e.nulls.map((n) => [n, null])), guid, version: i + 1 };
    if (!e.inPath) body.type = 'member';
    return { guid, version: i + 1, pathType: e.inPath ? 'member' : undefined, raw: JSON.stringify(body) };
  });
}

export function validRequest(v: ValidDelivery): HostileRequest {
  return {
    method: 'POST',
    target: v.pathType ? `/webhooks/${v.pathType}` : '/webhooks',
    version: 'HTTP/1.1',
    headers: [
      ['host', '127.0.0.1'],
      ['content-type', 'application/json'],
    ],
    framing: { kind: 'length' },
    body: { kind: 'text', text: v.raw },
    ending: 'wait',
  };
}

// ---------------------------------------------------------------------------------------
// The receiver in a child process (so a crash is an exit seen from here, not this process's end)

export interface ReceiverChild {
  url: string;
  port: number;
  child: ChildProcess;
  /** The exit code or signal, once it exited. */
  exited(): string | undefined;
  stop(): Promise<void>;
}

export async function spawnReceiver(db: string, args: string[] = []): Promise<ReceiverChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4_000);
  });
  let exit: string | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exit ${signal ?? code}${stderr ? `; stderr: ${stderr}` : ''}`;
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void gone.then(() => reject(new Error(`receiver ${exit} before listening`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    exited: () => exit,
    async stop() {
      if (exit === undefined) child.kill('SIGKILL');
      await gone;
    },
  };
}

/** Scratch directory for a receiver database: tmpfs when there is one (fsync is cheap there). */
export function scratchDir(): string {
  return mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'svc-receiver-hostile-'));
}

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

// ---------------------------------------------------------------------------------------
// The run

export interface HostileOptions {
  hostile: number;
  valid: number;
  seed: number;
  /** Connections in flight at once (valid and hostile alike). */
  lanes?: number;
  /** Every this many valid deliveries, one is sent again later (a retry: Events rule 4). */
  retryEvery?: number;
}

export interface Figure {
  seed: number;
  hostileSent: number;
  validSent: number;
  validDistinct: number;
  /** The receiver's exit, if it exited during the run. */
  exited?: string;
  /** Hostile requests in flight when the receiver exited. */
  inFlightAtExit: string[];
  alive: boolean;
  valid2xx: number;
  valid5xx: number;
  /** Valid deliveries answered something other than 200-206 or a 5xx (including no answer). */
  validOther: Array<{ guid: string; statuses: number[]; error?: string }>;
  /** Valid deliveries answered 2xx but not stored. */
  lost: string[];
  /** Valid deliveries stored but not processed exactly once. */
  notProcessedOnce: Array<{ guid: string; times: number }>;
  processedMoreThanOnce: number;
  hostileStatuses: Record<string, number>;
  /** Hostile requests answered a 5xx, or a 1xx/3xx as the final answer. */
  hostileOutOfBounds: string[];
  hostileHangs: string[];
  /** Complete hostile requests that waited and got no answer at all. */
  hostileUnanswered: string[];
  /** The observation API still lists every stored event (no stored body poisons a read). */
  observeOk: boolean;
  wallMs: number;
}

const in2xx = (s: number) => s >= 200 && s <= 206; // Events rule 4

/**
 * `hostile` generated requests and `valid` deliveries (plus their retries), shuffled
 * together and sent `lanes` at a time to a receiver child process on a fresh database;
 * then the counts. The receiver is stopped at the end.
 */
export async function runHostile(o: HostileOptions): Promise<Figure> {
  const started = performance.now();
  const lanes = o.lanes ?? 16;
  const random = seededRandom(o.seed);
  const prefix = `MBR-hostile-${o.seed}-`;
  const hostile = o.hostile > 0 ? fc.sample(hostileRequestArb, { seed: o.seed, numRuns: o.hostile }) : [];
  const valid = validDeliveries(o.valid, prefix, o.seed);
  const retries = valid.filter((_, i) => i % (o.retryEvery ?? 10) === 3);
  type Item = { kind: 'hostile'; h: HostileRequest } | { kind: 'valid'; v: ValidDelivery };
  const items: Item[] = [...hostile.map((h): Item => ({ kind: 'hostile', h })), ...valid.map((v): Item => ({ kind: 'valid', v }))];
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  // Each retry goes somewhere after its first delivery (Events rule 6: late, out of order).
  for (const v of retries) {
    const first = items.findIndex((it) => it.kind === 'valid' && it.v === v);
    items.splice(first + 1 + Math.floor(random() * (items.length - first)), 0, { kind: 'valid', v });
  }

  const dir = scratchDir();
  const receiver = await spawnReceiver(join(dir, 'receiver.sqlite'));
  const inFlight = new Set<HostileRequest>();
  let inFlightAtExit: string[] = [];
  receiver.child.once('exit', () => {
    inFlightAtExit = [...inFlight].map(describe);
  });
  const validAnswers = new Map<ValidDelivery, Exchange[]>();
  const hostileStatuses: Record<string, number> = {};
  const hostileOutOfBounds: string[] = [];
  const hostileHangs: string[] = [];
  const hostileUnanswered: string[] = [];
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < items.length && receiver.exited() === undefined) {
          const item = items[next++];
          if (item.kind === 'valid') {
            const answer = await exchange(receiver.port, validRequest(item.v));
            validAnswers.set(item.v, [...(validAnswers.get(item.v) ?? []), answer]);
            continue;
          }
          inFlight.add(item.h);
          const answer = await exchange(receiver.port, item.h);
          inFlight.delete(item.h);
          const key = answer.statuses.length
            ? answer.statuses.map((st, i) => `${st}${answer.errors[i] ? ` ${answer.errors[i]}` : ''}`).join(' + ')
            : answer.hang
              ? 'hang'
              : `closed unanswered${answer.error ? ` (${answer.error})` : ''}`;
          hostileStatuses[key] = (hostileStatuses[key] ?? 0) + 1;
          if (answer.hang) hostileHangs.push(describe(item.h));
          if (answer.statuses.some((s) => s < 200 || (s >= 300 && s < 400) || s >= 500))
            hostileOutOfBounds.push(`${answer.statuses.join('+')}: ${describe(item.h)}`);
          if (item.h.ending === 'wait' && answer.wroteAll && !answer.error && answer.statuses.length === 0 && receiver.exited() === undefined)
            hostileUnanswered.push(describe(item.h));
        }
      }),
    );

    const alive = receiver.exited() === undefined && (await getJson(`${receiver.url}/_observe/health`).catch(() => ({ status: 0 }))).status === 200;
    const figure: Figure = {
      seed: o.seed,
      hostileSent: hostile.length,
      validSent: valid.length + retries.length,
      validDistinct: valid.length,
      exited: receiver.exited(),
      inFlightAtExit,
      alive,
      valid2xx: 0,
      valid5xx: 0,
      validOther: [],
      lost: [],
      notProcessedOnce: [],
      processedMoreThanOnce: 0,
      hostileStatuses,
      hostileOutOfBounds,
      hostileHangs,
      hostileUnanswered,
      observeOk: false,
      wallMs: 0,
    };
    for (const v of valid) {
      for (const a of validAnswers.get(v) ?? [{ statuses: [], errors: [], interim: [], wroteAll: false, hang: false, error: 'never sent' }]) {
        if (a.statuses.length === 1 && in2xx(a.statuses[0])) figure.valid2xx++;
        else if (a.statuses.some((s) => s >= 500)) figure.valid5xx++;
        else figure.validOther.push({ guid: v.guid, statuses: a.statuses, error: a.error });
      }
    }
    if (alive) {
      // Drained: the worker applies every queued event while the process lives; each read
      // waits for it (settled=1), as many times as the queue needs.
      for (let i = 0; i < 1_000; i++) {
        const stats = await getJson(`${receiver.url}/_observe/processed-count?settled=1`);
        if (stats.body?.queued === 0) {
          figure.processedMoreThanOnce = stats.body.processed_more_than_once;
          break;
        }
      }
      const times = new Map<string, number>();
      let afterId = 0;
      figure.observeOk = true;
      for (;;) {
        const page = await getJson(`${receiver.url}/_observe/events?type=member&after_id=${afterId}&limit=10000`);
        if (page.status !== 200) {
          figure.observeOk = false;
          break;
        }
        const events = page.body.events as Array<{ id: number; guid: string | null; times_processed: number }>;
        if (events.length === 0) break;
        for (const e of events) if (e.guid?.startsWith(prefix)) times.set(e.guid, (times.get(e.guid) ?? 0) + e.times_processed);
        afterId = events[events.length - 1].id;
      }
      for (const v of valid) {
        const answered2xx = (validAnswers.get(v) ?? []).some((a) => a.statuses.length === 1 && in2xx(a.statuses[0]));
        const n = times.get(v.guid);
        if (answered2xx && n === undefined) figure.lost.push(v.guid);
        else if (n !== undefined && n !== 1) figure.notProcessedOnce.push({ guid: v.guid, times: n });
      }
    }
    figure.wallMs = Math.round(performance.now() - started);
    return figure;
  } finally {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The verdicts of a figure, as sentences; empty when it holds. */
export function figureFailures(f: Figure): string[] {
  const out: string[] = [];
  if (!f.alive) out.push(`the receiver is not alive (${f.exited ?? 'health check failed'}); in flight at its exit: ${f.inFlightAtExit.join(' | ') || 'none'}`);
  if (f.valid2xx !== f.validSent) out.push(`${f.validSent - f.valid2xx} of ${f.validSent} valid deliveries were not answered 2xx`);
  if (f.valid5xx) out.push(`${f.valid5xx} valid deliveries got a 5xx`);
  if (f.validOther.length) out.push(`valid deliveries answered otherwise: ${JSON.stringify(f.validOther.slice(0, 5))}`);
  if (f.lost.length) out.push(`${f.lost.length} valid deliveries answered 2xx but not stored: ${f.lost.slice(0, 5).join(', ')}`);
  if (f.notProcessedOnce.length) out.push(`valid deliveries not processed exactly once: ${JSON.stringify(f.notProcessedOnce.slice(0, 5))}`);
  if (f.processedMoreThanOnce) out.push(`${f.processedMoreThanOnce} events processed more than once`);
  if (f.hostileOutOfBounds.length) out.push(`hostile requests answered out of bounds: ${f.hostileOutOfBounds.slice(0, 5).join(' | ')}`);
  if (f.hostileHangs.length) out.push(`hostile requests left hanging: ${f.hostileHangs.slice(0, 5).join(' | ')}`);
  if (f.hostileUnanswered.length) out.push(`complete hostile requests never answered: ${f.hostileUnanswered.slice(0, 5).join(' | ')}`);
  if (f.alive && !f.observeOk) out.push('the observation API failed to list the stored events');
  return out;
}

export function formatFigure(f: Figure): string {
  const statuses = Object.entries(f.hostileStatuses)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  return [
    `seed ${f.seed}: ${f.hostileSent} hostile requests interleaved with ${f.validSent} valid deliveries (${f.validDistinct} distinct, the rest retries)`,
    `  receiver alive: ${f.alive}${f.exited ? ` (${f.exited})` : ''}`,
    `  valid: ${f.valid2xx} answered 2xx, ${f.valid5xx} 5xx, ${f.validOther.length} otherwise; ${f.lost.length} lost; ${f.notProcessedOnce.length} not processed exactly once; ${f.processedMoreThanOnce} events processed more than once`,
    `  hostile answers: ${statuses}`,
    `  hostile out of bounds: ${f.hostileOutOfBounds.length}; hangs: ${f.hostileHangs.length}; complete but unanswered: ${f.hostileUnanswered.length}`,
    `  observation API after the run: ${f.observeOk ? 'lists every stored event' : 'FAILED'}`,
    `  wall time ${(f.wallMs / 1000).toFixed(1)} s (a figure, never a verdict)`,
  ].join('\n');
}
