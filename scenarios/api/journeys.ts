/**
 * Journeys shared by the account, transaction, insight, aggregation and processor
 * scenarios of this directory (not a spec file: Playwright runs only *.spec.ts). Every
 * call goes through the checked client, so the contract checks each response.
 */
import { boundsOf, requestBounded } from '../../targets/index.ts';
import { test, expect, type CheckedClient, type CheckedResponse, type Poll } from '../fixtures.ts';
import type { TargetProfile } from '../../targets/index.ts';
import { need } from '../steps/responses.ts';
import { createUser } from '../steps/users.ts';
import { requireTestInstitution } from '../steps/test-institution.ts';
import { createMember, createdMember } from '../steps/members.ts';
import { waitUntilSettled } from '../steps/connection-states.ts';
import { noteTargetChange } from '../fixtures/run-ledger.ts';
import type { AchIdentifiers } from '../steps/ach-returns.ts';

/** A user of its own with a CONNECTED, aggregated member of the test institution. */
export async function connectedUser(api: CheckedClient, poll: Poll) {
  requireTestInstitution(api.profile, ['SUCCESS']);
  const user = await createUser(api);
  const member = createdMember(api, await createMember(api, user, { scenario: 'SUCCESS' })).guid;
  const settled = await waitUntilSettled(api, poll, user, member);
  // States and transitions: "success leads to CONNECTED".
  expect(settled.value.connection_status, 'the success password (SVC_TEST_PASSWORD_SUCCESS) connects the member').toBe('CONNECTED');
  return { user, member };
}

/**
 * A user, a CONNECTED member and one of its accounts, all existing: what an ACH return
 * names (scenarios/steps/ach-returns.ts).
 */
export async function connectedAccount(api: CheckedClient, poll: Poll): Promise<AchIdentifiers> {
  const { user, member } = await connectedUser(api, poll);
  const [account] = await memberAccounts(api, user, member);
  return { user, member, account: account.guid };
}

/** The accounts of a member (What the service does: "An account ... belongs to a member"); at least one after a successful aggregation. */
export async function memberAccounts<T extends { guid: string } = { guid: string; [k: string]: unknown }>(
  api: CheckedClient,
  user: string,
  member: string,
): Promise<T[]> {
  const accounts = await walkList<T>(api, `/users/${user}/members/${member}/accounts`, 'accounts');
  expect(accounts.length, `accounts of the aggregated member ${member}`).toBeGreaterThan(0);
  return accounts;
}

/**
 * Every record of a paged list (Endpoints: "Lists are paged with page and
 * records_per_page"), bounded so a target that ignores `page` cannot loop forever.
 * The walk ends at `pagination.total_pages` when the target gives it (the reference's
 * pagination object), else at the first empty page: a page with fewer records than asked
 * for need not be the last (Limits: a list's maximum outside the table is not shown).
 * `perPage` defaults to 100, inside every range the reference accepts (10-100 on most
 * lists; outside its range a list falls back to 25: real-service-notes, "Paging").
 */
export async function walkList<T = Record<string, unknown>>(
  api: CheckedClient,
  path: string,
  key: string,
  o: { query?: Record<string, string | number | undefined>; headers?: Record<string, string>; perPage?: number; maxPages?: number; version?: string } = {},
): Promise<T[]> {
  const perPage = o.perPage ?? 100;
  const all: T[] = [];
  for (let page = 1; page <= (o.maxPages ?? 50); page++) {
    // Errors: "200 normal success for reads, lists".
    const res = await api.get(path, { query: { ...o.query, page, records_per_page: perPage }, headers: o.headers, version: o.version, expectStatus: 200 });
    const items = need<T[]>(res, key, api);
    // A plain throw, not expect(): once per page, and each expect() is a reported step.
    if (!Array.isArray(items)) throw new Error(`${path}: ${key} is a list (Endpoints: "Lists are paged"), got ${typeof items}`);
    all.push(...items);
    if (isLastPage(res, page, items)) break;
  }
  return all;
}

/**
 * Whether a walk has read the last page: pagination's total_pages when the answer states it,
 * else an empty page. A page shorter than asked is no sign: Limits, "Maximum records_per_page
 * for list endpoints other than those in the table: not shown", so a service may answer fewer
 * records than asked while more remain (variation page-size-capped-at-10).
 */
export function isLastPage(res: { body?: any }, page: number, records: readonly unknown[]): boolean {
  const totalPages = res.body?.pagination?.total_pages;
  return records.length === 0 || (typeof totalPages === 'number' && page >= totalPages);
}

