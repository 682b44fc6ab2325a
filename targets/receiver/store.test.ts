/**
 * The receiver's store on its SQLite driver (libsql): the durability settings the
 * README promises are in force on an opened database, and the observation answers
 * carry exactly their columns (libsql's get() adds a `_metadata` field to a row).
 * The kill-at-any-moment guarantee itself is crash.system.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDelivery, ReceiverStore, ReceiverStoreError } from './store.ts';

const event = (version: number) => {
  const body = { guid: 'MBR-store-1', version };
  return { type: 'member', body, raw: JSON.stringify(body) };
};

test('WAL journal, synchronous=FULL and a busy timeout are in force', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new ReceiverStore(join(dir, 'db.sqlite'));
  try {
    assert.deepEqual(store.db.pragma('journal_mode'), [{ journal_mode: 'wal' }]);
    assert.deepEqual(store.db.pragma('synchronous'), [{ synchronous: 2 }], 'FULL is 2');
    assert.deepEqual(store.db.pragma('busy_timeout'), [{ timeout: 5000 }]);
  } finally {
    store.close();
  }
  assert.equal(store.db.open, false);
});

test('accepted once, the highest version kept, answers with exactly their fields', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new ReceiverStore(join(dir, 'db.sqlite'));
  try {
    assert.deepEqual(store.acceptBatch([event(2), event(1), event(2)].map(prepareDelivery)), [true, true, false], 'the repeated delivery is a duplicate');
    assert.equal(store.processBatch(10), 2);
    assert.equal(store.processBatch(10), 0);
    assert.deepEqual(store.object('member', 'MBR-store-1'), {
      type: 'member',
      guid: 'MBR-store-1',
      version: 2,
      event_id: 1,
      body: { guid: 'MBR-store-1', version: 2 },
    });
    assert.deepEqual(store.statsFor('member', 'MBR-store'), { accepted: 2, processed: 2, queued: 0, processed_more_than_once: 0 });
    assert.deepEqual(store.stats(), { accepted: 2, processed: 2, queued: 0, duplicates_ignored: 1, processed_more_than_once: 0 });
    const events = store.events({ type: 'member', limit: 10, afterId: 1 }) as Array<Record<string, unknown>>;
    assert.deepEqual(
      events.map((e) => Object.keys(e).sort()),
      [['body', 'guid', 'id', 'processed_at_ms', 'received_at_ms', 'times_processed', 'type', 'version']],
    );
  } finally {
    store.close();
  }
});

test('a delivery that cannot be stored fails alone: the others that shared its commit are stored', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new ReceiverStore(join(dir, 'db.sqlite'));
  try {
    // A value SQLite cannot bind fails the shared transaction as a whole; each delivery is
    // then committed on its own.
    const poisoned = { ...prepareDelivery(event(9)), raw: {} as unknown as string };
    const answers = store.acceptBatch([prepareDelivery(event(1)), poisoned, prepareDelivery(event(2)), prepareDelivery(event(1))]);
    assert.equal(answers[0], true);
    assert.ok(answers[1] instanceof Error, 'the poisoned delivery gets its error');
    assert.equal(answers[2], true);
    assert.equal(answers[3], false, 'the repeated delivery is still a duplicate');
    assert.deepEqual(store.stats(), { accepted: 2, processed: 0, queued: 2, duplicates_ignored: 1, processed_more_than_once: 0 });
  } finally {
    store.close();
  }
});

test('a store path that is a folder or a file that is not SQLite: a ReceiverStoreError naming the file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'not a database, only words long enough to fill a SQLite header of one hundred bytes, and then some more words\n');
  for (const path of [dir, text]) {
    assert.throws(
      () => new ReceiverStore(path),
      (e: unknown) => e instanceof ReceiverStoreError && e.message.startsWith(`the receiver's store ${path} cannot be opened as a SQLite database: `),
      path,
    );
  }
});
