/**
 * `svc-conformance preflight`: the target checked before a run (preflight/preflight.ts), and with
 * --write-config the settings in force and what the target revealed about itself written
 * to a config file (preflight/discover.ts).
 */
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startTarget, type TargetProfile } from '../../targets/index.ts';
import { SETTING_ENTRIES, type ResolvedSettings } from '../config/load.ts';
import { configFileWithSources } from '../config/init.ts';
import { configTarget, describeTarget, outputPath, profileOf, settingsOf, unnamedTargetWarning, UsageError, type Wrap } from '../invocation.ts';

async function runPreflightCommand(o: { markdown?: string; json?: boolean; writeConfig?: string; force?: boolean }, cmd: Command): Promise<number> {
  const write = o.writeConfig ? configTarget(o.writeConfig, o.force) : undefined;
  // Checked before the network checks: a table that cannot be written would lose their answers.
  const markdown = o.markdown ? outputPath('--markdown', o.markdown, 'file') : undefined;
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  if (write && profile.isSimulator)
    throw new UsageError(
      '--write-config writes what a real target reveals: set target.baseUrl (SVC_BASE_URL) and its credentials; a simulator writes its own (svc-conformance simulator --write-config)',
    );
  const unnamed = unnamedTargetWarning(profile, settings.file);
  if (unnamed) console.error(unnamed);
  const { runPreflight, formatPreflight, preflightExitCode } = await import('../../preflight/preflight.ts');
  // Without a real target, the embedded simulator is what a run would meet: start one.
  const target = await startTarget({ env: settings.env });
  try {
    const report = await runPreflight(target.profile);
    const text = formatPreflight(report);
    console.log(o.json ? JSON.stringify(report, null, 2) : text);
    if (markdown) {
      mkdirSync(dirname(markdown), { recursive: true });
      writeFileSync(markdown, `## svc-conformance preflight: ${describeTarget(target.profile)}\n\n\`\`\`\n${text.trimEnd()}\n\`\`\`\n`);
    }
    if (write) {
      if (report.fatal) console.error(`\n${write.file} not written: the target must answer with the credentials accepted before it can tell anything.`);
      // With --json, stdout holds the report alone.
      else await writeDiscoveredConfig(target.profile, settings, write, o.json ? console.error : console.log);
    }
    return preflightExitCode(report);
  } finally {
    await target.close();
  }
}

/**
 * `preflight --write-config`: the settings in force (config file, environment), then what
 * the target revealed over them, each with a comment naming its source; what it did not
 * reveal is listed with where a team finds it, in the file and on the console.
 */
async function writeDiscoveredConfig(
  profile: TargetProfile,
  settings: ResolvedSettings,
  write: { file: string; format: 'ts' | 'json' },
  say: (line: string) => void,
): Promise<void> {
  const { discoverSettings } = await import('../../preflight/discover.ts');
  const given = (variable: string) => !!settings.env[variable];
  const discovery = await discoverSettings(profile, { given });
  const inForce = SETTING_ENTRIES.filter((e) => !e.secret && settings.sources.has(e.key) && settings.env[e.env]).map((e) => ({
    variable: e.env,
    value: settings.env[e.env]!,
    source: `your ${settings.sources.get(e.key)} (${e.env})`,
  }));
  const previous = new Map(inForce.map((v) => [v.variable, v]));
  const discovered = discovery.found.map((f) => {
    const was = previous.get(f.variable);
    return was && was.value !== f.value ? { ...f, source: `${f.source}; was ${was.value} in ${was.source}` } : f;
  });
  const found = new Set(discovered.map((f) => f.variable));
  const values = [...inForce.filter((v) => !found.has(v.variable)), ...discovered];
  const entryOf = new Map(SETTING_ENTRIES.map((e) => [e.env, e]));
  const missing = discovery.notFound.map((n) => {
    const e = entryOf.get(n.variable);
    return `${n.variable}${e?.secret ? ' (a secret: environment only)' : e ? ` (${e.key})` : ''}: ${n.where}`;
  });
  writeFileSync(
    write.file,
    configFileWithSources(values, write.format, {
      header: [
        `svc-conformance configuration of ${profile.platformBaseUrl}, written by \`svc-conformance preflight --write-config\`:`,
        'the settings in force when it ran, and what the target revealed about itself, each with where its value came from.',
        'Secrets never go in this file: they stay in the environment (or your CI secret store).',
      ],
      footer: missing.length ? ['Not discovered (no answer of the target shows them): set them here, or secrets in the environment.', ...missing] : [],
    }),
  );
  say(`\nwrote ${write.file}: ${values.length} settings, ${discovered.length} of them read from the target:`);
  for (const f of discovered) say(`  ${f.variable}=${f.value.length > 80 ? `${f.value.slice(0, 80)}…` : f.value}\n      ${f.source}`);
  for (const line of discovery.log) say(`  (${line})`);
  if (missing.length) say(`Not discovered (${missing.length}): where a team finds each\n${missing.map((m) => `  ${m}`).join('\n')}`);
}

export function addPreflightCommand(program: Command, wrap: Wrap): void {
  program
    .command('preflight')
    .description(
      'check the target before a run: reachability, credentials, versions, test institution, passwords, data exchange, audience, test host, page controls; and which areas will run or skip, and why',
    )
    .option('--markdown <file>', 'also write the table as Markdown (for a CI job summary)')
    .option('--json', 'print the report as JSON')
    .option(
      '--write-config <file>',
      "write a config file (.ts, .mts, .mjs, .js or .json) with the settings in force and what a real target reveals about itself (favourites, a blocked institution, the versions it serves and deprecates, the data-exchange grant's identities), each with its source; what it does not reveal is listed with where to find it",
    )
    .option('--force', 'with --write-config: overwrite an existing file')
    .addHelpText('after', '\nExit codes: 0 the run can go ahead, 1 the platform is unreachable or refuses the credentials, 2 bad configuration.')
    .action(wrap((o, cmd: Command) => runPreflightCommand(o, cmd)));
}
