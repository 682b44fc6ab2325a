/**
 * Members and the member workflow (Resources, Member; States and transitions; Endpoints,
 * "Widgets and members"; Events, rules 8 and 9; Versioning, "Changes in v20250224").
 *
 *   POST   /users/{u}/members                        create: 200 (v20111101), 201 (from v20250224)
 *   GET    /users/{u}/members                        paged { members, pagination }
 *   GET    /users/{u}/members/{m}                    { member }
 *   PUT    /users/{u}/members/{m}                    update (id, metadata, credentials -> re-aggregates)
 *   DELETE /users/{u}/members/{m}                    204
 *   GET    /users/{u}/members/{m}/status             { member: { connection_status, ..., challenges? } }
 *   GET    /users/{u}/members/{m}/challenges         paged { challenges }
 *   PUT    /users/{u}/members/{m}/resume             { member: { challenges: [{ guid, value }] } } -> 202
 *   POST   /users/{u}/members/{m}/aggregate          ?include_holdings&include_transactions -> 202
 *   POST   /users/{u}/members/{m}/verify             202
 *   POST   /users/{u}/members/{m}/extend_history     202
 *   POST   /users/{u}/members/{m}/identify           202; 202 while identifying; 409 while another job runs
 *   GET    /users/{u}/members/{m}/account_owners     paged { account_owners }
 *   GET    /users/{u}/members/{m}/credentials        paged { credentials }
 *   GET    /users/{u}/members/{m}/account_numbers    paged { account_numbers } (verified members)
 *   GET    /users/{u}/members/{m}/oauth_window_uri   a fresh single-use URI for an OAuth member
 *
 * Routes only parse the request, call ../domain/members.ts, pick the status and render.
 * Statuses where the specification is silent (README, "Simulator"): job-starting requests
 * answer 202 with the member, also when a job already runs and nothing new starts; resume
 * on a member that is not CHALLENGED answers 422, a missing answer 400.
 * - `credentials` entries name their field by `guid` (from the institution credentials)
 *   or `field_name`; the password value selects the test scenario.
 * - `client_redirect_url`, `ui_message_webview_url_scheme`, `oauth_referral_source`
 *   are accepted on the member object (and on the widget URL request) and steer the OAuth
 *   redirect (Endpoints, "OAuth procedure for members").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { bool, wrapper } from './query.ts';
import { institutionCredentials, TEST_INSTITUTION_CODE } from '../data/institutions.ts';
import { baseUrlOf, callbackPayloadOf, dataRequestProducts, optBool, optMetadata, optString, optStringArray, skipWebhookOf } from './request.ts';
import { V2025, type ChallengeRecord, type MemberRecord } from '../domain/records.ts';
import { coreState, findInstitution, findMember, findUser, userIdOf } from '../domain/store.ts';
import { memberRead, memberReadByClient, runDueRefreshes } from '../domain/aggregation.ts';
import { issueOauthWindow } from '../domain/oauth.ts';
import {
  assertAggregatable,
  createMember,
  removeMember,
  requestAggregation,
  requestIdentification,
  requestOtherJob,
  resumeMember,
  skipAggregationOf,
  updateMember,
  type CredentialInput,
} from '../domain/members.ts';

/** Fault member-list-stale-after-update: per member, what the list keeps showing. */
function staleListValues(ctx: SimContext): Map<string, Record<string, unknown>> {
  let m = ctx.store.get('stale-member-list') as Map<string, Record<string, unknown>> | undefined;
  if (!m) ctx.store.set('stale-member-list', (m = new Map()));
  return m;
}

/** Fault member-user-guid-wrong: a well-formed user guid that names no owner of the member. */
const NOBODY_USER_GUID = 'USR-00000000-0000-4000-8000-000000000000';

/**
 * Fault member-metadata-json-reformatted: a JSON-object string parsed and written again, as a
 * service that stores metadata as a document would (Resources, Member: metadata is a string).
 */
