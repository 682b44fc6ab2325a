/**
 * The installed package's own TypeScript is compiled with every statement on its source line
 * (line-preserving-hooks.mjs), so a run from node_modules names each test and each stack
 * frame at its line, as a run from the checkout does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from './index.ts';
// @ts-expect-error: a plain ES module without declarations (it runs before any TypeScript support)
import { isOwnTypeScript, stripTypes } from './line-preserving-hooks.mjs';

const NOT_READ = new Set(['node_modules', '.git', 'out']);

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (NOT_READ.has(e.name) ? [] : typeScriptFiles(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('every TypeScript file of the package compiles with each test and function declaration on its source line', () => {
  const files = typeScriptFiles(PACKAGE_ROOT);
  assert.ok(files.length > 300, `${files.length} files`);
  let landmarks = 0;
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const code: string = stripTypes(source, file);
    const sourceLines = source.split('\n');
    const codeLines = code.split('\n');
    assert.equal(codeLines.length, sourceLines.length, relative(PACKAGE_ROOT, file));
    sourceLines.forEach((line, i) => {
      const start = /^\s*(test(\.describe)?\(|export (async )?function \w+)/.exec(line)?.[0];
      if (!start) return;
      landmarks++;
      assert.ok(codeLines[i].startsWith(start), `${relative(PACKAGE_ROOT, file)}:${i + 1}: ${codeLines[i].slice(0, 80)}`);
    });
  }
  assert.ok(landmarks > 1000, `${landmarks} declarations checked`);
});

test("only the package's own .ts files are compiled here; its dependencies and other files go on to tsx", () => {
  const own = (path: string) => pathToFileURL(join(PACKAGE_ROOT, path)).href;
  assert.equal(isOwnTypeScript(own('scenarios/browser/widget.spec.ts')), true);
  assert.equal(isOwnTypeScript(own('node_modules/some-dependency/index.ts')), false);
  assert.equal(isOwnTypeScript(own('targets/line-preserving-loader.mjs')), false);
  assert.equal(isOwnTypeScript(`${own('scenarios/api/users.spec.ts')}?tsx-namespace=1`), false, "a URL another loader marked is that loader's");
  assert.equal(isOwnTypeScript(pathToFileURL('/elsewhere/spec.ts').href), false);
});
