/**
 * Starts the embedded simulator for the run when no real environment is configured
 * (../shared/DESIGN.md, "Target profiles": without SVC_BASE_URL the target is the
 * simulator). It is built in-process (buildSimulator, no child process to wait for),
 * listens on 127.0.0.1 on a free port, and hands its URL to the workers through
 * process.env.SVC_SIMULATOR_URL: Playwright copies the runner's environment, as set
 * by globalSetup, into every worker it starts (the documented pattern).
 *
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists of targets/simulator/catalog.ts
 * names) start it with faults or variations in force: the self-test uses them.
 */
import type { FullConfig } from '@playwright/test';
import { buildSimulator } from '../targets/simulator/app.ts';
import { settingsFromEnv } from '../targets/simulator/settings.ts';

const list = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);

export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | void> {
  if (process.env.SVC_BASE_URL) return; // a real environment: nothing to start
  if (process.env.SVC_SIMULATOR_URL && !process.env.SVC_SIM_FAULTS && !process.env.SVC_SIM_VARIATIONS) {
    return; // the user started a simulator and pointed the run at it
  }
  const app = await buildSimulator({
    settings: settingsFromEnv(process.env),
    faults: list(process.env.SVC_SIM_FAULTS),
    variations: list(process.env.SVC_SIM_VARIATIONS),
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.env.SVC_SIMULATOR_URL = address.replace('localhost', '127.0.0.1');
  return async () => {
    await app.close();
  };
}
