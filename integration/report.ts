/**
 * The reports of a judged recording (the proxy's or a HAR file's): the console, a
 * self-contained HTML page, JUnit for CI gates and JSON, with the recording itself as HAR
 * when the proxy made it. Findings are grouped by tier as every report of the project
 * shows them (stated fails the gate; inferred is a warning unless strict; informational
 * never gates), each distinct finding once with how many exchanges showed it.
 *
 * Nothing leaves unredacted: the profile's secrets, and every credential the traffic
 * itself carried (Basic credentials, tokens, the member credentials typed into a create
 * request), are learned from the recording and removed from every file and line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatFailure, tierOf, type Failure, type Tier } from '../contracts/index.ts';
import { createRedactor, type Redactor } from '../targets/index.ts';
import { markdownText, markdownToHtml, xmlText as xml } from '../reports/markdown.ts';
import { toHar, type RecordedExchange } from './har.ts';
import { allFailures, trafficCounts, trafficExitCode, type CheckedNothing, type TrafficReport } from './judge.ts';

const TIERS: Tier[] = ['stated', 'inferred', 'informational'];
/** The JUnit case of the test command the proxy ran. */
const TEST_COMMAND_CASE = 'the test command';

export interface FindingGroup {
  /** The first finding of the group (its location names the first item where several were found). */
  failure: Failure;
  /** Exchange indexes that showed it (empty for a session finding). */
  exchanges: number[];
  /** Findings in the group: the same one at several items of a list counts each. */
  count: number;
}

/** Distinct findings (check, operation, location with list indexes left out, message) in first-seen order, per tier. */
function groupFindings(r: TrafficReport): Record<Tier, FindingGroup[]> {
  const byKey = new Map<string, FindingGroup>();
  const add = (f: Failure, index?: number) => {
    const key = [f.check, f.operation, f.location.replace(/\[\d+\]/g, '[]'), f.severity, f.message].join('\u0000');
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { failure: f, exchanges: [], count: 0 }));
    g.count++;
    if (index !== undefined && g.exchanges.at(-1) !== index) g.exchanges.push(index);
  };
  for (const x of r.exchanges) for (const f of x.failures) add(f, x.index);
  for (const f of r.session) add(f);
  const out: Record<Tier, FindingGroup[]> = { stated: [], inferred: [], informational: [] };
  for (const g of byKey.values()) out[tierOf(g.failure)].push(g);
  return out;
}

const TIER_HEADINGS: Record<Tier, (strict: boolean) => string> = {
  stated: () => 'stated (quotes a sentence of the specification; fails the gate)',
  inferred: (strict) => `inferred (reasonable but unstated; ${strict ? 'fails the gate: strict' : 'a warning unless --strict'})`,
  informational: () => 'informational (the specification is silent or calls it non-breaking; never gates)',
};

const seen = (g: FindingGroup) =>
  `${g.count > g.exchanges.length && g.exchanges.length ? `${g.count} items over ` : ''}${g.exchanges.length ? `${g.exchanges.length} exchange${g.exchanges.length === 1 ? '' : 's'}, first #${g.exchanges[0]}` : 'session'}`;

/** One sentence for every report of a gate that checked nothing (the `run` guard's words: reports/empty-run-reporter.ts). */
export function checkedNothingMessage(c: CheckedNothing): string {
  return c.allowed
    ? `This gate checked nothing (--allow-empty: passing anyway): ${c.cause}.`
    : `FAIL: this gate checked nothing, and a gate that checked nothing is not green: ${c.cause}. ${c.remedy}, or pass --allow-empty.`;
}

function trafficConsoleLines(r: TrafficReport): string[] {
  const c = trafficCounts(r);
  const gate = trafficExitCode(r);
  const groups = groupFindings(r);
  const lines = [
    `${r.source}`,
    `  ${c.exchanges} exchange(s): ${c.api} API call(s) over ${c.operations} operation(s)${c.returnedUrlLoads ? `, ${c.returnedUrlLoads} load(s) of URLs the service returned` : ''}`,
    `  findings: ${groups.stated.length} stated, ${groups.inferred.length} inferred, ${groups.informational.length} informational; gate: ${gate ? 'FAIL' : 'pass'}${r.checkedNothing ? ' (checked nothing)' : ''}${r.commandFailure ? ' (the test command failed)' : ''}`,
  ];
  if (r.commandFailure) lines.push('', `FAIL: ${r.commandFailure}`);
  if (r.checkedNothing) lines.push('', checkedNothingMessage(r.checkedNothing));
  for (const tier of TIERS) {
    if (!groups[tier].length) continue;
    lines.push('', `${TIER_HEADINGS[tier](r.strict)}:`);
    for (const g of groups[tier]) lines.push(`  - ${formatFailure(g.failure)} [${seen(g)}]`);
  }
  if (r.notes.length) lines.push('', 'notes:', ...r.notes.map((n) => `  - ${n}`));
  return lines;
}

const EXCHANGE_ROWS = 1000;

