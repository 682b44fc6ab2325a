import { requestAudienceToken, type TargetProfile } from '../../../targets/index.ts';
import { formatFailure, GENERATED_RULES, type Failure, type GeneratedCase } from '../../../contracts/index.ts';
import { curlOf, exchange, type Credentials, type FuzzTarget, type Judged } from './engine.ts';
import { suiteId } from '../../cleanup.ts';
import { STATED_IDENTIFIERS, type Example, type FuzzCase, type KnownIds, type OperationSpec, type SecurityNeed } from './requests.ts';

/** Known identifiers per namespace: the platform's own paths, data exchange paths, the audience host. */
export interface KnownScopes {
  platform: KnownIds;
  dataExchange: KnownIds;
  audience: KnownIds;
  testHost: KnownIds;
  /** Accepted requests by operation template (`POST /users/{user_guid}/members`): the base of negative cases. */
  examples: Map<string, Example>;
}

export function knownFor(scopes: KnownScopes, spec: Pick<OperationSpec, 'api' | 'path'>): KnownIds {
  if (spec.api === 'audience') return scopes.audience;
  if (spec.api === 'test-host') return scopes.testHost;
  if (spec.path.startsWith('/data_exchange')) return scopes.dataExchange;
  // Managed members are another kind of member (deprecated from v20250224): the chains' member
  // is not one, so under /managed_members only the user is known.
  if (spec.path.includes('/managed_members')) return { user_guid: scopes.platform.user_guid ?? [] };
  return scopes.platform;
}

export interface ChainStep {
  what: string;
  status: number;
  errors: string[];
  curl: string;
}

export interface ChainResult {
  scopes: KnownScopes;
  credentials: Credentials;
  steps: ChainStep[];
  /** Findings of every tier, for the run's tallies. */
  failures: Failure[];
}

const BASIC: SecurityNeed[] = [{ scheme: 'basicAuth', type: 'basic' }];
const add = (k: KnownIds, name: string, v: unknown) => {
  if (typeof v !== 'string' || !v) return;
  (k[name] ??= []).includes(v) || k[name].push(v);
};
const dig = (body: unknown, ...path: string[]): unknown => path.reduce<any>((n, k) => (n && typeof n === 'object' ? n[k] : undefined), body);

/** A chain step's request: a generated case without what every chain step shares. */
type StepRequest = Omit<FuzzCase, 'api' | 'auth' | 'operation' | 'generated' | 'query' | 'headers'> & {
  api?: FuzzCase['api'];
  query?: Array<[string, string]>;
  headers?: Record<string, string>;
  generated?: GeneratedCase;
  security?: SecurityNeed[];
};

/** One run of the chains: what they found so far, and the step that sends one request. */
interface Chain {
  t: Omit<FuzzTarget, 'known'>;
  p: TargetProfile;
  /** The platform version every step is sent on. */
  v: string;
  scopes: KnownScopes;
  credentials: Credentials;
  result: ChainResult;
  /** One request of a chain, judged like a generated case. */
  step: (what: string, c: StepRequest) => Promise<Judged>;
}

const ok = (s: { status: number }) => s.status >= 200 && s.status < 300;

export async function runChains(t: Omit<FuzzTarget, 'known'>, o: { destructive: boolean; version: string; log?: (l: string) => void }): Promise<ChainResult> {
  const chain = startChain(t, o);
  await readPublicIdentifiers(chain);
  await obtainAudienceToken(chain);
  await queryGrantWithOneGrantee(chain);
  if (o.destructive) await runWritingChains(chain);
  return chain.result;
}

