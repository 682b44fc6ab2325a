/**
 * The run's last test (the `invariants` project, the teardown of every scenario project:
 * playwright.config.ts): the run-wide invariants of contracts/invariants.ts over the
 * answers of EVERY worker together. Each worker already judged what it saw itself and failed
 * the test that showed a disagreement (scenarios/fixtures/run-ledger.ts); what is left to
 * find here is a disagreement between answers that different workers read: a field one
 * worker's read served and another's omitted, one record on two pages read by two tests, a
 * deprecation header name one worker learned and another's answer lacked.
 *
 * It sends no request. Findings already reported in a test are not reported again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, noteFailures, noteFinding } from '../fixtures.ts';
import { formatFailure, judgeRun, type Observation } from '../../contracts/index.ts';
import { runSettings } from '../../targets/index.ts';
import { invariantOptionsOf, type LedgerLine } from '../fixtures/run-ledger.ts';

/** A change outside the contract's operations, read as a write that names these records. */
function writeObservation(w: Extract<LedgerLine, { write: unknown }>['write']): Observation {
  return {
    seq: w.seq,
    at: [w.at, w.at],
    target: w.target,
    api: 'platform',
    method: 'POST',
    operation: '(a change outside the contract: simulator control)',
    path: '',
    query: '',
    status: 200,
    params: Object.fromEntries(w.ids.map((id, i) => [String(i), id])),
  };
}

test(
  'run-wide invariants: every answer of the run agrees with every other (presence, two reads, round trips, pages, signals)',
  { tag: ['@readonly', '@invariants'] },
  async ({ profile }, testInfo) => {
    const dir = runSettings().runLedgerDir;
    test.skip(!dir || !existsSync(dir), 'no run ledger: nothing of this run was recorded (every worker judged what it saw itself)');
    const observations: Observation[] = [];
    const reported: string[] = [];
    let cut = 0;
    // One file per worker, named by its process id (scenarios/fixtures/run-ledger.ts).
    const files = readdirSync(dir!).filter((f) => /^\d+\.jsonl$/.test(f));
    for (const file of files) {
      for (const text of readFileSync(join(dir!, file), 'utf8').split('\n')) {
        if (!text) continue;
        const line = JSON.parse(text) as LedgerLine;
        if ('o' in line) {
          observations.push(line.o);
          if (line.reported) reported.push(...line.reported);
        } else if ('write' in line) observations.push(writeObservation(line.write));
        else if ('cut' in line) cut++;
      }
    }
    testInfo.annotations.push({
      type: 'observed',
      description: `${observations.length} answers of ${files.length} workers; ${reported.length} findings already reported by their tests`,
    });
    if (cut)
      noteFinding(
        testInfo,
        'informational',
        `${cut} worker(s) stopped recording at the ledger's bound: their later answers were judged only in their own worker`,
      );
    const found = judgeRun(observations, invariantOptionsOf(profile), reported);
    noteFailures(
      testInfo,
      found.map((f) => f.failure),
    );
    const errors = found.filter((f) => f.failure.severity === 'error');
    expect(
      errors.map((f) => formatFailure(f.failure)),
      'disagreements between answers that different tests read',
    ).toEqual([]);
  },
);
