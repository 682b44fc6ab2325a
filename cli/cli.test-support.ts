/**
 * The command as the CLI's tests meet it: in its own process, as a user types it (`cli`,
 * `cliAsync` for several at once), or in the test's process with its exit code and its own
 * messages captured (`inProcess`: buildProgram, no process per case).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { buildProgram } from './main.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'cli/bin.mjs');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

export function cli(args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const res = spawnSync(process.execPath, [BIN, ...args], { cwd: o.cwd ?? ROOT, env: { ...process.env, ...o.env }, encoding: 'utf8', timeout: 60_000 });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

/** `cli` without blocking the test's process: several commands run side by side. */
export function cliAsync(args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: o.cwd ?? ROOT,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

/** The command in this process (buildProgram with its exit and output captured): what a user types, without a process per case. */
export async function inProcess(args: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  let code: number | undefined;
  let out = '';
  let err = '';
  const program = buildProgram((c) => (code ??= c), { out: (t) => (out += t), err: (t) => (err += t) });
  try {
    await program.parseAsync(['node', 'svc-conformance', ...args]);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
  }
  return { code, out, err };
}
