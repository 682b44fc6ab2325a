/**
 * Seed data of the data exchange (What the service does, "Data exchange"; Resources,
 * "Data exchange grant"; Endpoints, "Data exchange"; Limits).
 *
 * One issuing client (settings `dataExchange.issuerClientGuid`) with 2,600 users, so the
 * user list can be walked page by page under load. Its first user
 * (DATA_EXCHANGE_SEED.userGuid / partner id `dx-user-0001`) has:
 *   - member `HELD` (the issuer's own accounts): checking (2,600 transactions inside the
 *     90-day default window, 40 older ones, 5 dated after the seeding day: scheduled
 *     payments, outside the default window's upper bound) and savings; data_scope HELD;
 *   - member `AGGREGATED` (aggregated from elsewhere): a card with data_scope AGGREGATED
 *     transactions, i.e. out of scope for a HELD grant;
 *   - the manual member with one manual account and manual transactions (`is_manual`
 *     true: never served by token reads).
 * Transaction dates are anchored to the simulator clock's day at seeding time.
 *
 * Grants: the profile's grant (HELD) names two grantees, so the grant query must be
 * given both (Endpoints: "every grantee on the grant must be supplied"); two more grants
 * of the same issuer (scope AGGREGATED and ALL) go to other grantees.
 */
import { SIMULATOR_DEFAULTS } from '../settings.ts';
import { defaultCategories } from './categories.ts';
import { TEST_INSTITUTION_CODE } from './institutions.ts';
import { seededRandom } from '../../seeded-random.ts';
import { stableGuid } from './stable-id.ts';

export type DataScope = 'HELD' | 'AGGREGATED' | 'ALL';

const DX = SIMULATOR_DEFAULTS.dataExchange;

/** Stable identifiers a profile or a test can name (see the README, "Simulator"). */
export const DATA_EXCHANGE_SEED = {
  ...DX,
  /** Grantee of the AGGREGATED grant and of the ALL grant. */
  aggregatedGranteeClientGuid: 'CLT-1f0c5e4a-0000-4000-8000-000000000004',
  allGranteeClientGuid: 'CLT-1f0c5e4a-0000-4000-8000-000000000005',
  aggregatedGrantGuid: 'GNT-1f0c5e4a-0000-4000-8000-000000000002',
  allGrantGuid: 'GNT-1f0c5e4a-0000-4000-8000-000000000003',
  userGuid: 'USR-1f0c5e4a-0000-4000-8000-000000000001',
  userId: 'dx-user-0001',
  heldMemberGuid: 'MBR-1f0c5e4a-0000-4000-8000-000000000001',
  heldMemberId: 'dx-member-held',
  checkingAccountGuid: 'ACT-1f0c5e4a-0000-4000-8000-000000000001',
  checkingAccountId: 'dx-account-checking',
  /** A manual transaction: token reads answer 404 (Limits, "data exchange scope"). */
  manualTransactionGuid: 'TRN-1f0c5e4a-0000-4000-8000-000000000901',
  /** data_scope AGGREGATED, out of scope for the HELD grant: 404 with its token. */
  scopeMismatchTransactionGuid: 'TRN-1f0c5e4a-0000-4000-8000-000000000902',
  /** 200 days old: outside the default window, readable by guid. */
  oldTransactionGuid: 'TRN-1f0c5e4a-0000-4000-8000-000000000903',
  /** 85 days old (checking): inside the default window, near its lower bound. */
  windowTransactionGuid: 'TRN-1f0c5e4a-0000-4000-8000-000000000904',
  /** Dated 3 days after the seeding day (a scheduled payment): after the request day, outside the default window. */
  futureTransactionGuid: 'TRN-1f0c5e4a-0000-4000-8000-000000000905',
  /** Member and account of the manual transaction, and of the out-of-scope (AGGREGATED) one. */
  manualMemberGuid: stableGuid('MBR', 'dx-member-manual'),
  manualAccountGuid: stableGuid('ACT', 'dx-account-manual'),
  aggregatedMemberGuid: stableGuid('MBR', 'dx-member-aggregated'),
  cardAccountGuid: stableGuid('ACT', 'dx-account-card'),
  userCount: 2600,
  windowTransactionCount: 2600,
} as const;

