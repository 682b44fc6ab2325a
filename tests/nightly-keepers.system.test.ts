/**
 * The rules that take a day, observed across two nightlies (history/keepers.ts) against a
 * separately started simulator whose clock is moved a day and more between them
 * (POST /_sim/clock, simulator control: never part of the contract):
 *
 *   - the 24-hour refresh: the member left connected has a later `aggregated_at` the next
 *     night (What the service does: "Accounts and their transactions refresh every 24 hours
 *     unless the owning user is disabled"), and the disabled user's member has not;
 *   - webhook retries: a receiver that refuses the left member's webhooks (the delivery log,
 *     history/delivery-log.ts) counts at most 12 retries of each refused delivery and their
 *     stop (Events rule 5). The simulator's retry schedule is compressed
 *     (SVC_SIM_WEBHOOK_TIME_SCALE) so the day of retries passes in seconds.
 *
 * The first night only leaves members; the second judges them, deletes them and leaves its
 * own. Each nightly runs one api scenario (a small subset) and no load or self-test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDeliveryLog } from '../history/delivery-log.ts';
import { readIndex } from '../history/store.ts';
import { LONG_RUNNING_RULES } from '../history/keepers.ts';
import { runNightly } from '../nightly/nightly.ts';
import { realTargetEnv, RUN_SECRETS, simulatorProcessEnv, startSimulatorProcess } from '../targets/index.ts';

const DAY_AND_MORE_MS = 27 * 3_600_000;
/** The retry schedule's ~29 h in about 5 s. */
const TIME_SCALE = 20_000;

/** Two nightlies (one api scenario each, no load or self-test), the simulator's clock moved a day and more between them. */
async function twoNights(faults: string[]) {
  const work = mkdtempSync(join(tmpdir(), 'svc-nightly-keepers-'));
  const history = join(work, 'history');
  const deliveries = join(history, 'deliveries.jsonl');
  const receiver = await startDeliveryLog({ file: deliveries });
  const sim = await startSimulatorProcess({
    ...simulatorProcessEnv(),
    SVC_SIM_WEBHOOK_URL: receiver.url,
    SVC_SIM_WEBHOOK_TIME_SCALE: String(TIME_SCALE),
    ...(faults.length ? { SVC_SIM_FAULTS: faults.join(',') } : {}),
  });
  const env = { ...realTargetEnv(sim.base), SVC_WORKERS: '1' } as Record<string, string>;
  const lines: string[] = [];
  const nightly = () =>
    runNightly({
      skip: ['load', 'selftest'],
      grep: 'an institution reads the same by code and by guid',
      out: join(work, 'out'),
      historyDir: history,
      env,
      deliveryLog: deliveries,
      log: (l) => lines.push(l),
    });
  const close = async () => {
    await sim.stop();
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const first = await nightly();
    const left = readIndex(history).keepers;
    // A day and more passes on the target's clock; the compressed retries run out meanwhile.
    const moved = await fetch(`${sim.base}/_sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: DAY_AND_MORE_MS }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(moved.status, 200);
    await new Promise((r) => setTimeout(r, 8_000));
    const second = await nightly();
    const index = readIndex(history);
    const judged = index.longRunning.filter((r) => r.night !== left[0]?.night);
    for (const r of judged) console.log(`${faults.join(',') || 'no fault'}: ${r.verdict}: ${r.rule.slice(0, 60)}… (${r.rows.join(', ')}): ${r.detail}`);
    return { first, second, left, index, judged, lines, sim, close };
  } catch (e) {
    await close();
    throw e;
  }
}

test('two nightlies with the simulator clock moved a day between them verify the 24-hour refresh and the webhook retries', { timeout: 600_000 }, async () => {
  const { first, second, left, index, judged, lines, sim, close } = await twoNights([]);
  try {
    assert.deepEqual(left.map((k) => k.kind).sort(), ['disabled', 'refresh', 'webhooks'], lines.join('\n'));
    assert.ok(
      left.every((k) => k.userId.startsWith('svcct-keep_')),
      'left under the prefix cleanup knows',
    );
    assert.ok(!first.reasons.some((r) => r.step === 'long-running'), 'nothing judged on the first night');
    const verdictOf = (rule: string) => judged.find((r) => r.rule === rule);
    const shown = JSON.stringify(judged, null, 2);
    assert.equal(verdictOf(LONG_RUNNING_RULES.refresh.rule)?.verdict, 'verified', shown);
    assert.match(verdictOf(LONG_RUNNING_RULES.refresh.rule)!.detail, /refreshed: aggregated_at \S+ → \S+, 2[6-9]\.\d h later on the target's clock/);
    assert.equal(verdictOf(LONG_RUNNING_RULES.disabled.rule)?.verdict, 'verified', shown);
    assert.equal(verdictOf(LONG_RUNNING_RULES.retries.rule)?.verdict, 'verified', shown);
    assert.match(verdictOf(LONG_RUNNING_RULES.retries.rule)!.detail, /retries 12/);
    assert.equal(verdictOf(LONG_RUNNING_RULES.dropped.rule)?.verdict, 'verified', shown);
    assert.ok(!second.reasons.some((r) => r.step === 'long-running'), JSON.stringify(second.reasons));

    // Night 1's members were deleted; night 2 left its own for the next night.
    for (const k of left) {
      const r = await fetch(`${sim.base}/users/${k.userGuid}`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${RUN_SECRETS.SVC_CLIENT_ID}:${RUN_SECRETS.SVC_API_KEY}`).toString('base64')}`,
          accept: 'application/vnd.svc.v1+json',
        },
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(r.status, 404, `${k.kind} user ${k.userGuid} of night 1 deleted`);
    }
    assert.equal(index.keepers.length, 3);
    assert.ok(index.keepers.every((k) => k.night !== left[0].night));
    // The summary says it, with the rows.
    const md = second.historyLines?.join('\n') ?? '';
    assert.match(md, /## Rules that take a day/);
    assert.match(md, /wsd\.refresh-24h, lim\.refresh \| verified/);
  } finally {
    await close();
  }
});

test('against the faults that break those rules, each is judged failed and fails the night, quoting its sentence', { timeout: 600_000 }, async () => {
  // no-daily-refresh stops every refresh, so a disabled user's member is judged in its own pair of nights.
  for (const [faults, failed] of [
    [
      ['refresh-for-disabled-users', 'webhook-13th-retry'],
      ['disabled', 'retries'],
    ],
    [['no-daily-refresh'], ['refresh']],
  ] as const) {
    const { second, judged, close } = await twoNights([...faults]);
    try {
      const verdictOf = (rule: string) => judged.find((r) => r.rule === rule)?.verdict;
      for (const which of failed) assert.equal(verdictOf(LONG_RUNNING_RULES[which].rule), 'failed', `${which} under ${faults.join(', ')}`);
      assert.equal(second.gate, 'fail');
      const reasons = second.reasons.filter((r) => r.step === 'long-running').map((r) => r.reason);
      assert.equal(reasons.length, failed.length, JSON.stringify(second.reasons));
      // Each reason quotes the sentence it enforces.
      for (const which of failed) assert.ok(reasons.some((r) => r.startsWith(LONG_RUNNING_RULES[which].rule)));
    } finally {
      await close();
    }
  }
});
