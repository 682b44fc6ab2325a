/**
 * Stored-state webhook properties (specification, Events, Webhooks rules 3, 4, 6),
 * read through the observation API (targets/receiver/README.md). The reference
 * receiver is started here; a team's receiver takes part when it implements the API
 * (WEBHOOK_OBSERVE_URL). The model-based test is in receiver-model.spec.ts.
 */
import { test } from '@playwright/test';
import { receiverFromEnv, type ReceiverUnderTest } from './lib/client.ts';
import { duplicateProcessedOnce, highestVersionWins } from './lib/properties.ts';
import { assertProperty } from './lib/playwright.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let receiver: ReceiverUnderTest;
test.beforeAll(async () => {
  receiver = await receiverFromEnv();
});
test.afterAll(async () => {
  await receiver?.close();
});

test('a duplicate delivery gets a 2xx and is processed once @webhooks', async () => {
  await assertProperty(duplicateProcessedOnce(receiver));
});

test('after any order of deliveries the stored object has the highest version @webhooks', async () => {
  test.skip(!receiver.observeUrl, 'needs the observation API (WEBHOOK_OBSERVE_URL)');
  await assertProperty(highestVersionWins(receiver));
});
