/**
 * The mutation report: score per family and per specification section, every surviving
 * mutant with the statement it breaks, every tolerated mutant that made a scenario fail
 * (a false alarm), the exclusions with their reasons, and the run's wall time and load.
 *
 * Score: killed / (killed + survived + unreached) over the stated mutants. A mutant whose
 * reaching scenarios ran but which never changed an answer ("not applied": the target never
 * showed what it mutates in this run) is left out of the score and listed, and so is a field
 * left out on one operation that no scenario reads the same record through another operation
 * before ("not observable": a comparison of two answers is the only way to see it), with the
 * reason.
 */
import { STATED_FAMILIES, TOLERATED_FAMILIES, type Exclusion, type Family } from './model.ts';
import { markdownText } from '../../reports/markdown.ts';

export type Verdict = 'killed' | 'survived' | 'unreached' | 'not-applied' | 'not-observable' | 'tolerated' | 'false-alarm';

export interface MutantOutcome {
  id: string;
  family: Family;
  expect: 'killed' | 'tolerated';
  section: string;
  statement: string;
  rows: string[];
  verdict: Verdict;
  /** Baseline scenarios whose answers it changes. */
  reaching: number;
  /** Scenarios it ran. */
  ran: string[];
  /** Answers it changed. */
  fired: number;
  failures: Array<{ test: string; error: string }>;
  runError?: string;
  /** Why a mutant is left out of the score (not-observable). */
  reason?: string;
}

export interface MutantsReport {
  generatedAt: string;
  wallTimeMs: number;
  machine: { cores: number; loadAverageStart: number[]; loadAverageEnd: number[] };
  options: Record<string, unknown>;
  generated: number;
  baseline: { scenarios: number; passed: number; failed: Array<{ title: string; error: string }>; durationMs: number };
  outcomes: MutantOutcome[];
  exclusions: Exclusion[];
}

export interface Score {
  killed: number;
  scored: number;
  survived: number;
  unreached: number;
  notApplied: number;
  notObservable: number;
  ratio: number;
}

export function scoreOf(outcomes: readonly MutantOutcome[]): Score {
  const stated = outcomes.filter((o) => o.expect === 'killed');
  const killed = stated.filter((o) => o.verdict === 'killed').length;
  const survived = stated.filter((o) => o.verdict === 'survived').length;
  const unreached = stated.filter((o) => o.verdict === 'unreached').length;
  const notApplied = stated.filter((o) => o.verdict === 'not-applied').length;
  const notObservable = stated.filter((o) => o.verdict === 'not-observable').length;
  const scored = killed + survived + unreached;
  return { killed, scored, survived, unreached, notApplied, notObservable, ratio: scored ? killed / scored : 1 };
}

const pct = (s: Score) => (s.scored ? `${((100 * s.killed) / s.scored).toFixed(1)}%` : 'n/a');

export function summaryLine(r: MutantsReport): string {
  const s = scoreOf(r.outcomes);
  const tolerated = r.outcomes.filter((o) => o.expect === 'tolerated');
  const alarms = tolerated.filter((o) => o.verdict === 'false-alarm').length;
  return `mutation score ${pct(s)} (${s.killed} of ${s.scored} stated mutants killed; ${s.survived} survived, ${s.unreached} unreached, ${s.notApplied} not applied, ${s.notObservable} not observable); tolerated ${tolerated.length - alarms} of ${tolerated.length} (${alarms} false alarms); ${(r.wallTimeMs / 1000).toFixed(0)} s`;
}

