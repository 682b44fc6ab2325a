/**
 * The capture receiver listens where the service delivers (behind a public tunnel on a live
 * run), so any request may reach it: a target that is no URL path and a body above the
 * reference receiver's bound are refused, and it goes on capturing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'undici';
import { CaptureReceiver } from './capture.ts';

function raw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => {
      answer += String(d);
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

test('`GET //` gets 400 and a body above 1 MiB gets 413; neither is captured, and the next delivery is', async (t) => {
  const capture = new CaptureReceiver();
  const url = await capture.start();
  t.after(() => capture.stop());
  assert.match((await raw(url, 'GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).split('\r\n')[0], /^HTTP\/1\.1 400 /);
  const big = await request(`${url}/hooks`, { method: 'POST', body: Buffer.alloc(2 * 1024 * 1024, 0x61) }).catch((e: Error) => e);
  if (!(big instanceof Error)) {
    assert.equal(big.statusCode, 413);
    await big.body.dump();
  }
  const ok = await request(`${url}/hooks`, { method: 'POST', body: '{"member":{}}', headers: { 'content-type': 'application/json' } });
  await ok.body.dump();
  assert.equal(ok.statusCode, 204);
  assert.deepEqual(
    capture.requests.map((r) => r.path),
    ['/hooks'],
    'only the delivery is captured',
  );
});
