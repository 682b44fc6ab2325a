/**
 * The history's store: bounded (KEEP_NIGHTS in full, older nights folded into summary lines,
 * the folder under HISTORY_LIMIT_BYTES whatever the count) and never holding a secret
 * (everything written goes through the profile's redactor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createRedactor } from '../targets/index.ts';
import { compareNights } from './drift.ts';
import { HISTORY_LIMIT_BYTES, historyBytes, KEEP_NIGHTS, observationsDir, readIndex, readNight, saveNight } from './store.ts';
import { nightOf, type Answer } from './test-nights.ts';

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

test('a tighter size limit folds the oldest nights first, never the last two', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-history-'));
  try {
    const redactor = createRedactor([]);
    // Under a limit of one byte every night is too large, whatever its size: small nights show the order.
    const smallNight = (day: number) =>
      nightOf(day, [{ body: { institution: { code: `bank_${day}`, name: 'A bank' } } }], [{ source: 'reads an institution' }]);
    for (let day = 1; day <= 6; day++) saveNight(dir, smallNight(day), redactor, () => {}, { limitBytes: 1 });
    const index = readIndex(dir);
    assert.equal(index.nights.length, 2);
    assert.deepEqual(
      index.folded.map((n) => n.id),
      [1, 2, 3, 4].map((d) => smallNight(d).id),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no secret is stored: values of credential keys are never kept, and known secrets are redacted wherever they appear', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-history-'));
  const SECRET = 'marker-secret-9b3f2c1d7e';
  try {
    const night = nightOf(
      1,
      [
        {
          body: { user: { guid: 'USR-1', note: `see ${SECRET}`, id: SECRET }, access_token: 'tok-abcdef0123456789', api_key: 'k-0123456789abcdef' },
          source: `scenario that logged ${SECRET}`,
        },
      ],
      [{ source: `scenario that logged ${SECRET}`, name: `x.spec.ts › ${SECRET}` }],
    );
    saveNight(dir, night, createRedactor([SECRET]));
    const stored = [readFileSync(join(observationsDir(dir), 'index.json'), 'utf8')];
    for (const f of readdirSync(join(observationsDir(dir), 'nights')))
      stored.push(gunzipSync(readFileSync(join(observationsDir(dir), 'nights', f))).toString('utf8'));
    const all = stored.join('\n');
    assert.ok(!all.includes(SECRET), 'the marker secret is nowhere in the history');
    assert.ok(!all.includes('tok-abcdef0123456789'), 'an access_token value is never kept');
    assert.ok(!all.includes('k-0123456789abcdef'), 'an api_key value is never kept');
    assert.match(all, /access_token/, 'the field itself is kept (its presence can drift)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
