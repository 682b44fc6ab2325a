#!/usr/bin/env node
// Runs the project's own tests with Node's own test runner (node:test) through tsx, in one of
// two tiers:
//
//   unit (default, part of `npm test`): every *.test.ts under the project's folders that is
//     not a system test. A unit test runs in its process: it may start a simulator or a
//     receiver in-process, never a child process (scripts/no-child-process.mjs is loaded
//     into every unit-test process and refuses one, naming the rule).
//   system (`--system`, `npm run test:system`): every *.system.test.ts: tests that start
//     processes (the CLI, Playwright, npm, a browser, a simulator or receiver of its own) or
//     build the whole at volume (30 full-size nights). Most live in tests/; a room's own
//     process-level test keeps its place beside what it tests, named .system.test.ts.
//
// Node 20's --test takes no glob, so the files are listed here; an argument narrows the run
// to paths that contain it, and one that starts with --test- goes to node as given
// (--test-reporter=spec, --test-name-pattern=...).
//
// Order and concurrency (for the shortest wall time on 2 cores): node --test runs the files
// three at a time (`--concurrency=N` changes it), in the order the tier's OWN_PROCESS gives
// (see `ordered` below: node sorts the paths it is given, so each file goes through an entry
// named by its place). The long files go first, beside files that mostly wait, and the rest
// follow as slots free: the run does not end on one long file alone. Three Playwright-heavy
// files side by side would make timing-sensitive scenarios inside them (a job still running,
// a receiver's answer bound) lose their race on a loaded machine, so the third slot is kept
// to files that wait.
//
// One process for the short files: node --test gives every file its own process, and a
// short file spends most of its CPU starting node and tsx and importing the contract and
// the simulator again. So every file not in OWN_PROCESS is imported, in name order, by one
// generated entry file that node --test runs as one more file; its tests run one after
// another, as they would in their own file. A file that needs a process of its own (it
// changes process-wide state, or runs long and should overlap the others) goes in OWN_PROCESS.
//
// A test removes what it makes in the temporary folder: the unit tier runs with a folder of its
// own as TMPDIR (tools' caches linked in) and fails on whatever a test left there, named.
//
// A red run ends with a summary block: every failing test, its file and the first line of
// its error (scripts/unit-failure-reporter.mjs records them beside node's own reporter),
// so the reader of a long log finds what failed at its end.
//
//   node scripts/run-unit-tests.mjs [--system] [--concurrency=N] [path-part ...] [--test-...]
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const USAGE =
  'usage: node scripts/run-unit-tests.mjs [--system] [--concurrency=N] [path-part ...] [--test-<node option> ...]\n' +
  '  the unit tests (npm test), or with --system the system tests (*.system.test.ts, npm run test:system);\n' +
  '  a path part narrows the run to files whose path contains it';

/** The caches under the temporary folder that outlive a run (tierTemporaryFolder). */
const KEPT_CACHES = [`tsx-${process.geteuid ? process.geteuid() : userInfo().username}`, 'svc-contracts-yaml-v1', 'svc-k6-runner'];

const roots = [
  'cli',
  'spec',
  'contracts',
  'targets',
  'preflight',
  'integration',
  'scenarios',
  'load',
  'reports',
  'nightly',
  'upgrade',
  'proof',
  'history',
  'tests',
];
const SYSTEM_SUFFIX = '.system.test.ts';

/**
 * The unit tier's files run in their own process, in the order they start: the ones that
 * mostly wait (webhook retries, arrival-rate timings) overlap the short files' process, and
 * proof/matrix.test.ts sets SVC_SELFTEST_PLAN in process.env while it imports the self-test's
 * proof/playwright.config.ts.
 */
const UNIT_OWN_PROCESS = [
  // Webhook retry schedules on the simulator's compressed clock: mostly waiting.
  'proof/delivery-faults.test.ts',
  // The k6-compatible runner's executors, timed against the wall clock: mostly waiting.
  'load/runner/runner.test.ts',
  'load/scripts.test.ts',
  'proof/receiver-variants.test.ts',
  'targets/simulator/core-faults.test.ts',
  'proof/matrix.test.ts',
  'contracts/test/spec-documents.test.ts',
];

