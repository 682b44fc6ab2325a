/**
 * Durable store of the reference webhook receiver: SQLite through libsql (libSQL, the
 * SQLite fork, with better-sqlite3's synchronous API; its native code comes prebuilt in
 * a per-platform npm package, so installing it compiles nothing), WAL journal,
 * synchronous=FULL, so an answered delivery survives a kill of the process (and, with
 * FULL, a power cut).
 *
 * Three tables:
 *   events          every accepted delivery, once (unique delivery key), with
 *                   processed_at_ms set by the worker in the same transaction that
 *                   applies it: exactly-once processing across crashes.
 *   objects         the highest `version` seen per object (type + guid), Events rule 3.
 *   processing_log  one row per processing of an event; never unique-constrained, so
 *                   a double processing would be visible to the observation API.
 */
import Database from 'libsql';
import { createHash } from 'node:crypto';

export type BrokenVariant =
  | 'answers-500-to-duplicates'
  | 'keeps-last-not-highest'
  | 'rejects-added-fields-400'
  | 'rejects-null-fields-400'
  | 'loses-events-on-crash'
  | 'slow-answers'
  | 'answers-500-to-malformed'
  | 'forgets-duplicates-after-50-deliveries'
  | 'forgets-duplicates-after-a-while';
export const BROKEN_VARIANTS: readonly BrokenVariant[] = [
  'answers-500-to-duplicates',
  'keeps-last-not-highest',
  'rejects-added-fields-400',
  'rejects-null-fields-400',
  'loses-events-on-crash',
  'slow-answers',
  'answers-500-to-malformed',
  'forgets-duplicates-after-50-deliveries',
  'forgets-duplicates-after-a-while',
];

/** How long the forgets-duplicates-after-a-while variant keeps a delivery's key, unless told otherwise (a short-lived cache). */
export const DEFAULT_FORGET_MS = 20_000;

/** How many of the latest deliveries' keys the forgets-duplicates-after-50-deliveries variant keeps. */
const SHORT_LOG_KEYS = 50;

export interface IncomingEvent {
  type: string;
  body: Record<string, unknown>;
  raw: string;
}

/**
 * What the store keeps of one delivery, every column derived from the payload up front,
 * outside any transaction: a payload that cannot be keyed fails in its own request (a
 * 4xx, Events rule 6), never inside a commit it shares with other deliveries.
 */
export interface PreparedDelivery {
  key: string;
  type: string;
  objectGuid: string | null;
  version: number | null;
  raw: string;
}

export function prepareDelivery(event: IncomingEvent): PreparedDelivery {
  return {
    key: deliveryKey(event.type, event.body),
    type: event.type,
    objectGuid: objectGuidOf(event.type, event.body) ?? null,
    version: versionOf(event.body) ?? null,
    raw: event.raw,
  };
}

export interface StoredObject {
  type: string;
  guid: string;
  version: number;
  event_id: number;
  body: unknown;
}

/** JSON with keys sorted at every level: two deliveries of one payload share a key whatever the field order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Event identity: the type and the canonical payload. Events rule 4 says retries carry
 * an identical payload, and the specification shows no delivery id, so identical
 * payload = same delivery.
 */
function deliveryKey(type: string, body: unknown): string {
  return createHash('sha256').update(type).update('\n').update(canonicalJson(body)).digest('hex');
}

/** The object a payload is about: its guid, else the object named for the type (test webhooks), else member_guid. */
function objectGuidOf(type: string, body: Record<string, unknown>): string | undefined {
  // Own fields only: a type named like an Object.prototype member (`constructor`) names no object.
  const inner = Object.hasOwn(body, type) ? body[type] : undefined;
  const guid = body.guid ?? (inner && typeof inner === 'object' ? (inner as Record<string, unknown>).guid : undefined) ?? body.member_guid;
  return typeof guid === 'string' && guid.length > 0 ? guid : undefined;
}

function versionOf(body: Record<string, unknown>): number | undefined {
  return typeof body.version === 'number' && Number.isFinite(body.version) ? body.version : undefined;
}

/** The store's file cannot be opened (a folder, a file that is not SQLite): the message names the file. */
export class ReceiverStoreError extends Error {}

/** The database at `path` in the store's durable mode; a ReceiverStoreError naming the file when it cannot be one. */
function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    // The first read: a file that is not SQLite fails here ("file is not a database").
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (e) {
    db?.close();
    throw new ReceiverStoreError(`the receiver's store ${path} cannot be opened as a SQLite database: ${(e as Error).message}`);
  }
}

