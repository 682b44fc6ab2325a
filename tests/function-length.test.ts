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
 * The files are parsed, not type-checked: Oxc's parser (the one knip reads the tree with),
 * whose ESTree nodes carry their offsets in the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'oxc-parser';
import { PROJECT_ROOT, projectFiles } from './project-files.ts';

/** The longest body, in lines from its opening to its closing line, a function may have. */
export const MAX_BODY_LINES = 150;

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

/** An ESTree node as Oxc's parser gives it: its type, its offsets in the text, its fields. */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && typeof (v as AstNode).type === 'string';

/** The nodes that hold a function body (ESTree: declarations, expressions, arrows; a method's or accessor's is its FunctionExpression). */
const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** A readable name for a function node: its own name, the method, variable, property or call it is given to. */
function nameOf(node: AstNode, parent: AstNode | undefined, text: string): string {
  // An identifier by its name (TS-ESTree spans a declared variable's type annotation too), anything else by its text.
  const source = (n: unknown) => (!isNode(n) ? '' : n.type === 'Identifier' ? String(n.name) : text.slice(n.start, n.end));
  const id = node.id;
  if (isNode(id)) return source(id);
  if (!parent) return '(anonymous)';
  if (parent.type === 'MethodDefinition' && parent.kind === 'constructor') return 'constructor';
  if (['MethodDefinition', 'Property', 'PropertyDefinition'].includes(parent.type)) {
    const key = source(parent.key);
    return parent.computed ? `[${key}]` : key;
  }
  if (parent.type === 'VariableDeclarator') return source(parent.id);
  if (parent.type === 'CallExpression') {
    const callee = source(parent.callee);
    const args = (parent.arguments as AstNode[]) ?? [];
    const title = args.find(
      (a) => (a.type === 'Literal' && typeof a.value === 'string') || (a.type === 'TemplateLiteral' && (a.expressions as unknown[]).length === 0),
    );
    return title ? `${callee}(${source(title)}, ...)` : `argument of ${callee}(...)`;
  }
  return '(anonymous)';
}

/** The 0-based line of an offset: the number of line starts at or before it, less one. */
function lineAt(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Every function of `text` whose body spans more than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_BODY_LINES): LongFunction[] {
  const parsed = parseSync(file, text);
  if (parsed.errors.length) throw new Error(`${file} does not parse: ${parsed.errors[0].message}`);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const found: LongFunction[] = [];
  const visit = (node: AstNode, parent: AstNode | undefined): void => {
    const body = node.body;
    if (FUNCTION_TYPES.has(node.type) && isNode(body)) {
      const first = lineAt(lineStarts, body.start);
      const lines = lineAt(lineStarts, body.end) - first + 1;
      if (lines > max) found.push({ file, line: first + 1, name: nameOf(node, parent, text), lines });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, node);
      } else if (isNode(value)) visit(value, node);
    }
  };
  visit(parsed.program as unknown as AstNode, undefined);
  return found;
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
  const long = projectFiles(EXTENSIONS, ['history/vendor'])
    .filter((f) => !f.endsWith('.d.ts'))
    .flatMap((file) => {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      // A file shorter than the limit holds no long function: not worth parsing.
      return text.split('\n', MAX_BODY_LINES + 1).length <= MAX_BODY_LINES ? [] : longFunctions(file, text);
    });
  const key = (f: LongFunction) => `${f.file}: ${f.name}`;
  const unlisted = long.filter((f) => !(key(f) in NOT_YET_SPLIT)).map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`);
  assert.deepEqual(unlisted, [], `split these functions into named steps of at most ${MAX_BODY_LINES} lines each`);
  const stale = Object.keys(NOT_YET_SPLIT).filter((k) => !long.some((f) => key(f) === k));
  assert.deepEqual(stale, [], 'these functions are split (or gone): remove their entries from NOT_YET_SPLIT');
});
