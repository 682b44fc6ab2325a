/**
 * Widget events (specification, Events "Widget events"; Endpoints "OAuth procedure
 * for members", widget flows; Resources, Widget URL).
 *
 * - Browser iframe: the widget URL is hosted in an iframe of a client page; the widget
 *   opens the OAuth window itself, and the client page receives the OAuth completion
 *   message by postMessage: `{ type: 'oauthComplete/success', mx: true, metadata:
 *   { member_guid, x_callback_payload } }` (X-CALLBACK-PAYLOAD on the widget request).
 * - Mobile WebView (`is_mobile_webview` true): events go to the WebView location as
 *   `{scheme}://{event path}?metadata={json}`, and the widget does not open the OAuth
 *   window; the app opens the OAuth-requested URL itself.
 *
 * The client page is served by a tiny server of the test on 127.0.0.1 (its own port,
 * so a different origin from the widget): Chromium's Private Network Access blocks a
 * page it considers public (e.g. one answered by page.route) from framing a loopback
 * widget. Custom-scheme navigations are observed through the Chrome DevTools
 * Protocol (Page.frameRequestedNavigation): the browser cannot load them, but it
 * reports that the page asked to go there.
 *
 * Desktop Chromium hands a custom-scheme navigation to its external-protocol handler,
 * which a mobile WebView never does (the host app intercepts its own scheme). Unless
 * the launch is refused ("Not allowed to launch ... because a user gesture is
 * required"), that handler shows a tab-modal "Open xdg-open?" prompt that headless
 * Chromium never answers, and while it is up every mouse or keyboard event sent to
 * the tab is dropped. Which launch gets the prompt depends on browser-wide state (a
 * launch is let through again after any trusted input anywhere in the browser, i.e.
 * on earlier tests of the same worker), so a trusted click on the widget after its
 * `loaded` event (itself a custom-scheme navigation) was lost in some runs: the
 * mobile-WebView flake. Controls of a page that navigates to a custom scheme are
 * therefore pressed with `pressWithActivation` (a DOM click with user activation
 * through the DevTools Protocol), never with trusted input.
 *
 * The widget's own controls (connect, OAuth, answer buttons) are not shown in the
 * specification: the profile names them (profile.widget, SVC_WIDGET_*_SELECTOR;
 * the simulator's are built in), and a real target without them is skipped naming the variables.
 */
import type { CDPSession, Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, type CheckedClient } from '../fixtures.ts';
import { ANY_2XX } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { passwordFor } from '../steps/test-institution.ts';
import { needsDataRequest } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { missingControls, type TargetProfile } from '../../targets/index.ts';
import { expectInferred } from '../inferred.ts';
import { currentVersion } from '../fixtures.ts';
import { afterAction, suppliesProtocol } from './waits.ts';
import { typeSecret } from './secrets.ts';
import { controlBoundMs, oauthAction, press, shown, widgetControl, type NamedControl } from './controls.ts';

const TAGS = ['@widgets', '@oauth', '@destructive'];
const PAYLOAD = 'scn-callback-payload-7';

async function widgetUrl(api: CheckedClient, user: string, fields: Record<string, unknown>): Promise<string> {
  const widget: Record<string, unknown> = { widget_type: 'connect_widget', ...fields };
  if (needsDataRequest(currentVersion(api.profile))) widget.data_request = { products: ['transactions'] };
  const res = await api.post(
    `/users/${user}/widget_urls`,
    { widget_url: widget },
    {
      headers: { 'X-CALLBACK-PAYLOAD': PAYLOAD },
      // Errors states 200 only "for reads, lists and ACH return creation": the widget URL
      // request's success status is not shown, so any 2xx is a success here.
      expectStatus: ANY_2XX,
    },
  );
  return res.body.widget_url.url as string;
}

/** The OAuth window the widget opens, within the bound of a control's action (controls.ts). */
function popupOf(page: Page, profile: TargetProfile): Promise<Page> {
  return page.waitForEvent('popup', { timeout: controlBoundMs(profile) });
}

