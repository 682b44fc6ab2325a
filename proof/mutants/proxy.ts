/**
 * The mutating reverse proxy: listens on 127.0.0.1 (one port per mutant, or one
 * recording port per scenario for the baseline) in front of a separately started target,
 * and forwards every request to it, keeping the client's Host header so the target's own
 * absolute URLs (widget and OAuth pages) point back through the proxy. One mutant in force
 * per port: its runtime (apply.ts) may refuse the request, map identifiers back, delay
 * the answer, or change the status, headers or JSON body.
 *
 * The API a request belongs to is told by the target's prefixes (the simulator serves the
 * audience service under /audience and the test host under /test-host), the operation by the
 * contract's own route matching, the version by Accept-Version (the newest without one).
 * Bodies are bounded (MAX_BODY_BYTES) and every forward is bounded (FORWARD_TIMEOUT_MS).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract, type ApiName, type Contract } from '../../contracts/index.ts';
import { HOP_BY_HOP_HEADERS, locateApi } from '../../targets/index.ts';
import { MutantRuntime, type Matched, type ProxyRequest, type ProxyResponse } from './apply.ts';
import { opRef, type Mutant, type OpRef } from './model.ts';

/** A request or answer larger than this is refused (the largest answer, 1000 institutions, is about 1 MB). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The longest the proxy waits for the target, ms (the suites' own request bound is 10 s in the mutant runs). */
const FORWARD_TIMEOUT_MS = 30_000;
/**
 * How long the proxy keeps an idle client connection: longer than the suite's transport keeps
 * one (targets/http.ts, 10 s), so the client always closes first. A proxy that closed first
 * raced a request the client sent on the connection it was closing ("the target closed the
 * connection before any response headers"), a failure no mutant made.
 */
const KEEP_ALIVE_MS = 65_000;

export interface TargetPrefixes {
  audience: string;
  testHost: string;
}

/** One exchange as the baseline records it: which operation, version and status. */
export interface SeenExchange {
  op?: OpRef;
  version?: string;
  status: number;
}

