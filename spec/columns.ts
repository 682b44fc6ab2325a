/**
 * The honest figures of `npm run spec:stats`: the column each checkable row of
 * spec/trace.yaml lands in, exactly one.
 *
 *   minimal         one run with the minimal settings verifies it: a proof that breaks the
 *                   row's own sentence (breaksSentence) makes a check the row names fail in
 *                   a gate run (`npm run conformance`) or another run against the target
 *                   (`npm run versions`, `npm run load`), and that check needs only what the
 *                   vendor hands every team (preflight/setting-sources.ts `minimal`);
 *   full            the same, but the check needs settings a team can know (`knowable`);
 *   guess           the same, but the check needs a setting nobody can know (`guess`): the
 *                   run rests on our guess;
 *   long-running    only observation across a day or nights can verify it
 *                   (spec/verifiability.ts LONG_RUNNING); its proofs are simulator-only;
 *   tolerance       a freedom (Versioning, non-breaking; a row proven only by variations):
 *                   what the suite must pass, reported as "tolerance proven N/M";
 *   not-verifiable  nothing a run or an observation sees can break it (NOT_VERIFIABLE, with
 *                   the reason);
 *   not-verified    it could be verified, but no proof of its own sentence fails a check it
 *                   names on a real target (the reason says which of these it lacks).
 *
 * A proof is a `proven_by` entry: a catalogue fault of tier stated (or inferred only
 * because a name is a guess: its `env` names the settings that make it stated), a generated
 * mutant (`mutant:...`) or a broken reference receiver (`receiver:...`). It breaks the row's
 * own sentence when the fault's catalogue `section` names the row's section (SPEC_SECTIONS),
 * the mutant's field or status is in the row's statement or encoding, or the receiver rule is
 * one of Events. That is a mechanical reading: `suspectOf` names the rows where the words of
 * the statement and of its proofs disagree with it, for a person to check.
 */
import { isCheckable, MUTANT_PROOF_PREFIX, type TraceRow } from './trace.ts';
import type { SettingSource } from '../preflight/requirements.ts';

export type Column = 'not-checkable' | 'minimal' | 'full' | 'guess' | 'long-running' | 'tolerance' | 'not-verifiable' | 'not-verified';

/** The columns of checkable rows, in the order they are printed, with their titles. */
export const COLUMN_TITLES: Readonly<Record<Exclude<Column, 'not-checkable'>, string>> = {
  minimal: 'one run, minimal settings',
  full: 'one run, full settings',
  guess: 'one run, only with a guessed setting',
  'long-running': 'long-running observation',
  'not-verifiable': 'not verifiable',
  'not-verified': 'not verified',
  tolerance: 'tolerance (freedoms)',
};

/** What a `proven_by` entry is (stats.ts reads it from the catalogue). */
export type Proof =
  | { kind: 'fault'; tier: 'stated' | 'inferred'; section: string; description: string; env?: Readonly<Record<string, string>> }
  | { kind: 'variation'; section: string; description: string; suites: readonly string[] }
  | { kind: 'mutant'; id: string }
  | { kind: 'receiver'; variant: string };

export interface ColumnFacts {
  /** A catalogue entry by name; undefined for a name the catalogue does not hold. Mutants and receivers are read from their names. */
  catalogueEntry(name: string): Proof | undefined;
  /** The settings a check needs on a real target (preflight/requirements.ts settingsOfCheck). */
  settingsOfCheck(check: string): string[];
  /** Where a setting's value comes from (preflight/setting-sources.ts). */
  sourceOf(variable: string): SettingSource | undefined;
  /** Whether a fault is proven on the live delivery check (tests/live-delivery.system.test.ts). */
  provenOnLiveDelivery(fault: string): boolean;
  /** Why only long-running observation verifies a row (spec/verifiability.ts), if it does. */
  longRunning(id: string): string | undefined;
  /** Why nothing verifies a row (spec/verifiability.ts), if so. */
  notVerifiable(id: string): string | undefined;
}

