/**
 * Scenario settings the target profile does not carry yet: identifiers of data a real
 * environment must name (from environment variables), with the simulator's seeded
 * values as defaults when the target is the simulator. A missing value skips only the
 * scenarios that need it (requireSetting names the variable).
 */
import { DATA_EXCHANGE_SEED, simulatorInstitutionSeed, type TargetProfile } from '../targets/index.ts';

export interface DataExchangeSettings {
  issuerClientGuid?: string;
  granteeClientGuid?: string;
  grantGuid?: string;
  /** Every grantee GUID of the grant (SVC_3DX_GRANTEE_GUIDS, comma list). */
  allGranteeGuids: string[];
  /** Name of the grant query's grantee parameter (Endpoints: "not shown"). */
  granteeQueryParam: string;
  /** A user of the issuer that the grant covers (GUID or partner id). */
  userIdentifier?: string;
  memberIdentifier?: string;
  accountGuid?: string;
  /**
   * Partner-defined ids of that user, member and account (SVC_3DX_USER_ID,
   * SVC_3DX_MEMBER_ID, SVC_3DX_ACCOUNT_ID), for the paths that "accept GUID or partner
   * ID"; else taken from the slim records' `id` when they carry one.
   */
  userPartnerId?: string;
  memberPartnerId?: string;
  accountPartnerId?: string;
  /**
   * Name of the slim transaction's date field, for the 90-day window (the slim
   * transaction's fields are not shown): SVC_3DX_TRANSACTION_DATE_FIELD, else the first
   * of date, transacted_at, posted_at, created_at that the transactions carry.
   */
  transactionDateField?: string;
  /** A manual transaction of that user: token reads must answer 404. */
  manualTransactionGuid?: string;
  /** A transaction whose data_scope does not match the grant: 404. */
  scopeMismatchTransactionGuid?: string;
  /**
   * Member and account of those two (SVC_3DX_MANUAL_TRANSACTION_MEMBER / _ACCOUNT,
   * SVC_3DX_SCOPE_MISMATCH_MEMBER / _ACCOUNT): the per-member transaction read of each
   * must answer 404 too ("same rule as above; 404 when no match").
   */
  manualTransactionMember?: string;
  manualTransactionAccount?: string;
  scopeMismatchMember?: string;
  scopeMismatchAccount?: string;
  /**
   * A transaction of accountGuid dated inside the 90 days before the request day
   * (SVC_3DX_WINDOW_TRANSACTION_GUID): the default window must list it. Read by guid
   * first, so a transaction that has since left the window is noticed, not failed.
   */
  windowTransactionGuid?: string;
}

const list = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

export function dataExchangeSettings(profile: TargetProfile, env: Record<string, string | undefined> = process.env): DataExchangeSettings {
  const sim = profile.isSimulator ? DATA_EXCHANGE_SEED : undefined;
  const dx = profile.dataExchange;
  return {
    issuerClientGuid: dx.issuerClientGuid,
    granteeClientGuid: dx.granteeClientGuid,
    grantGuid: dx.grantGuid,
    allGranteeGuids:
      list(env.SVC_3DX_GRANTEE_GUIDS) ?? (sim ? [sim.granteeClientGuid, sim.secondGranteeClientGuid] : dx.granteeClientGuid ? [dx.granteeClientGuid] : []),
    granteeQueryParam: env.SVC_3DX_GRANTEE_QUERY_PARAM ?? 'grantee_guids',
    userIdentifier: env.SVC_3DX_USER ?? sim?.userGuid,
    memberIdentifier: env.SVC_3DX_MEMBER ?? sim?.heldMemberGuid,
    accountGuid: env.SVC_3DX_ACCOUNT_GUID ?? sim?.checkingAccountGuid,
    userPartnerId: env.SVC_3DX_USER_ID ?? sim?.userId,
    memberPartnerId: env.SVC_3DX_MEMBER_ID ?? sim?.heldMemberId,
    accountPartnerId: env.SVC_3DX_ACCOUNT_ID ?? sim?.checkingAccountId,
    transactionDateField: env.SVC_3DX_TRANSACTION_DATE_FIELD,
    manualTransactionGuid: env.SVC_3DX_MANUAL_TRANSACTION_GUID ?? sim?.manualTransactionGuid,
    scopeMismatchTransactionGuid: env.SVC_3DX_SCOPE_MISMATCH_TRANSACTION_GUID ?? sim?.scopeMismatchTransactionGuid,
    manualTransactionMember: env.SVC_3DX_MANUAL_TRANSACTION_MEMBER ?? sim?.manualMemberGuid,
    manualTransactionAccount: env.SVC_3DX_MANUAL_TRANSACTION_ACCOUNT ?? sim?.manualAccountGuid,
    scopeMismatchMember: env.SVC_3DX_SCOPE_MISMATCH_MEMBER ?? sim?.aggregatedMemberGuid,
    scopeMismatchAccount: env.SVC_3DX_SCOPE_MISMATCH_ACCOUNT ?? sim?.cardAccountGuid,
    windowTransactionGuid: env.SVC_3DX_WINDOW_TRANSACTION_GUID ?? sim?.windowTransactionGuid,
  };
}

