/**
 * Product areas whose rules the specification states but whose paths and payloads it
 * does not show (What the service does; Endpoints: "Paths and payloads of the other
 * product areas listed under What the service does: not shown"). The simulator serves
 * them at the documented defaults of the target profile (targets/profiles/settings.ts,
 * PRODUCT_PATH_DEFAULTS: the vendor reference's paths):
 *
 *   POST/GET /users/{u}/notifications           { notification: { content, title? } } -> { notification }
 *   GET      /users/{u}/notifications/{n}
 *   POST/GET /users/{u}/goals                   { goal: { name, goal_amount?, track_type_name?, meta_type_name? } }
 *   PUT      /users/{u}/goals/reposition        { goals: [{ guid, position }] } -> { goals }
 *   POST/GET /users/{u}/budgets                 { budget: { category_guid, amount? } }
 *   POST     /users/{u}/budgets/generate        budgets for the categories of the user's transactions
 *   GET      /users/{u}/members/{m}/statements  one statement a month per account of the member
 *   GET      /users/{u}/members/{m}/statements/{s}.pdf   application/pdf
 *   POST/GET /users/{u}/tags                    { tag: { name } }
 *   POST/GET /users/{u}/taggings                { tagging: { tag_guid, transaction_guid } }
 *   GET      /users/{u}/taggings/{t}
 *
 * Holdings and merchants are served by routes/accounts.ts; the holdings faults of this
 * area are hooks here (this module registers before it, so its hooks cover those routes).
 *
 * Stated rules the faults break: notifications created through the interface have type
 * API_NOTIFICATION, channel PUSH and no associated entity; goals can be repositioned to
 * change priority and carry track_type_name and meta_type_name; budgets carry a
 * category_guid and can be auto-generated from existing transactions; statements are
 * PDF; a tagging applies a tag to one transaction; holdings are read per user, account
 * or member. Everything else (field names not stated, statuses) is the simulator's choice.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { wrapper, type Query } from './query.ts';
import type { UserRecord } from '../domain/records.ts';
import { coreState, findMember, findTransaction, findUser, isoNow } from '../domain/store.ts';
import { defaultCategories } from '../data/categories.ts';

interface Notification {
  guid: string;
  user_guid: string;
  type: string;
  channel: string;
  title: string | null;
  content: string;
  entity_guid: string | null;
  entity_type: string | null;
  created_at: string;
}
interface Goal {
  guid: string;
  user_guid: string;
  name: string;
  goal_amount: number | null;
  track_type_name: string;
  meta_type_name: string;
  position: number;
  created_at: string;
}
interface Budget {
  guid: string;
  user_guid: string;
  category_guid: string;
  name: string;
  amount: number;
  is_auto_generated: boolean;
  created_at: string;
}
interface Tag {
  guid: string;
  user_guid: string;
  name: string;
  created_at: string;
}
interface Tagging {
  guid: string;
  user_guid: string;
  tag_guid: string;
  transaction_guid: string;
  created_at: string;
}

type U = { Params: { user_guid: string } };
const text = (o: Record<string, unknown>, key: string, required: boolean): string | undefined => {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new SimError('invalid_request', `${key} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || v === '') throw new SimError('invalid_request', `${key} must be a non-empty string`);
  return v.slice(0, 200);
};
const amount = (o: Record<string, unknown>, key: string): number | undefined => {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SimError('invalid_request', `${key} must be a number`);
  return v;
};

/** A tiny but well-formed one-page PDF (ISO 32000: header, catalog, pages, trailer). */
function pdfOf(title: string): Buffer {
  const safe = title.replace(/[()\\]/g, ' ');
  const body = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n4 0 obj << /Length ${safe.length + 24} >> stream\nBT /F1 12 Tf 72 720 Td (${safe}) Tj ET\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export function registerProductAreas(app: FastifyInstance, ctx: SimContext): void {
  registerHoldingsFaults(app, ctx);
  registerNotifications(app, ctx);
  registerGoals(app, ctx);
  registerBudgets(app, ctx);
  registerStatements(app, ctx);
  registerTagging(app, ctx);
}

/** Holdings faults (What the service does: "read per user, account or member"). */
function registerHoldingsFaults(app: FastifyInstance, ctx: SimContext): void {
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions?.url;
    if (url === '/users/:user_guid/members/:member_guid/holdings' && ctx.fault('holdings-not-read-per-member')) {
      throw new SimError('not_found', 'Holdings are not read per member');
    }
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.routeOptions?.url !== '/users/:user_guid/accounts/:account_guid/holdings' || !ctx.fault('holdings-per-account-lists-all')) return payload;
    const owner = findUser(ctx, (request.params as { user_guid: string }).user_guid).guid;
    const all = [...coreState(ctx).holdings.values()].filter((h) => h.user_guid === owner);
    const parsed = JSON.parse(String(payload)) as { pagination?: unknown };
    return JSON.stringify({ holdings: all, pagination: parsed.pagination });
  });
}

