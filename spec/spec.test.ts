import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { loadProfile } from '../targets/index.ts';
import { VERSIONS, derivedFile, deriveVersion, loadSource, renderVersion } from './derive.ts';
import { AUTHORED_DOCUMENTS, DERIVED_DOCUMENTS, loadDocument, operationsOf, pathShape } from './documents.ts';

const source = loadSource();

test('derived documents are up to date with spec/derive.ts (run npm run spec:derive)', () => {
  for (const version of VERSIONS) {
    const committed = readFileSync(derivedFile(version), 'utf8');
    assert.ok(committed === renderVersion(source, version), `${derivedFile(version)} is stale: run npm run spec:derive`);
  }
});

test('derived documents carry no source-only version annotations', () => {
  for (const version of VERSIONS) {
    const text = readFileSync(derivedFile(version), 'utf8');
    for (const key of ['x-svc-versions', 'x-svc-required-from', 'x-svc-deprecated-from', 'x-svc-sunset-from', 'x-svc-path-from']) {
      assert.ok(!text.includes(`${key}:`), `${version} still contains ${key}`);
    }
  }
});

// Versioning, "Changes in v20250224" and the Errors table, as resolved by derive.ts.
const docs = Object.fromEntries(VERSIONS.map((v) => [v, deriveVersion(source, v)])) as Record<string, any>;

test('member creation documents 200 and 202 in every version (vendor reference, unstated) and the stated 201 from v20250224', () => {
  const success = (v: string) =>
    Object.entries(docs[v].paths['/users/{user_guid}/members'].post.responses as Record<string, any>)
      .filter(([s]) => s.startsWith('2'))
      .map(([s, r]) => `${s}${typeof r['x-svc-unstated-success'] === 'string' ? ' unstated' : ''}`);
  assert.deepEqual(success('v20111101'), ['200 unstated', '202 unstated']);
  assert.deepEqual(success('v20250224'), ['200 unstated', '201', '202 unstated']);
});

test('institution guid exists from v20250224 only (the v20111101 reference has no guid); no named field is required', () => {
  assert.equal('guid' in docs.v20111101.components.schemas.Institution.properties, true);
  for (const v of ['v20111101', 'v20250224', 'v20260929']) {
    // "Fields named: ..." is a list of names, not a presence promise (real-service-notes, Nullability).
    assert.deepEqual(docs[v].components.schemas.Institution.required ?? [], [], v);
    assert.deepEqual(docs[v].components.schemas.Member.required ?? [], [], v);
  }
  // What a sentence does state stays required: a status read's connection status, a credential's type.
  assert.deepEqual(docs.v20250224.components.schemas.MemberStatus.required, ['connection_status']);
  assert.deepEqual(docs.v20250224.components.schemas.Credential.required, ['type']);
});

test('error responses declare no content: any body or none, any media type or none (Errors: shape not shown)', () => {
  const r = docs.v20250224.components.responses;
  assert.equal(r.TooManyRequests.content, undefined);
  assert.equal(r.NotShown.content, undefined);
});

test('institutions: four supports_* fields until v20250224, supported_products from it', () => {
  const old = docs.v20111101.components.schemas.Institution;
  const next = docs.v20250224.components.schemas.Institution;
  assert.ok('supports_account_statement' in old.properties && !('supported_products' in old.properties));
  assert.ok('supported_products' in next.properties && !('supports_account_statement' in next.properties));
  const queryNames = (v: string) => docs[v].paths['/institutions'].get.parameters.map((p: any) => p.name).filter(Boolean);
  assert.ok(queryNames('v20111101').includes('supports_transaction_history') && !queryNames('v20111101').includes('supported_products'));
  assert.ok(queryNames('v20250224').includes('supported_products') && !queryNames('v20250224').includes('supports_transaction_history'));
});

test('data_request with products is required on create member and widget URL from v20250224 only', () => {
  for (const [v, expected] of [
    ['v20111101', false],
    ['v20250224', true],
    ['v20260929', true],
  ] as const) {
    // Create member: beside `member` at the top level (the vendor reference's placement; the specification states none).
    const member = docs[v].components.schemas.MemberCreateRequest;
    const widget = docs[v].components.schemas.WidgetUrlRequest.properties.widget_url;
    assert.equal(Boolean(member.required?.includes('data_request')), expected, `member ${v}`);
    assert.equal(Boolean(widget.required?.includes('data_request')), expected, `widget ${v}`);
    assert.equal('data_request' in member.properties, expected);
  }
  assert.deepEqual(docs.v20250224.components.schemas.DataRequest.required, ['products']);
});

