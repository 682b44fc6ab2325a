/**
 * svc-conformance: the one command (../shared/DESIGN.md, "cli/"). Thin: each subcommand
 * reads its options, resolves the settings (config file, then the environment) and calls
 * into the folders that do the work.
 *
 * Exit codes: 0 green; 1 the run found failures (the gate is red); 2 bad usage or
 * configuration (a usage line or a message naming the key; nothing ran).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  CATALOG,
  createRedactor,
  profileSecrets,
  checkOptionsOf,
  loadProfile,
  RECEIVER_BOUNDS,
  startReceiver,
  startTarget,
  BROKEN_VARIANTS,
  SIMULATOR_DEFAULTS,
  simulatorBanner,
  simulatorTargetSettings,
  type BrokenVariant,
  type CatalogEntry,
  type TargetProfile,
  serveUntilStopped,
} from '../targets/index.ts';
import { installedAsDependency, PACKAGE_ROOT, playwrightTest, runChild } from '../targets/index.ts';
import { configFromEnv, configJsonSchema, ConfigError, resolveSettings, SETTING_ENTRIES, type ResolvedSettings } from './config/load.ts';
import { configFileOf, configFileWithSources, configFormatOf, configTemplate, settingsMarkdown } from './config/init.ts';
import type { Family } from '../proof/mutants/index.ts';

/** A mistake in how the command was called: printed with the command's usage line, exit 2. */
export class UsageError extends Error {}

const PROJECTS = ['api', 'browser', 'properties', 'fuzz'] as const;