/** The notifications routes (What the service does: notifications of the PUSH channel). */
function registerNotifications(app: FastifyInstance, ctx: SimContext): void {
  const notifications = ctx.collection<Notification>('notifications');
  const page = <T>(request: FastifyRequest, items: T[]) => pageList(ctx, items, request.query as Query);
  const user = (request: FastifyRequest) => findUser(ctx, (request.params as { user_guid: string }).user_guid);

  const renderNotification = (n: Notification) => ({ ...n });
  /** "Read and list operations may also return notifications of other channels": a seeded one, under the variation. */
  const seedOtherChannel = (u: UserRecord) => {
    if (!ctx.variation('notifications-other-channels') || [...notifications.values()].some((n) => n.user_guid === u.guid && n.channel !== 'PUSH')) return;
    const guid = ctx.guid('NTF');
    notifications.set(guid, {
      guid,
      user_guid: u.guid,
      type: 'BUDGET_EXCEEDED',
      channel: 'EMAIL',
      title: 'Budget exceeded',
      content: 'You went over a budget.',
      entity_guid: ctx.guid('BGT'),
      entity_type: 'Budget',
      created_at: isoNow(ctx),
    });
  };
  app.post<U>('/users/:user_guid/notifications', async (request) => {
    const u = user(request);
    const o = wrapper(request.body, 'notification');
    const guid = ctx.guid('NTF');
    // What the service does: "Notifications created through the interface always have
    // type API_NOTIFICATION, channel PUSH, and no associated entity."
    const n: Notification = {
      guid,
      user_guid: u.guid,
      type: ctx.fault('notification-type-not-api') ? 'BUDGET_EXCEEDED' : 'API_NOTIFICATION',
      channel: ctx.fault('notification-channel-not-push') ? 'EMAIL' : 'PUSH',
      title: text(o, 'title', false) ?? null,
      content: text(o, 'content', true)!,
      entity_guid: ctx.fault('notification-with-entity') ? u.guid : null,
      entity_type: ctx.fault('notification-with-entity') ? 'User' : null,
      created_at: isoNow(ctx),
    };
    notifications.set(guid, n);
    return { notification: renderNotification(n) };
  });
  app.get<U>('/users/:user_guid/notifications', async (request) => {
    const u = user(request);
    seedOtherChannel(u);
    const p = page(
      request,
      [...notifications.values()].filter((n) => n.user_guid === u.guid),
    );
    return { notifications: p.items.map(renderNotification), pagination: p.pagination };
  });
  app.get<{ Params: { user_guid: string; notification_guid: string } }>('/users/:user_guid/notifications/:notification_guid', async (request) => {
    const u = user(request);
    const n = notifications.get(request.params.notification_guid);
    if (!n || n.user_guid !== u.guid) throw new SimError('not_found', `No notification "${request.params.notification_guid.slice(0, 80)}"`);
    return { notification: renderNotification(n) };
  });
}

