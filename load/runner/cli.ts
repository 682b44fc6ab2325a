/**
 * k6-compatible command line for the runner:
 *
 *   tsx load/runner/cli.ts run [-e KEY=VALUE]... <script.ts>
 *
 * Exit codes are k6's: 0 passed, 99 thresholds crossed, 104 invalid options,
 * 107 script error (including an unsupported k6 module), 108 aborted by the script.
 */
import { parseArgs } from 'node:util';
import { runScript } from './engine.ts';

async function main() {
  const args = process.argv.slice(2);
  if (args[0] !== 'run') {
    console.error('usage: tsx load/runner/cli.ts run [-e KEY=VALUE]... <script>');
    process.exit(2);
  }
  const { values, positionals } = parseArgs({
    args: args.slice(1),
    allowPositionals: true,
    options: { env: { type: 'string', short: 'e', multiple: true, default: [] } },
  });
  if (positionals.length !== 1) {
    console.error('run: give exactly one script path');
    process.exit(2);
  }
  const env: Record<string, string | undefined> = { ...process.env };
  for (const pair of values.env as string[]) {
    const i = pair.indexOf('=');
    if (i <= 0) {
      console.error(`-e expects KEY=VALUE, got "${pair}"`);
      process.exit(2);
    }
    env[pair.slice(0, i)] = pair.slice(i + 1);
  }
  const { exitCode } = await runScript(positionals[0], { env });
  process.exit(exitCode);
}

main();
