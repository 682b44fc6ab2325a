/**
 * Wrong credentials fail fast, and no scenario passes on a refusal of them
 * (Authentication 1: the platform's HTTP Basic credentials; Authentication 5: the
 * audience client's). The target is the simulator, started in this process with the
 * credentials of targets/simulator-process.ts RUN_SECRETS, and the runs are configured only
 * through the SVC_* variables a user sets for a real target (realTargetEnv), with a wrong
 * API key:
 *
 *   1. `playwright test --project api` (the project's configuration, whose global setup
 *      reads the platform once with the credentials: preflight/preflight.ts
 *      assertPlatformUsable) ends within 15 s, runs no scenario, and its one error names
 *      SVC_CLIENT_ID and SVC_API_KEY;
 *   2. the same scenarios without that global setup (the batch configuration,
 *      proof/playwright.runs.config.ts, has none), the audience secret wrong too: not
 *      one passes, and each failure names the credential settings (the checked client,
 *      scenarios/fixtures/client.ts, "Refused credentials").
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTarget, type StartedTarget, realTargetEnv, RUN_SECRETS } from '../targets/index.ts';
import { runPlaywright, runPlaywrightBatch } from '../proof/real-target.ts';

const WRONG_KEY = 'wrong-credentials-test-key-9b2c';
let target: StartedTarget;

before(async () => {
  target = await startTarget({ simulator: true, env: { ...RUN_SECRETS } });
});
after(async () => {
  await target?.close();
});

test('a wrong API key stops the run in its global setup within 15 s, with one error naming SVC_CLIENT_ID and SVC_API_KEY', async () => {
  const run = await runPlaywright({ projects: ['api'], env: realTargetEnv(target.url, { SVC_API_KEY: WRONG_KEY }), timeoutMs: 60_000 });
  assert.equal(run.timedOut, false);
  assert.notEqual(run.exitCode, 0, 'the run fails');
  assert.ok(run.durationMs < 15_000, `the run ended ${(run.durationMs / 1000).toFixed(1)} s after it started`);
  assert.deepEqual(
    run.tests.filter((t) => t.status === 'passed').map((t) => t.name),
    [],
    'no scenario passed',
  );
  assert.deepEqual(
    run.tests.filter((t) => t.status === 'failed').map((t) => t.name),
    [],
    'no scenario ran to fail on its own',
  );
  assert.equal(run.globalErrors.length, 1, run.globalErrors.join('\n---\n'));
  const [error] = run.globalErrors;
  assert.match(error, /The target refused the credentials: GET \/institutions\?records_per_page=1 answered 401/);
  assert.match(error, /Check SVC_CLIENT_ID and SVC_API_KEY/);
  assert.doesNotMatch(error, /\n\s+at /, 'no stack trace');
  assert.ok(!error.includes(WRONG_KEY), 'the key itself is not shown');
});

test('without the global setup no api scenario passes on refused credentials, and every failure names them', async () => {
  const name = 'refused';
  const env = realTargetEnv(target.url, { SVC_API_KEY: WRONG_KEY, SVC_AUDIENCE_CLIENT_SECRET: 'wrong-credentials-test-secret' });
  const run = (await runPlaywrightBatch([{ name, folder: 'api', env, timeoutMs: 30_000, failuresExpected: true }], { workers: 2 })).get(name)!;
  assert.equal(run.timedOut, false);
  const passed = run.tests.filter((t) => t.status === 'passed' || t.status === 'flaky');
  const failed = run.tests.filter((t) => t.status === 'failed');
  assert.ok(failed.length > 100, `${failed.length} scenarios failed (of ${run.tests.length})`);
  assert.deepEqual(
    passed.map((t) => t.name),
    [],
    'scenarios that passed with refused credentials',
  );
  const unnamed = failed.filter(
    (t) =>
      !/The target refused the credentials: .*Check (SVC_CLIENT_ID and SVC_API_KEY|SVC_AUDIENCE_CLIENT_ID, SVC_AUDIENCE_CLIENT_SECRET and SVC_AUDIENCE_TOKEN_URL)/.test(
        t.firstError ?? '',
      ),
  );
  assert.deepEqual(
    unnamed.map((t) => `${t.name}: ${(t.firstError ?? '').split('\n')[0].slice(0, 200)}`),
    [],
    'failures that do not name the credential settings',
  );
});
