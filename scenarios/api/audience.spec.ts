/**
 * Audience list service (specification, Endpoints "Audience list service";
 * Authentication 5): the JSON list and the CSV list carry the same identifiers.
 */
import { test, expect, requireSetting } from '../fixtures.ts';

test('the JSON and CSV audience lists carry the same identifiers', { tag: ['@audience', '@readonly', '@smoke'] }, async ({ api, profile }) => {
  const id = requireSetting(profile.audience.audienceId, 'SVC_AUDIENCE_ID');
  const institution = profile.audience.institutionPublicId;
  const query = institution ? { institution_public_id: institution } : undefined;
  const json = await api.call({ api: 'audience', path: `/api/v1/audience/${id}/list`, query, expectStatus: 200 });
  const csv = await api.call({ api: 'audience', path: `/api/v1/audience/${id}/list.csv`, query, headers: { accept: 'text/csv' }, expectStatus: 200 });
  const fromJson = json.body.list as string[];
  // "one identifier per line"; a trailing newline and CRLF line ends are tolerated.
  const fromCsv = csv.text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  expect(fromJson.length, 'identifiers in the JSON list').toBeGreaterThan(0);
  expect([...fromCsv].sort(), 'CSV identifiers vs JSON list').toEqual([...fromJson].sort());
  expect(json.body.count, 'count vs the JSON list').toBe(fromJson.length);
});
