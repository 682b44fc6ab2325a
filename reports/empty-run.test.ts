import { test } from 'node:test';
import assert from 'node:assert/strict';
import EmptyRunReporter, { EMPTY_RUN, emptyProjects, emptyRunMessage, NOTHING_SELECTED } from './empty-run-reporter.ts';

test('a project whose every scenario skipped is empty; one that ran anything is not; bookkeeping projects never count', () => {
  const tests = [
    { project: 'api', skipped: true, skipReason: 'needs SVC_CLIENT_ID: set it' },
    { project: 'api', skipped: true, skipReason: 'needs SVC_CLIENT_ID: set it' },
    { project: 'api', skipped: true, skipReason: 'needs SVC_TEST_PASSWORD_SUCCESS (and SVC_CLIENT_ID)' },
    { project: 'browser', skipped: false },
    { project: 'browser', skipped: true, skipReason: 'needs SVC_OAUTH_INSTITUTION_CODE' },
    { project: 'invariants', skipped: true },
  ];
  const empty = emptyProjects(tests, ['api', 'browser', 'invariants', 'fuzz']);
  assert.deepEqual(
    empty.map((p) => [p.project, p.skipped]),
    [
      ['api', 3],
      ['fuzz', 0],
    ],
  );
  assert.deepEqual(empty[0].settings, ['SVC_CLIENT_ID', 'SVC_TEST_PASSWORD_SUCCESS'], 'the setting most skips name first');
  assert.deepEqual(empty[0].reasons[0], { reason: 'needs SVC_CLIENT_ID: set it', count: 2 });
  const message = emptyRunMessage(empty, false);
  assert.match(message, /^svc-conformance: FAIL: this run checked nothing/);
  assert.match(
    message,
    /api: all 3 scenarios skipped \(2 x needs SVC_CLIENT_ID: set it; 1 x .*\)\. Missing, most needed first: SVC_CLIENT_ID, SVC_TEST_PASSWORD_SUCCESS\./,
  );
  assert.match(message, /fuzz: no scenario selected/);
  assert.match(emptyRunMessage(empty, true), /--allow-empty: passing anyway/);
});

/** A finished run as the reporter sees it: projects, tests with their result status and skip annotation. */
function runOf(tests: Array<{ project: string; status: 'passed' | 'skipped'; skip?: string }>) {
  const cases = tests.map((t, i) => ({ id: String(i), annotations: [], parent: { project: () => ({ name: t.project }) } }));
  const suite = { suites: [...new Set(tests.map((t) => t.project))].map((title) => ({ title })), allTests: () => cases };
  const r = new EmptyRunReporter();
  r.onBegin({} as never, suite as never);
  tests.forEach((t, i) => {
    r.onTestEnd(cases[i] as never, { status: t.status, annotations: t.skip ? [{ type: 'skip', description: t.skip }] : [] } as never);
  });
  return r;
}

test('the reporter fails a passed run that checked nothing, keeps what it found for the summary, and passes it with SVC_ALLOW_EMPTY', async () => {
  const log = console.log;
  console.log = () => {};
  try {
    const empty = runOf([{ project: 'api', status: 'skipped', skip: 'needs SVC_API_KEY' }]);
    assert.deepEqual(await empty.onEnd({ status: 'passed' } as never), { status: 'failed' });
    assert.equal(EMPTY_RUN.projects[0]?.project, 'api');
    const ran = runOf([
      { project: 'api', status: 'passed' },
      { project: 'api', status: 'skipped' },
    ]);
    assert.equal(await ran.onEnd({ status: 'passed' } as never), undefined);
    // A run already failed (a refused credential in globalSetup) keeps its own cause.
    assert.equal(await runOf([{ project: 'api', status: 'skipped' }]).onEnd({ status: 'failed' } as never), undefined);
    process.env.SVC_ALLOW_EMPTY = '1';
    assert.equal(await runOf([{ project: 'api', status: 'skipped' }]).onEnd({ status: 'passed' } as never), undefined);
    assert.equal(EMPTY_RUN.allowed, true);
  } finally {
    delete process.env.SVC_ALLOW_EMPTY;
    console.log = log;
  }
});

test('a selection that matched no scenario (Playwright: "No tests found") is named, with how to see what a selection holds; the bookkeeping alone is no scenario', async () => {
  const log = console.log;
  const printed: string[] = [];
  console.log = (line: string) => printed.push(line);
  try {
    const none = runOf([{ project: 'invariants', status: 'passed' }]);
    assert.equal(await none.onEnd({ status: 'failed' } as never), undefined, 'Playwright already fails it');
    assert.equal(EMPTY_RUN.nothingSelected, true);
    assert.equal(EMPTY_RUN.message, NOTHING_SELECTED);
    assert.match(printed.join('\n'), /no scenario matched this run's selection .*svc-conformance run --list/);
    // --pass-with-no-tests: Playwright passes it; nothing is said as a failure.
    printed.length = 0;
    assert.equal(await runOf([]).onEnd({ status: 'passed' } as never), undefined);
    assert.equal(EMPTY_RUN.nothingSelected, false);
    assert.deepEqual(printed, []);
    // A failed run that selected scenarios keeps its own cause.
    assert.equal(await runOf([{ project: 'api', status: 'passed' }]).onEnd({ status: 'failed' } as never), undefined);
    assert.equal(EMPTY_RUN.nothingSelected, false);
  } finally {
    console.log = log;
  }
});
