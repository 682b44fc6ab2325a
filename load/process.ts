/**
 * Runs a command in its own process group and kills the whole group on timeout, so a
 * Playwright run's workers and browsers never outlive it. One helper for the
 * self-test, the suite runner and the load/delivery adapters.
 */
import { spawn } from 'node:child_process';

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
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
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr = tail ? (stderr + d).slice(-tail) : stderr + d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL'); // the whole process group
      } catch {
        /* already gone */
      }
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
