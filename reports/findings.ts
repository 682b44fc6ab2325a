/**
 * Contract findings of a run, grouped by tier and check (../shared/DESIGN.md, "Checks and
 * failures": three tiers, each shown apart in every report). The reports' input is
 * declared here: the typed records each test attaches (FindingRecord, FINDINGS_ATTACHMENT;
 * written by scenarios/fixtures/findings.ts, the one writer), and read here once, with a
 * shape check, for every report that shows them: the console's tier summary and the
 * run-level HTML summary (reports/tier-summary-reporter.ts), the job summary, the nightly
 * summary (reports/summary.ts) and the verdict ledger.
 *
 * Every distinct finding is kept: the same finding in several tests (or at several indices
 * of one list, which the checked client already folds into "(and N more like it ...)") is
 * one entry that counts its tests and occurrences, never a dropped line.
 */
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { FAILURE_TEXT_FIELDS, failureText, type Failure, type Tier } from '../contracts/index.ts';
import { htmlText, markdownText } from './markdown.ts';

const TIERS: readonly Tier[] = ['stated', 'inferred', 'informational'];

const isTier = (x: unknown): x is Tier => TIERS.includes(x as Tier);

/**
 * One finding of a test as it travels from the test that saw it to every report
 * (../shared/DESIGN.md, "Checks and failures": each tier shown apart in every report):
 * either a check's Failure, or a scenario's own expectation (scenarios/inferred.ts, a
 * note of a scenario) in words. `occurrences` counts the same finding at other indices of
 * a list in the same test, folded into one.
 */
export type FindingRecord = { tier: Tier; occurrences: number; failure: Failure } | { tier: Tier; occurrences: number; note: string };

/**
 * The findings of one test travel as one JSON attachment of this name and media type,
 * written once when the test ends (scenarios/fixtures/findings.ts) and read by every report
 * through findingsOf, never parsed back out of the annotations' text.
 */
export const FINDINGS_ATTACHMENT = { name: 'contract findings', contentType: 'application/vnd.svc-conformance.findings+json' } as const;

/** The attachment's body: `{ "findings": [...] }`. */
export function findingsBody(findings: readonly FindingRecord[]): string {
  return JSON.stringify({ findings });
}

/** The findings of an attachment body; a body of another shape is refused naming the first field that is wrong. */
export function readFindings(body: string): FindingRecord[] {
  const parsed = JSON.parse(body) as unknown;
  const list = (parsed as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(list)) throw new Error(`${FINDINGS_ATTACHMENT.name}: the body has no "findings" list`);
  return list.map((x, i) => findingRecord(x, `${FINDINGS_ATTACHMENT.name}: findings[${i}]`));
}

function findingRecord(x: unknown, at: string): FindingRecord {
  const r = (x ?? {}) as Record<string, unknown>;
  if (!isTier(r.tier)) throw new Error(`${at}.tier must be one of ${TIERS.join(', ')}, got ${JSON.stringify(r.tier)}`);
  if (!Number.isInteger(r.occurrences) || (r.occurrences as number) < 1)
    throw new Error(`${at}.occurrences must be a whole number >= 1, got ${JSON.stringify(r.occurrences)}`);
  const tier = r.tier;
  const occurrences = r.occurrences as number;
  if (typeof r.note === 'string') return { tier, occurrences, note: r.note };
  const f = (r.failure ?? {}) as Record<string, unknown>;
  for (const k of FAILURE_TEXT_FIELDS) if (typeof f[k] !== 'string') throw new Error(`${at}.failure.${k} must be a string, got ${JSON.stringify(f[k])}`);
  if (f.severity !== 'error' && f.severity !== 'warning') throw new Error(`${at}.failure.severity must be error or warning, got ${JSON.stringify(f.severity)}`);
  if (f.tier !== undefined && !isTier(f.tier)) throw new Error(`${at}.failure.tier must be a tier, got ${JSON.stringify(f.tier)}`);
  return { tier, occurrences, failure: f as unknown as Failure };
}

