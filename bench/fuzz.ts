/**
 * npm run bench:fuzz: the fuzz run of the fuzz project, against the embedded
 * simulator (targets/simulator/main.ts, a child process on 127.0.0.1), without Playwright. Prints cases per second
 * and the number of operations exercised of the total documented.
 *
 *   npm run bench:fuzz [-- --runs 12 --seconds 30 --seed 1]
 *
 * Goals: every documented operation exercised; at least 200 cases/s on 2 cores.
 * Defaults are the profile's (SVC_FUZZ_RUNS, SVC_FUZZ_SECONDS); the seed is fixed (1)
 * unless given, so two runs compare.
 */
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadProfile, profileSecrets, createRedactor } from '../targets/index.ts';
import { loadContract } from '../contracts/index.ts';
import { renderStats, runFuzz } from '../scenarios/fuzz/engine/run.ts';
import { renderCounterexample } from '../scenarios/fuzz/engine/engine.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    runs: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const env = { ...process.env, SVC_BASE_URL: undefined };
// The simulator in its own process, as under Playwright (globalSetup's simulator in the
// runner, the fuzzer in a worker): two cores, two processes.
const root = fileURLToPath(new URL('..', import.meta.url));
const sim = spawn(process.execPath, ['--import', 'tsx', 'targets/simulator/main.ts', '--port', '0', '--quiet'], {
  cwd: root,
  env: { ...process.env, SVC_BASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  sim.stdout!.on('data', (d) => {
    out += String(d);
    const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m) resolve(m[1]);
  });
  sim.on('exit', (code) => reject(new Error(`the simulator exited (${code}) before listening`)));
});
try {
  // Alone against its own simulator: 80% of the request limit (the Playwright run takes half).
  const profile = loadProfile({ SVC_FUZZ_RATE_SHARE: '0.8', ...env, SVC_SIMULATOR_URL: url });
  const contract = loadContract();
  const t0 = performance.now();
  contract.compileAll();
  const compileMs = performance.now() - t0;
  const redactor = createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]);
  const r = await runFuzz({
    profile,
    contract,
    redactor,
    seed: values.seed !== undefined ? Number(values.seed) : (profile.fuzz.seed ?? 1),
    runs: values.runs !== undefined ? Number(values.runs) : profile.fuzz.runs,
    seconds: values.seconds !== undefined ? Number(values.seconds) : profile.fuzz.seconds,
    destructive: true,
    ...(values.only ? { only: values.only } : profile.fuzz.only ? { only: profile.fuzz.only } : {}),
    ...(values.verbose ? { log: (l: string) => console.log(l) } : {}),
  });
  console.log(
    `bench:fuzz against the embedded simulator (${url}), ${(await import('node:os')).availableParallelism()} cores, contract compiled in ${(compileMs / 1000).toFixed(1)} s`,
  );
  for (const l of renderStats(r)) console.log(l);
  console.log(`chains: ${((r.durationMs - r.casesMs) / 1000).toFixed(1)} s; whole run ${(r.durationMs / 1000).toFixed(1)} s`);
  const missing = r.documented.filter((d) => !r.exercised.includes(d));
  if (missing.length) console.log(`not exercised (${missing.length}): ${missing.join(', ')}`);
  if (r.counterexamples.length)
    console.log(`counterexamples: ${r.counterexamples.length}\n${r.counterexamples.map((x) => renderCounterexample(x, r.seed)).join('\n')}`);
  if (values.verbose) for (const w of r.stats.warnings) console.log(`warning: ${w}`);
  console.log(
    `statuses: ${[...r.stats.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
} finally {
  sim.kill('SIGTERM');
}
