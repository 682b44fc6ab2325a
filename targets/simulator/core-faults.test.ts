/**
 * Every fault of the simulator core's catalogue sections changes the observable
 * behaviour it names: one probe per fault, run clean and with the fault, whose results
 * must differ (the clean result is the specified one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from './catalog.ts';
import { SIMULATOR_DEFAULTS } from './settings.ts';
import { PW, Sim, V_NEW, V_OLD, sleep, AGG_MS, decide, oauthMember } from './core-helpers.test-support.ts';

type Probe = (sim: Sim) => Promise<unknown>;

async function challengedStatus(sim: Sim, scenario: string, version = V_OLD) {
  const user = await sim.user();
  const r = await sim.member(user, scenario, { version });
  await sim.settle(user, r.body.member.guid);
  return { user, member: r.body.member.guid as string, status: await sim.status(user, r.body.member.guid, version) };
}
const end = (scenario: string) => async (sim: Sim) => {
  const user = await sim.user();
  const r = await sim.member(user, scenario);
  return (await sim.settle(user, r.body.member.guid)).connection_status;
};
const redirectOf = (extra: Record<string, unknown>, action: 'authorize' | 'deny') => async (sim: Sim) => {
  const { member } = await oauthMember(sim, extra);
  return String((await decide(sim, member.oauth_window_uri, action)).headers.location ?? 'no redirect');
};
const txnCount = (query: (user: string, all: any[], cutoff: string) => string) => async (sim: Sim) => {
  const { user } = await sim.connected();
  const all = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000`)).body.transactions;
  sim.app.sim.clock.advance(3_600_000);
  const cutoff = sim.app.sim.clock.now().toISOString();
  sim.app.sim.clock.advance(3_600_000);
  const member = (await sim.req('GET', `/users/${user}/members`)).body.members[0].guid;
  await sim.req('POST', `/users/${user}/members/${member}/aggregate`);
  await sim.settle(user, member);
  return (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&${query(user, all, cutoff)}`)).body.transactions.length;
};
async function widgetPageText(sim: Sim, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const user = await sim.user();
  const r = await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: body }, headers);
  return (await sim.page(new URL(r.body.widget_url.url).pathname)).text;
}
async function connectedWithAccount(sim: Sim) {
  const { user, member } = await sim.connected();
  const account = (await sim.req('GET', `/users/${user}/members/${member}/accounts`)).body.accounts[0].guid;
  return { user, member, account };
}

const PROBES: Record<string, Probe> = {
  'data-request-not-required-on-v20250224': async (sim) =>
    (
      await sim.req(
        'POST',
        `/users/${await sim.user()}/members`,
        { member: { institution_code: 'svcbank', credentials: [{ field_name: 'password', value: PW.SUCCESS }] } },
        { 'accept-version': V_NEW },
      )
    ).status,
  'aggregated-at-set-before-aggregation': async (sim) => (await sim.member(await sim.user(), 'SUCCESS')).body.member.aggregated_at,
  'is-being-aggregated-stuck-true': async (sim) => {
    const user = await sim.user();
    const r = await sim.member(user, 'SUCCESS');
    await sleep(AGG_MS * 5);
    return (await sim.read(user, r.body.member.guid)).is_being_aggregated;
  },
  'halted-reported-as-denied': end('SERVER_ERROR'),
  'locked-reported-as-connected': end('LOCKED'),
  'no-transactions-after-aggregation': async (sim) =>
    (await sim.req('GET', `/users/${(await sim.connected()).user}/transactions`)).body.transactions.length > 0,
  'challenge-missing-on-mfa': async (sim) => Array.isArray((await challengedStatus(sim, 'CHALLENGE')).status.challenges),
  'wrong-answer-connects': async (sim) => {
    const { user, member, status } = await challengedStatus(sim, 'IMAGE');
    await sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: [{ guid: status.challenges[0].guid, value: 'wrong' }] } });
    return (await sim.settle(user, member)).connection_status;
  },
  'follow-up-challenge-missing': async (sim) => {
    const { user, member, status } = await challengedStatus(sim, 'CHALLENGE');
    await sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: [{ guid: status.challenges[0].guid, value: 'correct' }] } });
    return (await sim.settle(user, member)).connection_status;
  },
  'identify-409-instead-of-202': async (sim) => {
    const { user, member } = await sim.connected();
    await sim.req('POST', `/users/${user}/members/${member}/identify`);
    return (await sim.req('POST', `/users/${user}/members/${member}/identify`)).status;
  },
  'identify-202-instead-of-409': async (sim) => {
    const { user, member } = await sim.connected();
    await sim.req('POST', `/users/${user}/members/${member}/extend_history`);
    return (await sim.req('POST', `/users/${user}/members/${member}/identify`)).status;
  },
  'standard-aggregation-not-throttled': async (sim) => {
    const { user, member } = await sim.connected();
    await sim.req('POST', `/users/${user}/members/${member}/aggregate`);
    await sim.settle(user, member);
    return (await sim.req('POST', `/users/${user}/members/${member}/aggregate`)).status;
  },
  'aggregation-throttles-other-jobs': async (sim) => {
    const { user, member } = await sim.connected();
    await sim.req('POST', `/users/${user}/members/${member}/aggregate`);
    await sim.settle(user, member);
    return (await sim.req('POST', `/users/${user}/members/${member}/extend_history`)).status;
  },
  'no-daily-refresh': async (sim) => {
    await sim.connected();
    sim.app.sim.clock.advance(86_400_001);
    return (await sim.app.inject({ method: 'POST', url: '/_sim/refresh' })).json().started;
  },
  'refresh-for-disabled-users': async (sim) => {
    const { user } = await sim.connected();
    await sim.req('PUT', `/users/${user}`, { user: { is_disabled: true } });
    sim.app.sim.clock.advance(86_400_001);
    return (await sim.app.inject({ method: 'POST', url: '/_sim/refresh' })).json().started;
  },
  'x-callback-payload-missing-in-member-webhook': async (sim) => {
    const user = await sim.user();
    const r = await sim.member(user, 'SUCCESS', { headers: { 'x-callback-payload': 'cb' } });
    await sim.settle(user, r.body.member.guid);
    return sim.webhooks.events
      .filter((e) => e.type === 'member' || e.type === 'member_data_updated')
      .map((e) => (e.body[e.type] as any).x_callback_payload)
      .join(',');
  },
  'aggregation-webhook-missing-job-guid': async (sim) => {
    await sim.connected();
    return typeof (sim.webhooks.events.find((e) => e.type === 'aggregation')!.body.aggregation as any).job_guid;
  },
  'member-webhook-user-id-is-guid': async (sim) => {
    await sim.connected();
    return /^USR-/.test((sim.webhooks.events.find((e) => e.type === 'member')!.body.member as any).user_id);
  },
  'aggregation-webhook-user-id-is-guid': async (sim) => {
    await sim.connected();
    return /^USR-/.test((sim.webhooks.events.find((e) => e.type === 'aggregation')!.body.aggregation as any).user_id);
  },
  'member-webhook-stale-after-job': async (sim) => {
    await sim.connected();
    return (sim.webhooks.events.filter((e) => e.type === 'member').at(-1)!.body.member as any).is_being_aggregated;
  },
  'oauth-member-not-pending': async (sim) => (await oauthMember(sim)).member.connection_status,
  'oauth-uri-without-protocol': async (sim) => /^https?:\/\//.test((await oauthMember(sim)).member.oauth_window_uri),
  'oauth-uri-reusable': async (sim) => {
    const path = new URL((await oauthMember(sim)).member.oauth_window_uri).pathname;
    await sim.page(path);
    return (await sim.page(path)).status;
  },
  'oauth-redirect-drops-error-reason': redirectOf({ client_redirect_url: 'https://app.example/cb' }, 'deny'),
  'oauth-redirect-drops-client-query': redirectOf({ client_redirect_url: 'https://app.example/cb?keep=1' }, 'authorize'),
  'member-guid-missing-in-redirect': async (sim) =>
    /member_guid=MBR-/.test(await redirectOf({ client_redirect_url: 'https://app.example/cb' }, 'authorize')(sim)),
  'oauth-webview-scheme-ignored': async (sim) =>
    /^myapp:\/\/oauth_complete\?/.test(await redirectOf({ ui_message_webview_url_scheme: 'myapp' }, 'authorize')(sim)),
  'oauth-deny-connects': async (sim) => {
    const { user, member } = await oauthMember(sim, { client_redirect_url: 'https://app.example/cb' });
    await decide(sim, member.oauth_window_uri, 'deny');
    return (await sim.read(user, member.guid)).connection_status;
  },
  'oauth-message-mx-false': async (sim) => {
    const { member } = await oauthMember(sim);
    return /"mx":true/.test((await decide(sim, member.oauth_window_uri, 'authorize')).text);
  },
  'widget-data-request-not-required-on-v20250224': async (sim) =>
    (await sim.req('POST', `/users/${await sim.user()}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { 'accept-version': V_NEW })).status,
  'widget-event-missing-x-callback-payload': async (sim) => /"payload":"cb"/.test(await widgetPageText(sim, {}, { 'x-callback-payload': 'cb' })),
  'widget-mobile-uses-postmessage': async (sim) => /"mobile":true/.test(await widgetPageText(sim, { is_mobile_webview: true })),
  'manual-account-outside-manual-member': async (sim) => {
    const user = await sim.user();
    const a = await sim.req('POST', `/users/${user}/accounts`, { account: { name: 'a', account_type: 'CASH', balance: 1 } });
    const b = await sim.req('POST', `/users/${user}/accounts`, { account: { name: 'b', account_type: 'CASH', balance: 1 } });
    return a.body.account.member_guid === b.body.account.member_guid;
  },
  'member-create-refuses-enable-app2app': async (sim) => (await sim.member(await sim.user(), 'SUCCESS', { extra: { enable_app2app: false } })).status,
  'managed-institutions-removed-on-v20250224': async (sim) => (await sim.req('GET', '/managed_institutions', undefined, { 'accept-version': V_NEW })).status,
  'users-shared-across-clients': async (sim) => {
    const user = await sim.user();
    const second = { authorization: `Basic ${Buffer.from(`${SIMULATOR_DEFAULTS.secondClientId}:${SIMULATOR_DEFAULTS.secondApiKey}`).toString('base64')}` };
    const listed = (await sim.req('GET', '/users?records_per_page=100', undefined, second)).body.users.some((u: { guid: string }) => u.guid === user);
    return [
      (await sim.req('GET', `/users/${user}`, undefined, second)).status,
      (await sim.req('GET', `/users/${user}/members`, undefined, second)).status,
      listed,
    ];
  },
  'merge-keeps-source-accounts': async (sim) => {
    const { user } = await sim.connected();
    const accounts = (await sim.req('GET', `/users/${user}/accounts`)).body.accounts;
    await sim.req('POST', `/users/${user}/accounts/merge`, { account: { account_guids: [accounts[0].guid, accounts[1].guid] } });
    return (await sim.req('GET', `/users/${user}/accounts`)).body.accounts.length;
  },
  'transaction-category-filter-ignored': txnCount((_u, all) => `category_guid=${all[0].category_guid}`),
  'transaction-created-at-filter-ignored': txnCount((_u, _all, cutoff) => `from_created_at=${encodeURIComponent(cutoff)}`),
  'transaction-includes-ignored': async (sim) =>
    'merchant' in (await sim.req('GET', `/users/${(await sim.connected()).user}/transactions?includes=merchants`)).body.transactions[0],
  'twice-a-recurrence-renamed': async (sim) =>
    (await sim.req('GET', `/users/${(await sim.connected()).user}/repeating_transactions`)).body.repeating_transactions
      .map((r: any) => r.recurrence_type)
      .sort()
      .join(','),
  'insight-cta-clicked-at-not-saved': async (sim) => {
    const { user } = await sim.connected();
    const g = (await sim.req('GET', `/users/${user}/insights`)).body.insights[0].guid;
    await sim.req('PUT', `/users/${user}/insights/${g}`, { insight: { cta_clicked_at: '2025-03-01T12:00:00Z' } });
    return (await sim.req('GET', `/users/${user}/insights/${g}`)).body.insight.cta_clicked_at;
  },
  'localization-payload-missing': async (sim) =>
    'localization_payload' in (await sim.req('GET', `/users/${(await sim.connected()).user}/insights?includes=localization_payload`)).body.insights[0],
  'verified-member-not-required-for-processor-code': async (sim) => {
    const { user, member } = await sim.connected();
    return (await sim.req('POST', '/authorization_code', { authorization_code: { scope: `user-guid:${user} member-guid:${member}` } })).status;
  },
  'payment-account-missing-member-guid': async (sim) => {
    const { user, member, account } = await connectedWithAccount(sim);
    await sim.req('POST', `/users/${user}/members/${member}/verify`);
    await sim.settle(user, member);
    const code = (await sim.req('POST', '/authorization_code', { authorization_code: { scope: `user-guid:${user} account-guid:${account}` } })).body
      .authorization_code.code;
    const token = (await sim.req('POST', '/token', { code })).body.access_token;
    return (await sim.app.inject({ method: 'GET', url: '/payment_account', headers: { authorization: `Bearer ${token}` } })).json().payment_account.member_guid;
  },
  'processor-token-lifetime-wrong': async (sim) => {
    const { user, member } = await sim.connected();
    await sim.req('POST', `/users/${user}/members/${member}/verify`);
    await sim.settle(user, member);
    const code = (await sim.req('POST', '/authorization_code', { authorization_code: { scope: `user-guid:${user} member-guid:${member}` } })).body
      .authorization_code.code;
    return (await sim.req('POST', '/token', { code })).body.expires_in;
  },
};

/** Faults of the core's catalogue sections (areas this module owns). */
const CORE_FAULTS = CATALOG.filter((e) => e.kind === 'fault' && Object.hasOwn(PROBES, e.name)).map((e) => e.name);

test('every core fault has a probe, and every probe names a catalogued fault', () => {
  const catalogued = new Set<string>(CATALOG.map((e) => e.name));
  for (const name of Object.keys(PROBES)) assert.ok(catalogued.has(name), `${name} is not in catalog.ts`);
  assert.equal(CORE_FAULTS.length, Object.keys(PROBES).length);
});

for (const name of Object.keys(PROBES)) {
  test(`fault ${name} changes the behaviour`, async () => {
    const clean = await Sim.start();
    const faulty = await Sim.start([name]);
    try {
      const a = await PROBES[name](clean);
      const b = await PROBES[name](faulty);
      assert.notDeepEqual(b, a, `${name}: clean ${JSON.stringify(a)} vs fault ${JSON.stringify(b)}`);
    } finally {
      await clean.close();
      await faulty.close();
    }
  });
}
