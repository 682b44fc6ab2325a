/**
 * What a real target reveals about itself (`svc-conformance preflight --write-config`):
 * the settings a team would otherwise type, read from the target's own answers, each with
 * the request that showed it. Read-only but for one data-exchange token (Endpoints: the
 * token endpoint "creates the data exchange token required by the token-protected
 * endpoints"), the way the data-exchange scenarios read their identities; every request is
 * bounded by the profile's request timeout and every list by a page bound.
 *
 *   - versions: every version of the contract the target serves, and one it signals as
 *     deprecated (a deprecation header on its answers: RFC 9745's `@<epoch seconds>` or a
 *     date) with the day; the header names seen (Versioning: "Names of the deprecation and
 *     sunset response headers: not shown");
 *   - institutions: the favourites in the order the target lists them ("ordered by
 *     popularity"), a blocked institution (`is_disabled_by_client`, listed with
 *     include_blocked_institutions), the test institutions, and the test institution's
 *     country when its record carries one;
 *   - data exchange, from the one GUID a team holds (SVC_3DX_ISSUER_GUID or
 *     SVC_3DX_GRANTEE_GUID): the grant, its issuer and grantees, a user, an account and its
 *     member with their partner-defined ids, a transaction inside the default window, and,
 *     through the issuing client's own reads, a manual transaction and one outside the
 *     grant's scope (listed there, answered 404 through the token).
 *
 * What no answer shows (the vendor's test passwords, paths the specification does not show,
 * a second client, the widget's markup, ...) is listed with where a team finds it
 * (preflight/setting-sources.ts).
 */
import { CONTRACT_VERSIONS, exchangeBounded, type BoundedOutcome, type TargetProfile } from '../targets/index.ts';
import { platformRequest } from './credentials.ts';
import { CHECK_SETTINGS, requirementVariables } from './requirements.ts';
import { SETTING_SOURCES } from './setting-sources.ts';

/** A setting's value, as the environment would hold it, and the answer that showed it. */
export interface Discovered {
  variable: string;
  value: string;
  source: string;
}

/** A setting the target did not reveal, and where a team finds it. */
export interface Undiscovered {
  variable: string;
  where: string;
}

export interface Discovery {
  found: Discovered[];
  /** Settings a check needs that neither the target revealed nor the settings hold. */
  notFound: Undiscovered[];
  /** What was asked and what came back, one line each, for the console. */
  log: string[];
}

type Rec = Record<string, unknown>;

/** Pages read at most from one list (1000 records each: Limits, records_per_page maximum 1000). */
const PAGE_BOUND = 5;
/** A page of 1000 institutions is about 0.7 MB from the simulator; a real service's records carry more. */
const LIST_BODY_LIMIT = 8 * 1024 * 1024;

const is2xx = (p: BoundedOutcome): p is Extract<BoundedOutcome, { kind: 'answered' }> => p.kind === 'answered' && p.status >= 200 && p.status < 300;
const answer = (p: BoundedOutcome) => (p.kind === 'answered' ? String(p.status) : p.failure.message);