/** The system tier's files run in their own process, in the order they start (the longest first). */
const SYSTEM_OWN_PROCESS = [
  // The packed tarball installed into an empty project and run from there: mostly npm's
  // waiting, then two short Playwright runs.
  'tests/package.system.test.ts',
  'tests/real-target.system.test.ts',
  'tests/live-delivery.system.test.ts',
  'tests/redaction.system.test.ts',
  // (the one process of the short files starts here: see BATCH_AFTER)
  'tests/redaction-browser.system.test.ts',
  // One Playwright invocation against five misbehaving targets (a worker per target).
  'tests/bounded-transport.system.test.ts',
  'targets/receiver/crash.system.test.ts',
  // Hundreds of hostile connections, some of tens of megabytes, at a receiver child process:
  // long enough to overlap the others rather than lengthen the short files' one process.
  'targets/receiver/hostile.system.test.ts',
  // Two Playwright runs against a simulator with refused credentials (mostly waiting).
  'tests/wrong-credentials.system.test.ts',
  // A simulator process writes its config file; the api smoke scenarios run from a folder
  // holding only that file, then embedded (two short Playwright runs).
  'tests/simulator-config.system.test.ts',
  // A seeded sample of response mutants through the mutating proxy: a simulator process and
  // three short Playwright runs.
  'tests/mutants.system.test.ts',
  // The nightly's memory end to end: a simulator process behind a proxy, six short runs with
  // --history; two pairs of nightlies with the simulator's clock moved between them (mostly waiting).
  'tests/nightly-drift.system.test.ts',
  'tests/nightly-keepers.system.test.ts',
  'proof/selftest-mechanism.system.test.ts',
  'proof/trace-proof.system.test.ts',
  'history/store-volume.system.test.ts',
  // Spawns the command some twenty times (--help and usage errors of every subcommand).
  'cli/cli.system.test.ts',
  // The worked example's tolerance matrix: its test command once per catalogue variation, two
  // at a time, each with its own simulator.
  'integration/tolerance-example.system.test.ts',
  // Two Playwright runs of the receiver property suites against a team's URL.
  'integration/webhook-check.system.test.ts',
  // The example's own test command through the proxy (a child process, signal handlers).
  'integration/example.system.test.ts',
];
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const system = args.includes('--system');
const OWN_PROCESS = system ? SYSTEM_OWN_PROCESS : UNIT_OWN_PROCESS;
const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
const nodeArgs = args.filter((a) => a.startsWith('--test-'));
const unknownOption = args.find((a) => a.startsWith('-') && a !== '--system' && a !== concurrencyArg && !nodeArgs.includes(a));
if (unknownOption) {
  console.error(`run-unit-tests: unknown option ${JSON.stringify(unknownOption)}\n${USAGE}`);
  process.exit(2);
}
const filter = args.filter((a) => a !== concurrencyArg && a !== '--system' && !nodeArgs.includes(a));
const files = [];
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'out') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name.endsWith('.test.ts')) files.push(full);
  }
}
roots.forEach(walk);
const tierFiles = files.filter((f) => f.endsWith(SYSTEM_SUFFIX) === system);
const selected = filter.length ? tierFiles.filter((f) => filter.some((x) => f.includes(x))) : tierFiles;
if (selected.length === 0) {
  console.error(
    `run-unit-tests: no ${system ? 'system' : 'unit'} test file matched${filter.length ? ` ${filter.join(', ')}` : ''}${system ? '' : ' (system tests: --system)'}`,
  );
  process.exit(1);
}
const norm = (f) => f.split('\\').join('/');
/**
 * The shared process of the short files starts after this many OWN_PROCESS files. System
 * tier: fifth, when the first of the long files ends, so it never runs beside all of them.
 * Unit tier: first, beside the files that mostly wait.
 */
