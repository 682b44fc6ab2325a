/**
 * npm run bench:contracts: validations per second of the contract layer
 * (`contract.check`, every registered check) against raw compiled ajv on the same
 * schema and body, measured in the same run. A figure for whoever changes contracts/,
 * with no goal: "at most 1.5x raw ajv" would measure the wrong thing (a check follows a
 * millisecond HTTP round trip); the figure that matters is the share of a conformance
 * run spent in contract checks, printed by npm run bench:suite. Bodies: one member
 * (GET /users/{user_guid}/members/{member_guid}) and a page of 1000 institutions
 * (GET /institutions), on the real spec/ documents.
 *
 * Short by design (the machine is shared): ROUNDS rounds of ~WINDOW_MS per measurement.
 */
import { loadContract, type Exchange } from './index.ts';
import { createAjv, compileAt } from './compile.ts';
import { sampleMember, sampleInstitutionsPage, USER_GUID, MEMBER_GUID } from './test/samples.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 300);
const VERSION = 'v20250224';

const t0 = performance.now();
const contract = loadContract();
contract.model('platform', VERSION);
const loadMs = performance.now() - t0;

interface Case {
  name: string;
  exchange: Exchange;
  raw: (body: unknown) => boolean;
}

function rawValidator(method: string, template: string) {
  const op = contract.model('platform', VERSION).findByKey(method, template);
  const media = op?.responses.get('200')?.media.find((m) => m.isJson);
  if (!media?.schemaUri) throw new Error(`no 200 JSON schema for ${method} ${template} in ${VERSION}`);
  // A separate ajv with the same options: the baseline is ajv alone, nothing shared.
  return compileAt(createAjv(), media.schemaUri, media.schemaPointer!);
}

const cases: Case[] = [
  {
    name: 'member',
    exchange: {
      api: 'platform',
      version: VERSION,
      request: { method: 'GET', url: `/users/${USER_GUID}/members/${MEMBER_GUID}`, headers: { accept: 'application/json' } },
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' }, body: { member: sampleMember() } },
    },
    raw: rawValidator('GET', '/users/{user_guid}/members/{member_guid}'),
  },
  {
    name: '1000 institutions',
    exchange: {
      api: 'platform',
      version: VERSION,
      request: { method: 'GET', url: '/institutions?page=1&records_per_page=1000', headers: { accept: 'application/json' } },
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: sampleInstitutionsPage(1000) },
    },
    raw: rawValidator('GET', '/institutions'),
  },
];

// Both sides must accept the body, or the comparison measures different work.
for (const c of cases) {
  const failures = contract.check(c.exchange);
  if (failures.length || !c.raw(c.exchange.response.body)) {
    console.error(`${c.name}: the sample does not conform: ${JSON.stringify(failures.slice(0, 3))}`);
    process.exit(1);
  }
}

let sink = 0;
/**
 * Calls `fn` in batches for ~WINDOW_MS of this process's CPU time; returns CPU
 * nanoseconds per call. CPU time, not wall time: the machine is shared, and time
 * spent descheduled is not the contract layer's cost.
 */
function measure(fn: () => unknown): number {
  let calls = 0;
  let batch = 1;
  const start = process.cpuUsage();
  const limitUs = WINDOW_MS * 1000;
  let elapsedUs = 0;
  while (elapsedUs < limitUs) {
    for (let i = 0; i < batch; i++) if (fn()) sink++;
    calls += batch;
    if (batch < 4096) batch *= 2;
    const u = process.cpuUsage(start);
    elapsedUs = u.user + u.system;
  }
  return (elapsedUs * 1000) / calls;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`contracts bench: spec/ platform ${VERSION} loaded in ${loadMs.toFixed(0)} ms (validators compile on first use)`);
console.log(`${ROUNDS} rounds x ${WINDOW_MS} ms per measurement (CPU time)\n`);

for (const c of cases) {
  const body = c.exchange.response.body;
  const rawNs: number[] = [];
  const contractNs: number[] = [];
  const ratios: number[] = [];
  // Warm-up, then alternate the order each round so drift on a shared machine hits both.
  measure(() => c.raw(body));
  measure(() => contract.check(c.exchange).length);
  for (let r = 0; r < ROUNDS; r++) {
    let raw: number, layer: number;
    if (r % 2 === 0) {
      raw = measure(() => c.raw(body));
      layer = measure(() => contract.check(c.exchange).length === 0);
    } else {
      layer = measure(() => contract.check(c.exchange).length === 0);
      raw = measure(() => c.raw(body));
    }
    rawNs.push(raw);
    contractNs.push(layer);
    ratios.push(layer / raw);
  }
  const rawMed = median(rawNs);
  const layerMed = median(contractNs);
  const ratio = median(ratios);
  console.log(`${c.name}:`);
  console.log(`  raw ajv         ${(1e9 / rawMed).toFixed(0).padStart(10)} validations/s  (median ${(rawMed / 1000).toFixed(2)} µs)`);
  console.log(`  contract.check  ${(1e9 / layerMed).toFixed(0).padStart(10)} validations/s  (median ${(layerMed / 1000).toFixed(2)} µs)`);
  console.log(`  contract layer's own cost per call: ${(layerMed - rawMed).toFixed(0)} ns (median contract.check minus median raw ajv)`);
  console.log(`  ratio (median of per-round ratios) ${ratio.toFixed(2)}x  [${ratios.map((x) => x.toFixed(2)).join(' ')}]\n`);
}
if (sink < 0) console.log(sink);
