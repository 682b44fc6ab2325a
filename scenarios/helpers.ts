/**
 * Journeys shared by scenarios: create a user, create a member on the test
 * institution with a scenario password, read its status, answer challenges, wait for
 * aggregation to settle. Every call goes through the checked client, so the contract
 * checks each response; these helpers only move the journey forward and return the
 * fields scenarios assert on.
 *
 * Statuses: a helper demands an exact status only where the specification's Errors
 * table or an endpoint row states it ("200 normal success for reads, lists and ACH
 * return creation"; 201 for the data-exchange token). Everywhere else it accepts any
 * 2xx (ANY_2XX): the specification shows no status, and the vendor's reference
 * (../shared/real-service-notes.md, "Status codes") uses 200, 202 and 204.
 *
 * Fields: a helper reads what it needs through need(), which names the operation, the
 * status and what was missing when a target answers something unexpected (a truncated
 * body, an HTML error page) instead of a TypeError from deep inside a helper.
 */
import type { PasswordScenario, TargetProfile } from '../targets/index.ts';
import { requireSetting, currentVersion, expect, type CheckedClient, type CheckedResponse, type Poll } from './fixtures.ts';
import { expectInferred } from './inferred.ts';
import { suiteId } from './cleanup.ts';

/** Versioning, "Changes in v20250224": create member and widget URL take a required data_request. */
export const DATA_REQUEST_FROM = 'v20250224';

/**
 * States and transitions: "In the test institution, scenario credentials yield end
 * states: success leads to CONNECTED; invalid or locked credentials lead to DENIED;
 * missing credentials, a server error or an unavailable institution lead to HALTED."
 */
export const END_STATES = ['CONNECTED', 'HALTED', 'DENIED'] as const;

/** Every success status (RFC 9110 2xx as a delivery rule lists them, Events rule 4): for operations whose status the specification does not show. */
export const ANY_2XX = [200, 201, 202, 203, 204, 205, 206];

/**
 * Create member: Endpoints, "On v20250224, a 201 created response exists"; Errors,
 * "201 ... member created on version v20250224". Neither says 200 or 202 are wrong, and
 * the vendor's reference declares 200 and 202 in both versions (real-service-notes,
 * "Status codes"): every version accepts the three.
 */
export const CREATE_MEMBER_STATUSES = [200, 201, 202];

export const is2xx = (status: number) => status >= 200 && status < 300;

export interface MemberStatus {
  guid: string;
  connection_status: string;
  is_being_aggregated: boolean | null;
  aggregated_at: string | null;
  successfully_aggregated_at: string | null;
  challenges?: Array<{ guid: string; type?: string; label?: string; options?: Array<{ guid?: string; label?: string; value?: string }> }>;
  [k: string]: unknown;
}

/**
 * A client-supplied `id` for what a scenario creates (Resources and their fields: "Clients
 * are advised to set their own `id` (string) on every resource they create"), in the
 * suite's form `svcct-<run id>-<purpose>-<random>` (scenarios/cleanup.ts), so whatever a
 * run leaves on a target can be recognised.
 */
export function uniqueId(purpose: string): string {
  return suiteId(purpose);
}

/** The request line of a response, for messages ("POST /users/USR-… → 500"). */
function operationOf(api: CheckedClient | undefined, res: CheckedResponse): string {
  const exchange = api?.exchanges.findLast((e) => e.response.body === res.body && e.response.status === res.status);
  return exchange ? `${exchange.request.method} ${exchange.request.url.split('?')[0]}` : 'the request';
}

/**
 * The value at a dotted path of a response body (`need(res, 'member.guid')`), or a
 * clear error: which operation answered which status without it, and the start of the
 * body. Pass the client to name the operation.
 */
