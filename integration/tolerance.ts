/**
 * Tolerance of every freedom the specification leaves (../shared/DESIGN.md, "What it is
 * for" 4): the team's own test command, run once against the embedded simulator as it is
 * (the baseline) and once per catalogue variation in force (targets/simulator/catalog.ts:
 * each a legitimate behaviour of a real service — another success status where none is
 * stated, a null, a new enum value, a page of 25 when 5 were asked, an intermediate
 * connection status ...). A variation under which the command fails is one the
 * integration cannot handle; the matrix names it with the freedom it rests on, as the
 * self-test does for the suite itself (proof/selftest.ts).
 *
 * Each run gets its own simulator (startTarget with that one variation) and the target's
 * variables (integration/command.ts commandEnv, SVC_VARIATION naming the variation),
 * is bounded (`timeoutMs`, its process group killed at the bound) and, when it fails, is
 * run once more: failing twice is FAIL, passing the second time FLAKY (reported, not
 * gating). A baseline that fails stops the matrix: every variation would fail with it. So
 * does a baseline during which the command sent no request to the simulator: every
 * variation's pass would be vacuous, and a gate that checked nothing is not green
 * (`checkedNothing`; `--allow-empty` runs the matrix anyway and passes it, saying so).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogEntry, createRedactor, profileSecrets, startTarget, VARIATIONS, type TargetProfile } from '../targets/index.ts';
import { markdownCode, markdownText, markdownToHtml, xmlText as xml } from '../reports/markdown.ts';
import { commandEnv, runCommand, type CommandRun } from './command.ts';
import { IntegrationInputError } from './har.ts';
import type { CheckedNothing } from './judge.ts';
import { checkedNothingMessage } from './report.ts';

type Env = Record<string, string | undefined>;

export type ToleranceOutcome = 'pass' | 'FAIL' | 'TIMEOUT' | 'FLAKY';

export interface ToleranceRow {
  /** A catalogue variation, or `baseline` (none in force). */
  variation: string;
  area?: string;
  /** The freedom: the section (and sentence) of the specification the variation plays. */
  section?: string;
  description?: string;
  outcome: ToleranceOutcome;
  attempts: number;
  durationMs: number;
  exitCode: number | null;
  /** HTTP requests the command sent to the simulator on its last attempt. */
  requests: number;
  /** The end of the command's output on its last failing attempt (redacted). */
  tail?: string;
}

export interface ToleranceReport {
  command: string;
  baseline: ToleranceRow;
  rows: ToleranceRow[];
  wallMs: number;
  /** Variations that break the integration (FAIL or TIMEOUT): the gate. */
  breaking: string[];
  flaky: string[];
  timeoutMs: number;
  /** A stop this process received (Ctrl-C): the matrix ended there, the rows decided so far kept. */
  stoppedBy?: string;
  /** The baseline passed without the command sending any request to the simulator: the gate checked nothing. */
  checkedNothing?: CheckedNothing;
}

export interface ToleranceOptions {
  command: readonly string[];
  /** Settings (config file and environment). */
  env: Env;
  /** Variations to run (default: every one of the catalogue). */
  variations?: readonly string[];
  /** Bound on one run of the command. */
  timeoutMs: number;
  /** Runs at once, each with its own simulator (default 1: a team's tests may not run side by side). */
  concurrency?: number;
  /** Runs again of a failing variation (default 1). */
  retries?: number;
  cwd: string;
  /** A baseline during which the command sent no request passes, saying so, and the variations run (default: it fails). */
  allowEmpty?: boolean;
  /** Each row as it is decided (the console's progress). */
  onRow?: (row: ToleranceRow) => void;
}

/** A command line as a person reads it. */
const commandText = (argv: readonly string[]) => argv.map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a)).join(' ');

