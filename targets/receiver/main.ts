/**
 * Starts the reference webhook receiver on 127.0.0.1.
 *
 *   npm run receiver -- --port 4020 --db .tmp/receiver.sqlite [--broken <variant>] [--slow-ms 1500]
 *
 * Prints one line, `listening <url>`, once it accepts deliveries (the crash test and
 * the property suites wait for it). Variants: targets/receiver/store.ts BROKEN_VARIANTS.
 */
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { startReceiver } from './receiver.ts';
import { BROKEN_VARIANTS, type BrokenVariant } from './store.ts';

function usage(message: string): never {
  console.error(`receiver: ${message}\nusage: npm run receiver -- --port N --db PATH [--broken ${BROKEN_VARIANTS.join('|')}] [--slow-ms MS]`);
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.WEBHOOK_RECEIVER_PORT ?? '4020' },
      db: { type: 'string', default: process.env.WEBHOOK_RECEIVER_DB ?? '.tmp/receiver.sqlite' },
      broken: { type: 'string' },
      'slow-ms': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer 0..65535, got "${values.port}"`);
  const broken = values.broken as BrokenVariant | undefined;
  if (broken && !BROKEN_VARIANTS.includes(broken)) usage(`unknown --broken "${broken}"`);
  const slowMs = values['slow-ms'] ? Number(values['slow-ms']) : undefined;
  mkdirSync(dirname(values.db!), { recursive: true });
  const receiver = await startReceiver({ dbPath: values.db!, port, broken, slowMs });
  console.log(`listening ${receiver.url}`);
  const stop = async () => {
    await receiver.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => usage((e as Error).message));
