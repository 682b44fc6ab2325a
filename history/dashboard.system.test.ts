/**
 * The team dashboard (history/dashboard.ts), in a real browser (Debian's Chromium, as the
 * browser scenarios use it: targets/profiles/sections.ts): it renders with its charts drawn
 * from the inlined Chart.js, a planted drift is on it with its diff, and it is usable with
 * the keyboard alone. And statically: the vendored library is the version its README names,
 * its licence is in the page, nothing in the page reaches the network, no secret is in it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { createRedactor, runSettings } from '../targets/index.ts';
import { CHART_JS_FILE, CHART_JS_LICENCE, writeDashboard } from './dashboard.ts';
import { compareNights } from './drift.ts';
import { readIndex, saveNight } from './store.ts';
import type { Night } from './night.ts';
import { nightOf } from './test-nights.test-support.ts';

const SECRET = 'dashboard-marker-secret-4c1a9e';

/** Three nights; night 2 drops the planted field `planted_marker` (breaking) and adds `brand_new` (non-breaking). */
function plantedHistory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-'));
  const redactor = createRedactor([SECRET]);
  const bodies = [
    { institution: { code: 'mxbank', planted_marker: 'planted-value-1', kind: 'BANK' } },
    { institution: { code: 'mxbank', brand_new: `has ${SECRET}`, kind: 'BANK' } },
    { institution: { code: 'mxbank', brand_new: 'x', kind: 'BANK' } },
  ];
  const nights: Night[] = [];
  bodies.forEach((body, i) => {
    const night = nightOf(
      i + 1,
      [
        { body, ms: 10 + i * 5 },
        { operation: 'GET /users', body: { users: [{ guid: 'USR-1' }] }, source: 'lists users', ms: 30 },
      ],
      [
        { outcome: i === 1 ? 'unexpected' : 'expected', tiers: { stated: i === 1 ? 1 : 0, inferred: 1, informational: 0 } },
        { source: 'lists users', outcome: 'expected' },
      ],
    );
    const { events, seen } = compareNights(night, nights, readIndex(dir).firstSeen);
    saveNight(dir, night, redactor, (ix) => {
      Object.assign(ix.firstSeen, seen);
      ix.drift.push(...events);
    });
    nights.push(night);
  });
  return dir;
}

test('the vendored Chart.js is the version its README names, and its licence is kept beside it and put in the page', () => {
  const banner = readFileSync(CHART_JS_FILE, 'utf8').slice(0, 200);
  const readme = readFileSync(new URL('./vendor/README.md', import.meta.url), 'utf8');
  const version = /Chart\.js v(\d+\.\d+\.\d+)/.exec(banner)?.[1];
  assert.ok(version, 'the banner names a version');
  assert.match(readme, new RegExp(`Chart\\.js ${version.replace(/\./g, '\\.')}`));
  assert.match(readFileSync(CHART_JS_LICENCE, 'utf8'), /MIT License/);
  const dir = plantedHistory();
  try {
    const page = readFileSync(writeDashboard({ historyDir: dir, out: join(dir, 'dash'), redactor: createRedactor([SECRET]) }), 'utf8');
    assert.match(page, /Permission is hereby granted, free of charge/);
    assert.ok(!page.includes(SECRET), 'no secret in the page');
    assert.ok(!/<(script|link|img)[^>]+(src|href)=["']https?:/i.test(page), 'nothing fetched from the network');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('in a browser: it renders, the planted drift is on it with its diff, and the keyboard reaches and opens everything', async () => {
  const executablePath = runSettings().chromiumPath;
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath} (SVC_CHROMIUM_PATH)`);
  const dir = plantedHistory();
  const browser = await chromium.launch({ executablePath, timeout: 30_000 });
  try {
    const file = writeDashboard({ historyDir: dir, out: join(dir, 'dash'), redactor: createRedactor([SECRET]) });
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Nothing leaves the machine: every request but the file itself is refused.
    await page.route(/^(?!file:)/, (route) => route.abort());
    await page.goto(pathToFileURL(file).href);
    await page.locator('body[data-charts="drawn"]').waitFor();
    assert.deepEqual(errors, []);
    // Charts drawn: the canvases have pixels of their size.
    for (const id of ['chart-verdicts', 'chart-tiers', 'chart-latency']) {
      const box = await page.locator(`#${id}`).boundingBox();
      assert.ok(box && box.width > 100 && box.height > 50, `${id} is drawn (${JSON.stringify(box)})`);
    }
    assert.equal(await page.locator('#breaking-count').textContent(), '1');

    // The planted drift, with its diff.
    const planted = page.locator('details.drift.breaking', { hasText: 'institution.planted_marker' });
    assert.equal(await planted.count(), 1);
    assert.match((await planted.locator('summary').textContent()) ?? '', /breaking.*GET \/institutions\/\{institution_code\}.*removed-field/s);
    assert.equal(await page.locator('details.drift.non-breaking', { hasText: 'institution.brand_new' }).count(), 1);

    // Keyboard: the first Tab reaches the skip link, Enter moves to the main region.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the dashboard');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    // Tab until the planted drift's summary has the focus (bounded), then open it with Enter.
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => !!document.activeElement?.closest('details.drift.breaking') && document.activeElement?.tagName === 'SUMMARY');
    }
    assert.ok(reached, 'the drift entry is reachable with Tab');
    await page.keyboard.press('Enter');
    assert.equal(await planted.getAttribute('open'), '');
    // Open: the diff is shown, not only in the DOM.
    assert.ok(await planted.locator('.diff').isVisible());
    assert.match((await planted.locator('.minus').textContent()) ?? '', /planted-value-1/);
    assert.match((await planted.locator('.plus').textContent()) ?? '', /absent from every answer/);
    assert.match((await planted.locator('.rule').textContent()) ?? '', /Versioning: "Breaking \(require a new version\)/);
    // The operation of the latency chart is chosen from the keyboard too.
    await page.locator('#op-select').focus();
    const before = await page.evaluate(() => (globalThis as any).Chart.getChart('chart-latency').data.datasets[0].label);
    await page.keyboard.press('ArrowDown');
    const after = await page.evaluate(() => (globalThis as any).Chart.getChart('chart-latency').data.datasets[0].label);
    assert.notEqual(after, before, 'ArrowDown on the select changes the chart');
    // Every focusable element shows its focus (an outline the page sets).
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    assert.notEqual(outline, 'none');
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
