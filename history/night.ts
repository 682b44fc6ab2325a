/**
 * One night as the history keeps it (../shared/DESIGN.md, "The nightly remembers"): per
 * target, version and operation, the statuses answered, the response headers and the
 * response shape actually served (field paths, kinds of data, nulls, enumeration values and
 * identifier forms seen, one example each), the latency distribution, which request of which
 * scenario got which status; and every scenario's verdict.
 *
 * Built from the run's ledger folder (scenarios/fixtures/run-ledger.ts: one observation per
 * checked exchange, each with what it served, contracts/served.ts) and the verdicts the
 * verdict reporter wrote beside them (reports/verdict-reporter.ts). Only 2xx bodies are kept
 * as shapes: an error body's shape is "not shown" (Errors), so no night can break it.
 *
 * Scenario names are kept as indexes into `sources`, so a field seen by a scenario last night
 * is compared with what the same scenario saw tonight (history/drift.ts): a partial run, or a
 * field only some requests get (Resources, Member: oauth_window_uri "present for OAuth
 * members"), is never read as a removal.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identifierForm, type Observation, type ServedKind } from '../contracts/index.ts';
import { LEDGER_FILES, type VerdictLine } from '../reports/verdict-reporter.ts';

export const HISTORY_FORMAT = 1;

/** At most this many scenario indexes are kept per field, value or response (a subset still shows an overlap). */
const SOURCES_KEPT = 48;

export interface FieldNight {
  /** Kinds of data seen (contracts/served.ts: integer and number are one kind). */
  k: ServedKind[];
  /** Answers that carried it not null. */
  n: number;
  /** Answers that carried it null. */
  z: number;
  /** Enumeration values seen, each with the scenarios that saw it; `null`: not an enumeration. */
  v?: Record<string, number[]> | null;
  /** Identifier forms seen. */
  f?: string[];
  /** One value served, for the report. */
  e?: string | number | boolean;
  /** Scenarios that saw it not null. */
  s: number[];
}

export interface ResponseNight {
  /** Answers of this status. */
  n: number;
  /** Scenarios that got this status. */
  s: number[];
  fields: Record<string, FieldNight>;
}

export interface LatencyNight {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export interface OperationNight {
  /** Accept-Version in force ('' where none: the audience service, the test host). */
  version: string;
  api: string;
  /** `GET /users/{user_guid}/members` */
  operation: string;
  statuses: Record<string, number>;
  latency: LatencyNight;
  /** Response header names of its 2xx answers. */
  headers: string[];
  /** 2xx answers' shapes by status. */
  responses: Record<string, ResponseNight>;
  /** `<scenario index>|<request form>` → the statuses it got (history/drift.ts: a request accepted last night and refused tonight). */
  requests: Record<string, number[]>;
}

export interface ScenarioNight {
  name: string;
  project: string;
  outcome: VerdictLine['outcome'];
  durationMs: number;
  /** Area tags (`@members`). */
  tags: string[];
  tiers: VerdictLine['tiers'];
}

/** What building and comparing the history cost the night (reported, README: under 10 % of the nightly). */
export interface NightCost {
  /** Reading what answers served, inside the run (contracts/served.ts), summed over its exchanges. */
  servedMs: number;
  /** Building this record from the ledger. */
  recordMs: number;
  /** Comparing with the earlier nights. */
  compareMs: number;
  /** Writing the history (measured once written: the night as read back has none). */
  writeMs?: number;
  /** The long-running step (history/keepers.ts): requests to the target, not recording. */
  keepersMs?: number;
  /** The whole nightly (or run), for the share. */
  wallTimeMs?: number;
}

export interface Night {
  format: typeof HISTORY_FORMAT;
  /** Sortable: `20250101T020304Z-<run id>`. */
  id: string;
  at: string;
  /** `embedded simulator`, or the platform base URL. */
  target: string;
  /** What this run left out (a partial nightly, a narrowed `run`); empty: a full nightly. */
  leftOut: string[];
  gate?: 'pass' | 'fail' | 'partial';
  sources: string[];
  scenarios: ScenarioNight[];
  operations: OperationNight[];
  /** Workers whose ledger stopped at its bound. */
  cut?: number;
  cost?: NightCost;
}

export const EMBEDDED_TARGET = 'embedded simulator';

/** The target's name in the history: a URL without credentials, query or trailing slash. */
export function targetName(url: string, embedded: boolean): string {
  if (embedded) return EMBEDDED_TARGET;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

export function nightId(at: Date, runId?: string): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return runId ? `${stamp}-${runId}` : stamp;
}

function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

function latencyOf(samples: number[]): LatencyNight {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s.length ? Math.round(s[s.length - 1] * 10) / 10 : 0 };
}

