/**
 * The run-wide invariants (contracts/invariants.ts) on small literal observations: each
 * invariant fails where its sentence is broken, and no freedom of the specification
 * (an omitted null, a value a transition changes, a write in between, a conditional
 * field, a shared list) makes it fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeRun, loadContract, RunLedger, type Observation, type ObservedRecord } from '../index.ts';

let seq = 0;
let clock = 1_000;
/** An observation at the next instant: 10 ms from request to answer. */
function obs(o: Partial<Observation> & Pick<Observation, 'method' | 'path'>): Observation {
  clock += 20;
  return {
    seq: ++seq,
    at: [clock, clock + 10],
    api: 'platform',
    version: 'v20250224',
    operation: `${o.method} ${o.path}`,
    query: '',
    status: 200,
    ...o,
  };
}
const rec = (component: string, key: string, fields: ObservedRecord['fields'], owners: string[] = []): ObservedRecord => ({
  component,
  site: '.x',
  key,
  owners,
  fields,
});
const checks = (found: { failure: { check: string } }[]) => found.map((f) => f.failure.check);

test('presence consistency: a field one answer served is present on another answer about the same record', () => {
  const l = new RunLedger();
  const inst = (fields: ObservedRecord['fields']) => rec('Institution', 'code:bank', fields);
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/institutions/bank', records: [inst({ code: 'bank', status: 'ACTIVE' })] })), []);
  const dropped = l.add(obs({ method: 'GET', path: '/institutions', records: [inst({ code: 'bank' })] }));
  assert.deepEqual(checks(dropped), ['presence_consistency']);
  assert.equal(dropped[0].failure.tier, 'stated');
  assert.match(dropped[0].failure.message, /without status .* as GET \/institutions\/bank .* served it \("ACTIVE"\)/);
  // Reported once per run, however often it repeats.
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/institutions', records: [inst({ code: 'bank' })] })), []);
  // The other order: the answer that left the field out came first.
  const l2 = new RunLedger();
  assert.deepEqual(l2.add(obs({ method: 'GET', path: '/institutions', records: [inst({ code: 'bank' })] })), []);
  const later = l2.add(obs({ method: 'GET', path: '/institutions/bank', records: [inst({ code: 'bank', status: 'ACTIVE' })] }));
  assert.deepEqual(checks(later), ['presence_consistency']);
  assert.match(later[0].failure.message, /without status on GET \/institutions → 200 .* as GET \/institutions\/bank .* serves it/);
  assert.equal(later[0].failure.operation, 'GET /institutions', 'the finding names the answer that left the field out');
});

test('presence consistency tolerates a null for an omitted field, a field never served, conditional fields and includes', () => {
  const l = new RunLedger();
  const m = (fields: ObservedRecord['fields']) => rec('Member', 'guid:MBR-1', fields);
  l.add(obs({ method: 'GET', path: '/users/U/members/MBR-1', records: [m({ guid: 'MBR-1', metadata: null, oauth_window_uri: 'x' })] }));
  // metadata was null (an omitted field is the same); oauth_window_uri is "one-time use".
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U/members', records: [m({ guid: 'MBR-1' })] })), []);
  const t = (fields: ObservedRecord['fields']) => rec('Transaction', 'guid:TRN-1', fields);
  l.add(
    obs({
      method: 'GET',
      path: '/users/U/transactions',
      query: 'includes=merchants',
      includes: ['merchants'],
      records: [t({ guid: 'TRN-1', merchant: true })],
    }),
  );
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U/transactions', records: [t({ guid: 'TRN-1' })] })), []);
});

