/**
 * No source or documentation file cites "issue N" (the Developers' guide, Standards:
 * comments say why and cite the specification's section). A reader of the repository
 * cannot open the tracker such a number points at; the section of
 * ../shared/specification.md, ../shared/DESIGN.md or ../shared/real-service-notes.md a
 * rule comes from ("Errors: ...", "Versioning", DESIGN.md "Proving the suite"), or a
 * plain statement of the design reason, tells them why.
 *
 * Checked on every file of the tree with one of the extensions below (comments, prose,
 * string literals and test titles alike), outside node_modules and the ignored output
 * folders (.gitignore). A word such as "60 days after issue" is not a citation: only
 * "issue" or "issues" followed by a number (with or without `#`) is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, projectFiles } from './project-files.ts';

/** Source, script, configuration and documentation files: where a comment or prose lives. */
const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.sh', '.md', '.yaml', '.yml', '.json', '.jsonc']);

/** "issue" or "issues", then a number, with or without `#` (the forms are in the first test). */
export const ISSUE_REFERENCE = /\bissues?\s*#?\d+/i;

export interface Citation {
  file: string;
  line: number;
  text: string;
}

/** Every line of `text` that cites an issue number. */
export function issueCitations(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((line, i) => {
    if (ISSUE_REFERENCE.test(line)) found.push({ file, line: i + 1, text: line.trim() });
  });
  return found;
}

test('the pattern finds every form of an issue citation and nothing else', () => {
  // Numbers spliced in, so that this file does not cite an issue itself.
  const cited = [
    `(issue ${4}: "A production base URL ...")`,
    `issue ${13}'s goal: the whole matrix`,
    `Issue ${23}, "Done when"`,
    `(issues ${4} and 8)`,
    `see issue #${7}`,
    `(issue ${12}/13)`,
    `ISSUE ${5}`,
  ];
  for (const line of cited) assert.equal(issueCitations('x.ts', `// ${line}`).length, 1, `not found: ${line}`);
  const plain = ['Processor access_token values expire 60 days after issue', 'issuerGuid', 'the issue of a token 2 days ago', `tissue ${5}`];
  for (const line of plain) assert.deepEqual(issueCitations('x.ts', line), [], `taken for a citation: ${line}`);
});

test('no source or documentation file cites "issue N" of a tracker a reader cannot open', () => {
  const files = projectFiles(EXTENSIONS).filter((f) => !f.endsWith('package-lock.json'));
  // Not a vacuous pass: the scan reaches the folders where such comments were.
  for (const expected of ['README.md', 'proof/selftest.ts', 'spec/trace.yaml', 'scripts/run-unit-tests.mjs', 'scenarios/fuzz/README.md']) {
    assert.ok(files.includes(expected), `the scan did not reach ${expected}`);
  }
  const citations = files.flatMap((file) => issueCitations(file, readFileSync(join(PROJECT_ROOT, file), 'utf8')));
  assert.deepEqual(
    citations.map((c) => `${c.file}:${c.line}: ${c.text}`),
    [],
    'cite the section of the specification (or DESIGN.md, real-service-notes.md) the rule comes from, or state the design reason, instead of an issue number',
  );
});