/** The goals routes: create, list, reposition. */
function registerGoals(app: FastifyInstance, ctx: SimContext): void {
  const goals = ctx.collection<Goal>('goals');
  const page = <T>(request: FastifyRequest, items: T[]) => pageList(ctx, items, request.query as Query);
  const user = (request: FastifyRequest) => findUser(ctx, (request.params as { user_guid: string }).user_guid);

  const goalsOf = (u: UserRecord) => [...goals.values()].filter((g) => g.user_guid === u.guid).sort((a, b) => a.position - b.position);
  const renderGoal = (g: Goal) => {
    const out: Record<string, unknown> = { ...g };
    // Fault: goals without track_type_name (What the service does: "each with track_type_name").
    if (ctx.fault('goal-without-track-type-name')) delete out.track_type_name;
    return out;
  };
  app.post<U>('/users/:user_guid/goals', async (request) => {
    const u = user(request);
    const o = wrapper(request.body, 'goal');
    const guid = ctx.guid('GOL');
    const g: Goal = {
      guid,
      user_guid: u.guid,
      name: text(o, 'name', true)!,
      goal_amount: amount(o, 'goal_amount') ?? null,
      track_type_name: text(o, 'track_type_name', false) ?? 'SAVINGS',
      meta_type_name: text(o, 'meta_type_name', false) ?? 'VACATION',
      position: goalsOf(u).length + 1,
      created_at: isoNow(ctx),
    };
    goals.set(guid, g);
    return { goal: renderGoal(g) };
  });
  app.get<U>('/users/:user_guid/goals', async (request) => {
    const p = page(request, goalsOf(user(request)));
    return { goals: p.items.map(renderGoal), pagination: p.pagination };
  });
  app.put<U>('/users/:user_guid/goals/reposition', async (request) => {
    const u = user(request);
    const body = request.body as { goals?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !Array.isArray(body.goals))
      throw new SimError('invalid_request', 'The request body must contain a "goals" array of { guid, position }');
    const moves: Array<{ g: Goal; position: number }> = [];
    for (const item of body.goals as unknown[]) {
      const o = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      const g = typeof o.guid === 'string' ? goals.get(o.guid) : undefined;
      if (!g || g.user_guid !== u.guid) throw new SimError('not_found', `No goal "${String(o.guid).slice(0, 80)}" for user ${u.guid}`);
      if (typeof o.position !== 'number' || !Number.isInteger(o.position) || o.position < 1)
        throw new SimError('invalid_request', 'position must be a positive integer');
      moves.push({ g, position: o.position });
    }
    // What the service does: "goals can be repositioned to change priority". Fault: the
    // request is answered but nothing moves.
    if (!ctx.fault('goals-reposition-ignored')) for (const m of moves) m.g.position = m.position;
    // Fault goal-reposition-resets-types: the reposition rewrites whole rows, the types back to the defaults.
    if (ctx.fault('goal-reposition-resets-types')) for (const m of moves) Object.assign(m.g, { track_type_name: 'SAVINGS', meta_type_name: 'VACATION' });
    return { goals: goalsOf(u).map(renderGoal) };
  });
}