export interface DxGrant {
  guid: string;
  issuer_guid: string;
  grantee_guids: string[];
  data_scope: DataScope;
  created_at: string;
}
export interface DxUser {
  guid: string;
  id: string;
  issuerGuid: string;
}
export interface DxMember {
  guid: string;
  id: string;
  user_guid: string;
  institution_code: string;
}
export interface DxAccount {
  guid: string;
  id: string;
  user_guid: string;
  member_guid: string;
  name: string;
  type: string;
  balance: number;
  available_balance: number | null;
  currency_code: string;
}
export interface DxTransaction {
  guid: string;
  id: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  amount: number;
  currency_code: string;
  date: string;
  transacted_at: string;
  description: string;
  category_guid: string;
  top_level_category_guid: string;
  type: 'DEBIT' | 'CREDIT';
  status: 'POSTED';
  is_manual: boolean;
  data_scope: Exclude<DataScope, 'ALL'>;
}

export interface DataExchangeStore {
  grants: DxGrant[];
  users: DxUser[];
  usersByKey: Map<string, DxUser>;
  members: DxMember[];
  accounts: DxAccount[];
  /** Newest first, a stable order for page walks. */
  transactions: DxTransaction[];
  /** Issued tokens: token value -> grant guid. */
  tokens: Map<string, string>;
}

const DAY_MS = 86_400_000;

