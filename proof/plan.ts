/**
 * The self-test's plan (../shared/DESIGN.md, "Proving the suite"): which suite runs each
 * catalogue entry needs, so an entry runs only what it can affect.
 *
 * A fault runs the checks spec/trace.yaml names for it, and nothing else (`planFault`): the
 * `verified_by` entries of every row whose `proven_by` lists it (only its `shown_by`
 * entries for that fault, where the generated sidecar names some). The run then proves
 * exactly what the trace claims; a fault those checks miss SURVIVES, and the trace is
 * corrected rather than the gate weakened. A variation runs every suite its `suites` tags
 * name (`planVariation`): all of them must pass under it.
 *
 * Suite kinds (proof/adapters.ts runs one per kind beside the Playwright invocation):
 *   playwright  scenarios: a fault's named titles (`scenarios/<folder>/<file> > <title>`),
 *               a variation's `@<tag>`s, in the single Playwright invocation
 *   delivery    `delivery: <scenario>` / `delivery` — the webhook delivery conformance
 *               scenarios, in-process
 *   load        `load: <script>` / `load:<script>` — the load runner, smoke profile
 *   upgrade     `versions: ...` / `upgrade` — the version-upgrade check (npm run versions)
 *               from the previous to the newest version; a breaking finding is a catch
 *   `*`         every kind (variations must pass everything)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CatalogEntry, FaultEntry, VariationEntry } from '../targets/index.ts';
import type { TraceRow } from '../spec/trace.ts';
import type { SelftestEntry, TestKey } from './playwright-plan.ts';
import type { SuiteKind } from './matrix.ts';
export type { SuiteKind };

export interface SuiteRun {
  kind: SuiteKind;
  /** playwright: grep tags (empty = everything); load: script names (empty = every script). */
  selectors: string[];
  /** Everything of that kind (the `*` tag). */
  all: boolean;
}

export interface PlannedEntry {
  entry: CatalogEntry;
  runs: SuiteRun[];
  /** The Playwright run selects only these scenario titles (a fault's named scenarios). */
  onlyTitles?: string[];
}

/** Returns the suite kind of one `suites` tag, or undefined when the tag is not a known form. */
export function kindOfTag(tag: string): SuiteKind | '*' | undefined {
  if (tag === '*') return '*';
  if (tag === 'upgrade') return 'upgrade';
  if (tag === 'delivery') return 'delivery';
  if (/^load:[a-z0-9][a-z0-9-]*$/.test(tag)) return 'load';
  if (/^@[a-z0-9][a-z0-9-]*$/i.test(tag)) return 'playwright';
  return undefined;
}

/**
 * What the trace names for one fault, by kind, from the `verified_by` entries of every row
 * whose `proven_by` lists it (only its `shown_by` entries, where the row has some for it,
 * unless `everyCheck`): scenario titles, delivery scenarios, load scripts, the upgrade check.
 * Entries of other kinds (a contract check, a unit test, a live-delivery run) are proven
 * elsewhere and give the self-test nothing to run.
 */
export function namedChecks(fault: string, rows: readonly TraceRow[], o: { everyCheck?: boolean } = {}) {
  const titles = new Set<string>();
  const delivery = new Set<string>();
  const load = new Set<string>();
  let upgrade = false;
  for (const row of rows) {
    if (!row.proven_by.includes(fault)) continue;
    for (const v of (o.everyCheck ? undefined : row.shown_by?.[fault]) ?? row.verified_by) {
      if (v.startsWith('scenarios/')) titles.add(v.split(' > ').at(-1)!);
      else if (/^delivery: [a-z0-9-]+/.test(v)) delivery.add(/^delivery: ([a-z0-9-]+)/.exec(v)![1]);
      else if (/^load: [a-z0-9-]+/.test(v)) load.add(/^load: ([a-z0-9-]+)/.exec(v)![1]);
      else if (v.startsWith('versions:')) upgrade = true;
    }
  }
  return { titles: [...titles], delivery: [...delivery], load: [...load], upgrade };
}

/**
 * A fault's runs: exactly the checks its trace rows name (namedChecks). With `everyCheck`
 * (`--full-suites`) every check of those rows, shown_by left aside: the matrix from which
 * `npx tsx proof/trace-proof.ts --shown-by` chooses again.
 */
export function planFault(entry: FaultEntry, rows: readonly TraceRow[], o: { everyCheck?: boolean } = {}): PlannedEntry {
  const named = namedChecks(entry.name, rows, o);
  const runs: SuiteRun[] = [
    ...(named.titles.length ? [{ kind: 'playwright' as const, selectors: [], all: true }] : []),
    ...(named.delivery.length ? [{ kind: 'delivery' as const, selectors: named.delivery, all: false }] : []),
    ...(named.load.length ? [{ kind: 'load' as const, selectors: named.load, all: false }] : []),
    ...(named.upgrade ? [{ kind: 'upgrade' as const, selectors: [], all: true }] : []),
  ];
  return { entry, runs, ...(named.titles.length ? { onlyTitles: named.titles } : {}) };
}

/** A catalogue entry's plan: a fault's from the trace (planFault), a variation's from its suites. */
export function planEntry(entry: CatalogEntry, rows: readonly TraceRow[], o: { everyCheck?: boolean } = {}): PlannedEntry {
  return entry.kind === 'fault' ? planFault(entry, rows, o) : planVariation(entry);
}

