/**
 * Delivery settings of the simulator's webhook dispatcher (specification, Events and
 * Authentication 6). Credentials come from environment variables only and are never
 * printed.
 *
 *   SVC_SIM_WEBHOOK_TIMEOUT_MS      connect/write/read timeout of one attempt (default 10000)
 *   SVC_SIM_WEBHOOK_JITTER          retry-delay randomness, a fraction (default 0.1 = ±10 %)
 *   SVC_SIM_WEBHOOK_AUTH            none | basic | oauth (default none)
 *   SVC_SIM_WEBHOOK_USERNAME / _PASSWORD          HTTP Basic credentials given to the vendor
 *   SVC_SIM_WEBHOOK_TOKEN_URL, _CLIENT_ID, _CLIENT_SECRET   OAuth 2.0 client credentials
 *   SVC_SIM_WEBHOOK_GRANT_IN        query | body: where `grant_type=client_credentials` goes
 *   SVC_SIM_WEBHOOK_PLATFORM_CLIENT 1: the simulated client is a platform client, which
 *                                   receives only the six platform types (Events)
 */
export type WebhookAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'oauth'; tokenUrl: string; clientId: string; clientSecret: string; grantIn: 'query' | 'body' };

export interface WebhookDeliverySettings {
  webhookTimeoutMs?: number;
  webhookJitter?: number;
  webhookAuth?: WebhookAuth;
  /** Events: "For platform clients only these types are available: aggregation, balance, connection status, history, insights, statements." */
  webhookPlatformClient?: boolean;
}

/** Events, Webhooks: the webhook types available to platform clients (spec/CONVENTIONS.md keys). */
export const PLATFORM_CLIENT_TYPES = ['aggregation', 'balance', 'connection_status', 'history', 'insights', 'statements'] as const;

declare module '../settings.ts' {
  interface SimulatorSettings {
    /** See WebhookDeliverySettings.webhookPlatformClient. */
    webhookPlatformClient?: boolean;
  }
}

export const WEBHOOK_DELIVERY_DEFAULTS = {
  webhookTimeoutMs: 10_000,
  webhookJitter: 0.1,
  webhookAuth: { kind: 'none' } as WebhookAuth,
};

type Env = Record<string, string | undefined>;

export function webhookDeliverySettingsFromEnv(env: Env): WebhookDeliverySettings {
  const out: WebhookDeliverySettings = {};
  if (env.SVC_SIM_WEBHOOK_TIMEOUT_MS) out.webhookTimeoutMs = Number(env.SVC_SIM_WEBHOOK_TIMEOUT_MS);
  if (env.SVC_SIM_WEBHOOK_JITTER) out.webhookJitter = Number(env.SVC_SIM_WEBHOOK_JITTER);
  if (env.SVC_SIM_WEBHOOK_PLATFORM_CLIENT === '1') out.webhookPlatformClient = true;
  const kind = env.SVC_SIM_WEBHOOK_AUTH;
  if (kind === 'basic') {
    out.webhookAuth = { kind, username: env.SVC_SIM_WEBHOOK_USERNAME ?? '', password: env.SVC_SIM_WEBHOOK_PASSWORD ?? '' };
  } else if (kind === 'oauth') {
    out.webhookAuth = {
      kind,
      tokenUrl: env.SVC_SIM_WEBHOOK_TOKEN_URL ?? '',
      clientId: env.SVC_SIM_WEBHOOK_CLIENT_ID ?? '',
      clientSecret: env.SVC_SIM_WEBHOOK_CLIENT_SECRET ?? '',
      grantIn: env.SVC_SIM_WEBHOOK_GRANT_IN === 'body' ? 'body' : 'query',
    };
  } else if (kind && kind !== 'none') {
    throw new Error(`SVC_SIM_WEBHOOK_AUTH must be none, basic or oauth, got "${kind}"`);
  }
  return out;
}
