/**
 * npm run receiver:hostile — the hostile-request figure of the reference receiver
 * (hostile.test-support.ts): generated hostile requests shuffled with valid deliveries and their
 * retries, sent 16 at a time to the receiver in a child process; prints the counts and
 * exits 1 when a verdict fails (the receiver died, a valid delivery was not answered 2xx
 * or not processed exactly once, a 5xx to anything, a hang, a complete request unanswered).
 */
import { parseArgs } from 'node:util';
import { figureFailures, formatFigure, runHostile } from './hostile.test-support.ts';

const USAGE = `usage: npm run receiver:hostile -- [options]

Fires generated hostile requests (broken percent-encoding, any nesting depth, bodies over
the bound, lying Content-Length, broken chunked bodies, random bytes and headers) at the
reference webhook receiver while valid deliveries flow, then prints the figure:
alive, valid deliveries answered 2xx and processed exactly once, 5xx to valid ones.

  --requests N   hostile requests (default 10000)
  --valid N      distinct valid deliveries; one in ten is sent again later (default 1000)
  --seed N       replay a run (default: random, printed)
  --lanes N      connections in flight at once (default 16)
  -h, --help     this text

Exit codes: 0 every verdict holds; 1 one failed (listed); 2 bad usage.`;

function count(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`receiver:hostile: --${name} must be a non-negative integer, got "${raw}"\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        requests: { type: 'string' },
        valid: { type: 'string' },
        seed: { type: 'string' },
        lanes: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    console.error(`receiver:hostile: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const seed = count('seed', values.seed as string | undefined, Math.floor(Math.random() * 2 ** 31));
  const hostile = count('requests', values.requests as string | undefined, 10_000);
  const valid = count('valid', values.valid as string | undefined, 1_000);
  const lanes = Math.max(1, count('lanes', values.lanes as string | undefined, 16));
  console.log(`seed ${seed} (replay: npm run receiver:hostile -- --requests ${hostile} --valid ${valid} --seed ${seed})`);
  const figure = await runHostile({ hostile, valid, seed, lanes });
  console.log(formatFigure(figure));
  const failures = figureFailures(figure);
  for (const f of failures) console.log(`FAILED: ${f}`);
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
