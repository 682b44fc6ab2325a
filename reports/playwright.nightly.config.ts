/**
 * The project's playwright.config.ts plus a JSON reporter (reports/out/playwright.json)
 * that the nightly reads for the gate, the warnings and the pass-rate trend. Paths are
 * made absolute because Playwright resolves them against this file's directory.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import base from '../playwright.config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const abs = (p: string | undefined) => (p ? resolve(root, p) : p);
type ReporterEntry = [string, Record<string, unknown>?];

const reporters = ((base.reporter ?? []) as unknown as ReporterEntry[]).map(([name, options]): ReporterEntry => {
  if (!options) return [name];
  const o = { ...options };
  for (const key of ['outputFile', 'outputFolder', 'resultsDir']) if (typeof o[key] === 'string') o[key] = abs(o[key] as string);
  return [name, o];
});

export default {
  ...base,
  globalSetup: abs(base.globalSetup as string),
  outputDir: abs(base.outputDir),
  reporter: [...reporters, ['json', { outputFile: resolve(root, 'reports/out/playwright.json') }]],
  projects: (base.projects ?? []).map((p) => ({ ...p, testDir: abs(p.testDir) })),
};
