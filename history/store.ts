/**
 * The history's files (../shared/DESIGN.md, "The nightly remembers"), in a folder a CI cache or
 * artifact carries (the nightly's `--history`, beside trends.jsonl and Allure's history):
 *
 *   observations/index.json          the nights kept and the ones summarised, the first night
 *                                    each field, value and header was seen, the drift events,
 *                                    the objects left for the next night (history/keepers.ts)
 *   observations/nights/<id>.json.gz one night in full (history/night.ts), gzip'd JSON
 *
 * Bounded: the last KEEP_NIGHTS nights are kept in full; an older one is folded into a summary
 * line (verdict counts, findings by tier, p95 latency per operation) and its file removed; and
 * whatever the count, the folder is kept under HISTORY_LIMIT_BYTES by folding the oldest
 * nights first (never the last two: drift needs one night to compare with). Summaries are kept
 * for FOLDED_NIGHTS nights.
 *
 * Secrets never stored: everything written goes through the profile's redactor
 * (targets/profiles/redact.ts: credential keys blanked wherever they appear, every known
 * secret value replaced), on top of contracts/served.ts keeping no value under a credential's
 * key. history/store.test.ts proves it with marker secrets.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redactor } from '../targets/index.ts';
import { HISTORY_FORMAT, type Night } from './night.ts';

/** Nights kept in full. */
export const KEEP_NIGHTS = 14;
/** Nights kept as summary lines once folded. */
const FOLDED_NIGHTS = 400;
/** The observations folder stays under this (the stated size limit of the history). */
export const HISTORY_LIMIT_BYTES = 8 * 1024 * 1024;
/** First-seen entries kept at most (the oldest dropped first). */
const FIRST_SEEN_MAX = 120_000;

/** A folded night: what the dashboard's charts need of it. */
export interface FoldedNight {
  id: string;
  at: string;
  target: string;
  gate?: Night['gate'];
  leftOut: string[];
  counts: Record<string, number>;
  tiers: { stated: number; inferred: number; informational: number };
  /** p95 latency per operation (`api version operation`). */
  p95: Record<string, number>;
}

export interface NightEntry extends FoldedNight {
  /** Bytes of its file. */
  bytes: number;
}

/** An object a nightly left on the target on purpose, for the next night's judgement (history/keepers.ts). */
export interface Keeper {
  kind: 'refresh' | 'disabled' | 'webhooks';
  target: string;
  night: string;
  userGuid: string;
  userId: string;
  memberGuid: string;
  /** The member's aggregated_at when it was left (the target's clock). */
  aggregatedAt: string | null;
  successfullyAggregatedAt: string | null;
  /** What the receiver refuses for this member (`kind: webhooks`). */
  marker?: string;
  /** Why aggregatedAt may say nothing: the member had not settled within the bound when it was left. */
  unsettled?: string;
  /** Nights it has been read without a verdict. */
  reads?: number;
}

/** A rule a night judged across nights (history/keepers.ts). */
export interface LongRunningResult {
  night: string;
  target: string;
  /** spec/trace.yaml rows it verifies. */
  rows: string[];
  rule: string;
  verdict: 'verified' | 'failed' | 'inconclusive';
  detail: string;
}

export interface HistoryIndex {
  format: typeof HISTORY_FORMAT;
  nights: NightEntry[];
  folded: FoldedNight[];
  /** `<target>|<version>|<operation>|<status>|<path>[=<value>]` or `...|header:<name>` → the night it was first seen. */
  firstSeen: Record<string, string>;
  /** Drift events of the nights kept (history/drift.ts), for the report and the dashboard. */
  drift: import('./drift.ts').DriftEvent[];
  keepers: Keeper[];
  longRunning: LongRunningResult[];
}

const emptyIndex = (): HistoryIndex => ({ format: HISTORY_FORMAT, nights: [], folded: [], firstSeen: {}, drift: [], keepers: [], longRunning: [] });

export class HistoryError extends Error {}

export const observationsDir = (dir: string) => join(dir, 'observations');
const indexFile = (dir: string) => join(observationsDir(dir), 'index.json');
const nightFile = (dir: string, id: string) => join(observationsDir(dir), 'nights', `${id}.json.gz`);

/**
 * A history folder a run may write to, checked before the run starts so a bad one costs no
 * run: absent (made when first written), or a folder whose index this version reads.
 */
export function checkHistoryDir(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new HistoryError(`${dir} is not a folder`);
  readIndex(dir);
}

