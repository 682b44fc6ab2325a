/**
 * What an integration uses (../shared/DESIGN.md, "What it is for" 4: "the impact of a
 * version upgrade on what it uses"): the operations, parameters and fields its traffic
 * touches, as a usage file the team commits, and the rule that says whether a difference
 * between two versions touches it.
 *
 * A recording shows what the integration SENT (operations, query parameters, headers,
 * request body fields) and what the service ANSWERED (response fields), not which answered
 * fields the code reads. `responseFields` is therefore an upper bound; a team narrows it by
 * declaring `reads` for an operation (the fields its code reads), which a new recording
 * keeps. A declared list (`usage --declare "GET /institutions"`) names operations only:
 * every field of them counts as used.
 *
 *   {
 *     "format": "svc-conformance-usage/1",
 *     "source": "HAR file recording.har",
 *     "versions": ["v20111101"],
 *     "operations": {
 *       "GET /institutions": {
 *         "api": "platform", "statuses": [200],
 *         "query": ["records_per_page"], "headers": ["accept-version", "authorization"],
 *         "requestFields": [], "responseFields": ["institutions[].code", ...],
 *         "reads": ["institutions[].code", "institutions[].name"]
 *       }
 *     }
 *   }
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadContract, type ApiName, type Contract, type Difference } from '../contracts/index.ts';
import type { RecordedExchange } from './har.ts';
import { IntegrationInputError } from './har.ts';
import { locateApi, type ApiBases } from '../targets/index.ts';
import type { Finding, VersionReport } from '../reports/version-diff.ts';

export const USAGE_FORMAT = 'svc-conformance-usage/1';

export interface OperationUsage {
  api: ApiName;
  /** Statuses the integration met. */
  statuses: number[];
  /** Query parameter names it sent. */
  query: string[];
  /** Request headers it sent that an API may name (accept, accept-version, authorization, content-type, svc-*, x-*). */
  headers: string[];
  /** Request body field paths it sent (`member.institution_code`, `member.credentials[].guid`). */
  requestFields: string[];
  /** Response field paths the service answered (an upper bound of what the code reads). */
  responseFields: string[];
  /** Declared by the team: the response fields its code reads. Narrows responseFields; kept when the file is written again. */
  reads?: string[];
  /** A declared operation: every field of it counts as used. */
  declared?: boolean;
}

export interface UsageFile {
  format: typeof USAGE_FORMAT;
  /** Where it came from: a HAR file, the proxy, a declared list. */
  source: string;
  /** Accept-Version values the traffic sent. */
  versions: string[];
  /** Keyed by operation (`GET /institutions`); other APIs than the platform's are prefixed (`audience GET ...`). */
  operations: Record<string, OperationUsage>;
}

const KEPT_HEADERS = /^(accept|accept-version|authorization|content-type|svc-[\w-]+|x-[\w-]+)$/;
const MAX_PATHS = 2_000;
const MAX_DEPTH = 10;

/** Field paths of a JSON value: object keys joined by `.`, array items as `[]`; leaves and empty containers. */
function fieldPaths(value: unknown, prefix = '', out = new Set<string>(), depth = 0): Set<string> {
  if (out.size >= MAX_PATHS) return out;
  if (Array.isArray(value)) {
    if (value.length === 0 || depth >= MAX_DEPTH) {
      if (prefix) out.add(`${prefix}[]`);
      return out;
    }
    for (const x of value) fieldPaths(x, `${prefix}[]`, out, depth + 1);
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 || depth >= MAX_DEPTH) {
      if (prefix) out.add(prefix);
      return out;
    }
    for (const [k, v] of entries) fieldPaths(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
    return out;
  }
  if (prefix) out.add(prefix);
  return out;
}

const sortedUnion = (a: readonly string[] = [], b: Iterable<string> = []) => [...new Set([...a, ...b])].sort();
const keyOf = (api: ApiName, operation: string) => (api === 'platform' ? operation : `${api} ${operation}`);
/** `POST /users/{user_identifier}/widget_urls` and `POST /users/{user_guid}/widget_urls` are one operation across versions. */
const operationShape = (op: string) =>
  op
    .trim()
    .replace(/\s+/g, ' ')
    .toUpperCase()
    .replace(/\{[^}]+\}/g, '{}');

