/**
 * The near-miss generator (contracts/near-miss.ts): every rule of the request tables
 * (requests.ts, the integration judge's) yields near misses; each one breaks its own rule,
 * and that rule alone, while the valid base meets every rule; the integration judge finds
 * each at the same place with at least the same tier; the tiers follow the sentences.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bodyNearMisses,
  brokenRequestRules,
  firstPerRule,
  loadContract,
  pageNearMisses,
  REQUEST_CHECKS,
  requestRules,
  versionNearMisses,
  type Exchange,
  type NearMiss,
  type NearMissRequest,
} from '../index.ts';
import { FIELD_TABLES } from '../requests.ts';

const contract = loadContract();
const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';
const MBR = 'MBR-0b1c2d3e-0000-4000-8000-000000000002';
const ACT = 'ACT-0b1c2d3e-0000-4000-8000-000000000003';

/** A valid request of each operation with a body rule, and the path it is sent to. */
const BASES: Array<{ operation: string; path: string; base: NearMissRequest }> = [
  {
    operation: 'POST /ach_returns',
    path: '/ach_returns',
    base: {
      version: 'v20260929',
      body: {
        ach_return: {
          account_guid: ACT,
          account_number_last_four: '1234',
          ach_initiated_at: '2026-01-05T10:00:00+00:00',
          id: 'svcct-test-ach',
          member_guid: MBR,
          return_code: 'R01',
          returned_at: '2026-01-07T09:30:00-05:00',
          sec_code: 'PPD',
          transaction_amount: 42.5,
          transaction_amount_range: 2,
          user_guid: USR,
        },
      },
    },
  },
  ...['v20111101', 'v20250224', 'v20260929'].map((version) => ({
    operation: 'POST /users/{user_guid}/widget_urls',
    path: `/users/${USR}/widget_urls`,
    base: {
      version,
      body: { widget_url: { widget_type: 'connect_widget', ...(version >= 'v20250224' ? { data_request: { products: ['transactions'] } } : {}) } },
    },
  })),
  ...['v20111101', 'v20250224', 'v20260929'].map((version) => ({
    operation: 'POST /users/{user_guid}/members',
    path: `/users/${USR}/members`,
    base: {
      version,
      body: {
        member: { institution_code: 'svcbank', id: 'svcct-test-member', is_oauth: false },
        ...(version >= 'v20250224' ? { data_request: { products: ['transactions'] } } : {}),
      },
    },
  })),
  {
    operation: 'POST /authorization_code',
    path: '/authorization_code',
    base: { version: 'v20260929', body: { authorization_code: { scope: `user-guid:${USR} member-guid:${MBR} account-guid:${ACT} read-protected` } } },
  },
];

const nearMissesOf = (b: (typeof BASES)[number]) => bodyNearMisses(b.operation, b.base);

test('every stated field rule of the request tables has a form near misses come from', () => {
  for (const t of FIELD_TABLES) for (const f of t.fields) if (f.tier !== 'informational') assert.ok(f.form, `${t.envelope}.${f.field} (${f.tier}) has a form`);
});

test('every body rule yields at least one near miss; the base meets every rule', () => {
  for (const b of BASES) {
    assert.deepEqual(
      brokenRequestRules(b.operation, b.base).map((r) => r.id),
      [],
      `${b.operation} ${b.base.version}: the base is valid`,
    );
    const byRule = new Set(nearMissesOf(b).map((n) => n.rule.id));
    for (const r of requestRules(b.operation, b.base.version)) assert.ok(byRule.has(r.id), `${b.operation} ${b.base.version}: ${r.id} has a near miss`);
  }
  assert.ok(versionNearMisses({ version: 'v20250224' }).length >= 5);
  assert.equal(pageNearMisses(1000, {}).length, 1);
});

