/**
 * `svc-conformance reference` and the `reference` setting: the command's exit codes (0
 * when it ran, 2 on a missing file, a file that is not OpenAPI, a bad --version-of),
 * --help, its reports, and the setting carried from a config file into the profile and
 * from the profile into every run's check options (derived once per process). On the
 * project's own stand-in documents (contracts/test/fixtures/reference/), in this process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { checkOptionsOf, loadProfile } from '../targets/index.ts';
import { configEnv, configFromEnv, configProblems } from './config/load.ts';
import { buildProgram } from './main.ts';

const FIXTURES = fileURLToPath(new URL('../contracts/test/fixtures/reference/', import.meta.url));
const V2025 = join(FIXTURES, 'platform.v20250224.yaml');
const V2011 = join(FIXTURES, 'platform.v20111101.json');

/** The command in this process, its exit code, commander's output and what it logged. */
async function inProcess(args: string[]): Promise<{ code: number | undefined; out: string; err: string; log: string }> {
  let code: number | undefined;
  let out = '';
  let err = '';
  let log = '';
  const program = buildProgram((c) => (code ??= c), { out: (t) => (out += t), err: (t) => (err += t) });
  const original = console.log;
  console.log = (...a: unknown[]) => {
    log += `${a.join(' ')}\n`;
  };
  try {
    await program.parseAsync(['node', 'svc-conformance', ...args, '--no-config']);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
  } finally {
    console.log = original;
  }
  return { code, out, err, log };
}

test('reference --help says what it does and its exit codes', async () => {
  const r = await inProcess(['reference', '--help']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Usage: svc-conformance reference \[options\] <file\.\.\.>/);
  assert.match(r.out, /--version-of <file=version>/);
  assert.match(r.out, /--json <file>/);
  assert.match(r.out, /--markdown <file>/);
  assert.match(r.out, /Exit codes: 0 it ran/);
});

test('reference: exit 0 when it ran, a short table on the console, the full list in --json and --markdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ref-'));
  try {
    const r = await inProcess(['reference', V2025, V2011, '--json', join(dir, 'out/r.json'), '--markdown', join(dir, 'r.md')]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.log, /2 documents, 6 examples/);
    assert.match(r.log, /status_refused\s+0\s+1\s+1/);
    assert.match(r.log, /with the reference in force .*: 1 in 1\./);
    assert.match(r.log, /Left stated, not disagreements .*GET \/users\/\{user_guid\}\/members\/\{member_guid\} response\.body\.member/);
    assert.doesNotMatch(r.log, /still stated/);
    const json = JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8'));
    assert.equal(json.totals.examples, 6);
    assert.deepEqual(
      ['example_failure', 'required_missing', 'status_refused', 'type_differs'].map((k) => json.counts[k] > 0),
      [true, true, true, true],
    );
    const md = readFileSync(join(dir, 'r.md'), 'utf8');
    assert.match(md, /## status_refused \(1\)/);
    assert.match(md, /platform\.v20250224\.yaml#\/paths\/~1ach_returns\/post\/responses\/201/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reference: bad input is exit 2 with a message naming it, never a stack trace', async () => {
  for (const [args, message] of [
    [['reference', join(FIXTURES, 'missing.yaml')], /missing\.yaml: no such file/],
    [['reference', join(FIXTURES, 'not-openapi.yaml')], /not-openapi\.yaml: not an OpenAPI document/],
    [['reference'], /missing required argument 'file'/],
    [['reference', V2025, '--version-of', 'v20250224'], /--version-of takes <file>=v<YYYYMMDD>/],
    [['reference', V2025, '--version-of', `${V2011}=v20111101`], /is not one of the documents given/],
    [['reference', V2011, '--version-of', `${V2011}=v19990101`], /describes v19990101, a version the contract has no document for/],
  ] as const) {
    const r = await inProcess([...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
});

test('the reference setting: paths relative to the config file, SVC_REFERENCE comma-separated, into the profile and every check option', () => {
  assert.deepEqual(configProblems({ reference: ['vendor/v20250224.yml'] }), []);
  assert.match(configProblems({ reference: 'vendor.yml' })[0], /"reference" must be a list of paths \(each relative to the config file's folder\)/);
  const env = configEnv({ reference: ['platform.v20250224.yaml', 'platform.v20111101.json'] }, FIXTURES);
  assert.deepEqual(env, { SVC_REFERENCE: `${V2025},${V2011}` });
  assert.deepEqual(configFromEnv({ SVC_REFERENCE: 'a.yml, b.yml' }), { reference: ['a.yml', 'b.yml'] });

  const profile = loadProfile({ SVC_REFERENCE: V2025 });
  assert.deepEqual(profile.reference, [V2025]);
  assert.deepEqual(loadProfile({}).reference, []);
  assert.equal(checkOptionsOf(loadProfile({})).referenceContradictions, undefined);
  const options = checkOptionsOf(profile);
  assert.ok(options.referenceContradictions && options.referenceContradictions.size > 0);
  // Every exchange asks for the options again: the derivation is not repeated.
  assert.equal(checkOptionsOf(profile).referenceContradictions, options.referenceContradictions);
  assert.equal(checkOptionsOf(loadProfile({ SVC_REFERENCE: V2025 })).referenceContradictions, options.referenceContradictions);
  assert.throws(() => loadProfile({ SVC_REFERENCE: join(FIXTURES, 'missing.yaml') }), /SVC_REFERENCE names .*missing\.yaml, which does not exist/);
});

test('a run refuses a reference setting that names no OpenAPI document before anything starts, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ref-'));
  try {
    const config = join(dir, 'svc-conformance.config.json');
    writeFileSync(config, JSON.stringify({ reference: [join(FIXTURES, 'not-openapi.yaml')] }));
    let code: number | undefined;
    let err = '';
    const program = buildProgram((c) => (code ??= c), { out: () => {}, err: (t) => (err += t) });
    await program.parseAsync(['node', 'svc-conformance', '--config', config, 'run', '--list']).catch((e) => {
      if (!(e instanceof CommanderError)) throw e;
    });
    assert.equal(code, 2, err);
    assert.match(err, /reference \(SVC_REFERENCE\): .*not-openapi\.yaml: not an OpenAPI document/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
