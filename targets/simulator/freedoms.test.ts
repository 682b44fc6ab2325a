/**
 * The "legitimate freedoms" variations of the catalogue (DESIGN.md, "Proving the suite"; real-service-notes.md): each does what its
 * description says, the clean simulator does not, and the stated rules still hold under
 * it. Plus the real request shapes the simulator accepts (real-service-notes, "Request
 * shapes"): top-level create-member fields, Unix-timestamp transaction filters, ACH
 * returns that must name an existing user, member and account.
 */
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSimulator } from './app.ts';
import { CATALOG, catalogEntry, type CatalogEntry } from './catalog.ts';
import { AGG_MS, PW, Sim, V_NEW, V_OLD, sleep, oauthMember } from './core-helpers.test-support.ts';
import { V1_VENDOR_MEDIA_TYPE } from './variations.ts';

const V_CURRENT = 'v20260929';

async function withVariations<T>(variations: string[], fn: (sim: Sim) => Promise<T>, settings: Record<string, unknown> = {}): Promise<T> {
  for (const v of variations) assert.equal(catalogEntry(v)?.kind, 'variation', `${v} is a catalogued variation`);
  const sim = new Sim(await buildSimulator({ variations, settings: { aggregationMs: AGG_MS, rateLimitPerSecond: 0, ...settings } }));
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}
const clean = <T>(fn: (sim: Sim) => Promise<T>, settings: Record<string, unknown> = {}) => withVariations([], fn, settings);

/** A text-MFA member polled until CHALLENGED. */
async function challenged(sim: Sim, scenario = 'CHALLENGE', version = V_OLD) {
  const user = await sim.user();
  const member = (await sim.member(user, scenario, { version })).body.member.guid as string;
  for (let i = 0; i < 200; i++) {
    const s = await sim.status(user, member, version);
    if (s.connection_status === 'CHALLENGED' && s.challenges?.length) return { user, member, status: s };
    await sleep(AGG_MS / 2);
  }
  throw new Error('never CHALLENGED');
}

test('the catalogue holds at least 40 variations, and no fault is a variation by name', () => {
  const variations = CATALOG.filter((e) => e.kind === 'variation');
  assert.ok(variations.length >= 40, `${variations.length} variations`);
  assert.equal(catalogEntry('member-create-200-on-v20250224'), undefined, 'a legitimate status is not a fault');
  const entries: readonly CatalogEntry[] = CATALOG;
  for (const e of entries) if (e.kind === 'variation') assert.equal(e.tier, undefined, `${e.name}: variations have no tier`);
  for (const e of entries.filter((x) => x.tier === 'inferred'))
    assert.ok(e.env && Object.keys(e.env).length, `${e.name}: an inferred fault names the profile env that makes it gate`);
});

test('member-create-200 / member-create-202: create member answers 200 / 202 in every version; 202 wins when both are in force', async () => {
  for (const [variations, expected] of [
    [['member-create-200'], 200],
    [['member-create-202'], 202],
    [['member-create-200', 'member-create-202'], 202],
  ] as const) {
    await withVariations([...variations], async (sim) => {
      for (const version of [V_OLD, V_NEW, V_CURRENT]) {
        const r = await sim.member(await sim.user(), 'SUCCESS', { version });
        assert.equal(r.status, expected, `${variations.join('+')} on ${version}`);
        assert.match(r.body.member.guid, /^MBR-/);
      }
    });
  }
  await clean(async (sim) => {
    assert.equal((await sim.member(await sim.user(), 'SUCCESS', { version: V_OLD })).status, 200);
    assert.equal((await sim.member(await sim.user(), 'SUCCESS', { version: V_NEW })).status, 201);
  });
});

