/**
 * Drift inside a version: tonight's night against the last nights of the same target and
 * version, every difference classified by the specification's Versioning section.
 *
 * Breaking ("Breaking (require a new version)"), a stated failure of the night: a removed or
 * renamed response field, a changed kind of data, a removed enum value, and a request the
 * same scenario sent the same way and the target accepted last night, refused tonight (a new
 * required request parameter, a new validation rule, an endpoint path removed or moved).
 * Non-breaking (Versioning: "Non-breaking: ..."), reported, never failing: a field, an enum
 * value, a response header or an identifier form the history never saw before; a request
 * refused last night and accepted tonight. Informational: a field served tonight only as null,
 * a header no longer sent, another success status.
 *
 * The freedoms hold (../shared/real-service-notes.md, Nullability: "Absence follows the same
 * rule as null"): a field null or absent on both nights is no change, and one null last night
 * and absent tonight is no removal; a removal is a field served (not null) last night under a
 * parent tonight's answers still carry, by a scenario that made the same kind of request
 * tonight and no longer got it. A field the specification never named counts the same: what
 * the target served is what a client may rely on (Versioning: "removing ... a response field").
 *
 * The baseline of each operation and status is the latest earlier night of the same target
 * that observed it, so a partial night compares what it ran and nothing else.
 */
import type { FieldNight, Night, OperationNight } from './night.ts';
import type { HistoryIndex } from './store.ts';
import { markdownCode, markdownText } from '../reports/markdown.ts';

export type DriftKind =
  | 'removed-field'
  | 'changed-type'
  | 'removed-enum-value'
  | 'refused-now'
  | 'added-field'
  | 'added-enum-value'
  | 'added-header'
  | 'identifier-form'
  | 'accepted-now'
  | 'now-null'
  | 'removed-header'
  | 'success-status';

export type DriftClass = 'breaking' | 'non-breaking' | 'informational';

const BREAKING_HEAD = 'Versioning: "Breaking (require a new version): ';
/** The sentence each kind quotes. */
export const DRIFT_RULES: Record<DriftKind, { cls: DriftClass; rule: string }> = {
  'removed-field': { cls: 'breaking', rule: `${BREAKING_HEAD}... removing or renaming a response field"` },
  'changed-type': {
    cls: 'breaking',
    rule: `${BREAKING_HEAD}... changing the structure of a response body incompatibly or the kind of data of a field"`,
  },
  'removed-enum-value': { cls: 'breaking', rule: `${BREAKING_HEAD}... removing enum values"` },
  'refused-now': {
    cls: 'breaking',
    rule: `${BREAKING_HEAD}adding a required request parameter or making an optional one required; ... adding a validation rule to an existing parameter; ... removing, moving or changing endpoint paths"`,
  },
  'added-field': { cls: 'non-breaking', rule: 'Versioning: "Non-breaking: ... adding response data elements"' },
  'added-enum-value': { cls: 'non-breaking', rule: 'Versioning: "Enumerated response fields (for example account subtype) may gain values"' },
  'added-header': { cls: 'non-breaking', rule: 'Versioning: "Non-breaking: ... adding a response header"' },
  'identifier-form': { cls: 'non-breaking', rule: 'Versioning: "Non-breaking: ... changing length or format of opaque strings (identifiers, messages)"' },
  'accepted-now': { cls: 'non-breaking', rule: 'Versioning: "Non-breaking: ... making a required parameter optional"' },
  'now-null': {
    cls: 'informational',
    rule: 'Resources: field types are stated, nullability is not (../shared/real-service-notes.md, Nullability: "A null where a type is stated is therefore not a clear violation")',
  },
  'removed-header': {
    cls: 'informational',
    rule: 'Versioning names no removed response header as breaking (the deprecation and sunset signals are judged in every run: contracts/invariants.ts)',
  },
  'success-status': {
    cls: 'informational',
    rule: "Errors: another success status where the specification states none is the service's freedom (../shared/real-service-notes.md, Status codes)",
  },
};

