/**
 * `svc-conformance simulator`: the embedded simulator served on 127.0.0.1 (targets/, through
 * startTarget) with catalogue faults and variations in force, its catalogue listed, or the
 * config file that points a run at it written.
 */
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import {
  CATALOG,
  SIMULATOR_DEFAULTS,
  serveUntilStopped,
  simulatorBanner,
  simulatorTargetSettings,
  startTarget,
  type CatalogEntry,
} from '../../targets/index.ts';
import { ConfigError, SETTING_ENTRIES } from '../config/load.ts';
import { configFileWithSources } from '../config/init.ts';
import { configTarget, port, settingsOf, systemErrorSentence, type Wrap } from '../invocation.ts';

/** Shell words for `export NAME=value`: single-quoted unless plain. */
const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);

async function serveSimulator(
  o: { port: number; fault: string[]; variation: string[]; variations?: string; list?: boolean; quiet?: boolean; writeConfig?: string; force?: boolean },
  cmd: Command,
): Promise<number | 'serving'> {
  if (o.list) {
    for (const kind of ['fault', 'variation'] as const) {
      const entries: readonly CatalogEntry[] = CATALOG.filter((e) => e.kind === kind);
      console.log(
        `${kind === 'fault' ? 'Faults' : 'Variations'} (${entries.length}): ${kind === 'fault' ? 'each breaks one statement; the suite must fail on it' : 'each is a freedom the specification leaves; the suite must pass'}`,
      );
      for (const e of entries) console.log(`  ${e.name}${e.tier === 'inferred' ? ' [inferred]' : ''}  (${e.area}; ${e.section})\n      ${e.description}`);
      console.log('');
    }
    console.log('Start with some in force: svc-conformance simulator --fault NAME --variation NAME');
    return 0;
  }
  const write = o.writeConfig ? configTarget(o.writeConfig, o.force) : undefined;
  const settings = await settingsOf(cmd);
  const started = performance.now();
  const variations = [
    ...o.variation,
    ...(o.variations ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
  // The simulator serves; the run's bounds and the team's real target (a config file's
  // target.baseUrl, timeouts) are the gate's, not the simulator's: leave them out.
  const env = Object.fromEntries(
    Object.entries(settings.env).filter(
      ([k]) => !/^SVC_(BASE_URL|REQUEST_TIMEOUT_MS|TEST_TIMEOUT_MS|RUN_TIMEOUT_MS|AGGREGATION_TIMEOUT_MS|POLL_INTERVAL_MS)$/.test(k),
    ),
  );
  const target = await startTarget({ env, faults: o.fault, variations, simulator: true, port: o.port }).catch((e: Error) => {
    throw new ConfigError(systemErrorSentence(e) ?? `simulator: ${e.message}`);
  });
  console.log(
    o.quiet ? target.url : simulatorBanner(target, { apiKeyGiven: settings.sources.has('credentials.apiKey'), startedMs: performance.now() - started }),
  );
  if (write) {
    const { settings: values, secrets } = simulatorTargetSettings(target);
    writeFileSync(
      write.file,
      configFileWithSources(values, write.format, {
        header: [
          `svc-conformance configuration of the simulator at ${target.url}, written by \`svc-conformance simulator --write-config\`:`,
          'every non-secret setting a full run against it needs, each with where its value came from.',
          'The secrets are not in this file (a config file that holds one is refused): the simulator',
          'printed them as variables to export where the run starts.',
        ],
      }),
    );
    console.log(`wrote ${write.file}: ${values.length} settings of this simulator (every non-secret one a full run against it needs)`);
    // A secret the simulator was given stays where it came from; its documented defaults are
    // public (README, "Simulator"), so they are printed to be exported.
    const given = new Set(SETTING_ENTRIES.filter((e) => e.secret && settings.sources.has(e.key)).map((e) => e.env));
    console.log('Its secrets (never written to a file; export them where the run starts):');
    for (const { variable, value } of secrets)
      console.log(
        given.has(variable)
          ? `# ${variable}: the value this simulator was started with (from your environment; not printed)`
          : `export ${variable}=${shellWord(value)}`,
      );
  }
  serveUntilStopped(() => target.close());
  return 'serving';
}

export function addSimulatorCommand(program: Command, wrap: Wrap): void {
  program
    .command('simulator')
    .description(
      `start the embedded simulator on 127.0.0.1 (default credentials: client id ${SIMULATOR_DEFAULTS.clientId}, API key ${SIMULATOR_DEFAULTS.apiKey}; test passwords sim-pass-success, sim-pass-challenge, ...; see README)`,
    )
    .option('-p, --port <port>', 'port on 127.0.0.1 (0: a free one)', port, 4010)
    .option('--fault <name>', 'a catalogue fault in force (repeatable; --list names them)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option(
      '--variation <name>',
      'a catalogue variation in force (repeatable; all: every variation at once)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      '--variations <names>',
      "catalogue variations in force, a comma list or all (your integration's own tests against every freedom the specification leaves)",
    )
    .option('--list', 'list the catalogue of faults and variations and exit')
    .option('-q, --quiet', 'print only the base URL')
    .option(
      '--write-config <file>',
      'once listening, write the config file that points a run at this simulator (.ts, .mts, .mjs, .js or .json): every non-secret setting a full run needs; the secrets are printed as variables to export, never written',
    )
    .option('--force', 'with --write-config: overwrite an existing file')
    .addHelpText(
      'after',
      '\nAs a CI service: svc-conformance simulator --port 4010 --write-config svc-conformance.config.ts, then, with the printed variables exported, svc-conformance run from the folder of that file.',
    )
    .action(wrap((o, cmd: Command) => serveSimulator(o, cmd)));
}
