/**
 * The identities the data-exchange scenarios need, taken from the target wherever it
 * can tell them (specification, Endpoints "Data exchange"), so that a profile needs one
 * entry point: the issuing client's GUID (SVC_3DX_ISSUER_GUID) or a grantee's
 * (SVC_3DX_GRANTEE_GUID). No endpoint reveals a client's own GUID; from either one:
 *
 *   - the grant: from "GET /data_exchange/issuer/{issuer_client_guid}/grants" or
 *     ".../grantee/{grantee_client_guid}/grants" (a grant's `guid`: "Other resources also
 *     have a guid"); SVC_3DX_GRANT_GUID picks one;
 *   - the grant's issuer and grantees: the grant carries them ("an issuer GUID, one or
 *     more grantee GUIDs"), under names the specification does not show. A value of the
 *     grant is its issuer when the issuer's grant list holds the grant, a grantee when
 *     that grantee's list does: identity as the target itself answers it, never a string
 *     comparison with a setting;
 *   - a user, account and member: from the token-protected lists ("list users of the
 *     issuing client", "list slim accounts"; a slim account's member_guid); SVC_3DX_USER,
 *     SVC_3DX_ACCOUNT_GUID and SVC_3DX_MEMBER pick them.
 *
 * Versioning: "changing length or format of opaque strings (identifiers, messages)" is
 * non-breaking, so an identifier held in a setting may not equal, as a string, the one
 * the target answers today. A setting is therefore only ever sent (in a path or query,
 * where the target still takes it) and resolved through a read to the form the target
 * answers; comparisons are between the target's own answers.
 */
import { test, expect, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { need } from '../steps/responses.ts';
import { walkList } from './journeys.ts';

export type Rec = Record<string, unknown>;

/** Resources, Data exchange grant: "a data scope with values HELD, AGGREGATED, ALL". */
export const DATA_SCOPES = ['HELD', 'AGGREGATED', 'ALL'];

/** The token response's shape is not shown: the first string under a key named like `token`. */
function tokenIn(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const [k, v] of Object.entries(body as Rec)) {
    if (/token/i.test(k) && typeof v === 'string') return v;
    const nested = typeof v === 'object' ? tokenIn(v) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

export const withToken = (token: string) => ({ headers: { 'SVC-3DX-TOKEN': token } });

/** The identifier a grant record answers for itself ("Other resources also have a guid"). */
function grantGuidOf(grant: Rec): string {
  expect(typeof grant.guid === 'string' && grant.guid !== '', `a grant carries its guid: ${JSON.stringify(grant).slice(0, 200)}`).toBe(true);
  return grant.guid as string;
}

/** Every string a grant carries but its own guid and its scope: where its issuer and grantee GUIDs are (their field names are not shown). */
function candidateIdentifiers(grant: Rec): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(grant)) {
    if (k === 'guid') continue;
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string' && x !== '' && !DATA_SCOPES.includes(x) && !/^\d{4}-\d{2}-\d{2}/.test(x)) out.add(x);
  }
  return [...out];
}

/** Endpoints, Data exchange: the issuer's and a grantee's grant lists. */
const GRANT_LISTS = {
  issuer: (client: string) => `/data_exchange/issuer/${encodeURIComponent(client)}/grants`,
  grantee: (client: string) => `/data_exchange/grantee/${encodeURIComponent(client)}/grants`,
};

/** The grants a client's list answers (Basic authentication only: Authentication 3). */
export async function grantsOf(api: CheckedClient, side: 'issuer' | 'grantee', client: string): Promise<Rec[]> {
  return walkList<Rec>(api, GRANT_LISTS[side](client), 'grants');
}

/** Whether `client`'s grant list, as the target answers it, holds the grant `guid`. */
async function listsGrant(api: CheckedClient, side: 'issuer' | 'grantee', client: string, guid: string): Promise<boolean> {
  const res = await api.get(GRANT_LISTS[side](client), { query: { records_per_page: 1000 } });
  if (res.status < 200 || res.status >= 300) return false;
  const grants = (res.body as Rec | undefined)?.grants;
  return Array.isArray(grants) && grants.some((g) => g && typeof g === 'object' && (g as Rec).guid === guid);
}

export interface GrantFacts {
  /** The grant as a grant list answered it. */
  record: Rec;
  guid: string;
  /** The grant's values the target treats as its issuer / its grantees (their lists hold it). */
  issuers: string[];
  grantees: string[];
  /** A grantee to create the token with: the setting, else one of `grantees`. */
  grantee: string;
}

/** The data-exchange entry point, or a skip naming it. */
function entryPoint(api: CheckedClient): { issuer?: string; grantee?: string } {
  const dx = api.profile.dataExchange;
  if (!dx.issuerClientGuid && !dx.granteeClientGuid) {
    test.skip(
      true,
      "needs SVC_3DX_ISSUER_GUID (or SVC_3DX_GRANTEE_GUID): no endpoint reveals a client's own GUID; every other data-exchange identity is read from the grant lists and the token-protected lists",
    );
  }
  return { issuer: dx.issuerClientGuid, grantee: dx.granteeClientGuid };
}