/** A variation's runs: every suite its `suites` tags name. */
export function planVariation(entry: VariationEntry): PlannedEntry {
  const byKind = new Map<SuiteKind, SuiteRun>();
  const run = (kind: SuiteKind) => {
    let r = byKind.get(kind);
    if (!r) byKind.set(kind, (r = { kind, selectors: [], all: false }));
    return r;
  };
  for (const tag of entry.suites) {
    const kind = kindOfTag(tag);
    if (kind === undefined) throw new Error(`Catalogue variation ${entry.name}: unknown suite tag "${tag}" (see proof/plan.ts)`);
    if (kind === '*') {
      for (const k of ['playwright', 'delivery', 'load', 'upgrade'] as const) run(k).all = true;
    } else if (kind === 'playwright') {
      run(kind).selectors.push(tag);
    } else if (kind === 'load') {
      run(kind).selectors.push(tag.slice('load:'.length));
    } else {
      run(kind).all = true; // delivery, upgrade: the whole of that kind
    }
  }
  for (const r of byKind.values()) if (r.all) r.selectors = [];
  return { entry, runs: [...byKind.values()] };
}

/** A Playwright --grep pattern matching any of the tags at a word end (`@members` must not match `@members-mfa`). */
export function grepFor(tags: readonly string[]): string {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(${[...new Set(tags)].map(esc).join('|')})(?![\\w-])`;
}

/**
 * The suite tags that exist in the project: `@tags` written in scenarios/ sources,
 * `load:<script>` for each k6 script under load/ (not the runner), plus the fixed
 * names. A catalogue entry naming anything else would never be run.
 */
export function discoverSuiteTags(root: string): Set<string> {
  const tags = new Set<string>(['*', 'upgrade', 'delivery']);
  const walk = (dir: string, visit: (file: string) => void) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      if (n === 'node_modules' || n === 'out' || n.startsWith('.')) continue;
      const full = join(dir, n);
      if (statSync(full).isDirectory()) walk(full, visit);
      else visit(full);
    }
  };
  walk(join(root, 'scenarios'), (file) => {
    if (!/\.(ts|mts|js)$/.test(file)) return;
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`\s(](@[a-z][a-z0-9-]*)(?=['"`\s,)\]])/gi)) tags.add(m[1]);
  });
  walk(join(root, 'load'), (file) => {
    if (file.includes(`${join(root, 'load', 'runner')}`) || file.endsWith('.test.ts') || !/\.(ts|js)$/.test(file)) return;
    const text = readFileSync(file, 'utf8');
    // A k6 script exports its options (and a default or named scenario functions); lib files do not.
    if (/export\s+(default\b|const\s+options\b)/.test(text)) tags.add(`load:${basename(file).replace(/\.(ts|js)$/, '')}`);
  });
  return tags;
}

// The plan of the single Playwright invocation and its entries (proof/playwright-plan.ts,
// which the self-test's configuration and its `test` read).
export { PROPERTIES_PROJECT, SELFTEST_PROJECT, type PlaywrightPlan, type SelftestEntry } from './playwright-plan.ts';

/** The name of the baseline project: nothing in force. */
export const CLEAN_PROJECT = 'clean';

/** The self-test entry of one catalogue entry, or of a group in force together (`runs` merged with mergeRuns); undefined when it runs no scenario. */
export function selftestEntryFor(
  name: string,
  faults: string[],
  variations: string[],
  runs: readonly SuiteRun[],
  onlyTitles?: readonly string[],
  env?: Record<string, string>,
): SelftestEntry | undefined {
  const run = runs.find((r) => r.kind === 'playwright');
  if (!run) return undefined;
  const grep = [run.all ? undefined : grepFor(run.selectors), onlyTitles?.length ? titlesGrep(onlyTitles) : undefined].filter((g) => g !== undefined);
  // Both conditions at once: lookaheads over Playwright's "title path and tags" string.
  return {
    name,
    ...(grep.length === 1 ? { grep: grep[0] } : grep.length ? { grep: grep.map((g) => `(?=.*${g})`).join('') } : {}),
    faults,
    variations,
    ...(env && Object.keys(env).length ? { env } : {}),
  };
}

/**
 * Whether a project's grep selects a scenario. Playwright matches `grep` against the
 * test's title path (its file first) and its tags, so the same string is built here from
 * the scenario's key.
 */
export function grepSelects(grep: string | undefined, test: { key: TestKey; tags: readonly string[] }): boolean {
  if (grep === undefined) return true;
  const titlePath = [test.key.file, ...test.key.titlePath].join(' ');
  // Playwright's JSON report lists tags without their `@`; its grep sees them with it.
  const tags = test.tags.map((t) => (t.startsWith('@') ? t : `@${t}`));
  return new RegExp(grep).test(`${titlePath} ${tags.join(' ')}`);
}

/** A grep matching any of these exact scenario titles. */
export function titlesGrep(titles: readonly string[]): string {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(${[...new Set(titles)].map(esc).join('|')})`;
}

export function selftestEntryOf(p: PlannedEntry): SelftestEntry | undefined {
  return selftestEntryFor(
    p.entry.name,
    p.entry.kind === 'fault' ? [p.entry.name] : [],
    p.entry.kind === 'variation' ? [p.entry.name] : [],
    p.runs,
    p.onlyTitles,
    p.entry.kind === 'fault' ? p.entry.env : undefined,
  );
}

/** The union of several plans' runs, one run per kind (`all` wins over selectors). */
export function mergeRuns(runLists: readonly (readonly SuiteRun[])[]): SuiteRun[] {
  const byKind = new Map<SuiteKind, SuiteRun>();
  for (const runs of runLists) {
    for (const r of runs) {
      const m = byKind.get(r.kind) ?? { kind: r.kind, selectors: [], all: false };
      m.all ||= r.all;
      m.selectors = m.all ? [] : [...new Set([...m.selectors, ...r.selectors])];
      byKind.set(r.kind, m);
    }
  }
  return [...byKind.values()];
}
