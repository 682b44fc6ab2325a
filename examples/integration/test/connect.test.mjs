// The team's own test: connects the test institution and reads the accounts. It reads the
// variables svc-conformance's proxy and tolerance commands give a test command
// (integration/README.md); against the embedded simulator these are its documented values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSvcClient } from '../src/svc-client.mjs';

const env = process.env;
const client = createSvcClient({ baseUrl: env.SVC_BASE_URL, clientId: env.SVC_CLIENT_ID, apiKey: env.SVC_API_KEY });

test('a user connects the test institution and sees its accounts', async () => {
  const institutions = await client.listVerifiableInstitutions();
  const bank = institutions.find((i) => i.code === env.SVC_TEST_INSTITUTION_CODE);
  assert.ok(bank, `the picker lists ${env.SVC_TEST_INSTITUTION_CODE}`);
  const user = await client.createUser(`acme-example-${Date.now()}`);
  try {
    const values = { username: env.SVC_TEST_USERNAME, password: env.SVC_TEST_PASSWORD_SUCCESS };
    const fields = await client.loginFieldsOf(bank.code);
    const member = await client.connect(
      user,
      bank.code,
      fields.map((f) => ({ guid: f.guid, value: values[f.fieldName] })),
      `acme-member-${Date.now()}`,
    );
    const connected = await client.waitUntilConnected(user, member);
    assert.equal(connected.connection_status, 'CONNECTED');
    const accounts = await client.listAccounts(user);
    assert.ok(accounts.length > 0, 'the connected member has accounts');
    for (const a of accounts) assert.equal(typeof a.guid, 'string');
  } finally {
    await client.deleteUser(user);
  }
});