export function readIndex(dir: string): HistoryIndex {
  const f = indexFile(dir);
  if (!existsSync(f)) return emptyIndex();
  let index: HistoryIndex;
  try {
    index = JSON.parse(readFileSync(f, 'utf8')) as HistoryIndex;
  } catch (e) {
    throw new HistoryError(`${f} is not a history index: ${(e as Error).message}`);
  }
  if (index.format !== HISTORY_FORMAT) throw new HistoryError(`${f} has history format ${String(index.format)}; this version reads ${HISTORY_FORMAT}`);
  return { ...emptyIndex(), ...index };
}

export function readNight(dir: string, id: string): Night {
  const f = nightFile(dir, id);
  try {
    return JSON.parse(gunzipSync(readFileSync(f)).toString('utf8')) as Night;
  } catch (e) {
    throw new HistoryError(`${f} cannot be read: ${(e as Error).message}`);
  }
}

/** The nights kept in full, oldest first (of one target when named). */
export function keptNights(dir: string, index: HistoryIndex = readIndex(dir), target?: string): Night[] {
  return index.nights.filter((n) => target === undefined || n.target === target).map((n) => readNight(dir, n.id));
}

function foldNight(n: Night): FoldedNight {
  const counts: Record<string, number> = {};
  const tiers = { stated: 0, inferred: 0, informational: 0 };
  for (const s of n.scenarios) {
    counts[s.outcome] = (counts[s.outcome] ?? 0) + 1;
    tiers.stated += s.tiers.stated;
    tiers.inferred += s.tiers.inferred;
    tiers.informational += s.tiers.informational;
  }
  const p95: Record<string, number> = {};
  for (const o of n.operations) if (o.latency.n) p95[`${o.api} ${o.version} ${o.operation}`.replace(/ {2}/, ' ')] = o.latency.p95;
  return { id: n.id, at: n.at, target: n.target, ...(n.gate ? { gate: n.gate } : {}), leftOut: n.leftOut, counts, tiers, p95 };
}

function writeAtomically(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Bytes of the observations folder. */
export function historyBytes(dir: string): number {
  const root = observationsDir(dir);
  if (!existsSync(root)) return 0;
  let n = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else n += s.size;
    }
  };
  walk(root);
  return n;
}

/** The night as written: redacted, so no later reader meets a secret. */
function redactedNight(n: Night, redactor: Redactor): Night {
  return JSON.parse(redactor.text(JSON.stringify(redactor.json(n)))) as Night;
}

/**
 * Adds a night (already compared: history/drift.ts), then keeps the folder bounded. The index
 * `update` (first-seen, drift, keepers, results) is written in the same step.
 */
export function saveNight(
  dir: string,
  night: Night,
  redactor: Redactor,
  update: (index: HistoryIndex) => void = () => {},
  o: { keep?: number; limitBytes?: number } = {},
): { index: HistoryIndex; bytes: number; folded: string[] } {
  const keep = o.keep ?? KEEP_NIGHTS;
  const limit = o.limitBytes ?? HISTORY_LIMIT_BYTES;
  mkdirSync(join(observationsDir(dir), 'nights'), { recursive: true });
  const index = readIndex(dir);
  const clean = redactedNight(night, redactor);
  const data = gzipSync(JSON.stringify(clean));
  writeAtomically(nightFile(dir, clean.id), data);
  index.nights = index.nights.filter((n) => n.id !== clean.id);
  index.nights.push({ ...foldNight(clean), bytes: data.length });
  index.nights.sort((a, b) => a.id.localeCompare(b.id));
  update(index);
  const folded: string[] = [];
  const fold = () => {
    const oldest = index.nights.shift()!;
    const { bytes: _bytes, ...line } = oldest;
    index.folded.push(line);
    rmSync(nightFile(dir, oldest.id), { force: true });
    // Its drift events go with it: the summary keeps the counts, not the diffs.
    index.drift = index.drift.filter((d) => d.night !== oldest.id);
    folded.push(oldest.id);
  };
  while (index.nights.length > keep) fold();
  index.folded = index.folded.slice(-FOLDED_NIGHTS);
  const entries = Object.entries(index.firstSeen);
  if (entries.length > FIRST_SEEN_MAX) index.firstSeen = Object.fromEntries(entries.sort((a, b) => b[1].localeCompare(a[1])).slice(0, FIRST_SEEN_MAX));
  const write = () => writeAtomically(indexFile(dir), redactor.text(JSON.stringify(redactor.json(index))));
  write();
  while (historyBytes(dir) > limit && index.nights.length > 2) {
    fold();
    write();
  }
  return { index, bytes: historyBytes(dir), folded };
}
