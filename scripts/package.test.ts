/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty project
 * outside the checkout, then, from that project only, `svc-conformance config init`,
 * `config check`, and the gate (the api smoke scenarios) against the embedded simulator
 * and against a simulator started separately by the installed command, configured by the
 * config file plus secrets in the environment. Every run's verdict is read from the
 * JUnit file the gate writes in the user's folder (never inside node_modules).
 *
 * npm installs from its cache first (--prefer-offline): the checkout's own `npm ci` filled
 * it, so the test needs no network beyond what the bootstrap already used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_SECRETS, cleanEnv } from './real-target.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '', all: `${r.stdout}\n${r.stderr}` };
}

/** tests, failures, skipped of a JUnit file. */
function junitTotals(file: string) {
  const xml = readFileSync(file, 'utf8');
  const m = xml.match(/<testsuites[^>]*\btests="(\d+)"[^>]*\bfailures="(\d+)"[^>]*\bskipped="(\d+)"/);
  assert.ok(m, `no totals in ${file}`);
  return { tests: Number(m[1]), failures: Number(m[2]), skipped: Number(m[3]) };
}

test('the packed tarball installs into an empty project and runs the gate there, against the embedded and a separately started simulator', { timeout: 600_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-package-'));
  const env = { ...cleanEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  let simulator: ReturnType<typeof spawn> | undefined;
  try {
    const packed = sh('npm', ['pack', '--pack-destination', work, '--silent'], ROOT, env, 120_000);
    assert.equal(packed.code, 0, packed.all);
    const tarball = join(work, packed.out.trim().split('\n').at(-1)!);
    assert.ok(existsSync(tarball), tarball);
    const listing = sh('tar', ['tzf', tarball], work, env, 30_000).out;
    assert.ok(!/\.test\.ts$/m.test(listing), 'no unit test is shipped');
    for (const f of ['package/cli/bin.mjs', 'package/playwright.config.ts', 'package/spec/platform.openapi.yaml', 'package/docs/settings.md', 'package/scenarios/api/members.spec.ts']) assert.ok(listing.includes(f), `${f} in the tarball`);

    const project = join(work, 'team-project');
    spawnSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-integration', private: true }));
    const installed = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project, env, 420_000);
    assert.equal(installed.code, 0, installed.all);
    const bin = join(project, 'node_modules/.bin/svc-conformance');
    assert.ok(existsSync(bin), 'the bin is linked');

    const help = sh(bin, ['--help'], project, env, 60_000);
    assert.equal(help.code, 0, help.all);
    assert.match(help.out, /Usage: svc-conformance/);

    // 1. Embedded simulator, no config at all.
    const embedded = sh(bin, ['run', '--project', 'api', '--grep', '@smoke', '--reporter', 'dot,junit'], project, { ...env, PLAYWRIGHT_JUNIT_OUTPUT_NAME: join(project, 'embedded.xml') }, 240_000);
    assert.equal(embedded.code, 0, embedded.all);
    const e = junitTotals(join(project, 'embedded.xml'));
    assert.ok(e.tests >= 10 && e.failures === 0, JSON.stringify(e));

    // 2. A simulator started separately by the installed command, with non-default secrets.
    simulator = spawn(bin, ['simulator', '--port', '0', '--quiet'], { cwd: project, env: { ...env, ...RUN_SECRETS }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const base = await new Promise<string>((resolveUrl, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`simulator printed no URL: ${seen}`)), 60_000);
      simulator!.stdout!.on('data', (d) => {
        seen += d;
        const m = seen.match(/http:\/\/127\.0\.0\.1:\d+/);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[0]);
        }
      });
    });
    const init = sh(bin, ['config', 'init'], project, env, 60_000);
    assert.equal(init.code, 0, init.all);
    const configFile = join(project, 'svc-conformance.config.ts');
    writeFileSync(configFile, readFileSync(configFile, 'utf8').replace("'https://int-api.example.com'", JSON.stringify(base)).replace("supported: ['v20250224', 'v20260929']", "supported: ['v20111101', 'v20250224', 'v20260929']"));
    const check = sh(bin, ['config', 'check'], project, { ...env, ...RUN_SECRETS }, 60_000);
    assert.equal(check.code, 0, check.all);
    assert.match(check.out, new RegExp(`target\\.baseUrl\\s+${base.replace(/[.:/]/g, '\\$&')}\\s+\\[config file: SVC_BASE_URL\\]`));
    assert.ok(!check.all.includes(RUN_SECRETS.SVC_API_KEY), 'config check never prints a secret');

    const real = sh(bin, ['run', '--project', 'api', '--grep', '@smoke'], project, { ...env, ...RUN_SECRETS }, 240_000);
    assert.equal(real.code, 0, real.all);
    assert.match(real.out, new RegExp(`target ${base.replace(/[.:/]/g, '\\$&')} \\(integration\\)`));
    const reports = join(project, 'svc-reports');
    const r = junitTotals(join(reports, 'junit.xml'));
    assert.ok(r.tests >= 10 && r.failures === 0, JSON.stringify(r));
    assert.ok(existsSync(join(reports, 'html', 'index.html')), 'the HTML report is in the user folder');
    assert.deepEqual(readdirSync(join(project, 'node_modules/svc-conformance')).filter((f) => f === 'reports' || f === 'svc-reports'), ['reports'], 'nothing is written inside the installed package but its own sources');
    assert.ok(!existsSync(join(project, 'node_modules/svc-conformance/reports/out')), 'no report inside node_modules');
  } finally {
    if (simulator?.pid) {
      try {
        process.kill(-simulator.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    rmSync(work, { recursive: true, force: true });
  }
});
