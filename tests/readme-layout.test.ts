/**
 * The READMEs say where things live, and a test keeps them true:
 *
 *   - Every README.md in the tree with a "## Layout" section lists exactly its folder's files:
 *     each name at the start of a list item (`- \`name\`:` or several, `- \`a\`, \`b\`:`) is a
 *     file or folder (`name/`) of the README's folder, and every file and folder there is
 *     named, leaving out the tests (`*.test.ts`, which run-unit-tests.mjs finds by themselves),
 *     the README itself, hidden files and what git ignores (.gitignore: reports written by a
 *     run, test results). A README that goes stale fails here, not in a reader's hands.
 *   - No folder is named for no content (lib/, utils/, helpers/, common/, ...): a room's name
 *     says what it holds.
 *   - Every top-level room (a top-level folder holding source: a .ts, .mjs or .js file) has a
 *     README.md with a "## Layout" section and a paragraph beginning "Who may import:" (what
 *     may import the room and what it imports, kept by tests/import-rules.test.ts).
 *
 * node_modules, the reports a run writes (reports/out) and the vendored history renderer
 * (history/vendor, third-party files with their own README) are not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Folders whose READMEs are not the project's (node_modules, vendored code) or that a run writes. */
const NOT_READ = new Set(['node_modules', '.git', 'reports/out', 'history/vendor']);

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

const hasLayout = (markdown: string) => /^## Layout\s*$/m.test(markdown);
const hasWhoMayImport = (markdown: string) => /(^|\n\n)Who may import:/.test(markdown);

/** A matcher for the root's .gitignore: plain names and `*` globs, anchored when they hold a `/`. */
function gitIgnored(root: string): (path: string) => boolean {
  const file = join(root, '.gitignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#') && !l.startsWith('!'))
    : [];
  const rules = patterns.map((p) => {
    const bare = p.replace(/\/$/, '');
    const glob = new RegExp(
      `^${bare
        .replace(/^\//, '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')}$`,
    );
    return bare.includes('/') ? (path: string) => glob.test(path) : (path: string) => glob.test(path.slice(path.lastIndexOf('/') + 1));
  });
  return (path) => rules.some((matches) => matches(path));
}

/** The files and folders (`name/`) a layout must name: everything in the folder but tests, the README, hidden and ignored files. */
function listed(root: string, dir: string): string[] {
  const ignored = gitIgnored(root);
  const rel = relative(root, dir).split(sep).join('/');
  return readdirSync(dir)
    .filter((n) => n !== 'README.md' && !n.endsWith('.test.ts') && !n.startsWith('.') && !ignored(rel ? `${rel}/${n}` : n))
    .map((n) => (statSync(join(dir, n)).isDirectory() ? `${n}/` : n));
}

/** What a folder's layout gets wrong: names of what is not there, and files of the folder it does not name. */
export function layoutProblems(root: string, dir: string, markdown: string): { named: string[]; missing: string[]; unnamed: string[] } {
  const named = layoutNames(markdown);
  const missing = named.filter((n) => !existsSync(join(dir, n)) || n.endsWith('/') !== statSync(join(dir, n)).isDirectory());
  const unnamed = listed(root, dir).filter((n) => !named.includes(n));
  return { named, missing, unnamed };
}

/** Every file and folder under the root, in name order, with its path relative to the root; NOT_READ is left out. */
function walkTree(root: string, visit: (entry: { name: string; full: string; rel: string; isDirectory: boolean }) => void): void {
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full).split(sep).join('/');
      if (NOT_READ.has(rel) || NOT_READ.has(name)) continue;
      const isDirectory = statSync(full).isDirectory();
      visit({ name, full, rel, isDirectory });
      if (isDirectory) walk(full);
    }
  };
  walk(root);
}

/** Every README.md under the root (its path relative to the root) with a "## Layout" section. */
export function readmesWithLayout(root: string): string[] {
  const found: string[] = [];
  walkTree(root, ({ name, full, rel, isDirectory }) => {
    if (!isDirectory && name === 'README.md' && rel !== 'README.md' && hasLayout(readFileSync(full, 'utf8'))) found.push(rel);
  });
  return found;
}

function holdsSource(dir: string): boolean {
  return readdirSync(dir).some((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return false;
    const full = join(dir, name);
    return statSync(full).isDirectory() ? holdsSource(full) : /\.(ts|mts|mjs|js)$/.test(name);
  });
}

/** Each top-level room (a folder holding source) whose README is missing, has no "## Layout" or no "Who may import:" paragraph. */
export function roomsWithoutReadme(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const full = join(root, name);
    if (name === 'node_modules' || name.startsWith('.') || !statSync(full).isDirectory() || !holdsSource(full)) continue;
    const readme = join(full, 'README.md');
    if (!existsSync(readme)) out.push(`${name}/: no README.md`);
    else {
      const markdown = readFileSync(readme, 'utf8');
      if (!hasLayout(markdown)) out.push(`${name}/README.md: no "## Layout" section`);
      if (!hasWhoMayImport(markdown)) out.push(`${name}/README.md: no paragraph beginning "Who may import:"`);
    }
  }
  return out;
}