function version(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

const positiveInt = (name: string) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer.`);
  return n;
};
const port = (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer 0..65535 (0: a free one).');
  return n;
};

/** Settings of this invocation: the config file (named, or found in the working directory) under the environment. */
async function settingsOf(cmd: Command): Promise<ResolvedSettings> {
  const g = cmd.optsWithGlobals() as { config?: string | boolean };
  return resolveSettings({ cwd: process.cwd(), configFile: typeof g.config === 'string' ? g.config : undefined, noConfig: g.config === false });
}

/** The profile of the resolved settings, or a ConfigError naming the bad value (the profile's own message). */
function profileOf(env: NodeJS.ProcessEnv): TargetProfile {
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
function reportsDir(settings: ResolvedSettings): string {
  if (settings.sources.has('run.reportsDir')) return profileOf(settings.env).run.reportsOut;
  return resolve(process.cwd()) === resolve(PACKAGE_ROOT) ? join(PACKAGE_ROOT, 'reports/out') : resolve(process.cwd(), 'svc-reports');
}

function describeTarget(profile: TargetProfile): string {
  return profile.isSimulator ? 'the embedded simulator' : `${profile.platformBaseUrl} (${profile.name})`;
}

/**
 * The reference documents of the settings (SVC_REFERENCE), read and checked before a run
 * starts: a file that is not an OpenAPI 3.0/3.1 document of a known version stops the run
 * with exit 2, naming it, instead of failing every worker's first check.
 */
async function checkReferenceDocuments(profile: TargetProfile): Promise<void> {
  if (!profile.reference.length) return;
  const { loadContract, readReferenceDocument, ReferenceInputError } = await import('../contracts/index.ts');
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

// ---------------------------------------------------------------------------------------

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
  const out = reportsDir(settings);
  env.SVC_REPORTS_OUT = out;
  for (const p of o.project ?? [])
    if (!PROJECTS.includes(p as (typeof PROJECTS)[number])) throw new UsageError(`unknown project "${p}"; projects: ${PROJECTS.join(', ')}`);
  if (o.shard && !/^\d+\/\d+$/.test(o.shard)) throw new UsageError(`--shard takes current/total, e.g. 1/4; got "${o.shard}"`);
  await checkReferenceDocuments(profile);
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
    console.log(`svc-conformance: target ${describeTarget(profile)}${settings.file ? `, config ${settings.file}` : ''}; reports in ${out}`);
    // A real target is read once before Playwright starts: unreachable, refused or missing
    // credentials stop the run in seconds with the one message that names the setting (the
    // run's globalSetup reads it again for runs started by `playwright test` directly).
    if (!profile.isSimulator) {
      const { assertPlatformUsable, PreflightFailure } = await import('../preflight/preflight.ts');
      try {
        await assertPlatformUsable(profileOf(env));
        env.SVC_PREFLIGHT_PASSED = '1';
      } catch (e) {
        if (!(e instanceof PreflightFailure)) throw e;
        console.error(`svc-conformance: the target cannot be tested: ${e.message}`);
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
    const { recordRun } = await import('../history/on-demand.ts');
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
  if (existsSync(path) && !statSync(path).isDirectory()) throw new UsageError(`--history ${dir}: not a folder`);
  const { readIndex, HistoryError } = await import('../history/store.ts');
  try {
    readIndex(path);
  } catch (e) {
    if (e instanceof HistoryError) throw new ConfigError(`--history ${dir}: ${e.message}`);
    throw e;
  }
  mkdirSync(path, { recursive: true });
  return { dir: path, ledgerDir: mkdtempSync(join(tmpdir(), 'svc-run-history-')) };
}

async function runDriftCommand(o: { history: string; target?: string; night?: string; json?: boolean; markdown?: string }): Promise<number> {
  const { driftOnDemand, driftConsoleLines, driftAnswersMarkdown } = await import('../history/on-demand.ts');
  const { HistoryError } = await import('../history/store.ts');
  let answers: ReturnType<typeof driftOnDemand>;
  try {
    answers = driftOnDemand({ historyDir: resolve(o.history), target: o.target, night: o.night });
  } catch (e) {
    if (e instanceof HistoryError) throw new ConfigError(e.message);
    throw e;
  }
  if (o.markdown) {
    mkdirSync(dirname(resolve(o.markdown)), { recursive: true });
    writeFileSync(resolve(o.markdown), driftAnswersMarkdown(answers));
  }
  console.log(o.json ? JSON.stringify(answers, null, 2) : driftConsoleLines(answers).join('\n'));
  return answers.some((a) => a.events.some((e) => e.cls === 'breaking')) ? 1 : 0;
}

/** Shell words for `export NAME=value`: single-quoted unless plain. */
const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);

/** Where `--write-config` writes and in which format, checked before anything starts. */
function configTarget(file: string, force: boolean | undefined): { file: string; format: 'ts' | 'json' } {
  const format = configFormatOf(file);
  if (!format) throw new UsageError(`--write-config takes a .ts, .mts, .mjs, .js or .json file name, got "${file}"`);
  const path = resolve(file);
  if (!existsSync(dirname(path))) throw new UsageError(`--write-config ${file}: the folder ${dirname(path)} does not exist`);
  if (existsSync(path) && !force) throw new UsageError(`${path} exists; --force overwrites it`);
  return { file: path, format };
}

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
    throw new ConfigError(`simulator: ${e.message}`);
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

async function serveReceiver(o: {
  port: number;
  db: string;
  broken?: string;
  slowMs?: number;
  maxBodyBytes?: number;
  maxDepth?: number;
  requestTimeoutMs?: number;
  deliveryLog?: string;
}): Promise<'serving'> {
  if (o.deliveryLog) {
    // Events rule 5: retries "spread over about 24 hours" show only to a receiver that stays
    // up for the day between two nightlies and keeps refusing the kept member's deliveries:
    // this one writes every attempt to the file the next nightly reads (history/keepers.ts).
    if (o.broken) throw new UsageError('--delivery-log and --broken are different receivers: give one');
    const { startDeliveryLog } = await import('../history/delivery-log.ts');
    const log = await startDeliveryLog({ file: resolve(o.deliveryLog), port: o.port });
    console.log(`listening ${log.url} (every delivery attempt to ${resolve(o.deliveryLog)}; the nightly's --history reads <history>/deliveries.jsonl)`);
    const stopLog = async () => {
      await log.close();
      process.exit(0);
    };
    process.on('SIGINT', stopLog);
    process.on('SIGTERM', stopLog);
    return 'serving';
  }
  if (o.broken && !BROKEN_VARIANTS.includes(o.broken as BrokenVariant))
    throw new UsageError(`unknown --broken "${o.broken}"; variants: ${BROKEN_VARIANTS.join(', ')}`);
  mkdirSync(dirname(resolve(o.db)), { recursive: true });
  const receiver = await startReceiver({
    dbPath: o.db,
    port: o.port,
    broken: o.broken as BrokenVariant | undefined,
    slowMs: o.slowMs,
    maxBodyBytes: o.maxBodyBytes,
    maxDepth: o.maxDepth,
    requestTimeoutMs: o.requestTimeoutMs,
  });
  console.log(`listening ${receiver.url}`);
  serveUntilStopped(() => receiver.close());
  return 'serving';
}

async function runLoadCommand(scripts: string[], o: { profile: string; runner?: string; out?: string }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const { runLoad, LOAD_PROFILES, scriptPath } = await import('../load/run.ts');
  if (!LOAD_PROFILES.includes(o.profile)) throw new UsageError(`unknown --profile "${o.profile}"; profiles: ${LOAD_PROFILES.join(', ')}`);
  const resolvedScripts = scripts.map((s) => {
    const file = scriptPath(s);
    if (!file) throw new UsageError(`no load script "${s}"; scripts: rate-limit, paging (or a path to a k6 script)`);
    return file;
  });
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'load');
  return runLoad({ scripts: resolvedScripts, env: settings.env, profile: o.profile, runner: o.runner as 'k6' | 'runner' | undefined, reportDir: out });
}

