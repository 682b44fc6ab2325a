/**
 * Response-level webhook properties (specification, Events, Webhooks rules 2, 4, 6):
 * rules 2 and 4 (nulls, added fields, any order are valid: success 200-206), rule 6
 * (bad JSON: a 2xx or a 4xx; answer quickly).
 * Against WEBHOOK_RECEIVER_URL when set (a team's own receiver), else against the
 * reference receiver started here.
 *
 *   WEBHOOK_RECEIVER_URL=https://... npm run conformance -- --grep @webhooks
 */
import { test } from '@playwright/test';
import { PROPERTY_SETTINGS, receiverFromEnv, type ReceiverUnderTest } from './harness/client.ts';
import { answersWithinBound, malformedBodyGets2xxOr4xx, validPayloadGets2xx } from './harness/properties.ts';
import { assertProperty } from './harness/playwright.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let receiver: ReceiverUnderTest;
test.beforeAll(async () => {
  receiver = await receiverFromEnv();
});
test.afterAll(async () => {
  await receiver?.close();
});

// First: a handler slow on every answer fails here, naming its answer time, before the other
// properties of this serial file spend their test timeouts on its slowness (and are skipped).
test(`every answer comes within ${PROPERTY_SETTINGS.responseBoundMs} ms (WEBHOOK_RESPONSE_BOUND_MS) @webhooks`, async () => {
  await assertProperty(answersWithinBound(receiver, PROPERTY_SETTINGS.responseBoundMs));
});

test('every valid payload (nulls, added fields, any order, unknown types) gets a 2xx @webhooks', async () => {
  await assertProperty(validPayloadGets2xx(receiver));
});

// Events rule 6 permits a 4xx for bad JSON and forbids an error otherwise; it does not
// demand the 4xx (properties.ts, malformedBodyGets2xxOr4xx, gives the reading).
test('a body that is not valid JSON gets a 2xx or a 4xx, never a 5xx @webhooks', async () => {
  await assertProperty(malformedBodyGets2xxOr4xx(receiver));
});
