/**
 * A member's connection states (States and transitions): waiting for aggregation to
 * settle, answering challenges and resuming a challenged member.
 */
import type { TargetProfile } from '../../targets/index.ts';
import { requireSetting, type CheckedClient, type Poll } from '../fixtures.ts';
import { type MemberStatus, readStatus } from './members.ts';
import { ANY_2XX } from './responses.ts';

/**
 * States and transitions: "In the test institution, scenario credentials yield end
 * states: success leads to CONNECTED; invalid or locked credentials lead to DENIED;
 * missing credentials, a server error or an unavailable institution lead to HALTED."
 */
const END_STATES = ['CONNECTED', 'HALTED', 'DENIED'] as const;

/**
 * When a status read counts as settled:
 *  - CHALLENGED with challenges: the member waits for answers (Endpoints, status: "when
 *    MFA is required the response has a challenges array"), whatever
 *    is_being_aggregated says (the specification does not tie it to CHALLENGED);
 *  - an end state of the test institution (END_STATES) once is_being_aggregated is no
 *    longer true (Resources, Member: "true while aggregation runs, false once
 *    complete"; a null is not "true").
 * Any other connection_status (PENDING, and the many values a real service has beyond
 * the specification's list: real-service-notes, "Enumerations") is "not settled yet".
 */
function isSettled(s: MemberStatus): boolean {
  if (s.connection_status === 'CHALLENGED' && (s.challenges?.length ?? 0) > 0) return true;
  return (END_STATES as readonly string[]).includes(s.connection_status) && s.is_being_aggregated !== true;
}

/**
 * Polls the status until it settles (isSettled). Returns every status seen, so
 * scenarios can assert the intermediate states. On timeout the message lists every
 * connection_status seen (with is_being_aggregated) and the end states awaited.
 */
export async function waitUntilSettled(api: CheckedClient, poll: Poll, userGuid: string, memberGuid: string, version?: string) {
  const statuses: string[] = [];
  const read = async () => {
    const s = await readStatus(api, userGuid, memberGuid, version);
    const label = `${JSON.stringify(s.connection_status)}${s.is_being_aggregated === true ? ' (aggregating)' : ''}${s.challenges?.length ? ` (${s.challenges.length} challenges)` : ''}`;
    if (statuses.at(-1) !== label) statuses.push(label);
    // Endpoints, status: "when MFA is required the response has a challenges array". A
    // CHALLENGED member whose aggregation is over (is_being_aggregated false) waits for
    // answers, so MFA is required: without challenges it can never be answered. Said at
    // the read that shows it, rather than after waiting out the bound for a state that
    // cannot come. (While it aggregates, a CHALLENGED read without challenges is still
    // "not settled yet": the next challenge set may be on its way.) A plain throw, not
    // expect(): this runs on every poll, and each expect() is a reported step.
    if (s.connection_status === 'CHALLENGED' && s.is_being_aggregated === false && (s.challenges?.length ?? 0) === 0) {
      throw new Error(
        `member ${memberGuid} is CHALLENGED with is_being_aggregated false and no challenges array (connection_status seen, in order: ${statuses.join(' → ')}); ` +
          'Endpoints, status: "when MFA is required the response has a challenges array"',
      );
    }
    return s;
  };
  try {
    return await poll(read, isSettled, { what: `member ${memberGuid} to finish aggregating` });
  } catch (error) {
    if (!/Timed out/.test((error as Error).message)) throw error;
    throw new Error(
      `${(error as Error).message}\n  connection_status seen, in order: ${statuses.join(' → ') || 'none'}\n` +
        `  awaited: one of ${END_STATES.join(', ')} with is_being_aggregated no longer true, or CHALLENGED with a challenges array ` +
        '(States and transitions; other values count as not settled yet)',
    );
  }
}

/** Answers every challenge of a status: the correct answer, or a wrong one. */
export function answersFor(profile: TargetProfile, status: MemberStatus, right: boolean) {
  const answer = requireSetting(profile.testInstitution.correctAnswer, 'SVC_CORRECT_ANSWER');
  return (status.challenges ?? []).map((c) => {
    if (c.options?.length) {
      // Option-list MFA: "choose the correct option". The correct option is the one whose
      // value or label is the correct-answer word; a wrong answer picks another.
      const correct = c.options.find((o) => o.value === answer || o.label === answer) ?? c.options[0];
      const chosen = right ? correct : (c.options.find((o) => o !== correct) ?? { value: `wrong-${answer}` });
      return { guid: c.guid, value: chosen.value ?? chosen.guid ?? chosen.label };
    }
    return { guid: c.guid, value: right ? answer : `wrong-${answer}` };
  });
}

/** Resume body `{member: {challenges: [{guid, value}]}}` (real-service-notes, "Request shapes"); its status is not shown: any 2xx. */
export async function resume(api: CheckedClient, userGuid: string, memberGuid: string, challenges: unknown[], version?: string) {
  return api.put(`/users/${userGuid}/members/${memberGuid}/resume`, { member: { challenges } }, { version, expectStatus: ANY_2XX });
}
