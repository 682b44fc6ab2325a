/**
 * A team's first hour, measured: the packed tarball installed into an empty project
 * outside this checkout, then, from that project only, `config init --from-env`,
 * `config check`, `preflight` and the gate against a simulator the installed command
 * started as a separate process, configured as a team configures its vendor's integration
 * environment (a config file; secrets in the environment). The gate's verdicts are then
 * compared, test by test, with the same projects run from this checkout against the
 * embedded simulator (`npm run conformance`).
 *
 *   npx tsx tests/adoption.ts [--project api] [--grep @smoke] [--no-compare]
 *
 * tests/package.system.test.ts runs it on the api smoke scenarios; the whole gate is this
 * command with no arguments (the figures of a release note).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RUN_SECRETS, realTargetEnv, cleanEnv } from '../targets/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Step {
  name: string;
  code: number | null;
  seconds: number;
  output: string;
}

export interface JunitCase {
  /** `suite › title` as JUnit names it. */
  name: string;
  outcome: 'passed' | 'failed' | 'skipped';
}

export interface AdoptionResult {
  steps: Step[];
  /** The installed project's folder (removed unless `keep`). */
  project: string;
  tarballBytes: number;
  /** Verdicts of the installed gate against its embedded simulator (no config file). */
  embedded: JunitCase[];
  /** Verdicts of the installed gate against the separately started simulator. */
  installed: JunitCase[];
  /** Verdicts of the same projects run from this checkout (compare: true). */
  checkout?: JunitCase[];
}

export interface AdoptionOptions {
  projects?: string[];
  grep?: string;
  /** Also run the same selection from this checkout and return its verdicts. */
  compare?: boolean;
  /** Keep the temporary project (for a look at its reports). */
  keep?: boolean;
  log?: (line: string) => void;
}

/** Every <testcase> of a JUnit file with its outcome. */
export function junitCases(file: string): JunitCase[] {
  const xml = readFileSync(file, 'utf8');
  const out: JunitCase[] = [];
  for (const m of xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = m[4] ?? '';
    const outcome = /<failure|<error/.test(body) ? 'failed' : /<skipped/.test(body) ? 'skipped' : 'passed';
    out.push({
      name: `${m[2]} › ${m[1]}`
        .replace(/&gt;/g, '>')
        .replace(/&lt;/g, '<')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
      outcome,
    });
  }
  return out;
}

