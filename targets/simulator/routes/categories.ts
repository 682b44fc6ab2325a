/**
 * Default categories (Endpoints, "Categories"; Limits: 119 default categories).
 *
 *   GET /categories/default          paged list, `{categories, pagination}`
 *   GET /categories/{category_guid}  one default category, `{category}`; 404 unknown
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { defaultCategories, type DefaultCategory } from '../data/categories.ts';
import type { Query } from './query.ts';

function served(ctx: SimContext): DefaultCategory[] {
  const all = defaultCategories();
  // Fault: one default category missing (Limits: 119).
  return ctx.fault('categories-118-defaults') ? all.slice(0, -1) : all;
}

function render(ctx: SimContext, c: DefaultCategory, index: number): Record<string, unknown> {
  // Fault: a default category that says it is not one (Resources: each has is_default = true).
  if (index === 0 && ctx.fault('category-is-default-false')) return { ...c, is_default: false };
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
    return { category: render(ctx, list[i], i) };
  });
}
