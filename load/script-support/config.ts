/**
 * Target, credentials and settings of a load script, all from `__ENV` (k6's way; the
 * runner provides the same). Nothing here reads files: credentials come from the
 * environment only and are never printed (Developers guide, "Secrets").
 *
 *   SVC_BASE_URL                 platform base URL (required; `npm run load` starts the
 *                                simulator and sets it when it is unset)
 *   SVC_CLIENT_ID, SVC_API_KEY   Basic credentials (Authentication 1)
 *   SVC_ACCEPT_VERSION           optional Accept-Version header (Versioning)
 *   PROFILE                      smoke (default) | average | stress | spike
 *   PHASE_SECONDS                override of the profile's phase length (1..60 s)
 *   SVC_RATE_LIMIT_PER_SECOND    expected per-client limit (Limits: "not shown"; default 300
 *                                on a loopback target only, required on any other)
 *   SVC_429_BODY                 unset (default): a 429 may have any body or none (Errors
 *                                shows no error body) | "non-empty" | "json-error"
 *                                ({"error":{"message":...}}, the simulator's): a rule the
 *                                user states for their target, enforced only when set
 *   SVC_RATE_LIMIT_PATHS         comma list of GET paths the flood spreads over (default
 *                                /institutions and /categories/default; which requests
 *                                count toward the limit is not shown)
 *   SVC_PAGE_P95_MS, SVC_PAGE_P99_MS  page-read latency thresholds (default 500 / 1000 ms)
 *   SVC_CHECKS_RATE              minimum checks pass rate (default 1: every check passes)
 *   SVC_3DX_GRANTEE_GUID, SVC_3DX_GRANT_GUID, SVC_3DX_USER  data-exchange list to walk
 *   ALLOW_REMOTE_TARGET=1        required before any non-loopback target is loaded
 *   MAX_REQUESTS                 refuse a plan above this many requests (default 200000)
 */
import encoding from 'k6/encoding';
import { profileByName, type LoadProfile } from './profiles.ts';

export interface LoadConfig {
  baseUrl: string;
  host: string;
  loopback: boolean;
  clientId: string;
  apiKey: string;
  acceptVersion?: string;
  profile: LoadProfile;
  rateLimitPerSecond: number;
  /** What a 429's body must be: `any` unless the user states more (SVC_429_BODY). */
  rateLimitBody: 'any' | 'non-empty' | 'json-error';
  pageP95Ms: number;
  pageP99Ms: number;
  checksRate: number;
  dataExchange: { granteeGuid?: string; grantGuid?: string; user?: string };
  maxRequests: number;
  /** Hard bound on any scenario's duration, seconds. */
  maxDurationSeconds: number;
}

function num(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function loadConfig(env: Record<string, string | undefined> = __ENV): LoadConfig {
  const baseUrl = (env.SVC_BASE_URL ?? '').replace(/\/+$/, '');
  const m = /^https?:\/\/(\[[^\]]+\]|[^/:?#]+)/i.exec(baseUrl);
  if (!m) throw new Error(`SVC_BASE_URL must be an http(s) URL of the platform API, got "${baseUrl}" (npm run load starts the simulator when it is unset)`);
  const host = m[1];
  const loopback = isLoopbackHost(host);
  const limitRaw = env.SVC_RATE_LIMIT_PER_SECOND;
  if (!loopback && !limitRaw) {
    throw new Error('SVC_RATE_LIMIT_PER_SECOND is required for a non-loopback target: the specification does not show rate limit values (Limits)');
  }
  const body = env.SVC_429_BODY || 'any';
  if (body !== 'any' && body !== 'non-empty' && body !== 'json-error')
    throw new Error(`SVC_429_BODY must be "any", "non-empty" or "json-error", got "${body}"`);
  return {
    baseUrl,
    host,
    loopback,
    clientId: env.SVC_CLIENT_ID ?? '',
    apiKey: env.SVC_API_KEY ?? '',
    acceptVersion: env.SVC_ACCEPT_VERSION || undefined,
    profile: profileByName(env.PROFILE || 'smoke', env.PHASE_SECONDS),
    rateLimitPerSecond: num(env, 'SVC_RATE_LIMIT_PER_SECOND', 300),
    rateLimitBody: body,
    pageP95Ms: num(env, 'SVC_PAGE_P95_MS', 500),
    pageP99Ms: num(env, 'SVC_PAGE_P99_MS', 1000),
    checksRate: Math.min(1, num(env, 'SVC_CHECKS_RATE', 1)),
    dataExchange: { granteeGuid: env.SVC_3DX_GRANTEE_GUID, grantGuid: env.SVC_3DX_GRANT_GUID, user: env.SVC_3DX_USER },
    maxRequests: num(env, 'MAX_REQUESTS', 200_000),
    maxDurationSeconds: 300,
  };
}

/**
 * The loopback guard: a target other than this machine is loaded only with
 * ALLOW_REMOTE_TARGET=1, and never beyond MAX_REQUESTS. Called in the init context, so
 * a refused run sends nothing.
 */
export function guardTarget(cfg: LoadConfig, plannedRequests: number, plannedSeconds: number, env: Record<string, string | undefined> = __ENV): void {
  const plan = `about ${Math.ceil(plannedRequests)} requests over ${plannedSeconds} s (profile ${cfg.profile.name})`;
  if (!cfg.loopback && env.ALLOW_REMOTE_TARGET !== '1') {
    throw new Error(`Refusing to load ${cfg.host}: it is not a loopback address. This run would send ${plan}. Set ALLOW_REMOTE_TARGET=1 to run it.`);
  }
  if (plannedRequests > cfg.maxRequests) {
    throw new Error(`Refusing the plan: ${plan} exceeds MAX_REQUESTS=${cfg.maxRequests}.`);
  }
  if (plannedSeconds > cfg.maxDurationSeconds) {
    throw new Error(`Refusing the plan: ${plannedSeconds} s exceeds the ${cfg.maxDurationSeconds} s bound of a load script.`);
  }
}

export function planMessage(cfg: LoadConfig, plannedRequests: number, plannedSeconds: number): string {
  return `target ${cfg.host}${cfg.loopback ? ' (loopback)' : ' (remote, ALLOW_REMOTE_TARGET=1)'}: planned about ${Math.ceil(plannedRequests)} requests over ${plannedSeconds} s, profile ${cfg.profile.name}`;
}

export function platformHeaders(cfg: LoadConfig, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${encoding.b64encode(`${cfg.clientId}:${cfg.apiKey}`)}`,
    Accept: 'application/json',
    ...extra,
  };
  if (cfg.acceptVersion) headers['Accept-Version'] = cfg.acceptVersion;
  return headers;
}
