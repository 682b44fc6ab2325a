import { PARENT_PID_VARIABLE, processRunning } from './process.ts';

/** How often a served process started by another looks for it (PARENT_PID_VARIABLE). */
const PARENT_POLL_MS = 1_000;

/**
 * A process that serves until it is stopped (the simulator and the receiver, as
 * `svc-conformance simulator|receiver` or their own main.ts): on SIGINT (Ctrl-C) or
 * SIGTERM (a cancelled CI job, `kill`) it closes what it serves, so the port and the
 * database are released, then exits 0: a stop that was asked for is not a failure.
 *
 * Started by another process of this package in a group of its own (startSimulatorProcess:
 * the mutation run, the harnesses), it also stops once that process is gone: a Ctrl-C
 * reaches only the terminal's foreground group, and a SIGKILL nothing, so without this the
 * simulator would go on serving alone.
 */
export function serveUntilStopped(close: () => Promise<unknown>, env: NodeJS.ProcessEnv = process.env): void {
  // Once: a second signal, or the parent found gone while closing, waits for the same close.
  let closing: Promise<unknown> | undefined;
  const stop = async () => {
    closing ??= close();
    await closing;
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const parent = Number(env[PARENT_PID_VARIABLE]);
  if (Number.isInteger(parent) && parent > 1 && parent !== process.pid)
    setInterval(() => {
      if (!processRunning(parent)) void stop();
    }, PARENT_POLL_MS).unref();
}
