/**
 * npm run bench:gate — the wall time of the three commands a deploy gate waits for
 * (a CI gate is only used if it is fast), each measured in this one sitting with
 * the load average before and after, so a figure taken on a busy machine says so:
 *
 *   conformance   `npm run conformance -- --project api --project browser` (goal ≤ 25 s)
 *   selftest      `npm run selftest` (goal ≤ 120 s)
 *   npm test      the README's test command (goal ≤ 240 s), with --npm-test only: it runs
 *                 the self-test again, so it is the slow part of this bench
 *
 *   npm run bench:gate [-- --runs 1] [--npm-test] [--skip-selftest]
 *
 * Figures, never a timed test: the goals are compared and printed, and the exit code says
 * only whether every command itself succeeded. Writes reports/out/bench-gate.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runProcess } from '../targets/index.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1' }, 'npm-test': { type: 'boolean', default: false }, 'skip-selftest': { type: 'boolean', default: false } },
});
const runs = Math.max(1, Number(values.runs));

interface Step {
  name: string;
  command: string[];
  goalS: number;
  env?: Record<string, string>;
}
const steps: Step[] = [
  { name: 'conformance (api + browser)', command: ['npx', 'playwright', 'test', '--project', 'api', '--project', 'browser', '--reporter=dot'], goalS: 25 },
  ...(values['skip-selftest']
    ? []
    : [{ name: 'selftest', command: ['npx', 'tsx', 'proof/selftest.ts', '--out', 'reports/out/bench-gate/selftest'], goalS: 120 }]),
  ...(values['npm-test'] ? [{ name: 'npm test', command: ['npm', 'test'], goalS: 240 }] : []),
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const results: Array<{
  name: string;
  goalS: number;
  wallS: number[];
  medianS: number;
  exitCodes: (number | null)[];
  loadBefore: string[];
  loadAfter: string[];
}> = [];
let failed = false;
for (const step of steps) {
  const r = {
    name: step.name,
    goalS: step.goalS,
    wallS: [] as number[],
    medianS: 0,
    exitCodes: [] as (number | null)[],
    loadBefore: [] as string[],
    loadAfter: [] as string[],
  };
  for (let i = 0; i < runs; i++) {
    r.loadBefore.push(load());
    const started = performance.now();
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
    delete env.SVC_BASE_URL; // the embedded simulator: the figure is the suite's, not a remote service's
    const p = await runProcess(step.command[0]!, step.command.slice(1), {
      cwd: ROOT,
      env,
      timeoutMs: 60 * 60_000,
      captureStdout: false,
      stderrTailBytes: 2000,
    });
    const wallS = (performance.now() - started) / 1000;
    r.wallS.push(wallS);
    r.exitCodes.push(p.code);
    r.loadAfter.push(load());
    if (p.code !== 0) failed = true;
    console.log(`${step.name}: ${wallS.toFixed(1)} s (exit ${p.code}; load average ${r.loadBefore.at(-1)} before, ${r.loadAfter.at(-1)} after)`);
  }
  r.medianS = median(r.wallS);
  results.push(r);
}

console.log(`\n${cpus().length} CPUs. Median wall time against its goal:`);
for (const r of results)
  console.log(
    `  ${r.name.padEnd(28)} ${r.medianS.toFixed(1).padStart(7)} s   goal ≤ ${r.goalS} s   ${r.medianS <= r.goalS ? 'met' : `${(r.medianS / r.goalS).toFixed(2)}× the goal`}`,
  );
mkdirSync(join(ROOT, 'reports/out'), { recursive: true });
writeFileSync(join(ROOT, 'reports/out/bench-gate.json'), JSON.stringify({ when: new Date().toISOString(), cpus: cpus().length, results }, null, 2));
process.exit(failed ? 1 : 0);
