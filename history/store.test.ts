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
import { observationsDir, readIndex, saveNight } from './store.ts';
import { nightOf } from './test-nights.test-support.ts';

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