export interface Placement {
  column: Column;
  /** Why the row is where it is (every column but minimal and full has one). */
  reason?: string;
  /** minimal, full, guess: the proofs that put it there. */
  proofs?: string[];
  /** full, guess: what the best check needs beyond the minimal settings. */
  settings?: string[];
  /** long-running: the row has a proof, which runs on the simulator only. */
  simulatorProof?: boolean;
  /** tolerance: a catalogue variation the self-test runs on a check the row names. */
  toleranceProven?: boolean;
}

function proofOf(entry: string, facts: Pick<ColumnFacts, 'catalogueEntry'>): Proof | undefined {
  if (entry.startsWith(MUTANT_PROOF_PREFIX)) return { kind: 'mutant', id: entry.slice(MUTANT_PROOF_PREFIX.length) };
  if (entry.startsWith('receiver:')) return { kind: 'receiver', variant: entry.slice('receiver:'.length) };
  return facts.catalogueEntry(entry);
}

// ---- which section a catalogue entry names ----------------------------------------------------

/**
 * The specification's sections (its `##` headings) with their subsections (`###`), as
 * ../shared/specification.md has them (spec/stats.test.ts compares), and the short names
 * the catalogue's `section` lines use for them.
 */
export const SPEC_SECTIONS: Readonly<Record<string, { subsections: readonly string[]; aliases: readonly string[] }>> = {
  'What the service does': { subsections: [], aliases: [] },
  'Resources and their fields': {
    subsections: [
      'Member',
      'Widget URL',
      'ACH return (create request)',
      'Institution',
      'Credential (institution or member)',
      'Account',
      'Transaction',
      'Category',
      'Data exchange grant',
      'Insight',
      'Conventions for `_set_by` fields',
    ],
    aliases: ['Resources'],
  },
  'States and transitions': { subsections: ['Member connection_status', 'OAuth outcome'], aliases: [] },
  Endpoints: {
    subsections: [
      'Authorization code for processors',
      'ACH returns (beta)',
      'Categories',
      'Institutions',
      'Data exchange',
      'Widgets and members (shapes used in the OAuth flows)',
      'Audience list service',
      'Earlier-generation test paths',
      'OAuth procedure for members',
    ],
    aliases: ['OAuth procedure', 'widget flows'],
  },
  Authentication: { subsections: [], aliases: [] },
  Events: { subsections: ['Webhooks', 'Widget events (postMessage, or location-based in a mobile WebView)'], aliases: [] },
  Errors: { subsections: [], aliases: [] },
  Limits: { subsections: [], aliases: [] },
  Versioning: { subsections: [], aliases: [] },
};