export function need<T = any>(res: CheckedResponse, path: string, api?: CheckedClient): T {
  let value: unknown = res.body;
  const walked: string[] = [];
  for (const key of path.split('.')) {
    walked.push(key);
    if (value === null || typeof value !== 'object' || !(key in (value as Record<string, unknown>))) {
      const shown = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      throw new Error(
        `${operationOf(api, res)} answered ${res.status} without ${walked.join('.')} (needed: ${path}); ` +
          `body ${typeof res.body === 'string' ? '(not JSON) ' : ''}starts: ${String(shown ?? '').slice(0, 200)}`,
      );
    }
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) {
    throw new Error(`${operationOf(api, res)} answered ${res.status} with ${path} = ${value}; the scenario needs a value there`);
  }
  return value as T;
}

/**
 * A request the specification says must not succeed (the stated part: not a 2xx),
 * and the usual form of that refusal as an inferred expectation (a 4xx; or the
 * statuses given): the specification shows no error status for it.
 */
export function expectRefused(
  profile: Pick<TargetProfile, 'strict'>,
  res: { status: number },
  label: string,
  o: { stated: string; inferred?: number[] | '4xx'; basis?: string } = { stated: '' },
): void {
  expect(is2xx(res.status), `${label} must be refused (${o.stated}); received ${res.status}`).toBe(false);
  const want = o.inferred ?? '4xx';
  const ok = want === '4xx' ? res.status >= 400 && res.status < 500 : want.includes(res.status);
  expectInferred(profile, ok, {
    expectation: `${label} is refused with ${want === '4xx' ? 'a 4xx' : want.join(' or ')}`,
    basis: o.basis ?? 'Errors: "Error codes per endpoint beyond those in the table: not shown"',
    received: String(res.status),
  });
}

/**
 * A user of its own for each scenario, so scenarios run in parallel and alone; the `api`
 * fixture deletes it when the test ends (scenarios/fixtures.ts).
 */
export async function createUser(api: CheckedClient, o: { version?: string } = {}): Promise<string> {
  // The user-create status is not shown (Errors lists none for it): any 2xx.
  const res = await api.post(
    '/users',
    { user: { id: uniqueId('scn-user'), metadata: 'created by the conformance suite' } },
    { version: o.version, expectStatus: ANY_2XX },
  );
  return need<string>(res, 'user.guid', api);
}

export async function deleteUser(api: CheckedClient, userGuid: string): Promise<void> {
  // Delete status not shown; the reference answers 204 (real-service-notes): any 2xx.
  await api.delete(`/users/${userGuid}`, { expectStatus: ANY_2XX });
}

export function passwordFor(profile: TargetProfile, scenario: PasswordScenario): string {
  return requireSetting(profile.testInstitution.passwords[scenario], `SVC_TEST_PASSWORD_${scenario}`);
}

/**
 * Skips the running test NOW, before it creates anything, when a scenario password it will
 * use is missing (and the correct MFA answer, when asked): a test that created a user and
 * then skipped would only leave work for the teardown, or a user behind if interrupted.
 */
export function requireTestInstitution(profile: TargetProfile, scenarios: PasswordScenario[], o: { correctAnswer?: boolean } = {}): void {
  for (const scenario of scenarios) passwordFor(profile, scenario);
  if (o.correctAnswer) requireSetting(profile.testInstitution.correctAnswer, 'SVC_CORRECT_ANSWER');
}

/** The credential fields of an institution (username, password), by their guids. */
export async function institutionCredentials(api: CheckedClient, code: string, version?: string) {
  // Errors: "200 normal success for reads, lists".
  const res = await api.get(`/institutions/${encodeURIComponent(code)}/credentials`, { version, expectStatus: 200 });
  const creds = need<Array<{ guid: string; field_name?: string; label?: string; type?: string }>>(res, 'credentials', api);
  const isPassword = (c: { field_name?: string; label?: string; type?: string }) => /pass/i.test(`${c.field_name ?? ''} ${c.label ?? ''} ${c.type ?? ''}`);
  const password = creds.find(isPassword);
  const username = creds.find((c) => c !== password);
  if (!password || !username) throw new Error(`Institution ${code} lists no username/password credentials: ${JSON.stringify(creds).slice(0, 300)}`);
  return { username: username.guid, password: password.guid };
}

