/**
 * The shape of a catalogue entry (targets/simulator/catalog.ts assembles the entries of
 * every area file of this folder, in order).
 */
export type CatalogArea =
  | 'auth'
  | 'versions'
  | 'members'
  | 'mfa'
  | 'oauth'
  | 'widgets'
  | 'identify'
  | 'institutions'
  | 'paging'
  | 'categories'
  | 'accounts'
  | 'transactions'
  | 'data-exchange'
  | 'ach-returns'
  | 'processor'
  | 'audience'
  | 'legacy'
  | 'webhooks'
  | 'rate-limit'
  | 'errors'
  | 'product-areas';

/**
 * How strongly the specification backs a fault (DESIGN.md, "Checks and failures"; contracts/failure.ts `Tier`):
 *   stated    the entry breaks a sentence of the specification: the suite fails on it as
 *             configured for any target;
 *   inferred  the entry breaks a reasonable expectation no sentence states (an unknown
 *             version refused, bad input never a 5xx, a header under a guessed name):
 *             the suite only warns unless the profile asks for it, so the self-test runs
 *             the entry with the profile setting in `env` (SVC_STRICT=1, or the header
 *             names set explicitly).
 * Variations have no tier: each is a freedom the specification leaves.
 */
export type CatalogTier = 'stated' | 'inferred';

/**
 * Why no single response of the API shows a fault, so the fuzz column (proof/fuzz.ts), which
 * judges each answer alone, leaves it out: it needs a browser, a webhook receiver, the clock,
 * or a comparison of several answers. The scenarios of its trace rows catch it.
 */
export type NotFuzzableReason = 'browser' | 'webhook' | 'time' | 'effect' | 'comparison' | 'not-shown' | 'unstated';

interface EntryBase {
  name: string;
  area: CatalogArea;
  /** Section of ../shared/specification.md (and the rule) that the entry breaks or plays. */
  section: string;
  /** One line: the deviation as a user would observe it. */
  description: string;
}

export interface FaultEntry extends EntryBase {
  kind: 'fault';
  /** Absent = stated. */
  tier?: CatalogTier;
  /**
   * Profile environment the self-test sets for this entry's runs (every suite kind):
   * what makes an inferred expectation gate (SVC_STRICT=1, SVC_DEPRECATION_HEADER=...), or
   * a simulator setting the fault needs to be seen at all (SVC_SIM_AGGREGATION_MS). The
   * entries with one are judged against the clean baseline under the union of them.
   */
  env?: Record<string, string>;
  /** Set when no single response shows the fault (the fuzz column leaves it out). */
  notFuzzable?: NotFuzzableReason;
  /** A fault's checks are its trace rows' (spec/trace.yaml), never tags of its own. */
  suites?: never;
}

export interface VariationEntry extends EntryBase {
  kind: 'variation';
  /** Which suites can notice it (see above); every one of them must pass under it. */
  suites: readonly string[];
  /**
   * The self-test runs it on its own suites only, never in the joint run with every other
   * variation: in force there it would slow every suite (a low rate limit), not test more.
   */
  alone?: true;
  tier?: never;
  env?: never;
  notFuzzable?: never;
}

export type CatalogEntry = FaultEntry | VariationEntry;
