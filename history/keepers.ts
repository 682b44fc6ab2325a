/**
 * Rules that take a day, observed across nights. Each nightly against a target that keeps
 * its state (not the embedded simulator, which starts empty every run) leaves three members
 * of the test institution behind on purpose, each under a user `svcct-keep_<night>-...`
 * (scenarios/cleanup.ts KEEPER_ID_PREFIX: `cleanup` knows them), records them in the history,
 * and the next night reads, judges and deletes them:
 *
 *   refresh   a CONNECTED member: once a day has passed on the target's clock its
 *             `aggregated_at` must have moved (What the service does: "Accounts and their
 *             transactions refresh every 24 hours unless the owning user is disabled"; Limits:
 *             "every 24 hours unless the user is disabled").
 *   disabled  the same under a disabled user: its `aggregated_at` must not move.
 *   webhooks  a member created with an `X-CALLBACK-PAYLOAD` marker the delivery log's
 *             receiver refuses (history/delivery-log.ts): the retries of each refused
 *             delivery are counted (Events rule 5: "at most 12 after the first attempt, spread
 *             over about 24 hours ... After 12 failed retries the webhook is dropped").
 *
 * The target's clock, not the runner's: the day that passed is read from the target's own
 * timestamps (tonight's fresh member's `aggregated_at` against last night's), so a simulator
 * whose clock was moved between two nightlies is judged as a real service a day later. A rule
 * whose day has not passed yet is kept for one more night (at most MAX_READS), then reported
 * inconclusive.
 */
import { randomUUID } from 'node:crypto';
import { boundsOf, requestBounded, type Redactor, type TargetProfile } from '../targets/index.ts';
import { credentialHeaders, currentVersion } from '../preflight/credentials.ts';
import { KEEPER_ID_PREFIX } from '../scenarios/cleanup.ts';
import { readDeliveryLog, REFUSAL_MARKER } from './delivery-log.ts';
import { EMBEDDED_TARGET, nightId, targetName } from './night.ts';
import { readIndex, type HistoryIndex, type Keeper, type LongRunningResult } from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** "every 24 hours": a refresh may run some time after the day is over; a day and this much is when its absence is a failure. */
const REFRESH_SLACK_MS = 2 * 60 * 60 * 1000;
/** Nights a keeper is read without a verdict before it is given up (and deleted). */
const MAX_READS = 3;
/** Events rule 5: "at most 12 after the first attempt". */
const MAX_RETRIES = 12;

export const LONG_RUNNING_RULES = {
  refresh: {
    rows: ['wsd.refresh-24h', 'lim.refresh'],
    rule: 'What the service does: "Accounts and their transactions refresh every 24 hours unless the owning user is disabled"',
  },
  disabled: {
    rows: ['wsd.refresh-24h', 'lim.refresh'],
    rule: 'What the service does: "... refresh every 24 hours unless the owning user is disabled" (a disabled user\'s member)',
  },
  retries: {
    rows: ['ev.rule5-max', 'lim.webhook-retries'],
    rule: 'Events rule 5: "Retries: at most 12 after the first attempt, spread over about 24 hours"; rule 4: "Any other status ... triggers a retry"',
  },
  dropped: { rows: ['ev.rule5-dropped'], rule: 'Events rule 5: "After 12 failed retries the webhook is dropped"' },
} as const;

export interface KeepersOutcome {
  results: LongRunningResult[];
  /** Why nothing was left or judged, when so. */
  note?: string;
  /** Writes the keepers left (tonight's and those kept another night) into the history's index. */
  updateIndex: (index: HistoryIndex) => void;
}

interface Answer {
  status: number;
  body: any;
  text: string;
}

class Target {
  private readonly headers: Record<string, string>;
  constructor(
    readonly profile: TargetProfile,
    private readonly redactor: Redactor,
  ) {
    const credentials = credentialHeaders(profile, 'platform');
    if (!credentials) throw new Error('needs SVC_CLIENT_ID and SVC_API_KEY (Authentication 1: platform endpoints use HTTP Basic authentication)');
    this.headers = { accept: 'application/json', 'accept-version': currentVersion(profile), 'content-type': 'application/json', ...credentials };
  }