/** What each tier means for the gate, as every report words it. */
export function tierMeaning(tier: Tier, strict: boolean): string {
  if (tier === 'stated') return 'a sentence of the specification is broken; fails the run';
  if (tier === 'inferred') return `reasonable but unstated; ${strict ? 'fails the run under SVC_STRICT=1' : 'not gating unless SVC_STRICT=1'}`;
  return 'non-breaking or not stated; never gating';
}

/** Findings no registered check raised: scenarios/inferred.ts and scenario-level notes. */
export const SCENARIO_CHECK = 'scenario expectations';

export interface TestFindings {
  /** Title path as a person reads it (`api/members.spec.ts › members › ...`). */
  title: string;
  /** Playwright's test id, for links into the HTML report (`index.html#?testId=`). */
  id?: string;
  findings: readonly FindingRecord[];
}

/** An attachment as reporters get it (a Buffer body) and as the JSON report holds it (decoded by the caller). */
export interface AttachmentLike {
  name: string;
  contentType: string;
  body?: Buffer;
}

/** The typed findings of one test result: its findings attachment, read and checked (readFindings). */
export function findingsOf(attachments: readonly AttachmentLike[]): FindingRecord[] {
  return attachments
    .filter((a) => a.name === FINDINGS_ATTACHMENT.name && a.contentType === FINDINGS_ATTACHMENT.contentType && a.body)
    .flatMap((a) => readFindings(a.body!.toString('utf8')));
}

/** Findings per tier of one test, counted as the reports count them (each distinct finding once). */
export function tierCounts(findings: readonly FindingRecord[]): Record<Tier, number> {
  const out: Record<Tier, number> = { stated: 0, inferred: 0, informational: 0 };
  for (const f of findings) out[f.tier]++;
  return out;
}

export interface Finding {
  tier: Tier;
  check: string;
  /** The finding under its check's name, as a person reads it (contracts failureText, or a scenario's words). */
  text: string;
  /** How often it was seen: once per test, plus the other indices the client folded. */
  occurrences: number;
  tests: { title: string; id?: string }[];
}

export interface CheckGroup {
  check: string;
  findings: Finding[];
}

export interface TierFindings {
  /** Distinct findings. */
  findings: number;
  occurrences: number;
  /** Tests with at least one finding of the tier. */
  tests: number;
  byCheck: CheckGroup[];
}

export type FindingsSummary = Record<Tier, TierFindings>;

/** A record's check and the words the reports list it with. */
function checkAndText(r: FindingRecord): { check: string; text: string } {
  return 'failure' in r ? { check: r.failure.check, text: failureText(r.failure) } : { check: SCENARIO_CHECK, text: r.note };
}

/** The same finding at another index of a list is the same finding. */
const indexFree = (text: string) => text.replace(/\[\d+\]/g, '[*]');

