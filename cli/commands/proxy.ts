/**
 * `svc-conformance proxy`: a recording, validating proxy for the team's own tests
 * (integration/traffic.ts), around their test command or until Ctrl-C.
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import {
  integrationInput,
  outputPath,
  port,
  profileOf,
  reportsDir,
  settingsOf,
  TEST_COMMAND_VARIABLES,
  testCommandOf,
  version,
  type Wrap,
} from '../invocation.ts';

async function runProxyCommand(
  args: string[],
  o: { upstream?: string; port: number; variation: string[]; out?: string; usageOut?: string; strict?: boolean; quiet?: boolean; allowEmpty?: boolean },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const command = testCommandOf(args, profile);
  const out = outputPath(o.out ? '--out' : 'the reports folder', o.out ?? join(reportsDir(settings), 'proxy'), 'folder');
  const usageOut = o.usageOut ? outputPath('--usage-out', o.usageOut, 'file') : undefined;
  const { runProxy } = await import('../../integration/traffic.ts');
  const run = await integrationInput(() =>
    runProxy({
      env: settings.env,
      upstream: o.upstream,
      port: o.port,
      variations: o.variation,
      out,
      ...(usageOut ? { usageOut } : {}),
      strict: o.strict,
      allowEmpty: o.allowEmpty,
      command,
      live: !o.quiet,
      version: version(),
      onListening: ({ url, upstream }) =>
        console.log(
          `svc-conformance proxy: ${url} → ${upstream}${command.length ? `; running: ${command.join(' ')}` : '; Ctrl-C stops it and writes the reports'}`,
        ),
    }),
  );
  console.log(['', ...run.lines, '', `Reports: ${run.written.files.join(', ')}${run.usage ? `; usage file ${usageOut}` : ''}`].join('\n'));
  return run.exitCode;
}

export function addProxyCommand(program: Command, wrap: Wrap): void {
  program
    .command('proxy')
    .description(
      "a recording, validating proxy on 127.0.0.1 for your integration's tests: every request and response judged against the contract (same tiers and reports as the suites), the recording kept as HAR",
    )
    .argument(
      '[command...]',
      'your test command, after --: run through the proxy, then the proxy stops (default: integration.testCommand; none: serve until Ctrl-C)',
    )
    .option('--upstream <url>', 'forward to this base URL (default: the target of the settings, the embedded simulator unless target.baseUrl is set)')
    .option('-p, --port <port>', 'port on 127.0.0.1 (0: a free one)', port, 0)
    .option(
      '--variation <name>',
      'a catalogue variation of the embedded simulator (repeatable; all: every one)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--out <dir>', 'report folder (default: <reports>/proxy): report.html, junit.xml, report.json, report.md, recording.har')
    .option('--usage-out <file>', "also write the integration's usage file from the recording (keeps its declared reads)")
    .option('--strict', 'inferred findings fail the gate like stated ones (SVC_STRICT=1)')
    .option('-q, --quiet', 'no line per exchange with findings while it runs')
    .option('--allow-empty', 'pass a run in which no API call reached the proxy (default: it fails, naming why: a gate that checked nothing is not green)')
    .addHelpText(
      'after',
      `\n${TEST_COMMAND_VARIABLES}\nExit codes: 0 green, 1 a stated finding (inferred too with --strict), the test command failed or no API call reached the proxy (checked nothing; --allow-empty passes it), 2 bad usage or configuration.`,
    )
    .action(wrap((args: string[], o, cmd: Command) => runProxyCommand(args, o, cmd)));
}
