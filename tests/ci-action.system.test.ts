/**
 * The CI action (action.yml) and the workflows, as far as they can be proven off GitHub:
 *
 *   - every workflow and the action validate against GitHub's published schemas
 *     (@action-validator/cli, the SchemaStore schemas);
 *   - the composite action's shell steps run here in order, the way a runner runs them:
 *     inputs mapped into each step's `env`, `if` conditions evaluated (a failed step
 *     skips the later steps unless they say `!cancelled()`), GITHUB_OUTPUT / GITHUB_ENV /
 *     GITHUB_STEP_SUMMARY files between steps, `uses:` steps recorded but not run (their
 *     `with:` is still resolved: the report artifact's path must exist).
 *
 * From an empty repository (the example's config file and a package.json, nothing
 * installed): a target that is down stops the job at the preflight (verdict 2, the cause
 * in the job summary, the preflight's report uploaded), a reachable one is gated green.
 * A red gate (a catalogue fault in force) and a bad config file each end with the verdict
 * a team would read in its job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { cleanEnv, RUN_SECRETS, simulatorProcessEnv, startSimulatorProcess } from '../targets/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

test("the action and every workflow validate against GitHub's schemas", () => {
  const files = ['action.yml', '.github/workflows/ci.yml', '.github/workflows/svc-conformance.yml', 'examples/github-workflow.yml'];
  for (const f of files) {
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@action-validator/cli/cli.mjs'), join(ROOT, f)], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${f}: ${r.stdout}${r.stderr}`);
  }
  // The validator is not vacuous: a step without `shell` in a composite action is refused.
  const dir = mkdtempSync(join(tmpdir(), 'svc-action-'));
  try {
    writeFileSync(join(dir, 'action.yml'), 'name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo hi\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@action-validator/cli/cli.mjs'), join(dir, 'action.yml')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(r.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `${{ expr }}` of the action, evaluated with the inputs and the steps' outputs so far. */
function evaluate(expr: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>): unknown {
  const js = expr
    .replace(/\$\{\{|\}\}/g, '')
    .replace(/\b(cancelled|failure)\(\)/g, 'false')
    .replace(/\b(always|success)\(\)/g, 'true')
    .replace(/\binputs\.([\w-]+)/g, (_m, k: string) => JSON.stringify(inputs[k] ?? ''))
    .replace(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g, (_m, id: string, k: string) => JSON.stringify(outputs[id]?.[k] ?? ''));
  // The action's expressions use only literals, ==, !=, &&, || and !: JavaScript's own.
  return new Function(`return (${js});`)();
}

const substitute = (text: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>) =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_m, e: string) => String(evaluate(e, inputs, outputs)));

function readKeyValues(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

interface StepResult {
  name: string;
  ran: boolean;
  code?: number;
  output?: string;
  uses?: string;
  with?: Record<string, string>;
}

/** Runs the composite action's steps here, as a runner would (see the header). */
function runAction(workspace: string, given: Record<string, string>, env: NodeJS.ProcessEnv) {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
  assert.equal(action.runs.using, 'composite');
  const inputs = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])), ...given };
  const files = { output: join(workspace, '.gh-output'), env: join(workspace, '.gh-env'), summary: join(workspace, '.gh-summary') };
  writeFileSync(files.summary, '');
  const outputs: Record<string, Record<string, string>> = {};
  const results: StepResult[] = [];
  let failed = false;
  for (const step of action.runs.steps) {
    const name = substitute(step.name ?? step.uses ?? step.run!.split('\n')[0], inputs, outputs);
    const condition = step.if ?? 'success()';
    // After a failure only `!cancelled()` / `always()` steps run (GitHub's status functions).
    const mayRun = !failed || /always\(\)|!cancelled\(\)/.test(condition);
    if (!mayRun || !evaluate(condition, inputs, outputs)) {
      results.push({ name, ran: false });
      continue;
    }
    if (step.uses) {
      results.push({
        name,
        ran: true,
        uses: step.uses,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), inputs, outputs)])),
      });
      continue;
    }
    writeFileSync(files.output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), inputs, outputs)]));
    const cwd = resolve(workspace, substitute(step['working-directory'] ?? '.', inputs, outputs));
    const r = spawnSync('bash', ['-e', '-c', step.run!], {
      cwd,
      // The action's checkout is this one: npm may look, never change it (a worktree whose
      // node_modules links to another checkout would have that one emptied by `npm ci`).
      env: {
        ...env,
        ...readKeyValues(files.env),
        ...stepEnv,
        npm_config_dry_run: 'true',
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: files.output,
        GITHUB_ENV: files.env,
        GITHUB_STEP_SUMMARY: files.summary,
      },
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (step.id) outputs[step.id] = readKeyValues(files.output);
    results.push({ name, ran: true, code: r.status ?? 1, output: `${r.stdout}${r.stderr}` });
    if (r.status !== 0) failed = true;
  }
  return { results, outputs, summary: readFileSync(files.summary, 'utf8'), failed };
}

