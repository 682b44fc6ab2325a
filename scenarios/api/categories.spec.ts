/**
 * Categories of a user (specification, What the service does: "Default categories and
 * subcategories exist (119 in total, each with is_default = true); a user can also have
 * custom categories"; Endpoints, Categories: GET /categories/default is "equivalent to
 * the by-user default list").
 *
 * The by-user paths and the custom-category body are not shown: they come from the
 * profile (profile.userCategories, SVC_USER_DEFAULT_CATEGORIES_PATH,
 * SVC_USER_CATEGORIES_PATH), defaulting to the vendor reference's. On a real target a
 * default path that answers 404 skips the scenario with the variable to set; a path the
 * user sets is enforced.
 */
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX, need } from '../steps/responses.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { expectInferred } from '../inferred.ts';
import { walkList } from './journeys.ts';

const TAGS = ['@categories', '@destructive'];

type Category = { guid: string; is_default?: unknown; [k: string]: unknown };

const guids = (xs: Category[]) => xs.map((c) => c.guid).sort();

/** A by-user path template of the profile with the user filled in. */
const withUser = (path: string, user: string) => path.replace('{user_guid}', encodeURIComponent(user));

/** Skips on a real target whose (guessed) by-user path does not exist; the user's own path is enforced. */
async function probe(api: CheckedClient, path: string, variable: string) {
  const paths = api.profile.userCategories;
  const res = await api.get(path, { query: { records_per_page: 10 } });
  if (!api.profile.isSimulator && !paths.explicit && res.status === 404) {
    test.skip(
      true,
      `the by-user category path is not shown in the specification and ${path.replace(/USR-[^/]+/, '{user_guid}')} answered 404 on this target: set ${variable}`,
    );
  }
}

test('the by-user default category list equals GET /categories/default', { tag: TAGS }, async ({ api }) => {
  const user = await createUser(api);
  const path = withUser(api.profile.userCategories.defaults, user);
  await probe(api, path, 'SVC_USER_DEFAULT_CATEGORIES_PATH');
  const global = await walkList<Category>(api, '/categories/default', 'categories');
  const byUser = await walkList<Category>(api, path, 'categories');
  // Limits: "default categories 119"; the global list is the reference for the comparison.
  expect(global.length, 'GET /categories/default holds the 119 default categories').toBe(119);
  // Categories: "/categories/default ... equivalent to the by-user default list".
  expect(guids(byUser), `the by-user default list (${byUser.length}) holds exactly the categories of /categories/default (${global.length})`).toEqual(
    guids(global),
  );
  const notDefault = byUser.filter((c) => c.is_default !== true).map((c) => c.guid);
  // What the service does: default categories each have is_default = true.
  expect(notDefault, 'by-user default categories whose is_default is not true').toEqual([]);
});

test('a custom category of a user is listed beside the default categories', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  const paths = profile.userCategories;
  const user = await createUser(api);
  const listPath = withUser(paths.all, user);
  await probe(api, listPath, 'SVC_USER_CATEGORIES_PATH');
  const name = uniqueId('scn-category');
  // Create status and body not shown: any 2xx; the vendor reference's body {category: {name}}.
  const created = await api.post(withUser(paths.create, user), { category: { name } }, { expectStatus: ANY_2XX });
  const custom = need<string>(created, 'category.guid', api);
  const all = await walkList<Category>(api, listPath, 'categories');
  const defaults = await walkList<Category>(api, '/categories/default', 'categories');
  // What the service does: "a user can also have custom categories": the one created is the user's.
  expect(
    all.map((c) => c.guid),
    `the user's categories include the custom category ${custom}`,
  ).toContain(custom);
  // Endpoints, Categories: /categories/default is the list of default categories (119): a custom category is none of them.
  expect(
    defaults.map((c) => c.guid),
    "GET /categories/default never lists a user's custom category",
  ).not.toContain(custom);
  // "also": the defaults stay beside the custom category. Which list a user's categories
  // come back in is not shown, so this is inferred.
  const missing = defaults.filter((d) => !all.some((c) => c.guid === d.guid)).map((d) => d.guid);
  expectInferred(profile, missing.length === 0, {
    expectation: "the user's category list holds every default category beside the custom one",
    basis: 'What the service does: "a user can also have custom categories"; the list that returns them is not shown',
    received: `${missing.length} of ${defaults.length} default categories missing`,
  });
  const mine = all.find((c) => c.guid === custom)!;
  expectInferred(profile, mine.is_default !== true, {
    expectation: 'a custom category does not say is_default true',
    basis: 'What the service does: the 119 default categories have is_default = true; the value for custom ones is not shown',
    received: JSON.stringify(mine.is_default),
  });
});
