/**
 * The core store (per simulator, in ctx.store) and the queries every operation shares:
 * lookups that fail with `not_found`, and the time formats of records.
 *
 * Other modules (data exchange, test host, webhook control) read this state through
 * `coreState(ctx)`.
 *
 * Time formats: resource timestamps are ISO 8601 strings (Resources: `aggregated_at`
 * "string or null"); webhook `_at` fields are Unix epoch seconds and `_on` fields are
 * YYYY-MM-DD (Events, rule 1).
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { institutionCatalog, type InstitutionRecord } from '../data/institutions.ts';
import type {
  AccountOwnerRecord,
  AccountRecord,
  CoreState,
  HoldingRecord,
  InsightRecord,
  MemberRecord,
  MerchantRecord,
  RepeatingRecord,
  TransactionRecord,
  UserRecord,
} from './records.ts';

export function coreState(ctx: SimContext): CoreState {
  return {
    users: ctx.collection<UserRecord>('users'),
    members: ctx.collection<MemberRecord>('members'),
    accounts: ctx.collection<AccountRecord>('accounts'),
    transactions: ctx.collection<TransactionRecord>('transactions'),
    merchants: ctx.collection<MerchantRecord>('merchants'),
    holdings: ctx.collection<HoldingRecord>('holdings'),
    repeating: ctx.collection<RepeatingRecord>('repeating_transactions'),
    insights: ctx.collection<InsightRecord>('insights'),
    owners: ctx.collection<AccountOwnerRecord>('account_owners'),
  };
}

// ---- time -------------------------------------------------------------------------

export const DAY_MS = 86_400_000;

/** ISO 8601 with offset, whole seconds (resource timestamps); on the clock of `user` for that user's records. */
export function isoNow(ctx: SimContext, user?: string): string {
  return isoOf(ctx.clock.nowMs(user));
}
export function isoOf(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
/** Events, rule 1: `_at` in webhooks are Unix epoch seconds. */
export function epochOf(iso: string | null): number | null {
  return iso === null ? null : Math.floor(Date.parse(iso) / 1000);
}

// ---- lookups ------------------------------------------------------------------------

/** Users are found by guid or by the client's own `id` (v20250224 paths use `user_identifier`). */
export function findUser(ctx: SimContext, identifier: string): UserRecord {
  const users = coreState(ctx).users;
  const u = users.get(identifier) ?? [...users.values()].find((x) => x.id !== null && x.id === identifier);
  if (!u) throw new SimError('not_found', `No user "${identifier.slice(0, 80)}"`);
  return u;
}

export function findMember(ctx: SimContext, user: UserRecord, identifier: string): MemberRecord {
  const members = coreState(ctx).members;
  const m = members.get(identifier) ?? [...members.values()].find((x) => x.user_guid === user.guid && x.id !== null && x.id === identifier);
  if (!m || m.user_guid !== user.guid) throw new SimError('not_found', `No member "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return m;
}

export function findAccount(ctx: SimContext, user: UserRecord, identifier: string): AccountRecord {
  const accounts = coreState(ctx).accounts;
  const a = accounts.get(identifier) ?? [...accounts.values()].find((x) => x.user_guid === user.guid && x.id !== null && x.id === identifier);
  if (!a || a.user_guid !== user.guid) throw new SimError('not_found', `No account "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return a;
}

export function findTransaction(ctx: SimContext, user: UserRecord, identifier: string): TransactionRecord {
  const t = coreState(ctx).transactions.get(identifier);
  if (!t || t.user_guid !== user.guid) throw new SimError('not_found', `No transaction "${identifier.slice(0, 80)}" for user ${user.guid}`);
  return t;
}

export function userIdOf(ctx: SimContext, userGuid: string): string | null {
  return coreState(ctx).users.get(userGuid)?.id ?? null;
}

/** An institution of the catalogue (data/institutions.ts) by code or guid. */
export function findInstitution(ctx: SimContext, identifier: string): InstitutionRecord | undefined {
  const c = institutionCatalog(ctx.settings.institutionCount);
  return c.byCode.get(identifier) ?? c.byGuid.get(identifier);
}
