/**
 * Value families: `retype` (a stated type answered as another JSON type), `new-enum-value`
 * (tolerated: a stated set gains a value), `date-format` (a stated date format changed),
 * `recase` (a stated set's value re-cased), `replace-value` (a value a statement fixes
 * replaced), `id-prefix` (an identifier shape changed).
 */
import { deref, fieldsOf, isObj, type Obj } from '../documents.ts';
import { type ComponentRecords, type FieldSubject, type Generation, quote, sectionOf } from '../generation.ts';
import { opRef } from '../model.ts';
import { NON_BREAKING, otherType, RECASE_EXCLUDED, VERSIONING_TYPE } from '../statements.ts';

/** The field's schema with its `$ref`s followed, and its stated types, where the field has a schema of its own. */
function schemaOf(g: Generation, c: ComponentRecords, s: FieldSubject): { node: Obj; component?: string; inferred: boolean; types: string[] } | undefined {
  const info = s.stated.info;
  if (!info || s.included) return undefined;
  const d = deref(g.contract, c.api, c.version, info.schema);
  if (!d) return undefined;
  const types = Array.isArray(d.node.type) ? (d.node.type as string[]) : typeof d.node.type === 'string' ? [d.node.type as string] : [];
  return { ...d, types };
}

/** retype: a stated type (no x-svc-inferred on the way). */
export function retypeMutants(g: Generation): void {
  for (const c of g.components) {
    for (const s of c.fields) {
      const d = schemaOf(g, c, s);
      if (!d?.types.length || s.stated.info!.inferred || d.inferred) continue;
      const value = otherType(d.types);
      if (value === undefined) continue;
      g.b.add(
        {
          id: `retype:${s.subject}`,
          family: 'retype',
          expect: 'killed',
          statement: `${s.statement} (type ${d.types.filter((t) => t !== 'null').join(' or ')}); ${VERSIONING_TYPE}`,
          section: s.section,
          rows: s.rowIds,
          change: { kind: 'field', sites: [], field: s.field, action: { op: 'set', value }, ...(s.when ? { when: s.when } : {}) },
        },
        c.version,
        s.recordSites,
      );
    }
  }
}

/** new-enum-value: a stated set gains a value (a field of the set, an array of it, the _set_by sources). */
export function newEnumValueMutants(g: Generation): void {
  const rows = ['ver.non-breaking.10'].filter((id) => g.rowById.has(id));
  for (const c of g.components) {
    for (const s of c.fields) {
      const d = schemaOf(g, c, s);
      if (!d) continue;
      const enumValues = Array.isArray(d.node.enum) ? (d.node.enum as unknown[]).filter((v): v is string => typeof v === 'string') : [];
      if (enumValues.length && d.component) {
        // A value the set gains where no statement fixes the value: a connection_status while the
        // member aggregates (States and transitions: "other transitions not shown"; the reference
        // has 23 values), any value elsewhere.
        const isState = d.component === 'ConnectionStatus';
        const values = isState
          ? { PENDING: 'MUTANT_SYNCING', CONNECTED: 'MUTANT_SYNCING' }
          : Object.fromEntries(enumValues.map((v) => [v, `MUTANT_NEW_${v.toUpperCase()}`]));
        g.b.add(
          {
            id: `new-enum-value:${s.subject}`,
            family: 'new-enum-value',
            expect: 'tolerated',
            statement: isState
              ? `${NON_BREAKING.enum}; States and transitions: "Transitions between member connection statuses other than those in the table: not shown" (a value while the member aggregates)`
              : NON_BREAKING.enum,
            section: 'Versioning',
            rows: [...rows],
            change: {
              kind: 'field',
              sites: [],
              field: s.field,
              action: { op: 'map', values },
              ...(isState ? { when: [{ field: 'is_being_aggregated', equals: true }] } : {}),
            },
          },
          c.version,
          s.recordSites,
        );
      }
      // Array of a stated set: a new value appended.
      if (d.types.includes('array') && isObj(d.node.items)) {
        const item = deref(g.contract, c.api, c.version, d.node.items);
        if (item && Array.isArray(item.node.enum)) {
          g.b.add(
            {
              id: `new-enum-value:${s.subject}`,
              family: 'new-enum-value',
              expect: 'tolerated',
              statement: NON_BREAKING.enum,
              section: 'Versioning',
              rows: [...rows],
              change: { kind: 'field', sites: [], field: s.field, action: { op: 'append-enum', value: 'mutant_new_value' } },
            },
            c.version,
            s.recordSites,
          );
        }
      }
    }
    if (c.component === 'Account') {
      g.b.add(
        {
          id: 'new-enum-value:Account.*_set_by',
          family: 'new-enum-value',
          expect: 'tolerated',
          statement: NON_BREAKING.enum,
          section: 'Versioning',
          rows: [...rows],
          change: { kind: 'field', sites: [], field: ['_set_by$'], action: { op: 'map', values: { USER: 'MUTANT_NEW_SOURCE', SYSTEM: 'MUTANT_NEW_SOURCE' } } },
        },
        c.version,
        c.sites,
      );
    }
  }
}

