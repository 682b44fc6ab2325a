/**
 * Widget URL requests (specification, Resources "Widget URL"; Endpoints, "Widgets and
 * members": POST /users/{user_guid}/widget_urls, "In version v20250224 the path uses
 * user_identifier"; What the service does: "a URL is requested that loads a widget; many
 * request parameters apply to only some widgets").
 *
 * The request's success status is not shown (the Errors table's 200 names reads, lists
 * and ACH return creation only): any 2xx. The response is `widget_url` with `type`,
 * `url` and `user_id` (strings); the contract checks its shape on every response.
 */
import { test, expect, currentVersion, type CheckedClient } from '../fixtures.ts';
import { WIDGET_TYPES } from '../../contracts/index.ts';
import { ANY_2XX, is2xx, need } from '../steps/responses.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { widgetUrlBody } from '../steps/widgets.ts';
import { expectInferred } from '../inferred.ts';
import { connectedUser, memberAccounts } from './journeys.ts';

const TAGS = ['@widgets', '@destructive'];

async function requestWidget(api: CheckedClient, userPath: string, fields: Record<string, unknown>, version = currentVersion(api.profile)) {
  const res = await api.post(`/users/${encodeURIComponent(userPath)}/widget_urls`, widgetUrlBody(version, fields), { version, expectStatus: ANY_2XX });
  const url = need<string>(res, 'widget_url.url', api);
  expect(URL.canParse(url), `widget_url.url ${url.slice(0, 80)} is a URL that loads the widget`).toBe(true);
  return res.body.widget_url as { type?: unknown; url: string; user_id?: unknown };
}

test('on v20250224 the widget URL path takes the user_identifier (the partner-defined user id)', { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
  const version = 'v20250224';
  test.skip(!profile.versions.supported.includes(version), `${version} is not among the target's versions (SVC_VERSIONS)`);
  const id = uniqueId('scn-user');
  // The user is created with a partner-defined id (What the service does: clients "set their own id").
  const created = await api.post('/users', { user: { id, metadata: 'created by the conformance suite' } }, { version, expectStatus: ANY_2XX });
  const guid = need<string>(created, 'user.guid', api);
  const byGuid = await requestWidget(api, guid, {}, version);
  // Endpoints, Widgets and members: "In version v20250224 the path uses user_identifier".
  // That the widget path then also takes the partner-defined id is a reading of the
  // parameter's name: Data exchange says identifiers accept partner ids "where so stated
  // for account and per-member paths", and no sentence states it for this path. So a
  // refusal is inferred only (a warning unless SVC_STRICT=1); what the service answers
  // still goes through the contract.
  const byId = await api.post(`/users/${encodeURIComponent(id)}/widget_urls`, widgetUrlBody(version), { version });
  const url = (byId.body as { widget_url?: { url?: unknown } } | undefined)?.widget_url?.url;
  if (
    expectInferred(profile, byId.status >= 200 && byId.status < 300 && typeof url === 'string', {
      expectation: 'POST /users/{partner-defined id}/widget_urls on v20250224 issues a widget URL',
      basis:
        'Endpoints, Widgets and members: "In version v20250224 the path uses user_identifier"; that it accepts partner ids is not stated for this path (Data exchange: "where so stated")',
      received: `${byId.status}${typeof url === 'string' ? '' : ', no widget_url.url'}`,
    })
  ) {
    expect(url, 'a fresh widget URL per request').not.toBe(byGuid.url);
  }
});

for (const type of WIDGET_TYPES) {
  test(`a widget URL is issued for widget_type ${type}`, { tag: [...TAGS, '@inferred'] }, async ({ api, profile }) => {
    const user = await createUser(api);
    // Resources, Widget URL: the type is one the specification names; the request succeeds.
    const w = await requestWidget(api, user, { widget_type: type });
    // Response `type` (string): that it names the requested widget type is the plain
    // reading, not a stated rule: inferred.
    expectInferred(profile, w.type === type, {
      expectation: `the response type names the requested widget_type ${type}`,
      basis: 'Resources, Widget URL: response "type (string)"; its relation to widget_type is not stated',
      received: JSON.stringify(w.type),
    });
  });
}

test('a widget URL request with every named parameter is accepted', { tag: TAGS }, async ({ api, profile }) => {
  const user = await createUser(api);
  // Resources, Widget URL, request fields with the values the specification shows:
  // ui_message_version "4 shown", color_scheme "accepts browser", language "including es",
  // oauth_referral_source BROWSER, deep_link_params with `widget`; the others with the
  // types stated or implied (booleans for disable_*/enable_*/include_*; objects for style).
  // The fields carry no version: every version in play takes them (Versioning: "removing a
  // request parameter from path or body" is breaking).
  for (const version of profile.versions.supported)
    await requestWidget(
      api,
      user,
      {
        widget_type: 'connect_widget',
        is_mobile_webview: false,
        client_redirect_url: 'https://client.example/widget/done?keep=me',
        oauth_referral_source: 'BROWSER',
        ui_message_webview_url_scheme: 'scnapp',
        ui_message_version: 4,
        color_scheme: 'browser',
        style: {},
        deep_link_params: { widget: 'connect_widget' },
        current_institution_code: profile.testInstitution.code,
        disable_search_institution: true,
        disable_background_agg: false,
        enable_app2app: false,
        include_identity: false,
        include_transactions: true,
        language: 'es',
      },
      version,
    );
});

test('a widget URL request deep-linking to an account of the user is accepted', { tag: [...TAGS, '@inferred'] }, async ({ api, poll, profile }) => {
  const { user, member } = await connectedUser(api, poll);
  const [account] = await memberAccounts(api, user, member);
  // Resources, Widget URL: "deep_link_params (object with widget, view, date_range,
  // account_guid)"; account_guid names an account (Resources: "ACT-<uuid> account"), here
  // one of the user's own. A widget URL answers "widget_url" with type, url and user_id.
  await requestWidget(api, user, { deep_link_params: { widget: 'connect_widget', account_guid: account.guid } });
  // The values of view and date_range, and those of connections_use_case_filter, are not
  // shown: the request that names them is expected to be served, not stated to be.
  const open: Record<string, unknown> = { deep_link_params: { widget: 'connect_widget', view: 'accounts', date_range: '30d', account_guid: account.guid } };
  // use_cases are "only for clients opted in to use cases" (Resources, Member): the filter names the client's own.
  if (profile.useCases?.length) open.connections_use_case_filter = profile.useCases;
  const version = currentVersion(profile);
  const res = await api.post(`/users/${encodeURIComponent(user)}/widget_urls`, widgetUrlBody(version, open), { version });
  expectInferred(profile, is2xx(res.status), {
    expectation: `a widget URL request naming deep_link_params view and date_range${open.connections_use_case_filter ? ' and connections_use_case_filter' : ''} is served`,
    basis: 'Resources, Widget URL: the fields are named, their values are not shown ("many request parameters apply to only some widgets")',
    received: `${res.status} ${res.text.slice(0, 160)}`,
  });
});
