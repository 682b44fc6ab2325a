/**
 * The honest figures of `npm run spec:stats` (spec/columns.ts placeRow): each column's rule
 * on small literal rows, then what must hold of the real trace (every checkable row in one
 * column, the sum, a reason for every row no run verifies).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  breaksSentence,
  checkRun,
  COLUMN_TITLES,
  contentWords,
  mutantBreaks,
  placeRow,
  sectionsNamedBy,
  SPEC_SECTIONS,
  suitesReach,
  suspectOf,
  topSectionOf,
  type ColumnFacts,
  type Proof,
} from './columns.ts';
import { collectStats, placements } from './stats.ts';
import { isCheckable, loadTrace, type TraceRow } from './trace.ts';
import { LONG_RUNNING, NOT_VERIFIABLE } from './verifiability.ts';
import { loadProfile } from '../targets/index.ts';

// ---- small literal rows -------------------------------------------------------------------

const API = 'scenarios/api/identify.spec.ts > identify while an identification runs answers 202';
const DX = 'scenarios/api/data-exchange.spec.ts > the grant query returns the grant only when every grantee is supplied';
const BROWSER = 'scenarios/browser/oauth.spec.ts > authorize redirects';
const LIVE = 'live-delivery (any target; tests/live-delivery.system.test.ts): webhook_field_formats';

const fault = (section: string, description = '', o: Partial<Extract<Proof, { kind: 'fault' }>> = {}): Proof => ({
  kind: 'fault',
  tier: 'stated',
  section,
  description,
  ...o,
});

/** A catalogue of literal entries; the settings: DX needs a knowable GUID and a guessed query name, BROWSER a knowable selector. */
const facts = (entries: Record<string, Proof>, o: Partial<ColumnFacts> = {}): ColumnFacts => ({
  catalogueEntry: (name) => entries[name],
  settingsOfCheck: (check) =>
    check === DX
      ? ['SVC_3DX_ISSUER_GUID', 'SVC_3DX_GRANTEE_QUERY_PARAM']
      : check === BROWSER
        ? ['SVC_OAUTH_AUTHORIZE_SELECTOR']
        : check === LIVE
          ? ['SVC_WEBHOOK_PUBLIC_URL']
          : [],
  sourceOf: (v) =>
    ({
      SVC_3DX_ISSUER_GUID: 'knowable',
      SVC_OAUTH_AUTHORIZE_SELECTOR: 'knowable',
      SVC_WEBHOOK_PUBLIC_URL: 'knowable',
      SVC_3DX_GRANTEE_QUERY_PARAM: 'guess',
      SVC_DEPRECATION_HEADER: 'guess',
    })[v] as ReturnType<ColumnFacts['sourceOf']>,
  provenOnLiveDelivery: () => false,
  longRunning: () => undefined,
  notVerifiable: () => undefined,
  ...o,
});

const row = (o: Partial<TraceRow>): TraceRow => ({
  id: 'x.row',
  section: 'Errors',
  statement: '202 identify requested while an identification is already running',
  encoded_in: [],
  verified_by: [API],
  proven_by: [],
  ...o,
});

/** A fault that breaks the literal row's sentence: it names Errors and shares its words. */
const OWN = fault('Errors 202: identify requested while an identification is already running', 'identify answers 409 while an identification runs');

test("minimal: a proof of the row's own sentence fails a check it names that needs only minimal settings", () => {
  const p = placeRow(row({ proven_by: ['own'] }), facts({ own: OWN }));
  assert.equal(p.column, 'minimal');
  assert.deepEqual(p.proofs, ['own']);
});

test('full: the only check needs a setting a team can know; one check with minimal settings is enough', () => {
  const f = facts({ own: OWN });
  assert.equal(placeRow(row({ verified_by: [BROWSER], proven_by: ['own'] }), f).column, 'full');
  assert.deepEqual(placeRow(row({ verified_by: [BROWSER], proven_by: ['own'] }), f).settings, ['SVC_OAUTH_AUTHORIZE_SELECTOR']);
  assert.equal(placeRow(row({ verified_by: [BROWSER, API], proven_by: ['own'] }), f).column, 'minimal');
  // shown_by narrows a fault to the checks that show it.
  assert.equal(placeRow(row({ verified_by: [BROWSER, API], proven_by: ['own'], shown_by: { own: [BROWSER] } }), f).column, 'full');
});

test('guess: the only check needs a setting nobody can know; a setting the table does not know counts as a guess', () => {
  const p = placeRow(row({ verified_by: [DX], proven_by: ['own'] }), facts({ own: OWN }));
  assert.equal(p.column, 'guess');
  assert.match(p.reason ?? '', /SVC_3DX_GRANTEE_QUERY_PARAM/);
  assert.equal(placeRow(row({ verified_by: [DX, BROWSER], proven_by: ['own'] }), facts({ own: OWN })).column, 'full', 'a check without the guess is better');
  const unknown = facts({ own: OWN }, { settingsOfCheck: () => ['SVC_NOBODY_CLASSIFIED_THIS'] });
  assert.equal(placeRow(row({ proven_by: ['own'] }), unknown).column, 'guess');
});