function json(p: BoundedOutcome): Rec | undefined {
  if (!is2xx(p)) return undefined;
  try {
    const v = JSON.parse(p.text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
  } catch {
    return undefined;
  }
}

const records = (body: Rec | undefined, key: string): Rec[] =>
  Array.isArray(body?.[key]) ? (body[key] as unknown[]).filter((r): r is Rec => !!r && typeof r === 'object') : [];
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The deprecation day a header value says: RFC 9745 `@<epoch seconds>`, or a date; undefined when it names none. */
export function deprecationDay(value: string): string | undefined {
  const epoch = /^@(\d+)$/.exec(value.trim());
  const ms = epoch ? Number(epoch[1]) * 1000 : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : undefined;
}

type ReadOptions = { version?: string; query?: Record<string, string>; headers?: Record<string, string>; method?: 'POST' };

/** What every discovery step reads with and reports to. */
interface Discoverer {
  profile: TargetProfile;
  /** Records a setting the target revealed (an empty or missing value is no setting). */
  add: (variable: string, value: string | undefined, source: string) => void;
  log: string[];
  /** One request, bounded by the request timeout and the bound of one list page. */
  read: (path: string, x?: ReadOptions) => Promise<BoundedOutcome>;
  /** Every record of a paged list, up to PAGE_BOUND pages. */
  list: (path: string, key: string, query?: Record<string, string>, headers?: Record<string, string>) => Promise<Rec[]>;
}

export async function discoverSettings(profile: TargetProfile, o: { timeoutMs?: number; given?: (variable: string) => boolean } = {}): Promise<Discovery> {
  const found: Discovered[] = [];
  const x = discoverer(profile, o.timeoutMs ?? profile.timeouts.requestMs, found);
  await Promise.all([discoverVersions(x), discoverInstitutions(x), discoverDataExchange(x)]);
  return { found, notFound: settingsNotFound(profile, found, o.given), log: x.log };
}

function discoverer(profile: TargetProfile, timeoutMs: number, found: Discovered[]): Discoverer {
  const log: string[] = [];
  const read = (path: string, x: ReadOptions = {}) =>
    exchangeBounded(platformRequest(profile, { method: x.method, path, query: x.query, version: x.version, headers: x.headers }), {
      requestMs: timeoutMs,
      maxBodyBytes: LIST_BODY_LIMIT,
      maxBodyBytesFrom: "the discovery's bound of one list page",
    });
  const list = async (path: string, key: string, query: Record<string, string> = {}, headers?: Record<string, string>) => {
    const out: Rec[] = [];
    for (let page = 1; page <= PAGE_BOUND; page++) {
      const res = await read(path, { query: { ...query, page: String(page), records_per_page: '1000' }, headers });
      const body = json(res);
      if (!body) {
        log.push(`GET ${path}: ${answer(res)}`);
        break;
      }
      out.push(...records(body, key));
      const total = Number((body.pagination as Rec | undefined)?.total_pages);
      if (!(total > page) || records(body, key).length === 0) break;
    }
    return out;
  };
  const add = (variable: string, value: string | undefined, source: string) => {
    if (value !== undefined && value !== '') found.push({ variable, value, source });
  };
  return { profile, add, log, read, list };
}

/** Settings a check needs that neither the target revealed nor the settings hold, with where a team finds each. */
function settingsNotFound(profile: TargetProfile, found: readonly Discovered[], given?: (variable: string) => boolean): Undiscovered[] {
  const discovered = new Set(found.map((f) => f.variable));
  const needed = new Set([...requirementVariables(profile), ...CHECK_SETTINGS.flatMap((c) => c.variables)]);
  return [...needed]
    .filter((v) => !discovered.has(v) && !given?.(v))
    .sort()
    .map((variable) => ({ variable, where: SETTING_SOURCES[variable]?.reason ?? 'not classified' }));
}

/** The versions the target serves, and the one it signals as deprecated with its day and header names. */
async function discoverVersions(x: Discoverer): Promise<void> {
  const { profile, add, log, read } = x;
  const asked = [...new Set([...CONTRACT_VERSIONS, ...profile.versions.supported])].sort();
  const answers = await Promise.all(
    asked.map(async (version) => ({ version, res: await read('/institutions', { version, query: { records_per_page: '1' } }) })),
  );
  const served = answers.filter((a) => is2xx(a.res)).map((a) => a.version);
  for (const a of answers) if (!is2xx(a.res)) log.push(`${a.version}: GET /institutions answered ${answer(a.res)}; left out of versions.supported`);
  add('SVC_VERSIONS', served.join(','), `GET /institutions answered 2xx under Accept-Version ${served.join(', ')}`);
  // The header a deprecated version's answers carry (its name is not shown): the profile's name, else any that says so.
  const deprecated: Array<{ version: string; header: string; day: string; value: string }> = [];
  let sunsetHeader: string | undefined;
  for (const { version, res } of answers) {
    if (res.kind !== 'answered' || !is2xx(res)) continue;
    const names = Object.keys(res.headers);
    const header = names.find((n) => n === profile.versions.deprecationHeader.toLowerCase()) ?? names.find((n) => /deprecat/i.test(n));
    const day = header ? deprecationDay(res.headers[header]) : undefined;
    if (header && day) deprecated.push({ version, header, day, value: res.headers[header] });
    sunsetHeader ??= names.find((n) => n === profile.versions.sunsetHeader.toLowerCase()) ?? names.find((n) => /sunset/i.test(n));
  }
  // The most recently deprecated version stays usable longest (Versioning: 12 months after its deprecation date).
  const latest = deprecated.sort((a, b) => b.day.localeCompare(a.day))[0];
  if (latest) {
    const how = `GET /institutions under ${latest.version} answered with ${canonical(latest.header)}: ${latest.value} (${latest.day})`;
    add('SVC_DEPRECATED_VERSION', latest.version, how);
    add('SVC_DEPRECATED_ON', latest.day, how);
    add('SVC_DEPRECATION_HEADER', canonical(latest.header), `the header ${latest.version}'s answers carry`);
  } else log.push(`no answer of ${served.join(', ')} carries a deprecation header`);
  if (sunsetHeader && latest)
    add('SVC_SUNSET_HEADER', canonical(sunsetHeader), `the header ${latest.version}'s answers carry beside ${canonical(latest.header)}`);
}

/** The favourites, a blocked institution, the test institutions and the test institution's country. */
async function discoverInstitutions(x: Discoverer): Promise<void> {
  const { profile, add, log, read, list } = x;
  const [favourites, all, test, oauth] = await Promise.all([
    list('/institutions/favorites', 'institutions'),
    list('/institutions', 'institutions', { include_blocked_institutions: 'true' }),
    read(`/institutions/${encodeURIComponent(profile.testInstitution.code)}`),
    read(`/institutions/${encodeURIComponent(profile.testInstitution.oauthCode)}`),
  ]);
  const codes = favourites.map((r) => str(r.code)).filter((c): c is string => !!c);
  add('SVC_FAVORITE_INSTITUTION_CODES', codes.join(','), `GET /institutions/favorites: the ${codes.length} favourites in the order the target lists them`);
  if (!codes.length) log.push('GET /institutions/favorites listed none: the vendor sets favourites up on request');
  const blocked = all.find((r) => r.is_disabled_by_client === true);
  add('SVC_BLOCKED_INSTITUTION_CODE', str(blocked?.code), 'GET /institutions?include_blocked_institutions=true: the first with is_disabled_by_client true');
  if (!blocked) log.push(`no institution among the first ${all.length} listed with include_blocked_institutions is blocked for this client`);
  const record = (res: BoundedOutcome) => (json(res)?.institution as Rec | undefined) ?? undefined;
  if (record(test))
    add('SVC_TEST_INSTITUTION_CODE', profile.testInstitution.code, `GET /institutions/${profile.testInstitution.code} answered ${answer(test)}`);
  else log.push(`GET /institutions/${profile.testInstitution.code} answered ${answer(test)}: the member scenarios need the test institution`);
  if (record(oauth))
    add(
      'SVC_TEST_OAUTH_INSTITUTION_CODE',
      profile.testInstitution.oauthCode,
      `GET /institutions/${profile.testInstitution.oauthCode} answered ${answer(oauth)}`,
    );
  else log.push(`GET /institutions/${profile.testInstitution.oauthCode} answered ${answer(oauth)}`);
  // No institution field is stated to carry the country: taken only when the record shows one.
  const countryField = Object.entries(record(test) ?? {}).find(([k, v]) => /country/i.test(k) && typeof v === 'string' && /^[A-Za-z]{2}$/.test(v));
  if (countryField) add('SVC_TEST_INSTITUTION_COUNTRY', countryField[1] as string, `the test institution's ${countryField[0]}`);
}

/**
 * Data exchange, from the one GUID a team holds: the grant and its parties, then through a
 * token the grant's user, account, member and a transaction in the default window, then
 * through the issuing client's own reads what the token hides.
 */
async function discoverDataExchange(x: Discoverer): Promise<void> {
  const grant = await discoverGrant(x);
  if (!grant) return;
  const token = await discoverToken(x, grant);
  if (!token) return;
  const slim = await discoverThroughToken(x, token);
  if (!slim) return;
  await discoverThroughIssuer(x, token, slim);
}

/** The grant the team's client is party to, its issuer and its grantees. */
async function discoverGrant(x: Discoverer): Promise<{ grantGuid: string; grantees: string[] } | undefined> {
  const { profile, add, log, list } = x;
  const dx = profile.dataExchange;
  const entry = dx.granteeClientGuid
    ? { side: 'grantee', guid: dx.granteeClientGuid }
    : dx.issuerClientGuid
      ? { side: 'issuer', guid: dx.issuerClientGuid }
      : undefined;
  if (!entry) {
    log.push("data exchange: SVC_3DX_ISSUER_GUID or SVC_3DX_GRANTEE_GUID names the entry point (no endpoint reveals a client's own GUID)");
    return undefined;
  }
  const grantsOf = (side: string, client: string) => list(`/data_exchange/${side}/${encodeURIComponent(client)}/grants`, 'grants');
  const grants = await grantsOf(entry.side, entry.guid);
  const grant = grants.find((g) => g.guid === dx.grantGuid) ?? grants[0];
  const grantGuid = str(grant?.guid);
  if (!grant || !grantGuid) {
    log.push(`GET /data_exchange/${entry.side}/{guid}/grants listed no grant`);
    return undefined;
  }
  const from = `GET /data_exchange/${entry.side}/${entry.guid}/grants`;
  add('SVC_3DX_GRANT_GUID', grantGuid, `${from}: the first grant`);
  // The grant names its issuer and grantees under names not shown: a value is one when its list holds the grant.
  const candidates = [
    ...new Set(Object.entries(grant).flatMap(([k, v]) => (k === 'guid' ? [] : (Array.isArray(v) ? v : [v]).filter((item) => typeof item === 'string')))),
  ];
  const holds = async (side: string, client: string) => (await grantsOf(side, client)).some((g) => g.guid === grantGuid);
  const issuers: string[] = [];
  const grantees: string[] = [];
  for (const c of candidates.filter((c) => /^[\w.:-]{8,}$/.test(c)).slice(0, 8)) {
    if (await holds('issuer', c)) issuers.push(c);
    if (await holds('grantee', c)) grantees.push(c);
  }
  add('SVC_3DX_ISSUER_GUID', issuers[0], `grant ${grantGuid}: the value whose issuer grant list holds it`);
  add('SVC_3DX_GRANTEE_GUID', dx.granteeClientGuid ?? grantees[0], `grant ${grantGuid}: a value whose grantee grant list holds it`);
  add('SVC_3DX_GRANTEE_GUIDS', grantees.join(','), `grant ${grantGuid}: every value whose grantee grant list holds it`);
  return { grantGuid, grantees };
}

/** The one data-exchange token discovery creates (Endpoints: the token endpoint), and the key it came under. */
async function discoverToken(x: Discoverer, { grantGuid, grantees }: { grantGuid: string; grantees: string[] }): Promise<string | undefined> {
  const { profile, add, log, read } = x;
  const tokenGrantee = profile.dataExchange.granteeClientGuid ?? grantees[0];
  if (!tokenGrantee) return undefined;
  const tokenRes = await read(`/data_exchange/grantee/${encodeURIComponent(tokenGrantee)}/grants/${encodeURIComponent(grantGuid)}/token`, { method: 'POST' });
  const token = tokenIn(json(tokenRes));
  if (!token) {
    log.push(`POST .../grants/${grantGuid}/token answered ${answer(tokenRes)} without a token: the token-protected identities stay unknown`);
    return undefined;
  }
  const tokenField = Object.entries(json(tokenRes) ?? {}).find(([, v]) => v === token)?.[0];
  add('SVC_3DX_TOKEN_FIELD', tokenField, `POST .../grants/${grantGuid}/token answered ${answer(tokenRes)} with the token under this key`);
  return token;
}

/** What the token reads: the user, its account and member, their transactions. */
interface SlimReads {
  userGuid: string;
  memberGuid: string | undefined;
  transactions: Rec[];
}

/** Read through the grant: the first user with a slim account, that account, its member and its newest transaction in the default window. */
async function discoverThroughToken(x: Discoverer, token: string): Promise<SlimReads | undefined> {
  const { add, log, read, list } = x;
  const h = { 'SVC-3DX-TOKEN': token };
  const users = records(json(await read('/data_exchange/users', { query: { records_per_page: '25' }, headers: h })), 'users');
  let user: Rec | undefined;
  let accounts: Rec[] = [];
  for (const u of users.slice(0, 10)) {
    accounts = await list(`/data_exchange/users/${encodeURIComponent(String(u.guid))}/accounts`, 'accounts', {}, h);
    if (accounts.length) {
      user = u;
      break;
    }
  }
  const userGuid = str(user?.guid);
  if (!user || !userGuid) {
    log.push('none of the first ten users the token lists has a slim account');
    return undefined;
  }
  const through = 'read through the grant (GET /data_exchange/users and its accounts)';
  add('SVC_3DX_USER', userGuid, `${through}: the first user with a slim account`);
  add('SVC_3DX_USER_ID', str(user.id), `${through}: that user's id`);
  const transactions = records(
    json(await read(`/data_exchange/users/${encodeURIComponent(userGuid)}/transactions`, { query: { records_per_page: '1000' }, headers: h })),
    'transactions',
  );
  const account = accounts.find((a) => transactions.some((t) => t.account_guid === a.guid)) ?? accounts[0];
  const accountGuid = str(account.guid);
  add('SVC_3DX_ACCOUNT_GUID', accountGuid, `${through}: the account of the user's listed transactions`);
  add('SVC_3DX_ACCOUNT_ID', str(account.id), `${through}: that account's id`);
  const memberGuid = str(account.member_guid);
  add('SVC_3DX_MEMBER', memberGuid, `${through}: that account's member_guid`);
  // The default list holds only the 90 days before the request day: its newest record stays inside longest.
  const dateField = ['date', 'transacted_at', 'posted_at', 'created_at'].find((f) => transactions.some((t) => typeof t[f] === 'string'));
  add('SVC_3DX_TRANSACTION_DATE_FIELD', dateField, 'the first of date, transacted_at, posted_at, created_at the slim transactions carry');
  const dated = (t: Rec) => String(t[dateField ?? 'date'] ?? '');
  const inWindow = transactions.filter((t) => t.account_guid === accountGuid).sort((a, b) => dated(b).localeCompare(dated(a)))[0];
  add('SVC_3DX_WINDOW_TRANSACTION_GUID', str(inWindow?.guid), `GET /data_exchange/users/{user}/transactions (the default window): that account's newest`);
  return { userGuid, memberGuid, transactions };
}

/**
 * The issuing client's own reads (platform API) show what the token hides: the member's
 * partner id, manual transactions, and transactions of a scope the grant does not cover.
 */
async function discoverThroughIssuer(x: Discoverer, token: string, { userGuid, memberGuid, transactions }: SlimReads): Promise<void> {
  const { add, log, read } = x;
  const h = { 'SVC-3DX-TOKEN': token };
  const member = memberGuid ? json(await read(`/users/${encodeURIComponent(userGuid)}/members/${encodeURIComponent(memberGuid)}`)) : undefined;
  add('SVC_3DX_MEMBER_ID', str((member?.member as Rec | undefined)?.id), `GET /users/{user}/members/${memberGuid}: the member's id`);
  const ownRes = await read(`/users/${encodeURIComponent(userGuid)}/transactions`, { query: { records_per_page: '1000' } });
  const own = records(json(ownRes), 'transactions');
  if (!own.length)
    log.push(
      `GET /users/${userGuid}/transactions answered ${answer(ownRes)}${is2xx(ownRes) ? ' with no transaction' : ''}: the issuing client's own reads are needed to find a manual and an out-of-scope transaction`,
    );
  const manual = own.find((t) => t.is_manual === true);
  if (manual) {
    const how = `GET /users/${userGuid}/transactions: a transaction with is_manual true`;
    add('SVC_3DX_MANUAL_TRANSACTION_GUID', str(manual.guid), how);
    add('SVC_3DX_MANUAL_TRANSACTION_MEMBER', str(manual.member_guid), how);
    add('SVC_3DX_MANUAL_TRANSACTION_ACCOUNT', str(manual.account_guid), how);
  }
  // One non-manual transaction per other member: the one the token read answers 404 is outside the grant's scope.
  const shared = new Set(transactions.map((t) => t.guid));
  const others = new Map<unknown, Rec>();
  for (const t of own)
    if (t.is_manual !== true && !shared.has(t.guid) && t.member_guid !== memberGuid && !others.has(t.member_guid)) others.set(t.member_guid, t);
  for (const t of [...others.values()].slice(0, 5)) {
    const res = await read(`/data_exchange/users/${encodeURIComponent(userGuid)}/transactions/${encodeURIComponent(String(t.guid))}`, { headers: h });
    if (res.kind === 'answered' && res.status === 404) {
      const how = `listed by GET /users/${userGuid}/transactions (is_manual false), answered 404 through the token`;
      add('SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID', str(t.guid), how);
      add('SVC_3DX_SCOPE_MISMATCH_MEMBER', str(t.member_guid), how);
      add('SVC_3DX_SCOPE_MISMATCH_ACCOUNT', str(t.account_guid), how);
      break;
    }
  }
}

/** `deprecation` → `Deprecation`: header names as people write them (HTTP compares them without case). */
const canonical = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`);

/** The token response's shape is not shown: the first string under a key named like `token`. */
function tokenIn(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const [k, v] of Object.entries(body as Rec)) {
    if (/token/i.test(k) && typeof v === 'string') return v;
    const nested = v && typeof v === 'object' ? tokenIn(v) : undefined;
    if (nested) return nested;
  }
  return undefined;
}
