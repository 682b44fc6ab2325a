/**
 * Catalogue entries: Authentication: Basic credentials, the processor token, the data
 * exchange token.
 */
import type { CatalogEntry } from './entry.ts';

export const AUTH = [
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
] as const satisfies readonly CatalogEntry[];
