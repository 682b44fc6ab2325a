import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogEntry } from '../../targets/simulator/catalog.ts';
import { buildMatrix, matrixPasses, renderMarkdown, rowOf, type RunOutcome } from './matrix.ts';
import { grepFor, kindOfTag, planEntry } from './plan.ts';

const fault: CatalogEntry = { name: 'f', kind: 'fault', area: 'auth', section: 'S', description: 'a fault for tests', suites: ['@auth', 'load:rate-limit'] };
const variation: CatalogEntry = { name: 'v', kind: 'variation', area: 'errors', section: 'S', description: 'a variation', suites: ['*'] };
const ok = (n = 3): RunOutcome => ({ kind: 'playwright', executed: n, failed: [], durationMs: 10 });
const bad = (...failed: string[]): RunOutcome => ({ kind: 'playwright', executed: 3, failed, durationMs: 10 });

test('a fault is caught when any run fails, survives when all pass, is an error when a run broke', () => {
  assert.equal(rowOf(fault, [ok(), bad('auth.spec.ts > rejects')]).verdict, 'CAUGHT');
  assert.deepEqual(rowOf(fault, [ok(), bad('x')]).failed, ['x']);
  assert.equal(rowOf(fault, [ok(), ok()]).verdict, 'SURVIVED');
  assert.equal(rowOf(fault, [{ ...ok(0), error: 'crashed' }]).verdict, 'ERROR');
});

test('a variation passes when nothing fails and alarms otherwise', () => {
  assert.equal(rowOf(variation, [ok()]).verdict, 'PASSED');
  assert.equal(rowOf(variation, [bad('schema check')]).verdict, 'ALARMED');
});

test('totals, rates and the gate', () => {
  const rows = [rowOf(fault, [bad('a')]), rowOf({ ...fault, name: 'g' }, [ok()]), rowOf(variation, [ok()])];
  const m = buildMatrix(rows, 1234, 2);
  assert.equal(m.totals.detectionRate, 0.5);
  assert.equal(m.totals.survived, 1);
  assert.equal(matrixPasses(m), false);
  assert.match(renderMarkdown(m), /\| g \| auth \| SURVIVED \|/);
  assert.equal(matrixPasses(buildMatrix([rows[0], rows[2]], 1, 2)), true);
});

test('planning groups tags per suite kind; * runs every kind', () => {
  const p = planEntry(fault);
  assert.deepEqual(p.runs.map((r) => [r.kind, r.selectors]), [['playwright', ['@auth']], ['load', ['rate-limit']]]);
  assert.deepEqual(planEntry(variation).runs.map((r) => r.kind).sort(), ['delivery', 'load', 'playwright', 'unit', 'upgrade']);
  assert.throws(() => planEntry({ ...fault, suites: ['nonsense'] }), /unknown suite tag/);
  assert.equal(kindOfTag('properties'), 'playwright');
});

test('the grep pattern matches a tag, not a longer tag that starts with it', () => {
  const re = new RegExp(grepFor(['@members']));
  assert.ok(re.test('creates a member @members'));
  assert.ok(!re.test('answers MFA @members-mfa'));
});