  async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await requestBounded(
      {
        method,
        url: `${this.profile.platformBaseUrl}${path}`,
        headers: { ...this.headers, ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        urlSetting: 'SVC_BASE_URL',
        redact: (t) => this.redactor.text(t),
      },
      boundsOf(this.profile),
    );
    let parsed: any;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text: res.text };
  }

  async ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any> {
    const a = await this.send(method, path, body, headers);
    if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${path} answered ${a.status}: ${this.redactor.text(a.text.slice(0, 200))}`);
    return a.body;
  }

  /**
   * The member once no aggregation runs and it has an aggregated_at, read until
   * timeouts.aggregationMs has passed; `unsettled` says so when the bound came first, so a
   * verdict never reads an aggregation still running as one that did not happen.
   */
  async settled(user: string, member: string): Promise<{ member: any; unsettled?: string }> {
    const boundMs = this.profile.timeouts.aggregationMs;
    const until = Date.now() + boundMs;
    for (;;) {
      const m = (await this.ok('GET', `/users/${user}/members/${member}`)).member;
      if (m.is_being_aggregated !== true && m.aggregated_at) return { member: m };
      if (Date.now() > until)
        return {
          member: m,
          unsettled: `not settled within ${boundMs} ms (SVC_AGGREGATION_TIMEOUT_MS): is_being_aggregated ${JSON.stringify(m.is_being_aggregated)}, aggregated_at ${JSON.stringify(m.aggregated_at ?? null)}`,
        };
      await new Promise((r) => setTimeout(r, Math.max(this.profile.timeouts.pollIntervalMs, 50)));
    }
  }
}

/** Creates one keeper: a user, a member of the test institution with the success password, aggregated. */
async function leave(t: Target, kind: Keeper['kind'], night: string): Promise<Keeper> {
  const p = t.profile;
  const version = currentVersion(p);
  const userId = `${KEEPER_ID_PREFIX}${night.replace(/[^A-Za-z0-9]/g, '')}-${kind}-${randomUUID().slice(0, 8)}`;
  const user = (await t.ok('POST', '/users', { user: { id: userId } })).user.guid as string;
  const creds = (await t.ok('GET', `/institutions/${encodeURIComponent(p.testInstitution.code)}/credentials`)).credentials as Array<Record<string, string>>;
  const isPassword = (c: Record<string, string>) => /pass/i.test(`${c.field_name ?? ''} ${c.label ?? ''} ${c.type ?? ''}`);
  const password = creds.find(isPassword);
  const username = creds.find((c) => c !== password);
  if (!password || !username || !p.testInstitution.passwords.SUCCESS)
    throw new Error('the test institution lists no username/password credentials, or SVC_TEST_PASSWORD_SUCCESS is not set');
  const marker = kind === 'webhooks' ? `${REFUSAL_MARKER}${night.replace(/[^A-Za-z0-9]/g, '')}` : undefined;
  const body: Record<string, unknown> = {
    member: {
      institution_code: p.testInstitution.code,
      id: `${userId}-member`,
      credentials: [
        { guid: username.guid, value: p.testInstitution.username },
        { guid: password.guid, value: p.testInstitution.passwords.SUCCESS },
      ],
    },
  };
  // Versioning, changes in v20250224: "create member ... take[s] a required data_request with a products array".
  if (version >= 'v20250224') body.data_request = { products: ['transactions'] };
  const member = (await t.ok('POST', `/users/${user}/members`, body, marker ? { 'x-callback-payload': marker } : {})).member.guid as string;
  const { member: m, unsettled } = await t.settled(user, member);
  if (kind === 'disabled') await t.ok('PUT', `/users/${user}`, { user: { is_disabled: true } });
  return {
    kind,
    target: targetName(p.platformBaseUrl, false),
    night,
    userGuid: user,
    userId,
    memberGuid: member,
    aggregatedAt: m.aggregated_at ?? null,
    successfullyAggregatedAt: m.successfully_aggregated_at ?? null,
    ...(marker ? { marker } : {}),
    ...(unsettled ? { unsettled: `${unsettled}, when left` } : {}),
  };
}

const hours = (ms: number) => `${(ms / 3_600_000).toFixed(1)} h`;

/** Judges one keeper of an earlier night; `keep` when its day has not passed yet. */
async function judge(t: Target, k: Keeper, targetNow: number, deliveryLog: string, night: string): Promise<{ results: LongRunningResult[]; keep: boolean }> {
  const result = (which: keyof typeof LONG_RUNNING_RULES, verdict: LongRunningResult['verdict'], detail: string): LongRunningResult => ({
    night,
    target: k.target,
    rows: [...LONG_RUNNING_RULES[which].rows],
    rule: LONG_RUNNING_RULES[which].rule,
    verdict,
    detail: `${detail} (member ${k.memberGuid}, left ${k.night})`,
  });
  const read = await t.send('GET', `/users/${k.userGuid}/members/${k.memberGuid}`);
  const lastRead = (k.reads ?? 0) + 1 >= MAX_READS;
  if (k.kind === 'webhooks') return { results: judgeRetries(k, deliveryLog, result), keep: false };
  if (read.status === 404) return { results: [result(k.kind, 'inconclusive', 'the member is gone: deleted between the nights (a `cleanup`?)')], keep: false };
  if (read.status !== 200) return { results: [result(k.kind, 'inconclusive', `reading it answered ${read.status}`)], keep: !lastRead };
  const since = k.aggregatedAt ? Date.parse(k.aggregatedAt) : Number.NaN;
  const elapsed = targetNow - since;
  const { member: m, unsettled } = await t.settled(k.userGuid, k.memberGuid);
  const moved = m.aggregated_at && k.aggregatedAt && Date.parse(m.aggregated_at) > since;
  const when = `aggregated_at ${k.aggregatedAt} → ${m.aggregated_at ?? 'null'}, ${Number.isFinite(elapsed) ? hours(elapsed) : 'an unknown time'} later on the target's clock`;
  if (!Number.isFinite(elapsed)) return { results: [result(k.kind, 'inconclusive', `no aggregated_at to compare (${k.unsettled ?? when})`)], keep: false };
  // An aggregation still running is neither a refresh seen nor one missed: read it another night.
  if (unsettled) return { results: lastRead ? [result(k.kind, 'inconclusive', `${unsettled} (${when})`)] : [], keep: !lastRead };
  if (k.kind === 'refresh') {
    if (moved) return { results: [result('refresh', 'verified', `refreshed: ${when}`)], keep: false };
    if (elapsed >= DAY_MS + REFRESH_SLACK_MS) return { results: [result('refresh', 'failed', `not refreshed a day later: ${when}`)], keep: false };
    return { results: lastRead ? [result('refresh', 'inconclusive', `a day has not passed yet: ${when}`)] : [], keep: !lastRead };
  }
  if (moved) return { results: [result('disabled', 'failed', `refreshed although its user is disabled: ${when}`)], keep: false };
  if (elapsed >= DAY_MS + REFRESH_SLACK_MS) return { results: [result('disabled', 'verified', `not refreshed, its user disabled: ${when}`)], keep: false };
  return { results: lastRead ? [result('disabled', 'inconclusive', `a day has not passed yet: ${when}`)] : [], keep: !lastRead };
}

