/**
 * The recording proxy and its judge against a hostile upstream on 127.0.0.1: the
 * integration gets every answer unchanged, and the recording stays bounded and judgeable.
 * A gzip bomb is inflated no further than the recording bound (kept unjudged, marked); a
 * body nested 100 000 levels deep is one finding; bytes that are not UTF-8 reach the
 * judge as such.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHar, toHar, type RecordedExchange } from './har.ts';
import { judgeTraffic, TrafficJudge, type JudgedExchange } from './judge.ts';
import { startProxy, type RunningProxy } from './proxy.ts';

const MiB = 1024 * 1024;
const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';
const BOMB = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
const DEEP = `{"institutions":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
const PAGE = '{"institutions":[],"pagination":{"current_page":1,"per_page":25,"total_entries":0,"total_pages":1}}';
const USER = `{"user":{"guid":"${USR}","id":"u-1","email":"caf\u00e9@example.com","is_disabled":false}}`;

let upstream: Server;
let proxy: RunningProxy;
let judge: TrafficJudge;
const judged: JudgedExchange[] = [];

before(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    const path = (req.url ?? '').split('?')[0];
    if (path === '/institutions') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
    else if (path === '/institutions/deep') res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP);
    else if (path === '/institutions/zlib') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateSync(PAGE));
    else if (path === '/institutions/raw') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateRawSync(PAGE));
    else if (path === '/institutions/zstd') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end('(zstd bytes)');
    else res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.from(USER, 'latin1')));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  proxy = await startProxy({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    maxRecordedBytes: MiB,
    onExchange: (e: RecordedExchange) => judged.push(judge.add(e)),
  });
  judge = new TrafficJudge({ bases: { platform: [proxy.url], audience: [], 'test-host': [] }, check: {}, credentialsRecorded: true });
});
after(async () => {
  await proxy.close();
  upstream.closeAllConnections();
  upstream.close();
});

const BASIC = `Basic ${Buffer.from('client:key').toString('base64')}`;
async function through(path: string): Promise<{ status: number; bytes: number; judged: JudgedExchange; recorded: RecordedExchange }> {
  const before = judged.length;
  const res = await request(`${proxy.url}${path}`, { headers: { authorization: BASIC, 'accept-version': 'v20260929', accept: 'application/json' } });
  const bytes = (await res.body.arrayBuffer()).byteLength;
  while (judged.length === before) await new Promise((r) => setTimeout(r, 5));
  return { status: res.statusCode, bytes, judged: judged.at(-1)!, recorded: proxy.exchanges.at(-1)! };
}

const jsonText = (j: JudgedExchange) => j.failures.filter((f) => f.check === 'response_json_text').map((f) => `${f.tier} ${f.location}: ${f.message}`);

test('a gzip bomb: the integration gets the answer unchanged; the recording stops inflating at its bound and is not judged', async () => {
  const r = await through('/institutions');
  assert.equal(r.status, 200);
  assert.equal(r.bytes, BOMB.length, 'forwarded as received');
  assert.equal(r.recorded.response?.bodyTruncated, true);
  assert.equal(r.recorded.response?.body, undefined, 'nothing kept of a body inflating beyond the bound');
  assert.deepEqual(
    r.judged.failures.filter((f) => f.location.startsWith('response.body')),
    [],
  );
});

test('a body nested 100 000 levels deep: one finding naming the bound and the depth', async () => {
  const r = await through('/institutions/deep');
  assert.equal(r.judged.operation, 'GET /institutions/{institution_identifier}');
  assert.deepEqual(jsonText(r.judged), [
    'stated response.body: Received: a JSON body nested deeper than 128 levels (100001 levels; level 129 opens at byte 143) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it)',
  ]);
  assert.ok(!r.judged.failures.some((f) => /crashed/.test(f.message)));
});

test('a gzip body with a byte that is not UTF-8: inflated and judged, the byte reported', async () => {
  const r = await through(`/users/${USR}`);
  assert.equal(r.recorded.response?.bodyTruncated, undefined);
  const at = Buffer.byteLength(USER.slice(0, USER.indexOf('\u00e9')));
  assert.deepEqual(jsonText(r.judged), [
    `stated response.body: Received: 1 byte that is not UTF-8, the first at byte ${at}: ":"u-1","email":"caf\\xE9@example.com","is_d / Expected: JSON text encoded in UTF-8`,
  ]);
  // Exported as a HAR and read back, the recording is judged the same.
  const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-har-'));
  try {
    const file = join(dir, 'traffic.har');
    writeFileSync(file, JSON.stringify(toHar([r.recorded], { name: 'test', version: '1' })));
    const again = judgeTraffic(
      readHar(file).exchanges,
      { bases: { platform: [proxy.url], audience: [], 'test-host': [] }, check: {}, credentialsRecorded: true },
      'HAR',
    );
    assert.deepEqual(jsonText(again.exchanges[0]!), jsonText(r.judged));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deflate in the zlib format or raw is recorded decoded; a coding not decoded is recorded as received', async () => {
  for (const path of ['/institutions/zlib', '/institutions/raw']) {
    const r = await through(path);
    assert.equal(r.recorded.response?.body, PAGE, path);
    assert.equal(r.recorded.response?.bodyTruncated, undefined, path);
  }
  const zstd = await through('/institutions/zstd');
  assert.equal(zstd.recorded.response?.body, '(zstd bytes)');
});

test('a request target that is not a path (absolute URL, `*`) is refused with 400, never recorded, and the recording still becomes a HAR', async () => {
  const { connect } = await import('node:net');
  const recorded = proxy.exchanges.length;
  const port = Number(new URL(proxy.url).port);
  for (const target of ['http://example.invalid/institutions', '*']) {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`OPTIONS ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (d) => {
        text += String(d);
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer.split('\r\n')[0], /^HTTP\/1\.1 400 /, target);
    assert.match(answer, /the request target must be a path starting with \//);
  }
  assert.equal(proxy.exchanges.length, recorded, 'nothing recorded');
  assert.doesNotThrow(() => toHar(proxy.exchanges, { name: 'test', version: '0' }));
});

test('past the bound of all recorded bodies an exchange is kept without its bodies, and judged whole', async (t) => {
  const seen: RecordedExchange[] = [];
  const small = await startProxy({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    maxRecordingBytes: 1000,
    onExchange: (e) => seen.push(e),
  });
  t.after(() => small.close());
  const body = JSON.stringify({ user: { id: 'x'.repeat(400) } });
  for (let i = 0; i < 2; i++) {
    const res = await request(`${small.url}/users`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await res.body.arrayBuffer();
  }
  while (seen.length < 2) await new Promise((r) => setTimeout(r, 5));
  assert.equal(small.exchanges[0].request.body, body, 'the first, within the bound, kept whole');
  assert.equal(small.exchanges[1].request.body, undefined, 'the second kept without its request body');
  assert.equal(small.exchanges[1].response?.body, undefined);
  assert.equal(small.exchanges[1].response?.bodyTruncated, true);
  assert.equal(seen[1].request.body, body, 'the judge had the whole exchange');
  assert.equal(small.bodiesLeftOut(), 1);
});