test('member-name-null and oauth-window-uri-null-for-non-oauth: nulls where no nullness is stated; OAuth members keep their URI', async () => {
  await withVariations(['member-name-null', 'oauth-window-uri-null-for-non-oauth'], async (sim) => {
    const { user, member } = await sim.connected();
    const m = await sim.read(user, member);
    assert.equal(m.name, null);
    assert.ok('oauth_window_uri' in m && m.oauth_window_uri === null);
    const oauth = await oauthMember(sim);
    assert.match(oauth.member.oauth_window_uri, /^https?:\/\//);
    assert.equal(oauth.member.connection_status, 'PENDING');
  });
  await clean(async (sim) => {
    const { user, member } = await sim.connected();
    const m = await sim.read(user, member);
    assert.equal(typeof m.name, 'string');
    assert.ok(!('oauth_window_uri' in m));
  });
});

test('institution-text-fields-null: the help texts and URLs are null', async () => {
  await withVariations(['institution-text-fields-null'], async (sim) => {
    const inst = (await sim.req('GET', '/institutions/svcbank')).body.institution;
    for (const k of ['instructional_text', 'instructional_text_steps', 'forgot_password_url', 'forgot_username_url', 'trouble_signing_in_url'])
      assert.equal(inst[k], null, k);
    assert.equal(inst.code, 'svcbank');
  });
});

test('transaction-check-number-null: check_number null instead of absent', async () => {
  const probe = async (sim: Sim) => {
    const { user } = await sim.connected();
    return (await sim.req('GET', `/users/${user}/transactions?records_per_page=100`)).body.transactions as Record<string, unknown>[];
  };
  const varied = await withVariations(['transaction-check-number-null'], probe);
  assert.ok(varied.length > 0);
  assert.ok(varied.some((t) => 'check_number' in t && t.check_number === null));
  const plain = await clean(probe);
  assert.ok(plain.every((t) => t.check_number !== null));
});

test('account-fields-null: available_balance, is_personal, institution_guid, member_is_managed_by_user are null; balance stays', async () => {
  await withVariations(['account-fields-null'], async (sim) => {
    const { user } = await sim.connected();
    const a = (await sim.req('GET', `/users/${user}/accounts`)).body.accounts[0];
    for (const k of ['available_balance', 'is_personal', 'institution_guid', 'member_is_managed_by_user']) assert.equal(a[k], null, k);
    assert.equal(typeof a.balance, 'number');
  });
});

test('widget-user-id-null and widget-url-201: the widget URL answers 201 with user_id null', async () => {
  await withVariations(['widget-user-id-null', 'widget-url-201'], async (sim) => {
    const r = await sim.req('POST', `/users/${await sim.user()}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } });
    assert.equal(r.status, 201);
    assert.equal(r.body.widget_url.user_id, null);
    assert.match(r.body.widget_url.url, /\/_sim\/widget\//);
  });
  await clean(async (sim) => {
    const r = await sim.req('POST', `/users/${await sim.user()}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } });
    assert.equal(r.status, 200);
    assert.equal(typeof r.body.widget_url.user_id, 'string');
  });
});

test('v20111101-institutions-without-guid: no guid, created_at, is_hidden, supported_products on v20111101; v20250224 keeps them', async () => {
  await withVariations(['v20111101-institutions-without-guid'], async (sim) => {
    const old = (await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_OLD })).body.institution;
    for (const k of ['guid', 'created_at', 'is_hidden', 'supported_products']) assert.ok(!(k in old), k);
    const listed = (await sim.req('GET', '/institutions?records_per_page=10', undefined, { 'accept-version': V_OLD })).body.institutions;
    assert.ok(listed.every((i: Record<string, unknown>) => !('guid' in i)));
    const current = (await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_NEW })).body.institution;
    assert.match(current.guid, /^INS-/);
    // Endpoints, Institutions: the identifier is the code or guid; reading by guid still works.
    assert.equal((await sim.req('GET', `/institutions/${current.guid}`, undefined, { 'accept-version': V_OLD })).status, 200);
  });
});

