/**
 * npm run bench:proxy [-- --rounds 20 --block 10 --warmup 3]
 *
 * What the recording, validating proxy adds to each exchange of an integration's tests
 * (goal: under 5 ms median). The proxy is started as a team starts it, `svc-conformance
 * proxy` in a process of its own with the embedded simulator in that process, and this
 * process plays the integration: the same requests, one at a time over kept-alive
 * connections, sent straight to the simulator and through the proxy in alternating blocks
 * (the first side flips every round), after a warm-up. Per kind of request the median of
 * each side, their difference (the added time) and ratio, and the difference of the means
 * (which carries the judging of the large answers); overall the same, with the load
 * average (a figure, not a test: the machine is shared).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { SIMULATOR_DEFAULTS } from '../targets/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 20);
const WARMUP = arg('warmup', 3);
const BLOCK = arg('block', 10);

const auth = `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.clientId}:${SIMULATOR_DEFAULTS.apiKey}`).toString('base64')}`;
const headers = { authorization: auth, 'accept-version': 'v20250224', 'content-type': 'application/json' };

interface Kind {
  name: string;
  method: 'GET' | 'POST';
  path: (user: string) => string;
  body?: () => string;
}
const KINDS: Kind[] = [
  { name: 'GET /institutions (25 records)', method: 'GET', path: () => '/institutions?records_per_page=25' },
  { name: 'GET /institutions (1000 records)', method: 'GET', path: () => '/institutions?records_per_page=1000' },
  { name: 'GET /institutions/{code}', method: 'GET', path: () => '/institutions/svcbank' },
  { name: 'GET /users/{user_guid}', method: 'GET', path: (u) => `/users/${u}` },
  { name: 'POST /users', method: 'POST', path: () => '/users', body: () => JSON.stringify({ user: { id: `bench-${Math.random().toString(36).slice(2)}` } }) },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

async function timed(pool: Pool, kind: Kind, user: string): Promise<number> {
  const started = performance.now();
  const res = await pool.request({ method: kind.method, path: kind.path(user), headers, body: kind.body?.() });
  await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${kind.name} answered ${res.statusCode}`);
  return performance.now() - started;
}

async function main() {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'cli/bin.mjs'), 'proxy', '--port', '0', '--quiet', '--no-config', '--out', join(ROOT, 'reports/out/bench-proxy')],
    {
      cwd: ROOT,
      // Requests back to back exceed the simulator's default 300 a second (Errors: 429): the bench measures the hop, not the limit.
      env: { ...process.env, SVC_RATE_LIMIT_PER_SECOND: '1000000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const urls = await new Promise<{ proxy: string; upstream: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the proxy did not start within 60 s: ${out}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /svc-conformance proxy: (http:\/\/\S+) → (http:\/\/\S+?);/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proxy: m[1], upstream: m[2] });
      }
    });
    child.on('exit', (code) => reject(new Error(`the proxy exited ${code}: ${out}`)));
  });
  const direct = new Pool(urls.upstream, { connections: 1 });
  const proxied = new Pool(urls.proxy, { connections: 1 });
  try {
    const created = await direct.request({ method: 'POST', path: '/users', headers, body: JSON.stringify({ user: { id: 'bench-reader' } }) });
    const user = ((await created.body.json()) as { user: { guid: string } }).user.guid;
    // Blocks of BLOCK requests of one kind on one side, the sides alternating and the first side flipping every
    // round: the judging the proxy does after an answer (in the proxy's process, where the embedded simulator also
    // runs) lands on the proxied requests that follow it, not on the direct ones.
    const samples = new Map(KINDS.map((k) => [k.name, { direct: [] as number[], proxied: [] as number[] }]));
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const kind of KINDS) {
        const sides: Array<['direct' | 'proxied', Pool]> =
          round % 2
            ? [
                ['proxied', proxied],
                ['direct', direct],
              ]
            : [
                ['direct', direct],
                ['proxied', proxied],
              ];
        for (const [side, pool] of sides) {
          for (let i = 0; i < BLOCK; i++) {
            const ms = await timed(pool, kind, user);
            if (round >= WARMUP) samples.get(kind.name)![side].push(ms);
          }
        }
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const all = { direct: [] as number[], proxied: [] as number[] };
    console.log(
      `proxy overhead per exchange: ${ROUNDS} rounds (after ${WARMUP} warm-up) of ${KINDS.length} request kinds in blocks of ${BLOCK} per side, one at a time; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `${'request'.padEnd(34)} ${'direct ms'.padStart(10)} ${'proxied ms'.padStart(11)} ${'added ms'.padStart(9)} ${'ratio'.padStart(6)} ${'mean added'.padStart(11)}`,
    );
    const row = (name: string, d: number[], p: number[]) =>
      console.log(
        `${name.padEnd(34)} ${median(d).toFixed(2).padStart(10)} ${median(p).toFixed(2).padStart(11)} ${(median(p) - median(d)).toFixed(2).padStart(9)} ${(median(p) / median(d)).toFixed(2).padStart(6)} ${(mean(p) - mean(d)).toFixed(2).padStart(11)}`,
      );
    for (const [name, s] of samples) {
      all.direct.push(...s.direct);
      all.proxied.push(...s.proxied);
      row(name, s.direct, s.proxied);
    }
    row('all', all.direct, all.proxied);
    const added = median(all.proxied) - median(all.direct);
    console.log(`median added per exchange: ${added.toFixed(2)} ms (goal < 5 ms: ${added < 5 ? 'met' : 'NOT met'})`);
  } finally {
    await direct.close();
    await proxied.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

main().catch((e) => {
  console.error(`bench:proxy: ${(e as Error).message}`);
  process.exit(1);
});