/**
 * Query parameter names of filters the specification describes without naming
 * (Endpoints, Institutions: "Exact query names of the institution list filters other
 * than the ones given: not shown"). A name the user sets is enforced; the default (the
 * vendor reference's name) is a guess, and a miss under it is only inferred.
 */
export interface QueryName {
  name: string;
  explicit: boolean;
}

export function institutionNameParam(env: Record<string, string | undefined> = process.env): QueryName {
  return { name: env.SVC_INSTITUTION_NAME_PARAM || 'name', explicit: !!env.SVC_INSTITUTION_NAME_PARAM };
}

/**
 * Query names of the ACH return list filters (Endpoints, ACH returns: "query filters:
 * institution guid, returned time, resolved-status time, return code, return status";
 * "Exact query parameter names of the ACH list filters: not shown"). Each name is a
 * setting (SVC_ACH_*_PARAM); the defaults are the simulator's names, a guess, so a filter
 * that does not narrow under a default name is only an inferred miss.
 */
export const ACH_FILTERS = {
  institution: ['SVC_ACH_INSTITUTION_PARAM', 'institution_guid'],
  fromReturned: ['SVC_ACH_FROM_RETURNED_PARAM', 'from_returned_at'],
  toReturned: ['SVC_ACH_TO_RETURNED_PARAM', 'to_returned_at'],
  fromResolved: ['SVC_ACH_FROM_RESOLVED_PARAM', 'from_resolved_at'],
  toResolved: ['SVC_ACH_TO_RESOLVED_PARAM', 'to_resolved_at'],
  returnCode: ['SVC_ACH_RETURN_CODE_PARAM', 'return_code'],
  returnStatus: ['SVC_ACH_RETURN_STATUS_PARAM', 'return_status'],
} as const;

export function achFilterParam(filter: keyof typeof ACH_FILTERS, env: Record<string, string | undefined> = process.env): QueryName & { variable: string } {
  const [variable, fallback] = ACH_FILTERS[filter];
  return { name: env[variable] || fallback, explicit: !!env[variable], variable };
}

/**
 * Query name of the institution lists' country-code filter (Endpoints, Institutions:
 * "filters by name, country code ..." and favourites "query: country code"; their names
 * are not shown): SVC_INSTITUTION_COUNTRY_PARAM, default `iso_country_code` (a guess;
 * the simulator accepts it and `country_code`), so a miss under it is only inferred.
 */
export function institutionCountryParam(env: Record<string, string | undefined> = process.env): QueryName & { variable: string } {
  return { name: env.SVC_INSTITUTION_COUNTRY_PARAM || 'iso_country_code', explicit: !!env.SVC_INSTITUTION_COUNTRY_PARAM, variable: 'SVC_INSTITUTION_COUNTRY_PARAM' };
}

/**
 * Institution facts a real target's profile must name (the specification leaves them to
 * the client's set-up), with the simulator's seeded values as defaults there:
 *  - favouriteCodes: the client's favourite institutions in popularity order
 *    (SVC_FAVORITE_INSTITUTION_CODES, comma list; Endpoints: "the list of favourites is
 *    set up by the vendor on request", so the client knows it);
 *  - blockedCode: an institution blocked for this client (SVC_BLOCKED_INSTITUTION_CODE),
 *    listed only with include_blocked_institutions;
 *  - testInstitutionCountry: the test institution's country code (SVC_TEST_INSTITUTION_COUNTRY).
 */
export interface InstitutionSettings {
  favouriteCodes?: string[];
  blockedCode?: string;
  testInstitutionCountry?: string;
}

export function institutionSettings(profile: TargetProfile, env: Record<string, string | undefined> = process.env): InstitutionSettings {
  const sim = profile.isSimulator ? simulatorInstitutionSeed() : undefined;
  return {
    favouriteCodes: list(env.SVC_FAVORITE_INSTITUTION_CODES) ?? sim?.favouriteCodes,
    blockedCode: env.SVC_BLOCKED_INSTITUTION_CODE ?? sim?.blockedCode,
    testInstitutionCountry: env.SVC_TEST_INSTITUTION_COUNTRY ?? sim?.testInstitutionCountry,
  };
}