test('no-deprecation-header / no-sunset-header: each leaves out only its own header', async () => {
  const headersOf = (sim: Sim) => sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_OLD }).then((r) => r.headers);
  await clean(async (sim) => {
    const h = await headersOf(sim);
    assert.ok(h.deprecation && h.sunset, 'clean: a deprecated version carries both');
  });
  await withVariations(['no-deprecation-header'], async (sim) => {
    const h = await headersOf(sim);
    assert.equal(h.deprecation, undefined);
    assert.ok(h.sunset);
  });
  await withVariations(['no-sunset-header'], async (sim) => {
    const h = await headersOf(sim);
    assert.ok(h.deprecation);
    assert.equal(h.sunset, undefined);
  });
});

test('no-rate-limit-headers and rate-limit-429-without-body: a 429 with neither Retry-After nor a body; still a 429', async () => {
  const flood = async (sim: Sim) => {
    for (let i = 0; i < 20; i++) {
      const r = await sim.req('GET', '/institutions/svcbank');
      if (r.status === 429) return r;
    }
    throw new Error('no 429');
  };
  await withVariations(
    ['no-rate-limit-headers', 'rate-limit-429-without-body'],
    async (sim) => {
      const r = await flood(sim);
      assert.equal(r.headers['retry-after'], undefined);
      assert.equal(r.text, '');
      assert.equal(r.headers['content-type'], undefined);
    },
    { rateLimitPerSecond: 2 },
  );
  await clean(
    async (sim) => {
      const r = await flood(sim);
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(r.body.error.code, 'rate_limited');
    },
    { rateLimitPerSecond: 2 },
  );
});

test('page-size-below-10-falls-back-to-25: every list answers 25 below 10; 10 and above are honoured', async () => {
  await withVariations(['page-size-below-10-falls-back-to-25'], async (sim) => {
    const inst = (await sim.req('GET', '/institutions?records_per_page=7')).body;
    assert.equal(inst.institutions.length, 25);
    assert.equal(inst.pagination.per_page, 25);
    assert.equal((await sim.req('GET', '/institutions?records_per_page=10')).body.institutions.length, 10);
    assert.equal((await sim.req('GET', '/categories/default?records_per_page=1')).body.categories.length, 25);
  });
});

test('page-size-above-100-falls-back-to-25: lists without a stated maximum answer 25; the stated 1000 maximum lists keep it', async () => {
  await withVariations(['page-size-above-100-falls-back-to-25'], async (sim) => {
    assert.equal((await sim.req('GET', '/categories/default?records_per_page=1000')).body.categories.length, 25);
    assert.equal((await sim.req('GET', '/categories/default?records_per_page=100')).body.categories.length, 100);
    // Limits: records_per_page maximum 1000 for institutions: 1000 honoured, 5000 capped at 1000.
    assert.equal((await sim.req('GET', '/institutions?records_per_page=1000')).body.institutions.length, 1000);
    assert.equal((await sim.req('GET', '/institutions?records_per_page=5000')).body.institutions.length, 1000);
  });
});

test('page-size-capped-at-10: lists without a stated maximum hold at most 10 a page, pagination says so and the pages hold every record; the stated 1000 maximum lists keep what they are asked', async () => {
  await withVariations(['page-size-capped-at-10'], async (sim) => {
    const first = (await sim.req('GET', '/categories/default?records_per_page=100')).body;
    assert.deepEqual([first.categories.length, first.pagination.per_page, first.pagination.total_pages], [10, 10, 12]);
    const guids = new Set<string>();
    for (let page = 1; page <= first.pagination.total_pages; page++)
      for (const c of (await sim.req('GET', `/categories/default?records_per_page=100&page=${page}`)).body.categories) guids.add(c.guid);
    assert.equal(guids.size, 119);
    assert.equal((await sim.req('GET', '/categories/default?records_per_page=5')).body.categories.length, 5, 'a smaller page than the cap is kept');
    assert.equal((await sim.req('GET', '/institutions?records_per_page=100')).body.institutions.length, 100, 'Limits: the stated 1000 maximum lists keep it');
  });
});

