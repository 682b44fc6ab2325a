/**
 * A process that serves until it is stopped (the simulator and the receiver, as
 * `svc-conformance simulator|receiver` or their own main.ts): on SIGINT (Ctrl-C) or
 * SIGTERM (a cancelled CI job, `kill`) it closes what it serves, so the port and the
 * database are released, then exits 0: a stop that was asked for is not a failure.
 */
export function serveUntilStopped(close: () => Promise<unknown>): void {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