export interface DriftEvent {
  /** The night that showed it (tonight when it was found). */
  night: string;
  target: string;
  version: string;
  api: string;
  operation: string;
  status?: string;
  kind: DriftKind;
  cls: DriftClass;
  /** A field path, `header:<name>`, or the request's form. */
  path: string;
  last: { night: string; value: string };
  tonight: string;
  /** The first night the field, value, header or form was seen. */
  firstSeen?: string;
  rule: string;
  /** Scenarios that saw it (at most three). */
  scenarios: string[];
}

const show = (v: unknown) => (v === undefined ? '(no example kept)' : JSON.stringify(v));
const kindsOf = (f: FieldNight) => f.k.filter((k) => k !== 'null');
const parentOf = (path: string) => {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
};
const is2xx = (s: number) => s >= 200 && s < 300;
/** Refusals that follow the target's state or load, not its contract: Errors, "409 ... while another aggregation-type job is running", "429 too many requests". */
const STATE_REFUSALS = new Set([409, 423, 429]);

function firstSeenKey(target: string, op: Pick<OperationNight, 'api' | 'version' | 'operation'>, status: string, what: string): string {
  return `${target}|${op.api}|${op.version}|${op.operation}|${status}|${what}`;
}

const opKey = (o: Pick<OperationNight, 'api' | 'version' | 'operation'>) => `${o.api}|${o.version}|${o.operation}`;

/** The latest earlier night of `tonight`'s target that observed each operation. */
function baselines(tonight: Night, earlier: readonly Night[]): Map<string, { night: Night; op: OperationNight }> {
  const out = new Map<string, { night: Night; op: OperationNight }>();
  for (const n of [...earlier].sort((a, b) => a.id.localeCompare(b.id))) {
    if (n.target !== tonight.target || n.id >= tonight.id) continue;
    for (const op of n.operations) out.set(opKey(op), { night: n, op });
  }
  return out;
}

const names = (night: Night, idx: readonly number[]) => new Set(idx.map((i) => night.sources[i]));
const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((x) => b.has(x));

type DriftDetails = Omit<DriftEvent, 'night' | 'target' | 'version' | 'api' | 'operation' | 'kind' | 'cls' | 'rule'>;
type OperationResponses = OperationNight['responses'][string];

/** One operation of tonight against its baseline: what every comparison step reads and where it reports. */
interface OperationDrift {
  tonight: Night;
  op: OperationNight;
  /** The latest earlier night that observed the operation, and what it observed. */
  base: { night: Night; op: OperationNight } | undefined;
  firstSeen: HistoryIndex['firstSeen'];
  known: (key: string) => boolean;
  /** Reports one event of this operation, and returns it. */
  push: (kind: DriftKind, details: DriftDetails) => DriftEvent;
}

/**
 * Every difference between tonight and the last nights (oldest first in `earlier`), and the
 * first-seen entries tonight adds (`firstSeen` is read, never written: the caller saves).
 */
export function compareNights(
  tonight: Night,
  earlier: readonly Night[],
  firstSeen: HistoryIndex['firstSeen'] = {},
): { events: DriftEvent[]; seen: Record<string, string> } {
  const events: DriftEvent[] = [];
  const seen: Record<string, string> = {};
  const known = (k: string) => firstSeen[k] !== undefined;
  const mark = (k: string) => {
    if (!known(k) && seen[k] === undefined) seen[k] = tonight.id;
  };
  const base = baselines(tonight, earlier);
  for (const op of tonight.operations) {
    const drift: OperationDrift = { tonight, op, base: base.get(opKey(op)), firstSeen, known, push: eventPusher(tonight, op, events) };
    for (const [status, r] of Object.entries(op.responses)) {
      const last = drift.base?.op.responses[status];
      if (drift.base && last) {
        compareServedFields(drift, drift.base.night, status, r, last);
        reportNewFields(drift, drift.base.night, status, r, last);
      }
      markFieldsSeen(drift, status, r, mark);
    }
    compareHeaders(drift);
    for (const h of op.headers) mark(firstSeenKey(tonight.target, op, '2xx', `header:${h}`));
    compareRequests(drift);
  }
  return { events, seen };
}

