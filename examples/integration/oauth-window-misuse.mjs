// A second, deliberately wrong piece of integration code (not run by the example's own
// test): it creates an OAuth member, loads its oauth_window_uri twice, then loads a URI it
// kept from another session. OAuth procedure 2: the URI "is one-time use and must not be
// hard-coded". integration/example.system.test.ts runs it through the proxy, which reports both.
const env = process.env;
const headers = {
  authorization: `Basic ${Buffer.from(`${env.SVC_CLIENT_ID}:${env.SVC_API_KEY}`).toString('base64')}`,
  'accept-version': 'v20250224',
  'content-type': 'application/json',
};
const post = async (path, body) =>
  (await fetch(`${env.SVC_BASE_URL}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })).json();

const { user } = await post('/users', { user: { id: 'oauth-misuse' } });
const { member } = await post(`/users/${user.guid}/members`, {
  member: { institution_code: 'svc_bank_oauth', is_oauth: true },
  data_request: { products: ['transactions'] },
});
const uri = member.oauth_window_uri;
if (!uri.startsWith(env.SVC_BASE_URL)) throw new Error(`the OAuth window is not behind the proxy: ${uri}`);
const kept = uri.replace(/[^/]+$/, '0123456789abcdef0123456789abcdef');
for (const url of [uri, uri, kept]) await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
