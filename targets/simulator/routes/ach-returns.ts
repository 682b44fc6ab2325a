/**
 * ACH returns, beta (Endpoints, "ACH returns"; Resources, "ACH return (create request)").
 *
 *   POST /ach_returns                      `{ach_return: {...}}` -> 200 `{ach_return}`
 *   GET  /ach_returns/{guid or id}         one return
 *   GET  /ach_returns                      paged list with filters
 *
 * Every stated format is validated (400 invalid_request naming the field): account,
 * member and user GUIDs (`ACT-`/`MBR-`/`USR-` + uuid), four digits, ISO 8601
 * timestamps with offset (`Z` counts as offset zero), `R` + two digits, a three-letter
 * SEC code, a decimal number, an integer. Which fields are required is not shown, so
 * none is; unknown fields are ignored. The user, member and account named must exist
 * and belong together (422 otherwise; real-service-notes, Request shapes).
 *
 * Choices where the specification is silent (README, "Simulator"):
 * - response: the request fields plus `guid` (`ACR-<uuid>`), `status`, `institution_guid`
 *   (from the member when the simulator knows it, else null), `created_at`,
 *   `updated_at`, `resolved_at` (ISO 8601);
 * - status: `SUBMITTED`, then `RESOLVED` one day later on the simulator clock;
 * - list filters: `institution_guid`, `return_code`, `return_status`,
 *   `from_returned_at` / `to_returned_at`, `from_resolved_at` / `to_resolved_at`
 *   (ISO 8601 timestamps or dates, inclusive), `page`, `records_per_page`.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { catalogEntry, faultNamed, type FaultName } from '../catalog.ts';
import { SimError } from '../errors.ts';
import { pageList } from '../paging.ts';
import { isoTime, one, wrapper, type Query } from './query.ts';
import { coreState, findInstitution } from '../domain/store.ts';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const RESOLVE_AFTER_MS = 86_400_000;

type Rule = { test: (v: unknown) => boolean; expected: string };
const string = (re: RegExp, expected: string): Rule => ({ test: (v) => typeof v === 'string' && re.test(v), expected });
const isoWithOffset: Rule = {
  test: (v) => typeof v === 'string' && ISO_WITH_OFFSET.test(v) && !Number.isNaN(Date.parse(v)),
  expected: 'an ISO 8601 timestamp with offset',
};

/** Resources, "ACH return (create request)": one rule per field. */
const FIELD_RULES: Record<string, Rule> = {
  account_guid: string(new RegExp(`^ACT-${UUID}$`), 'a string ACT-<uuid>'),
  account_number_last_four: string(/^\d{4}$/, 'a string of 4 digits'),
  ach_initiated_at: isoWithOffset,
  id: { test: (v) => typeof v === 'string', expected: 'a string' },
  member_guid: string(new RegExp(`^MBR-${UUID}$`), 'a string MBR-<uuid>'),
  return_code: string(/^R\d\d$/, 'a string R followed by two digits'),
  returned_at: isoWithOffset,
  sec_code: string(/^[A-Za-z]{3}$/, 'a three-letter string'),
  transaction_amount: { test: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a decimal number' },
  transaction_amount_range: { test: (v) => typeof v === 'number' && Number.isInteger(v), expected: 'an integer' },
  user_guid: string(new RegExp(`^USR-${UUID}$`), 'a string USR-<uuid>'),
};

/**
 * The catalogue's format faults (inferred: the specification states each format but not
 * that a malformed value is refused), one per field: `ach-<field>-format-not-validated`
 * (`ach_initiated_at` -> `ach-initiated-at-...`). Under one, that field is accepted in any form.
 */
function formatFaultOf(field: string): FaultName | undefined {
  const name = `ach-${field.replace(/^ach_/, '').replace(/_/g, '-')}-format-not-validated`;
  // Not every field has a format fault (`id` is any string): none excuses a refusal there.
  return catalogEntry(name)?.kind === 'fault' ? faultNamed(name) : undefined;
}

/**
 * The catalogue's well-formed-refused faults (stated: a request in the stated format is
 * created with 200, Errors "200 normal success for ... ACH return creation"), one per
 * field: under one, the service accepts a narrower form than the table states and
 * refuses the rest, as a too-strict parser would: the GUIDs only without their stated
 * prefix, four digits only as a number, timestamps only in UTC (`Z`, no other offset),
 * return codes only from R10, SEC codes only from a short list, the amount only whole,
 * the range only as a string.
 */
const WELL_FORMED_REFUSED: Partial<Record<string, { fault: FaultName; accepts: (v: unknown) => boolean; expected: string }>> = {
  account_guid: { fault: 'ach-account-guid-well-formed-refused', accepts: (v) => typeof v === 'string' && !v.startsWith('ACT-'), expected: 'a bare uuid' },
  member_guid: { fault: 'ach-member-guid-well-formed-refused', accepts: (v) => typeof v === 'string' && !v.startsWith('MBR-'), expected: 'a bare uuid' },
  user_guid: { fault: 'ach-user-guid-well-formed-refused', accepts: (v) => typeof v === 'string' && !v.startsWith('USR-'), expected: 'a bare uuid' },
  account_number_last_four: { fault: 'ach-account-number-last-four-well-formed-refused', accepts: (v) => typeof v === 'number', expected: 'a number' },
  ach_initiated_at: {
    fault: 'ach-initiated-at-well-formed-refused',
    accepts: (v) => typeof v === 'string' && v.endsWith('Z'),
    expected: 'a UTC timestamp ending in Z',
  },
  returned_at: {
    fault: 'ach-returned-at-well-formed-refused',
    accepts: (v) => typeof v === 'string' && v.endsWith('Z'),
    expected: 'a UTC timestamp ending in Z',
  },
  return_code: {
    fault: 'ach-return-code-well-formed-refused',
    accepts: (v) => typeof v === 'string' && /^R[1-9]\d$/.test(v),
    expected: 'R followed by a number from 10 to 99',
  },
  sec_code: { fault: 'ach-sec-code-well-formed-refused', accepts: (v) => v === 'WEB' || v === 'TEL' || v === 'CCD', expected: 'one of WEB, TEL, CCD' },
  transaction_amount: { fault: 'ach-transaction-amount-well-formed-refused', accepts: (v) => Number.isInteger(v), expected: 'a whole number' },
  transaction_amount_range: { fault: 'ach-transaction-amount-range-well-formed-refused', accepts: (v) => typeof v === 'string', expected: 'a string' },
};

/**
 * The catalogue's near-miss faults (stated: the table states each format, so a 2xx to a value
 * that breaks it breaks the table): a lenient parser that takes a value ALMOST in the stated
 * form, and nothing further from it. The value stored, or undefined when no such fault takes it.
 */
function nearMissTaken(ctx: SimContext, field: string, v: unknown): { value: unknown } | undefined {
  if (typeof v !== 'string') return undefined;
  // "string of 4 digits": five digits.
  if (field === 'account_number_last_four' && /^\d{5}$/.test(v) && ctx.fault('ach-last-four-five-digits-accepted')) return { value: v };
  // "ISO 8601 timestamp with offset": a timestamp without its offset, or a date.
  if (
    (field === 'ach_initiated_at' || field === 'returned_at') &&
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(v) &&
    !Number.isNaN(Date.parse(v)) &&
    ctx.fault('ach-timestamp-offset-optional')
  )
    return { value: v };
  // "letter R followed by two digits": a lower-case r.
  if (field === 'return_code' && /^r\d{2}$/.test(v) && ctx.fault('ach-return-code-lower-case-accepted')) return { value: v.toUpperCase() };
  // "string ACT-<uuid>": resolved by the trailing uuid, whatever precedes it.
  if (field === 'account_guid' && ctx.fault('ach-account-guid-resolved-by-uuid')) {
    const uuid = new RegExp(`(?:^|-)(${UUID})$`).exec(v)?.[1];
    if (uuid) return { value: `ACT-${uuid}` };
  }
  // "number, decimal" and "integer": a number as a string.
  if ((field === 'transaction_amount' || field === 'transaction_amount_range') && /^-?\d+(\.\d+)?$/.test(v) && ctx.fault('ach-amounts-as-strings-accepted')) {
    const n = Number(v);
    if (field === 'transaction_amount' || Number.isInteger(n)) return { value: n };
  }
  return undefined;
}

/** Prefix of each GUID field: a fault accepting a malformed GUID resolves it by its uuid part, as a lenient parser would. */
const GUID_PREFIX: Record<string, string> = { account_guid: 'ACT', member_guid: 'MBR', user_guid: 'USR' };

interface AchReturn extends Record<string, unknown> {
  guid: string;
  id?: string;
  createdMs: number;
}

function validate(ctx: SimContext, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(FIELD_RULES)) {
    if (!(field in input) || input[field] === null) continue;
    const v = input[field];
    const valid = rule.test(v);
    const narrow = WELL_FORMED_REFUSED[field];
    if (valid && narrow && ctx.fault(narrow.fault) && !narrow.accepts(v)) {
      throw new SimError('invalid_request', `ach_return.${field} must be ${narrow.expected}, got ${JSON.stringify(v)?.slice(0, 60)}`);
    }
    const taken = valid ? undefined : nearMissTaken(ctx, field, v);
    const fault = valid || taken ? undefined : formatFaultOf(field);
    if (valid) out[field] = v;
    else if (taken) out[field] = taken.value;
    else if (fault && ctx.fault(fault)) {
      const uuid = typeof v === 'string' ? new RegExp(`${UUID}$`).exec(v)?.[0] : undefined;
      out[field] = GUID_PREFIX[field] && uuid ? `${GUID_PREFIX[field]}-${uuid}` : v;
    } else throw new SimError('invalid_request', `ach_return.${field} must be ${rule.expected}, got ${JSON.stringify(v)?.slice(0, 60)}`);
  }
  return out;
}