export class ReceiverStore {
  readonly db: Database.Database;
  private readonly insertEvent: Database.Statement;
  private readonly nextQueued: Database.Statement;
  private readonly upsertHighest: Database.Statement;
  private readonly upsertLast: Database.Statement;
  private readonly logProcessing: Database.Statement;
  private readonly markProcessed: Database.Statement;
  /**
   * Stores deliveries that arrived together in one transaction (one fsync); answers per
   * delivery: true (new), false (a duplicate), or the Error that kept it from being stored.
   */
  readonly acceptBatch: (deliveries: PreparedDelivery[]) => Array<boolean | Error>;
  readonly processBatch: (max: number) => number;

  constructor(
    path: string,
    private readonly broken?: BrokenVariant,
    forgetMs = DEFAULT_FORGET_MS,
  ) {
    this.db = openDatabase(path);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_key TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        object_guid TEXT,
        version REAL,
        body TEXT NOT NULL,
        received_at_ms INTEGER NOT NULL,
        processed_at_ms INTEGER
      );
      CREATE INDEX IF NOT EXISTS events_queued ON events(id) WHERE processed_at_ms IS NULL;
      CREATE INDEX IF NOT EXISTS events_object ON events(type, object_guid);
      CREATE TABLE IF NOT EXISTS objects (
        type TEXT NOT NULL,
        guid TEXT NOT NULL,
        version REAL NOT NULL,
        event_id INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (type, guid)
      );
      CREATE TABLE IF NOT EXISTS processing_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL,
        processed_at_ms INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS processing_log_event ON processing_log(event_id);
      CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.insertEvent = this.db.prepare(
      'INSERT OR IGNORE INTO events (delivery_key, type, object_guid, version, body, received_at_ms) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.nextQueued = this.db.prepare('SELECT id, type, object_guid, version, body FROM events WHERE processed_at_ms IS NULL ORDER BY id LIMIT ?');
    // Events rule 3: receivers compare the version with the stored one; only a higher one replaces it.
    this.upsertHighest = this.db.prepare(`INSERT INTO objects (type, guid, version, event_id, body) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (type, guid) DO UPDATE SET version = excluded.version, event_id = excluded.event_id, body = excluded.body WHERE excluded.version > objects.version`);
    this.upsertLast = this.db.prepare(`INSERT INTO objects (type, guid, version, event_id, body) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (type, guid) DO UPDATE SET version = excluded.version, event_id = excluded.event_id, body = excluded.body`);
    this.logProcessing = this.db.prepare('INSERT INTO processing_log (event_id, processed_at_ms) VALUES (?, ?)');
    this.markProcessed = this.db.prepare('UPDATE events SET processed_at_ms = ? WHERE id = ? AND processed_at_ms IS NULL');
    // Counters kept in the same transactions as the rows they count, so the observation
    // API answers in constant time however many events the database holds.
    const bump = this.db.prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value');
    const alreadyProcessed = this.db.prepare('SELECT 1 FROM processing_log WHERE event_id = ? LIMIT 1');
    // BROKEN (forgets-duplicates-*): a duplicate log that is a cache, not a log: a key it no
    // longer holds lets a retry in as a new event. Events rule 5 spreads retries over about
    // 24 hours and rule 6 says delivery may be late, so a retry can come long after the first.
    const forgetKeys = this.db.prepare(
      `UPDATE events SET delivery_key = delivery_key || ':forgotten:' || id WHERE instr(delivery_key, ':') = 0 AND ${
        broken === 'forgets-duplicates-after-a-while' ? 'received_at_ms < @before' : 'id <= (SELECT coalesce(max(id), 0) FROM events) - @keep'
      }`,
    );
    const forgetting = broken === 'forgets-duplicates-after-a-while' || broken === 'forgets-duplicates-after-50-deliveries';

    const insertAll = this.db.transaction((deliveries: PreparedDelivery[]) => {
      const now = Date.now();
      let duplicates = 0;
      const fresh = deliveries.map((d) => {
        if (forgetting) forgetKeys.run(broken === 'forgets-duplicates-after-a-while' ? { before: now - forgetMs } : { keep: SHORT_LOG_KEYS });
        const info = this.insertEvent.run(d.key, d.type, d.objectGuid, d.version, d.raw, now);
        if (info.changes === 0) duplicates++;
        return info.changes > 0;
      });
      if (duplicates) bump.run('duplicates', duplicates);
      if (deliveries.length - duplicates) bump.run('accepted', deliveries.length - duplicates);
      return fresh;
    });
    // Whatever was thrown becomes an Error, so no failure can pass for "stored".
    const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
    this.acceptBatch = (deliveries) => {
      try {
        return insertAll(deliveries);
      } catch (batchError) {
        if (deliveries.length === 1) return [asError(batchError)];
        // The shared transaction rolled back as a whole; each delivery then gets its own,
        // so a member that cannot be stored fails only itself and the rest are stored and
        // answered 2xx (Events rule 6: an error status only for a payload not received).
        return deliveries.map((d) => {
          try {
            return insertAll([d])[0];
          } catch (e) {
            return asError(e);
          }
        });
      }
    };

    /**
     * Claims and applies up to `max` queued events in ONE transaction: the object
     * update, the log row and the processed mark commit together or not at all, so a
     * crash leaves each event either fully processed or still queued.
     */
    this.processBatch = this.db.transaction((max: number) => {
      const rows = this.nextQueued.all(max) as Array<{ id: number; type: string; object_guid: string | null; version: number | null; body: string }>;
      const now = Date.now();
      for (const row of rows) {
        if (row.object_guid !== null && row.version !== null) {
          (this.broken === 'keeps-last-not-highest' ? this.upsertLast : this.upsertHighest).run(row.type, row.object_guid, row.version, row.id, row.body);
        }
        if (alreadyProcessed.get(row.id)) bump.run('processed_more_than_once', 1);
        this.logProcessing.run(row.id, now);
        this.markProcessed.run(now, row.id);
      }
      if (rows.length) bump.run('processed', rows.length);
      return rows.length;
    });
  }

