/**
 * Creating a member on the test institution (with a scenario password) and reading it
 * back: the create-member request's shape per version, its statuses, and the member
 * and status reads.
 */
import type { PasswordScenario } from '../../targets/index.ts';
import { currentVersion, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { need } from './responses.ts';
import { institutionCredentials, passwordFor } from './test-institution.ts';
import { uniqueId } from './users.ts';

/** Versioning, "Changes in v20250224": create member and widget URL take a required data_request. */
export const DATA_REQUEST_FROM = 'v20250224';

/**
 * Create member: Endpoints, "On v20250224, a 201 created response exists"; Errors,
 * "201 ... member created on version v20250224". Neither says 200 or 202 are wrong, and
 * the vendor's reference declares 200 and 202 in both versions (real-service-notes,
 * "Status codes"): every version accepts the three.
 */
export const CREATE_MEMBER_STATUSES = [200, 201, 202];

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
 * Fields of the create-member request that sit beside `member`, not inside it
 * (real-service-notes, "Request shapes": `{member: {...}, data_request,
 * client_redirect_url, enable_app2app, referral_source, ui_message_webview_url_scheme}`).
 * The specification names these fields but not their placement; the vendor's reference
 * places them at the top level. `extra` entries with these names go there.
 */
const TOP_LEVEL_MEMBER_FIELDS = ['data_request', 'client_redirect_url', 'enable_app2app', 'referral_source', 'ui_message_webview_url_scheme'];

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

/**
 * The create-member request of `createMember` and the version it is for, unsent: what a
 * scenario that varies one part of an otherwise valid request (near misses) starts from.
 */
export async function memberRequest(
  api: CheckedClient,
  o: Omit<CreateMemberOptions, 'headers' | 'expectStatus'> = {},
): Promise<{ body: Record<string, unknown>; version: string }> {
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
  return { body, version };
}

export async function createMember(api: CheckedClient, userGuid: string, o: CreateMemberOptions = {}) {
  const { body, version } = await memberRequest(api, o);
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

/**
 * A new member's connection_status: the create answer's where it carries the field (the
 * Member table names it without saying it is always present), else the status read's
 * (Endpoints: GET .../status "connection status", which the specification does state).
 */
export async function stateOfCreated(api: CheckedClient, userGuid: string, member: MemberStatus, version?: string): Promise<string> {
  if (Object.hasOwn(member, 'connection_status')) return member.connection_status;
  return (await readStatus(api, userGuid, member.guid, version)).connection_status;
}

export async function readMember(api: CheckedClient, userGuid: string, memberGuid: string, version?: string): Promise<MemberStatus> {
  const res = await api.get(`/users/${userGuid}/members/${memberGuid}`, { version, expectStatus: 200 });
  need(res, 'member', api);
  return res.body.member as MemberStatus;
}
