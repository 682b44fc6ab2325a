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
 * above plus `guid` (`USR-<uuid>`). The operations are ../domain/users.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { pageList } from '../paging.ts';
import { wrapper } from './query.ts';
import { optBool, optMetadata, optString, skipWebhookOf } from './request.ts';
import type { UserRecord } from '../domain/records.ts';
import { coreState, findUser } from '../domain/store.ts';
import { createUser, deleteUser, updateUser, type UserFields } from '../domain/users.ts';
import { ownsUser, recordOwner } from '../domain/owners.ts';

function renderUser(u: UserRecord): Record<string, unknown> {
  return { guid: u.guid, id: u.id, email: u.email, metadata: u.metadata, is_disabled: u.is_disabled };
}

function userFields(body: unknown): UserFields {
  const o = wrapper(body, 'user');
  return {
    id: optString(o, 'id', 'user'),
    email: optString(o, 'email', 'user'),
    metadata: optMetadata(o, 'user'),
    isDisabled: optBool(o, 'is_disabled', 'user'),
  };
}

export function registerUsers(app: FastifyInstance, ctx: SimContext): void {
  app.post('/users', async (request) => {
    const u = createUser(ctx, userFields(request.body));
    recordOwner(ctx, request.svcClientId, u);
    return { user: renderUser(u) };
  });

  app.get('/users', async (request) => {
    // What the service does: a user belongs to exactly one client, so a client lists its own.
    const page = pageList(
      ctx,
      [...coreState(ctx).users.values()].filter((u) => ownsUser(ctx, request.svcClientId, u)),
      request.query as Record<string, unknown>,
    );
    return { users: page.items.map(renderUser), pagination: page.pagination };
  });

  // Fault deleted-user-still-read: a deleted user's last answer is still served by its read.
  const deletedUsers = () => ctx.collection<Record<string, unknown>>('deleted-users');
  app.get<{ Params: { user_guid: string } }>('/users/:user_guid', async (request) => {
    const kept = ctx.fault('deleted-user-still-read') ? deletedUsers().get(request.params.user_guid) : undefined;
    try {
      return { user: renderUser(findUser(ctx, request.params.user_guid)) };
    } catch (e) {
      if (kept) return { user: kept };
      throw e;
    }
  });

  app.put<{ Params: { user_guid: string } }>('/users/:user_guid', async (request) => {
    const u = findUser(ctx, request.params.user_guid);
    updateUser(ctx, u, userFields(request.body));
    return { user: renderUser(u) };
  });

  app.delete<{ Params: { user_guid: string } }>('/users/:user_guid', async (request, reply) => {
    const user = findUser(ctx, request.params.user_guid);
    if (ctx.fault('deleted-user-still-read')) deletedUsers().set(user.guid, renderUser(user));
    deleteUser(ctx, user, skipWebhookOf(request));
    return reply.code(204).send();
  });
}