function eventPusher(tonight: Night, op: OperationNight, events: DriftEvent[]): OperationDrift['push'] {
  return (kind, details) => {
    const event: DriftEvent = {
      night: tonight.id,
      target: tonight.target,
      version: op.version,
      api: op.api,
      operation: op.operation,
      kind,
      cls: DRIFT_RULES[kind].cls,
      rule: DRIFT_RULES[kind].rule,
      ...details,
    };
    events.push(event);
    return event;
  };
}

/** Removed, changed, narrowed: every field last night served, against tonight's answers of the same status. */
function compareServedFields(drift: OperationDrift, lastNight: Night, status: string, r: OperationResponses, last: OperationResponses): void {
  const { tonight, op, firstSeen, push } = drift;
  const removed = new Set<string>();
  for (const [path, lf] of Object.entries(last.fields)) {
    const tf = r.fields[path];
    const parent = parentOf(path);
    const parentTonight = parent ? r.fields[parent] : undefined;
    const parentServed = parent === '' ? r.n > 0 : (parentTonight?.n ?? 0) > 0;
    if (lf.n > 0 && (!tf || tf.n === 0)) {
      if (!parentServed || removed.has(parent)) {
        if (removed.has(parent)) removed.add(path);
        continue;
      }
      const scenarios = overlap(names(lastNight, lf.s), names(tonight, parent === '' ? r.s : parentTonight!.s));
      if (!scenarios.length) continue;
      if (!tf) {
        removed.add(path);
        push('removed-field', {
          status,
          path,
          last: { night: lastNight.id, value: `${show(lf.e)} (${kindsOf(lf).join('|')}, in ${lf.n} answer(s))` },
          tonight: 'absent from every answer',
          firstSeen: firstSeen[firstSeenKey(tonight.target, op, status, path)],
          scenarios: scenarios.slice(0, 3),
        });
      } else
        push('now-null', {
          status,
          path,
          last: { night: lastNight.id, value: show(lf.e) },
          tonight: `null in ${tf.z} answer(s)`,
          firstSeen: firstSeen[firstSeenKey(tonight.target, op, status, path)],
          scenarios: scenarios.slice(0, 3),
        });
      continue;
    }
    if (!tf || tf.n === 0 || lf.n === 0) continue;
    const newKinds = kindsOf(tf).filter((k) => !kindsOf(lf).includes(k));
    if (newKinds.length)
      push('changed-type', {
        status,
        path,
        last: { night: lastNight.id, value: `${kindsOf(lf).join('|')} ${show(lf.e)}` },
        tonight: `${kindsOf(tf).join('|')} ${show(tf.e)}`,
        firstSeen: firstSeen[firstSeenKey(tonight.target, op, status, path)],
        scenarios: [...names(tonight, tf.s)].slice(0, 3),
      });
    reportRemovedEnumValues(drift, lastNight, status, path, lf, tf);
  }
}

function reportRemovedEnumValues(drift: OperationDrift, lastNight: Night, status: string, path: string, lf: FieldNight, tf: FieldNight): void {
  const { tonight, op, firstSeen, push } = drift;
  if (!lf.v || !tf.v) return;
  for (const [value, who] of Object.entries(lf.v)) {
    if (tf.v[value]) continue;
    const scenarios = overlap(names(lastNight, who), names(tonight, tf.s));
    if (!scenarios.length) continue;
    push('removed-enum-value', {
      status,
      path,
      last: { night: lastNight.id, value: JSON.stringify(value) },
      tonight: `values seen: ${
        Object.keys(tf.v)
          .map((v) => JSON.stringify(v))
          .join(', ') || 'none'
      }`,
      firstSeen: firstSeen[firstSeenKey(tonight.target, op, status, `${path}=${value}`)],
      scenarios: scenarios.slice(0, 3),
    });
  }
}

