/**
 * `x-svc-not-shown` is prose (spec/CONVENTIONS.md); notShownOf (contracts/model.ts) is its
 * one reader. Read on the real documents: each part is found where the words say it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract, notShownOf, type NotShown } from '../index.ts';

const contract = loadContract();
const NOTHING: NotShown = { path: false, request: false, method: false, queryParameter: false, otherProductArea: false };

function partsOf(method: string, path: string): NotShown {
  const doc = contract.document('platform', 'v20260929') as unknown as { paths: Record<string, Record<string, unknown>> };
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method.toUpperCase()} ${path} is documented`);
  return notShownOf(op);
}

test('each part of an operation the specification does not show is read from its words', () => {
  assert.deepEqual(partsOf('get', '/ach_returns'), { ...NOTHING, queryParameter: true });
  assert.deepEqual(partsOf('post', '/users'), { ...NOTHING, path: true, request: true });
  assert.deepEqual(partsOf('get', '/payment_account'), { ...NOTHING, method: true });
  assert.equal(partsOf('get', '/users/{user_guid}/members/{member_guid}').path, true);
  assert.deepEqual(notShownOf({}), NOTHING);
  assert.deepEqual(notShownOf(undefined), NOTHING);
  // Some operation belongs to the other product areas (Endpoints: "Paths and payloads of the other product areas ...: not shown").
  const doc = contract.document('platform', 'v20260929') as unknown as { paths: Record<string, Record<string, unknown>> };
  const areas = Object.values(doc.paths).flatMap((item) => Object.values(item).filter((op) => notShownOf(op).otherProductArea));
  assert.ok(areas.length > 0, 'no operation of the other product areas');
});
