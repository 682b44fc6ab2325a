/**
 * `svc-conformance run`: the gate, the scenario suites under Playwright against the target
 * (the embedded simulator unless target.baseUrl is set); with --history, what the target
 * served recorded into the history (history/on-demand.ts) and compared with earlier nights.
 */
import { type Command, Option } from 'commander';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRedactor, PACKAGE_ROOT, playwrightTest, profileSecrets, runChild, type TargetProfile } from '../../targets/index.ts';
import { ConfigError } from '../config/load.ts';
import {
  describeTarget,
  holdReportsFolder,
  outputPath,
  positiveInt,
  profileOf,
  reportsDir,
  settingsOf,
  unnamedTargetWarning,
  UsageError,
  type Wrap,
} from '../invocation.ts';

const PROJECTS = ['api', 'browser', 'properties', 'fuzz'] as const;

/**
 * The reference documents of the settings (SVC_REFERENCE), read and checked before a run
 * starts: a file that is not an OpenAPI 3.0/3.1 document of a known version stops the run
 * with exit 2, naming it, instead of failing every worker's first check.
 */
async function checkReferenceDocuments(profile: TargetProfile): Promise<void> {
  if (!profile.reference.length) return;
  const { loadContract, readReferenceDocument, ReferenceInputError } = await import('../../contracts/index.ts');
  const known = loadContract().versions;
  for (const file of profile.reference) {
    try {
      readReferenceDocument(file, { known });
    } catch (e) {
      if (e instanceof ReferenceInputError) throw new ConfigError(`reference (SVC_REFERENCE): ${e.message}`);
      throw e;
    }
  }
}

/** `--shard current/total`: Playwright counts shards from 1, so 1 <= current <= total (0/0 or 5/4 would reach it and end in its stack trace). */
function checkShard(shard: string): void {
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  if (!m) throw new UsageError(`--shard takes current/total, e.g. 1/4; got "${shard}"`);
  const [current, total] = [Number(m[1]), Number(m[2])];
  if (current < 1 || current > total) throw new UsageError(`--shard ${shard}: the current shard counts from 1 to the total (1 <= current <= total), e.g. 1/4`);
}

/**
 * `--grep` / `--grep-invert`: Playwright reads each as a regular expression (a `/source/flags`
 * literal, or the text with flags gi); one it cannot compile ended in its SyntaxError after the
 * last run's reports were replaced by an empty failure. Compiled the same way here first.
 */
function checkPattern(option: string, value: string): void {
  const literal = /^\/(.*)\/([gi]*)$/.exec(value);
  try {
    if (literal) new RegExp(literal[1], literal[2]);
    else new RegExp(value, 'gi');
  } catch (e) {
    throw new UsageError(
      `${option} "${value}" is not a regular expression (${(e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')})`,
    );
  }
}

async function runGate(
  playwrightArgs: string[],
  o: {
    project?: string[];
    grep?: string;
    grepInvert?: string;
    shard?: string;
    workers?: number;
    list?: boolean;
    strict?: boolean;
    reporter?: string;
    allowEmpty?: boolean;
    history?: string;
  },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const env: NodeJS.ProcessEnv = { ...settings.env };
  if (o.strict) env.SVC_STRICT = '1';
  if (o.allowEmpty) env.SVC_ALLOW_EMPTY = '1';
  const profile = profileOf(env);
  // Checked before anything runs: a folder it cannot write ended the run in Playwright's stack trace.
  const out = outputPath('the reports folder (run.reportsDir, SVC_REPORTS_OUT)', reportsDir(settings), 'folder');
  env.SVC_REPORTS_OUT = out;
  for (const p of o.project ?? [])
    if (!PROJECTS.includes(p as (typeof PROJECTS)[number])) throw new UsageError(`unknown project "${p}"; projects: ${PROJECTS.join(', ')}`);
  if (o.shard) checkShard(o.shard);
  if (o.grep) checkPattern('--grep', o.grep);
  if (o.grepInvert) checkPattern('--grep-invert', o.grepInvert);
  await checkReferenceDocuments(profile);
  // --list writes no report: it holds nothing. Held before the history's ledger folder is made.
  const release = o.list ? () => {} : holdReportsFolder(out, 'the reports folder (run.reportsDir, SVC_REPORTS_OUT)', profile.timeouts.runMs);
  try {
    return await runHeld(playwrightArgs, o, { env, profile, out, configFile: settings.file });
  } finally {
    release();
  }
}

