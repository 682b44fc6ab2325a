/**
 * Typed loader of spec/trace.yaml: one row per statement of the specification, where it is
 * encoded (`<file>#<JSON pointer>`) and which checks/scenarios verify it. Also resolves the
 * pointers, so tests and reports can say exactly which encoding is missing.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { readYamlFile } from '../contracts/index.ts';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TRACE_FILE = join(PROJECT_ROOT, 'spec', 'trace.yaml');

export interface TraceRow {
  /** Stable id, `<section>.<statement>`, e.g. `err.409-identify`. */
  id: string;
  section: string;
  /** Short quote or paraphrase of the statement. */
  statement: string;
  /** `<file relative to the project root>#<JSON pointer>` locations that encode it. */
  encoded_in: string[];
  /** Names of the checks or scenarios that verify it (filled by later work). */
  verified_by: string[];
  /** The statement is (or records) a "not shown" line of the specification. */
  not_shown?: boolean;
  /** How the suite treats an open point or an unencodable statement: open, setting or warning, and why. */
  treatment?: string;
  /**
   * Catalogue entries (targets/simulator/catalog.ts) that prove a `verified_by` check can fail:
   * a fault whose presence makes one of the named scenarios/checks fail, or, for a tolerance
   * row ("Non-breaking: ..."), a variation the named check passes (DESIGN.md, "Proving the suite"). For the rules a
   * webhook receiver must follow (Events rules 2 and 6), `receiver:<variant>` names a broken
   * variant of the reference receiver (targets/receiver/store.ts) that makes the named
   * property fail, proven by proof/receiver-variants.test.ts.
   */
  proven_by: string[];
  /**
   * Per fault of `proven_by`, the `verified_by` entries that show it, where only some of
   * them do (so the self-test need not run every scenario per fault): it runs the fault on these alone, so the trace states
   * exactly which scenario catches which fault. Absent for a fault: every `verified_by`
   * entry shows it. Written from a matrix by `npx tsx proof/trace-proof.ts --shown-by`.
   */
  shown_by?: Record<string, string[]>;
  /**
   * `simulator-only: <why>` when the verifying check runs only against the embedded simulator
   * or the reference receiver (a clock the suite moves, the simulator's own dispatcher).
   */
  scope?: string;
}

/**
 * How far a statement is verified (`npm run spec:stats`):
 *   not-checkable   informative, or a "not shown" line: no rule to fail on;
 *   verified        a named scenario/check on any target, proven by a named catalogue entry;
 *   simulator-only  verified and proven, but only against the embedded simulator/receiver;
 *   passive         no proven check, but encoded in a response schema the contract checks;
 *   unverified      nothing checks it (a `verified_by` without `proven_by` lands here).
 */
export type Coverage = 'not-checkable' | 'verified' | 'simulator-only' | 'passive' | 'unverified';

/**
 * A "not shown" line states no rule a service could break (its treatment says how the suite
 * copes: open, a profile setting, a warning); an informative row states nothing observable.
 */
export function isCheckable(row: TraceRow): boolean {
  if (row.not_shown) return false;
  return !/^informative\b/.test((row.treatment ?? '').trim());
}

