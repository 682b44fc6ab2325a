/**
 * What every subcommand reads of its invocation (../shared/DESIGN.md, "cli/"): the settings
 * (the config file, then the environment), the target profile they make, the reports folder,
 * the option parsers shared by several commands, and the two errors that end a command with
 * exit 2 (UsageError here, ConfigError of cli/config/). The commands (cli/commands/) import
 * this file and never each other; cli/main.ts turns the errors into exit codes.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadProfile, PACKAGE_ROOT, processRunning, type TargetProfile } from '../targets/index.ts';
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
/** A whole number, 0 included (0: none, or at once). */
export const wholeNumber = (name: string) => (raw: string) => {
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number (0 or more).`);
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

/**
 * The warning a run on the embedded simulator gives when platform credentials were exported
 * (SVC_API_KEY: a secret, never in a config file): they are meant for a target this run does
 * not meet, because no config file named one (the file is read from the working folder only)
 * and SVC_BASE_URL is unset. Green on the simulator says nothing of that target.
 */
export function unnamedTargetWarning(profile: TargetProfile, configFile: string | undefined): string | undefined {
  if (!profile.credentialsForUnnamedTarget) return undefined;
  const where = configFile ? `the config file ${configFile} names no target.baseUrl` : `no config file in ${process.cwd()}`;
  return `svc-conformance: warning: SVC_API_KEY is set, but ${where} and SVC_BASE_URL is unset: this tests the embedded simulator, not the target those credentials are for. Run from the config file's folder or pass --config <file>.`;
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

// ---- where a command writes -----------------------------------------------------------

/** The nearest folder or file of `path`'s ancestors (itself included) that exists. */
function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** Why `path` cannot be written as a `kind`, or undefined when it can (made with its folders where missing). */
function unwritable(path: string, kind: 'file' | 'folder'): string | undefined {
  if (existsSync(path)) {
    const folder = statSync(path).isDirectory();
    if (kind === 'file' && folder) return `${path} is a folder`;
    if (kind === 'folder' && !folder) return `${path} is a file, not a folder`;
  }
  const at = existsSync(path) ? path : nearestExisting(dirname(path));
  if (!statSync(at).isDirectory() && at !== path) return `${at} is a file, not a folder`;
  try {
    accessSync(at, constants.W_OK);
  } catch {
    return `${at} is not writable`;
  }
  return undefined;
}

/**
 * A file or folder an option names for output, checked before the command does any work: a
 * run that ends on a path it cannot write has spent its time (a preflight's network checks, a
 * mutants run) and shows nothing. Returns the absolute path; a UsageError naming the option
 * and the cause otherwise. Missing folders on the way are fine: the command makes them.
 */
export function outputPath(option: string, given: string, kind: 'file' | 'folder'): string {
  const path = resolve(given);
  const why = unwritable(path, kind);
  if (why) throw new UsageError(`${option} ${given}: cannot write there: ${why}`);
  return path;
}

/** The file a run keeps in its reports folder while it writes there. */
export const REPORTS_LOCK = '.svc-conformance-run.lock';

/**
 * Holds the reports folder for one run and returns its release. Two runs writing one folder
 * at once (a nightly and a run by hand) mix their reports: each clears the Allure results and
 * the HTML report when it begins, and the summary is the last one's. The second is refused
 * (exit 2, as a setting that cannot be used) naming the run that holds the folder. A hold
 * whose process is gone (killed), or older than the bound `runMs` sets on a run, is taken over.
 */
export function holdReportsFolder(out: string, option: string, runMs: number): () => void {
  mkdirSync(out, { recursive: true });
  const file = join(out, REPORTS_LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder: { pid?: unknown; started?: unknown } = {};
      try {
        holder = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        /* unreadable: a hold left half-written; taken over */
      }
      const pid = Number(holder.pid);
      const age = Date.now() - Date.parse(String(holder.started));
      if (Number.isInteger(pid) && pid > 0 && processRunning(pid) && age < runMs + 60_000)
        throw new ConfigError(
          `${option} ${out} is being written by another run (process ${pid}, started ${String(holder.started)}): two runs in one folder mix their reports. Wait for it to end, or give this run its own folder. If no run is going on, delete ${file}.`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new ConfigError(`${option} ${out}: another run took the folder at the same moment; give this run its own folder.`);
}

/** What a failed file or folder operation hit (Node's errno codes), in words. */
const FILE_FAILURES: Record<string, string> = {
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
};
const FILE_VERBS: Record<string, string> = {
  mkdir: 'create the folder',
  open: 'open',
  write: 'write',
  read: 'read',
  scandir: 'read the folder',
  rename: 'rename',
};

/**
 * The sentence for a Node system error a user's input caused, or undefined for any other
 * error: a port already taken or refused (`--port`), a path that cannot be written or read
 * (an output option naming a folder, a file in the way). cli/main.ts prints it with exit 2,
 * as a bad setting: the cause first, never an errno and a stack.
 */
export function systemErrorSentence(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const { code, syscall, path, address, port } = e as NodeJS.ErrnoException & { address?: string; port?: number };
  if (typeof code !== 'string') return undefined;
  if (syscall === 'listen') {
    const where = `port ${port} on ${address ?? '127.0.0.1'}`;
    if (code === 'EADDRINUSE') return `${where} is in use (another process listens there): choose another --port, or 0 for a free one`;
    if (code === 'EACCES') return `${where} may not be opened by this user: choose a port above 1023, or 0 for a free one`;
    return `cannot listen on ${where} (${code})`;
  }
  if (typeof path !== 'string' || !FILE_FAILURES[code]) return undefined;
  return `cannot ${FILE_VERBS[syscall ?? ''] ?? 'use'} ${path}: ${FILE_FAILURES[code]} (${code})`;
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