test('layoutNames reads the names of each item, several to an item', () => {
  const md =
    '# x\n\n## Layout\n\n- `a.ts`: one.\n- `b.ts`, `c.mjs`: two, naming `not-this.ts`.\n  continued `nor-this.ts`.\n- `e.ts`:\n  a description on the next line.\n- `ci/`: a folder.\n\n## Other\n\n- `d.ts`: elsewhere.\n';
  assert.deepEqual(layoutNames(md), ['a.ts', 'b.ts', 'c.mjs', 'e.ts', 'ci/']);
});

/** A throwaway project: a .gitignore, and files given by their paths (a path ending in `/` is an empty folder). */
function scratchProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'readme-layout-'));
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  return root;
}

test('a layout that misses a file, names a missing one or calls a file a folder is caught; tests, hidden and ignored files need no line', () => {
  const root = scratchProject({
    '.gitignore': 'out/\n*.sqlite\n',
    'room/a.ts': '',
    'room/b.ts': '',
    'room/a.test.ts': '',
    'room/.keep': '',
    'room/store.sqlite': '',
    'room/out/report.html': '',
    'room/sub/c.ts': '',
  });
  try {
    const dir = join(root, 'room');
    const whole = '# room\n\n## Layout\n\n- `a.ts`, `b.ts`: two files.\n- `sub/`: a folder.\n';
    assert.deepEqual(layoutProblems(root, dir, whole), { named: ['a.ts', 'b.ts', 'sub/'], missing: [], unnamed: [] });
    const stale = '# room\n\n## Layout\n\n- `a.ts`: one file.\n- `gone.ts`: moved away.\n- `sub`: a folder written as a file.\n';
    assert.deepEqual(layoutProblems(root, dir, stale), { named: ['a.ts', 'gone.ts', 'sub'], missing: ['gone.ts', 'sub'], unnamed: ['b.ts', 'sub/'] });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('every top-level room needs a README with a layout and a "Who may import:" paragraph; a folder without source needs none, and node_modules, reports/out and history/vendor are not read', () => {
  const root = scratchProject({
    'docs/notes.md': '',
    'good/x.ts': '',
    'good/README.md': '# good\n\nWhat it is.\n\nWho may import: nobody.\n\n## Layout\n\n- `x.ts`: a file.\n',
    'bare/deep/y.mjs': '',
    'no-layout/z.ts': '',
    'no-layout/README.md': '# no-layout\n\nWho may import: nobody.\n',
    'no-rule/z.ts': '',
    'no-rule/README.md': '# no-rule\n\nNobody imports it.\n\n## Layout\n\n- `z.ts`: a file.\n',
    'node_modules/pkg/index.js': '',
    'node_modules/pkg/README.md': '## Layout\n\n- `gone.js`: not ours.\n',
    'history/vendor/README.md': '## Layout\n\n- `gone.js`: vendored, not ours.\n',
    'reports/out/README.md': '## Layout\n\n- `gone.html`: written by a run.\n',
  });
  try {
    assert.deepEqual(roomsWithoutReadme(root), [
      'bare/: no README.md',
      'no-layout/README.md: no "## Layout" section',
      'no-rule/README.md: no paragraph beginning "Who may import:"',
    ]);
    assert.deepEqual(readmesWithLayout(root), ['good/README.md', 'no-rule/README.md']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** Folder names that say nothing of what a folder holds (a room is named for its contents). */
const NAMELESS = new Set(['lib', 'libs', 'util', 'utils', 'helpers', 'misc', 'common', 'shared', 'stuff']);

/** Every folder of the project (relative path) whose name is one of NAMELESS. */
export function namelessFolders(root: string): string[] {
  const found: string[] = [];
  walkTree(root, ({ name, rel, isDirectory }) => {
    if (isDirectory && NAMELESS.has(name) && !rel.split('/').some((part) => part.startsWith('.'))) found.push(`${rel}/`);
  });
  return found;
}

test('a folder named for no content (lib/, utils/, ...) is caught at any depth; node_modules is not read', () => {
  const root = mkdtempSync(join(tmpdir(), 'nameless-'));
  try {
    for (const dir of ['load/lib', 'scenarios/fuzz/engine', 'a/b/utils', 'node_modules/x/lib']) mkdirSync(join(root, dir), { recursive: true });
    assert.deepEqual(namelessFolders(root), ['a/b/utils/', 'load/lib/']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('every folder is named for what it holds: no lib/, utils/, helpers/, common/ ...', () => {
  assert.deepEqual(namelessFolders(ROOT), []);
});

test('every top-level room has a README with a layout section and a "Who may import:" paragraph', () => {
  assert.deepEqual(roomsWithoutReadme(ROOT), []);
});

const READMES = readmesWithLayout(ROOT);

test('the READMEs with a layout were found', () => {
  // The walk found the READMEs it must see, so a green run below means something.
  for (const readme of ['cli/README.md', 'targets/profiles/README.md', 'proof/mutants/README.md'])
    assert.ok(READMES.includes(readme), `${readme} was not found`);
});

for (const readme of READMES) {
  test(`${readme}: its layout names every file of the folder and nothing else`, () => {
    const dir = join(ROOT, readme, '..');
    const { named, missing, unnamed } = layoutProblems(ROOT, dir, readFileSync(join(ROOT, readme), 'utf8'));
    assert.ok(named.length > 0, `${readme} has a "## Layout" section that names no file`);
    assert.deepEqual(missing, [], `${readme} names what is not in its folder`);
    assert.deepEqual(unnamed, [], `${readme}'s layout does not name these files of its folder`);
  });
}
