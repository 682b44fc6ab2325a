/**
 * Every folder README with a "## Layout" section lists exactly the folder's files: each
 * name at the start of a list item (`- \`name\`:` or several, `- \`a\`, \`b\`:`) is a file
 * or folder (`name/`) of the README's folder, and every file and folder there is named,
 * leaving out the tests (`*.test.ts`, which run-unit-tests.mjs finds by themselves) and
 * the README itself. A README that goes stale fails here, not in a reader's hands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The READMEs whose layout section is checked. */
const READMES = [
  'cli/README.md',
  'scripts/README.md',
  'targets/profiles/README.md',
  'proof/mutants/README.md',
  'tests/README.md',
  'bench/README.md',
  'nightly/README.md',
  'upgrade/README.md',
];

/** The names a README's "## Layout" section lists: backticked names before the first colon of each top-level list item. */
export function layoutNames(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Layout'));
  if (!section) return [];
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const item = /^- (.*?):(\s|$)/.exec(line);
    if (!item) continue;
    for (const m of item[1].matchAll(/`([^`]+)`/g)) names.push(m[1]);
  }
  return names;
}

/** The files and folders (`name/`) a layout must name: everything in the folder but tests and the README. */
function listed(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n !== 'README.md' && !n.endsWith('.test.ts'))
    .map((n) => (statSync(join(dir, n)).isDirectory() ? `${n}/` : n));
}

test('layoutNames reads the names of each item, several to an item', () => {
  const md =
    '# x\n\n## Layout\n\n- `a.ts`: one.\n- `b.ts`, `c.mjs`: two, naming `not-this.ts`.\n  continued `nor-this.ts`.\n- `e.ts`:\n  a description on the next line.\n- `ci/`: a folder.\n\n## Other\n\n- `d.ts`: elsewhere.\n';
  assert.deepEqual(layoutNames(md), ['a.ts', 'b.ts', 'c.mjs', 'e.ts', 'ci/']);
});

for (const readme of READMES) {
  test(`${readme}: its layout names every file of the folder and nothing else`, () => {
    const dir = join(ROOT, readme, '..');
    const names = layoutNames(readFileSync(join(ROOT, readme), 'utf8'));
    assert.ok(names.length > 0, `${readme} has no "## Layout" section listing its files`);
    const missing = names.filter((n) => !existsSync(join(dir, n)) || n.endsWith('/') !== statSync(join(dir, n)).isDirectory());
    assert.deepEqual(missing, [], `${readme} names what is not in its folder`);
    const unnamed = listed(dir).filter((n) => !names.includes(n));
    assert.deepEqual(unnamed, [], `${readme}'s layout does not name these files of its folder`);
  });
}
