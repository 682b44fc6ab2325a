/**
 * What one run of the gate reaches of what the specification states, measured with the
 * project's own recording (integration/README.md: the recording proxy and `usage`): the
 * suite runs in real-target mode (proof/real-target.ts: the simulator as a process of
 * its own, the suite configured only through SVC_* variables) with the recording proxy
 * between them; the recording's usage (integration/usage.ts `usageFromExchanges`, what
 * `svc-conformance usage --from-har` writes, one per version) is then compared with the
 * documents of spec/:
 *
 *   - operations: every operation of the derived platform documents (one per version), the
 *     audience document and the test-host document; exercised when answered as a call that
 *     did its job (a 2xx; for an operation sunset in its version, its error), answered when
 *     any answer came (a refusal included);
 *   - stated parameters: the path, query and header parameters the documents declare (the
 *     security schemes' headers among them; those every request of an API carries once per
 *     API), the request-body fields of their JSON schemas, and the alternatives a path
 *     parameter is stated to accept (an institution's code or guid, an audience's id or
 *     slug, ...); a parameter of a version counts only when sent under that version. Left
 *     out: path parameters of an operation whose path is named only by analogy, and body
 *     fields of an operation whose request is not shown (`x-svc-not-shown` of the
 *     operation says so; spec/README.md);
 *   - the cases of the Errors table, each exercised when an exchange in its situation
 *     came back (ERROR_CASES says how each is recognised).
 *
 * What is not reached is listed with the reason and the setting that reaches it
 * (UNREACHED_REASONS), or as a gap no scenario closes under the run's settings. The fuzz
 * project runs last, recorded apart: what only it exercises is marked, since its cases are
 * drawn anew each run.
 *
 *   npx tsx proof/reach.ts [--settings minimal|full] [--project api ...] [--out dir]
 *   npx tsx proof/reach.ts --from-har recording.har [--fuzz-har fuzz.har] [--out dir]
 *
 * Writes `<out>/recording.har` and `<out>/fuzz.har` (a run only, redacted),
 * `<out>/usage.json`, `<out>/reach.json` and `<out>/reach.md`; prints the figures.
 * proof/reach.test.ts checks the counting on a tiny HAR.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadContract, notShownOf, type ApiName, type Contract } from '../contracts/index.ts';
import { readHar, toHar, type RecordedExchange } from '../integration/har.ts';
import { redactedExchanges } from '../integration/report.ts';
import { startProxy } from '../integration/proxy.ts';
import { usageFromExchanges, type UsageFile } from '../integration/usage.ts';
import {
  createRedactor,
  loadProfile,
  locateApi,
  PRODUCT_PATH_DEFAULTS,
  PRODUCT_PATH_ENV,
  profileSecrets,
  SIMULATOR_DEFAULTS,
  type ApiBases,
  realTargetEnv,
  simulatorProcessEnv,
  startSimulatorProcess,
} from '../targets/index.ts';
import { HTTP_METHODS } from '../spec/documents.ts';
import { figures, minimalTargetEnv, ROOT, runPlaywright } from './real-target.ts';

// ---- what the documents state -----------------------------------------------------------

export interface StatedOperation {
  /** `GET /institutions/{institution_identifier}`; other APIs than the platform's are prefixed (`audience GET ...`), as in a usage file. */
  id: string;
  api: ApiName;
  /** Method and path shape (`GET /institutions/{}`): one operation across versions. */
  shape: string;
  /** Platform versions whose document has it; empty for the audience and test-host documents. */
  versions: string[];
}

export type ParameterPlace = 'path' | 'query' | 'header' | 'body';

export interface StatedParameter {
  /** `GET /institutions/{institution_identifier} query records_per_page`, `... path institution_identifier=guid`. */
  id: string;
  operation: string;
  api: ApiName;
  shape: string;
  in: ParameterPlace;
  /** The parameter's name (lower case for headers), a body field's path (`member.institution_code`), or a path parameter's position name. */
  name: string;
  /** Path parameters: the position among the path's parameters (names differ across versions). */
  position?: number;
  /** A stated alternative of a path parameter (`guid`, `slug`): reached when a value of that kind was sent. */
  alternative?: string;
  versions: string[];
}

export interface ErrorCase {
  id: string;
  /** The status the table gives (the sunset sentence gives none: 400 stands for its "error"). */
  status: number;
  /** The Errors table's words. */
  when: string;
  /** How the recording shows the case. */
  recognised: string;
}

export interface Inventory {
  operations: StatedOperation[];
  parameters: StatedParameter[];
  errorCases: ErrorCase[];
}

/** A path parameter stated to accept two (or more) kinds of value, and how a sent value's kind is told. */
export interface PathAlternative {
  api: ApiName;
  /** Operation shapes (`GET /institutions/{}`) the statement covers. */
  shapes: string[];
  /** Position of the parameter among the path's parameters. */
  position: number;
  name: string;
  kinds: string[];
  /** The sentence of the specification. */
  stated: string;
}

const shapeOf = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
const idOf = (api: ApiName, key: string) => (api === 'platform' ? key : `${api} ${key}`);

const PATH_ALTERNATIVES: readonly PathAlternative[] = [
  {
    api: 'platform',
    shapes: ['GET /institutions/{}'],
    position: 0,
    name: 'institution_identifier',
    kinds: ['code', 'guid'],
    stated: 'Endpoints, Institutions: "identifier is the institution `code` or `guid`"',
  },
  {
    api: 'platform',
    shapes: ['GET /ach_returns/{}'],
    position: 0,
    name: 'ach_return_guid',
    kinds: ['guid', 'id'],
    stated: 'Endpoints, ACH returns: "path accepts the return\'s `guid` or `id`"',
  },
  {
    api: 'audience',
    shapes: ['GET /api/v1/audience/{}/list', 'GET /api/v1/audience/{}/list.csv'],
    position: 0,
    name: 'id_or_slug',
    kinds: ['id', 'slug'],
    stated: 'Endpoints, Audience list service: `/api/v1/audience/{id_or_slug}/list`',
  },
  ...(['user_identifier', 'member_identifier', 'account_identifier'] as const).map(
    (name, position): PathAlternative => ({
      api: 'platform',
      shapes: [
        'GET /data_exchange/users/{}/members/{}/accounts/{}',
        'GET /data_exchange/users/{}/members/{}/accounts/{}/transactions',
        'GET /data_exchange/users/{}/members/{}/accounts/{}/transactions/{}',
      ],
      position,
      name,
      kinds: ['guid', 'partner id'],
      stated: 'Endpoints, Data exchange: "read one slim account under a member; accepts GUID or partner ID"',
    }),
  ),
  {
    api: 'test-host',
    shapes: ['GET /users/test_svc/members/{}/challenges'],
    position: 0,
    name: 'challenge_type',
    kinds: ['text', 'options', 'image', 'image_options'],
    stated: 'Endpoints, Earlier-generation test paths: "(challenge types text, options, image, image_options)"',
  },
];