/**
 * What the history never saw before: non-breaking, reported once (the night it appears),
 * only where last night observed the same status, and only the outermost new path.
 */
function reportNewFields(drift: OperationDrift, lastNight: Night, status: string, r: OperationResponses, last: OperationResponses): void {
  const { tonight, op, known, push } = drift;
  for (const [path, tf] of Object.entries(r.fields)) {
    const lf = last.fields[path];
    const parent = parentOf(path);
    const parentKnown = parent === '' || !!last.fields[parent] || known(firstSeenKey(tonight.target, op, status, parent));
    if (tf.n > 0 && !lf && parentKnown && !known(firstSeenKey(tonight.target, op, status, path)))
      push('added-field', {
        status,
        path,
        last: { night: lastNight.id, value: 'absent' },
        tonight: `${show(tf.e)} (${kindsOf(tf).join('|')})`,
        firstSeen: tonight.id,
        scenarios: [...names(tonight, tf.s)].slice(0, 3),
      });
    if (tf.v && lf?.v)
      for (const value of Object.keys(tf.v)) {
        if (known(firstSeenKey(tonight.target, op, status, `${path}=${value}`)) || lf.v[value]) continue;
        push('added-enum-value', {
          status,
          path,
          last: {
            night: lastNight.id,
            value: `values seen: ${Object.keys(lf.v)
              .map((v) => JSON.stringify(v))
              .join(', ')}`,
          },
          tonight: JSON.stringify(value),
          firstSeen: tonight.id,
          scenarios: [...names(tonight, tf.v[value])].slice(0, 3),
        });
      }
    if (tf.f && lf?.f)
      for (const form of tf.f) {
        if (known(firstSeenKey(tonight.target, op, status, `${path}~${form}`)) || lf.f.includes(form)) continue;
        push('identifier-form', {
          status,
          path,
          last: { night: lastNight.id, value: lf.f.join(', ') },
          tonight: form,
          firstSeen: tonight.id,
          scenarios: [...names(tonight, tf.s)].slice(0, 3),
        });
      }
  }
}

/** Every field, enum value and identifier form tonight served, for the first-seen entries. */
function markFieldsSeen(drift: OperationDrift, status: string, r: OperationResponses, mark: (key: string) => void): void {
  const { tonight, op } = drift;
  for (const [path, tf] of Object.entries(r.fields)) {
    mark(firstSeenKey(tonight.target, op, status, path));
    if (tf.v) for (const value of Object.keys(tf.v)) mark(firstSeenKey(tonight.target, op, status, `${path}=${value}`));
    if (tf.f) for (const form of tf.f) mark(firstSeenKey(tonight.target, op, status, `${path}~${form}`));
  }
}

/** Headers of the 2xx answers, where both nights observed answers of the operation. */
function compareHeaders(drift: OperationDrift): void {
  const { tonight, op, base: b, firstSeen, known, push } = drift;
  if (!b || !Object.keys(b.op.responses).length || !Object.keys(op.responses).length) return;
  for (const h of op.headers) {
    const k = firstSeenKey(tonight.target, op, '2xx', `header:${h}`);
    if (!known(k) && !b.op.headers.includes(h))
      push('added-header', { path: `header:${h}`, last: { night: b.night.id, value: 'not sent' }, tonight: 'sent', firstSeen: tonight.id, scenarios: [] });
  }
  for (const h of b.op.headers)
    if (!op.headers.includes(h))
      push('removed-header', {
        path: `header:${h}`,
        last: { night: b.night.id, value: 'sent' },
        tonight: 'not sent on any 2xx answer',
        firstSeen: firstSeen[firstSeenKey(tonight.target, op, '2xx', `header:${h}`)],
        scenarios: [],
      });
}

