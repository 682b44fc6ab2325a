/**
 * Runs a command in its own process group and kills the whole group on timeout, so a
 * Playwright run's workers and browsers never outlive it. One helper for the
 * CLI's Playwright runs, the self-test, the suite runner and the load/delivery adapters.
 *
 * A child in its own group gets none of the terminal's signals (Ctrl-C reaches the
 * foreground group only), and Playwright's workers ignore SIGINT and SIGTERM themselves
 * (they wait for their runner's word, and a worker busy in a long synchronous step never
 * hears it). So while a child runs, a stop of this process (SIGINT, SIGTERM, SIGHUP) is
 * passed to the child's whole group (guardProcessGroup), and whatever of the group is
 * still there when the child ends is killed and reported (`leftover`).
 *
 * Here, exported through targets/index.ts, because its users are in every room that runs
 * something (cli/, proof/, scenarios/, load/, integration/, nightly/, the system tests and
 * benches) and targets/ is the one room all of them may import: a folder of its own would
 * be one more door, and load/ (the load runs) is a room the others have no reason to import.
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The child's process id, which is also its process group's id. */
  pid?: number;
  /**
   * Processes of the child's group still alive when the child itself had ended (then
   * killed): a run that would have left a worker behind. Linux only (/proc); empty elsewhere.
   */
  leftover: number[];
}

/** Signals of a stop that are passed on to a child's process group. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Live (not zombie) processes of process group `pgid`, from /proc; [] where /proc is absent. */
export function processGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* the group is gone */
  }
}

export interface GroupGuard {
  /** The stop signal this process received while guarding, if any. */
  readonly stoppedBy: NodeJS.Signals | undefined;
  /** Stops guarding (the child ended): the listeners are removed. */
  dispose(): void;
}

/**
 * While the child whose process group is `pgid` runs: a SIGINT, SIGTERM or SIGHUP of this
 * process is sent on to the whole group, and after `graceMs` (or at a second signal) the
 * group is killed (SIGKILL); if this process exits meanwhile, the group is killed with it.
 *
 * `onStop` decides what this process does next; by default, once the group is signalled
 * (graceMs 0: killed), the signal is raised again on this process when no other listener
 * of it remains, so the process ends as it would have without the guard.
 */
export function guardProcessGroup(
  pgid: number,
  o: { graceMs?: number; onStop?: (signal: NodeJS.Signals) => void; stopSignal?: NodeJS.Signals } = {},
): GroupGuard {
  const graceMs = o.graceMs ?? 0;
  let stoppedBy: NodeJS.Signals | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const onExit = () => signalGroup(pgid, 'SIGKILL');
  const listener = (signal: NodeJS.Signals) => {
    if (stoppedBy) {
      signalGroup(pgid, 'SIGKILL'); // a second stop: no more grace
      return;
    }
    stoppedBy = signal;
    signalGroup(pgid, o.stopSignal ?? signal);
    if (graceMs <= 0) signalGroup(pgid, 'SIGKILL');
    else killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
    if (o.onStop) return o.onStop(signal);
    dispose();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const dispose = () => {
    for (const s of FORWARDED_SIGNALS) process.off(s, listener);
    process.off('exit', onExit);
    if (killTimer) clearTimeout(killTimer);
  };
  for (const s of FORWARDED_SIGNALS) process.on(s, listener);
  process.on('exit', onExit);
  return {
    get stoppedBy() {
      return stoppedBy;
    },
    dispose,
  };
}

/** Kills what is left of a group whose leader has ended, and says which processes those were. */
function killLeftover(pgid: number | undefined): number[] {
  if (pgid === undefined) return [];
  const left = processGroupMembers(pgid);
  if (left.length) signalGroup(pgid, 'SIGKILL');
  return left;
}

export function runProcess(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; captureStdout?: boolean; stderrTailBytes?: number },
): Promise<Spawned> {
  const capture = opts.captureStdout ?? true;
  const tail = opts.stderrTailBytes;
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'], detached: true });
    // The harness's runs report nothing worth waiting for: a stop kills the group at once.
    const guard = child.pid !== undefined ? guardProcessGroup(child.pid) : undefined;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr = tail ? (stderr + d).slice(-tail) : stderr + d));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL'); // the whole process group
    }, opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      guard?.dispose();
      resolve({ code: null, stdout, stderr: `${stderr}${e.message}`, timedOut, leftover: [] });
    });
    // At `exit`, before `close`: a leftover process holding the child's stdout or stderr
    // open would hold `close` back until it ended.
    let leftover: number[] = [];
    child.on('exit', () => {
      leftover = killLeftover(child.pid);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      guard?.dispose();
      resolve({ code, stdout, stderr, timedOut, pid: child.pid, leftover });
    });
  });
}

export interface ForwardedRun {
  /** The child's exit code (null when a signal ended it). */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The code a shell reports: the child's, else 128 + the number of the signal that ended it or stopped this process. */
  exitCode: number;
  /** The stop signal this process received while the child ran (with `exitOnStop: false`). */
  stoppedBy?: NodeJS.Signals;
  /** Processes of its group still alive after it ended, then killed (see Spawned.leftover). */
  leftover: number[];
  /** The child outlived `timeoutMs`: its whole group was killed. */
  timedOut?: boolean;
}

const signalNumber = (signal: NodeJS.Signals | null | undefined) => (signal ? (constants.signals[signal] ?? 0) : 0);

