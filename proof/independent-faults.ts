/**
 * Faults written by others (Developers' guide, lesson 2): the suite in real-target mode
 * against a separately started simulator, with a fault proxy nobody on this project wrote
 * between them, once per fault. A fault is CAUGHT when a scenario that passed through the
 * transparent proxy fails under it; else it SURVIVED. Nothing of the proxy is read or
 * imported: it is a command that prints `listening <url>` and forwards to `--upstream`.
 *
 *   npx tsx proof/independent-faults.ts --proxy /path/to/proxy.mjs [--faults a,b] [--project api --project browser]
 *                                [--out results.json]
 *
 * The proxy's contract: `node <proxy> --list` names its faults, one per line;
 * `node <proxy> --upstream <url> --port 0 --fault <name|none>` forwards everything to the
 * upstream and applies that fault. The simulator is started afresh for each fault, so no
 * fault sees another's state.
 *
 * With `--deliveries` the proxy also stands between the service's webhook deliveries and the
 * suite's capture (the place of the https tunnel a user runs, README "Webhook deliveries"):
 * it is given `--webhook-port <Q> --webhook-upstream <capture origin>`, the simulator delivers
 * every type to `http://127.0.0.1:<Q>/hooks`, and the suite is told that URL as its public
 * URL. Deliveries do not pass the platform proxy, so without this they cannot be faulted by
 * someone else. Run it with the live-delivery spec: `--project properties --grep @live`.
 *
 * A name beginning `freedom-` is the writer's control, a behaviour the specification allows:
 * the gate must stay green on it (TOLERATED); red is a FALSE ALARM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { figures, runPlaywright, type PlaywrightRun, type RunTest } from './real-target.ts';
import { TIER_ANNOTATION } from '../contracts/index.ts';
import { BOOKKEEPING_PROJECTS } from '../reports/empty-run-reporter.ts';
import {
  freeLoopbackPort,
  liveDeliveryEnv,
  realTargetEnv,
  secondClientEnv,
  simulatorDeliveryEnv,
  simulatorProcessEnv,
  startSimulatorProcess,
} from '../targets/index.ts';

const USAGE =
  'usage: npx tsx proof/independent-faults.ts --proxy <proxy.mjs> [--faults a,b] [--project api ...] [--grep @live] [--deliveries] [--strict] [--out results.json] [--timeout-min 20]';

interface Proxy {
  url: string;
  stop: () => Promise<void>;
}

/** Where the proxy takes the service's webhook deliveries and where it hands them on (`--deliveries`). */
interface DeliveryLeg {
  /** The port the simulator delivers to (the proxy listens on it). */
  proxyPort: number;
  /** The port the suite's capture listens on. */
  capturePort: number;
}

