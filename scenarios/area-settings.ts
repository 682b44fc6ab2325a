/**
 * Profile settings of the categories, transactions, insights, widget and webhook
 * scenarios for what the specification names without showing (paths, opt-ins, the
 * widget's controls). Each is an environment variable; the simulator's values are the
 * defaults only when the target is the simulator. A real target without a setting skips
 * exactly the scenarios that need it (the skip names the variable).
 */
import type { TargetProfile } from '../targets/index.ts';

type Env = Record<string, string | undefined>;
const list = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

/**
 * Categories: GET /categories/default is "equivalent to the by-user default list", and
 * "a user can also have custom categories"; neither the by-user paths nor the custom
 * category body are shown. Defaults are the vendor reference's paths; `{user_guid}` is
 * replaced. On a real target the vendor paths are used unless set otherwise.
 */
export function userCategoryPaths(env: Env = process.env) {
  return {
    defaults: env.SVC_USER_DEFAULT_CATEGORIES_PATH || '/users/{user_guid}/categories/default',
    all: env.SVC_USER_CATEGORIES_PATH || '/users/{user_guid}/categories',
    /** Custom categories are created with POST on this path (`{category: {name}}`, the vendor reference's body). */
    create: env.SVC_USER_CATEGORY_CREATE_PATH || env.SVC_USER_CATEGORIES_PATH || '/users/{user_guid}/categories',
    explicit: !!(env.SVC_USER_DEFAULT_CATEGORIES_PATH || env.SVC_USER_CATEGORIES_PATH),
  };
}

export const withUser = (path: string, user: string) => path.replace('{user_guid}', encodeURIComponent(user));

/**
 * Use cases (Resources, Member: `use_cases` "only for clients opted in to use cases";
 * Endpoints: the transaction list's `use_case` filter is for "opted-in clients").
 * Whether the client is opted in, and to which values, is not in the specification:
 * SVC_USE_CASES lists the client's use cases (at least two for the filter scenario).
 * The simulator takes any value; its default is the vendor reference's two.
 */
export function optedInUseCases(profile: Pick<TargetProfile, 'isSimulator'>, env: Env = process.env): string[] | undefined {
  return list(env.SVC_USE_CASES) ?? (profile.isSimulator ? ['MONEY_MOVEMENT', 'PFM'] : undefined);
}

/**
 * The widget's own controls are not shown in the specification. A real target's widget
 * is driven only when the profile names them (CSS selectors inside the widget page):
 *   SVC_WIDGET_OAUTH_SELECTOR     starts the connection to the OAuth test institution
 *   SVC_WIDGET_USERNAME_SELECTOR, SVC_WIDGET_PASSWORD_SELECTOR, SVC_WIDGET_CONNECT_SELECTOR
 *                                 enter credentials of the test institution and connect
 *   SVC_WIDGET_PRIMARY_SELECTOR   the primary action once a member is connected
 *   SVC_WIDGET_DELETE_SELECTOR    deletes the connected member
 *   SVC_WIDGET_BACK_SELECTOR      the back-to-search control shown with disable_search_institution
 * (searching for the institution beforehand is the target's own flow: give
 * SVC_WIDGET_CURRENT_INSTITUTION=1 to send current_institution_code so the widget opens on
 * the test institution). The simulator's widget has these selectors built in.
 */
export interface WidgetControls {
  oauth?: string;
  username?: string;
  password?: string;
  connect?: string;
  primary?: string;
  delete?: string;
  back?: string;
}

export function widgetControls(profile: Pick<TargetProfile, 'isSimulator'>, env: Env = process.env): WidgetControls {
  const sim = profile.isSimulator;
  const pick = (name: string, simValue: string) => env[name] || (sim ? simValue : undefined);
  return {
    oauth: pick('SVC_WIDGET_OAUTH_SELECTOR', '[data-action="oauth"]'),
    username: pick('SVC_WIDGET_USERNAME_SELECTOR', 'input[name=username]'),
    password: pick('SVC_WIDGET_PASSWORD_SELECTOR', 'input[name=password]'),
    connect: pick('SVC_WIDGET_CONNECT_SELECTOR', '[data-action="connect"]'),
    primary: pick('SVC_WIDGET_PRIMARY_SELECTOR', '[data-action="primary"]'),
    delete: pick('SVC_WIDGET_DELETE_SELECTOR', '[data-action="delete"]'),
    back: pick('SVC_WIDGET_BACK_SELECTOR', '[data-action="back"]'),
  };
}

/** The skip reason naming every missing control variable, or undefined when all are set. */
export function missingControls(c: WidgetControls, needed: Array<keyof WidgetControls>): string | undefined {
  const names: Record<keyof WidgetControls, string> = {
    oauth: 'SVC_WIDGET_OAUTH_SELECTOR',
    username: 'SVC_WIDGET_USERNAME_SELECTOR',
    password: 'SVC_WIDGET_PASSWORD_SELECTOR',
    connect: 'SVC_WIDGET_CONNECT_SELECTOR',
    primary: 'SVC_WIDGET_PRIMARY_SELECTOR',
    delete: 'SVC_WIDGET_DELETE_SELECTOR',
    back: 'SVC_WIDGET_BACK_SELECTOR',
  };
  const missing = needed.filter((k) => !c[k]).map((k) => names[k]);
  return missing.length ? `the widget's controls are not shown in the specification: set ${missing.join(', ')} (CSS selectors inside the target's widget) to drive it` : undefined;
}
