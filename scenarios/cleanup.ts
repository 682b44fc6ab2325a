/**
 * Leave nothing behind (../shared/DESIGN.md: "Pointed at a real service it leaves nothing
 * behind (everything it creates carries a recognisable `id` and is deleted)").
 *
 *   suiteId(purpose)    the client-supplied `id` of everything the suite creates:
 *                       `svcct-<run id>-<purpose>-<random>` (Resources and their fields:
 *                       "Clients are advised to set their own `id` (string) on every
 *                       resource they create, to sync with their systems"). The run id is
 *                       SVC_RUN_ID, drawn by scenarios/global-setup.ts for a run when the
 *                       user gives none, so every worker of one run names its users alike.
 *   CreatedUsers        what one test (the checked client, the fuzz engine) created: every
 *                       successful POST /users it sent, less the users it deleted itself;
 *                       deleteAll() removes them at teardown, whatever the test's outcome.
 *   cleanupLeftovers    the users an interrupted run left: GET /users page by page
 *                       (bounded), and DELETE of those whose `id` starts with the suite's
 *                       prefix (optionally one run's), never any other; a dry run lists only.
 *
 * What deleting a user removes: the specification shows no user operations (Endpoints;
 * spec/platform.openapi.yaml marks /users and /users/{user_guid} "not shown"), and says a
 * user "belongs to exactly one client", a member is "the connection between a user and an
 * institution", and an account "belongs to a member". The simulator deletes the user's
 * members, their accounts, transactions, holdings and account owners, and its insights
 * (targets/simulator/domain/users.ts). ACH returns name a user but have no delete
 * operation (Endpoints, ACH returns: GET and POST only): they stay on the target, under
 * their own `svcct-` id.
 *
 * Requests here go to the platform through the one bounded transport (targets/ requestResendingRateLimited),
 * not through the contract checks: a teardown is not a scenario, and its answers judge nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createRedactor,
  profileSecrets,
  requestResendingRateLimited,
  RUN_ID_PATTERN,
  runSettings,
  type Redactor,
  type TargetProfile,
} from '../targets/index.ts';
import { credentialHeaders, CREDENTIAL_REFUSALS, platformRequest, refusedCredentialsMessage } from '../preflight/credentials.ts';

/** The first word of every `id` the suite sets: names the suite (svc conformance tests). */
const SUITE_ID_PREFIX = 'svcct';

/**
 * What the nightly leaves on the target on purpose and deletes the next night (history/keepers.ts:
 * the rules that take a day, observed across nights): `svcct-keep_<night>-<purpose>-<random>`.
 * It starts with the suite's prefix, so `cleanup` deletes it like any leftover (nothing is left
 * behind for good); the underscore is no letter or digit of a run id, so no one run's prefix
 * (`svcct-<run id>-`) ever matches it.
 */
export const KEEPER_ID_PREFIX = `${SUITE_ID_PREFIX}-keep_`;

/** Whether an `id` is one a nightly left for the next night. */
function isKeeperId(id: unknown): boolean {
  return typeof id === 'string' && id.startsWith(KEEPER_ID_PREFIX);
}

