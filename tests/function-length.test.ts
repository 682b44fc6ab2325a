/**
 * No function of the project's own code is longer than a reader can hold
 * (../shared/DESIGN.md, "Style": a pipeline of small steps; one check, one job): every
 * function declaration, method, accessor, constructor, arrow function and function
 * expression whose body spans more than MAX_BODY_LINES lines is named here, with its file,
 * line and length. A long unit is split into named steps, not listed.
 *
 * Every TypeScript and JavaScript file of the tree is read, tests included (a test body
 * that long hides what it tests as well), outside node_modules, the ignored output folders
 * (.gitignore) and the vendored chart library the dashboard inlines (history/vendor/).
 * The files are parsed, not type-checked: the TypeScript compiler's parser alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The longest body, in lines from its opening to its closing line, a function may have. */
export const MAX_BODY_LINES = 150;

/** Folders never read: dependencies, git, the ignored outputs (.gitignore), vendored code. */
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'reports/out',
  'test-results',
  'playwright-report',
  'blob-report',
  'allure-results',
  '.tmp',
  'history/vendor',
]);

const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/**
 * Functions still longer than the limit, by `file: name`, each with the reason it is not
 * split here. Split them and remove the entry: an entry that no longer matches a long
 * function fails too, so the list only shrinks.
 */
const NOT_YET_SPLIT: Record<string, string> = {};

export interface LongFunction {
  file: string;
  /** 1-based line of the body's opening. */
  line: number;
  name: string;
  /** Lines from the body's opening line to its closing line, both counted. */
  lines: number;
}

/** A readable name for a function node: its own name, the variable, property or call it is given to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source);
    const title = parent.arguments.find((a) => ts.isStringLiteralLike(a) || ts.isNoSubstitutionTemplateLiteral(a));
    return title ? `${callee}(${title.getText(source)}, ...)` : `argument of ${callee}(...)`;
  }
  return '(anonymous)';
}

/** Every function of `text` whose body spans more than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_BODY_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const first = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, line: first + 1, name: nameOf(node as ts.FunctionLikeDeclaration, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const rel = relative(ROOT, full).split(sep).join('/');
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_DIRS.has(rel)) sourceFiles(full, out);
    } else if (entry.isFile() && EXTENSIONS.has(extname(entry.name)) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

test('longFunctions names declarations, methods, arrows and callbacks by what holds them', () => {
  const body = (n: number) => `{\n${'  x;\n'.repeat(n)}}`;
  const text = [
    `function declared() ${body(3)}`,
    `const arrow = () => ${body(3)};`,
    `class C { method() ${body(3)} constructor() ${body(3)} }`,
    `const o = { property: function () ${body(3)} };`,
    `test('a title', async () => ${body(3)});`,
    `function short() ${body(1)}`,
  ].join('\n');
  const names = longFunctions('x.ts', text, 4).map((f) => `${f.name}:${f.lines}`);
  assert.deepEqual(names, ['declared:5', 'arrow:5', 'method:5', 'constructor:5', 'property:5', "test('a title', ...):5"]);
});

test(`no function body of the project spans more than ${MAX_BODY_LINES} lines`, () => {
  const long = sourceFiles(ROOT).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // A file shorter than the limit holds no long function: not worth parsing.
    return text.split('\n', MAX_BODY_LINES + 1).length <= MAX_BODY_LINES ? [] : longFunctions(file, text);
  });
  const key = (f: LongFunction) => `${f.file}: ${f.name}`;
  const unlisted = long.filter((f) => !(key(f) in NOT_YET_SPLIT)).map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`);
  assert.deepEqual(unlisted, [], `split these functions into named steps of at most ${MAX_BODY_LINES} lines each`);
  const stale = Object.keys(NOT_YET_SPLIT).filter((k) => !long.some((f) => key(f) === k));
  assert.deepEqual(stale, [], 'these functions are split (or gone): remove their entries from NOT_YET_SPLIT');
});
