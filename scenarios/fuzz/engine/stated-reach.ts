/**
 * Reach cases for stated platform properties one response shows:
 * requests a random draw among dozens reaches rarely, sent once per operation by the
 * reach pass (requests.ts reachCases). Each is a positive case: the specification names
 * the parameter and its value, so a refusal breaks the quoted sentence (positive_data_acceptance,
 * stated), and contracts/stated-platform.ts judges what the answer carries.
 *
 *   - transaction reads with each `includes` value ("Optional includes query value returns
 *     repeating_transactions, merchants, classifications, geolocations");
 *   - insight reads with `includes=localization_payload` ("an opt-in localization_payload
 *     object requested with ?includes=localization_payload");
 *   - aggregate member with `include_holdings` / `include_transactions` ("Aggregate member
 *     accepts optional query parameters include_holdings and include_transactions"), on the
 *     member the chains created (a 429, the throttle period, decides nothing).
 */
import type { FuzzCase, KnownIds, OperationSpec } from './requests.ts';

export const INCLUDES_RULE = 'Resources, Transaction: "Optional includes query value returns repeating_transactions, merchants, classifications, geolocations"';
export const LOCALIZATION_RULE = 'Resources, Insight: "an opt-in localization_payload object requested with ?includes=localization_payload"';
export const AGGREGATE_PARAMS_RULE =
  'Endpoints, Widgets and members: "Aggregate member accepts optional query parameters include_holdings and include_transactions"';

const TRANSACTION_INCLUDES = ['repeating_transactions', 'merchants', 'classifications', 'geolocations'] as const;
const P = '\\{[^}]+\\}';
const TRANSACTION_READS = new RegExp(`^/users/${P}(/(accounts|members)/${P})?/transactions(/${P})?$`);
const INSIGHT_READS = new RegExp(`^/users/${P}/insights(/${P})?$`);
const AGGREGATE = new RegExp(`^/users/${P}/members/${P}/aggregate$`);

/** The case's path with the first known value of each path parameter, or undefined when one is unknown. */
function knownPath(spec: OperationSpec, known: KnownIds): { path: string; names: string } | undefined {
  const names: string[] = [];
  let missing = false;
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = known[name]?.[0];
    if (v === undefined) {
      missing = true;
      return 'x';
    }
    names.push(`${name}=${v}`);
    return encodeURIComponent(v);
  });
  return missing ? undefined : { path, names: names.join(', ') };
}

function positive(spec: OperationSpec, path: string, query: Array<[string, string]>, rule: string, what: string): FuzzCase {
  return {
    api: spec.api,
    version: spec.version,
    method: spec.method,
    path,
    query,
    headers: {},
    auth: 'default',
    operation: spec.key,
    generated: { kind: 'positive', tier: 'stated', rule, what },
  };
}

/** The stated-parameter cases of one operation (none for most). */
export function statedPlatformReach(spec: OperationSpec, o: { known: KnownIds }): FuzzCase[] {
  if (spec.api !== 'platform' || spec.sunset) return [];
  const declared = (name: string) => spec.params.some((p) => p.in === 'query' && p.name === name);
  if (spec.method === 'GET' && TRANSACTION_READS.test(spec.path) && declared('includes')) {
    const at = knownPath(spec, o.known);
    if (!at) return [];
    return TRANSACTION_INCLUDES.map((v) => positive(spec, at.path, [['includes', v]], INCLUDES_RULE, `a read of existing ${at.names} with includes=${v}`));
  }
  if (spec.method === 'GET' && INSIGHT_READS.test(spec.path) && declared('includes')) {
    const at = knownPath(spec, o.known);
    if (!at) return [];
    return [
      positive(spec, at.path, [['includes', 'localization_payload']], LOCALIZATION_RULE, `a read of existing ${at.names} with includes=localization_payload`),
    ];
  }
  if (spec.method === 'POST' && AGGREGATE.test(spec.path)) {
    const at = knownPath(spec, o.known);
    if (!at) return [];
    return ['include_holdings', 'include_transactions']
      .filter(declared)
      .map((name) => positive(spec, at.path, [[name, 'true']], AGGREGATE_PARAMS_RULE, `an aggregation of existing ${at.names} with ${name}=true`));
  }
  return [];
}