test('skip_aggregation deprecated and challenge option guids required from v20250224', () => {
  const skip = (v: string) => docs[v].components.schemas.MemberCreateRequest.properties.member.properties.skip_aggregation;
  assert.equal(skip('v20111101').deprecated, undefined);
  assert.equal(skip('v20250224').deprecated, true);
  const option = (v: string) => docs[v].components.schemas.Challenge.properties.options.items;
  assert.equal(option('v20111101').required, undefined);
  assert.deepEqual(option('v20250224').required, ['guid']);
});

test('widget URL path names user_identifier from v20250224 (same shape)', () => {
  assert.ok('/users/{user_guid}/widget_urls' in docs.v20111101.paths);
  const renamed = docs.v20250224.paths['/users/{user_identifier}/widget_urls'];
  assert.ok(renamed && !('/users/{user_guid}/widget_urls' in docs.v20250224.paths));
  assert.ok(renamed.parameters.some((p: any) => p.in === 'path' && p.name === 'user_identifier'));
});

test('deprecated and sunset endpoints are marked from v20250224', () => {
  const managed = [
    '/managed_institutions',
    '/users/{user_guid}/managed_members',
    '/users/{user_guid}/managed_members/{member_guid}',
    '/users/{user_guid}/managed_members/{member_guid}/accounts',
    '/users/{user_guid}/managed_members/{member_guid}/transactions',
  ];
  for (const path of managed) {
    for (const { operation } of operationsOf({ [path]: docs.v20111101.paths[path] })) assert.equal(operation.deprecated, undefined, path);
    for (const { operation } of operationsOf({ [path]: docs.v20250224.paths[path] })) assert.equal(operation.deprecated, true, path);
  }
  for (const path of ['/payment_processor_authorization_code', '/users/{user_guid}/connect_widget_url']) {
    assert.equal(docs.v20111101.paths[path].post['x-svc-sunset'], undefined);
    assert.equal(docs.v20250224.paths[path].post['x-svc-sunset'], true);
  }
  assert.equal(docs.v20111101.paths['/payment_processor_token'].post.deprecated, true);
});

test('initial_data_ready webhook exists from v20250224; every named webhook type exists there', () => {
  assert.ok(!('initial_data_ready' in docs.v20111101.webhooks));
  const types = [
    'member',
    'member_data_updated',
    'aggregation',
    'balance',
    'connection_status',
    'history',
    'insights',
    'statements',
    'initial_data_ready',
    'spending_plan',
    'verification',
    'transaction_notification',
    'account_notification',
    'budgets',
    'goals',
    'beats',
  ];
  assert.deepEqual(Object.keys(docs.v20250224.webhooks).sort(), [...types].sort());
});

test('v20260929 equals v20250224 apart from info, and says its changes are not shown', () => {
  const { info: a, ...restA } = docs.v20250224;
  const { info: b, ...restB } = docs.v20260929;
  assert.deepEqual(restB, restA);
  assert.match(b['x-svc-not-shown'], /v20260929/);
  assert.equal(a['x-svc-not-shown'], source.info && (source.info as any)['x-svc-not-shown']);
});

test('every response schema stays open: no additionalProperties false anywhere', () => {
  for (const { file } of [...AUTHORED_DOCUMENTS, ...DERIVED_DOCUMENTS]) {
    assert.ok(!/additionalProperties:\s*false/.test(readFileSync(file, 'utf8')), file);
  }
});

// Endpoints and Versioning sections: every backticked path must appear in some document.
const SPEC_FILE = loadProfile().run.specFile; // SVC_SPEC_FILE, default ../shared/specification.md

test('every backticked path of the Endpoints and Versioning sections appears in a document', {
  skip: !existsSync(SPEC_FILE) && `no specification at ${SPEC_FILE}`,
}, () => {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  const section = (title: string) => {
    const start = spec.indexOf(`\n## ${title}`);
    const end = spec.indexOf('\n## ', start + 1);
    return spec.slice(start, end < 0 ? undefined : end);
  };
  const text = section('Endpoints') + section('Versioning');
  const mentioned = new Set<string>();
  for (const [, inner] of text.matchAll(/`([^`]+)`/g)) {
    const m = /^(?:[A-Z|]+ )?((?:\.\.\.)?\/[A-Za-z0-9_{}./-]*)$/.exec(inner.trim());
    if (m && !m[1].includes('://')) mentioned.add(m[1]);
  }
  assert.ok(mentioned.size > 60, `expected many paths, found ${mentioned.size}`);
  const known = [...AUTHORED_DOCUMENTS, ...DERIVED_DOCUMENTS].flatMap(({ file }) => Object.keys(loadDocument(file).paths ?? {}).map(pathShape));
  const missing = [...mentioned].filter((path) => {
    if (path.startsWith('...')) return !known.some((k) => k.endsWith(pathShape(path.slice(3))));
    return !known.includes(pathShape(path));
  });
  assert.deepEqual(missing, []);
});
