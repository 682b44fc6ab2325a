/**
 * `svc-conformance receiver`: the reference webhook receiver (targets/receiver/) served on
 * 127.0.0.1, a deliberately broken one, or the delivery log the nightly reads
 * (history/delivery-log.ts).
 */
import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  BROKEN_VARIANTS,
  DEFAULT_FORGET_MS,
  RECEIVER_BOUNDS,
  ReceiverStoreError,
  serveUntilStopped,
  startReceiver,
  type BrokenVariant,
} from '../../targets/index.ts';
import { ConfigError } from '../config/load.ts';
import { outputPath, port, positiveInt, UsageError, type Wrap } from '../invocation.ts';

async function serveReceiver(o: {
  port: number;
  db: string;
  broken?: string;
  slowMs?: number;
  forgetMs?: number;
  maxBodyBytes?: number;
  maxDepth?: number;
  requestTimeoutMs?: number;
  deliveryLog?: string;
}): Promise<'serving'> {
  if (o.deliveryLog) {
    // Events rule 5: retries "spread over about 24 hours" show only to a receiver that stays
    // up for the day between two nightlies and keeps refusing the kept member's deliveries:
    // this one writes every attempt to the file the next nightly reads (history/keepers.ts).
    if (o.broken) throw new UsageError('--delivery-log and --broken are different receivers: give one');
    const file = outputPath('--delivery-log', o.deliveryLog, 'file');
    const { startDeliveryLog } = await import('../../history/delivery-log.ts');
    const log = await startDeliveryLog({ file, port: o.port });
    console.log(`listening ${log.url} (every delivery attempt to ${file}; the nightly's --history reads <history>/deliveries.jsonl)`);
    const stopLog = async () => {
      await log.close();
      process.exit(0);
    };
    process.on('SIGINT', stopLog);
    process.on('SIGTERM', stopLog);
    return 'serving';
  }
  if (o.broken && !BROKEN_VARIANTS.includes(o.broken as BrokenVariant))
    throw new UsageError(`unknown --broken "${o.broken}"; variants: ${BROKEN_VARIANTS.join(', ')}`);
  const db = outputPath('--db', o.db, 'file');
  mkdirSync(dirname(db), { recursive: true });
  const receiver = await startReceiver({
    dbPath: db,
    port: o.port,
    broken: o.broken as BrokenVariant | undefined,
    slowMs: o.slowMs,
    forgetMs: o.forgetMs,
    maxBodyBytes: o.maxBodyBytes,
    maxDepth: o.maxDepth,
    requestTimeoutMs: o.requestTimeoutMs,
  }).catch((e: unknown) => {
    if (e instanceof ReceiverStoreError) throw new ConfigError(`--db ${o.db}: ${e.message}`);
    throw e;
  });
  // The paths a team's webhook-check needs beside the address (README of targets/receiver).
  console.log(`listening ${receiver.url} (check it: svc-conformance webhook-check --url '${receiver.url}/webhooks/{type}' --observe-url ${receiver.url})`);
  serveUntilStopped(() => receiver.close());
  return 'serving';
}

export function addReceiverCommand(program: Command, wrap: Wrap): void {
  program
    .command('receiver')
    .description('start the reference webhook receiver on 127.0.0.1')
    .option('-p, --port <port>', 'port on 127.0.0.1 (0: a free one)', port, 4020)
    .option('--db <file>', 'its durable store', '.tmp/receiver.sqlite')
    .option('--broken <variant>', `a deliberately broken receiver (${BROKEN_VARIANTS.join(', ')})`)
    .option('--slow-ms <ms>', 'answer every delivery this late', positiveInt('--slow-ms'))
    .option('--forget-ms <ms>', `forgets-duplicates-after-a-while: keep a delivery's key this long (default ${DEFAULT_FORGET_MS})`, positiveInt('--forget-ms'))
    .option('--max-body-bytes <n>', `largest body accepted, bytes; larger: 413 (default ${RECEIVER_BOUNDS.maxBodyBytes})`, positiveInt('--max-body-bytes'))
    .option('--max-depth <n>', `deepest nesting of arrays and objects accepted; deeper: 400 (default ${RECEIVER_BOUNDS.maxDepth})`, positiveInt('--max-depth'))
    .option(
      '--request-timeout-ms <ms>',
      `time for a whole request to arrive; later: 408 (default ${RECEIVER_BOUNDS.requestTimeoutMs})`,
      positiveInt('--request-timeout-ms'),
    )
    .option(
      '--delivery-log <file>',
      "instead: a receiver that logs every delivery attempt (refusing the nightly's kept member) for the next nightly, e.g. <history>/deliveries.jsonl",
    )
    .action(wrap((o) => serveReceiver(o)));
}
