/**
 * The nightly reads contract findings by tier (DESIGN.md, "Checks and failures": three
 * tiers, each shown apart): inferred apart from informational, and both apart from failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINDINGS_ATTACHMENT, findingsBody, type FindingRecord } from './findings.ts';
import { readConformance } from './conformance.ts';
import { renderSummaryMarkdown } from './summary.ts';

/** A Playwright JSON report of one test whose last attempt attached `findings` (the JSON report holds bodies in base64). */
function report(findings: FindingRecord[], status = 'expected') {
  const attachment = { ...FINDINGS_ATTACHMENT, body: Buffer.from(findingsBody(findings)).toString('base64') };
  return {
    stats: { duration: 10 },
    suites: [
      {
        title: 'members.spec.ts',
        specs: [
          {
            title: 'creates a member',
            file: 'api/members.spec.ts',
            tests: [
              {
                projectName: 'api',
                status,
                results: [
                  // An earlier attempt's findings do not count.
                  {
                    status: 'failed',
                    errors: [],
                    attachments: [
                      {
                        ...FINDINGS_ATTACHMENT,
                        body: Buffer.from(findingsBody([{ tier: 'stated', occurrences: 1, note: 'first attempt' }])).toString('base64'),
                      },
                    ],
                  },
                  {
                    status: status === 'expected' ? 'passed' : 'failed',
                    errors: [],
                    attachments: [attachment, { name: 'trace', contentType: 'application/zip', path: '/x' }],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

test('inferred findings are counted apart from informational ones, and the test still passes', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conf-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'r.json');
  writeFileSync(
    file,
    JSON.stringify(
      report([
        { tier: 'inferred', occurrences: 1, note: 'an unknown member guid answers 404 / Received: 400' },
        {
          tier: 'informational',
          occurrences: 1,
          failure: {
            check: 'response_schema_conformance',
            operation: 'GET /users',
            location: 'response.body.users[0].name',
            rule: 'type',
            severity: 'warning',
            message: 'Received: null',
          },
        },
        { tier: 'inferred', occurrences: 1, note: 'an unknown member guid answers 404 / Received: 400' },
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
    /\*\*response_schema_conformance\*\* \(1\)\n {2}- GET \/users at response\.body\.users\[0\]\.name: Received: null \(rule: type\) — _in \[api\] api\/members\.spec\.ts › creates a member_/,
  );
  assert.doesNotMatch(md, /first attempt/);
});

test('a findings attachment of another shape is refused, naming the field', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conf-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'r.json');
  writeFileSync(file, JSON.stringify(report([{ tier: 'severe', occurrences: 1, note: 'x' } as unknown as FindingRecord])));
  assert.throws(() => readConformance(file), /contract findings: findings\[0\]\.tier must be one of stated, inferred, informational, got "severe"/);
});
