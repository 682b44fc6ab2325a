/**
 * The self-test's fuzz column: `npx tsx proof/selftest.ts --fuzz-only`
 * runs the fuzz project (scenarios/fuzz, tag @fuzz) alone against every catalogue entry
 * that a Playwright scenario can notice (faults and variations whose suites name a
 * scenario tag or `*`), so the matrix says which faults the fuzz project catches on its
 * own and that no variation makes it fail. This module reads that matrix: per check of
 * the fuzz project, the faults it caught, and those it alone caught.
 *
 * The fuzz test's error names the checks that caught something on its first line
 * (`fuzz caught: check_a,check_b (...)`, scenarios/fuzz/fuzz.spec.ts verdict); the
 * matrix keeps that line next to the catcher.
 */
import type { Matrix, MatrixRow } from './matrix.ts';
import type { CatalogEntry } from '../targets/index.ts';
import type { PlannedEntry, SuiteRun } from './plan.ts';

/** The fuzz project's scenario tag. */
export const FUZZ_TAG = '@fuzz';
export const FUZZ_RUN: SuiteRun = { kind: 'playwright', selectors: [FUZZ_TAG], all: false };

/**
 * Faults no single response of the API shows (the fuzz column counts every catalogue
 * fault visible in one response: a status, a field, a type, a header, a
 * refusal), by reason. The fuzz project sends independent requests and judges each
 * answer alone; these need a browser, a webhook receiver, the clock, or a comparison of
 * several answers (an effect of an earlier request, a list against another list or
 * against data the answer does not carry). The scenarios of their suites catch them.
 */
export const NOT_FUZZABLE_REASONS = {
  browser: 'shown in a browser only (widget events, the OAuth window, its redirects and messages)',
  webhook: 'shown in a webhook delivery, not in an API response',
  time: 'shown over time (aggregation settling, throttle periods, the daily refresh on the simulator clock)',
  effect: 'an effect of an earlier request (an aggregation, MFA answers, an update, a delete, a job, a create with given inputs) seen in a later answer',
  comparison: 'a comparison of several answers or of an answer with data it does not carry (two lists, page walks, a filter against records known to differ, which institutions are blocked or popular)',
  'not-shown': 'the path or method the fault refuses is not shown in the specification (x-svc-not-shown: the document\'s is the vendor reference\'s reading, the profile\'s default), so a refusal in one answer breaks no sentence; the scenario holds the target to the profile\'s path or to the same request\'s answer on an earlier version',
  unstated: 'the rule the fault breaks is the catalogue\'s reading, not a sentence of the specification one answer can be held to',
} as const;
export type NotFuzzableReason = keyof typeof NOT_FUZZABLE_REASONS;

const NOT_FUZZABLE_BY_REASON: Record<NotFuzzableReason, readonly string[]> = {
  browser: [
    'oauth-uri-reusable', 'oauth-redirect-drops-error-reason', 'oauth-redirect-drops-client-query', 'member-guid-missing-in-redirect',
    'oauth-webview-scheme-ignored', 'oauth-deny-connects', 'oauth-message-mx-false', 'oauth-message-without-member-guid',
    'oauth-message-error-reason-missing', 'oauth-scheme-wins-over-client-redirect', 'widget-event-missing-x-callback-payload',
    'widget-mobile-uses-postmessage', 'widget-app-referral-opens-oauth-window', 'widget-member-deleted-renamed',
    'widget-primary-action-event-missing', 'widget-back-to-search-missing', 'widget-oauth-error-event-missing',
  ],
  webhook: ['x-callback-payload-missing-in-member-webhook', 'aggregation-webhook-missing-job-guid'],
  time: ['is-being-aggregated-stuck-true', 'standard-aggregation-not-throttled', 'aggregation-throttles-other-jobs', 'no-daily-refresh', 'refresh-for-disabled-users'],
  effect: [
    'aggregated-at-set-before-aggregation', 'halted-reported-as-denied', 'locked-reported-as-connected', 'denied-reported-as-halted',
    'no-transactions-after-aggregation', 'challenge-missing-on-mfa', 'wrong-answer-connects', 'follow-up-challenge-missing',
    'resume-ignores-answers', 'identify-409-instead-of-202', 'identify-202-instead-of-409',
    'member-client-id-dropped', 'member-user-id-missing', 'member-institution-code-wrong', 'oauth-member-is-oauth-false',
    'oauth-member-not-pending', 'skip-aggregation-ignored', 'aggregation-not-assumed-on-v20250224', 'products-ignored-on-v20250224',
    'member-update-not-saved', 'member-delete-not-removed', 'aggregate-starts-nothing', 'verify-starts-nothing',
    'extend-history-starts-nothing', 'identify-starts-nothing', 'manual-account-outside-manual-member', 'manual-member-aggregates',
    'merge-keeps-source-accounts', 'insight-cta-clicked-at-not-saved', 'custom-categories-replace-defaults', 'insights-without-history',
    'verified-member-not-required-for-processor-code', 'payment-account-outside-scope', 'tagging-names-another-transaction',
    'goals-reposition-ignored', 'notification-type-not-api', 'notification-channel-not-push', 'notification-with-entity',
  ],
  comparison: [
    'page-walk-repeats-records', 'page-walk-skips-records', 'user-default-categories-differ', 'audience-csv-differs-from-json',
    'test-host-data-not-static', 'favorites-not-by-popularity', 'include-blocked-institutions-ignored', 'blocked-institutions-listed-by-default',
    'institution-name-filter-ignored', 'institution-country-filter-ignored', 'favorites-country-filter-ignored', 'supported-products-filter-ignored',
    'transaction-category-filter-ignored', 'transaction-created-at-filter-ignored', 'transaction-top-level-category-filter-ignored',
    'transaction-updated-at-filter-ignored', 'transaction-use-case-filter-ignored', 'ach-list-filters-ignored', 'credentials-list-incomplete',
    'supports-oauth-without-oauth', 'insight-repeating-transactions-empty', 'budgets-generated-without-transactions', 'manual-member-has-credentials',
    'threedx-window-too-narrow', 'threedx-member-path-scope-ignored',
    // The grant's data_scope is in the grant answers, not in the transaction answer; the request day is the
    // service's clock (the simulator's can be moved, its Date header cannot); which test institutions a test
    // host lists is not stated (svc_bank_oauth: "integration environment only").
    'threedx-scope-mismatch-served', 'threedx-window-includes-future', 'test-host-oauth-institution-missing',
    // A recurrence renamed (twice_a_month -> semi_monthly): the answer does not say which recurrence the series has.
    'twice-a-recurrence-renamed',
  ],
  'not-shown': ['managed-members-removed-on-v20250224', 'holdings-not-read-per-member'],
  unstated: ['widget-user-identifier-refused'],
};