const BATCH_AFTER = system ? 4 : 0;
const own = selected.filter((f) => OWN_PROCESS.includes(norm(f))).sort((a, b) => OWN_PROCESS.indexOf(norm(a)) - OWN_PROCESS.indexOf(norm(b)));
const short = selected.filter((f) => !OWN_PROCESS.includes(norm(f))).sort();
// Each entry of `groups` runs in its own process: an OWN_PROCESS file, or the short files together.
const groups = own.map((f) => [f]);
if (short.length) groups.splice(Math.min(BATCH_AFTER, groups.length), 0, short);
// node --test sorts the files it is given by path before it starts them (given the real
// paths, the long files would start after everything under contracts/, load/ and proof/,
// and the run would end on one of them alone). So every group goes
// through a generated entry file whose name carries its place: 00-..., 01-..., and node's
// sort keeps the order above. An entry only imports its test files, in name order.
const work = mkdtempSync(join(tmpdir(), 'svc-unit-'));
/** What each generated entry runs, as a reader knows it: a file failing as a whole is named by its entry. */
const entryLabel = new Map();
const ordered = groups.map((files, i) => {
  const name =
    files.length === 1
      ? norm(files[0])
          .replace(/\//g, '-')
          .replace(/\.test\.ts$/, '')
      : 'short-files';
  const entry = join(work, `${String(i).padStart(2, '0')}-${name}.test.mjs`);
  const imports = files.map((f) => `await import(${JSON.stringify(pathToFileURL(resolve(f)).href)});`).join('\n');
  writeFileSync(
    entry,
    `// Generated by scripts/run-unit-tests.mjs (${files.length === 1 ? norm(files[0]) : 'the short test files, in one process'}).\n${imports}\n`,
  );
  entryLabel.set(entry, files.length === 1 ? norm(files[0]) : `the ${files.length} short test files run in one process (${files.map(norm).join(', ')})`);
  return entry;
});
const concurrency = concurrencyArg ? Number(concurrencyArg.slice('--concurrency='.length)) : 3;
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`run-unit-tests: --concurrency must be a whole number from 1, got ${concurrencyArg}`);
  process.exit(2);
}
// node's own reporter as node would choose it (spec on a terminal, else TAP) unless one is
// given, each reporter with its destination, and the failure recorder beside them.
const reporters = nodeArgs.filter((a) => a.startsWith('--test-reporter='));
const destinations = nodeArgs.filter((a) => a.startsWith('--test-reporter-destination='));
const otherNodeArgs = nodeArgs.filter((a) => !reporters.includes(a) && !destinations.includes(a));
if (reporters.length === 0) reporters.push(`--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`);
while (destinations.length < reporters.length) destinations.push('--test-reporter-destination=stdout');
const failuresFile = join(work, 'failures.jsonl');
const reporterArgs = reporters.flatMap((r, i) => [r, destinations[i]]);
reporterArgs.push(`--test-reporter=${fileURLToPath(new URL('./unit-failure-reporter.mjs', import.meta.url))}`, `--test-reporter-destination=${failuresFile}`);
// The unit tier's processes refuse child processes (scripts/no-child-process.mjs); node --test
// hands its own --import options on to every test process it starts.
const guard = system ? [] : ['--import', pathToFileURL(fileURLToPath(new URL('./no-child-process.mjs', import.meta.url))).href];
// A larger young generation: the tests allocate fast (simulators, contracts, large bodies) and
// keep little, so fewer scavenges do less collecting for the same tests. V8 options, like
// --import, are handed on to every test process.
const youngGeneration = ['--max-semi-space-size=64'];
// A developer's temporary folder is shared and outlives the run: see the header.
const testTmp = system ? undefined : tierTemporaryFolder(join(work, 'tmp'));
const result = spawnSync(
  process.execPath,
  [...youngGeneration, '--import', 'tsx', ...guard, '--test', `--test-concurrency=${concurrency}`, ...reporterArgs, ...otherNodeArgs, ...ordered],
  {
    stdio: 'inherit',
    env: testTmp ? { ...process.env, TMPDIR: testTmp } : process.env,
  },
);
let status = result.status ?? 1;
if (status !== 0) console.log(failureSummary(existsSync(failuresFile) ? readFileSync(failuresFile, 'utf8') : ''));
const leftBehind = testTmp ? readdirSync(testTmp).filter((name) => !KEPT_CACHES.includes(name)) : [];
if (leftBehind.length) {
  console.log(
    `\nrun-unit-tests: the unit tests left ${leftBehind.length} temporary ${leftBehind.length === 1 ? 'entry' : 'entries'} behind: ${leftBehind.join(', ')}\n` +
      '  a test removes what it makes in the temporary folder (t.after or after(() => rmSync(dir, { recursive: true, force: true })))',
  );
  if (status === 0) status = 1;
}
rmSync(work, { recursive: true, force: true });
process.exit(status);

/**
 * A temporary folder for the unit tests, with the caches that outlive a run linked in from the
 * machine's temporary folder: tsx's compiled modules (tsx-<uid>), the contract's parsed YAML
 * (contracts/load.ts) and the k6 runner's bundled VU code (load/runner/vu-pool.ts). Without the
 * links every run would start them cold.
 */
function tierTemporaryFolder(dir) {
  mkdirSync(dir);
  for (const name of KEPT_CACHES) {
    const shared = join(tmpdir(), name);
    mkdirSync(shared, { recursive: true });
    symlinkSync(shared, join(dir, name));
  }
  return dir;
}

/** The block a red run ends with: each failing test, its file, the first line of its error. */
function failureSummary(jsonl) {
  const records = jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const tests = records.filter((r) => r.kind === 'test');
  const diagnostics = [...new Set(records.filter((r) => r.kind === 'diagnostic').map((r) => r.message))];
  const where = (file) => {
    if (!file) return '(no file)';
    const path = file.startsWith('file:') ? fileURLToPath(file) : file;
    return entryLabel.get(path) ?? norm(relative(process.cwd(), path));
  };
  const lines = ['', `━━ unit tests failed: ${tests.length} failing test${tests.length === 1 ? '' : 's'} ━━`];
  for (const t of tests) {
    const file = where(t.file);
    const whole = !t.name || t.name === t.file || resolve(t.name) === resolve(String(t.file));
    lines.push(`✗ ${file} › ${whole ? '(the file as a whole)' : t.name}${t.failureType && t.failureType !== 'testCodeFailure' ? ` [${t.failureType}]` : ''}`);
    if (t.message) lines.push(`    ${t.message.slice(0, 400)}`);
  }
  if (diagnostics.length) {
    lines.push('errors outside any test:');
    for (const d of diagnostics) lines.push(`    ${d.slice(0, 400)}`);
  }
  if (!tests.length && !diagnostics.length) lines.push('no failing test was recorded: the output above says why the run stopped');
  return lines.join('\n');
}
