/**
 * The project's relative imports, read from its source files: what the import rules
 * (import-rules.test.ts) and the production graph (production-graph.test.ts) are judged on.
 * A small reader of import specifiers rather than a dependency tool: the project's imports are
 * all relative, written with their `.ts` extension, so the path is the specifier resolved
 * against the importing file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SKIP = new Set(['node_modules', 'out', '.git']);

export interface Import {
  /** Importing file, relative to the root, `/`-separated. */
  from: string;
  /** Imported file, relative to the root, `/`-separated. */
  to: string;
}

/** Relative specifiers of `import ... from`, `export ... from`, `import '...'` and `import('...')`, comments left out. */
export function specifiersOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"`])(\.{1,2}\/[^'"`$?]+)/g)) out.push(m[2]);
  return out;
}

function sourceFiles(dir: string, files: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, files);
    else if (/\.(ts|mts|mjs|js)$/.test(name)) files.push(full);
  }
  return files;
}

export function projectImports(root = ROOT): Import[] {
  const out: Import[] = [];
  for (const file of sourceFiles(root)) {
    const from = relative(root, file).split(sep).join('/');
    const source = readFileSync(file, 'utf8');
    for (const spec of specifiersOf(source)) {
      out.push({
        from,
        to: relative(root, resolve(dirname(file), spec))
          .split(sep)
          .join('/'),
      });
    }
    // The one package import a rule names (rule 4): recorded as the bare package name.
    if (/\bfrom\s*['"]fastify['"]|\bimport\s*\(\s*['"]fastify['"]/.test(source)) out.push({ from, to: 'npm:fastify' });
  }
  return out;
}