/** The Errors table (and its sunset sentence), one case per situation it names. */
const ERROR_CASES: readonly ErrorCase[] = [
  { id: '200 read', status: 200, when: 'normal success for reads', recognised: 'a GET of a platform operation without a list key answered 200' },
  { id: '200 list', status: 200, when: 'normal success for lists', recognised: 'a GET of a platform list operation answered 200' },
  { id: '200 ACH return creation', status: 200, when: 'normal success for ACH return creation', recognised: 'POST /ach_returns answered 200' },
  { id: '201 data exchange token', status: 201, when: 'data exchange token created', recognised: 'POST .../grants/{grant_guid}/token answered 201' },
  {
    id: '201 member created on v20250224',
    status: 201,
    when: 'member created on version v20250224',
    recognised: 'POST /users/{user_guid}/members under Accept-Version v20250224 answered 201',
  },
  {
    id: '202 identify while identifying',
    status: 202,
    when: 'identify requested while an identification is already running',
    recognised: 'a second identify of a member, no other job started on it in between, answered 202',
  },
  {
    id: '404 credentials of an invalid institution',
    status: 404,
    when: 'invalid `institution_identifier` on the credentials list',
    recognised: 'GET /institutions/{institution_identifier}/credentials answered 404',
  },
  {
    id: '404 data exchange transaction without a match',
    status: 404,
    when: 'data exchange transaction read with no matching transaction (not manual, scope matching the grant)',
    recognised: 'a data exchange transaction read (by user or by member and account) answered 404',
  },
  {
    id: '409 identify while another job runs',
    status: 409,
    when: 'identify requested while another aggregation-type job is running',
    recognised: 'an identify answered 409',
  },
  { id: '429 too many requests', status: 429, when: 'too many requests', recognised: 'any platform request answered 429' },
  {
    id: 'sunset version answers an error',
    status: 400,
    when: 'When an API version has reached sunset, attempts to use it return an error.',
    recognised: 'a request under the sunset version (--sunset-version, SVC_SUNSET_VERSION) answered neither 2xx nor 3xx',
  },
];

type Json = Record<string, any>;

/** A local `$ref` (`#/components/...`) of the document, followed to its target. */
function deref(doc: Json, node: any, seen = 0): any {
  if (!node || typeof node !== 'object' || typeof node.$ref !== 'string' || seen > 20) return node;
  if (!node.$ref.startsWith('#/')) return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce((at: any, part: string) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return deref(doc, target, seen + 1);
}

/** Body field paths a JSON schema declares: leaves (a property without declared properties of its own), objects joined by `.`, array items by `[]`. */
function declaredFields(doc: Json, schema: any, prefix = '', depth = 0): string[] {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 8) return [];
  const parts = [s, ...((s.allOf ?? []) as any[]).map((x) => deref(doc, x)), ...((s.oneOf ?? s.anyOf ?? []) as any[]).map((x) => deref(doc, x))];
  const out = new Set<string>();
  for (const part of parts) {
    if (part?.type === 'array' || part?.items) {
      for (const f of declaredFields(doc, part.items, `${prefix}[]`, depth + 1)) out.add(f);
      continue;
    }
    for (const [name, raw] of Object.entries((part?.properties ?? {}) as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const child = deref(doc, raw);
      const items = child?.type === 'array' || child?.items ? deref(doc, child.items) : undefined;
      const inner = items ? declaredFields(doc, items, `${path}[]`, depth + 1) : declaredFields(doc, child, path, depth + 1);
      if (inner.length) for (const f of inner) out.add(f);
      else out.add(path);
    }
  }
  return [...out];
}

/**
 * Headers every request of an API carries (Authentication 1, 2 and 5; the test host's
 * "Requests carry headers SVC-API-Key: <API_KEY>, SVC-Client-ID: <CLIENT_ID>"): one stated parameter per API, not
 * one per operation, so that they do not outweigh what is stated of one operation.
 */
const CROSS_CUTTING = new Set(['accept-version', 'authorization', 'svc-api-key', 'svc-client-id']);
const EVERY = '*';
const everyOperation = (api: ApiName, name: string): Omit<StatedParameter, 'id' | 'versions'> => ({
  operation: `${api} (every operation)`,
  api,
  shape: EVERY,
  in: 'header',
  name,
});

type AddParameter = (p: Omit<StatedParameter, 'id' | 'versions'>, version: string | undefined) => void;

/** One operation of one document, as the inventory reads it. */
interface DocumentOperation {
  doc: Json;
  api: ApiName;
  version: string | undefined;
  path: string;
  item: Json;
  op: Json;
  operation: string;
  shape: string;
}

/** The parameters an operation declares (its path item's and its own), by `in name`. */
function declaredParameters(doc: Json, item: Json, op: Json): Json[] {
  const declared = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(doc, raw);
    if (p?.name && p.in) declared.set(`${p.in} ${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`, p);
  }
  return [...declared.values()];
}

/** A path parameter, and each alternative form the identifiers' shapes allow at its position. */
function addPathParameter(o: DocumentOperation, name: string, add: AddParameter): void {
  const { operation, api, shape, path, version } = o;
  const position = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).indexOf(name);
  add({ operation, api, shape, in: 'path', name, position }, version);
  for (const alt of PATH_ALTERNATIVES)
    if (alt.api === api && alt.shapes.includes(shape) && alt.position === position)
      for (const kind of alt.kinds) add({ operation, api, shape, in: 'path', name, position, alternative: kind }, version);
}

