import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { loadProfile } from '../targets/index.ts';
import { loadShownBy, loadTrace, renderShownBy, resolveEncoding, SHOWN_BY_FILE, TRACE_FILE } from './trace.ts';

const rows = loadTrace();

test('trace ids are unique and stable-looking', () => {
  const seen = new Set<string>();
  for (const row of rows) {
    assert.match(row.id, /^[a-z0-9]+(\.[a-z0-9-]+)+$/, `id ${row.id}`);
    assert.ok(!seen.has(row.id), `duplicate id ${row.id}`);
    seen.add(row.id);
  }
});

// shown_by is generated (proof/trace-proof.ts --shown-by) into a sidecar, as spec/versions/ is
// derived: the hand-written trace never carries it, and the sidecar never names what the trace lost.
test('the shown_by sidecar is in its generated form and current with trace.yaml (rerun npx tsx proof/trace-proof.ts --shown-by)', () => {
  assert.doesNotMatch(
    readFileSync(TRACE_FILE, 'utf8'),
    /^\s+shown_by:/m,
    'spec/trace.yaml carries shown_by: it belongs to the generated spec/trace.shown-by.yaml',
  );
  const text = readFileSync(SHOWN_BY_FILE, 'utf8');
  const shownBy = loadShownBy();
  assert.ok(Object.keys(shownBy).length > 0, 'an empty sidecar would prove nothing here');
  assert.equal(text, renderShownBy(shownBy), `${SHOWN_BY_FILE} was edited by hand`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const stale = Object.entries(shownBy).flatMap(([id, faults]) => {
    const row = byId.get(id);
    if (!row) return [`${id}: no such row`];
    return Object.entries(faults).flatMap(([fault, checks]) => [
      ...(row.proven_by.includes(fault) ? [] : [`${id}: ${fault} is not in proven_by`]),
      ...(checks.length ? [] : [`${id}: ${fault} is shown by no check`]),
      ...checks.filter((c) => !row.verified_by.includes(c)).map((c) => `${id}: ${fault} shown by "${c}", not in verified_by`),
    ]);
  });
  assert.deepEqual(stale, []);
});

test('every row is encoded, or is not_shown / explicitly unencoded with a treatment', () => {
  const unaccounted = rows.filter((r) => r.encoded_in.length === 0 && !r.treatment?.trim());
  assert.deepEqual(
    unaccounted.map((r) => r.id),
    [],
    'rows with neither an encoding nor a treatment',
  );
  const notShownWithoutTreatment = rows.filter((r) => r.not_shown && !r.treatment);
  assert.deepEqual(
    notShownWithoutTreatment.map((r) => r.id),
    [],
    'not_shown rows must say how the suite treats them',
  );
});

test('every encoded_in pointer resolves in the named document', () => {
  const broken: string[] = [];
  for (const row of rows) {
    for (const ref of row.encoded_in) {
      try {
        resolveEncoding(ref);
      } catch (error) {
        broken.push(`${row.id}: ${(error as Error).message}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('the loader rejects a missing location', () => {
  assert.throws(() => resolveEncoding('spec/platform.openapi.yaml#/paths/~1no_such_path'), /no such location/);
});

// The specification lives next to the checkout (../shared/specification.md, as ../shared/DESIGN.md names it);
// SVC_SPEC_FILE points elsewhere. Without it the comparison cannot run and is skipped, not passed.
const SPEC_FILE = loadProfile().run.specFile; // SVC_SPEC_FILE, default ../shared/specification.md

test('every "not shown" line of the specification has a not_shown row', { skip: !existsSync(SPEC_FILE) && `no specification at ${SPEC_FILE}` }, () => {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  const lines = spec.split('\n').filter((l) => /not shown\.?\s*$/.test(l.trim()) || /: not shown/.test(l));
  const notShownRows = rows.filter((r) => r.not_shown).length;
  assert.ok(notShownRows >= lines.length, `${lines.length} "not shown" statements in the specification but only ${notShownRows} not_shown rows`);
});

// ---- honest figures: a proof counts by its kind, a verification by where it runs -----------

import { checkRun, honestCoverageOf, type ProofFacts, type TraceRow } from './trace.ts';

const facts = (o: Partial<ProofFacts> = {}): ProofFacts => ({
  kindOf: (e) =>
    e.startsWith('stated-') || e.startsWith('receiver:') || e.startsWith('mutant:')
      ? 'stated'
      : e.startsWith('inferred-')
        ? 'inferred'
        : e.startsWith('variation-')
          ? 'tolerance'
          : undefined,
  needsFullSettings: (c) => c.includes('data-exchange'),
  provenOnLiveDelivery: (f) => f === 'stated-live',
  ...o,
});
const row = (o: Partial<TraceRow>): TraceRow => ({ id: 'x.row', section: 'S', statement: 's', encoded_in: [], verified_by: [], proven_by: [], ...o });
const API = 'scenarios/api/identify.spec.ts > identify while an identification runs answers 202';
const DX = 'scenarios/api/data-exchange.spec.ts > the token endpoint answers 201 and its token opens the protected reads';

test("checks run in a gate run, only on the simulator's dispatcher, or only under another command", () => {
  assert.equal(checkRun(API), 'gate');
  assert.equal(checkRun('scenarios/browser/oauth.spec.ts > authorize'), 'gate');
  assert.equal(checkRun('properties: a duplicate delivery gets a 2xx and is processed once'), 'gate');
  assert.equal(checkRun('live-delivery (any target; scripts/live-delivery.test.ts): webhook_rule9_fields'), 'gate');
  assert.equal(checkRun('delivery: member-events (webhook_payload_conformance)'), 'simulator');
  assert.equal(checkRun('versions: response field removed'), 'command');
  assert.equal(checkRun('load: rate-limit (429 within the limit)'), 'command');
  assert.equal(checkRun('unit: contracts/test/classifier.test.ts > documents'), 'command');
});

test('a row is verified on any target only by a stated proof on a gate-run check; minimal or full settings by the check', () => {
  const f = facts();
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['stated-a'] }), f), 'verified-minimal');
  assert.equal(honestCoverageOf(row({ verified_by: [DX], proven_by: ['stated-a'] }), f), 'verified-full');
  assert.equal(
    honestCoverageOf(row({ verified_by: [DX, API], proven_by: ['stated-a'] }), f),
    'verified-minimal',
    'one check that runs with minimal settings is enough',
  );
  // shown_by narrows a fault to the checks that show it.
  assert.equal(honestCoverageOf(row({ verified_by: [DX, API], proven_by: ['stated-a'], shown_by: { 'stated-a': [DX] } }), f), 'verified-full');
  // A generated mutant and a broken reference receiver are stated proofs (the mutation command's extension point).
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['mutant:drop-field/member.guid'] }), f), 'verified-minimal');
  assert.equal(
    honestCoverageOf(row({ verified_by: ['properties: a duplicate delivery gets a 2xx'], proven_by: ['receiver:answers-500-to-duplicates'] }), f),
    'verified-minimal',
  );
});

test('inferred-only, simulator-only, other-command, tolerance rows are their own columns', () => {
  const f = facts();
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['inferred-a'] }), f), 'inferred-only');
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['inferred-a', 'stated-b'] }), f), 'verified-minimal');
  assert.equal(honestCoverageOf(row({ verified_by: ['delivery: member-events'], proven_by: ['stated-a'] }), f), 'simulator-only');
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['stated-a'], scope: 'simulator-only: a day must pass' }), f), 'simulator-only');
  assert.equal(honestCoverageOf(row({ verified_by: ['versions: field removed'], proven_by: ['stated-a'] }), f), 'other-command');
  assert.equal(honestCoverageOf(row({ id: 'ver.non-breaking.3', verified_by: [API], proven_by: ['stated-a'] }), f), 'tolerance');
  assert.equal(honestCoverageOf(row({ verified_by: [API], proven_by: ['variation-a'] }), f), 'tolerance');
  // A live delivery check counts only for the faults its own proof runs, and only with full settings.
  const live = 'live-delivery (any target; scripts/live-delivery.test.ts): webhook_rule9_fields';
  const liveFacts = facts({ needsFullSettings: (c) => c.startsWith('live-delivery') });
  assert.equal(honestCoverageOf(row({ verified_by: ['delivery: rule9-payloads', live], proven_by: ['stated-live'] }), liveFacts), 'verified-full');
  assert.equal(honestCoverageOf(row({ verified_by: ['delivery: rule9-payloads', live], proven_by: ['stated-other'] }), liveFacts), 'simulator-only');
  assert.equal(honestCoverageOf(row({ verified_by: [API] }), f), 'unverified');
  assert.equal(honestCoverageOf(row({ not_shown: true, treatment: 'open' }), f), 'not-checkable');
});

test('the live delivery check shows the faults its own proof runs, whatever shown_by narrows the self-test to', () => {
  const live = 'live-delivery (any target; scripts/live-delivery.test.ts): webhook_field_formats';
  const f = facts({ needsFullSettings: (c) => c.startsWith('live-delivery') });
  const r = row({ verified_by: ['delivery: test-webhooks', live], proven_by: ['stated-live'], shown_by: { 'stated-live': ['delivery: test-webhooks'] } });
  assert.equal(honestCoverageOf(r, f), 'verified-full');
  assert.equal(honestCoverageOf({ ...r, proven_by: ['stated-other'], shown_by: { 'stated-other': ['delivery: test-webhooks'] } }, f), 'simulator-only');
});
