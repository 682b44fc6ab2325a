/**
 * Families of a whole answer: `status` (a stated success status replaced), `other-2xx`
 * (tolerated: another success where none is stated), `refusal-served` (a stated refusal
 * answered as a success), `header` (a stated header dropped or the media type changed),
 * `limit` (a stated limit exceeded by one).
 */
import { type ApiName, type OperationInfo, PARTNER_RULES, PROCESSOR_TOKEN_LIFETIME_S } from '../../../contracts/index.ts';
import { type Generation, quote } from '../generation.ts';
import { type OpRef, opRef, parseOpRef } from '../model.ts';
import { NON_BREAKING, pathUnknown } from '../statements.ts';

/** status: every stated success status answered as another 2xx, or as another row's refusal (409); the identify rows swapped. */
export function statusMutants(g: Generation): void {
  const { b } = g;
  const statusRows = (op: OperationInfo, status: string) =>
    g.rows.filter(
      (r) => r.section === 'Errors' && r.encoded_in.some((e) => e.includes(`${op.path.replace(/\//g, '~1')}/${op.method.toLowerCase()}/responses/${status}`)),
    );
  for (const d of g.docs.ops) {
    if (d.op.sunset) continue;
    for (const s of d.op.statedSuccessStatuses) {
      if (!/^2\d\d$/.test(s)) continue;
      const n = Number(s);
      const sRows = statusRows(d.op, s).length ? statusRows(d.op, s) : g.rowsOf('err.200');
      const statement = quote(sRows, `Errors: ${s}`);
      const ref = opRef(d.api, d.op.key);
      if (d.api !== 'platform') continue; // the audience and test-host documents state no success status by the Errors table
      // Another 2xx the operation does not document (a documented one, stated or not, is the
      // operation's own: create member's 200 and 202 beside the stated 201 on v20250224).
      const other = [200, 201, 202, 203].find((x) => x !== n && !d.op.successStatuses.includes(String(x)))!;
      b.add(
        {
          id: `status:${d.op.key} ${n}->other 2xx`,
          family: 'status',
          expect: 'killed',
          statement: `${statement}; ${d.op.key} answers ${n}`,
          section: 'Errors',
          rows: sRows.map((r) => r.id),
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [n], to: other },
        },
        d.version,
      );
      // A refusal is held against a read only where the suite knows the target serves it: a
      // path the specification shows, or one the profile names (PRODUCT_PATH_DEFAULTS).
      if (pathUnknown(d.op)) continue;
      b.add(
        {
          id: `status:${d.op.key} ${n}->409`,
          family: 'status',
          expect: 'killed',
          statement: `${statement}; 409 is the Errors table's answer to identify while another aggregation-type job runs`,
          section: 'Errors',
          rows: sRows.map((r) => r.id),
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [n], to: 409 },
        },
        d.version,
      );
    }
  }
  // The identify rows: 202 while an identification runs <-> 409 while another job runs.
  const identify = opRef('platform', 'POST /users/{user_guid}/members/{member_guid}/identify');
  b.add(
    {
      id: 'status:identify 409->202',
      family: 'status',
      expect: 'killed',
      statement: quote(g.rowsOf('ep.member.identify-409', 'err.409-identify'), 'identify while another aggregation-type job runs: 409'),
      section: 'Errors',
      rows: ['ep.member.identify-409', 'err.409-identify'].filter((id) => g.rowById.has(id)),
      ops: [identify],
      change: { kind: 'status', ops: [identify], from: [409], to: 202 },
    },
    undefined,
  );
  b.add(
    {
      id: 'status:identify 202->409',
      family: 'status',
      expect: 'killed',
      statement: quote(g.rowsOf('ep.member.identify-202', 'err.202-identify'), 'identify while an identification runs: 202'),
      section: 'Errors',
      rows: ['ep.member.identify-202', 'err.202-identify'].filter((id) => g.rowById.has(id)),
      ops: [identify],
      change: { kind: 'status', ops: [identify], from: [202], to: 409 },
    },
    undefined,
  );
}

/** other-2xx: another 2xx where none is stated (200 <-> 202, keeping the body). */
export function otherSuccessMutants(g: Generation): void {
  for (const d of g.docs.ops) {
    if (d.op.successStatuses.length && !d.op.statedSuccessStatuses.length && !d.op.sunset) {
      const ref = opRef(d.api, d.op.key);
      g.b.add(
        {
          id: 'other-2xx:where no success status is stated',
          family: 'other-2xx',
          expect: 'tolerated',
          statement: NON_BREAKING.other2xx,
          section: 'Errors',
          rows: [],
          ops: [ref],
          change: { kind: 'status', ops: [ref], from: [200, 201, 202], to: 203 },
        },
        undefined,
      );
    }
  }
}