test('categories-page-max-25: at most 25 categories a page; the 119 defaults are all there over the pages', async () => {
  await withVariations(['categories-page-max-25'], async (sim) => {
    const first = (await sim.req('GET', '/categories/default?records_per_page=1000')).body;
    assert.equal(first.categories.length, 25);
    assert.equal(first.pagination.total_entries, 119);
    const guids = new Set<string>();
    for (let page = 1; page <= first.pagination.total_pages; page++) {
      for (const c of (await sim.req('GET', `/categories/default?records_per_page=1000&page=${page}`)).body.categories) guids.add(c.guid);
    }
    assert.equal(guids.size, 119);
    assert.equal((await sim.req('GET', '/institutions?records_per_page=1000')).body.institutions.length, 1000, 'other lists unchanged');
  });
});

test('v1-vendor-media-type: v20111101 JSON answers carry application/vnd.svc.api.v1+json; v20250224 stays application/json', async () => {
  await withVariations(['v1-vendor-media-type'], async (sim) => {
    const old = await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_OLD });
    assert.match(String(old.headers['content-type']), new RegExp(`^${V1_VENDOR_MEDIA_TYPE.replace(/[.+]/g, '\\$&')}`));
    assert.equal(old.body.institution.code, 'svcbank');
    const fresh = await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_NEW });
    assert.match(String(fresh.headers['content-type']), /^application\/json/);
  });
});

test('upper-case-challenge-types: TEXT, OPTIONS, IMAGE_DATA, IMAGE_OPTIONS; answering still works', async () => {
  await withVariations(['upper-case-challenge-types'], async (sim) => {
    const seen: Record<string, string> = {};
    for (const scenario of ['CHALLENGE', 'OPTIONS', 'IMAGE', 'IMAGE_OPTIONS']) seen[scenario] = (await challenged(sim, scenario)).status.challenges[0].type;
    assert.deepEqual(seen, { CHALLENGE: 'TEXT', OPTIONS: 'OPTIONS', IMAGE: 'IMAGE_DATA', IMAGE_OPTIONS: 'IMAGE_OPTIONS' });
    const { user, member, status } = await challenged(sim, 'IMAGE');
    await sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: [{ guid: status.challenges[0].guid, value: 'correct' }] } });
    assert.equal((await sim.settle(user, member)).connection_status, 'CONNECTED');
  });
});

test('intermediate-connection-statuses: CREATED after create, RESUMED after an answer, then the end state', async () => {
  await withVariations(['intermediate-connection-statuses'], async (sim) => {
    const user = await sim.user();
    const created = await sim.member(user, 'SUCCESS');
    assert.equal(created.body.member.connection_status, 'CREATED');
    assert.equal((await sim.settle(user, created.body.member.guid)).connection_status, 'CONNECTED');
    const denied = await sim.member(user, 'LOCKED');
    assert.equal(denied.body.member.connection_status, 'CREATED');
    assert.equal((await sim.settle(user, denied.body.member.guid)).connection_status, 'DENIED');
    // The create's answer is not a read: a first status poll after the whole job still shows
    // CREATED (red when the write's answer released the hold and the member turned CONNECTED
    // half-way through the job), and that read releases it.
    const late = (await sim.member(user, 'SUCCESS')).body.member.guid as string;
    await sleep(AGG_MS * 3);
    assert.equal((await sim.req('GET', `/users/${user}/members/${late}/status`)).body.member.connection_status, 'CREATED');
    assert.equal((await sim.settle(user, late)).connection_status, 'CONNECTED');
    const listed = (await sim.member(user, 'SUCCESS')).body.member.guid as string;
    await sleep(AGG_MS * 3);
    const list = (await sim.req('GET', `/users/${user}/members`)).body.members as { guid: string; connection_status: string }[];
    assert.equal(list.find((m) => m.guid === listed)?.connection_status, 'CREATED', 'a list read shows it too');
    const c = await challenged(sim, 'CHALLENGE');
    const resumed = await sim.req('PUT', `/users/${c.user}/members/${c.member}/resume`, {
      member: { challenges: [{ guid: c.status.challenges[0].guid, value: 'correct' }] },
    });
    assert.equal(resumed.body.member.connection_status, 'RESUMED');
    // States and transitions: OAuth members are still created PENDING.
    assert.equal((await oauthMember(sim)).member.connection_status, 'PENDING');
  });
});