export async function adoptFromTarball(o: AdoptionOptions = {}): Promise<AdoptionResult> {
  const log = o.log ?? (() => {});
  const work = mkdtempSync(join(tmpdir(), 'svc-adoption-'));
  const project = join(work, 'team-integration');
  const env = { ...cleanEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const steps: Step[] = [];
  const sh = (name: string, command: string, args: string[], cwd: string, stepEnv: NodeJS.ProcessEnv, timeoutMs: number): Step => {
    const started = performance.now();
    const r = spawnSync(command, args, { cwd, env: stepEnv, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
    const step = { name, code: r.status, seconds: (performance.now() - started) / 1000, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
    steps.push(step);
    log(`${name}: exit ${step.code} in ${step.seconds.toFixed(1)} s`);
    return step;
  };
  const selection = [...(o.projects ?? []).flatMap((p) => ['--project', p]), ...(o.grep ? ['--grep', o.grep] : [])];
  let simulator: ReturnType<typeof spawn> | undefined;
  try {
    const packed = sh('npm pack', 'npm', ['pack', '--pack-destination', work, '--silent'], ROOT, env, 120_000);
    const tarball = join(work, packed.output.split('\n').filter(Boolean).at(-1)!);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-integration', private: true }));
    sh('npm install <tarball>', 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project, env, 420_000);
    const bin = join(project, 'node_modules/.bin/svc-conformance');
    if (!existsSync(bin)) throw new Error(`the install linked no svc-conformance bin:\n${steps.at(-1)!.output}`);
    sh('--help', bin, ['--help'], project, env, 60_000);
    sh('run --list', bin, ['run', '--list', ...selection], project, env, 120_000);
    // No account yet: the embedded simulator, no config file.
    sh('run against the embedded simulator', bin, ['run', ...selection], project, { ...env, SVC_REPORTS_OUT: join(work, 'embedded-reports') }, 1_800_000);
    const embedded = junitCases(join(work, 'embedded-reports/junit.xml'));

    // The vendor's environment, played by a simulator the installed command starts, with
    // credentials and test passwords that are not the simulator's documented defaults.
    const startedSim = performance.now();
    simulator = spawn(bin, ['simulator', '--port', '0', '--quiet'], {
      cwd: project,
      env: { ...env, ...RUN_SECRETS },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const base = await new Promise<string>((resolveUrl, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`the simulator printed no URL: ${seen}`)), 60_000);
      simulator!.stdout!.on('data', (d) => {
        seen += d;
        const m = seen.match(/http:\/\/127\.0\.0\.1:\d+/);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[0]);
        }
      });
    });
    steps.push({ name: 'simulator started separately', code: 0, seconds: (performance.now() - startedSim) / 1000, output: base });

    // Every non-secret setting into the config file; the secrets stay in the environment.
    const targetEnv = realTargetEnv(base);
    const secretsOnly = { ...env, ...RUN_SECRETS };
    sh('config init --from-env', bin, ['config', 'init', '--from-env', '--format', 'json'], project, targetEnv, 60_000);
    sh('config check', bin, ['config', 'check'], project, secretsOnly, 60_000);
    sh('preflight', bin, ['preflight'], project, secretsOnly, 120_000);
    sh('run (the gate)', bin, ['run', ...selection], project, secretsOnly, 1_800_000);
    const installed = junitCases(join(project, 'svc-reports/junit.xml'));

    let checkout: JunitCase[] | undefined;
    if (o.compare) {
      const out = join(work, 'checkout-reports');
      sh(
        'the same from the checkout (embedded simulator)',
        process.execPath,
        [join(ROOT, 'cli/bin.mjs'), '--no-config', 'run', ...selection],
        ROOT,
        { ...env, SVC_REPORTS_OUT: out },
        1_800_000,
      );
      checkout = junitCases(join(out, 'junit.xml'));
      sh('run --list from the checkout', process.execPath, [join(ROOT, 'cli/bin.mjs'), '--no-config', 'run', '--list', ...selection], ROOT, env, 120_000);
    }
    return { steps, project, tarballBytes: readFileSync(tarball).length, embedded, installed, ...(checkout ? { checkout } : {}) };
  } finally {
    if (simulator?.pid) {
      try {
        process.kill(-simulator.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    if (!o.keep) rmSync(work, { recursive: true, force: true });
  }
}

/** Tests whose verdict differs between two runs (names present in both). */
export function verdictDifferences(a: JunitCase[], b: JunitCase[]): string[] {
  const other = new Map(b.map((c) => [c.name, c.outcome]));
  return a
    .filter((c) => other.has(c.name) && other.get(c.name) !== c.outcome)
    .map((c) => `${c.name}: ${c.outcome} installed, ${other.get(c.name)} in the checkout`);
}

const counts = (cases: JunitCase[]) => ['passed', 'failed', 'skipped'].map((k) => `${cases.filter((c) => c.outcome === k).length} ${k}`).join(', ');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { project: { type: 'string', multiple: true }, grep: { type: 'string' }, 'no-compare': { type: 'boolean' }, keep: { type: 'boolean' } },
  });
  const r = await adoptFromTarball({
    projects: values.project,
    grep: values.grep,
    compare: !values['no-compare'],
    keep: values.keep,
    log: (l) => console.log(l),
  });
  console.log(
    `\ntarball ${(r.tarballBytes / 1024).toFixed(0)} KiB; installed gate, embedded simulator: ${counts(r.embedded)}; installed gate, separately started simulator: ${counts(r.installed)}`,
  );
  if (r.checkout) {
    console.log(`checkout gate (embedded simulator): ${counts(r.checkout)}`);
    const diff = verdictDifferences(r.installed, r.checkout);
    // Scenarios that need the embedded simulator's own controls (the 24-hour clock, its
    // webhook dispatcher) skip on any separately started target, naming why.
    const skippedOnly = diff.filter((d) => d.includes(': skipped installed, passed in the checkout'));
    const other = diff.filter((d) => !skippedOnly.includes(d));
    console.log(
      `skipped only against the separately started target (${skippedOnly.length}; their skip messages are in the installed project's HTML report):${skippedOnly.map((d) => `\n  ${d}`).join('')}`,
    );
    console.log(other.length ? `other verdicts that differ (${other.length}):\n  ${other.join('\n  ')}` : 'every other test has the same verdict in both');
  }
  const total = r.steps.reduce((s, x) => s + x.seconds, 0);
  console.log(`steps: ${r.steps.map((s) => `${s.name} ${s.seconds.toFixed(1)} s`).join('; ')}; total ${total.toFixed(1)} s`);
  if (values.keep) console.log(`project kept: ${r.project}`);
  process.exitCode = r.steps.some((s) => s.code !== 0 && !s.name.startsWith('the same from')) ? 1 : 0;
}
