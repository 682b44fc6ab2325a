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
/**
 * The late retry of the proof: later than the forgetful variant keeps a key (FORGET_MS) and
 * after more deliveries than the short log keeps (50), each by a margin no load removes.
 */
const FORGET_MS = 1000;
const LATE: P.LateRetry = { afterMs: 2 * FORGET_MS, deliveriesBetween: 60 };
/** Each late run waits LATE.afterMs: two runs, not the default's. */
const RUNS: Record<string, number> = { 'late duplicate is processed once': 2 };
const PROPERTIES: Record<string, (r: ReceiverUnderTest) => fc.IAsyncPropertyWithHooks<any>> = {
  'valid payload gets a 2xx': (r) => P.validPayloadGets2xx(r),
  'malformed body gets a 2xx or a 4xx': (r) => P.malformedBodyGets2xxOr4xx(r),
  'answer within the bound': (r) => P.answersWithinBound(r, BOUND_MS),
  'duplicate gets a 2xx and is processed once': (r) => P.duplicateProcessedOnce(r),
  'late duplicate is processed once': (r) => P.lateDuplicateProcessedOnce(r, LATE),
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
  'forgets-duplicates-after-50-deliveries': 'late duplicate is processed once',
  'forgets-duplicates-after-a-while': 'late duplicate is processed once',
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
      const out = await fc.check(make(r), P.propertyParameters(RUNS[name] ?? 60));
      assert.equal(out.failed, false, `${name}: ${fc.defaultReportMessage(out)}`);
    }
  } finally {
    await r.close();
  }
});

for (const variant of BROKEN_VARIANTS) {
  const property = PROOF[variant];
  test(`broken variant ${variant} fails "${property}" with a counterexample`, async () => {
    const r = await startReference({ broken: variant, slowMs: 2 * BOUND_MS, forgetMs: FORGET_MS });
    try {
      const out = await fc.check(PROPERTIES[property](r), P.propertyParameters(RUNS[property] ?? 200));
      assert.equal(out.failed, true, `${variant} passed "${property}" in ${out.numRuns} runs`);
      assert.ok(out.counterexample, 'a counterexample is reported');
    } finally {
      await r.close();
    }
  });
}

// Each dimension of the late retry is what catches its variant: a retry as late but after
// fewer deliveries than the short log keeps, or after 10 deliveries but at once (10 answers
// take milliseconds against FORGET_MS), is recognised.
for (const [variant, notLateEnough] of [
  ['forgets-duplicates-after-50-deliveries', { ...LATE, deliveriesBetween: 10 }],
  ['forgets-duplicates-after-a-while', { afterMs: 0, deliveriesBetween: 10 }],
] as const) {
  test(`broken variant ${variant} passes a retry that is not late in its dimension (${JSON.stringify(notLateEnough)})`, async () => {
    const r = await startReference({ broken: variant, forgetMs: FORGET_MS });
    try {
      const out = await fc.check(P.lateDuplicateProcessedOnce(r, notLateEnough), P.propertyParameters(1));
      assert.equal(out.failed, false, fc.defaultReportMessage(out) ?? '');
    } finally {
      await r.close();
    }
  });
}
