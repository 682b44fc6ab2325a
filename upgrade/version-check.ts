/**
 * The version-upgrade regression check (../shared/DESIGN.md "What it is for"
 * 2), the suite part: sends the same read-only probes under two Accept-Version
 * values, compares what came back structurally (status, headers, fields, types, enumerations, paths) with the
 * contracts classifier, and diffs the two derived OpenAPI documents the same way. Every
 * difference is classified breaking or not by the Versioning section's own list.
 *
 * Lifecycle headers (the profile's deprecation and sunset header names) are not contract
 * fields: they differ between versions by design (Versioning: "Response headers that
 * signal deprecated and sunset endpoints are present in all versions"), so they are
 * left out of the header comparison and reported as `deprecated-endpoint` when only the
 * newer version carries them on an endpoint.
 *
 * Its result (VersionReport) is rendered by reports/version-diff.ts; `npm run versions`
 * (upgrade/versions.ts) runs it and writes the report; the self-test's upgrade runs
 * (proof/adapters.ts) run it against each catalogue entry.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { boundsOf, defaultCredentials, requestBounded } from '../targets/index.ts';
import {
  diffDocuments,
  diffObservations,
  KINDS,
  type Difference,
  type DifferenceKind,
  discoverDocuments,
  readDocument,
  readJsonText,
} from '../contracts/index.ts';
import type { TargetProfile } from '../targets/index.ts';
import type { Finding, VersionReport } from '../reports/version-diff.ts';

/**
 * Input the check cannot run with: a version name that is not `v<YYYYMMDD>`, a version
 * neither the contract nor the target knows, a document that cannot be read. A command
 * line maps it to exit code 2 (bad input), apart from exit 1 (breaking differences).
 */
export class VersionInputError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'VersionInputError';
  }
}

/** Versioning: "version names are dates of the form `v<YYYYMMDD>`". */
const VERSION_NAME = /^v\d{8}$/;

export function assertVersionName(version: string): void {
  if (!VERSION_NAME.test(version))
    throw new VersionInputError(`version names are v<YYYYMMDD> (Versioning: "version names are dates of the form v<YYYYMMDD>"), got "${version}"`);
}

/**
 * The versions the check knows without asking the target: the contract's (one derived
 * document per version in spec/versions/) and the profile's (SVC_VERSIONS).
 */
function knownVersions(specDir: string, profile: Pick<TargetProfile, 'versions'>): string[] {
  return [...new Set([...discoverDocuments(specDir).versions.map((v) => v.version), ...profile.versions.supported])].sort();
}

export interface Probe {
  /** Operation as the spec names it, e.g. `GET /institutions/{institution_identifier}`. */
  operation: string;
  /** Concrete path to send. */
  path: (p: TargetProfile) => string;
}

/** Read-only GETs that need no data of their own (the @readonly scenarios' requests). */
const PROBES: Probe[] = [
  { operation: 'GET /institutions', path: () => '/institutions?records_per_page=25' },
  { operation: 'GET /institutions/favorites', path: () => '/institutions/favorites' },
  { operation: 'GET /institutions/{institution_identifier}', path: (p) => `/institutions/${encodeURIComponent(p.testInstitution.code)}` },
  {
    operation: 'GET /institutions/{institution_identifier}/credentials',
    path: (p) => `/institutions/${encodeURIComponent(p.testInstitution.code)}/credentials`,
  },
  { operation: 'GET /categories/default', path: () => '/categories/default?records_per_page=200' },
  { operation: 'GET /managed_institutions', path: () => '/managed_institutions' },
  { operation: 'GET /ach_returns', path: () => '/ach_returns' },
  { operation: 'GET /users', path: () => '/users?records_per_page=5' },
];