function step(results: StepResult[], name: RegExp): StepResult {
  const s = results.find((r) => name.test(r.name));
  assert.ok(s, `a step named ${name}: ${results.map((r) => r.name).join(', ')}`);
  return s!;
}

/**
 * A team's repository as the example workflow checks it out: the example's config file
 * (`import { defineConfig } from 'svc-conformance'`) and a package.json that lists the
 * suite, with nothing installed (the workflow runs no `npm install`).
 */
function teamRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-team-'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'team-integration', private: true, devDependencies: { 'svc-conformance': '^0.1.0' } }, null, 2)}\n`,
  );
  copyFileSync(join(ROOT, 'examples/svc-conformance.config.ts'), join(dir, 'svc-conformance.config.ts'));
  return dir;
}

test('from an empty repository: the example config file loads inside the action, a stopped preflight ends with 2 and its cause, a reachable target is gated', {
  timeout: 600_000,
}, async () => {
  // The workflow's env: the secrets; the target's address overrides the file's (the vendor's
  // environment is played by a separately started simulator, or is down).
  const env = { ...cleanEnv(), CI: 'true', ...RUN_SECRETS };
  const inputs = { config: 'svc-conformance.config.ts', projects: 'api', grep: '@smoke', browser: 'false' };
  const sim = await startSimulatorProcess(simulatorProcessEnv());
  const down = teamRepository();
  const up = teamRepository();
  try {
    const d = runAction(down, inputs, { ...env, SVC_BASE_URL: 'http://127.0.0.1:9' });
    const pre = step(d.results, /^Preflight$/);
    assert.equal(pre.code, 0, pre.output);
    assert.equal(d.outputs.preflight?.['exit-code'], '1', pre.output);
    assert.doesNotMatch(pre.output!, /Cannot find (module|package)/, 'the config file loads without svc-conformance installed in the workspace');
    assert.equal(step(d.results, /Conformance gate/).ran, false, 'nothing runs after a stopped preflight');
    const upload = step(d.results, /Upload the reports/);
    assert.equal(upload.with?.path, join(down, 'svc-reports'), 'the upload gets the reports folder the preflight wrote');
    assert.ok(existsSync(join(down, 'svc-reports/preflight.md')));
    const verdict = step(d.results, /^Verdict$/);
    assert.equal(verdict.code, 2, verdict.output);
    assert.match(verdict.output!, /the preflight stopped the job \(exit 1\), nothing was tested: .*127\.0\.0\.1:9.*unreachable/);
    assert.match(d.summary, /# svc-conformance: NOT RUN/);
    assert.match(d.summary, /unreachable/);

    const u = runAction(up, inputs, { ...env, SVC_BASE_URL: sim.base, SVC_POLL_INTERVAL_MS: '25' });
    for (const s of u.results) assert.ok(!s.ran || s.uses || s.code === 0, `${s.name} failed: ${s.output}`);
    assert.equal(u.outputs.preflight?.['exit-code'], '0', step(u.results, /^Preflight$/).output);
    const gate = step(u.results, /Conformance gate/);
    assert.equal(u.outputs.gate?.['exit-code'], '0', gate.output);
    assert.match(gate.output!, new RegExp(`target ${sim.base} \\(integration\\), config ${join(up, 'svc-conformance.config.ts')}`));
    assert.ok(existsSync(join(up, 'svc-reports/junit.xml')), 'the JUnit report is in the workspace');
    assert.equal(step(u.results, /Upload the reports/).with?.path, join(up, 'svc-reports'));
    assert.equal(step(u.results, /Upload the reports/).with?.name, 'svc-conformance-report');
    assert.equal(step(u.results, /^Verdict$/).code, 0);
    assert.match(u.summary, /svc-conformance preflight/);
    assert.match(u.summary, /# svc-conformance: PASS/);
    assert.ok(!existsSync(join(up, 'node_modules')), 'nothing was installed into the workspace');
  } finally {
    await sim.stop();
    for (const dir of [down, up]) rmSync(dir, { recursive: true, force: true });
  }
});

test('the composite action: a red gate and a bad config file end with the verdict a team reads', { timeout: 600_000 }, () => {
  const env = { ...cleanEnv(), CI: 'true' };
  const inputs = { projects: 'api', grep: '@paging', browser: 'false' };

  const red = mkdtempSync(join(tmpdir(), 'svc-action-'));
  const bad = mkdtempSync(join(tmpdir(), 'svc-action-'));
  try {
    const r = runAction(red, inputs, { ...env, SVC_SIM_FAULTS: 'page-of-1001-records' });
    assert.equal(r.outputs.gate?.['exit-code'], '1', step(r.results, /Conformance gate/).output);
    assert.equal(step(r.results, /^Verdict$/).code, 1);
    assert.match(step(r.results, /^Verdict$/).output!, /the gate found failures/);
    assert.match(r.summary, /# svc-conformance: FAIL/);
    assert.match(r.summary, /## Failed \(\d+\)/);
    assert.ok(step(r.results, /Upload the reports/).ran, 'the reports are uploaded when the gate is red');

    writeFileSync(join(bad, 'svc-conformance.config.json'), JSON.stringify({ timeouts: { requestMS: 1000 } }));
    const b = runAction(bad, inputs, env);
    const pre = step(b.results, /^Preflight$/);
    assert.equal(b.outputs.preflight?.['exit-code'], '2', pre.output);
    assert.match(pre.output!, /unknown key "timeouts\.requestMS"\. Did you mean "timeouts\.requestMs"\?/);
    assert.equal(step(b.results, /Conformance gate/).ran, false, 'nothing runs after a refused configuration');
    assert.equal(step(b.results, /Upload the reports/).with?.path, join(bad, 'svc-reports'));
    const verdict = step(b.results, /^Verdict$/);
    assert.equal(verdict.code, 2, verdict.output);
    assert.match(verdict.output!, /the preflight stopped the job \(exit 2\), nothing was tested: .*unknown key "timeouts\.requestMS"/);
    assert.match(b.summary, /# svc-conformance: NOT RUN/);
    assert.match(b.summary, /Did you mean "timeouts\.requestMs"/);
    assert.match(readFileSync(join(bad, 'svc-reports/preflight.md'), 'utf8'), /unknown key "timeouts\.requestMS"/, 'the artifact carries the cause');

    // Without the preflight, the gate's own refusal is the verdict and the summary's cause.
    const g = runAction(bad, { ...inputs, preflight: 'false' }, env);
    assert.equal(g.outputs.gate?.['exit-code'], '2', step(g.results, /Conformance gate/).output);
    assert.equal(step(g.results, /^Verdict$/).code, 2);
    assert.match(step(g.results, /^Verdict$/).output!, /bad usage or configuration; nothing ran: .*unknown key "timeouts\.requestMS"/);
    assert.match(g.summary, /# svc-conformance: NOT RUN[\s\S]*Did you mean "timeouts\.requestMs"/);
  } finally {
    for (const d of [red, bad]) rmSync(d, { recursive: true, force: true });
  }
});

test('the history: restored before the gate and saved after it under a new key, the nightly by default, a shard apart, none when asked', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
  const names = action.runs.steps.map((s) => s.name ?? s.uses ?? '');
  const at = (re: RegExp) => names.findIndex((n) => re.test(n));
  assert.ok(at(/^Restore the history$/) < at(/Nightly|Conformance gate/) && at(/Nightly|Conformance gate/) < at(/^Save the history$/), names.join(', '));
  assert.equal(action.runs.steps[at(/^Restore the history$/)].uses, 'actions/cache/restore@v4');
  assert.equal(action.runs.steps[at(/^Save the history$/)].uses, 'actions/cache/save@v4');
  const work = mkdtempSync(join(tmpdir(), 'svc-history-step-'));
  try {
    const outputs = (env: Record<string, string>) => {
      const out = join(work, '.gh-output');
      writeFileSync(out, '');
      const r = spawnSync('bash', [join(ROOT, 'scripts/ci/history.sh')], {
        cwd: work,
        env: { ...cleanEnv(), GITHUB_OUTPUT: out, GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '1', ...env },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return readKeyValues(out);
    };
    const nightly = outputs({ INPUT_HISTORY: 'auto', INPUT_COMMAND: 'nightly' });
    assert.equal(nightly.path, join(work, 'svc-history'));
    assert.equal(nightly['restore-key'], 'svc-conformance-history-nightly-all-');
    assert.equal(nightly.key, 'svc-conformance-history-nightly-all-42-1');
    assert.equal(outputs({ INPUT_HISTORY: 'auto', INPUT_COMMAND: 'run' }).path, '');
    assert.equal(outputs({ INPUT_HISTORY: 'none', INPUT_COMMAND: 'nightly' }).path, '');
    const shard = outputs({ INPUT_HISTORY: 'h', INPUT_COMMAND: 'run', INPUT_SHARD: '2/3' });
    assert.equal(shard.path, join(work, 'h'));
    assert.equal(shard['restore-key'], 'svc-conformance-history-run-2-of-3-');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
