/**
 * webhook-check runs the project's receiver property suites against a team's URL: a
 * handler that answers 500 to a duplicate delivery (Events rules 4, 6: "still answer
 * success for duplicates") fails it with the property named, and a conforming one passes
 * (here the reference receiver, without its observation API, as most teams' handlers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReceiver } from '../targets/index.ts';
import { runWebhookCheck } from './webhook-check.ts';

async function check(broken?: 'answers-500-to-duplicates') {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-check-'));
  const receiver = await startReceiver({ dbPath: join(dir, 'receiver.sqlite'), ...(broken ? { broken } : {}) });
  try {
    // The late retry's wait is a second here (30 s by default): what it catches is proven by
    // proof/receiver-variants.test.ts; here it must run and pass on a conforming handler.
    const run = await runWebhookCheck({
      url: `${receiver.url}/webhooks/{type}`,
      runs: 10,
      lateRetryMs: 1000,
      lateRetryBetween: 50,
      out: join(dir, 'out'),
      env: {},
      captureWithinMs: 50_000,
    });
    return { ...run, junit: readFileSync(join(dir, 'out', 'junit.xml'), 'utf8') };
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a handler that answers 500 to a duplicate fails webhook-check, naming the property', async () => {
  const r = await check('answers-500-to-duplicates');
  assert.equal(r.code, 1, r.output);
  assert.match(r.output ?? '', /a duplicate delivery gets a 2xx/);
  assert.match(r.output ?? '', /expected 200-206 \(duplicates still get success\)/);
  assert.match(r.junit, /<(failure|error) /);
});

test('a conforming handler passes webhook-check', async () => {
  const r = await check();
  assert.equal(r.code, 0, r.output);
  assert.doesNotMatch(r.junit, /<(failure|error) /);
  assert.match(r.junit, /after any order of deliveries/, 'late and out-of-order deliveries are judged by their answers without the observation API');
  assert.match(r.junit, /a retry 1 s and 50 deliveries after the first/, 'the late retry runs, with the wait and the deliveries asked for');
});
