/**
 * A user of its own for each scenario, and the client-supplied ids of what a scenario
 * creates.
 */
import type { CheckedClient } from '../fixtures.ts';
import { suiteId } from '../cleanup.ts';
import { ANY_2XX, need } from './responses.ts';

/**
 * A client-supplied `id` for what a scenario creates (Resources and their fields: "Clients
 * are advised to set their own `id` (string) on every resource they create"), in the
 * suite's form `svcct-<run id>-<purpose>-<random>` (scenarios/cleanup.ts), so whatever a
 * run leaves on a target can be recognised.
 */
export function uniqueId(purpose: string): string {
  return suiteId(purpose);
}

/**
 * A user of its own for each scenario, so scenarios run in parallel and alone; the `api`
 * fixture deletes it when the test ends (scenarios/fixtures.ts).
 */
export async function createUser(api: CheckedClient, o: { version?: string; id?: string } = {}): Promise<string> {
  // The user-create status is not shown (Errors lists none for it): any 2xx.
  const res = await api.post(
    '/users',
    { user: { id: o.id ?? uniqueId('scn-user'), metadata: 'created by the conformance suite' } },
    { version: o.version, expectStatus: ANY_2XX },
  );
  return need<string>(res, 'user.guid', api);
}
