/**
 * The OAuth authorization flow of the OAuth test institution (Endpoints, "OAuth
 * procedure for members"; Limits, `oauth_window_uri` single use; States and transitions,
 * OAuth outcome; Events, widget events).
 *
 *   GET  /_sim/oauth/{token}            the authorization page: an authorize and a deny
 *                                        action (`[data-action="authorize"]`,
 *                                        `[data-action="deny"]`, the profile defaults);
 *                                        the first load uses the URI up, a second load
 *                                        answers an error page with 410
 *   POST /_sim/oauth/{token}/decision   form `session`, `action` = authorize | deny | cancel
 *
 * Reading of the specification on `oauth_window_uri` (Resources, Member: "begins without
 * the protocol prefix being added by the client (the service supplies it)"; OAuth
 * procedure 2: "must not be ... given a protocol prefix by the client"): the SERVICE
 * supplies the protocol, so the URI is absolute (`http://127.0.0.1:<port>/_sim/oauth/...`)
 * and a client loads it as it is. A URI without a scheme would force the client to add
 * one, which the specification forbids: that is the fault `oauth-uri-without-protocol`.
 *
 * Outcome (Endpoints, "Redirect after OAuth"): with `client_redirect_url` (member create
 * or widget URL request) the browser is sent there with `status` (`success`|`error`),
 * `member_guid` and, on error, `error_reason` appended, the URL's own query parameters
 * kept. Otherwise, with `ui_message_webview_url_scheme`, to
 * `{scheme}://oauth_complete?status=...&member_guid=...&error_reason=...`. When both are
 * set the client-redirect form wins (the specification calls it preferred). With neither,
 * a completion page posts `{ type: 'oauthComplete/success'|'oauthComplete/error', mx: true,
 * metadata: { member_guid, error_reason? } }` to `window.opener` (Events, widget events).
 * Authorize: the member becomes CONNECTED and aggregates. Deny: DENIED, error_reason
 * `DENIED`; cancel: DENIED, error_reason `CANCELLED`.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import type { MemberRecord } from '../domain/records.ts';
import { decideOauth, oauthWindowOf, openOauthWindow, type OauthErrorReason } from '../domain/oauth.ts';
import { errorPage, escapeHtml, page, scriptJson } from '../pages/html.ts';

/** Where the browser goes after the decision, or undefined for the completion page. */
function oauthRedirect(ctx: SimContext, m: MemberRecord, status: 'success' | 'error', reason?: OauthErrorReason): string | undefined {
  const params: Array<[string, string]> = [['status', status]];
  if (!ctx.fault('member-guid-missing-in-redirect')) params.push(['member_guid', m.guid]);
  if (reason && !ctx.fault('oauth-redirect-drops-error-reason')) params.push(['error_reason', reason]);
  // Redirect after OAuth: "The client-redirect form is preferred" (fault: the scheme form wins when both are set).
  if (m.clientRedirectUrl && !(m.webviewScheme && ctx.fault('oauth-scheme-wins-over-client-redirect'))) {
    const url = new URL(m.clientRedirectUrl);
    if (ctx.fault('oauth-redirect-drops-client-query')) url.search = '';
    for (const [k, v] of params) url.searchParams.append(k, v);
    return url.toString();
  }
  if (m.webviewScheme && !ctx.fault('oauth-webview-scheme-ignored')) {
    return `${m.webviewScheme}://oauth_complete?${new URLSearchParams(params).toString()}`;
  }
  return undefined;
}

/** The OAuth completion message (Events, widget events: metadata, mx true, type). */
function oauthMessage(ctx: SimContext, m: MemberRecord, status: 'success' | 'error', reason?: OauthErrorReason): Record<string, unknown> {
  // Events, widget events: success carries member_guid; error carries member_guid and error_reason (faults leave them out).
  const metadata: Record<string, unknown> = ctx.fault('oauth-message-without-member-guid') ? {} : { member_guid: m.guid };
  if (status === 'error' && !ctx.fault('oauth-message-error-reason-missing')) metadata.error_reason = reason;
  if (m.callbackPayload !== null && !ctx.fault('widget-event-missing-x-callback-payload')) metadata.x_callback_payload = m.callbackPayload;
  return { type: `oauthComplete/${status}`, mx: !ctx.fault('oauth-message-mx-false'), metadata };
}

export function registerOauthPages(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Params: { token: string } }>('/oauth/:token', async (request, reply) => {
    const found = oauthWindowOf(ctx, request.params.token);
    if (!found)
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(errorPage('OAuth window not found', 'This OAuth link is not valid. Request a new one from the member.'));
    const { w, m } = found;
    const session = openOauthWindow(ctx, w);
    if (session === undefined) {
      return reply
        .code(410)
        .type('text/html; charset=utf-8')
        .send(errorPage('OAuth window already used', 'This OAuth link was already opened once; it is single use. Request a new oauth_window_uri.'));
    }
    const action = `/_sim/oauth/${encodeURIComponent(w.token)}/decision`;
    const form = (name: string, label: string) =>
      `<form method="post" action="${action}" style="display:inline"><input type="hidden" name="session" value="${session}"><input type="hidden" name="action" value="${name}"><button type="submit" data-action="${name}">${label}</button></form>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          `Authorize ${m.name}`,
          `<h1>${escapeHtml(m.name)}</h1><p>Allow the app to access your accounts at ${escapeHtml(m.name)}?</p><p data-member-guid="${m.guid}">${form('authorize', 'Authorize')}${form('deny', 'Deny')}${form('cancel', 'Cancel')}</p>`,
        ),
      );
  });

  app.post<{ Params: { token: string } }>('/oauth/:token/decision', async (request, reply) => {
    const found = oauthWindowOf(ctx, request.params.token);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const html = (code: number, title: string, msg: string) => reply.code(code).type('text/html; charset=utf-8').send(errorPage(title, msg));
    if (!found) return html(404, 'OAuth window not found', 'This OAuth session does not exist.');
    const { w, m } = found;
    if (!w.session || body.session !== w.session || w.decided)
      return html(400, 'OAuth session invalid', 'This authorization was already decided or the page is stale; start again.');
    const action = body.action;
    if (action !== 'authorize' && action !== 'deny' && action !== 'cancel') return html(400, 'Unknown action', 'action must be authorize, deny or cancel.');
    const { status, reason } = decideOauth(ctx, w, m, action);
    const target = oauthRedirect(ctx, m, status, reason);
    if (target) return reply.code(302).header('Location', target).send();
    const message = oauthMessage(ctx, m, status, reason);
    const script = `(function(){var msg=${scriptJson(message)};window.__svcEvents=[msg];var t=window.opener||(window.parent!==window?window.parent:null);if(t){t.postMessage(msg,'*');}})();`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'OAuth complete',
          `<h1 data-status="${status}">${status === 'success' ? 'Connected' : 'Not connected'}</h1><p>You can close this window.</p>`,
          script,
        ),
      );
  });
}
