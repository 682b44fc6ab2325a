/**
 * Every wait and every body is bounded, and a failure names its cause, as a test of the
 * project: Playwright runs one institutions scenario against misbehaving targets started
 * here on 127.0.0.1, each configured only by the SVC_* variables of a real target
 * (proof/real-target.ts), all in one invocation (runPlaywrightBatch):
 *
 *   huge      the institution list answered with a 200 MB body, streamed -> the run ends
 *             within its bounds, the failure names GET /institutions, the limit and
 *             SVC_MAX_BODY_BYTES; the target managed to send little more than the limit
 *   reset     every connection reset (ECONNRESET)
 *   refused   nothing listening on the port
 *   stall     headers never sent (SVC_REQUEST_TIMEOUT_MS 1500 ms)
 *   redirect  302 to a login page
 *
 * -> each failure's first line names the method, the URL, and the limit and setting or
 * the Location; no process of the run's group is left when the runner ends.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { figures, runPlaywrightBatch, type PlaywrightRun, type RunTest } from '../proof/real-target.ts';
import { realTargetEnv } from '../targets/index.ts';

/** The scenario run against each target: a read of the test institution, then the name-filtered list. */
const GREP = 'the name filter narrows the institution list';
const HUGE_BYTES = 200 * 1024 * 1024;
const DEFAULT_LIMIT = 16 * 1024 * 1024;
/** Each run's test bound; the request bound (below) is far under it. */
const TEST_TIMEOUT_MS = 30_000;
const LOCATION = 'https://login.example/sso?next=%2Finstitutions';

/** The test institution as a conforming target answers it (GET /institutions/{code}). */
const INSTITUTION = JSON.stringify({
  // Resources, Institution: every field the specification names (values nullable).
  institution: {
    code: 'svcbank',
    guid: 'INS-0c82095a-7f4b-5f38-bfe5-c0093aa9bf3b',
    name: 'SVC Bank',
    created_at: '2025-01-01T00:00:00+00:00',
    is_hidden: false,
    status: 'ACTIVE',
    client_status: 'ACTIVE',
    is_disabled_by_client: false,
    instructional_text: null,
    instructional_text_steps: null,
    forgot_password_url: null,
    forgot_username_url: null,
    trouble_signing_in_url: null,
    supports_oauth: false,
    supported_products: ['transactions'],
  },
});

