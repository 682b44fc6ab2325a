import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogEntry, FaultEntry, VariationEntry } from '../targets/index.ts';
import type { TraceRow } from '../spec/trace.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMatrix, matrixPasses, renderMarkdown, rowOf, type FailedCheck, type RunOutcome } from './matrix.ts';
import {
  CLEAN_PROJECT,
  grepFor,
  grepSelects,
  kindOfTag,
  mergeRuns,
  planEntry,
  planFault,
  planVariation,
  selftestEntryFor,
  selftestEntryOf,
  PROPERTIES_PROJECT,
  SELFTEST_PROJECT,
  titlesGrep,
  type PlaywrightPlan,
} from './plan.ts';
import { entrySuiteTitle, SELFTEST_FIRST_PROJECT, someTargetReadOnly, testKey } from './playwright-plan.ts';
import { testsOf } from './run-suite.ts';
import { CLEAN_STRICT_PROJECT, cleanStrictEntry } from './execute.ts';
import { EXPECTED_FAILURE_ANNOTATION } from '../scenarios/fixtures/outcome.ts';
import { REDACTION_REPORTER } from '../reports/reporters.ts';

const fault: FaultEntry = { name: 'f', kind: 'fault', area: 'auth', section: 'S', description: 'a fault for tests' };
const variation: VariationEntry = { name: 'v', kind: 'variation', area: 'errors', section: 'S', description: 'a variation', suites: ['*'] };
/** A variation of some suites (its plan is its tags). */
const tagged: VariationEntry = { ...variation, name: 't', suites: ['@auth', 'load:rate-limit'] };
const API = 'scenarios/api/auth.spec.ts > every platform endpoint refuses requests without credentials';
const API2 = 'scenarios/api/auth.spec.ts > a wrong key is refused';
const traceRow = (o: Partial<TraceRow>): TraceRow => ({ id: 'r.x', section: 'S', statement: 's', encoded_in: [], verified_by: [], proven_by: [], ...o });
/** The fault `f` proven by one row naming one scenario and the rate-limit load script. */
const rows = [traceRow({ verified_by: [API, 'load: rate-limit (load/rate-limit.ts thresholds server_errors)'], proven_by: ['f'] })];
const ok = (n = 3): RunOutcome => ({ kind: 'playwright', executed: n, failed: [], durationMs: 10 });
/** A run where these side checks failed (a scenario's key would do as well: the verdict reads only that something failed). */
const bad = (...failed: string[]): RunOutcome => ({ kind: 'playwright', executed: 3, failed: failed.map((side): FailedCheck => ({ side })), durationMs: 10 });

test('a fault is caught when any run fails, survives when all pass, is an error when a run broke', () => {
  assert.equal(rowOf(fault, [ok(), bad('auth.spec.ts > rejects')]).verdict, 'CAUGHT');
  assert.deepEqual(rowOf(fault, [ok(), bad('x')]).failed, [{ side: 'x' }]);
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
  assert.match(renderMarkdown(m), /\| g \| stated \| auth \| SURVIVED \|/);
  assert.equal(matrixPasses(buildMatrix([rows[0], rows[2]], 1, 2)), true);
});

test('planning a variation groups its tags per suite kind; * runs every kind', () => {
  const p = planVariation(tagged);
  assert.deepEqual(
    p.runs.map((r) => [r.kind, r.selectors]),
    [
      ['playwright', ['@auth']],
      ['load', ['rate-limit']],
    ],
  );
  assert.deepEqual(
    planEntry(variation, [])
      .runs.map((r) => r.kind)
      .sort(),
    ['delivery', 'load', 'playwright', 'upgrade'],
  );
  assert.throws(() => planVariation({ ...tagged, suites: ['nonsense'] }), /unknown suite tag/);
  // Forms with no runner are refused, not run as nothing (an adapter that runs no file would prove nothing).
  assert.equal(kindOfTag('unit'), undefined);
  assert.equal(kindOfTag('properties'), undefined);
});

