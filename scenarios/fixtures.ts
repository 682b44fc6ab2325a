/**
 * Fixtures every scenario uses (../shared/DESIGN.md, "scenarios/"), composed with
 * Playwright's `.extend()` one concern at a time:
 *
 *   target   `profile` (targets/index.ts: URLs and settings) and `contract` (contracts/),
 *            plus the production guard
 *   client   `api`, the CHECKED client (scenarios/fixtures/client.ts): every response goes
 *            through the contract checks; `poll`, a bounded poller (fixtures/poll.ts)
 *   selftest the self-test's entry and its simulator (fixtures/selftest.ts); inert
 *            outside the self-test
 *
 * Guards, decided before a test body runs:
 *   - production: unless the user opted in (SVC_ALLOW_DESTRUCTIVE, see profile.ts),
 *     only tests tagged @readonly run (DESIGN.md, "Target profiles": "Production is
 *     read-only unless the user says otherwise in so many words"); @destructive
 *     tests are skipped with a message.
 *   - requireSetting(value, 'SVC_X') skips a test that needs a setting the profile
 *     lacks, naming the variable; never a crash.
 */
import { test as base, expect } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { createRedactor, loadProfile, profileSecrets, runSettings, type TargetProfile } from '../targets/index.ts';
import { loadContract, type Contract } from '../contracts/index.ts';
import { CheckedClient } from './fixtures/client.ts';
import { CLEANUP_FAILED_ANNOTATION, CREATED_BEFORE_SKIP_ANNOTATION, describeTeardownFailure } from './cleanup.ts';
import { makePoll, type Poll } from './fixtures/poll.ts';
import { EntrySimulators, declarePerEntry, selftestEntryNamed, SELFTEST_PLAN } from './fixtures/selftest.ts';
import { expectsFailures, SELFTEST_FAILURE_ANNOTATION } from './selftest-project.ts';

export { expect };
export { CheckedClient, currentVersion, requireSetting, TIER_ANNOTATION, ALLURE_TIER_LABEL } from './fixtures/client.ts';
export type { ApiName, CallOptions, CheckedResponse, Exchange } from './fixtures/client.ts';
export type { Poll, PollOptions } from './fixtures/poll.ts';

/** The self-test's concern: which entry a test runs under, and the worker's simulators. */
const withSelftest = base.extend<{ selftestEntry: string | undefined; selftestKeepWorker: void }, { selftestSimulators: EntrySimulators; failuresExpected: boolean }>({
  selftestEntry: [undefined, { option: true }],
  /**
   * A run whose failures are its expected outcome outside the self-test (a batch project
   * against a misbehaving target, scripts/playwright.runs.config.ts): its failed scenarios
   * keep the worker as a fault entry's do (below), and are reported failed all the same.
   */
  failuresExpected: [false, { option: true, scope: 'worker' }],
  selftestSimulators: [
    async ({}, use) => {
      const simulators = new EntrySimulators();
      try {
        await use(simulators);
      } finally {
        await simulators.closeAll();
      }
    },
    { scope: 'worker' },
  ],
  /**
   * A fault entry's failed or timed-out scenario is the outcome the fault is expected to
   * produce; the self-test reads each result from the JSON report. Marking it expected here
   * (after the body, before Playwright decides) keeps the worker: Playwright discards a
   * worker after every unexpected failure, and a new worker costs seconds. The worker's
   * simulators and contract hold no per-test state a failure could spoil: every scenario
   * creates its own user.
   */
  selftestKeepWorker: [
    async ({ selftestEntry, failuresExpected }, use, testInfo) => {
      await use();
      const entry = selftestEntryNamed(selftestEntry);
      if (((entry && expectsFailures(entry)) || failuresExpected) && (testInfo.status === 'failed' || testInfo.status === 'timedOut') && testInfo.expectedStatus === 'passed') {
        testInfo.annotations.push({ type: SELFTEST_FAILURE_ANNOTATION, description: testInfo.status });
        testInfo.expectedStatus = testInfo.status;
      }
    },
    { auto: true },
  ],
});

