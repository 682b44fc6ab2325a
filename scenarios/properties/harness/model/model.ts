/**
 * The simple model a receiver must match (Events rules 3, 4, 6): the set of distinct
 * accepted payloads, the highest version per object, and nothing processed twice.
 * Real state is read through the observation API, relative to where the run began
 * (runs share one receiver and use their own object guids).
 */
import assert from 'node:assert/strict';
import { canonicalJson } from '../../../../targets/index.ts';
import { settledStats, type ReceiverUnderTest } from '../client.ts';

export const MODEL_TYPE = 'member';

export interface DeliveredPayload {
  guid: string;
  version: number;
  raw: string;
}

export interface ReceiverModel {
  /** Distinct payloads answered 2xx, in delivery order (duplicates pick from here). */
  delivered: DeliveredPayload[];
  canonical: Set<string>;
  highest: Map<string, number>;
}

export interface ReceiverReal {
  receiver: ReceiverUnderTest;
  /** Guid prefix of this run: the run's objects and counts are its own. */
  ns: string;
}

export const emptyModel = (): ReceiverModel => ({ delivered: [], canonical: new Set(), highest: new Map() });

export const guidOf = (ns: string, objectIndex: number | '') => `MBR-${ns}-${objectIndex}`;

/** The model's view checked against the receiver's, after the worker settled. */
export async function assertMatchesModel(m: ReceiverModel, r: ReceiverReal, when: string): Promise<void> {
  const stats = await settledStats(r.receiver, { type: MODEL_TYPE, guidPrefix: guidOf(r.ns, '') });
  assert.equal(
    stats.accepted,
    m.canonical.size,
    `${when}: ${stats.accepted} events stored, model ${m.canonical.size} (an accepted delivery was lost, or a duplicate stored twice)`,
  );
  assert.equal(stats.processed, m.canonical.size, `${when}: processed ${stats.processed} times, model ${m.canonical.size} distinct events (each exactly once)`);
  assert.equal(stats.processed_more_than_once, 0, `${when}: ${stats.processed_more_than_once} event(s) processed more than once`);
  const stored = new Map(Object.entries(stats.objects ?? {}));
  for (const [guid, version] of m.highest) {
    assert.equal(stored.get(guid), version, `${when}: ${guid} stored version ${stored.get(guid)}, highest delivered ${version}`);
  }
  assert.equal(stored.size, m.highest.size, `${when}: ${stored.size} objects stored, model ${m.highest.size}`);
}

export function recordAccepted(m: ReceiverModel, p: DeliveredPayload): void {
  const key = canonicalJson(JSON.parse(p.raw));
  if (m.canonical.has(key)) return;
  m.canonical.add(key);
  m.delivered.push(p);
  m.highest.set(p.guid, Math.max(m.highest.get(p.guid) ?? -Infinity, p.version));
}