async function runNightlyCommand(o: { skip?: string; grep?: string; selftestQuick?: boolean; out?: string; history?: string }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const skip =
    o.skip
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const { runNightly, NIGHTLY_STEPS } = await import('../nightly/nightly.ts');
  for (const s of skip)
    if (!(NIGHTLY_STEPS as readonly string[]).includes(s)) throw new UsageError(`--skip takes a comma list of ${NIGHTLY_STEPS.join(', ')}; got "${s}"`);
  const out = o.out ? resolve(o.out) : reportsDir(settings);
  // Trends and Allure's history outlive the reports folder: the project's reports/history
  // in a checkout, ./svc-history in a user's project (keep it between runs, e.g. a CI cache).
  const inCheckout = resolve(process.cwd()) === resolve(PACKAGE_ROOT);
  const historyDir = o.history ? resolve(o.history) : inCheckout ? join(PACKAGE_ROOT, 'reports/history') : resolve('svc-history');
  const summary = await runNightly({ skip, grep: o.grep, selftestQuick: o.selftestQuick, out, historyDir, env: settings.env as Record<string, string> });
  const { verdictLine } = await import('../reports/summary.ts');
  console.log(
    `\nnightly: ${verdictLine(summary.gate, summary.reasons, summary.leftOut ?? [])} in ${(summary.wallTimeMs / 1000).toFixed(1)} s; summary ${join(out, 'summary.md')}`,
  );
  for (const r of summary.reasons) console.log(`  - ${r.step}: ${r.reason}`);
  // The redacted file the nightly wrote, never a fresh rendering.
  if (process.env.GITHUB_STEP_SUMMARY) writeFileSync(process.env.GITHUB_STEP_SUMMARY, readFileSync(join(out, 'summary.md')), { flag: 'a' });
  return summary.gate === 'fail' ? 1 : 0;
}

async function runVersionsCommand(
  o: { from?: string; to?: string; fromFile?: string; toFile?: string; out?: string; usage?: string },
  cmd: Command,
): Promise<number> {
  const byVersion = o.from !== undefined || o.to !== undefined;
  const byFile = o.fromFile !== undefined || o.toFile !== undefined;
  if (byVersion === byFile) throw new UsageError('give either --from and --to (versions of the target) or --from-file and --to-file (two OpenAPI documents)');
  if (byVersion && !(o.from && o.to)) throw new UsageError('--from and --to go together');
  if (byFile && !(o.fromFile && o.toFile)) throw new UsageError('--from-file and --to-file go together');
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const { versionCheck, diffDocumentFiles, versionReportLines, VersionInputError } = await import('../upgrade/versions.ts');
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'versions');
  const usageFile = o.usage ? resolve(o.usage) : profileOf(settings.env).integration.usageFile;
  const common = { env: settings.env, out, allureResults: join(reportsDir(settings), 'allure-results'), ...(usageFile ? { usageFile } : {}) };
  try {
    const report = byVersion
      ? await versionCheck({ ...common, from: o.from!, to: o.to! })
      : await diffDocumentFiles({ ...common, fromFile: resolve(o.fromFile!), toFile: resolve(o.toFile!) });
    for (const line of versionReportLines(report, out)) console.log(line);
    return report.blocking.length ? 1 : 0;
  } catch (e) {
    if (e instanceof VersionInputError) throw new ConfigError(e.message);
    throw e;
  }
}

/** `--version-of file=v<YYYYMMDD>`, repeatable: the version a reference document describes when it does not say. */
function versionOfOption(raw: string, acc: string[]): string[] {
  if (!/^.+=v\d{8}$/.test(raw)) throw new InvalidArgumentError(`--version-of takes <file>=v<YYYYMMDD>, e.g. vendor.yml=v20250224; got "${raw}"`);
  return [...acc, raw];
}

async function runReferenceCommand(files: string[], o: { versionOf: string[]; json?: string; markdown?: string }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  // The options a run with these settings uses, the reference itself left out: it is what is judged.
  const profile = profileOf(settings.env);
  const versionOf = new Map<string, string>();
  for (const entry of o.versionOf) {
    const at = entry.lastIndexOf('=');
    const file = resolve(entry.slice(0, at));
    if (!files.some((f) => resolve(f) === file)) throw new UsageError(`--version-of ${entry}: ${entry.slice(0, at)} is not one of the documents given`);
    versionOf.set(file, entry.slice(at + 1));
  }
  const [{ examineReference, ReferenceInputError }, { referenceConsoleLines, referenceJson, referenceMarkdown }] = await Promise.all([
    import('../contracts/index.ts'),
    import('../reports/reference.ts'),
  ]);
  let report: ReturnType<typeof examineReference>;
  try {
    report = examineReference(
      files.map((f) => ({ file: f, ...(versionOf.has(resolve(f)) ? { version: versionOf.get(resolve(f)) } : {}) })),
      checkOptionsOf({ ...profile, reference: [] }),
    );
  } catch (e) {
    if (e instanceof ReferenceInputError) throw new ConfigError(e.message);
    throw e;
  }
  const written: string[] = [];
  for (const [file, text] of [
    [o.json, () => referenceJson(report)],
    [o.markdown, () => referenceMarkdown(report)],
  ] as const) {
    if (!file) continue;
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(resolve(file), text());
    written.push(resolve(file));
  }
  for (const line of referenceConsoleLines(report, written)) console.log(line);
  return 0;
}

