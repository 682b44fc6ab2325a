/**
 * Real-environment mode is as strong as the embedded one (DESIGN.md, "The layout": the same suites run unchanged against a real environment), as a test
 * of the project: the simulator runs as a SEPARATE process (targets/simulator/main.ts,
 * what `npm run simulator` starts) and the api and browser projects run against it
 * configured only through the SVC_* variables a user sets (proof/real-target.ts).
 *
 *   1. No failure; every skipped test says exactly what it needs (names an SVC_*
 *      variable, or "simulator-only: <why>"); the passed set equals the scenario list
 *      (every test of the run's report, the list `playwright test --list` prints)
 *      minus the tests that skipped as simulator-only.
 *      It leaves nothing behind (../shared/DESIGN.md: "everything it creates carries a
 *      recognisable `id` and is deleted"): the simulator's users, listed through its own
 *      HTTP API (GET /users, paged), are the same before and after the run; no test
 *      created a user and then skipped, and no teardown failed to delete one. Users left
 *      by an "interrupted" earlier run (ids `svcct-<that run>-…`) survive the run and are
 *      then removed by cleanupLeftovers (scenarios/cleanup.ts), which leaves every user
 *      without the suite's prefix where it was.
 *   2. A misbehaving target names the cause first: against a server answering truncated
 *      JSON, every failed @smoke scenario's first message starts with "The service
 *      answered a body that is not valid JSON"; against an HTML 503 page, with "The
 *      service answered 503" (the checked client, scenarios/fixtures.ts).
 *
 * Bounded: every process has a timeout and everything listens on 127.0.0.1.
 *
 * Cost (kept low, it runs in every `npm test`): the run's own report is the scenario list (a separate
 * `playwright test --list` would start Playwright once more to print the same tests). The two
 * misbehaving targets are one Playwright invocation
 * (proof/real-target.ts `runPlaywrightBatch`: a project per target, each read from its
 * own SVC_* variables), beside the real-target run, which keeps its own process with the
 * variables in its environment (the claim of this file).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { figures, reasonKind, runPlaywright, runPlaywrightBatch, type PlaywrightRun, type RunTest } from '../proof/real-target.ts';
import { realTargetEnv, RUN_SECRETS, simulatorProcessEnv, startSimulatorProcess, loadProfile } from '../targets/index.ts';
import { printTestKey } from '../proof/playwright-plan.ts';
import { CLEANUP_FAILED_ANNOTATION, CREATED_BEFORE_SKIP_ANNOTATION, cleanupLeftovers, listUsers } from '../scenarios/cleanup.ts';

const PROJECTS = ['api', 'browser'];
const RUN_TIMEOUT_MS = 12 * 60_000;

/** Creates users with these client ids on the target (POST /users through its HTTP API); their guids. */
async function createUsers(base: string, ids: Array<string | undefined>): Promise<string[]> {
  const authorization = `Basic ${Buffer.from(`${RUN_SECRETS.SVC_CLIENT_ID}:${RUN_SECRETS.SVC_API_KEY}`).toString('base64')}`;
  const guids: string[] = [];
  for (const id of ids) {
    const res = await request(`${base}/users`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ user: id === undefined ? {} : { id } }),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const body = (await res.body.json()) as { user?: { guid?: string } };
    assert.ok(res.statusCode < 300 && body.user?.guid, `POST /users answered ${res.statusCode}`);
    guids.push(body.user!.guid!);
  }
  return guids;
}