/** Starts the fault proxy in front of `upstream` and reads the URL it prints. */
async function startProxy(command: string, upstream: string, fault: string, deliveries?: DeliveryLeg): Promise<Proxy> {
  const deliveryArgs = deliveries ? ['--webhook-port', String(deliveries.proxyPort), '--webhook-upstream', `http://127.0.0.1:${deliveries.capturePort}`] : [];
  const child: ChildProcess = spawn(process.execPath, [command, '--upstream', upstream, '--port', '0', '--fault', fault, ...deliveryArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
    await exited;
  };
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`the proxy printed no URL within 20 s: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`the proxy exited (${code}): ${out}`));
    });
  });
  return { url, stop };
}

async function listFaults(command: string): Promise<string[]> {
  const child = spawn(process.execPath, [command, '--list'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((r) => child.once('exit', r));
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

interface RunPlan {
  projects: string[];
  grep?: string;
  /** The proxy stands between the service's webhook deliveries and the capture too. */
  deliveries: boolean;
  /** The gate run with SVC_STRICT=1: inferred findings gate too (a user's choice, DESIGN.md "Checks and failures"). */
  strict: boolean;
  timeoutMs: number;
}

/** One gate run through the proxy with `fault` in force, against a fresh simulator. */
async function runThrough(command: string, fault: string, plan: RunPlan): Promise<PlaywrightRun> {
  const leg: DeliveryLeg | undefined = plan.deliveries ? { proxyPort: await freeLoopbackPort(), capturePort: await freeLoopbackPort() } : undefined;
  // The service is configured out of band to deliver to the proxy's webhook port (Events, Webhooks).
  const publicUrl = leg && `http://127.0.0.1:${leg.proxyPort}/hooks`;
  const sim = await startSimulatorProcess({ ...simulatorProcessEnv(), ...(publicUrl ? simulatorDeliveryEnv(publicUrl) : {}) });
  let proxy: Proxy | undefined;
  try {
    proxy = await startProxy(command, sim.base, fault, leg);
    // The simulator's second client too: a fault in cross-client isolation is measured, not skipped.
    const env = realTargetEnv(proxy.url, {
      ...secondClientEnv(),
      ...(leg && publicUrl ? liveDeliveryEnv({ base: proxy.url, publicUrl, listenPort: leg.capturePort }) : {}),
      ...(plan.strict ? { SVC_STRICT: '1' } : {}),
    });
    return await runPlaywright({ projects: plan.projects, grep: plan.grep, env, timeoutMs: plan.timeoutMs });
  } finally {
    await proxy?.stop();
    await sim.stop();
  }
}

export interface FaultVerdict {
  fault: string;
  /**
   * A control, not a fault: the writer names a behaviour the specification allows
   * `freedom-...` (Developers' guide: green whenever the service does what the specification
   * allows). Caught, it is a false alarm of the gate.
   */
  control: boolean;
  caught: boolean;
  /** Scenarios that passed through the transparent proxy and failed under the fault. */
  by: string[];
  firstError?: string;
  /**
   * Inferred findings the fault raised that the baseline did not ("test: expectation"): what
   * the suite reported without failing the run, where the specification does not state the
   * rule (lesson 1). A fault only these notice SURVIVED the gate, and says so.
   */
  inferred: string[];
  seconds: number;
}

/** An annotation's text without the identifiers one run's objects carry (USR-..., MBR-...). */
const withoutIds = (text: string) => text.replace(/\b[A-Z]{3}-[0-9a-f][0-9a-f-]{7,}\b/g, '<id>');

/** Inferred annotations of `run` no test of the baseline carried under the same name. */
export function newInferredFindings(baseline: PlaywrightRun, run: PlaywrightRun): string[] {
  const inferred = (t: RunTest) => (t.annotations ?? []).filter((a) => a.type === TIER_ANNOTATION.inferred).map((a) => withoutIds(a.description ?? ''));
  const before = new Set(baseline.tests.flatMap((t) => inferred(t).map((d) => `${t.name}\u0000${d}`)));
  return [
    ...new Set(
      run.tests.flatMap((t) =>
        inferred(t)
          .filter((d) => !before.has(`${t.name}\u0000${d}`))
          .map((d) => `${t.name}: ${d}`),
      ),
    ),
  ];
}

/** How a writer names a control: a behaviour the specification allows, on which the gate must stay green. */
export const CONTROL_PREFIX = 'freedom-';

/** One line of the run's output for `v`: a fault CAUGHT or SURVIVED, a control TOLERATED or a FALSE ALARM. */
export function verdictLine(v: FaultVerdict): string {
  const label = v.control ? (v.caught ? 'FALSE ALARM' : 'TOLERATED') : v.caught ? 'CAUGHT' : 'SURVIVED';
  const by = v.caught ? ` by ${v.by.length}: ${v.by.slice(0, 3).join(' | ')}${v.firstError ? `\n    ${v.firstError.slice(0, 300)}` : ''}` : '';
  const noticed = !v.caught && v.inferred.length ? `; reported as inferred (not gating) by ${v.inferred.length}: ${v.inferred[0].slice(0, 200)}` : '';
  return `${label.padEnd(11)} ${v.fault} (${v.seconds} s)${by}${noticed}`;
}

/** The last line: faults caught, and controls tolerated where the writer gave any. */
export function summaryLine(verdicts: readonly FaultVerdict[]): string {
  const faults = verdicts.filter((v) => !v.control);
  const controls = verdicts.filter((v) => v.control);
  const noticedOnly = faults.filter((v) => !v.caught && v.inferred.length).length;
  const parts = [
    ...(faults.length ? [`caught ${faults.filter((v) => v.caught).length} of ${faults.length}`] : []),
    ...(noticedOnly ? [`${noticedOnly} of the survivors reported as inferred findings`] : []),
    ...(controls.length ? [`controls tolerated ${controls.filter((v) => !v.caught).length} of ${controls.length}`] : []),
  ];
  return parts.join('; ');
}

/**
 * Why the baseline measures nothing, or undefined when it does: a fault is caught only by a
 * scenario that passed through the transparent proxy, so a baseline where every scenario of
 * the chosen projects skipped or failed would print every fault SURVIVED and every control
 * TOLERATED without having looked (Developers' guide, lesson 4: a gate that checked nothing
 * is not green). The skip reasons name the missing setting.
 */
export function unmeasuredBaseline(baseline: PlaywrightRun, plan: Pick<RunPlan, 'projects' | 'grep' | 'deliveries'>): string | undefined {
  if (baseline.tests.some((t) => t.status === 'passed' && !BOOKKEEPING_PROJECTS.has(t.entry))) return undefined;
  const live = plan.grep?.includes('@live') && !plan.deliveries ? ' (the live-delivery spec runs only with --deliveries)' : '';
  return `the baseline passed no scenario of ${plan.projects.join(', ')}${plan.grep ? ` matching ${plan.grep}` : ''} through the transparent proxy: nothing to measure${live}`;
}

/** The name a run stopped before its first scenario is caught by (the preflight of the global setup). */
export const STOPPED_BEFORE_SCENARIOS = 'the run, stopped before its first scenario';

/**
 * Caught: a scenario that passed in the baseline fails under the fault, or the gate stopped
 * before its first scenario on an error of its own (the preflight's fatal finding: red, the
 * cause named) where the baseline did not. A run the harness lost (timed out, no report) is
 * no catch.
 */
export function verdictOf(fault: string, baseline: PlaywrightRun, run: PlaywrightRun): FaultVerdict {
  const passed = new Set(baseline.tests.filter((t) => t.status === 'passed').map((t) => t.name));
  const failing = run.tests.filter((t) => (t.status === 'failed' || t.status === 'flaky') && passed.has(t.name));
  const harnessLost = run.timedOut || run.globalErrors.some((e) => e.startsWith('no JSON report'));
  const stopped = failing.length === 0 && !harnessLost && run.exitCode !== 0 && baseline.globalErrors.length === 0 && run.globalErrors.length > 0;
  const firstError = stopped ? run.globalErrors[0] : failing[0]?.firstError;
  return {
    fault,
    control: fault.startsWith(CONTROL_PREFIX),
    caught: failing.length > 0 || stopped,
    by: stopped ? [STOPPED_BEFORE_SCENARIOS] : failing.map((t) => t.name),
    ...(firstError ? { firstError: firstError.split('\n').slice(0, 3).join(' ') } : {}),
    inferred: newInferredFindings(baseline, run),
    seconds: Math.round(run.durationMs / 1000),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      options: {
        proxy: { type: 'string' },
        faults: { type: 'string' },
        project: { type: 'string', multiple: true },
        grep: { type: 'string' },
        deliveries: { type: 'boolean' },
        strict: { type: 'boolean' },
        out: { type: 'string' },
        'timeout-min': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (typeof values.proxy !== 'string') {
    console.error(`--proxy is required\n${USAGE}`);
    process.exit(2);
  }
  const command = resolve(values.proxy);
  const projects = (values.project as string[] | undefined) ?? ['api', 'browser', 'fuzz'];
  const timeoutMs = Number(values['timeout-min'] ?? 20) * 60_000;
  if (!(timeoutMs > 0)) {
    console.error(`--timeout-min must be a positive number of minutes, got ${JSON.stringify(values['timeout-min'])}\n${USAGE}`);
    process.exit(2);
  }
  const plan: RunPlan = {
    projects,
    grep: values.grep as string | undefined,
    deliveries: values.deliveries === true,
    strict: values.strict === true,
    timeoutMs,
  };
  const faults = typeof values.faults === 'string' ? values.faults.split(',').filter(Boolean) : await listFaults(command);
  console.log(
    `baseline: the transparent proxy (${projects.join(', ')}${plan.grep ? `, --grep ${plan.grep}` : ''}${plan.deliveries ? ', deliveries through it' : ''}${plan.strict ? ', SVC_STRICT=1' : ''})`,
  );
  const baseline = await runThrough(command, 'none', plan);
  console.log(figures(baseline));
  const unmeasured = unmeasuredBaseline(baseline, plan);
  if (unmeasured) {
    console.error(`${unmeasured}\n${USAGE}`);
    process.exit(2);
  }
  const verdicts: FaultVerdict[] = [];
  for (const fault of faults) {
    const run = await runThrough(command, fault, plan);
    const v = verdictOf(fault, baseline, run);
    verdicts.push(v);
    console.log(verdictLine(v));
  }
  console.log(`\n${summaryLine(verdicts)}`);
  if (typeof values.out === 'string')
    writeFileSync(
      values.out,
      `${JSON.stringify({ projects, grep: plan.grep, deliveries: plan.deliveries, strict: plan.strict, baseline: figures(baseline), verdicts }, null, 2)}\n`,
    );
}