function trafficMarkdown(r: TrafficReport): string {
  const c = trafficCounts(r);
  const groups = groupFindings(r);
  const lines = [
    `# Integration traffic: ${trafficExitCode(r) ? 'FAIL' : 'pass'}`,
    '',
    `${markdownText(r.source)}. ${c.exchanges} exchange(s): ${c.api} API call(s) over ${c.operations} operation(s), ${c.returnedUrlLoads} load(s) of URLs the service returned.`,
    '',
    ...(r.commandFailure ? [`**FAIL: ${markdownText(r.commandFailure)}**`, ''] : []),
    ...(r.checkedNothing ? [`**${markdownText(checkedNothingMessage(r.checkedNothing))}**`, ''] : []),
    `**Findings: ${groups.stated.length} stated, ${groups.inferred.length} inferred, ${groups.informational.length} informational** (distinct; ${c.byTier.stated + c.byTier.inferred + c.byTier.informational} in all). Every request was judged against the contract as the suites judge responses (contracts/requests.ts), and every response too.`,
    '',
  ];
  for (const tier of TIERS) {
    lines.push(`## ${TIER_HEADINGS[tier](r.strict)}`, '');
    if (!groups[tier].length) {
      lines.push('_none_', '');
      continue;
    }
    lines.push('| check | operation | location | message | rule | seen |', '|---|---|---|---|---|---|');
    for (const g of groups[tier]) {
      const f = g.failure;
      lines.push(
        `| ${markdownText(f.check)} | ${markdownText(f.operation)} | ${markdownText(f.location)} | ${markdownText(f.message)} | ${markdownText(f.rule)} | ${seen(g)} |`,
      );
    }
    lines.push('');
  }
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${markdownText(n)}`), '');
  lines.push('## Exchanges', '', '| # | method | operation | version | status | findings |', '|---|---|---|---|---|---|');
  for (const x of r.exchanges.slice(0, EXCHANGE_ROWS)) {
    const what =
      x.kind === 'api'
        ? (x.operation ?? '')
        : x.kind === 'returned-url'
          ? `(load of a returned URL) ${x.url.split('?')[0]}`
          : x.kind === 'no-answer'
            ? `(no answer) ${x.url.split('?')[0]}`
            : `(not judged) ${x.url.split('?')[0]}`;
    lines.push(
      `| ${x.index} | ${markdownText(x.method)} | ${markdownText(what)} | ${markdownText(x.version)} | ${x.status ?? ''} | ${markdownText(x.failures.map((f) => `${tierOf(f)}: ${f.check}`).join(', '))} |`,
    );
  }
  if (r.exchanges.length > EXCHANGE_ROWS) lines.push('', `_${r.exchanges.length - EXCHANGE_ROWS} more exchange(s) in report.json._`);
  return `${lines.join('\n')}\n`;
}

/** JUnit: one test case per operation the traffic used (and one for the session), failures of error severity as <failure>, the rest as tier properties. */
function trafficJunit(r: TrafficReport): string {
  const byOperation = new Map<string, { failures: Failure[]; exchanges: number }>();
  for (const x of r.exchanges) {
    if (x.kind !== 'api') continue;
    const key = `${x.api} ${x.operation}`;
    const entry = byOperation.get(key) ?? { failures: [], exchanges: 0 };
    entry.exchanges++;
    entry.failures.push(...x.failures);
    byOperation.set(key, entry);
  }
  byOperation.set('session OAuth window use', { failures: r.session, exchanges: 0 });
  // A gate that checked nothing is a failing case of its own (skipped when --allow-empty lets it pass), so CI shows why.
  const nothing = r.checkedNothing;
  const empty = nothing
    ? [
        `    <testcase classname="integration traffic" name="checked nothing">${nothing.allowed ? `<skipped message="${xml(checkedNothingMessage(nothing))}"/>` : `<failure message="${xml(checkedNothingMessage(nothing))}" type="checked_nothing"/>`}</testcase>`,
      ]
    : [];
  const cases = [...byOperation].map(([name, { failures, exchanges }]) => {
    const unique = [...new Map(failures.map((f) => [formatFailure(f), f])).values()];
    const errors = unique.filter((f) => f.severity === 'error');
    const props = unique.map((f) => `<property name="${tierOf(f)}" value="${xml(formatFailure(f))}"/>`).join('');
    const failure = errors.length
      ? `<failure message="${xml(`${errors.length} finding(s) that fail the gate`)}" type="${xml(errors[0].check)}">${xml(errors.map(formatFailure).join('\n'))}</failure>`
      : '';
    return `    <testcase classname="integration traffic" name="${xml(name)}${exchanges ? ` (${exchanges} exchange${exchanges === 1 ? '' : 's'})` : ''}">${props ? `<properties>${props}</properties>` : ''}${failure}</testcase>`;
  });
  cases.unshift(...empty);
  // The test command's failure is a failing case of its own: the traffic may be clean while the integration's tests are not.
  if (r.commandFailure)
    cases.unshift(
      `    <testcase classname="integration traffic" name="${xml(TEST_COMMAND_CASE)}"><failure message="${xml(r.commandFailure)}" type="test_command"/></testcase>`,
    );
  const failed = cases.filter((c) => c.includes('<failure')).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="svc-conformance integration traffic" tests="${cases.length}" failures="${failed}">\n  <testsuite name="${xml(r.source)}" tests="${cases.length}" failures="${failed}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** Credentials a recording carries, so no report repeats them (Basic, Bearer, tokens, typed member credentials). */
function learnSecrets(redactor: Redactor, exchanges: readonly RecordedExchange[]): void {
  const fromJson = (text: string | undefined, secret: (key: string, parent: string) => boolean) => {
    if (!text || !/^\s*[[{]/.test(text)) return;
    try {
      const walk = (v: unknown, key = '', parent = ''): void => {
        if (typeof v === 'string' || typeof v === 'number') {
          if (secret(key, parent) || (key === 'value' && /credentials|challenges/.test(parent))) redactor.add(String(v));
        } else if (Array.isArray(v))
          v.forEach((x) => {
            walk(x, '', key || parent);
          });
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, key || parent);
      };
      walk(JSON.parse(text));
    } catch {
      /* not JSON: known secrets are still replaced in it */
    }
  };
  // A form body (the audience token request: client_id and client_secret, Authentication 5).
  const fromForm = (text: string | undefined, keys: RegExp) => {
    if (!text || !/^[\w.~%-]+=/.test(text)) return;
    for (const [key, value] of new URLSearchParams(text)) if (keys.test(key)) redactor.add(value);
  };
  for (const e of exchanges) {
    const auth = e.request.headers.authorization;
    const basic = auth && /^Basic\s+(\S+)/i.exec(auth)?.[1];
    if (basic) {
      redactor.add(basic);
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      redactor.add(decoded);
      redactor.add(decoded.slice(decoded.indexOf(':') + 1));
    }
    const bearer = auth && /^Bearer\s+(\S+)/i.exec(auth)?.[1];
    if (bearer) redactor.add(bearer);
    for (const h of ['svc-3dx-token', 'svc-api-key']) redactor.add(e.request.headers[h]);
    fromJson(e.request.body, (key) => /^(password|secret|client_secret|token|access_token)$/i.test(key));
    fromForm(e.request.body, /^(password|secret|client_secret|token|access_token|code)$/i);
    // A `code` is a secret only as an authorization code's (Authorization code for processors);
    // elsewhere it is an institution's public code (svcbank), which every report must keep.
    fromJson(
      e.response?.body,
      (key, parent) => /^(token|access_token|refresh_token|authorization_code)$/i.test(key) || (key === 'code' && /authorization_code$/i.test(parent)),
    );
  }
}

/** The recording without credentials: headers, bodies and URLs through the redactor. */
export function redactedExchanges(redactor: Redactor, exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  const body = (text: string | undefined) => {
    if (text === undefined) return undefined;
    if (/^\s*[[{]/.test(text)) {
      try {
        return JSON.stringify(redactor.json(JSON.parse(text)));
      } catch {
        /* fall through */
      }
    }
    return redactor.text(text);
  };
  return exchanges.map((e) => ({
    ...e,
    request: {
      ...e.request,
      url: redactor.text(e.request.url),
      headers: redactor.headers(e.request.headers),
      ...(e.request.body !== undefined ? { body: body(e.request.body) } : {}),
    },
    ...(e.response
      ? {
          response: { ...e.response, headers: redactor.headers(e.response.headers), ...(e.response.body !== undefined ? { body: body(e.response.body) } : {}) },
        }
      : {}),
  }));
}

export interface WrittenReports {
  dir: string;
  files: string[];
}

/** Writes report.json, report.md, report.html, junit.xml (and recording.har when given) under `dir`, redacted. */
export function writeTrafficReports(
  r: TrafficReport,
  dir: string,
  o: { secrets: readonly (string | undefined)[]; recording?: readonly RecordedExchange[]; version?: string },
): WrittenReports {
  const redactor = createRedactor(o.secrets);
  if (o.recording) learnSecrets(redactor, o.recording);
  mkdirSync(dir, { recursive: true });
  const md = redactor.text(trafficMarkdown(r));
  const files: Array<[string, string]> = [
    [
      'report.json',
      redactor.text(JSON.stringify({ ...r, counts: trafficCounts(r), gate: trafficExitCode(r) ? 'fail' : 'pass', failures: allFailures(r).length }, null, 2)),
    ],
    ['report.md', md],
    ['report.html', markdownToHtml(md, 'svc-conformance: integration traffic')],
    ['junit.xml', redactor.text(trafficJunit(r))],
  ];
  if (o.recording)
    files.push([
      'recording.har',
      `${JSON.stringify(toHar(redactedExchanges(redactor, o.recording), { name: 'svc-conformance proxy', version: o.version ?? '0' }), null, 1)}\n`,
    ]);
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return { dir, files: files.map(([n]) => join(dir, n)) };
}

/** The console lines, redacted the same way. */
export function redactedConsoleLines(r: TrafficReport, o: { secrets: readonly (string | undefined)[]; recording?: readonly RecordedExchange[] }): string[] {
  const redactor = createRedactor(o.secrets);
  if (o.recording) learnSecrets(redactor, o.recording);
  return trafficConsoleLines(r).map((l) => redactor.text(l));
}