function startChain(t: Omit<FuzzTarget, 'known'>, o: { version: string; log?: (l: string) => void }): Chain {
  const scopes: KnownScopes = { platform: {}, dataExchange: {}, audience: {}, testHost: {}, examples: new Map() };
  const credentials: Credentials = { ...t.credentials };
  const result: ChainResult = { scopes, credentials, steps: [], failures: [] };
  const target: FuzzTarget = { ...t, known: () => ({}), credentials };
  const step = async (what: string, c: StepRequest) => {
    const fc: FuzzCase = {
      api: c.api ?? 'platform',
      version: c.version,
      method: c.method,
      path: c.path,
      query: c.query ?? [],
      headers: c.headers ?? {},
      ...(c.body !== undefined ? { body: c.body } : {}),
      auth: 'default',
      operation: `${c.method} ${c.path}`,
      generated: c.generated ?? { kind: 'valid', tier: 'informational', rule: 'chain step', what },
    };
    const spec = { security: c.security ?? BASIC } as OperationSpec;
    const sent = await exchange(fc, spec, target, 5);
    for (const f of sent.failures) result.failures.push(f);
    const errors = sent.failures.filter((f) => f.severity === 'error').map((f) => t.redactor.text(formatFailure(f)));
    result.steps.push({ what, status: sent.status, errors, curl: curlOf(sent, fc.method, t.redactor) });
    o.log?.(`chain: ${what} -> ${sent.status}${errors.length ? ` (${errors.length} failures)` : ''}`);
    return sent;
  };
  return { t, p: t.profile, v: o.version, scopes, credentials, result, step };
}

/** Read-only identifiers, valid on any target: the test institution, default categories and the profile's. */
async function readPublicIdentifiers({ p, v, scopes, step }: Chain): Promise<void> {
  add(scopes.platform, 'institution_identifier', p.testInstitution.code);
  const inst = await step('read the test institution', { method: 'GET', path: `/institutions/${encodeURIComponent(p.testInstitution.code)}`, version: v });
  add(scopes.platform, 'institution_identifier', dig(inst.body, 'institution', 'guid'));
  const cats = await step('list default categories', { method: 'GET', path: '/categories/default', version: v, query: [['records_per_page', '10']] });
  for (const c of ((dig(cats.body, 'categories') as any[]) ?? []).slice(0, 3)) add(scopes.platform, 'category_guid', c?.guid);
  const dx = p.dataExchange;
  add(scopes.dataExchange, 'issuer_client_guid', dx.issuerClientGuid);
  add(scopes.dataExchange, 'grantee_client_guid', dx.granteeClientGuid);
  add(scopes.dataExchange, 'grant_guid', dx.grantGuid);
  add(scopes.dataExchange, 'user_identifier', dx.userIdentifier);
  add(scopes.dataExchange, 'user_identifier', dx.userPartnerId);
  add(scopes.dataExchange, 'member_identifier', dx.memberIdentifier);
  add(scopes.dataExchange, 'member_identifier', dx.memberPartnerId);
  add(scopes.dataExchange, 'account_guid', dx.accountGuid);
  add(scopes.dataExchange, 'account_identifier', dx.accountGuid);
  add(scopes.dataExchange, 'account_identifier', dx.accountPartnerId);
  add(scopes.audience, 'id_or_slug', p.audience.audienceId);
  add(scopes.audience, 'id_or_slug', p.audience.audienceSlug);
  add(scopes.audience, 'institution_public_id', p.audience.institutionPublicId);
}

/** Audience access token (Authentication 5): the profile's token URL, OAuth 2.0 client credentials. */
async function obtainAudienceToken({ t, p, credentials }: Chain): Promise<void> {
  if (credentials.audienceToken || !p.audience.tokenUrl || !p.audience.clientId || !p.audience.clientSecret) return;
  try {
    const { token } = await requestAudienceToken(p, (x) => t.redactor.text(x));
    if (token !== undefined) {
      credentials.audienceToken = token;
      t.redactor.add(token);
    }
  } catch {
    /* the audience operations then draw refusals only */
  }
}

/**
 * The grant query with one grantee of the profile's grant only (Endpoints, Data exchange: "every grantee
 * on the grant must be supplied or the grant is not returned"): whatever it answers, grant_grantees
 * (contracts/stated-partners.ts) judges that no grant names a grantee the query left out. The parameter's
 * name is not shown; the simulator's is used (a target that names it otherwise refuses: no finding).
 */
async function queryGrantWithOneGrantee({ p, v, step }: Chain): Promise<void> {
  const dx = p.dataExchange;
  if (!dx.issuerClientGuid || !dx.granteeClientGuid) return;
  await step('query the grant with one of its grantees', {
    method: 'GET',
    path: '/data_exchange/grant',
    version: v,
    query: [
      ['issuer_guid', dx.issuerClientGuid],
      ['grantee_guids', dx.granteeClientGuid],
    ],
  });
}

