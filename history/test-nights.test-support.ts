/**
 * Nights made from answers, for the history's unit tests: each answer goes through the same
 * reading a run makes (contracts/served.ts servedOf) and the same building (history/night.ts
 * buildNight), so a test states what the target served and what the scenarios were, nothing
 * else.
 */
import { servedOf, type Observation } from '../contracts/index.ts';
import type { VerdictLine } from '../reports/verdict-reporter.ts';
import { buildNight, type Night } from './night.ts';

export interface Answer {
  operation?: string;
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The scenario that got it (the observation's source). */
  source?: string;
  ms?: number;
  query?: string;
}

const TARGET_URL = 'http://127.0.0.1:4999';

/** The night of these answers and verdicts, on day `day` (2030-01-<day>). */
export function nightOf(day: number, answers: readonly Answer[], verdicts: Partial<VerdictLine>[] = [], runId = `run${day}`): Night {
  const observations: Observation[] = answers.map((a, i) => ({
    seq: i + 1,
    at: [0, a.ms ?? 10],
    source: a.source ?? 'reads an institution',
    target: TARGET_URL,
    api: 'platform',
    version: 'v20250224',
    method: 'GET',
    operation: a.operation ?? 'GET /institutions/{institution_code}',
    path: '/institutions/x',
    query: a.query ?? '',
    status: a.status ?? 200,
    served: servedOf(a.body, a.headers ?? { 'content-type': 'application/json' }, a.ms ?? 10),
  }));
  const lines: VerdictLine[] = verdicts.map((v) => ({
    name: `institutions.spec.ts › ${v.source ?? 'reads an institution'}`,
    source: v.source ?? 'reads an institution',
    project: 'api',
    outcome: 'expected',
    durationMs: 100,
    tags: ['@institutions'],
    tiers: { stated: 0, inferred: 0, informational: 0 },
    ...v,
  }));
  const at = new Date(Date.UTC(2030, 0, day, 2, 0, 0));
  return buildNight({ target: { target: TARGET_URL, embedded: false, runId }, observations, verdicts: lines, cut: 0 }, { at }).night;
}
