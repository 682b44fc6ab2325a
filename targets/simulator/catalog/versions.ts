/**
 * Catalogue entries: Versioning: Accept-Version, deprecation and sunset; and a breaking
 * vendor upgrade (targets/simulator/upgrade.ts), only under the newest version, proven by
 * npm run versions.
 */
import type { CatalogEntry } from './entry.ts';

export const VERSIONS = [
  {
    name: 'sunset-version-served',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning: after sunset access is removed and requests return an error; Errors',
    description: 'A request naming a sunset version answers 200 instead of an error',
  },
  {
    name: 'unknown-version-served',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'versions',
    section: 'Versioning: version names are dates v<YYYYMMDD> and three versions are in play; that an unknown one is refused is not stated (inferred)',
    description: 'An unknown Accept-Version silently falls back to the default version',
  },
  {
    name: 'accept-version-lenient',
    kind: 'fault',
    area: 'versions',
    section:
      'Versioning: "The version is chosen with the request header Accept-Version; version names are dates of the form v<YYYYMMDD>" (a value of another form names no version: a 2xx is stated)',
    description: 'Accept-Version V20250224 or 20250224 (the wrong case, no v) is served as v20250224 with 200',
  },
  {
    name: 'deprecation-headers-missing',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_DEPRECATION_HEADER: 'Deprecation', SVC_SUNSET_HEADER: 'Sunset' },
    area: 'versions',
    section:
      'Versioning: response headers that signal deprecated and sunset endpoints are present in all versions; "Names of the deprecation and sunset response headers: not shown", so the check gates only with the names set in the profile',
    description:
      'Deprecated versions and endpoints answer without deprecation/sunset headers (run with SVC_DEPRECATION_HEADER=Deprecation, SVC_SUNSET_HEADER=Sunset)',
  },
  {
    name: 'deprecation-signal-on-current-endpoints',
    kind: 'fault',
    area: 'versions',
    section:
      'Versioning: the deprecated endpoints are listed ("/managed_institutions, /users/{user_guid}/managed_members ..."); the headers "signal deprecated and sunset endpoints": a signal on an endpoint nobody deprecated announces what was never stated',
    description: 'Every answer of a version nobody deprecated carries the deprecation header the deprecated endpoints carry',
    notFuzzable: 'comparison',
  },
  {
    name: 'sunset-endpoint-served',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, changes in v20250224: sunset endpoints',
    description: 'Sunset endpoints (/payment_processor_authorization_code, /users/{user_guid}/connect_widget_url) still answer 2xx on v20250224',
  },
  {
    name: 'managed-members-removed-on-v20250224',
    kind: 'fault',
    area: 'versions',
    section:
      'Versioning, changes in v20250224: /users/{user_guid}/managed_members and its sub-paths are deprecated (listed apart from the sunset endpoints); only a sunset removes access ("After those 12 months it sunsets: access is removed")',
    description: 'From v20250224 every /users/{u}/managed_members path answers 404 as if it had sunset',
    notFuzzable: 'not-shown',
  },
  {
    name: 'managed-institutions-removed-on-v20250224',
    kind: 'fault',
    area: 'versions',
    section:
      'Versioning, changes in v20250224: "Deprecated endpoints: /managed_institutions, ..." (listed apart from the sunset endpoints); only a sunset removes access ("After those 12 months it sunsets: access is removed"); Errors: 200 for reads',
    description: 'From v20250224 GET /managed_institutions answers 404 as if it had sunset',
  },
  {
    name: 'managed-members-deprecation-header-missing',
    kind: 'fault',
    area: 'versions',
    section:
      'Versioning: "Response headers that signal deprecated and sunset endpoints are present in all versions"; their names are not shown, so the name the target sends on /managed_institutions in the same run is the one held on every other deprecated endpoint',
    description: 'The deprecated /users/{u}/managed_members paths answer without the deprecation header that /managed_institutions carries',
    notFuzzable: 'comparison',
  },
  {
    name: 'vendor-accept-refused',
    kind: 'fault',
    area: 'versions',
    section: 'Authentication 2: earlier examples use a vendor media type application/vnd.svc.api.v1+json or v2+json in Accept',
    description: 'Requests whose Accept is application/vnd.svc.api.v1+json answer 406',
  },
  {
    name: 'in-play-version-refused',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning: versions in play v20260929 (current), v20250224, v20111101',
    description: 'Accept-Version v20250224 answers 400 (unknown version)',
  },
  {
    name: 'deprecated-version-refused',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, lifecycle: a deprecated version remains usable for 12 months after its deprecation date',
    description: 'A deprecated version (v20111101, deprecated 2026-09-29) answers 410 at once',
  },
  {
    name: 'recent-version-sunset',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'versions',
    section:
      'Versioning, lifecycle: a released version is supported for at least 18 months from launch (the launch day read from the version name is inferred)',
    description: 'The newest version (v20260929) answers 410 as if it had sunset',
  },
  {
    name: 'accept-version-ignored',
    kind: 'fault',
    area: 'versions',
    section: 'Endpoints: most endpoints accept the header Accept-Version; Versioning: the version is chosen with Accept-Version',
    description: 'Accept-Version is ignored: every request is answered as the newest version',
  },
  // ---- versions: a breaking vendor upgrade (targets/simulator/upgrade.ts), only under the newest version; proven by npm run versions ----
  {
    name: 'upgrade-removes-field',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: removing or renaming a response field',
    description: 'Under the newest version institutions lose instructional_text',
  },
  {
    name: 'upgrade-renames-field',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: removing or renaming a response field',
    description: 'Under the newest version institutions carry display_name in place of name',
  },
  {
    name: 'upgrade-changes-field-type',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: changing the kind of data of a field',
    description: 'Under the newest version institution is_hidden is a string instead of a boolean',
  },
  {
    name: 'upgrade-removes-enum-value',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: removing enum values',
    description: 'Under the newest version the credential type PASSWORD is gone (SECRET in its place)',
  },
  {
    name: 'upgrade-requires-parameter',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: adding a required request parameter',
    description: 'Under the newest version GET /institutions answers 400 without a new region query parameter',
  },
  {
    name: 'upgrade-moves-path',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: removing, moving or changing endpoint paths',
    description: 'Under the newest version GET /categories/default answers 404 (moved to /categories/defaults)',
  },
  {
    name: 'upgrade-adds-validation',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: adding a validation rule to an existing parameter',
    description: 'Under the newest version GET /institutions refuses records_per_page above 20 with 400',
  },
  {
    name: 'upgrade-removes-parameter',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: removing a request parameter from path or body',
    description: 'Under the newest version GET /categories/default refuses records_per_page (no longer a parameter) with 400',
  },
  {
    name: 'upgrade-changes-parameter-type',
    kind: 'fault',
    area: 'versions',
    section: 'Versioning, breaking: changing the meaning or type of a parameter',
    description: 'Under the newest version GET /users takes records_per_page as a size name (small, medium, large) and refuses a number with 400',
  },
  {
    name: 'upgrade-adds-field',
    kind: 'variation',
    area: 'versions',
    section: 'Versioning, non-breaking: adding response data elements',
    description: 'Under the newest version institutions gain a field upgrade_added_field',
    suites: ['upgrade', '@institutions'],
  },
  {
    name: 'upgrade-adds-header',
    kind: 'variation',
    area: 'versions',
    section: 'Versioning, non-breaking: adding a response header',
    description: 'Under the newest version institution responses carry an extra header X-Svc-Upgrade-Added',
    suites: ['upgrade', '@institutions'],
  },
  {
    name: 'upgrade-reorders-properties',
    kind: 'variation',
    area: 'versions',
    section: 'Versioning, non-breaking: reordering response properties',
    description: 'Under the newest version institution objects list their properties in reverse order',
    suites: ['upgrade', '@institutions'],
  },
] as const satisfies readonly CatalogEntry[];