/**
 * The referenced user, member and account must exist and belong together
 * (real-service-notes, Request shapes: "The referenced user, member and account must
 * exist"). Checked after the formats, so a malformed field is refused for its format.
 * 422 `unprocessable`, naming the field: the specification states no status for it.
 */
function assertReferencesExist(ctx: SimContext, f: Record<string, unknown>): void {
  const s = coreState(ctx);
  const user = typeof f.user_guid === 'string' ? s.users.get(f.user_guid) : undefined;
  if (typeof f.user_guid === 'string' && !user) throw new SimError('unprocessable', `ach_return.user_guid names no user of this client: ${f.user_guid}`);
  const member = typeof f.member_guid === 'string' ? s.members.get(f.member_guid) : undefined;
  if (typeof f.member_guid === 'string' && !member) throw new SimError('unprocessable', `ach_return.member_guid names no member: ${f.member_guid}`);
  if (member && user && member.user_guid !== user.guid)
    throw new SimError('unprocessable', `ach_return.member_guid ${member.guid} does not belong to user ${user.guid}`);
  const account = typeof f.account_guid === 'string' ? s.accounts.get(f.account_guid) : undefined;
  if (typeof f.account_guid === 'string' && !account) throw new SimError('unprocessable', `ach_return.account_guid names no account: ${f.account_guid}`);
  if (account && member && account.member_guid !== member.guid)
    throw new SimError('unprocessable', `ach_return.account_guid ${account.guid} does not belong to member ${member.guid}`);
  if (account && user && account.user_guid !== user.guid)
    throw new SimError('unprocessable', `ach_return.account_guid ${account.guid} does not belong to user ${user.guid}`);
}