/** The chains that create (and delete) resources: only on a target that may be written to. */
async function runWritingChains(chain: Chain): Promise<void> {
  await createDataExchangeToken(chain);
  // user -> member -> accounts -> transactions
  const userGuid = await createAndUpdateUser(chain);
  if (!userGuid) return;
  const member = await memberWithTestCredentials(chain);
  const memberGuid = await createMember(chain, userGuid, member);
  await requestWidgetUrl(chain, userGuid);
  if (memberGuid) await exploreMember(chain, userGuid, memberGuid);
  await createOAuthMember(chain, userGuid);
  await deleteAndReadAgain(chain, member);
}

/** Data exchange token: POST .../token (Errors: 201), fed forward as SVC-3DX-TOKEN. */
async function createDataExchangeToken(chain: Chain): Promise<void> {
  const { t, p, v, credentials, step } = chain;
  const dx = p.dataExchange;
  if (!dx.granteeClientGuid || !dx.grantGuid) return;
  const tok = await step('create a data exchange token', {
    method: 'POST',
    path: `/data_exchange/grantee/${dx.granteeClientGuid}/grants/${dx.grantGuid}/token`,
    version: v,
  });
  const token = findToken(tok.body);
  if (token) {
    credentials.threeDxToken = token;
    t.redactor.add(token);
  }
  if (token && dx.userIdentifier) await readGrantUserSlimRecords(chain, dx.userIdentifier, token);
}

/** The grant's other accounts (Authentication 3: with the token): each slim account read then names one. */
async function readGrantUserSlimRecords({ v, scopes, step }: Chain, userIdentifier: string, token: string): Promise<void> {
  const accounts = await step("list the grant user's slim accounts", {
    method: 'GET',
    path: `/data_exchange/users/${encodeURIComponent(userIdentifier)}/accounts`,
    version: v,
    headers: { 'SVC-3DX-TOKEN': token },
  });
  for (const a of ((dig(accounts.body, 'accounts') as any[]) ?? []).slice(0, 3)) add(scopes.dataExchange, 'account_guid', a?.guid);
  // The default window's transactions (Endpoints, Data exchange; Limits), the stated maximum page and the
  // last page: each answer judged alone (SlimTransaction: is_manual false; dx_default_window: a 90-day span).
  const txPath = `/data_exchange/users/${encodeURIComponent(userIdentifier)}/transactions`;
  const first = await step("list the grant user's slim transactions (records_per_page 1000)", {
    method: 'GET',
    path: txPath,
    version: v,
    headers: { 'SVC-3DX-TOKEN': token },
    query: [['records_per_page', '1000']],
  });
  const pages = Number(dig(first.body, 'pagination', 'total_pages'));
  if (ok(first) && Number.isInteger(pages) && pages > 1 && pages <= 1000) {
    await step("list the last page of the grant user's slim transactions", {
      method: 'GET',
      path: txPath,
      version: v,
      headers: { 'SVC-3DX-TOKEN': token },
      query: [
        ['page', String(pages)],
        ['records_per_page', '1000'],
      ],
    });
  }
}

/** Creates the chains' user, reads it back and updates it; its guid, or undefined when refused. */
async function createAndUpdateUser({ v, scopes, step }: Chain): Promise<string | undefined> {
  const user = await step('create a user', { method: 'POST', path: '/users', version: v, body: { user: { id: suiteId('fuzz-user') } } });
  const userGuid = dig(user.body, 'user', 'guid') as string | undefined;
  if (!ok(user) || !userGuid) return undefined;
  // Accepted requests the reach pass sends again with each optional header the description
  // lists (Events rule 8: SVC-SKIP-WEBHOOK "on create, update and delete of ... users"):
  // a user create (a fresh client id each time is not needed: the id is the client's own) and an update.
  scopes.examples.set('POST /users', { params: {}, body: { user: {} } });
  add(scopes.platform, 'user_guid', userGuid);
  add(scopes.platform, 'user_identifier', userGuid);
  await step('read the created user', { method: 'GET', path: `/users/${userGuid}`, version: v, generated: availability('the user just created') });
  const userUpdate = { user: { metadata: 'fuzz' } };
  const updatedUser = await step('update the user', { method: 'PUT', path: `/users/${userGuid}`, version: v, body: userUpdate });
  if (ok(updatedUser)) scopes.examples.set('PUT /users/{user_guid}', { params: { user_guid: userGuid }, body: userUpdate });
  return userGuid;
}

