/**
 * The history's bound at volume: 30 nights the size of a full nightly stay under
 * HISTORY_LIMIT_BYTES, KEEP_NIGHTS of them in full and the rest folded into summary lines.
 * A system test (npm run test:system): it builds and stores 30 full-size nights.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../targets/index.ts';
import { compareNights } from './drift.ts';
import { HISTORY_LIMIT_BYTES, historyBytes, KEEP_NIGHTS, observationsDir, readIndex, readNight, saveNight } from './store.ts';
import { nightOf, type Answer } from './test-nights.test-support.ts';

/** A night the size of a full nightly: 90 operations, each answering 6 times with 40 fields and a list of 25 records, 400 scenario verdicts. */
function bigNight(day: number) {
  const answers: Answer[] = [];
  for (let op = 0; op < 90; op++)
    for (let i = 0; i < 6; i++) {
      const record: Record<string, unknown> = { guid: `ACT-${day}-${op}-${i}-6f1c1e2a-0b5d-4c8e-9f3a-2d7b1c0e4a5${op % 10}` };
      for (let f = 0; f < 40; f++) record[`field_${f}`] = f % 3 === 0 ? `VALUE_${f % 5}` : f % 3 === 1 ? f * day : `free text ${day} ${i}`;
      answers.push({
        operation: `GET /operation_${op}/{guid}`,
        source: `scenario ${(op * 6 + i) % 400}`,
        body: { record, records: Array.from({ length: 25 }, (_, k) => ({ ...record, guid: `ACT-${k}` })), pagination: { current_page: 1, total_pages: 3 } },
        ms: 5 + ((op * i + day) % 40),
      });
    }
  const verdicts = Array.from({ length: 400 }, (_, k) => ({
    source: `scenario ${k}`,
    name: `file.spec.ts › scenario ${k}`,
    outcome: (k + day) % 97 === 0 ? ('unexpected' as const) : ('expected' as const),
  }));
  return nightOf(day, answers, verdicts);
}

test(`30 nights of a full nightly stay under ${HISTORY_LIMIT_BYTES / 1024 / 1024} MiB: ${KEEP_NIGHTS} kept in full, the rest folded`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-history-'));
  try {
    const redactor = createRedactor([]);
    const sizes: number[] = [];
    for (let day = 1; day <= 30; day++) {
      const night = bigNight(day);
      const index = readIndex(dir);
      const { seen, events } = compareNights(night, [], index.firstSeen);
      const saved = saveNight(dir, night, redactor, (ix) => {
        Object.assign(ix.firstSeen, seen);
        ix.drift.push(...events);
      });
      sizes.push(saved.bytes);
    }
    const index = readIndex(dir);
    const bytes = historyBytes(dir);
    console.log(
      `history after 30 nights: ${(bytes / 1024).toFixed(0)} KiB (largest ${(Math.max(...sizes) / 1024).toFixed(0)} KiB), ${index.nights.length} nights in full, ${index.folded.length} folded`,
    );
    assert.ok(bytes < HISTORY_LIMIT_BYTES, `${bytes} bytes < ${HISTORY_LIMIT_BYTES}`);
    assert.ok(Math.max(...sizes) < HISTORY_LIMIT_BYTES);
    assert.equal(index.nights.length, KEEP_NIGHTS);
    assert.equal(index.folded.length, 30 - KEEP_NIGHTS);
    assert.equal(readdirSync(join(observationsDir(dir), 'nights')).length, KEEP_NIGHTS, "a folded night's file is removed");
    // A folded night keeps what the dashboard charts: verdict counts, findings by tier, p95 per operation.
    const f = index.folded[0];
    assert.equal(f.counts.expected + (f.counts.unexpected ?? 0), 400);
    assert.ok(Object.keys(f.p95).length >= 90);
    // The newest night reads back whole.
    assert.equal(readNight(dir, index.nights.at(-1)!.id).operations.length, 90);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
