/**
 * The simulator as a standalone service: what `svc-conformance simulator` and
 * targets/simulator/main.ts print when it listens. The default credentials are the
 * documented ones (README, "Simulator"); a key given in SVC_API_KEY is never printed.
 */
import type { StartedTarget } from '../index.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';

export function simulatorBanner(target: StartedTarget, o: { apiKeyGiven: boolean; startedMs: number }): string {
  const base = target.url;
  const { settings, faults, variations } = target.simulator!;
  const key = o.apiKeyGiven ? 'from SVC_API_KEY (not printed)' : `${SIMULATOR_DEFAULTS.apiKey} (the documented default; SVC_API_KEY sets another)`;
  return [
    `svc simulator listening (started in ${o.startedMs.toFixed(0)} ms)`,
    `  platform API : ${base}`,
    `  audience     : ${base}${SIMULATOR_DEFAULTS.audiencePrefix}`,
    `  test host    : ${base}${SIMULATOR_DEFAULTS.testHostPrefix}`,
    `  client id    : ${settings.clientId}`,
    `  API key      : ${key}`,
    `  versions     : ${settings.versions.map((v) => v.name).join(', ')} (default ${settings.defaultVersion})`,
    `  rate limit   : ${settings.rateLimitPerSecond} requests/s per client`,
    `  aggregation  : ${settings.aggregationMs} ms`,
    `  faults       : ${faults.join(', ') || 'none'}`,
    `  variations   : ${variations.join(', ') || 'none'}`,
    `Point a run at it: SVC_BASE_URL=${base} SVC_CLIENT_ID=${settings.clientId} SVC_API_KEY=... svc-conformance run`,
  ].join('\n');
}
