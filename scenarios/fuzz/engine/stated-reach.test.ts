/**
 * stated-reach.ts: the reach pass's stated-parameter cases are
 * positive and stated, quote the sentence that names the parameter, and are sent only
 * where every path parameter names something that exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract } from '../../../contracts/index.ts';
import { operationsOf, reachCases, requestContext, type OperationSpec } from './requests.ts';
import { statedPlatformReach, INCLUDES_RULE, AGGREGATE_PARAMS_RULE, LOCALIZATION_RULE } from './stated-reach.ts';

const contract = loadContract();
const specs = operationsOf(contract, 'platform', 'v20250224');
const find = (key: string) => specs.find((s: OperationSpec) => s.key === key)!;
const known = { user_guid: ['USR-1'], member_guid: ['MBR-1'], insight_guid: ['BET-1'] };

test('transaction lists: one positive stated read per includes value; nothing without known identifiers', () => {
  const cases = statedPlatformReach(find('GET /users/{user_guid}/transactions'), { known });
  assert.deepEqual(
    cases.map((c) => c.query),
    [[['includes', 'repeating_transactions']], [['includes', 'merchants']], [['includes', 'classifications']], [['includes', 'geolocations']]],
  );
  for (const c of cases) {
    assert.equal(c.generated.kind, 'positive');
    assert.equal(c.generated.tier, 'stated');
    assert.equal(c.generated.rule, INCLUDES_RULE);
    assert.equal(c.path, '/users/USR-1/transactions');
  }
  assert.deepEqual(statedPlatformReach(find('GET /users/{user_guid}/transactions'), { known: {} }), []);
});

test('insight read and aggregate: localization_payload, include_holdings, include_transactions; part of reachCases', () => {
  const insight = statedPlatformReach(find('GET /users/{user_guid}/insights/{insight_guid}'), { known });
  assert.equal(insight.length, 1);
  assert.equal(insight[0].generated.rule, LOCALIZATION_RULE);
  const aggregate = find('POST /users/{user_guid}/members/{member_guid}/aggregate');
  const cases = statedPlatformReach(aggregate, { known });
  assert.deepEqual(
    cases.map((c) => c.query[0][0]),
    ['include_holdings', 'include_transactions'],
  );
  assert.ok(cases.every((c) => c.method === 'POST' && c.generated.rule === AGGREGATE_PARAMS_RULE));
  assert.ok(reachCases(aggregate, requestContext(contract), { known }).some((c) => c.generated.rule === AGGREGATE_PARAMS_RULE));
  assert.deepEqual(statedPlatformReach(find('GET /institutions'), { known }), []);
});
