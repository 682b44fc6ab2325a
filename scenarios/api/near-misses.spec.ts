/**
 * Near misses (../shared/DESIGN.md, "Style": negative-data rejection, "a request that breaks
 * a stated rule must not get a 2xx; here, with near-miss values generated from each stated
 * format and the sentence quoted"). For each request rule, the otherwise valid request with
 * one value that ALMOST meets it, from the contract's one source (contracts/ near-miss
 * rules, the integration judge's tables): one character too many or too few, the wrong
 * case, a timestamp without its offset or a date without time, a number as a string, a
 * prefix of another resource, the right value in the wrong place (outside its wrapper, a
 * key one character off, the wrong separator).
 *
 * A 2xx to a near miss of a stated rule fails, quoting the rule and why a 2xx breaks it; the
 * refusal's status is not shown (Errors: "Error codes per endpoint beyond those in the
 * table: not shown"), so a 4xx is inferred. A rule that is itself inferred (institution_code's
 * type, skip_aggregation's after its deprecation, an unknown well-formed version) stays
 * inferred. Each test first sends the valid request itself (the control): a refusal is then
 * about the value varied, never about identifiers that name nothing.
 *
 * Bounded: the first NEAR_MISSES_PER_RULE near misses of each rule, a few dozen requests a
 * test, on a user of the test's own (deleted at teardown with what it owns). An accepted
 * near miss that creates a member is deleted (Endpoints: members "can also be ... deleted");
 * ACH returns have no delete operation (Endpoints, ACH returns: GET and POST only), so each
 * carries a fresh suite id (`svcct-`), and the client id itself is never the value varied;
 * widget URLs and authorization codes leave nothing to delete.
 *
 * records_per_page one past the stated 1000 is paging.spec.ts's ("records_per_page above 1000
 * never returns more than 1000 records"): the status is free there (a service may clamp) and
 * the page's size is judged, by the scenario and by paging_conformance.
 */