test('presence consistency: a write to the record or its owner between the two answers ends the comparison', () => {
  const l = new RunLedger();
  // The target shows it sends its nulls (statement_on: null), so a field it leaves out was dropped.
  const a = (fields: ObservedRecord['fields']) => rec('Account', 'guid:ACT-1', { statement_on: null, ...fields }, ['USR-1', 'MBR-1']);
  l.add(obs({ method: 'GET', path: '/users/USR-1/accounts/ACT-1', records: [a({ guid: 'ACT-1', nickname: 'x' })] }));
  l.add(obs({ method: 'PUT', path: '/users/USR-1/members/MBR-1', params: { user_guid: 'USR-1', member_guid: 'MBR-1' } }));
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/USR-1/accounts', records: [a({ guid: 'ACT-1' })] })), []);
  // ...but not a write elsewhere.
  const l2 = new RunLedger();
  l2.add(obs({ method: 'GET', path: '/users/USR-1/accounts/ACT-1', records: [a({ guid: 'ACT-1', nickname: 'x' })] }));
  l2.add(obs({ method: 'PUT', path: '/users/USR-2', params: { user_guid: 'USR-2' } }));
  assert.deepEqual(checks(l2.add(obs({ method: 'GET', path: '/users/USR-1/accounts', records: [a({ guid: 'ACT-1' })] }))), ['presence_consistency']);
  // Nor a failed write (it moved nothing).
  const l3 = new RunLedger();
  l3.add(obs({ method: 'GET', path: '/users/USR-1/accounts/ACT-1', records: [a({ guid: 'ACT-1', nickname: 'x' })] }));
  l3.add(obs({ method: 'PUT', path: '/users/USR-1', status: 400, params: { user_guid: 'USR-1' } }));
  assert.deepEqual(checks(l3.add(obs({ method: 'GET', path: '/users/USR-1/accounts', records: [a({ guid: 'ACT-1' })] }))), ['presence_consistency']);
});

test('a field whose value moves is held present only on a target that shows it sends its nulls', () => {
  // A target that leaves its nulls out drops a field when its value becomes null.
  const omits = new RunLedger();
  const m = (fields: ObservedRecord['fields']) => rec('Member', 'guid:MBR-1', fields);
  omits.add(obs({ method: 'GET', path: '/users/U/members/MBR-1', records: [m({ guid: 'MBR-1', aggregated_at: '2026-01-01T00:00:00Z' })] }));
  assert.deepEqual(omits.add(obs({ method: 'GET', path: '/users/U/members', records: [m({ guid: 'MBR-1' })] })), []);
  // One that sends them keeps the field: leaving it out is a removal.
  const sends = new RunLedger();
  sends.add(obs({ method: 'GET', path: '/users/U/members/MBR-1', records: [m({ guid: 'MBR-1', metadata: null, aggregated_at: '2026-01-01T00:00:00Z' })] }));
  assert.deepEqual(checks(sends.add(obs({ method: 'GET', path: '/users/U/members', records: [m({ guid: 'MBR-1', metadata: null })] }))), [
    'presence_consistency',
  ]);
  // A stable field is held either way: its value cannot become null without a request.
  const stable = new RunLedger();
  stable.add(obs({ method: 'GET', path: '/users/U/members/MBR-1', records: [m({ guid: 'MBR-1', institution_code: 'svcbank' })] }));
  assert.deepEqual(checks(stable.add(obs({ method: 'GET', path: '/users/U/members', records: [m({ guid: 'MBR-1' })] }))), ['presence_consistency']);
});

test('presence is judged per version: a field a later version does not carry is not a removal', () => {
  const l = new RunLedger();
  const a = (fields: ObservedRecord['fields']) => rec('Account', 'guid:ACT-1', fields);
  l.add(obs({ method: 'GET', path: '/users/U/accounts/ACT-1', version: 'v20111101', records: [a({ guid: 'ACT-1', balance_set_by: 'FEED' })] }));
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U/accounts/ACT-1', version: 'v20250224', records: [a({ guid: 'ACT-1' })] })), []);
});

test('two reads, one truth: stable fields agree; what transitions and time change may differ', () => {
  const l = new RunLedger();
  const inst = (fields: ObservedRecord['fields']) => rec('Institution', 'code:bank', fields);
  l.add(obs({ method: 'GET', path: '/institutions/bank', records: [inst({ code: 'bank', name: 'Bank', supported_products: '#json:["a","b"]' })] }));
  // The order of an array of values is no disagreement (canonical form).
  assert.deepEqual(
    l.add(obs({ method: 'GET', path: '/institutions', records: [inst({ code: 'bank', name: 'Bank', supported_products: '#json:["a","b"]' })] })),
    [],
  );
  const off = l.add(obs({ method: 'GET', path: '/institutions', records: [inst({ code: 'bank', name: 'Bank Two', supported_products: '#json:["a","b"]' })] }));
  assert.deepEqual(checks(off), ['two_reads_one_truth']);
  assert.match(off[0].failure.message, /name "Bank Two" .* Expected: "Bank"/);
  const a = (fields: ObservedRecord['fields']) => rec('Account', 'guid:ACT-1', fields);
  l.add(obs({ method: 'GET', path: '/users/U/accounts/ACT-1', records: [a({ guid: 'ACT-1', balance: 10, member_guid: 'MBR-1' })] }));
  assert.deepEqual(
    l.add(obs({ method: 'GET', path: '/users/U/accounts', records: [a({ guid: 'ACT-1', balance: 12, member_guid: 'MBR-1' })] })),
    [],
    'a balance moves',
  );
  assert.deepEqual(checks(l.add(obs({ method: 'GET', path: '/users/U/accounts', records: [a({ guid: 'ACT-1', balance: 12, member_guid: 'MBR-2' })] }))), [
    'two_reads_one_truth',
  ]);
  // A member's own read and its status read are one record (status read: component MemberStatus).
  const l2 = new RunLedger();
  l2.add(obs({ method: 'GET', path: '/users/U/members/MBR-1', records: [rec('Member', 'guid:MBR-1', { guid: 'MBR-1', is_oauth: false })] }));
  assert.deepEqual(
    checks(
      l2.add(obs({ method: 'GET', path: '/users/U/members/MBR-1/status', records: [rec('MemberStatus', 'guid:MBR-1', { guid: 'MBR-1', is_oauth: true })] })),
    ),
    ['two_reads_one_truth'],
  );
});