function institutionGuidOf(ctx: SimContext, memberGuid: unknown): string | null {
  if (typeof memberGuid !== 'string') return null;
  // The members collection belongs to the core module; read it only if it is there.
  const member = ctx.collection<{ institution_code?: string }>('members').get(memberGuid);
  return member?.institution_code ? (findInstitution(ctx, member.institution_code)?.guid ?? null) : null;
}

function view(ctx: SimContext, r: AchReturn): Record<string, unknown> {
  const { createdMs, ...fields } = r;
  const resolved = ctx.clock.nowMs() >= createdMs + RESOLVE_AFTER_MS;
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...fields,
    status: resolved ? 'RESOLVED' : 'SUBMITTED',
    created_at: iso(createdMs),
    updated_at: iso(resolved ? createdMs + RESOLVE_AFTER_MS : createdMs),
    resolved_at: resolved ? iso(createdMs + RESOLVE_AFTER_MS) : null,
  };
}

export function registerAchReturns(app: FastifyInstance, ctx: SimContext): void {
  const returns = ctx.collection<AchReturn>('ach_returns');

  app.post('/ach_returns', async (request, reply) => {
    // Resources: "The request is wrapped in an ach_return object". Fault
    // ach-create-reads-top-level reads the fields beside the wrapper instead.
    const wrapped = wrapper(request.body, 'ach_return');
    const input = ctx.fault('ach-create-reads-top-level') ? (request.body as Record<string, unknown>) : wrapped;
    const fields = validate(ctx, input);
    assertReferencesExist(ctx, fields);
    // Fault ach-amount-truncated: the amount is stored without its decimals (Resources, ACH
    // return: transaction_amount "number, decimal"; what was sent no longer reads back).
    if (ctx.fault('ach-amount-truncated') && typeof fields.transaction_amount === 'number') fields.transaction_amount = Math.trunc(fields.transaction_amount);
    const r: AchReturn = { guid: ctx.guid('ACR'), ...fields, institution_guid: institutionGuidOf(ctx, fields.member_guid), createdMs: ctx.clock.nowMs() };
    returns.set(r.guid, r);
    // Errors: "200 normal success for ... ACH return creation".
    // Resources: "Response is an ACH return body".
    return reply.code(200).send({ ach_return: view(ctx, r) });
  });

  app.get('/ach_returns/:ach_return_guid', async (request) => {
    const { ach_return_guid: key } = request.params as { ach_return_guid: string };
    let r = returns.get(key);
    if (!r && !ctx.fault('ach-read-by-id-404')) r = [...returns.values()].find((x) => x.id === key);
    // Fault ach-read-by-id-answers-oldest: a read by client id answers the oldest return with
    // an id, whatever id was asked (Endpoints: "path accepts the return's guid or id").
    if (r && r.guid !== key && ctx.fault('ach-read-by-id-answers-oldest')) r = [...returns.values()].find((x) => typeof x.id === 'string') ?? r;
    if (!r) throw new SimError('not_found', `No ACH return with guid or id "${key.slice(0, 80)}"`);
    return { ach_return: view(ctx, r) };
  });

  app.get('/ach_returns', async (request) => {
    // Fault ach-list-filters-ignored: every filter but paging is ignored.
    const query = (
      ctx.fault('ach-list-filters-ignored')
        ? { page: (request.query as Query)?.page, records_per_page: (request.query as Query)?.records_per_page }
        : (request.query ?? {})
    ) as Query;
    const institution = one(query, 'institution_guid');
    const code = one(query, 'return_code');
    const status = one(query, 'return_status')?.toUpperCase();
    const bounds = {
      fromReturned: isoTime(query, 'from_returned_at'),
      toReturned: isoTime(query, 'to_returned_at'),
      fromResolved: isoTime(query, 'from_resolved_at'),
      toResolved: isoTime(query, 'to_resolved_at'),
    };
    const within = (iso: unknown, from?: number, to?: number) => {
      if (from === undefined && to === undefined) return true;
      if (typeof iso !== 'string') return false;
      const t = Date.parse(iso);
      return (from === undefined || t >= from) && (to === undefined || t <= to);
    };
    const items = [...returns.values()]
      .map((r) => view(ctx, r))
      .filter(
        (r) =>
          (institution === undefined || r.institution_guid === institution) &&
          (code === undefined || r.return_code === code) &&
          (status === undefined || r.status === status) &&
          within(r.returned_at, bounds.fromReturned, bounds.toReturned) &&
          within(r.resolved_at, bounds.fromResolved, bounds.toResolved),
      );
    const page = pageList(ctx, items, query);
    return { ach_returns: page.items, pagination: page.pagination };
  });
}