/** Authentication: the header names the operation's security schemes send. */
function securityHeaders(doc: Json, op: Json): Set<string> {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, Json>;
  const headers = new Set<string>();
  for (const requirement of (op.security ?? doc.security ?? []) as Array<Record<string, unknown>>)
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (scheme?.type === 'http') headers.add('authorization');
      else if (scheme?.type === 'apiKey' && scheme.in === 'header') headers.add(String(scheme.name).toLowerCase());
    }
  return headers;
}

/** The stated parameters of one operation: declared ones, its security headers, its JSON body's fields. */
function addOperationParameters(o: DocumentOperation, add: AddParameter): void {
  const { doc, api, version, operation, shape, op } = o;
  // What the specification does not show of it states nothing (contracts/ notShownOf).
  const notShown = notShownOf(op);
  for (const p of declaredParameters(doc, o.item, op)) {
    if (p.in === 'cookie') continue;
    if (p.in === 'path') {
      if (!notShown.path) addPathParameter(o, p.name, add);
      continue;
    }
    const name = p.in === 'header' ? String(p.name).toLowerCase() : p.name;
    if (p.in === 'header' && CROSS_CUTTING.has(name)) add(everyOperation(api, name), version);
    else add({ operation, api, shape, in: p.in, name }, version);
  }
  for (const h of securityHeaders(doc, op)) add(CROSS_CUTTING.has(h) ? everyOperation(api, h) : { operation, api, shape, in: 'header', name: h }, version);
  if (notShown.request) return;
  const schema = deref(doc, op.requestBody)?.content?.['application/json']?.schema;
  for (const field of schema ? declaredFields(doc, schema) : []) add({ operation, api, shape, in: 'body', name: field }, version);
}

/** The operations, stated parameters and Errors cases of the documents of spec/. */
export function statedInventory(contract: Contract = loadContract()): Inventory {
  const operations = new Map<string, StatedOperation>();
  const parameters = new Map<string, StatedParameter>();
  const add: AddParameter = (p, version) => {
    const id = `${p.operation} ${p.in} ${p.name}${p.alternative ? `=${p.alternative}` : ''}`;
    const key = `${p.api} ${p.shape} ${p.in} ${p.in === 'path' ? `#${p.position}` : p.name}${p.alternative ? `=${p.alternative}` : ''}`;
    const known = parameters.get(key);
    if (known) {
      if (version && !known.versions.includes(version)) known.versions.push(version);
      // A path parameter named differently in another version is one parameter, shown under each name.
      if (p.in === 'path' && !known.name.split('|').includes(p.name)) known.name = `${known.name}|${p.name}`;
      return;
    }
    parameters.set(key, { ...p, id, versions: version ? [version] : [] });
  };
  const documents: Array<{ api: ApiName; version?: string }> = [
    // Newest first: an operation's id and a parameter's name are the current version's.
    ...[...contract.versions].reverse().map((version) => ({ api: 'platform' as const, version })),
    { api: 'audience' },
    { api: 'test-host' },
  ];
  for (const { api, version } of documents) {
    const doc = contract.document(api, version) as unknown as Json;
    for (const [path, rawItem] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      const item = deref(doc, rawItem);
      for (const method of HTTP_METHODS) {
        const op = item?.[method];
        if (!op || typeof op !== 'object') continue;
        const shape = shapeOf(method, path);
        const opKey = `${api} ${shape}`;
        let stated = operations.get(opKey);
        if (!stated) operations.set(opKey, (stated = { id: idOf(api, `${method.toUpperCase()} ${path}`), api, shape, versions: [] }));
        if (version) stated.versions.push(version);
        addOperationParameters({ doc, api, version, path, item, op, operation: stated.id, shape }, add);
      }
    }
  }
  return { operations: [...operations.values()], parameters: [...parameters.values()], errorCases: [...ERROR_CASES] };
}

// ---- what the recording reaches ----------------------------------------------------------

export interface ReachedItem<T> {
  item: T;
  /** Exercised: answered as a call that did its job is (a 2xx; for a sunset operation its error). */
  reached: boolean;
  /** Answered at all (any status, a refusal included). */
  answered: boolean;
  /** Statuses answered (operations), or how often the case came (Errors cases). */
  statuses?: number[];
  /** Exercised only by the fuzz project's recording (its generated cases are drawn anew each run). */
  fuzzOnly?: boolean;
}

export interface Unreached {
  kind: 'operation' | 'parameter' | 'error case';
  id: string;
  /** Answered, but never as a call that did its job (only refusals). */
  answeredOnly?: boolean;
  /** Why a run with these settings cannot reach it, and the setting that does; absent: a gap no scenario closes. */
  reason?: string;
  setting?: string;
}

export interface ReachFigures {
  operations: [number, number];
  parameters: [number, number];
  errorCases: [number, number];
  /** Answered at all (a refusal counts). */
  operationsAnswered: [number, number];
  parametersAnswered: [number, number];
  /** Exercised only by the fuzz project's recording (when it was given apart). */
  fuzzOnly?: { operations: number; parameters: number; errorCases: number };
  /** Exercised, of what the run's settings can reach: the items a reason explains (the setting that reaches them is missing) left out. */
  reachable: { operations: [number, number]; parameters: [number, number]; errorCases: [number, number] };
}

export interface ReachReport {
  source: string;
  settings?: string;
  operations: ReachedItem<StatedOperation>[];
  parameters: ReachedItem<StatedParameter>[];
  errorCases: ReachedItem<ErrorCase>[];
  unreached: Unreached[];
  figures: ReachFigures;
}

/** One located, matched exchange of the recording. */
interface Located {
  e: RecordedExchange;
  api: ApiName;
  /** The in-play version it was judged under (platform), else undefined. */
  version?: string;
  shape: string;
  params: string[];
  status: number;
  /** Answered as a call that did its job: a 2xx, or for an operation sunset in its version an error other than a refused credential or the rate limit (Versioning: "access is removed and requests return an error"). */
  ok: boolean;
  body?: any;
}

function parseJson(text: string | undefined): any {
  if (!text || !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every object of a JSON value that has the given keys (the records a response carries). */
function objectsWith(value: unknown, keys: string[], out: Json[] = [], depth = 0): Json[] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) objectsWith(v, keys, out, depth + 1);
    return out;
  }
  const obj = value as Json;
  if (keys.every((k) => typeof obj[k] === 'string')) out.push(obj);
  for (const v of Object.values(obj)) objectsWith(v, keys, out, depth + 1);
  return out;
}

