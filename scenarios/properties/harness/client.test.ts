/**
 * The property harness's own reads of a receiver: bounded as every read of a target is,
 * and its settings refused by name when they are not numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { settledStats, wholeNumberSetting, type ReceiverUnderTest } from './client.ts';
import { validPayloadGets2xx } from './properties.ts';

async function observedBy(handler: RequestListener, read: (r: ReceiverUnderTest) => Promise<unknown>): Promise<unknown> {
  const server = createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    return await read({ name: 'a receiver under test', deliveryUrl: () => url, observeUrl: url, close: async () => {} });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

test('an observation answer announcing more than the bound is refused at once, naming the bound', { timeout: 10_000 }, async () => {
  // Headers only: a read without a size bound would wait for 20 MiB that never come.
  const read = observedBy(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024) });
      res.flushHeaders();
    },
    (r) => settledStats(r),
  );
  await assert.rejects(read, /property harness's bound of one observation read/);
});

test('an observation answer that is not JSON is named with its status and the URL', async () => {
  const read = observedBy(
    (_req, res) => res.writeHead(503).end('busy'),
    (r) => settledStats(r),
  );
  await assert.rejects(read, /answered 503 to GET http:\/\/127\.0\.0\.1:\d+\/_observe\/processed-count\?settled=1 with a body that is not JSON: busy/);
});

test('an observation base URL that answers something else than the counts is named, not judged as lost deliveries', async () => {
  // A wrong WEBHOOK_OBSERVE_URL (one path level too deep) answers the receiver's 404 in JSON.
  const read = observedBy(
    (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}'),
    (r) => settledStats(r),
  );
  await assert.rejects(
    read,
    /WEBHOOK_OBSERVE_URL \(webhook-check --observe-url\) http:\/\/127\.0\.0\.1:\d+ is not the base URL of an observation API: GET .*\/_observe\/processed-count answered 404/,
  );
});

test("a team's observation API that lacks a count the properties read is told which, not judged as doubled deliveries", async () => {
  // {accepted, processed} without processed_more_than_once read "undefined event(s) processed more than once".
  const read = observedBy(
    (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":1,"processed":1}'),
    (r) => settledStats(r),
  );
  await assert.rejects(read, /answered 200 .* \(it lacks processed_more_than_once\)/);
  // A scoped read (one run's objects) needs their stored versions too.
  const scoped = observedBy(
    (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":1,"processed":1,"processed_more_than_once":0}'),
    (r) => settledStats(r, { type: 'member', guidPrefix: 'MBR-x' }),
  );
  await assert.rejects(scoped, /\(it lacks objects\)/);
});

test('a delivery URL where no handler takes POSTs (404) is said first, before the payload', async () => {
  const out = (await observedBy(
    (_req, res) => res.writeHead(404).end(),
    (r) => fc.check(validPayloadGets2xx(r), { numRuns: 1, endOnFailure: true }),
  )) as fc.RunDetails<unknown>;
  assert.equal(out.failed, true);
  assert.match(String((out.errorInstance as Error)?.message), /^no handler takes POSTs at http:\/\/127\.0\.0\.1:\d+ \(is it the handler's path\?/);
});

test('a property setting is a whole number or refused by name', () => {
  assert.equal(wholeNumberSetting({}, 'WEBHOOK_PROPERTY_RUNS', 1000, 1), 1000);
  assert.equal(wholeNumberSetting({ WEBHOOK_PROPERTY_RUNS: '' }, 'WEBHOOK_PROPERTY_RUNS', 1000, 1), 1000);
  assert.equal(wholeNumberSetting({ WEBHOOK_PROPERTY_RUNS: '25' }, 'WEBHOOK_PROPERTY_RUNS', 1000, 1), 25);
  assert.throws(
    () => wholeNumberSetting({ WEBHOOK_PROPERTY_RUNS: 'many' }, 'WEBHOOK_PROPERTY_RUNS', 1000, 1),
    /WEBHOOK_PROPERTY_RUNS must be a whole number >= 1, got "many"/,
  );
  assert.throws(() => wholeNumberSetting({ WEBHOOK_RESPONSE_BOUND_MS: '0' }, 'WEBHOOK_RESPONSE_BOUND_MS', 1000, 1), /got "0"/);
  assert.equal(wholeNumberSetting({ WEBHOOK_PROPERTY_SEED: '-42' }, 'WEBHOOK_PROPERTY_SEED', 0, -(2 ** 31)), -42);
});