/** Fault name -> why no single response shows it (NOT_FUZZABLE_REASONS). */
export const NOT_FUZZABLE: ReadonlyMap<string, NotFuzzableReason> = new Map(
  (Object.entries(NOT_FUZZABLE_BY_REASON) as Array<[NotFuzzableReason, readonly string[]]>).flatMap(([reason, names]) => names.map((n) => [n, reason] as const)),
);

/**
 * Entries the fuzz column runs: those an HTTP response of the API can show (a scenario
 * tag `@...` or `*` among the suites), less the faults no single response shows
 * (NOT_FUZZABLE). Variations all run: none may make the fuzz project fail.
 */
export function fuzzable(entry: CatalogEntry): boolean {
  if (entry.kind === 'fault' && NOT_FUZZABLE.has(entry.name)) return false;
  return entry.suites.some((s) => s === '*' || s.startsWith('@'));
}

/** The entry's plan with the fuzz project as its only suite. */
export function fuzzPlan(p: PlannedEntry): PlannedEntry {
  return { ...p, runs: [FUZZ_RUN] };
}

/** The checks named on a catcher's line (`... — fuzz caught: a,b (...)`). */
export function checksOfCatch(line: string): string[] {
  const m = /fuzz caught: ([\w,-]+)/.exec(line);
  return m ? m[1].split(',').filter(Boolean) : [];
}

export interface FuzzColumn {
  faults: number;
  caught: string[];
  survived: string[];
  /** Variations that made the fuzz project fail (false alarms). */
  alarms: string[];
  /** check -> faults it caught (with others or alone). */
  byCheck: Record<string, string[]>;
  /** check -> faults only it caught. */
  aloneByCheck: Record<string, string[]>;
}

export function fuzzColumn(rows: readonly MatrixRow[]): FuzzColumn {
  const faults = rows.filter((r) => r.kind === 'fault');
  const col: FuzzColumn = { faults: faults.length, caught: [], survived: [], alarms: [], byCheck: {}, aloneByCheck: {} };
  for (const r of faults) {
    if (r.verdict !== 'CAUGHT') { col.survived.push(r.name); continue; }
    col.caught.push(r.name);
    const checks = [...new Set(r.failed.flatMap(checksOfCatch))];
    for (const c of checks) (col.byCheck[c] ??= []).push(r.name);
    if (checks.length === 1) (col.aloneByCheck[checks[0]] ??= []).push(r.name);
  }
  for (const r of rows.filter((x) => x.kind === 'variation')) if (r.verdict !== 'PASSED') col.alarms.push(r.name);
  return col;
}

export function renderFuzzColumn(col: FuzzColumn, m?: Pick<Matrix, 'wallTimeMs' | 'machine'>): string {
  const checks = [...new Set([...Object.keys(col.byCheck), ...Object.keys(col.aloneByCheck)])].sort();
  return [
    '# Self-test, fuzz column (the fuzz project alone)',
    '',
    `Faults a scenario can notice: ${col.faults}; caught by the fuzz project alone: ${col.caught.length}; survived: ${col.survived.length}. Variations that made it fail: ${col.alarms.length ? col.alarms.join(', ') : 'none'}.${m ? ` Wall time ${(m.wallTimeMs / 1000).toFixed(0)} s${m.machine ? ` (load average ${m.machine.loadAverageAtStart.map((x) => x.toFixed(1)).join(' ')} at start, ${m.machine.cpus} cores)` : ''}.` : ''}`,
    '',
    '| check | faults caught | of them, caught by this check alone |',
    '|---|---|---|',
    ...checks.map((c) => `| ${c} | ${col.byCheck[c]?.length ?? 0} | ${col.aloneByCheck[c]?.length ?? 0}${col.aloneByCheck[c]?.length ? ` (${col.aloneByCheck[c].join(', ')})` : ''} |`),
    '',
    `Caught: ${col.caught.join(', ') || 'none'}`,
    '',
    `Survived: ${col.survived.join(', ') || 'none'}`,
    '',
  ].join('\n');
}
