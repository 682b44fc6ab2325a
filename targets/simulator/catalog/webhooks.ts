/**
 * Catalogue entries: Webhooks: delivery, payloads, retries.
 */
import type { CatalogEntry } from './entry.ts';

export const WEBHOOKS = [
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
] as const satisfies readonly CatalogEntry[];