/** Resources: "Identifier shapes: USR-<uuid> user, MBR-<uuid> member, ACT-<uuid> account". */
const GUID_SHAPES: Record<string, RegExp> = { user_identifier: /^USR-/, member_identifier: /^MBR-/, account_identifier: /^ACT-/ };

/**
 * The kind of a path value among a parameter's stated alternatives, from what the
 * recording's answers say about the records (an institution's code and guid, an ACH
 * return's guid and id, an audience's id) and the identifier shapes of Resources. Only a
 * call that did its job tells a kind (a refused made-up value is of no kind).
 */
function kindOf(alt: PathAlternative, value: string, x: Located, known: Map<string, Set<string>>): string | undefined {
  if (!x.ok) return undefined;
  switch (alt.name) {
    case 'institution_identifier':
    case 'ach_return_guid':
      return alt.kinds.find((kind) => known.get(`${alt.name} ${kind}`)?.has(value));
    case 'id_or_slug':
      // An audience answered for a value that is not the id it carries was read by its slug.
      return known.get('audience id')?.has(value) ? 'id' : 'slug';
    case 'challenge_type':
      return alt.kinds.find((k) => k === value.toLowerCase());
    default:
      return GUID_SHAPES[alt.name]?.test(value) ? 'guid' : 'partner id';
  }
}

/**
 * Body fields whose place in the body the specification does not state: the documents put
 * them in one place, the vendor's reference sends them in another (real-service-notes,
 * "Request shapes": `{member: {...}, data_request, client_redirect_url, enable_app2app, ...}`;
 * spec/README.md: data_request beside member, its placement not shown). Either place counts.
 */
const OTHER_PLACES: Readonly<Record<string, readonly string[]>> = {
  'POST /users/{}/members member.enable_app2app': ['enable_app2app'],
  'POST /users/{}/members data_request.products': ['member.data_request.products'],
};

const usageKeyShape = (key: string) => shapeOf(...(key.replace(/^(audience|test-host) /, '').split(' ') as [string, string]));

/**
 * Counts what the recording reaches. `bases` locates each API in the recording's URLs;
 * `sunsetVersion` is the version the sunset case is recognised by (none: not recognised).
 */
export interface MeasureOptions {
  bases: ApiBases;
  /** The fuzz project's recording, apart: what only it exercises is marked `fuzzOnly`. */
  fuzz?: readonly RecordedExchange[];
  inventory?: Inventory;
  contract?: Contract;
  sunsetVersion?: string;
  source?: string;
  settings?: string;
  reasons?: readonly ReasonRule[];
}

export function measureReach(exchanges: readonly RecordedExchange[], o: MeasureOptions): ReachReport & { usage: UsageFile } {
  const contract = o.contract ?? loadContract();
  const inventory = o.inventory ?? statedInventory(contract);
  const all = measureOnce([...exchanges, ...(o.fuzz ?? [])], { ...o, contract, inventory });
  if (!o.fuzz?.length) return all;
  const without = measureOnce(exchanges, { ...o, contract, inventory });
  const mark = <T>(a: ReachedItem<T>[], b: ReachedItem<T>[]) => {
    for (const [i, x] of a.entries()) if (x.reached && !b[i].reached) x.fuzzOnly = true;
  };
  mark(all.operations, without.operations);
  mark(all.parameters, without.parameters);
  mark(all.errorCases, without.errorCases);
  const n = (list: ReachedItem<unknown>[]) => list.filter((x) => x.fuzzOnly).length;
  all.figures.fuzzOnly = { operations: n(all.operations), parameters: n(all.parameters), errorCases: n(all.errorCases) };
  return all;
}

type MeasureOnceOptions = MeasureOptions & { contract: Contract; inventory: Inventory };

/** One measurement: the recording located, then operations, parameters and error cases counted, then the report. */
function measureOnce(exchanges: readonly RecordedExchange[], o: MeasureOnceOptions): ReachReport & { usage: UsageFile } {
  const source = o.source ?? 'recording';
  const located = locateExchanges(exchanges, o);
  const usage = usageFromExchanges(
    located.map((x) => x.e),
    { bases: o.bases, source, contract: o.contract },
  );
  const operations = reachedOperations(located, o.inventory);
  const parameters = reachedParameters(located, o, source);
  const errorCases = reachedErrorCases(exchanges, located, o);
  return { ...reachReport(operations, parameters, errorCases, o, source), usage };
}

/** Every answered exchange of a stated operation, with the version it is judged under and whether it did its job. */
function locateExchanges(exchanges: readonly RecordedExchange[], o: MeasureOnceOptions): Located[] {
  const { contract } = o;
  const newest = contract.versions[contract.versions.length - 1];
  const located: Located[] = [];
  for (const e of exchanges) {
    if (!e.response) continue;
    const at = locateApi(o.bases, e.request.url);
    if (!at) continue;
    // A platform request without Accept-Version is judged under the newest version (contracts: Versioning, current).
    const sent = at.api === 'platform' ? e.request.headers['accept-version'] : undefined;
    const version = at.api !== 'platform' ? undefined : sent === undefined ? newest : contract.versions.includes(sent) ? sent : undefined;
    const match = contract.findOperation(at.api, e.request.method, at.relative, at.api === 'platform' ? (version ?? newest) : undefined);
    if (!match) continue;
    const status = e.response.status;
    const sunsetError = match.operation.sunset && version !== undefined && status >= 400 && ![401, 403, 429].includes(status);
    located.push({
      e,
      api: at.api,
      version,
      shape: shapeOf(match.operation.method, match.operation.path),
      params: match.operation.segments.filter((s) => s.param).map((s) => match.params[s.param!]),
      status,
      ok: (status >= 200 && status < 300) || sunsetError,
      body: parseJson(e.response.body),
    });
  }
  return located;
}

/**
 * The project's usage of the recording (integration/usage.ts, what `svc-conformance usage
 * --from-har` writes), one per version in play so that a parameter counts only under a
 * version that states it.
 */
