/**
 * `svc-conformance config`: the config file (cli/config/): a starting one written, one checked
 * with every setting in force and its source, the settings reference and the JSON Schema.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { installedAsDependency, PACKAGE_ROOT } from '../../targets/index.ts';
import { configFromEnv, configJsonSchema, SETTING_ENTRIES } from '../config/load.ts';
import { configFileOf, configTemplate, settingsMarkdown } from '../config/init.ts';
import { describeTarget, profileOf, settingsOf, UsageError, type Wrap } from '../invocation.ts';

async function configCheck(cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  console.log(settings.file ? `config file: ${settings.file} (valid)` : 'config file: none found (svc-conformance config init writes one)');
  console.log(`target: ${describeTarget(profile)}`);
  const rows = SETTING_ENTRIES.filter((e) => settings.sources.has(e.key)).map((e) => {
    const raw = settings.env[e.env] ?? '';
    const shown = e.secret ? `set (${raw.length} characters, not shown)` : raw;
    return `  ${e.key.padEnd(36)} ${shown}  [${settings.sources.get(e.key)}: ${e.env}]`;
  });
  console.log(
    rows.length ? `settings in force (${rows.length}):\n${rows.join('\n')}` : 'settings in force: none (the embedded simulator, with its documented defaults)',
  );
  return 0;
}

function configInit(o: { format: string; force?: boolean; file?: string; fromEnv?: boolean }): number {
  if (o.format !== 'ts' && o.format !== 'json') throw new UsageError(`--format is ts or json, got "${o.format}"`);
  const file = resolve(o.file ?? `svc-conformance.config.${o.format}`);
  if (existsSync(file) && !o.force) throw new UsageError(`${file} exists; --force overwrites it`);
  writeFileSync(file, o.fromEnv ? configFileOf(configFromEnv(process.env), o.format) : configTemplate(o.format));
  console.log(`wrote ${file}\nnext: set SVC_CLIENT_ID and SVC_API_KEY (and the test passwords) in the environment, then: npx svc-conformance preflight`);
  return 0;
}

function configDocs(o: { check?: boolean; out?: string }): number {
  // In this project's checkout the reference is its docs/; an installed package never writes
  // into node_modules: the team's own folder gets svc-conformance-docs/.
  const file = resolve(o.out ?? (installedAsDependency() ? join(process.cwd(), 'svc-conformance-docs/settings.md') : join(PACKAGE_ROOT, 'docs/settings.md')));
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
    .option('--format <format>', 'ts or json', 'ts')
    .option('--file <path>', 'where to write it (default svc-conformance.config.<format>)')
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
