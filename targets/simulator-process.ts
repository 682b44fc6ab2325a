/**
 * The simulator as a process of its own (`targets/simulator/main.ts`, what `npm run simulator`
 * runs), and the settings a user sets to point the suite at it as at a real target (README,
 * "Target profiles"; DESIGN.md, "The layout": the same suites run unchanged against a real
 * environment): only `SVC_*` variables, no SVC_SIMULATOR_URL, no SVC_SIM_*, so the suites
 * take the real-target path of the profile (isSimulator false) and learn every fact from the
 * environment.
 *
 * Here, not beside a test, because the mutation run (`svc-conformance mutants`,
 * proof/mutants/run.ts) is a product command that starts such a simulator: its helpers
 * live in the room of the target and reach the product through targets/index.ts; the
 * Playwright half of the real-target harness (proof/real-target.ts) and the system tests
 * (tests/) import them from there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { PACKAGE_ROOT, PARENT_PID_VARIABLE } from './process.ts';
import { PASSWORD_SCENARIOS, PRODUCT_PATH_DEFAULTS, PRODUCT_PATH_ENV } from './profiles/settings.ts';
import { SIMULATOR_DEFAULTS } from './simulator/settings.ts';
import { DATA_EXCHANGE_SEED } from './simulator/data/data-exchange.ts';
import { simulatorInstitutionSeed } from './simulator/data/institutions.ts';

/**
 * Credentials and test-institution values for this run, deliberately NOT the
 * simulator's documented defaults: the simulator process is started with them and the
 * suite must get them from the environment, so a suite that fell back to a built-in
 * default would fail to authenticate instead of passing by accident.
 */
export const RUN_SECRETS = {
  SVC_CLIENT_ID: 'real-mode-client',
  SVC_API_KEY: 'real-mode-api-key-7f3a',
  SVC_AUDIENCE_CLIENT_ID: 'real-mode-audience-client',
  SVC_AUDIENCE_CLIENT_SECRET: 'real-mode-audience-secret-51c2',
  SVC_CORRECT_ANSWER: 'real-mode-answer',
  ...Object.fromEntries(PASSWORD_SCENARIOS.map((s) => [`SVC_TEST_PASSWORD_${s}`, `real-mode-${s.toLowerCase().replace(/_/g, '-')}`])),
} as Record<string, string>;

/** The process environment without any SVC_* / WEBHOOK_* setting of the caller (a clean slate). */
export function cleanEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^(SVC_|WEBHOOK_|PLAYWRIGHT_JSON_OUTPUT)/.test(k) && k !== 'CI') out[k] = v;
  out.FORCE_COLOR = '0';
  return out;
}