test('a settled member of the test institution keeps its end state until a request moves it', () => {
  const member = (state: string, aggregating: boolean) =>
    rec('Member', 'guid:MBR-1', { guid: 'MBR-1', institution_code: 'svcbank', connection_status: state, is_being_aggregated: aggregating }, ['USR-1']);
  const status = (state: string) => rec('MemberStatus', 'guid:MBR-1', { guid: 'MBR-1', connection_status: state }, []);
  const l = new RunLedger({ testInstitutionCode: 'svcbank' });
  // Aggregating: the state may still move.
  l.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1', records: [member('PENDING', true)] }));
  l.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1', records: [member('CONNECTED', false)] }));
  const flipped = l.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1/status', records: [status('HALTED')] }));
  assert.deepEqual(checks(flipped), ['two_reads_one_truth']);
  assert.match(flipped[0].failure.rule, /end states/);
  // Resuming or aggregating moves it: no finding across that request.
  const l2 = new RunLedger({ testInstitutionCode: 'svcbank' });
  l2.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1', records: [member('CHALLENGED', true)] }));
  l2.add(obs({ method: 'PUT', path: '/users/USR-1/members/MBR-1/resume', params: { user_guid: 'USR-1', member_guid: 'MBR-1' } }));
  assert.deepEqual(l2.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1/status', records: [status('CONNECTED')] })), []);
  // Another institution's members: transitions "not shown".
  const l3 = new RunLedger({ testInstitutionCode: 'other' });
  l3.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1', records: [member('CONNECTED', false)] }));
  assert.deepEqual(l3.add(obs({ method: 'GET', path: '/users/USR-1/members/MBR-1/status', records: [status('HALTED')] })), []);
});

test('round trip: what a create sent reads back as sent, by guid and by client id (amounts as numbers, timestamps as instants)', () => {
  const l = new RunLedger();
  const sent = {
    envelope: 'ach_return',
    fields: { id: 'ach-1', transaction_amount: 12.5, returned_at: '2026-01-01T00:00:00+02:00', return_code: 'R01' },
  };
  const made = rec('AchReturn', 'guid:ACH-1', { guid: 'ACH-1', id: 'ach-1', transaction_amount: '12.50', returned_at: '2025-12-31T22:00:00Z' });
  assert.deepEqual(l.add(obs({ method: 'POST', path: '/ach_returns', sent, records: [made] })), []);
  const truncated = l.add(
    obs({
      method: 'GET',
      path: '/ach_returns/ACH-1',
      params: { ach_return_guid: 'ACH-1' },
      records: [rec('AchReturn', 'guid:ACH-1', { guid: 'ACH-1', id: 'ach-1', transaction_amount: 12, returned_at: '2026-01-01T00:00:00+02:00' })],
    }),
  );
  assert.deepEqual(checks(truncated), ['two_reads_one_truth', 'round_trip']);
  // A second return with another id; reading the first by its client id answers the second.
  l.add(
    obs({
      method: 'POST',
      path: '/ach_returns',
      sent: { envelope: 'ach_return', fields: { id: 'ach-2' } },
      records: [rec('AchReturn', 'guid:ACH-2', { guid: 'ACH-2', id: 'ach-2' })],
    }),
  );
  const byId = l.add(
    obs({
      method: 'GET',
      path: '/ach_returns/ach-1',
      params: { ach_return_guid: 'ach-1' },
      records: [rec('AchReturn', 'guid:ACH-2', { guid: 'ACH-2', id: 'ach-2' })],
    }),
  );
  assert.ok(
    byId.some((f) => f.failure.check === 'round_trip' && /client id "ach-1"/.test(f.failure.message)),
    JSON.stringify(byId),
  );
});

test('asked is answered: filters hold on every record; the widget asked for; the test host state the path names', () => {
  const l = new RunLedger();
  const t = (cat: string) => rec('Transaction', `guid:TRN-${cat}`, { guid: `TRN-${cat}`, category_guid: cat });
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U/transactions', query: 'category_guid=CAT-1', records: [t('CAT-1')] })), []);
  assert.deepEqual(checks(l.add(obs({ method: 'GET', path: '/users/U/transactions', query: 'category_guid=CAT-1', records: [t('CAT-1'), t('CAT-2')] }))), [
    'asked_is_answered',
  ]);
  const created = (at: string) => rec('Transaction', `guid:TRN-${at}`, { guid: `TRN-${at}`, created_at: at });
  assert.deepEqual(
    checks(
      l.add(
        obs({
          method: 'GET',
          path: '/users/U/transactions',
          query: 'from_created_at=2026-01-02&to_created_at=2026-01-03',
          records: [created('2026-01-03T12:00:00Z'), created('2026-01-05T00:00:00Z')],
        }),
      ),
    ),
    ['asked_is_answered'],
    'a to-date covers its whole day; the 5th is outside',
  );
  l.add(
    obs({
      method: 'POST',
      path: '/users',
      sent: { envelope: 'user', fields: { id: 'team-user-1' } },
      records: [rec('User', 'guid:USR-1', { guid: 'USR-1', id: 'team-user-1' })],
    }),
  );
  const widget = (type: string, user: string) =>
    obs({
      method: 'POST',
      path: '/users/USR-1/widget_urls',
      params: { user_guid: 'USR-1' },
      sent: { envelope: 'widget_url', fields: { widget_type: 'pulse_widget' } },
      widget: { type, user_id: user },
    });
  assert.deepEqual(l.add(widget('pulse_widget', 'team-user-1')), []);
  assert.deepEqual(checks(l.add(widget('connect_widget', 'team-user-1'))), ['asked_is_answered']);
  assert.deepEqual(checks(l.add(widget('pulse_widget', 'someone-else'))), ['asked_is_answered']);
  const host = (state: string) =>
    obs({
      api: 'test-host',
      method: 'GET',
      path: '/users/test_svc/members/CHALLENGED',
      params: { connection_status: 'CHALLENGED' },
      shown: { connection_status: [state] },
    });
  assert.deepEqual(l.add(host('challenged')), [], 'the casing of the path value is not shown');
  assert.deepEqual(checks(l.add(host('CONNECTED'))), ['asked_is_answered']);
});

test('pages partition a list: no record on two pages, nothing past the last, totals that agree; shared and rewritten lists are left alone', () => {
  const page = (n: number, ids: string[], total = 5, path = '/institutions') =>
    obs({
      method: 'GET',
      path,
      query: `page=${n}&records_per_page=2`,
      list: { key: 'x', ids, page: n, asked: 2, pagination: { total_entries: total, total_pages: 3 } },
    });
  const l = new RunLedger();
  assert.deepEqual(l.add(page(1, ['a', 'b'])), []);
  assert.deepEqual(l.add(page(2, ['c', 'd'])), []);
  assert.deepEqual(l.add(page(3, ['e'])), []);
  assert.deepEqual(checks(l.add(page(4, ['e']))), ['pages_partition', 'pages_partition'], 'past the last, and a record on two pages');
  const l2 = new RunLedger();
  l2.add(page(1, ['a', 'b'], 6));
  l2.add(page(2, ['c', 'd'], 6));
  assert.deepEqual(checks(l2.add(page(3, ['e'], 6))), ['pages_partition'], 'total_entries 6, pages held 5');
  // /users is shared with every other test of the run: other tests create users between pages.
  const l3 = new RunLedger();
  l3.add(page(1, ['a', 'b'], 5, '/users'));
  assert.deepEqual(l3.add(page(2, ['b', 'c'], 5, '/users')), []);
  // A write under the list's owner between two pages reshapes it.
  const l4 = new RunLedger();
  const mine = (n: number, ids: string[]) =>
    obs({
      method: 'GET',
      path: '/users/U/members',
      params: { user_guid: 'U' },
      query: `page=${n}&records_per_page=2`,
      list: { key: 'members', ids, page: n, asked: 2 },
    });
  l4.add(mine(1, ['a', 'b']));
  l4.add(obs({ method: 'POST', path: '/users/U/members', params: { user_guid: 'U' } }));
  assert.deepEqual(l4.add(mine(2, ['b', 'c'])), []);
});

test('signals where stated: a learned deprecation header is held on every deprecated endpoint, and seen on no current one', () => {
  const l = new RunLedger({ deprecatedVersions: ['v20111101'] });
  const deprecated = (path: string, signals?: Record<string, string>) => obs({ method: 'GET', path, deprecated: true, ...(signals ? { signals } : {}) });
  // Before a name is learned, a deprecated answer without a signal waits.
  assert.deepEqual(l.add(deprecated('/users/U/managed_members')), []);
  // Learned from the target itself; the earlier answer is now judged by it.
  const learned = l.add(deprecated('/managed_institutions', { 'x-api-deprecated': '2026-01-01' }));
  assert.deepEqual(checks(learned), ['signals_where_stated']);
  assert.match(learned[0].failure.message, /no x-api-deprecated header on deprecated GET \/users\/U\/managed_members/);
  assert.equal(l.learnedNames.deprecation, 'x-api-deprecated');
  assert.deepEqual(checks(l.add(obs({ method: 'GET', path: '/institutions', signals: { 'x-api-deprecated': 'true' } }))), ['signals_where_stated']);
  // A deprecated version may signal on every endpoint.
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U/members', version: 'v20111101', signals: { 'x-api-deprecated': 'true' } })), []);
  // A version before the current one may be deprecated by the target as a whole (Versioning, lifecycle).
  const versioned = new RunLedger({ currentVersion: 'v20260929' });
  versioned.add(deprecated('/managed_institutions', { deprecation: '@1' }));
  assert.deepEqual(versioned.add(obs({ method: 'GET', path: '/institutions', version: 'v20111101', signals: { deprecation: '@1' } })), []);
  assert.deepEqual(checks(versioned.add(obs({ method: 'GET', path: '/institutions', version: 'v20260929', signals: { deprecation: '@1' } }))), [
    'signals_where_stated',
  ]);
  // A header saying false signals nothing.
  assert.deepEqual(l.add(obs({ method: 'GET', path: '/users/U', signals: { 'x-api-deprecated': 'false' } })), []);
  // A name the user set is the one judged; a missing one there is version_conformance's.
  const set = new RunLedger({ headerNamesExplicit: true, deprecationHeader: 'Deprecation', sunsetHeader: 'Sunset' });
  assert.deepEqual(set.add(deprecated('/managed_institutions')), []);
  assert.deepEqual(checks(set.add(obs({ method: 'GET', path: '/institutions', signals: { deprecation: '@1' } }))), ['signals_where_stated']);
});

test('judgeRun: answers of different workers are compared; findings a test already reported are not raised again', () => {
  const a: Observation = {
    ...obs({ method: 'GET', path: '/institutions/bank', records: [rec('Institution', 'code:bank', { code: 'bank', status: 'A' })] }),
    seq: 1,
    target: 'T',
  };
  const b: Observation = {
    ...obs({ method: 'GET', path: '/institutions', records: [rec('Institution', 'code:bank', { code: 'bank' })] }),
    seq: 1,
    target: 'T',
  };
  const found = judgeRun([b, a].reverse());
  assert.deepEqual(checks(found), ['presence_consistency']);
  assert.deepEqual(judgeRun([a, b], {}, [found[0].key]), []);
  // Another target is another ledger.
  assert.deepEqual(judgeRun([a, { ...b, target: 'other' }]), []);
});

test('observationOf reads records where the document puts them, keeps stable values and only the presence of the rest', () => {
  const contract = loadContract();
  const checked = contract.checkReceived(
    {
      api: 'platform',
      version: 'v20250224',
      request: { method: 'GET', url: '/users/USR-1/members?page=2&records_per_page=10', headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', Deprecation: 'true' },
        text: JSON.stringify({
          members: [{ guid: 'MBR-1', user_guid: 'USR-1', connection_status: 'CONNECTED', aggregated_at: null, instructions: 'x'.repeat(500) }],
          pagination: { current_page: 2, per_page: 10, total_entries: 11, total_pages: 2 },
        }),
      },
    },
    { observe: true },
  );
  const o = checked.observation!;
  assert.equal(o.operation, 'GET /users/{user_guid}/members');
  assert.deepEqual(o.params, { user_guid: 'USR-1' });
  assert.deepEqual(o.signals, { deprecation: 'true' });
  assert.deepEqual(o.list, {
    key: 'members',
    ids: ['guid:MBR-1'],
    page: 2,
    asked: 10,
    pagination: { current_page: 2, per_page: 10, total_entries: 11, total_pages: 2 },
  });
  const [m] = o.records!;
  assert.equal(m.component, 'Member');
  assert.deepEqual(m.owners, ['USR-1']);
  assert.deepEqual(m.fields, { guid: 'MBR-1', user_guid: 'USR-1', connection_status: 'CONNECTED', aggregated_at: null, instructions: true });
  assert.equal(
    contract.checkReceived({
      api: 'platform',
      request: { method: 'GET', url: '/institutions', headers: {} },
      response: { status: 200, headers: {}, text: '{}' },
    }).observation,
    undefined,
    'only when asked',
  );
});

test('observationOf keeps the user of a created user, so the widget URL answer is judged against its client id', () => {
  // The answer to POST /users is documented (UserEnvelope) but its user is no record the
  // document names: the invariant that a widget URL names the user it was asked for
  // (Resources, Widget URL: user_id) needs it all the same.
  const contract = loadContract();
  const created = contract.checkReceived(
    {
      api: 'platform',
      version: 'v20250224',
      request: { method: 'POST', url: '/users', headers: {}, body: { user: { id: 'team-user-1' } } },
      response: { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ user: { guid: 'USR-9', id: 'team-user-1' } }) },
    },
    { observe: true },
  ).observation!;
  const user = created.records?.find((r) => r.component === 'User');
  assert.ok(user, 'the created user is observed');
  assert.equal(user.key, 'guid:USR-9');
  assert.equal(user.fields.id, 'team-user-1');
  const widget = contract.checkReceived(
    {
      api: 'platform',
      version: 'v20250224',
      request: { method: 'POST', url: '/users/USR-9/widget_urls', headers: {}, body: { widget_url: { widget_type: 'connect_widget' } } },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: JSON.stringify({ widget_url: { type: 'connect_widget', url: 'https://x.example/w', user_id: 'another-user' } }),
      },
    },
    { observe: true },
  ).observation!;
  const l = new RunLedger();
  // The checked client stamps when and in which order (scenarios/fixtures/run-ledger.ts).
  assert.deepEqual(l.add({ ...created, seq: 1, at: [10, 20] }), []);
  assert.deepEqual(checks(l.add({ ...widget, seq: 2, at: [30, 40] })), ['asked_is_answered']);
});