function reformattedJson(metadata: string | null): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata ?? '');
  } catch {
    return metadata;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return metadata;
  const entry = ([k, v]: [string, unknown]) => `${JSON.stringify(k)}: ${JSON.stringify(typeof v === 'string' ? v.replace(/ {2,}/g, ' ') : v)}`;
  return `{${Object.entries(parsed).map(entry).join(', ')}}`;
}

export function renderMember(ctx: SimContext, m: MemberRecord, version: string): Record<string, unknown> {
  // Each fault below breaks one row of Resources, Member (catalog.ts, members section) with a
  // value; a field left out, of another type or with another identifier prefix is a generated
  // response mutant (proof/mutants), not a catalogue fault.
  const out: Record<string, unknown> = {
    guid: m.guid,
    id: ctx.fault('member-client-id-dropped') ? null : m.id,
    user_guid: ctx.fault('member-user-guid-wrong') ? NOBODY_USER_GUID : m.user_guid,
    user_id: ctx.fault('member-user-id-missing') ? null : userIdOf(ctx, m.user_guid),
    institution_code: ctx.fault('member-institution-code-wrong')
      ? (findInstitution(ctx, m.institution_code)?.guid ?? `INS-${m.institution_code}`)
      : m.institution_code,
    // Variation member-name-null: name is a string whose nullness is not stated (real-service-notes, Nullability).
    name: ctx.variation('member-name-null') ? null : m.name,
    connection_status: m.connection_status,
    is_being_aggregated: m.is_being_aggregated,
    aggregated_at: m.aggregated_at,
    successfully_aggregated_at: m.successfully_aggregated_at,
    is_managed_by_user: m.is_managed_by_user,
    is_oauth: m.is_oauth && !ctx.fault('oauth-member-is-oauth-false'),
    metadata: ctx.fault('member-metadata-json-reformatted') ? reformattedJson(m.metadata) : m.metadata,
    background_aggregation_is_disabled: false,
  };
  if (m.is_oauth) out.oauth_window_uri = m.oauthWindowUri;
  // Resources, Member: oauth_window_uri is "present for OAuth members"; others may carry null (real-service-notes).
  else if (ctx.variation('oauth-window-uri-null-for-non-oauth')) out.oauth_window_uri = null;
  if (m.use_cases) out.use_cases = m.use_cases;
  if (version >= V2025 && m.products) out.data_request = { products: m.products };
  return out;
}

/** Variation upper-case-challenge-types: the reference's names (real-service-notes, Enumerations). */
const UPPER_CASE_CHALLENGE_TYPES: Record<string, string> = { text: 'TEXT', options: 'OPTIONS', image: 'IMAGE_DATA', image_options: 'IMAGE_OPTIONS' };

function challengeTypeOf(ctx: SimContext, type: string): string {
  return ctx.variation('upper-case-challenge-types') ? (UPPER_CASE_CHALLENGE_TYPES[type] ?? type.toUpperCase()) : type;
}

/**
 * The create-member request's fields that the real request shape puts at the top level,
 * beside `member` (real-service-notes, Request shapes): `{member: {...}, data_request,
 * client_redirect_url, enable_app2app, referral_source, ui_message_webview_url_scheme}`.
 * They are accepted there and inside `member` (the member's own value wins).
 */
const MEMBER_TOP_LEVEL_FIELDS = [
  'data_request',
  'client_redirect_url',
  'enable_app2app',
  'referral_source',
  'oauth_referral_source',
  'ui_message_webview_url_scheme',
] as const;

function memberRequestFields(rawBody: unknown): Record<string, unknown> {
  const member = wrapper(rawBody, 'member');
  const top = rawBody as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...member };
  for (const k of MEMBER_TOP_LEVEL_FIELDS) if (top[k] !== undefined && merged[k] === undefined) merged[k] = top[k];
  return merged;
}

/**
 * The status of a created member. Errors: "201 ... member created on version v20250224";
 * the reference declares 200 and 202 in every version (real-service-notes), which the
 * variations member-create-200 and member-create-202 play (202 wins when both are in force).
 */