test('more-supported-products: statements, investments and rewards listed from v20250224', async () => {
  await withVariations(['more-supported-products'], async (sim) => {
    const inst = (await sim.req('GET', '/institutions/svcbank', undefined, { 'accept-version': V_NEW })).body.institution;
    for (const p of ['statements', 'investments', 'rewards']) assert.ok(inst.supported_products.includes(p), p);
  });
});

test('error-body-other-shape and error-body-empty: another shape, or nothing; the status is unchanged', async () => {
  const missing = '/users/USR-00000000-0000-4000-8000-000000000000';
  await withVariations(['error-body-other-shape'], async (sim) => {
    const r = await sim.req('GET', missing);
    assert.equal(r.status, 404);
    assert.equal(r.body.error, undefined);
    assert.equal(r.body.errors[0].status, '404');
    assert.ok(r.body.errors[0].detail.length > 0);
  });
  await withVariations(['error-body-empty'], async (sim) => {
    const r = await sim.req('GET', missing);
    assert.equal(r.status, 404);
    assert.equal(r.text, '');
    assert.equal(r.headers['content-type'], undefined);
    assert.equal((await sim.req('GET', '/institutions/svcbank')).body.institution.code, 'svcbank', 'success bodies unchanged');
  });
});

test('bad-request-400 / -404 / -422: refused input answers that status (422 over 404 over 400); stated statuses are untouched', async () => {
  const badJson = (sim: Sim) => sim.req('POST', '/users', '{not json');
  const unprocessable = async (sim: Sim) => {
    const { user, member } = await sim.connected();
    return sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: [] } });
  };
  for (const [variations, expected] of [
    [['bad-request-400'], 400],
    [['bad-request-404'], 404],
    [['bad-request-422'], 422],
    [['bad-request-400', 'bad-request-404', 'bad-request-422'], 422],
    [['bad-request-400', 'bad-request-404'], 404],
  ] as const) {
    await withVariations([...variations], async (sim) => {
      const r = await badJson(sim);
      assert.equal(r.status, expected, variations.join('+'));
      assert.equal(r.body.error.status, expected);
      assert.equal((await unprocessable(sim)).status, expected);
      assert.equal(
        (await sim.req('GET', '/institutions/no-such-institution/credentials')).status,
        404,
        'Errors: 404 on the credentials of an invalid identifier',
      );
      assert.equal((await sim.req('GET', '/institutions')).status, 200, 'success unchanged');
    });
  }
  await clean(async (sim) => {
    assert.equal((await badJson(sim)).status, 400);
    assert.equal((await unprocessable(sim)).status, 422);
  });
});

test('data-request-optional-on-v20260929: v20260929 accepts a member and a widget URL without data_request; v20250224 still refuses', async () => {
  const bare = {
    member: {
      institution_code: 'svcbank',
      credentials: [
        { field_name: 'username', value: 'test_user' },
        { field_name: 'password', value: PW.SUCCESS },
      ],
    },
  };
  await withVariations(['data-request-optional-on-v20260929'], async (sim) => {
    const user = await sim.user();
    assert.equal((await sim.req('POST', `/users/${user}/members`, bare, { 'accept-version': V_CURRENT })).status, 201);
    assert.equal(
      (await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { 'accept-version': V_CURRENT })).status,
      200,
    );
    assert.equal((await sim.req('POST', `/users/${user}/members`, bare, { 'accept-version': V_NEW })).status, 400);
    assert.equal(
      (await sim.req('POST', `/users/${user}/widget_urls`, { widget_url: { widget_type: 'connect_widget' } }, { 'accept-version': V_NEW })).status,
      400,
    );
  });
  await clean(async (sim) => {
    assert.equal((await sim.req('POST', `/users/${await sim.user()}/members`, bare, { 'accept-version': V_CURRENT })).status, 400);
  });
});