/** date-format: a stated date or date-time format answered as the other. */
export function dateFormatMutants(g: Generation): void {
  for (const c of g.components) {
    for (const s of c.fields) {
      const d = schemaOf(g, c, s);
      const format = typeof d?.node.format === 'string' ? d.node.format : undefined;
      if (!d || (format !== 'date' && format !== 'date-time') || d.inferred) continue;
      g.b.add(
        {
          id: `date-format:${s.subject}`,
          family: 'date-format',
          expect: 'killed',
          statement: `${s.statement} (format ${format})`,
          section: s.section,
          rows: s.rowIds,
          change: { kind: 'field', sites: [], field: s.field, action: { op: 'date', to: format === 'date' ? 'date-time' : 'date' } },
        },
        c.version,
        s.recordSites,
      );
    }
  }
}

/** recase: stated sets wherever a field takes one (stated or not, the field's value must be spelt as stated), and the _set_by sources. */
export function recaseMutants(g: Generation): void {
  for (const c of g.components) {
    for (const info of fieldsOf(g.contract, c.api, c.version, c.component)) {
      const d = deref(g.contract, c.api, c.version, info.schema);
      if (!d?.component || !Array.isArray(d.node.enum) || RECASE_EXCLUDED.has(d.component)) continue;
      const setRows = (g.pointers.get(d.component) ?? []).map((p) => p.row);
      if (!setRows.length) continue;
      const subject = `${c.component}.${info.path.join('.').replace(/\.\*/g, '[*]')}`;
      const recordSites = info.path.length > 1 ? c.sites.map((s) => ({ op: s.op, path: [...s.path, ...info.path.slice(0, -1)] })) : c.sites;
      g.b.add(
        {
          id: `recase:${subject}`,
          family: 'recase',
          expect: 'killed',
          statement: `${quote(setRows, d.component)}; a value differing from a stated one only by case is not a new value (a client comparing with the stated spelling no longer recognises it)`,
          section: sectionOf(setRows, 'Resources and their fields'),
          rows: setRows.map((r) => r.id),
          change: { kind: 'field', sites: [], field: [info.path[info.path.length - 1]], action: { op: 'recase' } },
        },
        c.version,
        recordSites,
      );
    }
    if (c.component === 'Account') {
      g.b.add(
        {
          id: 'recase:Account.*_set_by',
          family: 'recase',
          expect: 'killed',
          statement: `${
            g
              .rowsOf('res.set-by')
              .map((r) => r.statement)
              .join('; ') || 'A field ending in _set_by names the source: FEED, USER or SYSTEM'
          }; a value differing from a stated one only by case is not a new value`,
          section: 'Resources and their fields',
          rows: g.rowsOf('res.set-by').map((r) => r.id),
          change: { kind: 'field', sites: [], field: ['_set_by$'], action: { op: 'recase' } },
        },
        c.version,
        c.sites,
      );
    }
  }
}

