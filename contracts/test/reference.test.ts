/**
 * The vendor's reference as a second witness (contracts/reference.ts, contradictions.ts),
 * proven on the project's own stand-in reference documents (fixtures/reference/: no
 * vendor text): the examples counted, each kind of disagreement found and quoted from
 * both sides, and exactly the contradicted stated failures downgraded to inferred at the
 * end of the pipeline, once per process.
 *
 * The assertions pick rules the reference's fixtures contradict on purpose (a stated
 * type, an envelope's required key, the stated ACH success status, the 119 default
 * categories), not the presence-by-list rules, whose tiers are the specification's
 * reading and may change on their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import {
  examineReference,
  loadContract,
  readReferenceDocument,
  referenceContradictionsOf,
  ReferenceInputError,
  tierOf,
  type Failure,
  type ReferenceReport,
} from '../index.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/reference/', import.meta.url));
const V2025 = `${FIXTURES}platform.v20250224.yaml`;
const V2011 = `${FIXTURES}platform.v20111101.json`;
const NOT_OPENAPI = `${FIXTURES}not-openapi.yaml`;
/** The options of a run on the embedded simulator (targets/client.ts checkOptionsOf). */
const OPTIONS = { strict: false, sunsetVersions: ['v20100101'], deprecationHeader: 'Deprecation', sunsetHeader: 'Sunset', headerNamesExplicit: false };

const contract = loadContract();
let examined: ReferenceReport | undefined;
const report = () => (examined ??= examineReference([V2025, V2011], OPTIONS));
const shown = (x: unknown) => JSON.stringify(x, null, 1);

test('the version each document describes: info.version, else the Accept-Version default, else --version-of; bad input is refused by name', () => {
  assert.equal(readReferenceDocument(V2025, { known: contract.versions }).version, 'v20250224');
  const json = readReferenceDocument(V2011, { known: contract.versions });
  assert.deepEqual([json.version, json.versionFrom, json.openapi], ['v20111101', 'Accept-Version', '3.0.3']);
  assert.equal(readReferenceDocument(V2011, { version: 'v20250224', known: contract.versions }).versionFrom, 'option');
  assert.throws(
    () => readReferenceDocument(`${FIXTURES}missing.yaml`, { known: contract.versions }),
    (e) => e instanceof ReferenceInputError && /no such file/.test(e.message),
  );
  assert.throws(() => readReferenceDocument(NOT_OPENAPI, { known: contract.versions }), /not an OpenAPI document \(no "openapi" field\)/);
  assert.throws(
    () => readReferenceDocument(V2025, { version: 'v19990101', known: contract.versions }),
    /describes v19990101, a version the contract has no document for/,
  );
});

test('every example of a 2xx JSON response of an operation the contract documents is built and counted', () => {
  const r = report();
  const [a, b] = r.documents;
  // v20250224: a composed institution (allOf, $ref, array items), the media-level categories
  // example, a composed category under another key, the 201 ACH return, a member read whose
  // member has no example value; the 204 delete has no content and the vendor-only operation
  // is not ours.
  assert.deepEqual([a.version, a.operations, a.matched, a.examples, a.unmatched], ['v20250224', 7, 6, 5, ['GET /vendor_only_things']], shown(a));
  assert.deepEqual([b.version, b.examples], ['v20111101', 1]);
  assert.equal(r.totals.examples, 6);
  const member = r.examples.find((e) => e.operation === 'GET /users/{user_guid}/members/{member_guid}')!;
  assert.equal(member.url, '/users/example-user_guid/members/example-member_guid');
  const institution = r.examples.find((e) => e.operation === 'GET /institutions/{institution_identifier}')!;
  assert.equal(institution.url, '/institutions/svcbank', 'the path parameter filled with its example');
  assert.equal(institution.source, 'schema');
  const categories = r.examples.find((e) => e.operation === 'GET /categories/default')!;
  assert.deepEqual([categories.source, categories.pointer], ['example', '/paths/~1categories~1default/get/responses/200/content/application~1json/example']);
  const category = r.examples.find((e) => e.operation === 'GET /categories/{category_guid}' && e.version === 'v20250224')!;
  assert.equal(category.url, '/categories/example-category_guid', 'a parameter without an example gets a placeholder');
  // The older document's only example conforms (a vendor JSON media type passes).
  assert.deepEqual(r.examples.find((e) => e.version === 'v20111101')!.failures, { stated: 0, inferred: 0, informational: 0 });
});

