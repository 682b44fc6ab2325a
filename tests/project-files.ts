/**
 * The project's own files, for the tests that read the whole tree: no issue numbers, every
 * file a comment names exists, no long functions. One walker, so each of them reads the
 * same tree.
 */
import { readdirSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Folders never read: dependencies, git and the ignored outputs (.gitignore). */
const SKIP_DIRS = new Set(['node_modules', '.git', 'reports/out', 'test-results', 'playwright-report', 'blob-report', 'allure-results', '.tmp']);

/**
 * Every file under the project's root (relative, `/`-separated) whose extension is one of
 * `extensions`, outside the folders above and those in `skip` (names or paths).
 */
export function projectFiles(extensions: ReadonlySet<string>, skip: readonly string[] = []): string[] {
  const skipped = new Set([...SKIP_DIRS, ...skip]);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const rel = relative(PROJECT_ROOT, full).split(sep).join('/');
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name) && !skipped.has(rel)) walk(full);
      } else if (entry.isFile() && extensions.has(extname(entry.name))) out.push(rel);
    }
  };
  walk(PROJECT_ROOT);
  return out;
}
