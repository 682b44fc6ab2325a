import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TransportError } from '../targets/index.ts';
import { kindOf, recordTransportFailure, transportStop } from './fixtures/transport-stop.ts';

test('the run stops for a target after N transport failures of one kind, naming the first in full; other kinds and targets count apart', () => {
  delete process.env.SVC_RUN_LEDGER_DIR;
  const profile = { limits: { maxBodyBytes: 1, maxTransportFailures: 3 } };
  const stall = (n: number) => new TransportError(`GET http://a.example/x${n}: no response headers arrived within 10 ms`, 'UND_ERR_HEADERS_TIMEOUT');
  assert.equal(kindOf('DEADLINE'), 'stall');
  assert.equal(kindOf('ECONNRESET'), 'reset');
  recordTransportFailure('http://a.example/x', stall(1));
  recordTransportFailure('http://a.example/x', new TransportError('reset', 'ECONNRESET'));
  recordTransportFailure('http://b.example/x', stall(2));
  recordTransportFailure('http://a.example/y', stall(3));
  assert.equal(transportStop(profile, 'http://a.example/z'), undefined, 'two stalls and a reset on a.example: not yet');
  recordTransportFailure('http://a.example/x', stall(4));
  const why = transportStop(profile, 'http://a.example/anything');
  assert.match(
    why ?? '',
    /^the run stopped after 3 transport failures of one kind \(stall\) on a\.example \(SVC_MAX_TRANSPORT_FAILURES=3\); the first: GET http:\/\/a\.example\/x1: no response headers/,
  );
  assert.equal(transportStop(profile, 'http://b.example/'), undefined, 'another target');
  assert.equal(transportStop({ limits: { maxBodyBytes: 1, maxTransportFailures: 0 } }, 'http://a.example/'), undefined, '0 never stops');
});