/** A fresh run id: base-36 time (runs sort by when they started) and 24 random bits; letters and digits only. */
export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}${randomBytes(3).toString('hex')}`;
}

/** Runs started before this are no runs of this suite (its ids began later). */
const EARLIEST_RUN_MS = Date.UTC(2020, 0, 1);

/**
 * When the run of an id `newRunId` drew started; undefined for an id that does not tell (a
 * SVC_RUN_ID set by hand, such as a CI job number, or a time no run of this suite had).
 */
function runStartOf(runId: string, now = Date.now()): number | undefined {
  if (!/^[0-9a-z]{9,}$/.test(runId)) return undefined;
  const started = Number.parseInt(runId.slice(0, -6), 36);
  return started >= EARLIEST_RUN_MS && started <= now + 24 * 3600_000 ? started : undefined;
}

let processRunId: string | undefined;
/**
 * The run id in force: SVC_RUN_ID (set by the user, or by scenarios/global-setup.ts for the
 * whole run). A process started without one (the self-test's workers, whose simulators
 * live only as long as they do; the fuzz bench) draws its own.
 */
export function currentRunId(): string {
  return (processRunId ??= runSettings().runId ?? newRunId());
}

/** `svcct-` (every run) or `svcct-<run id>-` (one run): what a suite user's `id` starts with. */
export function suitePrefix(runId?: string): string {
  if (runId !== undefined && !RUN_ID_PATTERN.test(runId)) throw new Error(`a run id is 1 to 32 letters or digits, got "${runId.slice(0, 40)}"`);
  return runId === undefined ? `${SUITE_ID_PREFIX}-` : `${SUITE_ID_PREFIX}-${runId}-`;
}

/** The client-supplied `id` of a resource the suite creates: `svcct-<run id>-<purpose>-<12 hex>`. */
export function suiteId(purpose: string): string {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(purpose)) throw new Error(`an id purpose is lowercase words joined by dashes, got "${purpose}"`);
  return `${suitePrefix(currentRunId())}${purpose}-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** Whether an `id` is one the suite set (in the given run, when one is named). */
export function isSuiteId(id: unknown, runId?: string): id is string {
  return typeof id === 'string' && id.startsWith(suitePrefix(runId));
}

// ---- requests to the platform ---------------------------------------------------------

/** Bound of a body read here (a page of 100 users is a few tens of kB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_BODY_BYTES_FROM = "the cleanup's bound of one answer";
const SNIPPET_CHARS = 200;

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

/**
 * One platform request with the profile's credentials and version, bounded in time (the
 * request timeout, SVC_REQUEST_TIMEOUT_MS) and size (MAX_BODY_BYTES), sent again on 429; a
 * transport failure is the transport's TransportError, in its words.
 */
async function usersRequest(profile: TargetProfile, method: 'GET' | 'DELETE', path: string, query?: Record<string, string>): Promise<Answer> {
  if (!credentialHeaders(profile, 'platform'))
    throw new Error('needs SVC_CLIENT_ID and SVC_API_KEY (Authentication 1: platform endpoints use HTTP Basic authentication)');
  const request = platformRequest(profile, { method, path, ...(query ? { query } : {}) });
  const bounds = { requestMs: profile.timeouts.requestMs, maxBodyBytes: MAX_BODY_BYTES, maxBodyBytesFrom: MAX_BODY_BYTES_FROM };
  // Errors: 429 when the rate limit is exceeded: sent again after backing off (targets/http.ts).
  const { res } = await requestResendingRateLimited(request, bounds);
  let body: unknown = res.text;
  try {
    body = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    /* not JSON: kept as text for the message */
  }
  return { status: res.status, text: res.text, body };
}

const is2xx = (status: number) => status >= 200 && status < 300;
const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat || '(empty)';
};

/** DELETE /users/{guid}: 'deleted' (any 2xx: the status is not shown), 'gone' (404), or the reason it failed. */
async function deleteUser(profile: TargetProfile, guid: string, redactor: Redactor): Promise<'deleted' | 'gone' | { reason: string }> {
  try {
    const res = await usersRequest(profile, 'DELETE', `/users/${encodeURIComponent(guid)}`);
    if (is2xx(res.status)) return 'deleted';
    // Errors: 404 "resource not found": deleted already (by the scenario, or by another cleanup).
    if (res.status === 404) return 'gone';
    return { reason: `DELETE /users/${guid} answered ${res.status}: ${redactor.text(oneLine(res.text))}` };
  } catch (e) {
    return { reason: `DELETE /users/${guid} failed: ${redactor.text((e as Error).message)}` };
  }
}

// ---- what one test created ------------------------------------------------------------

export interface CreatedUser {
  /** The service's `guid` (USR-<uuid>); absent when the create answer named none. */
  guid?: string;
  /** The client-supplied `id` it was created with. */
  id?: string;
}

