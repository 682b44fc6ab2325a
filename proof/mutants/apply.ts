/**
 * Applying one mutant to the traffic of a target (the proxy, proxy.ts, calls this): a
 * request may be refused or have its identifiers mapped back; an answer may be delayed,
 * get another status, lose a header or have fields of its records changed. Pure apart from
 * the mutant's own state (which resource was read how often, the last success of an
 * operation), so the same code runs "for real" and as a dry run that only says whether
 * the mutant would change an answer (the baseline's reach, run.ts).
 */
import { recordsAt, type ApiName } from '../../contracts/index.ts';
import type { Change, FieldAction, Mutant, OpRef, When } from './model.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ProxyRequest {
  method: string;
  api: ApiName;
  /** Path relative to the API's base (no prefix, no query). */
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** What the request matched: the operation (`platform:GET /...`) and the version asked (platform). */
export interface Matched {
  op?: OpRef;
  version?: string;
}

const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
/** Resource identifiers of the service: a prefix of capitals and a uuid (USR-, MBR-, ACT-, and the other resources' guids). */
const ANY_ID = new RegExp(`\\b([A-Z]{2,5}-${UUID})(?![0-9A-Za-z])`, 'g');
/** The suffix a longer identifier carries (Versioning: "changing length ... of opaque strings"). */
export const LONGER_SUFFIX = 'a1b2c3d4';

function headerOf(h: Record<string, string | string[]>, name: string): string | undefined {
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(', ') : v;
  return undefined;
}
function deleteHeader(h: Record<string, string | string[]>, name: string): boolean {
  let hit = false;
  for (const k of Object.keys(h))
    if (k.toLowerCase() === name) {
      delete h[k];
      hit = true;
    }
  return hit;
}
function setHeader(h: Record<string, string | string[]>, name: string, value: string): void {
  deleteHeader(h, name);
  h[name] = value;
}
const isJsonType = (ct: string | undefined) => !!ct && /^(application\/json|application\/[^;]*\+json|text\/json)/i.test(ct.trim());
const isTextType = (ct: string | undefined) => !!ct && (/^text\//i.test(ct.trim()) || isJsonType(ct) || /javascript|xml/i.test(ct));

/** Identifier transforms of the `ids` mutants: answers forward, requests back. */
export function idsForward(change: Extract<Change, { kind: 'ids' }>, text: string): string {
  if (change.action === 'prefix') {
    const from = change.prefix!;
    return text.replace(new RegExp(`\\b${from}(${UUID})(?![0-9A-Za-z])`, 'g'), `${change.to}$1`);
  }
  if (change.action === 'longer') return text.replace(ANY_ID, `$1${LONGER_SUFFIX}`);
  return text.replace(ANY_ID, (id) => id.toUpperCase());
}

export function idsBack(change: Extract<Change, { kind: 'ids' }>, text: string): string {
  if (change.action === 'prefix') return text.replace(new RegExp(`\\b${change.to}(${UUID})(?![0-9A-Za-z])`, 'g'), `${change.prefix}$1`);
  if (change.action === 'longer') return text.replace(new RegExp(`\\b([A-Z]{2,5}-${UUID})${LONGER_SUFFIX}`, 'g'), '$1');
  // The service's own identifiers are lower-case uuids: the upper-case form maps back.
  return text.replace(ANY_ID, (id) => id.slice(0, id.indexOf('-') + 1) + id.slice(id.indexOf('-') + 1).toLowerCase());
}

function queryHas(query: string, name: string, value: string): boolean {
  for (const v of new URLSearchParams(query).getAll(name))
    if (
      v
        .split(',')
        .map((x) => x.trim())
        .includes(value)
    )
      return true;
  return false;
}

function holds(when: readonly When[] | undefined, rec: Obj, query: string, path = ''): boolean {
  for (const w of when ?? []) {
    if ('query' in w) {
      if (!queryHas(query, w.query, w.has)) return false;
    } else if ('pathLacks' in w) {
      const v = rec[w.pathLacks];
      if (
        typeof v !== 'string' ||
        path
          .split('/')
          .map((x) => {
            try {
              return decodeURIComponent(x);
            } catch {
              return x;
            }
          })
          .includes(v)
      )
        return false;
    } else if ('equals' in w) {
      if (rec[w.field] !== w.equals) return false;
    } else if (!w.oneOf.includes(rec[w.field])) return false;
  }
  return true;
}

const isPattern = (name: string) => /[$^]/.test(name);

function dateTo(v: unknown, to: 'epoch-seconds' | 'date-time' | 'no-offset' | 'date'): unknown {
  if (typeof v !== 'string') return undefined;
  if (to === 'date-time') return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : undefined;
  if (to === 'date') return /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : undefined;
  if (to === 'no-offset') return /(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v.replace(/(Z|[+-]\d{2}:?\d{2})$/, '') : undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** One field action on one record's key; true when it changed (or would change) something. */
function act(rec: Obj, name: string, action: FieldAction, dry: boolean): boolean {
  const keys = isPattern(name) ? Object.keys(rec).filter((k) => new RegExp(name).test(k)) : name in rec ? [name] : [];
  if (action.op === 'drop-matching') {
    const hits = Object.keys(rec).filter((k) => new RegExp(action.pattern).test(k));
    if (!dry) for (const k of hits) delete rec[k];
    return hits.length > 0;
  }
  let changed = false;
  for (const k of keys) {
    const v = rec[k];
    let next: unknown = v;
    switch (action.op) {
      case 'drop':
        changed = true;
        if (!dry) delete rec[k];
        continue;
      case 'set':
        next = action.value;
        break;
      case 'recase':
        next = typeof v === 'string' ? (v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase()) : v;
        break;
      case 'map':
        next = Object.hasOwn(action.values, String(v)) ? action.values[String(v)] : v;
        break;
      case 'date': {
        const d = dateTo(v, action.to);
        next = d === undefined ? v : d;
        break;
      }
      case 'add-days':
        next =
          typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)
            ? new Date(Date.parse(`${v.slice(0, 10)}T00:00:00Z`) + action.days * 86_400_000).toISOString().slice(0, 10)
            : v;
        break;
      case 'add-number':
        next = typeof v === 'number' ? v + action.delta : v;
        break;
      case 'append-enum':
        next = Array.isArray(v) ? [...v, action.value] : v;
        break;
    }
    if (next !== v && JSON.stringify(next) !== JSON.stringify(v)) {
      changed = true;
      if (!dry) rec[k] = next;
    }
  }
  return changed;
}

function walkObjects(v: unknown, path: string[], fn: (o: Obj, path: string[]) => void): void {
  if (Array.isArray(v)) {
    for (const x of v) walkObjects(x, [...path, '*'], fn);
    return;
  }
  if (!isObj(v)) return;
  fn(v, path);
  for (const [k, x] of Object.entries(v)) walkObjects(x, [...path, k], fn);
}

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reverseKeys(x)]),
  );
}

