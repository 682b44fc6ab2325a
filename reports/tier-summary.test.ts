/**
 * Contract findings by tier, as every report shows them (DESIGN.md, "Checks and failures":
 * three tiers, each shown apart): one vocabulary (the annotation type is the tier), every
 * distinct finding listed in full on the console and in the run-level HTML summary, the
 * counts in the HTML report's title.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { TIER_ANNOTATION, tierOfAnnotation } from '../contracts/index.ts';
import { parseFinding, renderFindingsHtml, renderFindingsText, SCENARIO_CHECK, summariseFindings, type AnnotatedTest } from './findings.ts';
import TierSummaryReporter from './tier-summary-reporter.ts';

const schema = (i: number, field: string) =>
  `[warning] response_schema_conformance GET /institutions at response.body.institutions[${i}].${field}: Received: null / Expected: type string (rule: type at versions/platform.v20260929.openapi.yaml#/components/schemas/Institution/properties/${field}; nullness is not stated, Versioning)`;

test('the annotation types are the tier names, and only they are findings', () => {
  assert.deepEqual(Object.values(TIER_ANNOTATION), ['stated', 'inferred', 'informational']);
  for (const t of ['stated', 'inferred', 'informational'] as const) assert.equal(tierOfAnnotation(t), t);
  for (const other of ['contract failure', 'contract warning', 'warning', 'verified', 'fuzz run']) assert.equal(tierOfAnnotation(other), undefined);
});

test('a finding is parsed into its check and text; a scenario expectation has no check', () => {
  assert.deepEqual(parseFinding('[warning, inferred] status_code_conformance GET /x at response.status: Received: 400 (rule: r)'), {
    check: 'status_code_conformance',
    text: 'GET /x at response.status: Received: 400 (rule: r)',
    more: 0,
  });
  assert.deepEqual(parseFinding(`${schema(0, 'code')} (and 7 more like it at other indices in this test)`), {
    check: 'response_schema_conformance',
    text: schema(0, 'code').replace(/^\[warning\] response_schema_conformance /, ''),
    more: 7,
  });
  assert.deepEqual(parseFinding('[inferred] an unknown member guid answers 404 / Received: 400 (basis: Errors)'), {
    check: SCENARIO_CHECK,
    text: 'an unknown member guid answers 404 / Received: 400 (basis: Errors)',
    more: 0,
  });
});

test('findings are grouped by tier and check, deduplicated across tests and indices, counted, and none is dropped', () => {
  const tests: AnnotatedTest[] = [
    {
      title: '[api] a.spec.ts › one',
      id: 't1',
      annotations: [
        { type: 'informational', description: `${schema(0, 'code')} (and 2 more like it at other indices in this test)` },
        { type: 'informational', description: schema(0, 'code') }, // the same finding again in the same test
        { type: 'inferred', description: '[inferred] an unknown member guid answers 404 / Received: 400 (basis: Errors)' },
        { type: 'fuzz seed', description: '42' },
      ],
    },
    { title: '[api] b.spec.ts › two', id: 't2', annotations: [{ type: 'informational', description: schema(3, 'code') }] },
    {
      title: '[api] c.spec.ts › three',
      id: 't3',
      annotations: [
        {
          type: 'stated',
          description:
            '[error] content_type_conformance GET /users at response.headers.content-type: Received: text/plain (rule: Endpoints: "Request and response bodies are JSON")',
        },
      ],
    },
    // 40 distinct long findings of one check in one test: every one is listed in full.
    {
      title: '[api] d.spec.ts › many',
      id: 't4',
      annotations: Array.from({ length: 40 }, (_, i) => ({ type: 'informational', description: schema(0, `field_${i}`) })),
    },
  ];
  const s = summariseFindings(tests);
  assert.deepEqual([s.stated.findings, s.inferred.findings, s.informational.findings], [1, 1, 41]);
  assert.deepEqual([s.stated.tests, s.inferred.tests, s.informational.tests], [1, 1, 3]);
  const code = s.informational.byCheck[0].findings.find((f) => f.text.includes('.code'))!;
  assert.deepEqual(
    code.tests.map((t) => t.id),
    ['t1', 't2'],
  );
  assert.equal(code.occurrences, 4, 'once per test, plus the two other indices the client folded');
  assert.match(code.text, /institutions\[\*\]\.code/, 'seen at several indices: shown index-free');

  const text = renderFindingsText(s, { strict: false, summaryFile: 'reports/out/html/tier-summary.html' });
  for (let i = 0; i < 40; i++)
    assert.ok(text.includes(schema(0, `field_${i}`).replace(/^\[warning\] response_schema_conformance /, '')), `finding ${i} is listed in full`);
  assert.ok(schema(0, 'field_0').length > 220, 'the findings are longer than the old 200-character cut');
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
      annotations: [
        {
          type: 'inferred',
          description: '[warning, inferred] status_code_conformance GET /users/{user_guid} at response.status: Received: 400 <html> (rule: Errors)',
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

function fakeTest(id: string, title: string, annotations: { type: string; description?: string }[] = []): TestCase {
  return { id, annotations, titlePath: () => ['', 'api', 'scenarios/api/a.spec.ts', title] } as unknown as TestCase;
}
const result = (annotations: { type: string; description?: string }[]) => ({ annotations }) as unknown as TestResult;

test('the reporter counts the last attempt only, prints every finding, titles the HTML report and writes the summary page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tier-summary-'));
  const before = process.env.PLAYWRIGHT_HTML_TITLE;
  delete process.env.PLAYWRIGHT_HTML_TITLE;
  let printed = '';
  try {
    const r = new TierSummaryReporter({
      outputFile: join(dir, 'html', 'tier-summary.html'),
      write: (t) => {
        printed += t;
      },
    });
    r.onConfigure({ reporter: [['html', { title: 'Nightly' }]] } as unknown as FullConfig);
    const retried = fakeTest('t1', 'retried');
    r.onTestEnd(retried, result([{ type: 'stated', description: '[error] content_type_conformance GET /a at h: first attempt only (rule: r)' }]));
    r.onTestEnd(retried, result([{ type: 'informational', description: '[warning] version_conformance GET /a at h: last attempt (rule: r)' }]));
    r.onTestEnd(
      fakeTest('t2', 'inferred one'),
      result([{ type: 'inferred', description: '[inferred] an unknown id answers 404 / Received: 400 (basis: Errors)' }]),
    );
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
