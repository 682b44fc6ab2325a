import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, REDACTED } from './redact.ts';
import { loadProfile, profileSecrets } from './profile.ts';

const profile = loadProfile({ SVC_SIMULATOR_URL: 'http://127.0.0.1:1' });
const apiKey = profile.apiKey!;
const basic = Buffer.from(`${profile.clientId}:${apiKey}`).toString('base64');

test('Authorization, SVC-3DX-TOKEN and SVC-API-Key headers are blanked whatever their value', () => {
  const r = createRedactor([]);
  const out = r.headers({
    Authorization: `Basic ${basic}`,
    'svc-3dx-token': 'dx-token-123456',
    'SVC-API-Key': 'anything',
    'proxy-authorization': 'Bearer abc.def.ghi',
    accept: 'application/json',
  });
  assert.equal(out.Authorization, `Basic ${REDACTED}`);
  assert.equal(out['svc-3dx-token'], REDACTED);
  assert.equal(out['SVC-API-Key'], REDACTED);
  assert.equal(out['proxy-authorization'], `Bearer ${REDACTED}`);
  assert.equal(out.accept, 'application/json');
});

test('profile secrets are removed from free text, including their Basic and percent-encoded forms', () => {
  const r = createRedactor(profileSecrets(profile));
  const text = `key=${apiKey} header=${basic} secret=${encodeURIComponent(profile.audience.clientSecret!)}`;
  const out = r.text(text);
  assert.ok(!out.includes(apiKey), out);
  assert.ok(!out.includes(basic), out);
  assert.ok(!out.includes(profile.audience.clientSecret!), out);
  assert.match(out, /key=\[REDACTED\]/);
});

test('Basic and Bearer credentials in free text are removed even when unknown', () => {
  const r = createRedactor([]);
  assert.equal(r.text('sent Authorization: Bearer eyJhbGciOi.xyz_1 ok'), `sent Authorization: Bearer ${REDACTED} ok`);
  assert.equal(r.text('Basic dXNlcjpwYXNz'), `Basic ${REDACTED}`);
});

test('credential JSON keys are blanked at any depth; other fields are kept', () => {
  const r = createRedactor([]);
  const out = r.json({
    token: { token: 'dx-abcdef', expires_at: 1 },
    audience: [{ access_token: 'at-123456', token_type: 'bearer', client_secret: 'shh-123456' }],
    authorization_code: 'code-999999',
    processor: { authorization_code: { code: 'abc-123456', scope: 'read-protected' } },
    member: { guid: 'MBR-1', institution_code: 'svcbank' },
  });
  assert.deepEqual(out, {
    token: { token: REDACTED, expires_at: 1 },
    audience: [{ access_token: REDACTED, token_type: 'bearer', client_secret: REDACTED }],
    authorization_code: REDACTED,
    processor: { authorization_code: { code: REDACTED, scope: 'read-protected' } },
    member: { guid: 'MBR-1', institution_code: 'svcbank' },
  });
});

test('secrets learned at run time are removed from later text; short values are ignored', () => {
  const r = createRedactor([]);
  r.add('dx-token-learned-77');
  r.add('ab');
  assert.equal(r.text('x dx-token-learned-77 y ab'), `x ${REDACTED} y ab`);
  assert.equal(r.text('/list?access_token=zzz&page=1'), `/list?access_token=${REDACTED}&page=1`);
  // A form body begins with its first pair (the audience token request, Authentication 5).
  assert.equal(r.text('client_secret=s3cr3t-value&grant_type=client_credentials'), `client_secret=${REDACTED}&grant_type=client_credentials`);
  assert.equal(r.text('{"text":"client_secret=s3cr3t-value"}'), `{"text":"client_secret=${REDACTED}"}`);
  assert.equal(r.text('the status code was 500'), 'the status code was 500');
});

test('a short secret is replaced as a token of its own, never inside a longer word', () => {
  const r = createRedactor(['challenge', 'abcd1234', 'a-long-secret-value-0123']);
  assert.equal(r.text('challenges answered; challenge; key=abcd1234&x; abcd12345'), 'challenges answered; [REDACTED]; key=[REDACTED]&x; abcd12345');
  // A long secret is replaced wherever it appears, even inside another token.
  assert.equal(r.text('xa-long-secret-value-0123y'), `x${REDACTED}y`);
});