const addSource = (list: number[], i: number) => {
  if (!list.includes(i) && list.length < SOURCES_KEPT) list.push(i);
};

/** A request's form: the operation's query names and sent fields, values reduced to their form, so tonight's request is told from last night's by its shape only. */
function requestForm(o: Pick<Observation, 'query' | 'sent'>): string {
  const form = (v: unknown) => (typeof v === 'string' ? identifierForm(v) : typeof v === 'number' ? 'n' : String(v));
  const q = [...new URLSearchParams(o.query)].map(([k, v]) => `${k}=${form(v)}`).sort();
  const b = o.sent
    ? Object.entries(o.sent.fields)
        .map(([k, v]) => `${k}=${form(v)}`)
        .sort()
    : [];
  return [q.join('&'), o.sent ? `${o.sent.envelope}{${b.join(',')}}` : ''].join(' ');
}

export interface LedgerReading {
  target?: { target: string; embedded: boolean; runId?: string };
  observations: Observation[];
  verdicts: VerdictLine[];
  cut: number;
}

/** Reads a caller-kept ledger folder: the workers' observations, the target file, the verdicts. */
export function readLedger(dir: string): LedgerReading {
  const out: LedgerReading = { observations: [], verdicts: [], cut: 0 };
  if (!existsSync(dir)) return out;
  const targetFile = join(dir, LEDGER_FILES.target);
  if (existsSync(targetFile)) out.target = JSON.parse(readFileSync(targetFile, 'utf8'));
  for (const file of readdirSync(dir)) {
    if (/^\d+\.jsonl$/.test(file)) {
      for (const text of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (!text) continue;
        try {
          const line = JSON.parse(text) as { o?: Observation; cut?: unknown };
          if (line.o) out.observations.push(line.o);
          else if (line.cut) out.cut++;
        } catch {
          /* a torn last line of a killed worker: the rest stands */
        }
      }
    }
  }
  const verdictsFile = join(dir, LEDGER_FILES.verdicts);
  if (existsSync(verdictsFile))
    for (const text of readFileSync(verdictsFile, 'utf8').split('\n')) if (text.trim()) out.verdicts.push(JSON.parse(text) as VerdictLine);
  return out;
}

/** Projects whose requests are drawn at random each night: their statuses say nothing about a change of the target. */
const RANDOM_PROJECTS = new Set(['fuzz']);