test('every near miss breaks its own rule (its ok refuses it) and no other', () => {
  const all: Array<[string, NearMiss]> = [
    ...BASES.flatMap((b) => nearMissesOf(b).map((n) => [b.operation, n] as [string, NearMiss])),
    ...versionNearMisses({ version: 'v20250224' }).map((n) => ['GET /institutions', n] as [string, NearMiss]),
    ...pageNearMisses(1000, { version: 'v20250224' }).map((n) => ['GET /institutions', n] as [string, NearMiss]),
  ];
  assert.ok(all.length > 60, `${all.length} near misses`);
  for (const [operation, n] of all) {
    assert.equal(n.rule.ok(n.request), false, `${n.what} breaks ${n.rule.id}`);
    if (n.rule.id.startsWith('Accept-Version') || n.rule.id === 'records_per_page') continue;
    const broken = brokenRequestRules(operation, n.request).map((r) => r.id);
    // A widget URL's data_request is one of the widget_url object's fields (Resources, Widget
    // URL): a body without that object lacks it too, whatever else the near miss changes.
    const beside = n.rule.id === 'widget_url (wrapper)' ? broken.filter((id) => id !== 'data_request') : broken;
    assert.deepEqual(beside, [n.rule.id], `${n.what} breaks ${n.rule.id} alone`);
  }
  // The version and page rules judge the header and the query, whatever the body.
  for (const n of versionNearMisses({ version: 'v20260929' })) assert.equal(n.rule.ok({ version: 'v20260929' }), true);
  assert.equal(pageNearMisses(1000, {})[0].rule.ok({ query: { records_per_page: '1000' } }), true);
});

test('the families a near miss is named for: one character off, the wrong case, no offset, a number as a string, another prefix, the wrong place', () => {
  const [ach, , widget, , , member, , scope] = BASES;
  const values = (nms: NearMiss[], id: string) => nms.filter((n) => n.rule.id === id).map((n) => (n.request.body as any)[id.split('.')[0]]?.[id.split('.')[1]]);
  const a = nearMissesOf(ach);
  assert.deepEqual(values(a, 'ach_return.account_number_last_four'), ['12345', '123', 1234]);
  assert.deepEqual(values(a, 'ach_return.ach_initiated_at'), ['2026-01-05T10:00:00', '2026-01-05', 1767607200]);
  assert.deepEqual(values(a, 'ach_return.return_code'), ['r01', 'R011', 'R0']);
  assert.deepEqual(values(a, 'ach_return.account_guid').slice(0, 3), [ACT.slice(4), `MBR-${ACT.slice(4)}`, `act-${ACT.slice(4)}`]);
  assert.deepEqual(values(a, 'ach_return.transaction_amount'), ['42.5']);
  assert.deepEqual(values(a, 'ach_return.transaction_amount_range'), ['2', 2.5]);
  assert.deepEqual(values(a, 'ach_return.sec_code'), ['PPDD', 'PP']);
  const wrapped = a.filter((n) => n.rule.id === 'ach_return (wrapper)').map((n) => Object.keys(n.request.body as object));
  assert.deepEqual(wrapped[0].sort(), Object.keys((ach.base.body as any).ach_return).sort(), 'the fields beside, no wrapper');
  assert.deepEqual(wrapped[1], ['ach_returns']);
  const w = nearMissesOf(widget);
  assert.deepEqual(values(w, 'widget_url.oauth_referral_source'), ['browser', 'BROWSERR', 'BROWSE']);
  assert.deepEqual(values(w, 'widget_url.is_mobile_webview'), ['false', 0]);
  assert.deepEqual(values(w, 'widget_url.ui_message_version'), ['4', 4.5]);
  const dr = w.filter((n) => n.rule.id === 'data_request');
  assert.deepEqual(
    dr.map((n) => [n.family, (n.request.body as any).widget_url.data_request]),
    [
      ['left-out', undefined],
      ['misspelt-key', { product: ['transactions'] }],
      ['other-type', { products: 'transactions' }],
    ],
  );
  assert.ok(dr.every((n) => n.rule.tier === 'stated'));
  const m = nearMissesOf(member);
  assert.deepEqual(
    m.filter((n) => n.rule.id === 'data_request').map((n) => (n.request.body as any).data_request),
    [undefined, { product: ['transactions'] }, { products: 'transactions' }],
    'beside member, where the base put it',
  );
  const s = nearMissesOf(scope)
    .filter((n) => n.rule.id === 'authorization_code.scope')
    .map((n) => (n.request.body as any).authorization_code.scope as string);
  assert.ok(s.some((x) => x.startsWith(`user_guid:${USR}`)));
  assert.ok(s.some((x) => x.startsWith(`user-guid:usr-`)));
  assert.ok(s.some((x) => x.includes(`,member-guid:${MBR}`)));
  assert.ok(s.some((x) => x.endsWith(' read_protected')));
  assert.deepEqual(
    versionNearMisses({ version: 'v20250224' }).map((n) => [n.request.version, n.rule.tier]),
    [
      ['v2025022', 'stated'],
      ['V20250224', 'stated'],
      ['v202502240', 'stated'],
      ['20250224', 'stated'],
      ['v2025-02-24', 'stated'],
      ['v20250225', 'inferred'],
    ],
  );
  const page = pageNearMisses(1000, { query: { page: '2' } })[0];
  assert.deepEqual([page.request.query, page.rule.judged, page.rule.tier], [{ page: '2', records_per_page: '1001' }, 'page-size', 'stated']);
});

