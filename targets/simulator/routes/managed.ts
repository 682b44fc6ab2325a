/**
 * Managed members, accounts and transactions, deprecated from v20250224 (Versioning,
 * "Changes in v20250224": deprecated endpoints `/managed_institutions`,
 * `/users/{user_guid}/managed_members` and its member, account, transaction sub-paths).
 * Every route carries `config.deprecatedFrom`, so the shell adds the deprecation headers;
 * the routes keep working (deprecated, not sunset).
 *
 *   GET                 /managed_institutions
 *   POST|GET            /users/{u}/managed_members
 *   GET|PUT|DELETE      /users/{u}/managed_members/{m}
 *   POST|GET            /users/{u}/managed_members/{m}/accounts
 *   GET                 /users/{u}/managed_members/{m}/transactions   (every account's, newest first)
 *   GET|PUT|DELETE      /users/{u}/managed_members/{m}/accounts/{a}
 *   POST|GET            /users/{u}/managed_members/{m}/accounts/{a}/transactions
 *   GET|PUT|DELETE      /users/{u}/managed_members/{m}/accounts/{a}/transactions/{t}
 *
 * Managed data is supplied by the client, not aggregated: members are CONNECTED at once,
 * never aggregate, and their transactions carry data scope `HELD` (data exchange).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { wrapper, type Query } from './query.ts';
import { renderInstitution } from './institutions.ts';
import { institutionCatalog } from '../data/institutions.ts';
import { optMetadata, optNumber, optString } from './request.ts';
import type { MemberRecord, UserRecord } from '../domain/records.ts';
import { coreState, findInstitution, findUser } from '../domain/store.ts';
import { createManagedMember, deleteMember } from '../domain/members.ts';
import { createManagedAccount, deleteAccount, updateManagedAccount } from '../domain/accounts.ts';
import { deleteTransaction, updateTransaction } from '../domain/transactions.ts';
import { renderMember } from './members.ts';
import { parseAccountFields, renderAccount } from './accounts.ts';
import { createTransactionFromBody, renderTransaction } from './transactions.ts';

const DEPRECATED_FROM = 'v20250224';

/**
 * Route options of a deprecated managed endpoint: the shell adds the deprecation headers
 * (config.deprecatedFrom). Two faults touch only the managed_members paths:
 * managed-members-removed-on-v20250224 answers them 404 from v20250224 as if they had
 * sunset (they are deprecated there, not sunset; managed-institutions-removed-on-v20250224
 * does the same to /managed_institutions), and managed-members-deprecation-header-missing
 * strips the deprecation header from their answers.
 */
function deprecated(ctx: SimContext) {
  const managedMembers = (request: FastifyRequest) => (request.routeOptions.url ?? '').includes('/managed_members');
  return {
    config: { deprecatedFrom: DEPRECATED_FROM },
    preHandler: async (request: FastifyRequest) => {
      if (managedMembers(request) && request.svcVersion >= DEPRECATED_FROM && ctx.fault('managed-members-removed-on-v20250224')) {
        throw new SimError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
      }
      if (
        request.routeOptions.url === '/managed_institutions' &&
        request.svcVersion >= DEPRECATED_FROM &&
        ctx.fault('managed-institutions-removed-on-v20250224')
      ) {
        throw new SimError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
      }
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (managedMembers(request) && ctx.fault('managed-members-deprecation-header-missing')) reply.removeHeader(ctx.settings.deprecationHeader);
      return payload;
    },
  };
}

type P = { Params: { user_guid: string; member_guid: string; account_guid: string; transaction_guid: string } };

