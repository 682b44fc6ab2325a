/**
 * A failure's location has one format, written by locationOf / locationAt and read back by
 * stepsOf (contracts/failure.ts): the reference's lookups (contradictions.ts, reference.ts)
 * read the steps a check wrote, never a second parser of their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locationAt, locationOf, normaliseLocation, stepsOf } from '../failure.ts';

test('every location locationOf writes reads back to the same steps', () => {
  const cases: [string, string | undefined, string][] = [
    ['/institutions/3/code', undefined, 'response.body.institutions[3].code'],
    ['/members/0', 'a b', 'response.body.members[0]["a b"]'],
    ['/we~1ird/007', 'say "hi"', 'response.body["we/ird"]["007"]["say \\"hi\\""]'],
    ['', 'guid', 'response.body.guid'],
    ['/x~0y/[0]', undefined, 'response.body["x~y"]["[0]"]'],
  ];
  for (const [pointer, extra, expected] of cases) {
    const location = locationOf('response.body', pointer, extra);
    assert.equal(location, expected);
    const steps = stepsOf(location, 'response.body');
    assert.ok(steps, location);
    assert.equal(locationAt('response.body', steps), location);
  }
  assert.deepEqual(stepsOf('response.body.institutions[3]["a b"]', 'response.body'), [{ key: 'institutions' }, { index: 3 }, { key: 'a b' }]);
  assert.deepEqual(stepsOf(normaliseLocation('response.body.institutions[3].code'), 'response.body'), [
    { key: 'institutions' },
    { anyIndex: true },
    { key: 'code' },
  ]);
});

test('a text not in the format, or under another prefix, has no steps', () => {
  assert.equal(stepsOf('response.headers.x-id', 'response.body'), undefined);
  assert.equal(stepsOf('response.body.a b', 'response.body'), undefined);
  assert.equal(stepsOf('response.body[unquoted]', 'response.body'), undefined);
  assert.deepEqual(stepsOf('response.body', 'response.body'), []);
});
