/**
 * The catalogue of named faults and variations (../shared/DESIGN.md, "Proving the
 * suite"). One table, one place: every entry names the specification section it
 * breaks (fault) or the Versioning rule that tolerates it (variation).
 *
 * A fault is one breaking deviation; the suite must catch each one. A variation is
 * one non-breaking change in the Versioning section's sense; the suite must pass it.
 * The self-test (npm run selftest) runs the suites against every entry; a fault that
 * no check catches, or a variation that raises an alarm, fails the project's tests.
 *
 * `suites` says which suites can be affected, so the self-test runs only those:
 * tags of the Playwright scenarios (`@members`, ...), `properties`, `load:<script>`,
 * `delivery` (webhook delivery conformance), `unit` (contracts unit tests only).
 */
export type CatalogArea =
  | 'auth'
  | 'versions'
  | 'members'
  | 'mfa'
  | 'oauth'
  | 'widgets'
  | 'identify'
  | 'institutions'
  | 'paging'
  | 'categories'
  | 'accounts'
  | 'transactions'
  | 'data-exchange'
  | 'ach-returns'
  | 'processor'
  | 'audience'
  | 'legacy'
  | 'webhooks'
  | 'rate-limit'
  | 'errors';

export interface CatalogEntry {
  name: string;
  kind: 'fault' | 'variation';
  area: CatalogArea;
  /** Section of ../shared/specification.md (and the rule) that the entry breaks or plays. */
  section: string;
  /** One line: the deviation as a user would observe it. */
  description: string;
  /** Which suites can notice it (see above). */
  suites: string[];
}

