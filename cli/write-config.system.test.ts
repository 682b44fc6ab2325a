/**
 * Settings written, not typed, as a user meets them:
 *   - `config init` writes every version of the contract (one left out skips the scenarios
 *     judged on it);
 *   - a config file written with the package name (`import { defineConfig } from
 *     'svc-conformance'`) loads in a folder that has nothing installed, CommonJS or ES
 *     module project alike; an installed copy of the package, when there is one, wins;
 *   - `preflight --write-config` against a real target (the simulator, treated as one):
 *     the file holds what the target revealed, each value under a comment naming its source,
 *     no secret, and loads;
 *   - `--write-config` refuses what it cannot do, with a usage line and 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CommanderError } from 'commander';
import { CONTRACT_VERSIONS, DATA_EXCHANGE_SEED, loadProfile, startTarget, type StartedTarget } from '../targets/index.ts';
import { areaPlan } from '../preflight/requirements.ts';
import { configEnv, loadConfigFile } from './config/load.ts';
import { configTemplate } from './config/init.ts';
import { buildProgram } from './main.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'cli/bin.mjs');
const CREDENTIALS = { SVC_CLIENT_ID: 'sim-client-id', SVC_API_KEY: 'sim-api-key-0000' };

/** The process environment without the caller's SVC_* settings. */
const clean = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^SVC_|^WEBHOOK_/.test(k)));

async function withSimulator<T>(run: (target: StartedTarget) => Promise<T>): Promise<T> {
  const target = await startTarget({ env: {}, simulator: true });
  try {
    return await run(target);
  } finally {
    await target.close();
  }
}

test('config init writes every version of the contract', async () => {
  for (const format of ['ts', 'json'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-init-'));
    try {
      const file = join(dir, `svc-conformance.config.${format}`);
      writeFileSync(file, configTemplate(format));
      assert.deepEqual((await loadConfigFile(file)).versions?.supported, [...CONTRACT_VERSIONS], format);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  assert.deepEqual(CONTRACT_VERSIONS, ['v20111101', 'v20250224', 'v20260929']);
});

test('a config file naming the package loads where nothing is installed, CommonJS or ES module project; an installed copy wins', async () => {
  for (const type of [undefined, 'module']) {
    const bare = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
    const withCopy = mkdtempSync(join(tmpdir(), 'svc-cfg-'));
    try {
      for (const dir of [bare, withCopy]) {
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'team', private: true, ...(type ? { type } : {}) }));
        writeFileSync(join(dir, 'svc-conformance.config.ts'), configTemplate('ts'));
        writeFileSync(join(dir, 'svc-conformance.config.mts'), configTemplate('ts'));
      }
      for (const name of ['svc-conformance.config.ts', 'svc-conformance.config.mts'])
        assert.equal((await loadConfigFile(join(bare, name))).target?.baseUrl, 'https://int-api.example.com', `${name}, type ${type ?? 'commonjs'}`);
      // A copy installed in the project is the one the file gets (Node's own resolution first).
      const installed = join(withCopy, 'node_modules/svc-conformance');
      mkdirSync(installed, { recursive: true });
      writeFileSync(
        join(installed, 'package.json'),
        JSON.stringify({ name: 'svc-conformance', version: '0.0.1', exports: { '.': { require: './index.cjs', default: './index.mjs' } } }),
      );
      writeFileSync(join(installed, 'index.cjs'), 'exports.defineConfig = (c) => ({ ...c, strict: true });\n');
      writeFileSync(join(installed, 'index.mjs'), 'export const defineConfig = (c) => ({ ...c, strict: true });\n');
      for (const name of ['svc-conformance.config.ts', 'svc-conformance.config.mts'])
        assert.equal((await loadConfigFile(join(withCopy, name))).strict, true, `the installed copy: ${name}, type ${type ?? 'commonjs'}`);
    } finally {
      for (const dir of [bare, withCopy]) rmSync(dir, { recursive: true, force: true });
    }
  }
});

/** The command in this process (buildProgram with its exit and output captured). */
async function inProcess(args: string[]): Promise<{ code: number | undefined; err: string }> {
  let code: number | undefined;
  let err = '';
  const program = buildProgram((c) => (code ??= c), { out: () => {}, err: (t) => (err += t) });
  try {
    await program.parseAsync(['node', 'svc-conformance', ...args]);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
  }
  return { code, err };
}

