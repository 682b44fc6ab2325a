/**
 * Webhook deliveries of a real service (Events, Webhooks), proved as a test of the
 * project: the simulator runs as a SEPARATE process (targets/simulator/main.ts)
 * told to deliver every webhook type to one URL (SVC_SIM_WEBHOOK_URL, the way a
 * service is configured out of band), and scenarios/properties/live-delivery.spec.ts
 * runs against it configured only through SVC_* variables (proof/real-target.ts:
 * the real-target path of the profile, no SVC_SIMULATOR_URL). The capture answers 503
 * to each object's first delivery (SVC_WEBHOOK_FAIL_FIRST) so retries are observed;
 * SVC_WEBHOOK_TEST_URL asks for test webhooks through the simulator's control route.
 *
 *   1. Clean: the spec passes, with deliveries checked and each rule annotated
 *      `verified`; HTTPS is `not verified` (plain http on loopback), never a pass.
 *   2. With one catalogue fault in force per run, the spec fails and its message names
 *      the rule the fault breaks (rules 1, 3, 4, 7, 8, 9, and the platform-client types
 *      under SVC_WEBHOOK_PLATFORM_CLIENT=1, whose clean run passes); with the rule 2
 *      variations (fields added, order changed) it still passes.
 *   3. Without SVC_WEBHOOK_PUBLIC_URL on a real target it skips naming the variable.
 *
 * Bounded (every run has a timeout) and on 127.0.0.1 only.
 *
 * Cost (kept low, it runs in every `npm test`): most of a run is waiting (aggregations, retries, the quiet
 * period of the capture), and each Playwright start costs CPU of its own. Only the clean
 * run starts the simulator as a separate process and runs Playwright with the SVC_*
 * variables in its own environment (what `npm run simulator` and a user's run do, the
 * claim of this file). The other runs build the same simulator in this process
 * (startTarget, exactly what targets/simulator/main.ts calls, from the same SVC_SIM_*
 * variables), each with its own capture port, and go as ONE Playwright invocation
 * (proof/real-target.ts `runPlaywrightBatch`): a project per run, whose profile is read
 * from that run's SVC_* variables as its own process would read them. The spec sees no
 * difference: it reaches the target only through the profile and HTTP, and the
 * deliveries still come over HTTP to its capture.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { figures, runPlaywright, runPlaywrightBatch, type BatchRun, type PlaywrightRun } from '../proof/real-target.ts';
import {
  freeLoopbackPort,
  liveDeliveryEnv,
  realTargetEnv,
  simulatorDeliveryEnv,
  simulatorProcessEnv,
  startSimulatorProcess,
  startTarget,
} from '../targets/index.ts';

const RUN_TIMEOUT_MS = 4 * 60_000;

/** Workers of the batch: each run is mostly waiting, so a few go at once. */
const BATCH_WORKERS = 4;

interface LiveRun {
  faults?: string[];
  variations?: string[];
  extra?: Record<string, string>;
  /** SVC_SIM_* variables beyond the delivery URL, scale and faults (the service's own out-of-band configuration). */
  sim?: Record<string, string>;
  withPublicUrl?: boolean;
  deliver?: boolean;
}

/**
 * The simulator delivering to the capture's URL (a separate process with `process: true`,
 * else built in this process from the same variables) and the environment the @live spec
 * runs with: SVC_* variables only.
 */
async function liveTarget(o: LiveRun & { process?: boolean }): Promise<{ env: NodeJS.ProcessEnv; stop: () => Promise<void> }> {
  const port = await freeLoopbackPort();
  const hookUrl = `http://127.0.0.1:${port}/hooks`;
  const simEnv = {
    ...simulatorProcessEnv(),
    // deliver: false plays a service never told this URL (configuration is out of band).
    ...simulatorDeliveryEnv(o.deliver === false ? undefined : hookUrl),
    ...(o.faults?.length ? { SVC_SIM_FAULTS: o.faults.join(',') } : {}),
    ...(o.variations?.length ? { SVC_SIM_VARIATIONS: o.variations.join(',') } : {}),
    ...o.sim,
  };
  const sim = o.process
    ? await startSimulatorProcess(simEnv)
    : await startTarget({ env: simEnv, simulator: true }).then((t) => ({ base: t.url, stop: t.close }));
  const env = realTargetEnv(sim.base, {
    // A service never told the capture's URL is asked for no test webhook either.
    ...(o.withPublicUrl === false ? {} : liveDeliveryEnv({ base: sim.base, publicUrl: hookUrl, listenPort: port, testWebhooks: o.deliver !== false })),
    ...o.extra,
  });
  return { env, stop: sim.stop };
}