/** The budgets routes: create, list, generate from the transactions. */
function registerBudgets(app: FastifyInstance, ctx: SimContext): void {
  const budgets = ctx.collection<Budget>('budgets');
  const page = <T>(request: FastifyRequest, items: T[]) => pageList(ctx, items, request.query as Query);
  const user = (request: FastifyRequest) => findUser(ctx, (request.params as { user_guid: string }).user_guid);

  const categoryName = new Map(defaultCategories().map((c) => [c.guid, String((c as { name?: unknown }).name ?? c.guid)]));
  const parentOf = new Map(defaultCategories().flatMap((c) => (c.parent_guid ? [[c.guid, c.parent_guid] as const] : [])));
  const renderBudget = (b: Budget) => {
    const out: Record<string, unknown> = { ...b };
    // Fault: budgets without category_guid (What the service does: "Budgets (each with a category_guid ...)").
    if (ctx.fault('budget-without-category-guid')) delete out.category_guid;
    return out;
  };
  app.post<U>('/users/:user_guid/budgets', async (request) => {
    const u = user(request);
    const o = wrapper(request.body, 'budget');
    const category = text(o, 'category_guid', true)!;
    if (!categoryName.has(category)) throw new SimError('not_found', `No category "${category.slice(0, 80)}"`);
    const guid = ctx.guid('BGT');
    const b: Budget = {
      guid,
      user_guid: u.guid,
      category_guid: category,
      name: categoryName.get(category)!,
      amount: amount(o, 'amount') ?? 100,
      is_auto_generated: false,
      created_at: isoNow(ctx),
    };
    budgets.set(guid, b);
    return { budget: renderBudget(b) };
  });
  app.get<U>('/users/:user_guid/budgets', async (request) => {
    const u = user(request);
    const p = page(
      request,
      [...budgets.values()].filter((b) => b.user_guid === u.guid),
    );
    // Fault budget-list-shows-parent-category: the list names a subcategory's budget by its top-level category.
    const listed = (b: Budget) =>
      ctx.fault('budget-list-shows-parent-category')
        ? { ...renderBudget(b), category_guid: parentOf.get(b.category_guid) ?? b.category_guid }
        : renderBudget(b);
    return { budgets: p.items.map(listed), pagination: p.pagination };
  });
  app.post<U>('/users/:user_guid/budgets/generate', async (request) => {
    const u = user(request);
    // "auto-generated from existing transactions": one budget per category the user's
    // transactions use. Fault: the budgets come from the default list instead.
    const used = new Set([...coreState(ctx).transactions.values()].filter((t) => t.user_guid === u.guid && t.category_guid).map((t) => t.category_guid!));
    const source = ctx.fault('budgets-generated-without-transactions') ? [...categoryName.keys()].filter((c) => !used.has(c)).slice(0, 3) : [...used];
    const made: Budget[] = [];
    for (const category of source) {
      const existing = [...budgets.values()].find((b) => b.user_guid === u.guid && b.category_guid === category);
      if (existing) {
        made.push(existing);
        continue;
      }
      const guid = ctx.guid('BGT');
      const b: Budget = {
        guid,
        user_guid: u.guid,
        category_guid: category,
        name: categoryName.get(category) ?? category,
        amount: 100,
        is_auto_generated: true,
        created_at: isoNow(ctx),
      };
      budgets.set(guid, b);
      made.push(b);
    }
    return { budgets: made.map(renderBudget) };
  });
}

/** The monthly account statements of a member. */
function registerStatements(app: FastifyInstance, ctx: SimContext): void {
  const page = <T>(request: FastifyRequest, items: T[]) => pageList(ctx, items, request.query as Query);
  const user = (request: FastifyRequest) => findUser(ctx, (request.params as { user_guid: string }).user_guid);

  type M = { Params: { user_guid: string; member_guid: string } };
  /** One statement a month (the last two whole months) per account of the member: "monthly account statements". */
  const statementsOf = (request: FastifyRequest) => {
    const u = user(request);
    const m = findMember(ctx, u, (request.params as { member_guid: string }).member_guid);
    const now = ctx.clock.now();
    const out: Array<Record<string, unknown>> = [];
    for (const a of coreState(ctx).accounts.values()) {
      if (a.member_guid !== m.guid) continue;
      for (const back of [1, 2]) {
        const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 0));
        const on = month.toISOString().slice(0, 10);
        out.push({
          guid: `STA-${a.guid.slice(4, 40)}-${on.replace(/-/g, '')}`,
          account_guid: a.guid,
          member_guid: m.guid,
          user_guid: u.guid,
          statement_on: on,
          content_hash: `${a.guid}:${on}`,
          created_at: isoNow(ctx),
        });
      }
    }
    return out;
  };
  app.get<M>('/users/:user_guid/members/:member_guid/statements', async (request) => {
    const p = page(request, statementsOf(request));
    return { statements: p.items, pagination: p.pagination };
  });
  app.get<{ Params: { user_guid: string; member_guid: string; statement: string } }>(
    '/users/:user_guid/members/:member_guid/statements/:statement',
    async (request, reply) => {
      const pdf = request.params.statement.endsWith('.pdf');
      const guid = pdf ? request.params.statement.slice(0, -4) : request.params.statement;
      const s = statementsOf(request).find((x) => x.guid === guid);
      if (!s) throw new SimError('not_found', `No statement "${guid.slice(0, 80)}"`);
      if (!pdf) return { statement: s };
      // What the service does: "Statements provide a user's monthly account statements as
      // PDF". Fault: the download is the statement's JSON instead.
      if (ctx.fault('statement-not-pdf')) return reply.type('application/json; charset=utf-8').send(JSON.stringify({ statement: s }));
      return reply.type('application/pdf').send(pdfOf(`Statement ${String(s.statement_on)} account ${String(s.account_guid)}`));
    },
  );
}

