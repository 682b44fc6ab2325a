/**
 * Fields of each resource, judged on every record of every answer, wherever the document
 * puts the records (contracts/records.ts: the component schemas an answer's schema
 * reaches), so every operation that answers a Member is judged the same way, whatever
 * scenario reads it.
 *
 * Presence is stated only where a sentence states it: "Has a type field" (Credential), a
 * field "returned" in a transition (oauth_window_uri of a new OAuth member), "the response
 * has a challenges array" (a CHALLENGED status), option entries that "carry a guid"
 * (v20250224), the status read's "connection status". A field a list only NAMES ("Fields
 * named: ...", a resource table without a presence statement) is not a presence promise:
 * the vendor's own reference carries no `required` list and its examples leave out many of
 * them (../shared/real-service-notes.md, Nullability: "Absence follows the same rule as
 * null"). Its absence is an inferred finding (a warning unless the profile is strict); what
 * catches a field a service really dropped is presence consistency over the run
 * (contracts/invariants.ts: a field served on one answer about a record and missing from
 * another).
 *
 * Presence only: a `null` is never judged here (../shared/real-service-notes.md,
 * Nullability); stated_platform_fields (stated-platform.ts) keeps the fields it already
 * judges (account balance and its variants, transaction merchant guids, insight fields,
 * credential guid), so one missing field is one failure.
 *
 * A field is listed where a resource table or field list of the specification names it
 * without a condition; conditional fields carry their condition (`when`); fields that a
 * version does not carry by the vendor's reference while the specification's list has no
 * version start or stop at that version (`from`, `until`), as the notes say.
 */
import { severityOfTier, type Failure } from './failure.ts';
import { exchangeCheck, registerCheck, type ExchangeContext } from './registry.ts';
import { recordsAt, responseRecords } from './records.ts';

const STATED_FIELD_RULES = {
  member:
    'Resources, Member: the table names guid, id, user_guid, user_id, institution_code, name, connection_status, is_being_aggregated, aggregated_at, successfully_aggregated_at, is_managed_by_user, is_oauth and metadata without a condition; Versioning: "removing or renaming a response field" is breaking',
  oauthUri:
    'States and transitions: create member with is_oauth = true -> PENDING, "oauth_window_uri returned"; Resources, Member: oauth_window_uri "present for OAuth members"',
  statusChallenges: 'Endpoints, Widgets and members: GET .../status "connection status; when MFA is required the response has a challenges array"',
  statusState: 'Endpoints, Widgets and members: GET /users/{user_guid}/members/{member_guid}/status "connection status"',
  optionGuid:
    'Resources, Credential (institution or member): "MFA challenges of type text, options, image and image_options carry a guid on option entries (v20250224)"',
  account:
    'Resources, Account: "Fields named: guid, user_id, member_id, user_guid, member_guid, institution_guid, member_is_managed_by_user, federal_insurance_status, calculated_apr, holdings_value, hold_total, pending_transactions_total, imported_at, available_credit, cash_advance_apr, statement_balance, statement_on, last_payment_on, loan_amount, pending_balance, premium_amount, insured_name, pay_out_amount, death_benefit, cash_surrender_value, is_personal, balance, available_balance"; Versioning: "removing or renaming a response field" is breaking (from v20250224 the vendor reference carries no institution_guid, calculated_apr or holdings_value: ../shared/real-service-notes.md, Nullability)',
  transaction:
    'Resources, Transaction: "Fields named: guid, category_guid, top_level_category_guid, user_guid, merchant_guid, merchant_location_guid, is_manual, is_subscription, is_international, member_is_managed_by_user, check_number (string)" (a check number only where there is a check); Versioning: "removing or renaming a response field" is breaking',
  institution:
    'Resources, Institution: "Fields named: code, guid, name, created_at, is_hidden, status, client_status, is_disabled_by_client, instructional_text, instructional_text_steps, forgot_password_url, forgot_username_url, trouble_signing_in_url, supports_oauth ..., and supported_products"; "Deprecated in v20250224 and replaced by supported_products: supports_account_verification, supports_account_identification, supports_transaction_history, supports_account_statement" (v20111101 has no guid, created_at, is_hidden, supported_products: ../shared/real-service-notes.md, Nullability)',
  category: 'Resources, Category: "Fields include guid and is_default (boolean)"',
  credential: 'Resources, Credential (institution or member): "Has a type field"',
  widget: 'Resources, Widget URL: "Response object widget_url with type (string), url (string) and user_id (string)"',
} as const;

