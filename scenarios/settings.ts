/**
 * Scenario settings the target profile does not carry yet: identifiers of data a real
 * environment must name (from environment variables), with the simulator's seeded
 * values as defaults when the target is the simulator. A missing value skips only the
 * scenarios that need it (requireSetting names the variable).
 */
import { DATA_EXCHANGE_SEED, type TargetProfile } from '../targets/index.ts';

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