function usagesByVersion(list: readonly Located[], o: MeasureOnceOptions, source: string): Map<string, UsageFile> {
  const buckets = new Map<string, RecordedExchange[]>();
  for (const x of list) {
    if (x.api === 'platform' && x.version === undefined) continue;
    const bucket = x.api === 'platform' ? x.version! : x.api;
    const at = buckets.get(bucket);
    if (at) at.push(x.e);
    else buckets.set(bucket, [x.e]);
  }
  return new Map([...buckets].map(([b, l]) => [b, usageFromExchanges(l, { bases: o.bases, source, contract: o.contract })]));
}

function reachedOperations(located: readonly Located[], inventory: Inventory): ReachedItem<StatedOperation>[] {
  const statusesOf = new Map<string, Set<number>>();
  const okOps = new Set<string>();
  for (const x of located) {
    const key = `${x.api} ${x.shape}`;
    statusesOf.set(key, (statusesOf.get(key) ?? new Set()).add(x.status));
    if (x.ok) okOps.add(key);
  }
  return inventory.operations.map((item) => {
    const key = `${item.api} ${item.shape}`;
    const seen = statusesOf.get(key);
    return { item, reached: okOps.has(key), answered: !!seen, ...(seen ? { statuses: [...seen].sort((a, b) => a - b) } : {}) };
  });
}

/** What the answers say about records, to tell a path value's kind. */
function knownRecords(located: readonly Located[]): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  const learn = (key: string, v: unknown) => typeof v === 'string' && known.set(key, (known.get(key) ?? new Set()).add(v));
  for (const x of located) {
    if (!x.body || !x.ok) continue;
    if (x.api === 'platform' && x.shape.startsWith('GET /institutions'))
      for (const inst of objectsWith(x.body, ['code'])) {
        learn('institution_identifier code', inst.code);
        learn('institution_identifier guid', inst.guid);
      }
    if (x.api === 'platform' && x.shape.includes('/ach_returns'))
      for (const r of objectsWith(x.body, ['guid'])) {
        learn('ach_return_guid guid', r.guid);
        learn('ach_return_guid id', r.id);
      }
    if (x.api === 'audience') learn('audience id', x.body.audience_id);
  }
  return known;
}

/** A parameter is sent on the operation under a version that states it. */
function sentUnder(p: StatedParameter, usages: Map<string, UsageFile>): boolean {
  for (const b of p.api === 'platform' ? p.versions : [p.api]) {
    for (const [key, op] of Object.entries(usages.get(b)?.operations ?? {})) {
      if (op.api !== p.api || (p.shape !== EVERY && usageKeyShape(key) !== p.shape)) continue;
      if (p.in === 'path') return true;
      if (p.in === 'query' && op.query.includes(p.name)) return true;
      if (p.in === 'header' && op.headers.includes(p.name)) return true;
      if (p.in === 'body') {
        const places = [p.name, ...(OTHER_PLACES[`${p.shape} ${p.name}`] ?? [])];
        if (op.requestFields.some((f) => places.some((n) => f === n || f.startsWith(`${n}.`) || f.startsWith(`${n}[]`)))) return true;
      }
    }
  }
  return false;
}

/** Parameters: counted once of the calls that did their job, once of every answer. */
function reachedParameters(located: readonly Located[], o: MeasureOnceOptions, source: string): ReachedItem<StatedParameter>[] {
  const usagesOk = usagesByVersion(
    located.filter((x) => x.ok),
    o,
    source,
  );
  const usagesAll = usagesByVersion(located, o, source);
  const known = knownRecords(located);
  const alternativeReached = (p: StatedParameter, answered: boolean): boolean => {
    const alt = PATH_ALTERNATIVES.find((a) => a.api === p.api && a.shapes.includes(p.shape) && a.position === p.position);
    return (
      !!alt &&
      located.some(
        (x) =>
          x.api === p.api &&
          x.shape === p.shape &&
          (p.api !== 'platform' || (x.version !== undefined && p.versions.includes(x.version))) &&
          (answered ? true : kindOf(alt, x.params[p.position!] ?? '', x, known) === p.alternative),
      )
    );
  };
  return o.inventory.parameters.map((item) =>
    item.alternative
      ? { item, reached: alternativeReached(item, false), answered: alternativeReached(item, true) }
      : { item, reached: sentUnder(item, usagesOk), answered: sentUnder(item, usagesAll) },
  );
}

/** How each error case is recognised in a located exchange (the sunset case apart: it needs no stated operation). */
function errorCaseMatchers(contract: Contract, located: readonly Located[]): Record<string, (x: Located) => boolean> {
  const listShapes = new Set<string>();
  for (const v of contract.versions) for (const op of contract.model('platform', v).operations) if (op.listKey) listShapes.add(shapeOf(op.method, op.path));
  const identify = 'POST /users/{}/members/{}/identify';
  const jobs = /^POST \/users\/\{\}\/members\/\{\}\/(identify|aggregate|extend_history|verify)$/;
  const jobsByMember = new Map<string, Located[]>();
  for (const x of located)
    if (x.api === 'platform' && jobs.test(x.shape)) {
      const member = x.params.join('/');
      jobsByMember.set(member, [...(jobsByMember.get(member) ?? []), x]);
    }
  // A second identify of a member with no other job started on it in between (the recording's order).
  const secondIdentify = (x: Located): boolean => {
    const list = jobsByMember.get(x.params.join('/')) ?? [];
    const i = list.indexOf(x);
    return i > 0 && list[i - 1].shape === identify;
  };
  const platform = (x: Located) => x.api === 'platform';
  return {
    '200 read': (x) => platform(x) && x.shape.startsWith('GET ') && !listShapes.has(x.shape) && x.status === 200,
    '200 list': (x) => platform(x) && listShapes.has(x.shape) && x.status === 200,
    '200 ACH return creation': (x) => platform(x) && x.shape === 'POST /ach_returns' && x.status === 200,
    '201 data exchange token': (x) => platform(x) && x.shape === 'POST /data_exchange/grantee/{}/grants/{}/token' && x.status === 201,
    '201 member created on v20250224': (x) => platform(x) && x.shape === 'POST /users/{}/members' && x.version === 'v20250224' && x.status === 201,
    '202 identify while identifying': (x) => platform(x) && x.shape === identify && x.status === 202 && secondIdentify(x),
    '404 credentials of an invalid institution': (x) => platform(x) && x.shape === 'GET /institutions/{}/credentials' && x.status === 404,
    '404 data exchange transaction without a match': (x) =>
      platform(x) &&
      (x.shape === 'GET /data_exchange/users/{}/transactions/{}' || x.shape === 'GET /data_exchange/users/{}/members/{}/accounts/{}/transactions/{}') &&
      x.status === 404,
    '409 identify while another job runs': (x) => platform(x) && x.shape === identify && x.status === 409,
    '429 too many requests': (x) => platform(x) && x.status === 429,
  };
}