function judgeRetries(
  k: Keeper,
  file: string,
  result: (w: keyof typeof LONG_RUNNING_RULES, v: LongRunningResult['verdict'], d: string) => LongRunningResult,
): LongRunningResult[] {
  const attempts = readDeliveryLog(file).filter((a) => a.marker === k.marker);
  if (!attempts.length)
    return [
      result(
        'retries',
        'inconclusive',
        `no delivery carrying ${k.marker} in ${file}: a receiver that refuses it must write there across the day (history/delivery-log.ts), at the URL configured at the vendor`,
      ),
    ];
  const byDelivery = new Map<string, number[]>();
  for (const a of attempts) (byDelivery.get(a.sha256) ?? byDelivery.set(a.sha256, []).get(a.sha256)!).push(a.at);
  const retries = [...byDelivery.values()].map((ats) => ats.length - 1);
  const spans = [...byDelivery.values()].map((ats) => Math.max(...ats) - Math.min(...ats));
  const shown = `${byDelivery.size} refused deliveries, retries ${retries.join(', ')}; the longest series spanned ${hours(Math.max(...spans))} on the receiver's clock`;
  const out: LongRunningResult[] = [];
  const over = retries.filter((r) => r > MAX_RETRIES).length;
  const none = retries.filter((r) => r === 0).length;
  if (over) out.push(result('retries', 'failed', `${over} delivery(ies) retried more than ${MAX_RETRIES} times: ${shown}`));
  else if (none) out.push(result('retries', 'failed', `${none} refused delivery(ies) never retried: ${shown}`));
  else out.push(result('retries', 'verified', `every refused delivery retried, none more than ${MAX_RETRIES} times: ${shown}`));
  if (!over) {
    const full = retries.filter((r) => r === MAX_RETRIES).length;
    out.push(
      full
        ? result('dropped', 'verified', `${full} delivery(ies) reached ${MAX_RETRIES} retries and came no more: ${shown}`)
        : result('dropped', 'inconclusive', `no delivery reached ${MAX_RETRIES} retries by tonight: ${shown}`),
    );
  }
  return out;
}

