/**
 * Catalogue entries: Variations the Versioning section calls non-breaking (added fields,
 * longer identifiers, new enumeration values, new headers, ...), of every area.
 */
import type { CatalogEntry } from './entry.ts';

export const VERSIONING_VARIATIONS = [
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
] as const satisfies readonly CatalogEntry[];