/** Serves one HTML page on 127.0.0.1 (the client's page hosting the widget). */
async function clientHost(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/app`, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * The widget in an iframe of a client page served from 127.0.0.1 (Events, widget events:
 * "postMessage to the opening window"): every message the page receives is recorded.
 */
async function widgetInClientIframe(
  page: Page,
  url: string,
): Promise<{ messages: Array<Record<string, any>>; host: { url: string; close: () => Promise<void> } }> {
  const messages: Array<Record<string, any>> = [];
  await page.exposeFunction('scnReport', (m: Record<string, any>) => messages.push(m));
  const host = await clientHost(
    `<!doctype html><title>client</title><script>addEventListener('message', (e) => window.scnReport(e.data));</script><iframe id="widget" src="${url}" width="400" height="600"></iframe>`,
  );
  return { messages, host };
}

/** Records every navigation the page (or its frames) asks for, custom schemes included. */
async function recordNavigations(page: Page): Promise<{ urls: string[]; cdp: CDPSession }> {
  const urls: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  cdp.on('Page.frameRequestedNavigation', (e: { url: string }) => urls.push(e.url));
  page.on('response', (r) => {
    const location = r.headers().location;
    if (location) urls.push(location);
  });
  return { urls, cdp };
}

/**
 * Presses a control as a user would (the click runs with user activation, so a
 * window.open by the widget would open a popup and be counted) without sending input
 * events through the browser window: Chromium's external-protocol prompt, raised by an
 * earlier custom-scheme navigation of the page, drops those (see the header).
 */
async function pressWithActivation(page: Page, cdp: CDPSession, control: NamedControl, profile: TargetProfile): Promise<void> {
  await shown(page, control, profile);
  const r = await cdp.send('Runtime.evaluate', {
    expression: `(() => { const el = document.querySelector(${JSON.stringify(control.selector)}); if (!el) return false; el.click(); return true; })()`,
    userGesture: true,
    returnByValue: true,
  });
  expect(r.result.value, `${control.setting}=${control.selector} found and pressed`).toBe(true);
}

test('in a browser iframe the client page receives oauthComplete/success with mx: true and the callback payload', { tag: [...TAGS, '@smoke'] }, async ({
  api,
  page,
  profile,
}) => {
  // The widget's controls are not shown in the specification: the profile names them (SVC_WIDGET_OAUTH_SELECTOR).
  const missing = missingControls(profile.widget, ['oauth']);
  test.skip(!!missing, missing);
  const user = await createUser(api);
  const url = await widgetUrl(api, user, { oauth_referral_source: 'BROWSER', is_mobile_webview: false });
  const { messages, host } = await widgetInClientIframe(page, url);
  try {
    await page.goto(host.url);
    const widget = page.frameLocator('#widget');
    const [popup] = await Promise.all([popupOf(page, profile), press(widget, widgetControl(profile, 'oauth'), profile)]);
    // Events: the OAuth-requested event "carries the URL to open and member_guid"; the
    // window the widget opens loads it as given, so the service supplies its protocol (waits.ts).
    const requested = () => messages.find((m) => typeof m?.type === 'string' && /oauthRequested/i.test(m.type));
    await expect.poll(() => requested()?.metadata?.url, afterAction(profile, 'the OAuth-requested event with the URL to open')).toBeTruthy();
    expect(
      suppliesProtocol(requested()!.metadata.url),
      `the OAuth-requested URL ${String(requested()!.metadata.url).slice(0, 80)} is absolute (the service supplies the protocol)`,
    ).toBe(true);
    await press(popup, oauthAction(profile, 'authorize'), profile);
    await expect
      .poll(() => messages.find((m) => m?.type === 'oauthComplete/success'), afterAction(profile, 'oauthComplete/success at the client page'))
      .toBeTruthy();
    const done = messages.find((m) => m?.type === 'oauthComplete/success')!;
    expect(done.mx).toBe(true);
    expect(done.metadata?.member_guid).toMatch(/^MBR-/);
    // Events: "its value is returned as x_callback_payload inside each event's metadata".
    expect(done.metadata?.x_callback_payload).toBe(PAYLOAD);
    expect(requested()?.metadata?.member_guid, 'the OAuth-requested event names the same member').toBe(done.metadata.member_guid);
  } finally {
    await host.close();
  }
});

test('in a mobile WebView events go to {scheme}://{event path}?metadata={json} and the widget opens no OAuth window', { tag: TAGS }, async ({
  api,
  page,
  profile,
}) => {
  // The widget's controls are not shown in the specification: the profile names them (SVC_WIDGET_OAUTH_SELECTOR).
  const missing = missingControls(profile.widget, ['oauth']);
  test.skip(!!missing, missing);
  const user = await createUser(api);
  const url = await widgetUrl(api, user, { is_mobile_webview: true, ui_message_webview_url_scheme: 'scnapp' });
  const { urls: navigations, cdp } = await recordNavigations(page);
  let popups = 0;
  page.on('popup', () => popups++);
  // Events start at once (the loaded event navigates to the scheme): do not wait for `load`.
  // Chromium refuses to launch an external-scheme URL without user activation (the
  // loaded event; the OAuth-requested one, sent after an API call) and may then not
  // report the request, so the locations the widget asked for (window.__svcLocations,
  // kept by the simulator widget) count too.
  const asked = async () => [...navigations, ...((await page.evaluate(() => (window as any).__svcLocations ?? []).catch(() => [])) as string[])];
  await page.goto(url, { waitUntil: 'commit' });
  // The widget's loaded event comes once its controls are live; clicking earlier (a
  // slow machine) would hit a button with no handler yet.
  await expect
    .poll(
      async () => (await asked()).some((u) => u.startsWith('scnapp://') && /loaded/i.test(u)),
      afterAction(profile, 'a scnapp:// location for the loaded event', 100),
    )
    .toBe(true);
  await pressWithActivation(page, cdp, widgetControl(profile, 'oauth'), profile);
  // The page that stands for the default browser the app opens the URL in (below) is
  // created while the widget works: a page of the context (never counted as a popup of
  // the widget's page) that loads nothing until the URL is known.
  const opening = page.context().newPage();
  opening.catch(() => {});
  let seen: string[] = [];
  const requestedUrl = () => seen.find((u) => u.startsWith('scnapp://') && /oauthRequested/i.test(u));
  await expect
    .poll(
      async () => {
        seen = await asked();
        return requestedUrl();
      },
      afterAction(profile, 'a scnapp:// location for the OAuth-requested event', 100),
    )
    .toBeTruthy();
  const events = [...new Set(seen.filter((u) => u.startsWith('scnapp://')))];
  for (const e of events) {
    const metadata = new URL(e).searchParams.get('metadata');
    expect(metadata, `metadata query parameter of ${e.slice(0, 80)}`).not.toBeNull();
    expect(() => JSON.parse(metadata!), `metadata of ${e.slice(0, 80)} is JSON`).not.toThrow();
    expect(JSON.parse(metadata!).x_callback_payload, `x_callback_payload in ${e.slice(0, 80)}`).toBe(PAYLOAD);
  }
  const oauth = JSON.parse(new URL(requestedUrl()!).searchParams.get('metadata')!);
  expect(oauth.member_guid).toMatch(/^MBR-/);
  expect(typeof oauth.url, 'the OAuth-requested event carries the URL to open').toBe('string');
  // Widget flows, mobile WebView: "the widget does not open the OAuth window".
  expect(popups, 'OAuth windows the widget opened itself').toBe(0);
  // The app opens the URL in the default browser; completion comes back to the app's scheme.
  const browser = await opening;
  const { urls: redirects } = await recordNavigations(browser);
  await browser.goto(oauth.url, { waitUntil: 'commit' });
  await press(browser, oauthAction(profile, 'authorize'), profile);
  await expect
    .poll(() => redirects.find((u) => u.startsWith('scnapp://oauth_complete')), afterAction(profile, 'scnapp://oauth_complete after authorize'))
    .toBeTruthy();
  const complete = new URL(redirects.find((u) => u.startsWith('scnapp://oauth_complete'))!);
  expect(complete.searchParams.get('status')).toBe('success');
  expect(complete.searchParams.get('member_guid')).toBe(oauth.member_guid);
});

/**
 * Widget flows, "iframe inside a WebView": "is_mobile_webview false; oauth_referral_source
 * APP; listen for the OAuth-requested event and pass the URL to the native app". The
 * widget therefore posts the OAuth-requested event (Events: it "carries the URL to open
 * and member_guid") and does not open the OAuth window itself; the app opens the URL,
 * and after the authorization the member connects (OAuth procedure 4: "Aggregation ...
 * starts after a successful OAuth connection"). The event's exact type is not shown: it
 * is the message whose metadata carries the URL and the member_guid.
 *
 * The widget's OAuth control comes from the profile (SVC_WIDGET_OAUTH_SELECTOR; the
 * simulator's is built in); without it a real target is skipped with that variable.
 */
test('in an iframe inside a WebView (oauth_referral_source APP) the OAuth-requested event carries the URL and the widget opens no OAuth window', {
  tag: TAGS,
}, async ({ api, page, poll, profile }) => {
  const missing = missingControls(profile.widget, ['oauth']);
  test.skip(!!missing, missing);
  const user = await createUser(api);
  const url = await widgetUrl(api, user, { is_mobile_webview: false, oauth_referral_source: 'APP' });
  let popups = 0;
  page.on('popup', () => popups++);
  const { messages, host } = await widgetInClientIframe(page, url);
  try {
    await page.goto(host.url);
    await press(page.frameLocator('#widget'), widgetControl(profile, 'oauth'), profile);
    const requested = () => messages.find((m) => typeof m?.metadata?.url === 'string' && typeof m?.metadata?.member_guid === 'string');
    await expect.poll(requested, afterAction(profile, 'an OAuth-requested event (metadata with url and member_guid) at the client page')).toBeTruthy();
    const event = requested()!;
    // Events: "each event's metadata" carries x_callback_payload when X-CALLBACK-PAYLOAD was set.
    expect(event.metadata.x_callback_payload, 'x_callback_payload in the OAuth-requested event').toBe(PAYLOAD);
    // Give a widget that (wrongly) opens the window itself the time to do so; the page
    // standing for the native app opens meanwhile (a page of the context, not a popup of
    // the widget's page: it is not counted, and it loads nothing yet).
    const [app] = await Promise.all([page.context().newPage(), page.waitForTimeout(500)]);
    // Widget flows, iframe inside a WebView: the client passes the URL to the app; the widget opens nothing.
    expect(popups, 'OAuth windows the widget opened itself with oauth_referral_source APP').toBe(0);
    // The native app opens the URL (here: a page of the same browser) and the user authorizes.
    await app.goto(event.metadata.url, { waitUntil: 'commit' });
    await press(app, oauthAction(profile, 'authorize'), profile);
    const settled = await waitUntilSettled(api, poll, user, event.metadata.member_guid);
    // OAuth procedure 4 and States: the authorized member connects.
    expect(settled.value.connection_status, 'the member authorized through the URL the app opened').toBe('CONNECTED');
  } finally {
    await host.close();
  }
});

/**
 * Events, widget events: "member connected with primary action selected" and "member
 * deleted (`svc/connect/memberDeleted`)"; widget flows, browser iframe: "close the widget
 * on the member-connected primary-action event". Only the member-deleted type is shown
 * exactly; the primary-action event is recognised by its name (memberConnected and
 * primaryAction in its type). Payloads are not shown ("Exact payloads of widget events
 * other than the OAuth completion messages: not shown"): only x_callback_payload, which
 * every event's metadata carries, is checked.
 *
 * The controls come from the profile (SVC_WIDGET_USERNAME_SELECTOR, ..._PASSWORD_,
 * ..._CONNECT_, ..._PRIMARY_, ..._DELETE_); the widget opens on the test institution
 * (current_institution_code) and connects with the success password, typed so that no
 * action title or parameter carries it (secrets.ts).
 */
test('a connected member sends the primary-action event and, deleted, svc/connect/memberDeleted', { tag: TAGS }, async ({ api, page, profile }) => {
  const missing = missingControls(profile.widget, ['username', 'password', 'connect', 'primary', 'delete']);
  test.skip(!!missing, missing);
  const password = passwordFor(profile, 'SUCCESS');
  const user = await createUser(api);
  const url = await widgetUrl(api, user, { is_mobile_webview: false, current_institution_code: profile.testInstitution.code });
  const { messages, host } = await widgetInClientIframe(page, url);
  try {
    await page.goto(host.url);
    const widget = page.frameLocator('#widget');
    await (await shown(widget, widgetControl(profile, 'username'), profile)).fill(profile.testInstitution.username);
    // Typed without becoming an action parameter: no report or trace title carries it (secrets.ts).
    await typeSecret(await shown(widget, widgetControl(profile, 'password'), profile), password, 'the success password');
    await press(widget, widgetControl(profile, 'connect'), profile);
    // Shown once the member is connected: after an aggregation.
    await press(widget, widgetControl(profile, 'primary'), profile, profile.timeouts.aggregationMs + controlBoundMs(profile));
    const types = () => messages.map((m) => String(m?.type ?? ''));
    await expect
      .poll(
        () => types().find((t) => /memberConnected/i.test(t) && /primaryAction/i.test(t)),
        afterAction(profile, `a member-connected primary-action event among ${JSON.stringify(types()).slice(0, 300)}`),
      )
      .toBeTruthy();
    await press(widget, widgetControl(profile, 'delete'), profile);
    await expect
      .poll(
        () => types().includes('svc/connect/memberDeleted'),
        afterAction(profile, `svc/connect/memberDeleted among the events ${JSON.stringify(types()).slice(-300)}`),
      )
      .toBe(true);
    const deleted = messages.find((m) => m?.type === 'svc/connect/memberDeleted')!;
    expect(deleted.metadata?.x_callback_payload, 'x_callback_payload in the member-deleted event').toBe(PAYLOAD);
  } finally {
    await host.close();
  }
});

/**
 * Events, widget events: "backToSearch (to be used with disable_search_institution)".
 * The widget opens on the test institution with the search disabled; its back control
 * (SVC_WIDGET_BACK_SELECTOR) sends an event named backToSearch (the type's prefix is not
 * shown, so the name is matched at its end).
 */
test('with disable_search_institution the back control sends backToSearch', { tag: TAGS }, async ({ api, page, profile }) => {
  const missing = missingControls(profile.widget, ['back']);
  test.skip(!!missing, missing);
  const user = await createUser(api);
  const url = await widgetUrl(api, user, {
    is_mobile_webview: false,
    current_institution_code: profile.testInstitution.code,
    disable_search_institution: true,
  });
  const { messages, host } = await widgetInClientIframe(page, url);
  try {
    await page.goto(host.url);
    await press(page.frameLocator('#widget'), widgetControl(profile, 'back'), profile);
    const types = () => messages.map((m) => String(m?.type ?? ''));
    await expect
      .poll(() => types().some((t) => /(^|\/)backToSearch$/.test(t)), afterAction(profile, `a backToSearch event among ${JSON.stringify(types()).slice(-300)}`))
      .toBe(true);
  } finally {
    await host.close();
  }
});

/**
 * Events, widget events: `oauthError` is named, without its trigger. In a browser iframe
 * the widget opens the OAuth window itself; the user denies. The error completion
 * (oauthComplete/error with member_guid and error_reason) reaches the client page as in
 * the success scenario; an event named oauthError for the denied member is the plain
 * reading of the name, not stated: inferred.
 */
test('a denied OAuth in the widget reaches the client page as oauthComplete/error, with an oauthError event', { tag: [...TAGS, '@inferred'] }, async ({
  api,
  page,
  profile,
}) => {
  const missing = missingControls(profile.widget, ['oauth']);
  test.skip(!!missing, missing);
  const user = await createUser(api);
  const url = await widgetUrl(api, user, { oauth_referral_source: 'BROWSER', is_mobile_webview: false });
  const { messages, host } = await widgetInClientIframe(page, url);
  try {
    await page.goto(host.url);
    const [popup] = await Promise.all([popupOf(page, profile), press(page.frameLocator('#widget'), widgetControl(profile, 'oauth'), profile)]);
    await press(popup, oauthAction(profile, 'deny'), profile);
    const error = () => messages.find((m) => m?.type === 'oauthComplete/error');
    await expect.poll(error, afterAction(profile, 'oauthComplete/error at the client page')).toBeTruthy();
    // Events, widget events: the error message carries member_guid and an error_reason of the list.
    expect(error()!.mx).toBe(true);
    expect(error()!.metadata?.member_guid).toMatch(/^MBR-/);
    expect(['CANCELLED', 'DENIED', 'IMPEDED', 'PROVIDER_ERROR', 'SERVER_ERROR', 'SESSION_ERROR']).toContain(error()!.metadata?.error_reason);
    const named = () => messages.some((m) => /(^|\/)oauthError$/.test(String(m?.type ?? '')));
    // Watched for as long as any other event after its action (profile.timeouts.browserEventMs).
    for (let waited = 0; !named() && waited < profile.timeouts.browserEventMs; waited += 50) await page.waitForTimeout(50);
    expectInferred(profile, named(), {
      expectation: 'the widget sends an oauthError event for the denied OAuth member',
      basis: 'Events, widget events: oauthError is named; its trigger and payload are not shown',
      received: JSON.stringify(messages.map((m) => m?.type)).slice(-300),
    });
  } finally {
    await host.close();
  }
});
