/**
 * Running the suites' Playwright Test from the CLI, wherever the package is: a checkout
 * (`npx tsx cli/main.ts run`) or a user's node_modules (`npx svc-conformance run`).
 *
 * Playwright compiles TypeScript test files itself, except inside node_modules (its
 * transform skips dependencies). An installed package's scenarios are TypeScript under
 * node_modules, so the run loads tsx's loader into every Playwright process
 * (NODE_OPTIONS=--import <tsx>), which compiles what Playwright leaves alone.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root folder (this file is <root>/scripts/playwright-process.ts). */
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
  const tsx = import.meta.resolve('tsx');
  const own = `--import ${tsx}`;
  return env.NODE_OPTIONS?.includes(own) ? env.NODE_OPTIONS : [env.NODE_OPTIONS, own].filter(Boolean).join(' ');
}

export interface ChildRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Runs a command with inherited stdio in its own process group and waits for it. A signal
 * to this process (Ctrl-C, a CI job cancelled) goes to the whole group, and a second one
 * kills it: Playwright's workers ignore SIGTERM and a busy worker may never read its
 * runner's goodbye, so stopping the CLI must stop every process it started.
 */
export function runChild(run: ChildRun): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(run.command, run.args, { cwd: run.cwd, env: run.env, stdio: 'inherit', detached: true });
    let signalled = 0;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* already gone */
      }
    };
    const onSignal = (signal: NodeJS.Signals) => {
      signalled++;
      killGroup(signalled > 1 ? 'SIGKILL' : signal);
      // Workers that ignore the first signal are killed after a grace period.
      if (signalled === 1) setTimeout(() => killGroup('SIGKILL'), 5_000).unref();
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, onSignal);
    child.on('error', (e) => {
      for (const s of signals) process.off(s, onSignal);
      reject(e);
    });
    child.on('close', (code, signal) => {
      for (const s of signals) process.off(s, onSignal);
      // Whatever the runner left behind (a worker still parsing a huge body) goes with it.
      killGroup('SIGKILL');
      resolvePromise(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal];
}

/** `playwright test` with this package's configuration. */
export function playwrightTest(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildRun {
  const nodeOptions = nodeOptionsFor(env);
  return {
    command: process.execPath,
    args: [playwrightCli(), 'test', '-c', PLAYWRIGHT_CONFIG, ...args],
    env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    cwd,
  };
}
