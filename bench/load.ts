/**
 * npm run bench:load — the k6-compatible runner against autocannon, on one simulator
 * endpoint, in the same rounds (Developers guide: speed goals live in bench scripts,
 * baselines measured in the same run). The simulator runs in a child process with its
 * rate limit lifted, so neither client shares an event loop with the server and 429s do
 * not count. The runner runs every round in one run (one scenario per measure and round,
 * bench/load-target.ts, so its VU threads start once); autocannon runs its rounds before
 * and after it. The table shows medians of the rounds, and the load average is printed
 * because other sessions share the CPU.
 *
 * Goals (the runner must stand in for k6 on a machine without it): achieved arrival rate within 5% of the asked rate up to 2,000/s;
 * runner full speed at least half of autocannon's with as many VUs as connections.
 *
 *   BENCH_ROUNDS (3), BENCH_SECONDS (2), BENCH_CONNECTIONS (8), BENCH_RATES (500,1000,2000), BENCH_PATH
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { runScript } from '../load/runner/engine.ts';
import { SIMULATOR_DEFAULTS } from '../targets/index.ts';

const RATES = (process.env.BENCH_RATES ?? '500,1000,2000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PATH = process.env.BENCH_PATH ?? '/categories/default?records_per_page=1';

async function startSimulator(): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'targets/simulator/main.ts', '--port', '0', '--quiet'], {
    env: { ...process.env, SVC_RATE_LIMIT_PER_SECOND: '1000000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /http:\/\/[^\s]+/.exec(d.toString());
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { base, stop: () => child.kill('SIGTERM') };
}

interface Measure {
  perSecond: number;
  dropped: number;
  nonOk: number;
}

/** One runner run with every round: measures per round, keyed by measure name. */
async function runnerRounds(env: Record<string, string>): Promise<Array<Record<string, Measure>>> {
  const r = await runScript('bench/load-target.ts', {
    env: { ...env, BENCH_SECONDS: String(SECONDS), BENCH_RATES: RATES.join(','), BENCH_ROUNDS: String(ROUNDS) },
    stdout: () => {},
  });
  if (r.exitCode !== 0) throw new Error(`runner exited ${r.exitCode}: ${r.error ?? ''}`);
  const m = r.summary!.metrics;
  const count = (metric: string, scenario: string) => m[`${metric}{scenario:${scenario}}`]?.values.count ?? 0;
  return Array.from({ length: ROUNDS }, (_, i) => {
    const out: Record<string, Measure> = {};
    for (const s of [...RATES.map((x) => `rate_${x}`), 'full_speed']) {
      const total = count('measured_requests', `r${i + 1}_${s}`);
      out[s] = { perSecond: total / SECONDS, dropped: count('dropped_iterations', `r${i + 1}_${s}`), nonOk: total - count('measured_ok', `r${i + 1}_${s}`) };
    }
    return out;
  });
}

async function autocannonRun(url: string, auth: string, duration: number): Promise<{ perSecond: number; non2xx: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: auth } });
  return { perSecond: result.requests.total / duration, non2xx: result.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main() {
  const loadBefore = load();
  const sim = await startSimulator();
  const url = `${sim.base}${PATH}`;
  const auth = `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${SIMULATOR_DEFAULTS.apiKey}`).toString('base64')}`;
  const env = { BENCH_URL: url, BENCH_AUTH: auth, BENCH_VUS: String(CONNECTIONS) };
  let runnerByRound: Array<Record<string, Measure>> = [];
  const autocannonByRound: number[] = [];
  const t0 = performance.now();
  try {
    console.log(
      `bench:load — GET ${PATH} on the simulator (child process), ${ROUNDS} rounds of ${SECONDS} s per measure, ${CONNECTIONS} VUs/connections at full speed`,
    );
    console.log(`load average before (1/5/15 min): ${loadBefore} on ${availableParallelism()} CPUs\n`);
    // Warm the fresh simulator's JIT first, so no client measures a cold server.
    await autocannonRun(url, auth, 1);
    const before = Math.ceil(ROUNDS / 2);
    for (let i = 0; i < before; i++) autocannonByRound.push((await autocannonRun(url, auth, SECONDS)).perSecond);
    runnerByRound = await runnerRounds(env);
    for (let i = before; i < ROUNDS; i++) autocannonByRound.push((await autocannonRun(url, auth, SECONDS)).perSecond);
    runnerByRound.forEach((runner, i) => {
      const cells = RATES.map((r) => `${r}/s→${runner[`rate_${r}`].perSecond.toFixed(0)} (dropped ${runner[`rate_${r}`].dropped})`);
      console.log(
        `round ${i + 1}: runner ${cells.join(', ')}; full speed ${runner.full_speed.perSecond.toFixed(0)}/s; autocannon ${autocannonByRound[i].toFixed(0)}/s`,
      );
    });
  } finally {
    sim.stop();
  }
  const rounds = runnerByRound.map((runner, i) => ({ runner, autocannon: autocannonByRound[i] }));
  const rows: string[][] = [];
  for (const rate of RATES) {
    const achieved = median(rounds.map((r) => r.runner[`rate_${rate}`].perSecond));
    const error = ((achieved - rate) / rate) * 100;
    const dropped = median(rounds.map((r) => r.runner[`rate_${rate}`].dropped));
    rows.push([
      `runner, arrival rate ${rate}/s`,
      achieved.toFixed(1),
      `${error >= 0 ? '+' : ''}${error.toFixed(2)}%`,
      String(dropped),
      Math.abs(error) <= 5 ? 'yes' : 'NO',
    ]);
  }
  const ac = median(rounds.map((r) => r.autocannon));
  const full = median(rounds.map((r) => r.runner.full_speed.perSecond));
  const ratio = full / ac;
  rows.push([`autocannon, full speed`, ac.toFixed(1), '', '', '']);
  rows.push([`runner, full speed (constant-vus)`, full.toFixed(1), `ratio ${ratio.toFixed(2)}`, '', ratio >= 0.5 ? 'yes' : 'NO']);
  const nonOk = rounds.reduce((n, r) => n + Object.values(r.runner).reduce((m, x) => m + x.nonOk, 0), 0);
  const header = ['measure (median of rounds)', 'achieved req/s', 'error vs asked', 'dropped', 'goal met'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
  console.log(`\nnon-200 answers to the runner: ${nonOk}; ${((performance.now() - t0) / 1000).toFixed(1)} s; load average after: ${load()}`);
  console.log('Goals: within 5% of the asked arrival rate up to 2,000/s; runner full speed >= 0.5 x autocannon (ratio: median runner / median autocannon).');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
