import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TraceRow } from '../spec/trace.ts';
import { provingScenarioTitles } from './selftest.ts';

const row = (id: string, verified_by: string[], proven_by: string[]): TraceRow => ({ id, section: 's', statement: 's', encoded_in: [], verified_by, proven_by });

test('a fault runs the scenarios every row it proves names, and only scenarios', () => {
  const titles = provingScenarioTitles([
    row('a', ['scenarios/api/x.spec.ts > first rule', 'delivery: member-events (webhook_payload_conformance)'], ['f1']),
    row('b', ['scenarios/api/y.spec.ts > outer > second rule'], ['f1', 'f2']),
    row('c', ['load: paging'], ['f3']),
    row('d', [], ['f4']),
  ]);
  assert.deepEqual(titles.get('f1')?.sort(), ['first rule', 'second rule']);
  assert.deepEqual(titles.get('f2'), ['second rule']);
  assert.equal(titles.has('f3'), false, 'a fault proven only by a side check keeps its whole suites');
  assert.equal(titles.has('f4'), false);
});

test('where a row says which of its checks show a fault (shown_by), the fault runs only those', () => {
  const titles = provingScenarioTitles([
    { ...row('a', ['scenarios/api/x.spec.ts > first rule', 'scenarios/api/x.spec.ts > second rule'], ['f1', 'f2']), shown_by: { f1: ['scenarios/api/x.spec.ts > second rule'] } },
  ]);
  assert.deepEqual(titles.get('f1'), ['second rule'], 'f1 runs only the scenario its shown_by names');
  assert.deepEqual(titles.get('f2')?.sort(), ['first rule', 'second rule'], 'f2 has no shown_by: every scenario of the row');
});
