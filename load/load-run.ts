/**
 * Runs the k6 load scripts (load/<script>.ts) with the project's k6-compatible runner
 * (load/runner/engine.ts, in this process, as `npm run load` does without k6) against an
 * in-process simulator that has the given faults or variations in force — or against
 * SVC_BASE_URL when a real target is configured. Summaries land in
 * `<reportDir>/<script>.summary.json` (load/script-support/report.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProfile, profileEnv, startTarget } from '../targets/index.ts';
import { runScript, type RunResult } from './runner/engine.ts';
import { embeddedLoadEnv, simulatorEnv } from './run.ts';

/** k6 scripts: files directly under load/ that export k6 options or a default function. */
export function listLoadScripts(root: string): string[] {
  const dir = join(root, 'load');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ts$/.test(f) && !f.endsWith('.test.ts'))
    .filter((f) => /export\s+(default\b|const\s+options\b)/.test(readFileSync(join(dir, f), 'utf8')))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

export interface LoadRun {
  script: string;
  exitCode: number | null;
  summaryFile?: string;
  error?: string;
}

export async function runLoadScripts(o: {
  root: string;
  scripts: string[];
  reportDir: string;
  env: NodeJS.ProcessEnv;
  faults?: string[];
  variations?: string[];
  timeoutMs?: number;
}): Promise<LoadRun[]> {
  let env: NodeJS.ProcessEnv = { ...o.env };
  let close: (() => Promise<void>) | undefined;
  const profile = loadProfile(env);
  if (profile.isSimulator) {
    // The same embedded target as `npm run load` (load/run.ts): its rate limit unless the
    // caller sets one, and every setting the scripts read from __ENV (credentials,
    // data-exchange grant, 429 body rule) from the one place that derives them.
    env = embeddedLoadEnv(env).env;
    // What is in force comes from o.faults / o.variations only, never from env's SVC_SIM_* lists.
    const target = await startTarget({ env: { ...env, SVC_SIM_FAULTS: undefined, SVC_SIM_VARIATIONS: undefined }, faults: o.faults, variations: o.variations });
    Object.assign(env, simulatorEnv(target.url, env));
    close = target.close;
  } else {
    Object.assign(env, profileEnv(profile));
  }
  const runs: LoadRun[] = [];
  try {
    for (const script of o.scripts) {
      const res = await runBounded(join(o.root, 'load', `${script}.ts`), {
        env: { ...env, PROFILE: env.PROFILE ?? 'smoke', LOAD_REPORT_DIR: o.reportDir },
        cwd: o.root,
        timeoutMs: o.timeoutMs ?? 120_000,
      });
      const summaryFile = join(o.reportDir, `${script}.summary.json`);
      const ok = existsSync(summaryFile) && !res.timedOut;
      runs.push({
        script,
        exitCode: res.exitCode,
        summaryFile: ok ? summaryFile : undefined,
        error: ok
          ? undefined
          : `load:${script} wrote no summary (exit ${res.exitCode}${res.timedOut ? ', timed out' : ''}): ${(res.error ?? res.output).trim().slice(-300)}`,
      });
    }
  } finally {
    await close?.();
  }
  return runs;
}

/**
 * One script on the runner, its output kept (the summary file is what is read; the output
 * explains a run that wrote none), bounded: past `timeoutMs` the run counts as timed out.
 * The runner cannot be stopped from outside, but its own bounds end it (each scenario's
 * duration and gracefulStop, each request's timeout), sooner still once the caller closes
 * the simulator it talks to.
 */
async function runBounded(
  scriptPath: string,
  o: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number },
): Promise<{ exitCode: number | null; timedOut: boolean; output: string; error?: string }> {
  let output = '';
  const keep = (text: string) => {
    output = (output + text).slice(-4_096);
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timed out'>((done) => {
    timer = setTimeout(() => done('timed out'), o.timeoutMs);
  });
  try {
    const r: RunResult | 'timed out' = await Promise.race([runScript(scriptPath, { env: o.env, cwd: o.cwd, stdout: keep, stderr: keep }), late]);
    if (r === 'timed out') return { exitCode: null, timedOut: true, output };
    return { exitCode: r.exitCode, timedOut: false, output, ...(r.error ? { error: r.error } : {}) };
  } catch (e) {
    return { exitCode: null, timedOut: false, output, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