const ops = (c: Change): OpRef[] | undefined => ('ops' in c ? c.ops : undefined);

/** Owners a record names (contracts/invariants.ts reads the same three). */
const OWNER_FIELDS = ['user_guid', 'member_guid', 'account_guid'];

/** A record's identity as presence consistency reads it: guid, else code, else id. */
function recordKeyOf(rec: Obj): string | undefined {
  for (const k of ['guid', 'code', 'id']) if (typeof rec[k] === 'string' && rec[k] !== '') return rec[k] as string;
  return undefined;
}

function refusal(message: string): ProxyResponse {
  const body = Buffer.from(JSON.stringify({ error: { status: 400, code: 'mutant_refused', message } }));
  return { status: 400, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }, body };
}

/**
 * One mutant in force on one proxy: its state (reads per resource, the last success per
 * operation) and how many answers it changed (`fired`). `current` is the version a
 * request without Accept-Version gets (the contract's default: the newest).
 */
export class MutantRuntime {
  fired = 0;
  /**
   * Answers it changed (or would change) on a record that another operation served with the
   * field since the last write naming the record: what presence consistency compares
   * (`witnesses`, drop-field-on-path). Counted only for mutants with witnesses.
   */
  observed = 0;
  private readonly reads = new Map<string, number>();
  private readonly lastSuccess = new Map<OpRef, ProxyResponse>();
  /** Records a witness site served with the field: `<credentials>|<version>|<record key>` -> the record's key and owners. */
  private readonly served = new Map<string, string[]>();

  constructor(
    readonly mutant: Mutant,
    private readonly current: string,
  ) {}