export interface TeardownOutcome {
  deleted: CreatedUser[];
  /** Answered 404: gone before the teardown (deleted through a path this record did not see). */
  alreadyGone: CreatedUser[];
  failed: Array<CreatedUser & { reason: string }>;
}

/** The annotation of a user the teardown could not delete (one per user, naming it). */
export const CLEANUP_FAILED_ANNOTATION = 'cleanup failed';
/** The annotation of a test that created users and then skipped (it should check what it needs first). */
export const CREATED_BEFORE_SKIP_ANNOTATION = 'created before skipping';
/**
 * Annotation type of a verdict the reads could not decide (Playwright annotations, every
 * report shows them): a skip that comes after the observation, which needed the users the
 * test created, so it is no "created before skipping".
 */
export const INCONCLUSIVE_ANNOTATION = 'inconclusive';

const dig = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined), value);

/**
 * The users one test created on the platform, from the exchanges it sent: a 2xx answer to
 * POST /users adds the user, a 2xx answer to DELETE /users/{guid} removes it.
 */
export class CreatedUsers {
  private readonly users = new Map<string, CreatedUser>();
  private unnamed = 0;

  /** `redactor`: the test's (secrets learned at run time included); default the profile's secrets. */
  constructor(
    private readonly profile: TargetProfile,
    private readonly redactor: Redactor = createRedactor(profileSecrets(profile)),
  ) {}

  /** Every exchange of the test, as sent and answered (`path` relative to the API's base URL, query allowed). */
  observe(e: { api: string; method: string; path: string; status: number; requestBody?: unknown; responseBody?: unknown }): void {
    if (e.api !== 'platform' || !is2xx(e.status)) return;
    const path = e.path.split('?')[0].replace(/\/+$/, '');
    const method = e.method.toUpperCase();
    if (method === 'POST' && path === '/users') {
      const guid = dig(e.responseBody, 'user', 'guid');
      const id = dig(e.responseBody, 'user', 'id') ?? dig(e.requestBody, 'user', 'id');
      const user: CreatedUser = { ...(typeof guid === 'string' && guid ? { guid } : {}), ...(typeof id === 'string' ? { id } : {}) };
      this.users.set(user.guid ?? `(no guid ${++this.unnamed})`, user);
      return;
    }
    const deleted = /^\/users\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && deleted) {
      let guid = deleted[1];
      try {
        guid = decodeURIComponent(guid);
      } catch {
        /* kept as sent */
      }
      this.users.delete(guid);
    }
  }

  /** Users created and not deleted yet, oldest first. */
  get pending(): CreatedUser[] {
    return [...this.users.values()];
  }

  /** Deletes every pending user, one at a time; never throws (each failure is in the outcome, naming the user). */
  async deleteAll(): Promise<TeardownOutcome> {
    const out: TeardownOutcome = { deleted: [], alreadyGone: [], failed: [] };
    for (const [key, user] of [...this.users]) {
      this.users.delete(key);
      if (!user.guid) {
        out.failed.push({ ...user, reason: 'the create answer named no user guid, so it cannot be deleted by it' });
        continue;
      }
      const r = await deleteUser(this.profile, user.guid, this.redactor);
      if (r === 'deleted') out.deleted.push(user);
      else if (r === 'gone') out.alreadyGone.push(user);
      else out.failed.push({ ...user, reason: r.reason });
    }
    return out;
  }
}

/** One line per user a teardown could not delete: who it is, why, and how to remove it later. */
export function describeTeardownFailure(f: TeardownOutcome['failed'][number]): string {
  const who = f.guid ? `user ${f.guid}${f.id ? ` (id ${f.id})` : ''}` : `a user${f.id ? ` with id ${f.id}` : ' without id'}`;
  const later = isSuiteId(f.id) ? '; the cleanup of leftovers (cleanupLeftovers) finds it by its id' : '';
  return `${who} was not deleted at teardown: ${f.reason}${later}`;
}

// ---- leftovers of interrupted runs ----------------------------------------------------

