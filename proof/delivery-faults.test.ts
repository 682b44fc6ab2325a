/**
 * Proof of the delivery conformance scenarios (Events, Webhooks): every fault of the catalogue's
 * webhooks section makes the scenario named for it fail with the named check.
 *
 * The rest is the self-test's delivery column (proof/adapters.ts `delivery`, `npm run
 * selftest`), not run again here (to keep `npm test` fast): the clean simulator passes every
 * delivery scenario (its clean baseline: a failure fails the self-test, and a fault only
 * counts as caught by a check that passed clean), and the webhook variations pass every
 * delivery scenario (entry all-variations, every variation in force at once). The column
 * says only that some delivery check caught each fault; which scenario and which check
 * catch it is this file's table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from '../targets/index.ts';
import { formatFailure } from '../contracts/index.ts';
import { runDeliveryScenario, type DeliveryScenario } from '../scenarios/properties/harness/delivery-scenarios.ts';

const PROOF: Record<string, { scenario: DeliveryScenario; check: string }> = {
  'webhook-retry-payload-changed': { scenario: 'retry-exhausted', check: 'webhook_retry_identical_payload' },
  'webhook-retry-after-2xx': { scenario: 'test-webhooks', check: 'webhook_no_retry_after_success' },
  'webhook-13th-retry': { scenario: 'retry-exhausted', check: 'webhook_retry_count' },
  'webhook-no-retry-on-500': { scenario: 'retry-exhausted', check: 'webhook_retry_on_failure' },
  'webhook-no-retry-on-timeout': { scenario: 'timeout', check: 'webhook_retry_on_failure' },
  'webhook-retry-schedule-ignored': { scenario: 'retry-exhausted', check: 'webhook_retry_schedule' },
  'webhook-at-in-milliseconds': { scenario: 'test-webhooks', check: 'webhook_field_formats' },
  'webhook-on-field-datetime': { scenario: 'test-webhooks', check: 'webhook_field_formats' },
  'webhook-version-not-rising': { scenario: 'test-webhooks', check: 'webhook_version_rises' },
  'webhook-delivered-despite-skip': { scenario: 'skip', check: 'webhook_skip' },
  'webhook-test-without-action': { scenario: 'test-webhooks', check: 'webhook_test_shape' },
  'webhook-oauth-token-not-reused': { scenario: 'oauth-query', check: 'webhook_oauth_token_reuse' },
  'verification-webhook-missing-accounts': { scenario: 'rule9-payloads', check: 'webhook_rule9_fields' },
  'notification-webhook-missing-member-guid': { scenario: 'rule9-payloads', check: 'webhook_rule9_fields' },
  'platform-client-receives-other-types': { scenario: 'platform-client', check: 'webhook_platform_types' },
};

test('every webhook fault of the catalogue has a proof', () => {
  const faults = CATALOG.filter((e) => e.area === 'webhooks' && e.kind === 'fault').map((e) => e.name);
  assert.deepEqual(
    faults.filter((f) => !PROOF[f]),
    [],
  );
});

for (const [fault, { scenario, check }] of Object.entries(PROOF)) {
  test(`fault ${fault} fails scenario ${scenario} with ${check}`, async () => {
    const r = await runDeliveryScenario(scenario, [fault]);
    const checks = r.failures.map((f) => f.check);
    assert.ok(checks.includes(check), `expected a ${check} failure; got: ${r.failures.map(formatFailure).join('\n') || 'none'} (${r.requests} requests)`);
  });
}
