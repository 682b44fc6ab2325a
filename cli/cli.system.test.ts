/**
 * The command and its config file: validation messages name the key and what is
 * accepted, secrets are refused in files, the environment overrides the file, the
 * settings reference is current and covers every variable the profile reads, and every
 * command answers --help with 0 and bad usage with a usage line and 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configEnv, configJsonSchema, configProblems, loadConfigFile, resolveSettings, SETTING_ENTRIES } from './config/load.ts';
import { configTemplate, settingsMarkdown } from './config/init.ts';
import { CATALOG, loadProfile } from '../targets/index.ts';
import { buildProgram } from './main.ts';
import { BIN, cli, inProcess, ROOT } from './cli.test-support.ts';

test('a valid config has no problems; the starting JSON file is valid', () => {
  assert.deepEqual(
    configProblems({ target: { baseUrl: 'https://int.example.com', environment: 'integration' }, versions: { supported: ['v20250224'] }, strict: true }),
    [],
  );
  assert.deepEqual(configProblems(JSON.parse(configTemplate('json'))), []);
});

test('each problem names its key and what is accepted, all at once', () => {
  const problems = configProblems({
    target: { baseUrl: 'ftp://x', enviroment: 'integration' },
    timeouts: { requestMs: 'fast' },
    requestMs: 5,
    versions: { supported: 'v20250224' },
  });
  assert.equal(problems.length, 5, problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('unknown key "target.enviroment"') && p.includes('Did you mean "target.environment"')));
  assert.ok(problems.some((p) => p.includes('unknown key "requestMs"') && p.includes('"timeouts.requestMs"')));
  assert.ok(problems.some((p) => p.includes('"target.baseUrl" must be an http(s) URL, got "ftp://x"')));
  assert.ok(problems.some((p) => p.includes('"timeouts.requestMs" must be an integer >= 1, got "fast"')));
  assert.ok(problems.some((p) => p.includes('"versions.supported" must be a list of strings')));
  assert.ok(configProblems({ target: { environment: 'staging' } })[0].includes('one of "integration", "production"'));
});

test('secrets are refused in a config file, naming the variable to set instead', () => {
  const [one] = configProblems({ testInstitution: { correctAnswer: 'x' } });
  assert.match(one, /"testInstitution\.correctAnswer" is a secret: set SVC_CORRECT_ANSWER in the environment/);
  const [key] = configProblems({ credentials: { apiKey: 'x' } });
  assert.match(key, /"credentials\.apiKey" is a secret: set SVC_API_KEY in the environment/);
  // The client identifier is not a secret (RFC 6749 §2.2): the file may hold it.
  assert.deepEqual(configProblems({ credentials: { clientId: 'team-client' } }), []);
  // A secret's name under another group is named with its variable.
  assert.match(configProblems({ target: { apiKey: 'x' } })[0], /^unknown key "target\.apiKey": .*set SVC_API_KEY in the environment/);
  assert.match(configProblems({ testInstitution: { passwords: { success: 'x' } } })[0], /SVC_TEST_PASSWORD_SUCCESS/);
  // Not even offered as a key.
  assert.ok(!JSON.stringify(configJsonSchema()).includes('"apiKey"'));
});

test('config values become the profile variables: booleans 1/0, lists comma-joined, numbers as text', () => {
  const env = configEnv({
    strict: true,
    webhooks: { failFirst: false },
    versions: { supported: ['v20250224', 'v20260929'] },
    timeouts: { requestMs: 5000 },
    target: { baseUrl: 'https://x.example' },
  });
  assert.deepEqual(env, {
    SVC_STRICT: '1',
    SVC_WEBHOOK_FAIL_FIRST: '0',
    SVC_VERSIONS: 'v20250224,v20260929',
    SVC_REQUEST_TIMEOUT_MS: '5000',
    SVC_BASE_URL: 'https://x.example',
  });
  const p = loadProfile(env);
  assert.deepEqual([p.strict, p.versions.supported, p.timeouts.requestMs, p.platformBaseUrl], [true, ['v20250224', 'v20260929'], 5000, 'https://x.example']);
});

test('the environment overrides the file; sources are reported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
  try {
    writeFileSync(join(dir, 'svc-conformance.config.json'), JSON.stringify({ timeouts: { requestMs: 1000, aggregationMs: 2000 } }));
    const r = await resolveSettings({ cwd: dir, env: { SVC_REQUEST_TIMEOUT_MS: '7000', SVC_API_KEY: 'k' } });
    const p = loadProfile(r.env);
    assert.equal(p.timeouts.requestMs, 7000);
    assert.equal(p.timeouts.aggregationMs, 2000);
    assert.equal(r.sources.get('timeouts.requestMs'), 'environment');
    assert.equal(r.sources.get('timeouts.aggregationMs'), 'config file');
    assert.equal(r.sources.get('credentials.apiKey'), 'environment');
    const none = await resolveSettings({ cwd: dir, env: {}, noConfig: true });
    assert.equal(none.file, undefined);
    assert.equal(loadProfile(none.env).timeouts.aggregationMs, loadProfile({}).timeouts.aggregationMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a TypeScript config loads in a CommonJS project and an ES module one, with defineConfig from the package', async () => {
  for (const type of [undefined, 'module']) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', ...(type ? { type } : {}) }));
      const template = configTemplate('ts', { importFrom: join(ROOT, type ? 'cli/index.ts' : 'cli/define-config.cjs') });
      writeFileSync(join(dir, 'svc-conformance.config.ts'), template);
      const config = await loadConfigFile(join(dir, 'svc-conformance.config.ts'));
      assert.equal(config.target?.baseUrl, 'https://int-api.example.com', `type ${type ?? 'commonjs'}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('docs/settings.md and docs/config.schema.json are current (svc-conformance config docs writes them)', () => {
  assert.equal(readFileSync(join(ROOT, 'docs/settings.md'), 'utf8'), settingsMarkdown(), 'run: npx tsx cli/main.ts config docs');
  assert.equal(
    readFileSync(join(ROOT, 'docs/config.schema.json'), 'utf8'),
    `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
    'run: npx tsx cli/main.ts config docs',
  );
});

/** Variables of the run's machinery, not settings a user gives. */
const INTERNAL = new Set([
  'SVC_SELFTEST',
  'SVC_SELFTEST_PLAN',
  'SVC_SELFTEST_WORKERS',
  'SVC_SELFTEST_TIMEOUT_MINUTES',
  'SVC_SELFTEST_EACH_VARIATION',
  'SVC_SELFTEST_FULL_SUITES',
  'SVC_RUNS_PLAN',
  'SVC_SIMULATOR_URL',
  'SVC_HTTP_TIMING_DIR',
  'SVC_RATE_LIMIT_PATH',
  // The run's ledger folder, made by scenarios/global-setup.ts for each run.
  'SVC_RUN_LEDGER_DIR',
  // Set by `run` after its own read of the target, so globalSetup does not read it again.
  'SVC_PREFLIGHT_PASSED',
]);

