/**
 * Catalogue entries: ACH returns and the processor (authorization code, payment account).
 */
import type { CatalogEntry } from './entry.ts';

export const ACH_PROCESSOR = [
  {
    name: 'verified-member-not-required-for-processor-code',
    kind: 'fault',
    area: 'processor',
    section: 'Endpoints, authorization code for processors: a member in the scope must already have been verified',
    description: 'An authorization code is issued for an unverified member',
    notFuzzable: 'effect',
  },
  {
    name: 'payment-account-missing-member-guid',
    kind: 'fault',
    area: 'processor',
    section: 'Endpoints, other endpoints named: /payment_account returns user_guid, member_guid, account_guid',
    description: '/payment_account lacks member_guid',
  },
  {
    name: 'payment-account-outside-scope',
    kind: 'fault',
    area: 'processor',
    section: 'Endpoints, authorization code for processors: processor access is limited to the identifiers and features in the scope',
    description: '/payment_account answers the first account of the scoped member, whatever account the scope names',
    notFuzzable: 'effect',
  },
  {
    name: 'authorization-code-body-empty',
    kind: 'fault',
    area: 'processor',
    section: 'Endpoints, authorization code for processors: Response: authorization code body',
    description: 'POST /authorization_code answers 200 with {} (no authorization code)',
  },
  {
    name: 'authorization-code-refuses-wrapped-scope',
    kind: 'fault',
    area: 'processor',
    section: 'Endpoints, authorization code for processors: Request: object authorization_code with scope',
    description: 'POST /authorization_code reads only a top-level scope and refuses {authorization_code: {scope}} with 400',
  },
  {
    name: 'authorization-code-scope-lenient',
    kind: 'fault',
    area: 'processor',
    section:
      'Endpoints, authorization code for processors: scope "space-separated entries user-guid:<USR-guid>, member-guid:<MBR-guid>, account-guid:<ACT-guid>, and the word read-protected" (an entry of another form: a 2xx is stated)',
    description:
      'POST /authorization_code reads user_guid:, member_guid:, account_guid: and read_protected as the stated entries, and commas as spaces, and issues the code',
  },
  {
    name: 'processor-token-lifetime-wrong',
    kind: 'fault',
    area: 'processor',
    section: 'Authentication 4; Limits: processor access_token values expire 60 days after issue',
    description: 'Processor access tokens expire after 1 day (expires_in 86400)',
  },
  {
    name: 'ach-return-code-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return: return_code is R followed by two digits; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts a return_code such as "X1" or "R100" with 200',
  },
  {
    name: 'ach-read-by-id-404',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Endpoints, ACH returns: the path accepts the return guid or id',
    description: 'GET /ach_returns/{id} with the client id answers 404',
  },
  {
    name: 'ach-amount-truncated',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Resources, ACH return (create request): transaction_amount "number, decimal"; "Response is an ACH return body": what was sent reads back as sent',
    description: 'An ACH return is stored with its transaction_amount cut to a whole number (12.5 reads back 12)',
    notFuzzable: 'effect',
  },
  {
    name: 'ach-read-by-id-answers-oldest',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Endpoints, ACH returns: GET /ach_returns/{ach_return_guid} "path accepts the return\'s guid or id; response one ACH return"',
    description: 'A read by client id answers the oldest ACH return that has an id, whatever id was asked',
    notFuzzable: 'comparison',
  },
  {
    name: 'ach-account-guid-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): account_guid string ACT-<uuid>; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts account_guid as "ACT"-less or "USR-" prefixed account guid (resolved by its uuid) with 200',
  },
  {
    name: 'ach-account-number-last-four-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): account_number_last_four string of 4 digits; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts account_number_last_four as "12a4", "123" or the number 1234 with 200',
  },
  {
    name: 'ach-initiated-at-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): ach_initiated_at string, ISO 8601 timestamp with offset; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts ach_initiated_at as "2026-01-05T10:00:00" (no offset) or "yesterday" with 200',
  },
  {
    name: 'ach-member-guid-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): member_guid string MBR-<uuid>; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts member_guid as a member guid without "MBR-" or with "ACT-" (resolved by its uuid) with 200',
  },
  {
    name: 'ach-returned-at-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): returned_at string, ISO 8601 timestamp with offset; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts returned_at as "2026-01-07T09:30:00" (no offset), "2026-01-07 09:30" or "07/01/2026" with 200',
  },
  {
    name: 'ach-sec-code-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): sec_code string, three-letter code; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts sec_code as "PP", "P1D" or "PPDX" with 200',
  },
  {
    name: 'ach-transaction-amount-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): transaction_amount number, decimal; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts transaction_amount as the strings "42.50" or "forty-two" with 200',
  },
  {
    name: 'ach-transaction-amount-range-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): transaction_amount_range integer; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts transaction_amount_range as 2.5 or the string "2" with 200',
  },
  {
    name: 'ach-user-guid-format-not-validated',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): user_guid string USR-<uuid>; a 2xx to a malformed one is stated (the table states the format); which refusal answers it is not',
    description: 'POST /ach_returns accepts user_guid as a user guid without "USR-" or with "MBR-" (resolved by its uuid) with 200',
  },
  {
    name: 'ach-account-guid-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): account_guid string ACT-<uuid>; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses an account_guid carrying its stated ACT- prefix (accepts only the bare uuid)',
  },
  {
    name: 'ach-account-number-last-four-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): account_number_last_four string of 4 digits; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses account_number_last_four sent as a string of 4 digits (accepts only a number)',
  },
  {
    name: 'ach-initiated-at-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): ach_initiated_at string, ISO 8601 timestamp with offset; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses an ach_initiated_at with an offset such as +00:00 (accepts only a Z timestamp)',
  },
  {
    name: 'ach-member-guid-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): member_guid string MBR-<uuid>; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses a member_guid carrying its stated MBR- prefix (accepts only the bare uuid)',
  },
  {
    name: 'ach-returned-at-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): returned_at string, ISO 8601 timestamp with offset; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses a returned_at with an offset such as -05:00 (accepts only a Z timestamp)',
  },
  {
    name: 'ach-return-code-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): return_code string, letter R followed by two digits; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses return codes R01 to R09 (its pattern wants R and a number from 10)',
  },
  {
    name: 'ach-sec-code-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): sec_code string, three-letter code; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses the three-letter SEC code PPD (it knows only WEB, TEL and CCD)',
  },
  {
    name: 'ach-transaction-amount-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): transaction_amount number, decimal; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses a decimal transaction_amount such as 42.5 (accepts only whole numbers)',
  },
  {
    name: 'ach-transaction-amount-range-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): transaction_amount_range integer; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses an integer transaction_amount_range (accepts only a string)',
  },
  {
    name: 'ach-last-four-five-digits-accepted',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Resources, ACH return (create request): account_number_last_four "string of 4 digits" (five digits break it: a 2xx is stated)',
    description:
      'POST /ach_returns accepts an account_number_last_four of five digits ("12345") with 200; four digits, letters or a number are handled as stated',
  },
  {
    name: 'ach-timestamp-offset-optional',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): ach_initiated_at and returned_at "string, ISO 8601 timestamp with offset" (a timestamp without its offset, or a date, breaks it: a 2xx is stated)',
    description: 'POST /ach_returns accepts ach_initiated_at and returned_at without an offset ("2026-01-05T10:00:00") or as a date ("2026-01-05") with 200',
  },
  {
    name: 'ach-return-code-lower-case-accepted',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Resources, ACH return (create request): return_code "string, letter R followed by two digits" (r01 breaks it: a 2xx is stated)',
    description: 'POST /ach_returns accepts a return_code with a lower-case r ("r01", stored as R01) with 200',
  },
  {
    name: 'ach-account-guid-resolved-by-uuid',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Resources, ACH return (create request): account_guid "string ACT-<uuid>" (another prefix, or none, breaks it: a 2xx is stated)',
    description: 'POST /ach_returns resolves an account_guid by its trailing uuid (the bare uuid, act-<uuid>, MBR-<uuid>) and creates the return with 200',
  },
  {
    name: 'ach-amounts-as-strings-accepted',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): transaction_amount "number, decimal", transaction_amount_range "integer" (a number as a string breaks them: a 2xx is stated)',
    description: 'POST /ach_returns takes transaction_amount "42.5" and transaction_amount_range "2" as numbers and creates the return with 200',
  },
  {
    name: 'ach-user-guid-well-formed-refused',
    kind: 'fault',
    area: 'ach-returns',
    section:
      'Resources, ACH return (create request): user_guid string USR-<uuid>; Errors: "200 normal success for ... ACH return creation": a request in the stated format is created',
    description: 'POST /ach_returns refuses a user_guid carrying its stated USR- prefix (accepts only the bare uuid)',
  },
  {
    name: 'ach-create-reads-top-level',
    kind: 'fault',
    area: 'ach-returns',
    section: 'Resources, ACH return: "The request is wrapped in an ach_return object"',
    description:
      'POST /ach_returns ignores the ach_return wrapper and reads fields beside it, so a wrapped request creates a return without its id and references',
  },
  {
    name: 'ach-list-filters-ignored',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'ach-returns',
    section:
      'Endpoints, ACH returns: "query filters: institution guid, returned time, resolved-status time, return code, return status"; their query names are not shown, so a miss under the guessed names gates only under SVC_STRICT=1 (or with the SVC_ACH_*_PARAM names set)',
    description:
      'GET /ach_returns ignores every filter (institution_guid, from/to_returned_at, from/to_resolved_at, return_code, return_status) and lists every return',
    notFuzzable: 'comparison',
  },
] as const satisfies readonly CatalogEntry[];
