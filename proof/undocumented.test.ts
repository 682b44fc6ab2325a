/**
 * Operations called but not documented (a response checked against no document proves nothing): every operation the scenarios, the
 * load scripts and the live-delivery spec send must be in spec/, or its response is checked
 * against nothing (contracts/checks.ts reports it only as an `undocumented_operation`
 * warning).
 *
 * Two guards:
 *  - a static scan of the request call sites in scenarios/ and load/ (the path literals
 *    themselves, read from the source, never a list kept here), each looked up in the
 *    documents of spec/; it fails the moment a scenario calls an operation spec/ lacks.
 *    Paths built at run time (from a document, a variable) are not seen here: the
 *    authoritative figure is `npm run spec:undocumented`, which runs the conformance
 *    projects and reads the warnings (its parser is tested below);
 *  - the operations once called undocumented really are checked: a response that breaks what
 *    they state fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContract, type ApiName, type Exchange } from '../contracts/index.ts';
import { countTests, distinctOperations, normalisePath, undocumentedFromReport, type PlaywrightJsonReport } from './undocumented.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const contract = loadContract();

interface CallSite {
  file: string;
  line: number;
  api: ApiName;
  method: string;
  path: string;
  source: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'out') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/**
 * A path literal as the request would send it: a `${...}` filling a whole segment becomes an
 * identifier, one inside a segment (a query string appended) is dropped, the query removed.
 */
function concretePath(literal: string): string {
  let out = '';
  for (let i = 0; i < literal.length; i++) {
    if (literal[i] !== '$' || literal[i + 1] !== '{') {
      out += literal[i];
      continue;
    }
    let depth = 0,
      j = i + 1;
    for (; j < literal.length; j++) {
      if (literal[j] === '{') depth++;
      else if (literal[j] === '}' && --depth === 0) break;
    }
    const next = literal[j + 1];
    const wholeSegment = out.endsWith('/') && (next === undefined || next === '/' || next === '?');
    if (wholeSegment) out += 'X1';
    i = j;
  }
  return out.split('?')[0];
}

