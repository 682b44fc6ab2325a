/**
 * A team's own test command, run against a target this project started (the proxy, or
 * the simulator with one catalogue variation in force): its environment and a bounded
 * run (own process group, killed whole at the bound; only the last bytes of its output
 * kept for the report).
 *
 * The environment the command gets (commandEnv; documented in integration/README.md and
 * `--help`) is the target's, on top of the caller's own environment:
 *   SVC_BASE_URL, SVC_CLIENT_ID, SVC_API_KEY      the platform API and its credentials
 *   BASE_URL                                      the same base URL under the generic name
 *                                                 many test setups read
 *   SVC_AUDIENCE_BASE_URL, SVC_TEST_HOST_BASE_URL the other two services (when known)
 *   SVC_TEST_INSTITUTION_CODE, SVC_TEST_USERNAME,
 *   SVC_TEST_PASSWORD_SUCCESS                     the embedded simulator's test institution
 *                                                 (its documented values; a real target's
 *                                                 stay the team's own)
 *   SVC_VARIATION                                 the catalogue variation in force
 *                                                 (tolerance; empty for the baseline run)
 */
import { spawn } from 'node:child_process';
import { guardProcessGroup } from '../targets/index.ts';
import type { TargetProfile } from '../targets/index.ts';

/** The command's environment: the caller's, with the target's variables on top. */
export function commandEnv(base: NodeJS.ProcessEnv, t: { baseUrl: string; profile: TargetProfile; variation?: string }): NodeJS.ProcessEnv {
  const p = t.profile;
  const env: NodeJS.ProcessEnv = { ...base, SVC_BASE_URL: t.baseUrl, BASE_URL: t.baseUrl };
  // node's test runner marks the processes it starts; a team's own `node --test` started
  // from inside one (this project's tests of the example) must not take itself for one.
  delete env.NODE_TEST_CONTEXT;
  if (p.clientId) env.SVC_CLIENT_ID = p.clientId;
  if (p.apiKey) env.SVC_API_KEY = p.apiKey;
  if (p.audienceBaseUrl) env.SVC_AUDIENCE_BASE_URL = p.audienceBaseUrl;
  if (p.testHostBaseUrl) env.SVC_TEST_HOST_BASE_URL = p.testHostBaseUrl;
  if (p.isSimulator) {
    env.SVC_TEST_INSTITUTION_CODE = p.testInstitution.code;
    env.SVC_TEST_USERNAME = p.testInstitution.username;
    if (p.testInstitution.passwords.SUCCESS) env.SVC_TEST_PASSWORD_SUCCESS = p.testInstitution.passwords.SUCCESS;
  }
  if (t.variation !== undefined) env.SVC_VARIATION = t.variation;
  return env;
}

export interface CommandRun {
  code: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The last bytes of stdout and stderr together, in order. */
  tail: string;
  /** A stop (Ctrl-C, a cancelled CI job) this process received while the command ran: it was passed on to the command's group. */
  stoppedBy?: NodeJS.Signals;
}

/**
 * Runs `argv` (one element: a shell command line, e.g. "npm test"; several: the program
 * and its arguments, no shell) in its own process group, killed whole after `timeoutMs`
 * and when it ends (whatever it left running). A stop of this process goes to the group
 * (targets/process.ts guardProcessGroup, killed after 5 s) and is reported in `stoppedBy`, so
 * the caller still writes its reports. With `echo` its output also goes to this process's.
 */
export function runCommand(
  argv: readonly string[],
  o: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number; tailBytes?: number; echo?: boolean },
): Promise<CommandRun> {
  const tailBytes = o.tailBytes ?? 8_000;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child =
      argv.length === 1
        ? spawn(argv[0], { cwd: o.cwd, env: o.env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(argv[0], argv.slice(1), { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid === undefined) {
      child.once('error', (e) => reject(new Error(`could not start ${argv.join(' ')}: ${e.message}`)));
      return;
    }
    const pgid = child.pid;
    const guard = guardProcessGroup(pgid, { graceMs: 5_000, onStop: () => {} });
    let tail = '';
    let timedOut = false;
    const take = (stream: NodeJS.WriteStream) => (d: Buffer) => {
      tail = (tail + d.toString('utf8')).slice(-tailBytes);
      if (o.echo) stream.write(d);
    };
    child.stdout!.on('data', take(process.stdout));
    child.stderr!.on('data', take(process.stderr));
    const killGroup = () => {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, o.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      guard.dispose();
      reject(new Error(`could not start ${argv.join(' ')}: ${e.message}`));
    });
    // Whatever the command left running in its group goes with it (at exit: a leftover
    // holding its output open would hold 'close' back).
    child.on('exit', killGroup);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stoppedBy = guard.stoppedBy;
      guard.dispose();
      resolve({ code, timedOut, durationMs: performance.now() - started, tail, ...(stoppedBy ? { stoppedBy } : {}) });
    });
  });
}
