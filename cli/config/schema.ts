/**
 * The config file's side of the one table of settings (targets/profiles/settings.ts, read
 * through targets/index.ts): the type of `defineConfig` (SvcConfig below), derived from the
 * table, and the titles of its groups in the settings reference. The JSON Schema a config
 * file is validated against and the environment a run hands to the target profile come from
 * the same table (load.ts configJsonSchema, configProblems, configEnv), as does `config
 * init`'s starting file (init.ts).
 */
import type { SETTINGS, Setting } from '../../targets/index.ts';

export { SETTINGS, settingEntries, type Setting, type SettingEntry } from '../../targets/index.ts';

type Leaf<S> = S extends Setting<infer T> ? T : never;
/** The config file's shape: every key optional, typed from the table. */
export type ConfigOf<S> = { -readonly [K in keyof S]?: S[K] extends Setting<unknown> ? Leaf<S[K]> : ConfigOf<S[K]> };
/** What `defineConfig` takes (secrets excepted at run time: they come from the environment). */
export type SvcConfig = ConfigOf<typeof SETTINGS> & {
  /** JSON Schema reference, for editors (ignored). */
  $schema?: string;
};

/** The top-level groups, for documentation. */
export const GROUP_TITLES: Record<string, string> = {
  target: 'Target',
  credentials: 'Credentials (environment only)',
  testInstitution: 'Test institution',
  versions: 'Versions',
  rateLimit: 'Rate limit',
  strict: 'Tiers',
  timeouts: 'Timeouts',
  limits: 'Limits',
  oauthPage: 'OAuth page',
  widget: 'Widget controls',
  productPaths: 'Product-area paths',
  institutions: 'Institutions',
  achFilters: 'ACH return list filters',
  userCategories: 'User categories',
  useCases: 'Use cases',
  processor: 'Processor tokens',
  dataExchange: 'Data exchange',
  audience: 'Audience service',
  webhooks: 'Webhooks',
  load: 'Load scripts',
  fuzz: 'Fuzz project',
  usedOperations: 'Upgrade check',
  reference: "The vendor's reference (a second witness)",
  integration: "Your integration's gate (proxy, check-har, usage, tolerance)",
  run: 'Run',
  simulator: 'Embedded simulator',
};

export function defineConfig(config: SvcConfig): SvcConfig {
  return config;
}