export async function runTolerance(o: ToleranceOptions): Promise<ToleranceReport> {
  if (!o.command.length) throw new IntegrationInputError('give the test command after --, e.g. svc-conformance tolerance -- npm test');
  const all = VARIATIONS().map((v) => v.name);
  const asked = o.variations?.length ? [...new Set(o.variations.flatMap((v) => (v === 'all' ? all : [v])))] : all;
  const unknown = asked.filter((v) => catalogEntry(v)?.kind !== 'variation');
  if (unknown.length) throw new IntegrationInputError(`unknown variation(s) ${unknown.join(', ')}; svc-conformance simulator --list names them`);
  // The matrix is about the catalogue's variations alone: none of the settings' own faults or variations, and the embedded simulator even when a real target is configured.
  const simulatorEnv: Env = { ...o.env, SVC_SIM_FAULTS: undefined, SVC_SIM_VARIATIONS: undefined };
  const retries = o.retries ?? 1;
  const started = performance.now();
  let secrets: string[] = [];
  let stoppedBy: string | undefined;

  const attempt = async (variation: string | undefined): Promise<CommandRun & { requests: number }> => {
    const target = await startTarget({ env: simulatorEnv, variations: variation ? [variation] : [], simulator: true });
    try {
      secrets = profileSecrets(target.profile);
      const run = await runCommand(o.command, {
        env: commandEnv(process.env, { baseUrl: target.url, profile: target.profile as TargetProfile, variation: variation ?? '' }),
        cwd: o.cwd,
        timeoutMs: o.timeoutMs,
      });
      return { ...run, requests: target.simulator!.requests() };
    } finally {
      await target.close();
    }
  };
  const runRow = async (variation: string | undefined): Promise<ToleranceRow> => {
    const entry = variation ? catalogEntry(variation) : undefined;
    let attempts = 0;
    let durationMs = 0;
    let last: CommandRun & { requests: number };
    let failedOnce = false;
    for (;;) {
      last = await attempt(variation);
      attempts++;
      durationMs += last.durationMs;
      if (last.stoppedBy) stoppedBy = last.stoppedBy;
      const ok = !last.timedOut && last.code === 0;
      if (ok || stoppedBy) break;
      failedOnce = true;
      if (attempts > retries) break;
    }
    const ok = !last.timedOut && last.code === 0;
    const outcome: ToleranceOutcome = ok ? (failedOnce ? 'FLAKY' : 'pass') : last.timedOut ? 'TIMEOUT' : 'FAIL';
    const row: ToleranceRow = {
      variation: variation ?? 'baseline',
      ...(entry ? { area: entry.area, section: entry.section, description: entry.description } : {}),
      outcome,
      attempts,
      durationMs,
      exitCode: last.code,
      requests: last.requests,
      ...(outcome !== 'pass' ? { tail: createRedactor(secrets).text(last.tail) } : {}),
    };
    o.onRow?.(row);
    return row;
  };

  const baseline = await runRow(undefined);
  const rows: ToleranceRow[] = [];
  const baselinePassed = (baseline.outcome === 'pass' || baseline.outcome === 'FLAKY') && !stoppedBy;
  const checkedNothing: CheckedNothing | undefined =
    baselinePassed && baseline.requests === 0
      ? {
          cause: `the test command exited ${baseline.exitCode} without sending any request to the embedded simulator during the baseline run, so its pass under any variation would say nothing`,
          remedy: "Send the test command's requests to SVC_BASE_URL (or BASE_URL), the simulator's URL the command is given",
          allowed: !!o.allowEmpty,
        }
      : undefined;
  if (baselinePassed && (!checkedNothing || checkedNothing.allowed)) {
    const queue = [...asked];
    const byName = new Map<string, ToleranceRow>();
    const worker = async () => {
      for (let v = queue.shift(); v !== undefined && !stoppedBy; v = queue.shift()) {
        const row = await runRow(v);
        // A run a stop cut short decides nothing about its variation.
        if (!stoppedBy) byName.set(v, row);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 1, asked.length)) }, worker));
    for (const v of asked) if (byName.has(v)) rows.push(byName.get(v)!);
  }
  return {
    command: commandText(o.command),
    baseline,
    rows,
    wallMs: performance.now() - started,
    breaking: rows.filter((r) => r.outcome === 'FAIL' || r.outcome === 'TIMEOUT').map((r) => r.variation),
    flaky: rows.filter((r) => r.outcome === 'FLAKY').map((r) => r.variation),
    timeoutMs: o.timeoutMs,
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(checkedNothing ? { checkedNothing } : {}),
  };
}

