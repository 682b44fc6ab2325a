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
  // ---- versions -----------------------------------------------------------------
  { name: 'sunset-version-served', kind: 'fault', area: 'versions', section: 'Versioning: after sunset access is removed and requests return an error; Errors', description: 'A request naming a sunset version answers 200 instead of an error', suites: ['@versions'] },
  { name: 'unknown-version-served', kind: 'fault', area: 'versions', section: 'Versioning: versions are named v<YYYYMMDD>; only versions in play are served', description: 'An unknown Accept-Version silently falls back to the default version', suites: ['@versions'] },
  { name: 'deprecation-headers-missing', kind: 'fault', area: 'versions', section: 'Versioning: response headers that signal deprecated and sunset endpoints are present in all versions', description: 'Deprecated versions and endpoints answer without deprecation/sunset headers', suites: ['@versions'] },
  { name: 'sunset-endpoint-served', kind: 'fault', area: 'versions', section: 'Versioning, changes in v20250224: sunset endpoints', description: 'Sunset endpoints (/payment_processor_authorization_code, /users/{user_guid}/connect_widget_url) still answer 2xx on v20250224', suites: ['@versions'] },
  // ---- members, mfa, identify (simulator core) --------------------------------------
  // ---- oauth, widgets ---------------------------------------------------------------
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
  // ---- data exchange --------------------------------------------------------------
  { name: 'threedx-token-not-required', kind: 'fault', area: 'data-exchange', section: 'Authentication 3: data exchange reads require SVC-3DX-TOKEN', description: 'Token-protected reads answer 200 without SVC-3DX-TOKEN or with a token never issued', suites: ['@data-exchange'] },
  { name: 'threedx-manual-transaction-served', kind: 'fault', area: 'data-exchange', section: 'Limits, data exchange scope: only is_manual false transactions; Errors 404', description: 'Manual transactions are listed and read under a grant', suites: ['@data-exchange'] },
  { name: 'threedx-scope-mismatch-served', kind: 'fault', area: 'data-exchange', section: 'Limits, data exchange scope: only transactions whose data_scope matches the grant; Errors 404', description: 'Transactions of another data_scope are listed and read under a grant', suites: ['@data-exchange'] },
  { name: 'threedx-window-not-90-days', kind: 'fault', area: 'data-exchange', section: 'Limits: default transaction window 90 days before the request day', description: 'Transaction lists without from/to cover 365 days', suites: ['@data-exchange'] },
  { name: 'threedx-grant-query-partial-grantees', kind: 'fault', area: 'data-exchange', section: 'Endpoints, Data exchange: every grantee on the grant must be supplied or the grant is not returned', description: 'GET /data_exchange/grant returns a grant when only some of its grantees are supplied', suites: ['@data-exchange'] },
  { name: 'threedx-token-201-as-200', kind: 'fault', area: 'data-exchange', section: 'Errors: 201 data exchange token created', description: 'The token endpoint answers 200 instead of 201', suites: ['@data-exchange'] },
  { name: 'threedx-partner-id-not-accepted', kind: 'fault', area: 'data-exchange', section: 'Endpoints, Data exchange: member/account/transaction identifiers accept GUIDs or partner-defined IDs', description: 'Per-member paths answer 404 for partner ids (only GUIDs work)', suites: ['@data-exchange'] },
  // ---- ach returns, processor -------------------------------------------------------
  { name: 'ach-return-code-format-not-validated', kind: 'fault', area: 'ach-returns', section: 'Resources, ACH return: return_code is R followed by two digits', description: 'POST /ach_returns accepts a return_code such as "X1" or "R100" with 200', suites: ['@ach-returns'] },
  { name: 'ach-create-201', kind: 'fault', area: 'ach-returns', section: 'Errors / Endpoints: ACH return creation answers 200', description: 'POST /ach_returns answers 201 instead of 200', suites: ['@ach-returns'] },
  { name: 'ach-read-by-id-404', kind: 'fault', area: 'ach-returns', section: 'Endpoints, ACH returns: the path accepts the return guid or id', description: 'GET /ach_returns/{id} with the client id answers 404', suites: ['@ach-returns'] },
  // ---- audience, legacy ---------------------------------------------------------------
  { name: 'audience-csv-differs-from-json', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: list.csv is the same list, one identifier per line', description: 'list.csv leaves out the first identifier of the JSON list', suites: ['@audience'] },
  { name: 'audience-bearer-not-enforced', kind: 'fault', area: 'audience', section: 'Authentication 5: Bearer access token on all audience endpoints', description: 'Audience lists answer 200 without a bearer token', suites: ['@audience'] },
  { name: 'audience-updated-on-datetime', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: updated_on is an ISO 8601 date', description: 'updated_on is a date-time instead of YYYY-MM-DD', suites: ['@audience'] },
  { name: 'audience-count-mismatch', kind: 'fault', area: 'audience', section: 'Endpoints, Audience list service: count (integer) of the list', description: 'count is one more than the number of identifiers in list', suites: ['@audience'] },
  { name: 'test-host-headers-not-enforced', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: requests carry SVC-API-Key and SVC-Client-ID', description: 'The test host answers 200 without SVC-API-Key / SVC-Client-ID', suites: ['@legacy'] },
  { name: 'test-host-wrong-media-type', kind: 'fault', area: 'legacy', section: 'Endpoints, Earlier-generation test paths: Accept application/vnd.svc.legacy.v1+json', description: 'The test host answers application/json instead of the legacy media type', suites: ['@legacy'] },
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
  { name: 'added-response-fields', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: adding response data elements', description: 'Every JSON object in every response gains a field sim_added_field', suites: ['*'] },
  { name: 'reordered-properties', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: reordering response properties', description: 'Every JSON object in every response lists its properties in reverse order', suites: ['*'] },
  { name: 'new-response-header', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: adding a response header', description: 'Every response carries an extra header X-Svc-Sim-Added', suites: ['*'] },
  { name: 'longer-opaque-identifiers', kind: 'variation', area: 'errors', section: 'Versioning, non-breaking: changing length or format of opaque strings (identifiers, messages)', description: 'Identifiers other than USR/MBR/ACT gain 9 more characters', suites: ['*'] },
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
