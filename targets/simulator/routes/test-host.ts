/**
 * Earlier-generation test host (Endpoints, "Earlier-generation test paths"), served under
 * /test-host: static data for every listed path. Requests must carry `SVC-API-Key` and
 * `SVC-Client-ID` (the profile's API key and client id; 401 otherwise); responses are
 * `application/vnd.svc.legacy.v1+json`.
 *
 * Choices where the specification is silent (README, "Simulator"): every path answers
 * 200 with static data (nothing is stored: a POST or PUT returns the same member or user
 * it always does); the member-in-a-status paths accept the statuses named in States and
 * transitions (`PENDING`, `CONNECTED`, `CHALLENGED`, `HALTED`, `DENIED`, `CONFLICTED`,
 * `REJECTED`, any letter case) and answer 404 for others; the challenge paths accept
 * `text`, `options`, `image`, `image_options`; `/institutions/{code}` serves `svcbank`,
 * `svc_bank_oauth` and `test_svcbank` (the path the specification lists).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { institutionCatalog, institutionCredentials, TEST_INSTITUTION_CODE, TEST_OAUTH_INSTITUTION_CODE } from '../data/institutions.ts';
import { renderInstitution } from './institutions.ts';
import { faultNamed } from '../catalog.ts';

export const LEGACY_MEDIA_TYPE = 'application/vnd.svc.legacy.v1+json';
const STATUSES = ['PENDING', 'CONNECTED', 'CHALLENGED', 'HALTED', 'DENIED', 'CONFLICTED', 'REJECTED'];
const AGGREGATED_AT = '2024-05-01T12:00:00Z';

const user = { guid: 'test_svc', id: 'test_svc_id', email: 'test_svc@example.com', is_disabled: false, metadata: null };
const member = (status = 'CONNECTED') => ({
  guid: 'test_svc_member',
  id: 'test_svc_member_id',
  user_guid: 'test_svc',
  user_id: 'test_svc_id',
  institution_code: TEST_INSTITUTION_CODE,
  name: 'SVC Bank',
  connection_status: status,
  is_being_aggregated: false,
  aggregated_at: status === 'PENDING' ? null : AGGREGATED_AT,
  successfully_aggregated_at: status === 'CONNECTED' ? AGGREGATED_AT : null,
  is_managed_by_user: false,
  is_oauth: false,
  metadata: null,
});
const account = {
  guid: 'test_svc_account',
  id: 'test_svc_account_id',
  user_guid: 'test_svc',
  member_guid: 'test_svc_member',
  institution_code: TEST_INSTITUTION_CODE,
  name: 'Test Checking',
  type: 'CHECKING',
  balance: 1000.23,
  available_balance: 1000.23,
  currency_code: 'USD',
};
const transaction = {
  guid: 'test_svc_transaction',
  id: 'test_svc_transaction_id',
  user_guid: 'test_svc',
  member_guid: 'test_svc_member',
  account_guid: 'test_svc_account',
  merchant_guid: 'test_svc_merchant',
  amount: 61.11,
  date: '2024-04-30',
  description: 'Test Coffee Shop',
  category: 'Coffee Shops',
  type: 'DEBIT',
  status: 'POSTED',
  is_manual: false,
};
const holding = {
  guid: 'test_svc_holding',
  user_guid: 'test_svc',
  account_guid: 'test_svc_account',
  member_guid: 'test_svc_member',
  symbol: 'SVC',
  description: 'SVC Index Fund',
  shares: 10,
  market_value: 1234.5,
  currency_code: 'USD',
};
const merchant = { guid: 'test_svc_merchant', name: 'Test Coffee Shop', logo_url: 'https://svcbank.example/logo.png', website_url: 'https://svcbank.example' };
const pagination = (n: number) => ({ current_page: 1, per_page: 25, total_entries: n, total_pages: 1 });
const list = (key: string, items: unknown[]) => ({ [key]: items, pagination: pagination(items.length) });

/** Challenges per challenge type (Endpoints: text, options, image, image_options). */
const CHALLENGES: Record<string, Record<string, unknown>> = {
  text: { guid: 'CRD-test-text', label: 'What city were you born in?', type: 'TEXT' },
  options: {
    guid: 'CRD-test-options',
    label: 'Where should we send a code?',
    type: 'OPTIONS',
    options: [
      { guid: 'OPT-test-1', label: 'Email', value: 'email' },
      { guid: 'OPT-test-2', label: 'Text message', value: 'sms' },
    ],
  },
  image: { guid: 'CRD-test-image', label: 'Type the word in the picture', type: 'IMAGE', image_data: 'data:image/png;base64,iVBORw0KGgo=' },
  image_options: {
    guid: 'CRD-test-image-options',
    label: 'Choose your security picture',
    type: 'IMAGE_OPTIONS',
    image_options: [
      { guid: 'OPT-test-img-1', label: 'Cat', data_uri: 'data:image/png;base64,iVBORw0KGgo=', value: 'cat' },
      { guid: 'OPT-test-img-2', label: 'Dog', data_uri: 'data:image/png;base64,iVBORw0KGgo=', value: 'dog' },
    ],
  },
};