export function summariseFindings(tests: Iterable<TestFindings>): FindingsSummary {
  const found = new Map<string, Finding & { variants: Set<string> }>();
  const testsPerTier = Object.fromEntries(TIERS.map((t) => [t, new Set<string>()])) as Record<Tier, Set<string>>;
  for (const t of tests) {
    // One test's records are distinct already (the writer folds them): each once per test.
    const seen = new Set<string>();
    for (const r of t.findings) {
      const { tier } = r;
      const { check, text } = checkAndText(r);
      const key = `${tier}\u0000${check}\u0000${indexFree(text)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      testsPerTier[tier].add(t.id ?? t.title);
      const entry = found.get(key) ?? { tier, check, text, occurrences: 0, tests: [], variants: new Set<string>() };
      entry.occurrences += r.occurrences;
      entry.variants.add(text);
      entry.tests.push({ title: t.title, ...(t.id ? { id: t.id } : {}) });
      found.set(key, entry);
    }
  }
  const out = {} as FindingsSummary;
  for (const tier of TIERS) {
    const byCheck = new Map<string, Finding[]>();
    for (const { variants, ...f } of found.values()) {
      if (f.tier !== tier) continue;
      // Seen at different indices: show the index-free form rather than one of them.
      const finding = variants.size > 1 ? { ...f, text: indexFree(f.text) } : f;
      byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), finding]);
    }
    const groups = [...byCheck].map(([check, findings]) => ({
      check,
      findings: findings.sort((a, b) => b.tests.length - a.tests.length || a.text.localeCompare(b.text)),
    }));
    groups.sort((a, b) => b.findings.length - a.findings.length || a.check.localeCompare(b.check));
    const findings = groups.flatMap((g) => g.findings);
    out[tier] = { findings: findings.length, occurrences: findings.reduce((n, f) => n + f.occurrences, 0), tests: testsPerTier[tier].size, byCheck: groups };
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line of counts per tier, e.g. for the HTML report's title. */
export function countsLine(s: FindingsSummary): string {
  return TIERS.map((t) => `${s[t].findings} ${t}`).join(' · ');
}

export interface ConsoleOptions {
  strict: boolean;
  /** Where the run-level HTML summary was written (named at the end). */
  summaryFile?: string;
  /** Test titles shown per finding before "and N more tests" (the findings themselves are never cut). */
  testsShown?: number;
}

function testsLine(f: Finding, shown: number): string {
  const titles = f.tests.slice(0, shown).map((t) => t.title);
  const rest = f.tests.length - titles.length;
  const times = f.occurrences > f.tests.length ? `, ${f.occurrences} occurrences` : '';
  if (f.tests.length === 1) return `in ${titles[0]}${times}`;
  return `in ${f.tests.length} tests${times}: ${titles.join('; ')}${rest ? `; and ${plural(rest, 'more test')}` : ''}`;
}

/**
 * The console's tier summary: counts per tier, then EVERY distinct finding, grouped by
 * tier and check, each in full with the tests that show it.
 */
export function renderFindingsText(s: FindingsSummary, o: ConsoleOptions): string {
  const shown = o.testsShown ?? 3;
  const width = Math.max(...TIERS.map((t) => t.length));
  const lines = ['', 'Contract findings by tier:'];
  for (const t of TIERS) {
    const x = s[t];
    lines.push(
      `  ${t.padEnd(width)}  ${x.findings ? `${plural(x.findings, 'finding')} in ${plural(x.tests, 'test')}` : '0 findings'} - ${tierMeaning(t, o.strict)}`,
    );
  }
  for (const t of TIERS) {
    if (!s[t].findings) continue;
    lines.push('', `${t} (${plural(s[t].findings, 'finding')}):`);
    for (const g of s[t].byCheck) {
      lines.push(`  ${g.check} (${g.findings.length}):`);
      for (const f of g.findings) lines.push(`    - ${f.text}`, `        ${testsLine(f, shown)}`);
    }
  }
  if (o.summaryFile)
    lines.push('', `Every finding with links to its tests: ${o.summaryFile} (in the HTML report, filter annot:stated, annot:inferred or annot:informational)`);
  return `${lines.join('\n')}\n`;
}

/** The nightly summary's findings sections (Markdown): every distinct finding, grouped. */
export function renderFindingsMarkdown(s: FindingsSummary, o: { strict: boolean; testsShown?: number }): string[] {
  const shown = o.testsShown ?? 3;
  const lines: string[] = [];
  for (const t of TIERS) {
    if (!s[t].findings) continue;
    lines.push(`## ${t[0].toUpperCase()}${t.slice(1)} findings: ${s[t].findings} (${tierMeaning(t, o.strict)})`, '');
    for (const g of s[t].byCheck) {
      lines.push(`- **${markdownText(g.check)}** (${g.findings.length})`);
      for (const f of g.findings) lines.push(`  - ${markdownText(f.text)} — _${markdownText(testsLine(f, shown))}_`);
    }
    lines.push('');
  }
  return lines;
}

/**
 * The run-level tier summary beside the Playwright HTML report (its index.html in the same
 * folder): counts, then every finding with a link to each test that shows it
 * (`index.html#?testId=`) and per tier a link to the report filtered on that tier's
 * annotation (`annot:<tier>`). Self-contained: no script, no external resource.
 */
export function renderFindingsHtml(s: FindingsSummary, o: { strict: boolean; title?: string; reportIndex?: string }): string {
  const index = o.reportIndex ?? 'index.html';
  const filter = (t: Tier) => `${index}#?q=${encodeURIComponent(`annot:${t}`)}`;
  const testLink = (t: { title: string; id?: string }) =>
    t.id ? `<a href="${htmlText(`${index}#?testId=${encodeURIComponent(t.id)}`)}">${htmlText(t.title)}</a>` : htmlText(t.title);
  const rows = TIERS.map(
    (t) =>
      `<tr><th><a href="${htmlText(filter(t))}">${t}</a></th><td>${s[t].findings}</td><td>${s[t].occurrences}</td><td>${s[t].tests}</td><td>${htmlText(tierMeaning(t, o.strict))}</td></tr>`,
  );
  const sections: string[] = [];
  for (const t of TIERS) {
    if (!s[t].findings) continue;
    sections.push(`<h2 id="${t}">${t}: ${plural(s[t].findings, 'finding')} in ${plural(s[t].tests, 'test')}</h2>`);
    for (const g of s[t].byCheck) {
      const items = g.findings.map((f) => {
        const times = f.occurrences > f.tests.length ? ` (${f.occurrences} occurrences)` : '';
        return `<li><p>${htmlText(f.text)}</p><p class="tests">${plural(f.tests.length, 'test')}${times}: ${f.tests.map(testLink).join(' · ')}</p></li>`;
      });
      sections.push(`<details open><summary><strong>${htmlText(g.check)}</strong> (${g.findings.length})</summary><ul>${items.join('')}</ul></details>`);
    }
  }
  const title = o.title ?? 'Contract findings by tier';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${htmlText(title)}</title><style>
body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
li{margin:.4em 0}li p{margin:0;overflow-wrap:anywhere}.tests{color:#555;font-size:.92em}summary{cursor:pointer;margin:.6em 0}
</style></head><body><h1>${htmlText(title)}</h1>
<p><a href="${htmlText(index)}">The Playwright HTML report</a>. Each tier's name filters it to the tests with such a finding.</p>
<table><thead><tr><th>tier</th><th>findings</th><th>occurrences</th><th>tests</th><th>what it means</th></tr></thead><tbody>${rows.join('')}</tbody></table>
${sections.join('\n') || '<p>No contract finding in this run.</p>'}
</body></html>
`;
}

/*
 * The run's findings, shared by the reporters of one run (Playwright makes every reporter
 * of a run in one process): each reporter that shows findings (the tier summary, the job
 * summary) records what it sees into one RunFindings and reads the summary from it, in
 * whatever order the reporters run, instead of handing values on through the environment.
 * Only the last attempt of a retried test counts.
 */

/** `[project] file › describe › title`, as Playwright's list reporter names a test. */
export function testTitle(test: TestCase): string {
  const [, project, ...rest] = test.titlePath();
  return `${project ? `[${project}] ` : ''}${rest.filter(Boolean).join(' › ')}`;
}

export class RunFindings {
  /** test id -> its latest attempt's findings */
  private readonly latest = new Map<string, TestFindings>();
  private summarised: FindingsSummary | undefined;

  /** A run begins: nothing of an earlier run in the same process counts. */
  begin(): void {
    this.latest.clear();
    this.summarised = undefined;
  }

  /** A test's attempt ended (every reporter may record it: the last attempt replaces the earlier ones). */
  record(test: TestCase, result: TestResult): void {
    this.latest.set(test.id, { title: testTitle(test), id: test.id, findings: findingsOf(result.attachments) });
    this.summarised = undefined;
  }

  summary(): FindingsSummary {
    this.summarised ??= summariseFindings(this.latest.values());
    return this.summarised;
  }
}

/** The run's one RunFindings (a unit test gives its reporter its own). */
export const RUN_FINDINGS = new RunFindings();