test('a fault runs exactly the checks its trace rows name, by kind; shown_by narrows them unless every check is asked for', () => {
  const trace = [
    traceRow({
      id: 'r.a',
      verified_by: [
        API,
        API2,
        'delivery: timeout (webhook_retry_on_failure)',
        'versions: removed-endpoint GET /x',
        'load: paging',
        'check: undocumented_operation',
        'unit: contracts/x.test.ts > y',
      ],
      proven_by: ['f', 'g'],
      shown_by: { f: [API, 'delivery: timeout (webhook_retry_on_failure)'] },
    }),
    traceRow({ id: 'r.b', verified_by: ['delivery: member-events'], proven_by: ['f'] }),
    traceRow({ id: 'r.c', verified_by: [API2], proven_by: ['other'] }),
  ];
  const f = planFault(fault, trace);
  assert.deepEqual(f.runs, [
    { kind: 'playwright', selectors: [], all: true },
    { kind: 'delivery', selectors: ['timeout', 'member-events'], all: false },
  ]);
  assert.deepEqual(f.onlyTitles, ['every platform endpoint refuses requests without credentials']);
  const every = planFault(fault, trace, { everyCheck: true });
  assert.deepEqual(every.onlyTitles, ['every platform endpoint refuses requests without credentials', 'a wrong key is refused']);
  assert.deepEqual(
    every.runs.map((r) => [r.kind, r.selectors]),
    [
      ['playwright', []],
      ['delivery', ['timeout', 'member-events']],
      ['load', ['paging']],
      ['upgrade', []],
    ],
  );
  // A fault no row names runs nothing (the catalogue test requires a row for every fault).
  assert.deepEqual(planFault({ ...fault, name: 'unnamed' }, trace), { entry: { ...fault, name: 'unnamed' }, runs: [] });
});

test('the grep pattern matches a tag, not a longer tag that starts with it', () => {
  const re = new RegExp(grepFor(['@members']));
  assert.ok(re.test('creates a member @members'));
  assert.ok(!re.test('answers MFA @members-mfa'));
});

test('the clean baseline gates the matrix: a scenario failing with nothing in force fails the self-test', () => {
  const rows = [rowOf(fault, [bad('a')]), rowOf(variation, [ok()])];
  assert.equal(matrixPasses(buildMatrix(rows, 1, 2, new Date(), { executed: 5, failed: [], errors: [] })), true);
  assert.equal(matrixPasses(buildMatrix(rows, 1, 2, new Date(), { executed: 5, failed: ['x.spec.ts > y'], errors: [] })), false);
  assert.equal(matrixPasses(buildMatrix(rows, 1, 2, new Date(), { executed: 5, failed: [], errors: ['playwright: crashed'] })), false);
  // Flaky clean scenarios are reported, not failing.
  const m = buildMatrix(rows, 1, 2, new Date(), { executed: 5, failed: [], flaky: ['z.spec.ts > w'], errors: [] });
  assert.equal(matrixPasses(m), true);
  assert.match(renderMarkdown(m), /FLAKY CLEAN .*z\.spec\.ts > w/);
});

test('merged runs take the union of selectors per kind, and `all` wins', () => {
  const merged = mergeRuns([planVariation(tagged).runs, planVariation({ ...tagged, name: 'h', suites: ['@members', 'load:paging', 'delivery'] }).runs]);
  const byKind = Object.fromEntries(merged.map((r) => [r.kind, r]));
  assert.deepEqual(byKind.playwright.selectors.sort(), ['@auth', '@members']);
  assert.deepEqual(byKind.load.selectors.sort(), ['paging', 'rate-limit']);
  assert.equal(byKind.delivery.all, true);
  const withAll = mergeRuns([planVariation(tagged).runs, planVariation(variation).runs]);
  assert.ok(withAll.every((r) => r.all && r.selectors.length === 0));
});

test('a Playwright plan project carries the grep of the entry tags or named titles and its faults or variations', () => {
  const p = selftestEntryOf(planFault(fault, rows))!;
  assert.equal(p.name, 'f');
  assert.deepEqual([p.faults, p.variations], [['f'], []]);
  assert.ok(new RegExp(p.grep!).test('auth.spec.ts every platform endpoint refuses requests without credentials @auth'));
  assert.ok(!new RegExp(p.grep!).test('auth.spec.ts a wrong key is refused @auth'), 'a scenario its rows do not name');
  const v = selftestEntryOf(planVariation(tagged))!;
  assert.deepEqual([v.faults, v.variations], [[], ['t']]);
  assert.ok(new RegExp(v.grep!).test('refuses without credentials @auth @destructive'));
  assert.equal(selftestEntryOf(planEntry(variation, []))!.grep, undefined, '* runs every scenario');
  assert.equal(
    selftestEntryOf(planFault(fault, [traceRow({ verified_by: ['delivery: timeout'], proven_by: ['f'] })])),
    undefined,
    'no named scenario, no project',
  );
  assert.equal(selftestEntryFor('g', [], ['v', 'w'], mergeRuns([planVariation(variation).runs]))!.variations.length, 2);
});

