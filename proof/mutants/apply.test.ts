/**
 * The mutating proxy's changes, one by one, on plain answers (no server): each mutant
 * changes what it says and nothing else, and a dry run counts without changing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MutantRuntime, idsBack, idsForward, LONGER_SUFFIX, type ProxyRequest, type ProxyResponse } from './apply.ts';
import type { Change, Mutant } from './model.ts';

const MEMBER_OP = 'platform:GET /users/{user_guid}/members/{member_guid}';
const MBR = 'MBR-0b1c2d3e-0000-4000-8000-000000000002';
const USR = 'USR-0b1c2d3e-0000-4000-8000-000000000001';

const mutant = (change: Change, o: Partial<Mutant> = {}): Mutant => ({
  id: 'm',
  family: 'drop-field',
  expect: 'killed',
  statement: 's',
  section: 'x',
  rows: [],
  ops: [MEMBER_OP],
  change,
  ...o,
});
const req = (o: Partial<ProxyRequest> = {}): ProxyRequest => ({
  method: 'GET',
  api: 'platform',
  path: `/users/${USR}/members/${MBR}`,
  query: '',
  headers: {},
  body: Buffer.alloc(0),
  ...o,
});
const json = (body: unknown, status = 200, headers: Record<string, string> = {}): ProxyResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});
const bodyOf = (r: ProxyResponse) => JSON.parse(r.body.toString('utf8'));
const member = { member: { guid: MBR, user_guid: USR, connection_status: 'CONNECTED', is_being_aggregated: false, name: 'Bank' } };
const matched = { op: MEMBER_OP };

test('field changes: drop, retype, recase, map; only at the sites and under the conditions given', () => {
  const drop = new MutantRuntime(
    mutant({ kind: 'field', sites: [{ op: MEMBER_OP, path: ['member'] }], field: ['connection_status'], action: { op: 'drop' } }),
    'v20260929',
  );
  assert.equal('connection_status' in bodyOf(drop.respond(req(), matched, json(member))).member, false);
  assert.equal(drop.fired, 1);
  // Another operation: untouched.
  assert.deepEqual(bodyOf(drop.respond(req(), { op: 'platform:GET /institutions' }, json(member))), member);
  const recase = new MutantRuntime(
    mutant({ kind: 'field', sites: [{ op: MEMBER_OP, path: ['member'] }], field: ['connection_status'], action: { op: 'recase' } }),
    'v20260929',
  );
  assert.equal(bodyOf(recase.respond(req(), matched, json(member))).member.connection_status, 'connected');
  const when = new MutantRuntime(
    mutant({
      kind: 'field',
      sites: [{ op: MEMBER_OP, path: ['member'] }],
      field: ['name'],
      action: { op: 'set', value: 1 },
      when: [{ field: 'is_oauth', equals: true }],
    }),
    'v20260929',
  );
  assert.deepEqual(bodyOf(when.respond(req(), matched, json(member))), member, 'the condition does not hold: nothing changes');
  assert.equal(when.fired, 0);
});

test('a dry run counts what it would change and changes nothing', () => {
  const r = new MutantRuntime(mutant({ kind: 'field', sites: [{ op: MEMBER_OP, path: ['member'] }], field: ['name'], action: { op: 'drop' } }), 'v20260929');
  const res = json(member);
  assert.equal(r.respond(req(), matched, res, true), res);
  assert.equal(r.fired, 1);
});

test('versions: a mutant of one version leaves the others alone (Accept-Version, the newest without one)', () => {
  const r = new MutantRuntime(
    mutant({ kind: 'field', sites: [{ op: MEMBER_OP, path: ['member'] }], field: ['name'], action: { op: 'drop' } }, { versions: ['v20111101'] }),
    'v20260929',
  );
  assert.deepEqual(bodyOf(r.respond(req(), matched, json(member))), member);
  assert.equal('name' in bodyOf(r.respond(req(), { ...matched, version: 'v20111101' }, json(member))).member, false);
});

test('even reads: the second read of one resource disagrees, the first does not', () => {
  const r = new MutantRuntime(
    mutant({
      kind: 'field',
      sites: [{ op: MEMBER_OP, path: ['member'] }],
      field: ['connection_status'],
      action: { op: 'map', values: { CONNECTED: 'DENIED' } },
      reads: 'even',
    }),
    'v20260929',
  );
  assert.equal(bodyOf(r.respond(req(), matched, json(member))).member.connection_status, 'CONNECTED');
  assert.equal(bodyOf(r.respond(req(), matched, json(member))).member.connection_status, 'DENIED');
});

test('identifiers: forward in answers, back in requests (query values decoded first)', () => {
  for (const change of [
    { kind: 'ids', action: 'prefix', prefix: 'MBR-', to: 'MEM-' },
    { kind: 'ids', action: 'longer' },
    { kind: 'ids', action: 'upper' },
  ] as const) {
    const out = idsForward(change, `{"guid":"${MBR}","user_guid":"${USR}"}`);
    assert.notEqual(out, `{"guid":"${MBR}","user_guid":"${USR}"}`);
    assert.equal(idsBack(change, out), `{"guid":"${MBR}","user_guid":"${USR}"}`);
  }
  assert.ok(idsForward({ kind: 'ids', action: 'longer' }, MBR).endsWith(LONGER_SUFFIX));
  const r = new MutantRuntime(mutant({ kind: 'ids', action: 'longer' }), 'v20260929');
  const longer = idsForward({ kind: 'ids', action: 'longer' }, `${USR},${MBR}`);
  const back = r.rewriteRequest(
    req({ path: `/users/${idsForward({ kind: 'ids', action: 'longer' }, USR)}/members`, query: `grantee_guids=${encodeURIComponent(longer)}` }),
  );
  assert.equal(back.path, `/users/${USR}/members`);
  assert.equal(decodeURIComponent(back.query.split('=')[1]), `${USR},${MBR}`);
});

test('statuses, refusals served, refused requests, headers, pages', () => {
  const status = new MutantRuntime(mutant({ kind: 'status', ops: [MEMBER_OP], from: [200], to: 201 }), 'v20260929');
  assert.equal(status.respond(req(), matched, json(member)).status, 201);
  const serve = new MutantRuntime(mutant({ kind: 'serve-refusal', ops: [MEMBER_OP], from: [404] }), 'v20260929');
  assert.equal(serve.respond(req(), matched, json({ error: 'x' }, 404)).status, 404, 'no success seen yet: nothing to serve');
  serve.respond(req(), matched, json(member));
  assert.deepEqual(bodyOf(serve.respond(req(), matched, json({ error: 'x' }, 404))), member);
  const refuse = new MutantRuntime(mutant({ kind: 'refuse-request', ops: [MEMBER_OP], query: 'records_per_page', queryValue: '1000' }), 'v20260929');
  assert.equal(refuse.refuse(req({ query: 'records_per_page=100' }), matched), undefined);
  assert.equal(refuse.refuse(req({ query: 'records_per_page=1000' }), matched)?.status, 400);
  const header = new MutantRuntime(mutant({ kind: 'header', drop: 'deprecation', onlyWhenPresent: true }), 'v20260929');
  assert.equal('Deprecation' in header.respond(req(), matched, json(member, 200, { Deprecation: 'true' })).headers, false);
  const page = new MutantRuntime(mutant({ kind: 'page', ops: [MEMBER_OP], listKey: 'institutions', action: 'one-more', full: 'asked' }), 'v20260929');
  const list = { institutions: Array.from({ length: 10 }, (_, i) => ({ guid: `INS-${i}` })) };
  assert.equal(bodyOf(page.respond(req({ query: 'records_per_page=10' }), matched, json(list))).institutions.length, 11);
  assert.equal(bodyOf(page.respond(req({ query: 'records_per_page=25' }), matched, json(list))).institutions.length, 10, 'not a full page: nothing added');
});

test('objects: a field added everywhere, properties reversed, null fields left out except the stated ones', () => {
  const add = new MutantRuntime(mutant({ kind: 'objects', action: 'add-field' }), 'v20260929');
  assert.equal(bodyOf(add.respond(req(), matched, json(member))).member.mutant_added_field, 'mutant');
  const rev = new MutantRuntime(mutant({ kind: 'objects', action: 'reorder' }), 'v20260929');
  assert.deepEqual(Object.keys(bodyOf(rev.respond(req(), matched, json(member))).member), Object.keys(member.member).reverse());
  const omit = new MutantRuntime(mutant({ kind: 'objects', action: 'omit-null', keep: { [MEMBER_OP]: [['member', 'aggregated_at']] } }), 'v20260929');
  const out = bodyOf(omit.respond(req(), matched, json({ member: { ...member.member, aggregated_at: null, metadata: null } }))).member;
  assert.equal('metadata' in out, false);
  assert.equal(out.aggregated_at, null);
});

const LIST_OP = 'platform:GET /users/{user_guid}/members';
const UPDATE_OP = 'platform:PUT /users/{user_guid}/members/{member_guid}';
const list = (...members: Array<Record<string, unknown>>) => ({ members });

test('a field never served: the whole-service drop leaves the field out of every answer that carries the record, whatever was read before', () => {
  const never = new MutantRuntime(
    mutant(
      {
        kind: 'field',
        sites: [
          { op: MEMBER_OP, path: ['member'] },
          { op: LIST_OP, path: ['members', '*'] },
        ],
        field: ['name'],
        action: { op: 'drop' },
      },
      { family: 'never-served', expect: 'tolerated', ops: [MEMBER_OP, LIST_OP] },
    ),
    'v20260929',
  );
  assert.equal('name' in bodyOf(never.respond(req({ path: `/users/${USR}/members` }), { op: LIST_OP }, json(list(member.member)))).members[0], false);
  assert.equal('name' in bodyOf(never.respond(req(), matched, json(member))).member, false);
  assert.equal(never.fired, 2);
  assert.equal(never.observed, 0, 'no witnesses: nothing ever serves the field, so no two answers disagree');
});

test('a field left out on one operation: observed only where another operation served the same record with it first, with no write between', () => {
  const onPath = () =>
    new MutantRuntime(
      mutant(
        {
          kind: 'field',
          sites: [{ op: MEMBER_OP, path: ['member'] }],
          field: ['name'],
          action: { op: 'drop' },
          witnesses: [{ op: LIST_OP, path: ['members', '*'] }],
        },
        { family: 'drop-field-on-path', ops: [MEMBER_OP] },
      ),
      'v20260929',
    );
  const listReq = req({ path: `/users/${USR}/members`, headers: { authorization: 'Basic a' } });
  const memberReq = req({ headers: { authorization: 'Basic a' } });
  // The list serves the record with the field; the member read then leaves it out: observed.
  const seen = onPath();
  const listed = seen.respond(listReq, { op: LIST_OP }, json(list(member.member)));
  assert.equal(bodyOf(listed).members[0].name, 'Bank', 'the other operations keep serving the field');
  assert.equal('name' in bodyOf(seen.respond(memberReq, matched, json(member))).member, false);
  assert.deepEqual([seen.fired, seen.observed], [1, 1]);
  // The member read first: the field is left out, and nothing served it before.
  const first = onPath();
  first.respond(memberReq, matched, json(member));
  first.respond(listReq, { op: LIST_OP }, json(list(member.member)));
  assert.deepEqual(
    [first.fired, first.observed],
    [1, 0],
    'the list after the read: presence consistency holds the later answer only to what was served before',
  );
  // A write naming the member between the two: nothing compared across it.
  const written = onPath();
  written.respond(listReq, { op: LIST_OP }, json(list(member.member)));
  written.respond({ ...memberReq, method: 'PUT' }, { op: UPDATE_OP }, json(member));
  written.respond(memberReq, matched, json(member));
  assert.deepEqual([written.fired, written.observed], [1, 0]);
  // A null served is no field served; another client's read is not the suite's.
  const nul = onPath();
  nul.respond(listReq, { op: LIST_OP }, json(list({ ...member.member, name: null })));
  nul.respond(memberReq, matched, json(member));
  assert.equal(nul.observed, 0, 'a null on the list: nothing served');
  const other = onPath();
  other.respond({ ...listReq, headers: { authorization: 'Basic b' } }, { op: LIST_OP }, json(list(member.member)));
  other.respond(memberReq, matched, json(member));
  assert.equal(other.observed, 0, 'other credentials read it: the suite holds only what its own credentials read');
  // A dry run observes the same without changing anything.
  const dry = onPath();
  dry.respond(listReq, { op: LIST_OP }, json(list(member.member)), true);
  const res = json(member);
  assert.equal(dry.respond(memberReq, matched, res, true), res);
  assert.deepEqual([dry.fired, dry.observed], [1, 1]);
});

test('latency: an answer of the operations delayed counts as changed (the dry run reaches what it slows), others are untouched', () => {
  const jobs = new MutantRuntime(mutant({ kind: 'latency', ms: 3000, ops: [MEMBER_OP] }, { family: 'latency', expect: 'tolerated' }), 'v20260929');
  assert.equal(jobs.delayMs(req(), matched), 3000);
  assert.equal(jobs.delayMs(req(), { op: LIST_OP }), 0);
  const res = json(member);
  assert.equal(jobs.respond(req(), matched, res, true), res);
  jobs.respond(req(), { op: LIST_OP }, json(member), true);
  assert.equal(jobs.fired, 1);
});