/** A member of the test institution, with its username and success password when its credential fields are read. */
async function memberWithTestCredentials({ p, v, step }: Chain): Promise<Record<string, unknown>> {
  const creds = await step('read the test institution credentials', {
    method: 'GET',
    path: `/institutions/${encodeURIComponent(p.testInstitution.code)}/credentials`,
    version: v,
  });
  const fields = (dig(creds.body, 'credentials') as any[]) ?? [];
  const pass = fields.find((c) => /pass/i.test(`${c?.field_name ?? ''} ${c?.label ?? ''} ${c?.type ?? ''}`));
  const name = fields.find((c) => c !== pass);
  const member: Record<string, unknown> = { institution_code: p.testInstitution.code, id: suiteId('fuzz-member') };
  if (pass && name && p.testInstitution.passwords.SUCCESS)
    member.credentials = [
      { guid: name.guid, value: p.testInstitution.username },
      { guid: pass.guid, value: p.testInstitution.passwords.SUCCESS },
    ];
  return member;
}

/** Creates the chains' member; its guid when the create was accepted. */
async function createMember({ v, scopes, step }: Chain, userGuid: string, member: Record<string, unknown>): Promise<string | undefined> {
  // Versioning, changes in v20250224: create member takes a required data_request; account_verification
  // makes the member eligible for a processor authorization code ("must already have been verified").
  const memberBody = { member, data_request: { products: ['transactions', 'account_verification'] } };
  const created = await step('create a member', { method: 'POST', path: `/users/${userGuid}/members`, version: v, body: memberBody });
  const memberGuid = dig(created.body, 'member', 'guid') as string | undefined;
  if (!ok(created)) return undefined;
  scopes.examples.set('POST /users/{user_guid}/members', { params: { user_guid: userGuid }, body: { ...memberBody, member: { ...member, id: undefined } } });
  return memberGuid;
}

/** Widget URL (Resources, Widget URL: request object widget_url; data_request among its fields, v20250224). */
async function requestWidgetUrl({ v, scopes, step }: Chain, userGuid: string): Promise<void> {
  const widgetBody = { widget_url: { widget_type: 'connect_widget', data_request: { products: ['transactions'] } } };
  const widget = await step('request a widget URL', { method: 'POST', path: `/users/${userGuid}/widget_urls`, version: v, body: widgetBody });
  if (ok(widget)) {
    scopes.examples.set('POST /users/{user_guid}/widget_urls', { params: { user_guid: userGuid }, body: widgetBody });
    scopes.examples.set('POST /users/{user_identifier}/widget_urls', { params: { user_identifier: userGuid }, body: widgetBody });
  }
}

/** Everything the chains reach from the created member: its records, then what its first account opens. */
async function exploreMember(chain: Chain, userGuid: string, memberGuid: string): Promise<void> {
  add(chain.scopes.platform, 'member_guid', memberGuid);
  await readAndUpdateMember(chain, userGuid, memberGuid);
  await waitForAggregation(chain, userGuid, memberGuid);
  await chain.step('verify the member', { method: 'POST', path: `/users/${userGuid}/members/${memberGuid}/verify`, version: chain.v });
  await listMemberRecords(chain, userGuid, memberGuid);
  await createGoalAndBudget(chain, userGuid);
  const accountGuid = chain.scopes.platform.account_guid?.[0];
  if (!accountGuid) return;
  const ids = { userGuid, memberGuid, accountGuid };
  await createAndReadAchReturn(chain, ids);
  await readPaymentAccountWithProcessorToken(chain, ids);
  await requestAuthorizationCodeForUserAlone(chain, userGuid);
}