/**
 * Fields of the create-member request that sit beside `member`, not inside it
 * (real-service-notes, "Request shapes": `{member: {...}, data_request,
 * client_redirect_url, enable_app2app, referral_source, ui_message_webview_url_scheme}`).
 * The specification names these fields but not their placement; the vendor's reference
 * places them at the top level. `extra` entries with these names go there.
 */
export const TOP_LEVEL_MEMBER_FIELDS = ['data_request', 'client_redirect_url', 'enable_app2app', 'referral_source', 'ui_message_webview_url_scheme'];

export interface CreateMemberOptions {
  scenario?: PasswordScenario;
  institutionCode?: string;
  isOauth?: boolean;
  version?: string;
  /**
   * Extra fields (e.g. `skip_aggregation`, `client_redirect_url`): names in
   * TOP_LEVEL_MEMBER_FIELDS go beside `member`, the rest inside it.
   */
  extra?: Record<string, unknown>;
  /** Leave out data_request even where the version requires it (negative scenario). */
  omitDataRequest?: boolean;
  headers?: Record<string, string>;
  /** Expected status(es); default CREATE_MEMBER_STATUSES; `null` checks none (negative scenarios). */
  expectStatus?: number | number[] | null;
}

export function needsDataRequest(version: string): boolean {
  return version >= DATA_REQUEST_FROM;
}

export async function createMember(api: CheckedClient, userGuid: string, o: CreateMemberOptions = {}) {
  const profile = api.profile;
  const version = o.version ?? currentVersion(profile);
  const code = o.institutionCode ?? (o.isOauth ? profile.testInstitution.oauthCode : profile.testInstitution.code);
  const member: Record<string, unknown> = { institution_code: code, id: uniqueId('scn-member') };
  const body: Record<string, unknown> = { member };
  if (o.isOauth) member.is_oauth = true;
  if (o.scenario) {
    const guids = await institutionCredentials(api, code, version);
    member.credentials = [
      { guid: guids.username, value: profile.testInstitution.username },
      { guid: guids.password, value: passwordFor(profile, o.scenario) },
    ];
  }
  // Resources, Member: "in v20250224 a required data_request object holding a products array".
  if (needsDataRequest(version) && !o.omitDataRequest) body.data_request = { products: ['transactions'] };
  for (const [k, v] of Object.entries(o.extra ?? {})) (TOP_LEVEL_MEMBER_FIELDS.includes(k) ? body : member)[k] = v;
  return api.post(`/users/${userGuid}/members`, body, {
    version,
    headers: o.headers,
    expectStatus: o.expectStatus === null ? undefined : (o.expectStatus ?? CREATE_MEMBER_STATUSES),
  });
}

/** The created member of a create-member response (guid and the rest), or a clear error. */
export function createdMember(api: CheckedClient, res: CheckedResponse): MemberStatus {
  need<string>(res, 'member.guid', api);
  return res.body.member as MemberStatus;
}

export async function readStatus(api: CheckedClient, userGuid: string, memberGuid: string, version?: string): Promise<MemberStatus> {
  // Errors: "200 normal success for reads".
  const res = await api.get(`/users/${userGuid}/members/${memberGuid}/status`, { version, expectStatus: 200 });
  need(res, 'member.connection_status', api);
  return res.body.member as MemberStatus;
}

export async function readMember(api: CheckedClient, userGuid: string, memberGuid: string, version?: string): Promise<MemberStatus> {
  const res = await api.get(`/users/${userGuid}/members/${memberGuid}`, { version, expectStatus: 200 });
  need(res, 'member', api);
  return res.body.member as MemberStatus;
}

/**
 * When a status read counts as settled:
 *  - CHALLENGED with challenges: the member waits for answers (Endpoints, status: "when
 *    MFA is required the response has a challenges array"), whatever
 *    is_being_aggregated says (the specification does not tie it to CHALLENGED);
 *  - an end state of the test institution (END_STATES) once is_being_aggregated is no
 *    longer true (Resources, Member: "true while aggregation runs, false once
 *    complete"; a null is not "true").
 * Any other connection_status (PENDING, and the many values a real service has beyond
 * the specification's list: real-service-notes, "Enumerations") is "not settled yet".
 */