const CHECK = 'stated_resource_fields';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (r: Rec, k: string) => Object.hasOwn(r, k);

interface FieldRule {
  fields: readonly string[];
  rule: string;
  /** `stated` where a sentence states the presence; `inferred` where a list only names the field. */
  tier: 'stated' | 'inferred';
  /** First version that states the fields (inclusive); absent: every version. */
  from?: string;
  /** Version from which they are no longer stated (exclusive). */
  until?: string;
  /** Only records this holds for. */
  when?: (r: Rec) => boolean;
}

/** Stated fields by component schema name (spec/platform.openapi.yaml #/components/schemas/<name>). */
export const STATED_FIELDS: Readonly<Record<string, readonly FieldRule[]>> = {
  Member: [
    {
      fields: [
        'guid',
        'id',
        'user_guid',
        'user_id',
        'institution_code',
        'name',
        'connection_status',
        'is_being_aggregated',
        'aggregated_at',
        'successfully_aggregated_at',
        'is_managed_by_user',
        'is_oauth',
        'metadata',
      ],
      rule: STATED_FIELD_RULES.member,
      tier: 'inferred',
    },
    { fields: ['oauth_window_uri'], rule: STATED_FIELD_RULES.oauthUri, tier: 'stated', when: (r) => r.is_oauth === true && r.connection_status === 'PENDING' },
  ],
  MemberStatus: [
    { fields: ['connection_status'], rule: STATED_FIELD_RULES.statusState, tier: 'stated' },
    { fields: ['challenges'], rule: STATED_FIELD_RULES.statusChallenges, tier: 'stated', when: (r) => r.connection_status === 'CHALLENGED' },
  ],
  Account: [
    {
      fields: [
        'guid',
        'user_id',
        'member_id',
        'user_guid',
        'member_guid',
        'member_is_managed_by_user',
        'federal_insurance_status',
        'hold_total',
        'pending_transactions_total',
        'imported_at',
        'available_credit',
        'cash_advance_apr',
        'statement_balance',
        'statement_on',
        'last_payment_on',
        'loan_amount',
        'pending_balance',
        'premium_amount',
        'insured_name',
        'pay_out_amount',
        'death_benefit',
        'cash_surrender_value',
        'is_personal',
        'available_balance',
      ],
      rule: STATED_FIELD_RULES.account,
      tier: 'inferred',
    },
    { fields: ['institution_guid', 'calculated_apr', 'holdings_value'], rule: STATED_FIELD_RULES.account, tier: 'inferred', until: 'v20250224' },
  ],
  Transaction: [
    // check_number is left out: "check_number (string)" states the type of a check payment's
    // number; a transaction paid otherwise has no check (its presence is not stated).
    {
      fields: [
        'guid',
        'category_guid',
        'top_level_category_guid',
        'user_guid',
        'is_manual',
        'is_subscription',
        'is_international',
        'member_is_managed_by_user',
      ],
      rule: STATED_FIELD_RULES.transaction,
      tier: 'inferred',
    },
  ],
  Institution: [
    {
      fields: [
        'code',
        'name',
        'status',
        'client_status',
        'is_disabled_by_client',
        'instructional_text',
        'instructional_text_steps',
        'forgot_password_url',
        'forgot_username_url',
        'trouble_signing_in_url',
        'supports_oauth',
      ],
      rule: STATED_FIELD_RULES.institution,
      tier: 'inferred',
    },
    { fields: ['guid', 'created_at', 'is_hidden', 'supported_products'], rule: STATED_FIELD_RULES.institution, tier: 'inferred', from: 'v20250224' },
    {
      fields: ['supports_account_verification', 'supports_account_identification', 'supports_transaction_history', 'supports_account_statement'],
      rule: STATED_FIELD_RULES.institution,
      tier: 'inferred',
      until: 'v20250224',
    },
  ],
  Category: [{ fields: ['guid', 'is_default'], rule: STATED_FIELD_RULES.category, tier: 'inferred' }],
  Credential: [{ fields: ['type'], rule: STATED_FIELD_RULES.credential, tier: 'stated' }],
};