/** refusal-served: stated refusals answered as successes. */
export function refusalServedMutants(g: Generation): void {
  const refusal = (id: string, rowIds: string[], opKeys: (o: OperationInfo, api: ApiName) => boolean, from: number[], fallback: string, section: string) => {
    const ops = [...new Set(g.docs.ops.filter((d) => opKeys(d.op, d.api)).map((d) => opRef(d.api, d.op.key)))];
    const rr = g.rowsOf(...rowIds);
    g.b.add(
      {
        id: `refusal-served:${id}`,
        family: 'refusal-served',
        expect: 'killed',
        statement: quote(rr, fallback),
        section,
        rows: rr.map((r) => r.id),
        ops,
        change: { kind: 'serve-refusal', ops, from },
      },
      undefined,
    );
  };
  refusal(
    'credentials of an unknown institution',
    ['err.404-credentials', 'ep.inst.credentials-404'],
    (o) => o.key === 'GET /institutions/{institution_identifier}/credentials',
    [404],
    'an invalid identifier returns 404',
    'Errors',
  );
  refusal(
    'data exchange transaction out of scope',
    ['err.404-dx-transaction', 'lim.dx-scope'],
    (o) => /^GET \/data_exchange\/users\/.*\/transactions\/\{[^}]+\}$/.test(o.key),
    [404],
    'data exchange transaction read with no matching transaction: 404',
    'Errors',
  );
  refusal(
    'data exchange read without its token',
    ['auth.3-dx-token', 'ep.dx.token-header'],
    (o) => /^GET \/data_exchange\/users/.test(o.key),
    [401, 403],
    'Data exchange read endpoints also require SVC-3DX-TOKEN',
    'Authentication',
  );
  refusal(
    'platform request without valid Basic credentials',
    ['auth.1-basic'],
    (o, api) => api === 'platform' && o.method === 'GET' && !/^\/data_exchange\/users/.test(o.path) && o.path !== '/payment_account',
    [401, 403],
    'Platform endpoints use HTTP Basic authentication',
    'Authentication',
  );
  refusal(
    'processor read without its access token',
    ['auth.4-processor', 'ep.authcode.limited'],
    (o) => o.key === 'GET /payment_account',
    [401, 403],
    'Processor access is limited to the identifiers and features in the scope',
    'Authentication',
  );
  refusal(
    'sunset version or endpoint',
    ['err.sunset-version', 'ver.sunset-error', 'ver.v20250224.sunset-payment-authcode', 'ver.v20250224.sunset-connect-widget-url'],
    (_o, api) => api === 'platform',
    [400, 404, 406, 410],
    'When an API version has reached sunset, attempts to use it return an error',
    'Versioning',
  );
  refusal(
    'audience list without a bearer token',
    ['auth.5-bearer'],
    (_o, api) => api === 'audience',
    [401, 403],
    'These credentials produce an access token used as Authorization: Bearer on all audience endpoints',
    'Authentication',
  );
}

/** header: the deprecation header under the names the user sets; JSON answered as text. */
export function headerMutants(g: Generation): void {
  const { b, docs } = g;
  const deprecatedOps = [...new Set(docs.ops.filter((d) => d.op.deprecated).map((d) => opRef(d.api, d.op.key)))];
  const verRows = g.rowsOf('ver.headers-all-versions');
  b.add(
    {
      id: 'header:Deprecation dropped',
      family: 'header',
      expect: 'killed',
      statement: quote(verRows, 'Response headers that signal deprecated and sunset endpoints are present in all versions'),
      section: 'Versioning',
      rows: verRows.map((r) => r.id),
      ops: deprecatedOps,
      change: { kind: 'header', drop: 'deprecation', onlyWhenPresent: true },
    },
    undefined,
  );
  const jsonRows = g.rowsOf('ep.json');
  b.add(
    {
      id: 'header:platform JSON as text/plain',
      family: 'header',
      expect: 'killed',
      statement: quote(jsonRows, 'Request and response bodies are JSON'),
      section: 'Endpoints',
      rows: jsonRows.map((r) => r.id),
      ops: [...new Set(docs.ops.filter((d) => d.api === 'platform').map((d) => opRef(d.api, d.op.key)))],
      change: { kind: 'header', set: { name: 'content-type', value: 'text/plain; charset=utf-8' }, onlyWhenPresent: true },
    },
    undefined,
  );
  const testAccept = g.rowsOf('ep.test.accept');
  b.add(
    {
      id: 'header:test host answers text/plain',
      family: 'header',
      expect: 'killed',
      statement: quote(testAccept, 'Accept: application/vnd.svc.legacy.v1+json'),
      section: 'Endpoints',
      rows: testAccept.map((r) => r.id),
      ops: [...new Set(docs.ops.filter((d) => d.api === 'test-host').map((d) => opRef(d.api, d.op.key)))],
      change: { kind: 'header', set: { name: 'content-type', value: 'text/plain' }, onlyWhenPresent: true },
    },
    undefined,
  );
}

