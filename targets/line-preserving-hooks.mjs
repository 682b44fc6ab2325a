/**
 * The hooks of a module loader for the installed package's own TypeScript, registered in every
 * Playwright process of a run from node_modules (line-preserving-loader.mjs, after tsx's;
 * targets/process.ts nodeOptionsFor).
 *
 * Why: Playwright compiles test files itself, with source maps it reads when it names a test's
 * location and a failure's stack, but never inside node_modules. tsx, which compiles what
 * Playwright leaves alone, writes each file on one line (esbuild's minifyWhitespace), and
 * Playwright reads no source map but its own: every scenario of an installed package was
 * "widget.spec.ts:1:8594", in the console, the HTML report and every stack a user reads first.
 * Sucrase strips the types and keeps every statement on its line, so no map is needed.
 *
 * Only this package's .ts files outside its own node_modules; everything else (resolution,
 * JSON, other packages) goes on to the next loader, tsx's.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'sucrase';

const PACKAGE_ROOT = new URL('../', import.meta.url).href;

/** Whether a module URL is one of this package's own TypeScript files. */
export function isOwnTypeScript(url) {
  if (!url.startsWith(PACKAGE_ROOT)) return false;
  const { pathname, search } = new URL(url);
  return !search && pathname.endsWith('.ts') && !url.slice(PACKAGE_ROOT.length).startsWith('node_modules/');
}

/** The file's JavaScript, every statement on the line it has in the TypeScript source. */
export function stripTypes(source, path) {
  return transform(source, { transforms: ['typescript'], disableESTransforms: true, filePath: path }).code;
}

export async function load(url, context, nextLoad) {
  if (!isOwnTypeScript(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  return { format: 'module', source: stripTypes(await readFile(path, 'utf8'), path), shortCircuit: true };
}
