/**
 * Data exchange (Endpoints, "Data exchange"; Authentication 3; Errors 201/404; Limits).
 *
 * Grant listing, grant query and the token endpoint need only Basic authentication;
 * the user/account/transaction reads also need `SVC-3DX-TOKEN` with a token issued by
 * the token endpoint. Without the header: 401; with a token the service never issued:
 * 403 (both with the one error body). The token's grant decides what is served:
 * transactions with `is_manual` false and a `data_scope` matching the grant's
 * (`ALL` matches both `HELD` and `AGGREGATED`).
 *
 * Choices where the specification is silent (README, "Simulator"):
 * - grant query: `GET /data_exchange/grant?issuer_guid=...&grantee_guids=A,B` (a comma
 *   list; repeated `grantee_guid` / `grantee_guids` / `grantee_guids[]` also work); it
 *   answers `{grant}` for a grant of that issuer all of whose grantees were supplied
 *   (the one with most grantees if several), else 404;
 * - token: 201 `{token, grant_guid, grantee_client_guid}`; tokens do not expire;
 * - transaction window: `from_date` / `to_date` (YYYY-MM-DD or Unix timestamp seconds, inclusive); by default the
 *   90 days before the request day (simulator clock) up to and including that day;
 * - `{user_identifier}`, `{member_identifier}`, `{account_identifier}`,
 *   `{transaction_identifier}` accept a GUID or the partner id; `{account_guid}` and
 *   `{transaction_guid}` take the GUID.
 * - slim resources: user `{guid, id}`; account `{guid, id, user_guid, member_guid, name,
 *   type, balance, available_balance, currency_code}`; transaction fields as seeded.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import {
  seedDataExchange,
  scopeMatches,
  type DataExchangeStore,
  type DxAccount,
  type DxGrant,
  type DxTransaction,
  type DxUser,
} from '../data/data-exchange.ts';
import { dayFilter, many, one, type Query } from './query.ts';

const TOKEN_HEADER = 'svc-3dx-token';
const DAY_MS = 86_400_000;
/** Limits: "default transaction window: 90 days before the request day". */
const DEFAULT_WINDOW_DAYS = 90;

declare module 'fastify' {
  interface FastifyRequest {
    dxGrant?: DxGrant;
  }
}

function store(ctx: SimContext): DataExchangeStore {
  let s = ctx.store.get('data-exchange') as DataExchangeStore | undefined;
  if (!s) {
    s = seedDataExchange(ctx.clock.today());
    ctx.store.set('data-exchange', s);
  }
  return s;
}

type Params = Record<string, string>;

function notFound(what: string, id: string): SimError {
  return new SimError('not_found', `No ${what} "${String(id).slice(0, 80)}" under this grant`);
}

function findUser(ctx: SimContext, s: DataExchangeStore, request: FastifyRequest): DxUser {
  const id = (request.params as Params).user_identifier;
  const user = s.usersByKey.get(id);
  if (!user || user.issuerGuid !== request.dxGrant!.issuer_guid) throw notFound('user', id);
  // Fault threedx-user-read-ignores-identifier: the user read answers another user of the issuer.
  if (ctx.fault('threedx-user-read-ignores-identifier') && (request.routeOptions.url ?? '').endsWith(':user_identifier'))
    return s.users.find((u) => u !== user && u.issuerGuid === user.issuerGuid) ?? user;
  return user;
}

/** GUID, or partner id where the specification allows it (Endpoints, "Data exchange"). */
function byGuidOrId<T extends { guid: string; id: string }>(ctx: SimContext, items: T[], key: string, allowPartnerId: boolean): T | undefined {
  return items.find((x) => x.guid === key) ?? (allowPartnerId && !ctx.fault('threedx-partner-id-not-accepted') ? items.find((x) => x.id === key) : undefined);
}

function findAccount(ctx: SimContext, s: DataExchangeStore, request: FastifyRequest, user: DxUser): DxAccount {
  const p = request.params as Params;
  let accounts = s.accounts.filter((a) => a.user_guid === user.guid);
  if (p.member_identifier !== undefined) {
    const member = byGuidOrId(
      ctx,
      s.members.filter((m) => m.user_guid === user.guid),
      p.member_identifier,
      true,
    );
    if (!member) throw notFound('member', p.member_identifier);
    accounts = accounts.filter((a) => a.member_guid === member.guid);
    const account = byGuidOrId(ctx, accounts, p.account_identifier, true);
    if (!account) throw notFound('account', p.account_identifier);
    return account;
  }
  const account = byGuidOrId(ctx, accounts, p.account_guid, false);
  if (!account) throw notFound('account', p.account_guid);
  return account;
}

/** Limits, "data exchange scope": only is_manual false transactions whose data_scope matches the grant. */
function inScope(ctx: SimContext, grant: DxGrant, t: DxTransaction): boolean {
  if (t.is_manual && !ctx.fault('threedx-manual-transaction-served')) return false;
  if (!scopeMatches(grant, t.data_scope) && !ctx.fault('threedx-scope-mismatch-served')) return false;
  return true;
}

