/**
 * Processor tokens (What the service does: processor tokens; Endpoints, "Authorization
 * code for processors"; Authentication 4; Limits, processor access_token 60 days;
 * Versioning: `/payment_processor_token` deprecated in favour of `/token`;
 * `/payment_processor_authorization_code` sunset from v20250224).
 *
 *   POST /authorization_code     { authorization_code: { scope } } -> { authorization_code: { code, scope, expires_at } }
 *   POST /token                  { code } (JSON) or form `grant_type=authorization_code&code=...`
 *                                -> { access_token, token_type: "bearer", expires_in: 5184000, scope }
 *   POST /payment_processor_token                  deprecated: same as /token
 *   POST /payment_processor_authorization_code     sunset from v20250224; before:
 *        { payment_processor_authorization_code: { user_guid, member_guid, account_guid } }
 *        -> { payment_processor_authorization_code: { authorization_code } }
 *   GET  /payment_account        Authorization: Bearer <access_token> -> { payment_account: { user_guid, member_guid, account_guid, ... } }
 *
 * Scope: space-separated `user-guid:USR-...`, `member-guid:MBR-...`, `account-guid:ACT-...`
 * and the word `read-protected`. Every identifier must exist, the member and the account
 * must belong to the user (and the account to the member), one user-guid is required,
 * and a member in scope must already be verified (a completed verify job, or
 * `account_verification` in its data request): 422 otherwise. An authorization code is
 * single use and lives 10 minutes of simulator time (not shown in the specification).
 * The /token request and response shapes are not shown in the specification; the
 * simulator uses the OAuth 2.0 token response (RFC 6749 section 5.1).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { wrapper } from './query.ts';
import { optString } from './request.ts';
import type { AccountRecord, MemberRecord } from '../domain/records.ts';
import { coreState, isoOf } from '../domain/store.ts';

const ACCESS_TOKEN_LIFETIME_S = 60 * 86_400;
const CODE_LIFETIME_MS = 10 * 60_000;

interface Scope {
  userGuid: string;
  memberGuid: string | null;
  accountGuid: string | null;
  readProtected: boolean;
  text: string;
}
interface CodeRecord {
  code: string;
  scope: Scope;
  expiresMs: number;
  used: boolean;
}
interface TokenRecord {
  token: string;
  scope: Scope;
  expiresMs: number;
}

const codes = (ctx: SimContext) => ctx.collection<CodeRecord>('processor_codes');
const tokens = (ctx: SimContext) => ctx.collection<TokenRecord>('processor_tokens');

function parseScope(ctx: SimContext, text: string): Scope {
  // Fault authorization-code-scope-lenient: commas separate entries too, and an underscore
  // reads as the hyphen of a stated key (user_guid:, read_protected).
  const lenient = ctx.fault('authorization-code-scope-lenient');
  const entries = text
    .split(lenient ? /[\s,]+/ : /\s+/)
    .filter(Boolean)
    .map((e) => (lenient ? e.replace(/^(user|member|account|read)_(guid|protected)/, '$1-$2') : e));
  if (entries.length === 0)
    throw new SimError(
      'invalid_request',
      'authorization_code.scope is empty; send e.g. "user-guid:USR-... member-guid:MBR-... account-guid:ACT-... read-protected"',
    );
  const scope: Scope = { userGuid: '', memberGuid: null, accountGuid: null, readProtected: false, text: entries.join(' ') };
  for (const e of entries) {
    const m = /^(user-guid|member-guid|account-guid):(\S+)$/.exec(e);
    if (e === 'read-protected') scope.readProtected = true;
    else if (!m)
      throw new SimError('invalid_request', `Unknown scope entry "${e.slice(0, 80)}"; entries are user-guid:, member-guid:, account-guid: and read-protected`);
    else if (m[1] === 'user-guid') scope.userGuid = m[2];
    else if (m[1] === 'member-guid') scope.memberGuid = m[2];
    else scope.accountGuid = m[2];
  }
  if (!scope.userGuid) throw new SimError('invalid_request', 'The scope needs a user-guid:USR-... entry');
  const s = coreState(ctx);
  if (!s.users.has(scope.userGuid)) throw new SimError('not_found', `Scope names no user ${scope.userGuid.slice(0, 80)}`);
  let member: MemberRecord | undefined;
  let account: AccountRecord | undefined;
  if (scope.memberGuid) {
    member = s.members.get(scope.memberGuid);
    if (!member || member.user_guid !== scope.userGuid)
      throw new SimError('not_found', `Scope names no member ${scope.memberGuid.slice(0, 80)} of user ${scope.userGuid}`);
  }
  if (scope.accountGuid) {
    account = s.accounts.get(scope.accountGuid);
    if (!account || account.user_guid !== scope.userGuid || (member && account.member_guid !== member.guid)) {
      throw new SimError('not_found', `Scope names no account ${scope.accountGuid.slice(0, 80)} of that user${member ? ' and member' : ''}`);
    }
    member = member ?? s.members.get(account.member_guid);
    if (!scope.memberGuid && member) scope.memberGuid = member.guid;
  }
  // Endpoints: "A member in the scope must already have been verified."
  if (member && !member.verified && !ctx.fault('verified-member-not-required-for-processor-code')) {
    throw new SimError(
      'unprocessable',
      `Member ${member.guid} has not been verified; verify it (POST /users/{user_guid}/members/{member_guid}/verify) before requesting an authorization code`,
    );
  }
  return scope;
}

function issueCode(ctx: SimContext, scope: Scope): CodeRecord {
  const rec = { code: randomBytes(24).toString('base64url'), scope, expiresMs: ctx.clock.nowMs() + CODE_LIFETIME_MS, used: false };
  codes(ctx).set(rec.code, rec);
  return rec;
}

function exchange(ctx: SimContext, request: FastifyRequest) {
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new SimError('invalid_request', 'Send { "code": "..." } or a form with grant_type=authorization_code and code');
  const inner = body.token && typeof body.token === 'object' ? (body.token as Record<string, unknown>) : body;
  const grantType = optString(inner, 'grant_type', 'body');
  if (grantType !== undefined && grantType !== 'authorization_code') throw new SimError('invalid_request', 'grant_type must be authorization_code');
  const code = optString(inner, 'code', 'body') ?? optString(inner, 'authorization_code', 'body');
  if (!code) throw new SimError('invalid_request', 'code is required (the authorization code from POST /authorization_code)');
  const rec = codes(ctx).get(code);
  if (!rec || rec.used || rec.expiresMs < ctx.clock.nowMs()) throw new SimError('invalid_request', 'The authorization code is unknown, used or expired');
  rec.used = true;
  const lifetime = ctx.fault('processor-token-lifetime-wrong') ? 86_400 : ACCESS_TOKEN_LIFETIME_S;
  const t = { token: randomBytes(32).toString('base64url'), scope: rec.scope, expiresMs: ctx.clock.nowMs() + lifetime * 1000 };
  tokens(ctx).set(t.token, t);
  return { access_token: t.token, token_type: 'bearer', expires_in: lifetime, scope: rec.scope.text };
}

export function registerProcessor(app: FastifyInstance, ctx: SimContext): void {
  app.post('/authorization_code', async (request) => {
    // Fault authorization-code-refuses-wrapped-scope: only a top-level `scope` is read, so the
    // stated request (object authorization_code with scope) is refused.
    const o = ctx.fault('authorization-code-refuses-wrapped-scope')
      ? ((request.body ?? {}) as Record<string, unknown>)
      : wrapper(request.body, 'authorization_code');
    const text = optString(o, 'scope', 'authorization_code');
    if (text === undefined) throw new SimError('invalid_request', 'authorization_code.scope is required');
    const rec = issueCode(ctx, parseScope(ctx, text));
    // Fault authorization-code-body-empty: a 200 without the authorization code.
    if (ctx.fault('authorization-code-body-empty')) return {};
    return { authorization_code: { code: rec.code, scope: rec.scope.text, expires_at: isoOf(rec.expiresMs) } };
  });

  app.post('/token', async (request) => exchange(ctx, request));
  app.post('/payment_processor_token', { config: { deprecatedFrom: 'v20111101' } }, async (request) => exchange(ctx, request));

  app.post('/payment_processor_authorization_code', { config: { sunsetFrom: 'v20250224' } }, async (request) => {
    const o = wrapper(request.body, 'payment_processor_authorization_code');
    const parts = [
      ['user-guid', 'user_guid'],
      ['member-guid', 'member_guid'],
      ['account-guid', 'account_guid'],
    ]
      .map(([k, f]) => [k, optString(o, f, 'payment_processor_authorization_code')] as const)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}:${v}`);
    const rec = issueCode(ctx, parseScope(ctx, parts.join(' ')));
    return { payment_processor_authorization_code: { authorization_code: rec.code } };
  });

  app.get('/payment_account', { config: { processorBearer: true } }, async (request, reply) => {
    const h = request.headers.authorization ?? '';
    let t = tokens(ctx).get(h.replace(/^bearer\s+/i, '').trim());
    // Fault: any caller reads the newest token's payment account (Authentication 4 broken).
    if ((!/^bearer /i.test(h) || !t) && ctx.fault('processor-token-not-required')) t = [...tokens(ctx).values()].at(-1);
    if (!t || (!/^bearer /i.test(h) && !ctx.fault('processor-token-not-required')) || t.expiresMs < ctx.clock.nowMs()) {
      reply.header('WWW-Authenticate', 'Bearer realm="svc-processor"');
      throw new SimError('unauthorized', 'Send Authorization: Bearer <access_token> from POST /token; the token is unknown or expired (60 days)');
    }
    const s = coreState(ctx);
    let account = t.scope.accountGuid ? s.accounts.get(t.scope.accountGuid) : undefined;
    // Fault payment-account-outside-scope: the member's first account, whatever account the scope names.
    if (account && ctx.fault('payment-account-outside-scope'))
      account = [...s.accounts.values()].find((a) => a.member_guid === account!.member_guid) ?? account;
    const out: Record<string, unknown> = {
      user_guid: t.scope.userGuid,
      member_guid: t.scope.memberGuid,
      account_guid: account?.guid ?? t.scope.accountGuid,
      account_name: account?.name ?? null,
      account_type: account?.type ?? null,
      account_number: account?.account_number ?? null,
      routing_number: account?.routing_number ?? null,
    };
    if (ctx.fault('payment-account-missing-member-guid')) delete out.member_guid;
    return { payment_account: out };
  });
}
