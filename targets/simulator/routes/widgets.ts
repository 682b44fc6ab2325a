/**
 * Widget URLs and the connect widget (Resources, Widget URL; Endpoints, "Widgets and
 * members"; Events, widget events; Versioning, "Changes in v20250224" and sunset endpoints).
 *
 * Platform:
 *   POST /users/{user_guid or user_identifier}/widget_urls   { widget_url: {...} } -> { widget_url: { type, url, user_id } }
 *   POST /users/{user_guid}/connect_widget_url               sunset from v20250224; before: { user: { guid, connect_widget_url } }
 * Simulator pages (the URL the widget URL request returns; token-authenticated):
 *   GET    /_sim/widget/{token}                             the widget page (pages/widget.ts)
 *   POST   /_sim/widget/{token}/members                     { institution_code, username?, password?, is_oauth? }
 *   GET    /_sim/widget/{token}/members/{member_guid}       member with challenges
 *   PUT    /_sim/widget/{token}/members/{member_guid}/resume { answer }
 *   DELETE /_sim/widget/{token}/members/{member_guid}
 *
 * Members created in the widget take the widget request's `client_redirect_url`,
 * `ui_message_webview_url_scheme`, `oauth_referral_source`, `data_request.products` and
 * X-CALLBACK-PAYLOAD. With `is_mobile_webview` true, `oauth_referral_source` is treated as
 * `APP` and the widget does not open the OAuth window (widget flows table); with
 * `oauth_referral_source` `APP` it does not either (iframe inside a WebView). The
 * webview scheme defaults to `svc` when none is given (not shown in the specification).
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { wrapper } from './query.ts';
import { TEST_INSTITUTION_CODE, TEST_OAUTH_INSTITUTION_CODE } from '../data/institutions.ts';
import { baseUrlOf, callbackPayloadOf, dataRequestProducts, optBool, optNumber, optObject, optString } from './request.ts';
import type { UserRecord } from '../domain/records.ts';
import { coreState, findUser } from '../domain/store.ts';
import { createMember, deleteMember } from '../domain/members.ts';
import { answerChallenges, memberRead } from '../domain/aggregation.ts';
import { renderChallenge, renderMember } from './members.ts';
import { widgetPage } from '../pages/widget.ts';
import { errorPage } from '../pages/html.ts';

const DEFAULT_WEBVIEW_SCHEME = 'svc';

interface WidgetSession {
  token: string;
  sessionGuid: string;
  userGuid: string;
  widgetType: string;
  mobile: boolean;
  scheme: string | null;
  clientRedirectUrl: string | null;
  referral: string | null;
  callbackPayload: string | null;
  institutionCode: string | null;
  disableSearch: boolean;
  products: string[] | undefined;
}

const sessions = (ctx: SimContext) => ctx.collection<WidgetSession>('widget_sessions');

function newSession(
  ctx: SimContext,
  user: UserRecord,
  o: Record<string, unknown>,
  where: string,
  callbackPayload: string | undefined,
  products: string[] | undefined,
): WidgetSession {
  const widgetType = optString(o, 'widget_type', where) ?? 'connect_widget';
  const mobile = optBool(o, 'is_mobile_webview', where) ?? false;
  const clientRedirectUrl = optString(o, 'client_redirect_url', where);
  if (clientRedirectUrl !== undefined && !URL.canParse(clientRedirectUrl))
    throw new SimError('invalid_request', `${where}.client_redirect_url must be an absolute URL`);
  const given = optString(o, 'oauth_referral_source', where);
  // Fault widget-referral-source-lower-case-accepted: "browser" and "app" read as BROWSER and APP.
  const referral =
    given !== undefined && ['browser', 'app'].includes(given) && ctx.fault('widget-referral-source-lower-case-accepted') ? given.toUpperCase() : given;
  if (referral !== undefined && !['BROWSER', 'APP'].includes(referral))
    throw new SimError('invalid_request', `${where}.oauth_referral_source must be BROWSER or APP`);
  const scheme = optString(o, 'ui_message_webview_url_scheme', where);
  if (scheme !== undefined && !/^[a-z][a-z0-9+.-]*$/i.test(scheme))
    throw new SimError('invalid_request', `${where}.ui_message_webview_url_scheme must be a URL scheme such as "myapp"`);
  const version = optNumber(o, 'ui_message_version', where);
  if (version !== undefined && !Number.isInteger(version)) throw new SimError('invalid_request', `${where}.ui_message_version must be an integer`);
  for (const key of ['disable_background_agg', 'enable_app2app', 'include_identity', 'include_transactions']) optBool(o, key, where);
  for (const key of ['color_scheme', 'language', 'current_institution_code']) optString(o, key, where);
  for (const key of ['style', 'deep_link_params']) optObject(o, key, where);
  const s: WidgetSession = {
    token: ctx.guid('WGT').slice(4).replace(/-/g, ''),
    sessionGuid: ctx.guid('SES'),
    userGuid: user.guid,
    widgetType,
    mobile,
    scheme: scheme ?? null,
    clientRedirectUrl: clientRedirectUrl ?? null,
    referral: mobile ? 'APP' : (referral ?? null),
    callbackPayload: callbackPayload ?? null,
    institutionCode: optString(o, 'current_institution_code', where) ?? null,
    disableSearch: optBool(o, 'disable_search_institution', where) ?? false,
    products,
  };
  sessions(ctx).set(s.token, s);
  return s;
}

/**
 * Fault widget-url-fields-coerced: a lenient decoder that turns values of another type into
 * the stated ones (Resources, Widget URL: "is_mobile_webview (boolean)", "ui_message_version
 * (integer ...)", string fields): "true"/"false" and 1/0, a whole number as a string, a
 * one-element array of a scalar.
 */
