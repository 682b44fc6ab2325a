/**
 * Product-area paths of the target profile (issue 12, item 15): the simulator profile
 * has every documented default; a real target has only the paths its SVC_PATH_*
 * variables set, so a scenario whose path is unset skips naming the variable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile, PRODUCT_PATH_DEFAULTS, PRODUCT_PATH_ENV } from './profile.ts';

test('the simulator profile serves every product path at its documented default', () => {
  assert.deepEqual(loadProfile({}).productPaths, PRODUCT_PATH_DEFAULTS);
});

test('a real target has only the product paths its variables set', () => {
  const p = loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_PATH_GOALS_REPOSITION: '/users/{user_guid}/goals/order' });
  assert.deepEqual(p.productPaths, { goalsReposition: '/users/{user_guid}/goals/order' });
});

test('each product path has one SVC_PATH_ variable in upper snake case', () => {
  assert.equal(PRODUCT_PATH_ENV.goalsReposition, 'SVC_PATH_GOALS_REPOSITION');
  assert.equal(PRODUCT_PATH_ENV.holdingsByMember, 'SVC_PATH_HOLDINGS_BY_MEMBER');
  assert.equal(new Set(Object.values(PRODUCT_PATH_ENV)).size, Object.keys(PRODUCT_PATH_DEFAULTS).length);
});

test('a deprecated version: the simulator names its own; a real target sets both variables or neither', () => {
  assert.deepEqual(loadProfile({}).versions.deprecated, { version: 'v20111101', on: '2026-09-29' });
  assert.equal(loadProfile({ SVC_BASE_URL: 'https://int.example' }).versions.deprecated, undefined);
  assert.deepEqual(loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_DEPRECATED_VERSION: 'v20111101', SVC_DEPRECATED_ON: '2026-01-15' }).versions.deprecated, { version: 'v20111101', on: '2026-01-15' });
  assert.throws(() => loadProfile({ SVC_BASE_URL: 'https://int.example', SVC_DEPRECATED_VERSION: 'v20111101' }), /go together/);
});
