/**
 * Settings found, not typed: a simulator started as a separate service (the way a team
 * runs it as a CI service) writes the config file that points a run at it
 * (`simulator --write-config`) and prints its secrets as variables to export. From a
 * folder holding only that file, with only the printed variables in the environment, the
 * gate (the api smoke scenarios) gives the embedded run's verdicts test by test: no value
 * typed by hand.
 *
 * The written settings are the whole set a real-target run against a simulator needs
 * (targets/simulator-process.ts realTargetEnv, which the real-target and mutant runs use), and
 * no secret reaches the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatorTargetSettings, startTarget, cleanEnv, RUN_SECRETS, realTargetEnv } from '../targets/index.ts';
import { junitCases, verdictDifferences } from './adoption.ts';
import { ROOT } from '../proof/real-target.ts';

const BIN = join(ROOT, 'cli/bin.mjs');

/** `export NAME=value` lines (values single-quoted when not plain) as an environment. */
function exportedVariables(output: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of output.matchAll(/^export (SVC_[A-Z0-9_]+)=('(?:[^']|'\\'')*'|\S+)$/gm))
    out[m[1]] = m[2].startsWith("'") ? m[2].slice(1, -1).replace(/'\\''/g, "'") : m[2];
  return out;
}

test('the settings a simulator writes are every non-secret one a real-target run against it uses, and its secrets are every one that run needs', async () => {
  const target = await startTarget({ env: cleanEnv(), simulator: true });
  try {
    const { settings, secrets } = simulatorTargetSettings(target);
    const written = Object.fromEntries(settings.map((s) => [s.variable, s.value]));
    const reference = realTargetEnv(target.url);
    const expected = Object.entries(reference).filter(([k]) => /^SVC_/.test(k) && !(k in RUN_SECRETS));
    assert.deepEqual(
      expected.filter(([k, v]) => written[k] !== v).map(([k, v]) => `${k}: realTargetEnv ${v}, written ${written[k]}`),
      [],
    );
    const secretNames = secrets.map((s) => s.variable);
    assert.deepEqual(
      Object.keys(RUN_SECRETS).filter((k) => !secretNames.includes(k)),
      [],
      'every secret of a real-target run is printed',
    );
    assert.ok(secretNames.includes('SVC_SECOND_CLIENT_ID') && secretNames.includes('SVC_SECOND_API_KEY'), "the built-in second client's too");
    for (const s of settings) assert.ok(s.source.length > 0, `${s.variable} names its source`);
  } finally {
    await target.close();
  }
});

test('a simulator started with --write-config: from a folder holding only that file and the printed secrets, the gate gives the embedded verdicts', {
  timeout: 900_000,
}, async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-simconfig-'));
  const team = join(work, 'team');
  const file = join(team, 'svc-conformance.config.ts');
  const env = cleanEnv();
  mkdirSync(team);
  const sim = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--write-config', file], {
    cwd: work,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  sim.stdout!.on('data', (d) => (printed += d));
  sim.stderr!.on('data', (d) => (printed += d));
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the simulator printed no secrets within 60 s:\n${printed}`)), 60_000);
      sim.stdout!.on('data', () => {
        if (/^export SVC_TEST_PASSWORD_UNAVAILABLE=/m.test(printed)) {
          clearTimeout(timer);
          done();
        }
      });
      sim.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`the simulator exited (${code}):\n${printed}`));
      });
    });
    const secrets = exportedVariables(printed);
    assert.deepEqual(readdirSync(team), ['svc-conformance.config.ts'], 'the folder holds only the written file');
    const config = readFileSync(file, 'utf8');
    for (const [name, value] of Object.entries(secrets)) assert.ok(!config.includes(value), `${name}'s value is not in the file`);
    assert.match(config, /^import \{ defineConfig \} from 'svc-conformance';$/m);

    // The gate from that folder: the file, and the printed variables as the only environment added.
    const selection = ['run', '--project', 'api', '--grep', '@smoke'];
    const r = spawnSync(process.execPath, [BIN, ...selection], { cwd: team, env: { ...env, ...secrets }, encoding: 'utf8', timeout: 600_000 });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /target http:\/\/127\.0\.0\.1:\d+ \(integration\), config .*svc-conformance\.config\.ts/);
    const installed = junitCases(join(team, 'svc-reports/junit.xml'));

    const embeddedOut = join(work, 'embedded');
    const e = spawnSync(process.execPath, [BIN, '--no-config', ...selection], {
      cwd: ROOT,
      env: { ...env, SVC_REPORTS_OUT: embeddedOut },
      encoding: 'utf8',
      timeout: 600_000,
    });
    assert.equal(e.status, 0, `${e.stdout}${e.stderr}`);
    const embedded = junitCases(join(embeddedOut, 'junit.xml'));
    assert.equal(installed.length, embedded.length, 'the same scenarios ran');
    assert.deepEqual(verdictDifferences(installed, embedded), [], 'the verdicts of the embedded run');
    assert.ok(installed.filter((c) => c.outcome === 'passed').length >= 10, JSON.stringify(installed));
  } finally {
    try {
      process.kill(-sim.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
    rmSync(work, { recursive: true, force: true });
  }
});
