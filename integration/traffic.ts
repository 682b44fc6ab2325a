/**
 * The two ways an integration's traffic reaches the contract (the CLI's `proxy` and
 * `check-har` call these): through the recording proxy while its tests run, or from a HAR
 * file afterwards. Both judge with the profile's check options (strict, the deprecation
 * and sunset header names, the sunset version), write the same reports, and can write the
 * integration's usage file. The exit code is the gate: 0 green, 1 a finding that gates
 * (stated; inferred under --strict), the test command failed, or no API exchange was judged
 * (the gate checked nothing; `--allow-empty` lets that pass).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  catalogEntry,
  checkOptionsOf,
  loadProfile,
  profileSecrets,
  SIMULATOR_DEFAULTS,
  startTarget,
  type StartedTarget,
  type TargetProfile,
} from '../targets/index.ts';
import { formatFailure } from '../contracts/index.ts';
import { commandEnv, runCommand, type CommandRun } from './command.ts';
import { readHar, IntegrationInputError, type RecordedExchange } from './har.ts';
import {
  detectPlatformBases,
  TrafficJudge,
  trafficExitCode,
  type ApiBases,
  type CheckedNothing,
  type ExchangeKind,
  type JudgeOptions,
  type TrafficReport,
} from './judge.ts';
import { startProxy } from './proxy.ts';
import { redactedConsoleLines, writeTrafficReports, type WrittenReports } from './report.ts';
import { readUsageFile, usageFromExchanges, type UsageFile } from './usage.ts';

type Env = Record<string, string | undefined>;

/** The contract options a profile gives (as the suites' checked client sets them). */
function judgeOptionsOf(profile: TargetProfile, bases: ApiBases, credentialsRecorded: boolean, strict?: boolean): JudgeOptions {
  return {
    bases,
    credentialsRecorded,
    check: { ...checkOptionsOf(profile), strict: strict ?? profile.strict },
    ...(profile.versions.deprecated ? { deprecatedVersion: profile.versions.deprecated } : {}),
  };
}

function httpUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    if (/^https?:$/.test(u.protocol)) return raw.replace(/\/+$/, '');
  } catch {
    /* below */
  }
  throw new IntegrationInputError(`${name} must be an http(s) URL, got "${raw}"`);
}