const norm = (s: string) =>
  s
    .replace(/[`"“”]/g, '')
    .replace(/\s*\(.*\)\s*$/, '')
    .trim()
    .toLowerCase();

/** The specification section a row belongs to: the first part of its `section` ("Endpoints / OAuth procedure for members" is Endpoints). */
export function topSectionOf(rowSection: string): string {
  return rowSection.split(' / ')[0].trim();
}

/**
 * The sections a catalogue `section` line names: each `;`-separated clause begins with a
 * section reference ("Resources, Member: ...", "Errors 202: ...", "OAuth procedure 4: ..."),
 * whose head names a section, one of its subsections, or a short name of it.
 */
export function sectionsNamedBy(catalogueSection: string): Set<string> {
  const out = new Set<string>();
  for (const clause of catalogueSection.split(';')) {
    const head = norm(clause.split(':')[0].split(',')[0]);
    if (head.length < 4) continue;
    for (const [top, { subsections, aliases }] of Object.entries(SPEC_SECTIONS)) {
      for (const name of [top, ...subsections, ...aliases].map(norm)) {
        if (head === name || head.startsWith(`${name} `) || name.startsWith(`${head} `)) out.add(top);
      }
    }
  }
  return out;
}

// ---- whether a proof breaks the row's own sentence -------------------------------------------------

/** The field a generated mutant changes (`drop-field:Member.connection_status` -> connection_status). */
function mutantField(rest: string): string | undefined {
  const last = rest
    .split('.')
    .at(-1)
    ?.replace(/\[\*\]/g, '');
  return last && /^[A-Za-z_][A-Za-z0-9_]*$/.test(last) ? last : undefined;
}

const wordIn = (word: string, text: string) => new RegExp(`(^|[^A-Za-z0-9_])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`, 'i').test(text);

/**
 * Whether a generated mutant changes what the row's sentence is about: the field it drops,
 * retypes or rewrites is named in the statement or in a pointer of its encoding, the status
 * it swaps is the statement's, the identifier prefix or media type it breaks is the
 * statement's. A dropped field also breaks Versioning's "removing ... a response field".
 */
export function mutantBreaks(row: Pick<TraceRow, 'statement' | 'encoded_in'>, id: string): boolean {
  const colon = id.indexOf(':');
  const kind = colon < 0 ? id : id.slice(0, colon);
  const rest = colon < 0 ? '' : id.slice(colon + 1);
  const inRow = (word: string) => wordIn(word, row.statement) || row.encoded_in.some((ref) => ref.split(/[#/]/).includes(word));
  switch (kind) {
    case 'status': {
      const code = /\b(\d{3})->/.exec(rest)?.[1];
      return code !== undefined && wordIn(code, row.statement);
    }
    case 'id-prefix':
      return row.statement.includes(rest.trim());
    case 'header':
      return /\bJSON\b/.test(rest) ? /\bJSON\b/.test(row.statement) : rest.split(/\s+/).some((w) => w.length > 3 && wordIn(w, row.statement));
    default: {
      const field = mutantField(rest);
      // A pointer to a schema's whole field list (`.../schemas/Transaction/properties`) encodes every field of it.
      const schema = rest.split('.')[0];
      if (row.encoded_in.some((ref) => ref.endsWith(`/components/schemas/${schema}/properties`))) return true;
      if (kind === 'drop-field' && /\bremov\w*\b.*\bfield\b/i.test(row.statement)) return true;
      return field !== undefined && inRow(field);
    }
  }
}

/**
 * How a catalogue fault is judged to break the row's own sentence:
 *   combined  its `section` names the row's section and it shares a content word with the
 *             statement, or it shares three or more (the same sentence stated in two
 *             sections, as Limits and Endpoints both state the 1000-record maximum): what
 *             the figures count;
 *   section   its `section` names the row's section, words aside;
 *   words     it shares two or more content words with the statement, sections aside.
 * The last two are each half of the first; where either places a row elsewhere, the row
 * is listed for a person to check (suspectOf).
 */
export type SentenceRule = 'combined' | 'section' | 'words';

/** Content words a statement and a proof's own text share. */
function sharedWords(statement: string, name: string, proof: Proof): string[] {
  const words = contentWords(statement);
  return [...contentWords(proofText(name, proof))].filter((w) => words.has(w));
}

/** Whether a proof breaks the row's own sentence, as far as a machine can tell (see SentenceRule). */
export function breaksSentence(
  row: Pick<TraceRow, 'section' | 'statement' | 'encoded_in'>,
  name: string,
  proof: Proof,
  rule: SentenceRule = 'combined',
): boolean {
  switch (proof.kind) {
    case 'fault':
    case 'variation': {
      // A numbered rule ("4. Processor access_token ...") is broken only by an entry that
      // names its number, where the entry names numbers at all ("Authentication 4", "rule 1").
      const numbered = /^(\d+)\.\s/.exec(row.statement)?.[1];
      const numbers = [...proof.section.matchAll(/\b(?:rules?|Authentication|OAuth procedure)\s+(\d+)/gi)].map((m) => m[1]);
      if (numbered !== undefined && numbers.length > 0 && !numbers.includes(numbered)) return false;
      const named = sectionsNamedBy(proof.section).has(topSectionOf(row.section));
      const shared = sharedWords(row.statement, name, proof).length;
      if (rule === 'section') return named;
      if (rule === 'words') return shared >= 2;
      return (named && shared >= 1) || shared >= 3;
    }
    case 'receiver':
      // The reference receiver's variants break the receiver's rules of Events (rules 2 and 6).
      return topSectionOf(row.section) === 'Events';
    case 'mutant':
      // The section rule has no section to read for a mutant: it takes every one.
      return rule === 'section' || mutantBreaks(row, proof.id);
  }
}

// ---- where a check runs ---------------------------------------------------------------------------

/**
 * Where a verifying check runs:
 *   gate       a scenario of a gate run (`npm run conformance`: the api, browser, properties
 *              and fuzz projects), a contract check on every response, or the live delivery check;
 *   command    another run against the target: `npm run versions` (`versions:`), `npm run load` (`load:`);
 *   simulator  only the embedded simulator's own webhook dispatcher (`delivery:`);
 *   unit       a unit test of the suite's own code (`unit:`): no target at all.
 */
export type CheckRun = 'gate' | 'command' | 'simulator' | 'unit';

export function checkRun(check: string): CheckRun {
  if (/^scenarios\/(api|browser|fuzz|properties)\//.test(check) || /^(properties|check|live-delivery)\b/.test(check)) return 'gate';
  if (/^(versions|load)\b/.test(check)) return 'command';
  if (/^delivery\b/.test(check)) return 'simulator';
  return 'unit';
}

const isLive = (check: string) => /^live-delivery\b/.test(check) || /^check: webhook_/.test(check);

/** A pointer into a response schema, a component schema or a webhook payload: checked passively on every answer. */
function encodedInResponseShape(row: TraceRow): boolean {
  return row.encoded_in.some((ref) => /\/responses\/|\/components\/schemas\/|#\/webhooks\//.test(ref));
}

/** Whether a variation's suites (catalog.ts: `*`, `upgrade`, `delivery`, `load:<script>`, Playwright tags) run a check. */
export function suitesReach(suites: readonly string[], check: string): boolean {
  return suites.some((s) => {
    if (s === '*') return true;
    if (s === 'upgrade') return /^versions\b/.test(check);
    if (s === 'delivery') return /^delivery\b/.test(check);
    if (s.startsWith('load:')) return check.startsWith(`load: ${s.slice('load:'.length)}`);
    // A tag selects scenarios; a contract check (`check:`) runs on every answer of every scenario.
    return s.startsWith('@') && (/^scenarios\//.test(check) || /^check:/.test(check));
  });
}

function isToleranceRow(row: TraceRow, facts: Pick<ColumnFacts, 'catalogueEntry'>): boolean {
  const proofs = row.proven_by.map((p) => proofOf(p, facts)).filter((p) => p !== undefined);
  return row.id.startsWith('ver.non-breaking.') || (proofs.length > 0 && proofs.every((p) => p.kind === 'variation'));
}

const LEVELS = ['minimal', 'full', 'guess'] as const;
type Level = (typeof LEVELS)[number];

function levelOf(variables: readonly string[], facts: Pick<ColumnFacts, 'sourceOf'>): Level {
  let level: Level = 'minimal';
  for (const v of variables) {
    const source = facts.sourceOf(v);
    // A variable the table does not know is a guess until it is classified.
    const l: Level = source === 'guess' || source === undefined ? 'guess' : source === 'knowable' ? 'full' : 'minimal';
    if (LEVELS.indexOf(l) > LEVELS.indexOf(level)) level = l;
  }
  return level;
}

/** The settings a stated-once-named proof needs: an inferred fault whose `env` sets names, not SVC_STRICT (catalog.ts CatalogTier). */
function proofSettings(proof: Proof): string[] | 'inferred' {
  if (proof.kind !== 'fault' || proof.tier === 'stated') return [];
  const env = Object.keys(proof.env ?? {});
  return env.length > 0 && !env.includes('SVC_STRICT') ? env : 'inferred';
}

/** The column of one row. */
export function placeRow(row: TraceRow, facts: ColumnFacts, rule: SentenceRule = 'combined'): Placement {
  if (!isCheckable(row)) return { column: 'not-checkable' };
  const proofs = row.proven_by.map((name) => ({ name, proof: proofOf(name, facts) }));
  const known = proofs.filter((p): p is { name: string; proof: Proof } => p.proof !== undefined);
  const long = facts.longRunning(row.id);
  if (long !== undefined) return { column: 'long-running', reason: long, simulatorProof: known.some((p) => p.proof.kind !== 'variation') };
  const never = facts.notVerifiable(row.id);
  if (never !== undefined) return { column: 'not-verifiable', reason: never };
  if (isToleranceRow(row, facts)) {
    const proven = known.some(({ proof }) => proof.kind === 'variation' && row.verified_by.some((c) => suitesReach(proof.suites, c)));
    return {
      column: 'tolerance',
      reason: proven ? 'a catalogue variation the self-test runs on a check it names' : 'no catalogue variation runs on a check it names',
      toleranceProven: proven,
    };
  }
  if (row.scope?.startsWith('simulator-only')) return { column: 'not-verified', reason: `the row's own scope: ${row.scope}` };

  let best: { level: Level; proofs: Set<string>; settings: Set<string> } | undefined;
  const offSentence: string[] = [];
  const inferred: string[] = [];
  const runs = new Set<CheckRun>();
  for (const { name, proof } of known) {
    if (proof.kind === 'variation') continue;
    const needs = proofSettings(proof);
    if (needs === 'inferred') {
      inferred.push(name);
      continue;
    }
    if (!breaksSentence(row, name, proof, rule)) {
      offSentence.push(name);
      continue;
    }
    // shown_by says which checks the self-test runs a fault on; the live delivery check has
    // its own proof (tests/live-delivery.system.test.ts), so it shows the faults that proof runs.
    const live = facts.provenOnLiveDelivery(name) ? row.verified_by.filter(isLive) : [];
    for (const check of new Set([...(row.shown_by?.[name] ?? row.verified_by), ...live])) {
      const run = checkRun(check);
      runs.add(run);
      if (run === 'simulator' || run === 'unit') continue;
      if (isLive(check) && !facts.provenOnLiveDelivery(name)) continue;
      const settings = [...facts.settingsOfCheck(check), ...needs];
      const level = levelOf(settings, facts);
      const beyond = settings.filter((v) => levelOf([v], facts) !== 'minimal');
      if (!best || LEVELS.indexOf(level) < LEVELS.indexOf(best.level)) best = { level, proofs: new Set([name]), settings: new Set(beyond) };
      else if (level === best.level) {
        best.proofs.add(name);
        // The settings of the cheapest way in: one check is enough to verify the row.
        if (beyond.length < best.settings.size) best.settings = new Set(beyond);
      }
    }
  }
  if (best) {
    return {
      column: best.level,
      proofs: [...best.proofs],
      ...(best.settings.size ? { settings: [...best.settings] } : {}),
      ...(best.level === 'guess' ? { reason: `needs a guessed setting: ${[...best.settings].filter((v) => levelOf([v], facts) === 'guess').join(', ')}` } : {}),
    };
  }
  return { column: 'not-verified', reason: whyNotVerified(row, { known: known.length, offSentence, inferred, runs }) };
}

function whyNotVerified(row: TraceRow, o: { known: number; offSentence: string[]; inferred: string[]; runs: Set<CheckRun> }): string {
  if (row.verified_by.length === 0 && o.known === 0)
    return encodedInResponseShape(row) ? 'no check and no proof (encoded in a response schema every answer is checked against)' : 'no check and no proof';
  if (o.known === 0) return 'no proof: no fault, mutant or broken receiver is named';
  const parts: string[] = [];
  if (o.offSentence.length) parts.push(`its proofs break other statements: ${o.offSentence.join(', ')}`);
  if (o.inferred.length) parts.push(`inferred proofs only (SVC_STRICT): ${o.inferred.join(', ')}`);
  if (o.runs.size && !o.runs.has('gate') && !o.runs.has('command'))
    parts.push(
      `its proofs are shown only by ${[...o.runs].map((r) => (r === 'simulator' ? "the simulator's dispatcher (delivery:)" : 'a unit test')).join(' and ')}`,
    );
  if (parts.length === 0) parts.push('no proof of its sentence makes a check it names fail on a real target');
  return parts.join('; ');
}

// ---- rows for a person to check ---------------------------------------------------------------------

const STOP = new Set(
  (
    'the and with that this from into only when where which what each every also other than then there their them they have been being does must will would ' +
    'should could about after before under over such some none more most same shown stated state inferred not any all are for its one two may can per via ' +
    'uses used using value values answer answers answered read reads request requests response responses service client clients body payload payloads include includes '
  ).split(' '),
);

/** The words that carry a statement's meaning: identifiers, numbers, nouns (crudely: long words that are not stop words). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9_]+/)) {
    if (!raw || STOP.has(raw)) continue;
    if (raw.length < 4 && !/^\d{2,}$/.test(raw)) continue;
    out.add(raw.length > 4 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return out;
}

const proofText = (name: string, proof: Proof) =>
  proof.kind === 'fault' || proof.kind === 'variation'
    ? `${name} ${proof.section} ${proof.description}`
    : `${proof.kind === 'mutant' ? proof.id : proof.variant}`;

export interface Suspect {
  id: string;
  column: Column;
  why: string;
}

/**
 * Rows for a person to check: where a half of the sentence rule disagrees with it (the
 * section rule alone or the shared words alone would place the row in another column: a
 * proof reused from another statement of the same section, or a sentence stated under
 * another section's name), and every row left unverified because its proofs were judged
 * to break other statements.
 */
export function suspectOf(row: TraceRow, placement: Placement, facts: ColumnFacts): Suspect | undefined {
  if (placement.column === 'not-checkable') return undefined;
  const why: string[] = [];
  for (const rule of ['section', 'words'] as const) {
    const other = placeRow(row, facts, rule);
    if (other.column === placement.column) continue;
    const label = rule === 'section' ? 'the section rule alone' : 'shared words alone';
    const proofs = row.proven_by
      .map((name) => ({ name, proof: proofOf(name, facts) }))
      .filter((p): p is { name: string; proof: Proof } => p.proof !== undefined && p.proof.kind !== 'variation')
      .filter((p) => breaksSentence(row, p.name, p.proof, rule) !== breaksSentence(row, p.name, p.proof, 'combined'))
      .map((p) => {
        const shared = sharedWords(row.statement, p.name, p.proof);
        const section = p.proof.kind === 'fault' ? `section "${p.proof.section.slice(0, 60)}"` : p.proof.kind;
        return `${p.name} (${section}; shared words: ${shared.join(', ') || 'none'})`;
      });
    why.push(`${label} says ${other.column}: ${proofs.join('; ')}`);
  }
  // Every rejection of the machine is a person's to confirm, where neither half disagrees too.
  if (why.length === 0 && placement.column === 'not-verified' && placement.reason?.startsWith('its proofs break other statements')) {
    const rejected = row.proven_by
      .map((name) => ({ name, proof: proofOf(name, facts) }))
      .filter((p): p is { name: string; proof: Proof } => p.proof !== undefined && p.proof.kind !== 'variation' && !breaksSentence(row, p.name, p.proof))
      .map(
        (p) =>
          `${p.name} (${p.proof.kind === 'fault' ? `section "${p.proof.section.slice(0, 60)}"` : p.proof.kind}; shared words: ${sharedWords(row.statement, p.name, p.proof).join(', ') || 'none'})`,
      );
    why.push(`both halves agree its proofs break other statements: ${rejected.join('; ')}`);
  }
  return why.length ? { id: row.id, column: placement.column, why: why.join(' | ') } : undefined;
}
