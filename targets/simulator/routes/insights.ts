/**
 * Insights and repeating transactions (Resources, Insight and Transaction; Endpoints,
 * "Other endpoints named").
 *
 *   GET /users/{u}/insights                                   paged { insights }; ?includes=localization_payload
 *   GET /users/{u}/insights/{i}                               { insight }; same includes
 *   PUT /users/{u}/insights/{i}                               { insight: { cta_clicked_at } } -> { insight }
 *   GET /users/{user_identifier}/insights/{i}/repeating_transactions   paged { repeating_transactions }
 *   GET /users/{u}/repeating_transactions[/{r}]               the user's repeating transactions
 *
 * `cta_clicked_at` takes an ISO 8601 timestamp with offset (or null to clear); the
 * specification names the field but not its format, and resource timestamps are ISO
 * strings elsewhere. `localization_payload` is opt-in: present only when requested
 * (supported templates: BillAmountNotStandard, MonthlySubscriptionAggregateV2,
 * SubscriptionPriceIncrease). Insights appear after a user's first successful aggregation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { many, wrapper, type Query } from './query.ts';
import type { InsightRecord, RepeatingRecord, UserRecord } from '../domain/records.ts';
import { coreState, findUser, isoNow, isoOf } from '../domain/store.ts';
import { renderRepeating } from './transactions.ts';

function renderInsight(ctx: SimContext, i: InsightRecord, withLocalization: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    guid: i.guid,
    user_guid: i.user_guid,
    template: i.template,
    title: i.title,
    description: i.description,
    cta_clicked_at: i.cta_clicked_at,
    // Resources, Insight: fields named has_associated_repeating_transactions, micro_call_to_action.
    micro_call_to_action: i.micro_call_to_action,
    has_associated_repeating_transactions: i.has_associated_repeating_transactions,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
  if (withLocalization && !ctx.fault('localization-payload-missing')) out.localization_payload = i.localization_payload;
  return out;
}

function includesLocalization(query: Query): boolean {
  const values = many(query, 'includes');
  const bad = values.filter((v) => v !== 'localization_payload');
  if (bad.length) throw new SimError('invalid_request', `includes accepts localization_payload; got "${bad.join(',').slice(0, 80)}"`);
  return values.length > 0;
}

function findInsight(ctx: SimContext, user: UserRecord, guid: string): InsightRecord {
  const i = coreState(ctx).insights.get(guid);
  if (!i || i.user_guid !== user.guid) throw new SimError('not_found', `No insight "${guid.slice(0, 80)}" for user ${user.guid}`);
  return i;
}

type P = { Params: { user_guid: string; insight_guid: string } };

export function registerInsights(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/insights', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const withLoc = includesLocalization(request.query as Query);
    let mine = [...coreState(ctx).insights.values()].filter((i) => i.user_guid === user.guid);
    // What the service does: insights are "derived from a user's transaction history".
    // Fault insights-without-history: a user with no transactions gets a generic insight.
    if (mine.length === 0 && ctx.fault('insights-without-history') && ![...coreState(ctx).transactions.values()].some((t) => t.user_guid === user.guid)) {
      const now = isoNow(ctx);
      mine = [
        {
          guid: `BET-generic-${user.guid.slice(4)}`,
          user_guid: user.guid,
          template: 'Welcome',
          title: 'Welcome',
          description: 'Connect an account to get started.',
          micro_call_to_action: 'Connect',
          cta_clicked_at: null,
          has_associated_repeating_transactions: false,
          repeatingGuids: [],
          localization_payload: {},
          created_at: now,
          updated_at: now,
        },
      ];
    }
    const page = pageList(ctx, mine, request.query as Query);
    return { insights: page.items.map((i) => renderInsight(ctx, i, withLoc)), pagination: page.pagination };
  });
  app.get<P>('/users/:user_guid/insights/:insight_guid', async (request) => {
    const i = findInsight(ctx, findUser(ctx, request.params.user_guid), request.params.insight_guid);
    return { insight: renderInsight(ctx, i, includesLocalization(request.query as Query)) };
  });
  app.put<P>('/users/:user_guid/insights/:insight_guid', async (request) => {
    const i = findInsight(ctx, findUser(ctx, request.params.user_guid), request.params.insight_guid);
    const o = wrapper(request.body, 'insight');
    if ('cta_clicked_at' in o) {
      const v = o.cta_clicked_at;
      let value: string | null;
      if (v === null) value = null;
      else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)))
        value = isoOf(Date.parse(v));
      else throw new SimError('invalid_request', 'insight.cta_clicked_at must be an ISO 8601 timestamp with offset (e.g. 2025-03-01T12:00:00Z) or null');
      if (!ctx.fault('insight-cta-clicked-at-not-saved')) i.cta_clicked_at = value;
    }
    i.updated_at = isoNow(ctx);
    return { insight: renderInsight(ctx, i, includesLocalization(request.query as Query)) };
  });
  app.get<P>('/users/:user_guid/insights/:insight_guid/repeating_transactions', async (request) => {
    // Endpoints: GET /users/{user_identifier}/insights/{insight_guid}/repeating_transactions (fault: not served).
    if (ctx.fault('insight-repeating-transactions-unrouted'))
      throw new SimError('not_found', 'No route GET /users/{user_identifier}/insights/{insight_guid}/repeating_transactions');
    const i = findInsight(ctx, findUser(ctx, request.params.user_guid), request.params.insight_guid);
    const repeating = coreState(ctx).repeating;
    // Fault insight-repeating-transactions-empty: an insight with associated repeating transactions lists none.
    const guids = ctx.fault('insight-repeating-transactions-empty') ? [] : i.repeatingGuids;
    return repeatingList(
      ctx,
      request,
      guids.map((g) => repeating.get(g)).filter((r) => r !== undefined),
    );
  });
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/repeating_transactions', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    return repeatingList(
      ctx,
      request,
      [...coreState(ctx).repeating.values()].filter((r) => r.user_guid === user.guid),
    );
  });
  app.get<{ Params: { user_guid: string; guid: string } }>('/users/:user_guid/repeating_transactions/:guid', async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const r = coreState(ctx).repeating.get(request.params.guid);
    if (!r || r.user_guid !== user.guid) throw new SimError('not_found', `No repeating transaction "${request.params.guid.slice(0, 80)}"`);
    return { repeating_transaction: renderRepeatingWithFault(ctx, r) };
  });
}

function renderRepeatingWithFault(ctx: SimContext, r: RepeatingRecord): Record<string, unknown> {
  const out = renderRepeating(r)!;
  // Resources, Transaction: the recurrence type includes a `twice_a_` kind.
  if (ctx.fault('twice-a-recurrence-renamed') && typeof out.recurrence_type === 'string' && out.recurrence_type.startsWith('twice_a_'))
    out.recurrence_type = 'semi_monthly';
  return out;
}

function repeatingList(ctx: SimContext, request: FastifyRequest, items: RepeatingRecord[]) {
  const page = pageList(ctx, items, request.query as Query);
  return { repeating_transactions: page.items.map((r) => renderRepeatingWithFault(ctx, r)), pagination: page.pagination };
}