test('the settings table documents every variable the profile reads, and nothing it does not', () => {
  const envOfKey = new Map(SETTING_ENTRIES.map((e) => [e.key, e.env]));
  /** The variables a source names, or reads through the table (SETTINGS.<key>, or a group of them read as a whole). */
  const readsOf = (source: string): Set<string> => {
    const read = new Set<string>();
    for (const m of source.matchAll(/\b(SVC_[A-Z0-9_]*[A-Z0-9]|WEBHOOK_RECEIVER_URL)\b/g)) read.add(m[1]);
    for (const m of source.matchAll(/\bSETTINGS\.([a-zA-Z.]+[a-zA-Z])/g)) {
      if (envOfKey.has(m[1])) read.add(envOfKey.get(m[1])!);
      // A group read as a whole (Object.entries(SETTINGS.achFilters)) reads each of its settings.
      else for (const [key, env] of envOfKey) if (key.startsWith(`${m[1]}.`)) read.add(env);
    }
    return read;
  };
  const dir = join(ROOT, 'targets/profiles');
  // The table itself (settings.ts) names every variable: what counts is what the readers name, or read through the table.
  const read = new Set(
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'settings.ts')
      .flatMap((f) => [...readsOf(readFileSync(join(dir, f), 'utf8'))]),
  );
  // Families the profile reads through tables (the password scenarios, product paths, widget controls, ACH filters).
  const documented = new Set(SETTING_ENTRIES.map((e) => e.env));
  const missing = [...read].filter((v) => !documented.has(v) && !INTERNAL.has(v) && !/^SVC_(3DX|ACH|PATH|TEST_PASSWORD|WIDGET|USER|WEBHOOK)$/.test(v));
  assert.deepEqual(missing, [], 'variables read by targets/profiles/ but absent from the settings table (targets/profiles/settings.ts)');
  // The simulator reads its own configuration (SVC_SIM_*), through the same table.
  const simulatorOwn = readsOf(readFileSync(join(ROOT, 'targets/simulator/settings.ts'), 'utf8'));
  const unread = [...documented].filter((v) => !read.has(v) && !simulatorOwn.has(v) && !/^SVC_(PATH|WIDGET|TEST_PASSWORD)_/.test(v));
  assert.deepEqual(unread, [], 'documented variables nothing reads');
});