async function runMutantsCommand(
  o: {
    sample?: number;
    seed?: number;
    only?: string;
    family?: string;
    grep?: string;
    workers?: number;
    testsPerMutant?: number;
    confirm: boolean;
    rerun?: string;
    out?: string;
  },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const { scoreOf, summaryLine, STATED_FAMILIES, TOLERATED_FAMILIES, SCORE_GOAL } = await import('../proof/mutants/index.ts');
  const { runMutants } = await import('../proof/mutants/run.ts');
  const known = new Set<string>([...STATED_FAMILIES, ...TOLERATED_FAMILIES]);
  const families = o.family
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = (families ?? []).filter((f) => !known.has(f));
  if (unknown.length) throw new UsageError(`unknown --family ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  if (o.rerun && !existsSync(resolve(o.rerun))) throw new UsageError(`--rerun ${o.rerun}: no such report (a mutants.json of an earlier run)`);
  const report = await runMutants({
    sample: o.sample,
    seed: o.seed,
    only: o.only
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    families: families as Family[] | undefined,
    grep: o.grep,
    workers: o.workers,
    testsPerMutant: o.testsPerMutant,
    confirm: o.confirm,
    rerun: o.rerun ? resolve(o.rerun) : undefined,
    out: o.out ? resolve(o.out) : join(reportsDir(settings), 'mutants'),
  });
  console.log(summaryLine(report));
  const alarms = report.outcomes.filter((x) => x.verdict === 'false-alarm').length;
  return scoreOf(report.outcomes).ratio < SCORE_GOAL || alarms ? 1 : 0;
}

// ---- the team's own integration (integration/) -------------------------------------------

/** A bad input of the integration commands (a file that is not HAR, an unknown variation): a message, exit 2. */
async function integrationInput<T>(run: () => Promise<T>): Promise<T> {
  const { IntegrationInputError } = await import('../integration/har.ts');
  try {
    return await run();
  } catch (e) {
    if (e instanceof IntegrationInputError) throw new ConfigError(e.message);
    throw e;
  }
}

/** The test command: after --, else the config's integration.testCommand (SVC_INTEGRATION_COMMAND). */
function testCommandOf(args: string[], profile: TargetProfile): string[] {
  return args.length ? args : profile.integration.testCommand ? [profile.integration.testCommand] : [];
}

async function runProxyCommand(
  args: string[],
  o: { upstream?: string; port: number; variation: string[]; out?: string; usageOut?: string; strict?: boolean; quiet?: boolean },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const command = testCommandOf(args, profile);
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'proxy');
  const { runProxy } = await import('../integration/traffic.ts');
  const run = await integrationInput(() =>
    runProxy({
      env: settings.env,
      upstream: o.upstream,
      port: o.port,
      variations: o.variation,
      out,
      ...(o.usageOut ? { usageOut: resolve(o.usageOut) } : {}),
      strict: o.strict,
      command,
      live: !o.quiet,
      version: version(),
      onListening: ({ url, upstream }) =>
        console.log(
          `svc-conformance proxy: ${url} → ${upstream}${command.length ? `; running: ${command.join(' ')}` : '; Ctrl-C stops it and writes the reports'}`,
        ),
    }),
  );
  console.log(['', ...run.lines, '', `Reports: ${run.written.files.join(', ')}${run.usage ? `; usage file ${resolve(o.usageOut!)}` : ''}`].join('\n'));
  return run.exitCode;
}

async function runCheckHarCommand(
  file: string,
  o: { baseUrl?: string; audienceBaseUrl?: string; testHostBaseUrl?: string; out?: string; usageOut?: string; strict?: boolean; maxHarMb?: number },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'check-har');
  const { checkHar } = await import('../integration/traffic.ts');
  const run = await integrationInput(async () =>
    checkHar({
      file: resolve(file),
      env: settings.env,
      baseUrl: o.baseUrl,
      audienceBaseUrl: o.audienceBaseUrl,
      testHostBaseUrl: o.testHostBaseUrl,
      out,
      strict: o.strict,
      ...(o.usageOut ? { usageOut: resolve(o.usageOut) } : {}),
      ...(o.maxHarMb ? { maxBytes: o.maxHarMb * 1024 * 1024 } : {}),
    }),
  );
  console.log([...run.lines, '', `Reports: ${run.written.files.join(', ')}${run.usage ? `; usage file ${resolve(o.usageOut!)}` : ''}`].join('\n'));
  return run.exitCode;
}

async function runUsageCommand(o: { fromHar?: string; declare: string[]; out: string; baseUrl?: string }, cmd: Command): Promise<number> {
  if (!!o.fromHar === o.declare.length > 0)
    throw new UsageError('give either --from-har <file.har> (recorded traffic, e.g. the proxy\'s recording.har) or --declare "<METHOD /path>" (repeatable)');
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const file = resolve(o.out);
  const usage = await integrationInput(async () => {
    if (o.declare.length) {
      const { declaredUsage } = await import('../integration/usage.ts');
      const declared = declaredUsage(o.declare);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(declared, null, 2)}\n`);
      return declared;
    }
    const [{ readHar }, { harBases, writeUsage }] = await Promise.all([import('../integration/har.ts'), import('../integration/traffic.ts')]);
    const har = readHar(resolve(o.fromHar!));
    return writeUsage(har.exchanges, { bases: harBases(har.exchanges, profile, { baseUrl: o.baseUrl }), source: `HAR file ${o.fromHar}`, file });
  });
  const ops = Object.entries(usage.operations);
  console.log(`wrote ${file}: ${ops.length} operation(s)${usage.versions.length ? ` under ${usage.versions.join(', ')}` : ''}`);
  for (const [key, u] of ops)
    console.log(
      `  ${key}${u.declared ? ' (declared: every field)' : `: ${u.query.length} query parameter(s), ${u.requestFields.length} request field(s), ${(u.reads ?? u.responseFields).length} response field(s)${u.reads ? ' (declared reads)' : ''}`}`,
    );
  console.log(
    `Commit it; narrow what your code reads with "reads" per operation (kept when the file is written again). Then: svc-conformance versions --from <version> --to <version> --usage ${o.out}`,
  );
  return 0;
}

