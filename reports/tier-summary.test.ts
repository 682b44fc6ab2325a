/**
 * Contract findings by tier, as every report shows them (DESIGN.md, "Checks and failures":
 * three tiers, each shown apart): one vocabulary (the annotation type is the tier), every
 * distinct finding listed in full on the console and in the run-level HTML summary, the
 * counts in the HTML report's title.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { failureText, TIER_ANNOTATION, type Failure } from '../contracts/index.ts';
import {
  FINDINGS_ATTACHMENT,
  findingsBody,
  findingsOf,
  readFindings,
  renderFindingsHtml,
  renderFindingsText,
  RunFindings,
  SCENARIO_CHECK,
  summariseFindings,
  type FindingRecord,
  type TestFindings,
} from './findings.ts';
import TierSummaryReporter from './tier-summary-reporter.ts';

const schemaFailure = (i: number, field: string): Failure => ({
  check: 'response_schema_conformance',
  operation: 'GET /institutions',
  location: `response.body.institutions[${i}].${field}`,
  rule: `type at versions/platform.v20260929.openapi.yaml#/components/schemas/Institution/properties/${field}; nullness is not stated, Versioning`,
  severity: 'warning',
  message: 'Received: null / Expected: type string',
});
const schema = (i: number, field: string, occurrences = 1): FindingRecord => ({ tier: 'informational', occurrences, failure: schemaFailure(i, field) });
const note = (tier: FindingRecord['tier'], words: string): FindingRecord => ({ tier, occurrences: 1, note: words });

test('the annotation types are the tier names', () => {
  assert.deepEqual(Object.values(TIER_ANNOTATION), ['stated', 'inferred', 'informational']);
  assert.deepEqual(Object.keys(TIER_ANNOTATION), ['stated', 'inferred', 'informational']);
});

test('findings travel as one typed attachment, read back as written, and an attachment of another shape is refused', () => {
  const records: FindingRecord[] = [schema(0, 'code', 8), note('inferred', 'an unknown member guid answers 404 / Received: 400 (basis: Errors)')];
  const attachment = { ...FINDINGS_ATTACHMENT, body: Buffer.from(findingsBody(records)) };
  assert.deepEqual(findingsOf([{ name: 'trace', contentType: 'application/zip' }, attachment]), records);
  assert.deepEqual(
    findingsOf([{ name: FINDINGS_ATTACHMENT.name, contentType: 'text/plain', body: Buffer.from('x') }]),
    [],
    'only the declared media type is read',
  );
  assert.throws(
    () => readFindings('{"findings":[{"tier":"contract failure","occurrences":1,"note":"x"}]}'),
    /findings\[0\]\.tier must be one of stated, inferred, informational, got "contract failure"/,
  );
  assert.throws(
    () => readFindings(JSON.stringify({ findings: [{ tier: 'stated', occurrences: 1, failure: { ...schemaFailure(0, 'code'), tier: 'severe' } }] })),
    /findings\[0\]\.failure\.tier must be a tier, got "severe"/,
  );
  assert.throws(
    () => readFindings('{"findings":[{"tier":"stated","occurrences":0,"note":"x"}]}'),
    /findings\[0\]\.occurrences must be a whole number >= 1, got 0/,
  );
  assert.throws(
    () => readFindings(JSON.stringify({ findings: [{ tier: 'stated', occurrences: 1, failure: { ...schemaFailure(0, 'code'), rule: 3 } }] })),
    /findings\[0\]\.failure\.rule must be a string, got 3/,
  );
  assert.throws(() => readFindings('{"tiers":[]}'), /no "findings" list/);
});

test('findings are grouped by tier and check, deduplicated across tests and indices, counted, and none is dropped', () => {
  const tests: TestFindings[] = [
    {
      title: '[api] a.spec.ts › one',
      id: 't1',
      findings: [
        schema(0, 'code', 3), // seen at three indices of the list, folded by the writer
        note('inferred', 'an unknown member guid answers 404 / Received: 400 (basis: Errors)'),
      ],
    },
    { title: '[api] b.spec.ts › two', id: 't2', findings: [schema(3, 'code')] },
    {
      title: '[api] c.spec.ts › three',
      id: 't3',
      findings: [
        {
          tier: 'stated',
          occurrences: 1,
          failure: {
            check: 'content_type_conformance',
            operation: 'GET /users',
            location: 'response.headers.content-type',
            rule: 'Endpoints: "Request and response bodies are JSON"',
            severity: 'error',
            message: 'Received: text/plain',
          },
        },
      ],
    },
    // 40 distinct long findings of one check in one test: every one is listed in full.
    { title: '[api] d.spec.ts › many', id: 't4', findings: Array.from({ length: 40 }, (_, i) => schema(0, `field_${i}`)) },
  ];
  const s = summariseFindings(tests);
  assert.deepEqual([s.stated.findings, s.inferred.findings, s.informational.findings], [1, 1, 41]);
  assert.deepEqual([s.stated.tests, s.inferred.tests, s.informational.tests], [1, 1, 3]);
  assert.equal(s.inferred.byCheck[0].check, SCENARIO_CHECK, "a scenario's own expectation has no check");
  const code = s.informational.byCheck[0].findings.find((f) => f.text.includes('.code'))!;
  assert.deepEqual(
    code.tests.map((t) => t.id),
    ['t1', 't2'],
  );
  assert.equal(code.occurrences, 4, 'once per test, plus the two other indices the writer folded');
  assert.match(code.text, /institutions\[\*\]\.code/, 'seen at several indices: shown index-free');

  const text = renderFindingsText(s, { strict: false, summaryFile: 'reports/out/html/tier-summary.html' });
  for (let i = 0; i < 40; i++) assert.ok(text.includes(failureText(schemaFailure(0, `field_${i}`))), `finding ${i} is listed in full`);
  assert.ok(failureText(schemaFailure(0, 'field_0')).length > 200, 'each finding is longer than 200 characters: listing it in full is what is tested');
  assert.match(text, /^ {2}stated {9}1 finding in 1 test - a sentence of the specification is broken; fails the run$/m);
  assert.match(text, /^ {2}inferred {7}1 finding in 1 test - reasonable but unstated; not gating unless SVC_STRICT=1$/m);
  assert.match(text, /^ {2}response_schema_conformance \(41\):$/m);
  assert.match(text, /^ {2}scenario expectations \(1\):$/m);
  assert.match(text, /in 2 tests, 4 occurrences: \[api\] a\.spec\.ts › one; \[api\] b\.spec\.ts › two$/m);
  assert.match(text, /reports\/out\/html\/tier-summary\.html/);
  assert.doesNotMatch(text, /contract failure|contract warning|\.\.\.$/m);
  assert.match(renderFindingsText(s, { strict: true }), /inferred {7}1 finding in 1 test - reasonable but unstated; fails the run under SVC_STRICT=1/);
});

test('the HTML summary lists every finding, escaped, linking each test and each tier filter of the HTML report', () => {
  const s = summariseFindings([
    {
      title: '[api] a.spec.ts › <b>one</b>',
      id: 'abc-1',
      findings: [
        {
          tier: 'inferred',
          occurrences: 1,
          failure: {
            check: 'status_code_conformance',
            operation: 'GET /users/{user_guid}',
            location: 'response.status',
            rule: 'Errors',
            severity: 'warning',
            tier: 'inferred',
            message: 'Received: 400 <html>',
          },
        },
      ],
    },
  ]);
  const html = renderFindingsHtml(s, { strict: false });
  assert.match(html, /<a href="index\.html#\?q=annot%3Ainferred">inferred<\/a>/);
  assert.match(html, /<a href="index\.html#\?testId=abc-1">\[api\] a\.spec\.ts › &lt;b&gt;one&lt;\/b&gt;<\/a>/);
  assert.match(html, /Received: 400 &lt;html&gt;/);
  assert.doesNotMatch(html, /<b>one|<script/);
});

function fakeTest(id: string, title: string): TestCase {
  return { id, annotations: [], titlePath: () => ['', 'api', 'scenarios/api/a.spec.ts', title] } as unknown as TestCase;
}
const result = (findings: FindingRecord[]) =>
  ({ annotations: [], attachments: [{ ...FINDINGS_ATTACHMENT, body: Buffer.from(findingsBody(findings)) }] }) as unknown as TestResult;
const failure = (check: string, message: string): Failure => ({ check, operation: 'GET /a', location: 'h', rule: 'r', severity: 'warning', message });

test('the reporter counts the last attempt only, prints every finding, titles the HTML report and writes the summary page', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tier-summary-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const before = process.env.PLAYWRIGHT_HTML_TITLE;
  delete process.env.PLAYWRIGHT_HTML_TITLE;
  let printed = '';
  try {
    const r = new TierSummaryReporter({
      findings: new RunFindings(),
      outputFile: join(dir, 'html', 'tier-summary.html'),
      write: (t) => {
        printed += t;
      },
    });
    r.onConfigure({ reporter: [['html', { title: 'Nightly' }]] } as unknown as FullConfig);
    const retried = fakeTest('t1', 'retried');
    r.onTestEnd(
      retried,
      result([{ tier: 'stated', occurrences: 1, failure: { ...failure('content_type_conformance', 'first attempt only'), severity: 'error' } }]),
    );
    r.onTestEnd(retried, result([{ tier: 'informational', occurrences: 1, failure: failure('version_conformance', 'last attempt') }]));
    r.onTestEnd(fakeTest('t2', 'inferred one'), result([note('inferred', 'an unknown id answers 404 / Received: 400 (basis: Errors)')]));
    r.onEnd({ status: 'passed' } as FullResult);
    assert.match(printed, /stated {9}0 findings/);
    assert.match(printed, /GET \/a at h: last attempt \(rule: r\)\n {8}in \[api\] scenarios\/api\/a\.spec\.ts › retried/);
    assert.doesNotMatch(printed, /first attempt only/);
    // The HTML reporter's own title first, then the counts (PLAYWRIGHT_HTML_TITLE, read when it builds).
    assert.equal(
      process.env.PLAYWRIGHT_HTML_TITLE,
      "Nightly — Contract findings: 0 stated · 1 inferred · 1 informational (filter annot:stated, annot:inferred, annot:informational; every finding: tier-summary.html in this report's folder)",
    );
    await r.onExit();
    const page = readFileSync(join(dir, 'html', 'tier-summary.html'), 'utf8');
    assert.match(page, /an unknown id answers 404/);
    assert.match(page, /href="index\.html#\?testId=t2"/);
  } finally {
    if (before === undefined) delete process.env.PLAYWRIGHT_HTML_TITLE;
    else process.env.PLAYWRIGHT_HTML_TITLE = before;
  }
});