test('the JSON report reader counts a self-test failure marked expected (to keep its worker) as failed', () => {
  const report = {
    suites: [
      {
        title: 'a.spec.ts',
        file: 'a.spec.ts',
        specs: [
          {
            title: 'kept worker',
            file: 'a.spec.ts',
            tests: [
              {
                projectName: 'f',
                status: 'expected',
                annotations: [{ type: EXPECTED_FAILURE_ANNOTATION }],
                results: [{ status: 'failed', error: { message: 'boom' } }],
              },
            ],
          },
          { title: 'plain pass', file: 'a.spec.ts', tests: [{ projectName: 'f', status: 'expected', results: [{ status: 'passed' }] }] },
          { title: 'plain fail', file: 'a.spec.ts', tests: [{ projectName: 'clean', status: 'unexpected', results: [{ status: 'failed' }] }] },
        ],
      },
    ],
  };
  const tests = testsOf(report);
  assert.deepEqual(
    tests.map((t) => [t.name, t.status]),
    [
      ['[f] a.spec.ts > kept worker', 'failed'],
      ['[f] a.spec.ts > plain pass', 'passed'],
      ['[clean] a.spec.ts > plain fail', 'failed'],
    ],
  );
  assert.equal(tests[0].error, 'boom');
});

test("the self-test configuration (proof/playwright.config.ts): the fuzz scenarios first, then properties on request, then the rest; every entry shares a project's workers", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'selftest-plan-'));
  const planFile = join(dir, 'plan.json');
  const plan: PlaywrightPlan = {
    reportFile: join(dir, 'r.json'),
    outputDir: join(dir, 'out'),
    workers: 2,
    testTimeoutMs: 15_000,
    properties: true,
    propertiesIgnore: ['**/delivery.spec.ts'],
    entries: [
      { name: CLEAN_PROJECT, faults: [], variations: [] },
      { name: 'f', grep: grepFor(['@auth']), faults: ['f'], variations: [] },
    ],
  };
  writeFileSync(planFile, JSON.stringify(plan));
  const before = { ...process.env };
  process.env.SVC_SELFTEST_PLAN = planFile;
  try {
    const config = (await import(`./playwright.config.ts?plan=${Date.now()}`)).default;
    assert.equal(config.globalSetup, undefined, 'each worker starts its own simulators');
    // A project always gets its own workers: one project for every entry keeps them shared.
    // The fuzz scenarios first: tests go out in project order, and the fuzz baselines are the run's longest.
    assert.deepEqual(
      config.projects.map((p: { name: string }) => p.name),
      [SELFTEST_FIRST_PROJECT, PROPERTIES_PROJECT, SELFTEST_PROJECT],
    );
    assert.equal(config.fullyParallel, true);
    // A fault entry's failed browser scenario keeps its page snapshot: redaction runs first, as in every run.
    assert.equal(config.reporter[0][0], REDACTION_REPORTER);
    const selftest = config.projects.find((p: { name: string }) => p.name === SELFTEST_PROJECT);
    const first = config.projects.find((p: { name: string }) => p.name === SELFTEST_FIRST_PROJECT);
    assert.ok(selftest.testMatch.test('api/auth.spec.ts') && selftest.testMatch.test('browser/oauth.spec.ts') && !selftest.testMatch.test('fuzz/fuzz.spec.ts'));
    assert.ok(first.testMatch.test('fuzz/fuzz.spec.ts') && !first.testMatch.test('api/auth.spec.ts'));
    assert.deepEqual(first.use, selftest.use, 'the two scenario projects differ only in their files');
    assert.ok(!selftest.testMatch.test('properties/delivery.spec.ts'), 'properties run once, as they are, in their own project');
    // The files a side run already covers (the clean delivery baseline) are left out of it.
    const properties = config.projects.find((p: { name: string }) => p.name === PROPERTIES_PROJECT);
    // So is a scenario that would only skip itself: live delivery with no webhook capture configured here,
    // and the read-only fuzz scenario when every entry's target (a simulator) allows destructive runs.
    assert.deepEqual(properties.testIgnore, ['**/delivery.spec.ts', '**/live-delivery.spec.ts']);
    assert.ok(first.grepInvert.test('fuzz: read operations from their descriptions (read-only target) @fuzz @readonly'));
    assert.ok(!first.grepInvert.test('fuzz: every operation from its description, after stateful chains @fuzz @destructive'));
    assert.equal(selftest.grepInvert, undefined, 'an api or browser scenario tagged @readonly runs on every target');
  } finally {
    delete process.env.SVC_SELFTEST_PLAN;
    Object.assign(process.env, before);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the read-only fuzz scenario is planned only where some target refuses destructive runs', () => {
  const simulator = { name: 'clean', faults: [], variations: [] };
  const integration = { ...simulator, name: 'proxied', targetEnv: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CLIENT_ID: 'c', SVC_API_KEY: 'k' } };
  assert.equal(someTargetReadOnly({ entries: [simulator, integration] }), false, 'simulators and integration targets allow destructive runs');
  const production = { ...integration, name: 'production', targetEnv: { ...integration.targetEnv, SVC_ENVIRONMENT: 'production' } };
  assert.equal(someTargetReadOnly({ entries: [simulator, production] }), true, 'production without the opt-in is read-only');
  const refused = { ...integration, name: 'refused', targetEnv: { ...integration.targetEnv, SVC_ALLOW_DESTRUCTIVE: 'no' } };
  assert.equal(someTargetReadOnly({ entries: [refused] }), true);
});