async function runToleranceCommand(
  args: string[],
  o: { variation: string[]; timeout?: number; concurrency: number; retries: number; out?: string },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  const command = testCommandOf(args, profile);
  if (!command.length) throw new UsageError('give the test command after --, e.g. svc-conformance tolerance -- npm test (or set integration.testCommand)');
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'tolerance');
  const { runTolerance, toleranceConsoleLines, toleranceExitCode, writeToleranceReports, rowLine } = await import('../integration/tolerance.ts');
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
      cwd: process.cwd(),
      ...(o.concurrency === 1 ? { onRow: (row) => console.log(rowLine(row)) } : {}),
    }),
  );
  const files = writeToleranceReports(report, out);
  console.log(['', ...toleranceConsoleLines(report, { rows: o.concurrency !== 1 }), `Reports: ${files.join(', ')}`].join('\n'));
  return toleranceExitCode(report);
}

async function runWebhookCheckCommand(
  o: { url: string; observeUrl?: string; runs?: number; boundMs?: number; seed?: number; out?: string },
  cmd: Command,
): Promise<number> {
  const settings = await settingsOf(cmd);
  profileOf(settings.env);
  const out = o.out ? resolve(o.out) : join(reportsDir(settings), 'webhook-check');
  const { runWebhookCheck, WEBHOOK_PROPERTIES } = await import('../integration/webhook-check.ts');
  console.log(`svc-conformance webhook-check: ${o.url}${o.observeUrl ? ` (observation API ${o.observeUrl})` : ''}`);
  for (const p of WEBHOOK_PROPERTIES)
    console.log(`  ${p.needsObservation && !o.observeUrl ? '(skipped: needs --observe-url) ' : ''}${p.property} — ${p.rules}`);
  const { code } = await integrationInput(() =>
    runWebhookCheck({ url: o.url, observeUrl: o.observeUrl, runs: o.runs, boundMs: o.boundMs, seed: o.seed, out, env: settings.env }),
  );
  console.log(
    `\nwebhook-check: ${code === 0 ? 'every property holds' : 'a property failed (the shrunk counterexample is above)'}; reports in ${out} (html/, junit.xml, summary.md)`,
  );
  return code;
}