function statusParam(request: FastifyRequest): string {
  const raw = (request.params as { connection_status: string }).connection_status;
  const status = raw.toUpperCase();
  if (!STATUSES.includes(status)) throw new SimError('not_found', `No test member in connection status "${raw.slice(0, 40)}"; known: ${STATUSES.join(', ')}`);
  return status;
}

type TestHostGroup = 'accounts' | 'holdings' | 'institutions' | 'members' | 'others';
type TestHostMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Registers one listed path of a group: its static answer, behind the group's fault. */
type TestHostRoute = (group: TestHostGroup, method: TestHostMethod, path: string, body: (request: FastifyRequest) => unknown) => void;

const MEMBER_PATH = '/users/test_svc/members/test_svc_member';

export function registerTestHost(app: FastifyInstance, ctx: SimContext): void {
  requireTestHostHeaders(app, ctx);
  const route = testHostRouter(app, ctx);
  registerTestUsers(route);
  registerTestAccountsAndHoldings(route);
  registerTestTransactionsAndMerchants(route, ctx);
  registerTestInstitutions(route, ctx);
  registerTestMember(route);
  registerTestMemberDetails(route);
  registerTestMembersInStatus(route, ctx);
}

/** Every test-host request carries the profile's API key and client id (401 otherwise). */
function requireTestHostHeaders(app: FastifyInstance, ctx: SimContext): void {
  app.addHook('onRequest', async (request) => {
    // Fault: the Accept the specification tells clients to send is refused (RFC 9110 406).
    if (ctx.fault('test-host-refuses-legacy-accept') && String(request.headers.accept ?? '').includes('vnd.svc.legacy')) {
      throw new SimError('not_acceptable', 'Only application/json is served');
    }
    if (ctx.fault('test-host-headers-not-enforced')) return;
    const key = request.headers['svc-api-key'];
    const client = request.headers['svc-client-id'];
    if (key !== ctx.settings.apiKey || client !== ctx.settings.clientId) {
      throw new SimError('unauthorized', key || client ? 'SVC-API-Key or SVC-Client-ID is wrong' : 'The headers SVC-API-Key and SVC-Client-ID are required');
    }
  });
}

function testHostRouter(app: FastifyInstance, ctx: SimContext): TestHostRoute {
  const send = (reply: FastifyReply, body: unknown) =>
    reply.type(ctx.variation('test-host-plain-json') ? 'application/json; charset=utf-8' : LEGACY_MEDIA_TYPE).send(JSON.stringify(body));
  return (group, method, path, body) => {
    // Fault per group of listed paths (Endpoints, "Earlier-generation test paths": Accounts,
    // Holdings, Institutions, Members, Others): the group's paths answer 404.
    const missing = faultNamed(`test-host-${group}-missing`);
    app.route({
      method,
      url: path,
      handler: async (request, reply) => {
        if (ctx.fault(missing)) throw new SimError('not_found', `No route ${method} ${path}`);
        // Fault: the static data is not static (a balance that moves on every read).
        const out = body(request);
        if (ctx.fault('test-host-data-not-static') && out && typeof out === 'object' && 'account' in out) {
          return send(reply, { account: { ...account, balance: Math.round(Math.random() * 100000) / 100 } });
        }
        return send(reply, out);
      },
    });
  };
}

