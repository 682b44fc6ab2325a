/**
 * npm run bench:webhooks — figures of webhook handling (Events, Webhooks), printed, never asserted:
 *
 * 1. Deliveries per second through the reference receiver (generated payloads from
 *    the property generators, 16 in flight, 127.0.0.1), against a baseline measured in
 *    the same run: a bare node:http server that answers 204 without storing. The
 *    receiver is measured with its database on tmpfs (/dev/shm, what the suites use)
 *    and on disk (os.tmpdir(), where synchronous=FULL pays an fsync per group commit).
 * 2. The default property suite: runs per property (WEBHOOK_PROPERTY_RUNS, default
 *    1000) and wall time per property and in total, in one process, one after another
 *    (Playwright spreads the three spec files over two workers, so its wall time is lower).
 *
 * Options: --deliveries N (default 3000), --repeats N (default 3), --skip-properties.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { Pool } from 'undici';
import { startReceiver } from '../targets/index.ts';
import { deliveryArb } from '../scenarios/properties/harness/arbitraries.ts';
import { PROPERTY_SETTINGS, startReference } from '../scenarios/properties/harness/client.ts';
import * as P from '../scenarios/properties/harness/properties.ts';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '3000' },
    repeats: { type: 'string', default: '3' },
    'skip-properties': { type: 'boolean', default: false },
  },
});
const N = Math.min(Number(values.deliveries), 20_000);
const REPEATS = Math.min(Number(values.repeats), 5);
const IN_FLIGHT = 16;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function drive(origin: string, path: (type: string) => string, payloads: Array<{ type: string; raw: string }>): Promise<number> {
  const pool = new Pool(origin, { connections: IN_FLIGHT });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < payloads.length) {
        const p = payloads[next++];
        const res = await pool.request({ path: path(p.type), method: 'POST', body: p.raw, headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode > 206) throw new Error(`answered ${res.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return payloads.length / seconds;
}

async function main() {
  const payloads = fc.sample(deliveryArb(), N).map((d) => ({ type: d.type.replace(/[^A-Za-z0-9_.-]/g, '_') || 'unknown', raw: JSON.stringify(d.body) }));
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
  const bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const rates: Record<string, number[]> = { baseline: [], tmpfs: [], disk: [] };
  for (let i = 0; i < REPEATS; i++) {
    rates.baseline.push(await drive(bareOrigin, (t) => `/webhooks/${t}`, payloads));
    for (const where of ['tmpfs', 'disk'] as const) {
      const dir = mkdtempSync(join(where === 'tmpfs' && existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'svc-receiver-bench-'));
      const r = await startReceiver({ dbPath: join(dir, 'bench.sqlite') });
      rates[where].push(await drive(r.url, (t) => `/webhooks/${t}`, payloads));
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  bare.close();
  const base = median(rates.baseline);
  console.log(`webhook deliveries through the reference receiver (${N} generated payloads, ${IN_FLIGHT} in flight, median of ${REPEATS})`);
  console.log(`  baseline bare node:http 204 : ${base.toFixed(0)} deliveries/s`);
  for (const where of ['tmpfs', 'disk'] as const) {
    const m = median(rates[where]);
    console.log(`  reference receiver (${where.padEnd(5)}) : ${m.toFixed(0)} deliveries/s  (${((m / base) * 100).toFixed(0)} % of baseline)`);
  }

  if (values['skip-properties']) return;
  const r = await startReference();
  const runs = PROPERTY_SETTINGS.runs;
  const properties: Array<[string, fc.IAsyncPropertyWithHooks<any>]> = [
    ['valid payload gets a 2xx', P.validPayloadGets2xx(r)],
    ['malformed body gets a 2xx or a 4xx', P.malformedBodyGets2xxOr4xx(r)],
    [`answer within ${PROPERTY_SETTINGS.responseBoundMs} ms`, P.answersWithinBound(r, PROPERTY_SETTINGS.responseBoundMs)],
    ['duplicate processed once', P.duplicateProcessedOnce(r)],
    ['highest version stored', P.highestVersionWins(r)],
    ['model-based with kill -9', P.receiverMatchesModel(r)],
  ];
  console.log(`default property suite against the reference receiver (WEBHOOK_PROPERTY_RUNS=${runs})`);
  const suiteStarted = performance.now();
  for (const [name, prop] of properties) {
    const t = performance.now();
    const out = await fc.check(prop, P.propertyParameters(runs));
    console.log(
      `  ${name.padEnd(28)} ${String(out.numRuns).padStart(5)} runs  ${((performance.now() - t) / 1000).toFixed(2)} s${out.failed ? '  FAILED' : ''}`,
    );
  }
  console.log(`  total (one process, sequential) ${((performance.now() - suiteStarted) / 1000).toFixed(2)} s`);
  await r.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`bench:webhooks: ${(e as Error).message}`);
    process.exit(1);
  },
);