async function runPreflightCommand(o: { markdown?: string; json?: boolean; writeConfig?: string; force?: boolean }, cmd: Command): Promise<number> {
  const write = o.writeConfig ? configTarget(o.writeConfig, o.force) : undefined;
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  if (write && profile.isSimulator)
    throw new UsageError(
      '--write-config writes what a real target reveals: set target.baseUrl (SVC_BASE_URL) and its credentials; a simulator writes its own (svc-conformance simulator --write-config)',
    );
  const { runPreflight, formatPreflight, preflightExitCode } = await import('../preflight/preflight.ts');
  // Without a real target, the embedded simulator is what a run would meet: start one.
  const target = await startTarget({ env: settings.env });
  try {
    const report = await runPreflight(target.profile);
    const text = formatPreflight(report);
    console.log(o.json ? JSON.stringify(report, null, 2) : text);
    if (o.markdown) {
      mkdirSync(dirname(resolve(o.markdown)), { recursive: true });
      writeFileSync(resolve(o.markdown), `## svc-conformance preflight: ${describeTarget(target.profile)}\n\n\`\`\`\n${text.trimEnd()}\n\`\`\`\n`);
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
  const { discoverSettings } = await import('../preflight/discover.ts');
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

async function runCleanupCommand(o: { runId?: string; dryRun?: boolean }, cmd: Command): Promise<number> {
  const settings = await settingsOf(cmd);
  const profile = profileOf(settings.env);
  if (profile.isSimulator)
    throw new UsageError('cleanup removes leftovers from a real target: set target.baseUrl (SVC_BASE_URL); the embedded simulator keeps nothing between runs');
  const { cleanupLeftovers } = await import('../scenarios/cleanup.ts');
  const r = await cleanupLeftovers(profile, { runId: o.runId, dryRun: o.dryRun, log: (line) => console.log(line) });
  console.log(
    `${r.dryRun ? 'dry run: ' : ''}${r.listed} users listed (${r.pagesRead} pages${r.complete ? '' : ', stopped at the page bound: run again'}); ${r.found.length} with the prefix ${r.prefix}; ${r.dryRun ? 'none deleted' : `${r.deleted.length} deleted, ${r.failed.length} failed`}`,
  );
  return r.failed.length || !r.complete ? 1 : 0;
}

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

// ---------------------------------------------------------------------------------------

/** `svc-conformance config init`: the words that invoke a command. */
function commandPath(c: Command): string {
  const names: string[] = [];
  for (let at: Command | null = c; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Every command's failure goes through here: a usage line or a message, never a stack trace (unless --debug). */
type Action = (...args: any[]) => Promise<number | 'serving'> | number | 'serving';

/**
 * Exits once everything written has left: stdout to a pipe that its reader drains slowly
 * (a CI log, a test) takes the first 64 KiB at once and queues the rest, which a bare
 * process.exit() would drop (a long `simulator --list` lost its last entries that way).
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
  const wrap =
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

  const sim = program
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
  void sim;

  program
    .command('receiver')
    .description('start the reference webhook receiver on 127.0.0.1')
    .option('-p, --port <port>', 'port on 127.0.0.1 (0: a free one)', port, 4020)
    .option('--db <file>', 'its durable store', '.tmp/receiver.sqlite')
    .option('--broken <variant>', `a deliberately broken receiver (${BROKEN_VARIANTS.join(', ')})`)
    .option('--slow-ms <ms>', 'answer every delivery this late', positiveInt('--slow-ms'))
    .option('--max-body-bytes <n>', `largest body accepted, bytes; larger: 413 (default ${RECEIVER_BOUNDS.maxBodyBytes})`, positiveInt('--max-body-bytes'))
    .option('--max-depth <n>', `deepest nesting of arrays and objects accepted; deeper: 400 (default ${RECEIVER_BOUNDS.maxDepth})`, positiveInt('--max-depth'))
    .option(
      '--request-timeout-ms <ms>',
      `time for a whole request to arrive; later: 408 (default ${RECEIVER_BOUNDS.requestTimeoutMs})`,
      positiveInt('--request-timeout-ms'),
    )
    .option(
      '--delivery-log <file>',
      "instead: a receiver that logs every delivery attempt (refusing the nightly's kept member) for the next nightly, e.g. <history>/deliveries.jsonl",
    )
    .action(wrap((o) => serveReceiver(o)));

  program
    .command('load')
    .description('run the k6 load scripts (429 behaviour, paging limits) with k6 when on the PATH, else the k6-compatible runner')
    .argument('[scripts...]', 'rate-limit, paging, or paths of k6 scripts (default: all)')
    .option('--profile <name>', 'load profile: smoke, average, stress, spike', 'smoke')
    .addOption(new Option('--runner <runner>', 'force k6 or the built-in runner').choices(['k6', 'runner']))
    .option('--out <dir>', 'where the JSON summaries go (default: <reports>/load)')
    .action(wrap((scripts: string[], o, cmd: Command) => runLoadCommand(scripts, o, cmd)));

  program
    .command('nightly')
    .description('conformance + load (smoke) + self-test, one Allure report with trends and a one-page summary; the exit code is the gate')
    .option('--skip <steps>', 'comma list of steps to leave out: conformance, load, selftest')
    .option('-g, --grep <regex>', 'restrict the conformance step')
    .option('--selftest-quick', 'the quick self-test')
    .option('--out <dir>', 'output folder (default: the reports folder)')
    .option(
      '--history <dir>',
      'trends, Allure history and the observations of every night (what the target served, compared night to night; history/), kept between runs (default: ./svc-history; reports/history in a checkout)',
    )
    .action(wrap((o, cmd: Command) => runNightlyCommand(o, cmd)));

  program
    .command('drift')
    .description(
      "drift inside a version, on demand: the latest night of each target in a history (nightly, run --history) against the nights before it, every difference classified by the specification's Versioning rules (breaking: a removed field, a changed kind of data, a removed enum value, a request refused that was accepted; non-breaking: an added field, enum value or header)",
    )
    .requiredOption('--history <dir>', "the history folder (the nightly's --history, or run --history)")
    .option('--target <name>', 'only this target (as the history names it: a base URL, or "embedded simulator")')
    .option('--night <id>', 'compare this night instead of the latest (an id the history keeps in full)')
    .option('--json', 'print the answer as JSON')
    .option('--markdown <file>', 'also write the answer as Markdown')
    .addHelpText(
      'after',
      '\nExit codes: 0 no breaking drift, 1 a breaking change inside a version (Versioning: "Breaking (require a new version)"), 2 bad input (no history there, an unreadable index, an unknown night or target).',
    )
    .action(wrap((o) => runDriftCommand(o)));

  program
    .command('versions')
    .description(
      "vendor-upgrade check: every difference between two versions of the target (read-only probes and the derived documents), or between two OpenAPI files, classified breaking or not by the specification's Versioning rules",
    )
    .option('--from <version>', 'the version in use, e.g. v20250224')
    .option('--to <version>', 'the version to move to, e.g. v20260929')
    .option('--from-file <openapi>', 'an OpenAPI 3.0/3.1 document (YAML or JSON) instead of a version')
    .option('--to-file <openapi>', 'the document to compare it with')
    .option('--out <dir>', 'report folder (default: <reports>/versions)')
    .option(
      '--usage <file>',
      "your integration's usage file (svc-conformance usage): only breaking differences that touch an operation, parameter or field it uses gate; the rest is listed apart (default: integration.usageFile)",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 no breaking difference on what your integration uses (the usage file, else usedOperations / SVC_USED_OPERATIONS), 1 some, 2 bad input (an unknown version, an unreadable document or usage file).',
    )
    .action(wrap((o, cmd: Command) => runVersionsCommand(o, cmd)));

  program
    .command('reference')
    .description(
      "the vendor's published OpenAPI documents as a second witness: every example they carry for a 2xx JSON response of an operation the contract documents, judged as a live run judges an answer, and the two descriptions compared schema by schema (a field we require that the reference does not carry, a status it declares that we refuse, a type that differs); every disagreement quoted from both sides",
    )
    .argument('<file...>', "the vendor's OpenAPI 3.0/3.1 documents (YAML or JSON), one per version")
    .option(
      '--version-of <file=version>',
      'the version a document describes, over what its info.version or Accept-Version parameter says (repeatable), e.g. vendor.yml=v20250224',
      versionOfOption,
      [] as string[],
    )
    .option('--json <file>', 'write the full report as JSON (every disagreement, both sides quoted)')
    .option('--markdown <file>', 'write the full report as Markdown')
    .addHelpText(
      'after',
      '\nWith the config key reference (SVC_REFERENCE) naming the same documents, every run reports a stated failure they contradict (an example failing the same rule at the same place, a required field they do not carry, a status they declare that the contract refuses) as inferred, naming the document and the pointer.\nExit codes: 0 it ran (disagreements are information, not a verdict), 2 bad input (a missing or unreadable file, not OpenAPI 3.0/3.1, a version the contract has no document for).',
    )
    .action(wrap((files: string[], o, cmd: Command) => runReferenceCommand(files, o, cmd)));

  program
    .command('mutants')
    .description(
      'response mutants: every stated rule of spec/ broken one at a time by a mutating proxy in front of a separately started simulator, and the freedoms the Versioning section leaves; the suite runs in real-target mode against each (only the scenarios that reach the mutated operation); mutation score per family and section, survivors, false alarms (<reports>/mutants/mutants.{json,md})',
    )
    .option('--sample <n>', 'a seeded sample of n mutants, family by family (the CI gate); default every mutant (the nightly)', positiveInt('--sample'))
    .option('--seed <n>', "the sample's seed (default 1)", positiveInt('--seed'))
    .option('--only <ids>', 'only mutants whose id contains one of these (comma list)')
    .option('--family <families>', 'only these families (comma list)')
    .option('-g, --grep <regex>', 'only scenarios whose title matches')
    .option('--workers <n>', 'Playwright workers (default 3)', positiveInt('--workers'))
    .option('--tests-per-mutant <n>', 'reaching scenarios a stated mutant runs first, fastest first (default 3)', positiveInt('--tests-per-mutant'))
    .option('--no-confirm', 'no second pass of the survivors on every reaching scenario and the fuzz project')
    .option('--rerun <mutants.json>', 'only the mutants an earlier report left open (survivors, unreached, false alarms) and new ones')
    .option('--out <dir>', 'report folder (default: <reports>/mutants)')
    .addHelpText('after', '\nExit codes: 0 at least 95% of the stated mutants killed and no tolerated mutant failed a scenario, 1 otherwise, 2 bad usage.')
    .action(wrap((o, cmd: Command) => runMutantsCommand(o, cmd)));

  const commandVariables = `The test command gets (integration/README.md): SVC_BASE_URL and BASE_URL (the target's base URL), SVC_CLIENT_ID, SVC_API_KEY, SVC_AUDIENCE_BASE_URL and SVC_TEST_HOST_BASE_URL when known; with the embedded simulator SVC_TEST_INSTITUTION_CODE, SVC_TEST_USERNAME, SVC_TEST_PASSWORD_SUCCESS; in tolerance SVC_VARIATION (empty for the baseline).`;

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
    .addHelpText(
      'after',
      `\n${commandVariables}\nExit codes: 0 green, 1 a stated finding (inferred too with --strict) or the test command failed, 2 bad usage or configuration.`,
    )
    .action(wrap((args: string[], o, cmd: Command) => runProxyCommand(args, o, cmd)));

  program
    .command('check-har')
    .description(
      "judge a HAR file of your integration's traffic (browser devtools, Playwright's recordHar, mitmproxy, the proxy's recording.har) against the contract: requests and responses, same tiers and reports",
    )
    .argument('<file>', 'the HAR file')
    .option(
      '--base-url <url>',
      'the platform API base URL in the HAR (default: target.baseUrl of a real target, else the origins whose requests carry Accept-Version)',
    )
    .option('--audience-base-url <url>', 'the audience service base URL in the HAR')
    .option('--test-host-base-url <url>', 'the test host base URL in the HAR')
    .option('--out <dir>', 'report folder (default: <reports>/check-har)')
    .option('--usage-out <file>', "also write the integration's usage file")
    .option('--strict', 'inferred findings fail the gate like stated ones (SVC_STRICT=1)')
    .option('--max-har-mb <mb>', 'bound on the HAR file read (default 256)', positiveInt('--max-har-mb'))
    .addHelpText('after', '\nExit codes: 0 green, 1 a stated finding (inferred too with --strict), 2 bad usage or an unreadable HAR.')
    .action(wrap((file: string, o, cmd: Command) => runCheckHarCommand(file, o, cmd)));

  program
    .command('usage')
    .description('write the usage file of your integration: the operations, parameters and fields its traffic touches (commit it; versions --usage reads it)')
    .option('--from-har <file>', "recorded traffic (a HAR, e.g. the proxy's recording.har)")
    .option(
      '--declare <operation>',
      'a declared operation, "METHOD /path/{template}" (repeatable): every field of it counts as used',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--base-url <url>', 'the platform API base URL in the HAR (as check-har)')
    .option('--out <file>', 'the usage file', 'usage.json')
    .action(wrap((o, cmd: Command) => runUsageCommand(o, cmd)));

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
    .addHelpText(
      'after',
      `\n${commandVariables}\nExit codes: 0 the baseline and every variation pass, 1 a variation breaks the command (or the baseline fails), 2 bad usage.`,
    )
    .action(wrap((args: string[], o, cmd: Command) => runToleranceCommand(args, o, cmd)));

  program
    .command('webhook-check')
    .description(
      'the receiver-side properties of the Events section against your webhook handler: unknown fields, bad JSON, duplicates (retries with the same payload), late and out-of-order deliveries, answer time',
    )
    .requiredOption('--url <url>', 'your webhook URL ({type} in it is replaced by the webhook type)')
    .option(
      '--observe-url <url>',
      'its observation API, if it has one (targets/receiver/README.md): then duplicates processed once and the highest version stored are checked too',
    )
    .option('--runs <n>', 'cases per property (default 200)', positiveInt('--runs'))
    .option('--bound-ms <ms>', 'answer bound ("answer quickly"; default 1000)', positiveInt('--bound-ms'))
    .option('--seed <n>', 'replay a run', (raw: string) => {
      const n = Number(raw);
      if (!Number.isInteger(n)) throw new InvalidArgumentError('--seed must be an integer.');
      return n;
    })
    .option('--out <dir>', 'report folder (default: <reports>/webhook-check)')
    .addHelpText('after', '\nExit codes: 0 every property holds, 1 one fails (with a shrunk counterexample), 2 bad usage.')
    .action(wrap((o, cmd: Command) => runWebhookCheckCommand(o, cmd)));

  program
    .command('cleanup')
    .description(
      "delete what interrupted runs left on the target: users whose id starts with the suite's prefix svcct- (every user the suite creates carries it); never any other user",
    )
    .option('--run-id <id>', 'only the users of this run (svcct-<run id>-...)')
    .option('--dry-run', 'list them, delete nothing')
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 a deletion failed or the listing stopped at its page bound, 2 bad usage or configuration. ACH returns have no delete operation in the specification and stay.',
    )
    .action(wrap((o, cmd: Command) => runCleanupCommand(o, cmd)));

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

  // Every command: usage errors exit 2 with a usage line; --help and --version exit 0.
  const configureAll = (c: Command) => {
    c.configureOutput({ writeOut: output.out, writeErr: output.err });
    c.exitOverride((err: CommanderError) => {
      // --help, the help command (`help run`) and --version are answers, not errors.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') exit(0);
      else exit(2);
      throw err;
    });
    c.showHelpAfterError(`${c.helpInformation().split('\n')[0]}\n(see ${commandPath(c)} --help)`);
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
