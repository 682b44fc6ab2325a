/**
 * The aggregation engine: test-institution scenarios, MFA challenges, aggregation-type
 * jobs on the simulator clock, the data a successful aggregation creates, and the
 * 24-hour refresh.
 *
 * Scenario (Endpoints, "Earlier-generation test paths", test-institution table): the
 * password credential selects it; the passwords are settings (the specification shows
 * placeholders). A password that matches no scenario is treated as invalid credentials.
 *
 * States (States and transitions, Member connection_status). The specification's table
 * and end states are followed; transitions it does not show are the simulator's choice:
 * - success (and any scenario once its MFA is passed): `CONNECTED` at once with
 *   `is_being_aggregated` true, false when the job completes ("aggregation has begun").
 * - every other scenario: `PENDING` with `is_being_aggregated` true while the
 *   institution is asked, then its end state (`DENIED`, `HALTED`) or `CHALLENGED`.
 * - `CHALLENGED`: `is_being_aggregated` false (the job waits for answers, nothing runs);
 *   `challenges` on the status read. A correct answer starts the job again; the text
 *   scenario then returns a follow-up challenge ("first challenge, then a follow-up"),
 *   the others connect. A wrong answer ends in `DENIED` (the simulator's choice; the
 *   specification does not show it).
 * - `aggregated_at` stays null until the first job completes (Resources, Member), then
 *   records every completed aggregation attempt; `successfully_aggregated_at` only
 *   successful ones.
 *
 * Jobs: one at a time per member; each runs `settings.aggregationMs` milliseconds.
 * Throttle (Limits, "aggregation throttle"): an explicit standard aggregation request
 * starts a throttle period of `aggregationThrottleMs` simulator milliseconds, during
 * which further standard aggregation requests answer 429 `aggregation_throttled`;
 * extended history, verification and identification are never throttled.
 *
 * 24-hour refresh (What the service does; Limits): a CONNECTED member whose last
 * successful aggregation is 24 simulator hours old gets a background aggregation
 * (`is_background` true), unless its user is disabled. It runs when the clock moves
 * (POST /_sim/clock, POST /_sim/refresh) and lazily on member, account and transaction reads.
 */
import type { SimContext } from '../context.ts';
import type { ChallengeRecord, JobRecord, JobType, MemberRecord, ScenarioKey } from './records.ts';
import { coreState, DAY_MS, isoNow, userIdOf } from './store.ts';
import { emitMember, emitTyped, setStatus } from './events.ts';
import { aggregateData, identifyOwners, verifyAccounts } from './feed.ts';
import { SIMULATOR_DEFAULTS } from '../settings.ts';

/** Default throttle period (simulator milliseconds): one hour. Not shown in the specification. */
const DEFAULT_THROTTLE_MS = SIMULATOR_DEFAULTS.aggregationThrottleMs;

const MFA_SCENARIOS: ReadonlySet<ScenarioKey> = new Set(['CHALLENGE', 'OPTIONS', 'IMAGE', 'IMAGE_OPTIONS']);

export function throttleMs(ctx: SimContext): number {
  return ctx.settings.aggregationThrottleMs ?? DEFAULT_THROTTLE_MS;
}

/** The scenario the credentials select: the value that equals a configured password. */
export function scenarioOf(ctx: SimContext, values: string[]): ScenarioKey {
  for (const [key, password] of Object.entries(ctx.settings.passwords)) {
    if (values.includes(password)) return key as ScenarioKey;
  }
  return 'UNKNOWN_PASSWORD';
}

type Outcome = 'CONNECTED' | 'CHALLENGED' | 'DENIED' | 'HALTED';

function outcomeOf(ctx: SimContext, m: MemberRecord): Outcome {
  if (m.is_oauth || m.is_managed) return 'CONNECTED';
  switch (m.scenario) {
    case 'SUCCESS':
      return 'CONNECTED';
    case 'CHALLENGE':
    case 'OPTIONS':
    case 'IMAGE':
    case 'IMAGE_OPTIONS':
      return m.mfaPassed ? 'CONNECTED' : 'CHALLENGED';
    case 'BAD_REQUEST':
    case 'SERVER_ERROR':
    case 'UNAVAILABLE':
      return ctx.fault('halted-reported-as-denied') ? 'DENIED' : 'HALTED';
    case 'LOCKED':
      return ctx.fault('locked-reported-as-connected') ? 'CONNECTED' : 'DENIED';
    default:
      return 'DENIED';
  }
}

/** Whether the credentials are accepted at once (the job begins as CONNECTED). */
function acceptedAtStart(ctx: SimContext, m: MemberRecord): boolean {
  return outcomeOf(ctx, m) === 'CONNECTED';
}