/** A list operation: its reference and the key of its records in the answer. */
export interface ListOp {
  ref: OpRef;
  listKey: string;
}

/** The list operations of `ops`, each once (an operation may be documented in several versions). */
function listOpsOf(ops: Generation['docs']['ops']): ListOp[] {
  const byRef = new Map<OpRef, ListOp>();
  for (const d of ops) if (d.op.listKey) byRef.set(opRef(d.api, d.op.key), { ref: opRef(d.api, d.op.key), listKey: d.op.listKey });
  return [...byRef.values()];
}

/** The operations whose page has a stated maximum. */
export function maxPageOps(g: Generation): ListOp[] {
  return listOpsOf(g.docs.ops.filter((d) => d.op.maxRecordsPerPage));
}

/** limit: stated limits exceeded by one (a page, the default categories, the data exchange window, the processor token's lifetime). */
export function limitMutants(g: Generation): void {
  const { b, docs } = g;
  const pageRows = g.rowsOf('lim.rpp-1000');
  for (const { ref, listKey } of maxPageOps(g)) {
    b.add(
      {
        id: `limit:${parseOpRef(ref).key} 1001 records`,
        family: 'limit',
        expect: 'killed',
        statement: quote(pageRows, 'records_per_page maximum 1000'),
        section: 'Limits',
        rows: pageRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'page', ops: [ref], listKey, action: 'one-more', full: 1000 },
      },
      undefined,
    );
  }
  const pagingRows = g.rowsOf('ep.paging');
  for (const { ref, listKey } of listOpsOf(docs.ops.filter((d) => d.api === 'platform'))) {
    b.add(
      {
        id: `limit:${parseOpRef(ref).key} a record more than asked`,
        family: 'limit',
        expect: 'killed',
        statement: `${quote(pagingRows, 'Lists are paged with page and records_per_page')} (a page holds at most the records asked for, from 10 up)`,
        section: 'Endpoints',
        rows: pagingRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'page', ops: [ref], listKey, action: 'one-more', full: 'asked' },
      },
      undefined,
    );
  }
  const catRows = g.rowsOf('lim.default-categories', 'wsd.default-categories');
  const cat = opRef('platform', 'GET /categories/default');
  b.add(
    {
      id: 'limit:120 default categories',
      family: 'limit',
      expect: 'killed',
      statement: quote(catRows, 'default categories 119'),
      section: 'Limits',
      rows: catRows.map((r) => r.id),
      ops: [cat],
      change: { kind: 'field', sites: [], field: ['total_entries'], action: { op: 'add-number', delta: 1 } },
    },
    undefined,
    [{ op: cat, path: ['pagination'] }],
  );
  const windowRows = g.rowsOf('lim.dx-window');
  const dxLists = [...new Set(docs.ops.filter((d) => /^GET \/data_exchange\/users\/.*\/transactions$/.test(d.op.key)).map((d) => opRef(d.api, d.op.key)))];
  b.add(
    {
      id: 'limit:data exchange default window 93 days',
      family: 'limit',
      expect: 'killed',
      statement: quote(windowRows, 'default transaction window 90 days before the request day'),
      section: 'Limits',
      rows: windowRows.map((r) => r.id),
      ops: dxLists,
      change: {
        kind: 'page',
        ops: dxLists,
        listKey: 'transactions',
        action: 'older-record',
        days: 93,
        dateField: 'date',
        onlyWithoutQuery: ['from_date', 'to_date'],
      },
    },
    undefined,
  );
  const tokenRows = g.rowsOf('lim.access-token', 'auth.4-processor');
  const tokenOps = [
    ...new Set(docs.ops.filter((d) => d.op.key === 'POST /token' || d.op.key === 'POST /payment_processor_token').map((d) => opRef(d.api, d.op.key))),
  ];
  b.add(
    {
      id: 'limit:processor access_token 61 days',
      family: 'limit',
      expect: 'killed',
      statement: quote(tokenRows, PARTNER_RULES.tokenLifetime),
      section: 'Limits',
      rows: tokenRows.map((r) => r.id),
      ops: tokenOps,
      change: { kind: 'field', sites: [], field: ['expires_in'], action: { op: 'add-number', delta: PROCESSOR_TOKEN_LIFETIME_S / 60 } },
    },
    undefined,
    tokenOps.map((op) => ({ op, path: ['?'] })),
  );
}