test('round trip: a value an update took (its answer shows it) and a later read shows as null is lost; one the answer never showed is not judged', () => {
  const member = (metadata: string | null) => rec('Member', 'guid:MBR-7', { guid: 'MBR-7', user_guid: 'USR-7', metadata }, ['USR-7']);
  const update = (shown: string | null) =>
    obs({
      method: 'PUT',
      path: '/users/USR-7/members/MBR-7',
      params: { user_guid: 'USR-7', member_guid: 'MBR-7' },
      sent: { envelope: 'member', fields: { metadata: 'after' } },
      records: [member(shown)],
    });
  const read = () => obs({ method: 'GET', path: '/users/USR-7/members/MBR-7', params: { user_guid: 'USR-7', member_guid: 'MBR-7' }, records: [member(null)] });
  const lost = new RunLedger();
  assert.deepEqual(lost.add(update('after')), []);
  assert.ok(checks(lost.add(read())).includes('round_trip'), 'the update answered "after", the read shows null');
  // The update's answer is not shown (OpenSuccess): what it echoes counts all the same.
  const echoed = new RunLedger();
  const { records: _none, ...bare } = update('after');
  assert.deepEqual(echoed.add({ ...bare, echo: { key: 'guid:MBR-7', fields: { guid: 'MBR-7', metadata: 'after' } } }), []);
  assert.ok(checks(echoed.add(read())).includes('round_trip'), 'the echo answered "after", the read shows null');
  // A service that answers the update without echoing the value, then reads null: a null is
  // not judged as a value (../shared/real-service-notes.md, Nullability).
  const quiet = new RunLedger();
  assert.deepEqual(quiet.add(update(null)), []);
  assert.deepEqual(
    checks(quiet.add(read())).filter((c) => c === 'round_trip'),
    [],
  );
});