/** A 1x1 PNG: the image of the image challenges (no external assets). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The challenge set of the member's scenario and round (test-institution table). */
function buildChallenges(ctx: SimContext, m: MemberRecord): ChallengeRecord[] {
  const right = ctx.settings.correctAnswer;
  const option = (label: string, value: string, image = false) => ({ guid: ctx.guid('CIO'), label, value, ...(image ? { data_uri: PIXEL } : {}) });
  switch (m.scenario) {
    case 'CHALLENGE':
      return [
        m.challengeRound === 0
          ? { guid: ctx.guid('CRD'), type: 'text', label: 'What city were you born in?', answer: right }
          : { guid: ctx.guid('CRD'), type: 'text', label: 'What is the name of your first pet? (follow-up)', answer: right },
      ];
    case 'OPTIONS':
      return [
        {
          guid: ctx.guid('CRD'),
          type: 'options',
          label: 'Choose the correct option',
          answer: right,
          options: [option('wrong-1', 'wrong-1'), option(right, right), option('wrong-2', 'wrong-2')],
        },
      ];
    case 'IMAGE':
      return [{ guid: ctx.guid('CRD'), type: 'image', label: 'Type the word shown in the image', answer: right, image_data: PIXEL }];
    case 'IMAGE_OPTIONS':
      return [
        {
          guid: ctx.guid('CRD'),
          type: 'image_options',
          label: 'Choose the correct image',
          answer: right,
          options: [option('wrong-1', 'wrong-1', true), option(right, right, true)],
        },
      ];
    default:
      return [];
  }
}

/** Rounds of challenges before the scenario connects (text MFA has a follow-up). */
function roundsOf(ctx: SimContext, m: MemberRecord): number {
  if (m.scenario === 'CHALLENGE') return ctx.fault('follow-up-challenge-missing') ? 1 : 2;
  return MFA_SCENARIOS.has(m.scenario) ? 1 : 0;
}

export interface JobOptions {
  isBackground?: boolean;
  includeTransactions?: boolean;
  includeHoldings?: boolean;
  skipWebhook?: boolean;
  /**
   * What started the job, for the variation intermediate-connection-statuses: the
   * member reads CREATED / RESUMED / UPDATED while the institution is asked.
   */
  cause?: 'create' | 'resume' | 'update';
  /**
   * The job runs on until the client has read the member twice since it started (READS_SEEN),
   * however long that takes (bounded by READ_HOLD_BOUND_MS): the jobs a client asks for by
   * name (aggregate, extended history, identify), whose running state the identify rules judge.
   */
  heldForReads?: boolean;
}

/**
 * Endpoints, identify behaviour: 202 "when an identification is already running", 409 "when
 * another aggregation-type job ... is running". A client can tell that only by reading the
 * member while the job runs and then asking again; how long the simulator's job lasts must not
 * decide whether its verdict is reached (real-service-notes, Latency: real jobs run for seconds to
 * minutes). So a job asked for by name ends only after two reads of the member have shown it
 * running, whatever the pace of the client and the machine; a client that never reads it sees it
 * end after the bound.
 */
const READS_SEEN = 2;
const READ_HOLD_BOUND_MS = 3_000;
interface ReadHold {
  job: JobRecord;
  reads: number;
  due: boolean;
}
const readHolds = new WeakMap<MemberRecord, ReadHold>();

const INTERMEDIATE_STATUS = { create: 'CREATED', resume: 'RESUMED', update: 'UPDATED' } as const;

/**
 * Variation intermediate-connection-statuses: the intermediate status is held until a read
 * has shown it, so the variation is what a client meets whatever its pace (a client that
 * polls 40 ms after create met CONNECTED on a loaded machine and passed by luck). A read is
 * a GET of the member, of its status, of the user's members or the widget's member (memberRead);
 * the answer of the write that started the job is not one: a client that judges status
 * polls only would otherwise meet the status or not by its pace. The job settles no sooner
 * than that read, and at the latest after INTERMEDIATE_HOLD_BOUND_MS when nobody reads the
 * member (a scenario that waits for webhooks only).
 */
interface IntermediateHold {
  job: JobRecord;
  status: string;
  accepted: boolean;
  seen: boolean;
  halfway: boolean;
  settleWhenSeen: boolean;
}
const intermediateHolds = new WeakMap<MemberRecord, IntermediateHold>();
const INTERMEDIATE_HOLD_BOUND_MS = 2_000;