test('identify-200-when-idle: 200 when nothing runs; 202 while identifying and 409 while another job runs stay', async () => {
  await withVariations(['identify-200-when-idle'], async (sim) => {
    const { user, member } = await sim.connected();
    assert.equal((await sim.req('POST', `/users/${user}/members/${member}/identify`)).status, 200);
    assert.equal((await sim.req('POST', `/users/${user}/members/${member}/identify`)).status, 202);
    await sim.settle(user, member);
    await sim.req('POST', `/users/${user}/members/${member}/extend_history`);
    assert.equal((await sim.req('POST', `/users/${user}/members/${member}/identify`)).status, 409);
  });
});

test('delete-200-with-body: DELETE answers 200 with a JSON body instead of 204; the resource is gone', async () => {
  await withVariations(['delete-200-with-body'], async (sim) => {
    const { user, member } = await sim.connected();
    const r = await sim.req('DELETE', `/users/${user}/members/${member}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { deleted: true });
    assert.equal((await sim.req('GET', `/users/${user}/members/${member}`)).status, 404);
  });
  await clean(async (sim) => {
    const { user, member } = await sim.connected();
    const r = await sim.req('DELETE', `/users/${user}/members/${member}`);
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
  });
});

test('slow-aggregation: is_being_aggregated stays true four times as long', async () => {
  // The simulator's timers run on node:test's mock clock: what is read after three job
  // lengths depends on the durations the simulator chose, never on how fast this machine is.
  const busyAfter = (variations: string[]) =>
    withVariations(
      variations,
      async (sim) => {
        const user = await sim.user();
        mock.timers.enable({ apis: ['setTimeout'] });
        try {
          const guid = (await sim.member(user, 'SUCCESS')).body.member.guid;
          mock.timers.tick(120);
          return (await sim.read(user, guid)).is_being_aggregated;
        } finally {
          mock.timers.reset();
        }
      },
      { aggregationMs: 40 },
    );
  assert.equal(await busyAfter(['slow-aggregation']), true, 'a job of 160 ms still runs after 120 ms');
  assert.equal(await busyAfter([]), false, 'a job of 40 ms has ended after 120 ms');
});

test('aggregating-while-challenged: CHALLENGED reads is_being_aggregated true; clean reads false', async () => {
  assert.equal(await withVariations(['aggregating-while-challenged'], async (sim) => (await challenged(sim)).status.is_being_aggregated), true);
  assert.equal(await clean(async (sim) => (await challenged(sim)).status.is_being_aggregated), false);
});

// ---- request shapes (real-service-notes, "Request shapes") ---------------------------------

test('create member accepts data_request, client_redirect_url, the webview scheme and referral_source beside member', async () => {
  await clean(async (sim) => {
    const user = await sim.user();
    const r = await sim.req(
      'POST',
      `/users/${user}/members`,
      {
        member: {
          institution_code: 'svcbank',
          credentials: [
            { field_name: 'username', value: 'test_user' },
            { field_name: 'password', value: PW.SUCCESS },
          ],
        },
        data_request: { products: ['transactions'] },
        client_redirect_url: 'https://app.example/done',
        enable_app2app: false,
        referral_source: 'APP',
        ui_message_webview_url_scheme: 'myapp',
      },
      { 'accept-version': V_NEW },
    );
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.member.data_request, { products: ['transactions'] });
    // The top-level scheme steers the OAuth redirect like the member-level one.
    const oauth = await sim.req(
      'POST',
      `/users/${user}/members`,
      {
        member: { institution_code: 'svc_bank_oauth', is_oauth: true },
        data_request: { products: ['transactions'] },
        client_redirect_url: 'https://app.example/done?keep=1',
      },
      { 'accept-version': V_NEW },
    );
    assert.equal(oauth.status, 201, oauth.text);
    const m = sim.app.sim.collection<{ clientRedirectUrl: string | null }>('members').get(oauth.body.member.guid);
    assert.equal(m?.clientRedirectUrl, 'https://app.example/done?keep=1');
    // Inside member still works.
    assert.equal((await sim.member(user, 'SUCCESS', { version: V_NEW })).status, 201);
    // A malformed top-level value is refused like a member-level one.
    assert.equal(
      (
        await sim.req(
          'POST',
          `/users/${user}/members`,
          { member: { institution_code: 'svc_bank_oauth', is_oauth: true }, data_request: { products: ['transactions'] }, client_redirect_url: 'not a url' },
          { 'accept-version': V_NEW },
        )
      ).status,
      400,
    );
  });
});

test('transaction filters take Unix timestamp seconds as well as ISO 8601 (from/to_date, created/updated)', async () => {
  await clean(async (sim) => {
    const { user } = await sim.connected();
    const all = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000`)).body.transactions as { date: string; created_at: string }[];
    assert.ok(all.length > 2);
    const day = [...all.map((t) => t.date)].sort()[Math.floor(all.length / 2)];
    const epochOfDay = Date.parse(`${day}T00:00:00Z`) / 1000;
    const byIso = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&from_date=${day}`)).body.transactions.length;
    const byEpoch = (await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&from_date=${epochOfDay}`)).body.transactions.length;
    assert.equal(byEpoch, byIso);
    assert.ok(byIso > 0 && byIso < all.length);
    const future = Math.floor(Date.now() / 1000) + 86_400 * 365;
    assert.equal((await sim.req('GET', `/users/${user}/transactions?from_created_at=${future}`)).body.transactions.length, 0);
    assert.equal((await sim.req('GET', `/users/${user}/transactions?records_per_page=1000&to_created_at=${future}`)).body.transactions.length, all.length);
    assert.equal((await sim.req('GET', `/users/${user}/transactions?from_updated_at=${future}`)).body.transactions.length, 0);
    assert.equal((await sim.req('GET', `/users/${user}/transactions?from_date=yesterday`)).status, 400);
  });
});