test('testsOf reports a self-test copy under its entry and its spec file', () => {
  const report = {
    suites: [
      {
        title: 'api/a.spec.ts',
        file: 'api/a.spec.ts',
        suites: [
          {
            title: entrySuiteTitle('f'),
            file: 'entry-test.ts',
            specs: [
              {
                title: 'rule holds',
                file: 'entry-test.ts',
                tests: [{ projectName: SELFTEST_PROJECT, status: 'unexpected', results: [{ status: 'failed' }] }],
              },
            ],
          },
          {
            title: entrySuiteTitle(CLEAN_PROJECT),
            file: 'entry-test.ts',
            specs: [
              {
                title: 'rule holds',
                file: 'entry-test.ts',
                tests: [{ projectName: SELFTEST_PROJECT, status: 'expected', results: [{ status: 'passed' }] }],
              },
            ],
          },
        ],
      },
    ],
  };
  assert.deepEqual(
    testsOf(report).map((t) => [t.entry, t.key, t.name, t.status]),
    [
      ['f', testKey('api/a.spec.ts', ['rule holds']), '[f] api/a.spec.ts > rule holds', 'failed'],
      [CLEAN_PROJECT, testKey('api/a.spec.ts', ['rule holds']), `[${CLEAN_PROJECT}] api/a.spec.ts > rule holds`, 'passed'],
    ],
  );
});

test('a phase-2 project greps the failing titles within the entry tags', () => {
  const title = 'in a mobile WebView events go to {scheme}://{event path}?metadata={json} and no OAuth window';
  const p = selftestEntryFor('v', [], ['v'], planVariation({ ...variation, suites: ['@widgets'] }).runs, [title])!;
  const re = new RegExp(p.grep!);
  assert.ok(re.test(`widget.spec.ts ${title} @widgets @oauth`));
  assert.ok(!re.test('widget.spec.ts another scenario @widgets'), 'another title');
  assert.ok(!re.test(`widget.spec.ts ${title} @members`), 'outside the entry tags');
  const all = selftestEntryFor('w', [], ['w'], planVariation(variation).runs, [title])!;
  assert.ok(new RegExp(all.grep!).test(`x ${title} @anything`));
  assert.ok(!new RegExp(titlesGrep(['a.b'])).test('axb'), 'titles are literal');
});

