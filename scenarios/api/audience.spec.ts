/**
 * Audience list service (specification, Endpoints "Audience list service";
 * Authentication 5): the JSON list and the CSV list carry the same identifiers.
 */
import { test, expect, requireSetting } from '../fixtures.ts';
import { need } from '../lib/responses.ts';
import { expectInferred } from '../inferred.ts';

test('the JSON and CSV audience lists carry the same identifiers', { tag: ['@audience', '@readonly', '@smoke', '@inferred'] }, async ({ api, profile }) => {
  const id = requireSetting(profile.audience.audienceId, 'SVC_AUDIENCE_ID');
  const institution = profile.audience.institutionPublicId;
  const query = institution ? { institution_public_id: institution } : undefined;
  const json = await api.call({ api: 'audience', path: `/api/v1/audience/${id}/list`, query, expectStatus: 200 });
  const csv = await api.call({ api: 'audience', path: `/api/v1/audience/${id}/list.csv`, query, headers: { accept: 'text/csv' }, expectStatus: 200 });
  // Endpoints, audience: the JSON response has "list (array of opaque string identifiers)";
  // list.csv takes the "same query" and answers "one identifier per line".
  const fromJson = need<string[]>(json, 'list', api);
  // "one identifier per line"; a trailing newline and CRLF line ends are tolerated.
  const fromCsv = csv.text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  expect(fromJson.length, 'identifiers in the JSON list').toBeGreaterThan(0);
  expect([...fromCsv].sort(), 'CSV identifiers vs JSON list').toEqual([...fromJson].sort());
  // "count (integer)": that it counts the list is read from its name, not stated.
  expectInferred(profile, json.body.count === fromJson.length, {
    expectation: 'count equals the number of identifiers in list',
    basis: 'Endpoints, audience: count is named with its type only',
    received: `count ${JSON.stringify(json.body.count)}, list ${fromJson.length}`,
  });
});
