/**
 * Starts the simulator on 127.0.0.1 (loopback only) and prints its base URLs and the
 * settings in force (never the API key).
 *
 *   npm run simulator -- --port 4010 [--fault NAME]... [--variation NAME]...
 *
 * Environment: SVC_CLIENT_ID, SVC_API_KEY, SVC_TEST_PASSWORD_*, SVC_CORRECT_ANSWER,
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists), SVC_SIM_NOW, SVC_SIM_AGGREGATION_MS,
 * SVC_RATE_LIMIT_PER_SECOND, SVC_SIM_WEBHOOK_URL, SVC_SIM_WEBHOOK_TIME_SCALE.
 */
import { parseArgs } from 'node:util';
import { startTarget, type StartedTarget } from '../index.ts';
import { simulatorBanner } from './serve.ts';
import { serveUntilStopped } from '../serve-until-stopped.ts';

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: process.env.SVC_SIM_PORT ?? '4010' },
        fault: { type: 'string', multiple: true, default: [] },
        variation: { type: 'string', multiple: true, default: [] },
        quiet: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    console.error(
      `simulator: ${(e as Error).message}\nusage: targets/simulator/main.ts [--port N] [--fault NAME]... [--variation NAME]... [--quiet] (the installed command: svc-conformance simulator --help)`,
    );
    process.exit(2);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer 0..65535, got "${values.port}"`);
    process.exit(2);
  }
  const started = performance.now();
  let target: StartedTarget;
  try {
    target = await startTarget({ env: process.env, faults: values.fault as string[], variations: values.variation as string[], simulator: true, port });
  } catch (e) {
    console.error(`simulator: ${(e as Error).message}`);
    process.exit(2);
  }
  if (!values.quiet) console.log(simulatorBanner(target, { apiKeyGiven: !!process.env.SVC_API_KEY, startedMs: performance.now() - started }));
  else console.log(target.url);
  serveUntilStopped(() => target.close());
}

main();