test('an inferred fault counts only when its env names settings (a guessed name), and then needs them; SVC_STRICT never counts', () => {
  const header = fault('Errors 202: identify while an identification is already running', 'no deprecation header', {
    tier: 'inferred',
    env: { SVC_DEPRECATION_HEADER: 'Deprecation' },
  });
  const strict = fault('Errors 202: identify while an identification is already running', '', { tier: 'inferred', env: { SVC_STRICT: '1' } });
  const named = placeRow(row({ proven_by: ['header'] }), facts({ header }));
  assert.equal(named.column, 'guess');
  assert.deepEqual(named.settings, ['SVC_DEPRECATION_HEADER']);
  const p = placeRow(row({ proven_by: ['strict'] }), facts({ strict }));
  assert.equal(p.column, 'not-verified');
  assert.match(p.reason ?? '', /inferred proofs only/);
});

test('not-verified: a fault about another statement does not verify the row, whatever check it fails', () => {
  // Names another section and shares fewer than three words: another statement's fault.
  const other = fault('Limits: records_per_page maximum 1000', 'a page of 1001 records');
  const p = placeRow(row({ proven_by: ['other'] }), facts({ other }));
  assert.equal(p.column, 'not-verified');
  assert.match(p.reason ?? '', /break other statements: other/);
  // Names the row's section but shares no word with it: a fault reused from a neighbour.
  const neighbour = fault('Errors 404: invalid institution_identifier on the credentials list', 'credentials of an unknown code answer 200');
  assert.equal(placeRow(row({ proven_by: ['neighbour'] }), facts({ neighbour })).column, 'not-verified');
  // The same sentence stated under another section's name (three shared words) does verify it.
  const restated = fault('Endpoints, Widgets and members: identify requested while an identification is already running answers 202');
  assert.equal(placeRow(row({ proven_by: ['restated'] }), facts({ restated })).column, 'minimal');
});

test('a numbered rule is broken only by an entry that names its number', () => {
  const r = row({ section: 'Events', statement: '9. Member payloads include is_oauth and use_cases', verified_by: [API] });
  const rule1 = fault('Events, Webhooks rule 1: _at fields are seconds', 'member payload is_oauth use_cases in milliseconds');
  const rule9 = fault('Events, Webhooks rule 9: member payloads include is_oauth', 'member webhooks without is_oauth');
  assert.equal(breaksSentence(r, 'rule1', rule1), false);
  assert.equal(breaksSentence(r, 'rule9', rule9), true);
});

test('a mutant breaks the sentence that names its field, status, prefix or media type; a receiver variant breaks Events rules', () => {
  const r = { section: 'Resources and their fields', statement: 'Member: metadata string', encoded_in: [] as string[] };
  assert.equal(mutantBreaks(r, 'retype:Member.metadata'), true);
  assert.equal(mutantBreaks(r, 'drop-field:Member.connection_status'), false);
  assert.equal(
    mutantBreaks({ ...r, encoded_in: ['spec/platform.openapi.yaml#/components/schemas/Member/properties'] }, 'drop-field:Member.connection_status'),
    true,
  );
  assert.equal(mutantBreaks({ ...r, statement: '201 data exchange token created' }, 'status:POST /token 201->other 2xx'), true);
  assert.equal(mutantBreaks({ ...r, statement: 'An issuing client shares data with grantees' }, 'status:POST /token 201->other 2xx'), false);
  assert.equal(mutantBreaks({ ...r, statement: 'Identifier shapes USR-<uuid>, MBR-<uuid>' }, 'id-prefix:MBR-'), true);
  assert.equal(mutantBreaks({ ...r, statement: 'Breaking: removing or renaming a response field' }, 'drop-field:Account.balance'), true);
  const mutantRow = row({ section: 'Resources and their fields', statement: 'Member: metadata string', proven_by: ['mutant:retype:Member.metadata'] });
  assert.equal(placeRow(mutantRow, facts({})).column, 'minimal');
  const receiver = row({
    section: 'Events',
    statement: '6. Receivers answer success for duplicates',
    verified_by: ['properties: a duplicate delivery gets a 2xx'],
  });
  assert.equal(placeRow({ ...receiver, proven_by: ['receiver:answers-500-to-duplicates'] }, facts({})).column, 'minimal');
  assert.equal(placeRow({ ...receiver, section: 'Errors', proven_by: ['receiver:answers-500-to-duplicates'] }, facts({})).column, 'not-verified');
});

