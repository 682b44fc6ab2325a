/**
 * Playwright reporter: at the end of a run, prints on the console how many contract
 * findings of each tier the run produced (issue 11, "Inferred expectations are their own
 * tier ... reported apart in the console"):
 *
 *   stated failures        `contract failure` annotations: a sentence of the specification
 *                          is broken; the test failed
 *   inferred deviations    `inferred` annotations (the checked client and
 *                          scenarios/inferred.ts): reasonable but unstated; gating only
 *                          under SVC_STRICT=1
 *   informational warnings `contract warning` annotations: never gating
 *
 * The annotation types are those of scenarios/fixtures.ts (TIER_ANNOTATION). Only the last
 * attempt of a retried test counts. The most frequent distinct findings are listed (five
 * stated, five inferred, three informational), so a reader sees at once what to look at.
 */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { TIER_ANNOTATION } from '../contracts/failure.ts';
import { loadProfile } from '../targets/index.ts';

const TYPES = TIER_ANNOTATION;
type TierName = keyof typeof TYPES;
const LISTED = 5;

interface Tally {
  count: number;
  tests: Set<string>;
  distinct: Map<string, number>;
}

export default class TierSummaryReporter implements Reporter {
  /** test id -> annotations of its latest attempt */
  private readonly latest = new Map<string, { title: string; annotations: { type: string; description?: string }[] }>();

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Runtime annotations (testInfo.annotations) arrive on the result; static ones on the test.
    const annotations = [...(result.annotations ?? []), ...test.annotations];
    this.latest.set(test.id, { title: test.titlePath().slice(1).join(' › '), annotations });
  }

  onEnd(_result: FullResult): void {
    const tallies = Object.fromEntries(
      (Object.keys(TYPES) as TierName[]).map((t) => [t, { count: 0, tests: new Set<string>(), distinct: new Map<string, number>() } satisfies Tally]),
    ) as Record<TierName, Tally>;
    for (const [id, { annotations }] of this.latest) {
      const seen = new Set<string>();
      for (const a of annotations) {
        const tier = (Object.keys(TYPES) as TierName[]).find((t) => TYPES[t] === a.type);
        if (!tier) continue;
        // A test's annotations may repeat across its own results: count each description once per test.
        const key = `${tier}\u0000${a.description ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const tally = tallies[tier];
        tally.count++;
        tally.tests.add(id);
        const d = a.description ?? '';
        tally.distinct.set(d, (tally.distinct.get(d) ?? 0) + 1);
      }
    }
    const s = tallies.stated, i = tallies.inferred, w = tallies.informational;
    const tests = (t: Tally) => `${t.tests.size} test${t.tests.size === 1 ? '' : 's'}`;
    const lines = [
      '',
      'Contract findings by tier:',
      `  stated failures:        ${s.count} (${tests(s)}) - a sentence of the specification is broken; these fail the run`,
      `  inferred deviations:    ${i.count} (${tests(i)}) - reasonable but unstated; ${loadProfile().strict ? 'gating (SVC_STRICT=1)' : 'not gating (SVC_STRICT=1 makes them fail)'}`,
      `  informational warnings: ${w.count} (${tests(w)}) - non-breaking or not stated; never gating`,
    ];
    for (const [name, tally, listed] of [['stated', s, LISTED], ['inferred', i, LISTED], ['informational', w, 3]] as const) {
      const top = [...tally.distinct.entries()].sort((a, b) => b[1] - a[1]).slice(0, listed);
      for (const [description, n] of top) lines.push(`    ${name}: ${description.length > 220 ? `${description.slice(0, 217)}...` : description}${n > 1 ? ` (x${n})` : ''}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
