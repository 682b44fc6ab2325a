/**
 * The simulator's records: its own shape of users, members, accounts, transactions and
 * the rest, never rendered as such (routes/*.ts render them per version). Fields in
 * snake_case mirror the specification's resources (Resources); camelCase fields are
 * simulator state.
 */

/** Versioning, "Changes in v20250224": the version whose rules the domain tests for. */
export const V2025 = 'v20250224';

export interface UserRecord {
  guid: string;
  id: string | null;
  email: string | null;
  metadata: string | null;
  is_disabled: boolean;
  created_at: string;
  updated_at: string;
}

export type JobType = 'aggregation' | 'history' | 'identification' | 'verification';

export interface JobRecord {
  guid: string;
  type: JobType;
  isBackground: boolean;
  startedAtMs: number;
  includeTransactions: boolean;
  includeHoldings: boolean;
}

export type ScenarioKey =
  | 'SUCCESS'
  | 'CHALLENGE'
  | 'OPTIONS'
  | 'IMAGE'
  | 'IMAGE_OPTIONS'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'INVALID'
  | 'LOCKED'
  | 'SERVER_ERROR'
  | 'UNAVAILABLE'
  | 'UNKNOWN_PASSWORD';

export interface ChallengeRecord {
  guid: string;
  type: 'text' | 'options' | 'image' | 'image_options';
  label: string;
  /** The answer that progresses (the correct-answer word, or the correct option's value). */
  answer: string;
  options?: Array<{ guid: string; label: string; value: string; data_uri?: string }>;
  image_data?: string;
}

export interface MemberRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  institution_code: string;
  name: string;
  connection_status: string;
  is_being_aggregated: boolean;
  aggregated_at: string | null;
  successfully_aggregated_at: string | null;
  is_managed_by_user: boolean;
  is_oauth: boolean;
  metadata: string | null;
  use_cases: string[] | null;
  products: string[] | null;
  skip_aggregation: boolean;
  /** The built-in manual-institution member of a user (What the service does: manual accounts). */
  is_manual: boolean;
  /** Created through the deprecated managed-member endpoints (Versioning, v20250224). */
  is_managed: boolean;
  created_at: string;
  // --- simulator state, never rendered as such ---
  scenario: ScenarioKey;
  credentials: Array<{ guid: string; field_name: string; value: string }>;
  mfaPassed: boolean;
  challengeRound: number;
  challenges: ChallengeRecord[];
  job: JobRecord | null;
  lastStandardAggregationMs: number | null;
  verified: boolean;
  identified: boolean;
  callbackPayload: string | null;
  /** Member-webhook `version` (Events, rule 3): rises with every change. */
  version: number;
  oauthToken: string | null;
  oauthWindowUri: string | null;
  clientRedirectUrl: string | null;
  webviewScheme: string | null;
  oauthReferralSource: string | null;
  connectionStatusSetAtMs: number;
  historyExtended: boolean;
}

export interface AccountRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  member_guid: string;
  institution_code: string;
  name: string;
  type: string;
  subtype: string | null;
  balance: number;
  available_balance: number | null;
  available_credit: number | null;
  currency_code: string;
  account_number: string | null;
  routing_number: string | null;
  is_manual: boolean;
  is_hidden: boolean;
  is_closed: boolean;
  created_at: string;
  updated_at: string;
  imported_at: string | null;
  extra: Record<string, unknown>;
}

export interface TransactionRecord {
  guid: string;
  id: string | null;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  amount: number;
  description: string;
  type: 'CREDIT' | 'DEBIT';
  status: 'POSTED' | 'PENDING';
  date: string;
  transacted_at: string;
  posted_at: string | null;
  category_guid: string | null;
  top_level_category_guid: string | null;
  category: string | null;
  top_level_category: string | null;
  merchant_guid: string | null;
  merchant_location_guid: string | null;
  repeating_transaction_guid: string | null;
  check_number: string | null;
  is_manual: boolean;
  is_subscription: boolean;
  is_international: boolean;
  currency_code: string;
  created_at: string;
  updated_at: string;
  createdAtMs: number;
  updatedAtMs: number;
  /** Data exchange (Limits): the scope a grant must match; `HELD` for managed data, `AGGREGATED` otherwise. */
  data_scope: 'HELD' | 'AGGREGATED';
  classification: string;
}

export interface MerchantRecord {
  guid: string;
  name: string;
  logo_url: string;
  website_url: string;
  created_at: string;
  updated_at: string;
  location: {
    guid: string;
    merchant_guid: string;
    city: string;
    country: string;
    postal_code: string;
    state: string;
    street_address: string;
    latitude: number;
    longitude: number;
  };
}

export interface HoldingRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  symbol: string;
  description: string;
  holding_type: string;
  shares: number;
  market_value: number;
  cost_basis: number;
  currency_code: string;
  created_at: string;
  updated_at: string;
}

export interface RepeatingRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  amount: number;
  description: string;
  /** Resources, Transaction: "a recurrence type including a twice_a_ kind". */
  recurrence_type: 'monthly' | 'twice_a_month' | 'weekly' | 'every_other_week';
  repeating_transaction_type: string;
  transaction_type: 'CREDIT' | 'DEBIT';
  created_at: string;
}

export interface InsightRecord {
  guid: string;
  user_guid: string;
  template: string;
  title: string;
  description: string;
  micro_call_to_action: string;
  cta_clicked_at: string | null;
  has_associated_repeating_transactions: boolean;
  repeatingGuids: string[];
  localization_payload: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AccountOwnerRecord {
  guid: string;
  user_guid: string;
  member_guid: string;
  account_guid: string;
  owner_name: string;
  address: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  email: string;
  phone: string;
}

export interface CoreState {
  users: Map<string, UserRecord>;
  members: Map<string, MemberRecord>;
  accounts: Map<string, AccountRecord>;
  transactions: Map<string, TransactionRecord>;
  merchants: Map<string, MerchantRecord>;
  holdings: Map<string, HoldingRecord>;
  repeating: Map<string, RepeatingRecord>;
  insights: Map<string, InsightRecord>;
  owners: Map<string, AccountOwnerRecord>;
}
