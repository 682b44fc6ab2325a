/**
 * The ACH return create request in its stated form (Resources, "ACH return (create
 * request)") and its create (Endpoints, ACH returns: "POST /ach_returns ... status 200"),
 * shared by the ACH return and near-miss scenarios.
 *
 * Every request names a user, member and account that really exist (the vendor's
 * reference requires them: real-service-notes, "Request shapes"), so a refusal of a
 * malformed or near-miss request is about the one value varied. ACH returns have no
 * delete operation (Endpoints, ACH returns: GET and POST only): each carries the suite's
 * `svcct-` id, so what a run leaves is recognisable.
 */
import type { CheckedClient } from '../fixtures.ts';
import { uniqueId } from './users.ts';

/** The identifiers an ACH return names: a user, its connected member and one of the member's accounts. */
export interface AchIdentifiers {
  user: string;
  member: string;
  account: string;
}

/**
 * Every field of the create request in its stated format, the whole of it: a decimal
 * amount, timestamps with a non-UTC offset, four digits as a string, a fresh suite id.
 */
export function achReturn(ids: AchIdentifiers) {
  return {
    account_guid: ids.account,
    account_number_last_four: '1234',
    ach_initiated_at: '2026-01-05T10:00:00+00:00',
    id: uniqueId('scn-ach'),
    member_guid: ids.member,
    return_code: 'R01',
    returned_at: '2026-01-07T09:30:00-05:00',
    sec_code: 'PPD',
    transaction_amount: 42.5,
    transaction_amount_range: 2,
    user_guid: ids.user,
  };
}

/** Endpoints, ACH returns: "POST /ach_returns ... response ACH return; status 200". */
export const createAch = (api: CheckedClient, body: Record<string, unknown>) => api.post('/ach_returns', { ach_return: body }, { expectStatus: 200 });
