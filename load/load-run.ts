/**
 * Runs the k6 load scripts (load/<script>.ts) with the project's k6-compatible runner
 * (load/runner/cli.ts) against an in-process simulator that has the given faults or
 * variations in force — or against SVC_BASE_URL when a real target is configured.
 * Summaries land in `<reportDir>/<script>.summary.json` (load/script-support/report.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProfile, profileEnv, startTarget, runProcess } from '../targets/index.ts';
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
      const res = await runProcess(
        process.execPath,
        [
          '--import',
          'tsx',
          'load/runner/cli.ts',
          'run',
          '-e',
          `PROFILE=${env.PROFILE ?? 'smoke'}`,
          '-e',
          `LOAD_REPORT_DIR=${o.reportDir}`,
          `load/${script}.ts`,
        ],
        {
          cwd: o.root,
          env,
          timeoutMs: o.timeoutMs ?? 120_000,
        },
      );
      const summaryFile = join(o.reportDir, `${script}.summary.json`);
      const ok = existsSync(summaryFile);
      runs.push({
        script,
        exitCode: res.code,
        summaryFile: ok ? summaryFile : undefined,
        error: ok
          ? undefined
          : `load:${script} wrote no summary (exit ${res.code}${res.timedOut ? ', timed out' : ''}): ${(res.stderr || res.stdout).trim().slice(-300)}`,
      });
    }
  } finally {
    await close?.();
  }
  return runs;
}
