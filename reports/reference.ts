/**
 * The report of `svc-conformance reference` (contracts/reference.ts examines the vendor's
 * documents): a short console table (documents, examples, disagreements by kind), and
 * the full list of disagreements, both sides quoted, as Markdown and JSON.
 */
import { DISAGREEMENT_KINDS, DISAGREEMENT_TITLES, formatFailure, normaliseLocation, type Disagreement, type ReferenceReport } from '../contracts/index.ts';
import { markdownCode, markdownText } from './markdown.ts';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `  ${r.map((c, i) => pad(c, widths[i])).join('  ')}`.trimEnd());
}

/** The console's lines: per document its version and examples, per kind the disagreements, and what a run with the reference would still fail. */
export function referenceConsoleLines(r: ReferenceReport, written: string[] = []): string[] {
  const versions = [...new Set(r.documents.map((d) => d.version))].sort();
  const out = [
    `svc-conformance reference: ${r.documents.length} document${r.documents.length === 1 ? '' : 's'}, ${r.totals.examples} example${r.totals.examples === 1 ? '' : 's'} of operations the contract documents`,
    '',
    ...table([
      ['document', 'version', 'from', 'operations', 'also ours', 'examples', 'examples with a stated failure'],
      ...r.documents.map((d) => {
        const mine = r.examples.filter((e) => e.file === d.file);
        const failing = mine.filter((e) => e.failures.stated > 0);
        return [
          d.file,
          d.version,
          d.versionFrom,
          String(d.operations),
          String(d.matched),
          String(d.examples),
          `${failing.length} (${failing.reduce((n, e) => n + e.failures.stated, 0)} stated failures)`,
        ];
      }),
    ]),
    '',
    'Disagreements (each quoted from both sides in --json / --markdown):',
    ...table([
      ['kind', ...versions, 'total', 'what'],
      ...DISAGREEMENT_KINDS.map((k) => [
        k,
        ...versions.map((v) => String(r.disagreements.filter((d) => d.kind === k && d.version === v).length)),
        String(r.counts[k]),
        DISAGREEMENT_TITLES[k],
      ]),
    ]),
    '',
    `The examples judged as a live run judges an answer: ${r.totals.failures.stated} stated failures in ${r.totals.examplesWithStated} of ${r.totals.examples} examples; with the reference in force (the reference setting, SVC_REFERENCE): ${r.totals.withReference.stated} in ${r.totals.examplesWithStatedWithReference}.`,
  ];
  if (r.gaps.length) {
    const places = [...new Set(r.gaps.map((g) => `${g.operation} ${g.location} (${g.version})`))];
    out.push(
      `  Left stated, not disagreements (${r.gaps.length} kinds of failure at ${places.length} places): the reference's schema carries these fields without an example value, so its composed example leaves them out: ${places.join('; ')}`,
    );
  }
  // Anything else left stated escaped the downgrade: named here, each with its example.
  const gap = new Set(r.gaps.map((g) => `${g.version}\u0000${g.check}\u0000${g.operation}\u0000${g.location}`));
  const unexplained = r.examples.flatMap((e) =>
    e.statedLeft.filter((f) => !gap.has(`${e.version}\u0000${f.check}\u0000${f.operation}\u0000${normaliseLocation(f.location)}`)).map((f) => ({ e, f })),
  );
  for (const { e, f } of unexplained.slice(0, 10)) out.push(`  still stated: ${e.file}#${e.pointer}: ${formatFailure(f)}`);
  if (written.length) out.push('', `Reports: ${written.join(', ')}`);
  return out;
}

function oursCell(d: Disagreement): string {
  return [
    `${markdownCode(d.ours.check)} (${d.ours.tier})`,
    d.ours.rule ? `rule: ${markdownText(d.ours.rule)}` : undefined,
    d.ours.spec ? `spec: ${markdownCode(d.ours.spec)}` : undefined,
    markdownText(d.ours.text),
  ]
    .filter(Boolean)
    .join('<br>');
}

function referenceCell(d: Disagreement): string {
  return [`${markdownCode(`${d.reference.file}#${d.reference.pointer}`)}`, `${markdownText(d.reference.operation)}`, markdownText(d.reference.text)].join(
    '<br>',
  );
}

/** The full report as Markdown: documents, totals, and every disagreement by kind with both sides quoted. */
export function referenceMarkdown(r: ReferenceReport): string {
  const out = [
    "# The vendor's reference against the contract",
    '',
    "Every example the vendor's documents carry for a 2xx JSON response of an operation the contract documents, judged as a live run judges an answer, and the two descriptions compared schema by schema. The specification stays the source of truth: a disagreement is information. With the `reference` setting (`SVC_REFERENCE`) a run reports a stated failure that a disagreement marked *downgrades* covers as inferred, naming the reference.",
    '',
    '| document | version | from | operations | also ours | examples |',
    '|---|---|---|---|---|---|',
    ...r.documents.map((d) => `| ${markdownText(d.file)} | ${d.version} | ${d.versionFrom} | ${d.operations} | ${d.matched} | ${d.examples} |`),
    '',
    `Examples: ${r.totals.examples}; stated failures ${r.totals.failures.stated} in ${r.totals.examplesWithStated} examples (inferred ${r.totals.failures.inferred}, informational ${r.totals.failures.informational}). With the reference in force: stated ${r.totals.withReference.stated} in ${r.totals.examplesWithStatedWithReference} examples.`,
    '',
  ];
  for (const kind of DISAGREEMENT_KINDS) {
    const list = r.disagreements.filter((d) => d.kind === kind);
    out.push(`## ${kind} (${list.length})`, '', `${DISAGREEMENT_TITLES[kind]}.`, '');
    if (!list.length) {
      out.push('None.', '');
      continue;
    }
    out.push(
      '| version | operation | location | ours | the reference | downgrades |',
      '|---|---|---|---|---|---|',
      ...list.map(
        (d) =>
          `| ${d.version} | ${markdownText(d.operation)} | ${markdownCode(d.location)} | ${oursCell(d)} | ${referenceCell(d)}${d.examples && d.examples > 1 ? `<br>(${d.examples} examples)` : ''} | ${d.downgrades ? 'yes' : 'no'} |`,
      ),
      '',
    );
  }
  out.push(
    `## Not disagreements: fields without an example value (${r.gaps.length})`,
    '',
    "A composed example takes only the properties that carry an example value; where the reference's schema carries the field the contract names but gives it no example, the example lacks it while the reference does not contradict the rule. These stay stated when the examples are judged with the reference.",
    '',
  );
  if (r.gaps.length)
    out.push(
      '| version | operation | location | ours | the reference |',
      '|---|---|---|---|---|',
      ...r.gaps.map(
        (g) =>
          `| ${g.version} | ${markdownText(g.operation)} | ${markdownCode(g.location)} | ${markdownCode(g.check)}<br>rule: ${markdownText(g.rule)} | ${markdownCode(`${g.reference.file}#${g.reference.pointer}`)}<br>${markdownText(g.reference.operation)}<br>${markdownText(g.reference.text)} |`,
      ),
      '',
    );
  else out.push('None.', '');
  const unmatched = r.documents.filter((d) => d.unmatched.length);
  if (unmatched.length) {
    out.push("## The reference's operations the contract does not document", '');
    for (const d of unmatched) out.push(`- ${markdownText(d.file)} (${d.version}): ${d.unmatched.map((op) => markdownCode(op, 'text')).join(', ')}`);
    out.push('');
  }
  return out.join('\n');
}

/** The full report as JSON (no example bodies: each example is named by its file and pointer). */
export function referenceJson(r: ReferenceReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