/** 0 when the baseline passes having sent a request (or --allow-empty) and no variation breaks the command, else 1. */
export function toleranceExitCode(r: ToleranceReport): 0 | 1 {
  const empty = r.checkedNothing !== undefined && !r.checkedNothing.allowed;
  return r.stoppedBy || empty || r.baseline.outcome === 'FAIL' || r.baseline.outcome === 'TIMEOUT' || r.breaking.length ? 1 : 0;
}

/** The lines of a failing run worth showing: assertion and error lines, else the last ones. */
export function tellingLines(tail: string | undefined, max = 6): string[] {
  const lines = (tail ?? '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  // node --test (TAP): `not ok`, `error: '...'`; Jest, Mocha, Playwright: `Error:`, `AssertionError`, `✕`, `failed`.
  const telling = lines.filter((l) => /(\bnot ok\b|\berror:|\bError\b|AssertionError|\bfailed\b|\bFAIL\b|✕|✘)/.test(l));
  return (telling.length ? telling : lines).slice(-max).map((l) => (l.length > 240 ? `${l.slice(0, 240)}…` : l));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function rowLine(r: ToleranceRow): string {
  return `  ${r.variation.padEnd(40)} ${r.outcome.padEnd(8)} ${seconds(r.durationMs).padStart(7)}${r.attempts > 1 ? `  (${r.attempts} runs)` : ''}${r.outcome === 'FAIL' ? `  exit ${r.exitCode}` : ''}`;
}

/** The console's matrix; `rows: false` when each row was already printed as it was decided. */
export function toleranceConsoleLines(r: ToleranceReport, o: { rows?: boolean } = {}): string[] {
  const lines = [
    `tolerance of \`${r.command}\`: the embedded simulator without any variation, then once per variation (${r.rows.length}); each run bounded at ${seconds(r.timeoutMs)}`,
  ];
  const counts = (['pass', 'FAIL', 'TIMEOUT', 'FLAKY'] as const)
    .map((k) => [k, r.rows.filter((x) => x.outcome === k).length] as const)
    .filter(([, n]) => n > 0);
  if (o.rows === false)
    lines.push(`  baseline ${r.baseline.outcome}; ${r.rows.length} variation(s): ${counts.map(([k, n]) => `${n} ${k}`).join(', ') || 'none run'}`);
  else lines.push(rowLine(r.baseline));
  if (r.baseline.outcome === 'FAIL' || r.baseline.outcome === 'TIMEOUT') {
    lines.push(
      '',
      'The command fails without any variation in force: fix that first (the matrix would blame every variation).',
      ...tellingLines(r.baseline.tail).map((l) => `    ${l}`),
    );
    return lines;
  }
  if (r.checkedNothing) {
    lines.push('', checkedNothingMessage(r.checkedNothing));
    if (!r.checkedNothing.allowed) return lines;
  }
  if (o.rows !== false) for (const row of r.rows) lines.push(rowLine(row));
  lines.push('');
  if (r.breaking.length) {
    lines.push(`Breaks the integration: ${r.breaking.length} of ${r.rows.length} legitimate freedoms`);
    for (const row of r.rows.filter((x) => r.breaking.includes(x.variation))) {
      lines.push(
        `  - ${row.variation} (${row.area}): ${row.description}`,
        `      the freedom: ${row.section}`,
        ...tellingLines(row.tail).map((l) => `      | ${l}`),
      );
    }
  } else if (!r.stoppedBy) lines.push(`Tolerates all ${r.rows.length} variations.`);
  if (r.flaky.length) lines.push(`Flaky (failed, then passed when run again; not gating): ${r.flaky.join(', ')}`);
  if (r.stoppedBy) lines.push(`Stopped by ${r.stoppedBy}: ${r.rows.length} variation(s) decided, the rest not run.`);
  lines.push(`Wall time ${seconds(r.wallMs)}.`);
  return lines;
}

function toleranceMarkdown(r: ToleranceReport): string {
  const gate = toleranceExitCode(r) ? 'FAIL' : 'pass';
  const lines = [
    `# Tolerance matrix: ${gate}`,
    '',
    `Command ${markdownCode(r.command, 'text')}, run against the embedded simulator without any variation (baseline: **${r.baseline.outcome}**) and once per catalogue variation, each a freedom the specification leaves. Each run bounded at ${seconds(r.timeoutMs)}; wall time ${seconds(r.wallMs)}.`,
    '',
    ...(r.checkedNothing ? [`**${markdownText(checkedNothingMessage(r.checkedNothing))}**`, ''] : []),
    r.breaking.length
      ? `**Breaks the integration: ${r.breaking.join(', ')}.**`
      : r.stoppedBy
        ? `**Stopped by ${r.stoppedBy} after ${r.rows.length} variation(s).**`
        : r.rows.length
          ? `**Tolerates all ${r.rows.length} variations.**`
          : r.checkedNothing
            ? '**No variation was run.**'
            : '**The baseline failed: no variation was run.**',
    '',
    '| variation | outcome | area | the freedom | time |',
    '|---|---|---|---|---|',
    `| baseline | ${r.baseline.outcome} | | no variation in force | ${seconds(r.baseline.durationMs)} |`,
    ...r.rows.map(
      (x) =>
        `| ${x.variation} | ${x.outcome === 'pass' ? 'pass' : `**${x.outcome}**`} | ${x.area ?? ''} | ${markdownText(x.section)} | ${seconds(x.durationMs)} |`,
    ),
    '',
  ];
  for (const x of [r.baseline, ...r.rows].filter((row) => row.outcome !== 'pass')) {
    lines.push(
      `## ${x.variation}: ${x.outcome}`,
      '',
      x.description ? `${x.description}.` : '',
      '',
      ...tellingLines(x.tail, 20).map((l) => `- ${markdownCode(l, 'text')}`),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

export function toleranceJunit(r: ToleranceReport): string {
  const cases = [r.baseline, ...r.rows].map((x) => {
    const bad = x.outcome === 'FAIL' || x.outcome === 'TIMEOUT';
    const body = bad
      ? `<failure message="${xml(`${x.outcome}: the command ${x.outcome === 'TIMEOUT' ? 'was stopped at its bound' : `exited ${x.exitCode}`} with this variation in force`)}">${xml(`${x.section ?? ''}\n${tellingLines(x.tail, 20).join('\n')}`)}</failure>`
      : x.outcome === 'FLAKY'
        ? `<properties><property name="flaky" value="failed, then passed when run again"/></properties>`
        : '';
    return `    <testcase classname="tolerance" name="${xml(x.variation)}" time="${(x.durationMs / 1000).toFixed(3)}">${body}</testcase>`;
  });
  // A baseline that sent nothing is a failing case of its own (skipped when --allow-empty lets it pass), so CI shows why.
  const nothing = r.checkedNothing;
  if (nothing)
    cases.unshift(
      `    <testcase classname="tolerance" name="checked nothing">${nothing.allowed ? `<skipped message="${xml(checkedNothingMessage(nothing))}"/>` : `<failure message="${xml(checkedNothingMessage(nothing))}" type="checked_nothing"/>`}</testcase>`,
    );
  const failures = cases.filter((c) => c.includes('<failure')).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="svc-conformance tolerance" tests="${cases.length}" failures="${failures}" time="${(r.wallMs / 1000).toFixed(3)}">\n  <testsuite name="${xml(r.command)}" tests="${cases.length}" failures="${failures}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export function writeToleranceReports(r: ToleranceReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const md = toleranceMarkdown(r);
  const files: Array<[string, string]> = [
    ['tolerance.json', `${JSON.stringify({ ...r, gate: toleranceExitCode(r) ? 'fail' : 'pass' }, null, 2)}\n`],
    ['tolerance.md', md],
    ['tolerance.html', markdownToHtml(md, 'svc-conformance: tolerance matrix')],
    ['junit.xml', toleranceJunit(r)],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([n]) => join(dir, n));
}
