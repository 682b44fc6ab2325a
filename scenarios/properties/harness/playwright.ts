/**
 * Runs a fast-check property as a Playwright test: the counterexample (shrunk, with
 * the seed and path to replay it via WEBHOOK_PROPERTY_SEED) becomes the failure
 * message, and the number of runs lands in the report as an annotation.
 */
import fc from 'fast-check';
import { test } from '@playwright/test';
import { PROPERTY_SETTINGS } from './client.ts';
import { propertyParameters } from './properties.ts';

export async function assertProperty(property: fc.IAsyncPropertyWithHooks<any>, runs = PROPERTY_SETTINGS.runs): Promise<void> {
  const started = performance.now();
  const out = await fc.check(property, propertyParameters(runs, PROPERTY_SETTINGS.seed));
  test.info().annotations.push({
    type: 'property runs',
    description: `${out.numRuns} runs in ${((performance.now() - started) / 1000).toFixed(2)} s (seed ${out.seed})`,
  });
  if (out.failed) {
    const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(`${cause}\n\n${fc.defaultReportMessage(out)}\nReplay: WEBHOOK_PROPERTY_SEED=${out.seed}`);
  }
}
