/**
 * Dispatcher details the capture scenarios do not reach: a connection error (nothing
 * listening) is retried 12 times then dropped (Events rule 4-5), the URL is chosen per
 * type with `*` as the fallback, and a skipped event is recorded, not sent (rule 8).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
    assert.ok(d.attempts.every((a) => a.error && a.status === undefined), 'every attempt failed to connect');
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
