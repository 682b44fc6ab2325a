/**
 * Catalogue entries: The rate limit and the error answers.
 */
import type { CatalogEntry } from './entry.ts';

export const RATE_LIMIT_ERRORS = [
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
    name: 'rate-limit-never-recovers',
    kind: 'fault',
    area: 'rate-limit',
    section: 'Errors: 429 too many requests "when the rate limit is exceeded": a client that has backed off no longer exceeds it',
    description: 'Once a client is refused with 429 it is refused for good, however long it waits',
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
] as const satisfies readonly CatalogEntry[];