function coercedFields(ctx: SimContext, o: Record<string, unknown>): Record<string, unknown> {
  if (!ctx.fault('widget-url-fields-coerced')) return o;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = Array.isArray(v) && v.length === 1 && (v[0] === null || typeof v[0] !== 'object') ? v[0] : v;
  const flag = out.is_mobile_webview;
  if (flag === 'true' || flag === 1) out.is_mobile_webview = true;
  if (flag === 'false' || flag === 0) out.is_mobile_webview = false;
  if (typeof out.ui_message_version === 'string' && /^\d+$/.test(out.ui_message_version)) out.ui_message_version = Number(out.ui_message_version);
  return out;
}

export function registerWidgetUrls(app: FastifyInstance, ctx: SimContext): void {
  app.post<{ Params: { user_guid: string } }>('/users/:user_guid/widget_urls', async (request, reply) => {
    // Endpoints: "In version v20250224 the path uses user_identifier" (the guid or the
    // partner-defined id). Fault widget-user-identifier-refused: only guids are found there.
    if (ctx.fault('widget-user-identifier-refused') && !request.params.user_guid.startsWith('USR-'))
      throw new SimError('not_found', `No user "${request.params.user_guid.slice(0, 80)}"`);
    const user = findUser(ctx, request.params.user_guid);
    const o = coercedFields(ctx, wrapper(request.body, 'widget_url'));
    // Resources, Widget URL: the named widget types (fault: only connect_widget is accepted).
    if (ctx.fault('widget-type-refused') && o.widget_type !== undefined && o.widget_type !== 'connect_widget')
      throw new SimError('invalid_request', `widget_url.widget_type ${String(o.widget_type).slice(0, 40)} is not supported`);
    // Resources, Widget URL: ui_message_version (4 shown), color_scheme accepts browser, language includes es,
    // deep_link_params an object (fault: refused).
    if (
      ctx.fault('widget-named-parameters-refused') &&
      (o.ui_message_version === 4 || o.color_scheme === 'browser' || o.language === 'es' || o.deep_link_params !== undefined)
    )
      throw new SimError('invalid_request', 'widget_url: ui_message_version, color_scheme, language or deep_link_params has an unsupported value');
    // Resources, Widget URL: deep_link_params names view and date_range (their values are not
    // shown). Fault widget-deep-link-view-refused: a deep link naming either is refused.
    const deepLink = o.deep_link_params as Record<string, unknown> | undefined;
    if (ctx.fault('widget-deep-link-view-refused') && deepLink && typeof deepLink === 'object' && ('view' in deepLink || 'date_range' in deepLink))
      throw new SimError('invalid_request', 'widget_url.deep_link_params: view and date_range are not supported');
    const products = dataRequestProducts(ctx, o, 'widget_url', request.svcVersion, 'widget-data-request-not-required-on-v20250224');
    const s = newSession(ctx, user, o, 'widget_url', callbackPayloadOf(request), products);
    // Variations widget-url-201 (no status stated) and widget-user-id-null (nullness not stated; real-service-notes).
    // Fault widget-user-id-of-another-user: the URL names another user than the one it was requested for.
    const userId = ctx.variation('widget-user-id-null')
      ? null
      : ctx.fault('widget-user-id-of-another-user')
        ? 'another-user-of-this-client'
        : (user.id ?? user.guid);
    // Resources, Widget URL: the response has type, url and user_id. Fault widget-type-ignored:
    // the type answered is connect_widget whatever widget_type was asked.
    const type = ctx.fault('widget-type-ignored') ? 'connect_widget' : s.widgetType;
    return reply
      .code(ctx.variation('widget-url-201') ? 201 : 200)
      .send({ widget_url: { type, url: `${baseUrlOf(request)}/_sim/widget/${s.token}`, user_id: userId } });
  });

  // Versioning: sunset from v20250224 (the route config answers the error).
  app.post<{ Params: { user_guid: string } }>('/users/:user_guid/connect_widget_url', { config: { sunsetFrom: 'v20250224' } }, async (request) => {
    const user = findUser(ctx, request.params.user_guid);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new SimError('invalid_request', 'The request body must be a JSON object');
    const config = optObject(body, 'config', 'body') ?? {};
    const s = newSession(ctx, user, config, 'config', callbackPayloadOf(request), undefined);
    return { user: { guid: user.guid, connect_widget_url: `${baseUrlOf(request)}/_sim/widget/${s.token}` } };
  });
}

type TokenParams = { Params: { token: string; member_guid: string } };

