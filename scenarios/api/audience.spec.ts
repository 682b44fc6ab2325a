/**
 * Audience list service (specification, Endpoints "Audience list service";
 * Authentication 5): the JSON list and the CSV list carry the same identifiers; the
 * path's `{id_or_slug}` reads the same audience by its id and by its slug.
 */
import { test, expect, requireSetting } from '../fixtures.ts';
import { need } from '../steps/responses.ts';
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

test('the audience list read by its slug is the list read by its id', { tag: ['@audience', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  const id = requireSetting(profile.audience.audienceId, 'SVC_AUDIENCE_ID');
  // No answer carries the slug (the list names audience_id only): the partner knows it.
  const slug = requireSetting(profile.audience.audienceSlug, 'SVC_AUDIENCE_SLUG', 'the slug of the audience SVC_AUDIENCE_ID names');
  const institution = profile.audience.institutionPublicId;
  const query = institution ? { institution_public_id: institution } : undefined;
  // Endpoints, Audience list service: "GET /api/v1/audience/{id_or_slug}/list": the id or the
  // slug names the audience; Errors: "200 normal success for reads".
  const byId = await api.call({ api: 'audience', path: `/api/v1/audience/${encodeURIComponent(id)}/list`, query, expectStatus: 200 });
  const bySlug = await api.call({ api: 'audience', path: `/api/v1/audience/${encodeURIComponent(slug)}/list`, query, expectStatus: 200 });
  // The same audience read two ways: "audience_id (string)" names it in both answers.
  expect(need(bySlug, 'audience_id', api), `audience_id read by slug ${slug}`).toBe(need(byId, 'audience_id', api));
  // "GET .../list.csv: same query and authorization": the slug names the CSV list too.
  const csv = await api.call({
    api: 'audience',
    path: `/api/v1/audience/${encodeURIComponent(slug)}/list.csv`,
    query,
    headers: { accept: 'text/csv' },
    expectStatus: 200,
  });
  const fromCsv = csv.text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // "one identifier per line" of the same list.
  expect([...fromCsv].sort(), 'CSV identifiers read by slug vs the JSON list read by slug').toEqual([...need<string[]>(bySlug, 'list', api)].sort());
  // That the two reads list the same identifiers holds only while nobody changes the audience between them.
  const ids = [...need<string[]>(byId, 'list', api)].sort();
  const slugIds = [...need<string[]>(bySlug, 'list', api)].sort();
  expectInferred(profile, JSON.stringify(ids) === JSON.stringify(slugIds), {
    expectation: 'the list read by slug holds the identifiers of the list read by id',
    basis: 'Endpoints, Audience list service: {id_or_slug} names one audience; whether it changed between two reads is not shown',
    received: `by id ${ids.length} identifiers, by slug ${slugIds.length}`,
  });
});
