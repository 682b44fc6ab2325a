/**
 * The generator's own rules: every mutant carries its statement and section, names trace
 * rows that exist, and every family is generated; the presence a drop-field mutant breaks is
 * presence a sentence states (contracts/stated-fields.ts tier `stated`, the schemas' required
 * lists, contracts/stated-platform.ts), and a field a list only names is tolerated when never
 * served and killed when one operation stops serving it (presence consistency).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, STATED_FIELDS } from '../../contracts/index.ts';
import { loadTrace } from '../../spec/trace.ts';
import { generateMutants, sampleMutants } from './generate.ts';
import { STATED_FAMILIES, TOLERATED_FAMILIES } from './model.ts';

const { mutants, exclusions } = generateMutants();

test('every mutant has a unique id, a statement, a section and existing trace rows; every family is generated', () => {
  const ids = mutants.map((m) => m.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  const rows = new Set(loadTrace().map((r) => r.id));
  for (const m of mutants) {
    assert.ok(m.statement.length > 10, `${m.id}: statement`);
    assert.ok(m.section, `${m.id}: section`);
    assert.deepEqual(
      m.rows.filter((r) => !rows.has(r)),
      [],
      `${m.id}: rows of spec/trace.yaml`,
    );
    assert.equal(m.expect === 'killed', (STATED_FAMILIES as readonly string[]).includes(m.family), `${m.id}: expectation follows the family`);
  }
  for (const f of [...STATED_FAMILIES, ...TOLERATED_FAMILIES])
    assert.ok(
      mutants.some((m) => m.family === f),
      `family ${f} is generated`,
    );
  assert.ok(
    exclusions.every((e) => e.reason.length > 20),
    'every exclusion says why',
  );
});

test('a drop-field mutant leaves out a field whose presence a sentence states, and the contract judges that presence', () => {
  const contract = loadContract();
  // Presence contracts/stated-platform.ts and stated-partners.ts judge as stated (STATED_PLATFORM_RULES, PARTNER_RULES).
  const platform: Record<string, string[]> = {
    Transaction: ['merchant_guid', 'merchant_location_guid'],
    Credential: ['guid'],
  };
  const unjudged: string[] = [];
  for (const m of mutants.filter((x) => x.family === 'drop-field')) {
    const hit = /^drop-field:([A-Z]\w+)\.(\w+)$/.exec(m.id);
    if (!hit) continue;
    const [, component, field] = hit;
    const stated = (STATED_FIELDS[component] ?? []).some((r) => r.tier === 'stated' && r.fields.includes(field)) || (platform[component] ?? []).includes(field);
    const required = contract.versions.some((v) => {
      const s = (contract.document('platform', v) as unknown as { components: { schemas: Record<string, { required?: string[] }> } }).components.schemas[
        component
      ];
      return s?.required?.includes(field);
    });
    const audience = component === 'AudienceList';
    if (
      !stated &&
      !required &&
      !audience &&
      ![
        // "Other resources also have a guid": a scenario reading the record by it fails without one.
        'Member.guid',
        'Account.guid',
        'Transaction.guid',
        'Institution.guid',
        'Insight.guid',
        // "119 in total, each with is_default = true": the default-category scenarios.
        'Category.is_default',
        // "Clients are advised to set their own id ... to sync with their systems"; "cta_clicked_at
        // (settable on update)": the read-back scenarios.
        'Member.id',
        'Insight.cta_clicked_at',
        // Conditions that state presence, judged by the contract's rule tables.
        'Goal.track_type_name',
        'Goal.meta_type_name',
        'Budget.category_guid',
        'Transaction.merchants',
        'Transaction.geolocations',
        'Transaction.classifications',
        'Transaction.repeating_transactions',
        'Insight.localization_payload',
      ].includes(`${component}.${field}`)
    )
      unjudged.push(m.id);
  }
  assert.deepEqual(unjudged, []);
});

test('a field a list only names: never served is tolerated, left out on one operation while another serves it is killed', () => {
  const byId = new Map(mutants.map((m) => [m.id, m]));
  // Every field a contract rule holds only as inferred (a list names it) has no stated whole-service drop.
  for (const [component, rules] of Object.entries(STATED_FIELDS))
    for (const r of rules.filter((x) => x.tier === 'inferred'))
      for (const f of r.fields) {
        // A sentence states these beyond the list (statements.ts PRESENCE_SENTENCES).
        if (f === 'guid' || ['Category.is_default', 'Member.id', 'Insight.cta_clicked_at'].includes(`${component}.${f}`)) continue;
        assert.equal(byId.get(`drop-field:${component}.${f}`), undefined, `${component}.${f} is only named: dropping it everywhere is not a stated mutant`);
      }
  for (const subject of ['Member.name', 'Member.connection_status', 'Account.balance', 'Institution.code', 'Transaction.category_guid']) {
    const never = byId.get(`never-served:${subject}`);
    const onPath = byId.get(`drop-field-on-path:${subject}`);
    assert.ok(never && onPath, subject);
    assert.equal(never.expect, 'tolerated', `${subject}: a service that never serves it breaks no sentence`);
    assert.equal(onPath.expect, 'killed', `${subject}: served on one operation, missing on another`);
    assert.ok(never.change.kind === 'field' && onPath.change.kind === 'field');
    assert.deepEqual(never.change.action, { op: 'drop' });
    assert.equal(never.change.witnesses, undefined, 'the whole-service drop has nothing that keeps serving the field');
    // On-path: one operation drops, every other operation of the whole-service drop keeps serving (the witnesses).
    const dropOps = [...new Set(onPath.change.sites.map((x) => x.op))];
    assert.equal(dropOps.length, 1, `${subject}: one operation`);
    const witnessOps = new Set((onPath.change.witnesses ?? []).map((x) => x.op));
    assert.ok(!witnessOps.has(dropOps[0]), `${subject}: the dropping operation is no witness`);
    assert.deepEqual(
      [...new Set(never.change.sites.map((x) => x.op))].sort(),
      [...new Set([...dropOps, ...witnessOps])].sort(),
      `${subject}: the same operations as the whole-service drop`,
    );
    assert.ok(onPath.rows.includes('ver.breaking.5'), `${subject}: "removing or renaming a response field" is breaking`);
  }
  assert.equal(
    byId.get('drop-field-on-path:Member.name')?.ops[0],
    'platform:GET /users/{user_guid}/members/{member_guid}',
    'members: the create answer serves a field before the member read',
  );
  // Presence a sentence states stays a stated whole-service drop.
  for (const id of [
    'drop-field:Credential.type',
    'drop-field:MemberStatus.connection_status',
    'drop-field:Member.guid',
    'drop-field:WidgetUrlResponse.widget_url.url',
  ])
    assert.equal(byId.get(id)?.expect, 'killed', id);
  // omit-null keeps the nulls of stated presence only: a named-only field's null may go too.
  const omit = mutants.find((m) => m.family === 'omit-null');
  assert.ok(omit?.change.kind === 'objects');
  const kept = Object.values(omit.change.keep ?? {})
    .flat()
    .map((p) => p.join('.'));
  assert.ok(kept.includes('member.connection_status'), 'the status read states connection_status');
  assert.ok(!kept.includes('member.name') && !kept.includes('members.*.name'), 'a member name is only named');
});

test('a seeded sample takes every family in turn and is the same for the same seed', () => {
  const a = sampleMutants(mutants, 30, 7);
  assert.equal(a.length, 30);
  assert.deepEqual(
    a.map((m) => m.id),
    sampleMutants(mutants, 30, 7).map((m) => m.id),
  );
  assert.notDeepEqual(
    a.map((m) => m.id),
    sampleMutants(mutants, 30, 8).map((m) => m.id),
  );
  const families = new Set(a.map((m) => m.family));
  assert.equal(families.size, STATED_FAMILIES.length + TOLERATED_FAMILIES.length, 'one of each family before a second of any');
});