/** The test institutions (Endpoints: `test_svcbank` names the test institution); 404 for any other. */
function testInstitution(ctx: SimContext, code: string) {
  const c = institutionCatalog(ctx.settings.institutionCount);
  const rec = c.byCode.get(code === 'test_svcbank' ? TEST_INSTITUTION_CODE : code);
  if (!rec || ![TEST_INSTITUTION_CODE, TEST_OAUTH_INSTITUTION_CODE].includes(rec.code))
    throw new SimError('not_found', `No test institution "${code.slice(0, 40)}"`);
  return rec;
}

/** Users (Others). */
function registerTestUsers(route: TestHostRoute): void {
  route('others', 'POST', '/test_users', () => ({ user }));
  route('others', 'GET', '/test_users', () => list('users', [user]));
  route('others', 'GET', '/users/test_svc', () => ({ user }));
  route('others', 'PUT', '/users/test_svc', () => ({ user }));
  route('others', 'DELETE', '/users/test_svc', () => ({}));
  route('others', 'POST', '/users/test_svc/connect_widget_url', () => ({
    user: { guid: 'test_svc', connect_widget_url: 'https://widgets.svcbank.example/connect/test_svc' },
  }));
}

/** Accounts and holdings. */
function registerTestAccountsAndHoldings(route: TestHostRoute): void {
  route('accounts', 'GET', '/users/test_svc/accounts', () => list('accounts', [account]));
  route('accounts', 'GET', '/users/test_svc/accounts/test_svc_account', () => ({ account }));
  route('accounts', 'GET', `${MEMBER_PATH}/accounts`, () => list('accounts', [account]));
  route('holdings', 'GET', '/users/test_svc/holdings', () => list('holdings', [holding]));
  route('holdings', 'GET', '/users/test_svc/accounts/test_svc_account/holdings', () => list('holdings', [holding]));
  route('holdings', 'GET', '/users/test_svc/holdings/test_svc_holding', () => ({ holding }));
}

/** Transactions and merchants (Others). */
function registerTestTransactionsAndMerchants(route: TestHostRoute, ctx: SimContext): void {
  route('others', 'GET', '/users/test_svc/transactions', () => list('transactions', [transaction]));
  route('others', 'GET', '/users/test_svc/accounts/test_svc_account/transactions', () => list('transactions', [transaction]));
  route('others', 'GET', '/users/test_svc/transactions/test_svc_transaction', () => ({ transaction }));
  // Fault: the merchant answers under another identifier than the documented test_svc_merchant.
  route('others', 'GET', '/merchants/test_svc_merchant', () => ({
    merchant: ctx.fault('test-host-merchant-id-renamed') ? { ...merchant, guid: 'MCH-test-merchant' } : merchant,
  }));
  route('others', 'POST', '/test_transactions/cleanse_and_categorize', () =>
    list('transactions', [{ ...transaction, category: 'Coffee Shops', top_level_category: 'Food & Dining' }]),
  );
}

/** Institutions. Fault: the OAuth test institution is not listed. */
function registerTestInstitutions(route: TestHostRoute, ctx: SimContext): void {
  route('institutions', 'GET', '/test_institutions', (request) =>
    list(
      'institutions',
      (ctx.fault('test-host-oauth-institution-missing') ? [TEST_INSTITUTION_CODE] : [TEST_INSTITUTION_CODE, TEST_OAUTH_INSTITUTION_CODE]).map((c) =>
        renderInstitution(ctx, testInstitution(ctx, c), request.svcVersion || 'v20111101'),
      ),
    ),
  );
  route('institutions', 'GET', '/institutions/:code', (request) => ({
    institution: renderInstitution(ctx, testInstitution(ctx, (request.params as { code: string }).code), 'v20111101'),
  }));
  route('institutions', 'GET', '/institutions/:code/credentials', (request) =>
    list('credentials', institutionCredentials(testInstitution(ctx, (request.params as { code: string }).code).code)),
  );
}