  private inVersion(req: ProxyRequest, m: Matched): boolean {
    if (!this.mutant.versions) return true;
    if (req.api !== 'platform') return false;
    return this.mutant.versions.includes(m.version ?? this.current);
  }

  private onOps(m: Matched): boolean {
    const list = ops(this.mutant.change);
    return !list || (!!m.op && list.includes(m.op));
  }

  /** Milliseconds to hold the answer back. */
  delayMs(req: ProxyRequest, m: Matched): number {
    const c = this.mutant.change;
    return c.kind === 'latency' && this.onOps(m) && this.inVersion(req, m) ? c.ms : 0;
  }

  /** The request as the target must see it (identifiers mapped back). */
  rewriteRequest(req: ProxyRequest): ProxyRequest {
    const c = this.mutant.change;
    if (c.kind !== 'ids') return req;
    const body = req.body.length ? Buffer.from(idsBack(c, req.body.toString('utf8'))) : req.body;
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, k === 'host' ? v : idsBack(c, v)]));
    // Query values are mapped decoded (a comma list arrives as `A%2CB`), then encoded again.
    const query = req.query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        let value: string;
        try {
          value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
        } catch {
          return pair;
        }
        return `${pair.slice(0, eq)}=${encodeURIComponent(idsBack(c, value))}`;
      })
      .join('&');
    return { ...req, path: idsBack(c, req.path), query, headers, body };
  }

  /** A refusal the mutant answers in place of the target (refuse-request), or undefined. */
  refuse(req: ProxyRequest, m: Matched, dry = false): ProxyResponse | undefined {
    const c = this.mutant.change;
    if (c.kind !== 'refuse-request' || !this.onOps(m) || !this.inVersion(req, m)) return undefined;
    let carried = false;
    if (c.query) {
      const values = new URLSearchParams(req.query).getAll(c.query);
      carried = c.queryValue === undefined ? values.length > 0 : values.includes(c.queryValue);
    } else if (c.header) carried = req.headers[c.header] !== undefined;
    else if (c.bodyPath && req.body.length) {
      try {
        let v: unknown = JSON.parse(req.body.toString('utf8'));
        for (const seg of c.bodyPath) v = isObj(v) ? v[seg] : undefined;
        carried = v !== undefined;
      } catch {
        /* not JSON: nothing carried */
      }
    }
    if (!carried) return undefined;
    this.fired++;
    return dry ? { status: 0, headers: {}, body: Buffer.alloc(0) } : refusal(`refused by mutant ${this.mutant.id}`);
  }

  /**
   * The answer as the client sees it; `dry`: only count whether it would change (then
   * `parsed` may carry the body parsed once for every dry run of the same answer: a dry
   * run never changes it).
   */
  respond(req: ProxyRequest, m: Matched, res: ProxyResponse, dry = false, parsed?: { body?: unknown; done?: boolean }): ProxyResponse {
    const c = this.mutant.change;
    const ct = headerOf(res.headers, 'content-type');
    // The last success of each operation (for serve-refusal), whatever the mutant.
    if (c.kind === 'serve-refusal' && m.op && res.status >= 200 && res.status < 300 && isJsonType(ct)) this.lastSuccess.set(m.op, res);
    // Which records the other operations served with the field, and which writes named them since.
    let body: unknown;
    const read = (): unknown => {
      if (body !== undefined) return body;
      if (dry && parsed?.done) body = parsed.body;
      else {
        try {
          body = JSON.parse(res.body.toString('utf8'));
        } catch {
          body = null;
        }
        if (dry && parsed) Object.assign(parsed, { body, done: true });
      }
      return body;
    };
    if (c.kind === 'field' && c.witnesses && res.status >= 200 && res.status < 300)
      this.witness(c, req, m, isJsonType(ct) && res.body.length ? read() : undefined);
    if (!this.inVersion(req, m)) return res;
    const changed = (out: ProxyResponse) => {
      this.fired++;
      return dry ? res : out;
    };
    switch (c.kind) {
      case 'latency':
        // The delay is delayMs's; counted here so the baseline's dry run knows which scenarios it reaches.
        return this.onOps(m) ? changed(res) : res;
      case 'status': {
        if (!this.onOps(m) || !c.from.includes(res.status)) return res;
        return changed({ ...res, status: c.to });
      }
      case 'serve-refusal': {
        if (!this.onOps(m) || !c.from.includes(res.status)) return res;
        const last = m.op ? this.lastSuccess.get(m.op) : undefined;
        // A dry run counts the refusal: in the mutant's own run another scenario's success on the operation serves it.
        if (!last) return dry ? changed(res) : res;
        return changed({ status: 200, headers: { ...last.headers }, body: last.body });
      }
      case 'header': {
        if (!this.onOps(m)) return res;
        const headers = { ...res.headers };
        if (c.drop) {
          if (headerOf(headers, c.drop) === undefined) return res;
          deleteHeader(headers, c.drop);
          return changed({ ...res, headers });
        }
        if (c.set) {
          const present = headerOf(headers, c.set.name);
          if (c.onlyWhenPresent && (present === undefined || (c.set.name === 'content-type' && !isJsonType(present) && !/legacy/.test(present)))) return res;
          if (present === c.set.value) return res;
          setHeader(headers, c.set.name, c.set.value);
          return changed({ ...res, headers });
        }
        return res;
      }
      case 'refuse-request':
        return res;
      case 'ids': {
        const location = headerOf(res.headers, 'location');
        const text = isTextType(ct) ? res.body.toString('utf8') : undefined;
        const body = text !== undefined ? idsForward(c, text) : undefined;
        const loc = location !== undefined ? idsForward(c, location) : undefined;
        if ((body === undefined || body === text) && loc === location) return res;
        const headers = { ...res.headers };
        if (loc !== undefined && loc !== location) setHeader(headers, 'location', loc);
        const buf = body !== undefined ? Buffer.from(body) : res.body;
        setHeader(headers, 'content-length', String(buf.length));
        return changed({ ...res, headers, body: buf });
      }
      default:
        break;
    }
    // Changes of a JSON body.
    if (!isJsonType(ct) || !res.body.length || res.status < 200 || res.status >= 300) return res;
    if ((c.kind === 'field' || c.kind === 'body' || c.kind === 'page') && !this.onOpsOf(c, m)) return res;
    read();
    if (body === undefined || body === null) return res;
    const did = this.changeBody(c, req, m, body, dry);
    if (!did.changed) return res;
    const buf = Buffer.from(JSON.stringify(did.body));
    const headers = { ...res.headers };
    setHeader(headers, 'content-length', String(buf.length));
    return changed({ ...res, headers, body: buf });
  }

  /**
   * The record as presence consistency keys it (contracts/invariants.ts): its guid, else its
   * code, else its id, in one version, read with one set of credentials (the suite's ledger
   * holds only what its own credentials read).
   */
  private servedKey(req: ProxyRequest, m: Matched, rec: Obj): string | undefined {
    const id = recordKeyOf(rec);
    return id === undefined ? undefined : `${req.headers.authorization ?? ''}|${m.version ?? this.current}|${id}`;
  }

  /**
   * A write (any non-GET success) forgets the records it names (its path's identifiers, and
   * the identifiers and owners of every object it answers): presence consistency never
   * compares across a write to the record or to an owner. Then an answer at a witness site
   * notes the records it serves with the field.
   */
  private witness(c: Extract<Change, { kind: 'field' }>, req: ProxyRequest, m: Matched, body: unknown): void {
    if (req.method !== 'GET') {
      const named = new Set<string>(
        req.path.split('/').map((x) => {
          try {
            return decodeURIComponent(x);
          } catch {
            return x;
          }
        }),
      );
      walkObjects(body, [], (o) => {
        for (const k of ['guid', 'code', 'id', ...OWNER_FIELDS]) if (typeof o[k] === 'string') named.add(o[k] as string);
      });
      for (const [key, ids] of this.served) if (ids.some((x) => named.has(x))) this.served.delete(key);
    }
    const name = c.field[c.field.length - 1];
    for (const site of (c.witnesses ?? []).filter((s) => s.op === m.op)) {
      for (const rec of recordsAt(body, [...site.path, ...c.field.slice(0, -1)])) {
        if (!holds(c.when, rec, req.query, req.path)) continue;
        const carries =
          c.action.op === 'drop-matching'
            ? Object.keys(rec).some((k) => new RegExp((c.action as { pattern: string }).pattern).test(k) && rec[k] !== null && rec[k] !== undefined)
            : name !== undefined && rec[name] !== null && rec[name] !== undefined;
        const key = this.servedKey(req, m, rec);
        if (!carries || key === undefined) continue;
        const owners = OWNER_FIELDS.map((f) => rec[f]).filter((v): v is string => typeof v === 'string' && v !== '');
        this.served.set(key, [recordKeyOf(rec)!, ...owners]);
      }
    }
  }

  private onOpsOf(c: Change, m: Matched): boolean {
    if (c.kind === 'field') return !!m.op && c.sites.some((s) => s.op === m.op);
    return this.onOps(m);
  }

  private changeBody(c: Change, req: ProxyRequest, m: Matched, body: unknown, dry: boolean): { changed: boolean; body: unknown } {
    switch (c.kind) {
      case 'body':
        return { changed: JSON.stringify(body) !== JSON.stringify(c.body), body: c.body };
      case 'field': {
        let changed = false;
        for (const site of c.sites.filter((s) => s.op === m.op)) {
          const path = [...site.path, ...c.field.slice(0, -1)];
          const name = c.field[c.field.length - 1];
          for (const rec of recordsAt(body, path)) {
            if (!holds(c.when, rec, req.query, req.path)) continue;
            if (c.reads === 'even') {
              if (req.method !== 'GET') continue;
              const id = typeof rec.guid === 'string' ? rec.guid : typeof rec.code === 'string' ? rec.code : req.path;
              const n = (this.reads.get(id) ?? 0) + 1;
              this.reads.set(id, n);
              if (n % 2 === 1) continue;
            }
            if (name === undefined) continue;
            const key = c.witnesses ? this.servedKey(req, m, rec) : undefined;
            if (act(rec, name, c.action, dry)) {
              changed = true;
              if (key !== undefined && this.served.has(key)) this.observed++;
            }
          }
          if (c.action.op === 'drop-matching') {
            for (const rec of recordsAt(body, site.path)) {
              if (!holds(c.when, rec, req.query, req.path)) continue;
              const key = c.witnesses ? this.servedKey(req, m, rec) : undefined;
              if (act(rec, '', c.action, dry)) {
                changed = true;
                if (key !== undefined && this.served.has(key)) this.observed++;
              }
            }
          }
        }
        return { changed, body };
      }
      case 'page': {
        if (!isObj(body) || !Array.isArray(body[c.listKey])) return { changed: false, body };
        const list = body[c.listKey] as unknown[];
        if (c.action === 'one-more') {
          const asked = Number(new URLSearchParams(req.query).get('records_per_page'));
          const full = c.full === 'asked' ? (Number.isInteger(asked) && asked >= 10 ? asked : NaN) : c.full;
          if (!list.length || list.length !== full) return { changed: false, body };
          if (!dry) {
            const extra = JSON.parse(JSON.stringify(list[list.length - 1])) as unknown;
            if (isObj(extra) && typeof extra.guid === 'string') extra.guid = `${extra.guid}0`;
            list.push(extra);
          }
          return { changed: true, body };
        }
        if ((c.onlyWithoutQuery ?? []).some((q) => new URLSearchParams(req.query).has(q))) return { changed: false, body };
        const dated = list.filter((x): x is Obj => isObj(x) && typeof x[c.dateField] === 'string' && /^\d{4}-\d{2}-\d{2}/.test(x[c.dateField] as string));
        if (dated.length < 2) return { changed: false, body };
        const newest = Math.max(...dated.map((x) => Date.parse(`${(x[c.dateField] as string).slice(0, 10)}T00:00:00Z`)));
        if (!dry) dated[dated.length - 1][c.dateField] = new Date(newest - c.days * 86_400_000).toISOString().slice(0, 10);
        return { changed: true, body };
      }
      case 'objects': {
        if (c.action === 'reorder') return { changed: true, body: dry ? body : reverseKeys(body) };
        let changed = false;
        const keep = (m.op && c.keep?.[m.op]) || [];
        walkObjects(body, [], (o, path) => {
          if (c.action === 'add-field') {
            changed = true;
            if (!dry) o.mutant_added_field = 'mutant';
            return;
          }
          for (const [k, v] of Object.entries(o)) {
            if (v !== null) continue;
            const full = [...path, k];
            if (keep.some((p) => p.length === full.length && p.every((s, i) => s === full[i] || (s === '?' && i === 0)))) continue;
            changed = true;
            if (!dry) delete o[k];
          }
        });
        return { changed, body };
      }
      default:
        return { changed: false, body };
    }
  }
}