test('--write-config refuses what it cannot do: a usage line and 2, never a stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-write-'));
  try {
    const existing = join(dir, 'svc-conformance.config.ts');
    writeFileSync(existing, '');
    for (const [args, message] of [
      [['simulator', '--write-config', join(dir, 'x.yaml')], /--write-config takes a \.ts, \.mts, \.mjs, \.js or \.json file name, got ".*x\.yaml"/],
      [['simulator', '--write-config', existing], /exists; --force overwrites it/],
      [['preflight', '--write-config', join(dir, 'y.ts')], /--write-config writes what a real target reveals: set target\.baseUrl \(SVC_BASE_URL\)/],
    ] as const) {
      const r = await inProcess(['--no-config', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message);
      assert.match(r.err, /Usage: svc-conformance/);
      assert.doesNotMatch(r.err, /\n\s+at /);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('preflight --write-config: the file holds what the target revealed with its sources and no secret, loads, and lets more of the suite run', async () => {
  await withSimulator(async (target) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-discover-'));
    try {
      const env = {
        ...clean(),
        ...CREDENTIALS,
        SVC_TEST_PASSWORD_SUCCESS: 'sim-pass-success',
        SVC_BASE_URL: target.url,
        SVC_3DX_ISSUER_GUID: DATA_EXCHANGE_SEED.issuerClientGuid,
      };
      const file = join(dir, 'svc-conformance.config.ts');
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'preflight', '--write-config', file], {
        cwd: dir,
        env,
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      assert.match(stdout, /wrote .*svc-conformance\.config\.ts: \d+ settings, \d+ of them read from the target/);
      assert.match(
        stdout,
        /Not discovered \(\d+\): where a team finds each\n(.*\n)* {2}SVC_TEST_PASSWORD_CHALLENGE \(a secret: environment only\): .*the vendor gives/,
      );
      const text = readFileSync(file, 'utf8');
      assert.match(text, /^import \{ defineConfig \} from 'svc-conformance';$/m);
      assert.match(text, /\/\/ GET \/institutions\/favorites: the \d+ favourites in the order the target lists them\n\s+favoriteCodes: \[/);
      assert.match(text, /\/\/ your environment \(SVC_BASE_URL\)\n\s+baseUrl: /);
      assert.match(text, /^\/\/ SVC_PATH_GOALS \(productPaths\.goals\): /m);
      // The client id is an identifier, not a secret (RFC 6749 §2.2; targets/profiles/settings.ts):
      // the API key and the test passwords are.
      for (const secret of [CREDENTIALS.SVC_API_KEY, 'sim-pass-success']) assert.ok(!text.includes(secret), `no secret in the file (${secret.slice(0, 3)}...)`);
      const written = configEnv(await loadConfigFile(file));
      assert.equal(written.SVC_DEPRECATED_VERSION, 'v20111101');
      const runs = (e: Record<string, string | undefined>) => areaPlan(loadProfile(e)).filter((a) => a.verdict === 'runs').length;
      const before = runs({
        SVC_BASE_URL: target.url,
        ...CREDENTIALS,
        SVC_TEST_PASSWORD_SUCCESS: 'x',
        SVC_3DX_ISSUER_GUID: DATA_EXCHANGE_SEED.issuerClientGuid,
      });
      const after = runs({ ...written, ...CREDENTIALS, SVC_TEST_PASSWORD_SUCCESS: 'x' });
      assert.ok(after >= before + 2, `areas that run: ${before} with the settings typed, ${after} with the written file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('simulator --write-config: a JSON file with no secret; a secret the simulator was given stays unprinted, its defaults are printed to export', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-simwrite-'));
  const file = join(dir, 'svc-conformance.config.json');
  const child = spawn(process.execPath, [BIN, '--no-config', 'simulator', '--port', '0', '--quiet', '--write-config', file], {
    cwd: dir,
    env: { ...clean(), SVC_API_KEY: 'given-key-7f3a' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no secrets printed within 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', () => {
        if (/SVC_TEST_PASSWORD_UNAVAILABLE/.test(out)) {
          clearTimeout(timer);
          done();
        }
      });
      child.once('exit', (code) => fail(new Error(`the simulator exited (${code}):\n${out}`)));
    });
    assert.match(out, /^# SVC_API_KEY: the value this simulator was started with \(from your environment; not printed\)$/m);
    assert.match(out, /^export SVC_CLIENT_ID=sim-client-id$/m);
    assert.match(out, /^export SVC_TEST_PASSWORD_SUCCESS=sim-pass-success$/m);
    const text = readFileSync(file, 'utf8');
    for (const secret of ['given-key-7f3a', 'sim-client-id', 'sim-pass-success']) {
      assert.ok(!text.includes(secret), `${secret} is not in the file`);
      if (secret === 'given-key-7f3a') assert.ok(!out.includes(secret), 'a given secret is not printed');
    }
    const written = configEnv(await loadConfigFile(file));
    assert.match(written.SVC_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(written.SVC_VERSIONS, CONTRACT_VERSIONS.join(','));
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
