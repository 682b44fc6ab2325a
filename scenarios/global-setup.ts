/**
 * Starts the embedded simulator for the run when no real environment is configured
 * (../shared/DESIGN.md, "Target profiles": without SVC_BASE_URL the target is the
 * simulator). It is built in-process (startTarget of targets/index.ts, no child process),
 * listens on 127.0.0.1 on a free port, and hands its URL to the workers through
 * process.env.SVC_SIMULATOR_URL: Playwright copies the runner's environment, as set
 * by globalSetup, into every worker it starts (the documented pattern).
 *
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists of targets/simulator/catalog.ts
 * names) start it with faults or variations in force: the self-test uses them.
 */
import type { FullConfig } from '@playwright/test';
import { startTarget } from '../targets/index.ts';

export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | void> {
  if (process.env.SVC_BASE_URL) return; // a real environment: nothing to start
  if (process.env.SVC_SIMULATOR_URL && !process.env.SVC_SIM_FAULTS && !process.env.SVC_SIM_VARIATIONS) {
    return; // the user started a simulator and pointed the run at it
  }
  const target = await startTarget({ env: process.env });
  process.env.SVC_SIMULATOR_URL = target.url;
  return target.close;
}
