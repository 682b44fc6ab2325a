/**
 * Presence families: `drop-field` (a field whose presence a sentence states left out of
 * every answer), and for a field a list only names, `never-served` (tolerated: a service
 * that never serves it removes nothing it served) with `drop-field-on-path` (killed: one
 * operation stops serving what the others serve; presence consistency).
 */
import { PARTNER_RULES, STATED_PLATFORM_RULES, INVARIANT_RULES } from '../../../contracts/index.ts';
import { componentSchema, key } from '../documents.ts';
import type { ComponentRecords, FieldSubject, Generation } from '../generation.ts';
import { type Change, opRef, parseOpRef, type Site } from '../model.ts';
import { NON_BREAKING, onPathOp, presenceExcluded, presenceSentence, RULE_TABLE_RESOURCES, VERSIONING_FIELD } from '../statements.ts';

type FieldAction = Extract<Change, { kind: 'field' }>['action'];

/**
 * What the documents and sentences state of a field's presence: `stated` (a `required`
 * entry, a condition that states it, an included list, or a sentence), `named` (a list only
 * names it), or undefined where no presence mutant applies (slim records, a version that
 * does not state it, a name the specification does not show: an envelope key or a field name
 * the document infers, unless a row names that very field).
 */
function presenceOf(
  g: Generation,
  c: ComponentRecords,
  s: FieldSubject,
): { kind: 'stated'; sentence?: string; action: FieldAction; dropSites: Site[] } | { kind: 'named'; action: FieldAction; dropSites: Site[] } | undefined {
  const { api, version, component } = c;
  const f = s.stated;
  const path = f.path;
  const ownInferred = typeof f.info?.schema['x-svc-inferred'] === 'string' ? (f.info.schema['x-svc-inferred'] as string) : '';
  const rootInferred = typeof componentSchema(g.contract, api, version, component)?.['x-svc-inferred'] === 'string';
  const nameInferred = /field name is not shown|neither the field name/.test(ownInferred) || (rootInferred && !f.specific);
  if (component.startsWith('Slim') || nameInferred || presenceExcluded(component, key(path), version)) return undefined;
  const action = s.included ? { op: 'drop-matching' as const, pattern: `^${key(path).replace(/s$/, '')}s?$` } : { op: 'drop' as const };
  const dropSites = g.notSlim(s.included ? [...s.recordSites, ...[...new Set(s.recordSites.map((x) => x.op))].map((op) => ({ op, path: [] }))] : s.recordSites);
  // Presence stated: a `required` entry (the documents require only what a sentence makes
  // present), a condition that states it (CONDITIONAL, includes), or a sentence.
  const sentence = f.fromRequired || s.when || s.included ? undefined : presenceSentence(component, key(path));
  if (f.fromRequired || s.when || s.included || sentence) return { kind: 'stated', sentence, action, dropSites };
  return { kind: 'named', action, dropSites };
}

/** drop-field: every field whose presence is stated, in the schemas, the rule tables and the partner areas. */
export function dropFieldMutants(g: Generation): void {
  const { b } = g;
  for (const c of g.components) {
    for (const s of c.fields) {
      const presence = presenceOf(g, c, s);
      if (presence?.kind !== 'stated') continue;
      const { sentence, action, dropSites } = presence;
      b.add(
        {
          id: `drop-field:${s.subject}`,
          family: 'drop-field',
          expect: 'killed',
          statement: `${sentence ? `${sentence}; ` : ''}${s.statement}; ${VERSIONING_FIELD}`,
          section: sentence ? 'Resources and their fields' : s.section,
          rows: s.rowIds,
          change: { kind: 'field', sites: [], field: s.field, action, ...(s.when ? { when: s.when } : {}) },
        },
        c.version,
        dropSites,
      );
    }
  }
  ruleTableFields(g);
  credentialGuid(g);
  partnerFields(g);
}

/** Product-area resources whose paths are not shown (goals, budgets): the fields the rule table states. */
function ruleTableFields(g: Generation): void {
  for (const res of RULE_TABLE_RESOURCES) {
    for (const d of g.docs.ops.filter((x) => x.api === 'platform' && res.path.test(x.op.path) && ['GET', 'POST', 'PUT'].includes(x.op.method))) {
      const sites: Site[] = [
        { op: opRef('platform', d.op.key), path: [res.singular] },
        { op: opRef('platform', d.op.key), path: [res.plural, '*'] },
      ];
      for (const f of res.fields) {
        g.b.add(
          {
            id: `drop-field:${res.name}.${f}`,
            family: 'drop-field',
            expect: 'killed',
            statement: `${res.rule}; ${VERSIONING_FIELD}`,
            section: res.section,
            rows: g.rowsOf('wsd.budgets-goals').map((r) => r.id),
            change: { kind: 'field', sites: [], field: [f], action: { op: 'drop' } },
          },
          d.version,
          sites,
        );
      }
    }
  }
}

/** contracts/stated-platform.ts: a credential (institution or member) carries a guid ("Other resources also have a guid"). */
function credentialGuid(g: Generation): void {
  for (const d of g.docs.sites.filter((x) => x.component === 'Credential')) {
    g.b.add(
      {
        id: 'drop-field:Credential.guid',
        family: 'drop-field',
        expect: 'killed',
        statement: `${STATED_PLATFORM_RULES.credentialGuid}; ${VERSIONING_FIELD}`,
        section: 'Resources and their fields',
        rows: g.rowsOf('res.other-guid').map((r) => r.id),
        change: { kind: 'field', sites: [], field: ['guid'], action: { op: 'drop' } },
      },
      d.version,
      [{ op: opRef(d.api, d.op.key), path: [...d.path] }],
    );
  }
}

