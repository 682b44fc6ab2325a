/**
 * The mutation run end to end, small: a seeded sample of mutants whose verdict is known,
 * against a simulator started as its own process, through the mutating proxy, the suite in
 * real-target mode (only SVC_* variables), a few scenarios. Stated mutants must be killed
 * by a failing scenario; tolerated ones must let every scenario pass. Bounded: about 30 s
 * on two cores (one simulator start, three Playwright starts, a handful of scenarios).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMutants } from '../proof/mutants/run.ts';

/**
 * Mutants the two scenarios below must tell apart: a contract rule, a scenario assertion, a
 * disagreement, a field one operation stops serving (presence consistency: the create answer
 * served it, the member read leaves it out); and four freedoms, among them a field never served.
 */
const KNOWN = {
  killed: [
    'drop-field-on-path:Member.connection_status',
    'recase:Member.connection_status',
    'id-prefix:MBR-',
    'retype:Member.is_oauth',
    'disagree:Institution.name',
  ],
  tolerated: [
    'add-field:every object gains a field',
    'reorder:every object lists its properties in reverse',
    'add-header:every answer carries one more header',
    'never-served:Member.name',
  ],
};

test('a seeded sample of known mutants: the stated ones are killed, the tolerated ones pass', { timeout: 180_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'svc-mutants-test-'));
  try {
    const report = await runMutants({
      only: [...KNOWN.killed, ...KNOWN.tolerated],
      // Seed 15 draws both new families: drop-field-on-path and never-served.
      sample: 5,
      seed: 15,
      grep: '(a member reads back its client id|an institution reads the same by code and by guid)',
      folders: ['api'],
      testsPerMutant: 2,
      confirm: false,
      workers: 2,
      out,
      log: () => {},
    });
    assert.equal(report.baseline.passed, 2, `the two scenarios pass on the clean target: ${JSON.stringify(report.baseline.failed)}`);
    assert.equal(report.outcomes.length, 5);
    for (const o of report.outcomes) {
      if (o.expect === 'killed') assert.equal(o.verdict, 'killed', `${o.id}: ${JSON.stringify(o)}`);
      else assert.equal(o.verdict, 'tolerated', `${o.id}: ${JSON.stringify(o.failures)}`);
      assert.ok(o.fired > 0, `${o.id} changed answers`);
    }
    assert.ok(report.outcomes.some((o) => o.expect === 'killed') && report.outcomes.some((o) => o.expect === 'tolerated'), 'the sample holds both kinds');
    assert.match(readFileSync(join(out, 'mutants.md'), 'utf8'), /## Score per family/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
