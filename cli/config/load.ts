/**
 * Finding, loading and validating the config file, and turning it into the environment a
 * run hands to the target profile (targets/profiles/: the one reader of SVC_* variables).
 *
 *   file  ->  validate (JSON Schema from the settings table, ajv)  ->  SVC_* values
 *         ->  the process environment on top (environment variables override the file)
 *
 * A config file holds every non-secret setting; secrets come from the environment only.
 * Everything wrong with a file is reported at once, before anything runs, each problem
 * naming its key and what is accepted (ConfigError; the CLI prints it and exits 2).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { tsImport } from 'tsx/esm/api';
import { settingText, settingValue } from '../../targets/index.ts';
import { SETTINGS, settingEntries, type Setting, type SettingEntry, type SvcConfig } from './schema.ts';
import { resolvePackageNameToSelf } from './self-reference.ts';

const CONFIG_FILE_NAMES = [
  'svc-conformance.config.ts',
  'svc-conformance.config.mts',
  'svc-conformance.config.mjs',
  'svc-conformance.config.js',
  'svc-conformance.config.json',
];

/** A problem with the user's configuration: printed as is, exit code 2 (usage). */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length ? `${message}\n${problems.map((p) => `  - ${p}`).join('\n')}` : message);
    this.name = 'ConfigError';
  }
}

const ENTRIES = settingEntries();
const BY_KEY = new Map(ENTRIES.map((e) => [e.key, e]));

/** What a setting accepts, as a person reads it. */
export function accepted(s: Setting): string {
  switch (s.kind) {
    case 'url':
      return 'an http(s) URL';
    case 'integer':
      return `an integer${s.min !== undefined ? ` >= ${s.min}` : ''}${s.max !== undefined ? ` <= ${s.max}` : ''}`;
    case 'number':
      return `a number${s.min !== undefined ? ` >= ${s.min}` : ''}${s.max !== undefined ? ` <= ${s.max}` : ''}`;
    case 'boolean':
      return 'true or false';
    case 'list':
      return 'a list of strings';
    case 'enum':
      return `one of ${s.values!.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'date':
      return 'a date YYYY-MM-DD';
    case 'version':
      return 'a version name v<YYYYMMDD>';
    case 'path-template':
      return 'a path starting with / (placeholders such as {user_guid} allowed)';
    case 'selector':
      return 'a non-empty CSS selector';
    case 'file-path':
      return "a path (relative to the config file's folder)";
    case 'file-list':
      return "a list of paths (each relative to the config file's folder)";
    default:
      return 'a string';
  }
}

function leafSchema(s: Setting): Record<string, unknown> {
  switch (s.kind) {
    case 'url':
      return { type: 'string', pattern: '^https?://[^\\s]+$' };
    case 'integer':
      return { type: 'integer', ...(s.min !== undefined ? { minimum: s.min } : {}), ...(s.max !== undefined ? { maximum: s.max } : {}) };
    case 'number':
      return { type: 'number', ...(s.min !== undefined ? { minimum: s.min } : {}), ...(s.max !== undefined ? { maximum: s.max } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'list':
    case 'file-list':
      return { type: 'array', items: { type: 'string', minLength: 1, pattern: '^[^,]*$' } };
    case 'enum':
      return { enum: [...s.values!] };
    case 'date':
      return { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'version':
      return { type: 'string', pattern: '^v\\d{8}$' };
    case 'path-template':
      return { type: 'string', pattern: '^/' };
    case 'selector':
    case 'file-path':
      return { type: 'string', minLength: 1 };
    default:
      return { type: 'string' };
  }
}

function isSetting(x: unknown): x is Setting {
  return typeof x === 'object' && x !== null && 'kind' in x && 'env' in x;
}

/** The JSON Schema of a config file (draft 2020-12), generated from the settings table. */
export function configJsonSchema(): Record<string, unknown> {
  const node = (tree: object): Record<string, unknown> => {
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(tree)) {
      if (isSetting(v)) {
        if (v.secret) continue; // never in a file
        properties[k] = { ...leafSchema(v), description: `${v.doc} Environment: ${v.env}.${v.default ? ` Default: ${v.default}.` : ''}` };
      } else {
        const child = node(v as object);
        if (Object.keys(child.properties as object).length) properties[k] = child;
      }
    }
    return { type: 'object', additionalProperties: false, properties };
  };
  const root = node(SETTINGS);
  (root.properties as Record<string, unknown>).$schema = { type: 'string' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://svc-conformance.dev/config.schema.json',
    title: 'svc-conformance config file',
    ...root,
  };
}

let compiled: ReturnType<Ajv['compile']> | undefined;
function validator() {
  if (!compiled) {
    const { $schema: _drop, ...schema } = configJsonSchema();
    compiled = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return compiled;
}

/** Edit distance, for "did you mean" on unknown keys. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
  return d[a.length][b.length];
}

function childrenOf(path: string): string[] {
  let tree: unknown = SETTINGS;
  for (const part of path ? path.split('.') : []) tree = (tree as Record<string, unknown>)[part];
  if (!tree || isSetting(tree)) return [];
  const prefix = path ? `${path}.` : '';
  return Object.entries(tree as object)
    .filter(([k, v]) => (isSetting(v) ? !v.secret : ENTRIES.some((s) => s.key.startsWith(`${prefix}${k}.`) && !s.secret)))
    .map(([k]) => k);
}

function describeError(e: ErrorObject, config: unknown): string {
  const path = e.instancePath.split('/').slice(1).map(decodeURIComponent);
  const key = path.filter((p) => !/^\d+$/.test(p)).join('.');
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    const full = key ? `${key}.${extra}` : extra;
    const known = childrenOf(key);
    const secretEntry = BY_KEY.get(full);
    if (secretEntry?.secret) return secretOnly(secretEntry);
    const group = ENTRIES.filter((s) => s.key.startsWith(`${full}.`));
    if (group.length && group.every((s) => s.secret)) {
      return `"${full}" holds secrets only: set ${group.map((s) => s.env).join(', ')} in the environment (or your CI's secret store), never in a config file, which is committed with your code.`;
    }
    // A secret's name under another group ("target.apiKey"): it belongs to the environment, named.
    const secretElsewhere = ENTRIES.find((s) => s.secret && s.key.endsWith(`.${extra}`));
    if (secretElsewhere) return `unknown key "${full}": ${secretOnly(secretElsewhere)}`;
    const near = known.filter((k) => distance(k, extra) <= Math.max(2, Math.floor(extra.length / 3)));
    // A setting of another group under the same name ("requestMs" at the top level).
    const elsewhere = ENTRIES.filter((s) => s.key.endsWith(`.${extra}`) && !s.secret).map((s) => s.key);
    const hint = near.length
      ? ` Did you mean ${near.map((n) => `"${key ? `${key}.` : ''}${n}"`).join(' or ')}?`
      : elsewhere.length
        ? ` Did you mean ${elsewhere.map((n) => `"${n}"`).join(' or ')}?`
        : '';
    return `unknown key "${full}".${hint} Accepted ${key ? `keys of "${key}"` : 'top-level keys'}: ${known.join(', ')}.`;
  }
  const entry = BY_KEY.get(key);
  let value: unknown = config;
  for (const p of path) value = (value as Record<string, unknown>)?.[p];
  if (entry)
    return `"${key}" must be ${accepted(entry)}${(entry.kind === 'list' || entry.kind === 'file-list') && path.length > key.split('.').length ? ' (each entry a non-empty string without commas)' : ''}, got ${JSON.stringify(value)}.`;
  return `"${key || '(the file)'}" must be an object of settings, got ${JSON.stringify(value)}.`;
}

