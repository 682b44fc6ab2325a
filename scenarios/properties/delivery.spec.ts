/**
 * Delivery conformance (specification, Events, Webhooks rules 1-8; Authentication 6):
 * the simulator delivers to a capture receiver, which answers errors on purpose to
 * watch the retries; every delivery is checked with the contract's webhook check and
 * the delivery rules. Simulator only: a real service's webhook URLs are configured out
 * of band. Each webhook fault of the catalogue fails one of these
 * (proof/delivery-faults.test.ts).
 */
import { expect } from '@playwright/test';
import { formatFailure } from '../../contracts/index.ts';
import { findingsTest as test, noteFailures } from '../fixtures.ts';
import { DELIVERY_SCENARIOS, runDeliveryScenario } from './harness/delivery-scenarios.ts';
import { loadProfile } from '../../targets/index.ts';

test.describe.configure({ timeout: 60_000 });

/**
 * The process's profile (no fixture here: the in-process simulator is built per
 * scenario). The self-test names the catalogue entries in force (SVC_SIM_FAULTS,
 * SVC_SIM_VARIATIONS: profile.simulatorEntries); the in-process simulator takes them too.
 */
const PROFILE = loadProfile();
const { faults: FAULTS, variations: VARIATIONS } = PROFILE.simulatorEntries;

for (const scenario of DELIVERY_SCENARIOS) {
  test(`webhook delivery: ${scenario} @webhooks @delivery`, async () => {
    test.skip(!PROFILE.isSimulator, 'delivery conformance drives the embedded simulator only');
    const r = await runDeliveryScenario(scenario, FAULTS, VARIATIONS, PROFILE.strict);
    test.skip(!!r.skipped, r.skipped);
    test.info().annotations.push({ type: 'deliveries', description: String(r.requests) });
    // Every finding is an annotation named by its tier, as the checked client writes them;
    // only errors fail (a new enum value, say, is Versioning's non-breaking change).
    noteFailures(test.info(), r.failures);
    expect(r.failures.filter((f) => f.severity === 'error').map(formatFailure)).toEqual([]);
  });
}