/** replace-value: a value a statement fixes (the test host's member by status, connection_status after the test institution's scenarios, consts). */
export function replaceValueMutants(g: Generation): void {
  const { b, docs } = g;
  // Endpoints, earlier-generation test paths: GET|PUT /users/test_svc/members/{connection_status} "returns a member in that status".
  const byStatus = [
    ...new Set(
      docs.ops.filter((d) => d.api === 'test-host' && d.op.path.includes('{connection_status}') && d.op.method !== 'POST').map((d) => opRef(d.api, d.op.key)),
    ),
  ];
  const testRows = g.rowsOf('ep.test.connection-status');
  b.add(
    {
      id: 'replace-value:test host member by connection status',
      family: 'replace-value',
      expect: 'killed',
      statement: quote(testRows, 'GET|PUT /users/test_svc/members/{connection_status} (returns a member in that status)'),
      section: 'Endpoints',
      rows: testRows.map((r) => r.id),
      change: {
        kind: 'field',
        sites: [],
        field: ['connection_status'],
        action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'CONNECTED', CHALLENGED: 'CONNECTED', PENDING: 'CONNECTED' } },
      },
    },
    undefined,
    byStatus.map((op) => ({ op, path: ['?'] })),
  );
  // Stated sets whose value a statement fixes: connection_status after the test institution's scenarios, OAuth create.
  const stateRows = g.rowsOf('states.values', 'states.oauth-create', 'states.test-success', 'states.test-denied', 'states.test-halted');
  const memberSites = [...docs.sites.filter((s) => s.component === 'Member' || s.component === 'MemberStatus')];
  const rotation = { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED', PENDING: 'CONNECTED', CHALLENGED: 'CONNECTED' };
  for (const v of docs.versions) {
    b.add(
      {
        id: 'replace-value:Member.connection_status',
        family: 'replace-value',
        expect: 'killed',
        statement: quote(stateRows, 'States and transitions'),
        section: 'States and transitions',
        rows: stateRows.map((r) => r.id),
        change: { kind: 'field', sites: [], field: ['connection_status'], action: { op: 'map', values: rotation } },
      },
      v,
      g.toSites(memberSites.filter((s) => s.version === v)),
    );
  }
  // consts: categories[*].is_default true, slim transactions is_manual false.
  for (const c of docs.consts) {
    if (typeof c.value !== 'boolean' && typeof c.value !== 'string') continue;
    const field = c.path[c.path.length - 1];
    const subject = `${c.op.key} ${c.path.join('.').replace(/\.\*/g, '[*]')}`;
    const constRows = g.rows.filter((r) =>
      r.encoded_in.some((e) => new RegExp(`/${field}/const$`).test(e) || (field === 'is_default' && /Category\/properties\/is_default/.test(e))),
    );
    b.add(
      {
        id: `replace-value:${subject}`,
        family: 'replace-value',
        expect: 'killed',
        statement: quote(constRows, `the document states ${field} = ${JSON.stringify(c.value)}`),
        section: sectionOf(constRows, 'Limits'),
        rows: constRows.map((r) => r.id),
        change: { kind: 'field', sites: [], field: [field], action: { op: 'set', value: typeof c.value === 'boolean' ? !c.value : `${c.value}-mutant` } },
      },
      c.version,
      [{ op: opRef(c.api, c.op.key), path: [...c.path.slice(0, -1)] }],
    );
  }
}

/** id-prefix: the identifier shapes (Resources: "USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account"). */
export function idPrefixMutants(g: Generation): void {
  const idRows = g.rowsOf('res.id-shapes', 'res.member.guid');
  for (const [prefix, to] of [
    ['USR-', 'USER-'],
    ['MBR-', 'MEM-'],
    ['ACT-', 'ACC-'],
  ] as const) {
    g.b.add(
      {
        id: `id-prefix:${prefix}`,
        family: 'id-prefix',
        expect: 'killed',
        statement: quote(idRows, 'Identifier shapes: USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account'),
        section: 'Resources and their fields',
        rows: idRows.map((r) => r.id),
        ops: [],
        change: { kind: 'ids', action: 'prefix', prefix, to },
      },
      undefined,
    );
  }
}