// A quoted path literal (single, double or back quotes), in named groups so patterns may add their own.
const QUOTED = String.raw`(?<q>['"\x60])(?<lit>(?:(?!\k<q>)[^\\]|\\.)*?)\k<q>`;
const PATTERNS: {
  re: RegExp;
  method: (m: RegExpExecArray) => string;
  literal: (m: RegExpExecArray) => string;
  api?: (m: RegExpExecArray, text: string) => ApiName | undefined;
}[] = [
  // CheckedClient helpers (scenarios/fixtures.ts): api.get(path, ...), api.post(path, body, ...)
  { re: new RegExp(String.raw`\bapi\.(get|post|put|delete|patch)\s*(?:<[^>]*>)?\(\s*` + QUOTED, 'g'), method: (m) => m[1], literal: (m) => m.groups!.lit },
  // walkList(api, path, key) (scenarios/api/journeys.ts): GET pages
  { re: new RegExp(String.raw`\bwalkList\s*(?:<[^(]*?>)?\(\s*\w+\s*,\s*` + QUOTED, 'g'), method: () => 'GET', literal: (m) => m.groups!.lit },
  // api.call({ api, method, path }) (scenarios/fixtures.ts)
  {
    re: new RegExp(String.raw`\bapi\.call\s*(?:<[^>]*>)?\(\s*\{[^\n]*?\bpath:\s*` + QUOTED, 'g'),
    method: (m) => /\bmethod:\s*'(\w+)'/.exec(m[0])?.[1] ?? 'GET',
    literal: (m) => m.groups!.lit,
    api: (m) => /\bapi:\s*'([\w-]+)'/.exec(m[0])?.[1] as ApiName | undefined,
  },
  // k6 load scripts (load/): GET or a named method on `${cfg.baseUrl}/...`
  { re: /\b(?:getWithBackoff|http\.get)\(\s*\x60\$\{cfg\.baseUrl\}(\/[^\x60]*)\x60/g, method: () => 'GET', literal: (m) => m[1] },
  { re: /\brequestWithBackoff\(\s*'(\w+)'\s*,\s*\x60\$\{cfg\.baseUrl\}(\/[^\x60]*)\x60/g, method: (m) => m[1], literal: (m) => m[2] },
];

function callSites(): CallSite[] {
  const sites: CallSite[] = [];
  for (const file of [...sourceFiles(join(ROOT, 'scenarios')), ...sourceFiles(join(ROOT, 'load'))]) {
    const text = readFileSync(file, 'utf8');
    for (const p of PATTERNS) {
      for (const m of text.matchAll(p.re)) {
        const literal = p.literal(m as RegExpExecArray);
        if (!literal.startsWith('/')) continue; // a variable or a prefix: built at run time
        const path = concretePath(literal);
        if (path.startsWith('/_sim/')) continue; // the simulator's own control endpoints, not the service
        const named = p.api?.(m as RegExpExecArray, text);
        const api: ApiName = named ?? (path.startsWith('/api/v1/audience/') ? 'audience' : 'platform');
        sites.push({
          file: relative(ROOT, file),
          line: text.slice(0, m.index).split('\n').length,
          api,
          method: p.method(m as RegExpExecArray).toUpperCase(),
          path,
          source: literal,
        });
      }
    }
  }
  return sites;
}

function documented(site: CallSite): boolean {
  if (site.api !== 'platform') return !!contract.findOperation(site.api, site.method, site.path);
  // Documented in at least one version (a version-bound or sunset operation is still documented).
  return contract.versions.some((v) => !!contract.findOperation('platform', site.method, site.path, v));
}

test('every operation a scenario or load script calls by a literal path is in spec/', () => {
  const sites = callSites();
  // The scan must really see the suite's requests (no vacuous pass on a broken pattern).
  // 108 call sites and 57 operations when written; a floor well below catches a pattern that stopped matching.
  assert.ok(sites.length >= 80, `only ${sites.length} call sites found`);
  const distinct = new Set(sites.map((s) => `${s.api} ${s.method} ${normalisePath(s.path)}`));
  assert.ok(distinct.size >= 40, `only ${distinct.size} distinct operations found`);
  for (const api of ['platform', 'test-host', 'audience'] as const)
    assert.ok(
      sites.some((s) => s.api === api),
      `no ${api} call site found`,
    );
  const missing = sites.filter((s) => !documented(s)).map((s) => `${s.file}:${s.line} ${s.method} ${s.source} (${s.api})`);
  assert.deepEqual(missing, [], 'operations called but not documented in spec/');
});

test('the scan sees the operations once called but undocumented', () => {
  const seen = new Set(callSites().map((s) => `${s.method} ${normalisePath(s.path.replace(/X1/g, 'USR-00000000-0000-4000-8000-000000000000'))}`));
  for (const op of ['POST /users/{id}/accounts', 'GET /users/{id}/accounts', 'GET /users/{id}/members', 'GET /users/{id}/insights']) {
    assert.ok(seen.has(op), `${op} is not among the call sites found`);
  }
});

test('concretePath fills whole-segment placeholders and drops appended ones', () => {
  assert.equal(concretePath('/users/${user}/members/${member}/accounts'), '/users/X1/members/X1/accounts');
  assert.equal(concretePath('/institutions${query({ name })}'), '/institutions');
  assert.equal(concretePath('/institutions?records_per_page=10'), '/institutions');
  assert.equal(concretePath('/ach_returns/${encodeURIComponent(body.id)}'), '/ach_returns/X1');
});

const USR = 'USR-2d666a81-38b8-4220-aa85-699e6f0ddfa5';
const MBR = 'MBR-af73d5eb-1a9d-4490-a28a-c5bff1a59b59';
const ACT = 'ACT-eea28ace-103c-44d0-b171-6521fda57a6f';

test('the report parser finds undocumented operations once per test, identifiers folded', () => {
  const warn = (method: string, path: string) => ({
    type: 'informational',
    description: `[warning] undocumented_operation ${method} ${path} at request: No operation of the platform v20260929 document matches ${method} ${path} (rule: not in the documents of spec/ (an unknown operation is reported, never failed))`,
  });
  const a = warn('GET', `/users/${USR}/members/${MBR}/accounts?page=1`);
  const report: PlaywrightJsonReport = {
    suites: [
      {
        title: 'f',
        suites: [
          {
            specs: [
              {
                file: 'accounts.spec.ts',
                title: 't1',
                tests: [{ annotations: [a, { type: 'informational', description: '[warning] version_conformance ...' }], results: [{ annotations: [a] }] }],
              },
              {
                file: 'accounts.spec.ts',
                title: 't2',
                tests: [
                  {
                    annotations: [warn('GET', `/users/USR-4132b477-4221-4d93-9ac8-5168f825f905/members/MBR-8174fd69-47ab-4849-b83c-b7198dfbe92b/accounts`)],
                    results: [],
                  },
                ],
              },
              { file: 'x.spec.ts', title: 't3', tests: [{ annotations: [], results: [{ annotations: [warn('POST', `/users/${USR}/accounts`)] }] }] },
            ],
          },
        ],
      },
    ],
  };
  assert.equal(countTests(report), 3);
  const found = [...undocumentedFromReport(report).values()];
  assert.deepEqual(distinctOperations(found), ['platform GET /users/{id}/members/{id}/accounts', 'platform POST /users/{id}/accounts']);
  assert.equal(found.find((o) => o.method === 'GET')!.count, 2);
  assert.equal(countTests({ suites: [] }), 0);
  assert.equal(normalisePath('/institutions/svcbank/credentials'), '/institutions/svcbank/credentials');
  assert.equal(normalisePath(`/ach_returns/scn-ach-17`), '/ach_returns/{id}');
});

function exchange(method: string, url: string, status: number, body: unknown, version = 'v20250224'): Exchange {
  return {
    api: 'platform',
    version,
    request: { method, url, headers: { 'accept-version': version } },
    response: { status, headers: { 'content-type': 'application/json' }, body },
  };
}

test('the added operations are documented in every version and their stated parts are checked', () => {
  const added: [string, string][] = [
    ['GET', `/users/${USR}/members`],
    ['GET', `/users/${USR}/members/${MBR}/accounts`],
    ['GET', `/users/${USR}/accounts`],
    ['POST', `/users/${USR}/accounts`],
    ['GET', `/users/${USR}/accounts/${ACT}`],
    ['GET', `/users/${USR}/insights`],
    ['GET', `/users/${USR}/repeating_transactions`],
    ['GET', `/users/${USR}/transactions/TRN-1`],
    ['PUT', `/users/${USR}/transactions/TRN-1`],
  ];
  for (const v of contract.versions) {
    for (const [method, path] of added) assert.ok(contract.findOperation('platform', method, path, v), `${method} ${path} in ${v}`);
  }
  // The merge path stays the merge operation, not an account read (a literal segment wins).
  assert.equal(
    contract.findOperation('platform', 'POST', `/users/${USR}/accounts/merge`, 'v20250224')?.operation.key,
    'POST /users/{user_guid}/accounts/merge',
  );

  const none = (e: Exchange) => contract.check(e).filter((f) => f.severity === 'error');
  // Errors: "200 normal success for reads, lists" - a list answering 201 fails.
  assert.ok(none(exchange('GET', `/users/${USR}/members`, 201, { members: [] })).some((f) => f.check === 'status_code_conformance'));
  // A listed member is a Member: a stated field of the wrong type fails (Resources, Member: is_oauth boolean).
  const member = {
    guid: MBR,
    id: null,
    user_guid: USR,
    user_id: null,
    institution_code: 'svcbank',
    name: 'Bank',
    connection_status: 'CONNECTED',
    is_being_aggregated: false,
    aggregated_at: null,
    successfully_aggregated_at: null,
    is_managed_by_user: false,
    is_oauth: false,
    metadata: null,
  };
  assert.deepEqual(none(exchange('GET', `/users/${USR}/members`, 200, { members: [member] })), []);
  assert.ok(
    none(exchange('GET', `/users/${USR}/members`, 200, { members: [{ ...member, is_oauth: 'no' }] })).some((f) => f.check === 'response_schema_conformance'),
  );
  // An account read: Resources, Account states no type for `balance`, so a number passes.
  // The account carries the named fields (balance and its *_set_by / feed_* variants,
  // stated_platform_fields; the others, contracts/stated-fields.ts), null where unknown.
  const named = [
    'user_id',
    'member_id',
    'user_guid',
    'member_guid',
    'member_is_managed_by_user',
    'federal_insurance_status',
    'hold_total',
    'pending_transactions_total',
    'imported_at',
    'available_credit',
    'cash_advance_apr',
    'statement_balance',
    'statement_on',
    'last_payment_on',
    'loan_amount',
    'pending_balance',
    'premium_amount',
    'insured_name',
    'pay_out_amount',
    'death_benefit',
    'cash_surrender_value',
    'is_personal',
    'available_balance',
  ];
  const account = {
    guid: ACT,
    ...Object.fromEntries(named.map((k) => [k, null])),
    user_guid: USR,
    member_guid: MBR,
    balance: 10,
    balance_set_by: null,
    feed_balance: null,
  };
  assert.deepEqual(none(exchange('GET', `/users/${USR}/accounts/${ACT}`, 200, { account })), []);
  const { balance_set_by: _s, feed_balance: _f, ...noVariants } = account;
  // The *_set_by / feed_* variants are named on v20111101 only (contracts/stated-platform.ts accountVariantsStated):
  // named, not promised, so their absence is an inferred finding, never an error.
  assert.ok(
    contract
      .check(exchange('GET', `/users/${USR}/accounts/${ACT}`, 200, { account: noVariants }, 'v20111101'))
      .some((f) => f.check === 'stated_platform_fields' && f.tier === 'inferred'),
  );
  assert.deepEqual(
    none(exchange('GET', `/users/${USR}/accounts/${ACT}`, 200, { account: noVariants })),
    [],
    'v20250224 accounts without the variants (real-service-notes)',
  );
  // Creating a manual account: the Errors table states no success status, so any 2xx passes.
  for (const status of [200, 201, 202]) assert.deepEqual(none(exchange('POST', `/users/${USR}/accounts`, status, { account })), []);
  // The envelope keys are not shown: a missing one is inferred (a warning), never an error.
  const missingKey = contract.check(exchange('GET', `/users/${USR}/insights`, 200, { items: [] }));
  assert.ok(
    missingKey.some((f) => f.check === 'response_schema_conformance' && f.tier === 'inferred' && f.severity === 'warning'),
    JSON.stringify(missingKey),
  );
  assert.ok(missingKey.every((f) => f.severity !== 'error'));
  // The repeating transactions read is not paged in the vendor reference: no page-size rule.
  const many = Array.from({ length: 30 }, () => ({}));
  assert.deepEqual(none(exchange('GET', `/users/${USR}/repeating_transactions?records_per_page=10`, 200, { repeating_transactions: many })), []);
  // Member accounts list: the page-size rule applies (Endpoints: lists are paged with records_per_page).
  assert.ok(
    none(exchange('GET', `/users/${USR}/members/${MBR}/accounts?records_per_page=10`, 200, { accounts: many })).some((f) => f.check === 'paging_conformance'),
  );
});
