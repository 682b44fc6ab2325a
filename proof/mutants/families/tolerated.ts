/**
 * What the suite must tolerate everywhere (Versioning, non-breaking; what the specification
 * leaves open): `add-field`, `reorder`, `longer-id`, `reformat-id`, `add-header`,
 * `omit-null`, `latency`. One mutant each (two for latency), applying to every answer.
 * omit-null reads the drop-field mutants, so it runs after them.
 */
import type { Builder, Generation } from '../generation.ts';
import { type Change, type Family, type Mutant, type OpRef, opRef } from '../model.ts';
import { NON_BREAKING } from '../statements.ts';

export function toleratedEverywhereMutants(g: Generation): void {
  const every = (family: Family, id: string, statement: string, rowIds: string[], change: Change, extra: Partial<Mutant> = {}) =>
    g.b.add(
      {
        id: `${family}:${id}`,
        family,
        expect: 'tolerated',
        statement,
        section: 'Versioning',
        rows: rowIds.filter((r) => g.rowById.has(r)),
        ops: [],
        change,
        ...extra,
      },
      undefined,
    );
  every('add-field', 'every object gains a field', NON_BREAKING.addField, ['ver.non-breaking.5'], { kind: 'objects', action: 'add-field' });
  every('reorder', 'every object lists its properties in reverse', NON_BREAKING.reorder, ['ver.non-breaking.6'], { kind: 'objects', action: 'reorder' });
  every('longer-id', 'identifiers 8 characters longer', NON_BREAKING.opaque, ['ver.non-breaking.7'], { kind: 'ids', action: 'longer' }, { envMap: 'ids' });
  every('reformat-id', 'identifiers in upper case', NON_BREAKING.opaque, ['ver.non-breaking.7'], { kind: 'ids', action: 'upper' }, { envMap: 'ids' });
  every('add-header', 'every answer carries one more header', NON_BREAKING.header, ['ver.non-breaking.4'], {
    kind: 'header',
    set: { name: 'x-svc-mutant-added', value: '1' },
  });
  every('omit-null', 'null fields left out where presence is not stated', NON_BREAKING.omitNull, [], {
    kind: 'objects',
    action: 'omit-null',
    keep: keepStated(g.b),
  });
  every('latency', 'every answer 120 ms later', NON_BREAKING.latency, [], { kind: 'latency', ms: 120 }, { section: 'Limits' });
  const jobs = [
    ...new Set(
      g.docs.ops
        .filter((d) => d.api === 'platform' && /\/(aggregate|extend_history|identify|verify|resume)$/.test(d.op.path))
        .map((d) => opRef(d.api, d.op.key)),
    ),
  ];
  every('latency', 'job requests answered 3 s later', NON_BREAKING.latency, [], { kind: 'latency', ms: 3000, ops: jobs }, { section: 'Limits', ops: jobs });
}

/** Fields whose presence is stated (the drop-field mutants): omit-null leaves them alone. */
function keepStated(b: Builder): Record<OpRef, string[][]> {
  const out: Record<OpRef, string[][]> = {};
  for (const m of b.mutants.values()) {
    if (m.family !== 'drop-field' || m.change.kind !== 'field' || m.change.action.op !== 'drop') continue;
    for (const s of m.change.sites) (out[s.op] ??= []).push([...s.path, ...m.change.field]);
  }
  return out;
}
