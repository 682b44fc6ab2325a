/**
 * `svc-conformance tolerance`: the team's test command against the embedded simulator once per
 * catalogue variation (integration/tolerance.ts), and the matrix.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { join, resolve } from 'node:path';
import {
  integrationInput,
  positiveInt,
  profileOf,
  reportsDir,
  settingsOf,
  TEST_COMMAND_VARIABLES,
  testCommandOf,
  UsageError,
  type Wrap,
} from '../invocation.ts';

async function runToleranceCommand(
  args: string[],
  o: { variation: string[]; timeout?: number; concurrency: number; retries: number; out?: string; allowEmpty?: boolean },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const command = testCommandOf(args, profile);
  if (!command.length) throw new UsageError('give the test command after --, e.g. svc-conformance tolerance -- npm test (or set integration.testCommand)');
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'tolerance');
  const { runTolerance, toleranceConsoleLines, toleranceExitCode, writeToleranceReports, rowLine } = await import('../../integration/tolerance.ts');
  console.log(`svc-conformance tolerance: running ${command.join(' ')} against the embedded simulator, once without and once per variation`);
  const report = await integrationInput(() =>
    // One at a time, each row is printed as it is decided, in the catalogue's order; side by side, the matrix comes at the end.
    runTolerance({
      command,
      env: settings.env,
      variations: o.variation,
      timeoutMs: o.timeout ?? profile.integration.variationTimeoutMs,
      concurrency: o.concurrency,
      retries: o.retries,
      allowEmpty: o.allowEmpty,
      cwd: process.cwd(),
      ...(o.concurrency === 1 ? { onRow: (row) => console.log(rowLine(row)) } : {}),
    }),
  );
  const files = writeToleranceReports(report, out);
  console.log(['', ...toleranceConsoleLines(report, { rows: o.concurrency !== 1 }), `Reports: ${files.join(', ')}`].join('\n'));
  return toleranceExitCode(report);
}

export function addToleranceCommand(program: Command, wrap: Wrap): void {
  program
    .command('tolerance')
    .description(
      'run your test command against the embedded simulator once per catalogue variation (every freedom the specification leaves) and print the matrix: which legitimate behaviours your integration cannot handle',
    )
    .argument('[command...]', 'your test command, after -- (default: integration.testCommand)')
    .option('--variation <name>', 'only these variations (repeatable; default: all)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--timeout <ms>', 'bound on one run of the command (default: integration.variationTimeoutMs, 120000)', positiveInt('--timeout'))
    .option('--concurrency <n>', 'runs at once, each with its own simulator (only when your tests can run side by side)', positiveInt('--concurrency'), 1)
    .option(
      '--retries <n>',
      'runs again of a failing variation (failing then passing: flaky, not gating)',
      (raw: string) => {
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('--retries must be a whole number >= 0.');
        return n;
      },
      1,
    )
    .option('--out <dir>', 'report folder (default: <reports>/tolerance): tolerance.md, tolerance.html, tolerance.json, junit.xml')
    .option(
      '--allow-empty',
      'run the variations and pass even when the command sent no request to the simulator in the baseline run (default: it fails there: every pass would be vacuous)',
    )
    .addHelpText(
      'after',
      `\n${TEST_COMMAND_VARIABLES}\nExit codes: 0 the baseline and every variation pass, 1 a variation breaks the command, the baseline fails, or the baseline sent no request to the simulator (checked nothing; --allow-empty passes it), 2 bad usage.`,
    )
    .action(wrap((args: string[], o, cmd: Command) => runToleranceCommand(args, o, cmd)));
}
