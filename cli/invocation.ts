/**
 * What every subcommand reads of its invocation (../shared/DESIGN.md, "cli/"): the settings
 * (the config file, then the environment), the target profile they make, the reports folder,
 * the option parsers shared by several commands, and the two errors that end a command with
 * exit 2 (UsageError here, ConfigError of cli/config/). The commands (cli/commands/) import
 * this file and never each other; cli/main.ts turns the errors into exit codes.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadProfile, PACKAGE_ROOT, type TargetProfile } from '../targets/index.ts';
import { ConfigError, resolveSettings, type ResolvedSettings } from './config/load.ts';
import { configFormatOf } from './config/init.ts';

/** A mistake in how the command was called: printed with the command's usage line, exit 2. */
export class UsageError extends Error {}

/** What a command's action returns: its exit code, or 'serving' for a server that runs until stopped. */
export type Action = (...args: any[]) => Promise<number | 'serving'> | number | 'serving';
/** cli/main.ts's wrapper of an action: its exit code, and a usage line or a message on failure, never a stack trace (unless --debug). */
export type Wrap = (action: Action) => (...args: unknown[]) => Promise<void>;

export function version(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export const positiveInt = (name: string) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer.`);
  return n;
};
export const port = (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer 0..65535 (0: a free one).');
  return n;
};

/** Settings of this invocation: the config file (named, or found in the working directory) under the environment. */
export async function settingsOf(cmd: Command): Promise<ResolvedSettings> {
  const g = cmd.optsWithGlobals() as { config?: string | boolean };
  return resolveSettings({ cwd: process.cwd(), configFile: typeof g.config === 'string' ? g.config : undefined, noConfig: g.config === false });
}

/** The profile of the resolved settings, or a ConfigError naming the bad value (the profile's own message). */
export function profileOf(env: NodeJS.ProcessEnv): TargetProfile {
  try {
    return loadProfile(env);
  } catch (e) {
    throw new ConfigError(`invalid setting: ${(e as Error).message}`);
  }
}

/**
 * Where this run's reports go: the setting if given, else reports/out in a checkout of this
 * project, else ./svc-reports in the user's working directory (never inside node_modules).
 */
export function reportsDir(settings: ResolvedSettings): string {
  if (settings.sources.has('run.reportsDir')) return profileOf(settings.env).run.reportsOut;
  return resolve(process.cwd()) === resolve(PACKAGE_ROOT) ? join(PACKAGE_ROOT, 'reports/out') : resolve(process.cwd(), 'svc-reports');
}

export function describeTarget(profile: TargetProfile): string {
  return profile.isSimulator ? 'the embedded simulator' : `${profile.platformBaseUrl} (${profile.name})`;
}

/** Where `--write-config` writes and in which format, checked before anything starts. */
export function configTarget(file: string, force: boolean | undefined): { file: string; format: 'ts' | 'json' } {
  const format = configFormatOf(file);
  if (!format) throw new UsageError(`--write-config takes a .ts, .mts, .mjs, .js or .json file name, got "${file}"`);
  const path = resolve(file);
  if (!existsSync(dirname(path))) throw new UsageError(`--write-config ${file}: the folder ${dirname(path)} does not exist`);
  if (existsSync(path) && !force) throw new UsageError(`${path} exists; --force overwrites it`);
  return { file: path, format };
}

// ---- the team's own integration (integration/) -------------------------------------------

/** A bad input of the integration commands (a file that is not HAR, an unknown variation): a message, exit 2. */
export async function integrationInput<T>(run: () => Promise<T>): Promise<T> {
  const { IntegrationInputError } = await import('../integration/har.ts');
  try {
    return await run();
  } catch (e) {
    if (e instanceof IntegrationInputError) throw new ConfigError(e.message);
    throw e;
  }
}

/** The test command: after --, else the config's integration.testCommand (SVC_INTEGRATION_COMMAND). */
export function testCommandOf(args: string[], profile: TargetProfile): string[] {
  return args.length ? args : profile.integration.testCommand ? [profile.integration.testCommand] : [];
}

/** What the team's test command is given (proxy and tolerance --help). */
export const TEST_COMMAND_VARIABLES = `The test command gets (integration/README.md): SVC_BASE_URL and BASE_URL (the target's base URL), SVC_CLIENT_ID, SVC_API_KEY, SVC_AUDIENCE_BASE_URL and SVC_TEST_HOST_BASE_URL when known; with the embedded simulator SVC_TEST_INSTITUTION_CODE, SVC_TEST_USERNAME, SVC_TEST_PASSWORD_SUCCESS; in tolerance SVC_VARIATION (empty for the baseline).`;
