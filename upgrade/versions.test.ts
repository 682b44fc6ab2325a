/**
 * The version-upgrade check proven against the simulator (DESIGN.md, "What it is for" 2): same version twice
 * gives nothing; the stated v20111101 -> v20250224 changes are found and classified; a
 * non-breaking upgrade gives only non-breaking findings; each breaking upgrade fault is
 * found and classified breaking, by the rule of the Versioning section. An unknown version
 * is refused; two OpenAPI files are compared into the same report.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { diffDocumentFiles, versionCheck, VersionInputError } from './versions.ts';
import { answerBody, compareProbe, isUsed } from './version-check.ts';

const made: string[] = [];
const out = () => {
  const dir = mkdtempSync(join(tmpdir(), 'versions-'));
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const run = (from: string, to: string, env: Record<string, string> = {}) =>
  versionCheck({
    from,
    to,
    env: { SVC_SIM_FAULTS: '', SVC_SIM_VARIATIONS: '', SVC_BASE_URL: undefined as unknown as string, ...env },
    out: out(),
    allureResults: join(out(), 'allure'),
  });

const refused = (pattern: RegExp) => (e: unknown) => e instanceof VersionInputError && e.exitCode === 2 && pattern.test(e.message);

test('a version neither the contract nor the target knows is refused, naming the known versions', async () => {
  // The simulator answers 400 to an unknown Accept-Version: compared blindly, every probe
  // would read as a breaking 400 -> 200 status change.
  await assert.rejects(
    run('v20990101', 'v20260929'),
    refused(/unknown version "v20990101": not one of the known versions v20111101, v20250224, v20260929 .*answered 400 to GET \/institutions/),
  );
  await assert.rejects(run('v20250224', 'v20250225'), refused(/unknown version "v20250225"/));
  await assert.rejects(run('2025-02-24', 'v20250224'), refused(/version names are v<YYYYMMDD>.*got "2025-02-24"/));
});

test('a version outside the contract that the target serves is compared', async () => {
  // unknown-version-served: the target answers any Accept-Version (as the newest).
  const r = await run('v20260929', 'v20270101', { SVC_SIM_FAULTS: 'unknown-version-served' });
  assert.equal(r.to, 'v20270101');
  assert.equal(r.documents.compared, false, 'no derived document for a version outside the contract');
});

test('the same version twice gives no difference', async () => {
  const r = await run('v20250224', 'v20250224');
  assert.deepEqual(r.findings, []);
});

test('v20111101 -> v20250224: supports_* replaced by supported_products, sunset and required data_request found and classified', async () => {
  const r = await run('v20111101', 'v20250224');
  const observed = r.findings.filter((f) => f.source === 'observed');
  const removed = observed.filter((f) => f.kind === 'removed-response-field' && /supports_account_verification$/.test(f.location));
  assert.ok(removed.length > 0 && removed.every((f) => f.breaking), 'supports_* removal observed as breaking');
  assert.ok(observed.some((f) => f.kind === 'added-response-field' && f.location.endsWith('supported_products') && !f.breaking));
  const docs = r.findings.filter((f) => f.source === 'documents');
  assert.ok(docs.some((f) => f.operation === 'POST /users/{user_guid}/connect_widget_url' && f.kind === 'removed-endpoint' && f.breaking));
  assert.ok(docs.some((f) => f.kind === 'added-required-request-parameter' && f.location.endsWith('data_request') && f.breaking));
  assert.ok(docs.some((f) => f.operation === 'GET /managed_institutions' && f.kind === 'deprecated-endpoint' && !f.breaking));
  assert.ok(r.blocking.length > 0);
});

test('a non-breaking upgrade gives only non-breaking findings', async () => {
  const r = await run('v20250224', 'v20260929', { SVC_SIM_VARIATIONS: 'upgrade-adds-field,upgrade-adds-header,upgrade-reorders-properties' });
  const kinds = new Set(r.findings.map((f) => f.kind));
  assert.deepEqual([...kinds].sort(), ['added-response-field', 'added-response-header', 'reordered-properties']);
  assert.ok(r.findings.every((f) => !f.breaking));
  assert.equal(r.blocking.length, 0);
});

const BREAKING: [string, string, RegExp][] = [
  ['upgrade-removes-field', 'removed-response-field', /instructional_text$/],
  ['upgrade-renames-field', 'renamed-response-field', /\.name$/],
  ['upgrade-changes-field-type', 'changed-field-type', /is_hidden$/],
  ['upgrade-removes-enum-value', 'removed-enum-value', /credentials\[\]\.type$/],
  ['upgrade-requires-parameter', 'changed-status-code', /response\.status/],
  ['upgrade-moves-path', 'removed-endpoint', /path/],
  ['upgrade-adds-validation', 'changed-status-code', /response\.status/],
  ['upgrade-removes-parameter', 'changed-status-code', /response\.status/],
  ['upgrade-changes-parameter-type', 'changed-status-code', /response\.status/],
];
for (const [fault, kind, location] of BREAKING) {
  test(`breaking upgrade ${fault} is found as ${kind}, breaking`, async () => {
    const r = await run('v20250224', 'v20260929', { SVC_SIM_FAULTS: fault });
    const hit = r.findings.filter((f) => f.kind === kind && location.test(f.location));
    assert.ok(hit.length > 0, `no ${kind} at ${location} in ${JSON.stringify(r.findings.map((f) => [f.kind, f.location]))}`);
    assert.ok(hit.every((f) => f.breaking && /Versioning, breaking/.test(f.rule)));
    assert.ok(r.blocking.length > 0, 'the gate fails');
  });
}

test('only breaking differences on used operations block the upgrade', async () => {
  const r = await run('v20250224', 'v20260929', { SVC_SIM_FAULTS: 'upgrade-moves-path', SVC_USED_OPERATIONS: 'GET /institutions, GET /users' });
  assert.ok(r.findings.some((f) => f.breaking));
  assert.equal(r.blocking.length, 0);
  assert.ok(isUsed('GET /institutions/{institution_identifier}', ['get /institutions/{code}']));
});

test('an answer nested thousands of levels deep is compared as a string, never walked', () => {
  // 10 KB of brackets: the comparison's recursive walks overflowed the stack on JSON.parse's result.
  const deep = answerBody(`${'['.repeat(5000)}${']'.repeat(5000)}`);
  assert.match(String(deep), /nested deeper than \d+ levels \(5000 levels\)/);
  const answer = (body: unknown) => ({ status: 200, headers: {}, body });
  assert.deepEqual(compareProbe('GET /institutions', answer(deep), answer(deep), []), []);
  assert.ok(compareProbe('GET /institutions', answer({ institutions: [] }), answer(deep), []).length > 0, 'a deep answer where JSON was is a difference');
  assert.deepEqual(answerBody('{"institutions":[{"code":"a"}]}'), { institutions: [{ code: 'a' }] });
  assert.equal(answerBody('<html>busy</html>'), '<html>busy</html>');
});

test('diffDocumentFiles writes the version report in documents mode', async () => {
  const dir = out();
  const account = (fields: string[]) => ({ type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) });
  const doc = (openapi: string, fields: string[]) => ({
    openapi,
    info: { title: 'Vendor API', version: openapi.startsWith('3.0') ? '1.0' : '2.0' },
    paths: {
      '/accounts': {
        get: {
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Account' } } } } },
          },
        },
      },
      '/accounts/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } } },
        },
      },
    },
    components: { schemas: { Account: account(fields) } },
  });
  writeFileSync(join(dir, 'old.yaml'), YAML.stringify(doc('3.0.3', ['guid', 'name'])));
  writeFileSync(join(dir, 'new.json'), JSON.stringify(doc('3.1.0', ['name'])));
  const r = await diffDocumentFiles({
    fromFile: join(dir, 'old.yaml'),
    toFile: join(dir, 'new.json'),
    out: dir,
    allureResults: join(dir, 'allure'),
    env: { SVC_USED_OPERATIONS: 'GET /accounts/{id}' },
  });
  assert.equal(r.mode, 'documents');
  assert.deepEqual(
    r.findings.map((f) => [f.operation, f.kind, f.breaking, f.used]),
    [
      ['GET /accounts', 'removed-response-field', true, false],
      ['GET /accounts/{id}', 'removed-response-field', true, true],
    ],
  );
  assert.equal(r.blocking.length, 1);
  const md = readFileSync(join(dir, 'report.md'), 'utf8');
  assert.match(md, /^# OpenAPI document comparison: old\.yaml \(1\.0\) → new\.json \(2\.0\)/);
  assert.match(md, /OpenAPI 3\.0\.3, "Vendor API" version 1\.0/);
  assert.match(md, /BREAKING — 1 breaking difference\(s\) on used operations/);
  assert.doesNotMatch(md, /Observed \(probes\)/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).mode, 'documents');
});
