/**
 * What every mutant family of the generator works from: the documents and the trace read
 * once, the builder that merges one subject's mutants across versions, and the stated
 * fields of every component with what a mutant of each needs (its subject, the statement
 * and section it quotes, where its records sit, the field and the condition that states it).
 */
import type { ApiName, Contract } from '../../contracts/index.ts';
import type { TraceRow } from '../../spec/trace.ts';
import { componentPointers, type DocSite, type Docs, key, readDocs, type StatedField, statedFields } from './documents.ts';
import { opRef, type Mutant, type OpRef, type Site, type When } from './model.ts';
import { CONDITIONAL, INCLUDED } from './statements.ts';

/** Mutants of one subject across versions: the same change in every version where it applies. */
export class Builder {
  readonly mutants = new Map<string, Mutant>();

  add(m: Omit<Mutant, 'ops' | 'versions'> & { ops?: OpRef[] }, version: string | undefined, sites: Site[] = []): void {
    const existing = this.mutants.get(m.id);
    const ops = [...new Set([...(m.ops ?? []), ...sites.map((s) => s.op)])];
    if (!existing) {
      const change = m.change.kind === 'field' ? { ...m.change, sites: [...m.change.sites, ...sites] } : m.change;
      this.mutants.set(m.id, { ...m, change, ops, ...(version ? { versions: [version] } : {}) });
      return;
    }
    if (version && existing.versions && !existing.versions.includes(version)) existing.versions.push(version);
    for (const o of ops) if (!existing.ops.includes(o)) existing.ops.push(o);
    if (existing.change.kind === 'field') {
      for (const s of sites) if (!existing.change.sites.some((x) => x.op === s.op && key(x.path) === key(s.path))) existing.change.sites.push(s);
      const more = m.change.kind === 'field' ? (m.change.witnesses ?? []) : [];
      if (more.length) {
        const witnesses = (existing.change.witnesses ??= []);
        for (const s of more) if (!witnesses.some((x) => x.op === s.op && key(x.path) === key(s.path))) witnesses.push(s);
      }
    }
    for (const r of m.rows) if (!existing.rows.includes(r)) existing.rows.push(r);
  }

  /** Mutants that apply in every version collapse to "every version". */
  done(allVersions: string[]): Mutant[] {
    return [...this.mutants.values()].map((m) => {
      if (m.versions && allVersions.every((v) => m.versions!.includes(v))) {
        const { versions: _all, ...rest } = m;
        return rest;
      }
      return m.versions ? { ...m, versions: [...m.versions].sort() } : m;
    });
  }
}

export const quote = (rows: TraceRow[], fallback: string) => (rows.length ? rows.map((r) => r.statement).join('; ') : fallback);
export const sectionOf = (rows: TraceRow[], fallback: string) => rows[0]?.section ?? fallback;

/** One stated field of a component's records in one document, as its mutants need it. */
export interface FieldSubject {
  stated: StatedField;
  /** `Member.connection_status`, `Transaction.merchants`, `Member.challenges[*].guid`. */
  subject: string;
  statement: string;
  section: string;
  rowIds: string[];
  /** Where the field's own record sits: the component's sites plus the field's parents. */
  recordSites: Site[];
  /** The field name the change applies to (none for an included list: see `included`). */
  field: string[];
  /** The condition under which the answer states the field (CONDITIONAL). */
  when?: When[];
  /** A list `includes` adds to transactions: singular on each transaction, plural, or beside the list. */
  included: boolean;
}

/** The records of one component in one document, with their stated fields. */
export interface ComponentRecords {
  api: ApiName;
  version: string | undefined;
  component: string;
  sites: Site[];
  fields: FieldSubject[];
}

