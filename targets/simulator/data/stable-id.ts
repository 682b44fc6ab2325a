/**
 * Deterministic identifiers for seed data: the same seed gives the same `<PREFIX>-<uuid>`
 * in every simulator instance and every run, so page walks, profiles and tests can name
 * seeded records without reading them first. (Identifier shapes: Resources and their
 * fields, "`USR-<uuid>` user, `MBR-<uuid>` member, `ACT-<uuid>` account".)
 */
import { createHash } from 'node:crypto';

/** A version-5-shaped UUID derived from `seed` (sha1, as RFC 9562 name-based UUIDs do). */
export function stableUuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function stableGuid(prefix: string, seed: string): string {
  return `${prefix}-${stableUuid(`${prefix}:${seed}`)}`;
}
