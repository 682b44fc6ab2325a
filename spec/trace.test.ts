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