export function registerManaged(app: FastifyInstance, ctx: SimContext): void {
  const DEPRECATED = deprecated(ctx);
  const s = () => coreState(ctx);
  const member = (request: FastifyRequest<P>): { user: UserRecord; m: MemberRecord } => {
    const user = findUser(ctx, request.params.user_guid);
    const m = s().members.get(request.params.member_guid);
    if (!m || m.user_guid !== user.guid || !m.is_managed) throw new SimError('not_found', `No managed member "${request.params.member_guid.slice(0, 80)}"`);
    return { user, m };
  };
  const account = (request: FastifyRequest<P>) => {
    const { m } = member(request);
    const a = s().accounts.get(request.params.account_guid);
    if (!a || a.member_guid !== m.guid) throw new SimError('not_found', `No account "${request.params.account_guid.slice(0, 80)}" on managed member ${m.guid}`);
    return a;
  };
  const transaction = (request: FastifyRequest<P>) => {
    const a = account(request);
    const t = s().transactions.get(request.params.transaction_guid);
    if (!t || t.account_guid !== a.guid)
      throw new SimError('not_found', `No transaction "${request.params.transaction_guid.slice(0, 80)}" on account ${a.guid}`);
    return t;
  };

  app.get('/managed_institutions', DEPRECATED, async (request) => {
    const list = institutionCatalog(ctx.settings.institutionCount).all.slice(0, 5);
    const page = pageList(ctx, list, request.query as Query);
    return { managed_institutions: page.items.map((r) => renderInstitution(ctx, r, request.svcVersion)), pagination: page.pagination };
  });

  app.post<P>('/users/:user_guid/managed_members', DEPRECATED, async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const o = wrapper(request.body, 'member');
    const code = optString(o, 'institution_code', 'member');
    if (!code) throw new SimError('invalid_request', 'member.institution_code is required');
    if (!findInstitution(ctx, code)) throw new SimError('not_found', `No institution "${code.slice(0, 80)}"`);
    const m = createManagedMember(ctx, user, {
      institutionCode: code,
      id: optString(o, 'id', 'member'),
      name: optString(o, 'name', 'member'),
      metadata: optMetadata(o, 'member'),
    });
    return { member: renderMember(ctx, m, request.svcVersion) };
  });
  app.get<P>('/users/:user_guid/managed_members', DEPRECATED, async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const page = pageList(
      ctx,
      [...s().members.values()].filter((m) => m.user_guid === user.guid && m.is_managed),
      request.query as Query,
    );
    return { members: page.items.map((m) => renderMember(ctx, m, request.svcVersion)), pagination: page.pagination };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid', DEPRECATED, async (request) => ({
    member: renderMember(ctx, member(request).m, request.svcVersion),
  }));
  app.put<P>('/users/:user_guid/managed_members/:member_guid', DEPRECATED, async (request) => {
    const { m } = member(request);
    const o = wrapper(request.body, 'member');
    const id = optString(o, 'id', 'member');
    const name = optString(o, 'name', 'member');
    const metadata = optMetadata(o, 'member');
    if (id !== undefined) m.id = id;
    if (name !== undefined) m.name = name;
    if (metadata !== undefined) m.metadata = metadata;
    return { member: renderMember(ctx, m, request.svcVersion) };
  });
  app.delete<P>('/users/:user_guid/managed_members/:member_guid', DEPRECATED, async (request, reply) => {
    deleteMember(ctx, member(request).m, false);
    return reply.code(204).send();
  });

  app.post<P>('/users/:user_guid/managed_members/:member_guid/accounts', DEPRECATED, async (request) => {
    const { m } = member(request);
    const o = wrapper(request.body, 'account');
    const name = optString(o, 'name', 'account');
    const type = optString(o, 'account_type', 'account') ?? optString(o, 'type', 'account');
    const balance = optNumber(o, 'balance', 'account');
    if (!name || !type || balance === undefined) throw new SimError('invalid_request', 'account.name, account.account_type and account.balance are required');
    const a = createManagedAccount(ctx, m, { name, type, balance, subtype: optString(o, 'account_subtype', 'account'), id: optString(o, 'id', 'account') });
    return { account: renderAccount(ctx, a, request.svcVersion) };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid/accounts', DEPRECATED, async (request) => {
    const { m } = member(request);
    const page = pageList(
      ctx,
      [...s().accounts.values()].filter((a) => a.member_guid === m.guid),
      request.query as Query,
    );
    return { accounts: page.items.map((a) => renderAccount(ctx, a, request.svcVersion)), pagination: page.pagination };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid/transactions', DEPRECATED, async (request) => {
    const { m } = member(request);
    const accounts = new Set([...s().accounts.values()].filter((a) => a.member_guid === m.guid).map((a) => a.guid));
    const page = pageList(ctx, [...s().transactions.values()].filter((t) => accounts.has(t.account_guid)).reverse(), request.query as Query);
    return { transactions: page.items.map((t) => renderTransaction(ctx, t)), pagination: page.pagination };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid', DEPRECATED, async (request) => ({
    account: renderAccount(ctx, account(request), request.svcVersion),
  }));
  app.put<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid', DEPRECATED, async (request) => {
    const a = account(request);
    const o = wrapper(request.body, 'account');
    const balance = optNumber(o, 'balance', 'account');
    updateManagedAccount(ctx, a, { ...parseAccountFields({ ...o, balance: undefined }), balance });
    return { account: renderAccount(ctx, a, request.svcVersion) };
  });
  app.delete<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid', DEPRECATED, async (request, reply) => {
    deleteAccount(ctx, account(request));
    return reply.code(204).send();
  });

  app.post<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid/transactions', DEPRECATED, async (request) => {
    const a = account(request);
    return { transaction: renderTransaction(ctx, createTransactionFromBody(ctx, a, wrapper(request.body, 'transaction'))) };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid/transactions', DEPRECATED, async (request) => {
    const a = account(request);
    const page = pageList(
      ctx,
      [...s().transactions.values()].filter((t) => t.account_guid === a.guid),
      request.query as Query,
    );
    return { transactions: page.items.map((t) => renderTransaction(ctx, t)), pagination: page.pagination };
  });
  app.get<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid/transactions/:transaction_guid', DEPRECATED, async (request) => ({
    transaction: renderTransaction(ctx, transaction(request)),
  }));
  app.put<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid/transactions/:transaction_guid', DEPRECATED, async (request) => {
    const t = transaction(request);
    const o = wrapper(request.body, 'transaction');
    const description = optString(o, 'description', 'transaction');
    const amount = optNumber(o, 'amount', 'transaction');
    const category = optString(o, 'category_guid', 'transaction');
    updateTransaction(ctx, t, { categoryGuid: category, description, amount });
    return { transaction: renderTransaction(ctx, t) };
  });
  app.delete<P>('/users/:user_guid/managed_members/:member_guid/accounts/:account_guid/transactions/:transaction_guid', DEPRECATED, async (request, reply) => {
    deleteTransaction(ctx, transaction(request));
    return reply.code(204).send();
  });
}