export function registerWidgetPages(app: FastifyInstance, ctx: SimContext): void {
  const session = (token: string) => {
    const s = sessions(ctx).get(token);
    if (!s) throw new SimError('not_found', 'No widget session for this URL; request a new widget URL');
    const user = coreState(ctx).users.get(s.userGuid);
    if (!user) throw new SimError('not_found', 'The widget user was deleted');
    return { s, user };
  };
  const widgetMember = (token: string, guid: string) => {
    const { s, user } = session(token);
    const m = coreState(ctx).members.get(guid);
    if (!m || m.user_guid !== user.guid) throw new SimError('not_found', `No member ${guid.slice(0, 80)} in this widget session`);
    return { s, user, m };
  };

  app.get<{ Params: { token: string } }>('/widget/:token', async (request, reply) => {
    const s = sessions(ctx).get(request.params.token);
    if (!s) return reply.code(404).type('text/html; charset=utf-8').send(errorPage('Widget not found', 'This widget URL is not valid; request a new one.'));
    const mobile = s.mobile && !ctx.fault('widget-mobile-uses-postmessage');
    return reply.type('text/html; charset=utf-8').send(
      widgetPage({
        token: s.token,
        userGuid: s.userGuid,
        sessionGuid: s.sessionGuid,
        widgetType: s.widgetType,
        mobile,
        scheme: s.scheme ?? DEFAULT_WEBVIEW_SCHEME,
        // Widget flows: the widget opens the OAuth window itself only in a browser iframe.
        // (fault widget-app-referral-opens-oauth-window: it opens it with oauth_referral_source APP too)
        opensOauthWindow: !mobile && (s.referral !== 'APP' || ctx.fault('widget-app-referral-opens-oauth-window')),
        memberDeletedType: ctx.fault('widget-member-deleted-renamed') ? 'svc/connect/memberRemoved' : 'svc/connect/memberDeleted',
        primaryActionEvent: !ctx.fault('widget-primary-action-event-missing'),
        backToSearchEvent: !ctx.fault('widget-back-to-search-missing'),
        oauthErrorEvent: !ctx.fault('widget-oauth-error-event-missing'),
        payload: ctx.fault('widget-event-missing-x-callback-payload') ? null : s.callbackPayload,
        institutionCode: s.institutionCode,
        oauthInstitutionCode: TEST_OAUTH_INSTITUTION_CODE,
        credentialInstitutionCode: TEST_INSTITUTION_CODE,
        disableSearch: s.disableSearch,
      }),
    );
  });

  app.post<{ Params: { token: string } }>('/widget/:token/members', async (request, reply) => {
    const { s, user } = session(request.params.token);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new SimError('invalid_request', 'Send a JSON object');
    const institutionCode = optString(body, 'institution_code', 'body') ?? TEST_INSTITUTION_CODE;
    const isOauth = optBool(body, 'is_oauth', 'body') ?? false;
    const username = optString(body, 'username', 'body') ?? '';
    const password = optString(body, 'password', 'body') ?? '';
    const m = createMember(ctx, {
      user,
      institutionCode,
      isOauth,
      credentials: isOauth
        ? undefined
        : [
            { guid: '', field_name: 'username', value: username },
            { guid: '', field_name: 'password', value: password },
          ],
      products: s.products,
      skipAggregation: false,
      callbackPayload: s.callbackPayload ?? undefined,
      clientRedirectUrl: s.clientRedirectUrl ?? undefined,
      scheme: s.scheme ?? undefined,
      referral: s.referral ?? undefined,
      baseUrl: baseUrlOf(request),
      skipWebhook: false,
    });
    return reply.code(201).send({ member: renderMember(ctx, m, request.svcVersion || ctx.settings.defaultVersion) });
  });

  app.get<TokenParams>('/widget/:token/members/:member_guid', async (request) => {
    const { m } = widgetMember(request.params.token, request.params.member_guid);
    const version = ctx.settings.defaultVersion;
    const out = renderMember(ctx, m, version);
    if (m.connection_status === 'CHALLENGED') out.challenges = m.challenges.map((c) => renderChallenge(ctx, c, version));
    memberRead(ctx, m);
    return { member: out };
  });

  app.put<TokenParams>('/widget/:token/members/:member_guid/resume', async (request, reply) => {
    const { m } = widgetMember(request.params.token, request.params.member_guid);
    const answer = optString((request.body ?? {}) as Record<string, unknown>, 'answer', 'body');
    if (answer === undefined) throw new SimError('invalid_request', 'body.answer is required');
    if (m.connection_status !== 'CHALLENGED') throw new SimError('unprocessable', 'The member is not CHALLENGED');
    answerChallenges(ctx, m, new Map(m.challenges.map((c) => [c.guid, answer])), false);
    return reply.code(202).send({ member: renderMember(ctx, m, ctx.settings.defaultVersion) });
  });

  app.delete<TokenParams>('/widget/:token/members/:member_guid', async (request, reply) => {
    const { m } = widgetMember(request.params.token, request.params.member_guid);
    deleteMember(ctx, m, false);
    return reply.code(204).send();
  });
}
