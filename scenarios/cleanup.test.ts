/**
 * The suite's ids, the teardown record and the cleanup of leftovers (scenarios/cleanup.ts),
 * against a small users service on 127.0.0.1 that pages GET /users and answers DELETE
 * /users/{guid}: a user whose `id` lacks the suite's prefix is never deleted, a dry run
 * deletes nothing, one run's prefix matches no other run's, failures name the user.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadProfile, type TargetProfile } from '../targets/index.ts';
import { CreatedUsers, cleanupLeftovers, currentRunId, describeTeardownFailure, isSuiteId, listUsers, newRunId, suiteId, suitePrefix } from './cleanup.ts';

const CLIENT = 'cleanup-client';
const KEY = 'cleanup-key-3b9e';

interface FakeUser {
  guid: string;
  id: unknown;
}

/** A users service: pages of the list (with or without pagination), deletes, and what it was asked. */
class UsersService {
  users: FakeUser[] = [];
  deletes: string[] = [];
  authorizations = new Set<string>();
  /** Answers every DELETE of this guid with this status. */
  failDelete = new Map<string, number>();
  listStatus = 200;
  /** Answers the list with a body of this many bytes (a base URL that points at the wrong server). */
  listBytes = 0;
  ignorePage = false;
  withPagination = true;
  private server?: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      req.resume();
      this.authorizations.add(String(req.headers.authorization));
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body?: unknown) => {
        const text = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(text);
      };
      if (req.method === 'GET' && url.pathname === '/users') {
        if (this.listStatus !== 200) return send(this.listStatus, { error: 'no' });
        if (this.listBytes) return res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.alloc(this.listBytes, 0x20));
        const per = Number(url.searchParams.get('records_per_page') ?? 25);
        const page = this.ignorePage ? 1 : Number(url.searchParams.get('page') ?? 1);
        const items = this.users.slice((page - 1) * per, page * per);
        const pagination = {
          current_page: page,
          per_page: per,
          total_entries: this.users.length,
          total_pages: Math.max(1, Math.ceil(this.users.length / per)),
        };
        return send(200, { users: items, ...(this.withPagination ? { pagination } : {}) });
      }
      const m = /^\/users\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'DELETE' && m) {
        const guid = decodeURIComponent(m[1]);
        this.deletes.push(guid);
        const fail = this.failDelete.get(guid);
        if (fail) return send(fail, { error: 'refused' });
        const i = this.users.findIndex((u) => u.guid === guid);
        if (i < 0) return send(404, { error: 'not found' });
        this.users.splice(i, 1);
        return send(204);
      }
      send(404, { error: 'no route' });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => {
      this.server?.closeAllConnections();
      this.server?.close(() => r());
    });
  }
}