function createdStatus(ctx: SimContext, version: string): number {
  if (ctx.variation('member-create-202')) return 202;
  if (ctx.variation('member-create-200')) return 200;
  return version >= V2025 ? 201 : 200;
}

export function renderChallenge(ctx: SimContext, c: ChallengeRecord, version: string): Record<string, unknown> {
  const out: Record<string, unknown> = { guid: c.guid, type: challengeTypeOf(ctx, c.type), label: c.label, field_name: `challenge_${c.type}` };
  if (c.image_data) out.image_data = c.image_data;
  if (c.options) {
    // Resources, Credential: option entries carry a guid (v20250224).
    const withGuid = version >= V2025;
    out.options = c.options.map((o) => ({
      ...(withGuid ? { guid: o.guid } : {}),
      label: o.label,
      value: o.value,
      ...(o.data_uri ? { data_uri: o.data_uri } : {}),
    }));
  }
  return out;
}

function parseCredentials(raw: unknown, institutionCode: string): CredentialInput[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new SimError('invalid_request', 'member.credentials must be an array of { guid or field_name, value }');
  const known = institutionCredentials(institutionCode);
  return raw.map((c, i) => {
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw new SimError('invalid_request', `member.credentials[${i}] must be an object`);
    const o = c as Record<string, unknown>;
    const value = optString(o, 'value', `member.credentials[${i}]`);
    const guid = optString(o, 'guid', `member.credentials[${i}]`);
    const fieldName = optString(o, 'field_name', `member.credentials[${i}]`);
    if (value === undefined) throw new SimError('invalid_request', `member.credentials[${i}].value is required`);
    if (guid === undefined && fieldName === undefined) throw new SimError('invalid_request', `member.credentials[${i}] needs a guid or a field_name`);
    const field = known.find((k) => k.guid === guid || k.field_name === fieldName);
    if (!field)
      throw new SimError(
        'invalid_request',
        `member.credentials[${i}] names no credential of ${institutionCode} (${guid ?? fieldName}); GET /institutions/${institutionCode}/credentials lists them`,
      );
    return { guid: field.guid, field_name: field.field_name, value };
  });
}

/** Member-level OAuth redirect settings (Endpoints, "OAuth procedure for members"). */
function redirectSettings(body: Record<string, unknown>, where: string) {
  const clientRedirectUrl = optString(body, 'client_redirect_url', where);
  if (clientRedirectUrl !== undefined && !URL.canParse(clientRedirectUrl))
    throw new SimError('invalid_request', `${where}.client_redirect_url must be an absolute URL`);
  const scheme = optString(body, 'ui_message_webview_url_scheme', where);
  if (scheme !== undefined && !/^[a-z][a-z0-9+.-]*$/i.test(scheme))
    throw new SimError('invalid_request', `${where}.ui_message_webview_url_scheme must be a URL scheme such as "myapp"`);
  const referral = optString(body, 'oauth_referral_source', where);
  if (referral !== undefined && !['BROWSER', 'APP'].includes(referral))
    throw new SimError('invalid_request', `${where}.oauth_referral_source must be BROWSER or APP`);
  return { clientRedirectUrl, scheme, referral };
}

type MemberParams = { Params: { user_guid: string; member_guid: string } };

/**
 * Endpoints, Widgets and members: "X-CALLBACK-PAYLOAD is accepted on create, update,
 * aggregate and verify member". Fault x-callback-payload-refused: a request carrying it is refused.
 */
function callbackPayload(ctx: SimContext, request: FastifyRequest): string | undefined {
  const payload = callbackPayloadOf(request);
  if (payload !== undefined && ctx.fault('x-callback-payload-refused')) throw new SimError('invalid_request', 'Unknown header X-CALLBACK-PAYLOAD');
  return payload;
}

/**
 * Events, rule 8: "The real-time interface accepts an optional header SVC-SKIP-WEBHOOK on
 * create, update and delete of ... members". Fault skip-webhook-header-refused: update and
 * delete carrying it are refused.
 */