/** A pointer into a response schema, a component schema or a webhook payload: checked passively on every answer. */
function encodedInResponseShape(row: TraceRow): boolean {
  return row.encoded_in.some((ref) => /\/responses\/|\/components\/schemas\/|#\/webhooks\//.test(ref));
}

export function coverageOf(row: TraceRow): Coverage {
  if (!isCheckable(row)) return 'not-checkable';
  if (row.verified_by.length > 0 && row.proven_by.length > 0) return row.scope?.startsWith('simulator-only') ? 'simulator-only' : 'verified';
  return encodedInResponseShape(row) ? 'passive' : 'unverified';
}

/**
 * What a `proven_by` entry is, for the honest figures (only a stated proof backs a rule that fails a default run):
 *   stated     a catalogue fault of tier stated (it fails a default run), a broken
 *              reference receiver (`receiver:<variant>`, a stated rule of Events), or a
 *              generated mutant (`mutant:<mutant id>`, e.g. `mutant:drop-field:Member.guid`,
 *              a stated mutant of proof/mutants/generate.ts that the mutation command kills
 *              against a separately started simulator);
 *   inferred   a catalogue fault of tier inferred: it fails only under SVC_STRICT=1 or
 *              header names set, never a default run;
 *   tolerance  a variation: a freedom the suite must pass, not a rule it enforces.
 */
export type ProofKind = 'stated' | 'inferred' | 'tolerance';

/** The prefix of a generated mutant in `proven_by` (the mutation command's extension point). */
export const MUTANT_PROOF_PREFIX = 'mutant:';

/**
 * Where a verifying check runs:
 *   gate       a scenario of a default gate run (`npm run conformance`: the api, browser,
 *              properties and fuzz projects), a contract check on every response, or the
 *              live delivery check of the properties project;
 *   simulator  only against the embedded simulator's own webhook dispatcher (`delivery:`);
 *   command    only under another command (`npm run versions`, `npm run load`, a unit test).
 */
export type CheckRun = 'gate' | 'simulator' | 'command';

export function checkRun(check: string): CheckRun {
  if (/^scenarios\/(api|browser|fuzz|properties)\//.test(check) || /^(properties|check|live-delivery)\b/.test(check)) return 'gate';
  if (/^delivery\b/.test(check)) return 'simulator';
  return 'command';
}

/**
 * The honest figure of a row (`npm run spec:stats`):
 *   verified-minimal  a stated proof makes a check of a default gate run fail, and that
 *                     check runs with the minimal settings (base URLs, credentials, test
 *                     passwords: preflight/requirements.ts MINIMAL_SETTINGS);
 *   verified-full     the same, but every such check needs more settings (a client GUID,
 *                     an audience, a path not shown, a public webhook URL, ...);
 *   inferred-only     proven only by inferred faults, which never fail a default run;
 *   simulator-only    the row's scope says so, or its stated proofs are shown only by the
 *                     simulator's own webhook dispatcher;
 *   other-command     its stated proofs are shown only by `npm run versions`, `npm run
 *                     load` or a unit test, which a gate run does not include;
 *   tolerance         a Versioning non-breaking row (ver.non-breaking.*) or a row proven
 *                     only by variations: what the suite must tolerate;
 *   passive, unverified, not-checkable as in coverageOf.
 */
export type HonestCoverage = 'not-checkable' | 'verified-minimal' | 'verified-full' | 'inferred-only' | 'simulator-only' | 'other-command' | 'tolerance' | 'passive' | 'unverified';

export interface ProofFacts {
  /** The kind of a proven_by entry; undefined when it names nothing known (counted as no proof). */
  kindOf(entry: string): ProofKind | undefined;
  /** Whether a gate check skips unless settings beyond the minimal ones are given (preflight/requirements.ts). */
  needsFullSettings(check: string): boolean;
  /** Whether a fault is proven on a live-delivery check (scripts/live-delivery.test.ts). */
  provenOnLiveDelivery(fault: string): boolean;
}

export function honestCoverageOf(row: TraceRow, facts: ProofFacts): HonestCoverage {
  if (!isCheckable(row)) return 'not-checkable';
  const kinds = row.proven_by.map((p) => facts.kindOf(p));
  if (row.id.startsWith('ver.non-breaking.') || (kinds.length > 0 && kinds.every((k) => k === 'tolerance'))) return 'tolerance';
  if (row.verified_by.length === 0 || !kinds.some((k) => k !== undefined)) return encodedInResponseShape(row) ? 'passive' : 'unverified';
  if (row.scope?.startsWith('simulator-only')) return 'simulator-only';
  const stated = row.proven_by.filter((p) => facts.kindOf(p) === 'stated');
  if (stated.length === 0) return kinds.includes('inferred') ? 'inferred-only' : encodedInResponseShape(row) ? 'passive' : 'unverified';
  let best: HonestCoverage | undefined;
  const runs = new Set<CheckRun>();
  const isLive = (check: string) => /^live-delivery\b/.test(check) || /^check: webhook_/.test(check);
  for (const proof of stated) {
    // shown_by says which checks the self-test runs a fault on; the live delivery check has
    // its own proof (scripts/live-delivery.test.ts, against a separately started simulator),
    // so it shows the faults that proof runs whatever shown_by says.
    const shown = row.shown_by?.[proof] ?? row.verified_by;
    const live = facts.provenOnLiveDelivery(proof) ? row.verified_by.filter(isLive) : [];
    for (const check of new Set([...shown, ...live])) {
      const run = checkRun(check);
      runs.add(run);
      if (run !== 'gate') continue;
      // A live delivery check shows only the faults its own proof runs.
      if (isLive(check) && !facts.provenOnLiveDelivery(proof)) continue;
      if (!facts.needsFullSettings(check)) return 'verified-minimal';
      best = 'verified-full';
    }
  }
  if (best) return best;
  if (runs.has('simulator')) return 'simulator-only';
  return 'other-command';
}

export function loadTrace(file: string = TRACE_FILE): TraceRow[] {
  const doc = parse(readFileSync(file, 'utf8')) as { rows?: unknown };
  if (!doc || !Array.isArray(doc.rows)) throw new Error(`${file}: expected a top-level "rows" list`);
  return doc.rows.map((raw, index) => {
    const row = raw as Partial<TraceRow>;
    for (const key of ['id', 'section', 'statement'] as const) {
      if (typeof row[key] !== 'string' || !row[key]) throw new Error(`${file}: row ${index} has no ${key}`);
    }
    return {
      id: row.id!,
      section: row.section!,
      statement: row.statement!,
      encoded_in: Array.isArray(row.encoded_in) ? row.encoded_in.map(String) : [],
      verified_by: Array.isArray(row.verified_by) ? row.verified_by.map(String) : [],
      ...(row.not_shown === true ? { not_shown: true } : {}),
      ...(typeof row.treatment === 'string' ? { treatment: row.treatment } : {}),
      proven_by: Array.isArray(row.proven_by) ? row.proven_by.map(String) : [],
      ...(row.shown_by && typeof row.shown_by === 'object' ? { shown_by: Object.fromEntries(Object.entries(row.shown_by).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : []])) } : {}),
      ...(typeof row.scope === 'string' ? { scope: row.scope } : {}),
    };
  });
}

/** A document named by a row (`<file relative to the project root>`), read by the contract's reader (parsed once per process). */
function loadDocument(file: string): unknown {
  return readYamlFile(join(PROJECT_ROOT, file));
}

/** RFC 6901 JSON pointer lookup; `undefined` when any segment is missing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return root;
  let node: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node !== null && typeof node === 'object') {
      if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Resolves `<file>#<pointer>`; throws with the reason when the file or location does not exist. */
export function resolveEncoding(reference: string): unknown {
  const hash = reference.indexOf('#');
  if (hash < 0) throw new Error(`${reference}: expected <file>#<JSON pointer>`);
  const file = reference.slice(0, hash);
  const value = resolvePointer(loadDocument(file), reference.slice(hash + 1));
  if (value === undefined) throw new Error(`${reference}: no such location`);
  return value;
}
