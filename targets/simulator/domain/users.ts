/**
 * User operations (What the service does: a user is an end user created by a client).
 * A second user with the same client `id` is a `conflict` (the specification advises
 * clients to set their own `id` to sync with their systems, which only works if it is
 * unique). Deleting a user deletes its members (with their webhooks), accounts and data.
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import type { UserRecord } from './records.ts';
import { coreState, isoNow } from './store.ts';
import { deleteMember } from './members.ts';

export interface UserFields {
  id?: string;
  email?: string;
  metadata?: string;
  isDisabled?: boolean;
}

function assertIdFree(ctx: SimContext, id: string | undefined, self?: string): void {
  if (id === undefined) return;
  for (const u of coreState(ctx).users.values()) {
    if (u.id === id && u.guid !== self) throw new SimError('conflict', `A user with id "${id.slice(0, 80)}" already exists (${u.guid})`);
  }
}

export function createUser(ctx: SimContext, f: UserFields): UserRecord {
  assertIdFree(ctx, f.id);
  const at = isoNow(ctx);
  const u: UserRecord = {
    guid: ctx.guid('USR'),
    id: f.id ?? null,
    email: f.email ?? null,
    metadata: f.metadata ?? null,
    is_disabled: f.isDisabled ?? false,
    created_at: at,
    updated_at: at,
  };
  coreState(ctx).users.set(u.guid, u);
  return u;
}

export function updateUser(ctx: SimContext, u: UserRecord, f: UserFields): void {
  assertIdFree(ctx, f.id, u.guid);
  if (f.id !== undefined) u.id = f.id;
  if (f.email !== undefined) u.email = f.email;
  if (f.metadata !== undefined) u.metadata = f.metadata;
  if (f.isDisabled !== undefined) u.is_disabled = f.isDisabled;
  u.updated_at = isoNow(ctx, u.guid);
}

/** SVC-SKIP-WEBHOOK (Events, rule 8) is honoured for the member webhooks the deletion causes. */
export function deleteUser(ctx: SimContext, u: UserRecord, skipWebhook: boolean): void {
  const s = coreState(ctx);
  for (const m of [...s.members.values()]) if (m.user_guid === u.guid) deleteMember(ctx, m, skipWebhook);
  for (const i of [...s.insights.values()]) if (i.user_guid === u.guid) s.insights.delete(i.guid);
  s.users.delete(u.guid);
}