/** Tags and taggings. */
function registerTagging(app: FastifyInstance, ctx: SimContext): void {
  const tags = ctx.collection<Tag>('tags');
  const taggings = ctx.collection<Tagging>('taggings');
  const page = <T>(request: FastifyRequest, items: T[]) => pageList(ctx, items, request.query as Query);
  const user = (request: FastifyRequest) => findUser(ctx, (request.params as { user_guid: string }).user_guid);

  app.post<U>('/users/:user_guid/tags', async (request) => {
    const u = user(request);
    const o = wrapper(request.body, 'tag');
    const guid = ctx.guid('TAG');
    const t: Tag = { guid, user_guid: u.guid, name: text(o, 'name', true)!, created_at: isoNow(ctx) };
    tags.set(guid, t);
    return { tag: { ...t } };
  });
  app.get<U>('/users/:user_guid/tags', async (request) => {
    const u = user(request);
    const p = page(
      request,
      [...tags.values()].filter((t) => t.user_guid === u.guid),
    );
    return { tags: p.items, pagination: p.pagination };
  });
  const renderTagging = (t: Tagging) => {
    // Fault: a tagging that names another transaction of the user than the one it was
    // applied to ("A tagging applies a tag to one transaction").
    if (ctx.fault('tagging-names-another-transaction')) {
      const other = [...coreState(ctx).transactions.values()].find((x) => x.user_guid === t.user_guid && x.guid !== t.transaction_guid);
      return { ...t, transaction_guid: other?.guid ?? null };
    }
    return { ...t };
  };
  app.post<U>('/users/:user_guid/taggings', async (request) => {
    const u = user(request);
    const o = wrapper(request.body, 'tagging');
    const tagGuid = text(o, 'tag_guid', true)!;
    const tag = tags.get(tagGuid);
    if (!tag || tag.user_guid !== u.guid) throw new SimError('not_found', `No tag "${tagGuid.slice(0, 80)}" for user ${u.guid}`);
    const tx = findTransaction(ctx, u, text(o, 'transaction_guid', true)!);
    const guid = ctx.guid('TGN');
    const t: Tagging = { guid, user_guid: u.guid, tag_guid: tag.guid, transaction_guid: tx.guid, created_at: isoNow(ctx) };
    taggings.set(guid, t);
    return { tagging: renderTagging(t) };
  });
  app.get<U>('/users/:user_guid/taggings', async (request) => {
    const u = user(request);
    const p = page(
      request,
      [...taggings.values()].filter((t) => t.user_guid === u.guid),
    );
    return { taggings: p.items.map(renderTagging), pagination: p.pagination };
  });
  app.get<{ Params: { user_guid: string; tagging_guid: string } }>('/users/:user_guid/taggings/:tagging_guid', async (request) => {
    const u = user(request);
    const t = taggings.get(request.params.tagging_guid);
    if (!t || t.user_guid !== u.guid) throw new SimError('not_found', `No tagging "${request.params.tagging_guid.slice(0, 80)}"`);
    return { tagging: renderTagging(t) };
  });
}
