/**
 * A config file that does not parse: the message names the file, the line and column and
 * the reason (esbuild's for a module, not only "Transform failed with 1 error"; JSON's), what the user must fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile } from './load.ts';

test('a TypeScript config with a syntax error: its file:line:column and the reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-syntax-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'svc-conformance.config.ts');
  writeFileSync(file, "export default {\n  target: { baseUrl: 'https://x.example' ,,\n};\n");
  await assert.rejects(loadConfigFile(file), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.match(
      e.message,
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be loaded: \\S*svc-conformance\\.config\\.ts:2:\\d+: ERROR: Expected identifier`),
    );
    assert.doesNotMatch(e.message, /Transform failed/);
    return true;
  });
});

test('a JSON config with a syntax error: its file:line:column as an editor counts them, and the reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-json-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'svc-conformance.config.json');
  // A trailing comma: the closing brace on line 4, column 3, is where JSON stops.
  writeFileSync(file, '{\n  "target": {\n    "baseUrl": "https://x.example",\n  }\n}\n');
  await assert.rejects(loadConfigFile(file), (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${file}:4:3 is not valid JSON: `));
  writeFileSync(file, '');
  await assert.rejects(loadConfigFile(file), (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${file} is not valid JSON: `));
});

test('a config module that is empty or has no default export is refused, never read as no settings', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-nodefault-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rule = '(export default defineConfig({...}))';
  const empty = join(dir, 'svc-conformance.config.ts');
  writeFileSync(empty, '\n');
  await assert.rejects(
    loadConfigFile(empty),
    (e: unknown) => e instanceof ConfigError && e.message === `${empty} is empty: its default export is the config ${rule}`,
  );
  const named = join(dir, 'named.config.mjs');
  writeFileSync(named, "export const config = { target: { baseUrl: 'https://x.example' } };\n");
  await assert.rejects(
    loadConfigFile(named),
    (e: unknown) => e instanceof ConfigError && e.message === `${named} exports no config: its default export is the config ${rule}`,
  );
  const cjs = join(dir, 'svc-conformance.config.cjs');
  writeFileSync(cjs, "module.exports = { target: { baseUrl: 'https://x.example' } };\n");
  assert.deepEqual(await loadConfigFile(cjs), { target: { baseUrl: 'https://x.example' } }, 'a CommonJS module.exports is its default export');
});