/** Records of MFA challenges (MemberStatus.challenges[*]): every object of an array in one is an option entry, whatever the array's name (not shown). */
function optionEntriesWithoutGuid(status: Rec): Rec | undefined {
  const challenges = Array.isArray(status.challenges) ? status.challenges.filter(isRec) : [];
  for (const ch of challenges) {
    for (const v of Object.values(ch)) {
      if (!Array.isArray(v)) continue;
      const miss = v.find((x) => isRec(x) && !has(x, 'guid'));
      if (miss) return miss as Rec;
    }
  }
  return undefined;
}

const inRange = (version: string | undefined, r: FieldRule) =>
  (!r.from || (version !== undefined && version >= r.from)) && (!r.until || version === undefined || version < r.until);

function fail(c: ExchangeContext, location: string, rule: string, message: string, tier: 'stated' | 'inferred' = 'stated'): Failure {
  return { check: CHECK, operation: c.operationKey, location, rule, severity: severityOfTier(tier, c.options.strict), tier, message };
}

registerCheck(
  exchangeCheck({
    name: CHECK,
    description:
      "Every record of a resource carries the fields a sentence says it has (stated: a credential type, a new OAuth member's oauth_window_uri, a status and its challenges, v20250224 option guids) and, inferred, the fields a list only names (Member, Account, Transaction, Institution, Category); a null is not judged",
    appliesTo: (c) =>
      c.model.api === 'platform' &&
      c.status >= 200 &&
      c.status < 300 &&
      !!c.media?.schemaUri &&
      c.media.schemaPointer !== undefined &&
      isRec(c.exchange.response.body),
    run: (c) => {
      const out: Failure[] = [];
      const seen = new Set<string>();
      const { records } = responseRecords(c.media!.schemaUri!, c.media!.schemaPointer!);
      // A slim record (data exchange: "list slim accounts", "slim transactions") is a subset whose fields are not shown.
      const slim = new Set(records.filter((r) => r.component.startsWith('Slim')).map((r) => r.path.join('.')));
      for (const site of records) {
        const rules = STATED_FIELDS[site.component];
        if (!rules || slim.has(site.path.join('.'))) continue;
        const recs = recordsAt(c.exchange.response.body, site.path);
        const where = site.path.map((s) => (s === '*' ? '[*]' : `.${s}`)).join('');
        // One failure per rule and place: the first record that lacks any of its fields, with every field it lacks.
        for (const r of rules) {
          if (!inRange(c.version, r)) continue;
          const miss = recs.find((x) => (!r.when || r.when(x)) && r.fields.some((f) => !has(x, f)));
          const key = `${where}|${r.fields.join(',')}`;
          if (!miss || seen.has(key)) continue;
          seen.add(key);
          const lacking = r.fields.filter((f) => !has(miss, f));
          out.push(
            fail(
              c,
              `response.body${where}.${lacking[0]}`,
              r.rule,
              `Received: ${site.component.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} ${JSON.stringify(miss.guid ?? miss.code ?? '(no guid)')} without ${lacking.join(', ')} / Expected: ${lacking.length > 1 ? 'these fields' : lacking[0]} (null allowed)${r.tier === 'inferred' ? '; the specification names the field but does not say it is always present' : ''}`,
              r.tier,
            ),
          );
        }
        // Resources, Credential: option entries of MFA challenges carry a guid from v20250224.
        if (site.component === 'MemberStatus' && c.version !== undefined && c.version >= 'v20250224') {
          for (const rec of recs) {
            const entry = optionEntriesWithoutGuid(rec);
            if (entry) {
              out.push(
                fail(
                  c,
                  `response.body${where}.challenges`,
                  STATED_FIELD_RULES.optionGuid,
                  `Received: an option entry without guid (${JSON.stringify(entry).slice(0, 120)}) / Expected: a guid on every option entry (v20250224)`,
                ),
              );
              break;
            }
          }
        }
      }
      return out;
    },
  }),
);
