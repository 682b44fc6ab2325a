import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, isErrorBody, type Sim, withFault } from './testing.test-support.ts';

const VALID = {
  account_guid: 'ACT-0b4c8b7e-2f43-4f6a-9d4e-5c1f2a3b4c5d',
  account_number_last_four: '1234',
  ach_initiated_at: '2025-06-01T10:00:00-06:00',
  id: 'client-return-1',
  member_guid: 'MBR-0b4c8b7e-2f43-4f6a-9d4e-5c1f2a3b4c5d',
  return_code: 'R01',
  returned_at: '2025-06-03T09:30:00+00:00',
  sec_code: 'PPD',
  transaction_amount: 125.5,
  transaction_amount_range: 2,
  user_guid: 'USR-0b4c8b7e-2f43-4f6a-9d4e-5c1f2a3b4c5d',
};

/**
 * The user, member and account VALID names must exist (real-service-notes, Request
 * shapes; routes/ach-returns.ts): minimal records in the core collections stand in for
 * an aggregated member here (freedoms.test.ts creates real ones).
 */
function seedReferences(sim: Sim): void {
  sim.app.sim.collection<Record<string, unknown>>('users').set(VALID.user_guid, { guid: VALID.user_guid });
  sim.app.sim
    .collection<Record<string, unknown>>('members')
    .set(VALID.member_guid, { guid: VALID.member_guid, user_guid: VALID.user_guid, institution_code: 'svcbank' });
  sim.app.sim
    .collection<Record<string, unknown>>('accounts')
    .set(VALID.account_guid, { guid: VALID.account_guid, member_guid: VALID.member_guid, user_guid: VALID.user_guid });
}

describe('ACH returns (clean simulator)', () => {
  let sim: Sim;
  before(async () => {
    sim = await startSim({ settings: { now: '2025-06-05T00:00:00Z' } });
    seedReferences(sim);
  });
  after(() => sim.close());

  test('create answers 200 with the return, readable by guid and by id', async () => {
    const r = await sim.post('/ach_returns', { ach_return: VALID });
    assert.equal(r.status, 200);
    const created = r.json.ach_return;
    assert.match(created.guid, /^ACR-/);
    assert.equal(created.return_code, 'R01');
    assert.equal(created.transaction_amount, 125.5);
    assert.deepEqual((await sim.get(`/ach_returns/${created.guid}`)).json.ach_return, created);
    assert.deepEqual((await sim.get('/ach_returns/client-return-1')).json.ach_return, created);
    assert.ok(isErrorBody(await sim.get('/ach_returns/ACR-nope'), 404));
  });

  const bad: Array<[string, unknown]> = [
    ['account_guid', 'MBR-0b4c8b7e-2f43-4f6a-9d4e-5c1f2a3b4c5d'],
    ['account_guid', 'ACT-not-a-uuid'],
    ['member_guid', 'ACT-0b4c8b7e-2f43-4f6a-9d4e-5c1f2a3b4c5d'],
    ['user_guid', 'USR-123'],
    ['account_number_last_four', '123'],
    ['account_number_last_four', 1234],
    ['account_number_last_four', '12a4'],
    ['ach_initiated_at', '2025-06-01T10:00:00'],
    ['ach_initiated_at', '2025-06-01'],
    ['returned_at', 'yesterday'],
    ['returned_at', '2025-13-01T10:00:00Z'],
    ['return_code', 'R1'],
    ['return_code', 'X01'],
    ['return_code', 'R100'],
    ['sec_code', 'PP'],
    ['sec_code', 'PPD1'],
    ['transaction_amount', '12.50'],
    ['transaction_amount_range', 2.5],
    ['transaction_amount_range', '2'],
    ['id', 42],
  ];
  for (const [field, value] of bad) {
    test(`400 naming ${field} for ${JSON.stringify(value)}`, async () => {
      const r = await sim.post('/ach_returns', { ach_return: { ...VALID, [field]: value } });
      assert.ok(isErrorBody(r, 400), r.text);
      assert.ok(r.json.error.message.includes(field));
    });
  }

  test('missing wrapper, wrong wrapper type, malformed JSON: 400', async () => {
    assert.ok(isErrorBody(await sim.post('/ach_returns', VALID), 400));
    assert.ok(isErrorBody(await sim.post('/ach_returns', { ach_return: [VALID] }), 400));
    assert.ok(isErrorBody(await sim.post('/ach_returns', '{"ach_return": '), 400));
    assert.ok(isErrorBody(await sim.post('/ach_returns', '[]'), 400));
  });

  test('list with filters and paging', async () => {
    await sim.post('/ach_returns', { ach_return: { ...VALID, id: 'client-return-2', return_code: 'R02', returned_at: '2025-06-04T09:30:00Z' } });
    await sim.post('/ach_returns', { ach_return: { ...VALID, id: 'client-return-3', return_code: 'R02', returned_at: '2025-05-01T09:30:00Z' } });
    const all = (await sim.get('/ach_returns')).json;
    assert.ok(all.ach_returns.length >= 3);
    const r02 = (await sim.get('/ach_returns?return_code=R02')).json.ach_returns;
    assert.deepEqual(r02.map((x: { id: string }) => x.id).sort(), ['client-return-2', 'client-return-3']);
    const june = (await sim.get('/ach_returns?return_code=R02&from_returned_at=2025-06-01T00:00:00Z')).json.ach_returns;
    assert.deepEqual(
      june.map((x: { id: string }) => x.id),
      ['client-return-2'],
    );
    const paged = (await sim.get('/ach_returns?records_per_page=1&page=2')).json;
    assert.equal(paged.ach_returns.length, 1);
    assert.equal(paged.pagination.total_entries, all.pagination.total_entries);
    assert.equal((await sim.get('/ach_returns?return_status=submitted')).json.ach_returns.length, all.ach_returns.length);
    assert.ok(isErrorBody(await sim.get('/ach_returns?from_returned_at=soon'), 400));
  });

  test('institution_guid comes from the member and filters the list', async () => {
    const created = (await sim.post('/ach_returns', { ach_return: { ...VALID, id: 'client-return-inst' } })).json.ach_return;
    const svcbank = (await sim.get('/institutions/svcbank')).json.institution.guid;
    assert.equal(created.institution_guid, svcbank);
    const listed = (await sim.get(`/ach_returns?institution_guid=${svcbank}`)).json.ach_returns;
    assert.ok(listed.some((x: { id: string }) => x.id === 'client-return-inst'));
    assert.ok(listed.every((x: { institution_guid: string }) => x.institution_guid === svcbank));
    assert.deepEqual((await sim.get('/ach_returns?institution_guid=INS-00000000-0000-4000-8000-000000000000')).json.ach_returns, []);
  });

  test('a return resolves one day later on the simulator clock', async () => {
    await sim.post('/_sim/clock', { advance_ms: 2 * 86_400_000 });
    const resolved = (await sim.get('/ach_returns?return_status=RESOLVED&from_resolved_at=2025-06-05')).json.ach_returns;
    assert.ok(resolved.length >= 3);
    for (const r of resolved) assert.equal(typeof r.resolved_at, 'string');
  });
});