export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function observe(profile: TargetProfile, operation: string, path: string, version: string): Promise<ObservedResponse> {
  const res = await requestBounded(
    {
      method: 'GET',
      url: `${profile.platformBaseUrl}${path}`,
      headers: { accept: 'application/json', 'accept-version': version, ...defaultCredentials(profile, 'platform') },
      operation: `${operation}, Accept-Version ${version}`,
      urlSetting: 'SVC_BASE_URL',
    },
    boundsOf(profile),
  );
  return { status: res.status, headers: res.headers, body: answerBody(res.text) };
}

/**
 * What the comparison walks of an answer: its JSON, read by the contract's bounded reader
 * (contracts/json-text.ts: a text nested deeper than the bound is not parsed, so a hostile
 * answer cannot exhaust the stack of the walks below); a text that is not JSON, or too deep
 * to read, is compared as a string.
 */
export function answerBody(text: string): unknown {
  const reading = readJsonText(text);
  if (reading.tooDeep) return `a JSON body nested deeper than ${reading.tooDeep.bound} levels (${reading.tooDeep.depth} levels)`;
  return reading.body;
}

const ENUM_LIKE = /^[A-Z][A-Z0-9_]{1,40}$/;

/** Values of upper-case constant string fields (status, type ...) per field path. */
function enumValues(body: unknown): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v))
      v.forEach((x) => {
        walk(x, `${at}[]`);
      });
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
    else if (typeof v === 'string') {
      let s = out.get(at);
      if (!s) out.set(at, (s = new Set()));
      s.add(v);
    }
  };
  walk(body, 'response.body');
  // Only fields whose every value is an upper-case constant are enumerations.
  for (const [k, s] of out) if (![...s].every((x) => ENUM_LIKE.test(x))) out.delete(k);
  return out;
}

function make(kind: DifferenceKind, operation: string, location: string, detail: string, breaking = KINDS[kind].breaking): Difference {
  return { kind, breaking, operation, location, rule: KINDS[kind].rule, detail };
}

/**
 * Compares one probe's two answers. The classifier judges status, headers and the body's
 * shape; this adds what it cannot see from one response pair: enumeration values and
 * paths that stopped answering.
 */
export function compareProbe(operation: string, a: ObservedResponse, b: ObservedResponse, lifecycleHeaders: string[]): Difference[] {
  const strip = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => !lifecycleHeaders.includes(k.toLowerCase())));
  const out: Difference[] = [];
  const aOk = a.status >= 200 && a.status < 300;
  const bOk = b.status >= 200 && b.status < 300;
  if (aOk && b.status === 404) {
    // Versioning, breaking: "removing, moving or changing endpoint paths".
    out.push(make('removed-endpoint', operation, 'path', `answered ${a.status} under the old version, 404 under the new one: the path moved or was removed`));
  } else if (aOk && bOk) {
    for (const d of diffObservations(
      { status: a.status, headers: strip(a.headers), body: a.body },
      { status: b.status, headers: strip(b.headers), body: b.body },
      { operation },
    ))
      out.push(d);
    const ea = enumValues(a.body);
    const eb = enumValues(b.body);
    for (const [at, va] of ea) {
      const vb = eb.get(at);
      if (!vb) continue; // the field itself is gone or changed type: the classifier said so
      const gone = [...va].filter((x) => !vb.has(x));
      const added = [...vb].filter((x) => !va.has(x));
      if (gone.length)
        out.push(
          make(
            'removed-enum-value',
            operation,
            at,
            `value(s) ${gone.join(', ')} no longer returned${added.length ? `; ${added.join(', ')} returned instead` : ''}`,
          ),
        );
      else if (added.length) out.push(make('added-enum-value', operation, at, `value(s) ${added.join(', ')} added`));
    }
  } else {
    out.push(
      ...diffObservations(
        { status: a.status, headers: strip(a.headers), body: undefined },
        { status: b.status, headers: strip(b.headers), body: undefined },
        { operation },
      ),
    );
    if (aOk && b.status === 400) {
      const last = out.find((d) => d.kind === 'changed-status-code');
      if (last)
        last.detail += ` — the new version refuses the request the old one accepted (${JSON.stringify(b.body).slice(0, 160)}): a newly required parameter or a new validation rule`;
    }
  }
  const hadLifecycle = lifecycleHeaders.some((h) => h in lowerKeys(a.headers));
  const hasLifecycle = lifecycleHeaders.some((h) => h in lowerKeys(b.headers));
  if (bOk && hasLifecycle && !hadLifecycle)
    out.push(make('deprecated-endpoint', operation, 'response.headers', 'the new version signals deprecation/sunset of this endpoint'));
  return out;
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function derivedDocument(specDir: string, version: string): string | undefined {
  const f = join(specDir, 'versions', `platform.${version}.openapi.yaml`);
  return existsSync(f) ? f : undefined;
}

