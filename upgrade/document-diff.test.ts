/**
 * Two arbitrary OpenAPI documents compared: a 3.0 JSON document and its 3.1 YAML twin
 * differ in nothing; each kind of change between two vendor documents is found and
 * classified by the Versioning rule; the derived documents of spec/versions/ give what
 * the classifier gives; bad input is refused with a message naming the file. The
 * written report is upgrade/versions.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { diffDocuments, readDocument } from '../contracts/index.ts';
import { compareOpenApiFiles } from './document-diff.ts';
import { VersionInputError } from './version-check.ts';

const dir = mkdtempSync(join(tmpdir(), 'document-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(doc: unknown, ext: 'json' | 'yaml' = 'yaml'): string {
  const f = join(dir, `doc-${n++}.${ext}`);
  writeFileSync(f, ext === 'json' ? JSON.stringify(doc, null, 2) : YAML.stringify(doc));
  return f;
}

/** A small vendor API in OpenAPI 3.0 form: nullable, boolean exclusive bounds. */
const v30 = {
  openapi: '3.0.3',
  info: { title: 'Vendor API', version: '1.0' },
  paths: {
    '/accounts': {
      get: {
        operationId: 'listAccounts',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
          { name: 'kind', in: 'query', schema: { type: 'string', enum: ['CHECKING', 'SAVINGS'] } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'object', properties: { accounts: { type: 'array', items: { $ref: '#/components/schemas/Account' } } } } },
            },
          },
        },
      },
    },
    '/accounts/{id}': {
      get: {
        operationId: 'getAccount',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        type: 'object',
        properties: {
          guid: { type: 'string' },
          name: { type: 'string', nullable: true },
          balance: { type: 'number', nullable: true },
          type: { type: 'string', enum: ['CHECKING', 'SAVINGS', 'LOAN'] },
        },
      },
    },
  },
};

/** The same API in OpenAPI 3.1 form. */
function v31(): any {
  const d = structuredClone(v30) as any;
  d.openapi = '3.1.0';
  d.paths['/accounts'].get.parameters[0].schema = { type: 'integer', exclusiveMinimum: 0 };
  d.components.schemas.Account.properties.name = { type: ['string', 'null'] };
  d.components.schemas.Account.properties.balance = { type: ['number', 'null'] };
  return d;
}

test('a 3.0 JSON document and its 3.1 YAML twin differ in nothing', () => {
  const r = compareOpenApiFiles({ fromFile: file(v30, 'json'), toFile: file(v31()), used: 'all' });
  assert.deepEqual(r.findings, []);
  assert.equal(r.mode, 'documents');
  assert.equal(r.documents.fromInfo?.openapi, '3.0.3');
  assert.equal(r.documents.toInfo?.openapi, '3.1.0');
});

test('each change between two vendor documents is found and classified by its Versioning rule', () => {
  const next = v31();
  next.info.version = '2.0';
  const props = next.components.schemas.Account.properties;
  delete props.balance; // removing a response field: breaking
  props.type.enum = ['CHECKING', 'SAVINGS']; // removing an enum value: breaking
  props.currency = { type: 'string' }; // adding a response element: non-breaking
  next.paths['/accounts'].get.parameters.push({ name: 'since', in: 'query', schema: { type: 'string' } }); // optional parameter: non-breaking
  next.paths['/accounts/{id}'].get.parameters.push({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }); // required parameter: breaking
  next.paths['/statements'] = { get: { responses: { '200': { description: 'ok' } } } }; // new endpoint: non-breaking
  const r = compareOpenApiFiles({ fromFile: file(v30, 'json'), toFile: file(next, 'json'), used: 'all' });
  const found = r.findings.map((f) => [f.kind, f.breaking, f.operation]);
  const expect: Array<[string, boolean, string]> = [
    ['removed-response-field', true, 'GET /accounts'],
    ['removed-response-field', true, 'GET /accounts/{id}'],
    ['removed-enum-value', true, 'GET /accounts/{id}'],
    ['added-response-field', false, 'GET /accounts/{id}'],
    ['added-optional-parameter', false, 'GET /accounts'],
    ['added-required-request-parameter', true, 'GET /accounts/{id}'],
    ['added-endpoint', false, 'GET /statements'],
  ];
  for (const e of expect)
    assert.ok(
      found.some((f) => JSON.stringify(f) === JSON.stringify(e)),
      `missing ${JSON.stringify(e)} in ${JSON.stringify(found)}`,
    );
  assert.ok(
    r.findings.every((f) => f.rule.startsWith(f.breaking ? 'Versioning, breaking' : 'Versioning, non-breaking')),
    'each finding quotes its Versioning rule',
  );
  assert.ok(r.blocking.length > 0 && r.blocking.every((f) => f.breaking));
  assert.match(r.to, /\(2\.0\)$/, 'the label carries info.version');
});