test("a check counts on a real target in a gate run or another run against it, never on the simulator's dispatcher or in a unit test", () => {
  assert.equal(checkRun(API), 'gate');
  assert.equal(checkRun('properties: a duplicate delivery gets a 2xx'), 'gate');
  assert.equal(checkRun(LIVE), 'gate');
  assert.equal(checkRun('versions: removed-response-field'), 'command');
  assert.equal(checkRun('load: rate-limit (429 within the limit)'), 'command');
  assert.equal(checkRun('delivery: member-events (webhook_payload_conformance)'), 'simulator');
  assert.equal(checkRun('unit: contracts/test/classifier.test.ts > documents'), 'unit');
  const f = facts({ own: OWN });
  assert.equal(placeRow(row({ verified_by: ['load: rate-limit'], proven_by: ['own'] }), f).column, 'minimal');
  const sim = placeRow(row({ verified_by: ['delivery: member-events'], proven_by: ['own'] }), f);
  assert.equal(sim.column, 'not-verified');
  assert.match(sim.reason ?? '', /simulator's dispatcher/);
  // The live delivery check shows only the faults its own proof runs, whatever shown_by says.
  const live = row({ verified_by: ['delivery: member-events', LIVE], proven_by: ['own'], shown_by: { own: ['delivery: member-events'] } });
  assert.equal(placeRow(live, f).column, 'not-verified');
  assert.equal(placeRow(live, facts({ own: OWN }, { provenOnLiveDelivery: (x) => x === 'own' })).column, 'full');
});

test('long-running and not-verifiable rows are placed by their table, with its reason, whatever their proofs', () => {
  const f = facts(
    { own: OWN },
    { longRunning: (id) => (id === 'x.day' ? 'a day must pass' : undefined), notVerifiable: (id) => (id === 'x.never' ? 'no answer shows it' : undefined) },
  );
  const day = placeRow(row({ id: 'x.day', proven_by: ['own'] }), f);
  assert.deepEqual([day.column, day.reason, day.simulatorProof], ['long-running', 'a day must pass', true]);
  assert.equal(placeRow(row({ id: 'x.day' }), f).simulatorProof, false);
  const never = placeRow(row({ id: 'x.never', proven_by: ['own'] }), f);
  assert.deepEqual([never.column, never.reason], ['not-verifiable', 'no answer shows it']);
});

test('a row the trace scopes to the simulator is not verified on a real target; a row without a proof says so', () => {
  const f = facts({ own: OWN });
  const scoped = placeRow(row({ proven_by: ['own'], scope: 'simulator-only: a day must pass' }), f);
  assert.equal(scoped.column, 'not-verified');
  assert.match(scoped.reason ?? '', /simulator-only: a day must pass/);
  assert.match(placeRow(row({}), f).reason ?? '', /no proof/);
  assert.match(placeRow(row({ verified_by: [], encoded_in: ['spec/x.yaml#/components/schemas/Member'] }), f).reason ?? '', /no check and no proof/);
  assert.equal(placeRow(row({ not_shown: true, treatment: 'open' }), f).column, 'not-checkable');
  assert.equal(placeRow(row({ treatment: 'informative: nothing to observe' }), f).column, 'not-checkable');
});

test('tolerance: Versioning non-breaking rows and rows proven only by variations; proven when a variation runs on a check they name', () => {
  const variation = (suites: string[]): Proof => ({ kind: 'variation', section: 'Versioning, non-breaking', description: '', suites });
  const f = facts({ wide: variation(['*']), upgrade: variation(['upgrade']), tagged: variation(['@institutions']) });
  const proven = placeRow(row({ id: 'ver.non-breaking.4', verified_by: ['versions: added field'], proven_by: ['upgrade'] }), f);
  assert.deepEqual([proven.column, proven.toleranceProven], ['tolerance', true]);
  assert.equal(placeRow(row({ id: 'ver.non-breaking.2', verified_by: ['unit: classifier'] }), f).toleranceProven, false);
  assert.equal(placeRow(row({ id: 'ver.non-breaking.5', verified_by: ['unit: classifier'], proven_by: ['tagged'] }), f).toleranceProven, false);
  assert.equal(placeRow(row({ proven_by: ['wide'] }), f).column, 'tolerance', 'proven only by variations');
  assert.equal(placeRow(row({ proven_by: ['wide', 'own'] }), facts({ wide: variation(['*']), own: OWN })).column, 'minimal');
  assert.equal(suitesReach(['@members'], 'check: content_type_conformance (every response)'), true);
  assert.equal(suitesReach(['load:rate-limit'], 'load: rate-limit (429)'), true);
  assert.equal(suitesReach(['delivery'], 'versions: x'), false);
});

test('a catalogue section names the specification sections its clauses begin with', () => {
  assert.deepEqual([...sectionsNamedBy('Resources, Member: user_guid; What the service does: a member connects')].sort(), [
    'Resources and their fields',
    'What the service does',
  ]);
  assert.deepEqual([...sectionsNamedBy('Errors 202: identify')], ['Errors']);
  assert.deepEqual([...sectionsNamedBy('OAuth procedure 4: aggregation starts')], ['Endpoints']);
  assert.deepEqual([...sectionsNamedBy('Conventions for _set_by fields: FEED, USER or SYSTEM')], ['Resources and their fields']);
  assert.deepEqual([...sectionsNamedBy('real-service-notes, Media types: v1+json')], []);
  assert.equal(topSectionOf('Endpoints / OAuth procedure for members'), 'Endpoints');
  assert.deepEqual([...contentWords('The 429 answers, for records_per_page of institutions')].sort(), ['429', 'institution', 'records_per_page']);
});

test("a row is suspect where a half of the sentence rule places it in another column, or where its proofs were judged another statement's", () => {
  const neighbour = fault('Errors 404: invalid institution_identifier', 'credentials of an unknown code answer 200');
  const f = facts({ neighbour });
  const r = row({ proven_by: ['neighbour'] });
  const suspect = suspectOf(r, placeRow(r, f), f);
  assert.match(suspect?.why ?? '', /the section rule alone says minimal: neighbour/);
  assert.equal(suspectOf(row({ proven_by: ['own'] }), placeRow(row({ proven_by: ['own'] }), facts({ own: OWN })), facts({ own: OWN })), undefined);
  // Every row the machine leaves unverified for another statement's proofs is a person's to confirm.
  const other = facts({ other: fault('Limits: records_per_page maximum 1000', 'a page of 1001 records') });
  const r2 = row({ proven_by: ['other'] });
  assert.match(suspectOf(r2, placeRow(r2, other), other)?.why ?? '', /both halves agree its proofs break other statements: other/);
});

// ---- the real trace ---------------------------------------------------------------------------

const rows = loadTrace();

test('every checkable row lands in exactly one column, and the columns sum to the checkable rows', () => {
  const stats = collectStats();
  const columns = Object.keys(COLUMN_TITLES) as Array<keyof typeof COLUMN_TITLES>;
  const sum = columns.reduce((total, c) => total + stats.columns[c], 0);
  assert.equal(sum, stats.checkable);
  assert.equal(stats.checkable, rows.filter(isCheckable).length);
  assert.equal(stats.columns['not-checkable'] + stats.checkable, rows.length);
  assert.ok(stats.tolerance.proven <= stats.tolerance.rows);
});

test('every row no run verifies says why: not verifiable, long-running and not verified by a reason, a guess by its setting', () => {
  const unexplained = placements()
    .filter(({ placement: p }) => ['not-verifiable', 'long-running', 'not-verified', 'guess', 'tolerance'].includes(p.column) && !p.reason?.trim())
    .map(({ row: r, placement: p }) => `${r.id} (${p.column})`);
  assert.deepEqual(unexplained, []);
  for (const [id, reason] of Object.entries({ ...LONG_RUNNING, ...NOT_VERIFIABLE })) assert.ok(reason.trim().length > 20, `${id}: a reason, said`);
});

test('spec/verifiability.ts names checkable rows of the trace, each once', () => {
  const checkable = new Set(rows.filter(isCheckable).map((r) => r.id));
  const named = [...Object.keys(LONG_RUNNING), ...Object.keys(NOT_VERIFIABLE)];
  assert.deepEqual(
    named.filter((id) => !checkable.has(id)),
    [],
    'ids that name no checkable row',
  );
  assert.deepEqual(
    Object.keys(LONG_RUNNING).filter((id) => id in NOT_VERIFIABLE),
    [],
    'rows in both tables',
  );
});

test("every row's section is one of the specification's sections", () => {
  const unknown = rows.filter((r) => !(topSectionOf(r.section) in SPEC_SECTIONS)).map((r) => `${r.id}: ${r.section}`);
  assert.deepEqual(unknown, []);
});

const SPEC_FILE = loadProfile().run.specFile;

test("SPEC_SECTIONS are the specification's headings", { skip: !existsSync(SPEC_FILE) && `no specification at ${SPEC_FILE}` }, () => {
  const headings: Record<string, string[]> = {};
  let top = '';
  for (const line of readFileSync(SPEC_FILE, 'utf8').split('\n')) {
    if (line.startsWith('## ')) headings[(top = line.slice(3).trim())] = [];
    else if (line.startsWith('### ') && top) headings[top].push(line.slice(4).trim());
  }
  assert.deepEqual(Object.fromEntries(Object.entries(SPEC_SECTIONS).map(([k, v]) => [k, [...v.subsections]])), headings);
});