function parse(text: string | undefined): unknown {
  if (!text || !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The usage of recorded traffic: every API exchange that matched a documented operation.
 * `keep` is the file being replaced: its declared `reads` and declared operations stay.
 */
export function usageFromExchanges(
  exchanges: readonly RecordedExchange[],
  o: { bases: ApiBases; source: string; keep?: UsageFile; contract?: Contract },
): UsageFile {
  const contract = o.contract ?? loadContract();
  const ops = new Map<string, OperationUsage>();
  const versions = new Set<string>();
  for (const e of exchanges) {
    if (!e.response) continue;
    const at = locateApi(o.bases, e.request.url);
    if (!at) continue;
    const version = at.api === 'platform' ? e.request.headers['accept-version'] : undefined;
    const known = version && contract.versions.includes(version) ? version : undefined;
    const match = contract.findOperation(at.api, e.request.method, at.relative, known);
    if (!match) continue;
    if (version) versions.add(version);
    const key = keyOf(at.api, match.operation.key);
    const u = ops.get(key) ?? { api: at.api, statuses: [], query: [], headers: [], requestFields: [], responseFields: [] };
    u.statuses = [...new Set([...u.statuses, e.response.status])].sort((a, b) => a - b);
    const query = new URL(e.request.url).searchParams;
    u.query = sortedUnion(u.query, query.keys());
    u.headers = sortedUnion(
      u.headers,
      Object.keys(e.request.headers)
        .map((h) => h.toLowerCase())
        .filter((h) => KEPT_HEADERS.test(h)),
    );
    u.requestFields = sortedUnion(u.requestFields, fieldPaths(parse(e.request.body)));
    if (e.response.status >= 200 && e.response.status < 300 && !e.response.bodyTruncated)
      u.responseFields = sortedUnion(u.responseFields, fieldPaths(parse(e.response.body)));
    ops.set(key, u);
  }
  for (const [key, kept] of Object.entries(o.keep?.operations ?? {})) {
    const now = ops.get(key);
    if (now && kept.reads) now.reads = kept.reads;
    else if (!now && kept.declared) ops.set(key, kept);
  }
  return {
    format: USAGE_FORMAT,
    source: o.source,
    versions: [...versions].sort(),
    operations: Object.fromEntries([...ops].sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** A declared list of operations (`GET /institutions`), checked against the contract: every field of each counts as used. */
export function declaredUsage(operations: readonly string[], o: { contract?: Contract } = {}): UsageFile {
  const contract = o.contract ?? loadContract();
  const known = new Map<string, { api: ApiName; key: string }>();
  for (const v of contract.versions)
    for (const op of contract.model('platform', v).operations) known.set(operationShape(op.key), { api: 'platform', key: op.key });
  const out: Record<string, OperationUsage> = {};
  for (const raw of operations) {
    const found = known.get(operationShape(raw));
    if (!found)
      throw new IntegrationInputError(
        `--declare "${raw}": no platform operation of spec/ has that method and path (e.g. "GET /institutions", "POST /users/{user_guid}/members")`,
      );
    out[found.key] = { api: found.api, statuses: [], query: [], headers: [], requestFields: [], responseFields: [], declared: true };
  }
  return { format: USAGE_FORMAT, source: 'declared list', versions: [], operations: out };
}

export function readUsageFile(file: string): UsageFile {
  if (!existsSync(file)) throw new IntegrationInputError(`no usage file at ${file} (svc-conformance usage --from-har <file.har> --out ${file} writes one)`);
  let u: UsageFile;
  try {
    u = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new IntegrationInputError(`${file} is not a usage file: not JSON (${(e as Error).message})`);
  }
  if (u?.format !== USAGE_FORMAT || typeof u.operations !== 'object' || u.operations === null) {
    throw new IntegrationInputError(
      `${file} is not a usage file: "format" must be "${USAGE_FORMAT}" with an "operations" object (svc-conformance usage writes one)`,
    );
  }
  for (const [k, op] of Object.entries(u.operations)) {
    for (const list of ['statuses', 'query', 'headers', 'requestFields', 'responseFields'] as const) {
      if (op[list] !== undefined && !Array.isArray(op[list])) throw new IntegrationInputError(`${file}: operations["${k}"].${list} must be a list`);
    }
    if (op.reads !== undefined && !Array.isArray(op.reads)) throw new IntegrationInputError(`${file}: operations["${k}"].reads must be a list of field paths`);
  }
  return u;
}

/** a is b, or an ancestor or descendant of b, at a path boundary (`institutions[].code` and `institutions`). */
function related(a: string, b: string): boolean {
  const under = (x: string, y: string) => x === y || x.startsWith(`${y}.`) || x.startsWith(`${y}[]`);
  return under(a, b) || under(b, a);
}

export interface Touch {
  /** The difference touches what the integration uses: the gate. */
  touches: boolean;
  /** The difference is on an operation the integration uses (touching it or not). */
  operationUsed: boolean;
}

/** The operation usage a difference names (across versions: parameter names ignored). */
function usageOf(usage: UsageFile, operation: string): OperationUsage | undefined {
  const shape = operationShape(operation);
  for (const [key, u] of Object.entries(usage.operations))
    if (operationShape(key.replace(/^(audience|test-host) /, '')) === shape && (u.api ?? 'platform') === 'platform') return u;
  return undefined;
}

const REQUIRES = new Set(['added-required-request-parameter', 'optional-parameter-made-required']);

/**
 * Whether a difference between two versions touches what the integration uses:
 *   - an operation it does not use: no;
 *   - the operation as a whole (removed, moved, sunset, a changed status, a header): yes;
 *   - a request parameter or body field newly required: yes unless it already sends it;
 *     removed, retyped or newly validated: yes when it sends it;
 *   - a response field: yes when it reads the field (its `reads`, else every field it was
 *     answered), an ancestor or a descendant of it;
 *   - a declared operation: every difference on it.
 */
export function touches(d: Pick<Difference, 'kind' | 'operation' | 'location'>, usage: UsageFile): Touch {
  if (d.operation === undefined) return { touches: true, operationUsed: true };
  const u = usageOf(usage, d.operation);
  if (!u) return { touches: false, operationUsed: false };
  if (u.declared) return { touches: true, operationUsed: true };
  const loc = d.location;
  const param = /^request\.(query|header|path)\.(.+)$/.exec(loc);
  if (param) {
    if (param[1] === 'path') return { touches: true, operationUsed: true };
    const sent = (param[1] === 'query' ? u.query : u.headers).some((n) => n.toLowerCase() === param[2].toLowerCase());
    return { touches: REQUIRES.has(d.kind) ? !sent : sent, operationUsed: true };
  }
  const body = /^request\.body(?:\.(.+))?$/.exec(loc);
  if (body) {
    if (!body[1]) return { touches: true, operationUsed: true };
    const field = body[1];
    const sent = u.requestFields.some((f) => related(f, field));
    return {
      touches: REQUIRES.has(d.kind) ? !u.requestFields.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[]`)) : sent,
      operationUsed: true,
    };
  }
  const response = /^response\.(?:[^.]+\.)?body(?:\.(.+))?$/.exec(loc);
  if (response) {
    if (!response[1]) return { touches: true, operationUsed: true };
    const reads = u.reads ?? u.responseFields;
    return { touches: reads.some((f) => related(f, response[1])), operationUsed: true };
  }
  return { touches: true, operationUsed: true };
}

/** Operation keys of a usage file (for SVC_USED_OPERATIONS-style lists in reports). */
function usedOperationList(usage: UsageFile): string[] {
  return Object.entries(usage.operations)
    .filter(([, u]) => (u.api ?? 'platform') === 'platform')
    .map(([k]) => k);
}

/**
 * A version report judged against a usage file: each finding is used when it touches what
 * the integration uses (`touches`), the gate (`blocking`) keeps the breaking ones of those,
 * and the rest stays in the report apart.
 */
export function applyUsage(report: VersionReport, usage: UsageFile, file: string): VersionReport {
  const findings: Finding[] = report.findings.map((f) => {
    const t = touches(f, usage);
    return { ...f, used: t.touches, operationUsed: t.operationUsed };
  });
  return {
    ...report,
    findings,
    blocking: findings.filter((f) => f.breaking && f.used),
    usedOperations: usedOperationList(usage),
    usage: {
      file,
      source: usage.source,
      operations: Object.keys(usage.operations).length,
      withoutReads: Object.values(usage.operations).filter((u) => u.reads === undefined && u.responseFields.length > 0).length,
    },
  };
}