function skipWebhook(ctx: SimContext, request: FastifyRequest): boolean {
  if (request.headers['svc-skip-webhook'] !== undefined && ctx.fault('skip-webhook-header-refused'))
    throw new SimError('invalid_request', 'Unknown header SVC-SKIP-WEBHOOK');
  return skipWebhookOf(request);
}

export function registerMembers(app: FastifyInstance, ctx: SimContext): void {
  registerMemberResource(app, ctx);
  registerMemberStatus(app, ctx);
  registerMemberJobs(app, ctx);
  registerMemberData(app, ctx);
}

/** The member resource: create, list, read, update, delete. */
function registerMemberResource(app: FastifyInstance, ctx: SimContext): void {
  const lookup = (request: FastifyRequest<MemberParams>) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return { user, member: findMember(ctx, user, request.params.member_guid) };
  };
  const memberReply = (request: FastifyRequest, m: MemberRecord) => ({ member: renderMember(ctx, m, request.svcVersion) });

  app.post<{ Params: { user_guid: string } }>('/users/:user_guid/members', async (request, reply) => {
    const user = findUser(ctx, request.params.user_guid);
    // Fault member-create-plural-wrapper-accepted: {"members": {...}} read as the member object.
    const raw = request.body as Record<string, unknown> | undefined;
    const plural =
      raw &&
      typeof raw === 'object' &&
      raw.member === undefined &&
      raw.members &&
      typeof raw.members === 'object' &&
      ctx.fault('member-create-plural-wrapper-accepted');
    const body = memberRequestFields(plural ? { ...raw, member: raw.members } : request.body);
    const version = request.svcVersion;
    const institutionCode = optString(body, 'institution_code', 'member');
    if (!institutionCode) throw new SimError('invalid_request', 'member.institution_code is required');
    const products = dataRequestProducts(ctx, body, 'member', version, 'data-request-not-required-on-v20250224');
    // Fault data-request-product-refused: two of the product values Resources, Member names are refused.
    const refused = products?.find((p) => p === 'history' || p === 'identity_verification');
    if (refused && ctx.fault('data-request-product-refused'))
      throw new SimError('invalid_request', `member.data_request.products: unknown product "${refused}"`);
    const skipAggregation = optBool(body, 'skip_aggregation', 'member');
    // Fault member-create-refuses-enable-app2app: a create-member field Resources, Member names is refused.
    if (body.enable_app2app !== undefined && ctx.fault('member-create-refuses-enable-app2app'))
      throw new SimError('invalid_request', 'member.enable_app2app: unknown field');
    optBool(body, 'enable_app2app', 'member');
    optString(body, 'referral_source', 'member');
    const redirect = redirectSettings(body, 'member');
    // Events, rule 8: SVC-SKIP-WEBHOOK on create (fault skip-webhook-header-refused-on-create: refused).
    if (request.headers['svc-skip-webhook'] !== undefined && ctx.fault('skip-webhook-header-refused-on-create'))
      throw new SimError('invalid_request', 'Unknown header SVC-SKIP-WEBHOOK');
    const m = createMember(ctx, {
      user,
      institutionCode,
      id: optString(body, 'id', 'member'),
      isOauth: optBool(body, 'is_oauth', 'member') ?? false,
      credentials: parseCredentials(body.credentials, institutionCode),
      metadata: optMetadata(body, 'member'),
      useCases: optStringArray(body, 'use_cases', 'member'),
      products,
      // Versioning: skip_aggregation is deprecated in v20250224 (data_request decides).
      skipAggregation: skipAggregationOf(ctx, version, skipAggregation),
      callbackPayload: callbackPayload(ctx, request),
      clientRedirectUrl: redirect.clientRedirectUrl,
      scheme: redirect.scheme,
      referral: redirect.referral,
      baseUrl: baseUrlOf(request),
      skipWebhook: skipWebhookOf(request),
    });
    // Errors: 201 member created on v20250224 (and later versions); 200 before (see createdStatus).
    const status = createdStatus(ctx, version);
    return reply.code(status).send(memberReply(request, m));
  });

  app.get<{ Params: { user_guid: string } }>('/users/:user_guid/members', async (request) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    const members = [...coreState(ctx).members.values()].filter((m) => m.user_guid === user.guid && !m.is_managed);
    const page = pageList(ctx, members, request.query as Record<string, unknown>);
    const stale = staleListValues(ctx);
    // Fault member-list-oauth-flag-false: the list's serializer loses is_oauth; the member's own read keeps it.
    const listFlag = (m: MemberRecord) => (ctx.fault('member-list-oauth-flag-false') && m.is_oauth ? { is_oauth: false } : {});
    const rendered = page.items.map((m) => ({ ...renderMember(ctx, m, request.svcVersion), ...stale.get(m.guid), ...listFlag(m) }));
    for (const m of page.items) memberRead(ctx, m);
    return { members: rendered, pagination: page.pagination };
  });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid', async (request) => {
    const { member: m } = lookup(request);
    const body = memberReply(request, m);
    // Fault pending-oauth-member-read-aggregated: the member's own read fills aggregated_at from
    // its creation while its OAuth window is unused (the create answer still says null).
    if (ctx.fault('pending-oauth-member-read-aggregated') && m.is_oauth && m.connection_status === 'PENDING') body.member.aggregated_at = m.created_at;
    memberRead(ctx, m);
    memberReadByClient(ctx, m);
    return body;
  });

  app.put<MemberParams>('/users/:user_guid/members/:member_guid', async (request) => {
    const { member: m } = lookup(request);
    const body = memberRequestFields(request.body);
    const id = optString(body, 'id', 'member');
    const metadata = optMetadata(body, 'member');
    const credentials = parseCredentials(body.credentials, m.institution_code);
    const skipAggregation = optBool(body, 'skip_aggregation', 'member');
    const redirect = redirectSettings(body, 'member');
    const payload = callbackPayload(ctx, request);
    const skip = skipWebhook(ctx, request);
    // Fault member-list-stale-after-update: the user's member list keeps showing the values
    // from before the first update, while the member's own read shows the new ones.
    if (ctx.fault('member-list-stale-after-update') && !staleListValues(ctx).has(m.guid)) staleListValues(ctx).set(m.guid, { id: m.id, metadata: m.metadata });
    // Fault member-metadata-update-echoed-not-stored: the answer shows the metadata sent,
    // the member keeps its earlier one (a lost update only a later read shows).
    const echoOnly = ctx.fault('member-metadata-update-echoed-not-stored') && metadata !== undefined;
    updateMember(
      ctx,
      m,
      {
        id,
        metadata: echoOnly ? undefined : metadata,
        credentials,
        skipAggregation,
        callbackPayload: payload,
        clientRedirectUrl: redirect.clientRedirectUrl,
        scheme: redirect.scheme,
      },
      request.svcVersion,
      skip,
    );
    return echoOnly ? memberReply(request, { ...m, metadata: metadata ?? null }) : memberReply(request, m);
  });

  app.delete<MemberParams>('/users/:user_guid/members/:member_guid', async (request, reply) => {
    const { member } = lookup(request);
    const skip = skipWebhook(ctx, request);
    removeMember(ctx, member, skip);
    return reply.code(204).send();
  });
}

