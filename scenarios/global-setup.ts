/**
 * Before any test of a run (Playwright's globalSetup):
 *
 * - A real target (SVC_BASE_URL): one authenticated read of the platform
 *   (preflight/preflight.ts assertPlatformUsable). An unreachable platform or refused
 *   credentials (Authentication 1: HTTP Basic with the client id and API key) stop the
 *   run here with one error naming the settings to check (SVC_BASE_URL, SVC_CLIENT_ID,
 *   SVC_API_KEY), instead of every scenario failing on its own 401 minutes later.
 *
 * - No real target: starts the embedded simulator (../shared/DESIGN.md, "Target
 *   profiles": without SVC_BASE_URL the target is the simulator; targets/index.ts
 *   needsEmbeddedSimulator). It is built in-process (startTarget, no child process),
 *   listens on 127.0.0.1 on a free port, and hands its URL to the workers through the
 *   environment: Playwright copies the runner's environment, as set by globalSetup, into
 *   every worker it starts (the documented pattern).
 *
 * It also names the run (SVC_RUN_ID, unless the user set one) the same way, so every
 * worker's created users carry one id prefix, `svcct-<run id>-` (scenarios/cleanup.ts).
 *
 * SVC_SIM_FAULTS / SVC_SIM_VARIATIONS (comma lists of targets/simulator/catalog.ts names)
 * start it with faults or variations in force, for a user who wants to watch the suite
 * catch one; the self-test has its own per-entry simulators (proof/entry-test.ts).
 */
import type { FullConfig } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadProfile,
  needsEmbeddedSimulator,
  RUN_ID_VARIABLE,
  RUN_LEDGER_VARIABLE,
  runSettings,
  SIMULATOR_URL_VARIABLE,
  startTarget,
} from '../targets/index.ts';
import { assertPlatformUsable } from '../preflight/preflight.ts';
import { reportPaths } from '../reports/reporters.ts';
import { LEDGER_FILES } from '../reports/verdict-reporter.ts';
import { newRunId } from './cleanup.ts';

/** Removes the empty folders under `dir` (and `dir` itself when it ends empty); keeps every file. */
export function removeEmptyFolders(dir: string): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) removeEmptyFolders(join(dir, e.name));
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    /* in use or gone: left */
  }
}

export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | void> {
  if (!runSettings().runId) process.env[RUN_ID_VARIABLE] = newRunId();
  // The run's ledger of observations (scenarios/fixtures/run-ledger.ts): a temporary folder
  // the run's last test reads (scenarios/run/invariants.spec.ts), removed when the run ends:
  // it holds every answer's shape, which no report needs. A folder the caller named (the
  // nightly, `run --history`: they keep what the target served, history/) is the caller's:
  // used, and left for it to read and remove.
  const given = runSettings().runLedgerDir;
  const ledger = given ?? mkdtempSync(join(tmpdir(), 'svc-run-ledger-'));
  if (given) mkdirSync(given, { recursive: true });
  process.env[RUN_LEDGER_VARIABLE] = ledger;
  // Which target the observations are of (a run may also read others, such as a fault's own simulator).
  const nameTarget = (url: string, embedded: boolean) => {
    if (given) writeFileSync(join(ledger, LEDGER_FILES.target), `${JSON.stringify({ target: url, embedded, runId: runSettings().runId })}\n`);
  };
  const removeLedger = () => {
    if (!given) rmSync(ledger, { recursive: true, force: true });
    // Playwright makes a folder per test whether it keeps anything there or not: a green run
    // would leave one empty folder per scenario in the reports.
    removeEmptyFolders(reportPaths(runSettings().reportsOut).testResults);
  };
  try {
    if (!needsEmbeddedSimulator()) {
      const profile = loadProfile(process.env);
      if (!profile.isSimulator && !runSettings().preflightPassed) await assertPlatformUsable(profile);
      nameTarget(profile.platformBaseUrl, false);
      return async () => removeLedger();
    }
    const target = await startTarget({ env: process.env });
    process.env[SIMULATOR_URL_VARIABLE] = target.url;
    nameTarget(target.profile.platformBaseUrl, true);
    return async () => {
      removeLedger();
      await target.close();
    };
  } catch (e) {
    removeLedger();
    throw e;
  }
}