/** The clean run: the simulator as a separate process, Playwright with the SVC_* variables in its environment. */
async function runLiveProcess(): Promise<PlaywrightRun> {
  const target = await liveTarget({ process: true });
  try {
    return await runPlaywright({ projects: ['properties'], grep: '@live', env: target.env, workers: 1, timeoutMs: RUN_TIMEOUT_MS });
  } finally {
    await target.stop();
  }
}

/** Every other run of this file, by name: started together, one Playwright invocation (see the header). */
const BATCH: Record<string, LiveRun> = {
  variations: { variations: ['webhook-added-fields', 'webhook-reordered-fields'] },
  'no-public-url': { withPublicUrl: false },
  'nothing-expected': { deliver: false, extra: { SVC_WEBHOOK_WAIT_MS: '3000' } },
  'nothing-unasserted': { deliver: false, extra: { SVC_WEBHOOK_WAIT_MS: '3000', SVC_WEBHOOK_EXPECT: '0' } },
  'platform-client': { sim: { SVC_SIM_WEBHOOK_PLATFORM_CLIENT: '1' }, extra: { SVC_WEBHOOK_PLATFORM_CLIENT: '1', SVC_WEBHOOK_TEST_TYPES: 'aggregation' } },
};

let batch: Promise<Map<string, PlaywrightRun>> | undefined;
/** The batch's outcome of one run (the batch runs once, when the first test asks). */
async function runLive(name: string): Promise<PlaywrightRun> {
  batch ??= (async () => {
    const targets = await Promise.all(Object.entries(BATCH).map(async ([n, o]) => ({ name: n, ...(await liveTarget(o)) })));
    try {
      const runs: BatchRun[] = targets.map((t) => ({ name: t.name, folder: 'properties', grep: '@live', env: t.env, timeoutMs: RUN_TIMEOUT_MS }));
      return await runPlaywrightBatch(runs, { workers: BATCH_WORKERS });
    } finally {
      await Promise.all(targets.map((t) => t.stop()));
    }
  })();
  const run = (await batch).get(name);
  if (!run) throw new Error(`no batch run named ${name}`);
  return run;
}

const only = (run: PlaywrightRun) => {
  assert.equal(run.timedOut, false, 'the run stayed within its bound');
  assert.deepEqual(run.globalErrors, [], run.globalErrors.join('\n') + run.stderrTail);
  // Every run ends with its run-wide invariants test (the invariants project, teardown of every scenario project).
  const tests = run.tests.filter((t) => !t.name.startsWith('[invariants]'));
  assert.equal(tests.length, 1, `one @live test in the properties project: ${tests.map((t) => t.name).join(', ')}`);
  return tests[0];
};
const notes = (t: ReturnType<typeof only>, type: string) => [...new Set((t.annotations ?? []).filter((a) => a.type === type).map((a) => a.description ?? ''))];

/**
 * A service configured as a platform client's (SVC_SIM_WEBHOOK_PLATFORM_CLIENT=1) and the
 * spec told so (SVC_WEBHOOK_PLATFORM_CLIENT=1); the test webhook asked is of a platform
 * type (Events: "For platform clients only these types are available"). The clean run with
 * it passes (below), so the fault run's failure is the fault's.
 */
const PLATFORM_CLIENT = BATCH['platform-client'];