test('tiers follow the sentences: stated formats stated; institution_code inferred; skip_aggregation inferred from its deprecation; data_request stated on v20250224 only', () => {
  const tier = (operation: string, version: string, id: string) => requestRules(operation, version).find((r) => r.id === id)?.tier;
  assert.equal(tier('POST /ach_returns', 'v20260929', 'ach_return.return_code'), 'stated');
  assert.equal(tier('POST /ach_returns', 'v20260929', 'ach_return (wrapper)'), 'stated');
  assert.equal(tier('POST /users/{u}/widget_urls', 'v20260929', 'widget_url.oauth_referral_source'), 'stated');
  assert.equal(tier('POST /users/{u}/widget_urls', 'v20260929', 'widget_url.widget_type'), 'stated', 'the string type; the named list stays open');
  assert.equal(tier('POST /users/{u}/members', 'v20260929', 'member.institution_code'), 'inferred');
  assert.equal(tier('POST /users/{u}/members', 'v20111101', 'member.skip_aggregation'), 'stated');
  assert.equal(tier('POST /users/{u}/members', 'v20250224', 'member.skip_aggregation'), 'inferred');
  assert.equal(tier('POST /users/{u}/members', 'v20111101', 'data_request'), undefined);
  assert.equal(tier('POST /users/{u}/members', 'v20250224', 'data_request'), 'stated');
  assert.equal(tier('POST /users/{u}/members', 'v20260929', 'data_request'), 'inferred');
  assert.equal(tier('POST /authorization_code', 'v20260929', 'authorization_code.scope'), 'stated');
  assert.deepEqual(requestRules('GET /institutions', 'v20260929'), []);
  for (const r of BASES.flatMap((b) => requestRules(b.operation, b.base.version))) {
    assert.ok(r.rule.length > 20 && r.why.length > 20, `${r.id} quotes its sentence and says why its tier holds`);
  }
});

test('a bounded share: the first near misses of each rule', () => {
  const nms = nearMissesOf(BASES[0]);
  const two = firstPerRule(nms, 2);
  const perRule = new Map<string, number>();
  for (const n of two) perRule.set(n.rule.id, (perRule.get(n.rule.id) ?? 0) + 1);
  assert.ok([...perRule.values()].every((k) => k <= 2));
  assert.equal(perRule.size, new Set(nms.map((n) => n.rule.id)).size);
});

const STRENGTH = { stated: 2, inferred: 1, informational: 0 } as const;

test('the integration judge (requests.ts) finds each near miss at its place, with at least its tier', () => {
  const cases: Array<{ path: string; method: string; n: NearMiss }> = [
    ...BASES.flatMap((b) => nearMissesOf(b).map((n) => ({ path: b.path, method: 'POST', n }))),
    ...versionNearMisses({ version: 'v20250224' }).map((n) => ({ path: '/institutions?records_per_page=10', method: 'GET', n })),
    ...pageNearMisses(1000, { version: 'v20250224' }).map((n) => ({ path: '/institutions?records_per_page=1001', method: 'GET', n })),
  ];
  for (const { path, method, n } of cases) {
    const e: Exchange = {
      api: 'platform',
      request: {
        method,
        url: path,
        headers: {
          authorization: `Basic ${Buffer.from('client:key').toString('base64')}`,
          'accept-version': n.request.version ?? 'v20250224',
          ...(n.request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(n.request.body !== undefined ? { body: n.request.body } : {}),
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: {} },
    };
    const found = contract.check(e, { requestChecks: {} }).filter((f) => (REQUEST_CHECKS as readonly string[]).includes(f.check) && f.location === n.location);
    assert.ok(
      found.some((f) => f.tier !== undefined && STRENGTH[f.tier] >= STRENGTH[n.rule.tier]),
      `${n.what}: the judge reports ${n.location} (found ${JSON.stringify(found.map((f) => [f.check, f.tier]))})`,
    );
  }
});