/** Connection status, challenges and resume (States and transitions). */
function registerMemberStatus(app: FastifyInstance, ctx: SimContext): void {
  /** Challenge sets a status read has served (each set is its own array; fault challenges-dropped-after-first-read). */
  const challengeSetsRead = new WeakSet<object>();
  const lookup = (request: FastifyRequest<MemberParams>) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return { user, member: findMember(ctx, user, request.params.member_guid) };
  };
  const memberReply = (request: FastifyRequest, m: MemberRecord) => ({ member: renderMember(ctx, m, request.svcVersion) });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid/status', async (request) => {
    const { member: m } = lookup(request);
    const out: Record<string, unknown> = {
      guid: m.guid,
      connection_status: m.connection_status,
      aggregated_at: m.aggregated_at,
      successfully_aggregated_at: m.successfully_aggregated_at,
      is_authenticated: m.connection_status === 'CONNECTED',
      is_being_aggregated: m.is_being_aggregated,
      has_processed_accounts: [...coreState(ctx).accounts.values()].some((a) => a.member_guid === m.guid),
      has_processed_transactions: [...coreState(ctx).transactions.values()].some((t) => t.member_guid === m.guid),
    };
    // Endpoints: "when MFA is required the response has a challenges array". Fault
    // challenges-dropped-after-first-read: only the first read of a challenge set carries it.
    const readBefore = challengeSetsRead.has(m.challenges);
    challengeSetsRead.add(m.challenges);
    if (m.connection_status === 'CHALLENGED' && !ctx.fault('challenge-missing-on-mfa') && !(readBefore && ctx.fault('challenges-dropped-after-first-read')))
      out.challenges = m.challenges.map((c) => renderChallenge(ctx, c, request.svcVersion));
    memberRead(ctx, m);
    memberReadByClient(ctx, m);
    return { member: out };
  });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid/challenges', async (request) => {
    const { member: m } = lookup(request);
    const list = m.connection_status === 'CHALLENGED' && !ctx.fault('challenge-missing-on-mfa') ? m.challenges : [];
    const page = pageList(ctx, list, request.query as Record<string, unknown>);
    return { challenges: page.items.map((c) => renderChallenge(ctx, c, request.svcVersion)), pagination: page.pagination };
  });

  app.put<MemberParams>('/users/:user_guid/members/:member_guid/resume', async (request, reply) => {
    const { member: m } = lookup(request);
    const body = wrapper(request.body, 'member');
    const raw = body.challenges;
    if (!Array.isArray(raw)) throw new SimError('invalid_request', 'member.challenges must be an array of { guid, value }');
    const answers = new Map<string, string>();
    raw.forEach((c, i) => {
      if (!c || typeof c !== 'object' || Array.isArray(c)) throw new SimError('invalid_request', `member.challenges[${i}] must be an object`);
      const guid = optString(c as Record<string, unknown>, 'guid', `member.challenges[${i}]`);
      const value = optString(c as Record<string, unknown>, 'value', `member.challenges[${i}]`);
      if (guid === undefined || value === undefined) throw new SimError('invalid_request', `member.challenges[${i}] needs a guid and a value`);
      answers.set(guid, value);
    });
    resumeMember(ctx, m, answers, skipWebhookOf(request));
    return reply.code(202).send(memberReply(request, m));
  });
}

