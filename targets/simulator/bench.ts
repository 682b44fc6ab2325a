/**
 * npm run bench:simulator
 *
 * Requests per second of the simulator on a list endpoint (GET /institutions, 25
 * records a page, keep-alive) against a bare node:http server that sends the very same
 * bytes, measured side by side in one run (a figure measured, not claimed; goal: at
 * least 50% of the bare server). Also prints the simulator's start-up time (median of
 * several buildSimulator + listen).
 *
 * Both servers run in one child process and autocannon in this process, so the load
 * generator does not share an event loop with the server it measures. Traffic stays on
 * 127.0.0.1; each round is bounded in time (BENCH_SECONDS, default 5) and there are
 * BENCH_ROUNDS rounds (default 3), alternating simulator and bare so drift hits both.
 * The rate limit is set far above the load so the limiter still runs but never answers
 * 429 (that would measure the limiter's refusals, not the list).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildSimulator } from './app.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';

const PATH = '/institutions?records_per_page=25';
const AUTH = `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${SIMULATOR_DEFAULTS.apiKey}`).toString('base64')}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Child: the simulator and a bare server with the simulator's exact response bytes. */
async function serve(): Promise<void> {
  const sim = await buildSimulator({ settings: { rateLimitPerSecond: 1e9 } });
  const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
  const sample = await fetch(`${simUrl}${PATH}`, { headers: { authorization: AUTH } });
  if (sample.status !== 200) throw new Error(`simulator answered ${sample.status} on ${PATH}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const type = sample.headers.get('content-type') ?? 'application/json';
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  });
  bare.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const port = (bare.address() as { port: number }).port;
  process.send!({ simUrl, bareUrl: `http://127.0.0.1:${port}`, bytes: body.length });
  process.on('message', async (m) => {
    if (m === 'stop') {
      await sim.close();
      bare.close();
      process.exit(0);
    }
  });
}

async function load(url: string, seconds = SECONDS): Promise<{ rps: number; non2xx: number; p99: number }> {
  const r = await autocannon({ url: `${url}${PATH}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: AUTH } });
  return { rps: r.requests.average, non2xx: r.non2xx + r.errors, p99: r.latency.p99 };
}

async function startupMs(runs = 5): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const app = await buildSimulator();
    await app.listen({ host: '127.0.0.1', port: 0 });
    times.push(performance.now() - t0);
    await app.close();
  }
  return times;
}

async function main(): Promise<void> {
  const startup = await startupMs();
  console.log(
    `simulator start-up (buildSimulator + listen, ${startup.length} runs): median ${median(startup).toFixed(1)} ms (runs: ${startup.map((t) => t.toFixed(0)).join(', ')} ms; the first includes module warm-up)`,
  );

  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const urls = await new Promise<{ simUrl: string; bareUrl: string; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
  console.log(`GET ${PATH}: ${urls.bytes} bytes a response; ${CONNECTIONS} keep-alive connections, ${SECONDS} s a round, ${ROUNDS} rounds`);
  const sim: number[] = [];
  const bare: number[] = [];
  try {
    // Warm-up (not counted): JIT and connection set-up would otherwise land in round 1 only.
    await load(urls.simUrl, 1);
    await load(urls.bareUrl, 1);
    for (let round = 1; round <= ROUNDS; round++) {
      const s = await load(urls.simUrl);
      const b = await load(urls.bareUrl);
      if (s.non2xx || b.non2xx) throw new Error(`non-2xx answers during the run: simulator ${s.non2xx}, bare ${b.non2xx}`);
      sim.push(s.rps);
      bare.push(b.rps);
      console.log(`  round ${round}: simulator ${s.rps.toFixed(0)} req/s (p99 ${s.p99} ms), bare node:http ${b.rps.toFixed(0)} req/s (p99 ${b.p99} ms)`);
    }
  } finally {
    child.send('stop');
  }
  const ratio = median(sim) / median(bare);
  console.log(`median: simulator ${median(sim).toFixed(0)} req/s, bare ${median(bare).toFixed(0)} req/s, ratio ${(ratio * 100).toFixed(1)}% (goal >= 50%)`);
}

if (process.argv.includes('--serve'))
  serve().catch((e) => {
    console.error(e);
    process.exit(1);
  });
else
  main().catch((e) => {
    console.error(`bench:simulator: ${(e as Error).message}`);
    process.exitCode = 1;
  });