/** The grant the scenarios use, its issuer and its grantees (as values the target answers). */
export async function grantFacts(api: CheckedClient): Promise<GrantFacts> {
  const { issuer, grantee } = entryPoint(api);
  const dx = api.profile.dataExchange;
  // Endpoints: the grant lists, "standard authentication only" (Errors: 200 for lists).
  const listed = grantee ? await grantsOf(api, 'grantee', grantee) : await grantsOf(api, 'issuer', issuer!);
  const from = grantee ? `grantee ${grantee}` : `issuer ${issuer}`;
  expect(listed.length, `grants listed for ${from}`).toBeGreaterThan(0);
  // SVC_3DX_GRANT_GUID picks one when the list answers it as set; else the first.
  const record = listed.find((g) => g.guid === dx.grantGuid) ?? listed[0]!;
  const guid = grantGuidOf(record);
  const candidates = candidateIdentifiers(record);
  const issuers: string[] = [];
  const grantees: string[] = [];
  for (const v of candidates) {
    if (await listsGrant(api, 'issuer', v, guid)) issuers.push(v);
    if (await listsGrant(api, 'grantee', v, guid)) grantees.push(v);
  }
  const tokenGrantee = grantee ?? grantees[0];
  expect(tokenGrantee, `a grantee of grant ${guid} (a value of the grant whose grantee list holds it): ${JSON.stringify(record).slice(0, 300)}`).toBeTruthy();
  return { record, guid, issuers, grantees, grantee: tokenGrantee! };
}

/** Creates a data exchange token (Endpoints: "creates the data exchange token ...; status 201"; Errors: 201). */
export async function createToken(api: CheckedClient, grant?: GrantFacts): Promise<string> {
  const g = grant ?? (await grantFacts(api));
  const res = await api.post(`/data_exchange/grantee/${encodeURIComponent(g.grantee)}/grants/${encodeURIComponent(g.guid)}/token`, undefined, {
    expectStatus: 201,
  });
  const token = tokenIn(res.body);
  expect(token, 'a token in the token endpoint response').toBeTruthy();
  api.secret(token!);
  return token!;
}

export interface Holder {
  token: string;
  /** A user of the issuer, as the target answers its guid. */
  user: string;
  userRecord: Rec;
  /** One of its slim accounts, and that account's member (the slim account's member_guid, or SVC_3DX_MEMBER). */
  account: string;
  accountRecord: Rec;
  member?: string;
}

/** The record a token-protected read answers under `key`, or a clear error. */
async function readOne(api: CheckedClient, path: string, token: string, key: string): Promise<{ res: CheckedResponse; record: Rec }> {
  const res = await api.get(path, { ...withToken(token), expectStatus: 200 });
  return { res, record: need<Rec>(res, key, api) };
}

/**
 * A user with accounts, one account with transactions and its member: the settings when
 * set (read once, so the target's own form of each identifier is what is compared), else
 * from the lists: the first of the issuer's users (first page) with a slim account, the
 * account of the user's first listed transaction (else its first account).
 */
export async function holder(api: CheckedClient, token: string): Promise<Holder> {
  const dx = api.profile.dataExchange;
  const h = withToken(token);
  let userRecord: Rec | undefined;
  let accounts: Rec[] = [];
  if (dx.userIdentifier) {
    userRecord = (await readOne(api, `/data_exchange/users/${encodeURIComponent(dx.userIdentifier)}`, token, 'user')).record;
    accounts = await walkList<Rec>(api, `/data_exchange/users/${encodeURIComponent(dx.userIdentifier)}/accounts`, 'accounts', { headers: h.headers });
  } else {
    // "GET /data_exchange/users: list users of the issuing client".
    const users = need<Rec[]>(await api.get('/data_exchange/users', { ...h, query: { records_per_page: 25 }, expectStatus: 200 }), 'users', api);
    expect(users.length, 'users of the issuing client').toBeGreaterThan(0);
    for (const u of users.slice(0, 10)) {
      accounts = await walkList<Rec>(api, `/data_exchange/users/${encodeURIComponent(String(u.guid))}/accounts`, 'accounts', { headers: h.headers });
      if (accounts.length) {
        userRecord = u;
        break;
      }
    }
    test.skip(!userRecord, 'none of the first ten users of the issuing client has a slim account: name one with SVC_3DX_USER');
  }
  const user = String(userRecord!.guid ?? dx.userIdentifier);
  expect(accounts.length, `slim accounts of user ${user}`).toBeGreaterThan(0);
  let accountRecord: Rec | undefined;
  if (dx.accountGuid)
    accountRecord = (await readOne(api, `/data_exchange/users/${encodeURIComponent(user)}/accounts/${encodeURIComponent(dx.accountGuid)}`, token, 'account'))
      .record;
  else if (dx.memberIdentifier) {
    // The member is set and the account is not: an account of that member, as the
    // per-member read answers it ("read one slim account under a member").
    for (const a of accounts) {
      const res = await api.get(
        `/data_exchange/users/${encodeURIComponent(user)}/members/${encodeURIComponent(dx.memberIdentifier)}/accounts/${encodeURIComponent(String(a.guid))}`,
        h,
      );
      if (res.status === 200) {
        accountRecord = a;
        break;
      }
    }
    expect(accountRecord, `an account of member ${dx.memberIdentifier} (SVC_3DX_MEMBER) among the slim accounts of user ${user}`).toBeTruthy();
  } else {
    const first = need<Rec[]>(
      await api.get(`/data_exchange/users/${encodeURIComponent(user)}/transactions`, { ...h, query: { records_per_page: 10 }, expectStatus: 200 }),
      'transactions',
      api,
    )[0];
    accountRecord = accounts.find((a) => first && a.guid === first.account_guid) ?? accounts[0];
  }
  const account = String(accountRecord!.guid);
  const member = dx.memberIdentifier ?? (typeof accountRecord!.member_guid === 'string' ? accountRecord!.member_guid : undefined);
  return { token, user, userRecord: userRecord!, account, accountRecord: accountRecord!, ...(member ? { member } : {}) };
}

/** The holder's member, or a skip naming the setting (a slim account's fields are not shown). */
export function memberOf(h: Holder): string {
  if (!h.member) test.skip(true, 'the slim account carries no member_guid, so its member cannot be read from the target: set SVC_3DX_MEMBER');
  return h.member!;
}
