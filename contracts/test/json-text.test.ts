/**
 * A body read as JSON text (contracts/json-text.ts) through checkReceived, the one reader
 * of every target answer: a hostile body gives one clear finding, never a crash; bytes
 * that are not UTF-8, repeated names and numbers no reader holds are findings with their
 * tier; a correct body gives none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBody, JSON_TEXT_CHECK, JSON_TEXT_RULES, loadContract, MAX_JSON_DEPTH, printable, readJsonText, type Failure } from '../index.ts';
import { MEMBER_GUID, sampleInstitutionsPage, sampleMember, USER_GUID } from './samples.ts';

const contract = loadContract();

function received(text: string, o: { api?: 'platform' | 'audience'; url?: string; status?: number; strict?: boolean; observe?: boolean } = {}) {
  return contract.checkReceived(
    {
      api: o.api ?? 'platform',
      ...(o.api === 'audience' ? {} : { version: 'v20260929' }),
      request: { method: 'GET', url: o.url ?? '/institutions', headers: {} },
      response: { status: o.status ?? 200, headers: { 'content-type': 'application/json' }, text },
    },
    { strict: o.strict, observe: o.observe },
  );
}

const ofCheck = (failures: Failure[]) => failures.filter((f) => f.check === JSON_TEXT_CHECK);
const AUDIENCE = '/api/v1/audience/aud-1/list';
const audienceList = (count: string, extra = '') =>
  `{"audience_id":"aud-1","count":${count},"institution_id":"ins-1","list":["a"],"updated_on":"2026-01-01"${extra}}`;

test('a body nested 100 000 levels deep: one finding naming the bound and the depth reached; no check reads a body', () => {
  for (const [kind, text] of [
    ['arrays', `{"institutions":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['objects', `{"institutions":[{"code":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`],
  ] as const) {
    const r = received(text, { observe: true });
    const message =
      kind === 'arrays'
        ? 'Received: a JSON body nested deeper than 128 levels (100001 levels; level 129 opens at byte 143) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it)'
        : 'Received: a JSON body nested deeper than 128 levels (100003 levels; level 129 opens at byte 650) / Expected: at most 128 levels, the nesting this judge reads (the body was not parsed: no check read it)';
    assert.deepEqual(
      r.failures,
      [
        {
          check: 'response_json_text',
          operation: 'GET /institutions',
          location: 'response.body',
          rule: JSON_TEXT_RULES.depth,
          severity: 'error',
          tier: 'stated',
          message,
        },
      ],
      kind,
    );
    assert.equal(r.body, undefined, 'no check saw a body');
    assert.equal(r.unreadJson, message);
    assert.equal(r.invalidJson, undefined);
    assert.equal(r.observation, undefined, 'the run-wide invariants see nothing of it');
  }
  assert.match(
    JSON_TEXT_RULES.depth,
    /^RFC 8259 §9: "An implementation may set limits on the maximum depth of nesting"; this judge reads JSON nested up to 128 levels/,
  );
});

test('nesting up to the bound is read; brackets inside strings are not nesting', () => {
  const at = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
  assert.equal(readJsonText(at).tooDeep, undefined);
  assert.ok(Array.isArray(readJsonText(at).body));
  assert.deepEqual(readJsonText(`[${at}]`).tooDeep, { bound: MAX_JSON_DEPTH, depth: MAX_JSON_DEPTH + 1, byte: MAX_JSON_DEPTH });
  const quoted = JSON.stringify({ text: '['.repeat(10_000), escaped: '\\"[[[[' });
  assert.deepEqual(readJsonText(quoted).body, JSON.parse(quoted));
  // An unterminated deep text is reported as too deep as far as it goes, never parsed.
  assert.equal(readJsonText('['.repeat(200)).tooDeep?.depth, 200);
});

test('bytes that are not UTF-8: a stated finding quoting RFC 8259, the count, the first byte offset and an escaped sample', () => {
  const page = JSON.stringify(sampleInstitutionsPage(1));
  const at = page.indexOf('"name":"') + 8;
  const bytes = Buffer.concat([Buffer.from(page.slice(0, at)), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from(page.slice(at))]);
  const text = decodeBody(bytes);
  const r = received(text);
  const found = ofCheck(r.failures);
  assert.deepEqual(found, [
    {
      check: 'response_json_text',
      operation: 'GET /institutions',
      location: 'response.body',
      rule: 'Endpoints: "Request and response bodies are JSON"; RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"',
      severity: 'error',
      tier: 'stated',
      message: `Received: 3 bytes that are not UTF-8, the first at byte ${at}: ${printable(page.slice(at - 20, at))}\\xFF\\xE2\\x82${printable(page.slice(at, at + 17))} / Expected: JSON text encoded in UTF-8`,
    },
  ]);
  assert.match(found[0]!.message, /"name":"\\xFF\\xE2\\x82/);
  // The body is still read: every other check judges it.
  assert.equal((r.body as { institutions: unknown[] }).institutions.length, 1);
});

test('decodeBody keeps well-formed UTF-8 as is and every other byte as one escaped unit', () => {
  const good = '{"name":"Caf\u00e9 \u20ac \u{1F600} \ufffd"}';
  assert.equal(decodeBody(Buffer.from(good)), good);
  // An overlong form, a surrogate encoded in UTF-8, a code point beyond U+10FFFF, a lone continuation.
  const text = decodeBody(Buffer.from([0x61, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0x80, 0x62]));
  assert.equal(printable(text), 'a\\xC0\\xAF\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80\\x80b');
  assert.equal(readJsonText(`"${text}"`).notUtf8?.count, 10);
  // A JSON escape of a lone surrogate is text, not a byte: valid UTF-8, no finding.
  assert.equal(readJsonText('{"name":"\\udc80"}').notUtf8, undefined);
  assert.equal(readJsonText(good).notUtf8, undefined);
});

test('printable: one bounded line, control characters, bidirectional controls and bytes that are not UTF-8 escaped', () => {
  const gzipHead = decodeBody(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x0a, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xe2, 0x80, 0xae, 0x41]));
  assert.equal(printable(gzipHead), '\\x1F\\x8B\\x08\\x00 \\x1B[31m\\u202EA');
  assert.equal(printable(`${'a'.repeat(300)}`, 10), 'aaaaaaaaaa…');
  assert.equal(printable('a\n\n  b\t c'), 'a b c');
  // A pair is never cut in half.
  assert.equal(printable('abc\u{1F600}def', 4), 'abc…');
});

test('a name repeated in one object: an inferred finding quoting RFC 8259, once per object; escapes name the same member', () => {
  const text =
    '{"institutions":[{"code":"a","guid":"INS-1","code":"b"},{"code":"c","name":"\\u0063ode","n\\u0061me":"x"}],"pagination":{"total_entries":1,"total_entries":1}}';
  const r = received(text);
  assert.deepEqual(
    ofCheck(r.failures).map((f) => [f.location, f.tier, f.severity, f.message]),
    [
      [
        'response.body.institutions[0].code',
        'inferred',
        'warning',
        'Received: the name "code" more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object',
      ],
      [
        'response.body.institutions[1].name',
        'inferred',
        'warning',
        'Received: the name "name" more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object',
      ],
      [
        'response.body.pagination.total_entries',
        'inferred',
        'warning',
        'Received: the name "total_entries" more than once in one object (the checks read its last value, as JSON.parse keeps it) / Expected: unique names within an object',
      ],
    ],
  );
  assert.equal(
    ofCheck(r.failures)[0]!.rule,
    'RFC 8259 §4: "The names within an object SHOULD be unique" ("When the names within an object are not unique, the behavior of software that receives such an object is unpredictable"); inferred: a SHOULD, so the body is still JSON as the specification states',
  );
  // Gating only when the profile is strict.
  assert.ok(ofCheck(received(text, { strict: true }).failures).every((f) => f.severity === 'error'));
  // The same name in two objects, or as a value, is no repetition.
  assert.deepEqual(ofCheck(received('{"institutions":[{"code":"code"},{"code":"a"}],"pagination":{"code":1}}').failures), []);
});

test('1e999999 where the schema states an integer: a stated type failure quoting the schema type, never "null"', () => {
  for (const raw of ['1e999999', '-1e999999']) {
    const r = received(audienceList(raw), { api: 'audience', url: AUDIENCE });
    const found = ofCheck(r.failures);
    assert.deepEqual(
      found.map((f) => [f.location, f.tier, f.severity, f.message]),
      [
        [
          'response.body.count',
          'stated',
          'error',
          `Received: ${raw} (beyond the range of a binary64 number: it parses as ${raw.startsWith('-') ? '-' : ''}Infinity) / Expected: type integer`,
        ],
      ],
    );
    assert.equal(found[0]!.rule, `type at audience.openapi.yaml#/components/schemas/AudienceList/properties/count (${JSON_TEXT_RULES.infinite})`);
    // The body the checks read is left as parsed.
    assert.equal((r.body as { count: number }).count, raw.startsWith('-') ? -Infinity : Infinity);
  }
  // Where the schema states a string, the schema check names what was read.
  const inList = received(audienceList('1', ',"list":["a",1e999]'), { api: 'audience', url: AUDIENCE });
  assert.ok(
    inList.failures.some((f) => f.check === 'response_schema_conformance' && f.message === 'Received: Infinity / Expected: type string'),
    inList.failures.map((f) => f.message).join('\n'),
  );
});

test('an integer beyond 2^53 - 1 whose value a binary64 reader loses: inferred, quoting the schema type and RFC 8259 §6', () => {
  const r = received(audienceList('12345678901234567891'), { api: 'audience', url: AUDIENCE });
  const found = ofCheck(r.failures);
  assert.deepEqual(
    found.map((f) => [f.location, f.tier, f.severity, f.message]),
    [
      [
        'response.body.count',
        'inferred',
        'warning',
        'Received: 12345678901234567891 (beyond 2^53 - 1: a binary64 reader gets 12345678901234567000) / Expected: type integer, within ±(2^53 - 1) where readers agree exactly',
      ],
    ],
  );
  assert.equal(found[0]!.rule, `type at audience.openapi.yaml#/components/schemas/AudienceList/properties/count (${JSON_TEXT_RULES.imprecise})`);
  // 2^53 itself and 1e20 are held exactly: nothing is lost, nothing is reported.
  for (const exact of ['9007199254740992', '1e20', '100000000000000000000', '-9007199254740991'])
    assert.deepEqual(ofCheck(received(audienceList(exact), { api: 'audience', url: AUDIENCE }).failures), [], exact);
  assert.equal(ofCheck(received(audienceList('9007199254740993'), { api: 'audience', url: AUDIENCE }).failures).length, 1);
});

test('numbers are judged against the type stated at their place: number, integer or null, open places, records of a list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-json-text-'));
  try {
    writeFileSync(
      join(dir, 'platform.openapi.yaml'),
      `openapi: 3.1.0
info: { title: numbers (test), version: '1' }
paths:
  /figures:
    get:
      responses:
        '200':
          description: figures
          content:
            application/json:
              schema:
                type: object
                properties:
                  amount: { type: number }
                  count: { type: integer }
                  maybe: { type: [integer, 'null'] }
                  open: {}
                  rows: { type: array, items: { $ref: '#/components/schemas/Row' } }
components:
  schemas:
    Row: { type: object, properties: { n: { type: integer } } }
`,
    );
    const local = loadContract({ specDir: dir });
    const judge = (text: string) =>
      local
        .checkReceived({
          api: 'platform',
          request: { method: 'GET', url: '/figures', headers: {} },
          response: { status: 200, headers: { 'content-type': 'application/json' }, text },
        })
        .failures.filter((f) => f.check === JSON_TEXT_CHECK)
        .map((f) => `${f.tier} ${f.location}: ${f.message}`);
    assert.deepEqual(judge('{"amount":1e400,"count":1,"maybe":-1e400,"open":1e400,"rows":[{"n":1},{"n":1E999}]}'), [
      'stated response.body.amount: Received: 1e400 (beyond the range of a binary64 number: it parses as Infinity) / Expected: type number',
      'stated response.body.maybe: Received: -1e400 (beyond the range of a binary64 number: it parses as -Infinity) / Expected: type integer or null',
      'stated response.body.rows[1].n: Received: 1E999 (beyond the range of a binary64 number: it parses as Infinity) / Expected: type integer',
    ]);
    // A large number where a number (not an integer) is stated is what binary64 holds: no finding.
    assert.deepEqual(judge('{"amount":12345678901234567891,"count":12345678901234567891,"open":12345678901234567891}'), [
      'inferred response.body.count: Received: 12345678901234567891 (beyond 2^53 - 1: a binary64 reader gets 12345678901234567000) / Expected: type integer, within ±(2^53 - 1) where readers agree exactly',
    ]);
    assert.deepEqual(judge('{"amount":1.5,"count":3,"maybe":null,"open":{"x":[1e300]},"rows":[{"n":-4}]}'), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a correct body gives no finding: members, a page of 1000 institutions, unicode names and escapes', () => {
  const bodies: Array<[string, unknown]> = [
    [`/users/${USER_GUID}/members/${MEMBER_GUID}`, { member: sampleMember() }],
    ['/institutions', sampleInstitutionsPage(1000)],
    ['/institutions', { ...sampleInstitutionsPage(1), note: 'Caf\u00e9 \u{1F600} \\u00e9 "quoted" [[[ {{{', amount: 1234567.891, small: 1e-300 }],
  ];
  for (const [url, body] of bodies) {
    const r = received(JSON.stringify(body), { url });
    assert.deepEqual(ofCheck(r.failures), [], url);
    assert.deepEqual(r.body, body);
  }
});

test('reading is linear: 16 MiB of records is scanned and parsed at once', () => {
  const record = JSON.stringify({ code: 'bank', guid: 'INS-00000000-0000-4000-8000-000000000001', name: 'Bank \u00e9', amount: 12.5, ids: [1, 2, 3] });
  const text = `{"institutions":[${Array.from({ length: Math.ceil((16 * 1024 * 1024) / (record.length + 1)) }, () => record).join(',')}]}`;
  const started = performance.now();
  const r = readJsonText(text);
  const took = performance.now() - started;
  assert.equal(r.tooDeep, undefined);
  assert.deepEqual(r.repeatedNames, []);
  assert.ok(took < 10_000, `read in ${Math.round(took)} ms`);
});
