/**
 * svc-conformance: the one command (../shared/DESIGN.md, "cli/"). Thin: the global options,
 * the help listing, and the exit codes; each subcommand is a file of cli/commands/ that
 * declares its options, reads its settings (cli/invocation.ts) and calls the engine of its
 * room.
 *
 * Exit codes: 0 green; 1 the run found failures (the gate is red); 2 bad usage or
 * configuration (a usage line or a message naming the key; nothing ran).
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config/load.ts';
import { systemErrorSentence, UsageError, version, type Action, type Wrap } from './invocation.ts';
import { addRunCommand } from './commands/run.ts';
import { addPreflightCommand } from './commands/preflight.ts';
import { addSimulatorCommand } from './commands/simulator.ts';
import { addReceiverCommand } from './commands/receiver.ts';
import { addLoadCommand } from './commands/load.ts';
import { addNightlyCommand } from './commands/nightly.ts';
import { addDriftCommand } from './commands/drift.ts';
import { addVersionsCommand } from './commands/versions.ts';
import { addReferenceCommand } from './commands/reference.ts';
import { addMutantsCommand } from './commands/mutants.ts';
import { addProxyCommand } from './commands/proxy.ts';
import { addCheckHarCommand } from './commands/check-har.ts';
import { addUsageCommand } from './commands/usage.ts';
import { addToleranceCommand } from './commands/tolerance.ts';
import { addWebhookCheckCommand } from './commands/webhook-check.ts';
import { addCleanupCommand } from './commands/cleanup.ts';
import { addConfigCommand } from './commands/config.ts';

/** `svc-conformance config init`: the words that invoke a command. */
function commandPath(c: Command): string {
  const names: string[] = [];
  for (let at: Command | null = c; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Exits once everything written has left: stdout to a pipe that its reader drains slowly
 * (a CI log, a test) takes the first 64 KiB at once and queues the rest, which a bare
 * process.exit() would drop (a long listing such as `simulator --list` would lose its end).
 */
export function exitAfterFlush(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** Where the command's own messages go (a test captures them; the default is the terminal). */
export interface ProgramOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}
const TERMINAL: ProgramOutput = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export function buildProgram(exit: (code: number) => void = exitAfterFlush, output: ProgramOutput = TERMINAL): Command {
  const program = new Command('svc-conformance');
  let debug = false;
  const wrap: Wrap =
    (action: Action) =>
    async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      debug = !!cmd.optsWithGlobals().debug;
      try {
        const code = await action(...args);
        if (code !== 'serving') exit(code);
      } catch (e) {
        if (e instanceof UsageError) {
          output.err(`error: ${e.message}\n${cmd.helpInformation().split('\n')[0]}\n(see ${commandPath(cmd)} --help)\n`);
          exit(2);
        } else if (e instanceof ConfigError) {
          output.err(`error: ${e.message}\n`);
          exit(2);
        } else if (systemErrorSentence(e) !== undefined) {
          // A port taken, an output path that is a folder: the user's input (exit 2), not a finding (exit 1).
          output.err(`error: ${systemErrorSentence(e)}\n`);
          exit(2);
        } else {
          output.err(`svc-conformance ${cmd.name()}: ${(e as Error).message ?? e}${debug ? `\n${(e as Error).stack}` : '\n(--debug shows where)'}\n`);
          exit(1);
        }
      }
    };

  program
    .description('Contract-conformance and load-test suite for the svc financial data platform API, with an embedded simulator.')
    .version(version(), '-V, --version')
    .option('-c, --config <file>', 'config file (default: svc-conformance.config.{ts,mts,mjs,js,json} in the working directory)')
    .option('--no-config', 'ignore any config file: settings from the environment only')
    .option('--debug', 'show stack traces of unexpected errors')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Secrets come from the environment only: SVC_CLIENT_ID, SVC_API_KEY, SVC_TEST_PASSWORD_*, SVC_CORRECT_ANSWER, ...
Every setting: svc-conformance config docs (docs/settings.md). Exit codes: 0 green, 1 failures found, 2 bad usage or configuration.`,
    );

  addRunCommand(program, wrap);
  addPreflightCommand(program, wrap);
  addSimulatorCommand(program, wrap);
  addReceiverCommand(program, wrap);
  addLoadCommand(program, wrap);
  addNightlyCommand(program, wrap);
  addDriftCommand(program, wrap);
  addVersionsCommand(program, wrap);
  addReferenceCommand(program, wrap);
  addMutantsCommand(program, wrap);
  addProxyCommand(program, wrap);
  addCheckHarCommand(program, wrap);
  addUsageCommand(program, wrap);
  addToleranceCommand(program, wrap);
  addWebhookCheckCommand(program, wrap);
  addCleanupCommand(program, wrap);
  addConfigCommand(program, wrap);

  /**
   * `help [command]` of a command with subcommands: that command's help, exit 0. Commander's
   * own help command answers an unknown name with the whole help and exit 0, as if it had
   * been understood; here it is a usage error, exit 2.
   */
  const addHelpCommand = (c: Command) => {
    c.helpCommand(false);
    c.command('help')
      .description('display help for command')
      .argument('[command]', 'the command to explain')
      .action(
        wrap((name: string | undefined) => {
          const sub = name === undefined ? c : c.commands.find((s) => s.name() === name || s.aliases().includes(name));
          if (!sub) throw new UsageError(`unknown command '${name}'; commands: ${c.commands.map((s) => s.name()).join(', ')}`);
          sub.outputHelp();
          return 0;
        }),
      );
  };

  // Every command: usage errors exit 2 with a usage line; --help and --version exit 0.
  const configureAll = (c: Command) => {
    c.configureOutput({ writeOut: output.out, writeErr: output.err });
    c.exitOverride((err: CommanderError) => {
      // --help, a command's help shown for want of a subcommand, and --version are answers, not errors.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') exit(0);
      else exit(2);
      throw err;
    });
    c.showHelpAfterError(`${c.helpInformation().split('\n')[0]}\n(see ${commandPath(c)} --help)`);
    if (c.commands.length) addHelpCommand(c);
    c.commands.forEach(configureAll);
  };
  configureAll(program);
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    // exitOverride already chose the exit code; anything else is a usage error.
    if (!(e instanceof CommanderError)) {
      console.error(`error: ${(e as Error).message}`);
      exitAfterFlush(2);
    }
  }
}

const isMain = process.argv[1] && /cli[\\/]main\.ts$/.test(process.argv[1]);
if (isMain) void main();