export interface Generation {
  contract: Contract;
  rows: TraceRow[];
  rowById: Map<string, TraceRow>;
  /** The rows of these ids that exist, in this order. */
  rowsOf(...ids: string[]): TraceRow[];
  docs: Docs;
  pointers: ReturnType<typeof componentPointers>;
  b: Builder;
  /** Record sites as mutant sites, once each, with the placements of included data the generator also tries. */
  toSites(list: DocSite[]): Site[];
  /** The sites that are not slim records (presence is not stated there). */
  notSlim(list: Site[]): Site[];
  /** Every component's records per document, in the order the documents answer them. */
  components: ComponentRecords[];
}

export function startGeneration(contract: Contract, rows: TraceRow[]): Generation {
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const row = (id: string) => rowById.get(id);
  const rowsOf = (...ids: string[]) => ids.map(row).filter((r): r is TraceRow => !!r);
  const docs = readDocs(contract);
  const pointers = componentPointers(rows);

  // Sites by component and version.
  const siteIndex = new Map<string, DocSite[]>();
  for (const s of docs.sites) {
    const k = `${s.api}|${s.version ?? ''}|${s.component}`;
    let list = siteIndex.get(k);
    if (!list) siteIndex.set(k, (list = []));
    list.push(s);
  }
  const toSites = (list: DocSite[]): Site[] => {
    const seen = new Set<string>();
    const out: Site[] = [];
    const push = (site: Site) => {
      const k = `${site.op}|${key(site.path)}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(site);
      }
    };
    for (const s of list) {
      const site = { op: opRef(s.api, s.op.key), path: [...s.path] };
      push(site);
      // Resources, Transaction: where included data sits (singular on each transaction, or
      // beside the list) is not shown (contracts/stated-platform.ts reads it the same way).
      const at = site.path.findIndex((x, i) => INCLUDED.has(x) && site.path[i + 1] === '*');
      if (at > 0) {
        push({ op: site.op, path: [...site.path.slice(0, at), site.path[at].replace(/s$/, '')] });
        push({ op: site.op, path: site.path.slice(at) });
      }
    }
    return out;
  };

  // Slim records (data exchange) sit where their full component is also recorded (allOf): presence is not stated there.
  const slimAt = new Set(docs.sites.filter((x) => x.component.startsWith('Slim')).map((x) => `${opRef(x.api, x.op.key)}|${key(x.path)}`));
  const notSlim = (list: Site[]) =>
    list.filter(
      (x) =>
        ![...slimAt].some((k) => {
          const [op, p] = k.split('|');
          return op === x.op && (key(x.path) === p || key(x.path).startsWith(`${p}.`));
        }),
    );

  const components: ComponentRecords[] = [];
  for (const [k, list] of siteIndex) {
    const [api, versionRaw, component] = k.split('|') as [ApiName, string, string];
    const version = versionRaw || undefined;
    const sites = toSites(list);
    const stated = statedFields(contract, api, version, component, pointers);
    components.push({ api, version, component, sites, fields: [...stated.values()].map((f) => fieldSubject(component, api, f, sites)) });
  }
  return { contract, rows, rowById, rowsOf, docs, pointers, b: new Builder(), toSites, notSlim, components };
}

function fieldSubject(component: string, api: ApiName, f: StatedField, sites: Site[]): FieldSubject {
  const path = f.path;
  // The record path of a nested field: the site path plus the field's parents.
  const recordSites = path.length > 1 ? sites.map((s) => ({ op: s.op, path: [...s.path, ...path.slice(0, -1)] })) : sites;
  // An included list (includes=merchants, ...): singular on each transaction, plural, or beside the list.
  const included = component === 'Transaction' && INCLUDED.has(key(path));
  return {
    stated: f,
    subject: `${component}.${key(f.path).replace(/\.\*/g, '[*]')}`,
    statement: quote(f.rows, `spec/ requires it (${api} document, #/components/schemas/${component}/required)`),
    section: sectionOf(f.rows, 'Resources and their fields'),
    rowIds: f.rows.map((r) => r.id),
    recordSites,
    field: included ? [] : [path[path.length - 1]],
    when: CONDITIONAL[component]?.[key(path)],
    included,
  };
}