export function isSettled(s: MemberStatus): boolean {
  if (s.connection_status === 'CHALLENGED' && (s.challenges?.length ?? 0) > 0) return true;
  return (END_STATES as readonly string[]).includes(s.connection_status) && s.is_being_aggregated !== true;
}

/**
 * Polls the status until it settles (isSettled). Returns every status seen, so
 * scenarios can assert the intermediate states. On timeout the message lists every
 * connection_status seen (with is_being_aggregated) and the end states awaited.
 */
export async function waitUntilSettled(api: CheckedClient, poll: Poll, userGuid: string, memberGuid: string, version?: string) {
  const statuses: string[] = [];
  const read = async () => {
    const s = await readStatus(api, userGuid, memberGuid, version);
    const label = `${JSON.stringify(s.connection_status)}${s.is_being_aggregated === true ? ' (aggregating)' : ''}${s.challenges?.length ? ` (${s.challenges.length} challenges)` : ''}`;
    if (statuses.at(-1) !== label) statuses.push(label);
    // Endpoints, status: "when MFA is required the response has a challenges array". A
    // CHALLENGED member whose aggregation is over (is_being_aggregated false) waits for
    // answers, so MFA is required: without challenges it can never be answered. Said at
    // the read that shows it, rather than after waiting out the bound for a state that
    // cannot come. (While it aggregates, a CHALLENGED read without challenges is still
    // "not settled yet": the next challenge set may be on its way.)
    expect(
      s.connection_status === 'CHALLENGED' && s.is_being_aggregated === false && (s.challenges?.length ?? 0) === 0,
      `member ${memberGuid} is CHALLENGED with is_being_aggregated false and no challenges array (connection_status seen, in order: ${statuses.join(' → ')}); ` +
        'Endpoints, status: "when MFA is required the response has a challenges array"',
    ).toBe(false);
    return s;
  };
  try {
    return await poll(read, isSettled, { what: `member ${memberGuid} to finish aggregating` });
  } catch (error) {
    if (!/Timed out/.test((error as Error).message)) throw error;
    throw new Error(
      `${(error as Error).message}\n  connection_status seen, in order: ${statuses.join(' → ') || 'none'}\n` +
        `  awaited: one of ${END_STATES.join(', ')} with is_being_aggregated no longer true, or CHALLENGED with a challenges array ` +
        '(States and transitions; other values count as not settled yet)',
    );
  }
}

/** Answers every challenge of a status: the correct answer, or a wrong one. */
export function answersFor(profile: TargetProfile, status: MemberStatus, right: boolean) {
  const answer = requireSetting(profile.testInstitution.correctAnswer, 'SVC_CORRECT_ANSWER');
  return (status.challenges ?? []).map((c) => {
    if (c.options?.length) {
      // Option-list MFA: "choose the correct option". The correct option is the one whose
      // value or label is the correct-answer word; a wrong answer picks another.
      const correct = c.options.find((o) => o.value === answer || o.label === answer) ?? c.options[0];
      const chosen = right ? correct : (c.options.find((o) => o !== correct) ?? { value: `wrong-${answer}` });
      return { guid: c.guid, value: chosen.value ?? chosen.guid ?? chosen.label };
    }
    return { guid: c.guid, value: right ? answer : `wrong-${answer}` };
  });
}

/** Resume body `{member: {challenges: [{guid, value}]}}` (real-service-notes, "Request shapes"); its status is not shown: any 2xx. */
export async function resume(api: CheckedClient, userGuid: string, memberGuid: string, challenges: unknown[], version?: string) {
  return api.put(`/users/${userGuid}/members/${memberGuid}/resume`, { member: { challenges } }, { version, expectStatus: ANY_2XX });
}
