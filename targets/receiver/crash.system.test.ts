/**
 * kill -9 at random moments (Events, Webhooks rules 3 and 6: a success means received, duplicates ignored, the highest version kept): the reference receiver runs as a child process,
 * deliveries are fired at it concurrently, it is SIGKILLed at a random moment, started
 * again on the same database, and then:
 *   - every delivery it answered 2xx is stored (none lost),
 *   - every stored event is processed exactly once (none twice, none left queued),
 *   - each object holds the highest version among the stored events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { spawnReceiver } from './hostile.test-support.ts';

interface Sent {
  guid: string;
  version: number;
  raw: string;
  accepted: boolean;
}

interface Outcome {
  accepted: number;
  lost: string[];
  stats: { queued: number; processed: number; processed_more_than_once: number };
  events: Array<{ guid: string; version: number; times_processed: number }>;
  highestMismatches: string[];
}

async function killRounds(broken?: string): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-receiver-crash-'));
  const db = join(dir, 'receiver.sqlite');
  const sent: Sent[] = [];
  const agent = new Agent({ connections: 16 });
  try {
    for (let round = 0; round < 4; round++) {
      const { child, url } = await spawnReceiver(db, broken ? ['--broken', broken] : []);
      const exited = new Promise((r) => child.once('exit', r));
      let stop = false;
      // The moment of the kill is a count of answers, not a time: after a random number of
      // accepted deliveries, with the other lanes' requests in flight, whatever the machine's
      // speed (a time-based kill under load came before enough deliveries to mean anything).
      // A receiver that accepts nothing is killed after a bounded number of answers.
      const killAfterAccepted = 8 + Math.floor(Math.random() * 40);
      let acceptedThisRound = 0;
      let answeredThisRound = 0;
      let killed!: () => void;
      const killer = new Promise<void>((resolve) => {
        killed = resolve;
      });
      const kill = () => {
        if (stop) return;
        stop = true;
        child.kill('SIGKILL');
        killed();
      };
      // A receiver that dies on its own ends the round too (the lanes stop at their next answer).
      child.once('exit', () => {
        stop = true;
        killed();
      });
      // Eight concurrent senders; some deliveries are retries of earlier payloads (duplicates).
      const sender = async (lane: number) => {
        for (let i = 0; !stop; i++) {
          const earlier = sent.length > 0 && i % 5 === 4 ? sent[Math.floor(Math.random() * sent.length)] : undefined;
          const item: Sent = earlier ?? { guid: `MBR-crash-${lane % 3}`, version: round * 100_000 + lane * 10_000 + i, raw: '', accepted: false };
          if (!earlier) {
            item.raw = JSON.stringify({ guid: item.guid, version: item.version, round, lane });
            sent.push(item);
          }
          try {
            const res = await request(`${url}/webhooks/member`, {
              method: 'POST',
              body: item.raw,
              headers: { 'content-type': 'application/json' },
              dispatcher: agent,
            });
            await res.body.dump();
            answeredThisRound++;
            if (res.statusCode >= 200 && res.statusCode <= 206) {
              item.accepted = true;
              acceptedThisRound++;
            }
            if (acceptedThisRound >= killAfterAccepted || answeredThisRound >= killAfterAccepted * 10) kill();
          } catch {
            return; // the process died mid-request: not accepted (unless an earlier answer said so)
          }
        }
      };
      await Promise.all([killer, ...Array.from({ length: 8 }, (_, lane) => sender(lane))]);
      await exited;
    }

    // Restart once more and let the worker finish what was queued at the last kill.
    const { child, url } = await spawnReceiver(db, broken ? ['--broken', broken] : []);
    try {
      const get = async (path: string) => (await (await request(`${url}${path}`, { dispatcher: agent })).body.json()) as any;
      const stats = await get('/_observe/processed-count?settled=1');
      const { events } = (await get('/_observe/events?limit=10000')) as { events: Array<{ guid: string; version: number; times_processed: number }> };
      const stored = new Set(events.map((e) => `${e.guid}@${e.version}`));
      const accepted = sent.filter((s) => s.accepted);
      const lost = accepted.filter((s) => !stored.has(`${s.guid}@${s.version}`)).map((s) => `${s.guid}@${s.version}`);
      const highestMismatches: string[] = [];
      for (const guid of new Set(events.map((e) => e.guid))) {
        const highest = Math.max(...events.filter((e) => e.guid === guid).map((e) => e.version));
        const obj = await get(`/_observe/objects/member/${guid}`);
        if (obj.version !== highest) highestMismatches.push(`${guid}: ${obj.version} != ${highest}`);
      }
      return { accepted: accepted.length, lost, stats, events, highestMismatches };
    } finally {
      child.kill('SIGKILL');
    }
  } finally {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a SIGKILL at any moment loses no accepted event and processes none twice', { timeout: 120_000 }, async () => {
  const o = await killRounds();
  assert.ok(o.accepted > 20, `enough deliveries were accepted to mean something (${o.accepted})`);
  assert.deepEqual(o.lost, [], 'accepted deliveries missing after kill -9');
  assert.equal(o.stats.queued, 0, 'nothing left queued after restart');
  assert.equal(o.stats.processed_more_than_once, 0, 'no event processed twice');
  assert.equal(o.stats.processed, o.events.length, 'each stored event processed exactly once');
  assert.ok(
    o.events.every((e) => e.times_processed === 1),
    'every event shows one processing',
  );
  assert.equal(new Set(o.events.map((e) => `${e.guid}@${e.version}`)).size, o.events.length, 'duplicates stored once');
  assert.deepEqual(o.highestMismatches, [], 'each object holds the highest stored version');
});

test('the same kill test catches the loses-events-on-crash variant', { timeout: 120_000 }, async () => {
  const o = await killRounds('loses-events-on-crash');
  assert.ok(o.lost.length > 0, `the variant answered ${o.accepted} deliveries and lost none of them across 4 kills`);
});