/**
 * Runs a long command (a Playwright run) in its own process group with this process's
 * terminal (stdio inherited by default), for a CLI: a SIGINT, SIGTERM or SIGHUP of this
 * process is sent on to the child's whole group, so the runner can stop and write what
 * it has; after `graceMs` (default 10 s) or at a second signal the group is killed. Then
 * this process exits, with 128 + the signal's number, as a shell reports a stopped command
 * (`exitOnStop: false`: it resolves instead, with `stoppedBy` and that `exitCode`, for a
 * caller that has more to do before it exits). Without a stop, it resolves with the child's
 * exit once the child ended and any process left in its group was killed. With `timeoutMs`,
 * a child still running then has its whole group killed (`timedOut`).
 */
export function runForwardingSignals(
  cmd: string,
  args: string[],
  opts: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    stdio?: StdioOptions;
    graceMs?: number;
    exitOnStop?: boolean;
    stopSignal?: NodeJS.Signals;
    timeoutMs?: number;
  } = {},
): Promise<ForwardedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: opts.stdio ?? 'inherit', detached: true });
    if (child.pid === undefined) {
      child.once('error', reject);
      return;
    }
    const pgid = child.pid;
    const guard = guardProcessGroup(pgid, { graceMs: opts.graceMs ?? 10_000, onStop: () => {}, ...(opts.stopSignal ? { stopSignal: opts.stopSignal } : {}) });
    let timedOut = false;
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            signalGroup(pgid, 'SIGKILL');
          }, opts.timeoutMs)
        : undefined;
    child.once('error', (e) => {
      clearTimeout(timer);
      guard.dispose();
      reject(e);
    });
    let leftover: number[] = [];
    child.once('exit', () => {
      leftover = killLeftover(pgid);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const stoppedBy = guard.stoppedBy;
      guard.dispose();
      if (stoppedBy && opts.exitOnStop !== false) process.exit(128 + signalNumber(stoppedBy));
      const exitCode = stoppedBy ? 128 + signalNumber(stoppedBy) : (code ?? 128 + signalNumber(signal));
      resolve({ code, signal, exitCode, leftover, ...(stoppedBy ? { stoppedBy } : {}), ...(timedOut ? { timedOut } : {}) });
    });
  });
}

// ---- Playwright from anywhere ------------------------------------------------------------
//
// Running the suites' Playwright Test wherever the package is: a checkout, or a user's
// node_modules (`npx svc-conformance run`). Playwright compiles TypeScript test files
// itself, except inside node_modules (its transform skips dependencies): an installed
// package's scenarios are TypeScript under node_modules, so the run loads tsx's loader into
// every Playwright process (NODE_OPTIONS=--import <tsx>), which compiles what Playwright
// leaves alone, and the package's own line-preserving loader for its own files
// (targets/line-preserving-loader.mjs: tsx writes each file on one line, and Playwright maps
// no stack but its own, so every location of an installed run was line 1).

/** The package's root folder (this file is <root>/targets/process.ts). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PLAYWRIGHT_CONFIG = join(PACKAGE_ROOT, 'playwright.config.ts');

const require = createRequire(import.meta.url);

/** Playwright Test's own command-line entry, resolved from this package's dependencies. */
export function playwrightCli(): string {
  return require.resolve('@playwright/test/cli');
}

export function installedAsDependency(root = PACKAGE_ROOT): boolean {
  return root.split(sep).includes('node_modules');
}

/** NODE_OPTIONS that let Playwright load this package's TypeScript from node_modules (see the header). */
export function nodeOptionsFor(env: NodeJS.ProcessEnv, root = PACKAGE_ROOT): string | undefined {
  if (!installedAsDependency(root)) return env.NODE_OPTIONS;
  // tsx first, the line-preserving loader after it: the one registered last runs first.
  const own = `--import ${import.meta.resolve('tsx')} --import ${pathToFileURL(join(root, 'targets/line-preserving-loader.mjs')).href}`;
  return env.NODE_OPTIONS?.includes(own) ? env.NODE_OPTIONS : [env.NODE_OPTIONS, own].filter(Boolean).join(' ');
}

/** Whether a process of this machine is running (EPERM: it is, as another user's). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The environment that names the process a started one watches: a Playwright runner (scenarios/parent-watchdog.ts), a simulator process (targets/serve-until-stopped.ts). */
export const PARENT_PID_VARIABLE = 'SVC_PARENT_PID';

export interface ChildRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * A CLI's long child (a Playwright run) with this terminal: runForwardingSignals above, so a
 * stop of the CLI (Ctrl-C, a CI job cancelled) stops every process it started, and what
 * the runner leaves in its group is killed. Resolves with the code a shell would report.
 */
export async function runChild(run: ChildRun): Promise<number> {
  // Playwright's runner stops gracefully on SIGINT only (its workers' teardown deletes what
  // each test created, and every reporter writes what it has): a SIGTERM or SIGHUP of the CLI
  // (a cancelled CI job) reaches it as a SIGINT.
  const r = await runForwardingSignals(run.command, run.args, { cwd: run.cwd, env: run.env, exitOnStop: false, stopSignal: 'SIGINT' });
  return r.exitCode;
}

/** `playwright test` with this package's configuration (or another of its configurations). */
export function playwrightTest(args: string[], env: NodeJS.ProcessEnv, cwd: string, config = PLAYWRIGHT_CONFIG): ChildRun {
  const nodeOptions = nodeOptionsFor(env);
  return {
    command: process.execPath,
    args: [playwrightCli(), 'test', '-c', config, ...args],
    // The runner watches this process (scenarios/parent-watchdog.ts): if it is killed
    // outright (SIGKILL), the runner ends its own process group, workers and browsers with it.
    env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}), [PARENT_PID_VARIABLE]: String(process.pid) },
    cwd,
  };
}