test('each kind of disagreement is found and quoted from both sides', () => {
  const r = report();
  const find = (kind: string, location: string) => r.disagreements.find((d) => d.kind === kind && d.location === location);

  const typeFailure = find('example_failure', 'response.body.institution.supports_oauth');
  assert.ok(typeFailure, shown(r.disagreements));
  assert.equal(typeFailure.operation, 'GET /institutions/{institution_identifier}');
  assert.equal(typeFailure.ours.check, 'response_schema_conformance');
  assert.match(typeFailure.ours.rule!, /^type at versions\/platform\.v20250224\.openapi\.yaml#\/components\/schemas\/Institution\/properties\/supports_oauth$/);
  assert.match(typeFailure.ours.text, /Received: "true" \/ Expected: type boolean/);
  assert.equal(relative(process.cwd(), V2025), typeFailure.reference.file);
  assert.equal(typeFailure.reference.pointer, '/components/schemas/Institution/properties/supports_oauth/example');
  assert.equal(typeFailure.reference.text, '"true"');
  assert.equal(typeFailure.reference.operation, 'GET /institutions/{institution_code}');

  const placeholder = find('example_failure', 'response.body.pagination.total_entries');
  assert.ok(placeholder, 'the media-level example');
  assert.equal(placeholder.ours.check, 'stated_platform_fields');
  assert.match(placeholder.ours.rule!, /Limits: "default categories \| 119/);
  assert.equal(placeholder.reference.pointer, '/paths/~1categories~1default/get/responses/200/content/application~1json/example/pagination/total_entries');
  assert.equal(placeholder.reference.text, '1');

  const required = find('required_missing', 'response.body.category');
  assert.ok(required, shown(r.disagreements));
  assert.equal(
    required.ours.spec,
    'versions/platform.v20250224.openapi.yaml#/paths/~1categories~1{category_guid}/get/responses/200/content/application~1json/schema/required',
  );
  assert.equal(required.ours.text, 'required: [category]');
  assert.equal(required.reference.pointer, '/paths/~1categories~1{category_guid}/get/responses/200/content/application~1json/schema/properties');
  assert.equal(required.reference.text, 'properties: default_category (no "category")');
  assert.ok(!find('example_failure', 'response.body.category'), 'the example failing the same required rule is listed once, as required_missing');

  const status = r.disagreements.find((d) => d.kind === 'status_refused');
  assert.ok(status);
  assert.deepEqual(
    [status.operation, status.status, status.ours.check, status.location],
    ['POST /ach_returns', 201, 'status_code_conformance', 'response.status'],
  );
  assert.match(status.ours.rule!, /200 normal success for reads, lists and ACH return creation/);
  assert.equal(status.reference.pointer, '/paths/~1ach_returns/post/responses/201');
  assert.match(status.reference.text, /^declares 201 \(application\/json\): "ACH return created\."/);

  const types = r.disagreements.filter((d) => d.kind === 'type_differs');
  assert.deepEqual(
    types.map((d) => [d.location, d.ours.text, d.reference.text, d.downgrades]),
    [['response.body.institution.supports_oauth', 'type: "boolean"', 'type: "string"', false]],
    'one type difference; a nullable reference type (institution name, category is_default) is none',
  );
  assert.equal(types[0].ours.spec, 'versions/platform.v20250224.openapi.yaml#/components/schemas/Institution/properties/supports_oauth/type');
  assert.equal(types[0].reference.pointer, '/components/schemas/Institution/properties/supports_oauth/type');
  for (const k of ['example_failure', 'required_missing', 'status_refused', 'type_differs'] as const)
    assert.equal(r.counts[k], r.disagreements.filter((d) => d.kind === k).length);
});

test('a field the reference describes without an example value is a gap of the composed example, not a disagreement', () => {
  const r = report();
  const gap = r.gaps.find((g) => g.operation === 'GET /users/{user_guid}/members/{member_guid}');
  assert.ok(gap, shown(r.gaps));
  assert.deepEqual(
    [gap.location, gap.check, gap.reference.pointer],
    [
      'response.body.member',
      'response_schema_conformance',
      '/paths/~1users~1{user_guid}~1members~1{member_guid}/get/responses/200/content/application~1json/schema/properties/member',
    ],
  );
  assert.ok(!r.disagreements.some((d) => d.operation === gap.operation), 'no disagreement, so no contradiction');
});

test('judged again with the reference in force, the examples keep only the gaps stated', () => {
  const r = report();
  assert.ok(r.totals.failures.stated >= 5, shown(r.totals));
  const left = r.examples.flatMap((e) => e.statedLeft);
  assert.deepEqual(
    left.map((f) => [f.operation, f.location]),
    [['GET /users/{user_guid}/members/{member_guid}', 'response.body.member']],
    shown(left),
  );
  assert.equal(r.totals.withReference.stated + r.totals.withReference.inferred, r.totals.failures.stated + r.totals.failures.inferred);
});

// ---- the downgrade, at the end of the pipeline ------------------------------------------

function live(method: string, url: string, status: number, body: unknown): Parameters<typeof contract.checkReceived>[0] {
  return {
    api: 'platform',
    version: 'v20250224',
    request: { method, url, headers: { 'accept-version': 'v20250224' } },
    response: { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) },
  };
}

const stated = (f: Failure[]) => f.filter((x) => tierOf(x) === 'stated');
const at = (f: Failure[], check: string, location: string) => f.find((x) => x.check === check && x.location === location);

test('exactly the contradicted stated failures become inferred, their rule naming the reference file and pointer', () => {
  const contradictions = referenceContradictionsOf([V2025], OPTIONS);
  const judge = (e: Parameters<typeof contract.checkReceived>[0], strict = false) => ({
    without: contract.checkReceived(e, { ...OPTIONS, strict }).failures,
    with: contract.checkReceived(e, { ...OPTIONS, strict, referenceContradictions: contradictions }).failures,
  });

  // A string supports_oauth: the reference's own example shows one there. Every field the
  // specification names is present, so that is the institution's one stated failure.
  const full = Object.fromEntries(
    [
      'created_at',
      'is_hidden',
      'status',
      'client_status',
      'is_disabled_by_client',
      'instructional_text',
      'instructional_text_steps',
      'forgot_password_url',
      'forgot_username_url',
      'trouble_signing_in_url',
    ].map((k) => [k, null]),
  );
  const named = { code: 'svcbank', name: 'SVC Bank', guid: 'INS-1', supported_products: ['transactions'], ...full };
  const institution = judge(live('GET', '/institutions/svcbank', 200, { institution: { ...named, supports_oauth: 'yes' } }));
  assert.deepEqual(
    stated(institution.without).map((f) => f.location),
    ['response.body.institution.supports_oauth'],
    shown(institution.without),
  );
  const before = at(institution.without, 'response_schema_conformance', 'response.body.institution.supports_oauth')!;
  const after = at(institution.with, 'response_schema_conformance', 'response.body.institution.supports_oauth')!;
  assert.deepEqual([before.tier, before.severity], ['stated', 'error']);
  assert.deepEqual([after.tier, after.severity], ['inferred', 'warning']);
  assert.ok(after.rule.startsWith(before.rule), after.rule);
  assert.match(
    after.rule,
    /the vendor's reference contradicts this reading \(.*platform\.v20250224\.yaml#\/components\/schemas\/Institution\/properties\/supports_oauth\/example: "true"\)/,
  );
  assert.equal(after.message, before.message);
  // Nothing else changed.
  assert.deepEqual(
    institution.with.filter((f) => f.location !== after.location),
    institution.without.filter((f) => f.location !== before.location),
  );

  // The same rule at the same place of another operation the reference does not show: still stated.
  const list = judge(live('GET', '/institutions', 200, { institutions: [{ code: 'svcbank', name: 'SVC Bank', supports_oauth: 'yes' }] }));
  assert.equal(at(list.with, 'response_schema_conformance', 'response.body.institutions[0].supports_oauth')?.tier, 'stated');

  // A category read without its envelope key (the reference names it default_category): inferred;
  // a category whose is_default is not a boolean (the reference states a boolean): still stated.
  const category = judge(live('GET', '/categories/CAT-1', 200, { default_category: { guid: 'CAT-1', is_default: true } }));
  assert.equal(at(category.without, 'response_schema_conformance', 'response.body.category')?.tier, 'stated');
  assert.equal(at(category.with, 'response_schema_conformance', 'response.body.category')?.tier, 'inferred');
  assert.deepEqual(stated(category.with), []);
  const wrongType = judge(live('GET', '/categories/CAT-1', 200, { category: { guid: 'CAT-1', is_default: 'yes' } }));
  assert.equal(at(wrongType.with, 'response_schema_conformance', 'response.body.category.is_default')?.tier, 'stated', shown(wrongType.with));

  // A declared status we refuse: 201 on ACH return creation is inferred, 202 (not declared) stays stated.
  const created = judge(live('POST', '/ach_returns', 201, { ach_return: { guid: 'ACH-1' } }));
  assert.equal(at(created.without, 'status_code_conformance', 'response.status')?.tier, 'stated');
  assert.equal(at(created.with, 'status_code_conformance', 'response.status')?.tier, 'inferred');
  const accepted = judge(live('POST', '/ach_returns', 202, { ach_return: { guid: 'ACH-1' } }));
  assert.equal(at(accepted.with, 'status_code_conformance', 'response.status')?.tier, 'stated');

  // The placeholder total: any other count there is contradicted by the reference's example.
  const defaults = judge(live('GET', '/categories/default', 200, { categories: [{ guid: 'CAT-1', is_default: true }], pagination: { total_entries: 7 } }));
  assert.equal(at(defaults.without, 'stated_platform_fields', 'response.body.pagination.total_entries')?.tier, 'stated');
  assert.equal(at(defaults.with, 'stated_platform_fields', 'response.body.pagination.total_entries')?.tier, 'inferred');

  // A member read without its envelope key: the reference's schema carries `member` (its
  // example only has no value for it), so nothing contradicts the rule: still stated.
  const member = judge(live('GET', '/users/USR-1/members/MBR-1', 200, { request_id: 'r' }));
  assert.equal(at(member.with, 'response_schema_conformance', 'response.body.member')?.tier, 'stated', shown(member.with));

  // Another version's exchange is not the reference's: still stated.
  const older = contract.checkReceived(
    { ...live('POST', '/ach_returns', 201, { ach_return: {} }), version: 'v20111101', request: { method: 'POST', url: '/ach_returns', headers: {} } },
    { ...OPTIONS, referenceContradictions: contradictions },
  ).failures;
  assert.equal(at(older, 'status_code_conformance', 'response.status')?.tier, 'stated');

  // Under a strict profile the downgraded failure gates again, as every inferred one does.
  const strict = judge(live('POST', '/ach_returns', 201, { ach_return: {} }), true);
  assert.deepEqual(
    [at(strict.with, 'status_code_conformance', 'response.status')?.tier, at(strict.with, 'status_code_conformance', 'response.status')?.severity],
    ['inferred', 'error'],
  );
});

test('a record the reference shows without a field contradicts the same rule for every field that record lacks, and only those', () => {
  const contradictions = referenceContradictionsOf([V2025], OPTIONS);
  // The reference's institution example lacks client_status (among others) and carries guid.
  // Whichever field a live record lacks first names the failure: lacking client_status it is
  // contradicted; lacking guid it is not. (Whatever tier the contract gives these rules, the
  // reference only ever lowers a stated one.)
  const all = {
    code: 'svcbank',
    name: 'SVC Bank',
    guid: 'INS-1',
    supported_products: [],
    supports_oauth: true,
    created_at: null,
    is_hidden: false,
    status: null,
    client_status: null,
    is_disabled_by_client: false,
    instructional_text: null,
    instructional_text_steps: null,
    forgot_password_url: null,
    forgot_username_url: null,
    trouble_signing_in_url: null,
  };
  const lacking = (field: string) => {
    const { [field]: _gone, ...rest } = all as Record<string, unknown>;
    const e = live('GET', '/institutions/svcbank', 200, { institution: rest });
    const where = (f: Failure[]) => f.find((x) => x.check === 'stated_resource_fields' && x.location === `response.body.institution.${field}`);
    return {
      without: where(contract.checkReceived(e, OPTIONS).failures),
      with: where(contract.checkReceived(e, { ...OPTIONS, referenceContradictions: contradictions }).failures),
    };
  };
  const clientStatus = lacking('client_status');
  assert.ok(clientStatus.without, 'the contract names client_status for an institution');
  assert.equal(clientStatus.with?.tier, 'inferred');
  const guid = lacking('guid');
  assert.ok(guid.without, 'the contract names guid for a v20250224 institution');
  assert.equal(guid.with?.tier, guid.without.tier, 'the reference carries guid: no contradiction');
});

test('the contradictions are derived once per process, not per exchange', () => {
  const first = referenceContradictionsOf([V2025], OPTIONS);
  assert.equal(referenceContradictionsOf([V2025], { ...OPTIONS }), first, 'the same object for the same documents and options');
  assert.ok(first.size >= 4);
  assert.deepEqual(first.files, [relative(process.cwd(), V2025)]);
});
