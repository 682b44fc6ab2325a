/**
 * Verdicts that need an aggregation-type job running at the moment a request arrives
 * (Endpoints, identify behaviour: "when an identification is already running the
 * response status is 202; when another aggregation-type job (standard aggregation,
 * extended transaction history) is running the status is 409"). No job duration and no
 * response time is stated, and a real service answers in tens to thousands of
 * milliseconds (real-service-notes, Latency): a request sent "right after" a job started
 * may arrive after it ended. So a scenario never assumes a job runs: it reads the
 * member's state (Resources, Member: is_being_aggregated "true while aggregation runs,
 * false once complete") and judges only what the reads prove. What they cannot prove is
 * inconclusive: annotated and skipped with the reason, never failed and never passed.
 *
 * Two facts make a read conclusive:
 *   - is_being_aggregated true: a job ran when the read arrived;
 *   - the profile's shortest job time (profile.timeouts.minJobMs, SVC_MIN_JOB_MS; the
 *     embedded simulator knows its own): an answer received sooner than that after the
 *     start request was SENT was processed while the job still ran, so a job not seen
 *     running by then never started, and a request answered by then arrived while it ran.
 * (Sent before the job started, answered after the later request was processed: the time
 * between the two on the target is shorter than the time measured here.)
 */
import { test, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import type { TargetProfile } from '../../targets/index.ts';
import { readMember } from '../steps/members.ts';
import { INCONCLUSIVE_ANNOTATION } from '../cleanup.ts';

/** Tries of a timing-inconclusive observation on a target known to answer inside its shortest job time. */
const JOB_ATTEMPTS = 3;

/** Where a user learns how to make such a verdict conclusive. */
export const MIN_JOB_HINT = 'setting SVC_MIN_JOB_MS (the shortest job this target runs, if you know it) lets a read answered sooner decide';

/** The scenario's verdict is undecided: annotated and skipped, with the reason. */
export function inconclusive(reason: string): never {
  test.info().annotations.push({ type: INCONCLUSIVE_ANNOTATION, description: reason });
  test.skip(true, `inconclusive: ${reason}`);
  throw new Error(`inconclusive: ${reason}`);
}

export interface JobStart {
  /** The start request's answer. */
  res: CheckedResponse;
  /** performance.now() when the start request was sent. */
  sentAt: number;
  /** Milliseconds from sending the start request to its answer. */
  answeredMs: number;
  /** The member read right after the answer showed is_being_aggregated true. */
  running: boolean;
  /** Milliseconds from sending the start request to the read's answer. */
  readMs: number;
}

/** Sends a job's start request, then reads the member at once (GET member: is_being_aggregated). */
export async function startAndRead(api: CheckedClient, user: string, member: string, start: () => Promise<CheckedResponse>): Promise<JobStart> {
  const sentAt = performance.now();
  const res = await start();
  const answeredMs = performance.now() - sentAt;
  const state = await readMember(api, user, member);
  return { res, sentAt, answeredMs, running: state.is_being_aggregated === true, readMs: performance.now() - sentAt };
}

/** Milliseconds since a job's start request was sent. */
export const since = (start: JobStart) => performance.now() - start.sentAt;

/** A job started by the request sent at `start` certainly still ran at a request answered `elapsedMs` after it was sent. */
export function insideShortestJob(profile: TargetProfile, elapsedMs: number): boolean {
  return profile.timeouts.minJobMs !== undefined && elapsedMs < profile.timeouts.minJobMs;
}

/**
 * Whether another try can decide what this one could not: only on a target whose start
 * request itself was answered inside its shortest job time (the late read was chance, a
 * busy machine). A target that answers later than that would make every try inconclusive.
 */
export function worthAnotherTry(profile: TargetProfile, start: JobStart, attempt: number): boolean {
  return attempt < JOB_ATTEMPTS && insideShortestJob(profile, start.answeredMs);
}
