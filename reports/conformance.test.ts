/**
 * The nightly reads inferred deviations apart from informational warnings and from
 * failures (DESIGN.md, "Checks and failures": three tiers, each shown apart).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConformance } from './conformance.ts';
import { renderSummaryMarkdown } from './summary.ts';

function report(annotations: { type: string; description: string }[], status = 'expected') {
  return {
    stats: { duration: 10 },
    suites: [{ title: 'members.spec.ts', specs: [{ title: 'creates a member', file: 'api/members.spec.ts', tests: [{ projectName: 'api', status, annotations, results: [{ status: status === 'expected' ? 'passed' : 'failed', errors: [] }] }] }] }],
  };
}

test('inferred annotations are counted apart from informational warnings, and the test still passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conf-'));
  const file = join(dir, 'r.json');
  writeFileSync(file, JSON.stringify(report([
    { type: 'inferred', description: '[inferred] an unknown member guid answers 404 / Received: 400' },
    { type: 'contract warning', description: '[warning] response_schema_conformance ... null' },
    { type: 'inferred', description: '[inferred] an unknown member guid answers 404 / Received: 400' },
  ])));
  const r = readConformance(file)!;
  assert.equal(r.passed, 1);
  assert.equal(r.failed, 0);
  assert.equal(r.inferred.length, 1, 'duplicates are listed once');
  assert.equal(r.warnings.length, 1);
  const md = renderSummaryMarkdown({ at: '2026-11-22T00:00:00Z', wallTimeMs: 1, gate: 'pass', reasons: [], conformance: r, load: [], loadErrors: [], trends: [], reportPath: 'x' });
  assert.match(md, /\| inferred deviations \| 1 /);
  assert.match(md, /## Inferred deviations/);
  assert.match(md, /\| informational warnings \| 1 /);
});
