/**
 * The catalogue's near-miss faults (DESIGN.md, "Proving the suite"; the values of
 * contracts/near-miss.ts): under each, the simulator takes a request value that ALMOST
 * meets a stated rule and nothing further from it (a grosser value is still refused), as a
 * lenient parser would; clean, it refuses both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogEntry } from './catalog.ts';
import { PW, Sim, V_OLD } from './core-helpers.test-support.ts';

/** The near miss and a grosser value of the same rule, each sent on an otherwise valid request: their statuses. */
type Probe = (sim: Sim) => Promise<{ near: number; gross: number }>;

async function achProbe(sim: Sim, field: string, near: (ids: Ids) => unknown, gross: unknown) {
  const ids = await identifiers(sim);
  const body = (v: unknown) => ({
    ach_return: {
      account_guid: ids.account,
      account_number_last_four: '1234',
      ach_initiated_at: '2026-01-05T10:00:00+00:00',
      id: 'near-miss-return',
      member_guid: ids.member,
      return_code: 'R01',
      returned_at: '2026-01-07T09:30:00-05:00',
      sec_code: 'PPD',
      transaction_amount: 42.5,
      transaction_amount_range: 2,
      user_guid: ids.user,
      [field]: v,
    },
  });
  return { near: (await sim.req('POST', '/ach_returns', body(near(ids)))).status, gross: (await sim.req('POST', '/ach_returns', body(gross))).status };
}

interface Ids {
  user: string;
  member: string;
  account: string;
}

async function identifiers(sim: Sim): Promise<Ids> {
  const { user, member } = await sim.connected();
  const account = (await sim.req('GET', `/users/${user}/members/${member}/accounts`)).body.accounts[0].guid as string;
  return { user, member, account };
}

async function widgetProbe(sim: Sim, field: string, near: unknown, gross: unknown) {
  const user = await sim.user();
  const send = async (v: unknown) =>
    (await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget', [field]: v } }, { 'accept-version': V_OLD })).status;
  return { near: await send(near), gross: await send(gross) };
}

const PROBES: Record<string, Probe> = {
  'ach-last-four-five-digits-accepted': (sim) => achProbe(sim, 'account_number_last_four', () => '12345', '123456'),
  'ach-timestamp-offset-optional': (sim) => achProbe(sim, 'returned_at', () => '2026-01-07T09:30:00', '07/01/2026'),
  'ach-return-code-lower-case-accepted': (sim) => achProbe(sim, 'return_code', () => 'r01', 'x01'),
  'ach-account-guid-resolved-by-uuid': (sim) => achProbe(sim, 'account_guid', (ids) => ids.account.slice(4), 'ACT-not-a-uuid'),
  'ach-amounts-as-strings-accepted': (sim) => achProbe(sim, 'transaction_amount', () => '42.5', 'forty-two'),
  'widget-referral-source-lower-case-accepted': (sim) => widgetProbe(sim, 'oauth_referral_source', 'browser', 'web'),
  'widget-url-fields-coerced': (sim) => widgetProbe(sim, 'is_mobile_webview', 'false', 'no'),
  'authorization-code-scope-lenient': async (sim) => {
    const user = await sim.user();
    const send = async (scope: string) => (await sim.req('POST', '/authorization_code', { authorization_code: { scope } })).status;
    return { near: await send(`user_guid:${user}`), gross: await send(`uid:${user}`) };
  },
  'accept-version-lenient': async (sim) => {
    const send = async (v: string) => (await sim.req('GET', '/institutions?records_per_page=10', undefined, { 'accept-version': v })).status;
    return { near: await send('V20250224'), gross: await send('v2025-02-24') };
  },
  'member-create-plural-wrapper-accepted': async (sim) => {
    const user = await sim.user();
    const member = {
      institution_code: 'svcbank',
      id: 'near-miss-member',
      credentials: [
        { field_name: 'username', value: 'test_user' },
        { field_name: 'password', value: PW.SUCCESS },
      ],
    };
    const send = async (body: unknown) => (await sim.req('POST', `/users/${user}/members`, body, { 'accept-version': V_OLD })).status;
    return { near: await send({ members: member }), gross: await send({ memberz: member }) };
  },
};

const ok = (s: number) => s >= 200 && s < 300;

for (const [name, probe] of Object.entries(PROBES)) {
  test(`fault ${name} takes the near miss and nothing further; clean refuses both`, async () => {
    assert.equal(catalogEntry(name)?.kind, 'fault', `${name} is a catalogued fault`);
    const clean = await Sim.start();
    const faulty = await Sim.start([name]);
    try {
      const c = await probe(clean);
      const f = await probe(faulty);
      assert.deepEqual([ok(c.near), ok(c.gross)], [false, false], `${name} clean: ${JSON.stringify(c)}`);
      assert.deepEqual([ok(f.near), ok(f.gross)], [true, false], `${name} under the fault: ${JSON.stringify(f)}`);
    } finally {
      await clean.close();
      await faulty.close();
    }
  });
}
