/**
 * The package as a user gets it (tests/adoption.ts): `npm pack`, the tarball installed
 * into an empty project outside the checkout, then from that project only: `--help`, the
 * gate against its embedded simulator, `config init --from-env`, `config check`, `preflight` and the gate (the api smoke
 * scenarios) against a simulator the installed command started separately, configured as
 * a team configures its vendor's environment (a config file, secrets in the
 * environment); its verdicts test by test against the same scenarios run from this
 * checkout. Reports land in the user's folder, never inside node_modules.
 *
 * npm installs from its cache first (--prefer-offline): the checkout's own `npm ci` filled
 * it, and nothing is compiled (libsql ships prebuilt binaries).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adoptFromTarball, verdictDifferences } from './adoption.ts';
import { RUN_SECRETS } from '../targets/index.ts';

test("the packed tarball installs into an empty project and its gate gives the checkout's verdicts against a separately started simulator", {
  timeout: 900_000,
}, async () => {
  const r = await adoptFromTarball({ projects: ['api'], grep: '@smoke', compare: true, keep: true });
  try {
    const step = (name: string) => {
      const s = r.steps.find((x) => x.name === name);
      assert.ok(s, `step ${name}`);
      return s!;
    };
    for (const name of [
      'npm pack',
      'npm install <tarball>',
      '--help',
      'run --list',
      'run --list from the checkout',
      'run against the embedded simulator',
      'config init --from-env',
      'config check',
      'preflight',
      'run (the gate)',
    ])
      assert.equal(step(name).code, 0, `${name}:\n${step(name).output}`);
    // The config file holds the non-secret settings, and no secret reached it or the check's output.
    const config = readFileSync(join(r.project, 'svc-conformance.config.json'), 'utf8');
    assert.match(config, /"baseUrl": "http:\/\/127\.0\.0\.1:\d+"/);
    // Client identifiers are not secrets (RFC 6749 §2.2: "The client identifier is not a secret"): the file may hold them.
    for (const [name, secret] of Object.entries(RUN_SECRETS)) {
      if (name.endsWith('_CLIENT_ID')) continue;
      assert.ok(!config.includes(secret), 'no secret in the config file');
      assert.ok(!step('config check').output.includes(secret), 'config check prints no secret');
    }
    assert.match(step('config check').output, /credentials\.apiKey\s+set \(not shown\)\s+\[environment: SVC_API_KEY\]/);
    assert.match(step('preflight').output, /platform credentials\s+ok/);
    assert.match(step('run (the gate)').output, /target http:\/\/127\.0\.0\.1:\d+ \(integration\)/);

    assert.match(step('--help').output, /^Usage: svc-conformance/);
    // Each scenario at its line in the source, as the checkout lists it: Playwright compiles
    // nothing inside node_modules, and the installed run's loader keeps every line
    // (targets/line-preserving-hooks.mjs; before it, every location was line 1).
    const located = (output: string) => [...output.matchAll(/(scenarios\/\S+\.spec\.ts):(\d+):\d+ › (.*)$/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]}`).sort();
    const listed = located(step('run --list').output);
    assert.ok(listed.length >= 10 && listed.every((l) => !/\.spec\.ts:1 /.test(l)), step('run --list').output);
    assert.deepEqual(
      listed,
      located(step('run --list from the checkout').output),
      'the installed package names each scenario at its line, as the checkout does',
    );
    assert.deepEqual(verdictDifferences(r.embedded, r.checkout!), [], "the installed gate on its embedded simulator gives the checkout's verdicts");
    const passed = r.installed.filter((c) => c.outcome === 'passed').length;
    assert.ok(passed >= 10 && r.installed.every((c) => c.outcome !== 'failed'), JSON.stringify(r.installed));
    assert.deepEqual(verdictDifferences(r.installed, r.checkout!), [], "the installed gate gives the checkout's verdicts");
    assert.equal(r.installed.length, r.checkout!.length, 'the same scenarios ran');

    const reports = join(r.project, 'svc-reports');
    for (const f of ['junit.xml', 'summary.md', 'html/index.html']) assert.ok(existsSync(join(reports, f)), `${f} in the user's reports folder`);
    assert.ok(!existsSync(join(r.project, 'node_modules/svc-conformance/reports/out')), 'no report inside node_modules');
    assert.ok(!readdirSync(join(r.project, 'node_modules/svc-conformance')).includes('svc-reports'));
  } finally {
    const { rmSync } = await import('node:fs');
    rmSync(join(r.project, '..'), { recursive: true, force: true });
  }
});
