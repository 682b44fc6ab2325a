import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TraceRow } from '../spec/trace.ts';
import { namedChecks } from './plan.ts';

const row = (id: string, verified_by: string[], proven_by: string[]): TraceRow => ({
  id,
  section: 's',
  statement: 's',
  encoded_in: [],
  verified_by,
  proven_by,
});

test('a fault runs the checks every row it proves names, by kind', () => {
  const rows = [
    row('a', ['scenarios/api/x.spec.ts > first rule', 'delivery: member-events (webhook_payload_conformance)'], ['f1']),
    row('b', ['scenarios/api/y.spec.ts > outer > second rule'], ['f1', 'f2']),
    row('c', ['load: paging'], ['f3']),
    row('d', [], ['f4']),
  ];
  assert.deepEqual(namedChecks('f1', rows), { titles: ['first rule', 'second rule'], delivery: ['member-events'], load: [], upgrade: false });
  assert.deepEqual(namedChecks('f2', rows).titles, ['second rule']);
  assert.deepEqual(
    namedChecks('f3', rows),
    { titles: [], delivery: [], load: ['paging'], upgrade: false },
    'a fault proven only by a side check runs only that side check',
  );
  assert.deepEqual(namedChecks('f4', rows), { titles: [], delivery: [], load: [], upgrade: false });
});

test('where a row says which of its checks show a fault (shown_by), the fault runs only those', () => {
  const rows = [
    {
      ...row('a', ['scenarios/api/x.spec.ts > first rule', 'scenarios/api/x.spec.ts > second rule'], ['f1', 'f2']),
      shown_by: { f1: ['scenarios/api/x.spec.ts > second rule'] },
    },
  ];
  assert.deepEqual(namedChecks('f1', rows).titles, ['second rule'], 'f1 runs only the scenario its shown_by names');
  assert.deepEqual(namedChecks('f2', rows).titles, ['first rule', 'second rule'], 'f2 has no shown_by: every scenario of the row');
  assert.deepEqual(namedChecks('f1', rows, { everyCheck: true }).titles, ['first rule', 'second rule'], '--full-suites: every check of the row');
});