async function readAndUpdateMember({ v, scopes, step }: Chain, userGuid: string, memberGuid: string): Promise<void> {
  await step('read the created member', {
    method: 'GET',
    path: `/users/${userGuid}/members/${memberGuid}`,
    version: v,
    generated: availability('the member just created'),
  });
  // An update the target accepts (Endpoints: members "can also be ... updated"): the base of the
  // reach pass's cases on it (the optional headers it lists: X-CALLBACK-PAYLOAD, SVC-SKIP-WEBHOOK).
  const updateBody = { member: { metadata: 'fuzz' } };
  const updated = await step('update the member', { method: 'PUT', path: `/users/${userGuid}/members/${memberGuid}`, version: v, body: updateBody });
  if (ok(updated))
    scopes.examples.set('PUT /users/{user_guid}/members/{member_guid}', { params: { user_guid: userGuid, member_guid: memberGuid }, body: updateBody });
}

/** Aggregation settles (States and transitions); bounded by the profile. */
async function waitForAggregation({ p, v, step }: Chain, userGuid: string, memberGuid: string): Promise<void> {
  const deadline = performance.now() + p.timeouts.aggregationMs;
  for (;;) {
    const s = await step('read the member status', { method: 'GET', path: `/users/${userGuid}/members/${memberGuid}/status`, version: v });
    const st = dig(s.body, 'member') as any;
    if (
      !st ||
      (['CONNECTED', 'HALTED', 'DENIED', 'CHALLENGED'].includes(st.connection_status) && st.is_being_aggregated !== true) ||
      performance.now() > deadline
    )
      break;
    await new Promise((r) => setTimeout(r, p.timeouts.pollIntervalMs));
  }
}

/** The member's accounts, the user's transactions and insights, the member's statements: their guids fed forward. */
async function listMemberRecords({ v, scopes, step }: Chain, userGuid: string, memberGuid: string): Promise<void> {
  const accounts = await step("list the member's accounts", { method: 'GET', path: `/users/${userGuid}/members/${memberGuid}/accounts`, version: v });
  for (const a of ((dig(accounts.body, 'accounts') as any[]) ?? []).slice(0, 2)) add(scopes.platform, 'account_guid', a?.guid);
  const txs = await step("list the user's transactions", {
    method: 'GET',
    path: `/users/${userGuid}/transactions`,
    version: v,
    query: [['records_per_page', '10']],
  });
  for (const x of ((dig(txs.body, 'transactions') as any[]) ?? []).slice(0, 2)) add(scopes.platform, 'transaction_guid', x?.guid);
  const insights = await step("list the user's insights", { method: 'GET', path: `/users/${userGuid}/insights`, version: v });
  for (const x of ((dig(insights.body, 'insights') as any[]) ?? []).slice(0, 2)) add(scopes.platform, 'insight_guid', x?.guid);
  // Product areas whose records a sentence describes (What the service does: statements "as PDF",
  // goals "each with track_type_name ... and meta_type_name", budgets "each with a category_guid"):
  // paths and payloads are not shown, so these are the vendor reference's (the scenarios' profile
  // defaults); a refusal decides nothing, the answers are judged by contracts/stated-platform.ts.
  const statements = await step("list the member's statements", { method: 'GET', path: `/users/${userGuid}/members/${memberGuid}/statements`, version: v });
  for (const x of ((dig(statements.body, 'statements') as any[]) ?? []).slice(0, 1))
    if (typeof x?.guid === 'string') add(scopes.platform, 'statement_guid', x.guid);
}

/** A goal and a budget (What the service does; the vendor reference's paths and payloads, see listMemberRecords). */
async function createGoalAndBudget({ v, scopes, step }: Chain, userGuid: string): Promise<void> {
  await step('create a goal', {
    method: 'POST',
    path: `/users/${userGuid}/goals`,
    version: v,
    body: { goal: { name: 'fuzz goal', goal_amount: 1000, track_type_name: 'SAVINGS', meta_type_name: 'VACATION' } },
  });
  const budgetCategory = scopes.platform.category_guid?.[0];
  if (budgetCategory)
    await step('create a budget', {
      method: 'POST',
      path: `/users/${userGuid}/budgets`,
      version: v,
      body: { budget: { category_guid: budgetCategory, amount: 250 } },
    });
}

/** The identifiers the chains created, for the requests that name all three. */
interface CreatedIds {
  userGuid: string;
  memberGuid: string;
  accountGuid: string;
}