function reachedErrorCases(exchanges: readonly RecordedExchange[], located: readonly Located[], o: MeasureOnceOptions): ReachedItem<ErrorCase>[] {
  const caseMatches = errorCaseMatchers(o.contract, located);
  const sunsetErrors = o.sunsetVersion
    ? exchanges.filter(
        (e) =>
          e.response &&
          e.response.status >= 400 &&
          e.request.headers['accept-version'] === o.sunsetVersion &&
          locateApi(o.bases, e.request.url)?.api === 'platform',
      ).length
    : 0;
  return o.inventory.errorCases.map((item) => {
    const n = item.id === 'sunset version answers an error' ? sunsetErrors : located.filter(caseMatches[item.id] ?? (() => false)).length;
    return { item, reached: n > 0, answered: n > 0, statuses: [n] };
  });
}

/** The figures, and what is not reached with the reason a rule gives for it. */
function reachReport(
  operations: ReachedItem<StatedOperation>[],
  parameters: ReachedItem<StatedParameter>[],
  errorCases: ReachedItem<ErrorCase>[],
  o: MeasureOptions,
  source: string,
): ReachReport {
  const count = (list: Array<{ reached: boolean }>, of: 'reached' | 'answered' = 'reached'): [number, number] => [
    list.filter((x) => (x as any)[of]).length,
    list.length,
  ];
  const rules = o.reasons ?? UNREACHED_REASONS;
  const explain = (kind: Unreached['kind'], id: string, answered: boolean): Unreached => {
    const rule = rules.find((r) => (r.kind === undefined || r.kind === kind) && r.match.test(id));
    return { kind, id, ...(answered && kind !== 'error case' ? { answeredOnly: true } : {}), ...(rule ? { reason: rule.reason, setting: rule.setting } : {}) };
  };
  const unreached: Unreached[] = [
    ...operations.filter((x) => !x.reached).map((x) => explain('operation', x.item.id, x.answered)),
    ...parameters.filter((x) => !x.reached).map((x) => explain('parameter', x.item.id, x.answered)),
    ...errorCases.filter((x) => !x.reached).map((x) => explain('error case', x.item.id, false)),
  ];
  const explained = new Set(unreached.filter((u) => u.reason).map((u) => `${u.kind} ${u.id}`));
  const reachable = (list: Array<{ reached: boolean; item: { id: string } }>, kind: Unreached['kind']): [number, number] => [
    list.filter((x) => x.reached).length,
    list.filter((x) => !explained.has(`${kind} ${x.item.id}`)).length,
  ];
  return {
    source,
    ...(o.settings ? { settings: o.settings } : {}),
    operations,
    parameters,
    errorCases,
    unreached,
    figures: {
      operations: count(operations),
      parameters: count(parameters),
      errorCases: count(errorCases),
      operationsAnswered: count(operations, 'answered'),
      parametersAnswered: count(parameters, 'answered'),
      reachable: {
        operations: reachable(operations, 'operation'),
        parameters: reachable(parameters, 'parameter'),
        errorCases: reachable(errorCases, 'error case'),
      },
    },
  };
}

// ---- why what is not reached is not reached ------------------------------------------------