/** The same request of the same scenario: accepted last night, refused tonight (and the reverse, and another success status). */
function compareRequests(drift: OperationDrift): void {
  const { tonight, op, base: b, push } = drift;
  if (!b) return;
  const lastRequests = new Map<string, number[]>();
  for (const [k, statuses] of Object.entries(b.op.requests)) {
    const bar = k.indexOf('|');
    lastRequests.set(`${b.night.sources[Number(k.slice(0, bar))]}|${k.slice(bar + 1)}`, statuses);
  }
  // One event per operation, request form and change; the scenarios that sent it named in it.
  const grouped = new Map<string, DriftEvent>();
  for (const [k, statuses] of Object.entries(op.requests)) {
    const bar = k.indexOf('|');
    const source = tonight.sources[Number(k.slice(0, bar))];
    const form = k.slice(bar + 1).trim() || '(no parameters)';
    const before = lastRequests.get(`${source}|${k.slice(bar + 1)}`);
    if (!before) continue;
    const kind = requestChange(before, statuses);
    if (!kind) continue;
    const gk = `${kind}|${form}|${before.join(',')}>${statuses.join(',')}`;
    const same = grouped.get(gk);
    if (same) {
      if (same.scenarios.length < 3 && !same.scenarios.includes(source)) same.scenarios.push(source);
      continue;
    }
    grouped.set(gk, push(kind, { path: form, last: { night: b.night.id, value: before.join(',') }, tonight: statuses.join(','), scenarios: [source] }));
  }
}

/** How one request's statuses changed between the nights, if the change is one Versioning classifies. */
function requestChange(before: readonly number[], statuses: readonly number[]): DriftKind | undefined {
  const refusal = (s: number) => s >= 400 && s < 500 && !STATE_REFUSALS.has(s);
  if (before.every(is2xx) && !statuses.some(is2xx) && statuses.some(refusal)) return 'refused-now';
  if (statuses.every(is2xx) && before.every(refusal)) return 'accepted-now';
  if (before.every(is2xx) && statuses.every(is2xx) && !before.some((s) => statuses.includes(s))) return 'success-status';
  return undefined;
}

/** The breaking events as the gate's reasons: each names the operation, the path, both nights and the sentence. */
export function driftReason(e: DriftEvent): string {
  return `breaking change inside ${e.version || 'the unversioned API'} (${e.target}): ${e.operation}${e.status ? ` → ${e.status}` : ''} at ${e.path}: last night (${e.last.night}) ${e.last.value}; tonight ${e.tonight}${e.firstSeen ? `; first seen ${e.firstSeen}` : ''}. ${e.rule}`;
}

/** Drift events as a Markdown section (the nightly summary, `drift`'s --markdown). */
export function driftMarkdown(events: readonly DriftEvent[], o: { title?: string } = {}): string[] {
  const lines = [`## ${o.title ?? 'Drift inside a version (tonight against the last nights)'}`, ''];
  if (!events.length) return [...lines, 'No drift: every operation served tonight what it served the last night that observed it.', ''];
  for (const cls of ['breaking', 'non-breaking', 'informational'] as const) {
    const of = events.filter((e) => e.cls === cls);
    if (!of.length) continue;
    lines.push(
      `### ${cls} (${of.length})${cls === 'breaking' ? ' — fails the nightly: breaking changes require a new version' : ' — reported, never failing'}`,
      '',
      '| version | operation | status | path | kind | last night | tonight | first seen |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const e of of)
      lines.push(
        `| ${markdownText(e.version) || '—'} | ${markdownText(e.operation)} | ${e.status ?? '—'} | ${markdownCode(e.path)} | ${e.kind} | ${markdownText(e.last.value)} (${e.last.night}) | ${markdownText(e.tonight)} | ${e.firstSeen ?? '—'} |`,
      );
    lines.push('', ...[...new Set(of.map((e) => e.rule))].map((r) => `- ${r}`), '');
  }
  return lines;
}
