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

/**
 * How strongly the specification backs a fault (issue 11; contracts/failure.ts `Tier`):
 *   stated    the entry breaks a sentence of the specification: the suite fails on it as
 *             configured for any target;
 *   inferred  the entry breaks a reasonable expectation no sentence states (an unknown
 *             version refused, bad input never a 5xx, a header under a guessed name):
 *             the suite only warns unless the profile asks for it, so the self-test runs
 *             the entry with the profile setting in `env` (SVC_STRICT=1, or the header
 *             names set explicitly).
 * Variations have no tier: each is a freedom the specification leaves.
 */
export type CatalogTier = 'stated' | 'inferred';

export interface CatalogEntry {
  name: string;
  kind: 'fault' | 'variation';
  /** Faults only; absent = stated. */
  tier?: CatalogTier;
  /**
   * Profile environment the self-test sets for this entry's runs (every suite kind):
   * what makes an inferred expectation gate (SVC_STRICT=1, SVC_DEPRECATION_HEADER=...).
   */
  env?: Record<string, string>;
  area: CatalogArea;
  /** Section of ../shared/specification.md (and the rule) that the entry breaks or plays. */
  section: string;
  /** One line: the deviation as a user would observe it. */
  description: string;
  /** Which suites can notice it (see above). */
  suites: string[];
}

/**
 * Suite tags of the scenarios that create members through POST /users/{u}/members
 * (directly or through scenarios/helpers.ts): what a variation of that operation can affect.
 */
const MEMBER_CREATING = ['@members', '@accounts', '@ach-returns', '@data-exchange', '@identify', '@transactions', '@processor', '@versions', '@oauth'];
/** Tags of the scenarios that read members, statuses or challenges (member creators plus the widget). */
const MEMBER_READING = [...MEMBER_CREATING, '@widgets'];
/** Tags of the scenarios that send input the service may refuse, or expect an error answer. */
const ERROR_READING = ['@errors', '@auth', '@versions', '@ach-returns', '@members', '@institutions', '@paging', '@legacy', '@audience', '@data-exchange', '@processor', '@identify', '@accounts', '@widgets', '@oauth', '@mfa'];

