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
  // ---- accounts, transactions ---------------------------------------------------------
  // ---- data exchange --------------------------------------------------------------
  // ---- ach returns, processor -------------------------------------------------------
  // ---- audience, legacy ---------------------------------------------------------------
  // ---- rate limit, errors ---------------------------------------------------------------
  { name: 'no-rate-limit', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'The service never answers 429, however fast a client sends', suites: ['load:rate-limit'] },
  { name: 'rate-limit-500', kind: 'fault', area: 'rate-limit', section: 'Errors: 429 too many requests when the rate limit is exceeded', description: 'Requests over the rate limit answer 500 instead of 429', suites: ['load:rate-limit'] },
  { name: 'malformed-json-500', kind: 'fault', area: 'errors', section: 'Errors; bad input never gets a 5xx (Developers guide, Standards)', description: 'A request body that is not valid JSON answers 500', suites: ['@errors'] },
  // ---- webhooks ---------------------------------------------------------------------
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
