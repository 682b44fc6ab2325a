/**
 * Authentication (specification, Authentication 1, 3, 5; earlier-generation test
 * paths): every platform endpoint refuses a request without credentials and one with
 * wrong credentials. The specification does not state the status (401 is not in the
 * Errors table), so only the 4xx class is required; the body's shape is not shown.
 */
import { test, expect } from '../fixtures.ts';
import { documentOperations } from '../operations.ts';
import { currentVersion } from '../fixtures.ts';

const WRONG = { user: 'scn-not-a-client', pass: 'scn-wrong-api-key' };

for (const [label, auth] of [
  ['without credentials', 'none'],
  ['with a wrong API key', 'wrong-key'],
  ['with an unknown client id', 'wrong-client'],
] as const) {
  test(`every platform endpoint refuses requests ${label}`, { tag: ['@auth', '@readonly', '@smoke'] }, async ({ api, profile }) => {
    const operations = documentOperations('platform', currentVersion(profile));
    expect(operations.length, 'operations in the platform document').toBeGreaterThan(10);
    const credentials =
      auth === 'none' ? ('none' as const) : auth === 'wrong-key' ? { user: profile.clientId ?? WRONG.user, pass: WRONG.pass } : WRONG;
    const accepted: string[] = [];
    for (const op of operations) {
      const res = await api.call({
        method: op.method,
        path: op.path,
        auth: credentials,
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
        // An unauthenticated answer's status and body are not shown in the specification:
        // only the response-level checks that hold for any answer apply.
        only: ['content_type_conformance'],
      });
      if (res.status < 400 || res.status >= 500) accepted.push(`${op.method} ${op.template} answered ${res.status}`);
    }
    expect(accepted, 'platform endpoints that did not refuse the request with a 4xx').toEqual([]);
  });
}

test('data-exchange reads refuse a request without SVC-3DX-TOKEN', { tag: ['@auth', '@data-exchange', '@readonly'] }, async ({ api, profile }) => {
  const res = await api.get('/data_exchange/users', { only: ['content_type_conformance'] });
  expect(res.status, 'GET /data_exchange/users with Basic only (Authentication 3)').toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  void profile;
});

test('the audience service refuses a request without a bearer token or with a wrong one', { tag: ['@auth', '@audience', '@readonly'] }, async ({ api, profile }) => {
  const audienceId = profile.audience.audienceId ?? 'scn-audience';
  for (const auth of ['none', { bearer: 'scn-not-a-token' }] as const) {
    const res = await api.call({ api: 'audience', path: `/api/v1/audience/${audienceId}/list`, auth, only: ['content_type_conformance'] });
    expect(res.status, `audience list ${auth === 'none' ? 'without' : 'with a wrong'} bearer token`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
});

test('the test host refuses requests without its API-key headers or with a wrong key', { tag: ['@auth', '@legacy', '@readonly'] }, async ({ api, profile }) => {
  const wrongKey: Record<string, string> = { 'SVC-API-Key': 'scn-wrong-key', 'SVC-Client-ID': profile.clientId ?? 'scn-client' };
  for (const headers of [{}, wrongKey]) {
    const res = await api.call({ api: 'test-host', path: '/users/test_svc/accounts', auth: 'none', headers, only: ['content_type_conformance'] });
    expect(res.status, `test host with ${Object.keys(headers).join(', ') || 'no key headers'}`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
});
