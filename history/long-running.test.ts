/**
 * The rows the nightly verifies across nights (spec/verifiability.ts OBSERVED_ACROSS_NIGHTS,
 * counted in spec:stats' long-running column) are the rows its rules name: every keeper rule's
 * rows and every breaking drift kind's rows are in the table, and every row of the table is a
 * long-running row one of them names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONG_RUNNING, OBSERVED_ACROSS_NIGHTS } from '../spec/verifiability.ts';
import { DRIFT_RULES, type DriftKind } from './drift.ts';
import { LONG_RUNNING_RULES } from './keepers.ts';

/** The Versioning rows each breaking drift kind verifies (its rule quotes their sentences). */
const DRIFT_ROWS: Partial<Record<DriftKind, string[]>> = {
  'refused-now': ['ver.breaking.1', 'ver.breaking.4', 'ver.breaking.8'],
  'removed-enum-value': ['ver.breaking.6'],
  'changed-type': ['ver.breaking.7'],
};

test('every row a keeper rule or a breaking drift kind names is in the table, and the table names no other row', () => {
  const named = new Set([...Object.values(LONG_RUNNING_RULES).flatMap((r) => r.rows), ...Object.values(DRIFT_ROWS).flat()]);
  assert.deepEqual([...named].sort(), Object.keys(OBSERVED_ACROSS_NIGHTS).sort());
  for (const id of named) assert.ok(id in LONG_RUNNING, `${id} is a long-running row (spec/verifiability.ts)`);
  for (const kind of Object.keys(DRIFT_ROWS) as DriftKind[]) assert.equal(DRIFT_RULES[kind].cls, 'breaking');
});

test('every rule that can fail a night quotes the sentence it enforces', () => {
  for (const r of Object.values(LONG_RUNNING_RULES)) assert.match(r.rule, /^(What the service does|Events rule \d): "/);
  for (const [kind, r] of Object.entries(DRIFT_RULES))
    if (r.cls === 'breaking') assert.match(r.rule, /^Versioning: "Breaking \(require a new version\): /, kind);
});
