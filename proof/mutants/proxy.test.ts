/**
 * The mutating proxy forwards a request as the suite sent it, less the fields that belong
 * to one connection (RFC 9110 §7.6.1; targets/ HOP_BY_HOP_HEADERS): the target sees the
 * suite's own headers, never the proxy's connection to the suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startRecordingProxy } from './proxy.ts';

test('a request reaches the target with its own headers and without the connection-specific ones', async () => {
  const upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(req.headers));
  });
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  const proxy = await startRecordingProxy({
    target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    prefixes: { audience: '/audience', testHost: '/test-host' },
    mutants: [],
    currentVersion: 'v20260929',
  });
  try {
    const res = await request(`${proxy.url}/institutions`, {
      headers: { 'accept-version': 'v20260929', 'x-suite': 'kept', 'proxy-authorization': 'Basic c2VjcmV0', te: 'trailers' },
    });
    const seen = (await res.body.json()) as Record<string, string>;
    assert.equal(seen['x-suite'], 'kept');
    assert.equal(seen['accept-version'], 'v20260929');
    assert.equal(seen['proxy-authorization'], undefined, "a credential for the proxy is not the target's");
    assert.equal(seen.te, undefined);
    assert.equal(res.headers.connection === 'close', false, "the target's connection field is not passed on");
  } finally {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((ok) => upstream.close(ok));
  }
});