export function seedDataExchange(today: string): DataExchangeStore {
  const issuer = DX.issuerClientGuid;
  const created = '2025-03-01T00:00:00Z';
  const grants: DxGrant[] = [
    { guid: DX.grantGuid, issuer_guid: issuer, grantee_guids: [DX.granteeClientGuid, DX.secondGranteeClientGuid], data_scope: 'HELD', created_at: created },
    {
      guid: DATA_EXCHANGE_SEED.aggregatedGrantGuid,
      issuer_guid: issuer,
      grantee_guids: [DATA_EXCHANGE_SEED.aggregatedGranteeClientGuid],
      data_scope: 'AGGREGATED',
      created_at: created,
    },
    {
      guid: DATA_EXCHANGE_SEED.allGrantGuid,
      issuer_guid: issuer,
      grantee_guids: [DATA_EXCHANGE_SEED.allGranteeClientGuid],
      data_scope: 'ALL',
      created_at: created,
    },
  ];

  const users: DxUser[] = [];
  for (let i = 1; i <= DATA_EXCHANGE_SEED.userCount; i++) {
    const id = `dx-user-${String(i).padStart(4, '0')}`;
    users.push({ guid: i === 1 ? DATA_EXCHANGE_SEED.userGuid : stableGuid('USR', id), id, issuerGuid: issuer });
  }
  const user = users[0].guid;
  const members: DxMember[] = [
    { guid: DATA_EXCHANGE_SEED.heldMemberGuid, id: DATA_EXCHANGE_SEED.heldMemberId, user_guid: user, institution_code: TEST_INSTITUTION_CODE },
    { guid: stableGuid('MBR', 'dx-member-aggregated'), id: 'dx-member-aggregated', user_guid: user, institution_code: 'svc_bank_oauth' },
    { guid: stableGuid('MBR', 'dx-member-manual'), id: 'dx-member-manual', user_guid: user, institution_code: 'svc_manual' },
  ];
  const account = (id: string, member: DxMember, name: string, type: string, balance: number): DxAccount => ({
    guid: id === DATA_EXCHANGE_SEED.checkingAccountId ? DATA_EXCHANGE_SEED.checkingAccountGuid : stableGuid('ACT', id),
    id,
    user_guid: user,
    member_guid: member.guid,
    name,
    type,
    balance,
    available_balance: type === 'CREDIT_CARD' ? null : balance,
    currency_code: 'USD',
  });
  const checking = account(DATA_EXCHANGE_SEED.checkingAccountId, members[0], 'Everyday Checking', 'CHECKING', 2450.12);
  const savings = account('dx-account-savings', members[0], 'Savings', 'SAVINGS', 10200);
  const card = account('dx-account-card', members[1], 'Rewards Card', 'CREDIT_CARD', -812.4);
  const manual = account('dx-account-manual', members[2], 'Cash envelope', 'CASH', 120);
  const accounts = [checking, savings, card, manual];

  const categories = defaultCategories().filter((c) => c.parent_guid);
  const topOf = new Map(defaultCategories().map((c) => [c.guid, c.parent_guid ?? c.guid]));
  const rnd = seededRandom(42);
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const transactions: DxTransaction[] = [];
  let n = 0;
  const tx = (acct: DxAccount, daysAgo: number, scope: 'HELD' | 'AGGREGATED', manualTx: boolean, guid?: string) => {
    n++;
    const cat = categories[Math.floor(rnd() * categories.length)];
    const credit = rnd() < 0.15;
    const at = new Date(todayMs - daysAgo * DAY_MS + Math.floor(rnd() * 20) * 3_600_000);
    transactions.push({
      guid: guid ?? stableGuid('TRN', `dx-${n}`),
      id: `dx-transaction-${String(n).padStart(5, '0')}`,
      user_guid: user,
      member_guid: acct.member_guid,
      account_guid: acct.guid,
      amount: Math.round(rnd() * 20000) / 100 + 1,
      currency_code: 'USD',
      date: at.toISOString().slice(0, 10),
      transacted_at: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      description: credit ? 'Payroll deposit' : `Purchase ${n}`,
      category_guid: cat.guid,
      top_level_category_guid: topOf.get(cat.guid)!,
      type: credit ? 'CREDIT' : 'DEBIT',
      status: 'POSTED',
      is_manual: manualTx,
      data_scope: scope,
    });
  };
  // Inside the default window: days 1..89 before today (the boundary day 90 is left empty
  // so "90 days before the request day" reads the same whether it is inclusive or not).
  for (let i = 0; i < DATA_EXCHANGE_SEED.windowTransactionCount; i++) tx(i % 7 === 0 ? savings : checking, 1 + (i % 89), 'HELD', false);
  for (let i = 0; i < 40; i++) tx(checking, 100 + i * 5, 'HELD', false);
  tx(checking, 200, 'HELD', false, DATA_EXCHANGE_SEED.oldTransactionGuid);
  tx(checking, 85, 'HELD', false, DATA_EXCHANGE_SEED.windowTransactionGuid);
  // After the request day (negative days ago): the window's upper bound leaves them out.
  for (let i = 0; i < 5; i++) tx(checking, -(3 + i * 4), 'HELD', false, i === 0 ? DATA_EXCHANGE_SEED.futureTransactionGuid : undefined);
  for (let i = 0; i < 30; i++) tx(card, 2 + i * 2, 'AGGREGATED', false, i === 0 ? DATA_EXCHANGE_SEED.scopeMismatchTransactionGuid : undefined);
  for (let i = 0; i < 10; i++) tx(manual, 3 + i * 3, 'HELD', true, i === 0 ? DATA_EXCHANGE_SEED.manualTransactionGuid : undefined);
  transactions.sort((a, b) => (a.transacted_at === b.transacted_at ? a.guid.localeCompare(b.guid) : a.transacted_at < b.transacted_at ? 1 : -1));

  const usersByKey = new Map<string, DxUser>();
  for (const u of users) {
    usersByKey.set(u.guid, u);
    usersByKey.set(u.id, u);
  }
  return { grants, users, usersByKey, members, accounts, transactions, tokens: new Map() };
}

/** Limits: "only is_manual false transactions whose data_scope matches the grant". */
export function scopeMatches(grant: DxGrant, scope: DxTransaction['data_scope']): boolean {
  return grant.data_scope === 'ALL' || grant.data_scope === scope;
}