export interface SimulatorProcess {
  base: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `node --import tsx targets/simulator/main.ts --port 0` in its own process group and reads the base URL it prints. */
export async function startSimulatorProcess(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'targets/simulator/main.ts', '--port', '0'], {
    cwd: PACKAGE_ROOT,
    // Its own group (a stop of ours is forwarded by stop()), watching this process: it ends when we do (targets/serve-until-stopped.ts).
    env: { ...env, [PARENT_PID_VARIABLE]: String(process.pid) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    kill('SIGTERM');
    const t = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(t);
  };
  const base = await new Promise<string>((resolveBase, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator printed no base URL within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const look = () => {
      const m = /platform API\s*:\s*(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveBase(m[1]);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${code}) before listening:\n${out}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  return { base, pid: child.pid!, output: () => out, stop };
}

/**
 * Everything a user sets to point the suite at a target whose base URL is `base` and
 * whose audience service and earlier-generation test host live under the simulator's
 * prefixes. Data-exchange identities are the ones the target holds (here the
 * simulator's seeded grant, user, member and transactions).
 */
export function realTargetEnv(base: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const d = SIMULATOR_DEFAULTS;
  const dx = DATA_EXCHANGE_SEED;
  const inst = simulatorInstitutionSeed();
  return {
    ...cleanEnv(),
    ...RUN_SECRETS,
    SVC_BASE_URL: base,
    SVC_ENVIRONMENT: 'integration',
    SVC_AUDIENCE_BASE_URL: `${base}${d.audiencePrefix}`,
    SVC_AUDIENCE_TOKEN_URL: `${base}${d.audiencePrefix}/oauth/token`,
    SVC_AUDIENCE_ID: d.audienceId,
    SVC_AUDIENCE_SLUG: d.audienceSlug,
    SVC_AUDIENCE_INSTITUTION_PUBLIC_ID: d.audienceInstitutionPublicId,
    SVC_TEST_HOST_BASE_URL: `${base}${d.testHostPrefix}`,
    SVC_TEST_USERNAME: d.testUsername,
    SVC_3DX_ISSUER_GUID: dx.issuerClientGuid,
    SVC_3DX_GRANTEE_GUID: dx.granteeClientGuid,
    SVC_3DX_GRANTEE_GUIDS: [dx.granteeClientGuid, dx.secondGranteeClientGuid].join(','),
    SVC_3DX_GRANT_GUID: dx.grantGuid,
    SVC_3DX_USER: dx.userGuid,
    SVC_3DX_MEMBER: dx.heldMemberGuid,
    SVC_3DX_ACCOUNT_GUID: dx.checkingAccountGuid,
    SVC_3DX_USER_ID: dx.userId,
    SVC_3DX_MEMBER_ID: dx.heldMemberId,
    SVC_3DX_ACCOUNT_ID: dx.checkingAccountId,
    SVC_3DX_MANUAL_TRANSACTION_GUID: dx.manualTransactionGuid,
    SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID: dx.scopeMismatchTransactionGuid,
    SVC_3DX_WINDOW_TRANSACTION_GUID: dx.windowTransactionGuid,
    SVC_3DX_MANUAL_TRANSACTION_MEMBER: dx.manualMemberGuid,
    SVC_3DX_MANUAL_TRANSACTION_ACCOUNT: dx.manualAccountGuid,
    SVC_3DX_SCOPE_MISMATCH_MEMBER: dx.aggregatedMemberGuid,
    SVC_3DX_SCOPE_MISMATCH_ACCOUNT: dx.cardAccountGuid,
    // Institutions the client sees (profile.institutions, targets/profiles/sections.ts).
    SVC_FAVORITE_INSTITUTION_CODES: inst.favouriteCodes.join(','),
    SVC_BLOCKED_INSTITUTION_CODE: inst.blockedCode,
    SVC_TEST_INSTITUTION_COUNTRY: inst.testInstitutionCountry,
    // Product areas whose paths are not shown: the user names them (profile.productPaths).
    ...Object.fromEntries(Object.entries(PRODUCT_PATH_ENV).map(([key, name]) => [name, PRODUCT_PATH_DEFAULTS[key as keyof typeof PRODUCT_PATH_DEFAULTS]])),
    SVC_USE_CASES: 'MONEY_MOVEMENT,PFM',
    SVC_DEPRECATED_VERSION: 'v20111101',
    SVC_DEPRECATED_ON: '2026-09-29',
    // The widget's controls (not shown): CSS selectors inside the target's widget.
    SVC_WIDGET_OAUTH_SELECTOR: '[data-action="oauth"]',
    SVC_WIDGET_USERNAME_SELECTOR: 'input[name=username]',
    SVC_WIDGET_PASSWORD_SELECTOR: 'input[name=password]',
    SVC_WIDGET_CONNECT_SELECTOR: '[data-action="connect"]',
    SVC_WIDGET_PRIMARY_SELECTOR: '[data-action="primary"]',
    SVC_WIDGET_DELETE_SELECTOR: '[data-action="delete"]',
    SVC_WIDGET_BACK_SELECTOR: '[data-action="back"]',
    SVC_SUNSET_VERSION: d.sunsetStandInVersion,
    SVC_RATE_LIMIT_PER_SECOND: String(d.rateLimitPerSecond),
    // Bounds a user of a fast integration environment sets (the real-target defaults
    // poll every 2 s for up to 120 s).
    SVC_POLL_INTERVAL_MS: '25',
    SVC_AGGREGATION_TIMEOUT_MS: '10000',
    SVC_REQUEST_TIMEOUT_MS: '10000',
    ...extra,
  };
}

/**
 * The simulator's built-in second client, as a run against it names it (SVC_SECOND_CLIENT_ID,
 * SVC_SECOND_API_KEY): the isolation scenario runs with it ("belongs to exactly one client",
 * What the service does). realTargetEnv leaves it out so one run shows the skip a real target
 * without a second client gets; a harness that measures faults adds it.
 */
export function secondClientEnv(): Record<string, string> {
  return { SVC_SECOND_CLIENT_ID: SIMULATOR_DEFAULTS.secondClientId, SVC_SECOND_API_KEY: SIMULATOR_DEFAULTS.secondApiKey };
}

/** The simulator process's own settings: the same secrets, from its environment. */
export function simulatorProcessEnv(): NodeJS.ProcessEnv {
  return { ...cleanEnv(), ...RUN_SECRETS };
}

/** Ports already handed out by `freeLoopbackPort` in this process: runs at once must never share one. */
const handedOut = new Set<number>();

/**
 * A free 127.0.0.1 port for a server that starts later than the process told its URL (a
 * webhook capture in a Playwright worker, seconds after the simulator was told where to
 * deliver), never one handed out before in this process. It is drawn below the kernel's
 * ephemeral range (Linux: 32768-60999, /proc/sys/net/ipv4/ip_local_port_range), which every
 * listen(0) and outgoing connection of the machine's other processes uses: a port inside
 * it, free when drawn, can be taken before the late server binds it (EADDRINUSE).
 */
export async function freeLoopbackPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    const s = createServer();
    const free = await new Promise<boolean>((r) => {
      s.once('error', () => r(false));
      s.listen(port, '127.0.0.1', () => r(true));
    });
    if (!free) continue;
    await new Promise<void>((r) => s.close(() => r()));
    handedOut.add(port);
    return port;
  }
}

/**
 * The webhook settings of a live-delivery run (README, "Webhook deliveries"): the service
 * delivers to `publicUrl` (here a loopback URL, the stand-in of a tunnel), which reaches the
 * suite's capture on `listenPort`; the capture answers 503 to each object's first delivery
 * so retries are observed (Events, rules 4-5), and a test webhook of each type is asked for
 * through the simulator's control route under `base` (Events, rule 7).
 */
export function liveDeliveryEnv(o: { base: string; publicUrl: string; listenPort: number; testWebhooks?: boolean }): Record<string, string> {
  return {
    SVC_WEBHOOK_PUBLIC_URL: o.publicUrl,
    SVC_WEBHOOK_LISTEN: `127.0.0.1:${o.listenPort}`,
    SVC_WEBHOOK_WAIT_MS: '8000',
    SVC_WEBHOOK_EXPECT: '1',
    SVC_WEBHOOK_FAIL_FIRST: '1',
    ...(o.testWebhooks === false ? {} : { SVC_WEBHOOK_TEST_URL: `${o.base}/_sim/webhooks/test`, SVC_WEBHOOK_TEST_TYPES: 'member,aggregation' }),
  };
}

/**
 * A simulator's out-of-band webhook configuration for a live-delivery run: every type to
 * `url` (none: a service never told where to deliver), the retry schedule (Events, rule 5)
 * divided by 100 so retry 1 comes 0.3 s after the first attempt, and a 2 s bound on each attempt.
 */
export function simulatorDeliveryEnv(url: string | undefined): Record<string, string> {
  return { ...(url ? { SVC_SIM_WEBHOOK_URL: url } : {}), SVC_SIM_WEBHOOK_TIME_SCALE: '100', SVC_SIM_WEBHOOK_TIMEOUT_MS: '2000' };
}