function windowOf(ctx: SimContext, query: Query): { from: string; to: string } {
  const today = ctx.clock.today();
  const days = ctx.fault('threedx-window-not-90-days') ? 365 : ctx.fault('threedx-window-too-narrow') ? 30 : DEFAULT_WINDOW_DAYS;
  const from = dayFilter(query, 'from_date') ?? new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
  // Upper bound: the request day (fault threedx-window-includes-future: none).
  const to = dayFilter(query, 'to_date') ?? (ctx.fault('threedx-window-includes-future') ? '9999-12-31' : today);
  if (from > to) throw new SimError('invalid_request', `from_date (${from}) is after to_date (${to})`);
  return { from, to };
}

const slimUser = (u: DxUser) => ({ guid: u.guid, id: u.id });
const slimAccount = (a: DxAccount) => ({
  guid: a.guid,
  id: a.id,
  user_guid: a.user_guid,
  member_guid: a.member_guid,
  name: a.name,
  type: a.type,
  balance: a.balance,
  available_balance: a.available_balance,
  currency_code: a.currency_code,
});

export function registerDataExchange(app: FastifyInstance, ctx: SimContext): void {
  registerTokenReads(app, ctx);
  registerGrants(app, ctx);
  registerGrantToken(app, ctx);
}

/** Authentication 3: SVC-3DX-TOKEN on the user, account and transaction reads (and on the grants under a fault). */
function tokenRequirement(ctx: SimContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const s = store(ctx);
    const raw = request.headers[TOKEN_HEADER];
    const token = Array.isArray(raw) ? raw[0] : raw;
    const grantGuid = token ? s.tokens.get(token) : undefined;
    if (!grantGuid) {
      if (ctx.fault('threedx-token-not-required')) {
        request.dxGrant = s.grants[0];
        return;
      }
      if (!token)
        throw new SimError(
          'unauthorized',
          'The SVC-3DX-TOKEN header is required on data exchange reads; create a token with POST /data_exchange/grantee/{grantee_client_guid}/grants/{grant_guid}/token',
        );
      throw new SimError('forbidden', 'The SVC-3DX-TOKEN header does not carry a token issued for a grant');
    }
    request.dxGrant = s.grants.find((g) => g.guid === grantGuid);
    void reply;
  };
}

/** User, account and transaction reads: SVC-3DX-TOKEN (Authentication 3). */
function registerTokenReads(app: FastifyInstance, ctx: SimContext): void {
  const requireToken = tokenRequirement(ctx);
  const tokenRoute = { preHandler: requireToken };

  app.get('/data_exchange/users', tokenRoute, async (request) => {
    const s = store(ctx);
    const users = s.users.filter((u) => u.issuerGuid === request.dxGrant!.issuer_guid);
    const page = pageList(ctx, users, request.query as Query, { statedMaximum: true });
    return { users: page.items.map(slimUser), pagination: page.pagination };
  });

  app.get('/data_exchange/users/:user_identifier', tokenRoute, async (request) => ({ user: slimUser(findUser(ctx, store(ctx), request)) }));

  app.get('/data_exchange/users/:user_identifier/accounts', tokenRoute, async (request) => {
    const s = store(ctx);
    const user = findUser(ctx, s, request);
    const page = pageList(
      ctx,
      s.accounts.filter((a) => a.user_guid === user.guid),
      request.query as Query,
      { statedMaximum: true },
    );
    return { accounts: page.items.map(slimAccount), pagination: page.pagination };
  });

  const oneAccount = async (request: FastifyRequest) => {
    const s = store(ctx);
    const user = findUser(ctx, s, request);
    const account = findAccount(ctx, s, request, user);
    // Fault threedx-account-read-ignores-identifier: every account read answers the user's first account.
    if (ctx.fault('threedx-account-read-ignores-identifier')) return { account: slimAccount(s.accounts.find((a) => a.user_guid === user.guid)!) };
    return { account: slimAccount(account) };
  };
  app.get('/data_exchange/users/:user_identifier/accounts/:account_guid', tokenRoute, oneAccount);
  app.get('/data_exchange/users/:user_identifier/members/:member_identifier/accounts/:account_identifier', tokenRoute, oneAccount);

  const listTransactions = (scopeToAccount: boolean) => async (request: FastifyRequest) => {
    const s = store(ctx);
    const user = findUser(ctx, s, request);
    const account = scopeToAccount ? findAccount(ctx, s, request, user) : undefined;
    const query = request.query as Query;
    const { from, to } = windowOf(ctx, query);
    const grant = request.dxGrant!;
    const items = s.transactions.filter(
      (t) =>
        t.user_guid === user.guid &&
        (!account || t.account_guid === account.guid || ctx.fault('threedx-account-transactions-unfiltered')) &&
        t.date >= from &&
        t.date <= to &&
        inScope(ctx, grant, t),
    );
    const page = pageList(ctx, items, query, { statedMaximum: true });
    return { transactions: page.items, pagination: page.pagination };
  };
  app.get('/data_exchange/users/:user_identifier/transactions', tokenRoute, listTransactions(false));
  app.get('/data_exchange/users/:user_identifier/accounts/:account_guid/transactions', tokenRoute, listTransactions(true));
  app.get('/data_exchange/users/:user_identifier/members/:member_identifier/accounts/:account_identifier/transactions', tokenRoute, listTransactions(true));

  const oneTransaction = async (request: FastifyRequest) => {
    const s = store(ctx);
    const user = findUser(ctx, s, request);
    const p = request.params as Params;
    const viaMember = p.member_identifier !== undefined;
    const account = viaMember ? findAccount(ctx, s, request, user) : undefined;
    const key = viaMember ? p.transaction_identifier : p.transaction_guid;
    const candidates = s.transactions.filter((t) => t.user_guid === user.guid && (!account || t.account_guid === account.guid));
    const t = byGuidOrId(ctx, candidates, key, viaMember);
    // Errors, 404: "data exchange transaction read with no matching transaction (not manual, scope matching the grant)".
    // Fault threedx-member-path-scope-ignored: the per-member read skips the scope rule.
    if (!t || (!inScope(ctx, request.dxGrant!, t) && !(viaMember && ctx.fault('threedx-member-path-scope-ignored')))) throw notFound('transaction', key);
    return { transaction: t };
  };
  app.get('/data_exchange/users/:user_identifier/transactions/:transaction_guid', tokenRoute, oneTransaction);
  app.get(
    '/data_exchange/users/:user_identifier/members/:member_identifier/accounts/:account_identifier/transactions/:transaction_identifier',
    tokenRoute,
    oneTransaction,
  );
}

