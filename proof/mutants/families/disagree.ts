/**
 * `disagree`: two reads of one resource disagree on a stated field (the second, fourth ...
 * read of the same guid), or for shared resources, two kinds of read of it.
 */
import { type Generation, quote, sectionOf } from '../generation.ts';
import type { Change, When } from '../model.ts';

export function disagreeMutants(g: Generation): void {
  const disagree = (component: string, field: string, action: Change, rowIds: string[]) => {
    const rr = g.rowsOf(...rowIds);
    const sites = g.toSites(g.docs.sites.filter((s) => s.component === component && s.op.method === 'GET'));
    g.b.add(
      {
        id: `disagree:${component}.${field}`,
        family: 'disagree',
        expect: 'killed',
        statement: `${quote(rr, `${component}.${field}`)}; one resource read twice shows one value`,
        section: sectionOf(rr, 'Resources and their fields'),
        rows: rr.map((r) => r.id),
        change: action,
      },
      undefined,
      sites,
    );
  };
  const settled: When[] = [
    { field: 'connection_status', oneOf: ['CONNECTED', 'DENIED', 'HALTED'] },
    { field: 'is_being_aggregated', oneOf: [false, undefined] },
  ];
  disagree(
    'Member',
    'connection_status',
    {
      kind: 'field',
      sites: [],
      field: ['connection_status'],
      action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED' } },
      when: settled,
      reads: 'even',
    },
    ['states.values', 'states.test-success', 'states.test-denied', 'states.test-halted'],
  );
  disagree(
    'MemberStatus',
    'connection_status',
    {
      kind: 'field',
      sites: [],
      field: ['connection_status'],
      action: { op: 'map', values: { CONNECTED: 'DENIED', DENIED: 'HALTED', HALTED: 'DENIED' } },
      when: settled,
      reads: 'even',
    },
    ['states.values', 'states.connected'],
  );
  disagree(
    'Member',
    'institution_code',
    { kind: 'field', sites: [], field: ['institution_code'], action: { op: 'set', value: 'mutant_other_institution' }, reads: 'even' },
    ['res.member.institution-code', 'wsd.member-connects'],
  );
  disagree(
    'Member',
    'user_guid',
    { kind: 'field', sites: [], field: ['user_guid'], action: { op: 'set', value: 'USR-00000000-0000-4000-8000-000000000000' }, reads: 'even' },
    ['res.member.user-guid', 'wsd.member-connects'],
  );
  disagree(
    'Member',
    'is_oauth',
    { kind: 'field', sites: [], field: ['is_oauth'], action: { op: 'map', values: { true: false, false: true } }, reads: 'even' },
    ['res.member.is-oauth'],
  );
  disagree(
    'Account',
    'member_guid',
    { kind: 'field', sites: [], field: ['member_guid'], action: { op: 'set', value: 'MBR-00000000-0000-4000-8000-000000000000' }, reads: 'even' },
    ['wsd.account-belongs-member'],
  );
  // Shared resources (an institution, a grant) are read by many scenarios at once, so which read
  // is the second is not the scenario's: these disagree by the kind of read instead (by guid as
  // against by code; a grantee's list as against the issuer's list and the grant query).
  const onlyOp = (component: string, opKey: string) => g.toSites(g.docs.sites.filter((x) => x.component === component && x.op.key === opKey));
  const rr = (ids: string[]) => g.rowsOf(...ids);
  g.b.add(
    {
      id: 'disagree:Institution.name',
      family: 'disagree',
      expect: 'killed',
      statement: `${quote(rr(['res.inst.fields', 'ep.inst.read']), 'Institution.name')}; one institution read by code and by guid shows one name`,
      section: 'Resources and their fields',
      rows: rr(['res.inst.fields', 'ep.inst.read']).map((r) => r.id),
      change: { kind: 'field', sites: [], field: ['name'], action: { op: 'set', value: 'Mutant Other Institution' }, when: [{ pathLacks: 'code' }] },
    },
    undefined,
    onlyOp('Institution', 'GET /institutions/{institution_identifier}'),
  );
  g.b.add(
    {
      id: 'disagree:Grant.data_scope',
      family: 'disagree',
      expect: 'killed',
      statement: `${quote(rr(['res.grant.data-scope', 'res.grant.parts']), 'Grant.data_scope')}; one grant shows one data scope wherever it is read`,
      section: 'Resources and their fields',
      rows: rr(['res.grant.data-scope', 'res.grant.parts']).map((r) => r.id),
      change: { kind: 'field', sites: [], field: ['data_scope'], action: { op: 'map', values: { HELD: 'AGGREGATED', AGGREGATED: 'HELD', ALL: 'HELD' } } },
    },
    undefined,
    onlyOp('Grant', 'GET /data_exchange/grantee/{grantee_client_guid}/grants'),
  );
}