describe('ACH return faults change the behaviour', () => {
  test('ach-return-code-format-not-validated', () =>
    withFault('ach-return-code-format-not-validated', async (sim) => {
      seedReferences(sim);
      assert.equal((await sim.post('/ach_returns', { ach_return: { ...VALID, return_code: 'X1' } })).status, 200);
    }));
  test('ach-read-by-id-404', () =>
    withFault('ach-read-by-id-404', async (sim) => {
      seedReferences(sim);
      await sim.post('/ach_returns', { ach_return: VALID });
      assert.equal((await sim.get(`/ach_returns/${VALID.id}`)).status, 404);
    }));
  // One format fault per field: the malformed value the scenario sends is accepted (GUIDs resolved by their uuid).
  const MALFORMED: Array<[string, string, unknown]> = [
    ['ach-account-guid-format-not-validated', 'account_guid', VALID.account_guid.replace(/^ACT-/, '')],
    ['ach-account-number-last-four-format-not-validated', 'account_number_last_four', '12a4'],
    ['ach-initiated-at-format-not-validated', 'ach_initiated_at', '2025-06-01T10:00:00'],
    ['ach-member-guid-format-not-validated', 'member_guid', VALID.member_guid.replace(/^MBR-/, 'ACT-')],
    ['ach-returned-at-format-not-validated', 'returned_at', '07/01/2026'],
    ['ach-sec-code-format-not-validated', 'sec_code', 'P1D'],
    ['ach-transaction-amount-format-not-validated', 'transaction_amount', '42.50'],
    ['ach-transaction-amount-range-format-not-validated', 'transaction_amount_range', 2.5],
    ['ach-user-guid-format-not-validated', 'user_guid', VALID.user_guid.replace(/^USR-/, '')],
  ];
  for (const [fault, field, bad] of MALFORMED) {
    test(fault, async () => {
      const clean = await startSim();
      seedReferences(clean);
      try {
        assert.equal((await clean.post('/ach_returns', { ach_return: { ...VALID, [field]: bad } })).status, 400);
      } finally {
        await clean.close();
      }
      await withFault(fault, async (sim) => {
        seedReferences(sim);
        assert.equal((await sim.post('/ach_returns', { ach_return: { ...VALID, [field]: bad } })).status, 200);
      });
    });
  }
  // One well-formed-refused fault per field: the value VALID sends in the stated format is refused.
  const WELL_FORMED: Array<[string, string]> = [
    ['ach-account-guid-well-formed-refused', 'account_guid'],
    ['ach-account-number-last-four-well-formed-refused', 'account_number_last_four'],
    ['ach-initiated-at-well-formed-refused', 'ach_initiated_at'],
    ['ach-member-guid-well-formed-refused', 'member_guid'],
    ['ach-returned-at-well-formed-refused', 'returned_at'],
    ['ach-return-code-well-formed-refused', 'return_code'],
    ['ach-sec-code-well-formed-refused', 'sec_code'],
    ['ach-transaction-amount-well-formed-refused', 'transaction_amount'],
    ['ach-transaction-amount-range-well-formed-refused', 'transaction_amount_range'],
    ['ach-user-guid-well-formed-refused', 'user_guid'],
  ];
  for (const [fault, field] of WELL_FORMED) {
    test(fault, () =>
      withFault(fault, async (sim) => {
        seedReferences(sim);
        const r = await sim.post('/ach_returns', { ach_return: VALID });
        assert.equal(r.status, 400);
        assert.match(JSON.stringify(r.json), new RegExp(field));
      }),
    );
  }
  test('ach-create-reads-top-level', () =>
    withFault('ach-create-reads-top-level', async (sim) => {
      seedReferences(sim);
      const r = await sim.post('/ach_returns', { ach_return: VALID });
      assert.equal(r.status, 200);
      assert.equal(r.json.ach_return.id, undefined);
    }));
  test('ach-list-filters-ignored', () =>
    withFault('ach-list-filters-ignored', async (sim) => {
      seedReferences(sim);
      await sim.post('/ach_returns', { ach_return: VALID });
      assert.equal((await sim.get('/ach_returns?return_code=R99')).json.ach_returns.length, 1);
    }));
});
