/**
 * The self-test stays out of the production module graph (../shared/DESIGN.md, "Playwright's
 * own tests": the self-test's fixtures belong to the self-test's own `test`, not to every
 * scenario). `npm run conformance` loads playwright.config.ts, every scenario spec, the
 * global setup and the reporters the config names; the transitive closure of their relative
 * imports (tests/import-graph.ts reads them) holds no file of proof/ and no module
 * named for the self-test: the self-test's plan, its per-entry `test`, its fixtures and its
 * configuration live in proof/, and reach the scenarios only under that configuration
 * (proof/entry-test-hook.mjs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceReporters } from '../reports/reporters.ts';
import { projectImports, type Import } from './import-graph.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Every file a relative import reaches from `roots`, the roots included. */
export function closureOf(roots: readonly string[], imports: readonly Import[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(next.get(file) ?? []));
  }
  return seen;
}

/** A module of the self-test: anything under proof/, or named for the self-test wherever it lies. */
const isSelftestModule = (file: string) => file.startsWith('proof/') || file.toLowerCase().includes('selftest');

/** Files of the self-test reached from the production roots. */
export const selftestFilesIn = (closure: ReadonlySet<string>): string[] => [...closure].filter(isSelftestModule).sort();

function specFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) specFiles(full, out);
    else if (name.endsWith('.spec.ts')) out.push(rel(full));
  }
  return out;
}

/** What `npm run conformance` loads by itself: its configuration, the global setup and reporters it names, every scenario spec. */
export function productionRoots(): string[] {
  const reporters = conformanceReporters({ out: join(ROOT, 'reports/out'), listing: false })
    .map(([name]) => name)
    .filter((name) => name.startsWith('/'))
    .map(rel);
  return ['playwright.config.ts', 'scenarios/global-setup.ts', ...reporters, ...specFiles(join(ROOT, 'scenarios'))];
}

test('npm run conformance loads no module of the self-test: the closure of its relative imports', () => {
  const roots = productionRoots();
  for (const root of roots) assert.ok(existsSync(join(ROOT, root)), `${root} exists`);
  assert.ok(
    roots.some((r) => r.startsWith('scenarios/api/')) && roots.includes('reports/redaction-reporter.ts'),
    'the specs and the reporters are among the roots',
  );
  const closure = closureOf(roots, projectImports());
  // The reader followed the imports: the fixtures, the contract's door and the target's door are in it.
  for (const reached of ['scenarios/fixtures.ts', 'contracts/index.ts', 'targets/index.ts']) assert.ok(closure.has(reached), `${reached} is reached`);
  console.log(`production closure: ${closure.size} files from ${roots.length} roots; of the self-test: ${selftestFilesIn(closure).join(', ') || 'none'}`);
  assert.deepEqual(selftestFilesIn(closure), []);
});

test('the closure catches a production file that reaches proof/ (a forbidden example)', () => {
  const imports: Import[] = [
    { from: 'playwright.config.ts', to: 'scenarios/fixtures.ts' },
    { from: 'scenarios/fixtures.ts', to: 'scenarios/fixtures/client.ts' },
    { from: 'scenarios/fixtures/client.ts', to: 'proof/playwright-plan.ts' },
    { from: 'proof/playwright.config.ts', to: 'scenarios/fixtures.ts' },
  ];
  const closure = closureOf(['playwright.config.ts'], imports);
  assert.deepEqual(selftestFilesIn(closure), ['proof/playwright-plan.ts']);
  // The self-test's own configuration importing the scenarios is the allowed direction.
  assert.deepEqual(selftestFilesIn(closureOf(['playwright.config.ts'], imports.slice(0, 2))), []);
});
