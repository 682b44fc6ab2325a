/**
 * Account operations (What the service does: accounts belong to a member; manual accounts;
 * Endpoints, "Other endpoints named": accounts merge). Rendering is routes/accounts.ts.
 *
 * Manual accounts: every manual account of a user is created under the user's one built-in
 * manual-institution member (members.ts manualMember). Merge keeps the first account, moves
 * the others' transactions and holdings onto it and deletes the others (request shape not
 * shown in the specification: the simulator's).
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import type { AccountRecord, MemberRecord, UserRecord } from './records.ts';
import { coreState, findAccount, isoNow } from './store.ts';
import { newAccount } from './feed.ts';
import { manualMember } from './members.ts';

export interface AccountFields {
  id?: string;
  name?: string;
  type?: string;
  subtype?: string;
  balance?: number;
  isHidden?: boolean;
}

/** A manual account; name, type and balance are required (the caller may default them). */
export function createManualAccount(ctx: SimContext, user: UserRecord, f: AccountFields): AccountRecord {
  if (!f.name) throw new SimError('invalid_request', 'account.name is required');
  if (!f.type) throw new SimError('invalid_request', 'account.account_type is required (e.g. CHECKING, SAVINGS, CASH)');
  if (f.balance === undefined) throw new SimError('invalid_request', 'account.balance is required (a number)');
  const a = newAccount(ctx, manualMember(ctx, user), { name: f.name, type: f.type.toUpperCase(), subtype: f.subtype ?? null, balance: f.balance }, true);
  a.id = f.id ?? null;
  if (f.isHidden !== undefined) a.is_hidden = f.isHidden;
  return a;
}

/** An account the client supplies for a managed member. */
export function createManagedAccount(ctx: SimContext, m: MemberRecord, f: AccountFields): AccountRecord {
  if (!f.name || !f.type || f.balance === undefined)
    throw new SimError('invalid_request', 'account.name, account.account_type and account.balance are required');
  const a = newAccount(ctx, m, { name: f.name, type: f.type.toUpperCase(), subtype: f.subtype ?? null, balance: f.balance }, false);
  a.id = f.id ?? null;
  return a;
}

/** Aggregated balances come from the feed: only manual accounts take a balance. */
export function updateAccount(ctx: SimContext, a: AccountRecord, f: AccountFields): void {
  if (f.balance !== undefined && !a.is_manual)
    throw new SimError('invalid_request', 'account.balance can be set on manual accounts only (aggregated balances come from the feed)');
  if (f.id !== undefined) a.id = f.id;
  if (f.name !== undefined) a.name = f.name;
  if (f.isHidden !== undefined) a.is_hidden = f.isHidden;
  if (f.balance !== undefined) a.balance = a.available_balance = f.balance;
  a.updated_at = isoNow(ctx, a.user_guid);
}

/** An account of the user that belongs to the member, or not_found. */
export function findMemberAccount(ctx: SimContext, user: UserRecord, m: MemberRecord, identifier: string): AccountRecord {
  const a = findAccount(ctx, user, identifier);
  if (a.member_guid !== m.guid) throw new SimError('not_found', `Account ${a.guid} does not belong to member ${m.guid}`);
  return a;
}

export function deleteAccount(ctx: SimContext, a: AccountRecord): void {
  const s = coreState(ctx);
  s.accounts.delete(a.guid);
  for (const map of [s.transactions, s.holdings, s.repeating, s.owners] as Array<Map<string, { account_guid: string }>>) {
    for (const [k, v] of map) if (v.account_guid === a.guid) map.delete(k);
  }
}

/** DELETE account: only manual accounts; aggregated ones go with their member. */
export function deleteManualAccount(ctx: SimContext, a: AccountRecord): void {
  if (!a.is_manual) throw new SimError('unprocessable', 'Only manual accounts can be deleted; delete the member to remove aggregated accounts');
  deleteAccount(ctx, a);
}

/** Merges the accounts into the first: their transactions and holdings move onto it. */
export function mergeAccounts(ctx: SimContext, user: UserRecord, guids: string[] | undefined): AccountRecord {
  if (!guids || guids.length < 2) throw new SimError('invalid_request', 'account.account_guids must list at least two account guids; the first is kept');
  if (new Set(guids).size !== guids.length) throw new SimError('invalid_request', 'account.account_guids lists an account twice');
  const state = coreState(ctx);
  const [keep, ...others] = guids.map((g) => findAccount(ctx, user, g));
  for (const other of others) {
    for (const t of state.transactions.values())
      if (t.account_guid === other.guid) {
        t.account_guid = keep.guid;
        t.member_guid = keep.member_guid;
        t.updated_at = isoNow(ctx, t.user_guid);
        t.updatedAtMs = ctx.clock.nowMs(t.user_guid);
      }
    for (const h of state.holdings.values())
      if (h.account_guid === other.guid) {
        h.account_guid = keep.guid;
        h.member_guid = keep.member_guid;
      }
    if (!ctx.fault('merge-keeps-source-accounts')) state.accounts.delete(other.guid);
  }
  keep.updated_at = isoNow(ctx, keep.user_guid);
  return keep;
}

/** A managed member's account: the client supplies its balance too. */
export function updateManagedAccount(ctx: SimContext, a: AccountRecord, f: AccountFields): void {
  updateAccount(ctx, a, { ...f, balance: undefined });
  if (f.balance !== undefined) a.balance = a.available_balance = f.balance;
}