interface Target {
  base: string;
  requests: () => number;
  close: () => Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Target> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Bytes the huge target wrote before its client went away (the most of any one response). */
let hugeWritten = 0;

/** The list streamed in 64 KiB chunks with backpressure, never held whole: stops when the client leaves. */
function streamHugeList(res: ServerResponse): void {
  let written = 0;
  const record = JSON.stringify({ code: 'bank', guid: 'INS-00000000-0000-4000-8000-000000000001', name: 'SVC Bank 2', supported_products: ['transactions'] });
  const chunk = Buffer.from(`${`${record},`.repeat(Math.floor(65_536 / (record.length + 1)))}`);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"institutions":[');
  res.on('error', () => {});
  res.on('close', () => (hugeWritten = Math.max(hugeWritten, written)));
  const pump = () => {
    while (written < HUGE_BYTES && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(`${record}]}`);
  };
  pump();
}

const targets: Record<string, Target> = {};
let refusedBase = '';
let runs: Map<string, PlaywrightRun>;

before(async () => {
  targets.huge = await serve((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname === '/institutions') streamHugeList(res);
    else res.writeHead(200, { 'content-type': 'application/json' }).end(INSTITUTION);
  });
  targets.reset = await serve((req) => req.socket.resetAndDestroy());
  targets.stall = await serve(() => {});
  targets.redirect = await serve((_req, res) => res.writeHead(302, { location: LOCATION, 'content-type': 'text/html' }).end('<a href="/sso">Sign in</a>'));
  const gone = await serve(() => {});
  refusedBase = gone.base;
  await gone.close();

  const run = (name: string, base: string, extra: Record<string, string> = {}) => ({
    name,
    folder: 'api',
    grep: GREP,
    env: realTargetEnv(base, { SVC_REQUEST_TIMEOUT_MS: '5000', SVC_AGGREGATION_TIMEOUT_MS: '5000', SVC_TEST_TIMEOUT_MS: String(TEST_TIMEOUT_MS), ...extra }),
    timeoutMs: TEST_TIMEOUT_MS,
    failuresExpected: true,
  });
  runs = await runPlaywrightBatch(
    [
      run('huge', targets.huge.base),
      run('reset', targets.reset.base),
      run('refused', refusedBase),
      run('stall', targets.stall.base, { SVC_REQUEST_TIMEOUT_MS: '1500' }),
      run('redirect', targets.redirect.base),
    ],
    { workers: 2 },
  );
});

after(async () => {
  await Promise.all(Object.values(targets).map((t) => t.close()));
});

/** The one test of a run, failed, and the first line of its error. */
function failure(name: string): { test: RunTest; line: string } {
  const run = runs.get(name)!;
  console.log(`${name}: ${figures(run)}`);
  assert.deepEqual(run.globalErrors, [], run.globalErrors.join('\n') + run.stderrTail);
  assert.equal(run.tests.length, 1, `one scenario ran against ${name}: ${run.tests.map((t) => t.name).join(', ')}`);
  const t = run.tests[0]!;
  console.log(`  the scenario failed after ${t.durationMs} ms`);
  assert.equal(t.status, 'failed', `${t.name}: ${t.status}`);
  return { test: t, line: (t.firstError ?? '').split('\n')[0]! };
}

test('the batch ends within its bounds and leaves no process of its group behind', () => {
  const any = runs.get('huge')!;
  assert.equal(any.timedOut, false);
  assert.ok(any.durationMs < 60_000, `the batch took ${Math.round(any.durationMs)} ms`);
  assert.deepEqual(any.leftover, [], 'no worker outlived the runner');
  console.log(`batch of five targets: ${(any.durationMs / 1000).toFixed(1)} s`);
});

test('a list answered with 200 MB: the failure names GET /institutions, the limit and SVC_MAX_BODY_BYTES; reading stopped at the limit', () => {
  const { line } = failure('huge');
  assert.match(
    line,
    new RegExp(
      `^TransportError: GET ${targets.huge!.base}/institutions\\?name=SVC\\+Bank&records_per_page=100 \\(operation GET /institutions\\): the 200 application/json answer's body is larger than the limit of ${DEFAULT_LIMIT} bytes \\(16 MiB, SVC_MAX_BODY_BYTES\\); reading stopped at the limit \\(no Content-Length\\)\\. Raise SVC_MAX_BODY_BYTES if a body this large is legitimate\\.$`,
    ),
  );
  // What the socket buffers held beyond the limit is all the target could send.
  assert.ok(hugeWritten > 0 && hugeWritten < DEFAULT_LIMIT + 16 * 1024 * 1024, `the target wrote ${hugeWritten} bytes of ${HUGE_BYTES}`);
});

test('a reset names the method, the URL and when it came', () => {
  const { line } = failure('reset');
  assert.match(
    line,
    new RegExp(
      `^TransportError: GET ${targets.reset!.base}/institutions/svcbank \\(operation GET /institutions/\\{institution_identifier\\}\\): the target reset the connection \\(ECONNRESET\\) before any response headers\\.$`,
    ),
  );
});

test('a refused connection names the method, the URL and SVC_BASE_URL', () => {
  const { line } = failure('refused');
  const hostPort = refusedBase.replace('http://', '');
  assert.equal(
    line,
    `TransportError: GET ${refusedBase}/institutions/svcbank (operation GET /institutions/{institution_identifier}): connection refused (ECONNREFUSED): nothing listens at ${hostPort}; the URL comes from SVC_BASE_URL (target.baseUrl in a config file).`,
  );
});

test('a stall names the method, the URL, SVC_REQUEST_TIMEOUT_MS and its value, before the test bound', () => {
  const { test: t, line } = failure('stall');
  assert.match(
    line,
    new RegExp(
      `^TransportError: GET ${targets.stall!.base}/institutions/svcbank \\(operation GET /institutions/\\{institution_identifier\\}\\): no response headers arrived within 1500 ms \\(SVC_REQUEST_TIMEOUT_MS=1500, the bound of one request\\); the target stalled; the URL comes from SVC_BASE_URL \\(target\\.baseUrl in a config file\\)\\.$`,
    ),
  );
  assert.ok(!/Test timeout/.test(t.firstError ?? ''), 'not a bare test timeout');
  assert.ok((t.durationMs ?? Infinity) < TEST_TIMEOUT_MS, `failed after ${t.durationMs} ms`);
});

test('a redirect where none is documented names its Location', () => {
  const { line } = failure('redirect');
  assert.equal(
    line,
    `Error: The service answered 302 (Location: ${LOCATION}) to GET /institutions/svcbank (platform, Accept-Version v20260929), where no redirect is documented and the suite follows none. Body: <a href="/sso">Sign in</a>`,
  );
});
