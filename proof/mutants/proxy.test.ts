/**
 * The mutating proxy forwards a request as the suite sent it, less the fields that belong
 * to one connection (RFC 9110 §7.6.1; targets/ HOP_BY_HOP_HEADERS): the target sees the
 * suite's own headers, never the proxy's connection to the suite; and what is the request's
 * own fault (no URL path, a body above the bound) is answered as such, not as the target's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { request } from 'undici';
import { startRecordingProxy } from './proxy.ts';

/** A proxy with no mutant in front of an upstream answering `answer(req)`; both closed after `use`. */
async function withProxy(answer: (req: IncomingMessage) => string, use: (proxyUrl: string) => Promise<void>): Promise<void> {
  const upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end(answer(req));
  });
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  const proxy = await startRecordingProxy({
    target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    prefixes: { audience: '/audience', testHost: '/test-host' },
    mutants: [],
    currentVersion: 'v20260929',
  });
  try {
    await use(proxy.url);
  } finally {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((ok) => upstream.close(ok));
  }
}

test('a request reaches the target with its own headers and without the connection-specific ones', () =>
  withProxy(
    (req) => JSON.stringify(req.headers),
    async (proxyUrl) => {
      const res = await request(`${proxyUrl}/institutions`, {
        headers: { 'accept-version': 'v20260929', 'x-suite': 'kept', 'proxy-authorization': 'Basic c2VjcmV0', te: 'trailers' },
      });
      const seen = (await res.body.json()) as Record<string, string>;
      assert.equal(seen['x-suite'], 'kept');
      assert.equal(seen['accept-version'], 'v20260929');
      assert.equal(seen['proxy-authorization'], undefined, "a credential for the proxy is not the target's");
      assert.equal(seen.te, undefined);
      assert.equal(res.headers.connection === 'close', false, "the target's connection field is not passed on");
    },
  ));

test("a target that is no URL path gets 400 and a body above the bound 413: the request's fault, not the target's (502)", () =>
  withProxy(
    () => '{}',
    async (proxyUrl) => {
      const port = Number(new URL(proxyUrl).port);
      /** The status line the proxy answers to raw bytes (a write the proxy cut short is no error here). */
      const statusLine = (head: string, body?: Buffer) =>
        new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(head);
            if (body) socket.write(body);
          });
          let text = '';
          socket.on('data', (d) => {
            text += String(d);
          });
          socket.on('error', () => {});
          socket.on('close', () => resolve(text.split('\r\n')[0]));
        });
      assert.match(await statusLine('GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 400 /);
      const size = 33 * 1024 * 1024;
      assert.match(await statusLine(`POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`, Buffer.alloc(size)), /^HTTP\/1\.1 413 /);
      const ok = await request(`${proxyUrl}/institutions`);
      assert.equal(ok.statusCode, 200, 'the next request is served');
      await ok.body.dump();
    },
  ));