/** Grants: Basic authentication only (Authentication 3). */
function registerGrants(app: FastifyInstance, ctx: SimContext): void {
  const requireToken = tokenRequirement(ctx);
  // Fault threedx-grants-need-token: grant listing and reading also demand SVC-3DX-TOKEN.
  const grantRoute = {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => (ctx.fault('threedx-grants-need-token') ? requireToken(request, reply) : undefined),
  };
  /** Resources, Data exchange grant: issuer, grantees, data scope HELD/AGGREGATED/ALL (faults break the last two). */
  const grantView = (g: DxGrant): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...g };
    if (ctx.fault('threedx-grant-without-grantees')) delete out.grantee_guids;
    return out;
  };
  app.get('/data_exchange/issuer/:issuer_client_guid/grants', grantRoute, async (request) => {
    const { issuer_client_guid } = request.params as Params;
    const page = pageList(
      ctx,
      store(ctx).grants.filter((g) => g.issuer_guid === issuer_client_guid),
      request.query as Query,
      { statedMaximum: true },
    );
    return { grants: page.items.map(grantView), pagination: page.pagination };
  });

  app.get('/data_exchange/grantee/:grantee_client_guid/grants', grantRoute, async (request) => {
    const { grantee_client_guid } = request.params as Params;
    const page = pageList(
      ctx,
      store(ctx).grants.filter((g) => g.grantee_guids.includes(grantee_client_guid)),
      request.query as Query,
      { statedMaximum: true },
    );
    return { grants: page.items.map(grantView), pagination: page.pagination };
  });

  app.get('/data_exchange/grant', grantRoute, async (request) => {
    const query = request.query as Query;
    const issuer = one(query, 'issuer_guid');
    if (!issuer) throw new SimError('invalid_request', 'Query parameter issuer_guid is required');
    const supplied = new Set(many(query, 'grantee_guids', 'grantee_guid', 'grantee_guids[]'));
    if (supplied.size === 0) throw new SimError('invalid_request', 'Give the grantee GUIDs in grantee_guids (comma list) or repeated grantee_guid');
    const partial = ctx.fault('threedx-grant-query-partial-grantees');
    const matches = store(ctx).grants.filter(
      (g) => g.issuer_guid === issuer && (partial ? g.grantee_guids.some((x) => supplied.has(x)) : g.grantee_guids.every((x) => supplied.has(x))),
    );
    matches.sort((a, b) => b.grantee_guids.length - a.grantee_guids.length);
    if (!matches.length) throw new SimError('not_found', 'No grant of this issuer whose grantees were all supplied');
    return { grant: grantView(matches[0]) };
  });
}

/** The token a grantee reads the data exchange with. */
function registerGrantToken(app: FastifyInstance, ctx: SimContext): void {
  app.post('/data_exchange/grantee/:grantee_client_guid/grants/:grant_guid/token', async (request, reply) => {
    const { grantee_client_guid, grant_guid } = request.params as Params;
    const s = store(ctx);
    const grant = s.grants.find((g) => g.guid === grant_guid && g.grantee_guids.includes(grantee_client_guid));
    if (!grant) throw new SimError('not_found', `No grant "${grant_guid.slice(0, 80)}" for grantee "${grantee_client_guid.slice(0, 80)}"`);
    const token = `3dx_${randomBytes(24).toString('base64url')}`;
    s.tokens.set(token, grant.guid);
    // Errors: "201 data exchange token created".
    return reply.code(201).send({ token, grant_guid: grant.guid, grantee_client_guid });
  });
}