test('an inferred fault shows its tier and env in the matrix and carries the env into its Playwright project', () => {
  const inferred: CatalogEntry = { ...fault, name: 'i', tier: 'inferred', env: { SVC_STRICT: '1' } };
  const inferredRows = [traceRow({ verified_by: [API], proven_by: ['i', 'f'] })];
  const row = rowOf(inferred, [bad('x')]);
  assert.equal(row.tier, 'inferred');
  assert.deepEqual(row.env, { SVC_STRICT: '1' });
  assert.equal(rowOf(fault, [bad('x')]).tier, 'stated');
  assert.equal(rowOf(variation, [ok()]).tier, undefined);
  assert.match(renderMarkdown(buildMatrix([row], 1, 2)), /\| i \| inferred \(SVC_STRICT=1\) \| auth \| CAUGHT \|/);
  assert.deepEqual(selftestEntryOf(planEntry(inferred, inferredRows))!.env, { SVC_STRICT: '1' });
  assert.equal(selftestEntryOf(planEntry(fault, inferredRows))!.env, undefined);
});

test('all variations together gate the matrix: an interaction alarm fails it, a flaky joint failure does not', () => {
  const rows = [rowOf(fault, [bad('x')]), rowOf(variation, [ok()])];
  const joint = { variations: 2, executed: 10, failed: [{ test: testKey('a', ['b']) }], alarms: [], flaky: ['a > b (passed when run again)'], errors: [] };
  const m = buildMatrix(rows, 1, 2);
  m.joint = joint;
  assert.equal(matrixPasses(m), true);
  assert.match(renderMarkdown(m), /FLAKY TOGETHER/);
  m.joint = { ...joint, alarms: ['a > b — fails only with all variations together'] };
  assert.equal(matrixPasses(m), false);
  assert.match(renderMarkdown(m), /ALARM TOGETHER: a > b/);
});

test('a variation under which nothing ran is ERROR (visible as broken), never a silent pass', () => {
  const row = rowOf(variation, [{ kind: 'playwright', executed: 0, failed: [], durationMs: 0 }]);
  assert.equal(row.verdict, 'ERROR');
  assert.match(row.errors.join(';'), /no check or scenario ran/);
});

test('grepSelects reads a report test the way Playwright greps it: title path and tags', () => {
  const t = { key: testKey('browser/widget.spec.ts', ['in a mobile WebView events go']), tags: ['@widgets', '@oauth'] };
  assert.equal(grepSelects(grepFor(['@widgets']), t), true);
  assert.equal(grepSelects(grepFor(['@members']), t), false);
  assert.equal(grepSelects(undefined, t), true, 'no grep: every scenario');
  assert.equal(grepSelects(titlesGrep(['in a mobile WebView']), t), true);
  // The JSON report's tags come without `@` (proof/run-suite.ts testsOf reads spec.tags).
  assert.equal(grepSelects(grepFor(['@widgets']), { ...t, tags: ['widgets', 'oauth'] }), true);
  assert.equal(grepSelects(grepFor(['@members']), { ...t, tags: ['widgets', 'oauth'] }), false);
});

test('the strict clean baseline runs the scenarios of the units with a profile env that run scenarios; a delivery-only one adds none', () => {
  const strict = { SVC_STRICT: '1' };
  const scenarioUnit = {
    name: 'a',
    faults: ['a'],
    variations: [],
    runs: [{ kind: 'playwright' as const, selectors: [], all: true }],
    onlyTitles: ['the rule holds'],
    env: strict,
  };
  const deliveryOnly = {
    name: 'b',
    faults: ['b'],
    variations: [],
    runs: [{ kind: 'delivery' as const, selectors: ['member-events'], all: false }],
    env: strict,
  };
  assert.equal(cleanStrictEntry([deliveryOnly]), undefined, 'no scenario to run under the env');
  const entry = cleanStrictEntry([scenarioUnit, deliveryOnly]);
  assert.deepEqual(
    [entry?.name, entry?.env, entry?.grep],
    [CLEAN_STRICT_PROJECT, strict, '((the rule holds))'],
    'only the scenario unit, never every scenario',
  );
  assert.equal(cleanStrictEntry([{ ...scenarioUnit, env: undefined }]), undefined);
});
