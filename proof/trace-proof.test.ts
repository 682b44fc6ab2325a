import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrace, type TraceRow } from '../spec/trace.ts';
import { BROKEN_VARIANTS, CATALOG } from '../targets/index.ts';
import { chooseShownBy, confirmProofs, namesCheck, MUTANT_PROOF } from './trace-proof.ts';
import { generateMutants } from './mutants/generate.ts';
import type { FailedCheck, MatrixRow } from './matrix.ts';
import { printTestKey, testKey } from './playwright-plan.ts';

/** A scenario that failed with an error. */
const failedIn = (file: string, title: string, error = 'Error: x'): FailedCheck => ({ test: testKey(file, [title]), error });
/** A side run's check that failed. */
const side = (name: string): FailedCheck => ({ side: name });

const rows = loadTrace();

test('every proven_by names a catalogue entry or a generated response mutant, and only rows that name a verifying check carry one', () => {
  const names = new Set<string>([
    ...CATALOG.map((e) => e.name),
    ...BROKEN_VARIANTS.map((v) => `receiver:${v}`),
    ...generateMutants()
      .mutants.filter((m) => m.expect === 'killed')
      .map((m) => `${MUTANT_PROOF}${m.id}`),
  ]);
  const unknown = rows.flatMap((r) => r.proven_by.filter((n) => !names.has(n)).map((n) => `${r.id}: ${n}`));
  assert.deepEqual(unknown, [], 'proven_by entries missing from targets/simulator/catalog.ts and from the stated mutants of proof/mutants/generate.ts');
  assert.deepEqual(
    rows.filter((r) => r.proven_by.length > 0 && r.verified_by.length === 0).map((r) => r.id),
    [],
    'proven_by without verified_by',
  );
});

test('every scope says simulator-only and why', () => {
  const bad = rows.filter((r) => r.scope !== undefined && !/^simulator-only: \S/.test(r.scope)).map((r) => `${r.id}: ${r.scope}`);
  assert.deepEqual(bad, []);
});

test('namesCheck matches a recorded failure to the check a verified_by entry names', () => {
  const title = 'every platform endpoint refuses requests without credentials';
  assert.ok(namesCheck(`scenarios/api/auth.spec.ts > ${title}`, failedIn('scenarios/api/auth.spec.ts', title)));
  assert.ok(!namesCheck(`scenarios/api/auth.spec.ts > ${title}`, failedIn('scenarios/api/members.spec.ts', title)), 'another file');
  assert.ok(
    !namesCheck('scenarios/api/auth.spec.ts > a token alone is refused', failedIn('scenarios/api/auth.spec.ts', 'every platform endpoint refuses requests')),
    'another title',
  );
  assert.ok(!namesCheck(`scenarios/api/auth.spec.ts > ${title}`, side(`scenarios/api/auth.spec.ts > ${title}`)), 'a side check is not a scenario');
  assert.ok(namesCheck('delivery: member-events (webhook_payload_conformance)', side('delivery member-events: webhook_payload_conformance')));
  assert.ok(namesCheck('delivery: retry-exhausted', side('delivery retry-exhausted: webhook_retry_count')));
  assert.ok(!namesCheck('delivery: skip', side('delivery retry-exhausted: webhook_retry_count')));
  assert.ok(
    !namesCheck('delivery: basic-auth', failedIn('scenarios/api/data-exchange.spec.ts', 'a token alone, without Basic authentication, is refused')),
    'a delivery check is not a scenario',
  );
  assert.ok(
    namesCheck(
      'versions: removed-response-field / renamed-response-field on the institution reads (upgrade/versions.ts)',
      side('versions: removed-response-field GET /institutions response.body.institutions[].instructional_text'),
    ),
  );
  assert.ok(
    namesCheck(
      'load: rate-limit (load/rate-limit.ts thresholds rate_limited_above_limit, server_errors)',
      side('load:rate-limit threshold server_errors count==0'),
    ),
  );
  assert.ok(
    !namesCheck('load: rate-limit (load/rate-limit.ts thresholds rate_limited_above_limit)', side('load:rate-limit threshold checks rate>=1')),
    'another threshold',
  );
  assert.ok(!namesCheck('load: paging', side('load:rate-limit threshold checks rate>=1')), 'another script');
  assert.ok(
    namesCheck(
      'properties: a duplicate delivery gets a 2xx and is processed once',
      failedIn('scenarios/properties/receiver-state.spec.ts', 'a duplicate delivery gets a 2xx and is processed once'),
    ),
  );
});

