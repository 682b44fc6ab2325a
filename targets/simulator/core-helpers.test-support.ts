/**
 * Helpers for the simulator-core unit tests (in-process with app.inject): a simulator
 * with fast aggregation, authenticated requests, users and members per scenario, and
 * polling until a member settles. The plainer helpers (an app with chosen faults, the
 * default credentials' header) are testing.test-support.ts's.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildSimulator } from './app.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';
import { BASIC } from './testing.test-support.ts';
import type { RecordingWebhookSink } from './context.ts';

export const AGG_MS = 10;
export const PW = SIMULATOR_DEFAULTS.passwords;
export const V_OLD = 'v20111101';
export const V_NEW = 'v20250224';

export interface Res {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  text: string;
}

export class Sim {
  constructor(readonly app: FastifyInstance) {}
  static async start(faults: string[] = [], settings: Record<string, unknown> = {}): Promise<Sim> {
    return new Sim(await buildSimulator({ faults, settings: { aggregationMs: AGG_MS, rateLimitPerSecond: 0, ...settings } }));
  }
  async req(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Res> {
    const r = await this.app.inject({
      method: method as 'GET',
      url,
      payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { authorization: BASIC, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    });
    let body: unknown;
    try {
      body = r.body ? JSON.parse(r.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: r.statusCode, body, headers: r.headers, text: r.body };
  }
  async page(url: string, method = 'GET', form?: Record<string, string>): Promise<Res> {
    const r = await this.app.inject({
      method: method as 'GET',
      url,
      payload: form ? new URLSearchParams(form).toString() : undefined,
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    });
    return { status: r.statusCode, body: undefined, headers: r.headers, text: r.body };
  }
  get webhooks(): RecordingWebhookSink {
    return this.app.sim.webhooks as RecordingWebhookSink;
  }
  async user(body: Record<string, unknown> = {}): Promise<string> {
    const r = await this.req('POST', '/users', { user: body });
    if (r.status !== 200) throw new Error(`user create ${r.status} ${r.text}`);
    return r.body.user.guid;
  }
  async member(
    user: string,
    scenario: string,
    opts: { version?: string; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ): Promise<Res> {
    const version = opts.version ?? V_OLD;
    const member: Record<string, unknown> = {
      institution_code: 'svcbank',
      credentials: [
        { field_name: 'username', value: 'test_user' },
        { field_name: 'password', value: PW[scenario] ?? scenario },
      ],
      ...(version >= V_NEW ? { data_request: { products: ['transactions', 'account_verification'] } } : {}),
      ...opts.extra,
    };
    return this.req('POST', `/users/${user}/members`, { member }, { 'accept-version': version, ...opts.headers });
  }
  async status(user: string, member: string, version = V_OLD): Promise<any> {
    return (await this.req('GET', `/users/${user}/members/${member}/status`, undefined, { 'accept-version': version })).body.member;
  }
  async read(user: string, member: string): Promise<any> {
    return (await this.req('GET', `/users/${user}/members/${member}`)).body.member;
  }
  /** Polls the member until it is not being aggregated (or CHALLENGED). */
  async settle(user: string, member: string): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const m = await this.read(user, member);
      if (!m.is_being_aggregated) return m;
      await sleep(AGG_MS / 2);
    }
    throw new Error('member never settled');
  }
  async connected(scenario = 'SUCCESS', version = V_OLD): Promise<{ user: string; member: string }> {
    const user = await this.user();
    const r = await this.member(user, scenario, { version });
    const member = r.body.member.guid;
    await this.settle(user, member);
    return { user, member };
  }
  async close(): Promise<void> {
    await this.app.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs fn against a fresh simulator and closes it. */
export async function withSim<T>(faults: string[], fn: (sim: Sim) => Promise<T>, settings: Record<string, unknown> = {}): Promise<T> {
  const sim = await Sim.start(faults, settings);
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

export async function oauthMember(sim: Sim, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const user = await sim.user();
  const r = await sim.req('POST', `/users/${user}/members`, { member: { institution_code: 'svc_bank_oauth', is_oauth: true, ...extra } }, headers);
  return { user, r, member: r.body?.member };
}

/** Loads the OAuth page and submits one action; answers the decision response. */
export async function decide(sim: Sim, uri: string, action: 'authorize' | 'deny' | 'cancel') {
  const path = new URL(uri).pathname;
  const pageRes = await sim.page(path);
  assert.equal(pageRes.status, 200, pageRes.text);
  const session = /name="session" value="([^"]+)"/.exec(pageRes.text)![1];
  return sim.page(`${path}/decision`, 'POST', { session, action });
}
