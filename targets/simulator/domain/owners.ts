/**
 * Which client a user belongs to (What the service does: "A user is an end user created
 * by a client and belongs to exactly one client"). The simulator serves its client and a
 * second one (settings.secondClientId: SVC_SECOND_CLIENT_ID, else the built-in one), so cross-client isolation can be shown:
 * a user is visible only to the client that created it. Users the simulator seeds belong
 * to the first client. Fault users-shared-across-clients lets every client see every user.
 */
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import type { UserRecord } from './records.ts';
import { coreState } from './store.ts';

const owners = (ctx: SimContext) => ctx.collection<string>('user-owners');

/**
 * The client a request authenticated as (Basic; the routes pass `request.svcClientId`),
 * else the simulator's first client. The domain takes the id, not the request: it knows
 * nothing of HTTP (DESIGN.md, "The layout").
 */
const clientOf = (ctx: SimContext, clientId: string | undefined) => clientId ?? ctx.settings.clientId;

export function recordOwner(ctx: SimContext, clientId: string | undefined, user: UserRecord): void {
  owners(ctx).set(user.guid, clientOf(ctx, clientId));
}

/** Whether the requesting client may see the user. */
export function ownsUser(ctx: SimContext, clientId: string | undefined, user: UserRecord): boolean {
  if (ctx.fault('users-shared-across-clients')) return true;
  return (owners(ctx).get(user.guid) ?? ctx.settings.clientId) === clientOf(ctx, clientId);
}

/**
 * For the platform's preHandler: a path naming another client's user answers 404, as for
 * a user that does not exist (the status is not shown; 404 keeps the user's existence
 * private). The caller leaves data exchange paths out: a grantee reads the issuer's users
 * by design.
 */
export function assertOwnUser(ctx: SimContext, clientId: string | undefined, identifier: string | undefined): void {
  if (!identifier) return;
  const users = coreState(ctx).users;
  const user = users.get(identifier) ?? [...users.values()].find((u) => u.id !== null && u.id === identifier);
  if (user && !ownsUser(ctx, clientId, user)) throw new SimError('not_found', `No user "${identifier.slice(0, 80)}"`);
}
