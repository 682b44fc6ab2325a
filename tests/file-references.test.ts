/**
 * A file the project's own words name exists (the Developers' guide, Standards: comments
 * say why; a comment that sends a reader to a file that moved sends them nowhere). Paths
 * in comments, prose and the traceability rows (spec/trace.yaml's `verified_by`) rot as
 * rooms move: a rename leaves the old name behind in every sentence that cited it.
 *
 * A path here is a name with at least one folder and a source or document extension
 * (`load/script-support/backoff.ts`, `upgrade/versions.test.ts`). It is found when it
 * exists from the project's root, from the naming file's folder or one of its parents,
 * from spec/ (failure rules name their documents relative to spec/), from scenarios/
 * (test titles start at the project's test folder) or in node_modules (a package's file).
 * In a test file only comment lines count: its strings are made-up paths for the code
 * under test. Paths under the ignored output folders (.gitignore) are what a run writes,
 * and a URL's path belongs to another repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { PROJECT_ROOT, projectFiles } from './project-files.ts';

/** What a run writes (.gitignore): a path there names an output, not a file of the project. */
const OUTPUT_PREFIX = /^(reports\/out|test-results|playwright-report|blob-report|allure-results)\//;

const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.sh', '.md', '.yaml', '.yml', '.jsonc']);

/**
 * A folder, a slash, a file name with an extension of source or documentation; not part of a
 * longer path, a URL or an import's `./` path (no `/`, `.`, `:` or word character before it),
 * and not the text of a Markdown link to a URL.
 */
const PATH = /(?<![\w/.:@$-])((?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)+[A-Za-z0-9_.-]+\.(?:ts|mts|cts|js|mjs|cjs|md|json|jsonc|yaml|yml|sh))(?![\w/]|\]\(https?:)/g;

/**
 * Paths in a team's folder, not in this project's, with why: the project's words describe
 * what a team has or what a command writes there.
 */
const ELSEWHERE: ReadonlyMap<string, string> = new Map([
  ['vendor/v20111101.yml', "README: a team's copy of the vendor's reference, in the example command"],
  ['vendor/v20250224.yml', "README: a team's copy of the vendor's reference, in the example command"],
  ['svc-conformance-docs/settings.md', "config docs: the folder an installed package writes into the team's project"],
  ['observations/index.json', 'history/store.ts: the layout of a history folder the nightly writes'],
  ['dist/chart.umd.min.js', "history/vendor/README.md: the file's path in the chart.js npm package"],
]);

export interface Reference {
  file: string;
  line: number;
  path: string;
}

const isCommentLine = (line: string) => /^\s*(\*|\/\*|\/\/)/.test(line);

/** The paths `file`'s text names (a test file: in its comments only). */
export function referencesIn(file: string, text: string): Reference[] {
  const commentsOnly = /\.test\.[cm]?ts$/.test(file);
  const out: Reference[] = [];
  text.split('\n').forEach((line, i) => {
    if (commentsOnly && !isCommentLine(line)) return;
    for (const m of line.matchAll(PATH)) if (!OUTPUT_PREFIX.test(m[1])) out.push({ file, line: i + 1, path: m[1] });
  });
  return out;
}

/** Where a path named in `file` may be read from (the header says why each). */
export function candidates(file: string, path: string): string[] {
  const out = [path, `spec/${path}`, `scenarios/${path}`, `node_modules/${path}`];
  for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) out.push(posix.join(dir, path));
  return out;
}

export function isFound(file: string, path: string, exists: (rel: string) => boolean): boolean {
  return ELSEWHERE.has(path) || candidates(file, path).some(exists);
}

const onDisk = (rel: string) => existsSync(join(PROJECT_ROOT, rel));

test('the pattern takes paths with a folder and leaves URLs, outputs, imports and bare names', () => {
  const text = [
    '// retried as load/script-support/backoff.ts says (lib/backoff.ts before)',
    ' * see https://github.com/microsoft/playwright/blob/main/tests/config/baseTest.ts',
    'its [tests/config/baseTest.ts](https://github.com/microsoft/playwright/blob/main/tests/config/baseTest.ts)',
    'writes reports/out/selftest/matrix.json and summary.md; ../shared/specification.md',
    "import x from './fixtures/findings.ts';",
  ].join('\n');
  assert.deepEqual(
    referencesIn('load/paging.ts', text).map((r) => `${r.line}: ${r.path}`),
    // An import's './' path is the type checker's to resolve.
    ['1: load/script-support/backoff.ts', '1: lib/backoff.ts'],
  );
  // In a test file, strings are made-up paths; its comments are not.
  assert.deepEqual(
    referencesIn('x/a.test.ts', "// see upgrade/versions.ts\nwriteFileSync('scenarios/api/a.spec.ts', '')").map((r) => r.path),
    ['upgrade/versions.ts'],
  );
});

test("a path is found from the root, the naming file's folders, spec/, scenarios/ or a package, and not elsewhere", () => {
  const tree = new Set(['load/script-support/backoff.ts', 'spec/versions/platform.v1.yaml', 'scenarios/api/members.spec.ts', 'node_modules/ajv/dist/2020.js']);
  const exists = (rel: string) => tree.has(rel);
  assert.ok(isFound('README.md', 'load/script-support/backoff.ts', exists));
  assert.ok(isFound('load/paging.ts', 'script-support/backoff.ts', exists));
  assert.ok(isFound('contracts/model.ts', 'versions/platform.v1.yaml', exists));
  assert.ok(isFound('reports/findings.ts', 'api/members.spec.ts', exists));
  assert.ok(isFound('contracts/compile.ts', 'ajv/dist/2020.js', exists));
  // The rot this test exists for: a name the file had before it moved.
  assert.equal(isFound('load/paging.ts', 'lib/backoff.ts', exists), false);
  assert.equal(isFound('spec/trace.yaml', 'reports/version-diff.test.ts', exists), false);
});

test('every file a source, document or traceability row names exists', () => {
  const refs = projectFiles(EXTENSIONS).flatMap((file) => referencesIn(file, readFileSync(join(PROJECT_ROOT, file), 'utf8')));
  // Not a vacuous pass: the scan reads the places where such names live, hundreds of them.
  assert.ok(refs.length > 500, `only ${refs.length} paths found`);
  for (const expected of ['spec/trace.yaml', 'README.md', 'load/paging.ts', 'proof/README.md']) {
    assert.ok(
      refs.some((r) => r.file === expected),
      `the scan found no path in ${expected}`,
    );
  }
  const missing = refs.filter((r) => !isFound(r.file, r.path, onDisk));
  assert.deepEqual(
    missing.map((r) => `${r.file}:${r.line}: ${r.path}`),
    [],
    "name the file where it lives now (or, for a file in a team's folder, add it to ELSEWHERE with why)",
  );
  // Every exception still stands somewhere: one no file names any more is a stale excuse.
  for (const path of ELSEWHERE.keys())
    assert.ok(
      refs.some((r) => r.path === path),
      `ELSEWHERE lists ${path}, which no file names`,
    );
});