export const CATALOG: CatalogEntry[] = [
  // ---- auth -------------------------------------------------------------------
  { name: 'basic-auth-not-enforced', kind: 'fault', area: 'auth', section: 'Authentication 1: platform endpoints use HTTP Basic authentication', description: 'Platform endpoints answer 2xx without credentials or with a wrong API key', suites: ['@auth'] },
  { name: 'basic-auth-wrong-key-accepted', kind: 'fault', area: 'auth', section: 'Authentication 1: HTTP Basic with the client identifier as user name and the API key as password', description: 'The right client id with any API key is accepted', suites: ['@auth'] },
  { name: 'processor-token-not-required', kind: 'fault', area: 'auth', section: 'Authentication 4: the processor reads with the access_token issued for the authorization code (scope-limited)', description: 'GET /payment_account answers 200 without a processor access token or with one never issued', suites: ['@processor', '@auth'] },
  // ---- versions -----------------------------------------------------------------
  { name: 'sunset-version-served', kind: 'fault', area: 'versions', section: 'Versioning: after sunset access is removed and requests return an error; Errors', description: 'A request naming a sunset version answers 200 instead of an error', suites: ['@versions'] },
  { name: 'unknown-version-served', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'versions', section: 'Versioning: version names are dates v<YYYYMMDD> and three versions are in play; that an unknown one is refused is not stated (inferred)', description: 'An unknown Accept-Version silently falls back to the default version', suites: ['@versions'] },
  { name: 'deprecation-headers-missing', kind: 'fault', tier: 'inferred', env: { SVC_DEPRECATION_HEADER: 'Deprecation', SVC_SUNSET_HEADER: 'Sunset' }, area: 'versions', section: 'Versioning: response headers that signal deprecated and sunset endpoints are present in all versions; "Names of the deprecation and sunset response headers: not shown", so the check gates only with the names set in the profile', description: 'Deprecated versions and endpoints answer without deprecation/sunset headers (run with SVC_DEPRECATION_HEADER=Deprecation, SVC_SUNSET_HEADER=Sunset)', suites: ['@versions'] },
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
  { name: 'data-request-not-required-on-v20250224', kind: 'fault', area: 'members', section: 'Versioning, changes in v20250224: create member takes a required data_request with products', description: 'Member creation without data_request succeeds on v20250224', suites: ['@members', '@versions'] },
  { name: 'member-field-renamed', kind: 'fault', area: 'members', section: 'Resources, Member: connection_status; Versioning: renaming a response field is breaking', description: 'Members carry status instead of connection_status (member and status reads)', suites: ['@members'] },
  { name: 'aggregated-at-set-before-aggregation', kind: 'fault', area: 'members', section: 'Resources, Member: aggregated_at null before first aggregation', description: 'A new member has aggregated_at set before any aggregation ran', suites: ['@members', '@oauth'] },
  { name: 'is-being-aggregated-stuck-true', kind: 'fault', area: 'members', section: 'Resources, Member; States and transitions: is_being_aggregated true until aggregation completes, then false', description: 'is_being_aggregated stays true after aggregation completed', suites: ['@members'] },
  { name: 'halted-reported-as-denied', kind: 'fault', area: 'members', section: 'Endpoints, test-institution table: no credentials, server error, unavailable lead to HALTED', description: 'The BAD_REQUEST, SERVER_ERROR and UNAVAILABLE scenarios end in DENIED instead of HALTED', suites: ['@members'] },
  { name: 'locked-reported-as-connected', kind: 'fault', area: 'members', section: 'Endpoints, test-institution table: locked out leads to DENIED', description: 'The LOCKED scenario ends in CONNECTED instead of DENIED', suites: ['@members'] },
  { name: 'no-transactions-after-aggregation', kind: 'fault', area: 'members', section: 'What the service does: transactions are created automatically when a member aggregates successfully', description: 'A successful aggregation creates accounts but no transactions', suites: ['@members', '@transactions'] },
  { name: 'challenge-missing-on-mfa', kind: 'fault', area: 'mfa', section: 'Endpoints, widgets and members: when MFA is required the status response has a challenges array', description: 'CHALLENGED members have no challenges array on the status read', suites: ['@mfa'] },
  { name: 'wrong-answer-connects', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'mfa', section: 'Endpoints, test-institution table: "answering with the correct-answer word <CORRECT_ANSWER> progresses"; that a wrong answer does not is not stated (inferred)', description: 'A wrong MFA answer connects the member', suites: ['@mfa'] },
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
  { name: 'user-default-categories-differ', kind: 'fault', area: 'categories', section: 'Endpoints, Categories: GET /categories/default is "equivalent to the by-user default list"', description: 'The by-user default category list leaves out one default category', suites: ['@categories'] },
  { name: 'custom-categories-replace-defaults', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'categories', section: 'What the service does: "a user can also have custom categories" (beside the defaults); the list that returns them is not shown (inferred)', description: 'A user with a custom category lists only the custom categories, without the 119 defaults', suites: ['@categories'] },
  // ---- accounts, transactions ---------------------------------------------------------
  { name: 'account-balance-removed', kind: 'fault', area: 'accounts', section: 'Resources, Account: balance; Versioning: removing a response field is breaking', description: 'Accounts lack balance', suites: ['@accounts'] },
  { name: 'manual-account-outside-manual-member', kind: 'fault', area: 'accounts', section: 'What the service does: every manual account is created under one built-in manual-institution member', description: 'Each manual account gets its own new manual member', suites: ['@accounts'] },
  { name: 'merge-keeps-source-accounts', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'accounts', section: 'Endpoints, other endpoints named: POST /users/{user_guid}/accounts/merge; its effect is not shown ("Full request and response bodies ... not shown"), so merged accounts leaving the list is inferred', description: 'Merged accounts stay listed after the merge', suites: ['@accounts'] },
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
  { name: 'ach-return-code-format-not-validated', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'ach-returns', section: 'Resources, ACH return: return_code is R followed by two digits; that a malformed one is refused (and with which status) is not stated (inferred)', description: 'POST /ach_returns accepts a return_code such as "X1" or "R100" with 200', suites: ['@ach-returns'] },
  { name: 'ach-create-201', kind: 'fault', area: 'ach-returns', section: 'Errors / Endpoints: ACH return creation answers 200', description: 'POST /ach_returns answers 201 instead of 200', suites: ['@ach-returns'] },
  { name: 'ach-read-by-id-404', kind: 'fault', area: 'ach-returns', section: 'Endpoints, ACH returns: the path accepts the return guid or id', description: 'GET /ach_returns/{id} with the client id answers 404', suites: ['@ach-returns'] },
  // ---- audience, legacy ---------------------------------------------------------------
  { name: 'audience-csv-differs-from-json', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: list.csv is the same list, one identifier per line', description: 'list.csv leaves out the first identifier of the JSON list', suites: ['@audience'] },
  { name: 'audience-bearer-not-enforced', kind: 'fault', area: 'audience', section: 'Authentication 5: Bearer access token on all audience endpoints', description: 'Audience lists answer 200 without a bearer token', suites: ['@audience'] },
  { name: 'audience-updated-on-datetime', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: updated_on is an ISO 8601 date', description: 'updated_on is a date-time instead of YYYY-MM-DD', suites: ['@audience'] },
  { name: 'audience-count-mismatch', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'audience', section: 'Endpoints, Audience list service: "count (integer)" beside "list (array of opaque string identifiers)"; that count equals the list length is not stated (inferred)', description: 'count is one more than the number of identifiers in list', suites: ['@audience'] },
  { name: 'test-host-headers-not-enforced', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'legacy', section: 'Endpoints, Earlier-generation test paths: requests carry SVC-API-Key and SVC-Client-ID; that requests without them are refused is not stated (inferred)', description: 'The test host answers 200 without SVC-API-Key / SVC-Client-ID', suites: ['@legacy'] },
  { name: 'test-host-refuses-legacy-accept', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: requests carry Accept: application/vnd.svc.legacy.v1+json', description: 'The test host answers 406 to requests carrying the legacy media type in Accept', suites: ['@legacy'] },
  { name: 'test-host-member-status-ignored', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: /members/{connection_status} returns a member in that status', description: 'Every member-in-a-status path returns a CONNECTED member', suites: ['@legacy'] },
  // ---- rate limit, errors ---------------------------------------------------------------
  { name: 'no-rate-limit', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'The service never answers 429, however fast a client sends', suites: ['load:rate-limit'] },
  { name: 'rate-limit-500', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'Requests over the rate limit answer 500 instead of 429', suites: ['load:rate-limit'] },
  { name: 'malformed-json-500', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'errors', section: 'Errors: "Error codes per endpoint beyond those in the table: not shown"; refusing bad input with a 4xx rather than a 5xx is inferred', description: 'A request body that is not valid JSON answers 500', suites: ['@errors'] },
  { name: 'bad-paging-500', kind: 'fault', tier: 'inferred', env: { SVC_STRICT: '1' }, area: 'errors', section: 'Errors: "Error codes per endpoint beyond those in the table: not shown"; refusing bad paging values with a 4xx rather than a 5xx is inferred', description: 'A non-numeric, zero or negative page / records_per_page answers 500', suites: ['@errors', '@paging'] },
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
  // ---- legitimate freedoms (issue 11): what the specification leaves open and a real
  // service does (../shared/real-service-notes.md). Each names the statement (or its
  // absence) and the notes' line; the stated rules still hold under every one of them.
  { name: 'member-create-200', kind: 'variation', area: 'members', section: 'Endpoints, Widgets and members: "On v20250224, a 201 created response exists" (not that 200 is wrong); Errors lists 201 without excluding others; real-service-notes, Status codes: create member declares 200 and 202 in both versions', description: 'Create member answers 200 in every version (v20250224 and v20260929 included)', suites: MEMBER_CREATING },
  { name: 'member-create-202', kind: 'variation', area: 'members', section: 'Endpoints, Widgets and members: "a 201 created response exists" on v20250224, no exclusive status; real-service-notes, Status codes: create member declares 200 and 202. With member-create-200 also in force, 202 wins', description: 'Create member answers 202 in every version', suites: MEMBER_CREATING },
  { name: 'member-name-null', kind: 'variation', area: 'members', section: 'Resources, Member: name string, nullness not stated ("string or null" is stated only for aggregated_at, successfully_aggregated_at); real-service-notes, Nullability: name nullable', description: 'Members carry name null', suites: MEMBER_READING },
  { name: 'oauth-window-uri-null-for-non-oauth', kind: 'variation', area: 'members', section: 'Resources, Member: oauth_window_uri "present for OAuth members" (nothing stated for others); real-service-notes, Nullability: oauth_window_uri null on non-OAuth members', description: 'Non-OAuth members carry oauth_window_uri null', suites: MEMBER_READING },
  { name: 'institution-text-fields-null', kind: 'variation', area: 'institutions', section: 'Resources, Institution: instructional_text and the help URLs are named without a stated nullness; real-service-notes, Nullability: almost every field nullable', description: 'Institutions carry instructional_text, instructional_text_steps, forgot_password_url, forgot_username_url, trouble_signing_in_url null', suites: ['@institutions', '@versions', '@paging', 'load:paging'] },
  { name: 'transaction-check-number-null', kind: 'variation', area: 'transactions', section: 'Resources, Transaction: check_number (string), nullness not stated; real-service-notes, Nullability: transaction check_number nullable', description: 'Transactions without a check number carry check_number null (instead of leaving it out)', suites: ['@transactions', '@members', '@accounts', '@data-exchange'] },
  { name: 'account-fields-null', kind: 'variation', area: 'accounts', section: 'Resources, Account: fields named without a stated nullness; real-service-notes, Nullability: almost every response field nullable', description: 'Accounts carry available_balance, is_personal, institution_guid and member_is_managed_by_user null', suites: ['@accounts', '@members', '@processor', '@data-exchange', '@transactions'] },
  { name: 'widget-user-id-null', kind: 'variation', area: 'widgets', section: 'Resources, Widget URL: response user_id (string), nullness not stated; real-service-notes, Nullability: user_id in the widget response nullable', description: 'The widget URL response carries user_id null', suites: ['@widgets', '@oauth', '@versions'] },
  { name: 'v20111101-institutions-without-guid', kind: 'variation', area: 'institutions', section: 'Versioning, changes in v20250224 (supported_products); Resources, Institution names fields without saying which version has them; real-service-notes, Nullability: v20111101 institutions have no guid, v20250224 adds guid, created_at, is_hidden and supported_products', description: 'On v20111101 institutions carry no guid, created_at, is_hidden or supported_products', suites: ['@institutions', '@versions', '@paging', 'load:paging'] },
  { name: 'no-deprecation-header', kind: 'variation', area: 'versions', section: 'Versioning: "Names of the deprecation and sunset response headers: not shown"; real-service-notes, Headers: the reference declares no Deprecation header (a missing header under a guessed name is a warning)', description: 'Deprecated versions and endpoints answer without the Deprecation header (the Sunset header stays)', suites: ['@versions'] },
  { name: 'no-sunset-header', kind: 'variation', area: 'versions', section: 'Versioning: "Names of the deprecation and sunset response headers: not shown"; real-service-notes, Headers: no Sunset header declared', description: 'Deprecated versions and endpoints answer without the Sunset header (the Deprecation header stays)', suites: ['@versions'] },
  { name: 'no-rate-limit-headers', kind: 'variation', area: 'rate-limit', section: 'Errors: 429 when the rate limit is exceeded; no header is stated ("Request rate limit values: not shown"); real-service-notes, Headers: no rate-limit headers, no Retry-After', description: '429 answers carry no Retry-After (and no rate-limit header)', suites: ['load:rate-limit'] },
  { name: 'rate-limit-429-without-body', kind: 'variation', area: 'rate-limit', section: 'Errors: 429 too many requests; "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared', description: '429 answers carry no body and no content type', suites: ['load:rate-limit'] },
  { name: 'page-size-below-10-falls-back-to-25', kind: 'variation', area: 'paging', section: 'Limits: "Default page size and default page number: not shown"; only a maximum is stated; real-service-notes, Paging: a value outside the range falls back to 25 (fewer than 10 may get 25)', description: 'records_per_page below 10 answers pages of 25 on every list', suites: ['@paging', '@institutions', '@errors', '@ach-returns', '@data-exchange', 'load:paging'] },
  { name: 'page-size-above-100-falls-back-to-25', kind: 'variation', area: 'paging', section: 'Limits: "Maximum records_per_page for list endpoints other than those in the table: not shown"; real-service-notes, Paging: valid range 10-100 on most lists, outside it 25. The lists with the stated 1000 maximum keep it', description: 'records_per_page above 100 answers pages of 25 on lists without a stated maximum (users, members, accounts, transactions, categories, ACH returns, ...); institutions, favourites, credentials and data exchange lists honour up to 1000', suites: ['@paging', '@categories', '@ach-returns', '@errors', '@accounts', '@transactions', '@members', 'load:paging'] },
  { name: 'categories-page-max-25', kind: 'variation', area: 'categories', section: 'Categories: query page, records_per_page; Limits names no maximum for categories ("not shown"); the 119 defaults are stated, the page size is not', description: 'GET /categories/default answers at most 25 categories a page whatever records_per_page asks (119 over 5 pages)', suites: ['@categories', '@paging', 'load:paging'] },
  { name: 'v1-vendor-media-type', kind: 'variation', area: 'versions', section: 'Authentication 2: earlier examples use a vendor media type application/vnd.svc.api.v1+json; Endpoints: bodies are JSON (the response media type is not shown); real-service-notes, Media types: v20111101 responses use application/vnd.svc.api.v1+json', description: 'JSON responses to v20111101 requests have Content-Type application/vnd.svc.api.v1+json', suites: ['*'] },
  { name: 'upper-case-challenge-types', kind: 'variation', area: 'mfa', section: 'Resources, Credential: "MFA challenges of type text, options, image and image_options" (a description, no enumeration or case stated); real-service-notes, Enumerations: TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS', description: 'Challenge types are TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS', suites: ['@mfa', '@members', '@widgets'] },
  { name: 'intermediate-connection-statuses', kind: 'variation', area: 'members', section: 'States and transitions: "Transitions between member connection statuses other than those in the table: not shown"; Versioning: enumerated response fields may gain values; real-service-notes, Enumerations: CREATED, RESUMED, UPDATED among 23 values', description: 'A non-OAuth member reads CREATED after create, RESUMED after an MFA answer and UPDATED after new credentials (instead of PENDING) before its end state', suites: MEMBER_READING },
  { name: 'more-supported-products', kind: 'variation', area: 'institutions', section: 'Resources, Institution: supported_products values "such as" four named; Versioning: enumerated response fields may gain values; real-service-notes, Enumerations: statements, investments, rewards', description: 'From v20250224 every institution lists statements, investments and rewards among supported_products', suites: ['@institutions', '@versions'] },
  { name: 'error-body-other-shape', kind: 'variation', area: 'errors', section: 'Errors: "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared', description: 'Error bodies are {"errors": [{"status", "title", "detail"}]} instead of {"error": {...}}', suites: ERROR_READING },
  { name: 'error-body-empty', kind: 'variation', area: 'errors', section: 'Errors: "Shape of error response bodies: not shown"; real-service-notes, Status codes: no error schema declared', description: 'Error answers (4xx, 5xx) carry no body and no content type', suites: [...ERROR_READING, 'load:rate-limit'] },
  { name: 'bad-request-400', kind: 'variation', area: 'errors', section: 'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared', description: 'Every refusal of a request\'s content (invalid JSON, missing or malformed field, bad paging, request not applicable in the member\'s state) answers 400', suites: ERROR_READING },
  { name: 'bad-request-404', kind: 'variation', area: 'errors', section: 'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared', description: 'Every refusal of a request\'s content answers 404 (with bad-request-422 in force, 422 wins; over bad-request-400, 404 wins)', suites: ERROR_READING },
  { name: 'bad-request-422', kind: 'variation', area: 'errors', section: 'Errors: "Error codes per endpoint beyond those in the table: not shown" (no status for refused input); real-service-notes, Status codes: no error responses declared', description: 'Every refusal of a request\'s content answers 422 (wins over bad-request-400 and bad-request-404)', suites: ERROR_READING },
  { name: 'data-request-optional-on-v20260929', kind: 'variation', area: 'versions', section: 'Versioning: the required data_request is stated for v20250224 ("Changes in v20250224"); "Breaking changes introduced by v20260929: not shown", and "making a required parameter optional" is non-breaking; real-service-notes, Request shapes: data_request optional in the reference', description: 'On v20260929 create member and widget URL accept a request without data_request (v20250224 still refuses it)', suites: ['@versions', '@members', '@widgets'] },
  { name: 'identify-200-when-idle', kind: 'variation', area: 'identify', section: 'Endpoints, identify behaviour: statuses are stated only while a job runs (202 identification, 409 other job); the status of a started identification is not shown', description: 'Identify on a member with no running job answers 200 (the 202 and 409 cases unchanged)', suites: ['@identify', '@members', '@processor'] },
  { name: 'widget-url-201', kind: 'variation', area: 'widgets', section: 'Endpoints, Widgets and members: request widget_url, response widget_url; no status stated (Errors table: 200 "normal success for reads, lists and ACH return creation" does not name it)', description: 'POST /users/{u}/widget_urls answers 201', suites: ['@widgets', '@oauth', '@versions'] },
  { name: 'delete-200-with-body', kind: 'variation', area: 'errors', section: 'Errors: no status stated for delete operations ("Error codes per endpoint beyond those in the table: not shown"); real-service-notes, Status codes: delete 204 in the reference, but the specification requires none', description: 'Every DELETE that would answer 204 answers 200 with a small JSON body', suites: ['@members', '@auth'] },
  { name: 'slow-aggregation', kind: 'variation', area: 'members', section: 'States and transitions: is_being_aggregated true until aggregation completes (its duration is not stated); Limits names no aggregation time', description: 'Aggregation-type jobs take four times as long (is_being_aggregated stays true for more polls)', suites: MEMBER_READING },
  { name: 'aggregating-while-challenged', kind: 'variation', area: 'mfa', section: 'Resources, Member: is_being_aggregated true while aggregation runs; States and transitions: CHALLENGED waits for an answer, its is_being_aggregated is not stated', description: 'CHALLENGED members read is_being_aggregated true', suites: ['@mfa', '@members', '@widgets'] },
];

export const FAULTS = () => CATALOG.filter((e) => e.kind === 'fault');
export const VARIATIONS = () => CATALOG.filter((e) => e.kind === 'variation');

/** A fault's tier (absent = stated); undefined for variations. */
export function tierOfEntry(e: CatalogEntry): CatalogTier | undefined {
  return e.kind === 'fault' ? (e.tier ?? 'stated') : undefined;
}

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