test('only breaking differences on used operations block', () => {
  const next = v31();
  delete next.paths['/accounts/{id}'];
  const r = compareOpenApiFiles({ fromFile: file(v30), toFile: file(next), used: ['GET /accounts'] });
  assert.ok(r.findings.some((f) => f.kind === 'removed-endpoint' && f.breaking && f.operation === 'GET /accounts/{id}'));
  assert.equal(r.blocking.length, 0);
});

test('the derived documents of spec/versions/ give exactly what the classifier gives', () => {
  const a = 'spec/versions/platform.v20111101.openapi.yaml';
  const b = 'spec/versions/platform.v20250224.openapi.yaml';
  const r = compareOpenApiFiles({ fromFile: a, toFile: b, used: 'all' });
  const direct = diffDocuments(readDocument(a), readDocument(b));
  assert.ok(direct.length > 0);
  assert.deepEqual(
    r.findings.map(({ source: _s, used: _u, ...d }) => d),
    direct,
  );
  assert.ok(r.findings.some((f) => f.operation === 'POST /users/{user_guid}/connect_widget_url' && f.kind === 'removed-endpoint' && f.breaking));
});

test('bad input is refused with a VersionInputError naming the file and what is wrong', () => {
  const good = file(v30);
  const cases: Array<[string, RegExp]> = [
    [join(dir, 'nowhere.yaml'), /nowhere\.yaml: no such file/],
    [dir, /not a file/],
    [
      (() => {
        const f = join(dir, 'broken.yaml');
        writeFileSync(f, 'openapi: 3.1.0\npaths: {\n  a: [\n');
        return f;
      })(),
      /broken\.yaml: not valid YAML or JSON/,
    ],
    [file({ swagger: '2.0', info: {}, paths: {} }), /Swagger 2\.0 \(OpenAPI 2\); OpenAPI 3\.0 or 3\.1 is required/],
    [file({ openapi: '4.0.0', paths: {} }), /OpenAPI 4\.0\.0; OpenAPI 3\.0 or 3\.1 is required/],
    [file({ info: { title: 'x' } }), /not an OpenAPI document \(no "openapi" field\)/],
    [file(['a']), /the top level is not an object/],
    [
      file({ openapi: '3.1.0', paths: { '/a': { get: { responses: { '200': { $ref: 'common.yaml#/responses/Ok' } } } } } }),
      /\$ref "common\.yaml#\/responses\/Ok" at \/paths\/~1a\/get\/responses\/200 points into another file; bundle/,
    ],
  ];
  for (const [bad, message] of cases) {
    for (const [fromFile, toFile] of [
      [bad, good],
      [good, bad],
    ]) {
      assert.throws(
        () => compareOpenApiFiles({ fromFile, toFile, used: 'all' }),
        (e: unknown) => e instanceof VersionInputError && e.exitCode === 2 && message.test(e.message),
        `${fromFile} -> ${toFile}: ${message}`,
      );
    }
  }
});
