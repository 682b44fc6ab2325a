/**
 * A Playwright run started by the CLI dies with it. The CLI forwards every stop it can hear
 * (targets/process.ts runChild: SIGINT, SIGTERM, SIGHUP); a SIGKILL it cannot hear, and the run
 * lives in its own process group, so without this the runner, its workers, their browsers and
 * the embedded simulator would go on alone. The runner polls its parent (the CLI's pid, from
 * SVC_PARENT_PID); once that process is gone it ends its own process group. What the killed run
 * created on a real target is left for `svc-conformance cleanup` (every user carries the run's
 * `svcct-` id prefix).
 */
import { PARENT_PID_VARIABLE, processRunning } from '../targets/index.ts';

/** How often the runner looks for its parent. */
const POLL_MS = 1_000;

/** Starts the watchdog in the runner process (not in workers), once. */
export function watchParent(env: NodeJS.ProcessEnv = process.env): void {
  const pid = Number(env[PARENT_PID_VARIABLE]);
  if (!Number.isInteger(pid) || pid <= 1 || env.TEST_WORKER_INDEX !== undefined) return;
  const key = Symbol.for('svc.parent-watchdog');
  const g = globalThis as Record<symbol, unknown>;
  if (g[key]) return;
  g[key] = setInterval(() => {
    if (processRunning(pid)) return;
    // The runner leads its process group (the CLI spawned it detached): the group is the run.
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      process.exit(137);
    }
  }, POLL_MS).unref();
}