test('every command answers --help with 0; bad usage gets a usage line and 2, never a stack trace', async () => {
  const commands = buildProgram(() => {}).commands.flatMap((c) => (c.commands.length ? c.commands.map((s) => [c.name(), s.name()]) : [[c.name()]]));
  assert.ok(commands.length >= 18, `every subcommand is listed: ${commands.map((c) => c.join(' ')).join(', ')}`);
  for (const args of [[], ...commands]) {
    const r = await inProcess([...args, '--help']);
    assert.equal(r.code, 0, `${args.join(' ')} --help: ${r.err}`);
    assert.match(r.out, /^Usage: svc-conformance/, args.join(' '));
  }
  for (const [args, message] of [
    [['simulator', '--bogus'], /unknown option '--bogus'/],
    [['run', '--project', 'nope'], /Allowed choices are api, browser, properties, fuzz/],
    [['run', '--shard', 'x'], /--shard takes current\/total/],
    [['load', '--profile', 'huge'], /unknown --profile "huge"/],
    [['config', 'init', '--format', 'yaml'], /--format is ts or json/],
    [['nope'], /unknown command 'nope'/],
    [['nightly', '--skip', 'everything'], /--skip takes a comma list/],
    [['versions', '--from', 'v20250224'], /--from and --to go together/],
    [['cleanup'], /cleanup removes leftovers from a real target/],
  ] as const) {
    const r = await inProcess([...args, '--no-config']);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.match(r.err, /Usage: svc-conformance/);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
  // And once as a user meets it: the installed command's own process.
  const spawned = cli(['simulator', '--bogus']);
  assert.equal(spawned.code, 2);
  assert.match(spawned.err, /unknown option '--bogus'\nUsage: svc-conformance simulator \[options\]/);
});

test('a bad config file stops every command before anything runs, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
  try {
    writeFileSync(join(dir, 'svc-conformance.config.json'), JSON.stringify({ timeouts: { requestMs: -1 } }));
    const r = cli(['run'], { cwd: dir });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /"timeouts\.requestMs" must be an integer >= 1, got -1/);
    assert.match(r.err, /nothing was run/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('integration commands refuse bad input with a message naming it, exit 2, no stack trace', () => {
  for (const [args, message] of [
    [['check-har', '/nonexistent/traffic.har'], /no HAR file at \/nonexistent\/traffic\.har/],
    [['tolerance', '--variation', 'not-a-variation', '--', 'true'], /unknown variation\(s\) not-a-variation/],
    [['usage', '--declare', 'GET /nowhere'], /no platform operation of spec\/ has that method and path/],
    [['versions', '--from', 'v20111101', '--to', 'v20250224', '--usage', '/nonexistent/usage.json'], /no usage file at \/nonexistent\/usage\.json/],
    [['webhook-check', '--url', 'ftp://x'], /--url must be an http\(s\) URL/],
    [['webhook-check', '--url', 'http://127.0.0.1:9/x', '--late-retry-ms', '-3'], /--late-retry-ms must be a whole number \(0 or more\)/],
  ] as const) {
    const r = cli([...args, '--no-config']);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
});

test('simulator --list names every fault and variation of the catalogue', () => {
  const r = cli(['simulator', '--list']);
  assert.equal(r.code, 0, r.err);
  for (const e of CATALOG) assert.ok(r.out.includes(`  ${e.name}`), e.name);
  assert.match(r.out, new RegExp(`Faults \\(${CATALOG.filter((e) => e.kind === 'fault').length}\\)`));
});

test('`help <command>` answers with the command help and exit 0, like --help', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), 'help', 'run'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Usage: svc-conformance run/);
});

test('receiver --delivery-log: every attempt is logged for the next nightly, the kept member refused, SIGTERM ends it with 0', async () => {
  const { spawn } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'svc-delivery-log-'));
  const file = join(dir, 'deliveries.jsonl');
  const child = spawn(process.execPath, [BIN, '--no-config', 'receiver', '--port', '0', '--delivery-log', file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((res, rej) => {
      let out = '';
      const bound = setTimeout(() => rej(new Error(`no "listening" line in 30 s: ${out}`)), 30_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c;
        const m = /listening (\S+)/.exec(out);
        if (m) {
          clearTimeout(bound);
          res(m[1]);
        }
      });
    });
    const { REFUSAL_MARKER } = await import('../history/delivery-log.ts');
    const kept = await fetch(url, { method: 'POST', body: JSON.stringify({ type: 'MEMBER', member: { guid: 'MBR-1' }, payload: `${REFUSAL_MARKER}n1` }) });
    const other = await fetch(url, { method: 'POST', body: JSON.stringify({ type: 'MEMBER', member: { guid: 'MBR-2' } }) });
    // Events rule 4: a 2xx is a delivery; the kept member's are refused so that they are retried (rule 5).
    assert.equal(kept.status, 503);
    assert.equal(other.status, 204);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.status, l.marker ?? null]),
      [
        [503, `${REFUSAL_MARKER}n1`],
        [204, null],
      ],
    );
    assert.ok(!readFileSync(file, 'utf8').includes('MBR-1'), 'bodies are kept as digests only');
  } finally {
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    rmSync(dir, { recursive: true, force: true });
  }
});
