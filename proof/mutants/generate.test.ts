/**
 * The generator's own rules: every mutant carries its statement and section, names trace
 * rows that exist, and every family is generated; the presence the mutants break is the
 * presence the contract judges (contracts/stated-fields.ts, the schemas' required lists,
 * contracts/stated-platform.ts), so a generated field and a judged field never drift apart.
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

test('a field whose absence is a mutant is judged present by the contract', () => {
  const contract = loadContract();
  // Fields contracts/stated-platform.ts judges (STATED_PLATFORM_RULES).
  const platform: Record<string, string[]> = {
    Account: ['balance'],
    Transaction: ['merchant_guid', 'merchant_location_guid'],
    Insight: ['has_associated_repeating_transactions', 'cta_clicked_at', 'micro_call_to_action'],
    Credential: ['guid'],
  };
  const unjudged: string[] = [];
  for (const m of mutants.filter((x) => x.family === 'drop-field')) {
    const hit = /^drop-field:([A-Z]\w+)\.(\w+)$/.exec(m.id);
    if (!hit) continue;
    const [, component, field] = hit;
    const stated = (STATED_FIELDS[component] ?? []).some((r) => r.fields.includes(field)) || (platform[component] ?? []).includes(field);
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
        'Insight.guid',
        'Merchant.name',
        'Merchant.logo_url',
        'Merchant.website_url',
        'Geolocation.country',
        'Geolocation.city',
        'Geolocation.postal_code',
        'Goal.track_type_name',
        'Goal.meta_type_name',
        'Budget.category_guid',
        'Member.use_cases',
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
