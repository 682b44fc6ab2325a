/**
 * npm run bench:load — the k6-compatible runner against autocannon, on one simulator
 * endpoint, in one run (Developers guide: speed goals live in bench scripts, baselines
 * measured in the same run). The simulator runs in a child process with its rate limit
 * lifted, so neither client shares an event loop with the server and 429s do not count.
 *
 * Goals (issue 6): achieved arrival rate within 5% of the asked rate up to 2,000/s;
 * runner full speed at least half of autocannon's with the same number of connections.
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { runScript } from './runner/engine.ts';
import { SIMULATOR_DEFAULTS } from '../targets/simulator/settings.ts';

const RATES = (process.env.BENCH_RATES ?? '500,1000,2000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
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

async function runnerRun(env: Record<string, string>): Promise<{ perSecond: number; dropped: number; ok: number; total: number }> {
  const r = await runScript('load/bench/target.ts', { env: { ...env, BENCH_SECONDS: String(SECONDS) }, stdout: () => {} });
  if (r.exitCode !== 0) throw new Error(`runner exited ${r.exitCode}: ${r.error ?? ''}`);
  const m = r.summary!.metrics;
  const total = m.measured_requests?.values.count ?? 0;
  return { perSecond: total / SECONDS, dropped: m.dropped_iterations?.values.count ?? 0, ok: m.measured_ok?.values.count ?? 0, total };
}

async function autocannonRun(url: string, auth: string, duration: number): Promise<{ perSecond: number; non2xx: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: auth } });
  return { perSecond: result.requests.total / duration, non2xx: result.non2xx };
}

async function main() {
  const sim = await startSimulator();
  const url = `${sim.base}${PATH}`;
  const auth = `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${SIMULATOR_DEFAULTS.apiKey}`).toString('base64')}`;
  const env = { BENCH_URL: url, BENCH_AUTH: auth, BENCH_VUS: String(CONNECTIONS) };
  const rows: string[][] = [];
  try {
    console.log(`bench:load — GET ${PATH} on the simulator (child process), ${SECONDS} s per measure, ${CONNECTIONS} VUs/connections\n`);
    // Warm the fresh simulator's JIT first, so no client measures a cold server.
    await autocannonRun(url, auth, 2);
    for (const rate of RATES) {
      const r = await runnerRun({ ...env, BENCH_RATE: String(rate) });
      const error = ((r.perSecond - rate) / rate) * 100;
      rows.push([`runner, arrival rate ${rate}/s`, r.perSecond.toFixed(1), `${error >= 0 ? '+' : ''}${error.toFixed(2)}%`, String(r.dropped), Math.abs(error) <= 5 ? 'yes' : 'NO']);
    }
    const ac = await autocannonRun(url, auth, SECONDS);
    const full = await runnerRun({ ...env, BENCH_RATE: '0' });
    const ratio = full.perSecond / ac.perSecond;
    rows.push([`autocannon, full speed`, ac.perSecond.toFixed(1), '', '', '']);
    rows.push([`runner, full speed (constant-vus)`, full.perSecond.toFixed(1), `ratio ${ratio.toFixed(2)}`, '', ratio >= 0.5 ? 'yes' : 'NO']);
  } finally {
    sim.stop();
  }
  const header = ['measure', 'achieved req/s', 'error vs asked', 'dropped', 'goal met'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
  console.log('\nGoals: within 5% of the asked arrival rate up to 2,000/s; runner full speed >= 0.5 x autocannon.');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
