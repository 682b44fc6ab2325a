/**
 * Proof of the property suites (Events, Webhooks rules 3, 4 and 6): the reference receiver passes every
 * property, and each broken variant makes the property written for it fail, with a
 * counterexample found by fast-check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startReference, type ReceiverUnderTest } from '../scenarios/properties/harness/client.ts';
import * as P from '../scenarios/properties/harness/properties.ts';
import { BROKEN_VARIANTS, type BrokenVariant } from '../targets/index.ts';

/**
 * The answer-time bound of the property (Events, Webhooks: the receiver answers before
 * the service's timeout). The reference must pass it whatever the machine's load, so the
 * bound is far above its answer time, and the slow variant answers well past the bound:
 * a second apart, so no load makes either verdict flip.
 */
const BOUND_MS = 1000;
const PROPERTIES: Record<string, (r: ReceiverUnderTest) => fc.IAsyncPropertyWithHooks<any>> = {
  'valid payload gets a 2xx': (r) => P.validPayloadGets2xx(r),
  'malformed body gets a 2xx or a 4xx': (r) => P.malformedBodyGets2xxOr4xx(r),
  'answer within the bound': (r) => P.answersWithinBound(r, BOUND_MS),
  'duplicate gets a 2xx and is processed once': (r) => P.duplicateProcessedOnce(r),
  'stored object is the highest version': (r) => P.highestVersionWins(r),
  'delivery sequence with kill and restart matches the model': (r) => P.receiverMatchesModel(r),
};

const PROOF: Record<BrokenVariant, string> = {
  'answers-500-to-duplicates': 'duplicate gets a 2xx and is processed once',
  'keeps-last-not-highest': 'stored object is the highest version',
  'rejects-added-fields-400': 'valid payload gets a 2xx',
  'rejects-null-fields-400': 'valid payload gets a 2xx',
  'answers-500-to-malformed': 'malformed body gets a 2xx or a 4xx',
  'slow-answers': 'answer within the bound',
  'loses-events-on-crash': 'delivery sequence with kill and restart matches the model',
};

test('every broken variant has a proof', () => {
  assert.deepEqual(
    BROKEN_VARIANTS.filter((v) => !PROOF[v]),
    [],
  );
});

test('the reference receiver satisfies every property', async () => {
  const r = await startReference();
  try {
    for (const [name, make] of Object.entries(PROPERTIES)) {
      const out = await fc.check(make(r), P.propertyParameters(60));
      assert.equal(out.failed, false, `${name}: ${fc.defaultReportMessage(out)}`);
    }
  } finally {
    await r.close();
  }
});

for (const variant of BROKEN_VARIANTS) {
  const property = PROOF[variant];
  test(`broken variant ${variant} fails "${property}" with a counterexample`, async () => {
    const r = await startReference({ broken: variant, slowMs: 2 * BOUND_MS });
    try {
      const out = await fc.check(PROPERTIES[property](r), { ...P.propertyParameters(200), numRuns: 200 });
      assert.equal(out.failed, true, `${variant} passed "${property}" in ${out.numRuns} runs`);
      assert.ok(out.counterexample, 'a counterexample is reported');
    } finally {
      await r.close();
    }
  });
}