function secretOnly(s: SettingEntry): string {
  return `"${s.key}" is a secret: set ${s.env} in the environment (or your CI's secret store), never in a config file, which is committed with your code.`;
}

/** Every problem of a config object, each naming its key and what is accepted; [] when valid. */
export function configProblems(config: unknown): string[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return ['the config must be an object (export default defineConfig({...}))'];
  const validate = validator();
  if (validate(config)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of validate.errors ?? []) {
    // ajv reports a failed `if` or a pattern twice in some shapes: one line per problem.
    const line = describeError(e, config);
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  }
  return out;
}

/** The config file to use: the one named, else the first of CONFIG_FILE_NAMES in `cwd`; undefined when none. */
function findConfigFile(cwd: string, named?: string): string | undefined {
  if (named) {
    const file = isAbsolute(named) ? named : resolve(cwd, named);
    if (!existsSync(file)) throw new ConfigError(`config file not found: ${file}`);
    return file;
  }
  return CONFIG_FILE_NAMES.map((n) => resolve(cwd, n)).find((f) => existsSync(f));
}

/**
 * What went wrong loading a module config, in one line: esbuild's "Transform failed with N
 * error(s):" says only that it failed; the line after it holds the first error's
 * file:line:column and reason, which is what the user must fix.
 */
function loadFailure(message: string): string {
  const [first, ...rest] = message.split('\n');
  const counted = /^Transform failed with (\d+) errors?:$/.exec(first.trim());
  const reason = rest.find((l) => l.trim());
  if (!counted || !reason) return first;
  const more = Number(counted[1]) - 1;
  return `${reason.trim()}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`;
}

/**
 * `:line:column` of a JSON syntax error, from the offset Node's message gives ("at position
 * 53"), as an editor counts them: what the user must find, where a .ts config's error names it too.
 */
function jsonErrorPlace(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  if (!at) return '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `:${line}:${before.length - before.lastIndexOf('\n')}`;
}