test('ACH return create: formats first (400), then the named user, member and account must exist and belong together (422)', async () => {
  await clean(async (sim) => {
    const { user, member } = await sim.connected();
    const account = (await sim.req('GET', `/users/${user}/members/${member}/accounts`)).body.accounts[0].guid;
    const good = {
      id: 'ach-1',
      user_guid: user,
      member_guid: member,
      account_guid: account,
      return_code: 'R01',
      returned_at: '2026-01-02T03:04:05+00:00',
      ach_initiated_at: '2026-01-01T00:00:00Z',
      sec_code: 'PPD',
      account_number_last_four: '1234',
      transaction_amount: 12.5,
      transaction_amount_range: 2,
    };
    const post = (o: Record<string, unknown>) => sim.req('POST', '/ach_returns', { ach_return: o });
    assert.equal((await post(good)).status, 200);
    const ghost = {
      user_guid: 'USR-00000000-0000-4000-8000-000000000000',
      member_guid: 'MBR-00000000-0000-4000-8000-000000000000',
      account_guid: 'ACT-00000000-0000-4000-8000-000000000000',
    };
    for (const [field, value] of Object.entries(ghost)) {
      const r = await post({ ...good, id: `ghost-${field}`, [field]: value });
      assert.equal(r.status, 422, field);
      assert.match(r.body.error.message, new RegExp(field));
    }
    const other = await sim.connected();
    assert.equal((await post({ ...good, id: 'cross', member_guid: other.member })).status, 422, 'a member of another user');
    const malformed: Record<string, unknown> = {
      returned_at: '2026-01-02',
      ach_initiated_at: '2026-01-01T00:00:00',
      member_guid: 'MB-1',
      user_guid: 'user',
      account_guid: 'ACT-1',
      transaction_amount: '12.5',
      transaction_amount_range: 2.5,
      return_code: 'R1',
      sec_code: 'PP',
      account_number_last_four: '123',
    };
    for (const [field, value] of Object.entries(malformed)) {
      const r = await post({ ...good, id: `bad-${field}`, [field]: value });
      assert.equal(r.status, 400, field);
      assert.match(r.body.error.message, new RegExp(field));
    }
  });
});

