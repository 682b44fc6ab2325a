/**
 * Catalogue entries: The data exchange (grants, slim records, the 3DX token).
 */
import type { CatalogEntry } from './entry.ts';

export const DATA_EXCHANGE = [
  {
    name: 'threedx-token-not-required',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Authentication 3: data exchange reads require SVC-3DX-TOKEN',
    description: 'Token-protected reads answer 200 without SVC-3DX-TOKEN or with a token never issued',
  },
  {
    name: 'threedx-manual-transaction-served',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Limits, data exchange scope: only is_manual false transactions; Errors 404',
    description: 'Manual transactions are listed and read under a grant',
  },
  {
    name: 'threedx-scope-mismatch-served',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Limits, data exchange scope: only transactions whose data_scope matches the grant; Errors 404',
    description: 'Transactions of another data_scope are listed and read under a grant',
    notFuzzable: 'comparison',
  },
  {
    name: 'threedx-window-not-90-days',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Limits: default transaction window 90 days before the request day',
    description: 'Transaction lists without from/to cover 365 days',
  },
  {
    name: 'threedx-grant-query-partial-grantees',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange: every grantee on the grant must be supplied or the grant is not returned',
    description: 'GET /data_exchange/grant returns a grant when only some of its grantees are supplied',
  },
  {
    name: 'threedx-partner-id-not-accepted',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange: member/account/transaction identifiers accept GUIDs or partner-defined IDs',
    description: 'Per-member paths answer 404 for partner ids (only GUIDs work)',
  },
  {
    name: 'threedx-window-includes-future',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange; Limits: default transaction window "the 90 days before the request day" (its upper bound is the request day)',
    description: 'Transaction lists without from/to also list transactions dated after the request day (scheduled payments)',
    notFuzzable: 'comparison',
  },
  {
    name: 'threedx-window-too-narrow',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange; Limits: default transaction window "the 90 days before the request day"',
    description: 'Transaction lists without from/to cover only the last 30 days',
    notFuzzable: 'comparison',
  },
  {
    name: 'threedx-account-transactions-unfiltered',
    kind: 'fault',
    area: 'data-exchange',
    section:
      'Endpoints, Data exchange: account-level and member-account transaction lists; What the service does: each transaction belongs to exactly one account',
    description: 'GET .../accounts/{a}/transactions and .../members/{m}/accounts/{a}/transactions list every transaction of the user',
  },
  {
    name: 'threedx-member-path-scope-ignored',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange: the member-account transaction read follows "same rule as above; 404 when no match"; Errors 404',
    description:
      'GET .../members/{m}/accounts/{a}/transactions/{t} answers 200 for manual and out-of-scope transactions (the user-level read still answers 404)',
    notFuzzable: 'comparison',
  },
  {
    name: 'threedx-user-read-ignores-identifier',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange: GET /data_exchange/users/{user_identifier} reads one user',
    description: 'The slim user read answers another user of the issuer',
  },
  {
    name: 'threedx-account-read-ignores-identifier',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Endpoints, Data exchange: read one slim account (by account guid, or under a member)',
    description: "Every slim account read answers the user's first account",
  },
  {
    name: 'threedx-grants-need-token',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Authentication 3: "Grant listing and grant reading need only Basic authentication"; Endpoints: "standard authentication only"',
    description: 'Grant lists and the grant query answer 401 without SVC-3DX-TOKEN',
  },
  {
    name: 'threedx-grant-without-grantees',
    kind: 'fault',
    area: 'data-exchange',
    section: 'Resources, Data exchange grant: "one or more grantee GUIDs"',
    description: 'Grants are answered without their grantee GUIDs',
  },
] as const satisfies readonly CatalogEntry[];
