/**
 * Sample bodies shaped as the specification states (Resources: Member, Institution),
 * shared by the real-document tests and the benchmark.
 */
export const USER_GUID = 'USR-0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
export const MEMBER_GUID = 'MBR-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

export function sampleMember(): Record<string, unknown> {
  return {
    guid: MEMBER_GUID,
    id: 'client-member-1',
    user_guid: USER_GUID,
    user_id: 'client-user-1',
    institution_code: 'svcbank',
    name: 'SVC Bank',
    connection_status: 'CONNECTED',
    is_being_aggregated: false,
    aggregated_at: '2025-03-01T10:00:00+00:00',
    successfully_aggregated_at: '2025-03-01T10:00:05+00:00',
    is_managed_by_user: false,
    is_oauth: false,
    metadata: null,
    use_cases: [],
  };
}

export function sampleInstitutionsPage(count: number): { institutions: Record<string, unknown>[]; pagination: Record<string, unknown> } {
  const institutions = [];
  for (let i = 0; i < count; i++) {
    institutions.push({
      code: `bank_${i}`,
      guid: `INS-${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
      name: `Bank ${i}`,
      // Resources, Institution: every field the specification names (values nullable).
      created_at: '2025-01-01T00:00:00+00:00',
      is_hidden: false,
      status: 'ACTIVE',
      client_status: 'ACTIVE',
      is_disabled_by_client: false,
      instructional_text: null,
      instructional_text_steps: null,
      forgot_password_url: null,
      forgot_username_url: null,
      trouble_signing_in_url: null,
      supports_oauth: i % 2 === 0,
      supported_products: ['transactions', 'account_verification'],
    });
  }
  return { institutions, pagination: { current_page: 1, per_page: count, total_entries: 2600, total_pages: Math.ceil(2600 / Math.max(count, 1)) } };
}