/** A one-answer HTTP server on 127.0.0.1. */
async function misbehaving(
  answer: (res: import('node:http').ServerResponse) => void,
): Promise<{ base: string; close: () => Promise<void>; requests: () => number }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    answer(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests: () => n,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The first line of the first failure message, without a leading error class name ("Error: ..."). */
const firstLine = (t: RunTest) => (t.firstError ?? '').replace(/^\s*(?:[A-Za-z]*Error: )?/, '').split('\n')[0];

test('skip reasons are classified by what they say the test needs', () => {
  assert.equal(reasonKind('needs SVC_3DX_USER: set it to run this scenario against this target'), 'setting');
  assert.equal(reasonKind("simulator-only: drives the simulator widget's controls"), 'simulator-only');
  assert.equal(
    reasonKind('the 24-hour refresh needs a day to pass: only the simulator can be moved (POST /_sim/refresh); on a real target observe it over a day instead'),
    'simulator-only',
  );
  assert.equal(reasonKind('simulator-only:'), 'unexplained', 'simulator-only must say why');
  assert.equal(reasonKind('inconclusive: the member read 80 ms after POST aggregate was sent showed no job running'), 'inconclusive');
  assert.equal(reasonKind('inconclusive:'), 'unexplained', 'inconclusive must say why');
  assert.equal(reasonKind('not on this target'), 'unexplained');
  assert.equal(reasonKind(undefined), 'unexplained');
  assert.equal(firstLine({ firstError: 'Error: The service answered 503 to GET /users\n  at x' } as RunTest), 'The service answered 503 to GET /users');
  assert.equal(
    firstLine({ firstError: "TypeError: Cannot read properties of undefined (reading 'guid')" } as RunTest),
    "Cannot read properties of undefined (reading 'guid')",
  );
});

const CASES: Array<{ name: string; prefix: string; answer: (res: import('node:http').ServerResponse) => void }> = [
  {
    name: 'truncated JSON (application/json, body cut mid-way)',
    prefix: 'The service answered a body that is not valid JSON',
    answer: (res) => {
      const full = JSON.stringify({ user: { guid: 'USR-00000000-0000-4000-8000-000000000001', id: 'u-1', email: 'a@example.com', is_disabled: false } });
      const cut = full.slice(0, Math.floor(full.length / 2));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(cut) }).end(cut);
    },
  },
  {
    name: 'an HTML 503 page',
    prefix: 'The service answered 503',
    answer: (res) => {
      const html =
        '<!doctype html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>Please try again later.</p></body></html>';
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) }).end(html);
    },
  },
];

