/**
 * Catalogue entries: Legitimate freedoms (DESIGN.md, "Proving the suite"): what the
 * specification leaves open and a real service does (../shared/real-service-notes.md), of
 * every area. Each names the statement (or its absence) and the notes' line; the stated
 * rules still hold under every one of them.
 */
import type { CatalogEntry } from './entry.ts';
import { ERROR_READING, MEMBER_CREATING, MEMBER_READING } from './suite-tags.ts';

export const FREEDOMS = [
  {
    name: 'member-create-200',
    kind: 'variation',
    area: 'members',
    section:
      'Endpoints, Widgets and members: "On v20250224, a 201 created response exists" (not that 200 is wrong); Errors lists 201 without excluding others; real-service-notes, Status codes: create member declares 200 and 202 in both versions',
    description: 'Create member answers 200 in every version (v20250224 and v20260929 included)',
    suites: MEMBER_CREATING,
  },
  {
    name: 'member-create-202',
    kind: 'variation',
    area: 'members',
    section:
      'Endpoints, Widgets and members: "a 201 created response exists" on v20250224, no exclusive status; real-service-notes, Status codes: create member declares 200 and 202. With member-create-200 also in force, 202 wins',
    description: 'Create member answers 202 in every version',
    suites: MEMBER_CREATING,
  },
  {
    name: 'member-name-null',
    kind: 'variation',
    area: 'members',
    section:
      'Resources, Member: name string, nullness not stated ("string or null" is stated only for aggregated_at, successfully_aggregated_at); real-service-notes, Nullability: name nullable',
    description: 'Members carry name null',
    suites: MEMBER_READING,
  },
  {
    name: 'oauth-window-uri-null-for-non-oauth',
    kind: 'variation',
    area: 'members',
    section:
      'Resources, Member: oauth_window_uri "present for OAuth members" (nothing stated for others); real-service-notes, Nullability: oauth_window_uri null on non-OAuth members',
    description: 'Non-OAuth members carry oauth_window_uri null',
    suites: MEMBER_READING,
  },
  {
    name: 'institution-text-fields-null',
    kind: 'variation',
    area: 'institutions',
    section:
      'Resources, Institution: instructional_text and the help URLs are named without a stated nullness; real-service-notes, Nullability: almost every field nullable',
    description: 'Institutions carry instructional_text, instructional_text_steps, forgot_password_url, forgot_username_url, trouble_signing_in_url null',
    suites: ['@institutions', '@versions', '@paging', 'load:paging'],
  },
  {
    name: 'transaction-check-number-null',
    kind: 'variation',
    area: 'transactions',
    section: 'Resources, Transaction: check_number (string), nullness not stated; real-service-notes, Nullability: transaction check_number nullable',
    description: 'Transactions without a check number carry check_number null (instead of leaving it out)',
    suites: ['@transactions', '@members', '@accounts', '@data-exchange'],
  },
  {
    name: 'account-fields-null',
    kind: 'variation',
    area: 'accounts',
    section: 'Resources, Account: fields named without a stated nullness; real-service-notes, Nullability: almost every response field nullable',
    description: 'Accounts carry available_balance, is_personal, institution_guid and member_is_managed_by_user null',
    suites: ['@accounts', '@members', '@processor', '@data-exchange', '@transactions'],
  },
  {
    name: 'null-fields-omitted',
    kind: 'variation',
    area: 'members',
    section:
      'real-service-notes, Nullability: "Absence follows the same rule as null"; no field of a response is stated to be always present ("Fields named: ..." is a list of names)',
    description: 'Every JSON answer of the platform API leaves out the fields whose value is null',
    suites: ['*'],
  },
  {
    name: 'reference-example-shapes',
    kind: 'variation',
    area: 'institutions',
    section:
      "real-service-notes, Nullability: the vendor's own examples leave out institution status and client_status, account hold_total and pending_transactions_total, transaction top_level_category_guid, insight has_associated_repeating_transactions",
    description:
      'Institutions without status and client_status, accounts without hold_total and pending_transactions_total, transactions without top_level_category_guid, insights without has_associated_repeating_transactions, as in the vendor reference examples',
    suites: ['@institutions', '@accounts', '@transactions', '@insights', '@members', '@processor', '@data-exchange', '@ach-returns', '@paging', '@versions'],
  },
  {
    name: 'v20250224-accounts-without-variants',
    kind: 'variation',
    area: 'accounts',
    section:
      'Resources, Account: "plus *_set_by and feed_* variants" names no version, and the v20250224 change list (Versioning) is not said to be complete; real-service-notes, Enumerations: "v20250224 accounts carry no *_set_by and no feed_* field at all ..., nor institution_guid, calculated_apr or holdings_value"',
    description:
      'From v20250224 accounts carry no *_set_by and no feed_* field, and no institution_guid, calculated_apr or holdings_value (v20111101 keeps them)',
    suites: ['@accounts', '@members', '@processor', '@data-exchange', '@transactions', '@ach-returns'],
  },
  {
    name: 'longer-identifiers',
    kind: 'variation',
    area: 'data-exchange',
    section:
      'Versioning, non-breaking: "changing length or format of opaque strings (identifiers, messages)"; Resources: "Other resources also have a guid" (no shape stated), while USR-, MBR- and ACT-<uuid> are stated and kept',
    description:
      'Every identifier of an unstated shape (grants, clients, transactions, institutions, categories, ...) is answered longer and reformatted (GNT-<uuid> becomes GNT-L<uuid>); requests take both forms',
    suites: ['@data-exchange', '@institutions', '@categories', '@transactions', '@ach-returns', '@insights', '@product-areas', '@accounts'],
  },
  {
    name: 'widget-user-id-null',
    kind: 'variation',
    area: 'widgets',
    section: 'Resources, Widget URL: response user_id (string), nullness not stated; real-service-notes, Nullability: user_id in the widget response nullable',
    description: 'The widget URL response carries user_id null',
    suites: ['@widgets', '@oauth', '@versions'],
  },
  {
    name: 'v20111101-institutions-without-guid',
    kind: 'variation',
    area: 'institutions',
    section:
      'Versioning, changes in v20250224 (supported_products); Resources, Institution names fields without saying which version has them; real-service-notes, Nullability: v20111101 institutions have no guid, v20250224 adds guid, created_at, is_hidden and supported_products',
    description: 'On v20111101 institutions carry no guid, created_at, is_hidden or supported_products',
    suites: ['@institutions', '@versions', '@paging', 'load:paging'],
  },
  {
    name: 'no-deprecation-header',
    kind: 'variation',
    area: 'versions',
    section:
      'Versioning: "Names of the deprecation and sunset response headers: not shown"; real-service-notes, Headers: the reference declares no Deprecation header (a missing header under a guessed name is a warning)',
    description: 'Deprecated versions and endpoints answer without the Deprecation header (the Sunset header stays)',
    suites: ['@versions'],
  },
  {
    name: 'no-sunset-header',
    kind: 'variation',
    area: 'versions',
    section: 'Versioning: "Names of the deprecation and sunset response headers: not shown"; real-service-notes, Headers: no Sunset header declared',
    description: 'Deprecated versions and endpoints answer without the Sunset header (the Deprecation header stays)',
    suites: ['@versions'],
  },
  {
    name: 'no-rate-limit-headers',
    kind: 'variation',
    area: 'rate-limit',
    section:
      'Errors: 429 when the rate limit is exceeded; no header is stated ("Request rate limit values: not shown"); real-service-notes, Headers: no rate-limit headers, no Retry-After',
    description: '429 answers carry no Retry-After (and no rate-limit header)',
    suites: ['load:rate-limit'],
  },
  {
    name: 'rate-limit-429-without-body',
    kind: 'variation',
    area: 'rate-limit',
    section: 'Errors: 429 too many requests; "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared',
    description: '429 answers carry no body and no content type',
    suites: ['load:rate-limit'],
  },
  {
    name: 'rate-limit-10-per-second',
    kind: 'variation',
    area: 'rate-limit',
    section:
      'Limits: "Request rate limit values: not shown"; Errors: 429 "used on the real-time interface when the rate limit is exceeded": a limit of 10 requests a second per client is the service\'s to choose',
    description: 'The platform answers 429 (Retry-After: 1) past 10 requests a second per client (a burst of 10)',
    suites: ['@institutions'],
    alone: true,
  },
  {
    name: 'page-size-below-10-falls-back-to-25',
    kind: 'variation',
    area: 'paging',
    section:
      'Limits: "Default page size and default page number: not shown"; only a maximum is stated; real-service-notes, Paging: a value outside the range falls back to 25 (fewer than 10 may get 25)',
    description: 'records_per_page below 10 answers pages of 25 on every list',
    suites: ['@paging', '@institutions', '@errors', '@ach-returns', '@data-exchange', 'load:paging'],
  },
  {
    name: 'page-size-above-100-falls-back-to-25',
    kind: 'variation',
    area: 'paging',
    section:
      'Limits: "Maximum records_per_page for list endpoints other than those in the table: not shown"; real-service-notes, Paging: valid range 10-100 on most lists, outside it 25. The lists with the stated 1000 maximum keep it',
    description:
      'records_per_page above 100 answers pages of 25 on lists without a stated maximum (users, members, accounts, transactions, categories, ACH returns, ...); institutions, favourites, credentials and data exchange lists honour up to 1000',
    suites: ['@paging', '@categories', '@ach-returns', '@errors', '@accounts', '@transactions', '@members', 'load:paging'],
  },
  {
    name: 'page-size-above-1000-falls-back-to-25',
    kind: 'variation',
    area: 'paging',
    section:
      'Limits state the records_per_page maximum 1000, not what a request above it gets; real-service-notes, Paging: on the lists whose range is 10-1000 a value outside it falls back to 25',
    description: 'records_per_page above 1000 answers pages of 25 on institutions, favourites, credentials and data exchange lists (per_page says 25)',
    suites: ['@paging', '@institutions', '@data-exchange', 'load:paging'],
  },
  {
    name: 'page-size-capped-at-10',
    kind: 'variation',
    area: 'paging',
    section:
      'Limits: "Maximum records_per_page for list endpoints other than those in the table: not shown": a maximum of 10 is the service\'s to choose, so a page may hold fewer records than asked while more remain (pagination says how many pages there are)',
    description:
      'lists without a stated maximum (users, members, accounts, transactions, categories, ACH returns, ...) answer at most 10 records a page whatever records_per_page asks (per_page says 10); institutions, favourites, credentials and data exchange lists keep the stated 1000',
    suites: ['@paging', '@categories', '@ach-returns', '@errors', '@accounts', '@transactions', '@members', 'load:paging'],
  },
  {
    name: 'categories-page-max-25',
    kind: 'variation',
    area: 'categories',
    section:
      'Categories: query page, records_per_page; Limits names no maximum for categories ("not shown"); the 119 defaults are stated, the page size is not',
    description: 'GET /categories/default answers at most 25 categories a page whatever records_per_page asks (119 over 5 pages)',
    suites: ['@categories', '@paging', 'load:paging'],
  },
  {
    name: 'v1-vendor-media-type',
    kind: 'variation',
    area: 'versions',
    section:
      'Authentication 2: earlier examples use a vendor media type application/vnd.svc.api.v1+json; Endpoints: bodies are JSON (the response media type is not shown); real-service-notes, Media types: v20111101 responses use application/vnd.svc.api.v1+json',
    description: 'JSON responses to v20111101 requests have Content-Type application/vnd.svc.api.v1+json',
    suites: ['*'],
  },
  {
    name: 'upper-case-challenge-types',
    kind: 'variation',
    area: 'mfa',
    section:
      'Resources, Credential: "MFA challenges of type text, options, image and image_options" (a description, no enumeration or case stated); real-service-notes, Enumerations: TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS',
    description: 'Challenge types are TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS',
    suites: ['@mfa', '@members', '@widgets'],
  },
  {
    name: 'intermediate-connection-statuses',
    kind: 'variation',
    area: 'members',
    section:
      'States and transitions: "Transitions between member connection statuses other than those in the table: not shown"; Versioning: enumerated response fields may gain values; real-service-notes, Enumerations: CREATED, RESUMED, UPDATED among 23 values',
    description:
      'A non-OAuth member reads CREATED after create, RESUMED after an MFA answer and UPDATED after new credentials (instead of PENDING) before its end state',
    suites: MEMBER_READING,
  },
  {
    name: 'list-order-varies',
    kind: 'variation',
    area: 'paging',
    section:
      'Endpoints: "Lists are paged with page and records_per_page"; no order is stated for any list but the favourites ("response list of favourites ordered by popularity")',
    description: 'Every second list answer carries its page in reverse order (favourites excepted): two reads of one list agree in content, not in order',
    suites: ['@institutions', '@legacy', '@paging', '@readonly'],
  },
  {
    name: 'more-supported-products',
    kind: 'variation',
    area: 'institutions',
    section:
      'Resources, Institution: supported_products values "such as" four named; Versioning: enumerated response fields may gain values; real-service-notes, Enumerations: statements, investments, rewards',
    description: 'From v20250224 every institution lists statements, investments and rewards among supported_products',
    suites: ['@institutions', '@versions'],
  },
  {
    name: 'error-body-other-shape',
    kind: 'variation',
    area: 'errors',
    section: 'Errors: "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared',
    description: 'Error bodies are {"errors": [{"status", "title", "detail"}]} instead of {"error": {...}}',
    suites: ERROR_READING,
  },
  {
    name: 'error-body-empty',
    kind: 'variation',
    area: 'errors',
    section: 'Errors: "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared',
    description: 'Error answers (4xx, 5xx) carry no body and no content type',
    suites: [...ERROR_READING, 'load:rate-limit'],
  },
  {
    name: 'bad-request-400',
    kind: 'variation',
    area: 'errors',
    section:
      'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared',
    description:
      "Every refusal of a request's content (invalid JSON, missing or malformed field, bad paging, request not applicable in the member's state) answers 400",
    suites: ERROR_READING,
  },
  {
    name: 'bad-request-404',
    kind: 'variation',
    area: 'errors',
    section:
      'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared',
    description: "Every refusal of a request's content answers 404 (with bad-request-422 in force, 422 wins; over bad-request-400, 404 wins)",
    suites: ERROR_READING,
  },
  {
    name: 'bad-request-422',
    kind: 'variation',
    area: 'errors',
    section:
      'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared',
    description: "Every refusal of a request's content answers 422 (wins over bad-request-400 and bad-request-404)",
    suites: ERROR_READING,
  },
  {
    name: 'data-request-optional-on-v20260929',
    kind: 'variation',
    area: 'versions',
    section:
      'Versioning: the required data_request is stated for v20250224 ("Changes in v20250224"); "Breaking changes introduced by v20260929: not shown", and "making a required parameter optional" is non-breaking; real-service-notes, Request shapes: data_request optional in the reference',
    description: 'On v20260929 create member and widget URL accept a request without data_request (v20250224 still refuses it)',
    suites: ['@versions', '@members', '@widgets'],
  },
  {
    name: 'identify-200-when-idle',
    kind: 'variation',
    area: 'identify',
    section:
      'Endpoints, identify behaviour: statuses are stated only while a job runs (202 identification, 409 other job); the status of a started identification is not shown',
    description: 'Identify on a member with no running job answers 200 (the 202 and 409 cases unchanged)',
    suites: ['@identify', '@members', '@processor'],
  },
  {
    name: 'widget-url-201',
    kind: 'variation',
    area: 'widgets',
    section:
      'Endpoints, Widgets and members: request widget_url, response widget_url; no status stated (Errors table: 200 "normal success for reads, lists and ACH return creation" does not name it)',
    description: 'POST /users/{u}/widget_urls answers 201',
    suites: ['@widgets', '@oauth', '@versions'],
  },
  {
    name: 'delete-200-with-body',
    kind: 'variation',
    area: 'errors',
    section:
      'Errors: no status stated for delete operations ("Error codes per endpoint beyond those in the table: not shown"); real-service-notes, Status codes: delete 204 in the reference, but the specification requires none',
    description: 'Every DELETE that would answer 204 answers 200 with a small JSON body',
    suites: ['@members', '@auth'],
  },
  {
    name: 'slow-aggregation',
    kind: 'variation',
    area: 'members',
    section: 'States and transitions: is_being_aggregated true until aggregation completes (its duration is not stated); Limits names no aggregation time',
    description: 'Aggregation-type jobs take four times as long (is_being_aggregated stays true for more polls)',
    suites: MEMBER_READING,
  },
  {
    name: 'latency-100ms',
    kind: 'variation',
    area: 'members',
    section:
      'No response time or job duration is stated anywhere (Limits names none); real-service-notes, Latency: "A real integration environment answers in tens to thousands of milliseconds, and its jobs ... run for seconds to minutes". Applied only where a job is started or read, because only a job\'s state can turn latency into another verdict (identify: 202 while an identification runs, 409 while another job runs); on every response it would add minutes to the fuzz baseline and change no verdict',
    description:
      'Every request that leaves an aggregation-type job running on a member (create, update, resume, aggregate, verify, extend history, identify) and every read of that member (GET member, GET status) while the job runs answers 100 ms late; the work is done on time',
    suites: MEMBER_READING,
  },
  {
    name: 'latency-3s',
    kind: 'variation',
    area: 'identify',
    section:
      'As latency-100ms (no response time is stated; real-service-notes, Latency: seconds on a real integration environment). 3 s only on the requests that start the jobs the identify rules name (Endpoints, identify behaviour: an identification; a standard aggregation or an extended transaction history): the job is over before the answer comes, the case the identify verdicts once failed on. Reads and the other job starts keep their pace, so a member scenario gains a few seconds at most, not 3 s per poll',
    description: 'POST .../aggregate, .../extend_history and .../identify answer 3 s late when they start a job; the job runs on its usual clock',
    suites: ['@identify', '@members'],
  },
  {
    name: 'aggregating-while-challenged',
    kind: 'variation',
    area: 'mfa',
    section:
      'Resources, Member: is_being_aggregated true while aggregation runs; States and transitions: CHALLENGED waits for an answer, its is_being_aggregated is not stated',
    description: 'CHALLENGED members read is_being_aggregated true',
    suites: ['@mfa', '@members', '@widgets'],
  },
] as const satisfies readonly CatalogEntry[];