const FAULTS: Array<{ fault: string; rule: RegExp; extra?: Record<string, string>; sim?: Record<string, string> }> = [
  { fault: 'x-callback-payload-missing-in-member-webhook', rule: /webhook_x_callback_payload .*rule: Events, Webhooks rule 8/ },
  { fault: 'aggregation-webhook-missing-job-guid', rule: /webhook_rule9_fields WEBHOOK aggregation .*job_guid.*rule: Events, Webhooks rule 9/ },
  { fault: 'webhook-at-in-milliseconds', rule: /rule: Events, Webhooks rule 1/ },
  { fault: 'webhook-version-not-rising', rule: /webhook_version_rises .*rule: Events, Webhooks rule 3/ },
  { fault: 'webhook-retry-payload-changed', rule: /webhook_retry_identical_payload .*rule: Events, Webhooks rule 4/ },
  { fault: 'webhook-on-field-datetime', rule: /rule: Events, Webhooks rule 1/ },
  { fault: 'webhook-test-without-action', rule: /webhook_delivered WEBHOOK member .*rule: Events, Webhooks rule 7/ },
  // The run verifies the member it created (POST .../verify), so a verification webhook follows.
  { fault: 'verification-webhook-missing-accounts', rule: /webhook_rule9_fields WEBHOOK verification .*accounts.*rule: Events, Webhooks rule 9/ },
  { fault: 'platform-client-receives-other-types', rule: /webhook_platform_types .*rule: Events, Webhooks/, ...PLATFORM_CLIENT },
  { fault: 'member-webhook-user-id-is-guid', rule: /webhook_user_id WEBHOOK member .*rule: Resources, Member: .{1,2}user_id/ },
  // Inferred (the aggregation payload's user_id is not described; that each update is delivered is not stated): they gate under SVC_STRICT=1.
  { fault: 'aggregation-webhook-user-id-is-guid', rule: /webhook_user_id WEBHOOK aggregation .*rule: Events, Webhooks rule 9/, extra: { SVC_STRICT: '1' } },
  { fault: 'member-webhook-stale-after-job', rule: /webhook_member_latest_state WEBHOOK member .*rule: Events, Webhooks rule 3/, extra: { SVC_STRICT: '1' } },
  // A retry that never came is inferred (rule 5's schedule is an example): it gates under SVC_STRICT=1.
  { fault: 'webhook-no-retry-on-500', rule: /webhook_retry_on_failure .*rule: Events, Webhooks rule 4/, extra: { SVC_STRICT: '1' } },
];

for (const { fault, extra, sim } of FAULTS) BATCH[`fault-${fault}`] = { faults: [fault], extra, sim };

// The clean run and the batch go at the same time: see the header.
describe('the live-delivery spec against a simulator that delivers to its capture', { concurrency: true }, () => {
  test('against a separately started simulator delivering to the capture, the live-delivery spec passes with every rule verified on what arrived', {
    timeout: RUN_TIMEOUT_MS + 60_000,
  }, async () => {
    const run = await runLiveProcess();
    const t = only(run);
    const deliveries = notes(t, 'deliveries');
    console.log(
      `live delivery (clean): ${figures(run)}\n  ${deliveries.join('\n  ')}\n  verified: ${notes(t, 'verified').join('\n    ')}\n  not verified: ${notes(t, 'not verified').join('\n    ')}`,
    );
    assert.equal(t.status, 'passed', `${t.firstError ?? t.skipReason ?? ''}`);
    const verified = notes(t, 'verified');
    for (const rule of ['HTTPS POST requests with a JSON body', 'rule 1', 'payload schema', 'rule 3', 'rule 7', 'rule 8', 'rule 9', 'rules 4-5']) {
      assert.ok(
        verified.some((v) => v.includes(rule)),
        `"${rule}" verified on at least one delivery: ${verified.join(' | ')}`,
      );
    }
    assert.ok(
      notes(t, 'not verified').some((n) => n.includes('HTTPS POST requests') && n.includes('plain http')),
      'HTTPS behind a plain-http loopback URL is reported as not verified, not as a pass',
    );
    assert.ok(!verified.some((v) => v.includes('sends HTTPS')), 'HTTPS is not counted as verified');
    const m = /^(\d+) requests \((\d+) about the member created\)/.exec(deliveries[0] ?? '');
    assert.ok(m && Number(m[2]) >= 5, `deliveries about the member were checked: ${deliveries[0]}`);
  });

  test('with added and reordered payload fields (Events rule 2, variations) the live-delivery spec still passes', {
    timeout: RUN_TIMEOUT_MS + 60_000,
  }, async () => {
    const run = await runLive('variations');
    const t = only(run);
    console.log(`live delivery (variations): ${figures(run)}`);
    assert.equal(t.status, 'passed', `${t.firstError ?? t.skipReason ?? ''}`);
  });

  test('for a platform client (SVC_WEBHOOK_PLATFORM_CLIENT=1, the service delivering only platform types) the live-delivery spec passes with the platform-type rule verified', {
    timeout: RUN_TIMEOUT_MS + 60_000,
  }, async () => {
    const run = await runLive('platform-client');
    const t = only(run);
    console.log(`live delivery (platform client): ${figures(run)}`);
    assert.equal(t.status, 'passed', `${t.firstError ?? t.skipReason ?? ''}`);
    assert.ok(
      notes(t, 'verified').some((v) => v.includes('a platform client receives only')),
      `the platform-type rule verified on what arrived: ${notes(t, 'verified').join(' | ')}`,
    );
  });

  for (const { fault, rule } of FAULTS) {
    test(`with the simulator fault ${fault} in force, the live-delivery spec fails naming the rule`, { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
      const run = await runLive(`fault-${fault}`);
      const t = only(run);
      console.log(`live delivery (${fault}): ${figures(run)}`);
      assert.equal(t.status, 'failed', `the fault ${fault} is caught (status ${t.status}${t.skipReason ? `, skipped: ${t.skipReason}` : ''})`);
      assert.match(t.firstError ?? '', rule, `the failure names the rule:\n${(t.firstError ?? '').slice(0, 1500)}`);
    });
  }

  test('on a real target without SVC_WEBHOOK_PUBLIC_URL the spec skips naming what to set', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    const run = await runLive('no-public-url');
    const t = only(run);
    assert.equal(t.status, 'skipped');
    assert.match(t.skipReason ?? '', /^needs SVC_WEBHOOK_PUBLIC_URL: .*SVC_WEBHOOK_LISTEN.*SVC_WEBHOOK_EXPECT=1/);
  });

  test('a service that delivers nothing, with SVC_WEBHOOK_EXPECT=1: a failure naming the URL and the triggers', {
    timeout: RUN_TIMEOUT_MS + 60_000,
  }, async () => {
    const expected = only(await runLive('nothing-expected'));
    assert.equal(expected.status, 'failed');
    assert.match(
      expected.firstError ?? '',
      /No webhook arrived at SVC_WEBHOOK_PUBLIC_URL=http:\/\/127\.0\.0\.1:\d+\/hooks .*after: create user USR-.*create member MBR-.*update member.*aggregate member.*SVC_WEBHOOK_EXPECT=1 says the service delivers there/,
    );
  });

  test('a service that delivers nothing, without SVC_WEBHOOK_EXPECT=1: a skip saying why', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    const unasserted = only(await runLive('nothing-unasserted'));
    assert.equal(unasserted.status, 'skipped');
    assert.match(unasserted.skipReason ?? '', /^No webhook arrived at .*Configuration is done out of band.*set SVC_WEBHOOK_EXPECT=1/);
  });
});