/**
 * Judges what the last nights left on this target, leaves tonight's keepers and deletes the
 * judged ones. Requests go straight to the platform with the profile's credentials (like
 * scenarios/cleanup.ts): no scenario, no contract verdict, only the rules above.
 */
export async function runKeepers(o: {
  profile: TargetProfile;
  historyDir: string;
  redactor: Redactor;
  deliveryLog: string;
  at?: Date;
  log?: (line: string) => void;
}): Promise<KeepersOutcome> {
  const log = o.log ?? (() => {});
  const none = (note: string): KeepersOutcome => {
    log(`nightly: long-running rules: ${note}`);
    return { results: [], note, updateIndex: () => {} };
  };
  if (o.profile.isSimulator) return none(`not observed: the ${EMBEDDED_TARGET} keeps nothing between runs (a target from SVC_BASE_URL does)`);
  if (!o.profile.allowDestructive)
    return none('not observed: this target is read-only (production without SVC_ALLOW_DESTRUCTIVE), and the rules need members left for a day');
  const target = targetName(o.profile.platformBaseUrl, false);
  const night = nightId(o.at ?? new Date());
  let t: Target;
  try {
    t = new Target(o.profile, o.redactor);
  } catch (e) {
    return none(`not observed: ${(e as Error).message}`);
  }
  const earlier = readIndex(o.historyDir).keepers.filter((k) => k.target === target);
  const left: Keeper[] = [];
  const results: LongRunningResult[] = [];
  try {
    for (const kind of ['refresh', 'disabled', 'webhooks'] as const) left.push(await leave(t, kind, night));
  } catch (e) {
    results.push({
      night,
      target,
      rows: [],
      rule: "leaving tonight's members for the next night",
      verdict: 'inconclusive',
      detail: o.redactor.text((e as Error).message),
    });
  }
  // The target's clock now: tonight's freshest aggregation.
  const nows = left.map((k) => (k.aggregatedAt ? Date.parse(k.aggregatedAt) : Number.NaN)).filter(Number.isFinite);
  const targetNow = nows.length ? Math.max(...nows) : Date.now();
  const kept: Keeper[] = [];
  for (const k of earlier) {
    try {
      const j = await judge(t, k, targetNow, o.deliveryLog, night);
      results.push(...j.results);
      if (j.keep) kept.push({ ...k, reads: (k.reads ?? 0) + 1 });
      else await t.send('DELETE', `/users/${k.userGuid}`);
    } catch (e) {
      results.push({
        night,
        target,
        rows: [],
        rule: `reading ${k.kind} member ${k.memberGuid}`,
        verdict: 'inconclusive',
        detail: o.redactor.text((e as Error).message),
      });
    }
  }
  log(`nightly: long-running rules: ${earlier.length} member(s) of earlier nights judged, ${left.length} left for the next night`);
  return {
    results,
    updateIndex: (ix) => {
      ix.keepers = [...ix.keepers.filter((k) => k.target !== target), ...kept, ...left];
    },
  };
}
