/**
 * Acme Budget's client of the svc platform API, written for v20111101: the part of a team's
 * integration the worked example runs through svc-conformance's proxy, its tolerance matrix
 * and its upgrade check (README.md beside this folder). It uses the platform's fetch.
 *
 * Two mistakes are planted on purpose:
 *   - a request error: listVerifiableInstitutions asks for 5000 records in one page, above
 *     the stated maximum of 1000 (Limits). The simulator answers 1000, so the team's own
 *     test passes; only the proxy names the statement.
 *   - an intolerance: waitUntilConnected knows five connection statuses and throws on any
 *     other, though the specification leaves the others open ("Transitions between member
 *     connection statuses other than those in the table: not shown"; enumerated fields may
 *     gain values). Only the tolerance matrix shows it.
 */
const VERSION = 'v20111101';

/** What each connection status means to the app. PLANTED intolerance: a closed table. */
const PHASES = { PENDING: 'waiting', CHALLENGED: 'needs-user', CONNECTED: 'connected', DENIED: 'failed', HALTED: 'failed' };

export function createSvcClient({ baseUrl, clientId, apiKey, timeoutMs = 10_000 }) {
  const authorization = `Basic ${Buffer.from(`${clientId}:${apiKey}`).toString('base64')}`;

  async function call(method, path, body) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization, accept: 'application/vnd.svc.api.v1+json', 'accept-version': VERSION, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  }

  return {
    /** Institutions that verify accounts, for the app's picker. PLANTED request error: 5000 records in one page. */
    async listVerifiableInstitutions() {
      const { institutions } = await call('GET', '/institutions?records_per_page=5000&supports_account_verification=true');
      return institutions.map((i) => ({ code: i.code, name: i.name }));
    },
    async loginFieldsOf(institutionCode) {
      const { credentials } = await call('GET', `/institutions/${encodeURIComponent(institutionCode)}/credentials`);
      return credentials.map((c) => ({ guid: c.guid, fieldName: c.field_name }));
    },
    async createUser(id) {
      const { user } = await call('POST', '/users', { user: { id } });
      return user.guid;
    },
    async connect(userGuid, institutionCode, credentials, id) {
      const { member } = await call('POST', `/users/${userGuid}/members`, { member: { institution_code: institutionCode, credentials, id } });
      return member.guid;
    },
    async waitUntilConnected(userGuid, memberGuid, { intervalMs = 50, boundMs = timeoutMs } = {}) {
      const deadline = Date.now() + boundMs;
      for (;;) {
        const { member } = await call('GET', `/users/${userGuid}/members/${memberGuid}/status`);
        const phase = PHASES[member.connection_status];
        if (phase === undefined) throw new Error(`unknown connection_status ${member.connection_status}`);
        if (phase === 'failed' || phase === 'needs-user') throw new Error(`the connection ended ${member.connection_status}`);
        if (phase === 'connected' && !member.is_being_aggregated) return member;
        if (Date.now() > deadline) throw new Error(`still ${member.connection_status} after ${boundMs} ms`);
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    },
    async listAccounts(userGuid) {
      const { accounts } = await call('GET', `/users/${userGuid}/accounts`);
      return accounts.map((a) => ({ guid: a.guid, name: a.name, balance: a.balance }));
    },
    async deleteUser(userGuid) {
      await call('DELETE', `/users/${userGuid}`);
    },
  };
}
