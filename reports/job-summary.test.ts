/**
 * The run's one-page summary (reports/job-summary-reporter.ts), what a reader of a red gate
 * opens first, on GitHub (which renders raw HTML) or as summary.md: a target's words in an
 * error, a skip reason or a finding are shown as written, each failed scenario one item.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { FINDINGS_ATTACHMENT, findingsBody, RunFindings } from './findings.ts';
import JobSummaryReporter from './job-summary-reporter.ts';
import { markdownToHtml } from './markdown.ts';

const HOSTILE = 'Received: <img src=x onerror=alert(1)> `code` *bold* [a](b) | c';

function fakeTest(id: string, title: string, outcome: ReturnType<TestCase['outcome']>): TestCase {
  return {
    id,
    annotations: [],
    outcome: () => outcome,
    titlePath: () => ['', 'api', 'scenarios/api/a.spec.ts', title],
    location: { file: '/x/scenarios/api/a.spec.ts', line: 7, column: 1 },
  } as unknown as TestCase;
}

test('a target\u2019s words in the summary stay text: one item per failed scenario, no markup, nothing lost', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'job-summary-'));
  const step = process.env.GITHUB_STEP_SUMMARY;
  delete process.env.GITHUB_STEP_SUMMARY;
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    if (step !== undefined) process.env.GITHUB_STEP_SUMMARY = step;
  });
  const outputFile = join(dir, 'summary.md');
  const r = new JobSummaryReporter({ outputFile, findings: new RunFindings() });
  const failed = fakeTest('t1', '- lists *members*', 'unexpected');
  const skipped = fakeTest('t2', 'skipped one', 'skipped');
  r.onBegin({} as FullConfig, { allTests: () => [failed, skipped] } as unknown as Suite);
  r.onError({ message: `# ${HOSTILE}` });
  r.onTestEnd(failed, {
    status: 'failed',
    errors: [{ message: `Error: ${HOSTILE}\n    at stack` }],
    annotations: [],
    attachments: [
      {
        ...FINDINGS_ATTACHMENT,
        body: Buffer.from(
          findingsBody([
            {
              tier: 'stated',
              occurrences: 1,
              failure: { check: 'response_schema_conformance', operation: 'GET /a', location: 'body.a[0]', rule: 'r', severity: 'error', message: HOSTILE },
            },
          ]),
        ),
      },
    ],
  } as unknown as TestResult);
  r.onTestEnd(skipped, {
    status: 'skipped',
    errors: [],
    annotations: [{ type: 'skip', description: `needs <SVC_X> ${HOSTILE}` }],
    attachments: [],
  } as unknown as TestResult);
  r.onEnd({ status: 'failed', duration: 1000 } as FullResult);

  const page = markdownToHtml(readFileSync(outputFile, 'utf8'), 'summary');
  const body = page.slice(page.indexOf('<body>'));
  const shown = HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // (A code block is the summary's own: EMPTY_RUN is the run's, and another test of this process may have set it.)
  assert.doesNotMatch(body.replace(/<pre>[\s\S]*?<\/pre>/g, ''), /<(img|a|code)[ >]/, 'no markup from the target\u2019s words');
  assert.equal(body.match(/<em>/g)?.length, 1, 'emphasis only where the summary puts it (the finding\u2019s tests)');
  const failedSection = body.slice(body.indexOf('Failed (1)'));
  const items = [...failedSection.slice(0, failedSection.indexOf('</ul>')).matchAll(/<li>([\s\S]*?)<\/li>/g)];
  assert.equal(items.length, 1, 'one item for the one failed scenario');
  assert.equal(items[0][1], `[api] scenarios/api/a.spec.ts › - lists *members* (api/a.spec.ts:7): Error: ${shown}`);
  assert.ok(body.includes(`<li># ${shown}</li>`), 'the error outside the scenarios, as written');
  assert.ok(body.includes(`<li>1 x needs &lt;SVC_X&gt; ${shown}</li>`), 'the skip reason, as written');
  assert.ok(body.includes(`GET /a at body.a[0]: ${shown}`), 'the finding, as written');
});
