/**
 * Drift inside a version, classified by the specification's Versioning section: what is
 * breaking ("Breaking (require a new version)") fails, what is non-breaking is reported and
 * never fails, and what the freedoms allow (null or absent, ../shared/real-service-notes.md,
 * Nullability) is no change at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareNights, driftReason, DRIFT_RULES, type DriftEvent } from './drift.ts';
import { nightOf } from './test-nights.test-support.ts';

const institution = (extra: Record<string, unknown> = {}) => ({
  institution: { code: 'mxbank', name: 'MX Bank', supports_oauth: true, medium_logo_url: 'https://x/logo.png', ...extra },
});

/** Tonight (day 2) against last night (day 1), first-seen entries carried as the store does. */
function drift(last: unknown[], tonight: unknown[]): DriftEvent[] {
  const n1 = nightOf(
    1,
    last.map((body) => ({ body })),
  );
  const first = compareNights(n1, []);
  const n2 = nightOf(
    2,
    tonight.map((body) => ({ body })),
  );
  return compareNights(n2, [n1], first.seen).events;
}

const kinds = (events: DriftEvent[]) => events.map((e) => `${e.cls} ${e.kind} ${e.path}`).sort();

test('the same answers two nights running: no drift', () => {
  assert.deepEqual(drift([institution()], [institution()]), []);
});

test("a removed field is breaking, with last night's value, the night it was first seen and the Versioning sentence", () => {
  const events = drift([institution({ extra_note: 'night one' })], [institution()]);
  assert.deepEqual(kinds(events), ['breaking removed-field institution.extra_note']);
  const [e] = events;
  assert.match(e.last.value, /"night one"/);
  assert.equal(e.last.night, nightOf(1, []).id);
  assert.match(e.rule, /^Versioning: "Breaking \(require a new version\)/);
  assert.match(e.rule, /removing or renaming a response field/);
  assert.match(driftReason(e), /GET \/institutions\/\{institution_code\} → 200 at institution\.extra_note: last night .* "night one"/);
});

test('a field the specification never named counts the same when removed: what the target served', () => {
  const events = drift([{ ...institution(), vendor_only: { a: 1 } }], [institution()]);
  // The outermost removed path is named; its children go with it.
  assert.deepEqual(kinds(events), ['breaking removed-field vendor_only']);
});

test('a changed kind of data is breaking', () => {
  const events = drift([institution({ rank: 3 })], [institution({ rank: '3' })]);
  assert.deepEqual(kinds(events), ['breaking changed-type institution.rank']);
  assert.match(events[0].rule, /the kind of data of a field/);
  assert.match(events[0].last.value, /number 3/);
  assert.match(events[0].tonight, /string "3"/);
});

test('an integer and a decimal are one kind of data: no drift', () => {
  assert.deepEqual(drift([institution({ balance: 100 })], [institution({ balance: 100.5 })]), []);
});

test('a removed enum value is breaking; a new one is non-breaking', () => {
  const events = drift(
    [institution({ kind: 'BANK' }), institution({ kind: 'CREDIT_UNION' })],
    [institution({ kind: 'BANK' }), institution({ kind: 'BROKERAGE' })],
  );
  assert.deepEqual(kinds(events), ['breaking removed-enum-value institution.kind', 'non-breaking added-enum-value institution.kind']);
  const removed = events.find((e) => e.kind === 'removed-enum-value')!;
  assert.equal(removed.last.value, '"CREDIT_UNION"');
  assert.match(removed.rule, /removing enum values/);
  assert.match(events.find((e) => e.kind === 'added-enum-value')!.rule, /may gain values/);
});

test('an added field is non-breaking, reported once: the next night it is known', () => {
  const events = drift([institution()], [institution({ brand_new: 'x' })]);
  assert.deepEqual(kinds(events), ['non-breaking added-field institution.brand_new']);
  assert.equal(DRIFT_RULES['added-field'].cls, 'non-breaking');
  // Night 3 serves it again: known since night 2, no event.
  const n1 = nightOf(1, [{ body: institution() }]);
  const s1 = compareNights(n1, []).seen;
  const n2 = nightOf(2, [{ body: institution({ brand_new: 'x' }) }]);
  const s2 = compareNights(n2, [n1], s1).seen;
  const n3 = nightOf(3, [{ body: institution({ brand_new: 'y' }) }]);
  assert.deepEqual(compareNights(n3, [n1, n2], { ...s1, ...s2 }).events, []);
});

test('a new response header is non-breaking', () => {
  const n1 = nightOf(1, [{ body: institution(), headers: { 'content-type': 'application/json' } }]);
  const n2 = nightOf(2, [{ body: institution(), headers: { 'content-type': 'application/json', 'x-new': '1' } }]);
  assert.deepEqual(kinds(compareNights(n2, [n1], compareNights(n1, []).seen).events), ['non-breaking added-header header:x-new']);
});

test('null and absent are no change either way (Nullability: "Absence follows the same rule as null")', () => {
  // null last night, absent tonight: never served a value, so nothing was removed.
  assert.deepEqual(drift([institution({ url: null })], [institution()]), []);
  // absent last night, null tonight: nothing added.
  assert.deepEqual(drift([institution()], [institution({ url: null })]), []);
  // null both nights.
  assert.deepEqual(drift([institution({ url: null })], [institution({ url: null })]), []);
});

test('a value served last night and null tonight is informational, never breaking', () => {
  const events = drift([institution({ url: 'x' })], [institution({ url: null })]);
  assert.deepEqual(kinds(events), ['informational now-null institution.url']);
});

test("a field only another scenario got is no removal: tonight's answers must come from a scenario that got it last night", () => {
  const n1 = nightOf(1, [
    { body: institution({ oauth_window_uri: 'https://x' }), source: 'oauth member' },
    { body: institution(), source: 'plain member' },
  ]);
  const n2 = nightOf(2, [{ body: institution(), source: 'plain member' }]);
  assert.deepEqual(compareNights(n2, [n1], compareNights(n1, []).seen).events, []);
});

test('a request accepted last night and refused tonight is breaking; 429 and 409 follow state and load, not the contract', () => {
  const ok = { body: institution(), query: 'page=1' };
  const n1 = nightOf(1, [ok]);
  const refused = nightOf(2, [{ ...ok, status: 400, body: { error: { message: 'no' } } }]);
  assert.deepEqual(
    compareNights(refused, [n1]).events.map((e) => `${e.cls} ${e.kind}`),
    ['breaking refused-now'],
  );
  const limited = nightOf(2, [{ ...ok, status: 429, body: {} }]);
  assert.deepEqual(compareNights(limited, [n1]).events, []);
});

test('each operation is compared with the latest earlier night that observed it (a partial night compares what it ran)', () => {
  const n1 = nightOf(1, [{ body: institution({ gone: 1 }) }, { operation: 'GET /users', body: { users: [{ guid: 'USR-1' }] } }]);
  const n2 = nightOf(2, [{ operation: 'GET /users', body: { users: [{ guid: 'USR-1' }] } }]);
  const n3 = nightOf(3, [{ body: institution() }]);
  const seen = { ...compareNights(n1, []).seen };
  assert.deepEqual(compareNights(n2, [n1], seen).events, []);
  assert.deepEqual(kinds(compareNights(n3, [n1, n2], seen).events), ['breaking removed-field institution.gone']);
});
