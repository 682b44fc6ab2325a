/**
 * The fuzz project (`npx playwright test --project fuzz`, tag @fuzz):
 * every operation of the platform (each supported version), audience and test-host
 * documents, fuzzed with requests drawn from its description (scenarios/fuzz/engine), each
 * response judged by the contract's checks plus the Schemathesis-style checks of
 * contracts/generated.ts, after stateful chains that create the resources later
 * operations need (user -> member -> accounts -> transactions, ACH return, data exchange
 * token, processor authorization code) and read each created and deleted resource back.
 *
 * Severity as everywhere: a case fails only on an error-severity finding (a stated rule,
 * or an inferred one under SVC_STRICT=1); every other finding is an annotation. The seed
 * is printed; SVC_FUZZ_SEED replays a run, SVC_FUZZ_ONLY one operation; SVC_FUZZ_RUNS and
 * SVC_FUZZ_SECONDS bound it (targets/profiles/profile.ts). Every failure shows the shrunk
 * request as a curl line with credentials redacted.
 *
 * Targets: the embedded simulator on loopback only; on a real target the destructive
 * test runs when destructive runs are allowed (profile.allowDestructive, as for every
 * @destructive scenario), otherwise the read-only one sends GET operations only.
 */
import { test, expect } from '../fixtures.ts';
import { createRedactor } from '../../targets/index.ts';
import { profileSecrets, type TargetProfile } from '../../targets/index.ts';
import { renderCounterexample } from './engine/engine.ts';
import { REACH_BOUND_MS, renderStats, runFuzz, type FuzzRunResult } from './engine/run.ts';
import type { CreatedUsers } from '../cleanup.ts';

/** A fresh seed unless SVC_FUZZ_SEED replays one. */
function seedOf(profile: TargetProfile): number {
  return profile.fuzz.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

/** The first line names the checks that caught something: the self-test counts catches per check from it. */
export function verdict(r: FuzzRunResult): string | undefined {
  const chainErrors = r.chain.steps.filter((s) => s.errors.length);
  if (!r.counterexamples.length && !chainErrors.length) return undefined;
  const checks = [
    ...new Set([...r.counterexamples.flatMap((x) => x.checks), ...chainErrors.flatMap((s) => s.errors.map((e) => /\] (\S+) /.exec(e)?.[1] ?? 'chain'))]),
  ].sort();
  return [
    `fuzz caught: ${checks.join(',')} (${r.counterexamples.length} operations, ${chainErrors.length} chain steps; seed ${r.seed})`,
    ...chainErrors.map((s) => `chain step "${s.what}" -> ${s.status}\n${s.errors.map((e) => `  ${e}`).join('\n')}\n  reproduce: ${s.curl}`),
    ...r.counterexamples.map((x) => renderCounterexample(x, r.seed)),
  ].join('\n');
}

async function fuzz(profile: TargetProfile, destructive: boolean, contract: Parameters<typeof runFuzz>[0]['contract'], createdUsers: CreatedUsers) {
  const seed = seedOf(profile);
  const info = test.info();
  // Every pass of the engine ends at a deadline of its own (the reach pass's bound, then the
  // drawn cases' SVC_FUZZ_SECONDS); the rest is the chains and teardown. Paced to a low limit
  // (fuzz.rateShare of SVC_RATE_LIMIT_PER_SECOND) the reach pass takes its whole bound.
  info.setTimeout(REACH_BOUND_MS + profile.fuzz.seconds * 1000 + 90_000);
  info.annotations.push({ type: 'fuzz seed', description: `${seed} (replay: SVC_FUZZ_SEED=${seed})` });
  console.log(`fuzz seed ${seed} (replay: SVC_FUZZ_SEED=${seed}); runs ${profile.fuzz.runs} per operation, ${profile.fuzz.seconds} s`);
  const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
  const r = await runFuzz({
    profile,
    contract,
    redactor,
    seed,
    runs: profile.fuzz.runs,
    seconds: profile.fuzz.seconds,
    destructive,
    only: profile.fuzz.only,
    createdUsers,
  });
  const lines = renderStats(r);
  for (const l of lines) console.log(l);
  info.annotations.push({ type: 'fuzz run', description: lines.join(' | ') });
  // No vacuous pass: the run must have sent cases (an empty run proves nothing).
  expect(r.stats.cases, 'generated cases sent').toBeGreaterThan(0);
  const v = verdict(r);
  if (v) throw new Error(v);
}

// The users a run creates are recorded by the `api` fixture's client, which deletes them at
// the test's teardown (scenarios/fixtures.ts), as for every scenario.
test('fuzz: every operation from its description, after stateful chains', { tag: ['@fuzz', '@destructive'] }, async ({ profile, contract, api }) => {
  test.skip(!profile.allowDestructive, 'destructive runs are not allowed on this target (SVC_ALLOW_DESTRUCTIVE); the read-only fuzz test runs instead');
  await fuzz(profile, true, contract, api.createdUsers);
});

test('fuzz: read operations from their descriptions (read-only target)', { tag: ['@fuzz', '@readonly'] }, async ({ profile, contract, api }) => {
  test.skip(profile.allowDestructive, 'this target allows destructive runs (SVC_ALLOW_DESTRUCTIVE): the full fuzz test covers the read operations');
  await fuzz(profile, false, contract, api.createdUsers);
});
