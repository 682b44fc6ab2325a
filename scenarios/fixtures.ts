/**
 * Fixtures every scenario uses (../shared/DESIGN.md, "scenarios/"), composed as
 * Playwright's own tests compose theirs: one typed fixture object per concern, chained
 * with `.extend()` (https://github.com/microsoft/playwright/blob/main/tests/config/baseTest.ts).
 *
 *   target    `profile` (targets/index.ts: URLs and settings) and `contract` (contracts/),
 *             plus the production guard
 *   client    `api`, the CHECKED client (scenarios/fixtures/client.ts): every response goes
 *             through the contract checks; `poll`, a bounded poller (fixtures/poll.ts)
 *   outcome   a run whose failures are its expected outcome keeps its worker
 *             (fixtures/outcome.ts)
 *   findings  the test's contract findings, written once as it ends (fixtures/findings.ts)
 *
 * The self-test adds its own concern (which catalogue entry a scenario runs under, one
 * simulator per entry) in its own `test` (proof/entry-test.ts), built on this `test`
 * under its own configuration (proof/playwright.config.ts); nothing here knows of it.
 *
 * Guards, decided before a test body runs:
 *   - production: unless the user opted in (SVC_ALLOW_DESTRUCTIVE, see profile.ts),
 *     only tests tagged @readonly run (DESIGN.md, "Target profiles": "Production is
 *     read-only unless the user says otherwise in so many words"); @destructive
 *     tests are skipped with a message.
 *   - requireSetting(value, 'SVC_X') skips a test that needs a setting the profile
 *     lacks, naming the variable; never a crash.
 */
import { test as base, expect, type Fixtures } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { createRedactor, loadProfile, profileSecrets, runSettings, type TargetProfile } from '../targets/index.ts';
import { loadContract, type Contract } from '../contracts/index.ts';
import { CheckedClient } from './fixtures/client.ts';
import { CLEANUP_FAILED_ANNOTATION, CREATED_BEFORE_SKIP_ANNOTATION, describeTeardownFailure, INCONCLUSIVE_ANNOTATION } from './cleanup.ts';
import { makePoll, type Poll } from './fixtures/poll.ts';
import { outcomeFixtures, type OutcomeFixtures } from './fixtures/outcome.ts';
import { findingsFixtures, type FindingsFixtures } from './fixtures/findings.ts';

export { expect };
export { CheckedClient, currentVersion, requireSetting, TIER_ANNOTATION } from './fixtures/client.ts';
export type { CheckedResponse } from './fixtures/client.ts';
export { findingsTest, noteFailures, noteFinding } from './fixtures/findings.ts';
export type { Poll } from './fixtures/poll.ts';

export interface TargetFixtures {
  profile: TargetProfile;
  targetGuard: void;
}
export interface TargetWorkerFixtures {
  contract: Contract;
  /** The run's profile (the process's environment, or the project's `targetEnv`). */
  runProfile: TargetProfile;
  /**
   * The environment the profile is read from, when a project gives one instead of the
   * process's (proof/playwright.runs.config.ts: a batch of runs against different
   * targets in one invocation, each project read exactly as a process with that env).
   */
  targetEnv: Record<string, string> | undefined;
}

/** The target's concern: the profile and the contract. */
export const targetFixtures: Fixtures<TargetFixtures, TargetWorkerFixtures> = {
  targetEnv: [undefined, { option: true, scope: 'worker' }],
  runProfile: [async ({ targetEnv }, use) => use(loadProfile(targetEnv ?? process.env)), { scope: 'worker' }],
  profile: async ({ runProfile }, use) => use(runProfile),
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
};

export interface ClientFixtures {
  api: CheckedClient;
  poll: Poll;
  /**
   * Attach every exchange to the report (the default). The self-test turns it off: it
   * reads only pass/fail and the error, and an attachment per exchange of a whole matrix
   * costs more runner time and report size than the scenarios themselves.
   */
  attachExchanges: boolean;
}

/** The client's concern: the checked client and the poller. */
export const clientFixtures: Fixtures<ClientFixtures, object, TargetFixtures, TargetWorkerFixtures> = {
  attachExchanges: [true, { option: true }],
  api: async ({ profile, contract, attachExchanges }, use, testInfo) => {
    const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
    const client = new CheckedClient(profile, contract, redactor, testInfo, attachExchanges);
    await use(client);
    // Leave nothing behind: the users the test created, deleted whether it passed, failed
    // or skipped. A user that could not be deleted is named in an annotation and on the
    // console, and does not fail the test: the scenario's verdict is about the target's
    // behaviour, and cleanupLeftovers (scenarios/cleanup.ts) removes it later by its id.
    const created = client.createdUsers.pending.length;
    // A scenario checks the settings it needs before it creates anything: one that created
    // users and then skipped is named (tests/real-target.system.test.ts asserts there is none).
    // An inconclusive skip is not one: it comes after the observation the users served (a
    // job that ended before the second request arrived, whatever the target's pace).
    const inconclusive = testInfo.annotations.some((a) => a.type === INCONCLUSIVE_ANNOTATION);
    if (testInfo.status === 'skipped' && created && !inconclusive) {
      testInfo.annotations.push({
        type: CREATED_BEFORE_SKIP_ANNOTATION,
        description: `${created} user(s) created before the test skipped: check the setting before creating anything`,
      });
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
};

/** Every scenario's test: its findings' attachment, target, client, outcome. */
export const test = base
  .extend<FindingsFixtures>(findingsFixtures)
  .extend<TargetFixtures, TargetWorkerFixtures>(targetFixtures)
  .extend<ClientFixtures>(clientFixtures)
  .extend<OutcomeFixtures>(outcomeFixtures);
export type ScenarioTest = typeof test;
