/**
 * npm run selftest — the fault-detection matrix (issue 8).
 *
 * Runs the suites an entry can affect (its `suites` tags) against the simulator once
 * per fault and once per variation of targets/simulator/catalog.ts, two runs at a time
 * (the reference machine has 2 cores), and prints which checks caught each fault or
 * "SURVIVED", and "passed" or the false alarm for each variation. Writes
 * reports/out/selftest/matrix.json and matrix.md. Exit 1 when a fault survives, a
 * variation alarms or a run breaks.
 *
 *   npm run selftest [-- --only name,name] [--kind fault|variation] [--quick]
 *                    [--concurrency 2] [--out reports/out/selftest]
 *
 * --quick (npm run selftest:quick): variations run only the HTTP scenarios (project
 * api) instead of every suite; faults run exactly as in the full matrix. It keeps the
 * gate's promise for faults and trims the most expensive column.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG, type CatalogEntry } from '../targets/simulator/catalog.ts';
import { ADAPTERS, type RunContext } from '../reports/selftest/adapters.ts';
import { buildMatrix, matrixPasses, renderConsole, renderMarkdown, rowOf, type MatrixRow, type RunOutcome } from '../reports/selftest/matrix.ts';
import { planEntry, type PlannedEntry } from '../reports/selftest/plan.ts';

export interface SelftestOptions {
  root?: string;
  only?: string[];
  kind?: 'fault' | 'variation';
  quick?: boolean;
  concurrency?: number;
  outDir?: string;
  /** Per-run bound, ms. */
  timeoutMs?: number;
  env?: Record<string, string>;
  log?: (line: string) => void;
}

function quickPlan(p: PlannedEntry): PlannedEntry {
  if (p.entry.kind !== 'variation') return p;
  return { ...p, runs: [{ kind: 'playwright', selectors: ['@smoke', '@readonly'], all: false }] };
}

async function pool<T, R>(items: readonly T[], width: number, work: (item: T, slot: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async (_, slot) => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i], slot);
      }
    }),
  );
  return results;
}

export async function runSelftest(o: SelftestOptions = {}) {
  const root = resolve(o.root ?? process.cwd());
  const outDir = resolve(o.outDir ?? join(root, 'reports/out/selftest'));
  const concurrency = o.concurrency ?? 2;
  const log = o.log ?? ((l: string) => console.log(l));
  let entries: CatalogEntry[] = CATALOG;
  if (o.only?.length) {
    const unknown = o.only.filter((n) => !CATALOG.some((e) => e.name === n));
    if (unknown.length) throw new Error(`--only names unknown catalogue entries: ${unknown.join(', ')}`);
    entries = entries.filter((e) => o.only!.includes(e.name));
  }
  if (o.kind) entries = entries.filter((e) => e.kind === o.kind);
  const plans = entries.map(planEntry).map((p) => (o.quick ? quickPlan(p) : p));
  const workRoot = join(outDir, 'runs');
  rmSync(workRoot, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });

  const started = performance.now();
  let done = 0;
  const rows: MatrixRow[] = await pool(plans, concurrency, async (plan) => {
    const outcomes: RunOutcome[] = [];
    for (const run of plan.runs) {
      const workDir = join(workRoot, `${plan.entry.name}-${run.kind}`);
      mkdirSync(workDir, { recursive: true });
      const ctx: RunContext = {
        root,
        workDir,
        entry: plan.entry,
        // One Playwright worker per run while runs go side by side; both when alone.
        workers: concurrency > 1 ? 1 : 2,
        timeoutMs: o.timeoutMs ?? 180_000,
        env: o.env,
      };
      outcomes.push(await ADAPTERS[run.kind](run, ctx));
    }
    const row = rowOf(plan.entry, outcomes);
    done++;
    log(`[${String(done).padStart(3)}/${plans.length}] ${row.kind.padEnd(9)} ${row.name} ${row.verdict} (${(row.durationMs / 1000).toFixed(1)} s, ${row.executed} ran)`);
    return row;
  });
  const matrix = buildMatrix(rows, performance.now() - started, concurrency);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(outDir, 'matrix.md'), renderMarkdown(matrix));
  return matrix;
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/selftest.ts');
if (isMain) {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      kind: { type: 'string' },
      quick: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: process.env.SVC_SELFTEST_CONCURRENCY ?? '2' },
      out: { type: 'string' },
    },
  });
  if (values.kind && values.kind !== 'fault' && values.kind !== 'variation') {
    console.error(`--kind must be fault or variation, got "${values.kind}"`);
    process.exit(2);
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error(`--concurrency must be a positive integer, got "${values.concurrency}"`);
    process.exit(2);
  }
  runSelftest({
    only: values.only?.split(',').map((s) => s.trim()).filter(Boolean),
    kind: values.kind as 'fault' | 'variation' | undefined,
    quick: values.quick,
    concurrency,
    outDir: values.out,
  }).then(
    (m) => {
      console.log(`\n${renderConsole(m)}`);
      console.log(`matrix: reports/out/selftest/matrix.md, matrix.json`);
      process.exit(matrixPasses(m) ? 0 : 1);
    },
    (e) => {
      console.error(`selftest: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