/** Writes the usage file of a recording, keeping the declared `reads` of the file it replaces. */
export function writeUsage(exchanges: readonly RecordedExchange[], o: { bases: ApiBases; source: string; file: string }): UsageFile {
  const file = resolve(o.file);
  const keep = existsSync(file) ? readUsageFile(file) : undefined;
  const usage = usageFromExchanges(exchanges, { bases: o.bases, source: o.source, keep });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(usage, null, 2)}\n`);
  return usage;
}

/** What a recording held instead of an API call: `2 got no answer, 1 was no API call (https://cdn.example)`. */
function heldInstead(r: TrafficReport): string {
  const of = (kind: ExchangeKind) => r.exchanges.filter((x) => x.kind === kind);
  const origins = [...new Set(of('other').map((x) => new URL(x.url).origin))];
  const shown = `${origins.slice(0, 3).join(', ')}${origins.length > 3 ? `, and ${origins.length - 3} more` : ''}`;
  const parts: string[] = [];
  if (of('no-answer').length) parts.push(`${of('no-answer').length} got no answer`);
  if (of('other').length) parts.push(`${of('other').length} ${of('other').length === 1 ? 'was' : 'were'} no API call (${shown})`);
  if (of('returned-url').length) parts.push(`${of('returned-url').length} loaded a URL the service returned`);
  return parts.join(', ');
}

/**
 * The verdict of a recording that holds no API exchange: the gate checked nothing, and the
 * cause says what it held instead (nothing at all; requests that got no answer; requests to
 * other origins). Undefined when an API exchange was judged.
 */
function checkedNothingOf(
  r: TrafficReport,
  o: { source: 'proxy'; url: string; command: boolean; allowed: boolean } | { source: 'har'; bases: ApiBases; allowed: boolean },
): CheckedNothing | undefined {
  if (r.exchanges.some((x) => x.kind === 'api')) return undefined;
  const n = r.exchanges.length;
  if (o.source === 'proxy')
    return {
      cause: n
        ? `none of the ${n} request(s) that reached the proxy at ${o.url} was an API call the service answered: ${heldInstead(r)}`
        : `no request reached the proxy at ${o.url}`,
      remedy: o.command
        ? "Send the test command's requests to SVC_BASE_URL (or BASE_URL), the proxy's URL the command is given"
        : `Send the integration's requests to ${o.url} while the proxy runs`,
      allowed: o.allowed,
    };
  const at = o.bases.platform.length ? ` to the platform API at ${o.bases.platform.join(', ')}` : '';
  return {
    cause: n ? `the HAR holds no request${at} that the service answered: of its ${n} request(s), ${heldInstead(r)}` : 'the HAR holds no request',
    remedy: n
      ? "Give --base-url <the platform base URL the integration calls>, or record the integration's API traffic into the HAR"
      : "Record the integration's traffic into the HAR (browser devtools, Playwright's recordHar, the proxy's recording.har)",
    allowed: o.allowed,
  };
}

export interface TrafficRun {
  report: TrafficReport;
  written: WrittenReports;
  /** The console lines (redacted). */
  lines: string[];
  exitCode: 0 | 1;
  usage?: UsageFile;
}

export interface CheckHarOptions {
  file: string;
  /** Settings (config file and environment): the profile's check options and base URLs. */
  env: Env;
  /** The platform API's base URL in the HAR; default: SVC_BASE_URL of a real target, else the origins whose requests carry Accept-Version. */
  baseUrl?: string;
  audienceBaseUrl?: string;
  testHostBaseUrl?: string;
  out: string;
  strict?: boolean;
  usageOut?: string;
  maxBytes?: number;
  /** A HAR without any API exchange passes, saying so (default: it fails: the gate checked nothing). */
  allowEmpty?: boolean;
}

/** The bases of a HAR: given, the profile's (a real target), or detected from Accept-Version. */
export function harBases(
  exchanges: readonly RecordedExchange[],
  profile: TargetProfile,
  o: Pick<CheckHarOptions, 'baseUrl' | 'audienceBaseUrl' | 'testHostBaseUrl'>,
): ApiBases {
  const given = httpUrl('--base-url', o.baseUrl);
  const platform = given ? [given] : !profile.isSimulator ? [profile.platformBaseUrl] : detectPlatformBases(exchanges);
  // A HAR without any request needs no base URL: what it lacks is requests (checkHar's verdict, usage's refusal say so).
  if (platform.length === 0 && exchanges.length > 0)
    throw new IntegrationInputError(
      'no request of the HAR carries Accept-Version, so the platform API cannot be told from the rest: give --base-url <the platform base URL the integration calls>',
    );
  const audience = httpUrl('--audience-base-url', o.audienceBaseUrl) ?? (!profile.isSimulator ? profile.audienceBaseUrl : undefined);
  const testHost = httpUrl('--test-host-base-url', o.testHostBaseUrl) ?? (!profile.isSimulator ? profile.testHostBaseUrl : undefined);
  return { platform, audience: audience ? [audience] : [], 'test-host': testHost ? [testHost] : [] };
}

/** `check-har`: judges a HAR file and writes the reports. Throws IntegrationInputError on bad input. */
export function checkHar(o: CheckHarOptions): TrafficRun {
  const profile = loadProfile(o.env);
  const har = readHar(o.file, { maxBytes: o.maxBytes });
  const bases = harBases(har.exchanges, profile, o);
  const judge = new TrafficJudge(judgeOptionsOf(profile, bases, har.credentialsRecorded, o.strict));
  for (const e of har.exchanges) judge.add(e);
  const source = `HAR file ${resolve(o.file)} (${har.creator}; platform API at ${bases.platform.join(', ') || 'none: no request to tell it by'})`;
  const finished = judge.finish(source);
  const empty = checkedNothingOf(finished, { source: 'har', bases, allowed: !!o.allowEmpty });
  const report: TrafficReport = empty ? { ...finished, checkedNothing: empty } : finished;
  const secrets = profileSecrets(profile);
  const written = writeTrafficReports(report, o.out, { secrets, recording: har.exchanges });
  const usage = o.usageOut ? writeUsage(har.exchanges, { bases, source: `HAR file ${o.file}`, file: o.usageOut }) : undefined;
  return {
    report,
    written,
    lines: redactedConsoleLines(report, { secrets, recording: har.exchanges }),
    exitCode: trafficExitCode(report),
    ...(usage ? { usage } : {}),
  };
}

export interface ProxyRunOptions {
  env: Env;
  /** Forward to this URL; default: the target of the settings (the embedded simulator unless SVC_BASE_URL names one). */
  upstream?: string;
  port?: number;
  /** Catalogue variations of the embedded simulator (upstream default only). */
  variations?: string[];
  out: string;
  usageOut?: string;
  strict?: boolean;
  /** The team's test command: run through the proxy, then the proxy stops. Without it the proxy serves until SIGINT/SIGTERM. */
  command?: string[];
  /** A run without any API exchange passes, saying so (default: it fails: the gate checked nothing). */
  allowEmpty?: boolean;
  /** Bound on the command (default 30 minutes). */
  commandTimeoutMs?: number;
  /** The command's output goes to this process's (default true). */
  echoCommand?: boolean;
  cwd?: string;
  /** Print a line per exchange with findings while it runs (default true). */
  live?: boolean;
  /** Called once the proxy listens (tests and the bench learn its URL). */
  onListening?: (info: { url: string; upstream: string }) => void;
  /** Resolves when the proxy should stop (default: SIGINT or SIGTERM). */
  until?: Promise<void>;
  version?: string;
}

export interface ProxyRun extends TrafficRun {
  command?: CommandRun;
  url: string;
  upstream: string;
}

/** The proxy's --variation names, refused before anything starts when one is not a variation of the catalogue (as tolerance refuses them). */
function checkVariations(names: readonly string[]): void {
  const unknown = names.filter((v) => v !== 'all' && catalogEntry(v)?.kind !== 'variation');
  if (unknown.length) throw new IntegrationInputError(`unknown variation(s) ${unknown.join(', ')}; svc-conformance simulator --list names them`);
}

/** `proxy`: forwards, records and judges until the command ends (or a signal), then writes the reports. */
export async function runProxy(o: ProxyRunOptions): Promise<ProxyRun> {
  const explicit = httpUrl('--upstream', o.upstream);
  checkVariations(o.variations ?? []);
  let target: StartedTarget | undefined;
  let profile: TargetProfile;
  let upstream: string;
  if (explicit) {
    profile = loadProfile(o.env);
    upstream = explicit;
  } else {
    target = await startTarget({ env: o.env, variations: o.variations ?? [] });
    profile = target.profile;
    upstream = target.url;
  }
  const embedded = !explicit && !!target?.simulator;
  const pending: RecordedExchange[] = [];
  let judge: TrafficJudge | undefined;
  const live = o.live ?? true;
  const proxy = await startProxy({
    upstream,
    port: o.port,
    // The simulator's returned URLs then point at the proxy, so their loads are seen (proxy.ts).
    preserveHost: embedded,
    timeoutMs: profile.timeouts.requestMs,
    // The profile's one body bound (SVC_MAX_BODY_BYTES) for what the proxy buffers and records.
    maxRequestBytes: profile.limits.maxBodyBytes,
    maxRecordedBytes: profile.limits.maxBodyBytes,
    onExchange: (e) => {
      if (!judge) return void pending.push(e);
      const j = judge.add(e);
      if (live && j.failures.length) {
        process.stderr.write(
          `svc-conformance proxy: #${j.index} ${j.operation ?? `${j.method} ${j.url}`} → ${j.status ?? 'no answer'}\n${j.failures.map((f) => `    ${formatFailure(f)}`).join('\n')}\n`,
        );
      }
    },
  }).catch(async (e: unknown) => {
    // A --port already taken: the simulator started for it stops before the error is told.
    await target?.close();
    throw e;
  });
  const bases: ApiBases = {
    platform: [proxy.url],
    audience: embedded ? [`${proxy.url}${SIMULATOR_DEFAULTS.audiencePrefix}`] : [],
    'test-host': embedded ? [`${proxy.url}${SIMULATOR_DEFAULTS.testHostPrefix}`] : [],
  };
  judge = new TrafficJudge(judgeOptionsOf(profile, bases, true, o.strict));
  for (const e of pending.splice(0)) judge.add(e);
  o.onListening?.({ url: proxy.url, upstream });
  let commandRun: CommandRun | undefined;
  try {
    if (o.command?.length) {
      const commandProfile: TargetProfile = embedded ? { ...profile, audienceBaseUrl: bases.audience[0], testHostBaseUrl: bases['test-host'][0] } : profile;
      commandRun = await runCommand(o.command, {
        env: commandEnv(process.env, { baseUrl: proxy.url, profile: commandProfile }),
        cwd: o.cwd ?? process.cwd(),
        timeoutMs: o.commandTimeoutMs ?? 30 * 60_000,
        echo: o.echoCommand ?? true,
      });
    } else {
      await (o.until ??
        new Promise<void>((resolveStop) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolveStop();
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        }));
    }
  } finally {
    await proxy.close();
    await target?.close();
  }
  // Exchanges whose judging was still queued (setImmediate) are judged before the report.
  await new Promise((r) => setImmediate(r));
  const notes: string[] = [];
  if (commandRun) {
    const after = `after ${(commandRun.durationMs / 1000).toFixed(1)} s`;
    notes.push(
      commandRun.stoppedBy
        ? `The test command was stopped (${commandRun.stoppedBy}) ${after}: the report holds the traffic until then.`
        : commandRun.timedOut
          ? `The test command was stopped at its bound ${after}.`
          : `The test command exited ${commandRun.code} ${after}.`,
    );
  }
  if (proxy.bodiesLeftOut())
    notes.push(
      `${proxy.bodiesLeftOut()} exchange(s) were judged whole but kept without their bodies in recording.har and the usage file: the recording's bound of all bodies (256 MiB) was reached.`,
    );
  const finished = judge.finish(`proxy ${proxy.url} → ${embedded ? `the embedded simulator (${upstream})` : upstream}`, notes);
  const empty = checkedNothingOf(finished, { source: 'proxy', url: proxy.url, command: !!commandRun, allowed: !!o.allowEmpty });
  const failedCommand = commandRun !== undefined && (commandRun.timedOut || commandRun.code !== 0);
  const report: TrafficReport = {
    ...finished,
    ...(empty ? { checkedNothing: empty } : {}),
    ...(failedCommand ? { commandFailure: notes[0] } : {}),
  };
  const secrets = profileSecrets(profile);
  const written = writeTrafficReports(report, o.out, { secrets, recording: proxy.exchanges, version: o.version });
  const usage = o.usageOut ? writeUsage(proxy.exchanges, { bases, source: 'the recording proxy', file: o.usageOut }) : undefined;
  return {
    report,
    written,
    lines: redactedConsoleLines(report, { secrets, recording: proxy.exchanges }),
    exitCode: trafficExitCode(report),
    url: proxy.url,
    upstream,
    ...(commandRun ? { command: commandRun } : {}),
    ...(usage ? { usage } : {}),
  };
}