/** The night of one run's ledger. */
export function buildNight(
  ledger: LedgerReading,
  o: { at: Date; leftOut?: string[]; gate?: Night['gate']; targetOverride?: string; runId?: string },
): { night: Night; servedMs: number } {
  const urlOf = ledger.target?.target ?? mostCommonTarget(ledger.observations);
  const target = o.targetOverride ?? (urlOf ? targetName(urlOf, ledger.target?.embedded ?? false) : 'unknown target');
  const sources: string[] = [];
  const sourceIndex = new Map<string, number>();
  const indexOf = (s: string) => {
    let i = sourceIndex.get(s);
    if (i === undefined) sourceIndex.set(s, (i = sources.push(s) - 1));
    return i;
  };
  const randomSources = new Set(ledger.verdicts.filter((v) => RANDOM_PROJECTS.has(v.project)).map((v) => v.source));
  const ops = new Map<string, OperationNight & { samples: number[] }>();
  let servedUs = 0;
  for (const ob of ledger.observations) {
    if (urlOf && ob.target && ob.target !== urlOf) continue;
    const version = ob.version ?? '';
    const key = `${ob.api}|${version}|${ob.operation}`;
    let op = ops.get(key);
    if (!op) {
      op = { version, api: ob.api, operation: ob.operation, statuses: {}, latency: latencyOf([]), headers: [], responses: {}, requests: {}, samples: [] };
      ops.set(key, op);
    }
    const status = String(ob.status);
    op.statuses[status] = (op.statuses[status] ?? 0) + 1;
    const served = ob.served;
    if (served) servedUs += served.us;
    op.samples.push(served?.ms ?? ob.at[1] - ob.at[0]);
    const src = indexOf(ob.source ?? '');
    if (!randomSources.has(ob.source ?? '')) {
      const rk = `${src}|${requestForm(ob)}`;
      const seen = (op.requests[rk] ??= []);
      if (!seen.includes(ob.status)) seen.push(ob.status);
    }
    if (ob.status < 200 || ob.status >= 300 || !served) continue;
    for (const h of served.h) if (!op.headers.includes(h)) op.headers.push(h);
    const r = (op.responses[status] ??= { n: 0, s: [], fields: {} });
    r.n++;
    addSource(r.s, src);
    for (const [path, f] of Object.entries(served.p)) {
      const t = (r.fields[path] ??= { k: [], n: 0, z: 0, s: [] });
      for (const k of f.k) if (!t.k.includes(k)) t.k.push(k);
      t.n += f.n;
      t.z += f.z ?? 0;
      if (f.n > 0) addSource(t.s, src);
      if (f.v === null) t.v = null;
      else if (f.v && t.v !== null) {
        t.v ??= {};
        for (const value of f.v) addSource((t.v[value] ??= []), src);
      } else if (f.n > 0 && f.k.includes('string') && f.v === undefined && t.v !== null) {
        // Strings kept no value (a credential's key): no enumeration to compare.
        t.v = null;
      }
      if (f.f) for (const form of f.f) if (!(t.f ??= []).includes(form) && t.f.length < 4) t.f.push(form);
      if (t.e === undefined && f.e !== undefined) t.e = f.e;
    }
  }
  const operations = [...ops.values()]
    .map(({ samples, ...op }) => {
      op.headers.sort();
      for (const r of Object.values(op.responses)) for (const f of Object.values(r.fields)) f.k.sort();
      return { ...op, latency: latencyOf(samples) };
    })
    .sort((a, b) => `${a.api} ${a.version} ${a.operation}`.localeCompare(`${b.api} ${b.version} ${b.operation}`));
  const scenarios: ScenarioNight[] = ledger.verdicts.map((v) => ({
    name: v.name,
    project: v.project,
    outcome: v.outcome,
    durationMs: Math.round(v.durationMs),
    tags: v.tags,
    tiers: v.tiers,
  }));
  const night: Night = {
    format: HISTORY_FORMAT,
    id: nightId(o.at, o.runId ?? ledger.target?.runId),
    at: o.at.toISOString(),
    target,
    leftOut: o.leftOut ?? [],
    ...(o.gate ? { gate: o.gate } : {}),
    sources,
    scenarios,
    operations,
    ...(ledger.cut ? { cut: ledger.cut } : {}),
  };
  return { night, servedMs: servedUs / 1000 };
}

function mostCommonTarget(observations: readonly Observation[]): string | undefined {
  const counts = new Map<string, number>();
  for (const o of observations) if (o.target) counts.set(o.target, (counts.get(o.target) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
