/**
 * One fuzz run: the chains first (identifiers fed forward), then every
 * operation of every document (the platform in each supported version with a document,
 * the audience and test hosts when the profile names them) fuzzed with its own seed
 * derived from the run seed, within the run's bounds (runs per operation, seconds).
 * The spec and the bench call this; neither re-implements any of it.
 */
import type { Contract, ApiName } from '../../../contracts/index.ts';
import type { TargetProfile } from '../../../targets/index.ts';
import type { Redactor } from '../../../targets/index.ts';
import { assertLoopback, fuzzOperation, newStats, reachOperation, seedFor, type Counterexample, type FuzzStats, type FuzzTarget } from './engine.ts';
import { knownFor, runChains, type ChainResult } from './chains.ts';
import { methodsByPath, operationsOf, requestContext, type OperationSpec } from './requests.ts';
import { CreatedUsers, describeTeardownFailure, type TeardownOutcome } from '../../cleanup.ts';

export interface FuzzRunOptions {
  profile: TargetProfile;
  contract: Contract;
  redactor: Redactor;
  seed: number;
  /** Cases per operation and version. */
  runs: number;
  /** Time budget of the generated cases (the chains come first, outside it). */
  seconds: number;
  /** Which documents (default: every one the profile has a base URL for). */
  apis?: ApiName[];
  /** Only this operation key (SVC_FUZZ_ONLY). */
  only?: string;
  /** Creates and deletes allowed (the embedded simulator; a real target that opted in). */
  destructive: boolean;
  /** Operations fuzzed at once (default 4): requests overlap while the target works. */
  concurrency?: number;
  log?: (line: string) => void;
  /**
   * Where the users the run creates are recorded; the caller deletes them (the spec hands
   * the `api` fixture's, deleted at the test's teardown). Absent: the run deletes its own
   * before it returns (FuzzRunResult.teardown).
   */
  createdUsers?: CreatedUsers;
}

export interface FuzzRunResult {
  seed: number;
  stats: FuzzStats;
  counterexamples: Counterexample[];
  chain: ChainResult;
  /** Distinct documented operations (api + method + path), and those that received at least one case. */
  documented: string[];
  exercised: string[];
  /** Operations left out because the run may not write (read-only target). */
  skippedWrites: number;
  durationMs: number;
  casesMs: number;
  /** The deletion of the users the run created, when it owned their record (no createdUsers given). */
  teardown?: TeardownOutcome;
}

/** Every operation the run covers: platform per supported version, audience, test host. */
export function plannedOperations(contract: Contract, profile: TargetProfile, apis: readonly ApiName[]): OperationSpec[] {
  const out: OperationSpec[] = [];
  if (apis.includes('platform')) {
    const versions = profile.versions.supported.filter((v) => contract.versions.includes(v));
    for (const v of versions.length ? versions : [undefined]) out.push(...operationsOf(contract, 'platform', v));
  }
  if (apis.includes('audience') && profile.audienceBaseUrl) out.push(...operationsOf(contract, 'audience'));
  if (apis.includes('test-host') && profile.testHostBaseUrl) out.push(...operationsOf(contract, 'test-host'));
  return out;
}

/** Cases of every operation in the first pass (coverage before depth). */
const COVERAGE_RUNS = 2;

/** Safety bound of the reach pass (it sends a few hundred cases: seconds, not a minute). */
export const REACH_BOUND_MS = 60_000;

const operationId = (s: Pick<OperationSpec, 'api' | 'key'>) => `${s.api} ${s.key}`;

export async function runFuzz(o: FuzzRunOptions): Promise<FuzzRunResult> {
  if (o.createdUsers) return fuzzRun(o, o.createdUsers);
  // Leave nothing behind: whatever the run created goes, also when the run throws.
  const createdUsers = new CreatedUsers(o.profile, o.redactor);
  const deleteCreated = async () => {
    const teardown = await createdUsers.deleteAll();
    for (const f of teardown.failed) o.log?.(describeTeardownFailure(f));
    return teardown;
  };
  let result: FuzzRunResult;
  try {
    result = await fuzzRun(o, createdUsers);
  } catch (e) {
    await deleteCreated();
    throw e;
  }
  return { ...result, teardown: await deleteCreated() };
}

