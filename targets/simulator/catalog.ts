/**
 * The catalogue of named faults and variations (../shared/DESIGN.md, "Proving the
 * suite"). One table, one place: every entry names the specification section it
 * breaks (fault) or the Versioning rule that tolerates it (variation).
 *
 * A fault is one breaking deviation; the suite must catch each one. A variation is
 * one non-breaking change in the Versioning section's sense; the suite must pass it.
 * The self-test (npm run selftest) runs the suites against every entry; a fault that
 * no check catches, or a variation that raises an alarm, fails the project's tests.
 *
 * Which checks prove a fault is said once, by the rows of spec/trace.yaml whose `proven_by`
 * names it (their `verified_by` scenarios and side checks): the self-test runs the fault on
 * those alone (proof/plan.ts `planFault`). A variation's `suites` say which suites it can
 * affect, all of which must pass under it: tags of the Playwright scenarios (`@members`,
 * ...), `load:<script>`, `delivery` (webhook delivery conformance), `upgrade` (the
 * version-upgrade check), `*` (all).
 *
 * The entries live by area in targets/simulator/catalog/ (a new fault goes in its area's
 * file; a variation in variations.ts when the Versioning section calls it non-breaking, in
 * freedoms.ts when it plays a freedom the specification leaves); this file assembles them in
 * one order, the order of the self-test's matrix.
 */
import type { CatalogEntry, CatalogTier } from './catalog/entry.ts';
import { AUTH } from './catalog/auth.ts';
import { VERSIONS } from './catalog/versions.ts';
import { MEMBERS } from './catalog/members.ts';
import { OAUTH_WIDGETS } from './catalog/oauth-widgets.ts';
import { INSTITUTIONS } from './catalog/institutions.ts';
import { ACCOUNTS_TRANSACTIONS } from './catalog/accounts-transactions.ts';
import { DATA_EXCHANGE } from './catalog/data-exchange.ts';
import { ACH_PROCESSOR } from './catalog/ach-processor.ts';
import { AUDIENCE_LEGACY } from './catalog/audience-legacy.ts';
import { RATE_LIMIT_ERRORS } from './catalog/rate-limit-errors.ts';
import { PRODUCT_AREAS } from './catalog/product-areas.ts';
import { WEBHOOKS } from './catalog/webhooks.ts';
import { VERSIONING_VARIATIONS } from './catalog/variations.ts';
import { FREEDOMS } from './catalog/freedoms.ts';

export type { CatalogEntry, CatalogTier, FaultEntry, NotFuzzableReason, VariationEntry } from './catalog/entry.ts';

/**
 * `as const`: the names are a type (`FaultName`, `VariationName`), so `ctx.fault('…')` with a
 * name the catalogue does not hold is a compile error, not a fault that silently never fires.
 */
export const CATALOG = [
  ...AUTH,
  ...VERSIONS,
  ...MEMBERS,
  ...OAUTH_WIDGETS,
  ...INSTITUTIONS,
  ...ACCOUNTS_TRANSACTIONS,
  ...DATA_EXCHANGE,
  ...ACH_PROCESSOR,
  ...AUDIENCE_LEGACY,
  ...RATE_LIMIT_ERRORS,
  ...PRODUCT_AREAS,
  ...WEBHOOKS,
  ...VERSIONING_VARIATIONS,
  ...FREEDOMS,
] as const satisfies readonly CatalogEntry[];

export type FaultName = Extract<(typeof CATALOG)[number], { kind: 'fault' }>['name'];
export type VariationName = Extract<(typeof CATALOG)[number], { kind: 'variation' }>['name'];

export const FAULTS = () => CATALOG.filter((e) => e.kind === 'fault');
export const VARIATIONS = () => CATALOG.filter((e) => e.kind === 'variation');

/** A fault's tier (absent = stated); undefined for variations. */
export function tierOfEntry(e: CatalogEntry): CatalogTier | undefined {
  return e.kind === 'fault' ? (e.tier ?? 'stated') : undefined;
}

export function catalogEntry(name: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.name === name);
}

/**
 * A fault name computed at run time (one fault per field, say), checked against the catalogue
 * once, so a computed name that is not catalogued fails at start rather than never firing.
 */
export function faultNamed(name: string): FaultName {
  const entry = catalogEntry(name);
  if (entry?.kind !== 'fault') throw new Error(`${name} is not a fault of targets/simulator/catalog.ts`);
  return name as FaultName;
}

/** Refuses unknown names with a clear message rather than silently running clean. */
export function assertKnown(names: readonly string[]): void {
  const unknown = names.filter((n) => !catalogEntry(n));
  if (unknown.length) {
    throw new Error(`Unknown fault/variation name(s): ${unknown.join(', ')}. See targets/simulator/catalog.ts`);
  }
}