import { bodyNearMisses, firstPerRule, versionNearMisses, type NearMiss } from '../../contracts/index.ts';
import type { TargetProfile } from '../../targets/index.ts';
import { test, expect, currentVersion, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { ANY_2XX, is2xx } from '../steps/responses.ts';
import { createUser, uniqueId } from '../steps/users.ts';
import { requireTestInstitution } from '../steps/test-institution.ts';
import { CREATE_MEMBER_STATUSES, DATA_REQUEST_FROM, memberRequest } from '../steps/members.ts';
import { achReturn, createAch } from '../steps/ach-returns.ts';
import { widgetUrlBody } from '../steps/widgets.ts';
import { expectInferred } from '../inferred.ts';
import { connectedAccount } from './journeys.ts';

/** The sharpest near misses of each rule a test sends (the contract orders them). */
const NEAR_MISSES_PER_RULE = 2;

interface Sent {
  n: NearMiss;
  status: number;
}

/**
 * Sends each near miss, then judges them together, so one failure lists every accepted near
 * miss: a 2xx to a stated rule fails with its sentence; a 2xx to an inferred rule, or a
 * refusal that is not a 4xx, is an inferred miss.
 */
async function judgeNearMisses(profile: TargetProfile, nearMisses: NearMiss[], send: (n: NearMiss) => Promise<CheckedResponse>): Promise<void> {
  expect(nearMisses.length, 'near misses to send').toBeGreaterThan(0);
  const sent: Sent[] = [];
  for (const n of nearMisses) sent.push({ n, status: (await send(n)).status });
  const accepted = sent.filter((s) => is2xx(s.status));
  expect(
    accepted.filter((s) => s.n.rule.tier === 'stated').map((s) => `${s.n.what} answered ${s.status}. Rule: ${s.n.rule.rule}. Why a 2xx fails: ${s.n.rule.why}`),
    'near misses of a stated rule the service accepted with a 2xx (each must be refused)',
  ).toEqual([]);
  for (const s of accepted)
    expectInferred(profile, false, {
      expectation: `${s.n.what} is refused`,
      basis: `${s.n.rule.rule} (${s.n.rule.why})`,
      received: String(s.status),
    });
  const other = sent.filter((s) => !is2xx(s.status) && (s.status < 400 || s.status >= 500));
  expectInferred(profile, other.length === 0, {
    expectation: 'every near miss is refused with a 4xx',
    basis: 'Errors: "Error codes per endpoint beyond those in the table: not shown"',
    received: other.map((s) => `${s.n.what}: ${s.status}`).join('; '),
  });
}

/** Only the near misses of these rules (`data_request` has a test of its own, on v20250224). */
const without = (ids: string[]) => (n: NearMiss) => !ids.includes(n.rule.id);

// ---- ACH returns ----------------------------------------------------------------------

/** A fresh suite id wherever the near miss left the client id (inside, beside or under a misspelt wrapper). */
function freshAchId(body: unknown): Record<string, unknown> {
  const b = structuredClone(body) as Record<string, unknown>;
  for (const holder of [b, b.ach_return, b.ach_returns] as Array<Record<string, unknown> | undefined>)
    if (holder && typeof holder === 'object' && typeof holder.id === 'string') holder.id = uniqueId('scn-ach');
  return b;
}

test('near misses of the ACH return fields and of the ach_return wrapper are refused', { tag: ['@ach-returns', '@destructive', '@inferred'] }, async ({
  api,
  poll,
  profile,
}) => {
  const ids = await connectedAccount(api, poll);
  // Control: the valid request is created (Errors: "200 normal success for ... ACH return creation").
  await createAch(api, achReturn(ids));
  const base = { version: currentVersion(profile), body: { ach_return: achReturn(ids) } };
  // The client id is never the value varied: an accepted one would leave a return without the suite's id.
  const nearMisses = firstPerRule(bodyNearMisses('POST /ach_returns', base), NEAR_MISSES_PER_RULE).filter(without(['ach_return.id']));
  await judgeNearMisses(profile, nearMisses, (n) => api.post('/ach_returns', freshAchId(n.request.body)));
});

// ---- widget URLs ----------------------------------------------------------------------

/** Resources, Widget URL: the fields with a stated type or values, each in its stated form (the values widgets.spec.ts sends). */
const WIDGET_FIELDS = {
  is_mobile_webview: false,
  client_redirect_url: 'https://client.example/widget/done',
  oauth_referral_source: 'BROWSER',
  ui_message_webview_url_scheme: 'scnapp',
  ui_message_version: 4,
  style: {},
  deep_link_params: { widget: 'connect_widget' },
};

test('near misses of the widget URL fields, BROWSER or APP and the widget_url wrapper are refused', { tag: ['@widgets', '@destructive', '@inferred'] }, async ({
  api,
  profile,
}) => {
  const user = await createUser(api);
  const version = currentVersion(profile);
  const body = widgetUrlBody(version, WIDGET_FIELDS);
  // Control: the valid request issues a URL (its status is not shown: any 2xx).
  await api.post(`/users/${user}/widget_urls`, body, { version, expectStatus: ANY_2XX });
  const nearMisses = firstPerRule(bodyNearMisses('POST /users/{user_guid}/widget_urls', { version, body }), NEAR_MISSES_PER_RULE).filter(
    without(['data_request']),
  );
  await judgeNearMisses(profile, nearMisses, (n) => api.post(`/users/${user}/widget_urls`, n.request.body, { version }));
});

// ---- members --------------------------------------------------------------------------

/** Deletes the member an accepted create answered (Endpoints: members "can also be ... deleted"; status not shown). */
async function deleteCreatedMember(api: CheckedClient, user: string, res: CheckedResponse): Promise<void> {
  const guid = (res.body as { member?: { guid?: unknown } } | undefined)?.member?.guid;
  if (is2xx(res.status) && typeof guid === 'string') await api.delete(`/users/${user}/members/${encodeURIComponent(guid)}`, { expectStatus: ANY_2XX });
}

test('near misses of the create-member fields and of the member wrapper are refused', { tag: ['@members', '@destructive', '@inferred'] }, async ({
  api,
  profile,
}) => {
  requireTestInstitution(profile, ['SUCCESS']);
  const user = await createUser(api);
  // Resources, Member: "is_oauth | boolean | set true in the create request"; false on the test institution.
  const { body, version } = await memberRequest(api, { scenario: 'SUCCESS', extra: { is_oauth: false } });
  // Control: the valid request creates a member (Errors: 201 on v20250224; 200 or 202 are not ruled out).
  await deleteCreatedMember(api, user, await api.post(`/users/${user}/members`, body, { version, expectStatus: CREATE_MEMBER_STATUSES }));
  const nearMisses = firstPerRule(bodyNearMisses('POST /users/{user_guid}/members', { version, body }), NEAR_MISSES_PER_RULE).filter(without(['data_request']));
  await judgeNearMisses(profile, nearMisses, async (n) => {
    const res = await api.post(`/users/${user}/members`, n.request.body, { version });
    await deleteCreatedMember(api, user, res);
    return res;
  });
});

test(`near misses of the data_request required on ${DATA_REQUEST_FROM} are refused on create member and widget URL`, {
  tag: ['@members', '@widgets', '@versions', '@destructive', '@inferred'],
}, async ({ api, profile }) => {
  const version = DATA_REQUEST_FROM;
  test.skip(!profile.versions.supported.includes(version), `the target does not list ${version} in SVC_VERSIONS`);
  requireTestInstitution(profile, ['SUCCESS']);
  // Versioning, changes in v20250224: "create member and request widget URL take a required
  // data_request with a products array" (stated for v20250224; a later version's changes are not shown).
  const user = await createUser(api, { version });
  const member = await memberRequest(api, { scenario: 'SUCCESS', version });
  await deleteCreatedMember(api, user, await api.post(`/users/${user}/members`, member.body, { version, expectStatus: CREATE_MEMBER_STATUSES }));
  const widget = widgetUrlBody(version);
  await api.post(`/users/${user}/widget_urls`, widget, { version, expectStatus: ANY_2XX });
  const ofDataRequest = (n: NearMiss) => n.rule.id === 'data_request';
  const memberMisses = bodyNearMisses('POST /users/{user_guid}/members', { version, body: member.body }).filter(ofDataRequest);
  const widgetMisses = bodyNearMisses('POST /users/{user_guid}/widget_urls', { version, body: widget }).filter(ofDataRequest);
  await judgeNearMisses(profile, [...memberMisses, ...widgetMisses], async (n) => {
    if (widgetMisses.includes(n)) return api.post(`/users/${user}/widget_urls`, n.request.body, { version });
    const res = await api.post(`/users/${user}/members`, n.request.body, { version });
    await deleteCreatedMember(api, user, res);
    return res;
  });
});

// ---- processor authorization codes ----------------------------------------------------

test('near misses of the scope entry forms and of the authorization_code wrapper are refused', { tag: ['@processor', '@destructive', '@inferred'] }, async ({
  api,
  profile,
}) => {
  const user = await createUser(api);
  // A scope naming the user alone: "A member in the scope must already have been verified" does
  // not apply, so the control is issued (its status is not shown: any 2xx).
  const body = { authorization_code: { scope: `user-guid:${user}` } };
  await api.post('/authorization_code', body, { expectStatus: ANY_2XX });
  // Every near miss: the entry forms are one rule with several ways to almost meet it (eight requests in all).
  const nearMisses = bodyNearMisses('POST /authorization_code', { version: currentVersion(profile), body });
  await judgeNearMisses(profile, nearMisses, (n) => api.post('/authorization_code', n.request.body));
});

// ---- Accept-Version -------------------------------------------------------------------

test('near misses of the Accept-Version form v<YYYYMMDD> are refused', { tag: ['@versions', '@readonly', '@inferred'] }, async ({ api, profile }) => {
  const version = currentVersion(profile);
  const query = { records_per_page: 10 };
  // Control: the version itself is served (Errors: "200 normal success for reads, lists").
  await api.get('/institutions', { version, query, expectStatus: 200 });
  await judgeNearMisses(profile, versionNearMisses({ version }), (n) => api.get('/institutions', { version: n.request.version, query }));
});
