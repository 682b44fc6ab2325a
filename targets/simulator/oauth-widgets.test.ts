/**
 * OAuth members, the authorization page, redirects, and the connect widget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { V_NEW, decide, oauthMember, withSim } from './core-helpers.test-support.ts';

test('OAuth member: PENDING, aggregated_at null, absolute single-use oauth_window_uri with authorize and deny actions', () =>
  withSim([], async (sim) => {
    const { member, r } = await oauthMember(sim);
    assert.equal(r.status, 200);
    assert.equal(member.connection_status, 'PENDING');
    assert.equal(member.aggregated_at, null);
    assert.equal(member.is_oauth, true);
    assert.match(member.oauth_window_uri, /^https?:\/\/[^/]+\/_sim\/oauth\/[0-9a-f]+$/);
    const path = new URL(member.oauth_window_uri).pathname;
    const first = await sim.page(path);
    assert.equal(first.status, 200);
    assert.match(first.text, /data-action="authorize"/);
    assert.match(first.text, /data-action="deny"/);
    const second = await sim.page(path);
    assert.equal(second.status, 410);
    assert.match(second.text, /single use/);
    assert.equal((await sim.page('/_sim/oauth/ffff')).status, 404);
  }));

test('authorize: redirect to client_redirect_url keeps its query and appends status and member_guid; member connects and aggregates', () =>
  withSim([], async (sim) => {
    const { user, member } = await oauthMember(sim, { client_redirect_url: 'https://app.example/done?keep=1&x=y' });
    const res = await decide(sim, member.oauth_window_uri, 'authorize');
    assert.equal(res.status, 302);
    const loc = new URL(String(res.headers.location));
    assert.equal(loc.origin + loc.pathname, 'https://app.example/done');
    assert.equal(loc.searchParams.get('keep'), '1');
    assert.equal(loc.searchParams.get('x'), 'y');
    assert.equal(loc.searchParams.get('status'), 'success');
    assert.equal(loc.searchParams.get('member_guid'), member.guid);
    assert.equal(loc.searchParams.get('error_reason'), null);
    const now = await sim.read(user, member.guid);
    assert.equal(now.connection_status, 'CONNECTED');
    assert.equal(now.is_being_aggregated, true);
    const done = await sim.settle(user, member.guid);
    assert.notEqual(done.successfully_aggregated_at, null);
    // The decision is final: a replay answers 400.
    assert.equal((await sim.page(`${new URL(member.oauth_window_uri).pathname}/decision`, 'POST', { session: 'x', action: 'authorize' })).status, 400);
  }));

test('deny: error redirect with error_reason DENIED; member DENIED. cancel: CANCELLED', () =>
  withSim([], async (sim) => {
    const { user, member } = await oauthMember(sim, { client_redirect_url: 'https://app.example/cb' });
    const res = await decide(sim, member.oauth_window_uri, 'deny');
    const loc = new URL(String(res.headers.location));
    assert.equal(loc.searchParams.get('status'), 'error');
    assert.equal(loc.searchParams.get('error_reason'), 'DENIED');
    assert.equal(loc.searchParams.get('member_guid'), member.guid);
    assert.equal((await sim.read(user, member.guid)).connection_status, 'DENIED');
    const other = await oauthMember(sim, { client_redirect_url: 'https://app.example/cb' });
    const cancel = await decide(sim, other.member.oauth_window_uri, 'cancel');
    assert.equal(new URL(String(cancel.headers.location)).searchParams.get('error_reason'), 'CANCELLED');
  }));

test('webview scheme redirect {scheme}://oauth_complete; without redirect settings a completion page posts oauthComplete with mx true', () =>
  withSim([], async (sim) => {
    const { member } = await oauthMember(sim, { ui_message_webview_url_scheme: 'myapp' });
    const res = await decide(sim, member.oauth_window_uri, 'deny');
    assert.match(String(res.headers.location), new RegExp(`^myapp://oauth_complete\\?status=error&member_guid=${member.guid}&error_reason=DENIED$`));
    const plain = await oauthMember(sim, {}, { 'x-callback-payload': 'cbp' });
    const page = await decide(sim, plain.member.oauth_window_uri, 'authorize');
    assert.equal(page.status, 200);
    assert.match(page.text, /"type":"oauthComplete\/success","mx":true/);
    assert.match(page.text, new RegExp(`"member_guid":"${plain.member.guid}"`));
    assert.match(page.text, /"x_callback_payload":"cbp"/);
    assert.match(page.text, /postMessage/);
  }));

test('GET oauth_window_uri issues a fresh single-use URI; OAuth member cannot aggregate before authorization', () =>
  withSim([], async (sim) => {
    const { user, member } = await oauthMember(sim);
    assert.equal((await sim.req('POST', `/users/${user}/members/${member.guid}/aggregate`)).status, 422);
    const fresh = await sim.req('GET', `/users/${user}/members/${member.guid}/oauth_window_uri`);
    assert.notEqual(fresh.body.member.oauth_window_uri, member.oauth_window_uri);
    assert.equal((await sim.page(new URL(member.oauth_window_uri).pathname)).status, 404);
    assert.equal((await sim.page(new URL(fresh.body.member.oauth_window_uri).pathname)).status, 200);
  }));

test('widget URL: request and response widget_url; v20250224 requires data_request; page carries config', () =>
  withSim([], async (sim) => {
    const user = await sim.user({ id: 'wid-user' });
    const r = await sim.req(
      'POST',
      `/users/${user}/widget_urls`,
      {
        widget_url: {
          widget_type: 'connect_widget',
          is_mobile_webview: true,
          ui_message_webview_url_scheme: 'myapp',
          ui_message_version: 4,
          color_scheme: 'browser',
          language: 'es',
        },
      },
      { 'x-callback-payload': 'wcb' },
    );
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body.widget_url).sort(), ['type', 'url', 'user_id']);
    assert.equal(r.body.widget_url.type, 'connect_widget');
    assert.equal(r.body.widget_url.user_id, 'wid-user');
    const page = await sim.page(new URL(r.body.widget_url.url).pathname);
    assert.equal(page.status, 200);
    assert.match(page.text, /"mobile":true/);
    assert.match(page.text, /"scheme":"myapp"/);
    assert.match(page.text, /"payload":"wcb"/);
    assert.match(page.text, /"opensOauthWindow":false/);
    assert.match(page.text, /data-action="connect"/);
    const missing = await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { 'accept-version': V_NEW });
    assert.equal(missing.status, 400);
    const ok = await sim.req(
      'POST',
      `/users/wid-user/widget_urls`,
      { widget_url: { widget_type: 'connect_widget', data_request: { products: ['transactions'] } } },
      { 'accept-version': V_NEW },
    );
    assert.equal(ok.status, 200);
    const browser = await sim.page(new URL(ok.body.widget_url.url).pathname);
    assert.match(browser.text, /"mobile":false/);
    assert.match(browser.text, /"opensOauthWindow":true/);
    assert.match(browser.text, /"payload":null/);
    assert.equal((await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: { is_mobile_webview: 'yes' } })).status, 400);
    assert.equal((await sim.req('POST', `/users/${user}/widget_urls`, {})).status, 400);
    assert.equal((await sim.page('/_sim/widget/nope')).status, 404);
  }));

test('widget members: create with the widget settings, MFA answer, OAuth member with the widget redirect, delete', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    const r = await sim.req(
      'POST',
      `/users/${user}/widget_urls`,
      { widget_url: { client_redirect_url: 'https://app.example/w?a=b' } },
      { 'x-callback-payload': 'wp' },
    );
    const base = new URL(r.body.widget_url.url).pathname;
    const inject = (method: string, url: string, payload?: unknown) => sim.app.inject({ method: method as 'GET', url, payload: payload as object });
    const created = (await inject('POST', `${base}/members`, { institution_code: 'svcbank', username: 'u', password: 'sim-pass-challenge' })).json();
    const guid = created.member.guid;
    await sim.settle(user, guid);
    const challenged = (await inject('GET', `${base}/members/${guid}`)).json();
    assert.equal(challenged.member.connection_status, 'CHALLENGED');
    assert.equal(challenged.member.challenges.length, 1);
    assert.equal((await inject('PUT', `${base}/members/${guid}/resume`, { answer: 'correct' })).statusCode, 202);
    const oauth = (await inject('POST', `${base}/members`, { institution_code: 'svc_bank_oauth', is_oauth: true })).json();
    const res = await decide(sim, oauth.member.oauth_window_uri, 'authorize');
    assert.match(String(res.headers.location), /^https:\/\/app\.example\/w\?a=b&status=success&member_guid=MBR-/);
    const memberEvent = sim.webhooks.events.find((e) => e.type === 'member' && (e.body.member as any).guid === oauth.member.guid)!;
    assert.equal((memberEvent.body.member as any).x_callback_payload, 'wp');
    assert.equal((await inject('DELETE', `${base}/members/${guid}`)).statusCode, 204);
    assert.equal((await inject('GET', `${base}/members/${guid}`)).statusCode, 404);
  }));

test('sunset connect_widget_url: 410 from v20250224 with headers, works on v20111101', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    const old = await sim.req('POST', `/users/${user}/connect_widget_url`, { config: { is_mobile_webview: false } });
    assert.equal(old.status, 200);
    assert.match(old.body.user.connect_widget_url, /\/_sim\/widget\//);
    assert.ok(old.headers.sunset);
    const gone = await sim.req('POST', `/users/${user}/connect_widget_url`, {}, { 'accept-version': V_NEW });
    assert.equal(gone.status, 410);
  }));