/** The test member itself (Members). */
function registerTestMember(route: TestHostRoute): void {
  const M = MEMBER_PATH;
  route('members', 'POST', '/users/test_svc/members', () => ({ member: { ...member(), is_being_aggregated: true } }));
  route('members', 'GET', M, () => ({ member: member() }));
  route('members', 'PUT', M, () => ({ member: member() }));
  route('members', 'DELETE', M, () => ({}));
  route('members', 'PUT', `${M}/resume`, () => ({ member: { ...member(), is_being_aggregated: true } }));
  route('members', 'GET', `${M}/credentials`, () => list('credentials', institutionCredentials(TEST_INSTITUTION_CODE)));
  route('members', 'GET', `${M}/transactions`, () => list('transactions', [transaction]));
}

/** The test member's identity, owners, history and account numbers (Others). */
function registerTestMemberDetails(route: TestHostRoute): void {
  const M = MEMBER_PATH;
  route('others', 'POST', `${M}/identify`, () => ({ member: { ...member(), is_being_aggregated: true } }));
  route('others', 'GET', `${M}/account_owners`, () =>
    list('account_owners', [
      {
        guid: 'ACO-test-owner',
        user_guid: 'test_svc',
        member_guid: 'test_svc_member',
        account_guid: 'test_svc_account',
        owner_name: 'Test User',
        city: 'Lehi',
        state: 'UT',
        country: 'US',
      },
    ]),
  );
  route('others', 'POST', `${M}/extend_history`, () => ({ member: { ...member(), is_being_aggregated: true } }));
  route('others', 'POST', `${M}/verify`, () => ({ member: { ...member(), is_being_aggregated: true } }));
  route('others', 'GET', `${M}/account_numbers`, () =>
    list('account_numbers', [
      {
        guid: 'ACN-test-number',
        account_guid: 'test_svc_account',
        member_guid: 'test_svc_member',
        user_guid: 'test_svc',
        account_number: '1234567890',
        routing_number: '091000019',
      },
    ]),
  );
}

/** Members in a given state (Endpoints: "returns a member in that status"), and their challenges. */
function registerTestMembersInStatus(route: TestHostRoute, ctx: SimContext): void {
  const inStatus = (request: FastifyRequest) => {
    const status = ctx.fault('test-host-member-status-ignored') ? 'CONNECTED' : statusParam(request);
    return { member: member(status) };
  };
  route('members', 'GET', '/users/test_svc/members/:connection_status', inStatus);
  route('members', 'PUT', '/users/test_svc/members/:connection_status', inStatus);
  // Fault test-host-aggregate-status-ignored: aggregating a member in a status answers a CONNECTED one.
  route('members', 'POST', '/users/test_svc/members/:connection_status/aggregate', (request) => {
    const status = statusParam(request);
    return { member: { ...member(ctx.fault('test-host-aggregate-status-ignored') ? 'CONNECTED' : status), is_being_aggregated: true } };
  });
  route('members', 'GET', '/users/test_svc/members/:connection_status/status', (request) => {
    const status = statusParam(request);
    return {
      member: {
        guid: 'test_svc_member',
        connection_status: status,
        is_authenticated: status === 'CONNECTED',
        is_being_aggregated: false,
        aggregated_at: member(status).aggregated_at,
        successfully_aggregated_at: member(status).successfully_aggregated_at,
        ...(status === 'CHALLENGED' ? { challenges: [CHALLENGES.text] } : {}),
      },
    };
  });
  route('members', 'GET', '/users/test_svc/members/:challenge_type/challenges', (request) => {
    const type = (request.params as { challenge_type: string }).challenge_type.toLowerCase();
    // Fault: every challenge path answers the text challenge.
    const challenge = CHALLENGES[type] && ctx.fault('test-host-challenge-type-ignored') ? CHALLENGES.text : CHALLENGES[type];
    if (!challenge) throw new SimError('not_found', `No challenge type "${type.slice(0, 40)}"; known: ${Object.keys(CHALLENGES).join(', ')}`);
    return list('challenges', [challenge]);
  });
}
