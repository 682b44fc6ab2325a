/**
 * What scenarios demand of a response's status and read from its body. Every call goes
 * through the checked client, so the contract checks each response; these only decide
 * what a scenario demands and return the fields it asserts on.
 *
 * Statuses: a helper demands an exact status only where the specification's Errors
 * table or an endpoint row states it ("200 normal success for reads, lists and ACH
 * return creation"; 201 for the data-exchange token). Everywhere else it accepts any
 * 2xx (ANY_2XX): the specification shows no status, and the vendor's reference
 * (../shared/real-service-notes.md, "Status codes") uses 200, 202 and 204.
 *
 * Fields: a helper reads what it needs through need(), which names the operation, the
 * status and what was missing when a target answers something unexpected (a truncated
 * body, an HTML error page) instead of a TypeError from deep inside a helper.
 */
import type { TargetProfile } from '../../targets/index.ts';
import { expect, type CheckedClient, type CheckedResponse } from '../fixtures.ts';
import { expectInferred } from '../inferred.ts';

/** Every success status (RFC 9110 2xx as a delivery rule lists them, Events rule 4): for operations whose status the specification does not show. */
export const ANY_2XX = [200, 201, 202, 203, 204, 205, 206];

export const is2xx = (status: number) => status >= 200 && status < 300;

/** The request line of a response, for messages ("POST /users/USR-… → 500"). */
function operationOf(api: CheckedClient | undefined, res: CheckedResponse): string {
  const exchange = api?.exchanges.findLast((e) => e.response.body === res.body && e.response.status === res.status);
  return exchange ? `${exchange.request.method} ${exchange.request.url.split('?')[0]}` : 'the request';
}

/**
 * The value at a dotted path of a response body (`need(res, 'member.guid')`), or a
 * clear error: which operation answered which status without it, and the start of the
 * body. Pass the client to name the operation.
 */
export function need<T = any>(res: CheckedResponse, path: string, api?: CheckedClient): T {
  let value: unknown = res.body;
  const walked: string[] = [];
  for (const key of path.split('.')) {
    walked.push(key);
    if (value === null || typeof value !== 'object' || !(key in (value as Record<string, unknown>))) {
      const shown = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      throw new Error(
        `${operationOf(api, res)} answered ${res.status} without ${walked.join('.')} (needed: ${path}); ` +
          `body ${typeof res.body === 'string' ? '(not JSON) ' : ''}starts: ${String(shown ?? '').slice(0, 200)}`,
      );
    }
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) {
    throw new Error(`${operationOf(api, res)} answered ${res.status} with ${path} = ${value}; the scenario needs a value there`);
  }
  return value as T;
}

/**
 * A request the specification says must not succeed (the stated part: not a 2xx),
 * and the usual form of that refusal as an inferred expectation (a 4xx; or the
 * statuses given): the specification shows no error status for it.
 */
export function expectRefused(
  profile: Pick<TargetProfile, 'strict'>,
  res: { status: number },
  label: string,
  o: { stated: string; inferred?: number[] | '4xx'; basis?: string } = { stated: '' },
): void {
  expect(is2xx(res.status), `${label} must be refused (${o.stated}); received ${res.status}`).toBe(false);
  const want = o.inferred ?? '4xx';
  const ok = want === '4xx' ? res.status >= 400 && res.status < 500 : want.includes(res.status);
  expectInferred(profile, ok, {
    expectation: `${label} is refused with ${want === '4xx' ? 'a 4xx' : want.join(' or ')}`,
    basis: o.basis ?? 'Errors: "Error codes per endpoint beyond those in the table: not shown"',
    received: String(res.status),
  });
}

/**
 * Whether a record carries a field a list only names (a resource table, "Fields named:
 * ..."): such a list is a list of names, not a presence guarantee, and absence follows the
 * same rule as null (../shared/real-service-notes.md, Nullability and required fields). An
 * absent field is an inferred finding (a warning; SVC_STRICT=1 fails it) and false, so the
 * caller judges the value only where the target serves the field; a field served and then
 * dropped is presence consistency's to find (contracts/invariants.ts). A null is the
 * caller's to judge, as before.
 */
export function carriesNamed(profile: Pick<TargetProfile, 'strict'>, record: unknown, field: string, what: string): boolean {
  const present = record !== null && typeof record === 'object' && Object.hasOwn(record, field);
  return expectInferred(profile, present, {
    expectation: `${what} carries ${field}`,
    basis:
      'the specification names the field without saying it is always present (../shared/real-service-notes.md, Nullability and required fields: "Absence follows the same rule as null")',
    received: 'no such field',
  });
}