/** ACH return from the identifiers fed forward (Resources, ACH return: every field in its stated format), read back by guid and by client id. */
async function createAndReadAchReturn({ v, scopes, step }: Chain, { userGuid, memberGuid, accountGuid }: CreatedIds): Promise<void> {
  const achId = suiteId('fuzz-ach');
  const achBody = {
    ach_return: {
      account_guid: accountGuid,
      account_number_last_four: '1234',
      ach_initiated_at: '2026-01-05T10:00:00+00:00',
      id: achId,
      member_guid: memberGuid,
      return_code: 'R01',
      returned_at: '2026-01-07T09:30:00-05:00',
      sec_code: 'PPD',
      transaction_amount: 12.5,
      transaction_amount_range: 1,
      user_guid: userGuid,
    },
  };
  const ach = await step('create an ACH return', { method: 'POST', path: '/ach_returns', version: v, body: achBody });
  const achGuid = dig(ach.body, 'ach_return', 'guid') as string | undefined;
  if (!ok(ach)) return;
  // A new client id per negative case is not needed: a refused request creates nothing.
  scopes.examples.set('POST /ach_returns', { params: {}, body: achBody });
  const stated: GeneratedCase = { kind: 'after-create', tier: 'stated', rule: STATED_IDENTIFIERS.ach_return_guid, what: '' };
  if (achGuid) {
    add(scopes.platform, 'ach_return_guid', achGuid);
    await step('read the ACH return by guid', {
      method: 'GET',
      path: `/ach_returns/${achGuid}`,
      version: v,
      generated: { ...stated, what: 'the ACH return just created, by guid' },
    });
  }
  add(scopes.platform, 'ach_return_guid', achId);
  await step('read the ACH return by id', {
    method: 'GET',
    path: `/ach_returns/${encodeURIComponent(achId)}`,
    version: v,
    generated: { ...stated, what: 'the ACH return just created, by its client id' },
  });
}

/** Processor: authorization code (scope of the verified member) -> /token -> access_token -> /payment_account. */
async function readPaymentAccountWithProcessorToken({ t, v, step }: Chain, { userGuid, memberGuid, accountGuid }: CreatedIds): Promise<void> {
  const code = await step('request a processor authorization code', {
    method: 'POST',
    path: '/authorization_code',
    version: v,
    body: { authorization_code: { scope: `user-guid:${userGuid} member-guid:${memberGuid} account-guid:${accountGuid} read-protected` } },
  });
  const codeValue = findKey(code.body, /^(code|authorization_code)$/);
  if (!codeValue) return;
  t.redactor.add(codeValue);
  const token = await step('exchange the code at /token', { method: 'POST', path: '/token', version: v, body: { code: codeValue } });
  const access = findKey(token.body, /^access_token$/);
  if (!access) return;
  t.redactor.add(access);
  await step('read the payment account with the processor token', {
    method: 'GET',
    path: '/payment_account',
    version: v,
    security: [],
    headers: { authorization: `Bearer ${access}` },
  });
  // Once a token exists: the same read without credentials and with a token never issued (ignored_auth).
  await step('read the payment account without credentials', {
    method: 'GET',
    path: '/payment_account',
    version: v,
    security: [],
    generated: { kind: 'no-auth', tier: 'stated', rule: PROCESSOR_ACCESS, what: 'no credentials on GET /payment_account' },
  });
  await step('read the payment account with a token never issued', {
    method: 'GET',
    path: '/payment_account',
    version: v,
    security: [],
    headers: { authorization: 'Bearer fuzz-never-issued-token' },
    generated: { kind: 'wrong-auth', tier: 'stated', rule: PROCESSOR_ACCESS, what: 'a bearer token never issued on GET /payment_account' },
  });
}

/**
 * The stated request shape with a scope naming the user alone (no member: "must already have been
 * verified" does not apply): acceptance expected (positive_data_acceptance, stated).
 */
async function requestAuthorizationCodeForUserAlone({ v, scopes, step }: Chain, userGuid: string): Promise<void> {
  const userAlone = { authorization_code: { scope: `user-guid:${userGuid}` } };
  const userCode = await step('request a processor authorization code for the user alone', {
    method: 'POST',
    path: '/authorization_code',
    version: v,
    body: userAlone,
    generated: {
      kind: 'positive',
      tier: 'stated',
      rule: AUTHORIZATION_CODE_REQUEST,
      what: `an authorization code request in the stated shape, scope user-guid:${userGuid}`,
    },
  });
  // The accepted request is the base of the scope's negative cases and near misses (one rule broken on a request otherwise accepted).
  if (ok(userCode)) scopes.examples.set('POST /authorization_code', { params: {}, body: userAlone });
}

