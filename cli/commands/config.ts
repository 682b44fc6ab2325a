/**
 * `svc-conformance config`: the config file (cli/config/): a starting one written, one checked
 * with every setting in force and its source, the settings reference and the JSON Schema.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { installedAsDependency, PACKAGE_ROOT } from '../../targets/index.ts';
import { configFromEnv, configJsonSchema, SETTING_ENTRIES } from '../config/load.ts';
import { configFileOf, configFormatOf, configTemplate, settingsMarkdown } from '../config/init.ts';
import { describeTarget, outputPath, profileOf, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function configCheck(cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  console.log(settings.file ? `config file: ${settings.file} (valid)` : 'config file: none found (svc-conformance config init writes one)');
  console.log(`target: ${describeTarget(profile)}`);
  const rows = SETTING_ENTRIES.filter((e) => settings.sources.has(e.key)).map((e) => {
    // A secret's length narrows a guess at it: only that it is set is shown.
    const shown = e.secret ? 'set (not shown)' : (settings.env[e.env] ?? '');
    return `  ${e.key.padEnd(36)} ${shown}  [${settings.sources.get(e.key)}: ${e.env}]`;
  });
  console.log(
    rows.length ? `settings in force (${rows.length}):\n${rows.join('\n')}` : 'settings in force: none (the embedded simulator, with its documented defaults)',
  );
  return 0;
}

/**
 * The format `config init` writes: --format, else the one the file's name says (a .json file
 * holds JSON, a module name TypeScript), else ts. A name that says one format and a --format
 * that says the other is refused: the loader reads a file by its name (cli/config/load.ts).
 */
function initFormat(o: { format?: string; file?: string }): 'ts' | 'json' {
  if (o.format !== undefined && o.format !== 'ts' && o.format !== 'json') throw new UsageError(`--format is ts or json, got "${o.format}"`);
  if (!o.file) return o.format ?? 'ts';
  const named = configFormatOf(o.file);
  if (!named) throw new UsageError(`--file takes a .ts, .mts, .mjs, .js or .json file name, got "${o.file}"`);
  if (o.format && o.format !== named)
    throw new UsageError(
      `--format ${o.format} and --file ${o.file} disagree: a ${named === 'json' ? '.json file holds JSON' : 'module file holds TypeScript'}`,
    );
  return named;
}

function configInit(o: { format?: string; force?: boolean; file?: string; fromEnv?: boolean }): number {
  const format = initFormat(o);
  const file = outputPath('--file', o.file ?? `svc-conformance.config.${format}`, 'file');
  // As --write-config: a config file goes into a project's folder, which a mistyped path does not make.
  if (!existsSync(dirname(file))) throw new UsageError(`--file ${o.file}: the folder ${dirname(file)} does not exist`);
  if (existsSync(file) && !o.force) throw new UsageError(`${file} exists; --force overwrites it`);
  writeFileSync(file, o.fromEnv ? configFileOf(configFromEnv(process.env), format) : configTemplate(format));
  console.log(`wrote ${file}\nnext: set SVC_CLIENT_ID and SVC_API_KEY (and the test passwords) in the environment, then: npx svc-conformance preflight`);
  return 0;
}

function configDocs(o: { check?: boolean; out?: string }): number {
  // In this project's checkout the reference is its docs/; an installed package never writes
  // into node_modules: the team's own folder gets svc-conformance-docs/.
  const given = o.out ?? (installedAsDependency() ? join(process.cwd(), 'svc-conformance-docs/settings.md') : join(PACKAGE_ROOT, 'docs/settings.md'));
  // --check only reads: a read-only checkout may still be checked.
  const file = o.check ? resolve(given) : outputPath(o.out ? '--out' : 'the settings reference', given, 'file');
  const md = settingsMarkdown();
  if (o.check) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== md) {
      console.error(`${file} is stale: run svc-conformance config docs`);
      return 1;
    }
    console.log(`${file} is current`);
    return 0;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, md);
  writeFileSync(join(dirname(file), 'config.schema.json'), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  console.log(`wrote ${file} and ${join(dirname(file), 'config.schema.json')}`);
  return 0;
}

export function addConfigCommand(program: Command, wrap: Wrap): void {
  const config = program.command('config').description('the config file: write a starting one, check one, document every setting');
  config
    .command('init')
    .description('write a starting config file for a real integration environment')
    .option('--format <format>', 'ts or json (default: what the --file name says, else ts)')
    .option('--file <path>', 'where to write it (.ts, .mts, .mjs, .js or .json; default svc-conformance.config.<format>)')
    .option('--force', 'overwrite an existing file')
    .option('--from-env', 'hold every non-secret SVC_* setting of this environment (moving from variables to a file)')
    .action(wrap((o) => configInit(o)));
  config
    .command('check')
    .description('validate the config file and the environment, and show every setting in force and where it came from (secrets masked)')
    .action(wrap((_o, cmd: Command) => configCheck(cmd)));
  config
    .command('docs')
    .description('write the settings reference (docs/settings.md) and the config JSON Schema, generated from the settings table')
    .option('--check', 'only check that the written reference is current (exit 1 when stale)')
    .option('--out <file>', 'where to write the markdown')
    .action(wrap((o) => configDocs(o)));
  config
    .command('schema')
    .description("print the config file's JSON Schema")
    .action(
      wrap(() => {
        console.log(JSON.stringify(configJsonSchema(), null, 2));
        return 0;
      }),
    );
}