// ---- latency and identifiers (no verdict depends on timing; Versioning: opaque strings may change length) ----

test('latency-100ms: a request that starts a job and a read while it runs answer 100 ms late; a read with no job runs on time', async () => {
  await withVariations(
    ['latency-100ms'],
    async (sim) => {
      const { user, member } = await sim.connected();
      let t = performance.now();
      await sim.read(user, member);
      assert.ok(performance.now() - t < 90, 'a read while no job runs is not delayed');
      t = performance.now();
      const r = await sim.req('POST', `/users/${user}/members/${member}/identify`);
      assert.equal(r.status, 202);
      assert.ok(performance.now() - t >= 95, `identify that started a job answered after ${Math.round(performance.now() - t)} ms`);
    },
    { aggregationMs: 1_000 },
  );
});

test('latency-3s is catalogued for the job starts of the identify rules only (its 3 s is not waited out here)', () => {
  const entry = catalogEntry('latency-3s')!;
  assert.equal(entry.kind, 'variation');
  assert.deepEqual([...entry.suites].sort(), ['@identify', '@members']);
});

test('longer-identifiers: unstated identifier shapes answer longer and reformatted, stated shapes keep theirs, requests take both forms', async () => {
  const grant = 'GNT-1f0c5e4a-0000-4000-8000-000000000001';
  const grantee = 'CLT-1f0c5e4a-0000-4000-8000-000000000002';
  await withVariations(['longer-identifiers'], async (sim) => {
    const short = await sim.req('GET', `/data_exchange/grantee/${grantee}/grants`);
    assert.equal(short.status, 200);
    const g = short.body.grants.find((x: { guid: string }) => x.guid === grant.replace('GNT-', 'GNT-L'));
    assert.ok(g, `the grant answered as GNT-L…: ${JSON.stringify(short.body.grants.map((x: { guid: string }) => x.guid))}`);
    assert.ok(!JSON.stringify(short.body).includes(grant), 'the old form is not a part of the new one');
    const long = await sim.req('GET', `/data_exchange/grantee/${grantee.replace('CLT-', 'CLT-L')}/grants`);
    assert.deepEqual(long.body.grants, short.body.grants, 'the longer form names the same grantee');
    const user = await sim.user();
    assert.match(user, /^USR-[0-9a-f-]{36}$/, 'USR-<uuid> is stated and kept');
  });
});

test('list-order-varies: two reads of a list agree in content, not in order; the favourites keep theirs; a walk still sees each record once', async () => {
  await withVariations(['list-order-varies'], async (sim) => {
    const codes = async (path: string) => ((await sim.req('GET', path)).body.institutions as Array<{ code: string }>).map((i) => i.code);
    const first = await codes('/institutions?records_per_page=20');
    const second = await codes('/institutions?records_per_page=20');
    assert.notDeepEqual(second, first, 'the second read is in another order');
    assert.deepEqual([...second].sort(), [...first].sort(), 'the same records');
    const favourites = await codes('/institutions/favorites');
    assert.deepEqual(await codes('/institutions/favorites'), favourites, 'favourites are ordered by popularity, read after read');
    const walked: string[] = [];
    for (let page = 1; page <= 3; page++) walked.push(...(await codes(`/institutions?records_per_page=10&page=${page}`)));
    const inOrder = await clean(async (plain) => {
      const out: string[] = [];
      for (let page = 1; page <= 3; page++)
        out.push(
          ...((await plain.req('GET', `/institutions?records_per_page=10&page=${page}`)).body.institutions as Array<{ code: string }>).map((i) => i.code),
        );
      return out;
    });
    assert.deepEqual([...walked].sort(), [...inOrder].sort());
  });
});