// The Playwright runs go two at a time: see the header.
describe('the suite against a real-target path: the simulator process and two misbehaving servers', { concurrency: 2 }, () => {
  test('against a separately started simulator, configured only by SVC_* variables, the suite gives the embedded verdicts', {
    timeout: 25 * 60_000,
  }, async () => {
    const started = performance.now();
    let run;
    let usersBefore, usersAfter, leftovers, cleanup, usersInTheEnd;
    const sim = await startSimulatorProcess(simulatorProcessEnv());
    try {
      const profile = loadProfile(realTargetEnv(sim.base));
      // The users a team keeps on its integration environment, and those an earlier run
      // left when it was interrupted.
      const foreign = await createUsers(sim.base, ['customer-7', 'svcct', 'my-svcct-earlier-user', undefined]);
      leftovers = await createUsers(sim.base, ['svcct-interrupted1-scn-user-000000000001', 'svcct-interrupted1-fuzz-user-000000000002']);
      usersBefore = await listUsers(profile);
      run = await runPlaywright({ projects: PROJECTS, env: realTargetEnv(sim.base), timeoutMs: RUN_TIMEOUT_MS });
      usersAfter = await listUsers(profile);
      cleanup = await cleanupLeftovers(profile);
      usersInTheEnd = await listUsers(profile);
      assert.deepEqual(
        usersInTheEnd.users.map((u) => u.guid).sort(),
        [...foreign].sort(),
        "cleanupLeftovers removed the interrupted run's users and only them",
      );
    } finally {
      await sim.stop();
    }
    const wallS = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`real-environment mode (simulator process, SVC_* only): ${figures(run)}\n  wall time ${wallS} s (simulator start + run)`);
    console.log(
      `users on the target: ${usersBefore.users.length} before the run, ${usersAfter.users.length} after; cleanupLeftovers deleted ${cleanup.deleted.length}, ${usersInTheEnd.users.length} remain`,
    );

    // Leave nothing behind: the same users, listed through the target's own API.
    assert.equal(usersAfter.complete && usersBefore.complete, true);
    assert.deepEqual(
      usersAfter.users.map((u) => u.guid).sort(),
      usersBefore.users.map((u) => u.guid).sort(),
      'the run left no user behind and deleted none it had not created',
    );
    assert.deepEqual(cleanup.deleted.map((u) => u.guid).sort(), [...leftovers].sort());
    assert.deepEqual(cleanup.failed, []);
    const noted = (type: string) =>
      run.tests
        .filter((t) => (t.annotations ?? []).some((a) => a.type === type))
        .map((t) => `${t.name}: ${t.annotations!.find((a) => a.type === type)!.description}`);
    assert.deepEqual(noted(CREATED_BEFORE_SKIP_ANNOTATION), [], 'no test created a user and then skipped');
    assert.deepEqual(noted(CLEANUP_FAILED_ANNOTATION), [], 'every teardown deleted what its test created');

    assert.equal(run.timedOut, false, `the run exceeded ${RUN_TIMEOUT_MS} ms`);
    assert.deepEqual(run.globalErrors, [], run.globalErrors.join('\n') + run.stderrTail);
    const failed = run.tests.filter((t) => t.status === 'failed' || t.status === 'flaky');
    assert.deepEqual(
      failed.map((t) => `${t.name}: ${(t.firstError ?? '').split('\n')[0]}`),
      [],
      'no scenario fails against the real-target path',
    );

    const skipped = run.tests.filter((t) => t.status === 'skipped');
    const unexplained = skipped.filter((t) => reasonKind(t.skipReason) === 'unexplained');
    assert.deepEqual(
      unexplained.map((t) => `${t.name}: ${t.skipReason ?? '(no reason)'}`),
      [],
      'every skip names the setting it needs or says simulator-only and why',
    );
    // Every SVC_* variable the suite reads is set here: a skip naming one is a setting this
    // test (or the README's table) forgot, and would hide a scenario on a real target.
    // The one setting this run leaves out: a second client's credentials (the simulator
    // serves one, but a real target's are another client's; the isolation scenario says so when it skips).
    const needsSecondClient = skipped.filter((t) => /SVC_SECOND_CLIENT_ID/.test(t.skipReason ?? ''));
    assert.deepEqual(
      needsSecondClient.map((t) => printTestKey(t.key)),
      ['scenarios/api/isolation.spec.ts > a user of one client is invisible to another client'],
    );
    const needsSetting = skipped.filter((t) => reasonKind(t.skipReason) === 'setting' && !needsSecondClient.includes(t));
    assert.deepEqual(
      needsSetting.map((t) => `${t.name}: ${t.skipReason}`),
      [],
      'no scenario lacks a setting when every documented variable is set',
    );

    // A verdict that depends on a job still running is inconclusive when the reads cannot
    // prove it ran (scenarios/api/jobs.ts): a skip with its reason, never a failure.
    const simulatorOnly = new Set(
      skipped.filter((t) => reasonKind(t.skipReason) === 'simulator-only' || reasonKind(t.skipReason) === 'inconclusive').map((t) => t.name),
    );
    const secondClient = new Set(needsSecondClient.map((t) => t.name));
    // The run's report holds every test the projects declare, run or not (a test the run
    // never reached has no passed result): it is the scenario list itself.
    assert.ok(run.tests.length > 50, `the scenario list has ${run.tests.length} tests`);
    const expected = run.tests
      .map((t) => t.name)
      .filter((n) => !simulatorOnly.has(n) && !secondClient.has(n))
      .sort();
    const passed = run.tests
      .filter((t) => t.status === 'passed')
      .map((t) => t.name)
      .sort();
    assert.deepEqual(passed, expected, 'passed = the scenario list minus the simulator-only tests and the one needing a second client');
    assert.ok(passed.length > 0 && passed.length >= run.tests.length - 10, `passed ${passed.length} of ${run.tests.length}`);
  });

  /** Both misbehaving targets, one Playwright invocation (the batch runs once, when the first test asks). */
  let batch: Promise<{ runs: Map<string, PlaywrightRun>; requests: number[] }> | undefined;
  const misbehavingRuns = () =>
    (batch ??= (async () => {
      const servers = await Promise.all(CASES.map((c) => misbehaving(c.answer)));
      try {
        const runs = await runPlaywrightBatch(
          CASES.map((_case, i) => ({
            name: `misbehaving-${i}`,
            folder: 'api',
            grep: '@smoke',
            env: realTargetEnv(servers[i]!.base, { SVC_REQUEST_TIMEOUT_MS: '5000', SVC_AGGREGATION_TIMEOUT_MS: '5000' }),
            timeoutMs: 5 * 60_000,
            failuresExpected: true,
          })),
          { workers: 2 },
        );
        return { runs, requests: servers.map((s) => s.requests()) };
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    })());

  for (const [i, c] of CASES.entries()) {
    test(`against a target answering ${c.name}, every failed @smoke scenario names the cause first`, { timeout: 6 * 60_000 }, async () => {
      const { runs, requests } = await misbehavingRuns();
      const run = runs.get(`misbehaving-${i}`)!;
      console.log(`misbehaving target (${c.name}): ${figures(run)}`);
      assert.equal(run.timedOut, false);
      assert.deepEqual(run.globalErrors, [], run.globalErrors.join('\n') + run.stderrTail);
      assert.ok(requests[i]! > 0, 'the scenarios reached the misbehaving server');
      const failed = run.tests.filter((t) => t.status === 'failed' || t.status === 'flaky');
      assert.ok(failed.length > 0, 'a target that answers nothing usable fails scenarios');
      const wrong = failed.filter((t) => !firstLine(t).startsWith(c.prefix));
      assert.deepEqual(
        wrong.map((t) => `${t.name}: ${firstLine(t).slice(0, 160)}`),
        [],
        `each failure's first message starts with "${c.prefix}"`,
      );
    });
  }
});
