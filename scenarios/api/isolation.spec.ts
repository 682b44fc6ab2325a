/**
 * Cross-client isolation (specification, What the service does: "A user is an end user
 * created by a client and belongs to exactly one client").
 *
 * A second client's credentials are needed (SVC_SECOND_CLIENT_ID, SVC_SECOND_API_KEY:
 * another client of the same environment). Without them the scenario is skipped with
 * that message; the embedded simulator serves a second client (its profile's defaults).
 *
 * Stated: a user of the first client is not a user of the second, so the second client
 * neither lists it nor reads it (a read must not succeed). The refusal's status is not
 * shown (404 or 403 are both reasonable): inferred.
 */
import { test, expect } from '../fixtures.ts';
import { expectRefused, is2xx, need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { isLastPage } from './journeys.ts';

const TAGS = ['@isolation', '@destructive', '@inferred'];

test('a user of one client is invisible to another client', { tag: TAGS }, async ({ api }) => {
  const { clientId: user, apiKey: pass } = api.profile.secondClient;
  test.skip(
    !user || !pass,
    'needs SVC_SECOND_CLIENT_ID and SVC_SECOND_API_KEY: the credentials of a second client of this environment (What the service does: a user "belongs to exactly one client"; no endpoint reveals another client\'s credentials)',
  );
  const other = { user: user!, pass: pass! };
  const mine = await createUser(api);
  // The second client's credentials work (its own user list answers 200), so a refusal below is about the user.
  const own = await api.get('/users', { auth: other, query: { records_per_page: 10 } });
  expect(is2xx(own.status), `GET /users with the second client's credentials answered ${own.status}: check SVC_SECOND_CLIENT_ID / SVC_SECOND_API_KEY`).toBe(
    true,
  );
  const read = await api.get(`/users/${mine}`, { auth: other });
  expectRefused(api.profile, read, `GET /users/${mine} by a second client`, {
    stated: 'What the service does: a user belongs to exactly one client',
    inferred: [403, 404],
  });
  // The second client's user list, walked page by page (bounded) with its credentials.
  const theirs: string[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api.get('/users', { auth: other, query: { page, records_per_page: 100 }, expectStatus: 200 });
    const users = need<Array<{ guid: string }>>(res, 'users', api);
    theirs.push(...users.map((u) => u.guid));
    if (isLastPage(res, page, users)) break;
  }
  expect(theirs, "the second client's user list").not.toContain(mine);
});
