/**
 * What a run costs against a target that answers the institution list with a huge body:
 * wall time, peak RSS of the run's process group (sampled every 200 ms from /proc), the
 * processes left when the runner ended, and each scenario's first error line. The target
 * streams the list in 64 KiB chunks with backpressure (never held whole) and answers any
 * other path the same way; `--broken` makes every record miss three required fields and
 * carry two wrong types (five schema mismatches a record).
 *
 *   npx tsx bench/big-body.ts                       # 200 MB of valid records
 *   npx tsx bench/big-body.ts --broken              # 200 MB of broken records
 *   npx tsx bench/big-body.ts --broken --mb 20 --max-body-bytes 67108864
 *
 * Bounded: the run's whole group is killed after --bound-s (default 120) seconds, or when
 * the group holds more than 7 GB. Linux only (/proc).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { processGroupMembers, realTargetEnv } from '../targets/index.ts';
import { ROOT, testsWithReasons } from '../proof/real-target.ts';
import type { PwReport } from '../proof/run-suite.ts';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '200' },
    broken: { type: 'boolean', default: false },
    grep: { type: 'string', default: 'the name filter narrows|include_blocked_institutions' },
    'bound-s': { type: 'string', default: '120' },
    'max-body-bytes': { type: 'string' },
  },
});
const total = Number(values.mb) * 1e6;
const boundMs = Number(values['bound-s']) * 1000;
const RSS_CEILING = 7e9;

const record = (i: number) =>
  JSON.stringify(
    values.broken
      ? { code: i, is_hidden: false, status: 'OPERATIONAL', supports_oauth: 'no' }
      : {
          code: `bank_${i}`,
          guid: `INS-00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          name: `Bank ${i}`,
          created_at: '2015-06-01T00:00:00Z',
          status: 'OPERATIONAL',
          supports_oauth: false,
          supported_products: ['transactions'],
        },
  );

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('error', () => {});
  let sent = 0;
  let i = 0;
  res.write('{"institutions":[');
  const pump = () => {
    while (sent < total && !res.destroyed) {
      let chunk = '';
      while (chunk.length < 65_536) chunk += (i ? ',' : '') + record(i++);
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('],"pagination":{"current_page":1,"per_page":1000,"total_entries":1,"total_pages":1}}');
  };
  pump();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const work = mkdtempSync(join(tmpdir(), 'svc-big-body-'));
const reportFile = join(work, 'report.json');
const env = {
  ...realTargetEnv(base, {
    SVC_REQUEST_TIMEOUT_MS: '10000',
    SVC_AGGREGATION_TIMEOUT_MS: '10000',
    ...(values['max-body-bytes'] ? { SVC_MAX_BODY_BYTES: values['max-body-bytes'] } : {}),
  }),
  PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
  SVC_HTTP_TIMING_DIR: join(work, 'http-timing'),
  SVC_REPORTS_OUT: join(work, 'reports'),
};
const started = performance.now();
const child = spawn(
  join(ROOT, 'node_modules/.bin/playwright'),
  ['test', '--project=api', '--reporter=json', `--output=${join(work, 'results')}`, '--workers=2', `--grep=${values.grep}`],
  { cwd: ROOT, env, detached: true, stdio: 'ignore' },
);
const group = child.pid!;
const kill = () => {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    /* gone */
  }
};
const rssOf = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
let peakGroup = 0;
const peakOf = new Map<number, number>();
const sampler = setInterval(() => {
  let sum = 0;
  for (const pid of processGroupMembers(group)) {
    const rss = rssOf(pid);
    sum += rss;
    peakOf.set(pid, Math.max(peakOf.get(pid) ?? 0, rss));
  }
  peakGroup = Math.max(peakGroup, sum);
  if (sum > RSS_CEILING) kill();
}, 200);
let killedAtBound = false;
const bound = setTimeout(() => {
  killedAtBound = true;
  kill();
}, boundMs);
const code = await new Promise<number | string | null>((r) => child.once('exit', (c, s) => r(c ?? s)));
const wallS = (performance.now() - started) / 1000;
const left = processGroupMembers(group);
clearInterval(sampler);
clearTimeout(bound);
kill();
server.closeAllConnections();
server.close();

const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
console.log(
  `${values.mb} MB of ${values.broken ? 'broken' : 'valid'} records: exit ${code} after ${wallS.toFixed(1)} s${killedAtBound ? ` (killed at the ${values['bound-s']} s bound)` : ''}; peak RSS of the run's group ${mb(peakGroup)}; per process ${[
    ...peakOf.values(),
  ]
    .sort((a, b) => b - a)
    .slice(0, 3)
    .map(mb)
    .join(', ')}; left when the runner ended: ${left.length}`,
);
try {
  for (const t of testsWithReasons(JSON.parse(readFileSync(reportFile, 'utf8')) as PwReport))
    console.log(`  ${t.status} ${t.title}: ${(t.firstError ?? '').split('\n')[0]}`);
} catch {
  console.log('  no JSON report');
}
rmSync(work, { recursive: true, force: true });
