/**
 * The self-test's one mechanism (proof/entry-test.ts, under proof/playwright.config.ts),
 * seen through Playwright's own listing: under a plan, every scenario an entry's grep selects is
 * declared once for that entry, in the shared `selftest` project, and reported under the
 * entry's name with its own spec file; a scenario no grep selects is not declared at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../spec/trace.ts';
import { CLEAN_PROJECT, grepFor, titlesGrep, type PlaywrightPlan } from './plan.ts';
import { testsOf, type PwReport } from './run-suite.ts';

function listUnder(plan: Omit<PlaywrightPlan, 'reportFile' | 'outputDir' | 'workers' | 'testTimeoutMs'>, env: Record<string, string> = {}): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'selftest-mechanism-'));
  try {
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({ reportFile: join(dir, 'r.json'), outputDir: join(dir, 'out'), workers: 1, testTimeoutMs: 15_000, ...plan } satisfies PlaywrightPlan),
    );
    const config = join(PROJECT_ROOT, 'proof/playwright.config.ts');
    const listing = spawnSync(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', config, '--list', '--reporter=json'],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...env, SVC_SELFTEST_PLAN: planFile, FORCE_COLOR: '0' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (!listing.stdout.trim().startsWith('{')) throw new Error(`playwright test --list failed: ${listing.stderr.slice(0, 2000)}`);
    return testsOf(JSON.parse(listing.stdout) as PwReport).map((t) => t.name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a plan declares each selected scenario once per entry, under the entry, with its spec file', () => {
  const title = 'locked out: DENIED';
  const names = listUnder({
    entries: [
      { name: CLEAN_PROJECT, grep: titlesGrep([title]), faults: [], variations: [] },
      {
        name: 'locked-reported-as-connected',
        grep: `(?=.*${grepFor(['@members'])})(?=.*${titlesGrep([title])})`,
        faults: ['locked-reported-as-connected'],
        variations: [],
      },
      { name: 'nothing-selected', grep: grepFor(['@no-such-tag']), faults: [], variations: [] },
    ],
  });
  assert.deepEqual(names.sort(), [
    `[${CLEAN_PROJECT}] scenarios/api/members.spec.ts > ${title}`,
    `[locked-reported-as-connected] scenarios/api/members.spec.ts > ${title}`,
  ]);
});

test('an entry without grep gets every api, browser and fuzz scenario; properties only with the baseline', () => {
  const all = listUnder({ entries: [{ name: CLEAN_PROJECT, faults: [], variations: [] }], folders: ['api', 'browser'] });
  assert.ok(all.length > 100, `only ${all.length} scenarios declared`);
  assert.ok(
    all.every((n) => n.startsWith(`[${CLEAN_PROJECT}] scenarios/api/`) || n.startsWith(`[${CLEAN_PROJECT}] scenarios/browser/`)),
    'folders limit the scenarios',
  );
  assert.ok(all.some((n) => n.includes('scenarios/browser/oauth.spec.ts')));
  const baselinePlan = { entries: [{ name: CLEAN_PROJECT, grep: titlesGrep(['locked out: DENIED']), faults: [], variations: [] }], properties: true };
  // With a webhook capture to deliver to, live delivery runs (scenarios/properties/harness/live-delivery.ts).
  const withProperties = listUnder(baselinePlan, { SVC_WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:4999/hooks' });
  const properties = withProperties.filter((n) => n.includes('scenarios/properties/'));
  assert.ok(
    properties.length > 0 && properties.every((n) => n.startsWith('[properties] scenarios/properties/')),
    'properties run as they are, once, never per entry',
  );
  assert.ok(
    properties.some((n) => n.includes('live-delivery.spec.ts')),
    'the live-delivery spec (it uses the scenario fixtures) stays in the properties project',
  );
  // Without one it would only skip itself: it is not declared, and the rest of the properties are.
  const withoutCapture = listUnder(baselinePlan, { SVC_WEBHOOK_PUBLIC_URL: '' }).filter((n) => n.includes('scenarios/properties/'));
  assert.ok(withoutCapture.length > 0 && !withoutCapture.some((n) => n.includes('live-delivery.spec.ts')), 'no capture: live delivery left out');
  assert.deepEqual(
    withProperties.filter((n) => !n.includes('scenarios/properties/')),
    [`[${CLEAN_PROJECT}] scenarios/api/members.spec.ts > locked out: DENIED`],
  );
});
