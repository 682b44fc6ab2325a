/**
 * Paging limits under concurrent load. Statements enforced (specification):
 *   [LIMIT]  Limits, the table's row: `records_per_page` maximum | 1000 | list institutions,
 *            list favourite institutions, credentials of an institution, all data
 *            exchange list endpoints (and Endpoints, Institutions: "records_per_page (max 1000)";
 *            Data exchange: "records_per_page on these lists has a maximum of 1000").
 *   [PAGED]  Endpoints: "Lists are paged with page and records_per_page".
 *
 *   page_cap           records_per_page=1000 answers a page of at most 1000 records, a
 *                      full page when the list holds 1000 or more ([LIMIT]: 1000 is an
 *                      accepted value; [PAGED]); above the maximum (1001, 5000) only
 *                      "at most 1000" is stated ([LIMIT]): a 2xx with any number of
 *                      records up to 1000, or a 4xx, both pass. Never a 5xx.
 *   walk_institutions  concurrent VUs each walk every page of GET /institutions;
 *   walk_data_exchange concurrent VUs each walk every page of
 *                      GET /data_exchange/users/{user}/transactions (SVC-3DX-TOKEN):
 *                      each walk must return every record once, none missing, none
 *                      repeated, and every page but the last must hold the
 *                      records_per_page asked for ([PAGED]; the walks ask for the
 *                      profile's page size, 100 to 500, within [LIMIT]'s maximum).
 *                      Skipped, with a message, when SVC_3DX_GRANTEE_GUID and
 *                      SVC_3DX_GRANT_GUID are not set (the target offers no grant).
 * Page sizes below 10 are never asked: the specification shows no minimum and a real
 * service answers 25 records for fewer than 10 (../shared/real-service-notes.md, Paging).
 * The expected record count is the list's own `pagination.total_entries` when present
 * (the pagination object is not shown in the specification), else a reference walk
 * at 1000 records per page made in setup(). Page-read latency thresholds (p95, p99) are
 * settings: SVC_PAGE_P95_MS, SVC_PAGE_P99_MS.
 *
 *   k6 run load/paging.ts            (or: npm run load -- load/paging.ts)
 */
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { guardTarget, loadConfig, planMessage, platformHeaders } from './script-support/config.ts';
import { getWithBackoff, requestWithBackoff, setupFailure } from './script-support/backoff.ts';
import { summaryOutputs } from './script-support/report.ts';
import type { SummaryData } from './script-support/summary.ts';

const cfg = loadConfig();
const p = cfg.profile;
const MAX = 1000;
const maxRecordsPerWalk = Number(__ENV.MAX_RECORDS_PER_WALK || 20_000);
const pagesPerWalkBound = Math.ceil(maxRecordsPerWalk / p.pageSize) + 1;
const capSizes = [1000, 1001, 5000];
/** Page size of probes that only read the first page: 10, the smallest size a real service honours (no minimum is stated). */
const PROBE_PAGE_SIZE = 10;
/** The data-exchange walk needs a grant on the target (Authentication 3, SVC-3DX-TOKEN). */
const dataExchangeConfigured = !!(cfg.dataExchange.granteeGuid && cfg.dataExchange.grantGuid);
const DATA_EXCHANGE_SKIPPED =
  'walk_data_exchange skipped: SVC_3DX_GRANTEE_GUID and SVC_3DX_GRANT_GUID are not set (a data-exchange grant of the target is needed to get an SVC-3DX-TOKEN)';
const plannedRequests = p.vus * p.iterations * 2 * pagesPerWalkBound + capSizes.length * 2 + 2 * (Math.ceil(maxRecordsPerWalk / MAX) + 4);
const plannedSeconds = 60;
guardTarget(cfg, plannedRequests, plannedSeconds);

