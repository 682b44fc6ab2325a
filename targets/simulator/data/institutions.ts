/**
 * The institution catalogue (Resources and their fields, "Institution"; Endpoints,
 * "Institutions"): deterministic, at least `settings.institutionCount` records, built
 * once per count and shared read-only by every simulator instance in the process.
 *
 * Seeded on purpose:
 * - `svcbank` (scenario credentials) and `svc_bank_oauth` (OAuth flows), the test
 *   institutions of "Earlier-generation test paths";
 * - hidden institutions (`is_hidden` true; still listed: the specification gives no
 *   rule that hides them) and blocked ones (`is_disabled_by_client` true), which
 *   `/institutions` lists only with `include_blocked_institutions=true`;
 * - institutions in several countries (filter by country code) and with different
 *   `supported_products` (filter by supported products).
 *
 * The catalogue keeps one stable order (by index), so walking the pages returns every
 * record exactly once.
 */
import { SIMULATOR_DEFAULTS } from '../settings.ts';
import { seededRandom } from '../../seeded-random.ts';
import { stableGuid } from './stable-id.ts';

/**
 * Values named in the specification ("values such as"), plus an internal `statements`
 * that only backs the v20111101 `supports_account_statement` flag (no product value for
 * statements is named, so responses never show it).
 */
const PRODUCTS = ['account_verification', 'identity_verification', 'transactions', 'transaction_history', 'statements'] as const;

/** The four v20111101 flags and the product each became in v20250224 (Versioning, "Changes in v20250224"). */
export const SUPPORTS_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['supports_account_verification', 'account_verification'],
  ['supports_account_identification', 'identity_verification'],
  ['supports_transaction_history', 'transaction_history'],
  ['supports_account_statement', 'statements'],
];

export const TEST_INSTITUTION_CODE = 'svcbank';
export const TEST_OAUTH_INSTITUTION_CODE = 'svc_bank_oauth';

export interface InstitutionRecord {
  code: string;
  guid: string;
  name: string;
  created_at: string;
  is_hidden: boolean;
  status: string;
  client_status: string;
  is_disabled_by_client: boolean;
  instructional_text: string | null;
  instructional_text_steps: string[];
  forgot_password_url: string | null;
  forgot_username_url: string | null;
  trouble_signing_in_url: string | null;
  supports_oauth: boolean;
  /** Internal: products, country, rank among favourites (1 = most popular). */
  products: string[];
  countryCode: string;
  favoriteRank?: number;
}

export interface CredentialField {
  guid: string;
  field_name: string;
  label: string;
  type: string;
  display_order: number;
}

export interface InstitutionCatalog {
  all: InstitutionRecord[];
  byCode: Map<string, InstitutionRecord>;
  byGuid: Map<string, InstitutionRecord>;
  /** Favourites ordered by popularity (Endpoints: "ordered by popularity"). */
  favorites: InstitutionRecord[];
}

const FIRST = [
  'First',
  'Harbor',
  'Summit',
  'Prairie',
  'Granite',
  'River',
  'Pioneer',
  'Liberty',
  'Cedar',
  'Golden',
  'Northern',
  'Coastal',
  'Heritage',
  'Union',
  'Valley',
  'Evergreen',
  'Keystone',
  'Lakeside',
  'Redwood',
  'Sterling',
];
const SECOND = [
  'Trust',
  'Savings',
  'Federal',
  'Community',
  'National',
  'Mutual',
  'Citizens',
  'Peoples',
  'Farmers',
  'Merchants',
  'Capital',
  'Security',
  'Horizon',
];
const KIND = ['Bank', 'Credit Union', 'Card Services', 'Mortgage', 'Investments', 'Bank & Trust'];
const COUNTRIES = ['US', 'US', 'US', 'US', 'US', 'US', 'CA', 'CA', 'GB', 'MX'];

const cache = new Map<number, InstitutionCatalog>();

