/**
 * Webhook emission (Events): what the domain's changes say to the webhook sink
 * (ctx.webhooks; delivery is targets/simulator/webhooks).
 */
import type { SimContext } from '../context.ts';
import type { MemberRecord } from './records.ts';
import { userIdOf, epochOf } from './store.ts';

/**
 * Events, rules 1, 3, 8, 9: the member webhook carries `version` (rising), `is_oauth`,
 * `use_cases`, `is_being_aggregated` and `x_callback_payload`; `_at` fields are epoch seconds.
 * Body: `{ action, version, member: {...} }` (the object named for its type, as rule 7
 * describes test webhooks).
 */
export function emitMember(ctx: SimContext, m: MemberRecord, action: string, skip = false): void {
  m.version += 1;
  const inner: Record<string, unknown> = {
    guid: m.guid,
    id: m.id,
    user_guid: m.user_guid,
    user_id: ctx.fault('member-webhook-user-id-is-guid') ? m.user_guid : userIdOf(ctx, m.user_guid),
    institution_code: m.institution_code,
    connection_status: m.connection_status,
    connection_status_set_at: Math.floor(m.connectionStatusSetAtMs / 1000),
    is_being_aggregated: m.is_being_aggregated || (action === 'updated' && ctx.fault('member-webhook-stale-after-job')),
    is_oauth: m.is_oauth,
    use_cases: m.use_cases,
    aggregated_at: epochOf(m.aggregated_at),
    successfully_aggregated_at: epochOf(m.successfully_aggregated_at),
    version: m.version,
  };
  if (m.callbackPayload !== null && !ctx.fault('x-callback-payload-missing-in-member-webhook')) inner.x_callback_payload = m.callbackPayload;
  ctx.webhooks.emit({ type: 'member', body: { action, version: m.version, member: inner } }, { skip });
}

/** Other webhook types: `{ action, <type>: {...} }`; `_at` epoch seconds, `_on` dates (Events, rule 1). */
export function emitTyped(ctx: SimContext, type: string, action: string, inner: Record<string, unknown>, skip = false): void {
  ctx.webhooks.emit({ type, body: { action, [type]: inner } }, { skip });
}

export function setStatus(ctx: SimContext, m: MemberRecord, status: string): void {
  if (m.connection_status === status) return;
  m.connection_status = status;
  m.connectionStatusSetAtMs = ctx.clock.nowMs(m.user_guid);
  emitTyped(ctx, 'connection_status', 'changed', {
    member_guid: m.guid,
    member_id: m.id,
    user_guid: m.user_guid,
    user_id: userIdOf(ctx, m.user_guid),
    connection_status: status,
    connection_status_set_at: ctx.clock.nowEpochSeconds(m.user_guid),
  });
}