/** Not forwarded: the connection's own fields (targets/ HOP_BY_HOP_HEADERS), and the length, which the proxy sets for the body it sends. */
const notForwarded = (name: string) => HOP_BY_HOP_HEADERS.has(name) || name === 'content-length';

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        // Refused as the request's own fault (413), not the target's (502).
        reject(Object.assign(new Error(`body larger than ${MAX_BODY_BYTES} bytes`), { status: 413 }));
        stream.pause();
        return;
      }
      chunks.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Splits `/audience/api/v1/...` into the API and its own path (targets/client.ts locateApi, the target's prefixes as its bases). */
function apiOf(path: string, prefixes: TargetPrefixes): { api: ApiName; path: string } {
  const at = locateApi({ platform: [''], audience: [prefixes.audience], 'test-host': [prefixes.testHost] }, path);
  return at ? { api: at.api, path: at.relative } : { api: 'platform', path };
}

/** The operation and version a request matched (undefined op: none of the documents has it). */
function matchOf(contract: Contract, req: ProxyRequest): Matched {
  const asked = req.api === 'platform' ? req.headers['accept-version'] : undefined;
  const version = asked && contract.versions.includes(asked) ? asked : undefined;
  try {
    const hit = contract.findOperation(req.api, req.method, req.path, version);
    return { ...(hit ? { op: opRef(req.api, hit.operation.key) } : {}), ...(asked ? { version: asked } : {}) };
  } catch {
    return asked ? { version: asked } : {};
  }
}

function forward(target: URL, prefixes: TargetPrefixes, req: ProxyRequest): Promise<ProxyResponse> {
  const prefix = req.api === 'audience' ? prefixes.audience : req.api === 'test-host' ? prefixes.testHost : '';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!notForwarded(k)) headers[k] = v;
  if (req.body.length) headers['content-length'] = String(req.body.length);
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${prefix}${req.path}${req.query ? `?${req.query}` : ''}`,
        headers,
        timeout: FORWARD_TIMEOUT_MS,
      },
      (res) => {
        readBody(res).then((body) => {
          const h: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !notForwarded(k)) h[k] = v;
          h['content-length'] = String(body.length);
          resolve({ status: res.statusCode ?? 502, headers: h, body });
        }, reject);
      },
    );
    out.on('timeout', () => out.destroy(new Error(`the target did not answer within ${FORWARD_TIMEOUT_MS} ms`)));
    out.on('error', reject);
    out.end(req.body.length ? req.body : undefined);
  });
}

export interface ProxyHandle {
  url: string;
  close(): Promise<void>;
}

/** What one port does with each exchange. */
interface PortBehaviour {
  /** The mutant in force (undefined: a plain recording port). */
  runtime?: MutantRuntime;
  /** Dry runs of every mutant (the baseline): which ones would change this port's traffic. */
  shadows?: MutantRuntime[];
  seen?: SeenExchange[];
}

async function serve(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handler(contract: Contract, target: URL, prefixes: TargetPrefixes, b: PortBehaviour) {
  return async (inc: IncomingMessage, out: ServerResponse) => {
    try {
      let url: URL;
      try {
        url = new URL(inc.url ?? '/', 'http://proxy.invalid');
      } catch {
        throw Object.assign(new Error(`the request target ${JSON.stringify((inc.url ?? '').slice(0, 200))} is not a URL path`), { status: 400 });
      }
      const { api, path } = apiOf(url.pathname, prefixes);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(inc.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      let req: ProxyRequest = { method: (inc.method ?? 'GET').toUpperCase(), api, path, query: url.search.slice(1), headers, body: await readBody(inc) };
      const runtime = b.runtime;
      if (runtime) req = runtime.rewriteRequest(req);
      const matched = matchOf(contract, req);
      for (const s of b.shadows ?? []) s.refuse(req, matched, true);
      let res = runtime?.refuse(req, matched);
      if (!res) {
        res = await forward(target, prefixes, req);
        const parsed = {};
        for (const s of b.shadows ?? []) s.respond(req, matched, res, true, parsed);
        if (runtime) {
          const delay = runtime.delayMs(req, matched);
          if (delay) await new Promise((r) => setTimeout(r, delay));
          res = runtime.respond(req, matched, res);
        }
      }
      b.seen?.push({ ...(matched.op ? { op: matched.op } : {}), ...(matched.version ? { version: matched.version } : {}), status: res.status });
      out.writeHead(res.status, res.headers);
      out.end(res.body);
    } catch (e) {
      const status = (e as { status?: number }).status ?? 502;
      if (!out.headersSent) out.writeHead(status, { 'content-type': 'text/plain', ...(status === 413 ? { connection: 'close' } : {}) });
      out.end(`mutant proxy: ${(e as Error).message}`);
    }
  };
}

/** A proxy port with one mutant in force. */
export async function startMutantProxy(o: {
  target: string;
  prefixes: TargetPrefixes;
  mutant: Mutant;
  currentVersion: string;
  contract?: Contract;
}): Promise<ProxyHandle & { runtime: MutantRuntime }> {
  const contract = o.contract ?? loadContract();
  const runtime = new MutantRuntime(o.mutant, o.currentVersion);
  const server = createServer(handler(contract, new URL(o.target), o.prefixes, { runtime }));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const url = await serve(server);
  return { url, runtime, close: () => closeServer(server) };
}

/** A recording port for the baseline: what the traffic reached, which mutants would have changed it, and which of those a comparison of two answers would see. */
export async function startRecordingProxy(o: {
  target: string;
  prefixes: TargetPrefixes;
  mutants: readonly Mutant[];
  currentVersion: string;
  contract?: Contract;
}): Promise<ProxyHandle & { seen: SeenExchange[]; wouldFire: () => string[]; wouldObserve: () => string[] }> {
  const contract = o.contract ?? loadContract();
  const shadows = o.mutants.map((m) => new MutantRuntime(m, o.currentVersion));
  const seen: SeenExchange[] = [];
  const server = createServer(handler(contract, new URL(o.target), o.prefixes, { shadows, seen }));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const url = await serve(server);
  return {
    url,
    seen,
    wouldFire: () => shadows.filter((s) => s.fired > 0).map((s) => s.mutant.id),
    // drop-field-on-path: the records this port's traffic read through another operation first (apply.ts `observed`).
    wouldObserve: () => shadows.filter((s) => s.observed > 0).map((s) => s.mutant.id),
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