export function isUsed(operation: string | undefined, used: 'all' | string[]): boolean {
  if (used === 'all' || operation === undefined) return true;
  const norm = (s: string) =>
    s
      .trim()
      .replace(/\s+/g, ' ')
      .toUpperCase()
      .replace(/\{[^}]+\}/g, '{}');
  return used.some((u) => norm(u) === norm(operation));
}

/**
 * Refuses a version the check would otherwise compare blindly: one that is neither the
 * contract's nor the profile's is still taken when the target serves it (a vendor's new
 * version not yet in spec/versions/), else the difference would be the refusal itself
 * (a 400 against a 200 on every probe, reported as breaking status changes).
 */
async function assertKnownVersion(profile: TargetProfile, version: string, specDir: string, probe: Probe = PROBES[0]): Promise<void> {
  assertVersionName(version);
  const known = knownVersions(specDir, profile);
  if (known.includes(version)) return;
  const answer = await observe(profile, probe.operation, probe.path(profile), version).catch(
    (e: Error) => ({ status: 0, body: e.message }) as ObservedResponse,
  );
  if (answer.status >= 200 && answer.status < 300) return;
  const said = answer.status === 0 ? `could not be asked (${String(answer.body).slice(0, 120)})` : `answered ${answer.status} to ${probe.operation} under it`;
  throw new VersionInputError(
    `unknown version "${version}": not one of the known versions ${known.join(', ')} (the contract's spec/versions/ and SVC_VERSIONS), and the target ${said}`,
  );
}

export async function runVersionCheck(o: {
  profile: TargetProfile;
  from: string;
  to: string;
  specDir: string;
  used: 'all' | string[];
  probes?: Probe[];
}): Promise<VersionReport> {
  const probes = o.probes ?? PROBES;
  for (const v of new Set([o.from, o.to])) await assertKnownVersion(o.profile, v, o.specDir, probes[0]);
  const lifecycle = [o.profile.versions.deprecationHeader, o.profile.versions.sunsetHeader].map((h) => h.toLowerCase());
  const findings: Finding[] = [];
  for (const p of probes) {
    const path = p.path(o.profile);
    const a = await observe(o.profile, p.operation, path, o.from);
    const b = await observe(o.profile, p.operation, path, o.to);
    for (const d of compareProbe(p.operation, a, b, lifecycle)) findings.push({ ...d, source: 'observed', used: isUsed(d.operation, o.used) });
  }
  const fromDoc = derivedDocument(o.specDir, o.from);
  const toDoc = derivedDocument(o.specDir, o.to);
  if (fromDoc && toDoc) {
    for (const d of diffDocuments(readDocument(fromDoc), readDocument(toDoc))) findings.push({ ...d, source: 'documents', used: isUsed(d.operation, o.used) });
  }
  return {
    mode: 'versions',
    from: o.from,
    to: o.to,
    target: o.profile.name,
    probes: probes.length,
    findings,
    blocking: findings.filter((f) => f.breaking && f.used),
    usedOperations: o.used,
    documents: { from: fromDoc, to: toDoc, compared: !!(fromDoc && toDoc) },
  };
}