export function renderMarkdown(r: MutantsReport): string {
  const lines: string[] = [];
  const s = scoreOf(r.outcomes);
  lines.push('# Response mutants', '');
  lines.push(summaryLine(r), '');
  lines.push(
    `Generated ${r.generated} mutants; this run: ${r.outcomes.length}${r.options.sample !== undefined ? ` (seeded sample of ${r.options.sample}, seed ${r.options.seed})` : ''}. Wall time ${(r.wallTimeMs / 1000).toFixed(1)} s on ${r.machine.cores} cores, load average ${r.machine.loadAverageStart.join(' / ')} at start, ${r.machine.loadAverageEnd.join(' / ')} at the end. Baseline: ${r.baseline.passed} of ${r.baseline.scenarios} scenarios passed (${(r.baseline.durationMs / 1000).toFixed(1)} s).`,
    '',
  );
  lines.push(
    '## Score per family',
    '',
    '| family | mutants | killed | survived | unreached | not applied | not observable | score |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const f of STATED_FAMILIES) {
    const list = r.outcomes.filter((o) => o.family === f);
    if (!list.length) continue;
    const fs = scoreOf(list);
    lines.push(`| ${f} | ${list.length} | ${fs.killed} | ${fs.survived} | ${fs.unreached} | ${fs.notApplied} | ${fs.notObservable} | ${pct(fs)} |`);
  }
  lines.push(
    `| **all stated** | ${r.outcomes.filter((o) => o.expect === 'killed').length} | ${s.killed} | ${s.survived} | ${s.unreached} | ${s.notApplied} | ${s.notObservable} | **${pct(s)}** |`,
    '',
  );
  lines.push('## Tolerated mutants', '', '| family | mutants | passed | false alarms |', '|---|---|---|---|');
  for (const f of TOLERATED_FAMILIES) {
    const list = r.outcomes.filter((o) => o.family === f);
    if (!list.length) continue;
    lines.push(
      `| ${f} | ${list.length} | ${list.filter((o) => o.verdict === 'tolerated').length} | ${list.filter((o) => o.verdict === 'false-alarm').length} |`,
    );
  }
  lines.push('');
  const tolerated = r.outcomes.filter((o) => o.expect === 'tolerated');
  if (tolerated.length) {
    lines.push('Every tolerated mutant, with the scenarios it ran (each passed, or passed on its retry, unless a false alarm):', '');
    for (const o of tolerated)
      lines.push(`- ${o.id}: ${o.verdict === 'false-alarm' ? '**false alarm**' : 'passed'} (${o.ran.length} scenarios, ${o.fired} answers changed)`);
    lines.push('');
  }
  lines.push('## Score per specification section', '', '| section | mutants | killed | score |', '|---|---|---|---|');
  const sections = [...new Set(r.outcomes.filter((o) => o.expect === 'killed').map((o) => o.section))].sort();
  for (const sec of sections) {
    const list = r.outcomes.filter((o) => o.expect === 'killed' && o.section === sec);
    const ss = scoreOf(list);
    lines.push(`| ${markdownText(sec)} | ${list.length} | ${ss.killed} | ${pct(ss)} |`);
  }
  lines.push('');
  const survivors = r.outcomes.filter((o) => o.expect === 'killed' && (o.verdict === 'survived' || o.verdict === 'unreached'));
  lines.push(`## Survivors (${survivors.length})`, '');
  for (const o of survivors) {
    lines.push(
      `- **${o.id}** (${o.verdict}; ${o.reaching} reaching scenarios, ran ${o.ran.length}, changed ${o.fired} answers)`,
      `  - ${o.section}: ${o.statement}`,
    );
    if (o.runError) lines.push(`  - run error: ${markdownText(o.runError)}`);
  }
  lines.push('');
  const alarms = r.outcomes.filter((o) => o.verdict === 'false-alarm');
  lines.push(`## False alarms (${alarms.length})`, '');
  for (const o of alarms) {
    lines.push(`- **${o.id}**: ${o.statement}`);
    for (const f of o.failures.slice(0, 8)) lines.push(`  - ${markdownText(`${f.test}: ${f.error}`)}`);
  }
  lines.push('');
  const notApplied = r.outcomes.filter((o) => o.verdict === 'not-applied');
  if (notApplied.length) {
    lines.push(`## Not applied (${notApplied.length}): the reaching scenarios ran but the target's answers never carried what the mutant changes`, '');
    for (const o of notApplied) lines.push(`- ${o.id}`);
    lines.push('');
  }
  const notObservable = r.outcomes.filter((o) => o.verdict === 'not-observable');
  if (notObservable.length) {
    lines.push(
      `## Not observable (${notObservable.length}): a field left out on one operation that no scenario reads the same record through another operation before`,
      '',
    );
    for (const o of notObservable) lines.push(`- ${o.id}: ${o.reason ?? ''}`);
    lines.push('');
  }
  if (r.baseline.failed.length) {
    lines.push(`## Baseline failures (${r.baseline.failed.length}): these scenarios neither kill nor alarm`, '');
    for (const f of r.baseline.failed) lines.push(`- ${markdownText(`${f.title}: ${f.error}`)}`);
    lines.push('');
  }
  lines.push(`## Left out by the generator (${r.exclusions.length})`, '');
  for (const e of r.exclusions) lines.push(`- ${e.subject} (${e.family}): ${e.reason}`);
  lines.push('');
  lines.push('## Killed', '', '| mutant | killed by |', '|---|---|');
  for (const o of r.outcomes.filter((x) => x.verdict === 'killed'))
    lines.push(`| ${markdownText(o.id)} | ${markdownText(o.failures[0]?.test ?? '')}: ${markdownText((o.failures[0]?.error ?? '').slice(0, 160))} |`);
  lines.push('');
  return lines.join('\n');
}
