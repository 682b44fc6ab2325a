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
import { SIMULATOR_DEFAULTS } from './settings.ts';

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.SVC_SIM_PORT ?? '4010' },
      fault: { type: 'string', multiple: true, default: [] },
      variation: { type: 'string', multiple: true, default: [] },
      quiet: { type: 'boolean', default: false },
    },
  });
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
  const base = target.url;
  const { settings, faults, variations } = target.simulator!;
  const ms = (performance.now() - started).toFixed(0);
  if (!values.quiet) {
    console.log(`svc simulator listening (started in ${ms} ms)`);
    console.log(`  platform API : ${base}`);
    console.log(`  audience     : ${base}${SIMULATOR_DEFAULTS.audiencePrefix}`);
    console.log(`  test host    : ${base}${SIMULATOR_DEFAULTS.testHostPrefix}`);
    console.log(`  client id    : ${settings.clientId} (API key from SVC_API_KEY or the documented default; not printed)`);
    console.log(`  versions     : ${settings.versions.map((v) => v.name).join(', ')} (default ${settings.defaultVersion})`);
    console.log(`  rate limit   : ${settings.rateLimitPerSecond} requests/s per client`);
    console.log(`  aggregation  : ${settings.aggregationMs} ms`);
    console.log(`  faults       : ${faults.join(', ') || 'none'}`);
    console.log(`  variations   : ${variations.join(', ') || 'none'}`);
  } else {
    console.log(base);
  }
  const stop = async () => {
    await target.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main();
