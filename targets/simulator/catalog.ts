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
 * Which checks prove a fault is said once, by the rows of spec/trace.yaml whose `proven_by`
 * names it (their `verified_by` scenarios and side checks): the self-test runs the fault on
 * those alone (proof/plan.ts `planFault`). A variation's `suites` say which suites it can
 * affect, all of which must pass under it: tags of the Playwright scenarios (`@members`,
 * ...), `load:<script>`, `delivery` (webhook delivery conformance), `upgrade` (the
 * version-upgrade check), `*` (all).
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
  | 'errors'
  | 'product-areas';

/**
 * How strongly the specification backs a fault (DESIGN.md, "Checks and failures"; contracts/failure.ts `Tier`):
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

/**
 * Why no single response of the API shows a fault, so the fuzz column (proof/fuzz.ts), which
 * judges each answer alone, leaves it out: it needs a browser, a webhook receiver, the clock,
 * or a comparison of several answers. The scenarios of its trace rows catch it.
 */
export type NotFuzzableReason = 'browser' | 'webhook' | 'time' | 'effect' | 'comparison' | 'not-shown' | 'unstated';

interface EntryBase {
  name: string;
  area: CatalogArea;
  /** Section of ../shared/specification.md (and the rule) that the entry breaks or plays. */
  section: string;
  /** One line: the deviation as a user would observe it. */
  description: string;
}

export interface FaultEntry extends EntryBase {
  kind: 'fault';
  /** Absent = stated. */
  tier?: CatalogTier;
  /**
   * Profile environment the self-test sets for this entry's runs (every suite kind):
   * what makes an inferred expectation gate (SVC_STRICT=1, SVC_DEPRECATION_HEADER=...).
   */
  env?: Record<string, string>;
  /** Set when no single response shows the fault (the fuzz column leaves it out). */
  notFuzzable?: NotFuzzableReason;
  /** A fault's checks are its trace rows' (spec/trace.yaml), never tags of its own. */
  suites?: never;
}

export interface VariationEntry extends EntryBase {
  kind: 'variation';
  /** Which suites can notice it (see above); every one of them must pass under it. */
  suites: readonly string[];
  tier?: never;
  env?: never;
  notFuzzable?: never;
}

export type CatalogEntry = FaultEntry | VariationEntry;

/**
 * Suite tags of the scenarios that create members through POST /users/{u}/members
 * (directly or through scenarios/steps/members.ts): what a variation of that operation can affect.
 */
const MEMBER_CREATING = ['@members', '@accounts', '@ach-returns', '@data-exchange', '@identify', '@transactions', '@processor', '@versions', '@oauth'];
/** Tags of the scenarios that read members, statuses or challenges (member creators plus the widget). */
const MEMBER_READING = [...MEMBER_CREATING, '@widgets'];
/** Tags of the scenarios that send input the service may refuse, or expect an error answer. */
const ERROR_READING = [
  '@errors',
  '@auth',
  '@versions',
  '@ach-returns',
  '@members',
  '@institutions',
  '@paging',
  '@legacy',
  '@audience',
  '@data-exchange',
  '@processor',
  '@identify',
  '@accounts',
  '@widgets',
  '@oauth',
  '@mfa',
];

/**
 * `as const`: the names are a type (`FaultName`, `VariationName`), so `ctx.fault('…')` with a
 * name the catalogue does not hold is a compile error, not a fault that silently never fires.
 */