/** Jobs: aggregate, verify, extend history, identify. */
function registerMemberJobs(app: FastifyInstance, ctx: SimContext): void {
  const lookup = (request: FastifyRequest<MemberParams>) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return { user, member: findMember(ctx, user, request.params.member_guid) };
  };
  const memberReply = (request: FastifyRequest, m: MemberRecord) => ({ member: renderMember(ctx, m, request.svcVersion) });

  app.post<MemberParams>('/users/:user_guid/members/:member_guid/aggregate', async (request, reply) => {
    const { member: m } = lookup(request);
    const q = request.query as Record<string, unknown>;
    const includeHoldings = bool(q, 'include_holdings');
    const includeTransactions = bool(q, 'include_transactions');
    // Endpoints: "Aggregate member accepts optional query parameters include_holdings and include_transactions".
    if ((includeHoldings !== undefined || includeTransactions !== undefined) && ctx.fault('aggregate-refuses-include-params')) {
      throw new SimError('invalid_request', 'Unknown query parameter include_holdings / include_transactions');
    }
    assertAggregatable(ctx, m);
    requestAggregation(ctx, m, { includeHoldings, includeTransactions, callbackPayload: callbackPayload(ctx, request) });
    return reply.code(202).send(memberReply(request, m));
  });

  /** Other aggregation-type jobs: never throttled (Limits; domain/members.ts). */
  const otherJob = (type: 'verification' | 'history', path: string, takesPayload: boolean) => {
    app.post<MemberParams>(`/users/:user_guid/members/:member_guid/${path}`, async (request, reply) => {
      const { member: m } = lookup(request);
      assertAggregatable(ctx, m);
      requestOtherJob(ctx, m, type, takesPayload ? callbackPayload(ctx, request) : undefined);
      return reply.code(202).send(memberReply(request, m));
    });
  };
  otherJob('verification', 'verify', true);
  otherJob('history', 'extend_history', false);

  app.post<MemberParams>('/users/:user_guid/members/:member_guid/identify', async (request, reply) => {
    const { member: m } = lookup(request);
    assertAggregatable(ctx, m);
    const outcome = requestIdentification(ctx, m);
    // Endpoints, identify behaviour: 202 while an identification runs (fault identify-409-instead-of-202);
    // 409 while another aggregation-type job runs (fault identify-202-instead-of-409).
    if (outcome === 'identifying' && ctx.fault('identify-409-instead-of-202')) throw new SimError('conflict', 'An identification is already running');
    if (outcome === 'other-job' && !ctx.fault('identify-202-instead-of-409'))
      throw new SimError('conflict', `Another aggregation-type job (${m.job!.type}) is running for this member; retry when it completes`);
    // The status of a started identification is not stated (only the 202/409 cases while a job runs).
    return reply.code(outcome === 'started' && ctx.variation('identify-200-when-idle') ? 200 : 202).send(memberReply(request, m));
  });
}