export const options = {
  scenarios: {
    page_cap: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '60s', exec: 'pageCap' },
    walk_institutions: { executor: 'per-vu-iterations', vus: p.vus, iterations: p.iterations, maxDuration: '60s', exec: 'walkInstitutions' },
    ...(dataExchangeConfigured
      ? { walk_data_exchange: { executor: 'per-vu-iterations', vus: p.vus, iterations: p.iterations, maxDuration: '60s', exec: 'walkDataExchange' } }
      : {}),
  },
  thresholds: {
    checks: [`rate>=${cfg.checksRate}`],
    page_read_duration: [`p(95)<${cfg.pageP95Ms}`, `p(99)<${cfg.pageP99Ms}`],
    records_over_max: ['count==0'],
    page_size_not_honoured: ['count==0'],
    walk_records_missing: ['count==0'],
    walk_records_repeated: ['count==0'],
    server_errors: ['count==0'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
};

// A 429 while walking is answered by backing off (script-support/backoff.ts), not a failure.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const pageRead = new Trend('page_read_duration', true);
const recordsOverMax = new Counter('records_over_max');
const pageSizeNotHonoured = new Counter('page_size_not_honoured');
const missing = new Counter('walk_records_missing');
const repeated = new Counter('walk_records_repeated');
const serverErrors = new Counter('server_errors');
const walks = new Counter('page_walks_completed');

interface ListSpec {
  name: 'institutions' | 'data_exchange_transactions';
  path: string;
  /** Key of the array in the response body. */
  key: string;
  headers: Record<string, string>;
}

interface SetupData {
  /** Data-exchange user and token; absent when the target has no grant configured. */
  user?: string;
  token?: string;
  /** Reference record counts when the list carries no pagination.total_entries. */
  reference: Record<string, number | null>;
}

function lists(data: SetupData): { institutions: ListSpec; data_exchange_transactions?: ListSpec } {
  const out: { institutions: ListSpec; data_exchange_transactions?: ListSpec } = {
    institutions: { name: 'institutions', path: '/institutions', key: 'institutions', headers: platformHeaders(cfg) },
  };
  if (data.user && data.token) {
    out.data_exchange_transactions = {
      name: 'data_exchange_transactions',
      path: `/data_exchange/users/${encodeURIComponent(data.user)}/transactions`,
      key: 'transactions',
      headers: platformHeaders(cfg, { 'SVC-3DX-TOKEN': data.token }),
    };
  }
  return out;
}

function allLists(data: SetupData): ListSpec[] {
  return Object.values(lists(data)).filter((l): l is ListSpec => l !== undefined);
}

interface Page {
  status: number;
  items: Array<Record<string, unknown>> | null;
  totalEntries?: number;
  totalPages?: number;
}

function readPage(list: ListSpec, page: number, perPage: number): Page {
  const url = `${cfg.baseUrl}${list.path}?page=${page}&records_per_page=${perPage}`;
  const { res } = getWithBackoff(url, { headers: list.headers, tags: { name: `GET ${list.name} page`, list: list.name } });
  if (res.status !== 429) pageRead.add(res.timings.duration, { list: list.name });
  if (res.status >= 500) serverErrors.add(1, { list: list.name });
  if (res.status < 200 || res.status >= 300) return { status: res.status, items: null };
  let body: Record<string, unknown>;
  try {
    body = res.json() as Record<string, unknown>;
  } catch {
    return { status: res.status, items: null };
  }
  const items = Array.isArray(body[list.key]) ? (body[list.key] as Array<Record<string, unknown>>) : null;
  const pagination = body.pagination as Record<string, unknown> | undefined;
  return {
    status: res.status,
    items,
    totalEntries: typeof pagination?.total_entries === 'number' ? pagination.total_entries : undefined,
    totalPages: typeof pagination?.total_pages === 'number' ? pagination.total_pages : undefined,
  };
}

function recordId(r: Record<string, unknown>): string | undefined {
  const id = r.guid ?? r.code ?? r.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** Walks every page; returns distinct ids, repeats, and the count the list says it has. */
function walk(list: ListSpec, perPage: number): { ok: boolean; seen: Set<string>; repeats: number; expected?: number; shortPages: number; overMax: number } {
  const seen = new Set<string>();
  let repeats = 0;
  let expected: number | undefined;
  let shortPages = 0;
  let overMax = 0;
  const full = Math.min(perPage, MAX);
  for (let page = 1; page <= pagesPerWalkBound; page++) {
    const got = readPage(list, page, perPage);
    const ok = check(got, { [`${list.name} page answers 2xx with a list`]: (g) => g.items !== null });
    if (!ok || !got.items) return { ok: false, seen, repeats, expected, shortPages, overMax };
    if (page === 1) expected = got.totalEntries;
    // [PAGED]/[LIMIT]: a page never holds more than the records_per_page asked for (<= 1000).
    if (got.items.length > full) overMax++;
    for (const r of got.items) {
      const id = recordId(r);
      if (id === undefined) continue;
      if (seen.has(id)) repeats++;
      else seen.add(id);
    }
    const last = got.totalPages !== undefined ? page >= got.totalPages : got.items.length < full;
    // [PAGED]: every page but the last holds the records_per_page asked for.
    if (!last && got.items.length < full) shortPages++;
    if (last || got.items.length === 0) return { ok: true, seen, repeats, expected, shortPages, overMax };
  }
  return { ok: false, seen, repeats, expected, shortPages, overMax };
}

export function setup(): SetupData {
  console.log(planMessage(cfg, plannedRequests, plannedSeconds));
  // Setup backs off on 429 too: the client's limit may be spent by other traffic (or by
  // the rate-limit script just before, under `npm run load`).
  const probe = getWithBackoff(`${cfg.baseUrl}/institutions?records_per_page=${PROBE_PAGE_SIZE}`, { headers: platformHeaders(cfg) });
  if (probe.res.status !== 200) fail(setupFailure('/institutions', probe, 'the institution list is not readable with these settings'));
  const data: SetupData = { reference: {} };
  const { granteeGuid, grantGuid } = cfg.dataExchange;
  if (!dataExchangeConfigured) {
    console.warn(DATA_EXCHANGE_SKIPPED);
  } else {
    Object.assign(data, dataExchangeSetup(granteeGuid as string, grantGuid as string));
  }
  for (const list of allLists(data)) {
    const first = readPage(list, 1, PROBE_PAGE_SIZE);
    if (first.items === null) fail(`setup: GET ${list.name} answered ${first.status} (expected 200 with a list)`);
    data.reference[list.name] = first.totalEntries ?? null;
    if (first.totalEntries === undefined) {
      const ref = walk(list, MAX);
      data.reference[list.name] = ref.ok ? ref.seen.size : null;
    }
  }
  return data;
}

/** The data-exchange user and SVC-3DX-TOKEN of the configured grant. */
function dataExchangeSetup(granteeGuid: string, grantGuid: string): { user: string; token: string } {
  // Authentication 3: the token endpoint of the grant creates the SVC-3DX-TOKEN (status 201).
  const { res: tokenRes } = requestWithBackoff('POST', `${cfg.baseUrl}/data_exchange/grantee/${granteeGuid}/grants/${grantGuid}/token`, null, {
    headers: platformHeaders(cfg),
  });
  if (tokenRes.status !== 201 && tokenRes.status !== 200) fail(`setup: POST .../grants/{grant}/token answered ${tokenRes.status} (expected 201)`);
  // The token response's shape is not shown: read the field SVC_3DX_TOKEN_FIELD (default "token").
  const tokenField = __ENV.SVC_3DX_TOKEN_FIELD || 'token';
  const token = (tokenRes.json() as Record<string, unknown>)[tokenField];
  if (typeof token !== 'string' || token === '') fail(`setup: the token response has no string field "${tokenField}" (set SVC_3DX_TOKEN_FIELD)`);
  let user = cfg.dataExchange.user;
  if (!user) {
    const { res: users } = getWithBackoff(`${cfg.baseUrl}/data_exchange/users?records_per_page=${PROBE_PAGE_SIZE}`, {
      headers: platformHeaders(cfg, { 'SVC-3DX-TOKEN': token as string }),
    });
    if (users.status !== 200) fail(`setup: GET /data_exchange/users answered ${users.status} (expected 200)`);
    const first = ((users.json() as { users?: Array<Record<string, unknown>> }).users ?? [])[0];
    user = first ? recordId(first) : undefined;
    if (!user) fail('setup: /data_exchange/users lists no user; set SVC_3DX_USER');
  }
  return { user: user as string, token: token as string };
}

export function pageCap(data: SetupData): void {
  for (const list of allLists(data)) {
    const total = data.reference[list.name];
    for (const size of capSizes) {
      const got = readPage(list, 1, size);
      if (size === MAX) {
        // [LIMIT]: 1000 is within the stated maximum, so it is a valid request.
        check(got, { [`${list.name} records_per_page=1000 answers 2xx`]: (g) => g.items !== null });
      } else {
        // Above the maximum: clamped (2xx) or refused (4xx); the specification shows
        // neither, both pass. A 5xx is never an answer to a request (Errors).
        check(got, { [`${list.name} records_per_page=${size} answers 2xx or 4xx`]: (g) => g.status >= 200 && g.status < 500 });
      }
      if (!got.items) continue;
      // [LIMIT] Limits, records_per_page maximum 1000: whatever was asked, at most 1000.
      const within = got.items.length <= MAX;
      check(got, { [`${list.name} records_per_page=${size} yields at most 1000 records`]: () => within });
      if (!within) recordsOverMax.add(1, { list: list.name, records_per_page: String(size) });
      // [PAGED] with [LIMIT]: asked for 1000 (an accepted value) on a list of at least
      // 1000, the first page is full. Above the maximum only "at most 1000" is stated:
      // a service may clamp to fewer or fall back to its default page size.
      if (size === MAX && typeof total === 'number' && total >= MAX && got.items.length < MAX) {
        pageSizeNotHonoured.add(1, { list: list.name, records_per_page: String(size) });
        check(got, { [`${list.name} records_per_page=1000 yields a full page of 1000`]: () => false });
      }
    }
  }
}

function walkAndCheck(list: ListSpec, data: SetupData): void {
  const w = walk(list, p.pageSize);
  const expected = w.expected ?? data.reference[list.name] ?? undefined;
  const lost = expected === undefined ? 0 : Math.max(0, expected - w.seen.size);
  // [PAGED] "Lists are paged with page and records_per_page": walking page 1, 2, ... of
  // an unchanging list visits every record exactly once, in pages of the size asked.
  check(w, {
    [`${list.name} walk reaches the last page`]: (x) => x.ok,
    [`${list.name} walk returns every record (none missing)`]: () => w.ok && expected !== undefined && lost === 0,
    [`${list.name} walk returns each record once (none repeated)`]: (x) => x.repeats === 0,
    [`${list.name} walk pages are full until the last`]: (x) => x.shortPages === 0,
  });
  if (lost) missing.add(lost, { list: list.name });
  if (w.repeats) repeated.add(w.repeats, { list: list.name });
  if (w.shortPages) pageSizeNotHonoured.add(w.shortPages, { list: list.name });
  if (w.overMax) recordsOverMax.add(w.overMax, { list: list.name });
  if (w.ok) walks.add(1, { list: list.name });
}

export function walkInstitutions(data: SetupData): void {
  walkAndCheck(lists(data).institutions, data);
}

export function walkDataExchange(data: SetupData): void {
  const list = lists(data).data_exchange_transactions;
  // Only scheduled when the grant is configured; setup() then either fills the token or fails.
  if (!list) {
    fail('walk_data_exchange ran without a data-exchange token from setup()');
    return;
  }
  walkAndCheck(list, data);
}

export function handleSummary(data: SummaryData) {
  return summaryOutputs(
    'paging',
    data,
    {
      profile: p.name,
      target: cfg.host,
      pageSize: p.pageSize,
      vus: p.vus,
      iterationsPerVu: p.iterations,
      skipped: dataExchangeConfigured ? [] : [DATA_EXCHANGE_SKIPPED],
    },
    dataExchangeConfigured ? {} : { skipped: DATA_EXCHANGE_SKIPPED },
  );
}
