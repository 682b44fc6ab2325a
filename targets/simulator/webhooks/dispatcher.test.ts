/**
 * Dispatcher details the capture scenarios do not reach: a connection error (nothing
 * listening) is retried 12 times then dropped (Events rule 4-5), the URL is chosen per
 * type with `*` as the fallback, a skipped event is recorded, not sent (rule 8), and a
 * process that stalls as an attempt starts still delivers it before timing it out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { buildSimulator } from '../app.ts';
import { dispatcherOf, MAX_RETRIES, isDeliverySuccess } from './dispatcher.ts';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('a connection error is retried 12 times with the same bytes, then dropped', async () => {
  const port = await closedPort();
  const app = await buildSimulator({ settings: { webhookUrls: { '*': `http://127.0.0.1:${port}/hooks` }, webhookTimeScale: 1_000_000 } });
  try {
    const d = dispatcherOf(app.sim)!;
    d.sendTest('member');
    await d.idle();
    assert.equal(d.attempts.length, 1 + MAX_RETRIES);
    assert.ok(
      d.attempts.every((a) => a.error && a.status === undefined),
      'every attempt failed to connect',
    );
    assert.equal(new Set(d.attempts.map((a) => a.bodySha256)).size, 1, 'identical payload on every retry');
  } finally {
    await app.close();
  }
});

test('URL per type, with * as the fallback; no URL for the type and no * means no delivery', async () => {
  const app = await buildSimulator({ settings: { webhookUrls: { member: 'http://127.0.0.1:9/member' } } });
  try {
    const d = dispatcherOf(app.sim)!;
    assert.equal(d.urlFor('member'), 'http://127.0.0.1:9/member');
    assert.equal(d.urlFor('aggregation'), undefined);
    const res = await app.inject({ method: 'POST', url: '/_sim/webhooks/test', payload: { type: 'aggregation' } });
    assert.equal(res.statusCode, 409, 'no URL configured for the type: a clear 4xx');
    const bad = await app.inject({ method: 'POST', url: '/_sim/webhooks/test', payload: { type: 'Not A Type' } });
    assert.equal(bad.statusCode, 400);
  } finally {
    await app.close();
  }
});

test('an event emitted with skip is recorded as skipped and never attempted', async () => {
  const app = await buildSimulator({ settings: { webhookUrls: { '*': 'http://127.0.0.1:9/hooks' } } });
  try {
    const d = dispatcherOf(app.sim)!;
    d.emit({ type: 'member', body: { guid: 'MBR-x' } }, { skip: true });
    await d.idle();
    assert.equal(d.skipped.length, 1);
    assert.equal(d.attempts.length, 0);
  } finally {
    await app.close();
  }
});

test('success is exactly 200..206', () => {
  assert.deepEqual([199, 200, 204, 206, 207, 301, 404, 500].map(isDeliverySuccess), [false, true, true, true, false, false, false, false]);
});

test('without webhook URLs the recording sink stays in place', async () => {
  const app = await buildSimulator({ settings: { webhookUrls: {} } });
  try {
    assert.equal(dispatcherOf(app.sim), undefined);
  } finally {
    await app.close();
  }
});

test('a process stalled as an attempt starts still delivers it, then times out the held answer and retries', async () => {
  // The receiver holds its first answer until the dispatcher gives up (Events rule 4:
  // a read timeout triggers a retry) and answers the retry at once.
  const arrived: number[] = [];
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.push(performance.now());
      if (arrived.length > 1) res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  // The process loses the CPU for 300 ms right after each attempt is created (a GC pause,
  // a starved core): three times the attempt's 100 ms timeout.
  const stall = (message: unknown) => {
    const { request } = message as { request: { origin: string } };
    if (request.origin !== `http://127.0.0.1:${port}`) return;
    const end = performance.now() + 300;
    while (performance.now() < end);
  };
  diagnosticsChannel.subscribe('undici:request:create', stall);
  const app = await buildSimulator({
    settings: { webhookUrls: { '*': `http://127.0.0.1:${port}/hooks` }, webhookTimeScale: 1_000_000, webhookTimeoutMs: 100 },
  });
  try {
    const d = dispatcherOf(app.sim)!;
    d.sendTest('member');
    await d.idle();
    assert.equal(arrived.length, 2, 'the first attempt and its retry both reached the receiver');
    assert.match(d.attempts[0].error ?? '', /timeout/i, 'the held answer timed out');
    assert.equal(d.attempts[1].status, 204);
  } finally {
    diagnosticsChannel.unsubscribe('undici:request:create', stall);
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