/** Partner areas the rule tables state (contracts/stated-partners.ts): fields at the top level or one wrapper down, and the authorization code. */
function partnerFields(g: Generation): void {
  const partner = (opKey: string, fields: string[], rule: string, section: string, rowIds: string[]) => {
    for (const d of g.docs.ops.filter((x) => x.api === 'platform' && x.op.key === opKey)) {
      for (const f of fields) {
        g.b.add(
          {
            id: `drop-field:${opKey.replace(/^\w+ /, '')}.${f}`,
            family: 'drop-field',
            expect: 'killed',
            statement: rule,
            section,
            rows: rowIds,
            change: { kind: 'field', sites: [], field: [f], action: { op: 'drop' } },
          },
          d.version,
          [{ op: opRef('platform', d.op.key), path: ['?'] }],
        );
      }
    }
  };
  partner(
    'GET /payment_account',
    ['user_guid', 'member_guid', 'account_guid'],
    PARTNER_RULES.paymentAccount,
    'Endpoints',
    g.rowsOf('ep.other.payment-account').map((r) => r.id),
  );
  partner(
    'POST /ach_returns',
    ['guid'],
    PARTNER_RULES.achReturn,
    'Resources and their fields',
    g.rowsOf('res.ach.response').map((r) => r.id),
  );
  for (const d of g.docs.ops.filter((x) => x.api === 'platform' && x.op.key === 'POST /authorization_code')) {
    g.b.add(
      {
        id: 'drop-field:/authorization_code.(the code)',
        family: 'drop-field',
        expect: 'killed',
        statement: PARTNER_RULES.authorizationCode,
        section: 'Endpoints',
        rows: g.rowsOf('ep.authcode.response').map((r) => r.id),
        ops: [opRef('platform', d.op.key)],
        change: { kind: 'body', ops: [opRef('platform', d.op.key)], body: {} },
      },
      d.version,
    );
  }
}

/**
 * never-served and drop-field-on-path: a field a list only names. A service that never
 * serves it is tolerated (never-served: every answer, every record); one that serves it on
 * some operations and not on another is killed (drop-field-on-path: presence consistency
 * sees a record served with the field on one answer and without it on another, Versioning:
 * "removing or renaming a response field" is breaking).
 */
export function namedOnlyMutants(g: Generation): void {
  const documented = new Set(g.docs.sites.map((x) => `${opRef(x.api, x.op.key)}|${key(x.path)}`));
  const namedOnly = (
    subject: string,
    component: string,
    statement: string,
    section: string,
    rowIds: string[],
    field: string[],
    action: FieldAction,
    version: string | undefined,
    dropSites: Site[],
  ) => {
    // Presence consistency reads records where the document puts them (contracts/records.ts):
    // the one-operation drop and what keeps serving the field are taken there only, never at the
    // placements of included data the generator also tries (a singular `merchant`, a list
    // beside the transactions), which the comparison does not read.
    const onDocumented = dropSites.filter((x) => documented.has(`${x.op}|${key(x.path)}`));
    g.b.add(
      {
        id: `never-served:${subject}`,
        family: 'never-served',
        expect: 'tolerated',
        statement: `${statement}: ${NON_BREAKING.neverServed}`,
        section,
        rows: rowIds,
        change: { kind: 'field', sites: [], field, action },
      },
      version,
      dropSites,
    );
    const op = onPathOp(
      component,
      onDocumented.map((x) => x.op),
    );
    if (!op) return;
    g.b.add(
      {
        id: `drop-field-on-path:${subject}`,
        family: 'drop-field-on-path',
        expect: 'killed',
        statement: `${statement}; the field left out on ${parseOpRef(op).key} while the other operations that answer the same record serve it: ${INVARIANT_RULES.presence}`,
        section,
        rows: [...rowIds, ...['ver.breaking.5'].filter((id) => g.rowById.has(id) && !rowIds.includes(id))],
        change: { kind: 'field', sites: [], field, action, witnesses: onDocumented.filter((x) => x.op !== op) },
      },
      version,
      onDocumented.filter((x) => x.op === op),
    );
  };
  for (const c of g.components) {
    for (const s of c.fields) {
      const presence = presenceOf(g, c, s);
      if (presence?.kind === 'named')
        namedOnly(s.subject, c.component, s.statement, s.section, s.rowIds, s.field, presence.action, c.version, presence.dropSites);
    }
    // Pattern fields of a component (Account: `_set_by$`, and the feed_* variants of the rule table).
    if (c.component === 'Account' && !(c.version && c.version >= 'v20250224')) {
      const variantRows = g.rowsOf('res.account.set-by-feed');
      for (const [name, pattern] of [
        ['*_set_by', '_set_by$'],
        ['feed_*', '^feed_'],
      ] as const) {
        // "plus *_set_by and feed_* variants" names them, like the rest of the field list.
        namedOnly(
          `Account.${name}`,
          c.component,
          STATED_PLATFORM_RULES.accountVariants,
          'Resources and their fields',
          variantRows.map((r) => r.id),
          [],
          { op: 'drop-matching', pattern },
          c.version,
          g.notSlim(c.sites),
        );
      }
    }
  }
}
