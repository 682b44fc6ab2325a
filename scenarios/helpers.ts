/**
 * Journeys shared by scenarios: create a user, create a member on the test
 * institution with a scenario password, read its status, answer challenges, wait for
 * aggregation to settle. Every call goes through the checked client, so the contract
 * checks each response; these helpers only move the journey forward and return the
 * fields scenarios assert on.
 */
import { randomUUID } from 'node:crypto';
import type { PasswordScenario, TargetProfile } from '../targets/profiles/profile.ts';
import { requireSetting, currentVersion, type CheckedClient, type Poll } from './fixtures.ts';

/** Versioning, "Changes in v20250224": create member and widget URL take a required data_request. */
export const DATA_REQUEST_FROM = 'v20250224';

export const END_STATES = ['CONNECTED', 'HALTED', 'DENIED'] as const;

export interface MemberStatus {
  guid: string;
  connection_status: string;
  is_being_aggregated: boolean;
  aggregated_at: string | null;
  successfully_aggregated_at: string | null;
  challenges?: Array<{ guid: string; type?: string; label?: string; options?: Array<{ guid?: string; label?: string; value?: string }> }>;
  [k: string]: unknown;
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 12)}`;
}

/** A user of its own for each scenario, so scenarios run in parallel and alone. */
export async function createUser(api: CheckedClient, o: { version?: string } = {}): Promise<string> {
  const res = await api.post('/users', { user: { id: uniqueId('scn-user'), metadata: 'created by the conformance suite' } }, { version: o.version, expectStatus: [200, 201] });
  return res.body.user.guid as string;
}

export async function deleteUser(api: CheckedClient, userGuid: string): Promise<void> {
  await api.delete(`/users/${userGuid}`, { expectStatus: [200, 202, 204] });
}

export function passwordFor(profile: TargetProfile, scenario: PasswordScenario): string {
  return requireSetting(profile.testInstitution.passwords[scenario], `SVC_TEST_PASSWORD_${scenario}`);
}

/** The credential fields of an institution (username, password), by their guids. */
export async function institutionCredentials(api: CheckedClient, code: string, version?: string) {
  const res = await api.get(`/institutions/${encodeURIComponent(code)}/credentials`, { version, expectStatus: 200 });
  const creds = res.body.credentials as Array<{ guid: string; field_name?: string; label?: string; type?: string }>;
  const isPassword = (c: { field_name?: string; label?: string; type?: string }) =>
    /pass/i.test(`${c.field_name ?? ''} ${c.label ?? ''} ${c.type ?? ''}`);
  const password = creds.find(isPassword);
  const username = creds.find((c) => c !== password);
  if (!password || !username) throw new Error(`Institution ${code} lists no username/password credentials: ${JSON.stringify(creds).slice(0, 300)}`);
  return { username: username.guid, password: password.guid };
}

export interface CreateMemberOptions {
  scenario?: PasswordScenario;
  institutionCode?: string;
  isOauth?: boolean;
  version?: string;
  /** Extra member fields (e.g. `data_request`, `skip_aggregation`). */
  extra?: Record<string, unknown>;
  /** Leave out data_request even where the version requires it (negative scenario). */
  omitDataRequest?: boolean;
  headers?: Record<string, string>;
  expectStatus?: number | number[];
}

export function needsDataRequest(version: string): boolean {
  return version >= DATA_REQUEST_FROM;
}

export async function createMember(api: CheckedClient, userGuid: string, o: CreateMemberOptions = {}) {
  const profile = api.profile;
  const version = o.version ?? currentVersion(profile);
  const code = o.institutionCode ?? (o.isOauth ? profile.testInstitution.oauthCode : profile.testInstitution.code);
  const member: Record<string, unknown> = { institution_code: code, id: uniqueId('scn-member') };
  if (o.isOauth) member.is_oauth = true;
  if (o.scenario) {
    const guids = await institutionCredentials(api, code, version);
    member.credentials = [
      { guid: guids.username, value: profile.testInstitution.username },
      { guid: guids.password, value: passwordFor(profile, o.scenario) },
    ];
  }
  if (needsDataRequest(version) && !o.omitDataRequest) member.data_request = { products: ['transactions'] };
  Object.assign(member, o.extra);
  const res = await api.post(`/users/${userGuid}/members`, { member }, {
    version,
    headers: o.headers,
    expectStatus: o.expectStatus ?? (needsDataRequest(version) ? [200, 201] : [200, 201, 202]),
  });
  return res;
}

export async function readStatus(api: CheckedClient, userGuid: string, memberGuid: string, version?: string): Promise<MemberStatus> {
  const res = await api.get(`/users/${userGuid}/members/${memberGuid}/status`, { version, expectStatus: 200 });
  return res.body.member as MemberStatus;
}

export async function readMember(api: CheckedClient, userGuid: string, memberGuid: string, version?: string): Promise<MemberStatus> {
  const res = await api.get(`/users/${userGuid}/members/${memberGuid}`, { version, expectStatus: 200 });
  return res.body.member as MemberStatus;
}

/**
 * Polls the status until aggregation settles: not aggregating and either an end state
 * (States and transitions: CONNECTED, HALTED, DENIED) or CHALLENGED with challenges.
 * Returns every status seen, so scenarios can assert the intermediate states.
 */
export async function waitUntilSettled(api: CheckedClient, poll: Poll, userGuid: string, memberGuid: string, version?: string) {
  return poll(
    () => readStatus(api, userGuid, memberGuid, version),
    (s) =>
      !s.is_being_aggregated &&
      ((END_STATES as readonly string[]).includes(s.connection_status) || (s.connection_status === 'CHALLENGED' && (s.challenges?.length ?? 0) > 0)),
    { what: `member ${memberGuid} to finish aggregating` },
  );
}

/** Answers every challenge of a status: the correct answer, or a wrong one. */
export function answersFor(profile: TargetProfile, status: MemberStatus, right: boolean) {
  const answer = requireSetting(profile.testInstitution.correctAnswer, 'SVC_CORRECT_ANSWER');
  return (status.challenges ?? []).map((c) => {
    if (c.options?.length) {
      // Option-list MFA: "choose the correct option". The correct option is the one whose
      // value or label is the correct-answer word; a wrong answer picks another.
      const correct = c.options.find((o) => o.value === answer || o.label === answer) ?? c.options[0];
      const chosen = right ? correct : c.options.find((o) => o !== correct) ?? { value: `wrong-${answer}` };
      return { guid: c.guid, value: chosen.value ?? chosen.guid ?? chosen.label };
    }
    return { guid: c.guid, value: right ? answer : `wrong-${answer}` };
  });
}

export async function resume(api: CheckedClient, userGuid: string, memberGuid: string, challenges: unknown[], version?: string) {
  return api.put(`/users/${userGuid}/members/${memberGuid}/resume`, { member: { challenges } }, { version, expectStatus: [200, 202] });
}