/** What a member holds: account owners, credentials, account numbers, the OAuth window. */
function registerMemberData(app: FastifyInstance, ctx: SimContext): void {
  const lookup = (request: FastifyRequest<MemberParams>) => {
    runDueRefreshes(ctx);
    const user = findUser(ctx, request.params.user_guid);
    return { user, member: findMember(ctx, user, request.params.member_guid) };
  };
  app.get<MemberParams>('/users/:user_guid/members/:member_guid/account_owners', async (request) => {
    const { member: m } = lookup(request);
    const owners = [...coreState(ctx).owners.values()].filter((o) => o.member_guid === m.guid);
    const page = pageList(ctx, owners, request.query as Record<string, unknown>);
    return { account_owners: page.items, pagination: page.pagination };
  });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid/credentials', async (request) => {
    const { member: m } = lookup(request);
    // What the service does: manual accounts "carry no credentials" (fault manual-member-has-credentials).
    // Endpoints: "GET .../credentials: list of member credentials" (fault member-credentials-list-empty: none listed).
    const none = m.is_oauth || (m.is_manual && !ctx.fault('manual-member-has-credentials')) || m.is_managed || ctx.fault('member-credentials-list-empty');
    const fields = none ? [] : institutionCredentials(m.is_manual ? TEST_INSTITUTION_CODE : m.institution_code);
    const page = pageList(ctx, fields, request.query as Record<string, unknown>);
    // Resources, Credential: "Has a type field"; other resources "also have a guid".
    return { credentials: page.items.map((c) => ({ ...c })), pagination: page.pagination };
  });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid/account_numbers', async (request) => {
    const { member: m } = lookup(request);
    const accounts = [...coreState(ctx).accounts.values()].filter((a) => a.member_guid === m.guid && a.account_number !== null);
    const page = pageList(ctx, accounts, request.query as Record<string, unknown>);
    return {
      account_numbers: page.items.map((a) => ({
        guid: `ACN-${a.guid.slice(4)}`,
        account_guid: a.guid,
        member_guid: a.member_guid,
        user_guid: a.user_guid,
        account_number: a.account_number,
        routing_number: a.routing_number,
      })),
      pagination: page.pagination,
    };
  });

  app.get<MemberParams>('/users/:user_guid/members/:member_guid/oauth_window_uri', async (request) => {
    const { member: m } = lookup(request);
    if (!m.is_oauth) throw new SimError('invalid_request', 'The member is not an OAuth member');
    issueOauthWindow(ctx, m, baseUrlOf(request));
    return { member: { guid: m.guid, oauth_window_uri: m.oauthWindowUri } };
  });
}
