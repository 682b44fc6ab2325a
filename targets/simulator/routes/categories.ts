/**
 * Default categories (Endpoints, "Categories"; Limits: 119 default categories) and a
 * user's categories (What the service does: "a user can also have custom categories";
 * Categories: the default list is "equivalent to the by-user default list").
 *
 *   GET  /categories/default                  paged list, `{categories, pagination}`
 *   GET  /categories/{category_guid}          one default category, `{category}`; 404 unknown
 *   GET  /users/{u}/categories/default        the by-user default list (the same 119)
 *   GET  /users/{u}/categories                the 119 defaults and the user's custom categories
 *   POST /users/{u}/categories                `{category: {name, parent_guid?}}` -> `{category}` (is_default false)
 *
 * The by-user paths and the custom-category body are not shown in the specification;
 * these are the vendor reference's (the scenarios take the paths from the profile).
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { defaultCategories, type DefaultCategory } from '../data/categories.ts';
import { wrapper, type Query } from './query.ts';
import { optString } from './request.ts';
import type { UserRecord } from '../domain/records.ts';
import { findUser, isoNow } from '../domain/store.ts';

interface CustomCategory {
  guid: string;
  user_guid: string;
  name: string;
  parent_guid: string | null;
  is_default: false;
  created_at: string;
  updated_at: string;
}

const customs = (ctx: SimContext) => ctx.collection<CustomCategory>('custom_categories');
const customsOf = (ctx: SimContext, user: UserRecord) => [...customs(ctx).values()].filter((c) => c.user_guid === user.guid);

function served(ctx: SimContext): DefaultCategory[] {
  const all = defaultCategories();
  // Fault: one default category missing (Limits: 119).
  return ctx.fault('categories-118-defaults') ? all.slice(0, -1) : all;
}

function render(_ctx: SimContext, c: DefaultCategory, _index: number): Record<string, unknown> {
  // Resources: each default category has is_default = true (a generated response mutant changes it, proof/mutants).
  return { ...c };
}

export function registerCategories(app: FastifyInstance, ctx: SimContext): void {
  app.get('/categories/default', async (request) => {
    const page = pageList(ctx, served(ctx), request.query as Query, { list: 'categories' });
    const offset = (page.pagination.current_page - 1) * page.pagination.per_page;
    return { categories: page.items.map((c, i) => render(ctx, c, offset + i)), pagination: page.pagination };
  });

  app.get('/categories/:category_guid', async (request) => {
    const { category_guid } = request.params as { category_guid: string };
    const list = served(ctx);
    const i = list.findIndex((c) => c.guid === category_guid);
    if (i < 0) throw new SimError('not_found', `No default category with guid "${category_guid.slice(0, 80)}"`);
    const category = render(ctx, list[i], i);
    // Fault category-read-not-default: the read by guid computes is_default as "top level",
    // so a default subcategory reads false there while every list says true.
    if (ctx.fault('category-read-not-default') && category.parent_guid) category.is_default = false;
    return { category };
  });

  // Categories: "/categories/default ... equivalent to the by-user default list".
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/categories/default', async (request) => {
    findUser(ctx, request.params.user_guid);
    // Fault user-default-categories-differ: the by-user list leaves out the last default category.
    const all = served(ctx);
    const list = ctx.fault('user-default-categories-differ') ? all.slice(0, -1) : all;
    const page = pageList(ctx, list, request.query as Query, { list: 'categories' });
    const offset = (page.pagination.current_page - 1) * page.pagination.per_page;
    return { categories: page.items.map((c, i) => render(ctx, c, offset + i)), pagination: page.pagination };
  });

  // What the service does: "a user can also have custom categories" (beside the defaults).
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/categories', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const mine: Array<DefaultCategory | CustomCategory> = customsOf(ctx, user);
    // Fault custom-categories-replace-defaults: a user with custom categories sees only those.
    const list = ctx.fault('custom-categories-replace-defaults') && mine.length ? mine : [...served(ctx), ...mine];
    const page = pageList(ctx, list, request.query as Query, { list: 'categories' });
    return { categories: page.items.map((c) => ({ ...c })), pagination: page.pagination };
  });

  app.post<{ Params: { user_guid: string } }>('/users/:user_guid/categories', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const o = wrapper(request.body, 'category');
    const name = optString(o, 'name', 'category');
    if (!name) throw new SimError('invalid_request', 'category.name is required');
    const parent = optString(o, 'parent_guid', 'category') ?? null;
    if (parent !== null && !defaultCategories().some((c) => c.guid === parent && c.parent_guid === null)) {
      throw new SimError('invalid_request', `category.parent_guid names no top-level default category: "${parent.slice(0, 80)}"`);
    }
    const now = isoNow(ctx);
    const c: CustomCategory = { guid: ctx.guid('CAT'), user_guid: user.guid, name, parent_guid: parent, is_default: false, created_at: now, updated_at: now };
    customs(ctx).set(c.guid, c);
    return { category: { ...c } };
  });
}