  object(type: string, guid: string): StoredObject | undefined {
    const row = this.db.prepare('SELECT type, guid, version, event_id, body FROM objects WHERE type = ? AND guid = ?').get(type, guid) as
      | (Omit<StoredObject, 'body'> & { body: string })
      | undefined;
    // The columns by name: libsql's get() adds a `_metadata` field to the row it returns.
    return row ? { type: row.type, guid: row.guid, version: row.version, event_id: row.event_id, body: JSON.parse(row.body) } : undefined;
  }

  /** Objects of a type whose guid starts with `prefix` (the property suites give each run its own prefix). */
  objectsWithPrefix(type: string, prefix: string, limit: number): StoredObject[] {
    const rows = this.db
      .prepare('SELECT type, guid, version, event_id, body FROM objects WHERE type = ? AND guid >= ? AND guid < ? ORDER BY guid LIMIT ?')
      .all(type, prefix, `${prefix}\uffff`, limit) as Array<Omit<StoredObject, 'body'> & { body: string }>;
    return rows.map((r) => ({ ...r, body: JSON.parse(r.body) }));
  }

  /** Counts for the events about objects of `type` whose guid starts with `prefix` (one property run's objects). */
  statsFor(type: string, prefix: string): { accepted: number; processed: number; queued: number; processed_more_than_once: number } {
    const row = this.db
      .prepare(`SELECT count(*) AS accepted,
          coalesce(sum(processed_at_ms IS NULL), 0) AS queued,
          coalesce(sum((SELECT count(*) FROM processing_log p WHERE p.event_id = e.id)), 0) AS processed,
          coalesce(sum((SELECT count(*) FROM processing_log p WHERE p.event_id = e.id) > 1), 0) AS processed_more_than_once
        FROM events e WHERE e.type = ? AND e.object_guid >= ? AND e.object_guid < ?`)
      .get(type, prefix, `${prefix}\uffff`) as { accepted: number; processed: number; queued: number; processed_more_than_once: number };
    return { accepted: row.accepted, processed: row.processed, queued: row.queued, processed_more_than_once: row.processed_more_than_once };
  }

  stats(): { accepted: number; processed: number; queued: number; duplicates_ignored: number; processed_more_than_once: number } {
    const counters = new Map(
      (this.db.prepare('SELECT name, value FROM counters').all() as Array<{ name: string; value: number }>).map((r) => [r.name, r.value]),
    );
    return {
      accepted: counters.get('accepted') ?? 0,
      processed: counters.get('processed') ?? 0,
      queued: (this.db.prepare('SELECT count(*) AS n FROM events WHERE processed_at_ms IS NULL').get() as { n: number }).n,
      duplicates_ignored: counters.get('duplicates') ?? 0,
      processed_more_than_once: counters.get('processed_more_than_once') ?? 0,
    };
  }

  events(filter: { type?: string; guid?: string; limit: number; afterId: number }): unknown[] {
    const where: string[] = ['e.id > @afterId'];
    if (filter.type) where.push('e.type = @type');
    if (filter.guid) where.push('e.object_guid = @guid');
    const rows = this.db
      .prepare(`SELECT e.id, e.type, e.object_guid AS guid, e.version, e.received_at_ms, e.processed_at_ms, e.body,
          (SELECT count(*) FROM processing_log p WHERE p.event_id = e.id) AS times_processed
        FROM events e WHERE ${where.join(' AND ')} ORDER BY e.id LIMIT @limit`)
      .all({
        limit: filter.limit,
        afterId: filter.afterId,
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.guid ? { guid: filter.guid } : {}),
      }) as Array<{ body: string }>;
    return rows.map((r) => ({ ...r, body: JSON.parse(r.body) }));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