function matrixRow(name: string, kind: 'fault' | 'variation', verdict: MatrixRow['verdict'], failed: FailedCheck[]): MatrixRow {
  return { name, kind, area: 'auth', section: '', description: '', suites: [], verdict, failed, executed: 1, errors: [], durationMs: 1 };
}

test('confirmProofs: confirmed, broken when the catching check is another one, not run when absent or only partly run', () => {
  const row = (id: string, proven_by: string[]): TraceRow => ({
    id,
    section: 's',
    statement: 's',
    encoded_in: [],
    verified_by: ['scenarios/api/a.spec.ts > the rule holds'],
    proven_by,
  });
  const report = confirmProofs(
    [
      row('r.ok', ['f-ok']),
      row('r.other', ['f-other']),
      row('r.absent', ['f-absent']),
      row('r.survived', ['f-survived']),
      row('r.tolerance', ['v-pass']),
      row('r.partly', ['f-other', 'f-absent']),
    ],
    [
      matrixRow('f-ok', 'fault', 'CAUGHT', [failedIn('scenarios/api/a.spec.ts', 'the rule holds')]),
      matrixRow('f-other', 'fault', 'CAUGHT', [failedIn('scenarios/api/b.spec.ts', 'something else')]),
      matrixRow('f-survived', 'fault', 'SURVIVED', []),
      matrixRow('v-pass', 'variation', 'PASSED', []),
    ],
  );
  assert.deepEqual(report.confirmed, ['r.ok', 'r.tolerance']);
  assert.deepEqual(
    report.broken.map((b) => b.id),
    ['r.other', 'r.survived'],
  );
  assert.deepEqual(report.notRun, ['r.absent', 'r.partly'], 'an --only run without every proving entry cannot call a row broken');
});

test("every shown_by names a fault of the row's proven_by and checks of its verified_by", () => {
  const wrong = loadTrace().flatMap((r) =>
    Object.entries(r.shown_by ?? {}).flatMap(([fault, checks]) => [
      ...(r.proven_by.includes(fault) ? [] : [`${r.id}: ${fault} is not in proven_by`]),
      ...(checks.length ? [] : [`${r.id}: ${fault} is shown by no check`]),
      ...checks.filter((c) => !r.verified_by.includes(c)).map((c) => `${r.id}: ${fault} shown by "${c}", not in verified_by`),
    ]),
  );
  assert.deepEqual(wrong, []);
});

test('chooseShownBy: one check per row and fault (not a browser scenario where another shows it), and every check some fault shows keeps one', () => {
  const keys = {
    api1: testKey('scenarios/api/a.spec.ts', ['the rule holds']),
    api2: testKey('scenarios/api/a.spec.ts', ['the other rule holds']),
    web: testKey('scenarios/browser/w.spec.ts', ['the page shows it']),
  };
  const [api1, api2, web] = [keys.api1, keys.api2, keys.web].map(printTestKey);
  const row = (id: string, verified_by: string[], proven_by: string[]): TraceRow => ({
    id,
    section: 's',
    statement: 's',
    encoded_in: [],
    verified_by,
    proven_by,
  });
  const byName = new Map(Object.values(keys).map((k) => [printTestKey(k), k]));
  const fails = (...checks: string[]): FailedCheck[] => checks.map((c) => ({ test: byName.get(c)!, error: 'Error: x' }));
  const rows = [row('r1', [web, api1, api2], ['f-a', 'f-b']), row('r2', [api1, api2], ['f-a'])];
  const choice = chooseShownBy(rows, [matrixRow('f-a', 'fault', 'CAUGHT', fails(web, api1, api2)), matrixRow('f-b', 'fault', 'CAUGHT', fails(web))]);
  // f-a shows every check of both rows: one api check per row, the same one for both rows;
  // f-b shows only the browser scenario, which therefore keeps it (and api2 keeps its proof through f-a on r1).
  assert.deepEqual(choice.get('r1'), { 'f-a': [api1, api2], 'f-b': [web] });
  assert.deepEqual(choice.get('r2'), { 'f-a': [api1] });
  const every = [...choice.values()].flatMap((c) => Object.values(c ?? {}).flat());
  for (const check of [web, api1, api2]) assert.ok(every.includes(check), `${check} still runs under a fault that fails it`);
  // A fault that did not run, or was not caught, keeps its claim: the proof check judges the row.
  const kept = chooseShownBy(
    [{ ...row('r3', [api1, api2], ['f-survived', 'f-absent']), shown_by: { 'f-survived': [api2], 'f-absent': [api1] } }],
    [matrixRow('f-survived', 'fault', 'SURVIVED', [])],
  );
  assert.deepEqual(kept.get('r3'), { 'f-survived': [api2], 'f-absent': [api1] });
});