export const CATALOG: CatalogEntry[] = [
  // ---- auth -------------------------------------------------------------------
  { name: 'basic-auth-not-enforced', kind: 'fault', area: 'auth', section: 'Authentication 1: platform endpoints use HTTP Basic authentication', description: 'Platform endpoints answer 2xx without credentials or with a wrong API key', suites: ['@auth'] },
  { name: 'basic-auth-wrong-key-accepted', kind: 'fault', area: 'auth', section: 'Authentication 1: HTTP Basic with the client identifier as user name and the API key as password', description: 'The right client id with any API key is accepted', suites: ['@auth'] },
  { name: 'processor-token-not-required', kind: 'fault', area: 'auth', section: 'Authentication 4: the processor reads with the access_token issued for the authorization code (scope-limited)', description: 'GET /payment_account answers 200 without a processor access token or with one never issued', suites: ['@processor', '@auth'] },
  // ---- versions -----------------------------------------------------------------
  { name: 'sunset-version-served', kind: 'fault', area: 'versions', section: 'Versioning: after sunset access is removed and requests return an error; Errors', description: 'A request naming a sunset version answers 200 instead of an error', suites: ['@versions'] },
  { name: 'unknown-version-served', kind: 'fault', area: 'versions', section: 'Versioning: versions are named v<YYYYMMDD>; only versions in play are served', description: 'An unknown Accept-Version silently falls back to the default version', suites: ['@versions'] },
  { name: 'deprecation-headers-missing', kind: 'fault', area: 'versions', section: 'Versioning: response headers that signal deprecated and sunset endpoints are present in all versions', description: 'Deprecated versions and endpoints answer without deprecation/sunset headers', suites: ['@versions'] },
  { name: 'sunset-endpoint-served', kind: 'fault', area: 'versions', section: 'Versioning, changes in v20250224: sunset endpoints', description: 'Sunset endpoints (/payment_processor_authorization_code, /users/{user_guid}/connect_widget_url) still answer 2xx on v20250224', suites: ['@versions'] },
  // ---- versions: a breaking vendor upgrade (targets/simulator/upgrade.ts), only under the newest version; proven by npm run versions ----
  { name: 'upgrade-removes-field', kind: 'fault', area: 'versions', section: 'Versioning, breaking: removing or renaming a response field', description: 'Under the newest version institutions lose instructional_text', suites: ['upgrade'] },
  { name: 'upgrade-renames-field', kind: 'fault', area: 'versions', section: 'Versioning, breaking: removing or renaming a response field', description: 'Under the newest version institutions carry display_name in place of name', suites: ['upgrade'] },
  { name: 'upgrade-changes-field-type', kind: 'fault', area: 'versions', section: 'Versioning, breaking: changing the kind of data of a field', description: 'Under the newest version institution is_hidden is a string instead of a boolean', suites: ['upgrade'] },
  { name: 'upgrade-removes-enum-value', kind: 'fault', area: 'versions', section: 'Versioning, breaking: removing enum values', description: 'Under the newest version the credential type PASSWORD is gone (SECRET in its place)', suites: ['upgrade'] },
  { name: 'upgrade-requires-parameter', kind: 'fault', area: 'versions', section: 'Versioning, breaking: adding a required request parameter', description: 'Under the newest version GET /institutions answers 400 without a new region query parameter', suites: ['upgrade'] },
  { name: 'upgrade-moves-path', kind: 'fault', area: 'versions', section: 'Versioning, breaking: removing, moving or changing endpoint paths', description: 'Under the newest version GET /categories/default answers 404 (moved to /categories/defaults)', suites: ['upgrade'] },
  { name: 'upgrade-adds-field', kind: 'variation', area: 'versions', section: 'Versioning, non-breaking: adding response data elements', description: 'Under the newest version institutions gain a field upgrade_added_field', suites: ['upgrade', '@institutions'] },
  { name: 'upgrade-adds-header', kind: 'variation', area: 'versions', section: 'Versioning, non-breaking: adding a response header', description: 'Under the newest version institution responses carry an extra header X-Svc-Upgrade-Added', suites: ['upgrade', '@institutions'] },
  { name: 'upgrade-reorders-properties', kind: 'variation', area: 'versions', section: 'Versioning, non-breaking: reordering response properties', description: 'Under the newest version institution objects list their properties in reverse order', suites: ['upgrade', '@institutions'] },
  // ---- members, mfa, identify (simulator core) --------------------------------------
  { name: 'member-create-200-on-v20250224', kind: 'fault', area: 'members', section: 'Errors: 201 member created on version v20250224', description: 'Member creation answers 200 instead of 201 on v20250224', suites: ['@members', '@versions'] },
  { name: 'data-request-not-required-on-v20250224', kind: 'fault', area: 'members', section: 'Versioning, changes in v20250224: create member takes a required data_request with products', description: 'Member creation without data_request succeeds on v20250224', suites: ['@members', '@versions'] },
  { name: 'member-field-renamed', kind: 'fault', area: 'members', section: 'Resources, Member: connection_status; Versioning: renaming a response field is breaking', description: 'Members carry status instead of connection_status (member and status reads)', suites: ['@members'] },
  { name: 'aggregated-at-set-before-aggregation', kind: 'fault', area: 'members', section: 'Resources, Member: aggregated_at null before first aggregation', description: 'A new member has aggregated_at set before any aggregation ran', suites: ['@members', '@oauth'] },
  { name: 'is-being-aggregated-stuck-true', kind: 'fault', area: 'members', section: 'Resources, Member; States and transitions: is_being_aggregated true until aggregation completes, then false', description: 'is_being_aggregated stays true after aggregation completed', suites: ['@members'] },
  { name: 'halted-reported-as-denied', kind: 'fault', area: 'members', section: 'Endpoints, test-institution table: no credentials, server error, unavailable lead to HALTED', description: 'The BAD_REQUEST, SERVER_ERROR and UNAVAILABLE scenarios end in DENIED instead of HALTED', suites: ['@members'] },
  { name: 'locked-reported-as-connected', kind: 'fault', area: 'members', section: 'Endpoints, test-institution table: locked out leads to DENIED', description: 'The LOCKED scenario ends in CONNECTED instead of DENIED', suites: ['@members'] },
  { name: 'no-transactions-after-aggregation', kind: 'fault', area: 'members', section: 'What the service does: transactions are created automatically when a member aggregates successfully', description: 'A successful aggregation creates accounts but no transactions', suites: ['@members', '@transactions'] },
  { name: 'challenge-missing-on-mfa', kind: 'fault', area: 'mfa', section: 'Endpoints, widgets and members: when MFA is required the status response has a challenges array', description: 'CHALLENGED members have no challenges array on the status read', suites: ['@mfa'] },
  { name: 'wrong-answer-connects', kind: 'fault', area: 'mfa', section: 'Endpoints, test-institution table: answering with the correct-answer word progresses (a wrong one does not)', description: 'A wrong MFA answer connects the member', suites: ['@mfa'] },
  { name: 'follow-up-challenge-missing', kind: 'fault', area: 'mfa', section: 'Endpoints, test-institution table: text MFA gives a first challenge, then a follow-up', description: 'Text MFA connects after the first answer, without the follow-up challenge', suites: ['@mfa'] },
  { name: 'option-guid-missing-on-v20250224', kind: 'fault', area: 'mfa', section: 'Resources, Credential: option entries of MFA challenges carry a guid (v20250224)', description: 'Options of options/image_options challenges lack guid on v20250224', suites: ['@mfa', '@versions'] },
  { name: 'identify-409-instead-of-202', kind: 'fault', area: 'identify', section: 'Errors 202; Endpoints: identify while an identification is already running answers 202', description: 'Identify during a running identification answers 409', suites: ['@identify'] },
  { name: 'identify-202-instead-of-409', kind: 'fault', area: 'identify', section: 'Errors 409; Endpoints: identify while another aggregation-type job runs answers 409', description: 'Identify during a standard aggregation or extended history answers 202', suites: ['@identify'] },
  { name: 'standard-aggregation-not-throttled', kind: 'fault', area: 'members', section: 'Limits: aggregation throttle, standard aggregations trigger the throttle period', description: 'A second standard aggregation inside the throttle period starts a job', suites: ['@members'] },
  { name: 'aggregation-throttles-other-jobs', kind: 'fault', area: 'members', section: 'Limits: other aggregation-type jobs are not throttled', description: 'extend_history, verify and identify answer 429 inside the throttle period of a standard aggregation', suites: ['@members', '@identify'] },
  { name: 'no-daily-refresh', kind: 'fault', area: 'members', section: 'What the service does; Limits: accounts and transactions refresh every 24 hours', description: 'Connected members are never refreshed when 24 hours pass on the clock', suites: ['@members'] },
  { name: 'refresh-for-disabled-users', kind: 'fault', area: 'members', section: 'What the service does; Limits: refresh every 24 hours unless the user is disabled', description: 'Members of disabled users are refreshed after 24 hours', suites: ['@members'] },
  { name: 'x-callback-payload-missing-in-member-webhook', kind: 'fault', area: 'members', section: 'Events, rule 8: X-CALLBACK-PAYLOAD appears in member and member data updated webhooks', description: 'Member and member_data_updated webhooks lack x_callback_payload', suites: ['@members', 'delivery'] },
  { name: 'aggregation-webhook-missing-job-guid', kind: 'fault', area: 'members', section: 'Events, rule 9: aggregation payloads include job_guid, is_background, user_id', description: 'Aggregation webhooks lack job_guid', suites: ['@members', 'delivery'] },
  // ---- oauth, widgets ---------------------------------------------------------------
  { name: 'oauth-member-not-pending', kind: 'fault', area: 'oauth', section: 'States and transitions: create with is_oauth true leads to PENDING', description: 'OAuth members are created CONNECTED instead of PENDING', suites: ['@oauth'] },
  { name: 'oauth-uri-without-protocol', kind: 'fault', area: 'oauth', section: 'Resources, Member: oauth_window_uri, the service supplies the protocol; OAuth procedure 2', description: 'oauth_window_uri lacks its http(s):// prefix, so a client would have to add one', suites: ['@oauth'] },
  { name: 'oauth-uri-reusable', kind: 'fault', area: 'oauth', section: 'Limits: oauth_window_uri single use', description: 'A second load of oauth_window_uri shows the authorization page again', suites: ['@oauth'] },
  { name: 'oauth-redirect-drops-error-reason', kind: 'fault', area: 'oauth', section: 'Endpoints, redirect after OAuth: error_reason appended', description: 'The redirect after a denied OAuth lacks error_reason', suites: ['@oauth'] },
  { name: 'oauth-redirect-drops-client-query', kind: 'fault', area: 'oauth', section: 'Endpoints, redirect after OAuth: existing query parameters in the supplied URL are kept', description: 'The redirect to client_redirect_url drops the URL own query parameters', suites: ['@oauth'] },
  { name: 'member-guid-missing-in-redirect', kind: 'fault', area: 'oauth', section: 'Endpoints, redirect after OAuth: member_guid appended', description: 'The redirect after OAuth lacks member_guid', suites: ['@oauth'] },
  { name: 'oauth-webview-scheme-ignored', kind: 'fault', area: 'oauth', section: 'Endpoints, redirect after OAuth: with ui_message_webview_url_scheme the redirect is {scheme}://oauth_complete?...', description: 'A member with a webview scheme and no client_redirect_url gets the completion page instead of {scheme}://oauth_complete', suites: ['@oauth'] },
  { name: 'oauth-deny-connects', kind: 'fault', area: 'oauth', section: 'On the OAuth test institution the deny action is the error path', description: 'The deny action connects the member and reports success', suites: ['@oauth'] },
  { name: 'oauth-message-mx-false', kind: 'fault', area: 'oauth', section: 'Events, widget events: OAuth completion messages carry boolean mx true', description: 'oauthComplete messages carry mx false', suites: ['@oauth', '@widgets'] },
  { name: 'widget-data-request-not-required-on-v20250224', kind: 'fault', area: 'widgets', section: 'Versioning, changes in v20250224: request widget URL takes a required data_request', description: 'Widget URL requests without data_request succeed on v20250224', suites: ['@widgets', '@versions'] },
  { name: 'widget-event-missing-x-callback-payload', kind: 'fault', area: 'widgets', section: 'Events, widget events: X-CALLBACK-PAYLOAD returned as x_callback_payload inside each event metadata', description: 'Widget events (and OAuth completion messages) lack x_callback_payload', suites: ['@widgets'] },
  { name: 'widget-mobile-uses-postmessage', kind: 'fault', area: 'widgets', section: 'Events, widget events; OAuth procedure, widget flows: with is_mobile_webview events go to the WebView location', description: 'With is_mobile_webview true the widget still posts messages instead of navigating to {scheme}://{event path}', suites: ['@widgets'] },
  // ---- institutions, paging, categories -----------------------------------------------
  { name: 'institution-field-renamed', kind: 'fault', area: 'institutions', section: 'Resources, Institution: fields named code, guid, name, ...', description: 'Institutions carry institution_code instead of code', suites: ['@institutions'] },
  { name: 'institution-by-guid-404', kind: 'fault', area: 'institutions', section: 'Endpoints, Institutions: the identifier is the institution code or guid', description: 'GET /institutions/{guid} answers 404 (only codes are accepted)', suites: ['@institutions'] },
  { name: 'supports-fields-on-v20250224', kind: 'fault', area: 'institutions', section: 'Versioning, changes in v20250224: institution responses use supported_products in place of the four supports_* fields', description: 'On v20250224 institutions keep the four supports_* fields and lack supported_products', suites: ['@institutions', '@versions'] },
  { name: 'supported-products-missing-on-v20250224', kind: 'fault', area: 'institutions', section: 'Versioning, changes in v20250224: supported_products', description: 'On v20250224 institutions carry neither supported_products nor the supports_* fields', suites: ['@institutions', '@versions'] },
  { name: 'supports-fields-missing-on-v20111101', kind: 'fault', area: 'institutions', section: 'Resources, Institution: supports_* fields (deprecated only from v20250224)', description: 'On v20111101 institutions lack the four supports_* fields', suites: ['@institutions', '@versions'] },
  { name: 'supported-products-filter-ignored', kind: 'fault', area: 'institutions', section: 'Endpoints, Institutions: filter by supported products', description: 'GET /institutions?supported_products=... returns institutions without that product', suites: ['@institutions'] },
  { name: 'credentials-unknown-institution-200', kind: 'fault', area: 'institutions', section: 'Errors, 404: invalid institution_identifier on the credentials list', description: 'Credentials of an unknown institution answer 200 with an empty list', suites: ['@institutions'] },
  { name: 'page-of-1001-records', kind: 'fault', area: 'paging', section: 'Limits: records_per_page maximum 1000 (institutions, favourites, credentials, data exchange lists)', description: 'records_per_page above 1000 returns 1001 records instead of at most 1000', suites: ['@paging', 'load:paging'] },
  { name: 'records-per-page-ignored', kind: 'fault', area: 'paging', section: 'Endpoints: lists are paged with page and records_per_page', description: 'Every list page has 25 records whatever records_per_page says', suites: ['@paging', 'load:paging'] },
  { name: 'page-walk-repeats-records', kind: 'fault', area: 'paging', section: 'Endpoints: lists are paged with page and records_per_page', description: 'Each page after the first starts one record early, repeating a record of the previous page', suites: ['@paging', 'load:paging'] },
  { name: 'page-walk-skips-records', kind: 'fault', area: 'paging', section: 'Endpoints: lists are paged with page and records_per_page', description: 'Each page after the first starts one record late, so a walk misses records', suites: ['@paging', 'load:paging'] },
  { name: 'categories-118-defaults', kind: 'fault', area: 'categories', section: 'Limits: default categories 119; What the service does: 119 in total', description: 'GET /categories/default lists 118 default categories', suites: ['@categories'] },
  { name: 'category-is-default-false', kind: 'fault', area: 'categories', section: 'What the service does: each default category has is_default = true', description: 'The first default category has is_default false', suites: ['@categories'] },
  // ---- accounts, transactions ---------------------------------------------------------
  { name: 'account-balance-removed', kind: 'fault', area: 'accounts', section: 'Resources, Account: balance; Versioning: removing a response field is breaking', description: 'Accounts lack balance', suites: ['@accounts'] },
  { name: 'manual-account-outside-manual-member', kind: 'fault', area: 'accounts', section: 'What the service does: every manual account is created under one built-in manual-institution member', description: 'Each manual account gets its own new manual member', suites: ['@accounts'] },
  { name: 'merge-keeps-source-accounts', kind: 'fault', area: 'accounts', section: 'Endpoints, other endpoints named: POST /users/{user_guid}/accounts/merge', description: 'Merged accounts stay listed after the merge', suites: ['@accounts'] },
  { name: 'transaction-category-filter-ignored', kind: 'fault', area: 'transactions', section: 'Endpoints, other endpoints named: list transactions with optional filter category_guid', description: 'category_guid does not filter the transaction list', suites: ['@transactions'] },
  { name: 'transaction-created-at-filter-ignored', kind: 'fault', area: 'transactions', section: 'Endpoints, other endpoints named: filters from_created_at, to_created_at', description: 'from_created_at/to_created_at do not filter the transaction list', suites: ['@transactions'] },
  { name: 'transaction-top-level-category-filter-ignored', kind: 'fault', area: 'transactions', section: 'Endpoints, other endpoints named: list transactions with optional filter top_level_category_guid', description: 'top_level_category_guid does not filter the transaction list', suites: ['@transactions'] },
  { name: 'transaction-updated-at-filter-ignored', kind: 'fault', area: 'transactions', section: 'Endpoints, other endpoints named: filters from_updated_at, to_updated_at', description: 'from_updated_at/to_updated_at do not filter the transaction list', suites: ['@transactions'] },
  { name: 'transaction-includes-ignored', kind: 'fault', area: 'transactions', section: 'Resources, Transaction: includes returns repeating_transactions, merchants, classifications, geolocations', description: 'includes adds nothing to transactions', suites: ['@transactions'] },
  { name: 'twice-a-recurrence-renamed', kind: 'fault', area: 'transactions', section: 'Resources, Transaction: repeating transactions have a recurrence type including a twice_a_ kind', description: 'twice_a_month is reported as semi_monthly', suites: ['@transactions'] },
  { name: 'insight-cta-clicked-at-not-saved', kind: 'fault', area: 'accounts', section: 'Resources, Insight: cta_clicked_at settable on update', description: 'PUT insight answers 200 but cta_clicked_at is not stored', suites: ['@accounts'] },
  { name: 'localization-payload-missing', kind: 'fault', area: 'accounts', section: 'Resources, Insight: opt-in localization_payload with ?includes=localization_payload', description: 'includes=localization_payload returns insights without it', suites: ['@accounts'] },
  // ---- data exchange --------------------------------------------------------------
  { name: 'threedx-token-not-required', kind: 'fault', area: 'data-exchange', section: 'Authentication 3: data exchange reads require SVC-3DX-TOKEN', description: 'Token-protected reads answer 200 without SVC-3DX-TOKEN or with a token never issued', suites: ['@data-exchange'] },
  { name: 'threedx-manual-transaction-served', kind: 'fault', area: 'data-exchange', section: 'Limits, data exchange scope: only is_manual false transactions; Errors 404', description: 'Manual transactions are listed and read under a grant', suites: ['@data-exchange'] },
  { name: 'threedx-scope-mismatch-served', kind: 'fault', area: 'data-exchange', section: 'Limits, data exchange scope: only transactions whose data_scope matches the grant; Errors 404', description: 'Transactions of another data_scope are listed and read under a grant', suites: ['@data-exchange'] },
  { name: 'threedx-window-not-90-days', kind: 'fault', area: 'data-exchange', section: 'Limits: default transaction window 90 days before the request day', description: 'Transaction lists without from/to cover 365 days', suites: ['@data-exchange'] },
  { name: 'threedx-grant-query-partial-grantees', kind: 'fault', area: 'data-exchange', section: 'Endpoints, Data exchange: every grantee on the grant must be supplied or the grant is not returned', description: 'GET /data_exchange/grant returns a grant when only some of its grantees are supplied', suites: ['@data-exchange'] },
  { name: 'threedx-token-201-as-200', kind: 'fault', area: 'data-exchange', section: 'Errors: 201 data exchange token created', description: 'The token endpoint answers 200 instead of 201', suites: ['@data-exchange'] },
  { name: 'threedx-partner-id-not-accepted', kind: 'fault', area: 'data-exchange', section: 'Endpoints, Data exchange: member/account/transaction identifiers accept GUIDs or partner-defined IDs', description: 'Per-member paths answer 404 for partner ids (only GUIDs work)', suites: ['@data-exchange'] },
  // ---- ach returns, processor -------------------------------------------------------
  { name: 'verified-member-not-required-for-processor-code', kind: 'fault', area: 'processor', section: 'Endpoints, authorization code for processors: a member in the scope must already have been verified', description: 'An authorization code is issued for an unverified member', suites: ['@processor'] },
  { name: 'payment-account-missing-member-guid', kind: 'fault', area: 'processor', section: 'Endpoints, other endpoints named: /payment_account returns user_guid, member_guid, account_guid', description: '/payment_account lacks member_guid', suites: ['@processor'] },
  { name: 'processor-token-lifetime-wrong', kind: 'fault', area: 'processor', section: 'Authentication 4; Limits: processor access_token values expire 60 days after issue', description: 'Processor access tokens expire after 1 day (expires_in 86400)', suites: ['@processor'] },
  { name: 'ach-return-code-format-not-validated', kind: 'fault', area: 'ach-returns', section: 'Resources, ACH return: return_code is R followed by two digits', description: 'POST /ach_returns accepts a return_code such as "X1" or "R100" with 200', suites: ['@ach-returns'] },
  { name: 'ach-create-201', kind: 'fault', area: 'ach-returns', section: 'Errors / Endpoints: ACH return creation answers 200', description: 'POST /ach_returns answers 201 instead of 200', suites: ['@ach-returns'] },
  { name: 'ach-read-by-id-404', kind: 'fault', area: 'ach-returns', section: 'Endpoints, ACH returns: the path accepts the return guid or id', description: 'GET /ach_returns/{id} with the client id answers 404', suites: ['@ach-returns'] },
  // ---- audience, legacy ---------------------------------------------------------------
  { name: 'audience-csv-differs-from-json', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: list.csv is the same list, one identifier per line', description: 'list.csv leaves out the first identifier of the JSON list', suites: ['@audience'] },
  { name: 'audience-bearer-not-enforced', kind: 'fault', area: 'audience', section: 'Authentication 5: Bearer access token on all audience endpoints', description: 'Audience lists answer 200 without a bearer token', suites: ['@audience'] },
  { name: 'audience-updated-on-datetime', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: updated_on is an ISO 8601 date', description: 'updated_on is a date-time instead of YYYY-MM-DD', suites: ['@audience'] },
  { name: 'audience-count-mismatch', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: count (integer) of the list', description: 'count is one more than the number of identifiers in list', suites: ['@audience'] },
  { name: 'test-host-headers-not-enforced', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: requests carry SVC-API-Key and SVC-Client-ID', description: 'The test host answers 200 without SVC-API-Key / SVC-Client-ID', suites: ['@legacy'] },
  { name: 'test-host-refuses-legacy-accept', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: requests carry Accept: application/vnd.svc.legacy.v1+json', description: 'The test host answers 406 to requests carrying the legacy media type in Accept', suites: ['@legacy'] },
  { name: 'test-host-member-status-ignored', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: /members/{connection_status} returns a member in that status', description: 'Every member-in-a-status path returns a CONNECTED member', suites: ['@legacy'] },
  // ---- rate limit, errors ---------------------------------------------------------------
  { name: 'no-rate-limit', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'The service never answers 429, however fast a client sends', suites: ['load:rate-limit'] },
  { name: 'rate-limit-500', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'Requests over the rate limit answer 500 instead of 429', suites: ['load:rate-limit'] },
  { name: 'malformed-json-500', kind: 'fault', area: 'errors', section: 'Errors; bad input never gets a 5xx (Developers guide, Standards)', description: 'A request body that is not valid JSON answers 500', suites: ['@errors'] },
  { name: 'bad-paging-500', kind: 'fault', area: 'errors', section: 'Errors; bad input never gets a 5xx (Developers guide, Standards)', description: 'A non-numeric, zero or negative page / records_per_page answers 500', suites: ['@errors', '@paging'] },
  // ---- webhooks ---------------------------------------------------------------------
  { name: 'webhook-retry-payload-changed', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 4: retries carry an identical payload', description: 'A retry carries a body that differs from the first attempt (adds delivery_attempt)', suites: ['delivery'] },
  { name: 'webhook-retry-after-2xx', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 4: status 200-206 is a successful delivery', description: 'The delivery is retried once more after the receiver answered 2xx', suites: ['delivery'] },
  { name: 'webhook-13th-retry', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 5: at most 12 retries after the first attempt, then dropped', description: 'A delivery that keeps failing is retried a 13th time', suites: ['delivery'] },
  { name: 'webhook-no-retry-on-500', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 4: any other status triggers a retry', description: 'A delivery answered with a 5xx is dropped without a retry', suites: ['delivery'] },
  { name: 'webhook-no-retry-on-timeout', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 4: a timeout (connect, write, read) triggers a retry', description: 'A delivery whose answer times out is dropped without a retry', suites: ['delivery'] },
  { name: 'webhook-retry-schedule-ignored', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 5: retries spread over about 24 hours with decreasing frequency', description: 'Retries follow each other immediately instead of on the schedule', suites: ['delivery'] },
  { name: 'webhook-at-in-milliseconds', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 1: _at fields are Unix epoch seconds (no milliseconds)', description: 'Every _at field of a webhook body is sent in epoch milliseconds', suites: ['delivery'] },
  { name: 'webhook-on-field-datetime', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 1: _on fields are ISO 8601 dates (YYYY-MM-DD)', description: 'Every _on field of a webhook body is sent as a date-time', suites: ['delivery'] },
  { name: 'webhook-version-not-rising', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 3: version rises with each update of an object', description: 'A second webhook for the same object repeats the previous version', suites: ['delivery'] },
  { name: 'webhook-delivered-despite-skip', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 8: SVC-SKIP-WEBHOOK on create/update/delete', description: 'A change sent with SVC-SKIP-WEBHOOK still produces a webhook', suites: ['delivery'] },
  { name: 'webhook-test-without-action', kind: 'fault', area: 'webhooks', section: 'Events, Webhooks rule 7: a test webhook has action set to test', description: 'Test webhooks are sent without action: "test"', suites: ['delivery'] },
  { name: 'webhook-oauth-token-not-reused', kind: 'fault', area: 'webhooks', section: 'Authentication 6: the vendor reuses the token until it expires', description: 'A new OAuth token is requested for every delivery', suites: ['delivery'] },
  // ---- variations (Versioning: non-breaking) ------------------------------------------
  { name: 'test-host-plain-json', kind: 'variation', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: the vendor media type is stated for the request Accept header only; the response media type is not shown', description: 'The test host answers application/json instead of application/vnd.svc.legacy.v1+json (a JSON-family type the specification never requires of responses)', suites: ['@legacy'] },
  { name: 'webhook-added-fields', kind: 'variation', area: 'webhooks', section: 'Events, Webhooks rule 2: fields may be added at any time', description: 'Every object of every webhook body gains a field sim_added_field', suites: ['delivery'] },
  { name: 'webhook-reordered-fields', kind: 'variation', area: 'webhooks', section: 'Events, Webhooks rule 2: field order is not fixed', description: 'Every object of every webhook body lists its fields in reverse order', suites: ['delivery'] },
  { name: 'added-response-fields', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: adding response data elements', description: 'Every JSON object in every response gains a field sim_added_field', suites: ['*'] },
  { name: 'reordered-properties', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: reordering response properties', description: 'Every JSON object in every response lists its properties in reverse order', suites: ['*'] },
  { name: 'new-response-header', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: adding a response header', description: 'Every response carries an extra header X-Svc-Sim-Added', suites: ['*'] },
  { name: 'longer-opaque-identifiers', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: changing length or format of opaque strings (identifiers, messages)', description: 'Identifiers other than USR/MBR/ACT gain 9 more characters', suites: ['*'] },
  { name: 'new-enum-values', kind: 'variation', area: 'accounts', section: 'Versioning, non-breaking: enumerated response fields (for example account subtype) may gain values', description: 'Accounts carry subtype SIM_NEW_SUBTYPE and *_set_by SIM_NEW_SOURCE; institutions list an extra supported product sim_new_product', suites: ['@accounts', '@transactions', '@institutions', '@versions', '@processor', '@members'] },
  { name: 'longer-error-messages', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: changing length or format of opaque strings (identifiers, messages)', description: 'Every error body message gains about 200 more characters', suites: ['*'] },
  { name: 'required-parameter-made-optional', kind: 'variation', area: 'accounts', section: 'Versioning, non-breaking: making a required parameter optional', description: 'Manual account creation no longer needs balance or account_type (defaults 0 and OTHER)', suites: ['@accounts'] },
  { name: 'added-optional-query-parameter', kind: 'variation', area: 'transactions', section: 'Versioning, non-breaking: adding optional parameters', description: 'Transaction lists accept a new optional query parameter sim_min_amount (absolute amount at least)', suites: ['@transactions', '@members'] },
  { name: 'new-endpoint', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: adding endpoints', description: 'The platform serves an extra endpoint GET /users/{user_guid}/sim_added_resources (Basic authentication like the others)', suites: ['@auth', '@errors'] },
];

export const FAULTS = () => CATALOG.filter((e) => e.kind === 'fault');
export const VARIATIONS = () => CATALOG.filter((e) => e.kind === 'variation');

export function catalogEntry(name: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.name === name);
}

/** Refuses unknown names with a clear message rather than silently running clean. */
export function assertKnown(names: readonly string[]): void {
  const unknown = names.filter((n) => !catalogEntry(n));
  if (unknown.length) {
    throw new Error(`Unknown fault/variation name(s): ${unknown.join(', ')}. See targets/simulator/catalog.ts`);
  }
}