async function fuzzRun(o: FuzzRunOptions, createdUsers: CreatedUsers): Promise<FuzzRunResult> {
  const started = performance.now();
  assertLoopback(o.profile);
  const apis = o.apis ?? ['platform', 'audience', 'test-host'];
  const ctx = requestContext(o.contract);
  const newest = [...o.profile.versions.supported].sort().at(-1)!;
  // The chains run on a version whose changes are stated (data_request required from v20250224).
  const chainVersion =
    o.profile.versions.supported
      .filter((v) => ctx.statedVersions.has(v))
      .sort()
      .at(-1) ?? newest;
  const chain = await runChains(
    { profile: o.profile, contract: o.contract, redactor: o.redactor, credentials: {}, ctx, createdUsers },
    { destructive: o.destructive, version: chainVersion, log: o.log },
  );
  // Versioning: a version the target has sunset answers an error (stated); a version no
  // document names is refused (inferred). Drawn on every platform operation.
  const otherVersions = { ...(o.profile.versions.sunset ? { sunset: o.profile.versions.sunset } : {}), unknown: 'v19990101' };
  const target: FuzzTarget = {
    otherVersions,
    profile: o.profile,
    contract: o.contract,
    redactor: o.redactor,
    credentials: chain.credentials,
    ctx,
    createdUsers,
    known: (spec) => knownFor(chain.scopes, spec),
    example: (spec) => (spec.api === 'platform' ? chain.scopes.examples.get(spec.key) : undefined),
  };

  const all = plannedOperations(o.contract, o.profile, apis);
  const documented = [...new Set(all.map(operationId))].sort();
  // On a target that may not be written to, only reads are sent (as @readonly scenarios).
  const allowed = all.filter((s) => o.destructive || s.method === 'GET');
  // SVC_FUZZ_ONLY: `GET /x`, `platform GET /x`, or `GET /x (v20250224)` as a counterexample names it.
  const specs = o.only ? allowed.filter((s) => s.key === o.only || operationId(s) === o.only || `${s.key} (${s.version})` === o.only) : allowed;
  const methods = methodsByPath(all);
  const stats = newStats();
  const counterexamples: Counterexample[] = [];
  const casesStarted = performance.now();
  // The reach pass is bounded by its count (a few cases per operation), outside the time
  // budget of the drawn cases, with a safety bound of its own.
  const reachDeadline = casesStarted + REACH_BOUND_MS;
  let deadline = casesStarted + o.seconds * 1000;
  // Three passes, each operation with its own seed (seedFor), so the pool's interleaving
  // changes no case: the reach cases of every operation, then a few drawn cases of every
  // operation (every documented operation is exercised even when the time budget is
  // short), then the rest of the runs.
  const firstRuns = Math.min(COVERAGE_RUNS, o.runs);
  // The reach pass comes first (requests.ts reachCases: reads of every known value, paging
  // bounds, every rule of an accepted body broken alone): each case once, no draw.
  const passes: Array<{ tag: string; runs: number }> = [
    { tag: 'reach', runs: 0 },
    { tag: 'cover', runs: firstRuns },
    ...(o.runs > firstRuns ? [{ tag: 'deep', runs: o.runs - firstRuns }] : []),
  ];
  const failedOps = new Set<string>();
  for (const pass of passes) {
    if (pass.tag === 'cover') deadline = performance.now() + o.seconds * 1000;
    const passDeadline = pass.tag === 'reach' ? reachDeadline : deadline;
    let next = 0;
    const worker = async () => {
      while (next < specs.length && performance.now() < passDeadline) {
        const spec = specs[next++];
        const id = `${spec.api}|${spec.version ?? ''}|${spec.key}`;
        if (failedOps.has(id)) continue; // one counterexample per operation is enough
        const pathMethods = methods.get(`${spec.api}|${spec.version ?? ''}|${spec.path}`);
        const x =
          pass.tag === 'reach'
            ? await reachOperation(spec, target, { deadline: reachDeadline, stats }, pathMethods)
            : await fuzzOperation(spec, target, { seed: seedFor(o.seed, `${pass.tag}|${id}`), numRuns: pass.runs, deadline, stats }, pathMethods);
        if (x) {
          failedOps.add(id);
          counterexamples.push({ ...x, operation: `${x.operation}${spec.version ? ` (${spec.version})` : ''}` });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 4) }, worker));
  }
  // Report order independent of the pool's timing.
  counterexamples.sort((a, b) => a.operation.localeCompare(b.operation));
  const casesMs = performance.now() - casesStarted;
  const sent = new Set(stats.operations.keys());
  const exercised = documented.filter((id) => sent.has(id));
  return {
    seed: o.seed,
    stats,
    counterexamples,
    chain,
    documented,
    exercised,
    skippedWrites: all.length - allowed.length,
    durationMs: performance.now() - started,
    casesMs,
  };
}

export function renderStats(r: FuzzRunResult): string[] {
  const lines = [
    `fuzz seed ${r.seed} (replay: SVC_FUZZ_SEED=${r.seed})`,
    `${r.stats.cases} cases in ${(r.casesMs / 1000).toFixed(1)} s (${(r.stats.cases / Math.max(r.casesMs / 1000, 1e-3)).toFixed(0)} cases/s); ${r.stats.rateLimited} answered 429 after retries`,
    `operations exercised: ${r.exercised.length} of ${r.documented.length} documented${r.skippedWrites ? ` (${r.skippedWrites} write operations left out: read-only target)` : ''}`,
    `chain steps: ${r.chain.steps.length} (${r.chain.steps.filter((s) => s.errors.length).length} with failures)`,
  ];
  const checks = [...r.stats.findings.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (checks.length)
    lines.push(`findings per check (stated/inferred/informational): ${checks.map(([c, t]) => `${c} ${t.stated}/${t.inferred}/${t.informational}`).join('; ')}`);
  return lines;
}