/** The run once its options are checked and its reports folder is its own. */
async function runHeld(
  playwrightArgs: string[],
  o: Parameters<typeof runGate>[1],
  { env, profile, out, configFile }: { env: NodeJS.ProcessEnv; profile: TargetProfile; out: string; configFile?: string },
): Promise<number> {
  // `--history`: the run's ledger folder is kept for the history (scenarios/global-setup.ts
  // leaves a folder its caller named), read into it once Playwright is done (history/on-demand.ts).
  const history = o.history && !o.list ? await openHistory(o.history) : undefined;
  if (history) env.SVC_RUN_LEDGER_DIR = history.ledgerDir;
  const args = [
    ...(o.project ?? []).flatMap((p) => ['--project', p]),
    ...(o.grep ? ['--grep', o.grep] : []),
    ...(o.grepInvert ? ['--grep-invert', o.grepInvert] : []),
    ...(o.shard ? ['--shard', o.shard] : []),
    ...(o.workers ? ['--workers', String(o.workers)] : []),
    // A --reporter list replaces the configured one: the redaction reporter stays first
    // (reports/redaction-reporter.ts: it must see every file before another reporter copies it).
    // The empty-run guard stays too: a run that checked nothing fails whatever reports it writes.
    ...(o.reporter
      ? [
          '--reporter',
          [
            join(PACKAGE_ROOT, 'reports/redaction-reporter.ts'),
            join(PACKAGE_ROOT, 'reports/empty-run-reporter.ts'),
            // The history needs every scenario's verdict whatever else reports it.
            ...(history ? [join(PACKAGE_ROOT, 'reports/verdict-reporter.ts')] : []),
            o.reporter,
          ].join(','),
        ]
      : []),
    ...(o.list ? ['--list'] : []),
    ...playwrightArgs,
  ];
  if (!o.list) {
    console.log(`svc-conformance: target ${describeTarget(profile)}${configFile ? `, config ${configFile}` : ''}; reports in ${out}`);
    const unnamed = unnamedTargetWarning(profile, configFile);
    if (unnamed) console.error(unnamed);
    // A real target is read once before Playwright starts: unreachable, refused or missing
    // credentials stop the run in seconds with the one message that names the setting (the
    // run's globalSetup reads it again for runs started by `playwright test` directly).
    if (!profile.isSimulator) {
      const { assertPlatformUsable, PreflightFailure } = await import('../../preflight/preflight.ts');
      try {
        await assertPlatformUsable(profileOf(env));
        env.SVC_PREFLIGHT_PASSED = '1';
      } catch (e) {
        if (!(e instanceof PreflightFailure)) throw e;
        console.error(`svc-conformance: the target cannot be tested: ${e.message}`);
        // The reports folder says this run stopped; it kept the last run's verdict before.
        const { writeStoppedRun } = await import('../../reports/stopped-run.ts');
        writeStoppedRun(out, e.message);
        return 1;
      }
    }
  }
  mkdirSync(out, { recursive: true });
  if (!history) return runChild(playwrightTest(args, env, process.cwd()));
  const at = new Date();
  const started = performance.now();
  try {
    const code = await runChild(playwrightTest(args, env, process.cwd()));
    const { recordRun } = await import('../../history/on-demand.ts');
    const leftOut = [
      ...(o.project?.length ? [`only the projects ${o.project.join(', ')}`] : []),
      ...(o.grep ? [`only the tests matching --grep ${o.grep}`] : []),
      ...(o.grepInvert ? [`not the tests matching --grep-invert ${o.grepInvert}`] : []),
      ...(o.shard ? [`shard ${o.shard}`] : []),
      ...(playwrightArgs.length ? [`with the Playwright arguments ${playwrightArgs.join(' ')}`] : []),
    ];
    const r = recordRun({
      ledgerDir: history.ledgerDir,
      historyDir: history.dir,
      out: join(out, 'dashboard'),
      redactor: createRedactor([...profileSecrets(profile), ...Object.values(profile.testInstitution.passwords)]),
      at,
      leftOut,
      playwrightExit: code,
      wallTimeMs: performance.now() - started,
    });
    for (const line of r.lines) console.log(line);
    // Versioning: "Breaking (require a new version)": a breaking change inside a version fails the run.
    return code === 0 && r.recorded.breaking.length ? 1 : code;
  } finally {
    rmSync(history.ledgerDir, { recursive: true, force: true });
  }
}

/** `--history <dir>`: a folder (made when missing) whose index, if any, this version reads; and a fresh ledger folder for the run. */
async function openHistory(dir: string): Promise<{ dir: string; ledgerDir: string }> {
  const path = resolve(dir);
  const { checkHistoryDir, HistoryError } = await import('../../history/store.ts');
  try {
    checkHistoryDir(path);
  } catch (e) {
    if (e instanceof HistoryError) throw new ConfigError(`--history ${dir}: ${e.message}`);
    throw e;
  }
  mkdirSync(path, { recursive: true });
  return { dir: path, ledgerDir: mkdtempSync(join(tmpdir(), 'svc-run-history-')) };
}

export function addRunCommand(program: Command, wrap: Wrap): void {
  program
    .command('run')
    .description('run the gate: the scenario suites against the target (the embedded simulator unless target.baseUrl / SVC_BASE_URL is set)')
    .argument('[playwright-args...]', 'further Playwright Test arguments, after --')
    .addOption(new Option('--project <name...>', 'projects to run').choices([...PROJECTS]))
    .option('-g, --grep <regex>', 'only scenarios whose title or tag matches (tags: @smoke @readonly @members ...)')
    .option('--grep-invert <regex>', 'leave out scenarios that match')
    .option('--shard <current/total>', 'run one shard of the suite, e.g. 1/4')
    .option('--workers <n>', 'Playwright workers', positiveInt('--workers'))
    .option('--reporter <names>', 'Playwright reporters instead of the configured ones (e.g. dot, line, blob)')
    .option('--list', 'list the scenarios that would run, without running them or writing any report')
    .option('--strict', 'inferred expectations fail the run like stated rules (SVC_STRICT=1)')
    .option(
      '--allow-empty',
      'pass a run in which every scenario of a selected project skipped (default: it fails, naming what the skips need; SVC_ALLOW_EMPTY=1)',
    )
    .option(
      '--history <dir>',
      'record what the target served (statuses, headers, response shapes, latency, verdicts) into this history and compare it with the earlier nights: a breaking change inside a version fails the run (Versioning); writes <reports>/dashboard/index.html',
    )
    .action(wrap((pwArgs: string[], o, cmd: Command) => runGate(pwArgs, o, cmd)));
}
