/**
 * One case per kind of the Versioning section's list, through diffSchemas,
 * diffDocuments and diffObservations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffSchemas, diffDocuments, diffObservations, type Difference } from '../index.ts';
import type { OpenAPIV3_1 } from 'openapi-types';

const kinds = (d: Difference[]) => d.map((x) => x.kind).sort();
const one = (d: Difference[], kind: string) => {
  const found = d.filter((x) => x.kind === kind);
  assert.equal(found.length, 1, `${kind} in ${JSON.stringify(d)}`);
  return found[0];
};

const memberA = {
  type: 'object',
  required: ['guid'],
  properties: {
    guid: { type: 'string', 'x-svc-opaque': true, maxLength: 40 },
    name: { type: 'string' },
    connection_status: { type: 'string', enum: ['PENDING', 'CONNECTED', 'DENIED'] },
    balance: { type: 'number' },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
  },
};
const clone = <T>(x: T): T => structuredClone(x);

test('identical schemas: no differences', () => {
  assert.deepEqual(diffSchemas(memberA, clone(memberA)), []);
});

test('response schemas: breaking kinds', () => {
  const removed = clone(memberA) as any;
  delete removed.properties.balance;
  const r = one(diffSchemas(memberA, removed), 'removed-response-field');
  assert.equal(r.breaking, true);
  assert.equal(r.location, 'response.body.balance');
  assert.match(r.rule, /removing or renaming a response field/);

  const renamed = clone(memberA) as any;
  renamed.properties.display_name = renamed.properties.name;
  delete renamed.properties.name;
  const rn = one(diffSchemas(memberA, renamed), 'renamed-response-field');
  assert.equal(rn.breaking, true);
  assert.match(rn.detail, /name -> display_name/);

  const retyped = clone(memberA) as any;
  retyped.properties.balance = { type: 'string' };
  assert.equal(one(diffSchemas(memberA, retyped), 'changed-field-type').breaking, true);

  const nested = clone(memberA) as any;
  nested.properties.tags.items.properties.label = { type: 'integer' };
  assert.equal(one(diffSchemas(memberA, nested), 'changed-field-type').location, 'response.body.tags[].label');

  const fewerValues = clone(memberA) as any;
  fewerValues.properties.connection_status.enum = ['PENDING', 'CONNECTED'];
  assert.equal(one(diffSchemas(memberA, fewerValues), 'removed-enum-value').breaking, true);
});

test('response schemas: non-breaking kinds', () => {
  const added = clone(memberA) as any;
  added.properties.new_field = { type: 'boolean' };
  const a = one(diffSchemas(memberA, added), 'added-response-field');
  assert.equal(a.breaking, false);

  const reordered = clone(memberA) as any;
  reordered.properties = Object.fromEntries(Object.entries(reordered.properties).reverse());
  assert.deepEqual(kinds(diffSchemas(memberA, reordered)), ['reordered-properties']);
  assert.equal(diffSchemas(memberA, reordered)[0].breaking, false);

  const longer = clone(memberA) as any;
  longer.properties.guid.maxLength = 64;
  assert.equal(one(diffSchemas(memberA, longer), 'longer-opaque-string').breaking, false);

  const moreValues = clone(memberA) as any;
  moreValues.properties.connection_status.enum.push('CHALLENGED');
  assert.equal(one(diffSchemas(memberA, moreValues), 'added-enum-value').breaking, false);
});

test('request schemas: parameters in the body', () => {
  const body = {
    type: 'object',
    required: ['institution_code'],
    properties: { institution_code: { type: 'string' }, id: { type: 'string' }, skip_aggregation: { type: 'boolean' } },
  };
  const withRequired = clone(body) as any;
  withRequired.properties.data_request = { type: 'object' };
  withRequired.required.push('data_request');
  assert.equal(one(diffSchemas(body, withRequired, { direction: 'request' }), 'added-required-request-parameter').breaking, true);

  const withOptional = clone(body) as any;
  withOptional.properties.enable_app2app = { type: 'boolean' };
  assert.equal(one(diffSchemas(body, withOptional, { direction: 'request' }), 'added-optional-parameter').breaking, false);

  const madeRequired = clone(body) as any;
  madeRequired.required.push('id');
  assert.equal(one(diffSchemas(body, madeRequired, { direction: 'request' }), 'optional-parameter-made-required').breaking, true);

  const madeOptional = clone(body) as any;
  madeOptional.required = [];
  assert.equal(one(diffSchemas(body, madeOptional, { direction: 'request' }), 'required-made-optional').breaking, false);

  const removed = clone(body) as any;
  delete removed.properties.skip_aggregation;
  assert.equal(one(diffSchemas(body, removed, { direction: 'request' }), 'removed-request-parameter').breaking, true);

  const retyped = clone(body) as any;
  retyped.properties.id = { type: 'integer' };
  assert.equal(one(diffSchemas(body, retyped, { direction: 'request' }), 'changed-parameter-type').breaking, true);

  const validated = clone(body) as any;
  validated.properties.id = { type: 'string', maxLength: 10 };
  assert.equal(one(diffSchemas(body, validated, { direction: 'request' }), 'added-validation-rule').breaking, true);
  // Loosening a rule is not a new rule.
  assert.deepEqual(
    diffSchemas(validated, { ...validated, properties: { ...validated.properties, id: { type: 'string', maxLength: 20 } } }, { direction: 'request' }),
    [],
  );
});

function doc(paths: Record<string, unknown>, components: Record<string, unknown> = {}): OpenAPIV3_1.Document {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components } as unknown as OpenAPIV3_1.Document;
}
const ok = (schema: unknown, headers?: Record<string, unknown>) => ({ '200': { description: 'ok', headers, content: { 'application/json': { schema } } } });

test('documents: endpoints added, removed, moved; parameters and headers', () => {
  const A = doc(
    {
      '/institutions': {
        get: {
          operationId: 'listInstitutions',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer' } },
            { name: 'name', in: 'query', schema: { type: 'string' } },
          ],
          responses: ok({ $ref: '#/components/schemas/List' }),
        },
      },
      '/users/{user_guid}/connect_widget_url': { post: { operationId: 'widget', responses: ok({}) } },
      '/old/place': { get: { operationId: 'movedOne', responses: ok({}) } },
      '/users/{user_guid}/members': {
        post: { parameters: [{ name: 'user_guid', in: 'path', required: true, schema: { type: 'string' } }], responses: ok({}) },
      },
    },
    {
      schemas: {
        List: { type: 'object', properties: { institutions: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' } } } } } },
      },
    },
  );
  const B = doc(
    {
      '/institutions': {
        get: {
          operationId: 'listInstitutions',
          parameters: [
            { name: 'page', in: 'query', required: true, schema: { type: 'integer' } },
            { name: 'records_per_page', in: 'query', schema: { type: 'integer' } },
            { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
            { name: 'country', in: 'query', required: true, schema: { type: 'string' } },
          ],
          responses: ok({ $ref: '#/components/schemas/List' }, { 'X-New': { schema: { type: 'string' } } }),
        },
      },
      '/new/place': { get: { operationId: 'movedOne', responses: ok({}) } },
      '/payment_account': { get: { responses: ok({}) } },
      // A renamed placeholder is the same URL (Versioning v20250224: user_identifier in the widget path).
      '/users/{user_identifier}/members': {
        post: { parameters: [{ name: 'user_identifier', in: 'path', required: true, schema: { type: 'string' } }], responses: ok({}) },
      },
    },
    {
      schemas: {
        List: { type: 'object', properties: { institutions: { type: 'array', items: { type: 'object', properties: { code: { type: 'integer' } } } } } },
      },
    },
  );
  const d = diffDocuments(A, B);
  assert.equal(one(d, 'removed-endpoint').operation, 'POST /users/{user_guid}/connect_widget_url');
  assert.match(one(d, 'moved-path').detail, /\/old\/place -> GET \/new\/place/);
  assert.equal(one(d, 'added-endpoint').operation, 'GET /payment_account');
  assert.equal(one(d, 'optional-parameter-made-required').location, 'request.query.page');
  assert.equal(one(d, 'removed-request-parameter').location, 'request.query.name');
  assert.equal(one(d, 'added-optional-parameter').location, 'request.query.records_per_page');
  assert.equal(one(d, 'added-optional-header').location, 'request.header.X-Trace');
  assert.equal(one(d, 'added-required-request-parameter').location, 'request.query.country');
  assert.equal(one(d, 'added-response-header').location, 'response.200.headers.X-New');
  assert.equal(one(d, 'changed-field-type').location, 'response.200.body.institutions[].code');
  assert.equal(d.filter((x) => x.operation === 'POST /users/{user_guid}/members').length, 0);
  for (const x of d)
    assert.equal(x.breaking, !['added-endpoint', 'added-optional-parameter', 'added-optional-header', 'added-response-header'].includes(x.kind), x.kind);
});

test('observations: two observed responses', () => {
  const a = {
    status: 200,
    headers: { 'content-type': 'application/json', date: 'x' },
    body: { member: { guid: 'MBR-1', name: 'Bank', balance: 10, status: 'A', user_guid: 'USR-1' }, items: [{ id: 'abc' }, { id: 'abd', code: 'x' }] },
  };
  const b = {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-new': '1', date: 'y' },
    body: {
      items: [{ id: 'abcdefghij', code: 'x', extra: true }],
      member: { user_guid: 'USR-1', display_name: 'Bank', balance: '10', status: 'A', guid: 'MBR-1' },
    },
  };
  const d = diffObservations(a, b);
  assert.equal(one(d, 'renamed-response-field').location, 'response.body.member.name');
  assert.equal(one(d, 'changed-field-type').location, 'response.body.member.balance');
  assert.equal(one(d, 'added-response-field').location, 'response.body.items[].extra');
  assert.equal(one(d, 'added-response-header').location, 'response.headers.x-new');
  assert.equal(one(d, 'longer-opaque-string').location, 'response.body.items[].id');
  assert.ok(d.some((x) => x.kind === 'reordered-properties' && x.location === 'response.body'));
  assert.ok(d.some((x) => x.kind === 'reordered-properties' && x.location === 'response.body.member'));

  const gone = diffObservations(a, { ...a, headers: {}, body: { member: { guid: 'MBR-1' }, items: [] } });
  assert.ok(gone.some((x) => x.kind === 'removed-response-field' && x.location === 'response.body.member.name' && x.breaking));
  assert.ok(gone.some((x) => x.kind === 'removed-response-header' && x.location === 'response.headers.content-type'));

  assert.equal(one(diffObservations(a, { ...a, status: 201 }), 'changed-status-code').breaking, false);
  assert.equal(one(diffObservations(a, { ...a, status: 404 }), 'changed-status-code').breaking, true);
  assert.deepEqual(diffObservations(a, structuredClone(a)), []);
});