function advanceIntermediate(ctx: SimContext, m: MemberRecord, hold: IntermediateHold): void {
  if (m.job !== hold.job || !hold.seen) return;
  if (hold.settleWhenSeen) settle(ctx, m, hold.job);
  else if (hold.halfway && hold.accepted && m.connection_status === hold.status) setStatus(ctx, m, 'CONNECTED');
}

/** A client's read of the member has shown its current state (the GET routes call it after rendering it). */
export function memberRead(ctx: SimContext, m: MemberRecord): void {
  const hold = intermediateHolds.get(m);
  if (!hold || m.job !== hold.job) return;
  hold.seen = true;
  advanceIntermediate(ctx, m, hold);
}

/**
 * A client read the member (GET of the member or of its status; not the answer of a write,
 * which renders the member too): a job held for reads counts it, and ends once it was read
 * twice and its time is up. Routes call it after rendering, so the read itself still shows it.
 */
export function memberReadByClient(ctx: SimContext, m: MemberRecord): void {
  const r = readHolds.get(m);
  if (!r || m.job !== r.job) return;
  r.reads++;
  if (r.due && r.reads >= READS_SEEN) settle(ctx, m, r.job);
}

/** Variation slow-aggregation: jobs run four times as long (their duration is not stated). */
function jobDurationMs(ctx: SimContext): number {
  return ctx.settings.aggregationMs * (ctx.variation('slow-aggregation') ? 4 : 1);
}

/** Starts an aggregation-type job; the caller has checked that none runs. */
export function startJob(ctx: SimContext, m: MemberRecord, type: JobType, opts: JobOptions = {}): JobRecord {
  const job: JobRecord = {
    guid: ctx.guid('JOB'),
    type,
    isBackground: opts.isBackground ?? false,
    startedAtMs: ctx.clock.nowMs(m.user_guid),
    includeTransactions: opts.includeTransactions ?? true,
    includeHoldings: opts.includeHoldings ?? true,
  };
  m.job = job;
  m.is_being_aggregated = true;
  // Variation intermediate-connection-statuses (States and transitions: other transitions
  // "not shown"; real-service-notes, Enumerations): CREATED / RESUMED / UPDATED first; an
  // accepted member turns CONNECTED half-way through the job (is_being_aggregated still true).
  const intermediate = opts.cause && !m.is_oauth && ctx.variation('intermediate-connection-statuses') ? INTERMEDIATE_STATUS[opts.cause] : undefined;
  let hold: IntermediateHold | undefined;
  if (type === 'aggregation' || type === 'history') {
    const accepted = acceptedAtStart(ctx, m);
    if (intermediate) {
      setStatus(ctx, m, intermediate);
      hold = { job, status: intermediate, accepted, seen: false, halfway: false, settleWhenSeen: false };
      intermediateHolds.set(m, hold);
      const h = hold;
      ctx.later(Math.floor(jobDurationMs(ctx) / 2), () => {
        h.halfway = true;
        advanceIntermediate(ctx, m, h);
      });
    } else if (accepted) setStatus(ctx, m, 'CONNECTED');
    else if (m.connection_status !== 'CHALLENGED' || m.challenges.length === 0) setStatus(ctx, m, 'PENDING');
    m.challenges = [];
  }
  emitMember(ctx, m, 'updated', opts.skipWebhook);
  if (opts.heldForReads) readHolds.set(m, { job, reads: 0, due: false });
  ctx.later(jobDurationMs(ctx), () => {
    const r = readHolds.get(m);
    if (r && r.job === job && r.reads < READS_SEEN) {
      r.due = true;
      ctx.later(READ_HOLD_BOUND_MS, () => settle(ctx, m, job));
      return;
    }
    if (hold && !hold.seen) {
      hold.settleWhenSeen = true;
      ctx.later(INTERMEDIATE_HOLD_BOUND_MS, () => settle(ctx, m, job));
      return;
    }
    settle(ctx, m, job);
  });
  return job;
}

