import { test } from 'node:test';
import assert from 'node:assert/strict';
import EmptyRunReporter, { EMPTY_RUN, emptyProjects, emptyRunMessage } from './empty-run-reporter.ts';

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
  const suite = { suites: [...new Set(tests.map((t) => t.project))].map((title) => ({ title })) };
  const r = new EmptyRunReporter();
  r.onBegin({} as never, suite as never);
  tests.forEach((t, i) => {
    const tc = { id: String(i), annotations: [], parent: { project: () => ({ name: t.project }) } };
    r.onTestEnd(tc as never, { status: t.status, annotations: t.skip ? [{ type: 'skip', description: t.skip }] : [] } as never);
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
