/**
 * The catalogue's own rules (DESIGN.md, "Proving the suite"): every entry is described, names the
 * specification section it breaks or plays; every variation names suites that exist and
 * every fault has a trace row naming a check that runs — an entry without them would be
 * "proven" by nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { CATALOG, FAULTS, VARIATIONS } from '../targets/index.ts';
import { discoverSuiteTags, kindOfTag, planFault } from './plan.ts';
import { loadTrace } from '../spec/trace.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every catalogue entry has a unique kebab-case name, a description, a section and an area', () => {
  const seen = new Set<string>();
  for (const e of CATALOG) {
    assert.match(e.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, `name "${e.name}" is not kebab-case`);
    assert.ok(!seen.has(e.name), `duplicate catalogue name ${e.name}`);
    seen.add(e.name);
    assert.ok(e.description.trim().length >= 10, `${e.name}: description missing or too short`);
    assert.ok(e.section.trim().length >= 5, `${e.name}: section missing`);
    assert.ok(e.area, `${e.name}: area missing`);
    assert.ok(e.kind === 'fault' || e.kind === 'variation', `${e.name}: kind`);
  }
});

test('every suite tag of a variation has a known form and names a suite that exists; faults carry none', () => {
  const known = discoverSuiteTags(root);
  const problems: string[] = [];
  for (const e of CATALOG) {
    if (e.kind === 'fault') {
      if ('suites' in e) problems.push(`${e.name}: a fault's checks are its spec/trace.yaml rows, not suites`);
      continue;
    }
    if (e.suites.length === 0) problems.push(`${e.name}: no suites`);
    for (const tag of e.suites) {
      if (!kindOfTag(tag)) problems.push(`${e.name}: tag "${tag}" has no known form (@tag, delivery, load:<script>, upgrade, *)`);
      else if (!known.has(tag)) problems.push(`${e.name}: no suite carries tag "${tag}"`);
    }
  }
  assert.deepEqual(problems, [], `catalogue entries with unknown suites:\n${problems.join('\n')}`);
});

// One source per fault: the trace rows say which checks prove it (proof/plan.ts planFault).
test('every fault is proven by a trace row that names a check the self-test runs', () => {
  const rows = loadTrace();
  const unproven = FAULTS()
    .filter((e) => planFault(e, rows).runs.length === 0)
    .map((e) => e.name);
  assert.deepEqual(unproven, [], 'faults no row of spec/trace.yaml names in proven_by with a scenario, delivery:, load: or versions: check in verified_by');
});

test('the catalogue has at least 60 faults and 10 variations', () => {
  assert.ok(FAULTS().length >= 60, `only ${FAULTS().length} faults; the self-test needs at least 60`);
  assert.ok(VARIATIONS().length >= 10, `only ${VARIATIONS().length} variations; the self-test needs at least 10`);
});