function testInstitution(code: string, name: string, oauth: boolean): InstitutionRecord {
  return {
    code,
    guid: stableGuid('INS', code),
    name,
    created_at: '2015-06-01T00:00:00Z',
    is_hidden: false,
    status: 'OPERATIONAL',
    client_status: 'AVAILABLE',
    is_disabled_by_client: false,
    instructional_text: oauth ? 'You will be sent to SVC Bank to sign in.' : 'Sign in with the test user name and a scenario password.',
    instructional_text_steps: oauth ? ['Choose authorize or deny on the SVC Bank page.'] : ['Enter the test user name.', 'Enter the password of the scenario.'],
    forgot_password_url: 'https://svcbank.example/forgot-password',
    forgot_username_url: 'https://svcbank.example/forgot-username',
    trouble_signing_in_url: 'https://svcbank.example/help',
    supports_oauth: oauth,
    products: [...PRODUCTS],
    countryCode: 'US',
  };
}

function generated(i: number): InstitutionRecord {
  const rnd = seededRandom(i * 7919 + 17);
  const name = `${FIRST[i % FIRST.length]} ${SECOND[Math.floor(i / FIRST.length) % SECOND.length]} ${KIND[Math.floor(i / (FIRST.length * SECOND.length)) % KIND.length]}`;
  const code = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${String(i).padStart(4, '0')}`;
  const products = PRODUCTS.filter((p) => p === 'transactions' || rnd() < 0.6);
  const site = `https://${code.replace(/_/g, '-')}.example`;
  const day = 1 + Math.floor(rnd() * 28);
  return {
    code,
    guid: stableGuid('INS', code),
    name,
    created_at: `${2012 + (i % 12)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00Z`,
    is_hidden: i % 37 === 0,
    status: 'OPERATIONAL',
    client_status: 'AVAILABLE',
    is_disabled_by_client: i % 50 === 0,
    instructional_text: rnd() < 0.5 ? null : 'Use the same credentials as online banking.',
    instructional_text_steps: rnd() < 0.5 ? [] : ['Open online banking.', 'Sign in with your user name and password.'],
    forgot_password_url: rnd() < 0.2 ? null : `${site}/forgot-password`,
    forgot_username_url: rnd() < 0.2 ? null : `${site}/forgot-username`,
    trouble_signing_in_url: rnd() < 0.2 ? null : `${site}/help`,
    supports_oauth: i % 9 === 0,
    products,
    countryCode: COUNTRIES[i % COUNTRIES.length],
  };
}

export function institutionCatalog(count: number): InstitutionCatalog {
  const hit = cache.get(count);
  if (hit) return hit;
  const all: InstitutionRecord[] = [
    testInstitution(TEST_INSTITUTION_CODE, 'SVC Bank', false),
    testInstitution(TEST_OAUTH_INSTITUTION_CODE, 'SVC Bank (OAuth)', true),
  ];
  for (let i = 1; all.length < Math.max(count, 2); i++) all.push(generated(i));
  // Favourites: a vendor-curated list (Endpoints: "set up by the vendor on request").
  const favorites = [all[0], all[1], ...all.filter((r, i) => i > 1 && i % 97 === 3 && !r.is_disabled_by_client).slice(0, 23)];
  favorites.forEach((r, i) => {
    r.favoriteRank = i + 1;
  });
  const catalog: InstitutionCatalog = {
    all,
    byCode: new Map(all.map((r) => [r.code, r])),
    byGuid: new Map(all.map((r) => [r.guid, r])),
    favorites,
  };
  cache.set(count, catalog);
  return catalog;
}

/**
 * Credentials needed to create a member (Endpoints, "Institutions"): every institution
 * asks for a user name and a password; the guids are stable so member creation
 * (credentials `[{guid, value}]`) can name them.
 */
export function institutionCredentials(code: string): CredentialField[] {
  return [
    { guid: stableGuid('CRD', `${code}:username`), field_name: 'username', label: 'Username', type: 'TEXT', display_order: 1 },
    { guid: stableGuid('CRD', `${code}:password`), field_name: 'password', label: 'Password', type: 'PASSWORD', display_order: 2 },
  ];
}

/**
 * What a profile names for a real target and the simulator seeds (targets/profiles/sections.ts,
 * institutionsFrom): the favourites in popularity order, one institution blocked for
 * the client (`is_disabled_by_client`), and the test institution's country.
 */
export function simulatorInstitutionSeed(count: number = SIMULATOR_DEFAULTS.institutionCount) {
  const c = institutionCatalog(count);
  return {
    favouriteCodes: c.favorites.map((r) => r.code),
    blockedCode: c.all.find((r) => r.is_disabled_by_client)!.code,
    testInstitutionCountry: c.byCode.get(TEST_INSTITUTION_CODE)!.countryCode,
  };
}
