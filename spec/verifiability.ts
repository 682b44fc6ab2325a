/**
 * Rows of spec/trace.yaml that no single run can verify, decided by a person and said
 * with the reason (the honest figures of `npm run spec:stats`, spec/columns.ts): kept
 * here, apart from the trace, so that the trace's rows say what the specification states
 * and this file says what a run can see of it. spec/stats.test.ts fails when an id here
 * names no checkable row of the trace.
 */

/**
 * Rows only observation across nights, a day or longer can verify on a real target: a
 * clock the suite cannot move, or a change a target makes to a version in place. Their
 * proofs (a moved clock, a compressed retry schedule, two versions the simulator serves)
 * run on the simulator only, so they count as "simulator-only proof", never as verified.
 */
export const LONG_RUNNING: Readonly<Record<string, string>> = {
  'wsd.refresh-24h': 'a day must pass: the daily refresh shows only in the same members read across 24 hours (What the service does; Limits, refresh cadence)',
  'lim.refresh': 'as wsd.refresh-24h: every 24 hours, observed across a day',
  'ev.rule5-max': 'Events rule 5: twelve retries spread over about 24 hours; only a receiver left failing for a day sees them all and that no thirteenth comes',
  'ev.rule5-dropped': 'Events rule 5: that a webhook is dropped after the twelfth retry shows only after about 24 hours of failed deliveries',
  'lim.webhook-retries': 'Limits, webhook retries: at most 12 over about 24 hours, observed only across that day',
  'wsd.microdeposits':
    '21 days must pass before a stale microdeposit is deleted (What the service does), and no microdeposit path is shown (SVC_PATH_MICRODEPOSITS)',
  'lim.microdeposits': 'as wsd.microdeposits: stale microdeposit deletion after 21 days',
  'auth.4-processor':
    'Authentication 4: a token "expires 60 days after issue" is behaviour, seen only by a token that still reads on day 59 and is refused after day 60; an expires_in an answer may carry is its word, not its behaviour (the /token response shape is not shown)',
  'lim.access-token': 'as auth.4-processor: the 60-day lifetime, observed across 60 days',
  'ver.lifecycle-18m':
    'Versioning, lifecycle: "supported for at least 18 months from launch": only a version watched for 18 months from its launch shows it (the launch day is not shown)',
  'ev.rule9-notifications':
    'Events rule 9: no way to make a service send a transaction or account notification is shown; only a capture left open across nights (live-delivery) sees one arrive',
  'ev.initial-data-ready':
    'Events: no trigger for an initial data ready webhook is shown; only a capture left open across nights (live-delivery) sees one arrive and checks it',
  'ver.breaking.1':
    'Versioning, breaking: a target breaks it only by making the change inside a version (between versions it is allowed and the upgrade check reports it), which only answers compared across nights show',
  'ver.breaking.2': 'as ver.breaking.1: a request parameter removed inside a version shows only against an earlier night',
  'ver.breaking.3': 'as ver.breaking.1: a parameter whose meaning or type changes inside a version shows only against an earlier night',
  'ver.breaking.4': 'as ver.breaking.1: a validation rule added inside a version shows only against an earlier night',
  'ver.breaking.6': 'as ver.breaking.1: an enum value removed inside a version shows only against an earlier night',
  'ver.breaking.7': 'as ver.breaking.1: a response structure changed inside a version shows only against an earlier night',
  'ver.breaking.8': 'as ver.breaking.1: an endpoint path removed or moved inside a version shows only against an earlier night',
};

/**
 * Long-running rows the nightly verifies by observation across nights (history/: the members it
 * leaves for the next night, history/keepers.ts; tonight's answers against last night's,
 * history/drift.ts), each with how, and the test that breaks it on a separately started
 * simulator across two or more nightlies and sees the nightly fail. They stay in the
 * long-running column (a real target shows them only a night later); spec:stats counts them
 * there as observed across nights. history/long-running.test.ts holds the keepers' and the
 * drift kinds' rows to this table.
 */
export const OBSERVED_ACROSS_NIGHTS: Readonly<Record<string, string>> = {
  'wsd.refresh-24h':
    "history/keepers.ts `refresh` and `disabled`: a member left connected is read the next night, its aggregated_at moved once a day passed on the target's clock, a disabled user's not (tests/nightly-keepers.system.test.ts: no-daily-refresh, refresh-for-disabled-users)",
  'lim.refresh': 'as wsd.refresh-24h',
  'ev.rule5-max':
    "history/keepers.ts `webhooks`: a receiver refusing the left member's webhooks counts the retries of each delivery (tests/nightly-keepers.system.test.ts: webhook-13th-retry)",
  'lim.webhook-retries': 'as ev.rule5-max',
  'ev.rule5-dropped': 'as ev.rule5-max: each refused delivery reaches 12 retries and comes no more',
  'ver.breaking.1':
    'history/drift.ts `refused-now`: a request a scenario sent last night and the target accepted, refused tonight (tests/nightly-drift.system.test.ts, night 6)',
  'ver.breaking.4': 'as ver.breaking.1: the refusal of a request accepted last night',
  'ver.breaking.8': 'as ver.breaking.1: the refusal of a request accepted last night',
  'ver.breaking.6': 'history/drift.ts `removed-enum-value` (tests/nightly-drift.system.test.ts, night 4)',
  'ver.breaking.7': 'history/drift.ts `changed-type` (tests/nightly-drift.system.test.ts, night 4)',
};

/** Rows no run and no observation of a real target can verify, each with the reason. */
export const NOT_VERIFIABLE: Readonly<Record<string, string>> = {
  'ev.rule4-success':
    'Events rule 6: "Delivery may be late or out of order" and receivers "ignore duplicates": a delivery repeated after a 2xx cannot be told from a duplicate, so a service that treats 200-206 otherwise shows nothing a receiver can see',
  'ep.test.headers': 'it says what a request to the test host carries, not what the host does with one that lacks them: no answer of the service can break it',
  'ep.widget.user-identifier': "a path parameter's name never reaches the wire, and what the renamed parameter accepts (a user's guid, its id) is not stated",
  'ev.widget.other-events.oauth-error':
    'oauthError is named without a trigger ("Exact payloads of widget events other than the OAuth completion messages: not shown"): no run knows when one is due',
  'wsd.insights': 'that insights are derived from transaction history is not observable; that a user without history has none is a reading, not a sentence',
};