export interface ListedUser {
  guid?: string;
  id?: string | null;
}

export interface UserListing {
  users: ListedUser[];
  pagesRead: number;
  /** False when the page bound stopped the listing before its last page. */
  complete: boolean;
}

export interface ListUsersOptions {
  /** Records per page (real-service-notes, Paging: most lists take 10 to 100; default 100). */
  pageSize?: number;
  /** Pages read at most (default 100: 10 000 users at 100 a page). */
  maxPages?: number;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 100;

/**
 * Every user of the client (GET /users, "Lists are paged with page and records_per_page"),
 * page by page, bounded: it stops at the last page the pagination names, at an empty page,
 * at a page that brings no user not seen before (a target that ignores `page`), or at
 * `maxPages`. A refusal or a body without a `users` list is an error naming what came back.
 */
export async function listUsers(profile: TargetProfile, o: ListUsersOptions = {}): Promise<UserListing> {
  const pageSize = o.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = o.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`pageSize must be a positive integer, got ${pageSize}`);
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new Error(`maxPages must be a positive integer, got ${maxPages}`);
  const seen = new Set<string>();
  const users: ListedUser[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const res = await usersRequest(profile, 'GET', '/users', { page: String(page), records_per_page: String(pageSize) });
    if (CREDENTIAL_REFUSALS.includes(res.status))
      throw new Error(refusedCredentialsMessage('platform', { request: `GET /users (page ${page})`, status: res.status, target: profile.platformBaseUrl }));
    // Errors: "200 normal success for reads, lists".
    if (res.status !== 200) throw new Error(`GET /users (page ${page}) answered ${res.status}: ${oneLine(res.text)}`);
    const list = dig(res.body, 'users');
    if (!Array.isArray(list)) throw new Error(`GET /users (page ${page}) answered 200 without a users list: ${oneLine(res.text)}`);
    let fresh = 0;
    for (const u of list as Array<Record<string, unknown>>) {
      const guid = typeof u?.guid === 'string' ? u.guid : undefined;
      if (guid !== undefined && seen.has(guid)) continue;
      if (guid !== undefined) seen.add(guid);
      fresh++;
      users.push({ ...(guid !== undefined ? { guid } : {}), id: typeof u?.id === 'string' ? u.id : null });
    }
    const totalPages = Number(dig(res.body, 'pagination', 'total_pages'));
    // Without a total (pagination fields are not required: real-service-notes, Paging) the
    // listing ends at an empty page, or at one that repeats what was seen.
    const last = Number.isInteger(totalPages) && page >= totalPages;
    if (last || list.length === 0 || fresh === 0) return { users, pagesRead: page, complete: true };
  }
  return { users, pagesRead: maxPages, complete: false };
}

export interface CleanupOptions extends ListUsersOptions {
  /** Only this run's users (`svcct-<run id>-…`); default every run's (`svcct-…`). */
  runId?: string;
  /** List what would be deleted, delete nothing. */
  dryRun?: boolean;
  /**
   * Also the users of runs that may still be running (started within the run bound). Off by
   * default: a target is shared, and another job's run in progress loses its users otherwise.
   */
  includeRecent?: boolean;
  /** The clock (tests). */
  now?: number;
  /** One line per step (found, deleted, failed). */
  log?: (line: string) => void;
}

export interface CleanupResult {
  /** What a deleted user's `id` starts with. */
  prefix: string;
  dryRun: boolean;
  /** Users listed on the target, and the pages read. */
  listed: number;
  pagesRead: number;
  /** False when the page bound stopped the listing: run it again (deleting shrinks the list). */
  complete: boolean;
  /** Users whose `id` has the prefix. */
  found: Array<{ guid?: string; id: string }>;
  /** Users of runs that may still be running, left for them (see CleanupOptions.includeRecent). */
  kept: Array<{ guid?: string; id: string }>;
  /** Deleted now (2xx), or gone already (404). Empty in a dry run. */
  deleted: Array<{ guid: string; id: string }>;
  failed: Array<{ guid?: string; id: string; reason: string }>;
}

