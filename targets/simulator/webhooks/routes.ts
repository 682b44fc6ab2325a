/**
 * Simulator-only webhook control routes under /_sim (never part of the svc contract).
 *
 *   POST /_sim/webhooks/test   {"type": "member", "object": {...}?}
 *        Sends a test webhook (Events rule 7: `action: "test"`, an object named for the
 *        type, `version`) to the URL configured for the type. 202 with the body sent.
 *   POST /_sim/webhooks/notification   {"type": "transaction_notification"|"account_notification", "member_guid": "MBR-..."}
 *        Sends a notification about an existing member (Events rule 9: it includes member_guid). 202.
 *   GET  /_sim/webhooks/attempts
 *        Every delivery attempt so far (type, attempt number, status or error, body hash).
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { sendError } from '../errors.ts';
import { dispatcherOf } from './dispatcher.ts';
import { coreState } from '../domain/store.ts';

const TYPE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export function registerWebhookControl(app: FastifyInstance, ctx: SimContext): void {
  app.post('/webhooks/test', async (request, reply) => {
    const body = (request.body ?? {}) as { type?: unknown; object?: unknown };
    if (typeof body.type !== 'string' || !TYPE_PATTERN.test(body.type)) {
      return sendError(reply, 'invalid_request', 'Send {"type": "<webhook type, e.g. member>"}; type must match ^[a-z][a-z0-9_]*$');
    }
    if (body.object !== undefined && (typeof body.object !== 'object' || body.object === null || Array.isArray(body.object))) {
      return sendError(reply, 'invalid_request', '"object", when sent, must be a JSON object');
    }
    const dispatcher = dispatcherOf(ctx);
    if (!dispatcher?.urlFor(body.type)) {
      return sendError(reply, 'conflict', `No webhook URL is configured for type "${body.type}" (settings.webhookUrls or SVC_SIM_WEBHOOK_URL)`);
    }
    const event = dispatcher.sendTest(body.type, (body.object as Record<string, unknown>) ?? {});
    return reply.code(202).send({ type: event.type, body: event.body });
  });

  app.post('/webhooks/notification', async (request, reply) => {
    const body = (request.body ?? {}) as { type?: unknown; member_guid?: unknown };
    if (body.type !== 'transaction_notification' && body.type !== 'account_notification') {
      return sendError(reply, 'invalid_request', 'Send {"type": "transaction_notification" | "account_notification", "member_guid": "MBR-..."}');
    }
    const m = typeof body.member_guid === 'string' ? coreState(ctx).members.get(body.member_guid) : undefined;
    if (!m) return sendError(reply, 'not_found', 'member_guid names no member of the simulator');
    const dispatcher = dispatcherOf(ctx);
    if (!dispatcher) return sendError(reply, 'conflict', 'No webhook URL is configured (settings.webhookUrls or SVC_SIM_WEBHOOK_URL)');
    const event = dispatcher.sendNotification(body.type, { member_guid: m.guid, user_guid: m.user_guid });
    return reply.code(202).send({ type: event.type, body: event.body });
  });

  app.get('/webhooks/attempts', async () => ({ attempts: dispatcherOf(ctx)?.attempts ?? [] }));
}
