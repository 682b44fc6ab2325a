/**
 * Users, members, scenarios, MFA, jobs, throttle, refresh, webhooks of the simulator core.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGG_MS, PW, type Sim, V_NEW, V_OLD, sleep, withSim } from './core-helpers.test-support.ts';

test('users: create, read by guid and id, list, update, delete; duplicate id 409; unknown 404', () =>
  withSim([], async (sim) => {
    const c = await sim.req('POST', '/users', { user: { id: 'partner-1', email: 'a@example.com', metadata: '{"k":1}' } });
    assert.equal(c.status, 200);
    assert.match(c.body.user.guid, /^USR-[0-9a-f-]{36}$/);
    assert.equal((await sim.req('GET', '/users/partner-1')).body.user.guid, c.body.user.guid);
    assert.equal((await sim.req('POST', '/users', { user: { id: 'partner-1' } })).status, 409);
    const u = await sim.req('PUT', `/users/${c.body.user.guid}`, { user: { is_disabled: true } });
    assert.equal(u.body.user.is_disabled, true);
    const list = await sim.req('GET', '/users?records_per_page=1');
    assert.equal(list.body.users.length, 1);
    assert.equal(list.body.pagination.total_entries, 1);
    assert.equal((await sim.req('DELETE', `/users/${c.body.user.guid}`)).status, 204);
    const gone = await sim.req('GET', `/users/${c.body.user.guid}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'not_found');
  }));

test('bad input answers a 4xx with the error body, never a 5xx', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', '/users', '{"user": ', 400],
      ['POST', '/users', { nope: {} }, 400],
      ['POST', '/users', { user: { email: 5 } }, 400],
      ['POST', `/users/${user}/members`, { institution_code: 'svcbank' }, 400],
      ['POST', `/users/${user}/members`, { member: { institution_code: 42 } }, 400],
      ['POST', `/users/${user}/members`, { member: { institution_code: 'svcbank', credentials: 'x' } }, 400],
      ['POST', `/users/${user}/members`, { member: { institution_code: 'svcbank', credentials: [{ field_name: 'nope', value: 'x' }] } }, 400],
      ['POST', `/users/${user}/members`, { member: { institution_code: 'no_such_bank', credentials: [] } }, 404],
      ['POST', `/users/${user}/members`, { member: { institution_code: 'svcbank' } }, 400],
      ['POST', `/users/${user}/members`, { member: { institution_code: 'svcbank', is_oauth: true } }, 400],
      ['GET', `/users/${user}/members/MBR-nope`, undefined, 404],
      ['GET', '/users/USR-nope/members', undefined, 404],
      ['PUT', `/users/${user}/members/MBR-nope/resume`, { member: { challenges: [] } }, 404],
      ['POST', `/users/${user}/members/MBR-nope/aggregate?include_holdings=maybe`, undefined, 404],
      ['GET', `/users/${user}/members?page=-1`, undefined, 400],
    ];
    for (const [method, url, body, status] of cases) {
      const r = await sim.req(method, url, body);
      assert.equal(r.status, status, `${method} ${url} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
      assert.equal(typeof r.body.error.message, 'string');
      assert.equal(r.body.error.status, status);
    }
    const { member } = await (async () => {
      const r = await sim.member(user, 'SUCCESS');
      return { member: r.body.member.guid };
    })();
    const bad = await sim.req('POST', `/users/${user}/members/${member}/aggregate?include_holdings=maybe`);
    assert.equal(bad.status, 400);
    const resume = await sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: 'x' } });
    assert.equal(resume.status, 400);
  }));

test('success scenario: CONNECTED while aggregating, aggregated_at null first, then accounts and transactions', () =>
  withSim([], async (sim) => {
    const user = await sim.user({ id: 'u-1' });
    const r = await sim.member(user, 'SUCCESS', { extra: { id: 'm-1', metadata: 'meta' } });
    assert.equal(r.status, 200);
    const m = r.body.member;
    assert.match(m.guid, /^MBR-/);
    assert.equal(m.connection_status, 'CONNECTED');
    assert.equal(m.is_being_aggregated, true);
    assert.equal(m.aggregated_at, null);
    assert.equal(m.user_id, 'u-1');
    assert.equal(m.id, 'm-1');
    assert.equal(m.is_oauth, false);
    const done = await sim.settle(user, m.guid);
    assert.equal(done.connection_status, 'CONNECTED');
    assert.equal(done.is_being_aggregated, false);
    assert.equal(typeof done.aggregated_at, 'string');
    assert.equal(typeof done.successfully_aggregated_at, 'string');
    const accounts = (await sim.req('GET', `/users/${user}/members/${m.guid}/accounts`)).body.accounts;
    assert.ok(accounts.length >= 3);
    assert.match(accounts[0].guid, /^ACT-/);
    const txns = (await sim.req('GET', `/users/${user}/transactions?records_per_page=100`)).body.transactions;
    assert.ok(txns.length > 5);
    assert.ok(txns.every((t: any) => t.category_guid && t.top_level_category_guid && t.user_guid === user));
  }));

test('every password scenario reaches its end state', () =>
  withSim([], async (sim) => {
    const expected: Record<string, string> = {
      SUCCESS: 'CONNECTED',
      CHALLENGE: 'CHALLENGED',
      OPTIONS: 'CHALLENGED',
      IMAGE: 'CHALLENGED',
      IMAGE_OPTIONS: 'CHALLENGED',
      BAD_REQUEST: 'HALTED',
      UNAUTHORIZED: 'DENIED',
      INVALID: 'DENIED',
      LOCKED: 'DENIED',
      SERVER_ERROR: 'HALTED',
      UNAVAILABLE: 'HALTED',
      'not-a-scenario-password': 'DENIED',
    };
    const user = await sim.user();
    for (const [scenario, end] of Object.entries(expected)) {
      const r = await sim.member(user, scenario);
      assert.equal(r.body.member.is_being_aggregated, true, scenario);
      const m = await sim.settle(user, r.body.member.guid);
      assert.equal(m.connection_status, end, scenario);
      if (end === 'CHALLENGED') assert.equal(m.aggregated_at, null, scenario);
      else assert.notEqual(m.aggregated_at, null, scenario);
      assert.equal(m.successfully_aggregated_at !== null, end === 'CONNECTED', scenario);
    }
  }));

async function challenged(sim: Sim, scenario: string, version = V_OLD) {
  const user = await sim.user();
  const r = await sim.member(user, scenario, { version });
  await sim.settle(user, r.body.member.guid);
  return { user, member: r.body.member.guid as string, status: await sim.status(user, r.body.member.guid, version) };
}

async function answer(sim: Sim, user: string, member: string, challenges: any[], value: (c: any) => string) {
  return sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: challenges.map((c) => ({ guid: c.guid, value: value(c) })) } });
}

test('text MFA: first challenge, follow-up challenge, then CONNECTED', () =>
  withSim([], async (sim) => {
    const { user, member, status } = await challenged(sim, 'CHALLENGE');
    assert.equal(status.connection_status, 'CHALLENGED');
    assert.equal(status.challenges.length, 1);
    assert.equal(status.challenges[0].type, 'text');
    const first = await answer(sim, user, member, status.challenges, () => 'correct');
    assert.equal(first.status, 202);
    await sim.settle(user, member);
    const second = await sim.status(user, member);
    assert.equal(second.connection_status, 'CHALLENGED');
    assert.notEqual(second.challenges[0].guid, status.challenges[0].guid);
    await answer(sim, user, member, second.challenges, () => 'correct');
    const done = await sim.settle(user, member);
    assert.equal(done.connection_status, 'CONNECTED');
    assert.notEqual(done.successfully_aggregated_at, null);
    const list = await sim.req('GET', `/users/${user}/members/${member}/challenges`);
    assert.deepEqual(list.body.challenges, []);
  }));

test('wrong MFA answer ends in DENIED; resume when not challenged answers 422; missing answer 400', () =>
  withSim([], async (sim) => {
    const { user, member, status } = await challenged(sim, 'CHALLENGE');
    assert.equal((await sim.req('PUT', `/users/${user}/members/${member}/resume`, { member: { challenges: [] } })).status, 400);
    const r = await answer(sim, user, member, status.challenges, () => 'wrong');
    assert.equal(r.status, 202);
    assert.equal((await sim.status(user, member)).connection_status, 'DENIED');
    assert.equal((await answer(sim, user, member, status.challenges, () => 'correct')).status, 422);
  }));

test('options, image and image_options MFA: correct answers connect; option guids from v20250224 only', () =>
  withSim([], async (sim) => {
    for (const [scenario, type] of [
      ['OPTIONS', 'options'],
      ['IMAGE', 'image'],
      ['IMAGE_OPTIONS', 'image_options'],
    ]) {
      const old = await challenged(sim, scenario, V_OLD);
      assert.equal(old.status.challenges[0].type, type);
      if (type !== 'image')
        assert.ok(
          old.status.challenges[0].options.every((o: any) => !('guid' in o)),
          scenario,
        );
      else assert.match(old.status.challenges[0].image_data, /^data:image\/png;base64,/);
      const neu = await challenged(sim, scenario, V_NEW);
      if (type !== 'image')
        assert.ok(
          neu.status.challenges[0].options.every((o: any) => typeof o.guid === 'string'),
          scenario,
        );
      // Options are answered by the correct option's value (or its guid on v20250224).
      const pick = (c: any) => (c.options ? (c.options.find((o: any) => o.label === 'correct').guid ?? 'correct') : 'correct');
      await answer(sim, neu.user, neu.member, neu.status.challenges, pick);
      assert.equal((await sim.settle(neu.user, neu.member)).connection_status, 'CONNECTED', scenario);
      await answer(sim, old.user, old.member, old.status.challenges, () => 'correct');
      assert.equal((await sim.settle(old.user, old.member)).connection_status, 'CONNECTED', scenario);
    }
  }));

test('versions: 200 on v20111101, 201 with data_request on v20250224, 400 without; skip_aggregation honoured before v20250224', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    assert.equal((await sim.member(user, 'SUCCESS', { version: V_OLD })).status, 200);
    const created = await sim.member(user, 'SUCCESS', { version: V_NEW });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.member.data_request, { products: ['transactions', 'account_verification'] });
    assert.equal((await sim.member(user, 'SUCCESS', { version: 'v20260929' })).status, 201);
    const missing = await sim.req(
      'POST',
      `/users/${user}/members`,
      { member: { institution_code: 'svcbank', credentials: [{ field_name: 'password', value: PW.SUCCESS }] } },
      { 'accept-version': V_NEW },
    );
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /data_request/);
    const skipped = await sim.member(user, 'SUCCESS', { extra: { skip_aggregation: true } });
    assert.equal(skipped.body.member.is_being_aggregated, false);
    assert.equal(skipped.body.member.connection_status, 'PENDING');
    const ignored = await sim.member(user, 'SUCCESS', { version: V_NEW, extra: { skip_aggregation: true } });
    assert.equal(ignored.body.member.is_being_aggregated, true);
  }));

test('identify: 202 to start, 202 while identifying, 409 while aggregating or extending history; owners after', () =>
  withSim([], async (sim) => {
    const { user, member } = await sim.connected();
    const base = `/users/${user}/members/${member}`;
    assert.equal((await sim.req('POST', `${base}/identify`)).status, 202);
    assert.equal((await sim.req('POST', `${base}/identify`)).status, 202);
    await sim.settle(user, member);
    const owners = (await sim.req('GET', `${base}/account_owners`)).body.account_owners;
    assert.ok(owners.length > 0);
    assert.equal((await sim.req('POST', `${base}/aggregate`)).status, 202);
    const busy = await sim.req('POST', `${base}/identify`);
    assert.equal(busy.status, 409);
    assert.equal(busy.body.error.code, 'conflict');
    await sim.settle(user, member);
    assert.equal((await sim.req('POST', `${base}/extend_history`)).status, 202);
    assert.equal((await sim.req('POST', `${base}/identify`)).status, 409);
    await sim.settle(user, member);
  }));

test('throttle: a second standard aggregation is throttled (429), other jobs are not; clock moves it on', () =>
  withSim([], async (sim) => {
    const { user, member } = await sim.connected();
    const base = `/users/${user}/members/${member}`;
    const first = await sim.req('POST', `${base}/aggregate?include_holdings=true&include_transactions=true`);
    assert.equal(first.status, 202);
    assert.equal(first.body.member.is_being_aggregated, true);
    await sim.settle(user, member);
    const second = await sim.req('POST', `${base}/aggregate`);
    assert.equal(second.status, 429);
    assert.equal(second.body.error.code, 'aggregation_throttled');
    for (const job of ['extend_history', 'verify', 'identify']) {
      assert.equal((await sim.req('POST', `${base}/${job}`)).status, 202, job);
      await sim.settle(user, member);
    }
    sim.app.sim.clock.advance(3_600_001);
    assert.equal((await sim.req('POST', `${base}/aggregate`)).status, 202);
    await sim.settle(user, member);
  }));

test('aggregate include_transactions=false adds no transactions; extend_history adds older ones', () =>
  withSim([], async (sim) => {
    const { user, member } = await sim.connected();
    const count = async () => (await sim.req('GET', `/users/${user}/members/${member}/transactions?records_per_page=1000`)).body.transactions.length;
    const before = await count();
    await sim.req('POST', `/users/${user}/members/${member}/aggregate?include_transactions=false`);
    await sim.settle(user, member);
    assert.equal(await count(), before);
    await sim.req('POST', `/users/${user}/members/${member}/extend_history`);
    await sim.settle(user, member);
    assert.ok((await count()) > before);
    assert.ok(sim.webhooks.events.some((e) => e.type === 'history'));
  }));

test('24-hour refresh on the simulator clock, not for disabled users', () =>
  withSim([], async (sim) => {
    const a = await sim.connected();
    const b = await sim.connected();
    await sim.req('PUT', `/users/${b.user}`, { user: { is_disabled: true } });
    const before = sim.webhooks.events.filter((e) => e.type === 'aggregation' && (e.body.aggregation as any).is_background).length;
    assert.equal(before, 0);
    const clock = await sim.app.inject({ method: 'POST', url: '/_sim/clock', payload: { advance_ms: 86_400_000 + 1000 } });
    assert.equal(clock.statusCode, 200);
    await sleep(AGG_MS * 4);
    await sim.settle(a.user, a.member);
    const bg = sim.webhooks.events.filter((e) => e.type === 'aggregation' && (e.body.aggregation as any).is_background);
    assert.equal(bg.length, 1);
    assert.equal((bg[0].body.aggregation as any).member_guid, a.member);
    assert.equal((await sim.app.inject({ method: 'POST', url: '/_sim/refresh' })).json().started, 0);
  }));

test("a user's clock: POST /_sim/clock {user_guid, advance_ms} moves that user's instants only", () =>
  withSim([], async (sim) => {
    const a = await sim.connected();
    const b = await sim.connected();
    const aggregatedAt = async (x: { user: string; member: string }) =>
      (await sim.req('GET', `/users/${x.user}/members/${x.member}`)).body.member.aggregated_at as string;
    const [a0, b0] = [await aggregatedAt(a), await aggregatedAt(b)];
    const moved = await sim.app.inject({ method: 'POST', url: '/_sim/clock', payload: { user_guid: a.user, advance_ms: 3_000 } });
    assert.equal(moved.statusCode, 200);
    for (const payload of [{ user_guid: 'USR-nope', advance_ms: 1 }, { user_guid: a.user, advance_ms: -1 }, { user_guid: a.user }]) {
      assert.equal((await sim.app.inject({ method: 'POST', url: '/_sim/clock', payload })).statusCode, 400, JSON.stringify(payload));
    }
    // Both aggregate again (the connection opened no throttle period): only a's instants move by
    // the 3 s. Judged against the shared clock read around the aggregations, not against time
    // measured here: a runs at least 3 s ahead of it, b never ahead of it, however long they take.
    const start = sim.app.sim.clock.nowMs();
    for (const x of [a, b]) {
      assert.equal((await sim.req('POST', `/users/${x.user}/members/${x.member}/aggregate`)).status, 202);
      await sim.settle(x.user, x.member);
    }
    const end = sim.app.sim.clock.nowMs();
    assert.ok(Date.parse(await aggregatedAt(a)) >= Math.floor(start / 1000) * 1000 + 3_000, 'a runs 3 s ahead of the shared clock');
    assert.ok(Date.parse(await aggregatedAt(b)) <= end, "b's instants never run ahead of the shared clock");
    assert.ok(Date.parse(await aggregatedAt(a)) > Date.parse(a0) && Date.parse(await aggregatedAt(b)) >= Date.parse(b0));
    // The 24-hour refresh judges a's member on a's clock.
    sim.app.sim.clock.advanceUser(a.user, 86_400_000);
    assert.equal((await sim.app.inject({ method: 'POST', url: '/_sim/refresh' })).json().started, 1);
  }));

test('webhooks: member version rises, X-CALLBACK-PAYLOAD carried, SVC-SKIP-WEBHOOK skips; _at epoch seconds', () =>
  withSim([], async (sim) => {
    const user = await sim.user({ id: 'partner-u' });
    const r = await sim.member(user, 'SUCCESS', { headers: { 'x-callback-payload': 'cb-123' } });
    const guid = r.body.member.guid;
    await sim.settle(user, guid);
    const memberEvents = sim.webhooks.events.filter((e) => e.type === 'member' && (e.body.member as any).guid === guid);
    assert.ok(memberEvents.length >= 3);
    const versions = memberEvents.map((e) => e.body.version as number);
    assert.deepEqual(
      versions,
      [...versions].sort((x, y) => x - y),
    );
    assert.equal(new Set(versions).size, versions.length);
    const last = memberEvents.at(-1)!.body.member as any;
    assert.equal(last.x_callback_payload, 'cb-123');
    assert.equal(last.is_oauth, false);
    assert.equal(last.is_being_aggregated, false);
    assert.ok(Number.isInteger(last.aggregated_at) && last.aggregated_at < 1e11);
    const mdu = sim.webhooks.events.find((e) => e.type === 'member_data_updated')!.body.member_data_updated as any;
    assert.equal(mdu.x_callback_payload, 'cb-123');
    const agg = sim.webhooks.events.find((e) => e.type === 'aggregation')!.body.aggregation as any;
    assert.match(agg.job_guid, /^JOB-/);
    assert.equal(agg.is_background, false);
    assert.equal(agg.user_id, 'partner-u');
    assert.match(agg.completed_on, /^\d{4}-\d{2}-\d{2}$/);
    const skipped = sim.webhooks.skipped.length;
    await sim.req('PUT', `/users/${user}/members/${guid}`, { member: { metadata: 'x' } }, { 'svc-skip-webhook': 'true' });
    assert.equal(sim.webhooks.skipped.length, skipped + 1);
    await sim.req('DELETE', `/users/${user}/members/${guid}`, undefined, { 'svc-skip-webhook': 'true' });
    assert.equal(sim.webhooks.skipped.length, skipped + 2);
    assert.equal((sim.webhooks.skipped.at(-1)!.body as any).action, 'deleted');
  }));

test('member update with new credentials re-chooses the scenario; credentials and account numbers lists', () =>
  withSim([], async (sim) => {
    const user = await sim.user();
    const r = await sim.member(user, 'LOCKED');
    const guid = r.body.member.guid;
    assert.equal((await sim.settle(user, guid)).connection_status, 'DENIED');
    const u = await sim.req('PUT', `/users/${user}/members/${guid}`, { member: { credentials: [{ field_name: 'password', value: PW.SUCCESS }] } });
    assert.equal(u.status, 200);
    assert.equal((await sim.settle(user, guid)).connection_status, 'CONNECTED');
    const creds = (await sim.req('GET', `/users/${user}/members/${guid}/credentials`)).body.credentials;
    assert.deepEqual(
      creds.map((c: any) => c.field_name),
      ['username', 'password'],
    );
    assert.ok(creds.every((c: any) => !('value' in c)));
    assert.equal((await sim.req('GET', `/users/${user}/members/${guid}/account_numbers`)).body.account_numbers.length, 0);
    await sim.req('POST', `/users/${user}/members/${guid}/verify`, undefined, { 'x-callback-payload': 'v-1' });
    await sim.settle(user, guid);
    assert.ok((await sim.req('GET', `/users/${user}/members/${guid}/account_numbers`)).body.account_numbers.length > 0);
    assert.ok(sim.webhooks.events.some((e) => e.type === 'verification' && Array.isArray((e.body.verification as any).accounts)));
    const list = await sim.req('GET', `/users/${user}/members`);
    assert.equal(list.body.members.length, 1);
    assert.equal(list.body.pagination.total_entries, 1);
  }));
