/**
 * Starts the reference webhook receiver on 127.0.0.1.
 *
 *   node --import tsx targets/receiver/main.ts --port 4020 --db .tmp/receiver.sqlite [--broken <variant>] [--slow-ms 1500] [--forget-ms 20000]
 *     [--max-body-bytes N] [--max-depth N] [--request-timeout-ms MS]
 *
 * Prints one line, `listening <url>`, once it accepts deliveries (the crash test and
 * the property suites wait for it). Variants: targets/receiver/store.ts BROKEN_VARIANTS.
 */
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RECEIVER_BOUNDS, startReceiver } from './receiver.ts';
import { BROKEN_VARIANTS, DEFAULT_FORGET_MS, type BrokenVariant } from './store.ts';
import { serveUntilStopped } from '../serve-until-stopped.ts';

const USAGE = `usage: node --import tsx targets/receiver/main.ts [options]

Starts the reference webhook receiver on 127.0.0.1 and prints "listening <url>".

  --port N                 port (0: a free one; default 4020, env WEBHOOK_RECEIVER_PORT)
  --db PATH                its SQLite store (default .tmp/receiver.sqlite, env WEBHOOK_RECEIVER_DB)
  --broken VARIANT         a deliberately broken receiver: ${BROKEN_VARIANTS.join(', ')}
  --slow-ms MS             the slow-answers variant's delay
  --forget-ms MS           how long the forgets-duplicates-after-a-while variant keeps a key (default ${DEFAULT_FORGET_MS})
  --max-body-bytes N       largest body accepted (default ${RECEIVER_BOUNDS.maxBodyBytes}; larger: 413)
  --max-depth N            deepest nesting accepted (default ${RECEIVER_BOUNDS.maxDepth}; deeper: 400)
  --request-timeout-ms MS  time for a whole request to arrive (default ${RECEIVER_BOUNDS.requestTimeoutMs}; later: 408)
  -h, --help               this text`;

function usage(message: string): never {
  console.error(`receiver: ${message}\n${USAGE}`);
  process.exit(2);
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) usage(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.WEBHOOK_RECEIVER_PORT ?? '4020' },
      db: { type: 'string', default: process.env.WEBHOOK_RECEIVER_DB ?? '.tmp/receiver.sqlite' },
      broken: { type: 'string' },
      'slow-ms': { type: 'string' },
      'forget-ms': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-depth': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer 0..65535, got "${values.port}"`);
  const broken = values.broken as BrokenVariant | undefined;
  if (broken && !BROKEN_VARIANTS.includes(broken)) usage(`unknown --broken "${broken}"`);
  mkdirSync(dirname(values.db!), { recursive: true });
  const receiver = await startReceiver({
    dbPath: values.db!,
    port,
    broken,
    slowMs: positive('slow-ms', values['slow-ms']),
    forgetMs: positive('forget-ms', values['forget-ms']),
    maxBodyBytes: positive('max-body-bytes', values['max-body-bytes']),
    maxDepth: positive('max-depth', values['max-depth']),
    requestTimeoutMs: positive('request-timeout-ms', values['request-timeout-ms']),
  });
  console.log(`listening ${receiver.url}`);
  serveUntilStopped(() => receiver.close());
}

main().catch((e) => usage((e as Error).message));