export interface ReasonRule {
  /** Unset: any kind. */
  kind?: Unreached['kind'];
  match: RegExp;
  reason: string;
  /** The setting (SVC_* variables) that reaches it. */
  setting: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The product areas' operations, each with the variable that names its path: the
 * specification does not show them (Endpoints: "Paths and payloads of the other product
 * areas listed under What the service does: not shown"), so the scenarios call the path
 * the profile names (targets/profiles/settings.ts PRODUCT_PATH_DEFAULTS, a real target's
 * only when set). The longest default path an operation's path starts with names it.
 */
function productAreaRules(): ReasonRule[] {
  const paths = Object.entries(PRODUCT_PATH_DEFAULTS).sort(([, a], [, b]) => b.length - a.length);
  return paths.map(([key, path]) => ({
    match: new RegExp(`^[A-Z]+ ${escape(path)}(/\\{[^}]+\\}(\\.pdf)?)?( |$)`),
    reason:
      'the specification does not show the product areas\' paths (Endpoints: "Paths and payloads of the other product areas ... not shown"): the scenarios call the path the profile names',
    setting: (PRODUCT_PATH_ENV as Record<string, string>)[key],
  }));
}

const CLIENT_GUID =
  "no endpoint reveals a client's own GUID (preflight/setting-sources.ts), and the grant, its token and every token-protected read follow from it";

/**
 * What a real target with minimal settings cannot reach, and why (preflight/setting-sources.ts
 * says where each setting's value comes from); the first rule that matches an item explains
 * it. An unreached item no rule names is a gap: a scenario could reach it and none does.
 */
const UNREACHED_REASONS: readonly ReasonRule[] = [
  {
    kind: 'parameter',
    match: /^GET \/data_exchange\/users\/\{user_identifier\}\/members\/.* path \w+=partner id$/,
    reason: "no data-exchange read answers a member's partner-defined id, and the slim user's and account's are read only through the grant",
    setting: 'SVC_3DX_USER_ID, SVC_3DX_MEMBER_ID, SVC_3DX_ACCOUNT_ID (with SVC_3DX_ISSUER_GUID)',
  },
  { match: /^(GET|POST) \/data_exchange\//, reason: CLIENT_GUID, setting: 'SVC_3DX_ISSUER_GUID or SVC_3DX_GRANTEE_GUID' },
  {
    kind: 'error case',
    match: /^(201 data exchange token|404 data exchange transaction without a match)$/,
    reason: CLIENT_GUID,
    setting: 'SVC_3DX_ISSUER_GUID or SVC_3DX_GRANTEE_GUID',
  },
  {
    kind: 'parameter',
    match: /^audience .* path id_or_slug=slug$/,
    reason: "no answer carries an audience's slug (the list names audience_id only); the partner administrator knows it",
    setting: 'SVC_AUDIENCE_SLUG (with SVC_AUDIENCE_ID)',
  },
  { match: /^audience /, reason: 'no endpoint lists the audiences a client can read (Endpoints, Audience list service)', setting: 'SVC_AUDIENCE_ID' },
  ...productAreaRules(),
  {
    kind: 'parameter',
    match:
      /^POST \/users\/\{user_guid\}\/members body member\.use_cases$|^POST \/users\/\{user_identifier\}\/widget_urls body widget_url\.connections_use_case_filter$|^GET \/users\/\{user_guid\}\/transactions query use_case$/,
    reason:
      'use cases are "only for clients opted in to use cases" (Resources, Member); which ones the client is opted in to is the vendor\'s arrangement with it',
    setting: 'SVC_USE_CASES',
  },
  {
    kind: 'error case',
    match: /^sunset version answers an error$/,
    reason: "which version the target has sunset is the vendor's announcement (Versioning, lifecycle); the versions in play are served",
    setting: 'SVC_SUNSET_VERSION',
  },
];

// ---- output --------------------------------------------------------------------------------

const pct = ([n, d]: [number, number]) => `${n}/${d} (${d ? ((100 * n) / d).toFixed(1) : '0.0'} %)`;

function figureLines(r: ReachReport): string[] {
  const gaps = r.unreached.filter((u) => !u.reason);
  const f = r.figures;
  return [
    `operations exercised: ${pct(f.operations)} (answered at all: ${pct(f.operationsAnswered)})`,
    `stated parameters exercised: ${pct(f.parameters)} (sent at all: ${pct(f.parametersAnswered)})`,
    `Errors cases exercised: ${pct(f.errorCases)}`,
    `of what these settings can reach: operations ${pct(f.reachable.operations)}, stated parameters ${pct(f.reachable.parameters)}, Errors cases ${pct(f.reachable.errorCases)}`,
    ...(f.fuzzOnly
      ? [
          `exercised only by the fuzz project: ${f.fuzzOnly.operations} operations, ${f.fuzzOnly.parameters} stated parameters, ${f.fuzzOnly.errorCases} Errors cases`,
        ]
      : []),
    `not reached: ${r.unreached.length}, ${r.unreached.length - gaps.length} with the setting that reaches them, ${gaps.length} gaps${
      gaps.length
        ? `: ${gaps
            .slice(0, 8)
            .map((g) => g.id)
            .join('; ')}${gaps.length > 8 ? '; ...' : ''}`
        : ''
    }`,
  ];
}

export function reachMarkdown(r: ReachReport): string {
  const lines = [
    '# What one run reaches of what the specification states',
    '',
    `Source: ${r.source}${r.settings ? `; settings: ${r.settings}` : ''}.`,
    '',
    'Exercised: answered as a call that did its job (a 2xx; for an operation sunset in its version, its error). Answered: any answer, refusals included.',
    '',
    '| what | exercised | of what these settings can reach | answered at all |',
    '|---|---|---|---|',
    `| operations | ${pct(r.figures.operations)} | ${pct(r.figures.reachable.operations)} | ${pct(r.figures.operationsAnswered)} |`,
    `| stated parameters | ${pct(r.figures.parameters)} | ${pct(r.figures.reachable.parameters)} | ${pct(r.figures.parametersAnswered)} |`,
    `| Errors cases | ${pct(r.figures.errorCases)} | ${pct(r.figures.reachable.errorCases)} | |`,
    '',
    '## Errors cases',
    '',
    '| case | when | exercised |',
    '|---|---|---|',
    ...r.errorCases.map(
      (c) => `| ${c.item.id} | ${c.item.when} | ${c.reached ? `yes (${c.statuses?.[0]})${c.fuzzOnly ? ', by the fuzz project only' : ''}` : 'no'} |`,
    ),
    '',
    ...(r.figures.fuzzOnly
      ? [
          '## Exercised only by the fuzz project',
          '',
          'Its generated cases are drawn anew each run (scenarios/fuzz/README.md): what only it reaches is reached by chance, not by a scenario.',
          '',
          ...[...r.operations.map((x) => ['operation', x] as const), ...r.parameters.map((x) => ['parameter', x] as const)]
            .filter(([, x]) => x.fuzzOnly)
            .map(([kind, x]) => `- ${kind} \`${x.item.id}\``),
          '',
        ]
      : []),
    '## Not reached',
    '',
    '| kind | what | why | setting that reaches it |',
    '|---|---|---|---|',
    ...r.unreached.map(
      (u) =>
        `| ${u.kind} | \`${u.id}\`${u.answeredOnly ? ' (answered, only refused)' : ''} | ${u.reason ?? '**gap**: no scenario reaches it under these settings'} | ${u.setting ?? ''} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

// ---- the run ---------------------------------------------------------------------------------

export interface RecordedRun {
  /** The scenario projects' traffic (api, browser, properties). */
  exchanges: RecordedExchange[];
  /** The fuzz project's traffic, recorded apart. */
  fuzz: RecordedExchange[];
  bases: ApiBases;
  summary: string;
  sunsetVersion?: string;
}

/**
 * The gate in real-target mode through the recording proxy: the simulator as its own
 * process, the proxy in front of it, Playwright configured only through SVC_* variables
 * whose base URLs name the proxy. The fuzz project runs after the others, in a Playwright
 * run of its own, so that its traffic is told apart.
 */
async function recordRun(o: { settings: 'minimal' | 'full'; projects: string[]; extra?: Record<string, string>; timeoutMs?: number }): Promise<RecordedRun> {
  const sim = await startSimulatorProcess(simulatorProcessEnv());
  try {
    const proxy = await startProxy({ upstream: sim.base, timeoutMs: 60_000 });
    try {
      const env = { ...(o.settings === 'minimal' ? minimalTargetEnv(proxy.url) : realTargetEnv(proxy.url)), ...o.extra };
      const timeoutMs = o.timeoutMs ?? 40 * 60_000;
      const scenarios = o.projects.filter((p) => p !== 'fuzz');
      const summaries: string[] = [];
      if (scenarios.length) summaries.push(figures(await runPlaywright({ projects: scenarios, env, timeoutMs })));
      const boundary = proxy.exchanges.length;
      if (o.projects.includes('fuzz')) summaries.push(figures(await runPlaywright({ projects: ['fuzz'], env, timeoutMs })));
      const d = SIMULATOR_DEFAULTS;
      return {
        exchanges: proxy.exchanges.slice(0, boundary),
        fuzz: proxy.exchanges.slice(boundary),
        bases: { platform: [proxy.url], audience: [`${proxy.url}${d.audiencePrefix}`], 'test-host': [`${proxy.url}${d.testHostPrefix}`] },
        summary: summaries.join('\n'),
        sunsetVersion: loadProfile(env).versions.sunset,
      };
    } finally {
      await proxy.close();
    }
  } finally {
    await sim.stop();
  }
}

const HELP = `Usage: npx tsx proof/reach.ts [options]

What one run of the gate reaches of what the specification states: operations of spec/
(every version document, the audience and test-host documents), stated parameters (path,
query, header, body fields), the cases of the Errors table; what is not reached, with the
reason and the setting that reaches it.

Without --from-har: starts the simulator as its own process, the recording proxy in front
of it, and runs the suite in real-target mode through the proxy (proof/real-target.ts);
the fuzz project runs last, in a Playwright run of its own, and is recorded apart.

Options:
  --settings minimal|full   the suite's settings: minimalTargetEnv (default) or realTargetEnv
  --project NAME            a Playwright project (repeatable; default: api, browser, properties, fuzz)
  --set NAME=VALUE          one more SVC_* variable (repeatable)
  --from-har FILE           count a recording instead of running (a run's recording.har, the proxy's)
  --fuzz-har FILE           with --from-har: the fuzz project's recording, counted with it and told apart
  --base-url URL            with --from-har: the platform base URL in it (default: the origin of the
                            first request carrying Accept-Version)
  --audience-base-url URL   with --from-har: the audience service's (default: the simulator's /audience of it)
  --test-host-base-url URL  with --from-har: the test host's (default: the simulator's /test-host of it)
  --sunset-version V        the version the sunset case is recognised by (default: SVC_SUNSET_VERSION of the run)
  --out DIR                 where recording.har, fuzz.har, usage.json, reach.json, reach.md go
                            (default: reports/out/reach)
  -h, --help                this text

Exit codes: 0 measured, 2 bad usage.`;

function usageError(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let values: Record<string, any> = {};
  try {
    ({ values } = parseArgs({
      options: {
        settings: { type: 'string', default: 'minimal' },
        project: { type: 'string', multiple: true },
        set: { type: 'string', multiple: true },
        'from-har': { type: 'string' },
        'fuzz-har': { type: 'string' },
        'base-url': { type: 'string' },
        'audience-base-url': { type: 'string' },
        'test-host-base-url': { type: 'string' },
        'sunset-version': { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    usageError((e as Error).message);
  }
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  if (values.settings !== 'minimal' && values.settings !== 'full') usageError(`--settings must be minimal or full, got "${values.settings}"`);
  if (values['fuzz-har'] && !values['from-har']) usageError('--fuzz-har goes with --from-har');
  const out = resolve(values.out ?? join(ROOT, 'reports', 'out', 'reach'));
  mkdirSync(out, { recursive: true });
  let exchanges: RecordedExchange[];
  let fuzz: RecordedExchange[] = [];
  let bases: ApiBases;
  let source: string;
  let sunsetVersion: string | undefined = values['sunset-version'];
  const written: string[] = [];
  if (values['from-har']) {
    exchanges = readHar(resolve(values['from-har'])).exchanges;
    if (values['fuzz-har']) fuzz = readHar(resolve(values['fuzz-har'])).exchanges;
    const platform =
      values['base-url'] ??
      [...exchanges, ...fuzz].map((e) => (e.request.headers['accept-version'] ? new URL(e.request.url).origin : undefined)).find((x) => x !== undefined);
    if (!platform) usageError(`no request of ${values['from-har']} carries Accept-Version: give --base-url`);
    const d = SIMULATOR_DEFAULTS;
    bases = {
      platform: [platform],
      audience: [values['audience-base-url'] ?? `${platform}${d.audiencePrefix}`],
      'test-host': [values['test-host-base-url'] ?? `${platform}${d.testHostPrefix}`],
    };
    source = `HAR file ${values['from-har']}${values['fuzz-har'] ? ` and the fuzz project's ${values['fuzz-har']}` : ''}`;
  } else {
    const extra: Record<string, string> = {};
    for (const kv of (values.set as string[] | undefined) ?? []) {
      const i = kv.indexOf('=');
      if (i < 1) usageError(`--set takes NAME=VALUE, got "${kv}"`);
      extra[kv.slice(0, i)] = kv.slice(i + 1);
    }
    const projects: string[] = values.project ?? ['api', 'browser', 'properties', 'fuzz'];
    const run = await recordRun({ settings: values.settings, projects, extra });
    console.log(run.summary);
    ({ exchanges, fuzz, bases } = run);
    sunsetVersion ??= run.sunsetVersion;
    source = `a real-target run through the recording proxy (projects ${projects.join(', ')})`;
    // The recordings without credentials (targets/profiles/redact.ts): the profile's secrets, credential headers and keys.
    const profile = loadProfile({ ...(values.settings === 'minimal' ? minimalTargetEnv(bases.platform[0]) : realTargetEnv(bases.platform[0])), ...extra });
    const redactor = createRedactor(profileSecrets(profile));
    const har = (list: RecordedExchange[]) => `${JSON.stringify(toHar(redactedExchanges(redactor, list), { name: 'svc-conformance reach', version: '1' }))}\n`;
    writeFileSync(join(out, 'recording.har'), har(exchanges));
    writeFileSync(join(out, 'fuzz.har'), har(fuzz));
    written.push('recording.har', 'fuzz.har');
  }
  const report = measureReach(exchanges, { bases, fuzz, sunsetVersion, source, settings: values['from-har'] ? undefined : values.settings });
  const { usage, ...rest } = report;
  writeFileSync(join(out, 'usage.json'), `${JSON.stringify(usage, null, 2)}\n`);
  writeFileSync(join(out, 'reach.json'), `${JSON.stringify(rest, null, 2)}\n`);
  writeFileSync(join(out, 'reach.md'), reachMarkdown(report));
  console.log([...figureLines(report), `written in ${out}: reach.md, reach.json, usage.json${written.map((f) => `, ${f}`).join('')}`].join('\n'));
}
