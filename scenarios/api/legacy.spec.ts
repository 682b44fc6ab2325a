/**
 * Earlier-generation test paths (specification, Endpoints "Earlier-generation test
 * paths"): the test host serves static data for every listed path to requests carrying
 * SVC-API-Key, SVC-Client-ID and the vendor media type in Accept; the member paths that
 * take a connection status answer a member in it.
 */
import { test, expect } from '../fixtures.ts';
import { documentOperations } from '../operations.ts';
import { orderFreeJson } from '../../contracts/index.ts';
import { is2xx, need } from '../steps/responses.ts';
import { expectInferred } from '../inferred.ts';

const STATUSES = ['PENDING', 'CONNECTED', 'CHALLENGED', 'HALTED', 'DENIED'];
const CHALLENGE_TYPES = ['text', 'options', 'image', 'image_options'];

test('every listed test path answers with its static data', { tag: ['@legacy', '@readonly', '@smoke'] }, async ({ api }) => {
  // "A test host {test_base_url} serves static data" for each listed path.
  const operations = documentOperations('test-host');
  expect(operations.length, 'paths in the test-host document').toBeGreaterThan(20);
  const refused: string[] = [];
  const moved: string[] = [];
  for (const op of operations) {
    const res = await api.call({ api: 'test-host', method: op.method, path: op.path, body: op.method === 'POST' || op.method === 'PUT' ? {} : undefined });
    if (res.status < 200 || res.status >= 300) refused.push(`${op.method} ${op.path} answered ${res.status}`);
    // "serves static data": a second read of the same path answers the same data, in
    // whatever order (no list's order is stated; reordering properties is non-breaking).
    else if (op.method === 'GET') {
      const again = await api.call({ api: 'test-host', path: op.path });
      if (orderFreeJson(again.body) !== orderFreeJson(res.body)) moved.push(`GET ${op.path}: ${res.text.slice(0, 120)} then ${again.text.slice(0, 120)}`);
    }
  }
  expect(refused, 'test paths that did not answer 2xx').toEqual([]);
  expect(moved, 'test paths whose data changed between two reads').toEqual([]);
});

test('a test member read by connection status is in that status', { tag: ['@legacy', '@readonly'] }, async ({ api }) => {
  // "GET|PUT /users/test_svc/members/{connection_status} (returns a member in that status)".
  for (const status of STATUSES) {
    const res = await api.call({ api: 'test-host', path: `/users/test_svc/members/${status}`, expectStatus: 200 });
    expect(need(res, 'member.connection_status', api), `GET /users/test_svc/members/${status}`).toBe(status);
  }
});

test('challenges by type are of that type', { tag: ['@legacy', '@readonly'] }, async ({ api }) => {
  // "GET /users/test_svc/members/{challenge_type}/challenges (challenge types text, options,
  // image, image_options)"; the reference writes types in upper case, so case is ignored.
  for (const type of CHALLENGE_TYPES) {
    const res = await api.call({ api: 'test-host', path: `/users/test_svc/members/${type}/challenges`, expectStatus: 200 });
    const challenges = need<Array<{ type?: string }>>(res, 'challenges', api);
    expect(challenges.length, `challenges of type ${type}`).toBeGreaterThan(0);
    expect(
      challenges.map((c) => String(c.type).toLowerCase()),
      `types of GET .../${type}/challenges`,
    ).toEqual(challenges.map(() => type));
  }
});

test('the static test identifiers are the documented ones', { tag: ['@legacy', '@readonly'] }, async ({ api }) => {
  // "Test user GUID test_svc, member test_svc_member, account test_svc_account, transaction
  // test_svc_transaction, holding test_svc_holding, merchant test_svc_merchant".
  const documented: Array<[path: string, guidAt: string, guid: string]> = [
    ['/users/test_svc/accounts/test_svc_account', 'account.guid', 'test_svc_account'],
    ['/users/test_svc/transactions/test_svc_transaction', 'transaction.guid', 'test_svc_transaction'],
    ['/merchants/test_svc_merchant', 'merchant.guid', 'test_svc_merchant'],
    ['/users/test_svc/holdings/test_svc_holding', 'holding.guid', 'test_svc_holding'],
    ['/users/test_svc/members/test_svc_member', 'member.guid', 'test_svc_member'],
    ['/users/test_svc', 'user.guid', 'test_svc'],
  ];
  for (const [path, guidAt, guid] of documented) {
    const res = await api.call({ api: 'test-host', path, expectStatus: 200 });
    expect(need(res, guidAt, api), `GET ${path}`).toBe(guid);
  }
});

test('the test institutions are svcbank and svc_bank_oauth', { tag: ['@legacy', '@readonly'] }, async ({ api }) => {
  // "Test institution codes: svcbank (scenario credentials) and svc_bank_oauth
  // (integration environment only, for OAuth flows)"; the test host lists its test
  // institutions at GET /test_institutions.
  const res = await api.call({ api: 'test-host', path: '/test_institutions', expectStatus: 200 });
  const codes = need<Array<{ code?: string }>>(res, 'institutions', api).map((i) => i.code);
  expect(codes, 'codes listed by GET /test_institutions').toEqual(expect.arrayContaining(['svcbank', 'svc_bank_oauth']));
});

test('a test member updated or aggregated in a connection status is in that status', { tag: ['@legacy', '@inferred'] }, async ({ api, profile }) => {
  for (const status of STATUSES) {
    // "GET|PUT /users/test_svc/members/{connection_status} (returns a member in that status)".
    const put = await api.call({ api: 'test-host', method: 'PUT', path: `/users/test_svc/members/${status}`, body: {}, expectStatus: 200 });
    expect(need(put, 'member.connection_status', api), `PUT /users/test_svc/members/${status}`).toBe(status);
    // "POST /users/test_svc/members/{connection_status}/aggregate" and ".../status" are listed
    // beside it; that they too answer the member in the status the path names is inferred.
    const aggregated = await api.call({ api: 'test-host', method: 'POST', path: `/users/test_svc/members/${status}/aggregate`, body: {} });
    expect(is2xx(aggregated.status), `POST /users/test_svc/members/${status}/aggregate answered ${aggregated.status}`).toBe(true);
    const read = await api.call({ api: 'test-host', path: `/users/test_svc/members/${status}/status`, expectStatus: 200 });
    for (const [what, res] of [
      ['POST .../aggregate', aggregated],
      ['GET .../status', read],
    ] as const)
      expectInferred(profile, res.body?.member?.connection_status === status, {
        expectation: `${what} of the test member in ${status} answers a member in ${status}`,
        basis: 'Endpoints, Earlier-generation test paths: only GET|PUT .../{connection_status} are said to return "a member in that status"',
        received: JSON.stringify(res.body?.member?.connection_status),
      });
  }
});
