/**
 * The nightly reads contract findings by tier (DESIGN.md, "Checks and failures": three
 * tiers, each shown apart): inferred apart from informational, and both apart from failures.
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
    suites: [
      {
        title: 'members.spec.ts',
        specs: [
          {
            title: 'creates a member',
            file: 'api/members.spec.ts',
            tests: [{ projectName: 'api', status, annotations, results: [{ status: status === 'expected' ? 'passed' : 'failed', errors: [] }] }],
          },
        ],
      },
    ],
  };
}

test('inferred annotations are counted apart from informational ones, and the test still passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conf-'));
  const file = join(dir, 'r.json');
  writeFileSync(
    file,
    JSON.stringify(
      report([
        { type: 'inferred', description: '[inferred] an unknown member guid answers 404 / Received: 400' },
        { type: 'informational', description: '[warning] response_schema_conformance GET /users at response.body.users[0].name: Received: null' },
        { type: 'inferred', description: '[inferred] an unknown member guid answers 404 / Received: 400' },
        // Not a tier annotation (an old name, or a scenario note): not a finding.
        { type: 'contract warning', description: '[warning] version_conformance GET /x at y: z' },
      ]),
    ),
  );
  const r = readConformance(file)!;
  assert.equal(r.passed, 1);
  assert.equal(r.failed, 0);
  assert.equal(r.findings.inferred.findings, 1, 'duplicates are listed once');
  assert.equal(r.findings.informational.findings, 1);
  assert.equal(r.findings.stated.findings, 0);
  const md = renderSummaryMarkdown({
    at: '2026-11-22T00:00:00Z',
    wallTimeMs: 1,
    gate: 'pass',
    reasons: [],
    conformance: r,
    load: [],
    loadErrors: [],
    trends: [],
    reportPath: 'x',
  });
  assert.match(md, /\| inferred findings \| 1 in 1 test/);
  assert.match(md, /## Inferred findings: 1 /);
  assert.match(md, /\| informational findings \| 1 in 1 test/);
  assert.match(
    md,
    /\*\*response_schema_conformance\*\* \(1\)\n {2}- GET \/users at response\.body\.users\[0\]\.name: Received: null — _in \[api\] api\/members\.spec\.ts › creates a member_/,
  );
  assert.doesNotMatch(md, /contract warning|version_conformance/);
});