/**
 * Whether a suite user belongs to a run that may still be running: its run id tells when it
 * started, and that is within the run bound (SVC_RUN_TIMEOUT_MS, Playwright's globalTimeout,
 * which ends every run; a day when the bound is off). A run named with --run-id, a keeper
 * and an id that does not tell its start are never held back.
 */
function recentRunTest(profile: TargetProfile, o: CleanupOptions): (id: string) => boolean {
  if (o.includeRecent || o.runId !== undefined) return () => false;
  const now = o.now ?? Date.now();
  const boundMs = profile.timeouts.runMs > 0 ? profile.timeouts.runMs : 24 * 3600_000;
  return (id) => {
    if (isKeeperId(id)) return false;
    const started = runStartOf(id.slice(suitePrefix().length).split('-')[0], now);
    return started !== undefined && now - started < boundMs;
  };
}

/**
 * Deletes the users an interrupted run left on the target: every user whose `id` starts
 * with `svcct-` (or `svcct-<runId>-`), never another. Deletes nothing on production unless
 * destructive runs are allowed there (SVC_ALLOW_DESTRUCTIVE), except in a dry run.
 */
export async function cleanupLeftovers(profile: TargetProfile, o: CleanupOptions = {}): Promise<CleanupResult> {
  const prefix = suitePrefix(o.runId);
  const dryRun = o.dryRun ?? false;
  const log = o.log ?? (() => {});
  if (!dryRun && profile.isProduction && !profile.allowDestructive) {
    throw new Error(
      'cleanup deletes users, and this target is production: set SVC_ALLOW_DESTRUCTIVE=I_UNDERSTAND_THIS_WRITES_TO_PRODUCTION to let it, or run it as a dry run',
    );
  }
  const listing = await listUsers(profile, o);
  const redactor = createRedactor(profileSecrets(profile));
  const found = listing.users
    .filter((u): u is ListedUser & { id: string } => isSuiteId(u.id, o.runId))
    .map((u) => ({ ...(u.guid ? { guid: u.guid } : {}), id: u.id }));
  const keepers = found.filter((u) => isKeeperId(u.id)).length;
  log(
    `${listing.users.length} users listed in ${listing.pagesRead} pages${listing.complete ? '' : ` (stopped at the bound of ${listing.pagesRead} pages: run again)`}; ${found.length} with an id starting ${prefix}${keepers ? ` (${keepers} of them left by a nightly for the next night's long-running rules, ${KEEPER_ID_PREFIX}...: deleting them loses that observation)` : ''}`,
  );
  const result: CleanupResult = {
    prefix,
    dryRun,
    listed: listing.users.length,
    pagesRead: listing.pagesRead,
    complete: listing.complete,
    found,
    kept: [],
    deleted: [],
    failed: [],
  };
  const mayStillRun = recentRunTest(profile, o);
  for (const u of found) {
    if (mayStillRun(u.id)) {
      result.kept.push(u);
      log(`kept ${u.guid ?? '(no guid)'} (id ${u.id}): its run started within the run bound and may still be running (--include-recent deletes it)`);
      continue;
    }
    if (dryRun) {
      log(`would delete ${u.guid ?? '(no guid)'} (id ${u.id})`);
      continue;
    }
    if (!u.guid) {
      result.failed.push({ ...u, reason: 'listed without a guid' });
      log(`not deleted: id ${u.id}, listed without a guid`);
      continue;
    }
    const r = await deleteUser(profile, u.guid, redactor);
    if (r === 'deleted' || r === 'gone') {
      result.deleted.push({ guid: u.guid, id: u.id });
      log(`deleted ${u.guid} (id ${u.id})${r === 'gone' ? ', gone already' : ''}`);
    } else {
      result.failed.push({ ...u, reason: r.reason });
      log(`not deleted: ${u.guid} (id ${u.id}): ${r.reason}`);
    }
  }
  return result;
}