export const CATALOG = [
  // ---- auth -------------------------------------------------------------------
  {
    name: 'basic-auth-not-enforced',
    kind: 'fault',
    area: 'auth',
    section: 'Authentication 1: platform endpoints use HTTP Basic authentication',
    description: 'Platform endpoints answer 2xx without credentials or with a wrong API key',
  },
  {
    name: 'users-shared-across-clients',
    kind: 'fault',
    area: 'auth',
    section: 'What the service does: "A user is an end user created by a client and belongs to exactly one client"',
    description: "A second client lists and reads the first client's users (the simulator's second client sees every user)",
  },
  {
    name: 'basic-auth-wrong-key-accepted',
    kind: 'fault',
    area: 'auth',
    section: 'Authentication 1: HTTP Basic with the client identifier as user name and the API key as password',
    description: 'The right client id with any API key is accepted',
  },
  {
    name: 'processor-token-not-required',
    kind: 'fault',
    area: 'auth',
    section: 'Authentication 4: the processor reads with the access_token issued for the authorization code (scope-limited)',
    description: 'GET /payment_account answers 200 without a processor access token or with one never issued',
  },
  {
    name: 'grants-require-3dx-token',
    kind: 'fault',
    area: 'auth',
    section: 'Authentication 3: grant listing and grant reading need only Basic authentication',
    description: 'The grant lists and the grant query answer 401 without SVC-3DX-TOKEN',
  },
  // ---- versions -----------------------------------------------------------------
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
  // ---- members, mfa, identify (simulator core) --------------------------------------
  {
    name: 'data-request-not-required-on-v20250224',
    kind: 'fault',
    area: 'members',
    section: 'Versioning, changes in v20250224: create member takes a required data_request with products',
    description: 'Member creation without data_request succeeds on v20250224',
  },
  {
    name: 'member-create-plural-wrapper-accepted',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: POST /users/{user_guid}/members, "request member object" (a body without it is not the stated request)',
    description: 'POST /users/{user_guid}/members reads the member from {"members": {...}} when no member object is sent, and creates it',
  },
  {
    name: 'aggregated-at-set-before-aggregation',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: aggregated_at null before first aggregation',
    description: 'A new member has aggregated_at set before any aggregation ran',
    notFuzzable: 'effect',
  },
  {
    name: 'is-being-aggregated-stuck-true',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member; States and transitions: is_being_aggregated true until aggregation completes, then false',
    description: 'is_being_aggregated stays true after aggregation completed',
    notFuzzable: 'time',
  },
  {
    name: 'halted-reported-as-denied',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, test-institution table: no credentials, server error, unavailable lead to HALTED',
    description: 'The BAD_REQUEST, SERVER_ERROR and UNAVAILABLE scenarios end in DENIED instead of HALTED',
    notFuzzable: 'effect',
  },
  {
    name: 'locked-reported-as-connected',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, test-institution table: locked out leads to DENIED',
    description: 'The LOCKED scenario ends in CONNECTED instead of DENIED',
    notFuzzable: 'effect',
  },
  {
    name: 'no-transactions-after-aggregation',
    kind: 'fault',
    area: 'members',
    section: 'What the service does: transactions are created automatically when a member aggregates successfully',
    description: 'A successful aggregation creates accounts but no transactions',
    notFuzzable: 'effect',
  },
  {
    name: 'challenge-missing-on-mfa',
    kind: 'fault',
    area: 'mfa',
    section: 'Endpoints, widgets and members: when MFA is required the status response has a challenges array',
    description: 'CHALLENGED members have no challenges array on the status read',
    notFuzzable: 'effect',
  },
  {
    name: 'challenges-dropped-after-first-read',
    kind: 'fault',
    area: 'mfa',
    section: 'Endpoints, widgets and members: when MFA is required the status response has a challenges array (every read while CHALLENGED)',
    description: 'A CHALLENGED member carries its challenges array on the first status read only; a second read before answering has none',
    notFuzzable: 'comparison',
  },
  {
    name: 'wrong-answer-connects',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'mfa',
    section:
      'Endpoints, test-institution table: "answering with the correct-answer word <CORRECT_ANSWER> progresses"; that a wrong answer does not is not stated (inferred)',
    description: 'A wrong MFA answer connects the member',
    notFuzzable: 'effect',
  },
  {
    name: 'follow-up-challenge-missing',
    kind: 'fault',
    area: 'mfa',
    section: 'Endpoints, test-institution table: text MFA gives a first challenge, then a follow-up',
    description: 'Text MFA connects after the first answer, without the follow-up challenge',
    notFuzzable: 'effect',
  },
  {
    name: 'identify-409-instead-of-202',
    kind: 'fault',
    area: 'identify',
    section: 'Errors 202; Endpoints: identify while an identification is already running answers 202',
    description: 'Identify during a running identification answers 409',
    notFuzzable: 'effect',
  },
  {
    name: 'identify-202-instead-of-409',
    kind: 'fault',
    area: 'identify',
    section: 'Errors 409; Endpoints: identify while another aggregation-type job runs answers 409',
    description: 'Identify during a standard aggregation or extended history answers 202',
    notFuzzable: 'effect',
  },
  {
    name: 'standard-aggregation-not-throttled',
    kind: 'fault',
    area: 'members',
    section: 'Limits: aggregation throttle, standard aggregations trigger the throttle period',
    description: 'A second standard aggregation inside the throttle period starts a job',
    notFuzzable: 'time',
  },
  {
    name: 'aggregation-throttles-other-jobs',
    kind: 'fault',
    area: 'members',
    section: 'Limits: other aggregation-type jobs are not throttled',
    description: 'extend_history, verify and identify answer 429 inside the throttle period of a standard aggregation',
    notFuzzable: 'time',
  },
  {
    name: 'no-daily-refresh',
    kind: 'fault',
    area: 'members',
    section: 'What the service does; Limits: accounts and transactions refresh every 24 hours',
    description: 'Connected members are never refreshed when 24 hours pass on the clock',
    notFuzzable: 'time',
  },
  {
    name: 'refresh-for-disabled-users',
    kind: 'fault',
    area: 'members',
    section: 'What the service does; Limits: refresh every 24 hours unless the user is disabled',
    description: 'Members of disabled users are refreshed after 24 hours',
    notFuzzable: 'time',
  },
  {
    name: 'x-callback-payload-missing-in-member-webhook',
    kind: 'fault',
    area: 'members',
    section: 'Events, rule 8: X-CALLBACK-PAYLOAD appears in member and member data updated webhooks',
    description: 'Member and member_data_updated webhooks lack x_callback_payload',
  },
  {
    name: 'aggregation-webhook-missing-job-guid',
    kind: 'fault',
    area: 'members',
    section: 'Events, rule 9: aggregation payloads include job_guid, is_background, user_id',
    description: 'Aggregation webhooks lack job_guid',
  },
  // Resources, Member: one fault per stated field (each stated field proven checked), each caught by the scenario that reads the field.
  {
    name: 'member-client-id-dropped',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: id string, client-supplied identifier; clients are advised to set their own id on every resource they create',
    description: 'A member created with an id reads back with id null',
    notFuzzable: 'effect',
  },
  {
    name: 'member-user-guid-wrong',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: user_guid string, owning user; What the service does: a member is the connection between a user and an institution',
    description: 'Members name a well-formed user guid that is not their owner',
  },
  {
    name: 'member-user-id-missing',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: user_id string, client identifier of the user',
    description: 'Members of a user created with an id carry user_id null',
    notFuzzable: 'effect',
  },
  {
    name: 'member-list-stale-after-update',
    kind: 'fault',
    area: 'members',
    section:
      'Resources and their fields; States and transitions: one member, one set of values wherever it is read; update member moves it, and no stated transition gives its list entry other values than its own read',
    description: "After an update, the user's member list still shows the member's earlier id and metadata; the member's own read shows the new ones",
    notFuzzable: 'comparison',
  },
  {
    name: 'member-institution-code-wrong',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: institution_code string; What the service does: a member is the connection between a user and an institution',
    description: 'Members carry the institution guid in institution_code instead of the code they were created with',
    notFuzzable: 'effect',
  },
  {
    name: 'oauth-member-is-oauth-false',
    kind: 'fault',
    area: 'oauth',
    section: 'Resources, Member: is_oauth boolean, set true in the create request to make an OAuth member',
    description: 'A member created with is_oauth true reads is_oauth false',
    notFuzzable: 'effect',
  },
  {
    name: 'data-request-product-refused',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: data_request products values such as account_verification, identity_verification, transactions, history',
    description: 'Create member refuses data_request.products history and identity_verification (400)',
  },
  {
    name: 'skip-aggregation-ignored',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: create field skip_aggregation (boolean); OAuth procedure 4: aggregation starts unless skipped',
    description: 'Before v20250224 a member created with skip_aggregation true aggregates anyway',
    notFuzzable: 'effect',
  },
  {
    name: 'member-create-refuses-enable-app2app',
    kind: 'fault',
    area: 'members',
    section: 'Resources, Member: "Create-member request fields known: institution_code, id, is_oauth, skip_aggregation (...), enable_app2app, use_cases"',
    description: 'POST /users/{u}/members refuses a request carrying enable_app2app (400 unknown field)',
  },
  {
    name: 'aggregation-not-assumed-on-v20250224',
    kind: 'fault',
    area: 'members',
    section: 'Versioning, changes in v20250224: skip_aggregation is deprecated (aggregation is assumed unless data_request.products says otherwise)',
    description: 'From v20250224 a member aggregates only when skip_aggregation false is sent explicitly',
    notFuzzable: 'effect',
  },
  {
    name: 'products-ignored-on-v20250224',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'members',
    section:
      "Versioning, changes in v20250224: aggregation is assumed unless data_request.products says otherwise; that products naming neither transactions nor history bring no transactions is inferred (the products' meaning is not shown)",
    description: 'A member created on v20250224 with data_request.products [account_verification] gets transactions aggregated anyway',
    notFuzzable: 'effect',
  },
  {
    name: 'member-update-not-saved',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: members can be updated',
    description: 'PUT member answers 200 and changes nothing (id, metadata)',
    notFuzzable: 'effect',
  },
  {
    name: 'member-metadata-update-echoed-not-stored',
    kind: 'fault',
    area: 'members',
    section:
      'Endpoints, Widgets and members: members can be updated; Resources, Member: metadata "additional information": what an update wrote reads back as written',
    description:
      'PUT member answers with the metadata sent but keeps the earlier one: later reads show the old value (null for a member created without metadata)',
    notFuzzable: 'comparison',
  },
  {
    name: 'member-credentials-list-empty',
    kind: 'fault',
    area: 'members',
    section: "Endpoints, Widgets and members: GET .../credentials lists the member's credentials",
    description: 'GET /users/{u}/members/{m}/credentials answers an empty list for a member created with a user name and a password',
    notFuzzable: 'effect',
  },
  {
    name: 'member-delete-not-removed',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: members can be deleted',
    description: 'DELETE member answers 204 and the member is still read and listed',
    notFuzzable: 'effect',
  },
  {
    name: 'skip-webhook-header-refused',
    kind: 'fault',
    area: 'members',
    section: 'Events, rule 8: the real-time interface accepts an optional header SVC-SKIP-WEBHOOK on create, update and delete of members',
    description: 'Update and delete member carrying SVC-SKIP-WEBHOOK answer 400',
  },
  {
    name: 'skip-webhook-header-refused-on-create',
    kind: 'fault',
    area: 'members',
    section: 'Events, rule 8: the real-time interface accepts an optional header SVC-SKIP-WEBHOOK on create, update and delete of members (create)',
    description: 'Create member carrying SVC-SKIP-WEBHOOK answers 400',
  },
  {
    name: 'x-callback-payload-refused',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: X-CALLBACK-PAYLOAD is accepted on create, update, aggregate and verify member',
    description: 'Create, update, aggregate and verify member carrying X-CALLBACK-PAYLOAD answer 400',
  },
  {
    name: 'resume-ignores-answers',
    kind: 'fault',
    area: 'mfa',
    section: 'Endpoints, Widgets and members: PUT .../resume answers MFA challenges and resumes aggregation',
    description: 'Resume answers 202 and the member stays CHALLENGED on the same challenges',
    notFuzzable: 'effect',
  },
  {
    name: 'aggregate-refuses-include-params',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: aggregate member accepts optional query parameters include_holdings and include_transactions',
    description: 'POST .../aggregate with include_holdings or include_transactions answers 400',
  },
  {
    name: 'aggregate-starts-nothing',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: members can be aggregated; Resources, Member: is_being_aggregated true while aggregation runs',
    description: 'POST .../aggregate answers 202 and no aggregation runs',
    notFuzzable: 'effect',
  },
  {
    name: 'verify-starts-nothing',
    kind: 'fault',
    area: 'members',
    section: 'Endpoints, Widgets and members: members can be verified',
    description: 'POST .../verify answers 202 and the member is never verified',
    notFuzzable: 'effect',
  },
  {
    name: 'extend-history-starts-nothing',
    kind: 'fault',
    area: 'identify',
    section: 'Endpoints, Widgets and members: extended transaction history is an aggregation-type job (identify while it runs answers 409)',
    description: 'POST .../extend_history answers 202 and runs no job, so identify right after it is not refused',
    notFuzzable: 'effect',
  },
  {
    name: 'identify-starts-nothing',
    kind: 'fault',
    area: 'identify',
    section: 'Endpoints, Widgets and members: identify starts account owner identification for an existing member; GET .../account_owners lists account owners',
    description: 'POST .../identify answers 202 and no identification runs (no account owners ever)',
    notFuzzable: 'effect',
  },
  // ---- oauth, widgets ---------------------------------------------------------------
  {
    name: 'oauth-member-not-pending',
    kind: 'fault',
    area: 'oauth',
    section: 'States and transitions: create with is_oauth true leads to PENDING',
    description: 'OAuth members are created CONNECTED instead of PENDING',
    notFuzzable: 'effect',
  },
  {
    name: 'oauth-uri-without-protocol',
    kind: 'fault',
    area: 'oauth',
    section: 'Resources, Member: oauth_window_uri, the service supplies the protocol; OAuth procedure 2',
    description: 'oauth_window_uri lacks its http(s):// prefix, so a client would have to add one',
  },
  {
    name: 'oauth-uri-reusable',
    kind: 'fault',
    area: 'oauth',
    section: 'Limits: oauth_window_uri single use',
    description: 'A second load of oauth_window_uri shows the authorization page again',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-redirect-drops-error-reason',
    kind: 'fault',
    area: 'oauth',
    section: 'Endpoints, redirect after OAuth: error_reason appended',
    description: 'The redirect after a denied OAuth lacks error_reason',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-redirect-drops-client-query',
    kind: 'fault',
    area: 'oauth',
    section: 'Endpoints, redirect after OAuth: existing query parameters in the supplied URL are kept',
    description: 'The redirect to client_redirect_url drops the URL own query parameters',
    notFuzzable: 'browser',
  },
  {
    name: 'member-guid-missing-in-redirect',
    kind: 'fault',
    area: 'oauth',
    section: 'Endpoints, redirect after OAuth: member_guid appended',
    description: 'The redirect after OAuth lacks member_guid',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-webview-scheme-ignored',
    kind: 'fault',
    area: 'oauth',
    section: 'Endpoints, redirect after OAuth: with ui_message_webview_url_scheme the redirect is {scheme}://oauth_complete?...',
    description: 'A member with a webview scheme and no client_redirect_url gets the completion page instead of {scheme}://oauth_complete',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-deny-connects',
    kind: 'fault',
    area: 'oauth',
    section: 'On the OAuth test institution the deny action is the error path',
    description: 'The deny action connects the member and reports success',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-message-mx-false',
    kind: 'fault',
    area: 'oauth',
    section: 'Events, widget events: OAuth completion messages carry boolean mx true',
    description: 'oauthComplete messages carry mx false',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-message-without-member-guid',
    kind: 'fault',
    area: 'oauth',
    section: 'Events, widget events: oauthComplete/success and oauthComplete/error carry member_guid in metadata',
    description: 'OAuth completion messages carry no member_guid',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-message-error-reason-missing',
    kind: 'fault',
    area: 'oauth',
    section: 'Events, widget events: oauthComplete/error metadata carries error_reason (CANCELLED, DENIED, ...)',
    description: 'oauthComplete/error messages carry no error_reason',
    notFuzzable: 'browser',
  },
  {
    name: 'oauth-scheme-wins-over-client-redirect',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'oauth',
    section:
      'Endpoints, redirect after OAuth: "The client-redirect form is preferred" (that the service follows client_redirect_url when both forms are given is the reading, not stated: inferred)',
    description: 'With both client_redirect_url and ui_message_webview_url_scheme the browser goes to {scheme}://oauth_complete',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-data-request-not-required-on-v20250224',
    kind: 'fault',
    area: 'widgets',
    section: 'Versioning, changes in v20250224: request widget URL takes a required data_request',
    description: 'Widget URL requests without data_request succeed on v20250224',
  },
  {
    name: 'widget-event-missing-x-callback-payload',
    kind: 'fault',
    area: 'widgets',
    section: 'Events, widget events: X-CALLBACK-PAYLOAD returned as x_callback_payload inside each event metadata',
    description: 'Widget events (and OAuth completion messages) lack x_callback_payload',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-mobile-uses-postmessage',
    kind: 'fault',
    area: 'widgets',
    section: 'Events, widget events; OAuth procedure, widget flows: with is_mobile_webview events go to the WebView location',
    description: 'With is_mobile_webview true the widget still posts messages instead of navigating to {scheme}://{event path}',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-user-identifier-refused',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'widgets',
    section:
      'Endpoints, Widgets and members: "In version v20250224 the path uses user_identifier"; that the path takes a partner-defined id is a reading of the name, stated for data exchange only "where so stated" (inferred)',
    description: 'POST /users/{partner id}/widget_urls answers 404: only user guids are accepted',
    notFuzzable: 'unstated',
  },
  {
    name: 'widget-type-refused',
    kind: 'fault',
    area: 'widgets',
    section: 'Resources, Widget URL: widget_type, for example connect_widget; other types named are actionable_integration, money_dashboard_widget, ...',
    description: 'Widget URL requests for any widget type but connect_widget answer 400',
  },
  {
    name: 'widget-type-ignored',
    kind: 'fault',
    area: 'widgets',
    section:
      'Resources, Widget URL: request widget_type; "Response object widget_url with type (string), url (string) and user_id (string)": the widget asked for',
    description: 'The widget URL answer names connect_widget whatever widget_type was asked',
    notFuzzable: 'comparison',
  },
  {
    name: 'widget-user-id-of-another-user',
    kind: 'fault',
    area: 'widgets',
    section: 'Resources, Widget URL: "Response object widget_url with ... user_id (string)"; Resources, Member: user_id "client identifier of the user"',
    description: 'The widget URL answer names another user_id than the id of the user it was requested for',
    notFuzzable: 'comparison',
  },
  {
    name: 'widget-named-parameters-refused',
    kind: 'fault',
    area: 'widgets',
    section:
      'Resources, Widget URL: ui_message_version (integer, 4 shown), color_scheme (accepts browser), language choice including es, deep_link_params (object)',
    description: 'Widget URL requests with ui_message_version 4, color_scheme browser, language es or deep_link_params answer 400',
  },
  {
    name: 'widget-referral-source-lower-case-accepted',
    kind: 'fault',
    area: 'widgets',
    section: 'Resources, Widget URL: "oauth_referral_source (string, BROWSER or APP)" (another spelling is not one of the two: a 2xx is stated)',
    description: 'Widget URL requests with oauth_referral_source "browser" or "app" are accepted (read as BROWSER, APP)',
  },
  {
    name: 'widget-url-fields-coerced',
    kind: 'fault',
    area: 'widgets',
    section:
      'Resources, Widget URL: "is_mobile_webview (boolean)", "ui_message_version (integer, 4 shown)", the string fields (a value of another type breaks the stated type: a 2xx is stated)',
    description:
      'Widget URL requests take is_mobile_webview "false" or 0, ui_message_version "4" and a string field inside a one-element array, coerced to the stated types, with 200',
  },
  {
    name: 'widget-deep-link-view-refused',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'widgets',
    section:
      'Resources, Widget URL: deep_link_params (object with widget, view, date_range, account_guid); the values of view and date_range are not shown, so that a deep link naming them is accepted is inferred',
    description: 'Widget URL requests whose deep_link_params name view or date_range answer 400',
    notFuzzable: 'unstated',
  },
  {
    name: 'widget-app-referral-opens-oauth-window',
    kind: 'fault',
    area: 'widgets',
    section:
      'Endpoints, OAuth procedure, widget flows: iframe inside a WebView (is_mobile_webview false, oauth_referral_source APP): listen for the OAuth-requested event and pass the URL to the native app',
    description: 'With oauth_referral_source APP the widget in an iframe opens the OAuth window itself',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-member-deleted-renamed',
    kind: 'fault',
    area: 'widgets',
    section: 'Events, widget events: member deleted (svc/connect/memberDeleted)',
    description: 'Deleting a member in the widget sends svc/connect/memberRemoved instead of svc/connect/memberDeleted',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-primary-action-event-missing',
    kind: 'fault',
    area: 'widgets',
    section:
      'Events, widget events: member connected with primary action selected; widget flows: close the widget on the member-connected primary-action event',
    description: 'The primary action on a connected member sends no event',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-back-to-search-missing',
    kind: 'fault',
    area: 'widgets',
    section: 'Events, widget events: backToSearch (to be used with disable_search_institution)',
    description: 'The back control of a widget opened with disable_search_institution sends no backToSearch event',
    notFuzzable: 'browser',
  },
  {
    name: 'widget-oauth-error-event-missing',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'widgets',
    section: 'Events, widget events: oauthError is named; that a denied OAuth in the widget sends it is the reading, not stated (inferred)',
    description: 'A denied OAuth connection in the widget sends no oauthError event',
    notFuzzable: 'browser',
  },
  // ---- institutions, paging, categories -----------------------------------------------
  {
    name: 'institution-by-guid-404',
    kind: 'fault',
    area: 'institutions',
    section: 'Endpoints, Institutions: the identifier is the institution code or guid',
    description: 'GET /institutions/{guid} answers 404 (only codes are accepted)',
  },
  {
    name: 'supported-products-filter-ignored',
    kind: 'fault',
    area: 'institutions',
    section: 'Endpoints, Institutions: filter by supported products',
    description: 'GET /institutions?supported_products=... returns institutions without that product',
    notFuzzable: 'comparison',
  },
  {
    name: 'supports-filters-ignored',
    kind: 'fault',
    area: 'institutions',
    section:
      'Versioning, changes in v20250224: the list institutions query uses supported_products in place of four supports_* fields, so before v20250224 the list filters by the supports_* fields (Endpoints, Institutions: filters by supported products)',
    description:
      'GET /institutions on v20111101 ignores supports_account_verification, supports_account_identification, supports_transaction_history and supports_account_statement',
    notFuzzable: 'comparison',
  },
  {
    name: 'credentials-unknown-institution-200',
    kind: 'fault',
    area: 'institutions',
    section: 'Errors, 404: invalid institution_identifier on the credentials list',
    description: 'Credentials of an unknown institution answer 200 with an empty list',
  },
  {
    name: 'institution-name-filter-ignored',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'institutions',
    section:
      'Endpoints, Institutions: GET /institutions "filters by name"; the query name is not shown, so a miss under the guessed name (name) gates only under SVC_STRICT=1 or with SVC_INSTITUTION_NAME_PARAM set',
    description: 'GET /institutions ignores the name filter',
    notFuzzable: 'comparison',
  },
  {
    name: 'institution-name-filter-nomatch-widens',
    kind: 'fault',
    area: 'institutions',
    section:
      'Endpoints, Institutions: GET /institutions "filters by name": once the target has shown the parameter filters (a name narrows the list), a name no institution bears answers no institution, never the whole list',
    description: 'GET /institutions with a name no institution bears answers the whole list',
    notFuzzable: 'comparison',
  },
  {
    name: 'credentials-list-incomplete',
    kind: 'fault',
    area: 'institutions',
    section:
      'Endpoints, Institutions: GET /institutions/{institution_identifier}/credentials answers the "credentials required to create a member"; the test institution\'s scenarios are chosen through its password field',
    description: 'The credentials list leaves out the password credential',
    notFuzzable: 'comparison',
  },
  {
    name: 'credentials-max-page-refused',
    kind: 'fault',
    area: 'institutions',
    section: 'Endpoints, Institutions: GET /institutions/{institution_identifier}/credentials takes query page and records_per_page (max 1000)',
    description: 'The credentials list of an institution answers 400 to records_per_page above 100',
  },
  {
    name: 'institution-country-filter-ignored',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'institutions',
    section:
      'Endpoints, Institutions: GET /institutions "filters by name, country code ..."; the query name is not shown, so a miss under the guessed name (iso_country_code) gates only under SVC_STRICT=1 or with SVC_INSTITUTION_COUNTRY_PARAM set',
    description: 'GET /institutions ignores the country code filter (lists every institution for ZZ)',
    notFuzzable: 'comparison',
  },
  {
    name: 'favorites-country-filter-ignored',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'institutions',
    section: 'Endpoints, Institutions: GET /institutions/favorites "query: country code"; the query name is not shown (inferred under the guessed name)',
    description: 'GET /institutions/favorites ignores the country code filter',
    notFuzzable: 'comparison',
  },
  {
    name: 'favorites-not-by-popularity',
    kind: 'fault',
    area: 'institutions',
    section: 'Endpoints, Institutions: favourites "ordered by popularity"',
    description: 'GET /institutions/favorites lists the favourites by name instead of by popularity',
    notFuzzable: 'comparison',
  },
  {
    name: 'include-blocked-institutions-ignored',
    kind: 'fault',
    area: 'institutions',
    section: 'Endpoints, Institutions: GET /institutions query include_blocked_institutions',
    description: 'include_blocked_institutions=true still leaves out the institutions blocked for the client',
    notFuzzable: 'comparison',
  },
  {
    name: 'blocked-institutions-listed-by-default',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'institutions',
    section: 'Endpoints, Institutions: include_blocked_institutions; that blocked institutions are left out without it is not stated (inferred)',
    description: 'GET /institutions lists blocked institutions without include_blocked_institutions',
    notFuzzable: 'comparison',
  },
  {
    name: 'supports-oauth-without-oauth',
    kind: 'fault',
    area: 'institutions',
    section: 'Resources, Institution: supports_oauth "true only when the institution supports OAuth and the client is registered with it"',
    description: 'The credentials-only test institution reports supports_oauth true, though an OAuth member cannot be created there',
    notFuzzable: 'comparison',
  },
  {
    name: 'institution-list-drops-status',
    kind: 'fault',
    area: 'institutions',
    section:
      'Versioning: "removing or renaming a response field" is breaking; Resources, Institution names status and client_status: a field the service serves on one answer about an institution is on every answer about it',
    description: 'Institution lists leave out status and client_status, which the read of the same institution serves',
    notFuzzable: 'comparison',
  },
  {
    name: 'credentials-unknown-institution-200-before-current',
    kind: 'fault',
    area: 'institutions',
    section: 'Errors: "404 invalid institution_identifier on the credentials list" (no version is named: every version in play)',
    description: 'On the versions before the newest, credentials of an unknown institution answer 200 with an empty list; the newest keeps the 404',
  },
  {
    name: 'page-of-1001-records',
    kind: 'fault',
    area: 'paging',
    section: 'Limits: records_per_page maximum 1000 (institutions, favourites, credentials, data exchange lists)',
    description: 'records_per_page above 1000 returns 1001 records instead of at most 1000',
  },
  {
    name: 'records-per-page-ignored',
    kind: 'fault',
    area: 'paging',
    section: 'Endpoints: lists are paged with page and records_per_page',
    description: 'Every list page has 25 records whatever records_per_page says',
  },
  {
    name: 'page-walk-repeats-records',
    kind: 'fault',
    area: 'paging',
    section: 'Endpoints: lists are paged with page and records_per_page',
    description: 'Each page after the first starts one record early, repeating a record of the previous page',
    notFuzzable: 'comparison',
  },
  {
    name: 'page-walk-skips-records',
    kind: 'fault',
    area: 'paging',
    section: 'Endpoints: lists are paged with page and records_per_page',
    description: 'Each page after the first starts one record late, so a walk misses records',
    notFuzzable: 'comparison',
  },
  {
    name: 'page-past-last-repeats-last',
    kind: 'fault',
    area: 'paging',
    section: 'Endpoints: "Lists are paged with page and records_per_page": a page past the last holds no record',
    description: 'A page past the last answers the records of the last page again instead of none',
    notFuzzable: 'comparison',
  },
  {
    name: 'page-totals-count-one-more',
    kind: 'fault',
    area: 'paging',
    section: 'Endpoints: "Lists are paged with page and records_per_page": the totals a page states are those its pages hold',
    description: "A list's total_entries counts one record more than its pages hold",
    notFuzzable: 'comparison',
  },
  {
    name: 'categories-118-defaults',
    kind: 'fault',
    area: 'categories',
    section: 'Limits: default categories 119; What the service does: 119 in total',
    description: 'GET /categories/default lists 118 default categories',
  },
  {
    name: 'user-default-categories-differ',
    kind: 'fault',
    area: 'categories',
    section: 'Endpoints, Categories: GET /categories/default is "equivalent to the by-user default list"',
    description: 'The by-user default category list leaves out one default category',
    notFuzzable: 'comparison',
  },
  {
    name: 'custom-categories-replace-defaults',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'categories',
    section: 'What the service does: "a user can also have custom categories" (beside the defaults); the list that returns them is not shown (inferred)',
    description: 'A user with a custom category lists only the custom categories, without the 119 defaults',
    notFuzzable: 'effect',
  },
  // ---- accounts, transactions ---------------------------------------------------------
  {
    name: 'manual-account-outside-manual-member',
    kind: 'fault',
    area: 'accounts',
    section: 'What the service does: every manual account is created under one built-in manual-institution member',
    description: 'Each manual account gets its own new manual member',
    notFuzzable: 'effect',
  },
  {
    name: 'account-member-guid-wrong',
    kind: 'fault',
    area: 'accounts',
    section: 'What the service does: an account belongs to a member (Account member_guid)',
    description: 'Accounts listed under a member name a well-formed member guid that is not theirs',
  },
  {
    name: 'set-by-integer',
    kind: 'fault',
    area: 'accounts',
    section: 'Conventions for _set_by fields: a field ending in _set_by names the source FEED, USER or SYSTEM (strings from v20250224)',
    description: 'Every *_set_by field is an integer (1 or 2) in every version',
  },
  {
    name: 'account-set-by-feed-fields-removed',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'accounts',
    section:
      'Resources, Account: fields named ... plus *_set_by and feed_* variants ("Fields named" is a list of names, not a presence promise: a service that never serves them is judged inferred)',
    description: 'Accounts carry no *_set_by and no feed_* field',
  },
  {
    name: 'manual-member-has-credentials',
    kind: 'fault',
    area: 'accounts',
    section: 'What the service does: manual accounts carry no credentials',
    description: 'The built-in manual-institution member lists a username and password credential',
    notFuzzable: 'comparison',
  },
  {
    name: 'manual-member-aggregates',
    kind: 'fault',
    area: 'accounts',
    section: 'What the service does: manual accounts never aggregate',
    description: 'POST .../aggregate on the manual-institution member runs an aggregation that moves aggregated_at and the manual balance',
    notFuzzable: 'effect',
  },
  {
    name: 'manual-account-has-feed',
    kind: 'fault',
    area: 'accounts',
    section: 'What the service does: manual accounts receive no data feed',
    description: 'Manual accounts carry feed_balance / feed_name values and *_set_by FEED',
  },
  {
    name: 'merge-keeps-source-accounts',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'accounts',
    section:
      'Endpoints, other endpoints named: POST /users/{user_guid}/accounts/merge; its effect is not shown ("Full request and response bodies ... not shown"), so merged accounts leaving the list is inferred',
    description: 'Merged accounts stay listed after the merge',
    notFuzzable: 'effect',
  },
  {
    name: 'transaction-category-filter-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Endpoints, other endpoints named: list transactions with optional filter category_guid',
    description: 'category_guid does not filter the transaction list',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-category-filter-widens-when-empty',
    kind: 'fault',
    area: 'transactions',
    section:
      'Endpoints: "list transactions with optional filters category_guid, top_level_category_guid, ...": a filtered list holds only what meets the filter',
    description: 'A category_guid filter that matches no transaction answers every transaction instead of none',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-created-at-filter-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Endpoints, other endpoints named: filters from_created_at, to_created_at',
    description: 'from_created_at/to_created_at do not filter the transaction list',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-top-level-category-filter-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Endpoints, other endpoints named: list transactions with optional filter top_level_category_guid',
    description: 'top_level_category_guid does not filter the transaction list',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-updated-at-filter-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Endpoints, other endpoints named: filters from_updated_at, to_updated_at',
    description: 'from_updated_at/to_updated_at do not filter the transaction list',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-includes-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Resources, Transaction: includes returns repeating_transactions, merchants, classifications, geolocations',
    description: 'includes adds nothing to transactions',
  },
  {
    name: 'twice-a-recurrence-renamed',
    kind: 'fault',
    area: 'transactions',
    section: 'Resources, Transaction: repeating transactions have a recurrence type including a twice_a_ kind',
    description: 'twice_a_month is reported as semi_monthly',
    notFuzzable: 'comparison',
  },
  {
    name: 'transaction-use-case-filter-ignored',
    kind: 'fault',
    area: 'transactions',
    section: 'Endpoints, other endpoints named: list transactions with optional filter use_case (opted-in clients)',
    description: 'use_case does not filter the transaction list',
    notFuzzable: 'comparison',
  },
  {
    name: 'insight-cta-clicked-at-not-saved',
    kind: 'fault',
    area: 'accounts',
    section: 'Resources, Insight: cta_clicked_at settable on update',
    description: 'PUT insight answers 200 but cta_clicked_at is not stored',
    notFuzzable: 'effect',
  },
  {
    name: 'localization-payload-missing',
    kind: 'fault',
    area: 'accounts',
    section: 'Resources, Insight: opt-in localization_payload with ?includes=localization_payload',
    description: 'includes=localization_payload returns insights without it',
  },
  {
    name: 'insight-repeating-transactions-empty',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'accounts',
    section:
      'Resources, Insight: has_associated_repeating_transactions; Endpoints: GET /users/{user_identifier}/insights/{insight_guid}/repeating_transactions (that the list holds the associated ones is not stated: inferred)',
    description: 'An insight with has_associated_repeating_transactions true lists no repeating transactions',
    notFuzzable: 'comparison',
  },
  {
    name: 'insights-without-history',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'accounts',
    section:
      'What the service does: insights are "personalised items derived from a user\'s transaction history" (that a user with no history has none is the reading: inferred)',
    description: 'A user with no member and no transactions lists a generic insight',
    notFuzzable: 'effect',
  },
  {
    name: 'insight-repeating-transactions-unrouted',
    kind: 'fault',
    area: 'accounts',
    section: 'Endpoints, other endpoints named: GET /users/{user_identifier}/insights/{insight_guid}/repeating_transactions; Errors: 200 for reads and lists',
    description: 'The repeating transactions of an insight answer 404',
  },
  // ---- data exchange --------------------------------------------------------------
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
  // ---- ach returns, processor -------------------------------------------------------
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
  // ---- audience, legacy ---------------------------------------------------------------
  {
    name: 'audience-csv-differs-from-json',
    kind: 'fault',
    area: 'audience',
    section: 'Endpoints, Audience list service: list.csv is the same list, one identifier per line',
    description: 'list.csv leaves out the first identifier of the JSON list',
    notFuzzable: 'comparison',
  },
  {
    name: 'audience-bearer-not-enforced',
    kind: 'fault',
    area: 'audience',
    section: 'Authentication 5: Bearer access token on all audience endpoints',
    description: 'Audience lists answer 200 without a bearer token',
  },
  {
    name: 'audience-count-mismatch',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'audience',
    section:
      'Endpoints, Audience list service: "count (integer)" beside "list (array of opaque string identifiers)"; that count equals the list length is not stated (inferred)',
    description: 'count is one more than the number of identifiers in list',
  },
  {
    name: 'test-host-headers-not-enforced',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'legacy',
    section:
      'Endpoints, Earlier-generation test paths: requests carry SVC-API-Key and SVC-Client-ID; that requests without them are refused is not stated (inferred)',
    description: 'The test host answers 200 without SVC-API-Key / SVC-Client-ID',
  },
  {
    name: 'test-host-refuses-legacy-accept',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: requests carry Accept: application/vnd.svc.legacy.v1+json',
    description: 'The test host answers 406 to requests carrying the legacy media type in Accept',
  },
  {
    name: 'test-host-member-status-ignored',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: /members/{connection_status} returns a member in that status',
    description: 'Every member-in-a-status path returns a CONNECTED member',
  },
  {
    name: 'test-host-aggregate-status-ignored',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'legacy',
    section:
      'Endpoints, Earlier-generation test paths: POST /users/test_svc/members/{connection_status}/aggregate; that it answers a member in that status, as GET|PUT do ("returns a member in that status"), is inferred',
    description: 'Aggregating the test member in any connection status answers a CONNECTED member',
  },
  {
    name: 'audience-list-not-strings',
    kind: 'fault',
    area: 'audience',
    section: 'Endpoints, Audience list service: list (array of opaque string identifiers)',
    description: 'The JSON list carries numbers instead of string identifiers',
  },
  {
    name: 'audience-slug-not-found',
    kind: 'fault',
    area: 'audience',
    section: 'Endpoints, Audience list service: GET /api/v1/audience/{id_or_slug}/list and list.csv take the audience id or its slug',
    description: 'An audience list read by its slug answers 404; only the audience id is found',
    notFuzzable: 'comparison',
  },
  {
    name: 'test-host-accounts-missing',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: Accounts, three GET paths',
    description: 'The listed account paths of the test host answer 404',
  },
  {
    name: 'test-host-holdings-missing',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: Holdings, three GET paths',
    description: 'The listed holding paths of the test host answer 404',
  },
  {
    name: 'test-host-institutions-missing',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: Institutions, /test_institutions, /institutions/test_svcbank and its credentials',
    description: 'The listed institution paths of the test host answer 404',
  },
  {
    name: 'test-host-members-missing',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: Members (create, read, update, delete, resume, credentials, transactions, by connection status)',
    description: 'The listed member paths of the test host answer 404',
  },
  {
    name: 'test-host-others-missing',
    kind: 'fault',
    area: 'legacy',
    section:
      'Endpoints, Earlier-generation test paths: Others (identify, account owners, extend history, verify, account numbers, merchant, transactions, cleanse and categorize, test users, user, connect widget URL)',
    description: "The test host's other listed paths answer 404",
  },
  {
    name: 'test-host-data-not-static',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: a test host serves static data',
    description: "The test account's balance changes on every read",
    notFuzzable: 'comparison',
  },
  {
    name: 'test-host-merchant-id-renamed',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: merchant test_svc_merchant',
    description: 'GET /merchants/test_svc_merchant answers a merchant whose guid is MCH-test-merchant',
  },
  {
    name: 'test-host-challenge-type-ignored',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: /members/{challenge_type}/challenges (text, options, image, image_options)',
    description: 'Every challenge path answers the text challenge',
  },
  {
    name: 'test-host-oauth-institution-missing',
    kind: 'fault',
    area: 'legacy',
    section: 'Endpoints, Earlier-generation test paths: test institution codes svcbank and svc_bank_oauth',
    description: '/test_institutions lists svcbank only',
    notFuzzable: 'comparison',
  },
  {
    name: 'denied-reported-as-halted',
    kind: 'fault',
    area: 'members',
    section: 'States and transitions; Endpoints, test-institution table: invalid credentials, invalid login fields and locked out lead to DENIED',
    description: 'Member reads report HALTED where the member is DENIED (routes/protocol-faults.ts)',
    notFuzzable: 'effect',
  },
  // ---- rate limit, errors ---------------------------------------------------------------
  {
    name: 'no-rate-limit',
    kind: 'fault',
    area: 'rate-limit',
    section: 'Errors: 429 too many requests when the rate limit is exceeded',
    description: 'The service never answers 429, however fast a client sends',
  },
  {
    name: 'rate-limit-500',
    kind: 'fault',
    area: 'rate-limit',
    section: 'Errors: 429 too many requests when the rate limit is exceeded',
    description: 'Requests over the rate limit answer 500 instead of 429',
  },
  {
    name: 'malformed-json-500',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'errors',
    section: 'Errors: "Error codes per endpoint beyond those in the table: not shown"; refusing bad input with a 4xx rather than a 5xx is inferred',
    description: 'A request body that is not valid JSON answers 500',
  },
  {
    name: 'bad-paging-500',
    kind: 'fault',
    tier: 'inferred',
    env: { SVC_STRICT: '1' },
    area: 'errors',
    section: 'Errors: "Error codes per endpoint beyond those in the table: not shown"; refusing bad paging values with a 4xx rather than a 5xx is inferred',
    description: 'A non-numeric, zero or negative page / records_per_page answers 500',
  },
  // ---- product areas (paths not shown; profile.productPaths; routes/product-areas.ts) ----
  {
    name: 'notification-type-not-api',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface always have type API_NOTIFICATION',
    description: 'A notification created through the interface has type BUDGET_EXCEEDED',
    notFuzzable: 'effect',
  },
  {
    name: 'notification-channel-not-push',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface always have channel PUSH',
    description: 'A notification created through the interface has channel EMAIL',
    notFuzzable: 'effect',
  },
  {
    name: 'notification-with-entity',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: notifications created through the interface have no associated entity',
    description: 'A notification created through the interface names the user as its entity (entity_guid, entity_type)',
    notFuzzable: 'effect',
  },
  {
    name: 'goals-reposition-ignored',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: goals can be repositioned to change priority',
    description: 'PUT goals/reposition answers 200 but no goal changes position',
    notFuzzable: 'effect',
  },
  {
    name: 'goal-without-track-type-name',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: goals, each with track_type_name and meta_type_name',
    description: 'Goals carry no track_type_name',
  },
  {
    name: 'budget-without-category-guid',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: budgets, each with a category_guid',
    description: 'Budgets carry no category_guid',
  },
  {
    name: 'budgets-generated-without-transactions',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: budgets auto-generated from existing transactions',
    description: "Generated budgets are for categories none of the user's transactions use",
    notFuzzable: 'comparison',
  },
  {
    name: 'statement-not-pdf',
    kind: 'fault',
    area: 'product-areas',
    section: "What the service does: statements provide a user's monthly account statements as PDF",
    description: 'A statement download answers its JSON record instead of a PDF',
  },
  {
    name: 'tagging-names-another-transaction',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: a tagging applies a tag to one transaction',
    description: 'A tagging names another transaction of the user than the one it was applied to',
    notFuzzable: 'effect',
  },
  {
    name: 'holdings-not-read-per-member',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: investment holdings are read per user, account or member',
    description: 'GET /users/{u}/members/{m}/holdings answers 404',
    notFuzzable: 'not-shown',
  },
  {
    name: 'holdings-per-account-lists-all',
    kind: 'fault',
    area: 'product-areas',
    section: 'What the service does: investment holdings are read per user, account or member',
    description: 'The per-account holdings read lists every holding of the user',
  },
  {
    name: 'notifications-other-channels',
    kind: 'variation',
    area: 'product-areas',
    section: 'What the service does: "Read and list operations may also return notifications of other channels"',
    description: 'Notification lists also carry a seeded EMAIL notification of another type with an entity',
    suites: ['@product-areas'],
  },
  // ---- webhooks ---------------------------------------------------------------------
  {
    name: 'webhook-retry-payload-changed',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 4: retries carry an identical payload',
    description: 'A retry carries a body that differs from the first attempt (adds delivery_attempt)',
  },
  {
    name: 'webhook-retry-after-2xx',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 4: status 200-206 is a successful delivery',
    description: 'The delivery is retried once more after the receiver answered 2xx',
  },
  {
    name: 'webhook-13th-retry',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 5: at most 12 retries after the first attempt, then dropped',
    description: 'A delivery that keeps failing is retried a 13th time',
  },
  {
    name: 'webhook-no-retry-on-500',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 4: any other status triggers a retry',
    description: 'A delivery answered with a 5xx is dropped without a retry',
  },
  {
    name: 'webhook-no-retry-on-timeout',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 4: a timeout (connect, write, read) triggers a retry',
    description: 'A delivery whose answer times out is dropped without a retry',
  },
  {
    name: 'webhook-retry-schedule-ignored',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 5: retries spread over about 24 hours with decreasing frequency',
    description: 'Retries follow each other immediately instead of on the schedule',
  },
  {
    name: 'webhook-at-in-milliseconds',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 1: _at fields are Unix epoch seconds (no milliseconds)',
    description: 'Every _at field of a webhook body is sent in epoch milliseconds',
  },
  {
    name: 'webhook-on-field-datetime',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 1: _on fields are ISO 8601 dates (YYYY-MM-DD)',
    description: 'Every _on field of a webhook body is sent as a date-time',
  },
  {
    name: 'webhook-version-not-rising',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 3: version rises with each update of an object',
    description: 'A second webhook for the same object repeats the previous version',
  },
  {
    name: 'webhook-delivered-despite-skip',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 8: SVC-SKIP-WEBHOOK on create/update/delete',
    description: 'A change sent with SVC-SKIP-WEBHOOK still produces a webhook',
  },
  {
    name: 'webhook-test-without-action',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 7: a test webhook has action set to test',
    description: 'Test webhooks are sent without action: "test"',
  },
  {
    name: 'webhook-oauth-token-not-reused',
    kind: 'fault',
    area: 'webhooks',
    section: 'Authentication 6: the vendor reuses the token until it expires',
    description: 'A new OAuth token is requested for every delivery',
  },
  {
    name: 'verification-webhook-missing-accounts',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 9: verification payloads include an accounts field',
    description: 'Verification webhooks carry no accounts field',
  },
  {
    name: 'notification-webhook-missing-member-guid',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks rule 9: transaction and account notification payloads include member_guid',
    description: 'Transaction and account notification webhooks carry no member_guid',
  },
  {
    name: 'platform-client-receives-other-types',
    kind: 'fault',
    area: 'webhooks',
    section: 'Events, Webhooks: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements"',
    description: 'A platform client also receives member, member data updated and other webhook types',
  },
  // ---- variations (Versioning: non-breaking) ------------------------------------------
  {
    name: 'test-host-plain-json',
    kind: 'variation',
    area: 'legacy',
    section:
      'Endpoints, Earlier-generation test paths: the vendor media type is stated for the request Accept header only; the response media type is not shown',
    description:
      'The test host answers application/json instead of application/vnd.svc.legacy.v1+json (a JSON-family type the specification never requires of responses)',
    suites: ['@legacy'],
  },
  {
    name: 'webhook-added-fields',
    kind: 'variation',
    area: 'webhooks',
    section: 'Events, Webhooks rule 2: fields may be added at any time',
    description: 'Every object of every webhook body gains a field sim_added_field',
    suites: ['delivery'],
  },
  {
    name: 'webhook-reordered-fields',
    kind: 'variation',
    area: 'webhooks',
    section: 'Events, Webhooks rule 2: field order is not fixed',
    description: 'Every object of every webhook body lists its fields in reverse order',
    suites: ['delivery'],
  },
  {
    name: 'added-response-fields',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: adding response data elements',
    description: 'Every JSON object in every response gains a field sim_added_field',
    suites: ['*'],
  },
  {
    name: 'reordered-properties',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: reordering response properties',
    description: 'Every JSON object in every response lists its properties in reverse order',
    suites: ['*'],
  },
  {
    name: 'new-response-header',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: adding a response header',
    description: 'Every response carries an extra header X-Svc-Sim-Added',
    suites: ['*'],
  },
  {
    name: 'longer-opaque-identifiers',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: changing length or format of opaque strings (identifiers, messages)',
    description: 'Identifiers other than USR/MBR/ACT gain 9 more characters',
    suites: ['*'],
  },
  {
    name: 'new-enum-values',
    kind: 'variation',
    area: 'accounts',
    section: 'Versioning, non-breaking: enumerated response fields (for example account subtype) may gain values',
    description: 'Accounts carry subtype SIM_NEW_SUBTYPE and *_set_by SIM_NEW_SOURCE; institutions list an extra supported product sim_new_product',
    suites: ['@accounts', '@transactions', '@institutions', '@versions', '@processor', '@members'],
  },
  {
    name: 'longer-error-messages',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: changing length or format of opaque strings (identifiers, messages)',
    description: 'Every error body message gains about 200 more characters',
    suites: ['*'],
  },
  {
    name: 'required-parameter-made-optional',
    kind: 'variation',
    area: 'accounts',
    section: 'Versioning, non-breaking: making a required parameter optional',
    description: 'Manual account creation no longer needs balance or account_type (defaults 0 and OTHER)',
    suites: ['@accounts'],
  },
  {
    name: 'added-optional-query-parameter',
    kind: 'variation',
    area: 'transactions',
    section: 'Versioning, non-breaking: adding optional parameters',
    description: 'Transaction lists accept a new optional query parameter sim_min_amount (absolute amount at least)',
    suites: ['@transactions', '@members'],
  },
  {
    name: 'new-endpoint',
    kind: 'variation',
    area: 'errors',
    section: 'Versioning, non-breaking: adding endpoints',
    description: 'The platform serves an extra endpoint GET /users/{user_guid}/sim_added_resources (Basic authentication like the others)',
    suites: ['@auth', '@errors'],
  },
  // ---- legitimate freedoms (DESIGN.md, "Proving the suite"): what the specification leaves open and a real
  // service does (../shared/real-service-notes.md). Each names the statement (or its
  // absence) and the notes' line; the stated rules still hold under every one of them.
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

export type FaultName = Extract<(typeof CATALOG)[number], { kind: 'fault' }>['name'];
export type VariationName = Extract<(typeof CATALOG)[number], { kind: 'variation' }>['name'];

export const FAULTS = () => CATALOG.filter((e) => e.kind === 'fault');
export const VARIATIONS = () => CATALOG.filter((e) => e.kind === 'variation');

/** A fault's tier (absent = stated); undefined for variations. */
export function tierOfEntry(e: CatalogEntry): CatalogTier | undefined {
  return e.kind === 'fault' ? (e.tier ?? 'stated') : undefined;
}

export function catalogEntry(name: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.name === name);
}

/**
 * A fault name computed at run time (one fault per field, say), checked against the catalogue
 * once, so a computed name that is not catalogued fails at start rather than never firing.
 */
export function faultNamed(name: string): FaultName {
  const entry = catalogEntry(name);
  if (entry?.kind !== 'fault') throw new Error(`${name} is not a fault of targets/simulator/catalog.ts`);
  return name as FaultName;
}

/** Refuses unknown names with a clear message rather than silently running clean. */
export function assertKnown(names: readonly string[]): void {
  const unknown = names.filter((n) => !catalogEntry(n));
  if (unknown.length) {
    throw new Error(`Unknown fault/variation name(s): ${unknown.join(', ')}. See targets/simulator/catalog.ts`);
  }
}