const service = new UsersService();
let profile: TargetProfile;
const guidOf = (n: number) => `USR-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

before(async () => {
  await service.start();
  profile = loadProfile({
    SVC_BASE_URL: service.base,
    SVC_CLIENT_ID: CLIENT,
    SVC_API_KEY: KEY,
    SVC_ENVIRONMENT: 'integration',
    SVC_REQUEST_TIMEOUT_MS: '5000',
  });
});
after(() => service.stop());
beforeEach(() => {
  service.users = [];
  service.deletes = [];
  service.failDelete.clear();
  service.listStatus = 200;
  service.listBytes = 0;
  service.ignorePage = false;
  service.withPagination = true;
});

/** Users whose ids only look like the suite's, or are not strings at all. */
const NOT_OURS: unknown[] = [
  null,
  42,
  'scn-user-1234',
  'svcct',
  'svcctrun1-user-1',
  'xsvcct-run1-user-1',
  'SVCCT-run1-user-1',
  ' svcct-run1-user-1',
  'my-svcct-run1-user-1',
  '',
];

function seed(ours: string[], theirs = NOT_OURS): { ours: FakeUser[]; theirs: FakeUser[] } {
  let n = 0;
  const mine = ours.map((id) => ({ guid: guidOf(++n), id }));
  const others = theirs.map((id) => ({ guid: guidOf(++n), id }));
  // Interleaved, so both kinds sit on every page.
  service.users = others.flatMap((o, i) => [o, ...(mine[i] ? [mine[i]] : [])]).concat(mine.slice(others.length));
  return { ours: mine, theirs: others };
}

describe('suite ids', () => {
  test('an id names the suite, the run and the purpose, and is recognised by its prefix', () => {
    const id = suiteId('scn-user');
    assert.match(id, /^svcct-[A-Za-z0-9]{1,32}-scn-user-[0-9a-f]{12}$/);
    assert.ok(id.startsWith(suitePrefix(currentRunId())));
    assert.ok(isSuiteId(id) && isSuiteId(id, currentRunId()));
    assert.notEqual(suiteId('scn-user'), id, 'two ids of one purpose differ');
    for (const other of NOT_OURS) assert.equal(isSuiteId(other), false, `${JSON.stringify(other)} is not a suite id`);
  });

  test("one run's prefix matches none of another run's ids, even one that starts with the same letters", () => {
    assert.equal(isSuiteId('svcct-run1-scn-user-0123456789ab', 'run1'), true);
    assert.equal(isSuiteId('svcct-run12-scn-user-0123456789ab', 'run1'), false);
    assert.equal(isSuiteId('svcct-run-scn-user-0123456789ab', 'run1'), false);
  });

  test('run ids are letters and digits; anything else is refused with the reason', () => {
    assert.match(newRunId(), /^[a-z0-9]{1,32}$/);
    assert.throws(() => suitePrefix('run-1'), /1 to 32 letters or digits/);
    assert.throws(() => suitePrefix(''), /1 to 32 letters or digits/);
    assert.throws(() => suiteId('Bad Purpose'), /lowercase words/);
    assert.throws(() => loadProfile({ SVC_RUN_ID: 'a-b' }).run, /SVC_RUN_ID must be 1 to 32 letters or digits/);
  });
});

describe('cleanupLeftovers', () => {
  test('deletes every user whose id starts with svcct-, and no other, across pages', async () => {
    const ids = Array.from({ length: 130 }, (_, i) => `svcct-run${i % 3}-scn-user-${String(i).padStart(12, '0')}`);
    const { ours, theirs } = seed(
      ids,
      Array.from({ length: 120 }, (_, i) => NOT_OURS[i % NOT_OURS.length]),
    );
    const lines: string[] = [];
    const r = await cleanupLeftovers(profile, { log: (l) => lines.push(l) });
    assert.equal(r.listed, 250);
    assert.equal(r.pagesRead, 3, '250 users at 100 a page');
    assert.equal(r.complete, true);
    assert.equal(r.prefix, 'svcct-');
    assert.deepEqual(new Set(service.deletes), new Set(ours.map((u) => u.guid)), "exactly the suite's users were deleted");
    assert.equal(r.deleted.length, 130);
    assert.deepEqual(r.failed, []);
    assert.deepEqual(service.users.map((u) => u.guid).sort(), theirs.map((u) => u.guid).sort(), 'every other user is still there');
    assert.ok(
      lines.some((l) => /250 users listed in 3 pages; 130 with an id starting svcct-/.test(l)),
      lines[0],
    );
    assert.ok(service.authorizations.has(`Basic ${Buffer.from(`${CLIENT}:${KEY}`).toString('base64')}`), 'Basic credentials of the profile');
  });

  test("with a run id, only that run's users", async () => {
    const { ours } = seed([
      'svcct-run1-scn-user-000000000001',
      'svcct-run12-scn-user-000000000002',
      'svcct-run2-fuzz-user-000000000003',
      'svcct-run1-fuzz-user-000000000004',
    ]);
    const r = await cleanupLeftovers(profile, { runId: 'run1' });
    assert.equal(r.prefix, 'svcct-run1-');
    assert.deepEqual(r.deleted.map((u) => u.id).sort(), ['svcct-run1-fuzz-user-000000000004', 'svcct-run1-scn-user-000000000001']);
    assert.deepEqual(service.deletes.sort(), [ours[0].guid, ours[3].guid].sort());
  });

  test("users of a run that may still be running are kept unless asked for: another job's run keeps its users", async () => {
    const now = Date.now();
    const running = newRunId(now - 60_000);
    const finished = newRunId(now - 2 * 3600_000);
    const { ours } = seed([
      `svcct-${running}-scn-user-000000000001`,
      `svcct-${finished}-scn-user-000000000002`,
      // A run id set by hand does not tell its start: it goes, as before.
      'svcct-1234567890-scn-user-000000000003',
    ]);
    const lines: string[] = [];
    const r = await cleanupLeftovers(profile, { now, log: (l) => lines.push(l) });
    assert.deepEqual(
      r.kept.map((u) => u.guid),
      [ours[0].guid],
      'the run that started a minute ago (the bound is 30 minutes on a real target)',
    );
    assert.deepEqual(service.deletes.sort(), [ours[1].guid, ours[2].guid].sort());
    assert.ok(
      lines.some((l) => l.startsWith(`kept ${ours[0].guid} `) && l.includes('--include-recent')),
      lines.join('\n'),
    );
    // Named by its run id, or with includeRecent, it goes too.
    assert.deepEqual(
      (await cleanupLeftovers(profile, { now, runId: running })).deleted.map((u) => u.guid),
      [ours[0].guid],
    );
  });

  test('includeRecent deletes the users of recent runs too', async () => {
    const now = Date.now();
    const { ours } = seed([`svcct-${newRunId(now - 1000)}-scn-user-000000000001`]);
    const r = await cleanupLeftovers(profile, { now, includeRecent: true });
    assert.deepEqual([r.kept, r.deleted.map((u) => u.guid)], [[], [ours[0].guid]]);
  });

  test('a dry run lists what it would delete and deletes nothing', async () => {
    const { ours } = seed(['svcct-run1-scn-user-000000000001', 'svcct-run2-scn-user-000000000002']);
    const before = service.users.length;
    const lines: string[] = [];
    const r = await cleanupLeftovers(profile, { dryRun: true, log: (l) => lines.push(l) });
    assert.equal(r.dryRun, true);
    assert.deepEqual(r.found.map((u) => u.guid).sort(), ours.map((u) => u.guid).sort());
    assert.deepEqual(r.deleted, []);
    assert.deepEqual(service.deletes, [], 'no DELETE was sent');
    assert.equal(service.users.length, before);
    assert.equal(lines.filter((l) => l.startsWith('would delete ')).length, 2);
  });

  test('a delete the target refuses is reported with the user, and the others still go', async () => {
    const { ours } = seed(['svcct-run1-scn-user-000000000001', 'svcct-run1-scn-user-000000000002']);
    service.failDelete.set(ours[0].guid, 500);
    const r = await cleanupLeftovers(profile);
    assert.deepEqual(
      r.deleted.map((u) => u.guid),
      [ours[1].guid],
    );
    assert.equal(r.failed.length, 1);
    assert.equal(r.failed[0].guid, ours[0].guid);
    assert.match(r.failed[0].reason, new RegExp(`DELETE /users/${ours[0].guid} answered 500`));
  });

  test('the listing is bounded: a target that ignores page, or more pages than the bound', async () => {
    seed(
      Array.from({ length: 150 }, (_, i) => `svcct-run1-scn-user-${String(i).padStart(12, '0')}`),
      [],
    );
    service.ignorePage = true;
    service.withPagination = false;
    const repeated = await listUsers(profile);
    assert.equal(repeated.pagesRead, 2, 'the second page brought nothing new: the listing ends');
    assert.equal(repeated.users.length, 100);
    service.ignorePage = false;
    service.withPagination = true;
    const bounded = await listUsers(profile, { pageSize: 10, maxPages: 3 });
    assert.equal(bounded.complete, false);
    assert.equal(bounded.users.length, 30);
    const r = await cleanupLeftovers(profile, { pageSize: 10, maxPages: 3 });
    assert.equal(r.complete, false, 'the result says the listing stopped at its bound');
    assert.equal(r.deleted.length, 30);
  });

  test('a refused listing, a refused production target and a bad run id are clear errors; nothing is deleted', async () => {
    seed(['svcct-run1-scn-user-000000000001']);
    service.listStatus = 401;
    await assert.rejects(cleanupLeftovers(profile), /GET \/users \(page 1\) answered 401/);
    service.listStatus = 200;
    const production = loadProfile({ SVC_BASE_URL: service.base, SVC_CLIENT_ID: CLIENT, SVC_API_KEY: KEY, SVC_ENVIRONMENT: 'production' });
    await assert.rejects(cleanupLeftovers(production), /production: set SVC_ALLOW_DESTRUCTIVE/);
    assert.equal((await cleanupLeftovers(production, { dryRun: true })).found.length, 1, 'a dry run may list production');
    await assert.rejects(cleanupLeftovers(profile, { runId: 'run-1' }), /1 to 32 letters or digits/);
    assert.deepEqual(service.deletes, []);
  });

  test("a listing past the cleanup's body bound fails in the transport's words, naming the request and the bound; nothing is deleted", async () => {
    seed(['svcct-run1-scn-user-000000000001']);
    service.listBytes = 5 * 1024 * 1024;
    await assert.rejects(
      cleanupLeftovers(profile),
      new RegExp(
        `^TransportError: GET ${service.base}/users\\?page=1&records_per_page=100: the 200 text/html answer's body is larger than the limit of 4194304 bytes \\(4 MiB, the cleanup's bound of one answer\\); reading stopped at the limit \\(no Content-Length\\)\\.$`,
      ),
    );
    assert.deepEqual(service.deletes, []);
  });
});

describe('CreatedUsers (the teardown)', () => {
  test('records each created user from a 2xx POST /users, forgets one deleted through the client, and deletes the rest', async () => {
    const { ours } = seed(['svcct-run1-scn-user-000000000001', 'svcct-run1-scn-user-000000000002', 'svcct-run1-scn-user-000000000003']);
    const created = new CreatedUsers(profile);
    const post = (u: FakeUser, status = 200) =>
      created.observe({
        api: 'platform',
        method: 'POST',
        path: '/users',
        status,
        requestBody: { user: { id: u.id } },
        responseBody: { user: { guid: u.guid, id: u.id } },
      });
    ours.forEach((u) => {
      post(u);
    });
    post({ guid: guidOf(99), id: 'refused' }, 409);
    created.observe({ api: 'audience', method: 'POST', path: '/users', status: 200, responseBody: { user: { guid: guidOf(98) } } });
    created.observe({ api: 'platform', method: 'POST', path: '/users/USR-x/members', status: 200, responseBody: { member: { guid: 'MBR-x' } } });
    // The scenario deleted the second user itself; the third is gone by other means (404 at teardown).
    created.observe({ api: 'platform', method: 'DELETE', path: `/users/${ours[1].guid}?x=1`, status: 204 });
    service.users = service.users.filter((u) => u.guid !== ours[2].guid);
    assert.deepEqual(
      created.pending.map((u) => u.guid),
      [ours[0].guid, ours[2].guid],
    );
    const outcome = await created.deleteAll();
    assert.deepEqual(
      outcome.deleted.map((u) => u.guid),
      [ours[0].guid],
    );
    assert.deepEqual(
      outcome.alreadyGone.map((u) => u.guid),
      [ours[2].guid],
    );
    assert.deepEqual(outcome.failed, []);
    assert.deepEqual(service.deletes, [ours[0].guid, ours[2].guid], 'no DELETE for the user the scenario deleted');
    assert.deepEqual(created.pending, [], 'a second teardown has nothing to do');
  });

  test('a user that cannot be deleted is named in the outcome and its message; deleteAll never throws', async () => {
    const { ours } = seed(['svcct-run1-scn-user-000000000001']);
    service.failDelete.set(ours[0].guid, 503);
    const created = new CreatedUsers(profile);
    created.observe({
      api: 'platform',
      method: 'POST',
      path: '/users',
      status: 201,
      requestBody: { user: { id: ours[0].id } },
      responseBody: { user: { guid: ours[0].guid } },
    });
    created.observe({
      api: 'platform',
      method: 'POST',
      path: '/users',
      status: 200,
      requestBody: { user: { id: 'svcct-run1-scn-user-00000000000f' } },
      responseBody: {},
    });
    const outcome = await created.deleteAll();
    assert.equal(outcome.failed.length, 2);
    const [refused, unnamed] = outcome.failed.map(describeTeardownFailure);
    assert.match(refused, new RegExp(`^user ${ours[0].guid} \\(id ${ours[0].id}\\) was not deleted at teardown: DELETE /users/${ours[0].guid} answered 503`));
    assert.match(refused, /cleanupLeftovers\) finds it by its id/);
    assert.match(unnamed, /^a user with id svcct-run1-scn-user-00000000000f was not deleted at teardown: the create answer named no user guid/);
    const unreachable = new CreatedUsers(
      loadProfile({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CLIENT_ID: CLIENT, SVC_API_KEY: KEY, SVC_REQUEST_TIMEOUT_MS: '2000' }),
    );
    unreachable.observe({
      api: 'platform',
      method: 'POST',
      path: '/users',
      status: 200,
      responseBody: { user: { guid: guidOf(7), id: 'svcct-run1-scn-user-000000000007' } },
    });
    const down = await unreachable.deleteAll();
    assert.equal(
      down.failed[0]?.reason,
      `DELETE /users/${guidOf(7)} failed: DELETE http://127.0.0.1:9/users/${guidOf(7)}: connection refused (ECONNREFUSED): nothing listens at 127.0.0.1:9; the URL comes from SVC_BASE_URL (target.baseUrl in a config file).`,
    );
  });
});