/** Waits until no job runs on the member (a job in progress would answer 409 to the next one). */
export async function settle(api: CheckedClient, poll: Poll, user: string, member: string) {
  return (await waitUntilSettled(api, poll, user, member)).value;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Lets `ms` pass for one user's records before the scenario goes on. Resource timestamps
 * may have whole-second resolution (the reference's `_at` values are seconds), so a
 * scenario that needs two instants apart leaves whole seconds between them. A real
 * target's clock cannot be moved: there the scenario waits. The embedded simulator moves
 * that user's clock instead (simulator control POST /_sim/clock {user_guid, advance_ms},
 * never part of the svc contract): the user's later records carry instants `ms` later at
 * once, and scenarios running in parallel keep the clock they share. What the scenario
 * then asserts is the same on both. Returns how far the target's clock for that user was
 * moved beyond the time that really passed (0 on a real target), for scenarios that
 * measure time on the target's side.
 */
export async function letTimePass(profile: TargetProfile, user: string, ms: number): Promise<number> {
  if (!profile.isSimulator) {
    await sleep(ms);
    return 0;
  }
  await simulatorControl(profile, '/_sim/clock', { user_guid: user, advance_ms: ms });
  return ms;
}

/** A simulator control call (POST /_sim/..., never part of the svc contract); anything but 200 is a suite error. */
/** Calls a control route of the embedded simulator; its JSON answer (undefined when it is not JSON). */
export async function simulatorControl(profile: TargetProfile, path: string, body: Record<string, unknown>): Promise<unknown> {
  const res = await requestBounded(
    { method: 'POST', url: `${profile.platformBaseUrl}${path}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    boundsOf(profile),
  );
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
  // The user's records moved without a request of the contract: the run-wide invariants compare nothing across it.
  if (typeof body.user_guid === 'string') noteTargetChange(profile, [body.user_guid]);
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first value under one of these keys, at the top level or inside one nested object. */
export function fieldAnywhere(body: unknown, key: string): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const o = body as Record<string, unknown>;
  if (key in o) return o[key];
  for (const v of Object.values(o)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && key in (v as Record<string, unknown>)) return (v as Record<string, unknown>)[key];
  }
  return undefined;
}

/**
 * Exchanges an authorization code for a processor token, as the profile says
 * (profile.processorToken, SVC_PROCESSOR_TOKEN_REQUEST): Authentication, "Request and
 * response shape of the processor /token endpoint: not shown", so the method, path and
 * body are a setting. `path` replaces the setting's path (the deprecated
 * /payment_processor_token, "in favour of /token", goes the same way). Under a guessed
 * shape (the setting unset on a real target) an answer without an access_token skips
 * the scenario and names the setting; under a shape the user set, it fails. Returns the
 * response and its access_token.
 */
export async function exchangeCode(api: CheckedClient, code: string, o: { path?: string } = {}): Promise<{ res: CheckedResponse; access: string }> {
  const shape = api.profile.processorToken;
  const fill = (t: string, encode: (s: string) => string) => t.replace(/\{code\}/g, encode(code));
  const path = o.path ?? shape.path;
  const res = await api.call({
    method: shape.method,
    path: fill(path, encodeURIComponent),
    ...(shape.body !== undefined ? { body: JSON.parse(fill(shape.body, (s) => JSON.stringify(s).slice(1, -1))) } : {}),
  });
  const access = fieldAnywhere(res.body, 'access_token');
  const ok = res.status >= 200 && res.status < 300 && typeof access === 'string';
  const asked = `${shape.method} ${path.split('?')[0]}`;
  if (!ok && !shape.explicit) {
    test.skip(
      true,
      `${asked} answered ${res.status}${typeof access === 'string' ? '' : ' without an access_token'}: the processor token request is not shown (Authentication: "Request and response shape of the processor /token endpoint: not shown"; the vendor reference reads GET /tokens), and "${shape.text}" is a guess: set SVC_PROCESSOR_TOKEN_REQUEST to this target's`,
    );
  }
  // The statuses of /token and its deprecated predecessor are not shown: any 2xx.
  expect(res.status >= 200 && res.status < 300, `${asked} (SVC_PROCESSOR_TOKEN_REQUEST "${shape.text}") answered ${res.status}`).toBe(true);
  expect(typeof access, `an access_token in the ${asked} response`).toBe('string');
  api.secret(access as string);
  return { res, access: access as string };
}