/** Reads and validates a config file: a JSON file, or a module whose default export is the config. */
export async function loadConfigFile(file: string): Promise<SvcConfig> {
  let config: unknown;
  if (extname(file) === '.json') {
    const text = readFileSync(file, 'utf8');
    try {
      config = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`${file}${jsonErrorPlace(text, (e as Error).message)} is not valid JSON: ${(e as Error).message}`);
    }
  } else {
    // An empty module compiles to an empty CommonJS export, read as `{}`: no settings, every
    // suite against the embedded simulator, a gate that checked nothing of the target meant.
    if (readFileSync(file, 'utf8').trim() === '')
      throw new ConfigError(`${file} is empty: its default export is the config (export default defineConfig({...}))`);
    try {
      // tsx's own import, not the host's: a .ts config in a project whose package.json says
      // nothing of "type" compiles to CommonJS, which Node 20 cannot load through import()
      // of the same file; tsImport loads either kind.
      resolvePackageNameToSelf();
      const mod = (await tsImport(pathToFileURL(file).href, import.meta.url)) as { default?: unknown };
      // An ES module without a default export (a config written under another name) holds no settings.
      if (!Object.hasOwn(mod, 'default'))
        throw new ConfigError(`${file} exports no config: its default export is the config (export default defineConfig({...}))`);
      config = mod.default;
      // A CommonJS-compiled `export default` arrives as { default: config } (with __esModule).
      if (config && typeof config === 'object' && 'default' in config && Object.keys(config).every((k) => k === 'default' || k === '__esModule')) {
        config = (config as { default: unknown }).default;
      }
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(`${file} could not be loaded: ${loadFailure((e as Error).message)}`);
    }
  }
  const problems = configProblems(config);
  if (problems.length) throw new ConfigError(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was run.`, problems);
  return config as SvcConfig;
}

/** A config value as its variable's text (the table's settingText), a path resolved against the config file's folder. */
function envValue(s: Setting, v: unknown, baseDir: string): string {
  if (s.kind === 'file-path') return resolve(baseDir, String(v));
  if (s.kind === 'file-list')
    return settingText(
      s,
      (v as string[]).map((f) => resolve(baseDir, f)),
    );
  return settingText(s, v);
}

/** The SVC_* values a config sets (secrets never: the validator refuses them); paths resolved against `baseDir`, the config file's folder. */
export function configEnv(config: SvcConfig, baseDir = process.cwd()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of ENTRIES) {
    if (e.secret) continue;
    let v: unknown = config;
    for (const p of e.key.split('.')) v = (v as Record<string, unknown> | undefined)?.[p];
    if (v !== undefined) out[e.env] = envValue(e, v, baseDir);
  }
  return out;
}

/**
 * The config file that holds the non-secret SVC_* settings of an environment (`config
 * init --from-env`: a team moving from variables to a file). Values are read as the
 * profile reads them: booleans 1/true/yes, lists comma-separated, numbers as numbers.
 */
export function configFromEnv(env: NodeJS.ProcessEnv): SvcConfig {
  const out: Record<string, unknown> = {};
  for (const e of ENTRIES) {
    const raw = env[e.env];
    if (e.secret || raw === undefined || raw === '') continue;
    const value = settingValue(e, raw);
    const path = e.key.split('.');
    let node = out;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = value;
  }
  const problems = configProblems(out);
  if (problems.length) throw new ConfigError('the environment holds settings a config file cannot take:', problems);
  return out as SvcConfig;
}

export type SettingSource = 'environment' | 'config file' | 'default';

export interface ResolvedSettings {
  /** The config file read, if any. */
  file?: string;
  /** The environment a run gets: the file's values, the process environment on top. */
  env: Record<string, string | undefined>;
  /** Where each setting that is set came from. */
  sources: Map<string, SettingSource>;
}

/**
 * The environment of a run: the config file's settings, then the process environment,
 * which wins (a CI job overrides one value without editing the file).
 */
export async function resolveSettings(o: { cwd: string; configFile?: string; env?: NodeJS.ProcessEnv; noConfig?: boolean }): Promise<ResolvedSettings> {
  const processEnv = o.env ?? process.env;
  const file = o.noConfig ? undefined : findConfigFile(o.cwd, o.configFile);
  const fromFile = file ? configEnv(await loadConfigFile(file), dirname(file)) : {};
  const sources = new Map<string, SettingSource>();
  for (const e of ENTRIES) {
    if (processEnv[e.env] !== undefined && processEnv[e.env] !== '') sources.set(e.key, 'environment');
    else if (fromFile[e.env] !== undefined) sources.set(e.key, 'config file');
  }
  const env: Record<string, string | undefined> = { ...fromFile };
  for (const [k, v] of Object.entries(processEnv)) if (v !== undefined && !(v === '' && fromFile[k] !== undefined)) env[k] = v;
  return { ...(file ? { file } : {}), env, sources };
}

export { ENTRIES as SETTING_ENTRIES };
