/**
 * The project's playwright.config.ts plus a JSON reporter (<out>/playwright.json)
 * that the nightly reads for the gate, the warnings and the pass-rate trend. Paths are
 * made absolute because Playwright resolves them against this file's directory.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import base from '../playwright.config.ts';
import { loadProfile } from '../targets/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** SVC_REPORTS_OUT (profile.run.reportsOut) moves every reporter's output (the redaction test writes beside the nightly's). */
const out = loadProfile().run.reportsOut;
const abs = (p: string | undefined) => (p ? resolve(root, p) : p);
type ReporterEntry = [string, Record<string, unknown>?];

const reporters = ((base.reporter ?? []) as unknown as ReporterEntry[]).map(([name, options]): ReporterEntry => {
  // A reporter given as a file path is resolved against the config's directory: make it absolute.
  const reporter = name.startsWith('./') ? resolve(root, name) : name;
  if (!options) return [reporter];
  const o = { ...options };
  for (const key of ['outputFile', 'outputFolder', 'resultsDir']) if (typeof o[key] === 'string') o[key] = abs(o[key] as string);
  return [reporter, o];
});

export default {
  ...base,
  globalSetup: abs(base.globalSetup as string),
  outputDir: abs(base.outputDir),
  reporter: [...reporters, ['json', { outputFile: resolve(out, 'playwright.json') }]],
  projects: (base.projects ?? []).map((p) => ({ ...p, testDir: abs(p.testDir) })),
};