test('settings: plain http only for a loopback target; the type of a delivery from its path or its type-named object', async () => {
  const { liveDeliverySettings, deliveryType } = await import('../scenarios/properties/harness/live-delivery.ts');
  const { loadProfile } = await import('../targets/index.ts');
  // The SVC_WEBHOOK_* variables as the profile holds them (profile.webhookCapture).
  const given = (env: Record<string, string>) => loadProfile({ SVC_BASE_URL: 'https://int.example', ...env }).webhookCapture;
  const remote = { isSimulator: false, platformBaseUrl: 'https://int.example' };
  const local = { isSimulator: false, platformBaseUrl: 'http://127.0.0.1:4010' };
  assert.match(liveDeliverySettings(given({}), remote).skip ?? '', /^needs SVC_WEBHOOK_PUBLIC_URL/);
  assert.match(
    liveDeliverySettings(given({}), { isSimulator: true, platformBaseUrl: 'http://127.0.0.1:1' }).skip ?? '',
    /delivery\.spec\.ts.*SVC_SIM_WEBHOOK_URL/,
  );
  assert.match(liveDeliverySettings(given({ SVC_WEBHOOK_PUBLIC_URL: 'http://tunnel.example/h' }), remote).error ?? '', /The service sends HTTPS POST requests/);
  assert.equal(liveDeliverySettings(given({ SVC_WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:4020/h' }), local).settings?.https, false);
  const ok = liveDeliverySettings(given({ SVC_WEBHOOK_PUBLIC_URL: 'https://tunnel.example/h' }), remote).settings!;
  assert.deepEqual([ok.https, ok.host, ok.port, ok.waitMs, ok.failFirst, ok.expect], [true, '127.0.0.1', 4020, 60_000, false, false]);
  assert.match(liveDeliverySettings(given({ SVC_WEBHOOK_PUBLIC_URL: 'https://t.example', SVC_WEBHOOK_LISTEN: 'nope' }), remote).error ?? '', /host:port/);
  const req = (path: string, body: unknown) => ({
    path,
    method: 'POST',
    headers: {},
    body: Buffer.from(JSON.stringify(body)),
    atMs: 0,
    answered: 204 as const,
  });
  assert.equal(deliveryType(req('/hooks/aggregation', { job_guid: 'JOB-1' })), 'aggregation');
  assert.equal(deliveryType(req('/hooks', { action: 'updated', member: { guid: 'MBR-1' } })), 'member');
  assert.equal(deliveryType(req('/hooks', { guid: 'MBR-1', is_oauth: false })), undefined);
});