/**
 * An OAuth member (OAuth procedure 1: "Create a member with is_oauth true") on the profile's OAuth test
 * institution: its answer shows oauth_window_uri (member_oauth_window_uri judges its protocol prefix).
 */
async function createOAuthMember({ p, v, step }: Chain, userGuid: string): Promise<void> {
  if (!p.testInstitution.oauthCode) return;
  await step('create an OAuth member', {
    method: 'POST',
    path: `/users/${userGuid}/members`,
    version: v,
    body: {
      member: { institution_code: p.testInstitution.oauthCode, is_oauth: true, id: suiteId('fuzz-oauth') },
      data_request: { products: ['transactions'] },
    },
  });
}

/** Deletes: a second user and member, each read after its delete (use_after_free). */
async function deleteAndReadAgain({ v, step }: Chain, member: Record<string, unknown>): Promise<void> {
  const doomed = await step('create a user to delete', { method: 'POST', path: '/users', version: v, body: { user: { id: suiteId('fuzz-doomed') } } });
  const doomedGuid = dig(doomed.body, 'user', 'guid') as string | undefined;
  if (!ok(doomed) || !doomedGuid) return;
  // A manual account (What the service does: manual accounts "receive no data feed"), on the user
  // about to be deleted so the main user's reads stay as they were; its answer is judged as it comes.
  await step('create a manual account', {
    method: 'POST',
    path: `/users/${doomedGuid}/accounts`,
    version: v,
    body: { account: { name: 'fuzz manual account', account_type: 'CASH', balance: 10 } },
  });
  const m = await step('create a member to delete', {
    method: 'POST',
    path: `/users/${doomedGuid}/members`,
    version: v,
    body: { member: { ...member, id: suiteId('fuzz-doomed-member') }, data_request: { products: ['transactions'] } },
  });
  const mGuid = dig(m.body, 'member', 'guid') as string | undefined;
  if (ok(m) && mGuid) {
    const del = await step('delete the member', { method: 'DELETE', path: `/users/${doomedGuid}/members/${mGuid}`, version: v });
    if (ok(del))
      await step('read the deleted member', {
        method: 'GET',
        path: `/users/${doomedGuid}/members/${mGuid}`,
        version: v,
        generated: afterDelete('the member just deleted'),
      });
  }
  const del = await step('delete the user', { method: 'DELETE', path: `/users/${doomedGuid}`, version: v });
  if (ok(del))
    await step('read the deleted user', { method: 'GET', path: `/users/${doomedGuid}`, version: v, generated: afterDelete('the user just deleted') });
}

/** GET /payment_account without a processor token: no scope, so no access. */
const PROCESSOR_ACCESS =
  'Endpoints, Authorization code for processors: "Processor access is limited to the identifiers and features in the scope" (a request without credentials, or with a token never issued, carries no scope); Authentication 1: "Platform endpoints use HTTP Basic authentication"';
const AUTHORIZATION_CODE_REQUEST =
  'Endpoints, Authorization code for processors: POST /authorization_code "Request: object authorization_code with scope (string: space-separated entries user-guid:<USR-guid>, member-guid:<MBR-guid>, account-guid:<ACT-guid>, and the word read-protected)"';

function availability(what: string): GeneratedCase {
  return { kind: 'after-create', tier: 'inferred', rule: GENERATED_RULES.availability, what };
}
function afterDelete(what: string): GeneratedCase {
  return { kind: 'after-delete', tier: 'inferred', rule: GENERATED_RULES.useAfterFree, what };
}

/** The token endpoint's response shape is not shown: the first string under a key named like `token`. */
function findToken(body: unknown): string | undefined {
  return findKey(body, /token/i);
}

function findKey(body: unknown, key: RegExp, depth = 0): string | undefined {
  if (!body || typeof body !== 'object' || depth > 4) return undefined;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (key.test(k) && typeof v === 'string') return v;
  }
  for (const v of Object.values(body as Record<string, unknown>)) {
    const nested = findKey(v, key, depth + 1);
    if (nested) return nested;
  }
  return undefined;
}