/** The target's concern: the profile (the self-test entry's simulator, or the run's target) and the contract. */
const withTarget = withSelftest.extend<{ profile: TargetProfile; targetGuard: void }, { contract: Contract; runProfile: TargetProfile; targetEnv: Record<string, string> | undefined }>({
  /**
   * The environment the profile is read from, when a project gives one instead of the
   * process's (scripts/playwright.runs.config.ts: a batch of runs against different
   * targets in one invocation, each project read exactly as a process with that env).
   */
  targetEnv: [undefined, { option: true, scope: 'worker' }],
  runProfile: [async ({ targetEnv }, use) => use(loadProfile(targetEnv ?? process.env)), { scope: 'worker' }],
  profile: async ({ selftestEntry, selftestSimulators, runProfile }, use) => {
    const entry = selftestEntryNamed(selftestEntry);
    // An entry naming a separately started target (its own SVC_* environment) reads its
    // profile from that environment alone; any other entry gets a simulator of its own.
    if (entry?.targetEnv) await use(loadProfile(entry.targetEnv));
    else await use(entry ? (await selftestSimulators.target(entry)).profile : runProfile);
  },
  contract: [async ({}, use) => use(await loadContract()), { scope: 'worker' }],
  targetGuard: [
    async ({ profile }, use, testInfo) => {
      if (profile.isProduction && !profile.allowDestructive) {
        if (testInfo.tags.includes('@destructive')) {
          testInfo.skip(true, 'destructive scenario skipped on production: set SVC_ALLOW_DESTRUCTIVE=I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION to run it');
        } else if (!testInfo.tags.includes('@readonly')) {
          testInfo.skip(true, 'only @readonly scenarios run on production unless SVC_ALLOW_DESTRUCTIVE opts in');
        }
      }
      await use();
    },
    { auto: true },
  ],
});

/** The client's concern: the checked client and the poller. */
const withClient = withTarget.extend<{ api: CheckedClient; poll: Poll }>({
  api: async ({ profile, contract, selftestEntry }, use, testInfo) => {
    const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
    // The self-test reads only pass/fail and the error: no exchange attachments there.
    const client = new CheckedClient(profile, contract, redactor, testInfo, selftestEntry === undefined);
    await use(client);
    // Leave nothing behind: the users the test created, deleted whether it passed, failed
    // or skipped. A user that could not be deleted is named in an annotation and on the
    // console, and does not fail the test: the scenario's verdict is about the target's
    // behaviour, and cleanupLeftovers (scenarios/cleanup.ts) removes it later by its id.
    const created = client.createdUsers.pending.length;
    // A scenario checks the settings it needs before it creates anything: one that created
    // users and then skipped is named (scripts/real-target.test.ts asserts there is none).
    if (testInfo.status === 'skipped' && created) {
      testInfo.annotations.push({ type: CREATED_BEFORE_SKIP_ANNOTATION, description: `${created} user(s) created before the test skipped: check the setting before creating anything` });
    }
    const outcome = await client.createdUsers.deleteAll();
    for (const failure of outcome.failed) {
      const line = describeTeardownFailure(failure);
      testInfo.annotations.push({ type: CLEANUP_FAILED_ANNOTATION, description: line });
      console.warn(line);
    }
    if (client.requests) {
      // Sum of time spent inside HTTP requests, per test (npm run bench:suite reads it).
      const dir = runSettings().httpTimingDir;
      mkdirSync(dir, { recursive: true });
      appendFileSync(
        `${dir}/${process.pid}.jsonl`,
        `${JSON.stringify({ test: testInfo.titlePath.join(' › '), project: testInfo.project.name, requests: client.requests, httpMs: client.httpMs, testMs: testInfo.duration })}\n`,
      );
    }
  },
  poll: async ({ profile }, use) => use(makePoll(profile)),
});

/** The scenarios' test: under a self-test plan, each declaration becomes one copy per selecting entry. */
export const test = SELFTEST_PLAN ? declarePerEntry(withClient, SELFTEST_PLAN) : withClient;
