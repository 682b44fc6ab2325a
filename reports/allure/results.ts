/**
 * Writes Allure result files (the allure2 JSON format every Allure 3 reader takes)
 * for report entries that are not Playwright tests: k6 threshold verdicts and summary
 * figures, the self-test matrix, the version-upgrade check (DESIGN.md, "What it is for" 2 and 3). Each entry is a
 * `<uuid>-result.json` plus its attachments in the same results directory, beside the
 * ones allure-playwright writes.
 *
 * Callers pass text that is already free of credentials; `writeAllureEntry` redacts
 * once more with the run's redactor (defence in depth: secrets never land in reports/out).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../../targets/index.ts';

export type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';

export interface AllureAttachment {
  name: string;
  contentType: 'application/json' | 'text/markdown' | 'text/plain' | 'text/html' | 'text/csv';
  body: string;
}

export interface AllureEntry {
  /** Stable identity across runs: the history key of the entry. */
  fullName: string;
  name: string;
  status: AllureStatus;
  /** parentSuite / suite / subSuite shown in the report's tree. */
  parentSuite: string;
  suite?: string;
  subSuite?: string;
  severity?: 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';
  message?: string;
  trace?: string;
  description?: string;
  parameters?: Record<string, string | number>;
  labels?: Record<string, string>;
  attachments?: AllureAttachment[];
  startMs?: number;
  durationMs?: number;
}

const EXT: Record<AllureAttachment['contentType'], string> = {
  'application/json': 'json',
  'text/markdown': 'md',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/csv': 'csv',
};

export function writeAllureEntry(resultsDir: string, e: AllureEntry, redactor?: Redactor): string {
  mkdirSync(resultsDir, { recursive: true });
  const clean = (s: string | undefined) => (s === undefined ? undefined : redactor ? redactor.text(s) : s);
  const uuid = randomUUID();
  const start = e.startMs ?? Date.now();
  const attachments = (e.attachments ?? []).map((a) => {
    const source = `${randomUUID()}-attachment.${EXT[a.contentType]}`;
    writeFileSync(join(resultsDir, source), clean(a.body)!);
    return { name: a.name, type: a.contentType, source };
  });
  const labels = [
    { name: 'parentSuite', value: e.parentSuite },
    ...(e.suite ? [{ name: 'suite', value: e.suite }] : []),
    ...(e.subSuite ? [{ name: 'subSuite', value: e.subSuite }] : []),
    { name: 'severity', value: e.severity ?? 'normal' },
    { name: 'framework', value: 'svc-conformance' },
    ...Object.entries(e.labels ?? {}).map(([name, value]) => ({ name, value })),
  ];
  const historyId = createHash('md5').update(e.fullName).digest('hex');
  const result = {
    uuid,
    historyId,
    testCaseId: historyId,
    fullName: e.fullName,
    name: e.name,
    status: e.status,
    stage: 'finished',
    statusDetails: { message: clean(e.message), trace: clean(e.trace) },
    description: clean(e.description),
    labels,
    links: [],
    parameters: Object.entries(e.parameters ?? {}).map(([name, value]) => ({ name, value: clean(String(value)) })),
    attachments,
    steps: [],
    start,
    stop: start + Math.round(e.durationMs ?? 0),
  };
  writeFileSync(join(resultsDir, `${uuid}-result.json`), JSON.stringify(result));
  return uuid;
}