function settle(ctx: SimContext, m: MemberRecord, job: JobRecord): void {
  const state = coreState(ctx);
  if (state.members.get(m.guid) !== m || m.job !== job) return; // deleted or superseded
  m.job = null;
  const now = isoNow(ctx, m.user_guid);
  if (job.type === 'aggregation' || job.type === 'history') {
    const outcome = outcomeOf(ctx, m);
    if (outcome === 'CHALLENGED') {
      m.challenges = buildChallenges(ctx, m);
      setStatus(ctx, m, 'CHALLENGED');
      // Variation aggregating-while-challenged: is_being_aggregated while CHALLENGED is not stated.
      m.is_being_aggregated = ctx.variation('aggregating-while-challenged');
      emitMember(ctx, m, 'updated');
      return;
    }
    setStatus(ctx, m, outcome);
    m.aggregated_at = now;
    if (outcome === 'CONNECTED') {
      m.successfully_aggregated_at = now;
      aggregateData(ctx, m, job);
      if (m.products?.includes('account_verification')) verifyAccounts(ctx, m);
      if (m.products?.includes('identity_verification')) identifyOwners(ctx, m);
    }
    emitTyped(ctx, 'aggregation', 'completed', {
      job_guid: ctx.fault('aggregation-webhook-missing-job-guid') ? undefined : job.guid,
      is_background: job.isBackground,
      user_id: ctx.fault('aggregation-webhook-user-id-is-guid') ? m.user_guid : userIdOf(ctx, m.user_guid),
      user_guid: m.user_guid,
      member_guid: m.guid,
      member_id: m.id,
      connection_status: m.connection_status,
      started_at: Math.floor(job.startedAtMs / 1000),
      completed_at: ctx.clock.nowEpochSeconds(m.user_guid),
      completed_on: ctx.clock.today(m.user_guid),
    });
    if (outcome === 'CONNECTED') {
      const inner: Record<string, unknown> = {
        member_guid: m.guid,
        user_guid: m.user_guid,
        user_id: userIdOf(ctx, m.user_guid),
        job_guid: job.guid,
        completed_at: ctx.clock.nowEpochSeconds(m.user_guid),
      };
      if (m.callbackPayload !== null && !ctx.fault('x-callback-payload-missing-in-member-webhook')) inner.x_callback_payload = m.callbackPayload;
      emitTyped(ctx, 'member_data_updated', 'updated', inner);
      if (job.type === 'history')
        emitTyped(ctx, 'history', 'completed', {
          job_guid: job.guid,
          member_guid: m.guid,
          user_guid: m.user_guid,
          completed_at: ctx.clock.nowEpochSeconds(m.user_guid),
        });
    }
  } else if (job.type === 'verification') {
    if (m.connection_status === 'CONNECTED') verifyAccounts(ctx, m);
  } else if (job.type === 'identification') {
    if (m.connection_status === 'CONNECTED') identifyOwners(ctx, m);
  }
  m.is_being_aggregated = ctx.fault('is-being-aggregated-stuck-true');
  emitMember(ctx, m, 'updated');
}

/** Answers MFA challenges (PUT .../resume). Returns false for a wrong answer. */
export function answerChallenges(ctx: SimContext, m: MemberRecord, answers: Map<string, string>, skipWebhook: boolean): boolean {
  const right = m.challenges.every((c) => {
    const given = answers.get(c.guid);
    return given === c.answer || (c.options?.some((o) => o.value === c.answer && o.guid === given) ?? false);
  });
  if (!right && !ctx.fault('wrong-answer-connects')) {
    m.challenges = [];
    setStatus(ctx, m, 'DENIED');
    m.aggregated_at = isoNow(ctx, m.user_guid);
    m.is_being_aggregated = false;
    emitMember(ctx, m, 'updated', skipWebhook);
    return false;
  }
  m.challengeRound += 1;
  if (m.challengeRound >= roundsOf(ctx, m)) m.mfaPassed = true;
  startJob(ctx, m, 'aggregation', { skipWebhook, cause: 'resume' });
  return true;
}

// ---- 24-hour refresh ----------------------------------------------------------------------

/**
 * Starts the background aggregations that are due; answers how many started.
 * `only` limits the pass to one user's members and judges them `elapsedMs` later than
 * the clock says (simulator control, below): scenarios age their own user without moving
 * the shared clock under scenarios running in parallel. Each member is judged on its
 * user's clock (SimClock: a user's clock may run ahead of the shared one).
 */
export function runDueRefreshes(ctx: SimContext, only?: { userGuid: string; elapsedMs: number }): number {
  if (ctx.fault('no-daily-refresh')) return 0;
  const state = coreState(ctx);
  const elapsedMs = only?.elapsedMs ?? 0;
  let started = 0;
  for (const m of state.members.values()) {
    if (only && m.user_guid !== only.userGuid) continue;
    if (m.is_manual || m.is_managed || m.job || m.connection_status !== 'CONNECTED' || !m.successfully_aggregated_at) continue;
    if (ctx.clock.nowMs(m.user_guid) + elapsedMs - Date.parse(m.successfully_aggregated_at) < DAY_MS) continue;
    const user = state.users.get(m.user_guid);
    if (user?.is_disabled && !ctx.fault('refresh-for-disabled-users')) continue;
    startJob(ctx, m, 'aggregation', { isBackground: true });
    started += 1;
  }
  return started;
}
