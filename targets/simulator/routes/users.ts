/**
 * Users (What the service does: a user is an end user created by a client).
 *
 *   POST   /users                 { user: { id?, email?, metadata?, is_disabled? } } -> 200 { user }
 *   GET    /users                 paged { users, pagination }
 *   GET    /users/{user_guid}     { user }   (guid or the client's id)
 *   PUT    /users/{user_guid}     { user: {...} } -> { user }
 *   DELETE /users/{user_guid}     204; deletes the user's members, accounts and data
 *
 * The user field list is not shown in the specification; the simulator's is the
 * above plus `guid` (`USR-<uuid>`). A second user with the same client `id` answers 409
 * (the specification advises clients to set their own `id` to sync with their systems,
 * which only works if it is unique). SVC-SKIP-WEBHOOK (Events, rule 8) is honoured for
 * the member webhooks a user deletion causes.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { wrapper } from './query.ts';
import { coreState, findUser, isoNow, optBool, optMetadata, optString, skipWebhookOf, type UserRecord } from './core.ts';
import { deleteMember } from './members.ts';

export function renderUser(u: UserRecord): Record<string, unknown> {
  return { guid: u.guid, id: u.id, email: u.email, metadata: u.metadata, is_disabled: u.is_disabled };
}

function assertIdFree(ctx: SimContext, id: string | undefined, self?: string): void {
  if (id === undefined) return;
  for (const u of coreState(ctx).users.values()) {
    if (u.id === id && u.guid !== self) throw new SimError('conflict', `A user with id "${id.slice(0, 80)}" already exists (${u.guid})`);
  }
}

export function registerUsers(app: FastifyInstance, ctx: SimContext): void {
  const users = () => coreState(ctx).users;

  app.post('/users', async (request) => {
    const body = wrapper(request.body, 'user');
    const id = optString(body, 'id', 'user');
    const email = optString(body, 'email', 'user');
    const metadata = optMetadata(body, 'user');
    const disabled = optBool(body, 'is_disabled', 'user');
    assertIdFree(ctx, id);
    const at = isoNow(ctx);
    const u: UserRecord = { guid: ctx.guid('USR'), id: id ?? null, email: email ?? null, metadata: metadata ?? null, is_disabled: disabled ?? false, created_at: at, updated_at: at };
    users().set(u.guid, u);
    return { user: renderUser(u) };
  });

  app.get('/users', async (request) => {
    const page = pageList(ctx, [...users().values()], request.query as Record<string, unknown>);
    return { users: page.items.map(renderUser), pagination: page.pagination };
  });

  app.get<{ Params: { user_guid: string } }>('/users/:user_guid', async (request) => ({ user: renderUser(findUser(ctx, request.params.user_guid)) }));

  app.put<{ Params: { user_guid: string } }>('/users/:user_guid', async (request) => {
    const u = findUser(ctx, request.params.user_guid);
    const body = wrapper(request.body, 'user');
    const id = optString(body, 'id', 'user');
    const email = optString(body, 'email', 'user');
    const metadata = optMetadata(body, 'user');
    const disabled = optBool(body, 'is_disabled', 'user');
    assertIdFree(ctx, id, u.guid);
    if (id !== undefined) u.id = id;
    if (email !== undefined) u.email = email;
    if (metadata !== undefined) u.metadata = metadata;
    if (disabled !== undefined) u.is_disabled = disabled;
    u.updated_at = isoNow(ctx);
    return { user: renderUser(u) };
  });

  app.delete<{ Params: { user_guid: string } }>('/users/:user_guid', async (request, reply) => {
    const u = findUser(ctx, request.params.user_guid);
    const skip = skipWebhookOf(request);
    for (const m of [...coreState(ctx).members.values()]) if (m.user_guid === u.guid) deleteMember(ctx, m, skip);
    for (const i of [...coreState(ctx).insights.values()]) if (i.user_guid === u.guid) coreState(ctx).insights.delete(i.guid);
    users().delete(u.guid);
    return reply.code(204).send();
  });
}
